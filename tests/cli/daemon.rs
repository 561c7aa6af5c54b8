//! The daemon's command line: a Magic Realm campaign with Maildir mail runs
//! one daemon round (the game is set up and day 1 waits for orders), the GM
//! processes the day (every player hides: no orders), the next round mails
//! the reports, doctor names what is missing, and `gm secret` fixes it; a
//! second daemon on the same database is refused, and SIGTERM ends one
//! cleanly.

use crate::common;

use common::{TempDb, realmgm, stderr, stdout, store_demo_campaign};

#[test]
fn daemon_round_gm_status_and_doctor() {
    let db = TempDb::new("daemon");
    // Its Maildirs are made by `campaign new` beside the database.
    let dir = common::store_demo_campaign(&db, "CLID");
    stdout(&realmgm(&["daemon", "--campaign", "CLID", "--once"], &db.0));
    let status = stdout(&realmgm(&["gm", "--campaign", "CLID", "status"], &db.0));
    assert!(status.contains("day 1 pending"), "{status}");
    assert!(status.contains("Ann: no orders"), "{status}");
    let processed = stdout(&realmgm(&["gm", "--campaign", "CLID", "process"], &db.0));
    assert!(processed.contains("day 1 processed"), "{processed}");
    let status = stdout(&realmgm(&["gm", "--campaign", "CLID", "status"], &db.0));
    assert!(status.contains("day 2 pending"), "{status}");
    // The same facts as JSON, for scripts and monitoring.
    let json = stdout(&realmgm(
        &["gm", "--campaign", "CLID", "status", "--json"],
        &db.0,
    ));
    let status: serde_json::Value = serde_json::from_str(&json).expect("status --json is JSON");
    assert_eq!(status["day_pending"], 2);
    assert_eq!(status["paused"], false);
    assert_eq!(
        status["players"].as_array().map(Vec::len),
        Some(3),
        "{json}"
    );
    assert_eq!(
        status["players"][0]["accepted_version"],
        serde_json::Value::Null
    );
    let listed = stdout(&realmgm(&["campaign", "list", "--json"], &db.0));
    let listed: serde_json::Value = serde_json::from_str(&listed).expect("list --json is JSON");
    assert_eq!(listed[0]["name"], "CLID");
    assert_eq!(listed[0]["latest_day"], 1);
    let round = stdout(&realmgm(
        &[
            "daemon",
            "--campaign",
            "CLID",
            "--once",
            "--log-format",
            "json",
        ],
        &db.0,
    ));
    // One JSON object per line, with the time, the level and the campaign.
    let sent: serde_json::Value = round
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("a JSON log line"))
        .find(|l| {
            l["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("sent "))
        })
        .unwrap_or_else(|| panic!("a line says what was sent: {round}"));
    assert_eq!(
        sent["message"], "sent 4, deferred 0, failed 0",
        "three players' reports and the GM's"
    );
    assert_eq!(sent["campaign"], "CLID");
    assert_eq!(sent["level"], "INFO");
    assert!(sent["timestamp"].as_str().is_some_and(|t| t.ends_with('Z')));
    let report = std::fs::read_dir(dir.join("out/new"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .find(|mail| mail.contains("To: ann@demo.realmgm.test") && mail.contains("Day 1 report"))
        .expect("Ann's report of day 1 was delivered, after her start report");
    assert!(report.contains("multipart"), "{report}");
    let doctor = stderr(&realmgm(&["doctor", "--campaign", "CLID"], &db.0));
    assert!(doctor.contains("1 problem"), "{doctor}");
    let out = realmgm(&["doctor", "--campaign", "CLID", "--json"], &db.0);
    assert!(!out.status.success(), "a problem still fails the run");
    let doctor: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("doctor --json is JSON");
    assert_eq!(doctor["problems"], 1);
    let problem = doctor["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["ok"] == false)
        .unwrap();
    assert!(
        problem["line"]
            .as_str()
            .unwrap()
            .contains("no GM secret yet"),
        "{doctor}"
    );
    let shown = stdout(&realmgm(&["campaign", "show", "CLID", "--json"], &db.0));
    let shown: serde_json::Value = serde_json::from_str(&shown).expect("show --json is JSON");
    assert_eq!(shown["campaign"]["name"], "CLID");
    assert_eq!(shown["players"][0]["character"], "Amazon");
    let secret = stdout(&realmgm(&["gm", "--campaign", "CLID", "secret"], &db.0));
    assert!(secret.contains("the GM secret of CLID is"), "{secret}");
    let doctor = stdout(&realmgm(&["doctor", "--campaign", "CLID"], &db.0));
    assert!(doctor.contains("OK       mail.maildir_in"), "{doctor}");
    let log = stdout(&realmgm(&["gm", "--campaign", "CLID", "log"], &db.0));
    assert!(log.contains("day 1 processed"), "{log}");
}

/// Issue 19 §2: a running daemon holds its database, so a second one is
/// refused; SIGHUP ends its pause at once; SIGTERM lets it finish its round
/// and exit cleanly.
#[test]
fn one_daemon_per_database_and_sigterm_ends_it_cleanly() {
    let db = TempDb::new("sigterm");
    store_demo_campaign(&db, "SIG");
    let first = common::spawn_daemon(&db.0, &["--poll-seconds", "3600"], &[]);
    // Its first round sets the game up (day 0 is stored).
    let set_up = || {
        let store = realmgm::store::Store::open(&db.0).unwrap();
        store.latest_day("SIG").unwrap().is_some()
    };
    for _ in 0..100 {
        if set_up() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(set_up(), "the daemon ran a round");
    let second = stderr(&realmgm(&["daemon", "--once"], &db.0));
    assert!(
        second.contains(&format!("another realmgm daemon (process {})", first.id())),
        "{second}"
    );
    let signal = |name: &str| {
        let sent = std::process::Command::new("kill")
            .args([name, &first.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    };
    // SIGHUP ends the hour's pause: a round runs at once.
    signal("-HUP");
    std::thread::sleep(std::time::Duration::from_millis(800));
    let said = common::terminate(first);
    assert!(
        said.contains("SIGHUP: the campaigns are read again and served now"),
        "{said}"
    );
    // The database is free again.
    stdout(&realmgm(&["daemon", "--once"], &db.0));
}

/// Issue 19, "done when": SIGTERM while the daemon works through a heap of
/// mail. It finishes the mail at hand and exits; every mail is either read
/// with its answer queued and its orders stored, or still new; none is read
/// twice. The next start reads the rest, and then each mail has exactly one
/// answer and each player's orders one version per mail.
#[test]
fn sigterm_in_the_middle_of_a_pass_leaves_nothing_half_done() {
    const MAILS: usize = 1000;
    let db = TempDb::new("sigterm-pass");
    let file = db.dir().join("demo.toml");
    std::fs::copy("campaigns/demo.toml", &file).unwrap();
    let stored = stdout(&realmgm(
        &["campaign", "new", file.to_str().unwrap()],
        &db.0,
    ));
    let secret = |player: &str| {
        stored
            .lines()
            .find_map(|line| {
                line.trim()
                    .strip_prefix(&format!("{player} <"))
                    .and_then(|rest| rest.split(": ").nth(1))
            })
            .expect("campaign new prints each secret")
            .to_string()
    };
    let players = [("Ann", secret("Ann")), ("Ben", secret("Ben"))];
    let inbox = db.dir().join("mail/DEMO/in/new");
    for n in 0..MAILS {
        let (name, secret) = &players[n % 2];
        let address = format!("{}@demo.realmgm.test", name.to_lowercase());
        let mail = format!(
            "From: {address}\r\nTo: gm@demo.realmgm.test\r\nSubject: [DEMO] orders\r\n\
             Message-ID: <pass-{n}@test>\r\nDate: Mon, 31 Dec 2029 10:00:00 +0000\r\n\r\n\
             Password: {secret}\r\nH, H\r\n"
        );
        std::fs::write(inbox.join(format!("{n}.eml")), mail).unwrap();
    }
    let count = |sql: &str| -> usize {
        let conn = rusqlite::Connection::open(&db.0).unwrap();
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .unwrap();
        // Before the daemon's first start there are no tables yet.
        let found: i64 = conn.query_row(sql, [], |row| row.get(0)).unwrap_or(0);
        usize::try_from(found).unwrap()
    };
    let read = "SELECT COUNT(*) FROM inbound_mail WHERE status <> 'new'";
    let answers = "SELECT COUNT(*) FROM outbox WHERE subject LIKE '%orders received%'";
    let versions = "SELECT COALESCE(SUM(v), 0) FROM (SELECT MAX(version) AS v FROM \
                    order_submissions GROUP BY player_id)";
    let daemon = common::spawn_daemon(&db.0, &["--poll-seconds", "3600"], &[]);
    for _ in 0..600 {
        if count(read) >= 20 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    common::terminate(daemon);
    let stored_mails = "SELECT COUNT(*) FROM inbound_mail";
    let done = count(read);
    assert!(
        (20..MAILS).contains(&done),
        "the signal came in the middle of the pass: {done} of {MAILS} read"
    );
    assert_eq!(count(answers), done, "one answer for each mail read");
    assert_eq!(
        count(versions),
        done,
        "one orders version for each mail read"
    );
    assert!(count(stored_mails) <= MAILS);

    // The next start reads the rest, and nothing twice.
    stdout(&realmgm(&["daemon", "--once"], &db.0));
    assert_eq!(count(stored_mails), MAILS);
    assert_eq!(count(read), MAILS);
    assert_eq!(count(answers), MAILS);
    assert_eq!(count(versions), MAILS);
}
