//! Fuzz target for the whole inbound path: any bytes, taken
//! as a raw mail, are stored, authenticated, read as a command or orders of
//! a Magic Realm campaign and confirmed. The word `SECRET` in the input is
//! replaced by Ann's real secret, so the fuzzer reaches the orders reader
//! and the confirmation, not only the refusals. An error is fine; a panic,
//! or a mail left unhandled or failed, is a bug.
#![no_main]

use libfuzzer_sys::fuzz_target;
use realmgm::campaign::Campaign;
use realmgm::daemon::Daemon;
use realmgm::store::{InboundStatus, Store};

const CAMPAIGN: &str = "name = \"FZ\"\ngame = \"magic-realm\"\nseed = 1\n\
    [gm]\nemail = \"gm@fuzz.test\"\n\
    [schedule]\nfirst_deadline = \"2099-01-01\"\nat = \"20:00\"\nevery_hours = 24\n\
    [[players]]\nname = \"Ann\"\nemail = \"ann@fuzz.test\"\ncharacter = \"Amazon\"\n";

fuzz_target!(|bytes: &[u8]| {
    let mut daemon = Daemon::new(Store::open_in_memory(realmgm::games::GAMES).expect("an in-memory store"));
    let campaign = Campaign::parse("fuzz.toml", CAMPAIGN, realmgm::games::GAMES).expect("the fuzz campaign parses");
    let secrets = daemon
        .store
        .campaigns_mut()
        .insert(&campaign, CAMPAIGN, 0)
        .expect("the fuzz campaign is stored");
    daemon.turns().check_turn("FZ", 0).expect("the game is set up");
    let raw = replace(bytes, b"SECRET", secrets[0].secret.as_bytes());
    daemon.mail_in().ingest(&raw, 1).expect("the store works");
    for status in [InboundStatus::New, InboundStatus::Failed] {
        let left = daemon.store.inbox().with_status(status).expect("the store works");
        assert!(left.is_empty(), "a mail was left {}: {:?}", status.as_str(), left[0].note);
    }
});

fn replace(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    while let Some(at) = rest.windows(from.len()).position(|w| w == from) {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(to);
        rest = &rest[at + from.len()..];
    }
    out.extend_from_slice(rest);
    out
}
