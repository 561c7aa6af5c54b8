//! Hostile export files for `campaign import`, shared by the
//! fuzz target `fuzz/fuzz_targets/import.rs` and the corpus test in
//! `transfer.rs`: a real export, changed by a plan of edits read from bytes
//! (the fuzzer's, or seeded dice's). Whatever the file, the import either
//! refuses it, leaving the receiving database and the file as they were,
//! or adds one whole campaign and changes nothing of the other.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use realmgm::campaign::Campaign;
use realmgm::daemon::Daemon;
use realmgm::store::Store;
use rusqlite::Connection;
use rusqlite::types::ValueRef;

const CAMPAIGN: &str = "name = \"FZ\"\ngame = \"magic-realm\"\nseed = 1\n\
    [gm]\nemail = \"gm@fuzz.test\"\n\
    [schedule]\nfirst_deadline = \"2099-01-01\"\nat = \"20:00\"\nevery_hours = 24\n\
    [[players]]\nname = \"Ann\"\nemail = \"ann@fuzz.test\"\ncharacter = \"Amazon\"\n\
    [[players]]\nname = \"Bob\"\nemail = \"bob@fuzz.test\"\n";

/// Names a hostile sender gives columns, tables and campaigns.
const HOSTILE_NAMES: &[&str] = &[
    "character_stays) SELECT 1000, 1, 'Mallory', 'm@evil.test', NULL, 'h', 0, NULL, 0 /*",
    "x\"y",
    "",
    "id",
    "name",
    "a b",
    ";DROP TABLE players;--",
    "EVIL\r\nBcc: all@evil.test",
];

/// Values a hostile sender puts in a row.
const HOSTILE_VALUES: &[&str] = &[
    "'EVIL' || char(13, 10) || 'Bcc: all@evil.test'",
    "''",
    "'Mallory'",
    "'<m@evil.test>'",
    "-1",
    "4294967296",
    "9223372036854775807",
    "1.5",
    "x'00ff'",
    "x'007265616c6d676d2d6465666c61746500ffff'",
    "NULL",
    "'{\"name\": \"HOST\"}'",
];

/// Extra objects a hostile sender adds.
const EXTRAS: &[&str] = &[
    "CREATE TABLE notes (text TEXT)",
    "ALTER TABLE players ADD COLUMN extra TEXT",
    "CREATE VIEW everyone AS SELECT * FROM players",
    "CREATE TRIGGER wipe AFTER INSERT ON gm_log BEGIN DELETE FROM players; END",
    "CREATE INDEX by_email ON players (email)",
    "INSERT INTO imap_mailboxes VALUES ('m', 1, 1)",
];

/// The export every hostile file starts from, and the receiving database
/// (campaign HOST) each import goes into, as bytes.
struct Bases {
    export: Vec<u8>,
    receiver: Vec<u8>,
}

fn bases() -> &'static Bases {
    static BASES: OnceLock<Bases> = OnceLock::new();
    BASES.get_or_init(|| {
        let mut daemon =
            Daemon::new(Store::open_in_memory(realmgm::games::GAMES).expect("an in-memory store"));
        let campaign = Campaign::parse("fuzz.toml", CAMPAIGN, realmgm::games::GAMES)
            .expect("the campaign parses");
        let secrets = daemon
            .store
            .campaigns_mut()
            .insert(&campaign, CAMPAIGN, 0)
            .expect("the campaign is stored");
        daemon
            .turns()
            .check_turn("FZ", 0)
            .expect("the game is set up");
        let mail = format!(
            "From: ann@fuzz.test\r\nTo: gm@fuzz.test\r\nSubject: [FZ] orders\r\n\
             Message-ID: <1@fuzz.test>\r\n\r\nPassword: {}\r\nhide\r\n",
            secrets[0].secret
        );
        daemon
            .mail_in()
            .ingest(mail.as_bytes(), 1)
            .expect("the store works");
        let export = scratch("base-export");
        daemon
            .store
            .campaigns()
            .export("FZ", &export)
            .expect("the campaign exports");
        let host = CAMPAIGN.replacen("\"FZ\"", "\"HOST\"", 1);
        let receiver = scratch("base-receiver");
        let mut store =
            Store::open(&receiver, realmgm::games::GAMES).expect("a receiving database");
        let campaign = Campaign::parse("host.toml", &host, realmgm::games::GAMES)
            .expect("the campaign parses");
        store
            .campaigns_mut()
            .insert(&campaign, &host, 0)
            .expect("the campaign is stored");
        drop(store);
        let bases = Bases {
            export: std::fs::read(&export).expect("the export is read"),
            receiver: std::fs::read(&receiver).expect("the receiver is read"),
        };
        remove(&export);
        remove(&receiver);
        bases
    })
}

/// A new path in the temporary folder.
fn scratch(what: &str) -> PathBuf {
    static MADE: AtomicU64 = AtomicU64::new(0);
    std::env::temp_dir().join(format!(
        "realmgm-import-fuzz-{}-{}-{what}.sqlite",
        std::process::id(),
        MADE.fetch_add(1, Ordering::Relaxed)
    ))
}

fn remove(path: &Path) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let _ = std::fs::remove_file(name);
    }
}

/// The plan's bytes, read one choice at a time; an exhausted plan chooses 0.
struct Plan<'a>(&'a [u8]);

impl Plan<'_> {
    fn below(&mut self, n: usize) -> usize {
        let Some((first, rest)) = self.0.split_first() else {
            return 0;
        };
        self.0 = rest;
        usize::from(*first) % n.max(1)
    }

    fn wide(&mut self, n: usize) -> usize {
        let high = self.below(256) << 16 | self.below(256) << 8;
        (high | self.below(256)) % n.max(1)
    }

    fn pick<'b>(&mut self, from: &'b [String]) -> Option<&'b String> {
        (!from.is_empty()).then(|| &from[self.below(from.len())])
    }
}

/// The base export changed by `plan`: SQL edits first, then bytes flipped.
pub fn hostile_export(plan: &[u8]) -> Vec<u8> {
    let base = &bases().export;
    let file = scratch("hostile");
    std::fs::write(&file, base).expect("the temporary folder is writable");
    let mut plan = Plan(plan);
    let mut flips = Vec::new();
    if let Ok(conn) = Connection::open(&file) {
        let _ = conn.pragma_update(None, "foreign_keys", false);
        for _ in 0..8 {
            if plan.0.is_empty() {
                break;
            }
            let chosen =
                edit(&conn, &mut plan).ok_or_else(|| (plan.wide(base.len()), plan.below(256)));
            // An edit the plan ran out for would be one of zeros.
            if plan.0.is_empty() {
                break;
            }
            match chosen {
                Ok(sql) => {
                    let _ = conn.execute_batch(&sql);
                }
                Err((at, value)) => flips.push((at, value as u8)),
            }
        }
    }
    let mut bytes = std::fs::read(&file).expect("the file is read back");
    remove(&file);
    for (at, value) in flips {
        if let Some(byte) = bytes.get_mut(at) {
            *byte = value;
        }
    }
    bytes
}

/// One SQL edit chosen by the plan, or `None` for a flipped byte.
fn edit(conn: &Connection, plan: &mut Plan) -> Option<String> {
    let strings = |sql: &str| -> Vec<String> {
        conn.prepare(sql)
            .and_then(|mut s| s.query_map([], |row| row.get(0))?.collect())
            .unwrap_or_default()
    };
    let tables = strings("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name");
    let table = plan.pick(&tables)?.replace('"', "\"\"");
    let columns = strings(&format!("SELECT name FROM pragma_table_info('{table}')"));
    let column = plan
        .pick(&columns)
        .map_or_else(String::new, |c| c.replace('"', "\"\""));
    let one_row = format!("rowid = (SELECT MIN(rowid) FROM \"{table}\")");
    let hostile_name = HOSTILE_NAMES[plan.below(HOSTILE_NAMES.len())].replace('"', "\"\"");
    Some(match plan.below(12) {
        0 | 1 => return None,
        2 => format!("ALTER TABLE \"{table}\" RENAME COLUMN \"{column}\" TO \"{hostile_name}\""),
        3 => format!("DROP TABLE \"{table}\""),
        4 => format!(
            "INSERT INTO campaigns (name, game, file_text, parsed_json, created) \
             SELECT '{}', game, file_text, parsed_json, created FROM campaigns",
            hostile_name.replace('\'', "''")
        ),
        5 => format!(
            "UPDATE \"{table}\" SET campaign_id = campaign_id + {} WHERE {one_row}",
            1 + plan.below(3)
        ),
        6 => EXTRAS[plan.below(EXTRAS.len())].to_string(),
        7 | 8 => format!(
            "UPDATE \"{table}\" SET \"{column}\" = {} WHERE {one_row}",
            HOSTILE_VALUES[plan.below(HOSTILE_VALUES.len())]
        ),
        9 => format!("PRAGMA user_version = {}", plan.below(20)),
        10 => format!(
            "DELETE FROM \"{table}\" WHERE rowid IN (SELECT rowid FROM \"{table}\" LIMIT {})",
            1 + plan.below(3)
        ),
        // Values past the caps are costly to write (16 MB each): one in 32;
        // the store's unit tests refuse them every time.
        _ if plan.below(32) == 0 => format!(
            "UPDATE \"{table}\" SET \"{column}\" = printf('%.*c', {}, 'x') WHERE {one_row}",
            (16 << 20) + 1
        ),
        _ => return None,
    })
}

/// What became of an import.
pub enum Outcome {
    Imported,
    Refused(String),
}

/// Import `export` into a fresh copy of the receiving database and check
/// that it was refused without a trace or imported whole; panics otherwise.
pub fn exercise(export: &[u8]) -> Outcome {
    let file = scratch("export");
    let db = scratch("receiver");
    std::fs::write(&file, export).expect("the temporary folder is writable");
    std::fs::write(&db, &bases().receiver).expect("the temporary folder is writable");
    let before = rows(&db);
    let result = Store::open(&db, realmgm::games::GAMES)
        .expect("the receiver opens")
        .campaigns_mut()
        .import(&file);
    let after = rows(&db);
    assert_eq!(
        std::fs::read(&file).expect("the export is still there"),
        export,
        "the import wrote to the file it read"
    );
    let outcome = match result {
        Err(error) => {
            let error = error.to_string();
            assert!(!error.contains(['\r', '\n']), "a raw line break: {error}");
            assert_eq!(
                before, after,
                "a refused import changed the database: {error}"
            );
            Outcome::Refused(error)
        }
        Ok(moved) => {
            let mut added = after.clone();
            for row in &before {
                let at = added.iter().position(|r| r == row);
                let at = at.unwrap_or_else(|| panic!("an import changed a row: {row}"));
                added.swap_remove(at);
            }
            assert!(!added.is_empty(), "an import said it added a campaign");
            let conn = Connection::open(&db).expect("the receiver opens");
            let strangers: i64 = conn
                .query_row(
                    "SELECT COUNT(*) FROM players p JOIN campaigns c ON c.id = p.campaign_id \
                     WHERE c.name = 'HOST'",
                    [],
                    |row| row.get(0),
                )
                .expect("the receiver is readable");
            assert_eq!(strangers, 2, "an import added a player to another campaign");
            let store = Store::open(&db, realmgm::games::GAMES).expect("the receiver opens");
            store.campaigns().list().expect("every campaign is listed");
            store
                .campaigns()
                .load(&moved.campaign)
                .expect("the imported campaign loads");
            Outcome::Imported
        }
    };
    remove(&file);
    remove(&db);
    outcome
}

/// Every row of every table of `db`, each as one line of its values'
/// fingerprints.
fn rows(db: &Path) -> Vec<String> {
    let conn = Connection::open(db).expect("the receiver opens");
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .and_then(|mut s| s.query_map([], |row| row.get(0))?.collect())
        .expect("the receiver is readable");
    let mut all = Vec::new();
    for table in tables {
        let mut statement = conn
            .prepare(&format!("SELECT * FROM \"{table}\""))
            .expect("the receiver is readable");
        let width = statement.column_count();
        let found: Vec<String> = statement
            .query_map([], |row| {
                let values = (0..width)
                    .map(|i| row.get_ref(i).map(fingerprint))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(format!("{table}: {}", values.join(" | ")))
            })
            .and_then(|rows| rows.collect())
            .expect("the receiver is readable");
        all.extend(found);
    }
    all
}

/// A value as a short line: its kind and a hash of its bytes, so a 16 MB
/// value costs no 16 MB line.
fn fingerprint(value: ValueRef) -> String {
    let mut hasher = DefaultHasher::new();
    let kind = match value {
        ValueRef::Null => "null",
        ValueRef::Integer(n) => {
            n.hash(&mut hasher);
            "integer"
        }
        ValueRef::Real(x) => {
            x.to_bits().hash(&mut hasher);
            "real"
        }
        ValueRef::Text(bytes) => {
            bytes.hash(&mut hasher);
            "text"
        }
        ValueRef::Blob(bytes) => {
            bytes.hash(&mut hasher);
            "blob"
        }
    };
    format!("{kind} {:x}", hasher.finish())
}
