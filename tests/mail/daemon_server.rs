//! The daemon against the local test mail server (scripts/mailserver.sh):
//! players send orders over SMTP, the daemon collects them over IMAP from
//! the GM's mailbox, answers and sends reports over SMTP, and the players
//! read confirmations and reports from their own mailboxes over IMAP; a
//! campaign of the test game is played for several days this way. Then
//! Dovecot renumbers a folder (a new UIDVALIDITY, set with doveadm) and the
//! daemon re-scans it whole without storing anything twice.
//! Prints SKIPPED and returns when the server is not running.

use crate::common;
use crate::support;

use std::thread::sleep;
use std::time::Duration;

use lettre::Message;
use realmgm::mail::imap::ImapSettings;
use realmgm::mail::transport::{MailTransport, Mechanism, Security, SmtpMailer, SmtpSettings};
use support::*;

pub(crate) fn server_is_up() -> bool {
    common::mail_ports_open(&[2525, 1143])
}

pub(crate) fn smtp() -> SmtpMailer {
    SmtpMailer::new(&SmtpSettings {
        host: "127.0.0.1".into(),
        port: 2525,
        security: Security::None,
        username: None,
        password: None,
        mechanism: Mechanism::Password,
        ca_file: None,
    })
    .unwrap()
}

pub(crate) fn imap_settings(user: &str) -> ImapSettings {
    ImapSettings {
        host: "127.0.0.1".into(),
        port: 1143,
        security: Security::None,
        username: format!("{user}@realmgm.test"),
        password: format!("{user}-secret"),
        mechanism: Mechanism::Password,
        timeout: Duration::from_secs(10),
        ca_file: None,
    }
}

pub(crate) fn player_mail(from: &str, subject: &str, body: &str) -> Message {
    Message::builder()
        .from(from.parse().unwrap())
        .to("gm@realmgm.test".parse().unwrap())
        .subject(subject)
        .body(body.to_string())
        .unwrap()
}

#[test]
fn a_campaign_is_played_over_smtp_and_imap() {
    if !server_is_up() {
        eprintln!("SKIPPED: no local mail server; run scripts/mailserver.sh start");
        return;
    }
    let tag = format!("L{}", common::run_marker());
    let subject_tag = format!("[{tag}]");
    let players = [("P1", "player1"), ("P2", "player2"), ("P3", "player3")];
    let addresses: Vec<(&str, String)> = players
        .iter()
        .map(|(n, u)| (*n, format!("{u}@realmgm.test")))
        .collect();
    let list: Vec<(&str, &str)> = addresses.iter().map(|(n, a)| (*n, a.as_str())).collect();
    let mut daemon = daemon();
    let secrets = add_campaign(&mut daemon.store, "guess", &campaign_text(&tag, &list, ""));
    // Mail of earlier runs carries other tags and is left alone.
    let mut now = START;
    daemon.turns().check_turn(&tag, now).unwrap();
    let target = daemon
        .store
        .days()
        .load(&tag, 0)
        .unwrap()
        .unwrap()
        .state
        .json()["target"]
        .as_u64()
        .unwrap();
    let smtp = smtp();
    for day in 1..=3u64 {
        for (index, (name, user)) in players.iter().enumerate() {
            let guess = (day * 10 + index as u64).min(100);
            let guess = if guess == target { guess + 1 } else { guess };
            let body = format!("guess {guess}\nPassword: {}\n", secrets[*name]);
            let from = format!("{user}@realmgm.test");
            smtp.send(&player_mail(
                &from,
                &format!("{subject_tag} day {day}"),
                &body,
            ))
            .unwrap();
        }
        // Count accepted orders, not stored mails: the GM mailbox the daemon
        // polls may also hold its own notices to the GM, which it ignores.
        let mut handled = Vec::new();
        let accepted = |handled: &[(i64, String)]| {
            handled
                .iter()
                .filter(|(_, n)| n.contains("accepted"))
                .count()
        };
        for _ in 0..100 {
            daemon
                .mail_in()
                .poll_imap(&imap_settings("gm"), "INBOX", now)
                .unwrap();
            handled.extend(daemon.mail_in().handle_stored(now).unwrap());
            if accepted(&handled) >= players.len() {
                break;
            }
            sleep(Duration::from_millis(200));
        }
        assert_eq!(accepted(&handled), players.len(), "{handled:?}");
        now += 10 * 60;
        assert_eq!(
            daemon.turns().check_turn(&tag, now).unwrap(),
            format!("processed day {day} early")
        );
        let sent = daemon.outbox().send_due(&smtp, Some(&tag), now).unwrap();
        assert_eq!(
            sent.sent,
            2 * players.len() + 1,
            "confirmations, reports, GM history"
        );
        for (name, user) in players {
            let mails = common::wait_for_mail(&imap_settings(user), &subject_tag, 2);
            let confirmation = mails
                .iter()
                .find(|m| m.body_text.contains("accepted"))
                .unwrap();
            assert!(
                confirmation.body_text.contains("Guess: "),
                "{}",
                confirmation.body_text
            );
            let report = mails
                .iter()
                .find(|m| m.subject.contains(&format!("Day {day} report")))
                .unwrap();
            assert!(
                report.body_text.contains(&format!("{name} guessed")),
                "{}",
                report.body_text
            );
            for (other, _) in players.iter().filter(|(o, _)| *o != name) {
                let leak = format!("{other} guessed");
                assert!(
                    !report.body_text.contains(&leak),
                    "hints are private: {}",
                    report.body_text
                );
            }
        }
        now += 3600;
    }
}

/// Run Dovecot's admin tool on the test server; `None` when it cannot.
fn doveadm(args: &[&str], input: Option<&str>) -> Option<()> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("doveadm")
        .args(["-c", "/etc/realmgm-mail/dovecot.conf"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    if let Some(text) = input {
        child.stdin.take()?.write_all(text.as_bytes()).ok()?;
    }
    child.wait().ok()?.success().then_some(())
}

#[test]
fn a_folder_renumbered_by_dovecot_is_rescanned_without_duplicates() {
    if !server_is_up() {
        eprintln!("SKIPPED: no local mail server; run scripts/mailserver.sh start");
        return;
    }
    let user = "player3@realmgm.test";
    let stamp = common::run_marker();
    let folder = format!("UV{stamp}");
    if doveadm(&["mailbox", "create", "-u", user, &folder], None).is_none() {
        eprintln!("SKIPPED: doveadm cannot reach the test server's mailboxes (needs root)");
        return;
    }
    let message = |n: u32| {
        format!(
            "From: a@realmgm.test\r\nSubject: uv {n}\r\nMessage-ID: <uv{n}.{stamp}@x>\r\n\r\nbody {n}\r\n"
        )
    };
    doveadm(&["save", "-u", user, "-m", &folder], Some(&message(1))).unwrap();
    let mut daemon = daemon();
    let settings = imap_settings("player3");
    assert_eq!(
        daemon
            .mail_in()
            .poll_imap(&settings, &folder, START)
            .unwrap(),
        1
    );
    assert_eq!(
        daemon
            .mail_in()
            .poll_imap(&settings, &folder, START)
            .unwrap(),
        0
    );
    // A second mail arrives already flagged seen (another client read it),
    // then the server renumbers the folder, as a restore from backup would.
    doveadm(&["save", "-u", user, "-m", &folder], Some(&message(2))).unwrap();
    doveadm(
        &[
            "flags", "add", "-u", user, "\\Seen", "mailbox", &folder, "ALL",
        ],
        None,
    )
    .unwrap();
    doveadm(
        &[
            "mailbox",
            "update",
            "-u",
            user,
            "--uid-validity",
            "4242",
            &folder,
        ],
        None,
    )
    .unwrap();
    assert_eq!(
        daemon
            .mail_in()
            .poll_imap(&settings, &folder, START + 60)
            .unwrap(),
        1
    );
    let log = daemon.store.control().gm_log(None).unwrap();
    assert!(
        log.iter().any(|e| e.kind == "imap"
            && e.message.contains("to 4242")
            && e.message.contains("all 2 messages, 1 of them new")),
        "{log:?}"
    );
    assert_eq!(
        daemon
            .store
            .inbox()
            .with_status(realmgm::store::InboundStatus::New)
            .unwrap()
            .len(),
        2,
        "each mail stored once"
    );
    doveadm(&["mailbox", "delete", "-u", user, &folder], None).unwrap();
}

#[test]
fn a_mail_beyond_the_cap_comes_from_dovecot_cut_and_is_not_fetched_again() {
    if !server_is_up() {
        eprintln!("SKIPPED: no local mail server; run scripts/mailserver.sh start");
        return;
    }
    let user = "player4@realmgm.test";
    let stamp = common::run_marker();
    let folder = format!("BIG{stamp}");
    if doveadm(&["mailbox", "create", "-u", user, &folder], None).is_none() {
        eprintln!("SKIPPED: doveadm cannot reach the test server's mailboxes (needs root)");
        return;
    }
    let mut message = format!(
        "From: stranger@realmgm.test\r\nSubject: big\r\nMessage-ID: <big.{stamp}@x>\r\n\r\n"
    );
    let line = format!("{}\r\n", "z".repeat(98));
    // Above the 64 MiB literal the client once refused: that mail failed every round.
    while message.len() < 70_000_000 {
        message.push_str(&line);
    }
    doveadm(&["save", "-u", user, "-m", &folder], Some(&message)).unwrap();
    let size = message.len();
    drop(message);
    let mut daemon = daemon();
    let settings = imap_settings("player4");
    assert_eq!(
        daemon
            .mail_in()
            .poll_imap(&settings, &folder, START)
            .unwrap(),
        1
    );
    assert_eq!(
        daemon
            .mail_in()
            .poll_imap(&settings, &folder, START + 60)
            .unwrap(),
        0
    );
    let stored = daemon
        .store
        .inbox()
        .with_status(realmgm::store::InboundStatus::New)
        .unwrap();
    assert_eq!(stored.len(), 1);
    assert!(stored[0].raw.len() <= realmgm::daemon::mail_in::ingest::MAX_MAIL_BYTES);
    let log = daemon.store.control().gm_log(None).unwrap();
    assert!(
        log.iter()
            .any(|e| e.kind == "too large" && e.message.contains(&format!("{size} bytes arrived"))),
        "{log:?}"
    );
    doveadm(&["mailbox", "delete", "-u", user, &folder], None).unwrap();
}
