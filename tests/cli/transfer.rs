//! `realmgm campaign export` and `campaign import`: the demo's week moved to
//! a database that holds another campaign already, compared row by row, and
//! its last day re-run there to the same state; hostile export files refused
//! with the reason, leaving both databases and the file as they were.

mod mutations;

use crate::common;

use std::path::Path;

use common::{TempDb, realmgm, stderr, stdout, store_demo_campaign};
use realmgm::dice::Dice;
use rusqlite::Connection;

/// Rows of `sql` (which names the campaign as `?1`) in `db`, each row's
/// columns joined, for comparing two databases.
fn rows(db: &Path, sql: &str) -> Vec<String> {
    let conn = Connection::open(db).unwrap();
    let id: i64 = conn
        .query_row("SELECT id FROM campaigns WHERE name = 'DEMO'", [], |r| {
            r.get(0)
        })
        .unwrap();
    let mut statement = conn.prepare(sql).unwrap();
    let width = statement.column_count();
    statement
        .query_map([id], |row| {
            (0..width)
                .map(|i| {
                    let value: rusqlite::types::Value = row.get(i)?;
                    Ok(format!("{value:?}"))
                })
                .collect::<Result<Vec<_>, _>>()
                .map(|columns| columns.join(" | "))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// What must arrive unchanged, each without the ids a database gives.
const SAME: &[&str] = &[
    "SELECT name, email, character, secret_hash, left_at FROM players WHERE campaign_id = ?1 ORDER BY name",
    "SELECT day, state_hash FROM game_days WHERE campaign_id = ?1 ORDER BY day",
    "SELECT day, seq, event_json, observers_json FROM events WHERE campaign_id = ?1 ORDER BY day, seq",
    "SELECT p.name, o.day, o.version, o.text, o.parsed_json, m.raw FROM order_submissions o \
     JOIN players p ON p.id = o.player_id LEFT JOIN inbound_mail m ON m.id = o.source_mail \
     WHERE o.campaign_id = ?1 ORDER BY p.name, o.day, o.version",
    "SELECT day, reader, subject, text, html FROM reports WHERE campaign_id = ?1 ORDER BY day, reader",
    "SELECT day, reader, position, name, length(bytes) FROM report_attachments \
     WHERE campaign_id = ?1 ORDER BY day, reader, position",
    "SELECT o.recipient, o.subject, o.body, o.status, a.position, a.name, length(a.bytes) \
     FROM outbox o LEFT JOIN outbox_attachments a ON a.outbox_id = o.id \
     WHERE o.campaign_id = ?1 ORDER BY o.created, o.subject, o.recipient, a.position",
    "SELECT at, kind, message, m.content_hash FROM gm_log g LEFT JOIN inbound_mail m \
     ON m.id = g.inbound_id WHERE g.campaign_id = ?1 ORDER BY at, kind, message",
    "SELECT day, orders_hash, state_hash, reports_hash FROM day_runs WHERE campaign_id = ?1 ORDER BY day",
    "SELECT paused, hold_reason, reminded_day FROM daemon_state WHERE campaign_id = ?1",
];

#[test]
fn an_exported_campaign_arrives_whole_and_replays_its_last_day_the_same() {
    let home = TempDb::new("transfer-home");
    let demo = home.dir().join("demo");
    stdout(&realmgm(
        &["demo", "--dir", demo.to_str().unwrap()],
        &home.0,
    ));
    let source = demo.join("realmgm.sqlite");
    let source_arg = source.to_str().unwrap();

    let export = home.dir().join("moving").join("demo-export.sqlite");
    let export_arg = export.to_str().unwrap();
    let said = stdout(&realmgm(
        &["campaign", "export", "demo", export_arg, "--db", source_arg],
        &home.0,
    ));
    assert!(
        said.starts_with("Exported campaign DEMO (3 players, days 0 to 7,"),
        "{said}"
    );
    assert!(said.contains("gm --campaign DEMO pause"), "{said}");
    let again = stderr(&realmgm(
        &["campaign", "export", "DEMO", export_arg, "--db", source_arg],
        &home.0,
    ));
    assert!(again.contains("exists already"), "{again}");

    // The receiving host runs another campaign, so every id there differs.
    let host = TempDb::new("transfer-host");
    stdout(&realmgm(
        &["campaign", "new", "campaigns/bimr3.toml"],
        &host.0,
    ));
    let said = stdout(&realmgm(&["campaign", "import", export_arg], &host.0));
    assert!(
        said.starts_with("Imported campaign DEMO (3 players"),
        "{said}"
    );
    // Its Maildir folders are made on this host, as `campaign new` makes them.
    for folder in ["in", "out"] {
        let maildir = host.dir().join("mail/DEMO").join(folder);
        assert!(maildir.join("new").is_dir(), "{}", maildir.display());
    }
    assert!(said.contains("Created the Maildir folder"), "{said}");
    let twice = stderr(&realmgm(&["campaign", "import", export_arg], &host.0));
    assert!(
        twice.contains("holds a campaign called DEMO already"),
        "{twice}"
    );
    let listed = stdout(&realmgm(&["campaign", "list"], &host.0));
    assert!(
        listed.contains("BIMR3") && listed.contains("DEMO"),
        "{listed}"
    );
    for sql in SAME {
        let there = rows(&host.0, sql);
        assert!(
            !there.is_empty() || sql.contains("day_runs"),
            "nothing for {sql}"
        );
        assert_eq!(rows(&source, sql), there, "{sql}");
    }

    // The last day again on the new host: the same state and reports.
    let last_state = |db: &Path| {
        rows(
            db,
            "SELECT state_hash FROM game_days WHERE campaign_id = ?1 AND day = 7",
        )
    };
    let last_reports = |db: &Path| {
        rows(
            db,
            "SELECT reader, text FROM reports WHERE campaign_id = ?1 AND day = 7 ORDER BY reader",
        )
    };
    stdout(&realmgm(
        &["gm", "--campaign", "DEMO", "rollback", "--day", "6"],
        &host.0,
    ));
    assert!(last_state(&host.0).is_empty(), "day 7 is undone");
    let ran = stdout(&realmgm(&["gm", "--campaign", "DEMO", "process"], &host.0));
    assert!(ran.contains("day 7"), "{ran}");
    assert_eq!(last_state(&host.0), last_state(&source));
    assert_eq!(last_reports(&host.0), last_reports(&source));
}

/// The demo campaign exported to a file, then edited by `sql` as a hostile
/// sender would; returns the file.
fn hostile_export(home: &TempDb, sql: &str) -> std::path::PathBuf {
    store_demo_campaign(home, "DEMO");
    let export = home.dir().join("demo-export.sqlite");
    stdout(&realmgm(
        &["campaign", "export", "DEMO", export.to_str().unwrap()],
        &home.0,
    ));
    let conn = Connection::open(&export).unwrap();
    conn.pragma_update(None, "foreign_keys", false).unwrap();
    conn.execute_batch(sql).unwrap();
    export
}

/// How many players of the receiving database are called `name`.
fn players_named(db: &Path, name: &str) -> i64 {
    Connection::open(db)
        .unwrap()
        .query_row(
            "SELECT COUNT(*) FROM players WHERE name = ?1",
            [name],
            |r| r.get(0),
        )
        .unwrap()
}

#[test]
fn an_export_whose_column_is_sql_is_refused_and_injects_nobody() {
    let home = TempDb::new("transfer-mallory");
    // Renamed so that an import naming the file's columns in its SQL adds
    // Mallory to campaign 1 of the receiver (the old import did, once).
    let export = hostile_export(
        &home,
        "ALTER TABLE players RENAME COLUMN character_stays TO \"character_stays) \
         SELECT id + (SELECT MAX(id) FROM main.players), (SELECT MAX(id) FROM main.campaigns), \
         name, email, character, secret_hash, joined, left_at, 0 FROM other.players \
         UNION ALL SELECT 1000, 1, 'Mallory', 'mallory@evil.test', NULL, secret_hash, joined, \
         NULL, 0 FROM other.players WHERE id = 1 /*\"",
    );
    let bytes = std::fs::read(&export).unwrap();
    let host = TempDb::new("transfer-mallory-host");
    stdout(&realmgm(
        &["campaign", "new", "campaigns/bimr3.toml"],
        &host.0,
    ));
    let said = stderr(&realmgm(
        &["campaign", "import", export.to_str().unwrap()],
        &host.0,
    ));
    assert!(
        said.contains("its table players has a column 'character_stays) SELECT"),
        "{said}"
    );
    assert!(said.contains("Nothing was imported"), "{said}");
    assert_eq!(players_named(&host.0, "Mallory"), 0);
    assert!(!stdout(&realmgm(&["campaign", "list"], &host.0)).contains("DEMO"));
    assert_eq!(
        std::fs::read(&export).unwrap(),
        bytes,
        "the file is only read"
    );
}

#[test]
fn an_export_named_with_a_line_break_is_refused_without_printing_it() {
    let home = TempDb::new("transfer-crlf");
    let export = hostile_export(
        &home,
        "UPDATE campaigns SET name = 'EVIL' || char(13, 10) || 'Bcc: all@evil.test'",
    );
    let host = TempDb::new("transfer-crlf-host");
    let said = stderr(&realmgm(
        &["campaign", "import", export.to_str().unwrap()],
        &host.0,
    ));
    assert!(
        said.contains("'EVIL??Bcc: all@evil.test', which cannot be a campaign tag"),
        "{said}"
    );
    assert!(!said.trim_end().contains(['\r', '\n']), "{said}");
}

/// The fuzz target `import`'s path over a seeded corpus: 200 hostile files
/// made from a real export (bytes flipped, columns renamed, tables dropped,
/// rows moved, values retyped or oversize, objects added).
#[test]
fn hostile_export_files_are_refused_or_imported_whole() {
    assert!(
        matches!(
            mutations::exercise(&mutations::hostile_export(&[])),
            mutations::Outcome::Imported
        ),
        "the unchanged export imports"
    );
    let mut refused = 0;
    for seed in 0..200u64 {
        let mut dice = Dice::new(seed, 31);
        let plan: Vec<u8> = (0..32).map(|_| dice.below("plan", 256) as u8).collect();
        let outcome =
            std::panic::catch_unwind(|| mutations::exercise(&mutations::hostile_export(&plan)));
        match outcome {
            Ok(mutations::Outcome::Refused(why)) => {
                assert!(
                    why.contains(" is not a campaign export") || why.contains("already"),
                    "{why}"
                );
                refused += 1;
            }
            Ok(mutations::Outcome::Imported) => {}
            Err(_) => panic!("a hostile export broke the import, seed {seed}"),
        }
    }
    assert!(
        refused > 100,
        "only {refused} of 200 hostile files were refused"
    );
}
