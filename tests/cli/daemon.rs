//! The daemon's command line: a Magic Realm campaign with Maildir mail runs
//! one daemon round (the game is set up and day 1 waits for orders), the GM
//! processes the day (every player hides: no orders), the next round mails
//! the reports, doctor names what is missing, and `gm secret` fixes it; a
//! second daemon on the same database is refused, and SIGTERM ends one
//! cleanly.

use crate::common;

use common::{TempDb, realmgm, stderr, stdout, store_demo_campaign};

/// With no campaign named, `gm status` speaks of every stored one: a GM
/// running several sees them at once, and a container's health check, which
/// cannot name them, reads them all.
#[test]
fn gm_status_without_a_campaign_names_every_one() {
    let db = TempDb::new("status-all");
    store_demo_campaign(&db, "ALPHA");
    store_demo_campaign(&db, "BETA");
    let status = stdout(&realmgm(&["gm", "status"], &db.0));
    assert!(status.contains("Campaign ALPHA"), "{status}");
    assert!(status.contains("Campaign BETA"), "{status}");
    let json = stdout(&realmgm(&["gm", "status", "--json"], &db.0));
    let statuses: serde_json::Value = serde_json::from_str(&json).expect("status --json is JSON");
    let names: Vec<&str> = statuses
        .as_array()
        .expect("an array, one status per campaign")
        .iter()
        .filter_map(|s| s["campaign"].as_str())
        .collect();
    assert_eq!(names, ["ALPHA", "BETA"], "{json}");
    // Other commands still need the campaign named.
    let refused = stderr(&realmgm(&["gm", "process"], &db.0));
    assert!(refused.contains("--campaign C"), "{refused}");
}

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

/// A running daemon holds its database, so a second one is
/// refused; SIGHUP ends its pause at once; SIGTERM lets it finish its round
/// and exit cleanly.
#[test]
fn one_daemon_per_database_and_sigterm_ends_it_cleanly() {
    let db = TempDb::new("sigterm");
    store_demo_campaign(&db, "SIG");
    let first = common::spawn_daemon(&db.0, &["--poll-seconds", "3600"], &[]);
    // Its first round sets the game up (day 0 is stored).
    let set_up = || {
        let store = realmgm::store::Store::open(&db.0, realmgm::games::GAMES).unwrap();
        store.days().latest("SIG").unwrap().is_some()
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

/// SIGTERM while the daemon works through a heap of
/// mail. It finishes the mail at hand and exits; every mail is either read
/// with its answer queued and its orders stored, or still new; none is read
/// twice. The next start reads the rest, and then each mail has exactly one
/// answer and each player's orders one version per mail.
#[test]
fn sigterm_in_the_middle_of_a_pass_leaves_nothing_half_done() {
    const MAILS: usize = 1000;
    let db = TempDb::new("sigterm-pass");
    demo_with_a_heap_of_orders(&db, MAILS);
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

/// The demo campaign stored in `db` with `mails` orders mails of Ann and
/// Ben waiting in its inbox.
fn demo_with_a_heap_of_orders(db: &TempDb, mails: usize) {
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
    for n in 0..mails {
        let (name, secret) = &players[n % 2];
        let address = format!("{}@demo.realmgm.test", name.to_lowercase());
        let mail = format!(
            "From: {address}\r\nTo: gm@demo.realmgm.test\r\nSubject: [DEMO] orders\r\n\
             Message-ID: <pass-{n}@test>\r\nDate: Mon, 31 Dec 2029 10:00:00 +0000\r\n\r\n\
             Password: {secret}\r\nH, H\r\n"
        );
        std::fs::write(inbox.join(format!("{n}.eml")), mail).unwrap();
    }
}

/// The mails of `db` the daemon has read.
fn mails_read(db: &TempDb) -> usize {
    let conn = rusqlite::Connection::open(&db.0).unwrap();
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .unwrap();
    // Before the daemon's first start there are no tables yet.
    let found: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM inbound_mail WHERE status <> 'new'",
            [],
            |row| row.get(0),
        )
        .unwrap_or(0);
    usize::try_from(found).unwrap()
}

/// A heap of mail does not keep the GM out for long: the daemon answers it
/// in slices and lets a waiting command in between two of them.
#[test]
fn a_gm_command_gets_in_while_the_daemon_answers_a_heap_of_mail() {
    // Several seconds of answering, in slices of one.
    const MAILS: usize = 3000;
    let db = TempDb::new("heap");
    demo_with_a_heap_of_orders(&db, MAILS);
    let daemon = common::spawn_daemon(&db.0, &["--once"], &[]);
    for _ in 0..600 {
        if mails_read(&db) >= 20 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    stdout(&realmgm(&["gm", "--campaign", "DEMO", "pause"], &db.0));
    let read = mails_read(&db);
    assert!(read < MAILS, "the GM waited for all {read} mails");
    let round = daemon.wait_with_output().unwrap();
    assert!(round.status.success());
    assert_eq!(mails_read(&db), MAILS);
}

/// A copy of a set-up demo campaign whose three players have all sent
/// their orders for day 1, so the daemon's next round runs day 1 at once
/// (early processing); day 2 has no orders from anyone. Made once with the
/// binary, then copied for each run.
fn day_one_due(template: &TempDb, run: usize) -> TempDb {
    let db = TempDb::new(&format!("race-{run}"));
    std::fs::copy(&template.0, &db.0).unwrap();
    for folder in ["in", "out"] {
        for part in ["new", "cur", "tmp"] {
            std::fs::create_dir_all(db.dir().join("mail/DEMO").join(folder).join(part)).unwrap();
        }
    }
    db
}

fn race_template(test: &str) -> TempDb {
    let db = TempDb::new(&format!("{test}-template"));
    store_demo_campaign(&db, "RACE");
    stdout(&realmgm(&["daemon", "--campaign", "RACE", "--once"], &db.0));
    let orders = db.dir().join("hide.txt");
    std::fs::write(&orders, "H, H\n").unwrap();
    for player in ["Ann", "Ben", "Cat"] {
        stdout(&realmgm(
            &[
                "gm",
                "--campaign",
                "RACE",
                "orders",
                "--player",
                player,
                "--file",
                orders.to_str().unwrap(),
            ],
            &db.0,
        ));
    }
    let status = stdout(&realmgm(&["gm", "--campaign", "RACE", "status"], &db.0));
    assert!(status.contains("day 1 pending"), "{status}");
    db
}

/// The GM sees day 1 pending and runs `gm process` just as the
/// daemon's round runs day 1. Whoever comes first runs day 1; the other
/// never runs day 2 (no orders from anyone) in its stead.
#[test]
fn gm_process_racing_the_daemon_never_runs_the_next_day() {
    const RUNS: usize = 20;
    let template = race_template("race");
    let mut lost = Vec::new();
    let mut outcomes = std::collections::BTreeMap::<&str, usize>::new();
    for run in 0..RUNS {
        let db = day_one_due(&template, run);
        // The GM's command starts up to 300 ms before the daemon, or up
        // to 300 ms after it: a different moment of the round each run.
        let offset = std::time::Duration::from_millis(30 * (run % 10) as u64);
        let gm_first = run < RUNS / 2;
        let spawn_gm = || {
            std::process::Command::new(env!("CARGO_BIN_EXE_realmgm"))
                .args(["gm", "--campaign", "RACE", "process"])
                .env("REALMGM_DB", &db.0)
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        let spawn_daemon = || common::spawn_daemon(&db.0, &["--campaign", "RACE", "--once"], &[]);
        let (gm, daemon) = if gm_first {
            let gm = spawn_gm();
            std::thread::sleep(offset);
            (gm, spawn_daemon())
        } else {
            let daemon = spawn_daemon();
            std::thread::sleep(offset);
            (spawn_gm(), daemon)
        };
        let gm = gm.wait_with_output().unwrap();
        let round = daemon.wait_with_output().unwrap();
        assert!(
            round.status.success(),
            "{}",
            String::from_utf8_lossy(&round.stderr)
        );
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&gm.stdout),
            String::from_utf8_lossy(&gm.stderr)
        );
        let store = realmgm::store::Store::open(&db.0, realmgm::games::GAMES).unwrap();
        let latest = store.days().latest("RACE").unwrap().map(|d| d.day);
        let outcome = if latest != Some(1) {
            lost.push(format!("run {run}: {said}"));
            "lost"
        } else if said.contains("day 1 processed") {
            "the GM ran day 1"
        } else if said.contains("was processed meanwhile") {
            "refused: the daemon ran day 1 while the GM waited"
        } else if said.contains("seconds ago and nobody has sent orders for day 2") {
            "refused: the daemon ran day 1 just before"
        } else {
            panic!("run {run}: {said}")
        };
        *outcomes.entry(outcome).or_default() += 1;
    }
    eprintln!("{outcomes:#?}");
    assert!(
        lost.is_empty(),
        "{} of {RUNS} races ran day 2:\n{}",
        lost.len(),
        lost.join("\n")
    );
}

/// The daemon's lock is the database file's, whatever path
/// reaches it. Through a symbolic link or `x/../` a second daemon is
/// refused, naming the first; a hard-linked database is refused outright,
/// since each of its names would have its own log.
#[test]
fn a_second_daemon_through_a_link_is_refused() {
    let db = TempDb::new("links");
    store_demo_campaign(&db, "LINK");
    let first = common::spawn_daemon(&db.0, &["--poll-seconds", "3600"], &[]);
    let set_up = || {
        let store = realmgm::store::Store::open(&db.0, realmgm::games::GAMES).unwrap();
        store.days().latest("LINK").unwrap().is_some()
    };
    for _ in 0..100 {
        if set_up() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(set_up(), "the daemon ran a round");
    let symlink = db.dir().join("link.sqlite");
    std::os::unix::fs::symlink(&db.0, &symlink).unwrap();
    std::fs::create_dir(db.dir().join("sub")).unwrap();
    let dotted = db.dir().join("sub/../realmgm.sqlite");
    for other in [&symlink, &dotted] {
        let second = realmgm(&["daemon", "--once"], other);
        assert!(!second.status.success(), "{}", other.display());
        let said = stderr(&second);
        assert!(
            said.contains(&format!("another realmgm daemon (process {})", first.id())),
            "{said}"
        );
    }
    let hard = db.dir().join("hard.sqlite");
    std::fs::hard_link(&db.0, &hard).unwrap();
    for other in [&hard, &db.0] {
        let said = stderr(&realmgm(&["daemon", "--once"], other));
        assert!(said.contains("has 2 names in the file system"), "{said}");
    }
    std::fs::remove_file(&hard).unwrap();
    // A link whose own log lies beside it: a program wrote through it.
    std::fs::write(db.dir().join("link.sqlite-wal"), b"").unwrap();
    let said = stderr(&realmgm(&["campaign", "list"], &symlink));
    assert!(said.contains("has its own log"), "{said}");
    common::terminate(first);
}

/// The daemon's `flock` on the database file leaves SQLite's own locks
/// alone: while another process holds it, the CLI reads and writes the
/// database through SQLite, and only a daemon is refused.
#[test]
fn the_daemon_lock_does_not_stand_in_sqlites_way() {
    let db = TempDb::new("flock");
    store_demo_campaign(&db, "FLOCK");
    let held = std::fs::File::open(&db.0).unwrap();
    held.try_lock().unwrap();
    stdout(&realmgm(&["gm", "--campaign", "FLOCK", "pause"], &db.0));
    let status = stdout(&realmgm(&["gm", "--campaign", "FLOCK", "status"], &db.0));
    assert!(status.contains("PAUSED"), "{status}");
    let said = stderr(&realmgm(&["daemon", "--once"], &db.0));
    assert!(
        said.contains("another realmgm daemon already serves"),
        "{said}"
    );
    drop(held);
    stdout(&realmgm(&["daemon", "--once"], &db.0));
}

/// The round lock of the database at `db`, as the daemon holds it while it
/// works.
fn hold_the_round(db: &std::path::Path) -> std::fs::File {
    let real = std::fs::canonicalize(db.parent().unwrap())
        .unwrap()
        .join(db.file_name().unwrap());
    let file = std::fs::File::create(format!("{}.round-lock", real.display())).unwrap();
    file.try_lock().unwrap();
    file
}

/// Start `realmgm ARGS` on `db` without waiting for it.
fn spawn_realmgm(args: &[&str], db: &std::path::Path) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_realmgm"))
        .args(args)
        .env("REALMGM_DB", db)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the realmgm binary starts")
}

/// A command still running after a second: it waits for the round.
fn still_waiting(child: &mut std::process::Child) -> bool {
    std::thread::sleep(std::time::Duration::from_secs(1));
    child.try_wait().unwrap().is_none()
}

/// The deterministic race: `gm process` sees day 1 pending and waits for
/// the daemon's round, which runs day 1; then it refuses to run day 2 and
/// says how to. `--day` names the day.
#[test]
fn gm_process_waits_for_the_round_and_acts_only_on_the_day_it_saw() {
    let template = race_template("waits");
    let db = day_one_due(&template, 99);
    let round = hold_the_round(&db.0);
    let mut gm = spawn_realmgm(&["gm", "--campaign", "RACE", "process"], &db.0);
    assert!(still_waiting(&mut gm), "gm process waits for the round");
    // The round runs day 1 meanwhile.
    let mut daemon = realmgm::daemon::Daemon::new(
        realmgm::store::Store::open(&db.0, realmgm::games::GAMES).unwrap(),
    );
    daemon.turns().process_turn("RACE", 1_893_456_000).unwrap();
    drop(round);
    let said = stderr(&gm.wait_with_output().unwrap());
    assert!(
        said.contains(
            "day 1 was processed meanwhile; day 2 is pending now: run `realmgm gm --campaign \
             RACE process --day 2` to process it"
        ),
        "{said}"
    );
    let wrong = stderr(&realmgm(
        &["gm", "--campaign", "RACE", "process", "--day", "3"],
        &db.0,
    ));
    assert!(wrong.contains("day 3 is not pending: day 2 is"), "{wrong}");
    let ran = stdout(&realmgm(
        &["gm", "--campaign", "RACE", "process", "--day", "2"],
        &db.0,
    ));
    assert!(ran.contains("day 2 processed"), "{ran}");
}

/// `campaign edit`, `campaign import` and the GM's changes
/// wait for the daemon's round, then go ahead.
#[test]
fn edit_import_and_gm_changes_wait_for_the_round() {
    let template = race_template("changes");
    let db = day_one_due(&template, 98);
    let export = db.dir().join("race-export.sqlite");
    stdout(&realmgm(
        &["campaign", "export", "RACE", export.to_str().unwrap()],
        &template.0,
    ));
    let edited = db.dir().join("edited.toml");
    let text = std::fs::read_to_string(template.dir().join("RACE.toml")).unwrap();
    std::fs::write(
        &edited,
        text.replace("every_hours = 24", "every_hours = 48"),
    )
    .unwrap();
    let host = TempDb::new("round-host");
    for (args, on) in [
        (
            vec!["campaign", "edit", "RACE", edited.to_str().unwrap()],
            &db.0,
        ),
        (vec!["gm", "--campaign", "RACE", "pause"], &db.0),
        (
            vec!["campaign", "import", export.to_str().unwrap()],
            &host.0,
        ),
    ] {
        let round = hold_the_round(on);
        let mut command = spawn_realmgm(&args, on);
        assert!(still_waiting(&mut command), "{args:?} waits for the round");
        drop(round);
        stdout(&command.wait_with_output().unwrap());
    }
    let shown = stdout(&realmgm(&["campaign", "show", "RACE"], &db.0));
    assert!(shown.contains("every 48 hours"), "{shown}");
    let listed = stdout(&realmgm(&["campaign", "list"], &host.0));
    assert!(listed.contains("RACE"), "{listed}");
}

/// The same race by mail: the GM writes `gm process` while day 1 is
/// pending, and the daemon reads his mail only after it ran day 1. The mail
/// runs nothing; the answer says why and what to send.
#[test]
fn gm_process_by_mail_written_before_the_day_ran_runs_nothing() {
    let template = race_template("bymail");
    let db = day_one_due(&template, 97);
    let said = stdout(&realmgm(&["gm", "--campaign", "RACE", "secret"], &db.0));
    let secret = said
        .split("the GM secret of RACE is ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the secret is printed");
    stdout(&realmgm(&["daemon", "--campaign", "RACE", "--once"], &db.0));
    let ran = || {
        let store = realmgm::store::Store::open(&db.0, realmgm::games::GAMES).unwrap();
        store.days().latest("RACE").unwrap().map(|d| d.day)
    };
    assert_eq!(ran(), Some(1), "the daemon ran day 1");
    let mail = format!(
        "From: gm@demo.realmgm.test\r\nTo: gm@demo.realmgm.test\r\nSubject: [RACE] gm process\r\n\
         Message-ID: <gm-process-race@test>\r\nDate: Thu, 01 Jan 2026 10:00:00 +0000\r\n\r\n\
         Password: {secret}\r\n"
    );
    std::fs::write(db.dir().join("mail/DEMO/in/new/gm.eml"), mail).unwrap();
    stdout(&realmgm(&["daemon", "--campaign", "RACE", "--once"], &db.0));
    assert_eq!(ran(), Some(1), "day 2 did not run");
    let answer = std::fs::read_dir(db.dir().join("mail/DEMO/out/new"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .find(|mail| mail.contains("GM command"))
        .unwrap_or_else(|| {
            let log = stdout(&realmgm(&["gm", "--campaign", "RACE", "log"], &db.0));
            panic!("the GM is answered: {log}")
        });
    assert!(
        answer.contains("day 1 was processed after you wrote"),
        "{answer}"
    );
}

/// A day's state changed by hand holds the campaign, and the
/// rollback its message names works from the command line as written.
#[test]
fn the_rollback_a_forged_state_names_works_as_written() {
    let template = race_template("forged");
    let db = day_one_due(&template, 97);
    stdout(&realmgm(
        &["gm", "--campaign", "RACE", "process", "--day", "1"],
        &db.0,
    ));
    let conn = rusqlite::Connection::open(&db.0).unwrap();
    let edited = conn
        .execute(
            "UPDATE game_days SET state_json = replace(state_json, '\"day\":1', '\"day\": 1') \
             WHERE day = 1",
            [],
        )
        .unwrap();
    assert_eq!(edited, 1);
    drop(conn);
    let refused = stderr(&realmgm(&["gm", "--campaign", "RACE", "status"], &db.0));
    let advice = "realmgm gm --campaign RACE rollback --day 0";
    assert!(refused.contains(advice), "{refused}");
    let rolled = realmgm(
        &["gm", "--campaign", "RACE", "rollback", "--day", "0"],
        &db.0,
    );
    assert!(rolled.status.success(), "{}", stderr(&rolled));
    let status = stdout(&realmgm(&["gm", "--campaign", "RACE", "status"], &db.0));
    assert!(status.contains("day 1 pending"), "{status}");
}

/// `ingest` stores its mail before anything else, then waits for
/// the daemon's round to answer it as the daemon does, so a round that
/// holds the lock long never keeps a mail from being stored.
#[test]
fn ingest_stores_the_mail_before_it_waits_for_the_round() {
    use std::io::Write;
    let db = TempDb::new("ingest-first");
    store_demo_campaign(&db, "ING");
    let round = hold_the_round(&db.0);
    let mut ingest = std::process::Command::new(env!("CARGO_BIN_EXE_realmgm"))
        .arg("ingest")
        .env("REALMGM_DB", &db.0)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the realmgm binary starts");
    ingest
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"From: eve@elsewhere.test\r\nTo: gm@demo.realmgm.test\r\nSubject: [ING] hello\r\n\
              Message-ID: <first@test>\r\n\r\nHello.\r\n",
        )
        .unwrap();
    assert!(still_waiting(&mut ingest), "ingest waits for the round");
    let conn = rusqlite::Connection::open(&db.0).unwrap();
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .unwrap();
    let stored: i64 = conn
        .query_row("SELECT COUNT(*) FROM inbound_mail", [], |row| row.get(0))
        .unwrap();
    assert_eq!(stored, 1, "stored while the round still held the lock");
    drop(round);
    let done = ingest.wait_with_output().unwrap();
    assert!(done.status.success(), "{}", stderr(&done));
    let said = stdout(&done);
    assert!(
        said.starts_with("mail 1: ") && said.contains("not in the campaign"),
        "{said}"
    );
}

/// The commands the tool prints (`gm status --campaign C`)
/// work as printed: `--campaign` stands before or after the GM's command.
#[test]
fn the_campaign_option_stands_on_either_side_of_the_gm_command() {
    let db = TempDb::new("either-side");
    store_demo_campaign(&db, "SIDE");
    let before = stdout(&realmgm(&["gm", "--campaign", "SIDE", "status"], &db.0));
    let after = stdout(&realmgm(&["gm", "status", "--campaign", "SIDE"], &db.0));
    assert!(before.starts_with("Campaign SIDE"), "{before}");
    assert_eq!(before, after);
    let missing = stderr(&realmgm(&["gm", "log"], &db.0));
    assert!(
        missing.contains("name the campaign with `--campaign C`, before or after the command"),
        "{missing}"
    );
}

#[test]
fn doctor_names_an_smtp_server_that_fails_with_its_security_as_the_file_writes_it() {
    let db = TempDb::new("doctor-smtp");
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let file = db.dir().join("SMTPD.toml");
    let text = std::fs::read_to_string("campaigns/demo.toml")
        .unwrap()
        .replace("name = \"DEMO\"", "name = \"SMTPD\"")
        .replace("maildir_out = \"mail/DEMO/out\"\n", "")
        .replace(
            "\n[site]\n",
            &format!(
                "[mail.smtp]\nhost = \"127.0.0.1\"\nport = {closed}\nsecurity = \"none\"\n\n[site]\n"
            ),
        );
    std::fs::write(&file, text).unwrap();
    stdout(&realmgm(
        &["campaign", "new", file.to_str().unwrap()],
        &db.0,
    ));
    let doctor = realmgm(&["doctor", "--campaign", "SMTPD"], &db.0);
    let said = String::from_utf8_lossy(&doctor.stdout) + String::from_utf8_lossy(&doctor.stderr);
    assert!(
        said.contains(&format!("SMTP 127.0.0.1:{closed} (security none): ")),
        "{said}"
    );
}

#[test]
fn the_commands_an_error_suggests_name_the_database_it_was_run_on() {
    let db = TempDb::new("hint-db");
    store_demo_campaign(&db, "HINT");
    let with_db = format!("--db {}", db.0.display());
    let unnamed = stderr(&realmgm(&["gm", "log"], &db.0));
    assert!(
        unnamed.contains(&format!("`realmgm campaign list {with_db}`")),
        "{unnamed}"
    );
    let no_day = stderr(&realmgm(
        &[
            "report",
            "--campaign",
            "HINT",
            "--player",
            "Ann",
            "--day",
            "9",
        ],
        &db.0,
    ));
    assert!(
        no_day.contains(&format!("`realmgm gm --campaign HINT status {with_db}`")),
        "{no_day}"
    );
    let missing = db.dir().join("none.sqlite");
    let no_database = stderr(&realmgm(&["campaign", "list"], &missing));
    assert!(
        no_database.contains(&format!(
            "`realmgm campaign new FILE --db {}`",
            missing.display()
        )),
        "{no_database}"
    );
}

/// Doctor checks each `[notify]` hook's address and secret without posting
/// anything, and names the variable a missing secret should be in.
#[test]
fn doctor_finds_each_notify_hooks_secret_or_names_the_missing_one() {
    let db = TempDb::new("doctor-notify");
    let file = db.dir().join("notify.toml");
    let text = std::fs::read_to_string("campaigns/demo.toml").unwrap()
        + "\n[notify]\n[[notify.hooks]]\nkind = \"discord\"\n\
           url = \"https://discord.example.org/api/webhooks/1/SECRET\"\n\
           [[notify.hooks]]\nkind = \"slack\"\nurl_env = \"REALMGM_TEST_UNSET_SLACK_URL\"\n";
    std::fs::write(&file, text).unwrap();
    stdout(&realmgm(
        &["campaign", "new", file.to_str().unwrap()],
        &db.0,
    ));
    let out = realmgm(&["doctor", "--campaign", "DEMO"], &db.0);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("OK       notify hook 'discord' posts to discord.example.org"),
        "{said}"
    );
    assert!(!said.contains("SECRET"), "{said}");
    assert!(
        said.contains("PROBLEM  the environment variable REALMGM_TEST_UNSET_SLACK_URL"),
        "{said}"
    );
}

/// The daemon posts a processed day's news to the campaign's webhook in
/// its round: a local server that answers 200 and keeps each body.
#[test]
fn the_daemons_round_posts_the_days_news_to_the_webhook() {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (tx, bodies) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for socket in listener.incoming().flatten() {
            let mut reader = BufReader::new(socket.try_clone().unwrap());
            let mut length = 0;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                let line = line.trim_end().to_ascii_lowercase();
                if line.is_empty() {
                    break;
                }
                if let Some(value) = line.strip_prefix("content-length:") {
                    length = value.trim().parse().unwrap();
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let mut out = socket;
            out.write_all(b"HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n")
                .unwrap();
            tx.send(String::from_utf8(body).unwrap()).unwrap();
        }
    });
    let db = TempDb::new("daemon-news");
    let file = db.dir().join("news.toml");
    let text = std::fs::read_to_string("campaigns/demo.toml").unwrap()
        + &format!(
            "\n[notify]\n[[notify.hooks]]\nkind = \"slack\"\nurl = \"http://127.0.0.1:{port}/hook\"\n\
             news = [\"day\"]\n"
        );
    std::fs::write(&file, text).unwrap();
    stdout(&realmgm(
        &["campaign", "new", file.to_str().unwrap()],
        &db.0,
    ));
    stdout(&realmgm(&["daemon", "--once"], &db.0));
    stdout(&realmgm(&["gm", "--campaign", "DEMO", "process"], &db.0));
    stdout(&realmgm(&["daemon", "--once"], &db.0));
    let body = bodies
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the day's news reached the webhook");
    let news: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert!(
        news["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("[DEMO] Day 1 is processed")),
        "{body}"
    );
}
