//! The daemon reads an IMAP mailbox in IDLE where the server offers it: a
//! player's orders delivered while it waits are confirmed at once, though
//! it polls only every hour; when the connection drops it reconnects, the
//! GM's log and `gm status` say so, and mail after the reconnection is
//! confirmed at once too. A server without IDLE is polled. Both against
//! the project's fake IMAP server.

use std::path::Path;
use std::time::{Duration, Instant};

use realmgm::mail::imap::fake::Mailbox;

use crate::common::{self, TempDb, realmgm, stdout};

const PASSWORD_ENV: &str = "REALMGM_IDLE_TEST_PASSWORD";

/// The demo campaign reading its mail from the fake server on `port` and
/// sending it to its Maildir; returns each player's secret.
fn store_campaign(db: &TempDb, port: u16) -> Vec<(String, String)> {
    let file = db.dir().join("idle.toml");
    let text = std::fs::read_to_string("campaigns/demo.toml")
        .unwrap()
        .replace("maildir_in = \"mail/DEMO/in\"\n", "")
        .replace(
            "maildir_out = \"mail/DEMO/out\"\n",
            &format!(
                "maildir_out = \"mail/DEMO/out\"\n\n[mail.imap]\nhost = \"127.0.0.1\"\n\
                 port = {port}\nsecurity = \"none\"\nuser = \"gm\"\n\
                 password_env = \"{PASSWORD_ENV}\"\n"
            ),
        );
    std::fs::write(&file, text).unwrap();
    let stored = stdout(&realmgm(
        &["campaign", "new", file.to_str().unwrap()],
        &db.0,
    ));
    ["Ann", "Ben"]
        .iter()
        .map(|player| {
            let secret = stored
                .lines()
                .find_map(|line| {
                    line.trim()
                        .strip_prefix(&format!("{player} <"))
                        .and_then(|rest| rest.split(": ").nth(1))
                })
                .expect("campaign new prints each secret");
            (player.to_string(), secret.to_string())
        })
        .collect()
}

fn orders_mail(player: &str, secret: &str, n: usize) -> Vec<u8> {
    let address = format!("{}@demo.realmgm.test", player.to_lowercase());
    format!(
        "From: {address}\r\nTo: gm@demo.realmgm.test\r\nSubject: [DEMO] orders\r\n\
         Message-ID: <idle-{n}@test>\r\nDate: Mon, 31 Dec 2029 10:00:00 +0000\r\n\r\n\
         Password: {secret}\r\nH, H\r\n"
    )
    .into_bytes()
}

/// Wait up to `limit` for `done`, looking every 50 ms.
fn wait_for(limit: Duration, what: &str, done: &dyn Fn() -> bool) -> Duration {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < limit, "waited {limit:?} for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
    started.elapsed()
}

/// Whether the campaign's outgoing Maildir holds the answer to the mail
/// `idle-N@test`.
fn answered(db: &TempDb, n: usize) -> bool {
    let out = db.dir().join("mail/DEMO/out/new");
    std::fs::read_dir(&out).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            std::fs::read_to_string(e.path())
                .is_ok_and(|text| text.contains(&format!("In-Reply-To: <idle-{n}@test>")))
        })
    })
}

/// What `realmgm doctor` says of the campaign, with the IMAP password set.
fn doctor(db: &Path) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_realmgm"))
        .args(["doctor", "--campaign", "DEMO"])
        .env("REALMGM_DB", db)
        .env(PASSWORD_ENV, "pw")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the realmgm binary runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn status(db: &Path) -> serde_json::Value {
    let json = stdout(&realmgm(
        &["gm", "--campaign", "DEMO", "status", "--json"],
        db,
    ));
    serde_json::from_str(&json).unwrap()
}

#[test]
fn mail_delivered_while_the_daemon_idles_is_confirmed_at_once() {
    let mailbox = Mailbox::start(true);
    let db = TempDb::new("imap-idle");
    let secrets = store_campaign(&db, mailbox.port());
    let said = doctor(&db.0);
    assert!(
        said.contains("IDLE offered: mail is read as it arrives"),
        "{said}"
    );
    let daemon = common::spawn_daemon(&db.0, &["--poll-seconds", "3600"], &[(PASSWORD_ENV, "pw")]);
    let minute = Duration::from_secs(60);
    // Recorded after the first round: its own poll is behind it, and from
    // now on only IDLE brings the mail in before the hour is up.
    wait_for(minute, "the daemon to wait in IDLE", &|| {
        mailbox.idling() > 0 && status(&db.0)["mailbox"]["mode"] == "idle"
    });
    let (ann, ann_secret) = &secrets[0];
    mailbox.deliver(&orders_mail(ann, ann_secret, 1));
    let took = wait_for(minute, "Ann's confirmation", &|| answered(&db, 1));
    assert!(took < Duration::from_secs(30), "{took:?}");

    // The server goes away: the daemon says so and reconnects.
    mailbox.cut();
    wait_for(minute, "the dropped connection to be recorded", &|| {
        status(&db.0)["mailbox"]["mode"] == "reconnecting"
    });
    let text = stdout(&realmgm(&["gm", "--campaign", "DEMO", "status"], &db.0));
    assert!(text.contains("Mailbox: reconnecting since"), "{text}");
    mailbox.accept();
    wait_for(minute, "the daemon to wait in IDLE again", &|| {
        mailbox.idling() > 0 && status(&db.0)["mailbox"]["mode"] == "idle"
    });
    let (ben, ben_secret) = &secrets[1];
    mailbox.deliver(&orders_mail(ben, ben_secret, 2));
    wait_for(minute, "Ben's confirmation", &|| answered(&db, 2));
    let log = common::terminate(daemon);
    assert!(log.contains("the connection dropped"), "{log}");
    assert!(log.contains("reconnected; waiting in IDLE again"), "{log}");
    let gm_log = stdout(&realmgm(&["gm", "--campaign", "DEMO", "log"], &db.0));
    assert!(gm_log.contains("the connection dropped"), "{gm_log}");
    // IDLE was asked for, and ended with DONE each time it saw mail.
    let commands = mailbox.commands();
    assert!(commands.iter().any(|c| c == "IDLE"), "{commands:?}");
    assert!(commands.iter().any(|c| c == "DONE"), "{commands:?}");
}

#[test]
fn a_server_without_idle_is_polled() {
    let mailbox = Mailbox::start(false);
    let db = TempDb::new("imap-poll");
    let secrets = store_campaign(&db, mailbox.port());
    let said = doctor(&db.0);
    assert!(
        said.contains("no IDLE: polled every mail.poll_seconds"),
        "{said}"
    );
    let daemon = common::spawn_daemon(&db.0, &["--poll-seconds", "1"], &[(PASSWORD_ENV, "pw")]);
    let minute = Duration::from_secs(60);
    wait_for(minute, "the polling mode to be recorded", &|| {
        status(&db.0)["mailbox"]["mode"] == "polling"
    });
    let (ann, secret) = &secrets[0];
    mailbox.deliver(&orders_mail(ann, secret, 1));
    wait_for(minute, "Ann's confirmation", &|| answered(&db, 1));
    let log = common::terminate(daemon);
    assert!(log.contains("offers no IDLE"), "{log}");
    assert!(!mailbox.commands().iter().any(|c| c == "IDLE"));
}
