//! What a long campaign leaves on disk: a 16-player Magic
//! Realm month played through the daemon stays under 11 MB, because a
//! report is stored once (its mail refers to it) and compressed. The
//! reports' JSON documents take about 1 MB of it (9.0 MB without them).

use crate::month16;

#[test]
fn a_sixteen_player_month_stays_under_eleven_megabytes() {
    let path = std::env::temp_dir().join(format!("realmgm-month16-{}.sqlite", std::process::id()));
    let played = month16::play(&path, 28);
    month16::remove(&path);
    assert_eq!(played.mails_in, 16 * 28);
    // Each orders mail answered, each day's report sent, the GM's history.
    assert!(played.mails_out >= 2 * 16 * 28 + 28, "{}", played.mails_out);
    eprintln!(
        "the month in this build: reading {:?}, running the days {:?}, sending {:?}; {} bytes",
        played.reading, played.running, played.sending, played.bytes
    );
    let size = |table: &str| {
        played
            .tables
            .iter()
            .find(|(name, _)| name == table)
            .map_or(0, |(_, bytes)| *bytes)
    };
    assert!(
        played.bytes < 11_000_000,
        "{} bytes: {:?}",
        played.bytes,
        played.tables
    );
    // The maps and JSON documents are kept with the reports only, not again
    // with their mails.
    assert!(size("report_attachments") > 100_000, "{:?}", played.tables);
    assert_eq!(size("outbox_attachments"), 0, "{:?}", played.tables);
}
