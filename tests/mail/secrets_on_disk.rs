//! Secrets stay secret on disk: under the usual umask 022,
//! the database with its `-wal` and `-shm`, a backup, an export and the
//! Maildir folders and messages realmgm writes are their owner's alone; a
//! half-written message a killed delivery left in `tmp/` is removed at the
//! daemon's next start; after a campaign's mail has come and gone, neither
//! the database's bytes nor any value in it (compressed ones inflated) holds
//! a player's or the GM's secret.

use crate::common;
use crate::support;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant, SystemTime};

use lettre::Message;
use realmgm::daemon::Daemon;
use realmgm::mail::transport::{MailTransport, SendError};
use realmgm::store::Store;
use support::capture::{Capture, to};
use support::*;

/// Run the realmgm binary with `args` under umask 022, from the crate folder.
fn under_umask_022(args: &[&str], db: &Path) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("umask 022 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_realmgm"))
        .args(args)
        .env("REALMGM_DB", db)
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

fn run_under_umask_022(args: &[&str], db: &Path) -> String {
    let output: Output = under_umask_022(args, db).output().expect("sh runs");
    common::stdout(&output)
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

/// The demo campaign stored as `tag` by `campaign new` under umask 022;
/// returns the folder of its Maildirs.
fn demo_campaign(db: &common::TempDb, tag: &str) -> PathBuf {
    let file = db.dir().join(format!("{tag}.toml"));
    let text = std::fs::read_to_string("campaigns/demo.toml")
        .expect("the demo campaign is shipped")
        .replace("name = \"DEMO\"", &format!("name = \"{tag}\""));
    std::fs::write(&file, text).expect("a temporary campaign file");
    run_under_umask_022(&["campaign", "new", file.to_str().unwrap()], &db.0);
    db.dir().join("mail").join("DEMO")
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

#[test]
fn what_realmgm_writes_is_its_owners_alone_under_umask_022() {
    let db = common::TempDb::new("modes-022");
    let mail = demo_campaign(&db, "MODES");
    run_under_umask_022(&["daemon", "--once"], &db.0);
    let backup = db.dir().join("backup.sqlite");
    run_under_umask_022(&["backup", backup.to_str().unwrap()], &db.0);
    let export = db.dir().join("export.sqlite");
    run_under_umask_022(
        &["campaign", "export", "MODES", export.to_str().unwrap()],
        &db.0,
    );
    // The -wal and -shm files live while a daemon has the database open.
    let daemon = under_umask_022(&["daemon", "--poll-seconds", "3600"], &db.0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the daemon starts");
    let (wal, shm) = (with_suffix(&db.0, "-wal"), with_suffix(&db.0, "-shm"));
    let waited = Instant::now();
    while !(wal.exists() && shm.exists()) && waited.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let modes_while_running = [(mode(&wal), "-wal"), (mode(&shm), "-shm")];
    common::terminate(daemon);
    for (found, what) in modes_while_running {
        assert_eq!(found, 0o600, "the database's {what} is mode {found:o}");
    }
    for (file, what) in [
        (&db.0, "the database"),
        (&backup, "a backup"),
        (&export, "an export"),
    ] {
        assert_eq!(mode(file), 0o600, "{what} is mode {:o}", mode(file));
    }
    let out = mail.join("out");
    for folder in [
        db.dir().join("mail"),
        mail.clone(),
        mail.join("in"),
        out.clone(),
        out.join("new"),
        out.join("cur"),
        out.join("tmp"),
    ] {
        assert_eq!(
            mode(&folder),
            0o700,
            "{} is mode {:o}",
            folder.display(),
            mode(&folder)
        );
    }
    let written: Vec<_> = std::fs::read_dir(out.join("new"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    assert!(!written.is_empty(), "the daemon's round mailed something");
    for message in written {
        assert_eq!(mode(&message), 0o600, "{}", message.display());
    }
}

#[test]
fn a_half_written_message_is_removed_at_the_next_start_once_an_hour_old() {
    let db = common::TempDb::new("partial-tmp");
    let mail = demo_campaign(&db, "PARTIAL");
    let two_hours_ago = SystemTime::now() - Duration::from_secs(2 * 3600);
    let mut left = Vec::new();
    for folder in ["in", "out"] {
        let tmp = mail.join(folder).join("tmp");
        let old = tmp.join("1700000000.M000001P9Q0.realmgm");
        std::fs::write(&old, "Subject: half a mess").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&old)
            .unwrap()
            .set_modified(two_hours_ago)
            .unwrap();
        // Being written right now, maybe by the MTA: left alone.
        let fresh = tmp.join("1700000001.M000001P9Q0.realmgm");
        std::fs::write(&fresh, "Subject: on its way").unwrap();
        left.push((old, fresh));
    }
    let said = run_under_umask_022(&["daemon", "--once"], &db.0);
    for (old, fresh) in left {
        assert!(!old.exists(), "{} was left: {said}", old.display());
        assert!(fresh.exists(), "{} was removed", fresh.display());
    }
    assert!(said.contains("removed 1 half-written message"), "{said}");
}

#[test]
fn a_database_open_to_everyone_is_closed_to_them_and_a_group_keeps_its_rights() {
    let dir = common::TempDb::new("loose-modes");
    let open_to_all = dir.dir().join("old.sqlite");
    let for_a_group = dir.dir().join("group.sqlite");
    for (path, mode) in [(&open_to_all, 0o644), (&for_a_group, 0o640)] {
        drop(Store::open(path, realmgm::games::GAMES).unwrap());
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
        drop(Store::open(path, realmgm::games::GAMES).unwrap());
    }
    assert_eq!(mode(&open_to_all), 0o640, "others shut out, the group kept");
    assert_eq!(mode(&for_a_group), 0o640, "the GM's choice stays");
}

#[test]
fn the_systemd_unit_keeps_the_state_folder_and_new_files_private() {
    let unit = std::fs::read_to_string("packaging/realmgm.service").unwrap();
    for setting in ["UMask=0077", "StateDirectoryMode=0700"] {
        assert!(
            unit.lines().any(|l| l == setting),
            "the unit sets {setting}"
        );
    }
}

const ANN: &str = "ann@realmgm.test";
const BEN: &str = "ben@realmgm.test";
const CID: &str = "cid@realmgm.test";
const GM: &str = "gm@realmgm.test";

/// How many times `secrets` (as made, or without their dashes as a
/// plus-address carries them) occur in `haystack`, in any case.
fn hits(haystack: &[u8], secrets: &[String]) -> usize {
    let haystack = String::from_utf8_lossy(haystack).to_lowercase();
    secrets
        .iter()
        .flat_map(|s| [s.to_lowercase(), s.to_lowercase().replace('-', "")])
        .map(|form| haystack.matches(&form).count())
        .sum()
}

/// Every text and BLOB value of every table of the database at `path`,
/// compressed ones inflated (the store's own format: a marker, then a
/// DEFLATE stream).
fn every_value(path: &Path) -> Vec<(String, Vec<u8>)> {
    const PACKED: &[u8] = b"\0realmgm-deflate\0";
    let conn = rusqlite::Connection::open(path).unwrap();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut values = Vec::new();
    for table in tables {
        let mut statement = conn.prepare(&format!("SELECT * FROM \"{table}\"")).unwrap();
        let columns = statement.column_count();
        let mut rows = statement.query([]).unwrap();
        while let Some(row) = rows.next().unwrap() {
            for column in 0..columns {
                let bytes = match row.get_ref(column).unwrap() {
                    rusqlite::types::ValueRef::Text(b) | rusqlite::types::ValueRef::Blob(b) => b,
                    _ => continue,
                };
                let bytes = match bytes.strip_prefix(PACKED) {
                    Some(stream) => miniz_oxide::inflate::decompress_to_vec(stream).unwrap(),
                    None => bytes.to_vec(),
                };
                values.push((table.clone(), bytes));
            }
        }
    }
    values
}

/// A signature long enough that a mail carrying it spills over several of
/// the database's pages.
fn signature() -> String {
    "-- \nCid, who writes a long signature\n".repeat(300)
}

/// Earlier mails quoted, each with its `Password:` line: more than 8 KB
/// of a record's overflow pages hold `secret`, and once it is masked the
/// record is short of a page, which is freed as it was.
fn quoted_mails(secret: &str) -> String {
    format!("> Password: {secret}\n> gm status, the turn before\n").repeat(300)
}

#[test]
fn no_secret_is_left_in_the_database_once_the_mail_is_handled() {
    let dir = common::TempDb::new("secret-grep");
    let path = dir.0.clone();
    let mut daemon = Daemon::new(Store::open(&path, support::GAMES).unwrap());
    let capture = Capture::default();
    let text = campaign_text("G1", &[("Ann", ANN), ("Ben", BEN)], "");
    let made = add_campaign(&mut daemon.store, "guess", &text);
    daemon.turns().check_turn("G1", START).unwrap();
    let gm_secret = daemon.store.control_mut().new_gm_secret("G1").unwrap();
    // A newcomer is mailed his secret.
    let cid = daemon
        .seats()
        .add_player("G1", "Cid", CID, Some("Cidchar"), START)
        .unwrap();
    let welcome = to(&capture.flush(&mut daemon, START), CID);
    assert!(welcome[0].body_text.contains(&cid.secret));
    let mut secrets: Vec<String> = made.values().cloned().collect();
    secrets.extend([cid.secret.clone(), gm_secret.clone()]);

    // Orders with a Password line (one typed in capitals), orders with the
    // secret in the plus-address, a GM command with the GM secret.
    let orders = [
        mail(
            ANN,
            GM,
            "[G1] orders",
            "a@x",
            &format!("Password: {}\nguess 30\n", made["Ann"].to_uppercase()),
        ),
        mail(
            BEN,
            &format!("gm+g1.{}@realmgm.test", made["Ben"].replace('-', "")),
            "orders",
            "b@x",
            "guess 60",
        ),
        mail(
            CID,
            GM,
            "[G1] orders",
            "c@x",
            &format!("guess 90\nPassword: {}\n{}", cid.secret, signature()),
        ),
        mail(
            GM,
            GM,
            "[G1] gm status",
            "g@x",
            &format!("Password: {gm_secret}\n"),
        ),
    ];
    for (n, raw) in orders.into_iter().enumerate() {
        let note = daemon
            .mail_in()
            .ingest(&raw, START + 60 + n as i64)
            .unwrap()
            .1;
        assert!(!note.contains("not accepted"), "{note}");
    }
    let answers = capture.flush(&mut daemon, START + 120);
    assert_eq!(to(&answers, GM).len(), 1, "the GM is answered");
    // The same letter again, as it came and through another relay, is
    // still known for what it is.
    let again = || {
        mail(
            CID,
            GM,
            "[G1] orders",
            "c@x",
            &format!("guess 90\nPassword: {}\n{}", cid.secret, signature()),
        )
    };
    let note = daemon.mail_in().ingest(&again(), START + 200).unwrap().1;
    assert!(note.contains("already stored"), "{note}");
    let mut relayed = b"Received: from relay2.realmgm.test by mx.realmgm.test\r\n".to_vec();
    relayed.extend(again());
    let note = daemon.mail_in().ingest(&relayed, START + 210).unwrap().1;
    assert!(note.contains("second delivery"), "{note}");
    // Ann writes from another address: refused, and her secret not kept.
    let elsewhere = mail(
        "ann@elsewhere.test",
        GM,
        "[G1] orders",
        "a2@x",
        &format!("Password: {}\nguess 31\n", made["Ann"]),
    );
    let note = daemon.mail_in().ingest(&elsewhere, START + 220).unwrap().1;
    assert!(note.contains("not in the campaign"), "{note}");
    // The GM quotes his earlier commands: the last mail masked frees a page.
    let quoting = mail(
        GM,
        GM,
        "[G1] gm status",
        "g2@x",
        &format!("{}Password: {gm_secret}\n", quoted_mails(&gm_secret)),
    );
    let note = daemon.mail_in().ingest(&quoting, START + 225).unwrap().1;
    assert!(!note.contains("not accepted"), "{note}");
    capture.flush(&mut daemon, START + 230);

    let found: Vec<String> = every_value(&path)
        .into_iter()
        .filter(|(_, value)| hits(value, &secrets) > 0)
        .map(|(table, value)| format!("{table}: {}", String::from_utf8_lossy(&value)))
        .collect();
    assert!(
        found.is_empty(),
        "secrets stored:\n{}",
        found.join("\n---\n")
    );
    // What was masked still reads: the stored orders are the players'.
    let ann = daemon.store.inbox().get(1).unwrap().unwrap();
    assert!(
        String::from_utf8_lossy(&ann.raw).contains("Password: ********\r\nguess 30"),
        "{}",
        String::from_utf8_lossy(&ann.raw)
    );
    // The database's files, free space and write-ahead log included, hold
    // no secret either, while it is open and once it is closed.
    let on_disk = || -> usize {
        ["", "-wal"]
            .iter()
            .map(|suffix| std::fs::read(with_suffix(&path, suffix)).unwrap_or_default())
            .map(|bytes| hits(&bytes, &secrets))
            .sum()
    };
    assert_eq!(on_disk(), 0, "secrets in the database's files");
    drop(daemon);
    let on_disk = on_disk();
    assert_eq!(on_disk, 0, "secrets in the database's files");
}

/// A server that knows no such user: every mail is refused for good.
struct Refusing;

impl MailTransport for Refusing {
    fn send(&self, _: &Message) -> Result<String, SendError> {
        Err(SendError::Permanent("550 no such user".into()))
    }
}

#[test]
fn a_welcome_that_can_never_be_delivered_keeps_no_secret() {
    let dir = common::TempDb::new("secret-undeliverable");
    let path = dir.0.clone();
    let mut daemon = Daemon::new(Store::open(&path, support::GAMES).unwrap());
    let text = campaign_text("G1", &[("Ann", ANN)], "");
    add_campaign(&mut daemon.store, "guess", &text);
    let cid = daemon
        .seats()
        .add_player("G1", "Cid", CID, Some("Cidchar"), START)
        .unwrap();
    let summary = daemon.outbox().send_due(&Refusing, None, START).unwrap();
    assert!(summary.failed > 0, "the welcome is given up");
    let secrets = [cid.secret];
    let found: Vec<String> = every_value(&path)
        .into_iter()
        .filter(|(_, value)| hits(value, &secrets) > 0)
        .map(|(table, value)| format!("{table}: {}", String::from_utf8_lossy(&value)))
        .collect();
    assert!(
        found.is_empty(),
        "secrets stored:\n{}",
        found.join("\n---\n")
    );
}
