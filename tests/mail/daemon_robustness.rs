//! Nothing lost, nothing crashes: the daemon under mail that once crashed
//! it (subjects that are not ASCII, a bug met while reading one mail), the
//! same letter delivered twice, mail far larger than any orders, a turn
//! whose engine fails, and campaigns beside one another that must not harm
//! each other.

use crate::support;

use realmgm::daemon::Daemon;
use realmgm::store::{InboundInsert, InboundStatus};
use support::*;

const ANN: &str = "ann@realmgm.test";
const BEN: &str = "ben@realmgm.test";
const GM: &str = "gm@realmgm.test";

fn two_players(tag: &str) -> (Daemon, std::collections::BTreeMap<String, String>) {
    let mut daemon = daemon();
    let secrets = with_campaign(&mut daemon, tag, ANN, BEN);
    (daemon, secrets)
}

fn with_campaign(
    daemon: &mut Daemon,
    tag: &str,
    ann: &str,
    ben: &str,
) -> std::collections::BTreeMap<String, String> {
    let text = campaign_text(tag, &[("Ann", ann), ("Ben", ben)], "");
    let secrets = add_campaign(&mut daemon.store, "guess", &text);
    daemon.turns().check_turn(tag, START).unwrap();
    secrets
}

/// Every mail queued to `address` so far, as (subject, body).
fn queued_to(daemon: &Daemon, address: &str) -> Vec<(String, String)> {
    daemon
        .store
        .outbox()
        .due(i64::MAX)
        .unwrap()
        .into_iter()
        .filter(|q| q.mail.recipient == address)
        .map(|q| (q.mail.subject, q.mail.body))
        .collect()
}

fn statuses(daemon: &Daemon, status: InboundStatus) -> usize {
    daemon.store.inbox().with_status(status).unwrap().len()
}

#[test]
fn subjects_in_any_script_or_bytes_are_answered() {
    let (mut daemon, secrets) = two_players("B2");
    let orders = format!("Password: {}\nguess 5\n", secrets["Ann"]);
    let subjects: [&[u8]; 4] = [
        "[B2] Grüße".as_bytes(),
        "[B2] 🎲 orders".as_bytes(),
        b"[B2] \xff\xfe orders",
        "[B2] ü".as_bytes(),
    ];
    for (n, subject) in subjects.iter().enumerate() {
        let mut raw = format!("From: {ANN}\r\nTo: {GM}\r\nSubject: ").into_bytes();
        raw.extend_from_slice(subject);
        raw.extend_from_slice(
            format!(
                "\r\nMessage-ID: <s{n}@x>\r\n\r\n{}",
                orders.replace('\n', "\r\n")
            )
            .as_bytes(),
        );
        let (_, note) = daemon.mail_in().ingest(&raw, START + n as i64).unwrap();
        assert!(note.contains("accepted"), "subject {n}: {note}");
    }
    assert_eq!(queued_to(&daemon, ANN).len(), 4);
    assert_eq!(statuses(&daemon, InboundStatus::Processed), 4);
}

#[test]
fn a_mail_that_meets_a_bug_is_set_aside_and_the_next_mails_are_handled() {
    let (mut daemon, secrets) = two_players("G1");
    let crash = mail(
        ANN,
        GM,
        "[G1] orders",
        "crash@x",
        &format!("Password: {}\ncrash", secrets["Ann"]),
    );
    let fine = mail(
        BEN,
        GM,
        "[G1] orders",
        "fine@x",
        &format!("Password: {}\nguess 7", secrets["Ben"]),
    );
    daemon.mail_in().store_raw(&crash, START).unwrap();
    daemon.mail_in().store_raw(&fine, START).unwrap();
    let handled = daemon.mail_in().handle_stored(START).unwrap();
    assert_eq!(handled.len(), 2, "{handled:?}");
    assert!(
        handled[0].1.contains("could not be handled")
            && handled[0].1.contains("simulated bug in the orders reader"),
        "{handled:?}"
    );
    assert!(handled[1].1.contains("accepted"), "{handled:?}");
    let failed = daemon
        .store
        .inbox()
        .with_status(InboundStatus::Failed)
        .unwrap();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0].raw, crash, "the mail is kept as it came");
    // Nothing the failed attempt began stays: no orders version for Ann.
    let orders = daemon.store.orders().for_day("G1", 1).unwrap();
    assert_eq!(orders.len(), 1);
    assert_eq!(orders[0].player, "Ben");
    let to_gm = queued_to(&daemon, GM);
    assert!(
        to_gm
            .iter()
            .any(|(subject, body)| subject.contains("a mail failed")
                && body.contains("simulated bug")),
        "{to_gm:?}"
    );
    // Handled once: the next pass does not meet it again.
    assert!(
        daemon
            .mail_in()
            .handle_stored(START + 1)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_turn_whose_engine_fails_is_held_and_other_campaigns_go_on() {
    let mut daemon = daemon();
    let one = with_campaign(&mut daemon, "I1", ANN, BEN);
    let two = with_campaign(&mut daemon, "I2", "ann2@realmgm.test", "ben2@realmgm.test");
    for (tag, secrets, ann, ben, first) in [
        ("I1", &one, ANN, BEN, "crash the turn"),
        (
            "I2",
            &two,
            "ann2@realmgm.test",
            "ben2@realmgm.test",
            "guess 4",
        ),
    ] {
        for (address, player, orders) in [(ann, "Ann", first), (ben, "Ben", "guess 9")] {
            let body = format!("Password: {}\n{orders}", secrets[player]);
            let raw = mail(
                address,
                GM,
                &format!("[{tag}] o"),
                &format!("{tag}{player}@x"),
                &body,
            );
            let (_, note) = daemon.mail_in().ingest(&raw, START).unwrap();
            assert!(note.contains("accepted"), "{note}");
        }
    }
    let later = START + 3600;
    let held = daemon.turns().check_turn("I1", later).unwrap();
    assert!(
        held.starts_with("held:") && held.contains("simulated bug in the engine"),
        "{held}"
    );
    assert!(daemon.store.days().load("I1", 1).unwrap().is_none());
    assert_eq!(
        daemon.turns().check_turn("I2", later).unwrap(),
        "processed day 1 early"
    );
    assert!(daemon.store.days().load("I2", 1).unwrap().is_some());
    // The GM of I1 is told once, not on every tick.
    daemon.turns().check_turn("I1", later + 60).unwrap();
    let notices = queued_to(&daemon, GM)
        .into_iter()
        .filter(|(subject, _)| subject.contains("[I1] day 1 held"))
        .count();
    assert_eq!(notices, 1);
}

#[test]
fn the_same_letter_delivered_twice_is_kept_and_answered_once() {
    let (mut daemon, secrets) = two_players("G1");
    let letter = mail(
        ANN,
        GM,
        "[G1] orders",
        "twice@x",
        &format!("Password: {}\nguess 5", secrets["Ann"]),
    );
    let (first, note) = daemon.mail_in().ingest(&letter, START).unwrap();
    assert!(note.contains("accepted"), "{note}");
    let mut relayed = b"Received: from relay2.test by mx.realmgm.test; Tue, 1 Jan 2030 10:00:01 +0000\r\nDelivered-To: gm@realmgm.test\r\n".to_vec();
    relayed.extend_from_slice(&letter);
    let (again, note) = daemon.mail_in().ingest(&relayed, START + 5).unwrap();
    assert_eq!(
        again,
        InboundInsert::Redelivered {
            id: again.id(),
            original: first.id()
        }
    );
    assert!(note.contains("second delivery"), "{note}");
    assert_eq!(daemon.store.orders().for_day("G1", 1).unwrap().len(), 1);
    assert_eq!(queued_to(&daemon, ANN).len(), 1, "one confirmation");
    assert_eq!(statuses(&daemon, InboundStatus::Duplicate), 1);
    assert!(
        daemon
            .store
            .control()
            .gm_log(None)
            .unwrap()
            .iter()
            .any(|e| e.kind == "duplicate" && e.inbound_id == Some(again.id())),
        "the GM's log names the second delivery"
    );
    // The same Message-ID with another content is a mail of its own, and
    // the GM's log says so.
    let changed = mail(
        ANN,
        GM,
        "[G1] orders",
        "twice@x",
        &format!("Password: {}\nguess 6", secrets["Ann"]),
    );
    let (_, note) = daemon.mail_in().ingest(&changed, START + 10).unwrap();
    assert!(note.contains("version 2"), "{note}");
    let log = daemon.store.control().gm_log(Some("G1")).unwrap();
    assert!(
        log.iter()
            .any(|e| e.kind == "message-id" && e.message.contains(&format!("mail {}", first.id()))),
        "{log:?}"
    );
}

#[test]
fn a_huge_orders_mail_gets_a_short_refusal() {
    let (mut daemon, secrets) = two_players("G1");
    let mut body = format!("Password: {}\n", secrets["Ann"]);
    for n in 0..200_000 {
        body.push_str(&format!("this is bad line {n}\n"));
    }
    let raw = mail(ANN, GM, "[G1] orders", "huge@x", &body);
    assert!(raw.len() > 4_000_000);
    let (_, note) = daemon.mail_in().ingest(&raw, START).unwrap();
    assert!(note.contains("refused unread"), "{note}");
    assert!(daemon.store.orders().for_day("G1", 1).unwrap().is_empty());
    let answers = queued_to(&daemon, ANN);
    assert_eq!(answers.len(), 1);
    let (subject, text) = &answers[0];
    assert!(subject.contains("mail refused"), "{subject}");
    assert!(text.contains("at most 16 KiB and 200 lines"), "{text}");
    assert!(text.len() < 1000, "{} bytes", text.len());
}

#[test]
fn many_bad_lines_within_the_limits_get_the_first_problems_and_a_count() {
    let (mut daemon, secrets) = two_players("G1");
    let mut body = format!("Password: {}\n", secrets["Ann"]);
    for _ in 0..150 {
        body.push_str("nonsense\n");
    }
    let raw = mail(ANN, GM, "[G1] orders", "bad@x", &body);
    let (_, note) = daemon.mail_in().ingest(&raw, START).unwrap();
    assert!(note.contains("150 problems"), "{note}");
    let (_, text) = &queued_to(&daemon, ANN)[0];
    assert!(text.contains("and 130 more problems"), "{text}");
    assert!(text.len() < 3000, "{} bytes", text.len());
}

#[test]
fn a_mail_of_attachments_only_is_told_that_it_had_no_text() {
    let (mut daemon, _) = two_players("G1");
    let raw = format!(
        "From: {ANN}\r\nTo: {GM}\r\nSubject: [G1] orders\r\nMessage-ID: <att@x>\r\n\
         MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\
         Content-Type: application/pdf\r\nContent-Disposition: attachment; filename=o.pdf\r\n\
         Content-Transfer-Encoding: base64\r\n\r\nJVBERi0xLjQK\r\n--b--\r\n"
    );
    let (_, note) = daemon.mail_in().ingest(raw.as_bytes(), START).unwrap();
    assert!(note.contains("no text"), "{note}");
    let (_, text) = &queued_to(&daemon, ANN)[0];
    assert!(text.contains("had no text"), "{text}");
    assert!(!text.contains("no secret"), "{text}");
}

/// A Magic Realm campaign of two characters.
fn magic_realm(daemon: &mut Daemon) -> std::collections::BTreeMap<String, String> {
    let text = format!(
        "name = \"MR\"\ngame = \"magic-realm\"\nseed = 5\n[gm]\nemail = \"{GM}\"\n\
         [schedule]\nfirst_deadline = \"2030-01-01\"\nat = \"20:00\"\nevery_hours = 24\n\
         [[players]]\nname = \"Ann\"\nemail = \"{ANN}\"\ncharacter = \"Amazon\"\n\
         [[players]]\nname = \"Ben\"\nemail = \"{BEN}\"\ncharacter = \"Black Knight\"\n"
    );
    let secrets = add_campaign(&mut daemon.store, "magic-realm", &text);
    daemon.turns().check_turn("MR", START).unwrap();
    secrets
}

#[test]
fn orders_asking_more_phases_than_a_day_has_are_not_accepted() {
    let mut daemon = daemon();
    let secrets = magic_realm(&mut daemon);
    let phases = vec!["H"; 40].join(", ");
    let body = format!(
        "Password: {}\n\nActivities: {phases}\nBlock: nobody",
        secrets["Ann"]
    );
    let (_, note) = daemon
        .mail_in()
        .ingest(&mail(ANN, GM, "[MR] orders", "many@x", &body), START)
        .unwrap();
    assert!(note.contains("with 1 problem"), "{note}");
    // After Ann's start report, the answer to her mail.
    let (subject, text) = queued_to(&daemon, ANN).last().unwrap().clone();
    assert_eq!(subject, "[MR] Re: orders not read");
    assert!(
        text.contains("line 3, column 1: these orders ask for 40 phases in one day"),
        "{text}"
    );
    // A day's worth is fine.
    let body = format!("Password: {}\nActivities: H, H, H, H", secrets["Ann"]);
    let (_, note) = daemon
        .mail_in()
        .ingest(&mail(ANN, GM, "[MR] orders", "four@x", &body), START + 1)
        .unwrap();
    assert!(note.contains("accepted"), "{note}");
    let (subject, _) = queued_to(&daemon, ANN).last().unwrap().clone();
    assert_eq!(subject, "[MR] Re: orders received");
    // A megabyte of phases on one line never reaches the parser.
    let body = format!(
        "Password: {}\n{}",
        secrets["Ann"],
        vec!["M CV4"; 350_001].join(", ")
    );
    let (_, note) = daemon
        .mail_in()
        .ingest(&mail(ANN, GM, "[MR] orders", "line@x", &body), START + 2)
        .unwrap();
    assert!(note.contains("refused unread"), "{note}");
}

/// Pieces generated mails are made of: scripts, marks, command words,
/// encoded words, quoting, and bytes that are not UTF-8.
const PIECES: &[&[u8]] = &[
    "Grüße".as_bytes(),
    "🎲".as_bytes(),
    "日本語".as_bytes(),
    "\u{202e}".as_bytes(),
    "a\u{301}".as_bytes(),
    "Ω".as_bytes(),
    b"\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\x00",
    b"\t",
    b" ",
    b"Re:",
    b"AW:",
    b"[G1]",
    b"[",
    b"]",
    b"?",
    b"gm",
    b"gm status",
    b"help",
    b"report? 99999999999",
    b"orders?",
    b"to Ben",
    b"guess 5",
    b"guess",
    b"Password:",
    b">",
    b"--",
    b"=?UTF-8?B?w7w=?=",
    b"=?ISO-8859-1?Q?=FC?=",
    b"M CV4, H",
];

/// A generated mail, reproducible from the dice.
fn generated_mail(
    dice: &mut realmgm::dice::Dice,
    n: usize,
    secrets: &std::collections::BTreeMap<String, String>,
) -> Vec<u8> {
    let pick = |dice: &mut realmgm::dice::Dice, count: u32| -> Vec<u8> {
        let mut text = Vec::new();
        for _ in 0..dice.below("mail/pieces", count + 1) {
            text.extend_from_slice(PIECES[dice.below("mail/piece", PIECES.len() as u32) as usize]);
            if dice.below("mail/space", 2) == 0 {
                text.push(b' ');
            }
        }
        text
    };
    let mut raw = Vec::new();
    let from = dice.below("mail/from", 8);
    let player = ["Ann", "Ben"][dice.below("mail/player", 2) as usize];
    match from {
        0..=2 => raw.extend_from_slice(
            format!(
                "From: {player} <{}>\r\n",
                if player == "Ann" { ANN } else { BEN }
            )
            .as_bytes(),
        ),
        3 => raw.extend_from_slice(format!("From: {GM}\r\n").as_bytes()),
        4 => raw.extend_from_slice(b"From: stranger@elsewhere.test\r\n"),
        5 => {
            raw.extend_from_slice(b"From: ");
            raw.extend(pick(dice, 3));
            raw.extend_from_slice(b"\r\n");
        }
        _ => {}
    }
    raw.extend_from_slice(format!("To: {GM}\r\n").as_bytes());
    raw.extend_from_slice(b"Subject: ");
    if dice.below("mail/tag", 4) != 0 {
        raw.extend_from_slice(b"[G1] ");
    }
    raw.extend(pick(dice, 5));
    raw.extend_from_slice(format!("\r\nX-Seq: {n}\r\n").as_bytes());
    if dice.below("mail/id", 20) != 0 {
        raw.extend_from_slice(format!("Message-ID: <p{n}@gen.test>\r\n").as_bytes());
    }
    let mut body = Vec::new();
    match dice.below("mail/password", 3) {
        0 => body.extend_from_slice(format!("Password: {}\r\n", secrets[player]).as_bytes()),
        1 => body.extend_from_slice(b"Password: wrong\r\n"),
        _ => {}
    }
    for _ in 0..dice.below("mail/lines", 8) {
        body.extend(pick(dice, 4));
        body.extend_from_slice(b"\r\n");
    }
    match dice.below("mail/shape", 6) {
        0 => {
            let blob: Vec<u8> = (0..dice.below("mail/blob", 300))
                .map(|_| dice.below("mail/byte", 256) as u8)
                .collect();
            raw.extend_from_slice(
                b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=zz\r\n\r\n--zz\r\n\
                  Content-Type: text/plain; charset=utf-8\r\n\r\n",
            );
            raw.extend(body);
            raw.extend_from_slice(
                b"\r\n--zz\r\nContent-Type: application/octet-stream\r\n\
                  Content-Disposition: attachment; filename=\"",
            );
            raw.extend(pick(dice, 2));
            raw.extend_from_slice(b"\"\r\n\r\n");
            raw.extend(blob);
            raw.extend_from_slice(b"\r\n--zz--\r\n");
        }
        1 => {
            raw.extend_from_slice(
                b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=zz\r\n\r\n--zz\r\n\
                  Content-Type: image/png\r\nContent-Disposition: attachment; filename=a.png\r\n\
                  Content-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n--zz--\r\n",
            );
        }
        _ => {
            raw.extend_from_slice(b"Content-Type: text/plain; charset=utf-8\r\n\r\n");
            raw.extend(body);
        }
    }
    raw
}

#[test]
fn thousands_of_generated_mails_are_each_stored_once_and_answered_or_logged() {
    const MAILS: usize = 2500;
    let (mut daemon, secrets) = two_players("G1");
    let mut dice = realmgm::dice::Dice::new(2026, 14);
    let mut ids = Vec::new();
    for n in 0..MAILS {
        let raw = generated_mail(&mut dice, n, &secrets);
        let now = START + n as i64;
        let (inserted, _) = daemon
            .mail_in()
            .ingest(&raw, now)
            .unwrap_or_else(|e| panic!("mail {n} (seed 2026): {e:#}"));
        assert!(
            matches!(inserted, InboundInsert::New(_)),
            "mail {n}: {inserted:?}"
        );
        ids.push((inserted.id(), now));
    }
    assert_eq!(statuses(&daemon, InboundStatus::New), 0);
    let failed = daemon
        .store
        .inbox()
        .with_status(InboundStatus::Failed)
        .unwrap();
    assert!(failed.is_empty(), "{:?}", failed[0].note);
    let stored =
        statuses(&daemon, InboundStatus::Processed) + statuses(&daemon, InboundStatus::Rejected);
    assert_eq!(stored, MAILS, "every mail stored once");
    let answered: std::collections::BTreeSet<i64> = daemon
        .store
        .outbox()
        .due(i64::MAX)
        .unwrap()
        .into_iter()
        .map(|q| q.next_attempt)
        .collect();
    let logged: std::collections::BTreeSet<i64> = daemon
        .store
        .control()
        .gm_log(None)
        .unwrap()
        .into_iter()
        .chain(daemon.store.control().gm_log(Some("G1")).unwrap())
        .filter_map(|e| e.inbound_id)
        .collect();
    for (n, (id, now)) in ids.iter().enumerate() {
        assert!(
            answered.contains(now) || logged.contains(id),
            "mail {n} (id {id}) was neither answered nor logged"
        );
    }
}

/// The kill test's campaigns: Magic Realm, four characters each, mail
/// through Maildir folders named relative to the daemon's folder. The
/// suite kills 12 daemons over 4 campaigns; `REALMGM_KILL_CAMPAIGNS` and
/// `REALMGM_KILL_TRIALS` run a larger trial by hand.
fn killed_campaigns() -> usize {
    from_env("REALMGM_KILL_CAMPAIGNS", 4)
}

fn from_env(variable: &str, default: usize) -> usize {
    std::env::var(variable)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

const CHARACTERS: [&str; 4] = ["Amazon", "Black Knight", "Wizard", "Swordsman"];

/// A folder with a database of the kill test's campaigns at day 0 and
/// every player's orders for day 1 waiting in the campaigns' inboxes.
fn killable_fixture(dir: &std::path::Path) {
    std::fs::create_dir_all(dir).unwrap();
    let mut daemon = Daemon::new(
        realmgm::store::Store::open(&dir.join("db.sqlite"), realmgm::games::GAMES).unwrap(),
    );
    for c in 0..killed_campaigns() {
        let tag = format!("K{c}");
        let mut text = format!(
            "name = \"{tag}\"\ngame = \"magic-realm\"\nseed = {c}\n[gm]\nemail = \"{GM}\"\n\
             [schedule]\nfirst_deadline = \"2099-01-01\"\nat = \"20:00\"\nevery_hours = 24\n\
             process_early_after_minutes = 0\n\
             [mail]\nmaildir_in = \"in-{tag}\"\nmaildir_out = \"out-{tag}\"\n"
        );
        for (p, character) in CHARACTERS.iter().enumerate() {
            text.push_str(&format!(
                "[[players]]\nname = \"P{p}\"\nemail = \"p{p}.{tag}@realmgm.test\"\n\
                 character = \"{character}\"\n"
            ));
        }
        let campaign =
            realmgm::campaign::Campaign::parse("kill.toml", &text, realmgm::games::GAMES).unwrap();
        let secrets = daemon
            .store
            .campaigns_mut()
            .insert(&campaign, &text, START)
            .unwrap();
        daemon.turns().check_turn(&tag, START).unwrap();
        let inbox = realmgm::mail::maildir::Maildir::create(dir.join(format!("in-{tag}"))).unwrap();
        realmgm::mail::maildir::Maildir::create(dir.join(format!("out-{tag}"))).unwrap();
        for secret in secrets {
            let body = format!("Password: {}\nActivities: H, H", secret.secret);
            let id = format!("{}@kill.test", secret.player);
            inbox
                .deliver(&mail(
                    &secret.email,
                    GM,
                    &format!("[{tag}] orders"),
                    &id,
                    &body,
                ))
                .unwrap();
        }
    }
}

fn copy_folder(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn run_daemon(dir: &std::path::Path) -> std::process::Child {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_realmgm"));
    // No --campaign: the daemon serves every campaign in the database.
    command
        .current_dir(dir)
        .args(["daemon", "--once", "--db", "db.sqlite"]);
    command
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// Day 1 of every campaign is either absent or whole: its snapshot,
/// events, run record and every reader's report, each report queued to
/// its reader exactly once. Returns how many campaigns have it.
fn whole_days_or_none(dir: &std::path::Path) -> usize {
    let db = rusqlite::Connection::open(dir.join("db.sqlite")).unwrap();
    let count =
        |sql: &str, tag: &str| -> i64 { db.query_row(sql, [tag], |row| row.get(0)).unwrap() };
    let mut whole = 0;
    for c in 0..killed_campaigns() {
        let tag = format!("K{c}");
        let days = count(
            "SELECT COUNT(*) FROM game_days d JOIN campaigns c ON c.id = d.campaign_id \
             WHERE c.name = ?1 AND d.day = 1",
            &tag,
        );
        let events = count(
            "SELECT COUNT(*) FROM events e JOIN campaigns c ON c.id = e.campaign_id \
             WHERE c.name = ?1 AND e.day = 1",
            &tag,
        );
        let runs = count(
            "SELECT COUNT(*) FROM day_runs r JOIN campaigns c ON c.id = r.campaign_id \
             WHERE c.name = ?1 AND r.day = 1",
            &tag,
        );
        let reports = count(
            "SELECT COUNT(*) FROM reports r JOIN campaigns c ON c.id = r.campaign_id \
             WHERE c.name = ?1 AND r.day = 1",
            &tag,
        );
        // Every report mail, and how often each reader got his.
        let mut per_reader = db
            .prepare(
                "SELECT r.reader, (SELECT COUNT(*) FROM outbox o WHERE o.campaign_id = c.id \
                 AND o.subject LIKE '%' || r.subject) FROM reports r \
                 JOIN campaigns c ON c.id = r.campaign_id WHERE c.name = ?1 AND r.day = 1",
            )
            .unwrap();
        let queued: Vec<(String, i64)> = per_reader
            .query_map([&tag], |row| Ok((row.get(0)?, row.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        if days == 0 {
            assert_eq!(
                (events, runs, reports),
                (0, 0, 0),
                "{tag}: parts of a day that was not stored"
            );
        } else {
            assert!(
                events > 0 && runs == 1,
                "{tag}: events {events}, runs {runs}"
            );
            assert_eq!(reports, CHARACTERS.len() as i64 + 1, "{tag}: reports");
            for (reader, times) in queued {
                assert_eq!(
                    times, 1,
                    "{tag}: the report of '{reader}' queued {times} times"
                );
            }
            whole += 1;
        }
    }
    whole
}

#[test]
fn a_daemon_killed_during_a_pass_leaves_each_day_whole_or_absent() {
    let root = std::env::temp_dir().join(format!("realmgm-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let template = root.join("template");
    killable_fixture(&template);
    // How long an undisturbed pass takes, to spread the kills over it.
    let calm = root.join("calm");
    copy_folder(&template, &calm);
    let started = std::time::Instant::now();
    assert!(run_daemon(&calm).wait().unwrap().success());
    let pass = started.elapsed();
    assert_eq!(whole_days_or_none(&calm), killed_campaigns());
    let trials = from_env("REALMGM_KILL_TRIALS", 12) as u32;
    let mut cut_short = 0;
    let mut whole_after_kill = Vec::new();
    for trial in 0..trials {
        let dir = root.join(format!("trial{trial}"));
        copy_folder(&template, &dir);
        let mut daemon = run_daemon(&dir);
        // From the first instant to a little past the calm pass's end.
        std::thread::sleep(pass * (trial + 1) / trials);
        daemon.kill().unwrap();
        let status = daemon.wait().unwrap();
        if !status.success() {
            cut_short += 1;
        }
        let before = whole_days_or_none(&dir);
        whole_after_kill.push(before);
        // A restart completes exactly what is missing.
        assert!(run_daemon(&dir).wait().unwrap().success());
        assert_eq!(
            whole_days_or_none(&dir),
            killed_campaigns(),
            "trial {trial}: {before} whole day(s) after the kill"
        );
        let db = rusqlite::Connection::open(dir.join("db.sqlite")).unwrap();
        let mails: i64 = db
            .query_row("SELECT COUNT(*) FROM inbound_mail", [], |row| row.get(0))
            .unwrap();
        assert_eq!(
            mails,
            (killed_campaigns() * CHARACTERS.len()) as i64,
            "trial {trial}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
    println!(
        "kill test: {cut_short} of {trials} daemons killed mid-pass (a pass took {pass:?}); whole \
         days found after each kill: {whole_after_kill:?}"
    );
    assert!(cut_short > 0, "no kill landed inside a pass");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_campaign_whose_record_cannot_be_read_is_skipped_and_the_others_are_served() {
    let dir = std::env::temp_dir().join(format!("realmgm-broken-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    killable_fixture(&dir);
    {
        let db = rusqlite::Connection::open(dir.join("db.sqlite")).unwrap();
        db.execute(
            "UPDATE campaigns SET parsed_json = '{', file_text = replace(file_text, 'seed = 0', \
             'seed = \"zero\"') WHERE name = 'K0'",
            [],
        )
        .unwrap();
        // K2 can be read, but its game state cannot: its mail and its tick
        // fail, and only K2 is harmed.
        db.execute(
            "UPDATE game_days SET state_json = 'garbage' WHERE campaign_id = \
             (SELECT id FROM campaigns WHERE name = 'K2')",
            [],
        )
        .unwrap();
    }
    let output = run_daemon(&dir).wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let store = realmgm::store::Store::open(&dir.join("db.sqlite"), realmgm::games::GAMES).unwrap();
    assert!(store.days().latest("K1").unwrap().unwrap().day == 1);
    assert!(store.days().latest("K3").unwrap().unwrap().day == 1);
    let log = store.control().gm_log(Some("K0")).unwrap();
    assert!(
        log.iter()
            .any(|e| e.kind == "error" && e.message.contains("cannot be read")),
        "{log:?}"
    );
    let failed = store.inbox().with_status(InboundStatus::Failed).unwrap();
    assert_eq!(failed.len(), CHARACTERS.len(), "K2's orders mails");
    // K2 is held, its state being changed outside realmgm, and its GM is
    // told through K2's own transport.
    let log = store.control().gm_log(Some("K2")).unwrap();
    assert!(
        log.iter()
            .any(|e| e.kind == "hold" && e.message.contains("changed outside realmgm")),
        "{log:?}"
    );
    assert!(
        sent_through(&dir, "K2")
            .iter()
            .any(|(to, text)| to.contains(GM) && text.contains("campaign held"))
    );
    // The notice went to K0's GM through another campaign's transport.
    let out = realmgm::mail::maildir::Maildir::open(dir.join("out-K1")).unwrap();
    let notices = out
        .list_new()
        .unwrap()
        .into_iter()
        .map(|entry| String::from_utf8_lossy(&out.read(&entry).unwrap()).to_string())
        .filter(|text| text.contains("[K0] campaign cannot be read"))
        .count();
    assert_eq!(notices, 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failed_mail_is_listed_and_read_again_once_its_cause_is_fixed() {
    let path = std::env::temp_dir().join(format!("realmgm-retry-{}.sqlite", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    let mut daemon = Daemon::new(realmgm::store::Store::open(&path, support::GAMES).unwrap());
    let secrets = with_campaign(&mut daemon, "G1", ANN, BEN);
    let db = rusqlite::Connection::open(&path).unwrap();
    let state: String = db
        .query_row("SELECT state_json FROM game_days", [], |row| row.get(0))
        .unwrap();
    db.execute("UPDATE game_days SET state_json = 'garbage'", [])
        .unwrap();
    // Found damaged when the daemon starts: a running one keeps the states
    // it saved, as no realmgm command rewrites a saved day.
    drop(daemon);
    let mut daemon = Daemon::new(realmgm::store::Store::open(&path, support::GAMES).unwrap());
    let orders = format!("Password: {}\nguess 5", secrets["Ann"]);
    let (inserted, note) = daemon
        .mail_in()
        .ingest(&mail(ANN, GM, "[G1] orders", "retry@x", &orders), START)
        .unwrap();
    assert!(note.contains("could not be handled"), "{note}");
    let list = daemon.gm().failed_mail_list("G1").unwrap();
    assert!(
        list.contains(&format!("mail {} (", inserted.id()))
            && list.contains("changed outside realmgm"),
        "{list}"
    );
    // The GM restores the state (from a backup) and reads the mail again.
    db.execute("UPDATE game_days SET state_json = ?1", [&state])
        .unwrap();
    let again = daemon
        .gm()
        .retry_failed_mail("G1", inserted.id(), START + 60)
        .unwrap();
    assert!(again.contains("accepted"), "{again}");
    assert!(
        daemon
            .gm()
            .failed_mail_list("G1")
            .unwrap()
            .starts_with("no mail")
    );
    let twice = daemon
        .gm()
        .retry_failed_mail("G1", inserted.id(), START + 61)
        .unwrap_err()
        .to_string();
    assert!(twice.contains("did not fail"), "{twice}");
    drop(daemon);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

#[test]
fn a_state_changed_by_hand_holds_its_campaign_until_a_rollback() {
    use realmgm::daemon::turns::process::TurnOutcome;
    let path = std::env::temp_dir().join(format!("realmgm-forged-{}.sqlite", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    let mut daemon = Daemon::new(realmgm::store::Store::open(&path, support::GAMES).unwrap());
    let secrets = with_campaign(&mut daemon, "F1", ANN, BEN);
    for (n, (player, address)) in [("Ann", ANN), ("Ben", BEN)].into_iter().enumerate() {
        let body = format!("Password: {}\nguess 5", secrets[player]);
        let (_, note) = daemon
            .mail_in()
            .ingest(
                &mail(address, GM, "[F1] orders", &format!("f{n}@x"), &body),
                START,
            )
            .unwrap();
        assert!(note.contains("accepted"), "{note}");
    }
    assert!(matches!(
        daemon.turns().process_turn("F1", START + 60).unwrap(),
        TurnOutcome::Processed { day: 1, .. }
    ));
    let day1 = daemon.store.days().latest("F1").unwrap().unwrap();
    let queued_before = daemon.store.outbox().due(i64::MAX).unwrap().len();
    // Someone edits day 1 in the database the daemon is serving (it holds
    // that day's state in its cache), leaving the hash as it was.
    let db = rusqlite::Connection::open(&path).unwrap();
    let edited = db
        .execute(
            "UPDATE game_days SET state_json = json_set(state_json, '$.forged', 1) WHERE day = 1",
            [],
        )
        .unwrap();
    assert_eq!(edited, 1);
    for round in 0..3 {
        let done = daemon
            .turns()
            .check_turn("F1", START + 120 + round)
            .unwrap();
        assert!(
            done.starts_with("held: the stored state of day 1"),
            "{done}"
        );
    }
    let control = daemon.store.control().get("F1").unwrap();
    assert!(
        control
            .hold_reason
            .as_deref()
            .is_some_and(|r| r.contains("changed outside realmgm")),
        "{:?}",
        control.hold_reason
    );
    let to_gm = queued_to(&daemon, GM);
    let held: Vec<&(String, String)> = to_gm
        .iter()
        .filter(|(subject, _)| subject.contains("campaign held"))
        .collect();
    assert_eq!(held.len(), 1, "told once, not every round: {to_gm:?}");
    assert!(
        held[0].1.contains("rollback --day 0") && held[0].1.contains("mail retry"),
        "{}",
        held[0].1
    );
    // Orders for day 2 are kept but not read against the changed state.
    let body = format!("Password: {}\nguess 7", secrets["Ann"]);
    let (_, note) = daemon
        .mail_in()
        .ingest(&mail(ANN, GM, "[F1] orders", "f2@x", &body), START + 200)
        .unwrap();
    assert!(note.contains("changed outside realmgm"), "{note}");
    let after = daemon.store.outbox().due(i64::MAX).unwrap();
    assert!(
        after[queued_before..]
            .iter()
            .all(|q| q.mail.recipient == GM),
        "the players got mail from a changed state"
    );
    // A rollback reads nothing of the changed day, lifts the hold, and the
    // day runs again to the state it had.
    daemon.gm().rollback("F1", 0, START + 300).unwrap();
    assert_eq!(daemon.store.control().get("F1").unwrap().hold_reason, None);
    assert!(matches!(
        daemon.turns().process_turn("F1", START + 360).unwrap(),
        TurnOutcome::Processed { day: 1, .. }
    ));
    assert_eq!(
        daemon.store.days().latest("F1").unwrap().unwrap().hash,
        day1.hash
    );
    drop((daemon, db));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// The mails the daemon sent through a kill-test campaign's out folder, as
/// (recipient line, whole text).
fn sent_through(dir: &std::path::Path, tag: &str) -> Vec<(String, String)> {
    let out = realmgm::mail::maildir::Maildir::open(dir.join(format!("out-{tag}"))).unwrap();
    out.list_new()
        .unwrap()
        .into_iter()
        .map(|entry| {
            let text = String::from_utf8_lossy(&out.read(&entry).unwrap()).to_string();
            let to = text
                .lines()
                .find(|line| line.starts_with("To:"))
                .unwrap_or_default()
                .to_string();
            (to, text)
        })
        .collect()
}

/// What a kill-test campaign's players were sent besides their start
/// report: nothing, for a campaign that must not go on.
fn players_mail_beyond_the_start(dir: &std::path::Path, tag: &str) -> Vec<String> {
    sent_through(dir, tag)
        .into_iter()
        .filter(|(to, text)| !to.contains(GM) && !text.contains("start of the game"))
        .map(|(_, text)| text)
        .collect()
}

#[test]
fn a_campaign_whose_state_was_changed_is_held_and_its_gm_mailed_once() {
    let dir = std::env::temp_dir().join(format!("realmgm-held-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    killable_fixture(&dir);
    let db = rusqlite::Connection::open(dir.join("db.sqlite")).unwrap();
    // Day 0 of K1 edited by hand, its hash left as it was.
    db.execute(
        "UPDATE game_days SET state_json = json_set(state_json, '$.forged', 1) WHERE \
         campaign_id = (SELECT id FROM campaigns WHERE name = 'K1')",
        [],
    )
    .unwrap();
    let held_notices = || {
        sent_through(&dir, "K1")
            .into_iter()
            .filter(|(to, text)| to.contains(GM) && text.contains("campaign held"))
            .count()
    };
    assert!(run_daemon(&dir).wait().unwrap().success());
    assert_eq!(held_notices(), 1);
    let store = realmgm::store::Store::open(&dir.join("db.sqlite"), realmgm::games::GAMES).unwrap();
    assert_eq!(store.days().latest_number("K1").unwrap(), Some(0));
    for other in ["K0", "K2", "K3"] {
        assert_eq!(
            store.days().latest_number(other).unwrap(),
            Some(1),
            "{other}"
        );
    }
    assert!(players_mail_beyond_the_start(&dir, "K1").is_empty());
    let failed = store.inbox().with_status(InboundStatus::Failed).unwrap();
    assert_eq!(failed.len(), CHARACTERS.len(), "K1's orders, kept");
    // The next daemon finds the hold stored and says nothing again.
    let sent = sent_through(&dir, "K1").len();
    assert!(run_daemon(&dir).wait().unwrap().success());
    assert_eq!((held_notices(), sent_through(&dir, "K1").len()), (1, sent));
    drop((store, db));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_campaign_whose_turn_fails_still_gets_its_gm_notice_sent_once() {
    let dir = std::env::temp_dir().join(format!("realmgm-notice-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    killable_fixture(&dir);
    // K2's tick fails before its send step: its stored combat round for
    // day 1 cannot be read.
    rusqlite::Connection::open(dir.join("db.sqlite"))
        .unwrap()
        .execute(
            "INSERT INTO combat_rounds VALUES ((SELECT id FROM campaigns WHERE name = 'K2'), 1, \
             'garbage', '[]', '[]', 'null', 0)",
            [],
        )
        .unwrap();
    let notices = || {
        sent_through(&dir, "K2")
            .into_iter()
            .filter(|(to, text)| to.contains(GM) && text.contains("met an error serving K2"))
            .count()
    };
    // One daemon over several rounds, one a second.
    let mut daemon = std::process::Command::new(env!("CARGO_BIN_EXE_realmgm"))
        .current_dir(&dir)
        .args(["daemon", "--poll-seconds", "1", "--db", "db.sqlite"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while notices() == 0 && started.elapsed() < std::time::Duration::from_secs(120) {
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    // A few more rounds, which must not send it again.
    std::thread::sleep(std::time::Duration::from_secs(3));
    let stopped = std::process::Command::new("kill")
        .args(["-TERM", &daemon.id().to_string()])
        .status()
        .unwrap();
    assert!(stopped.success());
    assert!(daemon.wait().unwrap().success());
    assert_eq!(notices(), 1, "the GM's notice about K2, sent once");
    assert!(players_mail_beyond_the_start(&dir, "K2").is_empty());
    let store = realmgm::store::Store::open(&dir.join("db.sqlite"), realmgm::games::GAMES).unwrap();
    assert_eq!(store.days().latest_number("K2").unwrap(), Some(0));
    assert_eq!(store.days().latest_number("K3").unwrap(), Some(1));
    drop(store);
    std::fs::remove_dir_all(&dir).unwrap();
}
