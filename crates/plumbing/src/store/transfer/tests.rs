//! Tests of moving a campaign between databases, and of the checks an
//! export file from elsewhere passes before anything of it is copied.

use std::path::{Path, PathBuf};

use rusqlite::ToSql;

use super::*;
use crate::campaign::Campaign;
use crate::store::packed::PackedText;
use crate::store::{SCHEMA_VERSION, Store, migrate};

const BIMR3: &str = include_str!("../../../../../campaigns/bimr3.toml");
const NOW: i64 = 1_740_000_000;

fn temp(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("realmgm-transfer-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn every_table_is_moved_with_its_campaign_or_named_as_the_hosts() {
    let store = Store::open_in_memory(crate::TEST_GAMES).unwrap();
    let tables: Vec<String> = store
        .conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut known: Vec<String> = TABLES
        .iter()
        .map(|t| t.name)
        .chain(HOST_TABLES.iter().copied())
        .map(str::to_string)
        .collect();
    known.sort();
    assert_eq!(
        tables, known,
        "a new table must be listed in TABLES (with how its rows belong to a campaign) or in \
         HOST_TABLES, so an export never leaves part of a campaign behind"
    );
    for table in TABLES {
        let columns = columns(&store.conn, "main", table.name).unwrap();
        let has_id = columns.iter().any(|c| c == "id");
        assert_eq!(has_id, table.id != Id::None, "{}: its id", table.name);
        for (column, _) in table.references {
            assert!(
                columns.iter().any(|c| c == column),
                "{}.{column}",
                table.name
            );
        }
    }
}

#[test]
fn what_is_not_one_campaigns_export_is_refused_and_nothing_is_added() {
    let dir = temp("refused");
    let mut store = Store::open_in_memory(crate::TEST_GAMES).unwrap();
    let text = dir.join("notes.txt");
    std::fs::write(&text, "not a database, only some words of the GM's").unwrap();
    let error = store.campaigns_mut().import(&text).unwrap_err().to_string();
    assert!(error.contains("is not a campaign export"), "{error}");
    let missing = store
        .campaigns_mut()
        .import(&dir.join("missing.sqlite"))
        .unwrap_err();
    assert!(missing.to_string().contains("no such file"), "{missing}");
    let folder = store.campaigns_mut().import(&dir).unwrap_err().to_string();
    assert!(folder.contains("a folder or a device"), "{folder}");
    let empty = dir.join("empty.sqlite");
    drop(Store::open(&empty, crate::TEST_GAMES).unwrap());
    let none = store
        .campaigns_mut()
        .import(&empty)
        .unwrap_err()
        .to_string();
    assert!(none.contains("holds 0 campaigns"), "{none}");
    assert!(store.campaigns().list().unwrap().is_empty());
    let no_campaign = store
        .campaigns()
        .export("NOPE", &dir.join("nope.sqlite"))
        .unwrap_err();
    assert!(!dir.join("nope.sqlite").exists(), "{no_campaign}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_export_through_a_link_pointing_nowhere_is_refused_and_creates_nothing() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp("dangling");
    let store = receiver();
    let target = dir.join("made-by-sqlite.sqlite");
    let link = dir.join("export.sqlite");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let error = store
        .campaigns()
        .export("HOST", &link)
        .unwrap_err()
        .to_string();
    assert!(error.contains("exists already"), "{error}");
    assert!(!target.exists(), "the link was followed: {error}");
    let fresh = dir.join("fresh.sqlite");
    store.campaigns().export("HOST", &fresh).unwrap();
    let mode = std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{mode:o}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The BIMR3 campaign file renamed to `name`, checked.
fn campaign_named(name: &str) -> (Campaign, String) {
    let text = BIMR3.replacen("name = \"BIMR3\"", &format!("name = \"{name}\""), 1);
    (
        Campaign::parse("bimr3.toml", &text, crate::TEST_GAMES).unwrap(),
        text,
    )
}

/// A receiving database that runs campaign HOST already.
fn receiver() -> Store {
    let mut store = Store::open_in_memory(crate::TEST_GAMES).unwrap();
    let (campaign, text) = campaign_named("HOST");
    store.campaigns_mut().insert(&campaign, &text, NOW).unwrap();
    store
}

/// Campaign MOVED, with its players and a GM log line, exported to `dir`
/// and then changed by `sql`, as a hostile sender would.
fn export_edited(dir: &Path, sql: &str) -> PathBuf {
    let mut store = Store::open_in_memory(crate::TEST_GAMES).unwrap();
    let (campaign, text) = campaign_named("MOVED");
    store.campaigns_mut().insert(&campaign, &text, NOW).unwrap();
    store
        .control_mut()
        .log_gm(Some("MOVED"), NOW, "gm", "started", None)
        .unwrap();
    let file = dir.join("moved.sqlite");
    store.campaigns().export("MOVED", &file).unwrap();
    let conn = Connection::open(&file).unwrap();
    // A hostile sender is not held to the file's own foreign keys.
    conn.pragma_update(None, "foreign_keys", false).unwrap();
    conn.execute_batch(sql).unwrap();
    file
}

/// Every row of every table of `store`, for comparing before and after.
fn snapshot(store: &Store) -> Vec<String> {
    let tables: Vec<String> = store
        .conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut rows = Vec::new();
    for table in tables {
        let mut statement = store
            .conn
            .prepare(&format!("SELECT * FROM {} ORDER BY rowid", quoted(&table)))
            .unwrap();
        let width = statement.column_count();
        let found = statement
            .query_map([], |row| {
                let values = (0..width)
                    .map(|i| {
                        row.get::<_, rusqlite::types::Value>(i)
                            .map(|v| format!("{v:?}"))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(format!("{table}: {}", values.join(" | ")))
            })
            .unwrap()
            .collect::<Result<Vec<_>, _>>()
            .unwrap();
        rows.extend(found);
    }
    rows
}

/// Import `file` into a fresh receiver: it must be refused with a reason
/// holding `reason`, leave the receiver as it was and the file unchanged.
/// [`export_edited`] by `sql`, refused for `reason` ([`assert_refused`]);
/// the file is removed so that `dir` takes the next one.
fn refused_after(dir: &Path, sql: &str, reason: &str) -> String {
    let file = export_edited(dir, sql);
    let error = assert_refused(&file, reason);
    std::fs::remove_file(&file).unwrap();
    error
}

fn assert_refused(file: &Path, reason: &str) -> String {
    let mut store = receiver();
    let before = snapshot(&store);
    let bytes = std::fs::read(file).unwrap();
    let error = store
        .campaigns_mut()
        .import(file)
        .expect_err("the file must be refused")
        .to_string();
    assert!(error.contains(reason), "{error}");
    assert!(!error.contains(['\r', '\n']), "{error}");
    assert_eq!(snapshot(&store), before, "nothing may be written: {error}");
    assert_eq!(std::fs::read(file).unwrap(), bytes, "the file is only read");
    error
}

/// A column of `players` renamed so that the old import, which named the
/// file's columns in its SQL, added a player Mallory to campaign 1 (HOST)
/// of the receiver, and imported the campaign's own players as usual.
const MALLORY: &str = "ALTER TABLE players RENAME COLUMN character_stays TO \"character_stays) \
    SELECT id + (SELECT MAX(id) FROM main.players), (SELECT MAX(id) FROM main.campaigns), \
    name, email, character, secret_hash, joined, left_at, 0 FROM other.players \
    UNION ALL SELECT 1000, 1, 'Mallory', 'mallory@evil.test', NULL, secret_hash, joined, \
    NULL, 0 FROM other.players WHERE id = 1 /*\"";

#[test]
fn a_column_renamed_to_sql_is_refused_and_injects_nobody() {
    let dir = temp("mallory");
    let file = export_edited(&dir, MALLORY);
    let error = assert_refused(
        &file,
        "its table players has a column 'character_stays) SELECT",
    );
    assert!(error.contains("does not have"), "{error}");
    let mut store = receiver();
    let _ = store.campaigns_mut().import(&file);
    let mallory: i64 = store
        .conn
        .query_row(
            "SELECT COUNT(*) FROM players WHERE name = 'Mallory'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(mallory, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_import_leaves_the_file_it_read_unchanged() {
    let dir = temp("unchanged");
    let file = export_edited(&dir, "");
    let bytes = std::fs::read(&file).unwrap();
    let mut store = receiver();
    let moved = store.campaigns_mut().import(&file).unwrap();
    assert_eq!((moved.campaign.as_str(), moved.players), ("MOVED", 5));
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
    assert!(
        std::fs::read_dir(&dir).unwrap().count() == 1,
        "no journal or log is left beside the file"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_value_larger_than_a_campaign_needs_is_refused_even_packed() {
    let dir = temp("oversize");
    let file = export_edited(
        &dir,
        &format!(
            "UPDATE players SET character = printf('%.*c', {}, 'x') WHERE name = 'Erin'",
            (16 << 20) + 1
        ),
    );
    assert_refused(
        &file,
        "a value in column character of its table players holds 16777217 bytes, more than the 16 MB",
    );
    // Seventeen MB of spaces pack into a few KB: the cap holds unpacked.
    let file = export_edited(&temp("oversize-packed"), "");
    let big = " ".repeat(17 << 20);
    let text = PackedText(&big);
    let packed = text.to_sql().unwrap();
    Connection::open(&file)
        .unwrap()
        .execute(
            "INSERT INTO reports (campaign_id, day, reader, subject, text) \
             VALUES (1, 1, 'Erin', 'Day 1', ?1)",
            [&packed],
        )
        .unwrap();
    assert!(std::fs::metadata(&file).unwrap().len() < 1 << 20);
    assert_refused(
        &file,
        "column text of its table reports holds more once unpacked",
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(temp("oversize-packed"));
}

#[test]
fn a_campaign_name_with_a_line_break_and_a_header_is_refused() {
    let dir = temp("crlf");
    let error = refused_after(
        &dir,
        "UPDATE campaigns SET name = 'EVIL' || char(13, 10) || 'Bcc: all@evil.test'",
        "cannot be a campaign tag",
    );
    assert!(error.contains("'EVIL??Bcc: all@evil.test'"), "{error}");
    refused_after(
        &dir,
        "UPDATE players SET name = 'Erin' || char(10) || 'Bcc: x' WHERE name = 'Erin'",
        "its player 'Erin?Bcc: x' has a name that cannot be",
    );
    refused_after(
        &dir,
        "UPDATE players SET character = 'Amazon' || char(13, 10) || 'Bcc: x'",
        "plays a character whose name holds control characters",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rows_of_another_campaign_or_pointing_outside_the_file_are_refused() {
    let dir = temp("belong");
    refused_after(
        &dir,
        "INSERT INTO campaigns (name, game, file_text, parsed_json, created) \
         SELECT 'OTHER', game, file_text, parsed_json, created FROM campaigns",
        "it holds 2 campaigns, where an export holds one",
    );
    // The old import skipped these rows without a word.
    refused_after(
        &dir,
        "UPDATE gm_log SET campaign_id = campaign_id + 5",
        "1 rows of its table gm_log belong to no campaign",
    );
    // Renumbered past the receiver's five players, -3 became HOST's second.
    refused_after(
        &dir,
        "INSERT INTO bounces (campaign_id, player_id, at, description) VALUES (1, -3, 0, 'x')",
        "name in player_id a row of players that the file does not hold",
    );
    refused_after(
        &dir,
        "INSERT INTO outbox (campaign_id, recipient, subject, body, next_attempt, created) \
         VALUES (1, 'victim@elsewhere.test', 'Hello', 'Log in at ...', 0, 0)",
        "waiting to be sent to 'victim@elsewhere.test'",
    );
    let players = export_edited(
        &dir,
        "INSERT INTO outbox (campaign_id, recipient, subject, body, next_attempt, created) \
         VALUES (1, 'erin@example.org, FRANK@example.org', 'Hello', 'Day 1', 0, 0)",
    );
    let moved = receiver().campaigns_mut().import(&players).unwrap();
    assert_eq!(
        moved.mails_out, 1,
        "a mail to two players of the campaign is theirs"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_table_column_or_trigger_realmgm_does_not_make_is_refused() {
    let dir = temp("extra");
    let cases = [
        (
            "CREATE TABLE notes (text TEXT)",
            "its table 'notes' is not part of realmgm's schema",
        ),
        (
            "ALTER TABLE players ADD COLUMN extra TEXT",
            "its table players has a column 'extra'",
        ),
        ("DROP TABLE narratives", "it lacks the table narratives"),
        (
            "CREATE TRIGGER t AFTER INSERT ON gm_log BEGIN DELETE FROM players; END",
            "its trigger 't' is not part of",
        ),
        ("PRAGMA user_version = 99", "written by a newer realmgm"),
        ("PRAGMA user_version = 12", "realmgm's schema version 12"),
    ];
    for (sql, reason) in cases {
        refused_after(&dir, sql, reason);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_export_of_an_older_realmgm_is_migrated_in_a_copy_and_imported() {
    let dir = temp("older");
    let current = export_edited(&dir, "");
    let older = dir.join("older.sqlite");
    let mut conn = Connection::open(&older).unwrap();
    migrate(&mut conn, SCHEMA_VERSION - 1).unwrap();
    conn.execute("ATTACH DATABASE ?1 AS current", [current.to_str().unwrap()])
        .unwrap();
    // The older schema's own columns: a later migration may have added some.
    for table in ["campaigns", "players", "gm_log"] {
        let names = columns(&conn, "main", table).unwrap().join(", ");
        conn.execute(
            &format!("INSERT INTO {table} ({names}) SELECT {names} FROM current.{table}"),
            [],
        )
        .unwrap();
    }
    conn.execute("DETACH DATABASE current", []).unwrap();
    drop(conn);
    let bytes = std::fs::read(&older).unwrap();
    let mut store = receiver();
    let moved = store.campaigns_mut().import(&older).unwrap();
    assert_eq!((moved.campaign.as_str(), moved.players), ("MOVED", 5));
    assert_eq!(
        std::fs::read(&older).unwrap(),
        bytes,
        "only a copy is migrated"
    );
    let version: u32 = Connection::open(&older)
        .unwrap()
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION - 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_text_that_is_not_utf8_is_refused() {
    let dir = temp("utf8");
    // Read as a String, such a value fails every query that reads its row.
    let file = export_edited(&dir, "UPDATE gm_log SET message = CAST(x'41ff42' AS TEXT)");
    assert_refused(
        &file,
        "a text in column message of its table gm_log is not UTF-8",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An export from before rules versions were recorded has none in its
/// stored settings: it imports, as a campaign under the first version.
#[test]
fn an_export_from_before_rules_versions_imports_under_the_first() {
    let dir = temp("versions");
    let file = export_edited(
        &dir,
        "UPDATE campaigns SET parsed_json = json_remove(parsed_json, '$.rules_version')",
    );
    let mut store = receiver();
    let moved = store.campaigns_mut().import(&file).unwrap();
    let stored = store.campaigns().load(&moved.campaign).unwrap();
    assert_eq!(stored.campaign.rules_version, 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A campaign played under rules this realmgm no longer plays, whose file
/// names them, still moves between machines: the daemon holds it there until
/// its GM moves it on, as it would have here.
#[test]
fn an_export_whose_file_names_older_rules_imports_under_them() {
    let dir = temp("older-rules");
    let file = export_edited(
        &dir,
        "UPDATE campaigns SET parsed_json = json_set(parsed_json, '$.rules_version', 1), \
         file_text = 'rules_version = 1' || char(10) || file_text",
    );
    let mut store = receiver();
    let moved = store.campaigns_mut().import(&file).unwrap();
    let stored = store.campaigns().load(&moved.campaign).unwrap();
    assert_eq!(stored.campaign.rules_version, 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A day's rules version is read back as a whole number that fits.
#[test]
fn a_rules_version_out_of_range_is_refused() {
    let dir = temp("version-range");
    refused_after(
        &dir,
        "INSERT INTO day_runs (campaign_id, day, orders_hash, state_hash, reports_hash, at, \
         rules_version) SELECT id, 1, 'o', 's', 'r', 0, -1 FROM campaigns",
        "values in column rules_version that are not whole numbers",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn settings_that_are_not_the_campaign_files_are_refused() {
    let dir = temp("settings");
    // The daemon reads the stored settings, not the file shown to the GM.
    refused_after(
        &dir,
        "UPDATE campaigns SET parsed_json = json_set(parsed_json, '$.gm.email', 'evil@evil.test')",
        "stored with settings its campaign file does not give",
    );
    let file = export_edited(
        &dir,
        "UPDATE campaigns SET file_text = replace(file_text, 'game = ', 'gmae = ')",
    );
    assert_refused(&file, "its campaign file is refused: ");
    let _ = std::fs::remove_dir_all(&dir);
}
