//! Everything a month of play sends and prints, read as a person reads it:
//! no Rust-shaped text (Debug formatting, paths), and every `realmgm ...`
//! command it suggests parses as printed. The month is the 16-player bot
//! month of tests/support/month16.rs, followed by a player's commands, a
//! wrong password, a stranger and the GM's commands by mail; beside it
//! the reports the templates render for the golden tests, the GM's log,
//! every `--help` page and the commands written in the program's source.

use std::cell::RefCell;
use std::path::Path;
use std::sync::OnceLock;

use lettre::Message;
use mail_parser::MessageParser;
use realmgm::daemon::Daemon;
use realmgm::mail::transport::{MailTransport, SendError};
use realmgm::store::Store;

use crate::month16::{self, TAG};
use crate::rust_shaped::{Detector, html_text};
use crate::support::mail;

/// A transport that keeps each mail as it would reach its reader.
#[derive(Default)]
struct Keep(RefCell<Vec<Vec<u8>>>);

impl MailTransport for Keep {
    fn send(&self, message: &Message) -> Result<String, SendError> {
        self.0.borrow_mut().push(message.formatted());
        Ok("kept".into())
    }
}

/// One text a person reads, and where it came from.
struct Read {
    source: String,
    text: String,
}

/// The month's mails, as text, HTML turned to its text, and subject.
fn mails(kept: &Keep, texts: &mut Vec<Read>) {
    for raw in kept.0.take() {
        let message = MessageParser::default().parse(&raw).expect("a mail");
        let to = message
            .to()
            .and_then(|to| to.first())
            .and_then(|a| a.address())
            .unwrap_or_default()
            .to_string();
        let subject = message.subject().unwrap_or_default().to_string();
        let source = format!("mail to {to}, \"{subject}\"");
        let mut text = format!("{subject}\n");
        if let Some(body) = message.body_text(0) {
            text.push_str(&body);
        }
        texts.push(Read {
            source: source.clone(),
            text,
        });
        if message.html_body_count() > 0
            && let Some(html) = message.body_html(0)
        {
            texts.push(Read {
                source: format!("{source} (HTML)"),
                text: html_text(&html),
            });
        }
    }
}

/// What the month and the mail after it sent, and the GM's log.
fn month() -> &'static [Read] {
    static MONTH: OnceLock<Vec<Read>> = OnceLock::new();
    MONTH.get_or_init(|| {
        let path =
            std::env::temp_dir().join(format!("realmgm-read-{}.sqlite", std::process::id()));
        let kept = Keep::default();
        let played = month16::play_through(&path, 28, &kept);
        let mut texts = Vec::new();
        mails(&kept, &mut texts);
        let mut daemon = Daemon::new(Store::open(&path).unwrap());
        let mut now = played.ended + 60;
        let mut send = |daemon: &mut Daemon, from: &str, subject: &str, body: &str| {
            now += 60;
            let id = format!("after-{now}@month.test");
            daemon
                .ingest(&mail(from, "gm@month.test", subject, &id, body), now)
                .unwrap();
            daemon.send_due(&kept, None, now).unwrap();
        };
        let player = format!("Password: {}\n", played.secrets["P01"]);
        for command in [
            "help",
            "orders?",
            "rules?",
            "report? 2",
            "combat?",
            "to P02",
            "away until 2030-03-20",
            "back",
        ] {
            let subject = format!("[{TAG}] {command}");
            send(&mut daemon, "p01@month.test", &subject, &player);
        }
        let subject = format!("[{TAG}] orders");
        send(&mut daemon, "p01@month.test", &subject, &format!("{player}M XX9, H\n"));
        send(&mut daemon, "p02@month.test", &subject, "Password: wrong\nH, H\n");
        send(&mut daemon, "nobody@else.test", &subject, "H, H\n");
        let gm = format!("Password: {}\n", daemon.store.new_gm_secret(TAG).unwrap());
        for command in [
            "gm status",
            "gm preview",
            "gm pause",
            "gm resume",
            "gm extend 2",
            "gm resend P03",
            "gm narrate",
            "gm replace P16 new16@month.test",
            "gm remove-player P15",
            "gm rollback 40",
            "gm fly away",
        ] {
            let subject = format!("[{TAG}] {command}");
            send(&mut daemon, "gm@month.test", &subject, &gm);
        }
        let subject = format!("[{TAG}] gm announce");
        send(&mut daemon, "gm@month.test", &subject, &format!("{gm}The bridge is out.\n"));
        send(&mut daemon, "gm@month.test", &subject, "Password: wrong\nNews.\n");
        // Day 1 again, its deadline long past: everyone starts at a
        // dwelling among natives, and the GM has each try to hire them.
        let subject = format!("[{TAG}] gm rollback 0");
        send(&mut daemon, "gm@month.test", &subject, &gm);
        let hire = "HR, T, HR, T\nHire: Rogues up to 30; Order up to 30; Soldiers up to 30; \
                    Guard up to 30; Company up to 30\nDrinks: 1\n";
        for player in played.secrets.keys() {
            let subject = format!("[{TAG}] gm orders {player}");
            send(&mut daemon, "gm@month.test", &subject, &format!("{gm}{hire}"));
        }
        now += 3 * 24 * 3600;
        daemon.check_turn(TAG, now).unwrap();
        daemon.send_due(&kept, None, now).unwrap();
        mails(&kept, &mut texts);
        for entry in daemon.store.gm_log(Some(TAG)).unwrap() {
            texts.push(Read {
                source: format!("the GM's log ({})", entry.kind),
                text: entry.message,
            });
        }
        drop(daemon);
        month16::remove(&path);
        texts
    })
}

/// The reports the templates render with the golden tests' sample games.
fn golden_reports() -> Vec<Read> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut files: Vec<_> = std::fs::read_dir(root.join("reports"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    files.push(root.join("day_1.txt"));
    files.sort();
    files
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(&file).unwrap();
            let text = if file.extension().is_some_and(|e| e == "html") {
                html_text(&text)
            } else {
                text
            };
            Read {
                source: file.display().to_string(),
                text,
            }
        })
        .collect()
}

#[test]
fn no_rust_shaped_text_in_a_month_of_mail_nor_in_the_rendered_templates() {
    let started = std::time::Instant::now();
    let detector = Detector::from_game_data();
    let month = month();
    let golden = golden_reports();
    let mut wrong = Vec::new();
    let mut lines = 0;
    for read in month.iter().chain(&golden) {
        lines += read.text.lines().count();
        for finding in detector.findings(&read.text) {
            wrong.push(format!("{}: {finding}", read.source));
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "{} Rust-shaped pieces, the first 40:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(40)].join("\n")
    );
    eprintln!(
        "read {} mails and log lines and {} rendered templates, {lines} lines, in {:?}",
        month.len(),
        golden.len(),
        started.elapsed()
    );
}
