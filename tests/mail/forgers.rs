//! A forger gets nothing bigger than what he sent, and few of them:
//! short notices at most once an hour per address, a
//! stranger's mail kept only in part and only for a while, a letter
//! re-encoded on the way known as the same letter.

use crate::support;

use std::cell::RefCell;

use lettre::Message;
use realmgm::daemon::Daemon;
use realmgm::mail::inbound::{InboundMail, InboundOptions, parse};
use realmgm::mail::transport::{MailTransport, SendError};
use realmgm::store::{InboundInsert, InboundStatus, NOTICE_HELD, Store};
use support::*;

const ANN: &str = "ann@realmgm.test";
const BEN: &str = "ben@realmgm.test";
const GM: &str = "gm@realmgm.test";
const EVE: &str = "eve@evil.test";
const DAY: i64 = 24 * 3600;

/// A transport that keeps each mail it is given with its size as sent.
#[derive(Default)]
struct Sent(RefCell<Vec<(usize, InboundMail)>>);

impl MailTransport for Sent {
    fn send(&self, message: &Message) -> Result<String, SendError> {
        let bytes = message.formatted();
        let mail = parse(&bytes, &InboundOptions::default()).unwrap();
        self.0.borrow_mut().push((bytes.len(), mail));
        Ok("kept".into())
    }
}

impl Sent {
    /// Send what is due at `now`; the mails sent to `address`, with sizes.
    fn flush_to(&self, daemon: &mut Daemon, now: i64, address: &str) -> Vec<(usize, InboundMail)> {
        daemon.outbox().send_due(self, None, now).unwrap();
        self.0
            .take()
            .into_iter()
            .filter(|(_, m)| m.to.iter().any(|t| t == address))
            .collect()
    }
}

fn campaign(daemon: &mut Daemon, extra: &str) -> std::collections::BTreeMap<String, String> {
    let text = campaign_text("G1", &[("Ann", ANN), ("Ben", BEN)], extra);
    let secrets = add_campaign(&mut daemon.store, "guess", &text);
    daemon.turns().check_turn("G1", START).unwrap();
    secrets
}

fn held_in_log(daemon: &Daemon) -> usize {
    let log = daemon.store.control().gm_log(Some("G1")).unwrap();
    log.iter().filter(|e| e.kind == NOTICE_HELD).count()
}

/// A subject of about a megabyte that tells the reader to log in somewhere.
fn huge_subject() -> String {
    format!(
        "[G1] Urgent: log in at https://evil.example/login {}",
        "A".repeat(1024 * 1024)
    )
}

#[test]
fn a_forged_megabyte_subject_brings_a_notice_of_a_few_kilobytes_without_links() {
    let mut daemon = daemon();
    campaign(&mut daemon, "");
    let sent = Sent::default();
    let subject = huge_subject();
    // From Ann's address without her secret: the notice goes to Ann.
    let forged = mail(ANN, GM, &subject, "f1@evil.test", "guess 3");
    let note = daemon.mail_in().ingest(&forged, START).unwrap().1;
    assert!(note.contains("no secret"), "{note}");
    let notices = sent.flush_to(&mut daemon, START, ANN);
    assert_eq!(notices.len(), 1);
    let (size, notice) = &notices[0];
    eprintln!("the notice for a forged subject of 1 MiB: {size} bytes");
    assert!(*size < 4096, "a notice of {size} bytes");
    assert!(notice.body_text.contains("Urgent: log in at [link] AAA"));
    assert!(!notice.body_text.contains("evil"), "{}", notice.body_text);
    // From the GM's address without the GM secret: the notice goes to the GM.
    let forged = mail(GM, GM, &subject, "f2@evil.test", "gm status");
    daemon.mail_in().ingest(&forged, START).unwrap();
    let notices = sent.flush_to(&mut daemon, START, GM);
    assert_eq!(notices.len(), 1);
    assert!(notices[0].0 < 4096, "a GM notice of {} bytes", notices[0].0);
    assert!(!notices[0].1.body_text.contains("evil"));
    // A forged bounce naming Ben, an hour later: the GM is told briefly.
    let bounce = format!(
        "From: MAILER-DAEMON@evil.test\r\nTo: {GM}\r\nSubject: {subject}\r\n\
         Message-ID: <b1@evil.test>\r\nX-Failed-Recipients: {BEN}\r\n\r\ncould not deliver\r\n"
    );
    daemon
        .mail_in()
        .ingest(bounce.as_bytes(), START + 3600)
        .unwrap();
    let notices = sent.flush_to(&mut daemon, START + 3600, GM);
    assert_eq!(notices.len(), 1);
    assert!(
        notices[0].0 < 4096,
        "a bounce notice of {} bytes",
        notices[0].0
    );
    assert!(notices[0].1.body_text.contains("Ben"));
    // The GM's log repeats no more of it either.
    let log = daemon.store.control().gm_log(Some("G1")).unwrap();
    assert!(log.iter().all(|e| e.message.len() < 1024), "{log:?}");
}

#[test]
fn fifty_forgeries_bring_one_notice_an_hour_and_the_rest_are_counted() {
    let mut daemon = daemon();
    campaign(&mut daemon, "");
    let sent = Sent::default();
    for n in 0..50 {
        let forged = mail(
            ANN,
            GM,
            "[G1] orders",
            &format!("f{n}@evil.test"),
            "log in at https://evil.example",
        );
        daemon.mail_in().ingest(&forged, START + n * 10).unwrap();
    }
    let notices = sent.flush_to(&mut daemon, START + 600, ANN);
    assert_eq!(notices.len(), 1, "one notice for 50 forgeries");
    assert_eq!(held_in_log(&daemon), 49);
    let status = daemon.gm().status("G1").unwrap();
    assert!(
        status.contains("Notices held back since the last one sent: 49"),
        "{status}"
    );
    assert_eq!(
        daemon.gm().status_facts("G1").unwrap().mail.notices_held,
        49
    );
    // An hour after the first notice the next goes, counting the others.
    let forged = mail(ANN, GM, "[G1] orders", "f50@evil.test", "guess 1");
    daemon.mail_in().ingest(&forged, START + 3600).unwrap();
    let notices = sent.flush_to(&mut daemon, START + 3600, ANN);
    assert_eq!(notices.len(), 1);
    assert!(
        notices[0]
            .1
            .body_text
            .contains("49 more notices about mail that was not accepted were held back"),
        "{}",
        notices[0].1.body_text
    );
    assert_eq!(daemon.gm().status_facts("G1").unwrap().mail.notices_held, 0);
    let status = daemon.gm().status("G1").unwrap();
    assert!(!status.contains("Notices held back"), "{status}");
    // Ben's address has an hour of its own.
    let forged = mail(BEN, GM, "[G1] orders", "g1@evil.test", "guess 1");
    daemon.mail_in().ingest(&forged, START + 3601).unwrap();
    assert_eq!(sent.flush_to(&mut daemon, START + 3601, BEN).len(), 1);
    // So has the GM's, for forged GM mail and forged bounces alike.
    for n in 0..50 {
        let forged = mail(
            GM,
            GM,
            "[G1] gm status",
            &format!("m{n}@evil.test"),
            "gm status",
        );
        daemon.mail_in().ingest(&forged, START + 4000 + n).unwrap();
    }
    let bounce = format!(
        "From: MAILER-DAEMON@evil.test\r\nTo: {GM}\r\nSubject: [G1] failed\r\n\
         Message-ID: <b9@evil.test>\r\nX-Failed-Recipients: {BEN}\r\n\r\nno\r\n"
    );
    daemon
        .mail_in()
        .ingest(bounce.as_bytes(), START + 4100)
        .unwrap();
    assert_eq!(sent.flush_to(&mut daemon, START + 4100, GM).len(), 1);
    assert_eq!(held_in_log(&daemon), 49 + 50);
    assert_eq!(
        daemon.gm().status_facts("G1").unwrap().mail.notices_held,
        50
    );
}

#[test]
fn a_player_in_three_campaigns_gets_one_notice_an_hour() {
    let mut daemon = daemon();
    campaign(&mut daemon, "");
    for tag in ["G2", "G3"] {
        let text = campaign_text(tag, &[("Ann", ANN)], "");
        add_campaign(&mut daemon.store, "guess", &text);
        daemon.turns().check_turn(tag, START).unwrap();
    }
    let sent = Sent::default();
    for (n, tag) in ["G1", "G2", "G3"].iter().enumerate() {
        let forged = mail(
            ANN,
            GM,
            &format!("[{tag}] orders"),
            &format!("c{n}@evil.test"),
            "guess 1",
        );
        daemon.mail_in().ingest(&forged, START + n as i64).unwrap();
    }
    assert_eq!(sent.flush_to(&mut daemon, START + 10, ANN).len(), 1);
    // The next, an hour later in any of them, counts the two held back.
    let forged = mail(ANN, GM, "[G3] orders", "c3@evil.test", "guess 1");
    daemon.mail_in().ingest(&forged, START + 3600).unwrap();
    let notices = sent.flush_to(&mut daemon, START + 3600, ANN);
    assert_eq!(notices.len(), 1);
    assert!(
        notices[0]
            .1
            .body_text
            .contains("2 more notices about mail that was not accepted were held back"),
        "{}",
        notices[0].1.body_text
    );
    for tag in ["G1", "G2", "G3"] {
        assert_eq!(daemon.gm().status_facts(tag).unwrap().mail.notices_held, 0);
    }
}

#[test]
fn the_notice_interval_is_a_campaign_setting() {
    let mut daemon = daemon();
    campaign(&mut daemon, "[mail]\nnotice_interval_minutes = 0\n");
    let sent = Sent::default();
    for n in 0..3 {
        let forged = mail(ANN, GM, "[G1] orders", &format!("f{n}@x"), "guess 1");
        daemon.mail_in().ingest(&forged, START).unwrap();
    }
    assert_eq!(sent.flush_to(&mut daemon, START, ANN).len(), 3);
    assert_eq!(held_in_log(&daemon), 0);
}

/// Ann's orders as first delivered, and the same letter as relays deliver
/// it again: re-encoded as quoted-printable, with its subject folded anew,
/// with blank lines added at the end.
fn letter_and_redeliveries(secret: &str) -> (String, Vec<String>) {
    let head = |subject: &str, encoding: &str| {
        format!(
            "From: Ann <{ANN}>\r\nTo: {GM}\r\nSubject: {subject}\r\nMessage-ID: <o1@ann.test>\r\n\
             Date: Tue, 1 Jan 2030 10:00:00 +0000\r\nMIME-Version: 1.0\r\n\
             Content-Type: text/plain; charset=utf-8\r\n{encoding}\r\n"
        )
    };
    let body = format!("Password: {secret}\r\nguess 42\r\nsee you at the caf\u{e9}\r\n");
    let letter = format!("{}{body}", head("[G1] orders for the first day", ""));
    let quoted = format!(
        "{}Password: {secret}\r\nguess 42\r\nsee you at the caf=C3=A9=\r\n\r\n",
        head(
            "[G1] orders for the first day",
            "Content-Transfer-Encoding: quoted-printable\r\n"
        )
    );
    let refolded = format!("{}{body}", head("[G1] orders for\r\n  the first day", ""));
    let padded = format!("{letter}\r\n\r\n\r\n");
    (letter, vec![quoted, refolded, padded])
}

#[test]
fn a_letter_redelivered_re_encoded_refolded_or_padded_is_not_answered_again() {
    let mut daemon = daemon();
    let secrets = campaign(&mut daemon, "");
    let sent = Sent::default();
    let (letter, again) = letter_and_redeliveries(&secrets["Ann"]);
    let note = daemon.mail_in().ingest(letter.as_bytes(), START).unwrap().1;
    assert!(note.contains("accepted"), "{note}");
    assert_eq!(sent.flush_to(&mut daemon, START, ANN).len(), 1);
    for redelivered in &again {
        let (inserted, note) = daemon
            .mail_in()
            .ingest(redelivered.as_bytes(), START + 60)
            .unwrap();
        assert!(
            matches!(inserted, InboundInsert::Redelivered { .. }),
            "{note}: {redelivered}"
        );
    }
    assert!(sent.flush_to(&mut daemon, START + 60, ANN).is_empty());
    assert_eq!(daemon.store.orders().for_day("G1", 1).unwrap().len(), 1);
    // One word changed is another letter, read and answered.
    let changed = letter.replace("guess 42", "guess 43");
    let (inserted, note) = daemon
        .mail_in()
        .ingest(changed.as_bytes(), START + 120)
        .unwrap();
    assert!(matches!(inserted, InboundInsert::New(_)), "{note}");
    assert!(note.contains("accepted"), "{note}");
    assert_eq!(sent.flush_to(&mut daemon, START + 120, ANN).len(), 1);
    assert_eq!(daemon.store.orders().for_day("G1", 1).unwrap().len(), 2);
}

/// A mail of about `megabytes` MB from `from`, in lines, with its own
/// Message-ID.
fn big_mail(from: &str, id: &str, megabytes: usize) -> Vec<u8> {
    let line = format!("{}\r\n", "x".repeat(78));
    let body = line.repeat(megabytes * 1024 * 1024 / line.len());
    mail(from, GM, "[G1] orders", id, &body)
}

fn size_on_disk(path: &std::path::Path) -> u64 {
    ["", "-wal", "-shm"]
        .iter()
        .map(|end| {
            let file = format!("{}{end}", path.display());
            std::fs::metadata(file).map_or(0, |m| m.len())
        })
        .sum()
}

#[test]
fn a_strangers_twenty_megabytes_cost_a_few_kilobytes_each() {
    let dir = std::env::temp_dir().join(format!("realmgm-strangers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.sqlite");
    let mut daemon = Daemon::new(Store::open(&path, support::GAMES).unwrap());
    campaign(&mut daemon, "");
    let (inserted, note) = daemon
        .mail_in()
        .ingest(&big_mail(EVE, "s0@evil.test", 20), START)
        .unwrap();
    assert!(
        note.contains("not in the campaign") && note.contains("first 65"),
        "{note}"
    );
    let stored = daemon.store.inbox().get(inserted.id()).unwrap().unwrap();
    assert!(
        stored.raw.len() <= 64 * 1024,
        "{} bytes kept",
        stored.raw.len()
    );
    assert!(stored.raw.starts_with(b"From: eve@evil.test"));
    // Once cut, the mail's pages go back to the file system, and the log
    // of its write is cut back: the files keep no trace of its size.
    let after_first = size_on_disk(&path);
    eprintln!("database and its log after a 20 MB stranger mail: {after_first} bytes");
    assert!(after_first < 1 << 20, "{after_first} bytes on disk");
    for n in 1..3 {
        let big = big_mail(EVE, &format!("s{n}@evil.test"), 20);
        daemon.mail_in().ingest(&big, START + n).unwrap();
    }
    let growth = size_on_disk(&path).saturating_sub(after_first) / 2;
    eprintln!("growth per further 20 MB stranger mail: {growth} bytes");
    assert!(growth < 512 * 1024, "{growth} bytes per stranger mail");
    drop(daemon);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_forgers_mail_keeps_its_head_and_a_mail_beyond_the_ingest_cap_only_its_start() {
    let mut daemon = daemon();
    let secrets = campaign(&mut daemon, "[mail]\nstranger_keep_kb = 8\n");
    // From Ann's address without her secret: cut to the campaign's 8 KiB.
    let (inserted, note) = daemon
        .mail_in()
        .ingest(&big_mail(ANN, "f@evil.test", 1), START)
        .unwrap();
    assert!(
        note.contains("no secret") && note.contains("bytes are kept"),
        "{note}"
    );
    let stored = daemon.store.inbox().get(inserted.id()).unwrap().unwrap();
    assert!(stored.raw.len() <= 8 * 1024 && stored.raw.ends_with(b"\r\n"));
    // Beyond 25 MiB only the start is stored, whoever sent it.
    let huge = big_mail(ANN, "h@evil.test", 30);
    let (inserted, _) = daemon
        .mail_in()
        .ingest_from(huge.as_slice(), START)
        .unwrap();
    let log = daemon.store.control().gm_log(None).unwrap();
    let cut = log.iter().find(|e| e.kind == "too large").unwrap();
    assert!(
        cut.message
            .contains(&format!("{} bytes arrived", huge.len()))
    );
    let stored = daemon.store.inbox().get(inserted.id()).unwrap().unwrap();
    assert!(stored.raw.len() <= 8 * 1024, "{}", stored.raw.len());
    // An authenticated player's mail is kept whole.
    let body = format!(
        "Password: {}\nguess 4\n{}",
        secrets["Ben"],
        "long line\n".repeat(2000)
    );
    let (inserted, note) = daemon
        .mail_in()
        .ingest(&mail(BEN, GM, "[G1] orders", "b@x", &body), START)
        .unwrap();
    let stored = daemon.store.inbox().get(inserted.id()).unwrap().unwrap();
    assert!(stored.raw.len() > 20_000, "{note}");
}

#[test]
fn a_strangers_mail_is_dropped_after_keep_strangers_days_and_a_forgery_is_not() {
    let mut daemon = daemon();
    campaign(&mut daemon, "[mail]\nkeep_strangers_days = 10\n");
    let stranger = mail(EVE, GM, "[G1] orders", "e1@evil.test", "buy now");
    let (from_eve, _) = daemon.mail_in().ingest(&stranger, START).unwrap();
    let forged = mail(ANN, GM, "[G1] orders", "a1@evil.test", "guess 5");
    let (from_ann, _) = daemon.mail_in().ingest(&forged, START).unwrap();
    let raw = |daemon: &Daemon, id: i64| daemon.store.inbox().get(id).unwrap().unwrap();
    daemon
        .mail_in()
        .handle_stored(START + 10 * DAY - 1)
        .unwrap();
    assert!(!raw(&daemon, from_eve.id()).raw.is_empty());
    daemon.mail_in().handle_stored(START + 10 * DAY).unwrap();
    let pruned = raw(&daemon, from_eve.id());
    assert!(pruned.raw.is_empty());
    assert_eq!(pruned.status, InboundStatus::Rejected);
    assert!(!raw(&daemon, from_ann.id()).raw.is_empty());
    let log = daemon.store.control().gm_log(None).unwrap();
    assert!(log.iter().any(|e| e.kind == "pruned"), "{log:?}");
    // The row stays: the same mail delivered again is known.
    let again = daemon
        .mail_in()
        .ingest(&stranger, START + 11 * DAY)
        .unwrap()
        .0;
    assert_eq!(again, InboundInsert::Duplicate(from_eve.id()));
}

#[test]
fn a_maildir_mail_beyond_the_ingest_cap_is_stored_cut_and_logged() {
    let dir = std::env::temp_dir().join(format!("realmgm-huge-md-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let inbox = realmgm::mail::maildir::Maildir::create(dir.join("in")).unwrap();
    let mut daemon = daemon();
    campaign(&mut daemon, "");
    let huge = big_mail(EVE, "md@evil.test", 26);
    inbox.deliver(&huge).unwrap();
    assert_eq!(
        daemon
            .mail_in()
            .poll_maildir(&dir.join("in"), START)
            .unwrap(),
        1
    );
    let log = daemon.store.control().gm_log(None).unwrap();
    let cut = log.iter().find(|e| e.kind == "too large").unwrap();
    let id = cut.inbound_id.unwrap();
    let stored = daemon.store.inbox().get(id).unwrap().unwrap();
    let cap = realmgm::daemon::mail_in::ingest::MAX_MAIL_BYTES;
    assert!(stored.raw.len() <= cap && stored.raw.len() > cap - 100);
    assert!(stored.raw.ends_with(b"\r\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_strangers_twenty_megabytes_delivered_again_cost_no_more_than_its_headers() {
    let dir = std::env::temp_dir().join(format!("realmgm-redelivered-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.sqlite");
    let mut daemon = Daemon::new(Store::open(&path, support::GAMES).unwrap());
    campaign(&mut daemon, "[mail]\nkeep_strangers_days = 10\n");
    let big = big_mail(EVE, "r0@evil.test", 20);
    let (first, _) = daemon.mail_in().ingest(&big, START).unwrap();
    let after_first = size_on_disk(&path);
    // A header of the kind relays add makes each copy a second delivery.
    let mut copies = Vec::new();
    for n in 1..3 {
        let mut again = format!("X-N: {n}\r\n").into_bytes();
        again.extend_from_slice(&big);
        let (inserted, note) = daemon.mail_in().ingest(&again, START + n).unwrap();
        assert!(
            matches!(inserted, InboundInsert::Redelivered { .. }),
            "{note}"
        );
        copies.push(inserted.id());
    }
    let growth = size_on_disk(&path).saturating_sub(after_first);
    eprintln!("growth for two second deliveries of a 20 MB stranger mail: {growth} bytes");
    assert!(growth < 512 * 1024, "{growth} bytes for two copies");
    let copy = daemon.store.inbox().get(copies[0]).unwrap().unwrap();
    assert!(copy.raw.starts_with(b"X-N: 1\r\nFrom: eve@evil.test"));
    // A copy stored before its original is read is pruned with it too.
    let small = mail(EVE, GM, "[G1] orders", "r1@evil.test", "buy now");
    let unread = daemon.mail_in().store_raw(&small, START + 5).unwrap();
    let copy = daemon
        .mail_in()
        .store_raw(&[b"X-N: 1\r\n".as_slice(), &small].concat(), START + 5)
        .unwrap();
    daemon.mail_in().handle_stored(START + 5).unwrap();
    // A copy goes when its original goes.
    daemon
        .mail_in()
        .handle_stored(START + 10 * DAY + 5)
        .unwrap();
    for id in [first.id(), copies[0], copies[1], unread.id(), copy.id()] {
        assert!(
            daemon
                .store
                .inbox()
                .get(id)
                .unwrap()
                .unwrap()
                .raw
                .is_empty()
        );
    }
    drop(daemon);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_mail_of_fifty_thousand_nested_letters_is_stored_read_and_refused() {
    let dir = std::env::temp_dir().join(format!("realmgm-nested-md-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let inbox = realmgm::mail::maildir::Maildir::create(dir.join("in")).unwrap();
    let mut daemon = daemon();
    campaign(&mut daemon, "");
    let mut nested = String::from_utf8(mail(EVE, GM, "[G1] orders", "deep@evil.test", ""))
        .unwrap()
        .replace("text/plain; charset=utf-8", "message/rfc822");
    for _ in 1..50_000 {
        nested.push_str("Subject: x\r\nContent-Type: message/rfc822\r\n\r\n");
    }
    nested.push_str("Subject: end\r\n\r\nguess 1\r\n");
    inbox.deliver(nested.as_bytes()).unwrap();
    assert_eq!(
        daemon
            .mail_in()
            .poll_maildir(&dir.join("in"), START)
            .unwrap(),
        1
    );
    let handled = daemon.mail_in().handle_stored(START).unwrap();
    assert_eq!(handled.len(), 1);
    assert!(
        handled[0].1.contains("not in the campaign"),
        "{}",
        handled[0].1
    );
    assert!(inbox.list_new().unwrap().is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}
