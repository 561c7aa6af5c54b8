//! TLS against the local test mail server (scripts/mailserver.sh, which
//! makes its own CA): SMTP with STARTTLS, IMAP over TLS (IMAPS) and IMAP
//! with STARTTLS, trusting the server only through the extra CA file a
//! campaign's `[mail] ca_file` names; without it every connection fails
//! with advice naming that setting. Then the daemon collects orders over
//! IMAPS and answers over SMTP with STARTTLS, and `realmgm doctor` names
//! the missing `ca_file`. Prints SKIPPED and returns
//! when the server (or its CA file) is missing.

use crate::common;
use crate::support;

use std::path::{Path, PathBuf};
use std::thread::sleep;
use std::time::Duration;

use lettre::Message;
use realmgm::mail::imap::{ImapClient, ImapError, ImapSettings};
use realmgm::mail::tls;
use realmgm::mail::transport::{MailTransport, Mechanism, Security, SmtpMailer, SmtpSettings};
use support::*;

const CA_FILE: &str = "/etc/realmgm-mail/tls/ca.pem";

fn server_is_up() -> bool {
    common::mail_ports_open(&[2525, 1143, 1993]) && Path::new(CA_FILE).exists()
}

fn ca() -> Option<PathBuf> {
    Some(PathBuf::from(CA_FILE))
}

fn smtp(ca_file: Option<PathBuf>) -> SmtpMailer {
    SmtpMailer::new(&SmtpSettings {
        host: "127.0.0.1".into(),
        port: 2525,
        security: Security::StartTls,
        username: None,
        password: None,
        mechanism: Mechanism::Password,
        ca_file,
    })
    .unwrap()
}

fn imap(user: &str, port: u16, security: Security, ca_file: Option<PathBuf>) -> ImapSettings {
    ImapSettings {
        host: "127.0.0.1".into(),
        port,
        security,
        username: format!("{user}@realmgm.test"),
        password: format!("{user}-secret"),
        mechanism: Mechanism::Password,
        timeout: Duration::from_secs(10),
        ca_file,
    }
}

fn plain_mail(from: &str, to: &str, subject: &str, body: &str) -> Message {
    Message::builder()
        .from(from.parse().unwrap())
        .to(to.parse().unwrap())
        .subject(subject)
        .body(body.to_string())
        .unwrap()
}

#[test]
fn smtp_starttls_imaps_and_imap_starttls_with_the_campaign_ca() {
    if !server_is_up() {
        eprintln!("SKIPPED: no local mail server with TLS; run scripts/mailserver.sh start");
        return;
    }
    let marker = common::run_marker();
    for (index, via) in ["imaps", "starttls"].iter().enumerate() {
        let subject = format!("tls {via} {marker}");
        let sent = smtp(ca())
            .send(&plain_mail(
                "player1@realmgm.test",
                "player2@realmgm.test",
                &subject,
                &format!("sent over STARTTLS, read over {via}"),
            ))
            .unwrap();
        assert!(sent.starts_with("SMTP 250"), "{sent}");
        let settings = if index == 0 {
            imap("player2", 1993, Security::Tls, ca())
        } else {
            imap("player2", 1143, Security::StartTls, ca())
        };
        let mails = common::wait_for_mail(&settings, &subject, 1);
        assert!(mails[0].body_text.contains(&format!("read over {via}")));
        // Postfix notes the TLS session in the Received header.
        let status = ImapClient::connect(&settings)
            .unwrap()
            .select("INBOX")
            .unwrap();
        assert!(status.uid_validity.is_some());
    }
}

#[test]
fn without_the_ca_file_tls_fails_with_advice_naming_it() {
    if !server_is_up() {
        eprintln!("SKIPPED: no local mail server with TLS; run scripts/mailserver.sh start");
        return;
    }
    for (port, security) in [(1993, Security::Tls), (1143, Security::StartTls)] {
        let error = ImapClient::connect(&imap("player2", port, security, None))
            .err()
            .unwrap();
        assert!(matches!(error, ImapError::Tls(_)), "{error}");
        let text = error.to_string();
        assert!(text.contains("ca_file = "), "{port}: {text}");
    }
    let error = smtp(None)
        .send(&plain_mail(
            "player1@realmgm.test",
            "player2@realmgm.test",
            "never sent",
            "x",
        ))
        .unwrap_err();
    let advice = tls::advice(&error.to_string());
    assert!(
        advice.is_some_and(|a| a.contains("ca_file = ")),
        "{error}: {advice:?}"
    );
}

#[test]
fn the_daemon_reads_over_imaps_and_answers_over_smtp_starttls() {
    if !server_is_up() {
        eprintln!("SKIPPED: no local mail server with TLS; run scripts/mailserver.sh start");
        return;
    }
    let tag = format!("T{}", common::run_marker());
    // player4's mailbox plays the GM's, away from the other server tests.
    let gm = "player4@realmgm.test";
    let text =
        campaign_text(&tag, &[("P3", "player3@realmgm.test")], "").replace("gm@realmgm.test", gm);
    let mut daemon = daemon();
    let secrets = add_campaign(&mut daemon.store, "guess", &text);
    daemon.turns().check_turn(&tag, START).unwrap();
    smtp(ca())
        .send(&plain_mail(
            "player3@realmgm.test",
            gm,
            &format!("[{tag}] orders"),
            &format!("guess 50\nPassword: {}\n", secrets["P3"]),
        ))
        .unwrap();
    let gm_box = imap("player4", 1993, Security::Tls, ca());
    // Wait for the orders to be accepted, not for any mail: the mailbox may
    // hold older mail the daemon stores and ignores.
    let mut handled = Vec::new();
    for _ in 0..100 {
        daemon.mail_in().poll_imap(&gm_box, "INBOX", START).unwrap();
        handled.extend(daemon.mail_in().handle_stored(START).unwrap());
        if handled.iter().any(|(_, note)| note.contains("accepted")) {
            break;
        }
        sleep(Duration::from_millis(200));
    }
    assert!(
        handled.iter().any(|(_, note)| note.contains("accepted")),
        "{handled:?}"
    );
    let sent = daemon
        .outbox()
        .send_due(&smtp(ca()), Some(&tag), START)
        .unwrap();
    assert_eq!(sent.sent, 1, "{sent:?}");
    let replies = common::wait_for_mail(
        &imap("player3", 1143, Security::StartTls, ca()),
        &format!("[{tag}]"),
        1,
    );
    assert!(
        replies[0].body_text.contains("Guess: 50"),
        "{}",
        replies[0].body_text
    );
}

#[test]
fn doctor_names_the_missing_ca_file_and_passes_with_it() {
    if !server_is_up() {
        eprintln!("SKIPPED: no local mail server with TLS; run scripts/mailserver.sh start");
        return;
    }
    let db = common::TempDb::new("doctor-tls");
    let dir = std::env::temp_dir().join(format!("realmgm-doctor-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let doctor = |tag: &str, ca_line: &str| {
        let mail = format!(
            "[mail]\n{ca_line}\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = 2525\n\
             security = \"starttls\"\n[mail.imap]\nhost = \"127.0.0.1\"\nport = 1993\n\
             security = \"tls\"\nuser = \"player2@realmgm.test\"\n\
             password_env = \"REALMGM_TLS_TEST_PASSWORD\"\n"
        );
        let file = dir.join(format!("{tag}.toml"));
        std::fs::write(
            &file,
            campaign_text(tag, &[("Ann", "ann@realmgm.test")], &mail),
        )
        .unwrap();
        common::stdout(&common::realmgm(
            &["campaign", "new", file.to_str().unwrap()],
            &db.0,
        ));
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_realmgm"))
            .args(["doctor", "--campaign", tag])
            .env("REALMGM_DB", &db.0)
            .env("REALMGM_TLS_TEST_PASSWORD", "player2-secret")
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let without = doctor("DTA", "");
    for service in ["SMTP", "IMAP"] {
        assert!(
            without
                .lines()
                .any(|l| l.starts_with(&format!("PROBLEM  {service}")) && l.contains("ca_file = ")),
            "{without}"
        );
    }
    let with = doctor("DTB", &format!("ca_file = \"{CA_FILE}\""));
    assert!(with.contains("OK       mail.ca_file"), "{with}");
    assert!(
        with.contains("OK       SMTP 127.0.0.1:2525 answers"),
        "{with}"
    );
    assert!(
        with.contains("OK       IMAP 127.0.0.1:1993 folder INBOX"),
        "{with}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
