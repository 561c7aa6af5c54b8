//! The daemon end to end without a mail server: mail in through a Maildir
//! folder or the pipe, out through a capturing transport or a Maildir, a
//! test game played over several days; authentication, commands, bad
//! input, schedules, holds, rollback and the outbox's retries.

use crate::support;

use std::cell::RefCell;

use lettre::Message;
use realmgm::daemon::Daemon;
use realmgm::mail::inbound::{InboundOptions, parse};
use realmgm::mail::maildir::Maildir;
use realmgm::mail::transport::{MailTransport, MaildirMailer, SendError};
use realmgm::store::InboundInsert;
use support::capture::{Capture, to};
use support::*;

const ANN: &str = "ann@realmgm.test";
const BEN: &str = "ben@realmgm.test";
const GM: &str = "gm@realmgm.test";

fn two_players(extra: &str) -> (Daemon, std::collections::BTreeMap<String, String>) {
    let mut daemon = daemon();
    let text = campaign_text("G1", &[("Ann", ANN), ("Ben", BEN)], extra);
    let secrets = add_campaign(&mut daemon.store, "guess", &text);
    daemon.turns().check_turn("G1", START).unwrap();
    (daemon, secrets)
}

/// A Magic Realm campaign `tag` with Ann as the Amazon (and Ben as the
/// Dwarf when `with_ben`), stored; the players' secrets.
fn magic_realm(
    daemon: &mut Daemon,
    tag: &str,
    with_ben: bool,
) -> std::collections::BTreeMap<String, String> {
    let players: &[(&str, &str)] = if with_ben {
        &[("Ann", ANN), ("Ben", BEN)]
    } else {
        &[("Ann", ANN)]
    };
    let text = campaign_text(tag, players, "")
        .replace("Annchar", "Amazon")
        .replace("Benchar", "Dwarf");
    add_campaign(&mut daemon.store, "magic-realm", &text)
}

fn target(daemon: &Daemon, tag: &str) -> u64 {
    daemon
        .store
        .days()
        .load(tag, 0)
        .unwrap()
        .unwrap()
        .state
        .json()["target"]
        .as_u64()
        .unwrap()
}

fn send(daemon: &mut Daemon, raw: Vec<u8>, now: i64) -> String {
    daemon.mail_in().ingest(&raw, now).unwrap().1
}

#[test]
fn a_campaign_is_played_to_its_end_through_maildir_folders() {
    let dir = std::env::temp_dir().join(format!("realmgm-daemon-md-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let inbox = Maildir::create(dir.join("in")).unwrap();
    let outbox = MaildirMailer::new(dir.join("out")).unwrap();
    let (mut daemon, secrets) = two_players("");
    let number = target(&daemon, "G1");
    let (mut low, mut high) = (1, 100);
    let mut now = START;
    let mut day = 1;
    loop {
        let guess = (low + high) / 2;
        let ann = format!("Password: {}\nguess {guess}\n", secrets["Ann"]);
        inbox
            .deliver(&mail(
                ANN,
                "gm+g1@realmgm.test",
                "orders",
                &format!("a{day}@x"),
                &ann,
            ))
            .unwrap();
        let ben = format!("Password: {}\nguess 1\n", secrets["Ben"]);
        inbox
            .deliver(&mail(BEN, GM, "[G1] orders", &format!("b{day}@x"), &ben))
            .unwrap();
        assert_eq!(
            daemon.mail_in().poll_maildir(&dir.join("in"), now).unwrap(),
            2
        );
        assert!(inbox.list_new().unwrap().is_empty(), "marked after storing");
        let handled = daemon.mail_in().handle_stored(now).unwrap();
        assert!(
            handled.iter().all(|(_, n)| n.contains("accepted")),
            "{handled:?}"
        );
        now += 10 * 60;
        let done = daemon.turns().check_turn("G1", now).unwrap();
        assert_eq!(done, format!("processed day {day} early"));
        daemon.outbox().send_due(&outbox, None, now).unwrap();
        let report = daemon
            .store
            .days()
            .report("G1", Some("Ann"), Some(day))
            .unwrap()
            .unwrap();
        if report.text.contains("exact") || report.text.contains("game is over") {
            break;
        }
        if report.text.contains("higher") {
            low = guess + 1;
        } else {
            high = guess - 1;
        }
        day += 1;
        assert!(guess != number);
        now += 3600;
    }
    assert!(day <= 5);
    // Every mail went out into the folder: 2 confirmations and 3 reports a day.
    let written = Maildir::open(dir.join("out")).unwrap().list_new().unwrap();
    assert_eq!(written.len(), day as usize * 5);
    // No turn waits any more; orders now get a clear answer.
    let late = send(
        &mut daemon,
        mail(
            ANN,
            GM,
            "[G1] x",
            "late@x",
            &format!("Password: {}\nguess 3", secrets["Ann"]),
        ),
        now,
    );
    assert!(late.contains("no turn waits"), "{late}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn confirmations_echo_orders_with_errors_warnings_and_changes() {
    let (mut daemon, secrets) = two_players("");
    let capture = Capture::default();
    let body = format!(
        "guess 40\nPassword: {}\n\nOn Tue, Ann wrote:\n> old report",
        secrets["Ann"]
    );
    send(
        &mut daemon,
        mail(ANN, GM, "Re: [G1] Day 0", "m1@x", &body),
        START,
    );
    let body = format!("Password: {}\nguess 40\nguess 45\n", secrets["Ann"]);
    send(
        &mut daemon,
        mail(ANN, GM, "[G1] orders", "m2@x", &body),
        START + 1,
    );
    let body = format!(
        "Password: {}\nguess 45\nfly away\nfor Ben: guess 3\n",
        secrets["Ann"]
    );
    send(
        &mut daemon,
        mail(ANN, GM, "[G1] orders", "m3@x", &body),
        START + 2,
    );
    let mails = to(&capture.flush(&mut daemon, START + 3), ANN);
    assert_eq!(mails.len(), 3);
    assert!(
        mails[0].body_text.contains("accepted (version 1)"),
        "{}",
        mails[0].body_text
    );
    assert!(mails[0].body_text.contains("Guess: 40"));
    assert_eq!(
        mails[0].in_reply_to,
        vec!["m1@x".to_string()],
        "threaded under the player's mail"
    );
    assert!(
        mails[1].body_text.contains("- Guess: 40"),
        "{}",
        mails[1].body_text
    );
    assert!(mails[1].body_text.contains("+ Guess: 45"));
    assert!(mails[1].body_text.contains("only the last counts"));
    assert!(
        mails[2]
            .body_text
            .contains("line 3, column 1: 'fly away' is not an order"),
        "{}",
        mails[2].body_text
    );
    assert!(
        mails[2]
            .body_text
            .contains("line 4, column 1: you can only give orders for yourself, not for ben")
    );
    assert!(mails[2].body_text.contains("stay in force:\n\nGuess: 45"));
    let versions = daemon.store.orders().for_day("G1", 1).unwrap();
    assert_eq!(versions.len(), 3, "every version is kept");
}

#[test]
fn only_registered_senders_with_their_secret_are_answered() {
    let (mut daemon, secrets) = two_players("");
    let capture = Capture::default();
    // Wrong secret: the notice goes to the registered address.
    let note = send(
        &mut daemon,
        mail(ANN, GM, "[G1] orders", "w1@x", "Password: nope\nguess 3"),
        START,
    );
    assert!(note.contains("wrong secret"), "{note}");
    // Ben's secret from a stranger's address: no reply at all.
    let body = format!("Password: {}\nguess 3", secrets["Ben"]);
    let note = send(
        &mut daemon,
        mail("eve@evil.test", GM, "[G1] orders", "w2@x", &body),
        START,
    );
    assert!(note.contains("not in the campaign"), "{note}");
    // A plus-address carries the secret instead of a Password line.
    let plus = format!("gm+g1.{}@realmgm.test", secrets["Ben"].replace('-', ""));
    let note = send(
        &mut daemon,
        mail(BEN, &plus, "orders", "w3@x", "guess 7"),
        START,
    );
    assert!(note.contains("accepted"), "{note}");
    // An auto-reply is never answered.
    let auto = "From: ann@realmgm.test\r\nTo: gm@realmgm.test\r\nSubject: [G1] Out of office\r\nAuto-Submitted: auto-replied\r\nMessage-ID: <oo@x>\r\n\r\naway";
    let note = send(&mut daemon, auto.as_bytes().to_vec(), START);
    assert!(note.starts_with("not answered"), "{note}");
    let mails = capture.flush(&mut daemon, START + 1);
    assert_eq!(
        mails.len(),
        2,
        "{:?}",
        mails.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    assert!(to(&mails, ANN)[0].body_text.contains("wrong secret"));
    assert!(to(&mails, BEN)[0].body_text.contains("accepted"));
    assert!(to(&mails, "eve@evil.test").is_empty());
    let log = daemon.store.control().gm_log(Some("G1")).unwrap();
    assert!(
        log.iter()
            .any(|e| e.kind == "stranger" && e.message.contains("eve@evil.test"))
    );
    // The same message twice is stored once and read once.
    let raw = mail(BEN, &plus, "orders", "w3@x", "guess 7");
    assert!(matches!(
        daemon.mail_in().ingest(&raw, START).unwrap().0,
        InboundInsert::Duplicate(_)
    ));
    assert_eq!(daemon.store.orders().for_day("G1", 1).unwrap().len(), 1);
}

#[test]
fn a_bounce_is_recorded_against_the_player_and_the_gm_is_told() {
    let (mut daemon, _) = two_players("");
    let capture = Capture::default();
    let raw = std::fs::read("tests/fixtures/mail/bounce_dsn.eml").unwrap();
    let text = String::from_utf8_lossy(&raw).to_string();
    let failed = parse(&raw, &InboundOptions::default()).unwrap();
    let Some(realmgm::mail::auto::AutoKind::Bounce { failed_recipients }) = failed.auto_kind else {
        panic!("the fixture is a bounce");
    };
    let patched = text.replace(&failed_recipients[0], BEN);
    let note = send(&mut daemon, patched.into_bytes(), START);
    assert!(note.contains("delivery failure"), "{note}");
    let mails = capture.flush(&mut daemon, START);
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, vec![GM.to_string()]);
    assert!(mails[0].body_text.contains("Ben"), "{}", mails[0].body_text);
    assert_eq!(daemon.store.players().bounce_count("G1", "Ben").unwrap(), 1);
    assert_eq!(daemon.store.players().bounce_count("G1", "Ann").unwrap(), 0);
    let status = daemon.gm().status("G1").unwrap();
    assert!(
        status.contains("Ben: no orders; mail to this player bounced 1 time"),
        "{status}"
    );
}

#[test]
fn players_ask_for_help_orders_report_rules_and_write_privately() {
    let (mut daemon, secrets) = two_players("[mail]\ncopy_relays_to_gm = true\n");
    let capture = Capture::default();
    let pw = |p: &str| format!("Password: {}\n", secrets[p]);
    send(
        &mut daemon,
        mail(ANN, GM, "[G1] help", "h@x", &pw("Ann")),
        START,
    );
    send(
        &mut daemon,
        mail(ANN, GM, "[G1] x", "o@x", &format!("orders?\n{}", pw("Ann"))),
        START,
    );
    send(
        &mut daemon,
        mail(ANN, GM, "[G1] report?", "r@x", &pw("Ann")),
        START,
    );
    send(
        &mut daemon,
        mail(ANN, GM, "[G1] rules?", "ru@x", &pw("Ann")),
        START,
    );
    send(
        &mut daemon,
        mail(ANN, GM, "[G1] combat?", "c@x", &pw("Ann")),
        START,
    );
    send(
        &mut daemon,
        mail(
            ANN,
            GM,
            "[G1] to Benchar",
            "t@x",
            &format!("{}Meet me at the inn.", pw("Ann")),
        ),
        START,
    );
    send(
        &mut daemon,
        mail(
            ANN,
            GM,
            "[G1] to Nobody",
            "t2@x",
            &format!("{}Hi", pw("Ann")),
        ),
        START,
    );
    let mails = capture.flush(&mut daemon, START);
    let ann = to(&mails, ANN);
    assert!(ann[0].body_text.contains("orders?"));
    assert!(
        ann[1].body_text.contains("no accepted orders for day 1"),
        "{}",
        ann[1].body_text
    );
    assert!(ann[2].body_text.contains("no report"));
    assert!(
        ann[3].body_text.contains(
            "  - Characters may send each other private messages wherever they are on the map \
             (unlimited_communication)"
        ) && ann[3].body_text.contains("Campaign: "),
        "{}",
        ann[3].body_text
    );
    assert!(
        ann[4]
            .body_text
            .contains("No combat round waits for your answer"),
        "{}",
        ann[4].body_text
    );
    assert!(ann[5].body_text.contains("passed on to Benchar"));
    assert!(
        ann[6]
            .body_text
            .contains("No one in the campaign is called 'Nobody'")
    );
    let ben = to(&mails, BEN);
    assert_eq!(ben.len(), 1);
    assert!(
        ben[0]
            .body_text
            .contains("From Annchar:\n\nMeet me at the inn."),
        "{}",
        ben[0].body_text
    );
    assert!(
        !ben[0].body_text.contains(ANN),
        "the sender's address stays hidden"
    );
    assert_eq!(to(&mails, GM).len(), 1, "the GM's copy");
}

#[test]
fn bad_input_gets_a_reply_or_a_log_entry_and_is_kept() {
    let (mut daemon, secrets) = two_players("[mail]\nmax_attachment_kb = 1\n");
    let capture = Capture::default();
    let pw = format!("Password: {}", secrets["Ann"]);
    let html = format!(
        "From: {ANN}\r\nTo: {GM}\r\nSubject: [G1] orders\r\nMessage-ID: <html@x>\r\nContent-Type: text/html\r\n\r\n<p>{pw}</p><p>guess 12</p>"
    );
    let big = format!(
        "From: {ANN}\r\nTo: {GM}\r\nSubject: [G1] orders\r\nMessage-ID: <big@x>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n{pw}\r\nguess 13\r\n--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=big.bin\r\n\r\n{}\r\n--b--\r\n",
        "x".repeat(5000)
    );
    let mut latin = format!("From: {ANN}\r\nTo: {GM}\r\nSubject: [G1] orders\r\nMessage-ID: <latin@x>\r\n\r\n{pw}\r\nguess 14 ").into_bytes();
    latin.extend_from_slice(&[0xff, 0xfe, b'\r', b'\n']);
    let broken = format!(
        "From: {ANN}\r\nTo: {GM}\r\nSubject: [G1] orders\r\nMessage-ID: <mime@x>\r\nContent-Type: multipart/mixed; boundary=\r\n\r\n--\r\n{pw}\r\nguess 15"
    );
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (html.into_bytes(), "accepted"),
        (big.into_bytes(), "accepted"),
        (latin, "problem"),
        (broken.into_bytes(), "Ann"),
        (
            mail(ANN, GM, "[G1] orders", "empty@x", &pw),
            "without orders",
        ),
        (b"garbage without headers".to_vec(), "not answered"),
        (Vec::new(), "unreadable"),
    ];
    for (raw, expected) in cases {
        let note = send(&mut daemon, raw, START);
        assert!(note.contains(expected), "{expected}: {note}");
    }
    let late = mail(ANN, GM, "[G1] orders", "late@x", &format!("{pw}\nguess 50"));
    let note = send(&mut daemon, late, FIRST_DEADLINE + 1);
    assert!(note.contains("after the deadline"), "{note}");
    let mails = to(&capture.flush(&mut daemon, FIRST_DEADLINE + 1), ANN);
    assert!(
        mails[0].body_text.contains("read from its HTML"),
        "{}",
        mails[0].body_text
    );
    assert!(
        mails[1]
            .body_text
            .contains("big.bin (5000 bytes) is larger"),
        "{}",
        mails[1].body_text
    );
    assert!(mails[4].body_text.contains("no orders"));
    assert!(
        mails
            .last()
            .unwrap()
            .body_text
            .contains("after the deadline")
    );
    assert_eq!(
        daemon
            .store
            .inbox()
            .with_status(realmgm::store::InboundStatus::New)
            .unwrap()
            .len(),
        0
    );
}

#[test]
fn deadlines_remind_hold_and_follow_the_gm() {
    let (mut daemon, secrets) = two_players("");
    let capture = Capture::default();
    // Six hours before the deadline the missing players are reminded once.
    assert_eq!(
        daemon
            .turns()
            .check_turn("G1", FIRST_DEADLINE - 7 * 3600)
            .unwrap(),
        "waiting"
    );
    let done = daemon
        .turns()
        .check_turn("G1", FIRST_DEADLINE - 5 * 3600)
        .unwrap();
    assert_eq!(done, "reminded Ann, Ben");
    assert_eq!(
        daemon
            .turns()
            .check_turn("G1", FIRST_DEADLINE - 4 * 3600)
            .unwrap(),
        "waiting"
    );
    assert_eq!(capture.flush(&mut daemon, FIRST_DEADLINE).len(), 2);
    // Nobody sent orders: at the deadline the turn is held and the GM told.
    let done = daemon
        .turns()
        .check_turn("G1", FIRST_DEADLINE + 60)
        .unwrap();
    assert!(
        done.contains("2 of 2 awaited players sent no orders"),
        "{done}"
    );
    let gm = capture.flush(&mut daemon, FIRST_DEADLINE + 60);
    assert_eq!(to(&gm, GM).len(), 1);
    assert!(daemon.gm().status("G1").unwrap().contains("HELD"));
    // The GM extends; Ann's orders arrive; at the new deadline it runs (1 of 2 missing is 50%).
    daemon.gm().extend("G1", 2, FIRST_DEADLINE + 120).unwrap();
    let body = format!("Password: {}\nguess 50", secrets["Ann"]);
    send(
        &mut daemon,
        mail(ANN, GM, "[G1] o", "o@x", &body),
        FIRST_DEADLINE + 600,
    );
    assert!(
        daemon
            .gm()
            .status("G1")
            .unwrap()
            .contains("Ann: orders in (version 1)")
    );
    assert_eq!(
        daemon
            .turns()
            .check_turn("G1", FIRST_DEADLINE + 3600)
            .unwrap(),
        "waiting"
    );
    let done = daemon
        .turns()
        .check_turn("G1", FIRST_DEADLINE + 2 * 3600 + 30)
        .unwrap();
    assert_eq!(done, "processed day 1");
    // Pause stops the next deadline; the daemon down past it holds on resume's absence.
    daemon.gm().pause("G1", FIRST_DEADLINE + 3 * 3600).unwrap();
    let next = FIRST_DEADLINE + 24 * 3600;
    assert_eq!(
        daemon.turns().check_turn("G1", next + 10).unwrap(),
        "waiting"
    );
    let resumed = daemon.gm().resume("G1", next + 20).unwrap();
    assert!(
        resumed.contains("day 2: its deadline has passed, so it runs in the daemon's next round"),
        "{resumed}"
    );
    let done = daemon.turns().check_turn("G1", next + 30).unwrap();
    assert_eq!(done, "processed day 2", "resume lets the held checks pass");
    // The daemon was down past the next deadline: held until the GM acts.
    let third = next + 24 * 3600;
    let done = daemon.turns().check_turn("G1", third + 3 * 3600).unwrap();
    assert!(done.contains("180 minutes after its deadline"), "{done}");
    assert_eq!(
        daemon
            .turns()
            .check_turn("G1", third + 3 * 3600 + 60)
            .unwrap(),
        "waiting"
    );
    let outcome = daemon
        .turns()
        .process_turn("G1", third + 3 * 3600 + 90)
        .unwrap();
    assert!(matches!(
        outcome,
        realmgm::daemon::turns::process::TurnOutcome::Processed { day: 3, .. }
    ));
}

#[test]
fn repeat_policy_reuses_the_last_accepted_orders() {
    let (daemon, secrets) = two_players("[mail]\nhold_if_missing_percent = 100\n");
    let mut campaign = daemon.store.campaigns().load("G1").unwrap().campaign;
    assert_eq!(campaign.schedule.nmr, realmgm::campaign::NmrPolicy::Hide);
    campaign.schedule.nmr = realmgm::campaign::NmrPolicy::Repeat;
    let mut daemon2 = support::daemon();
    let text = campaign_text("G2", &[("Ann", ANN), ("Ben", BEN)], "[schedule.x]\n")
        .replace("[schedule.x]\n", "");
    let text = text.replace(
        "reminder_hours = 6\n",
        "reminder_hours = 6\nnmr = \"repeat\"\n",
    );
    let secrets2 = add_campaign(&mut daemon2.store, "guess", &text);
    daemon2.turns().check_turn("G2", START).unwrap();
    for (name, address) in [("Ann", ANN), ("Ben", BEN)] {
        let body = format!("Password: {}\nguess 1", secrets2[name]);
        send(
            &mut daemon2,
            mail(address, GM, "[G2] o", &format!("{name}@x"), &body),
            START,
        );
    }
    daemon2.turns().check_turn("G2", START + 600).unwrap();
    let body = format!("Password: {}\nguess 2", secrets2["Ann"]);
    send(
        &mut daemon2,
        mail(ANN, GM, "[G2] o", "a2@x", &body),
        START + 700,
    );
    let resumed = daemon2.gm().resume("G2", START).unwrap();
    assert!(resumed.contains("it runs at its deadline, 20"), "{resumed}");
    let done = daemon2
        .turns()
        .check_turn("G2", FIRST_DEADLINE + 24 * 3600 + 5)
        .unwrap();
    assert_eq!(done, "processed day 2");
    let gm = daemon2
        .store
        .days()
        .report("G2", None, Some(2))
        .unwrap()
        .unwrap();
    assert!(
        gm.text.contains("Ben guessed 1"),
        "Ben's day-1 orders repeated: {}",
        gm.text
    );
    drop((daemon, secrets, campaign));
}

#[test]
fn rollback_reruns_identically_and_a_nondeterministic_game_is_refused() {
    // A game that comes out the same with reports worded differently (a
    // newer realmgm re-running a day an older one ran) is run and noted.
    for (game, deterministic) in [
        ("guess", true),
        ("guess-reworded", true),
        ("guess-flaky", false),
    ] {
        let mut daemon = support::daemon();
        let text = campaign_text("R1", &[("Ann", ANN)], "");
        let secrets = add_campaign(&mut daemon.store, game, &text);
        daemon.turns().check_turn("R1", START).unwrap();
        let body = format!("Password: {}\nguess 10", secrets["Ann"]);
        send(&mut daemon, mail(ANN, GM, "[R1] o", "o@x", &body), START);
        let preview = daemon.gm().preview("R1").unwrap();
        assert!(preview.contains("Preview of day 1"));
        assert!(
            daemon.store.days().latest("R1").unwrap().unwrap().day == 0,
            "preview stores nothing"
        );
        assert!(matches!(
            daemon.turns().process_turn("R1", START + 1).unwrap(),
            realmgm::daemon::turns::process::TurnOutcome::Processed { .. }
        ));
        let first = daemon.store.days().latest("R1").unwrap().unwrap().hash;
        let latest = daemon
            .gm()
            .rollback("R1", 1, START + 2)
            .unwrap_err()
            .to_string();
        assert!(
            latest.contains("day 1 is the latest day played, so there is nothing to roll back")
                && latest.contains("`realmgm gm rollback --campaign R1 --day 0`"),
            "{latest}"
        );
        daemon.gm().rollback("R1", 0, START + 2).unwrap();
        let outcome = daemon.turns().process_turn("R1", START + 3).unwrap();
        if deterministic {
            assert!(matches!(
                outcome,
                realmgm::daemon::turns::process::TurnOutcome::Processed { day: 1, .. }
            ));
            assert_eq!(
                daemon.store.days().latest("R1").unwrap().unwrap().hash,
                first
            );
            let noted = daemon.store.control().gm_log_last("R1", "rerun").unwrap();
            if game == "guess-reworded" {
                let noted = noted.expect("the rewording is in the GM's log");
                assert!(noted.contains("reports read differently"), "{noted}");
            } else {
                assert_eq!(noted, None);
            }
        } else {
            let realmgm::daemon::turns::process::TurnOutcome::Held(reason) = outcome else {
                panic!()
            };
            assert!(reason.contains("gave a different game"), "{reason}");
            assert_eq!(daemon.store.days().latest("R1").unwrap().unwrap().day, 0);
        }
    }
}

#[test]
fn magic_realm_days_run_through_the_daemon() {
    let mut daemon = support::daemon();
    let secrets = magic_realm(&mut daemon, "MR", false);
    let capture = Capture::default();
    daemon.turns().check_turn("MR", START).unwrap();
    assert!(
        daemon.store.days().load("MR", 0).unwrap().is_some(),
        "the game was set up"
    );
    let body = format!("Password: {}\nM CV4, H", secrets["Ann"]);
    let note = send(&mut daemon, mail(ANN, GM, "[MR] o", "o@x", &body), START);
    assert!(note.contains("accepted"), "{note}");
    let done = daemon.turns().check_turn("MR", START + 600).unwrap();
    assert_eq!(done, "processed day 1 early");
    let mails = capture.flush(&mut daemon, START + 600);
    let report = to(&mails, ANN).last().unwrap().body_text.clone();
    assert!(report.contains("MR — day 1 — the Amazon (Ann)"), "{report}");
    assert!(
        report.contains("Recorded: M-Curst Valley 4 / H"),
        "{report}"
    );
}

/// A solitaire campaign by mail (3.1 10.E.1): the lone player is told he
/// waits at the map's edge and by which roads he may come in, enters the
/// map with his first Move, reads two Monster Rolls in his report, and
/// nobody else may join.
#[test]
fn a_solitaire_campaign_is_played_by_mail_3_1_10_e_1() {
    let mut daemon = support::daemon();
    let text = campaign_text("SO", &[("Ann", ANN)], "")
        .replace("Annchar", "Amazon")
        .replace(
            "rules = [\"unlimited_communication\"]",
            "rules = [\"solitaire\"]",
        );
    let secrets = add_campaign(&mut daemon.store, "magic-realm", &text);
    let capture = Capture::default();
    daemon.turns().check_turn("SO", START).unwrap();
    let started = capture.flush(&mut daemon, START);
    let start = to(&started, ANN)
        .into_iter()
        .map(|m| m.body_text)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        start.contains("At the map's edge, off the map: Move to BV1, CL2, CS1, DV4,"),
        "{start}"
    );
    // Off the map he is in no clearing yet (3.1 10.E.1.6).
    assert!(
        start.contains("== Your clearing ==\nNone yet: you wait at the map's edge"),
        "{start}"
    );
    let refused = daemon
        .seats()
        .add_player("SO", "Ben", BEN, Some("Dwarf"), START + 10)
        .unwrap_err();
    assert!(
        format!("{refused:#}").contains("the solitaire rule, which seats at most 1"),
        "{refused:#}"
    );
    let body = format!("Password: {}\nM DV4, H", secrets["Ann"]);
    let note = send(
        &mut daemon,
        mail(ANN, GM, "[SO] o", "so@x", &body),
        START + 20,
    );
    assert!(note.contains("accepted"), "{note}");
    let done = daemon.turns().check_turn("SO", START + 900).unwrap();
    assert_eq!(done, "processed day 1 early");
    let mails = capture.flush(&mut daemon, START + 900);
    let report = to(&mails, ANN).last().unwrap().body_text.clone();
    assert!(report.contains("Second monster roll = "), "{report}");
    assert!(
        report.contains("1. M-Dark Valley 4: moves to DV4"),
        "{report}"
    );
}

/// A seat played by a team (BIMR4's "Team 1", the team game BIMR5): any of
/// its addresses sends orders with the seat's secret, the latest stand, and
/// every mail to the seat goes to all of them.
#[test]
fn a_team_plays_one_seat_from_several_addresses() {
    const ANN2: &str = "ann2@realmgm.test";
    let mut daemon = support::daemon();
    let text = campaign_text("TM", &[("Ann", ANN)], "")
        .replace("Annchar", "Amazon")
        .replace(
            &format!("email = \"{ANN}\"\n"),
            &format!("email = \"{ANN}\"\nteam = [\"{ANN2}\"]\n"),
        );
    let secrets = add_campaign(&mut daemon.store, "magic-realm", &text);
    let capture = Capture::default();
    daemon.turns().check_turn("TM", START).unwrap();
    capture.flush(&mut daemon, START);
    let orders = |hide: &str| format!("Password: {}\n{hide}", secrets["Ann"]);
    let note = send(
        &mut daemon,
        mail(ANN, GM, "[TM] o", "t1@x", &orders("H, H")),
        START,
    );
    assert!(note.contains("accepted"), "{note}");
    // The teammate's later orders replace the first.
    let note = send(
        &mut daemon,
        mail(ANN2, GM, "[TM] o", "t2@x", &orders("M CV4, H")),
        START,
    );
    assert!(note.contains("accepted"), "{note}");
    let mails = capture.flush(&mut daemon, START);
    let confirmation = to(&mails, ANN2);
    assert!(!confirmation.is_empty(), "{mails:?}");
    assert!(
        confirmation
            .last()
            .unwrap()
            .to
            .iter()
            .any(|t| t.contains(ANN)),
        "both addresses get the seat's mail: {:?}",
        confirmation.last().unwrap().to
    );
    // A stranger with the secret is still a stranger.
    let note = send(
        &mut daemon,
        mail("eve@realmgm.test", GM, "[TM] o", "t3@x", &orders("H")),
        START,
    );
    assert!(!note.contains("accepted"), "{note}");
    daemon.turns().check_turn("TM", START + 600).unwrap();
    let mails = capture.flush(&mut daemon, START + 600);
    let report = to(&mails, ANN).last().unwrap().body_text.clone();
    assert!(
        report.contains("Recorded: M-Curst Valley 4 / H"),
        "{report}"
    );
    assert!(
        !to(&mails, ANN2).is_empty(),
        "the teammate reads the report too"
    );
}

#[test]
fn a_seasons_campaign_starts_in_its_season_and_reports_the_weather() {
    let mut daemon = support::daemon();
    let text = campaign_text(
        "SW",
        &[("Ann", ANN)],
        "[calendar]\nstart_season = \"Autumn\"",
    )
    .replace("Annchar", "Amazon")
    .replace(
        "rules = [\"unlimited_communication\"]",
        "rules = [\"unlimited_communication\", \"seasons_and_weather\"]",
    );
    let secrets = add_campaign(&mut daemon.store, "magic-realm", &text);
    let capture = Capture::default();
    daemon.turns().check_turn("SW", START).unwrap();
    let start = daemon.store.days().load("SW", 0).unwrap().unwrap().state;
    assert_eq!(start.json()["magic"]["season"], 11, "Autumn is season 11");
    assert!(
        (1..=6).contains(&start.json()["weather"]["chit"].as_u64().unwrap()),
        "the secret weather chit is drawn at setup"
    );
    let body = format!("Password: {}\nH", secrets["Ann"]);
    send(&mut daemon, mail(ANN, GM, "[SW] o", "o@x", &body), START);
    assert_eq!(
        daemon.turns().check_turn("SW", START + 600).unwrap(),
        "processed day 1 early"
    );
    let mails = capture.flush(&mut daemon, START + 600);
    let report = to(&mails, ANN).last().unwrap().body_text.clone();
    assert!(
        report.contains("Season and weather: Autumn (Cool: 7 days a week"),
        "{report}"
    );
    assert!(!report.contains("Secret weather chit"), "{report}");
}

#[test]
fn an_engine_that_cannot_resolve_holds_the_turn_and_keeps_the_orders() {
    let mut daemon = support::daemon();
    let text = campaign_text("BR", &[("Ann", ANN)], "");
    let secrets = add_campaign(&mut daemon.store, "guess-broken", &text);
    let capture = Capture::default();
    daemon.turns().check_turn("BR", START).unwrap();
    let body = format!("Password: {}\nguess 5", secrets["Ann"]);
    let note = send(&mut daemon, mail(ANN, GM, "[BR] o", "o@x", &body), START);
    assert!(note.contains("accepted"), "{note}");
    let done = daemon.turns().check_turn("BR", START + 600).unwrap();
    assert!(done.contains("not implemented yet"), "{done}");
    let mails = capture.flush(&mut daemon, START + 600);
    assert!(
        to(&mails, GM)
            .iter()
            .any(|m| m.body_text.contains("not implemented yet"))
    );
    // Orders sent while the turn is held are still accepted and kept.
    let body = format!("Password: {}\nguess 6", secrets["Ann"]);
    let note = send(
        &mut daemon,
        mail(ANN, GM, "[BR] o2", "o2@x", &body),
        START + 700,
    );
    assert!(note.contains("accepted"), "{note}");
    assert_eq!(daemon.store.orders().for_day("BR", 1).unwrap().len(), 2);
}

/// Fails the first `temporary` sends, then refuses `permanent` for good.
struct Flaky {
    calls: RefCell<u32>,
    temporary: u32,
}

impl MailTransport for Flaky {
    fn send(&self, message: &Message) -> Result<String, SendError> {
        *self.calls.borrow_mut() += 1;
        let to = String::from_utf8_lossy(&message.formatted()).contains("To: ben@");
        if to {
            return Err(SendError::Permanent("550 no such user".into()));
        }
        if *self.calls.borrow() <= self.temporary {
            return Err(SendError::Temporary("421 busy".into()));
        }
        Ok("250".into())
    }
}

#[test]
fn the_outbox_retries_with_backoff_and_records_refusals_as_bounces() {
    let (mut daemon, _) = two_players("");
    let campaign = daemon.store.campaigns().load("G1").unwrap().campaign;
    daemon
        .outbox()
        .queue(&campaign, ANN, "hello", "body", None, START)
        .unwrap();
    let flaky = Flaky {
        calls: RefCell::new(0),
        temporary: 2,
    };
    assert_eq!(
        daemon
            .outbox()
            .send_due(&flaky, None, START)
            .unwrap()
            .deferred,
        1
    );
    assert_eq!(
        daemon
            .outbox()
            .send_due(&flaky, None, START + 30)
            .unwrap()
            .deferred,
        0,
        "not due yet"
    );
    assert_eq!(
        daemon
            .outbox()
            .send_due(&flaky, None, START + 60)
            .unwrap()
            .deferred,
        1
    );
    assert_eq!(
        daemon
            .outbox()
            .send_due(&flaky, None, START + 150)
            .unwrap()
            .sent,
        0,
        "second wait is 120 s"
    );
    assert_eq!(
        daemon
            .outbox()
            .send_due(&flaky, None, START + 180)
            .unwrap()
            .sent,
        1
    );
    daemon
        .outbox()
        .queue(&campaign, BEN, "hello", "body", None, START)
        .unwrap();
    let summary = daemon.outbox().send_due(&flaky, None, START + 200).unwrap();
    assert_eq!(summary.failed, 1);
    let log = daemon.store.control().gm_log(Some("G1")).unwrap();
    assert!(
        log.iter()
            .any(|e| e.kind == "bounce" && e.message.contains("550")),
        "{log:?}"
    );
    assert_eq!(
        daemon
            .store
            .players_mut()
            .record_bounce("G1", "Ben", START, "x")
            .unwrap(),
        2
    );
}

#[test]
fn the_gm_commands_by_mail_with_his_secret() {
    let (mut daemon, _) = two_players("");
    let capture = Capture::default();
    let note = send(
        &mut daemon,
        mail(GM, GM, "[G1] gm status", "g1@x", "Password: none"),
        START,
    );
    assert!(note.contains("GM address without"), "{note}");
    let secret = daemon.store.control_mut().new_gm_secret("G1").unwrap();
    let body = format!("Password: {secret}");
    send(
        &mut daemon,
        mail(GM, GM, "[G1] gm status", "g2@x", &body),
        START,
    );
    send(
        &mut daemon,
        mail(GM, GM, "[G1] gm extend 5", "g3@x", &body),
        START,
    );
    send(
        &mut daemon,
        mail(GM, GM, "[G1] gm dance", "g4@x", &body),
        START,
    );
    let mails = capture.flush(&mut daemon, START);
    assert_eq!(mails.len(), 4);
    assert!(
        mails[1].body_text.contains("Ann: no orders"),
        "{}",
        mails[1].body_text
    );
    assert!(mails[2].body_text.contains("extended by 5 hours"));
    assert!(mails[3].body_text.contains("not a GM command"));
}

/// A GM who forgets the campaign's tag is answered, not dropped: the
/// campaign he runs when there is one, the tags to choose from when he runs
/// several; his commands still need his secret.
#[test]
fn an_untagged_gm_command_reaches_the_one_campaign_he_runs() {
    let (mut daemon, _) = two_players("");
    let capture = Capture::default();
    let secret = daemon.store.control_mut().new_gm_secret("G1").unwrap();
    let body = format!("Password: {secret}");
    send(&mut daemon, mail(GM, GM, "gm status", "u1@x", &body), START);
    let mails = capture.flush(&mut daemon, START);
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert!(
        mails[0].body_text.contains("Ann: no orders"),
        "{}",
        mails[0].body_text
    );
    let note = send(
        &mut daemon,
        mail(GM, GM, "gm status", "u2@x", "Password: wrong"),
        START,
    );
    assert!(note.contains("GM address without"), "{note}");

    let text = campaign_text("G2", &[("Cid", "cid@realmgm.test")], "");
    add_campaign(&mut daemon.store, "guess", &text);
    capture.flush(&mut daemon, START);
    // A day later, past the interval that holds back a second notice.
    let later = START + 86_400;
    let note = send(&mut daemon, mail(GM, GM, "gm status", "u3@x", &body), later);
    assert!(note.contains("asked which of [G1], [G2]"), "{note}");
    let mails = capture.flush(&mut daemon, later);
    assert!(
        mails.iter().any(|m| m
            .body_text
            .contains("you run several campaigns here: [G1], [G2]")),
        "{mails:?}"
    );
}

#[test]
fn the_gm_enters_orders_and_seats_players_by_mail() {
    let (mut daemon, secrets) = two_players("");
    let capture = Capture::default();
    let secret = daemon.store.control_mut().new_gm_secret("G1").unwrap();
    // Orders for Ann, in the body under the command in the subject.
    let body = format!("Password: {secret}\nguess 42");
    send(
        &mut daemon,
        mail(GM, GM, "[G1] gm orders ann", "go1@x", &body),
        START,
    );
    let mails = capture.flush(&mut daemon, START);
    let to_gm = to(&mails, GM);
    assert!(
        to_gm[0].body_text.contains("accepted (version 1)"),
        "{}",
        to_gm[0].body_text
    );
    let to_ann = to(&mails, ANN);
    assert!(
        to_ann[0]
            .body_text
            .contains("The GM entered these orders for you"),
        "{}",
        to_ann[0].body_text
    );
    let orders = daemon.store.orders().for_day("G1", 1).unwrap();
    assert_eq!(orders.len(), 1);
    assert_eq!(orders[0].player, "Ann");
    // After the deadline, with the command on the first line of the body.
    let late = FIRST_DEADLINE + 60;
    let body = format!("gm orders Ben\nguess 7\nPassword: {secret}");
    send(&mut daemon, mail(GM, GM, "[G1] late", "go2@x", &body), late);
    let mails = capture.flush(&mut daemon, late);
    assert!(
        to(&mails, GM)[0].body_text.contains("accepted"),
        "{}",
        to(&mails, GM)[0].body_text
    );
    assert_eq!(daemon.store.orders().latest("G1", 1).unwrap().len(), 2);

    // A new player joins and is mailed his secret, which works.
    let cy = "cy@realmgm.test";
    let body = format!("Password: {secret}");
    send(
        &mut daemon,
        mail(
            GM,
            GM,
            "[G1] gm add-player Cy cy@realmgm.test",
            "ga@x",
            &body,
        ),
        late,
    );
    let mails = capture.flush(&mut daemon, late);
    assert!(
        to(&mails, GM)[0]
            .body_text
            .contains("Cy <cy@realmgm.test> joined")
    );
    let welcome = &to(&mails, cy)[0].body_text;
    let cy_secret = welcome
        .lines()
        .find_map(|l| l.strip_prefix("Your secret is: "))
        .unwrap()
        .trim()
        .to_string();
    let body = format!("Password: {cy_secret}\nhelp");
    let note = send(&mut daemon, mail(cy, GM, "[G1] help", "cy1@x", &body), late);
    assert!(note.contains("answered"), "{note}");

    // Ben's seat goes to a new address: his old secret stops working.
    let body = format!("Password: {secret}");
    send(
        &mut daemon,
        mail(
            GM,
            GM,
            "[G1] gm replace ben dan@realmgm.test",
            "gr@x",
            &body,
        ),
        late,
    );
    let mails = capture.flush(&mut daemon, late);
    assert!(
        to(&mails, GM)[0]
            .body_text
            .contains("now belongs to dan@realmgm.test"),
        "{}",
        to(&mails, GM)[0].body_text
    );
    assert_eq!(to(&mails, "dan@realmgm.test").len(), 1);
    let body = format!("Password: {}\nhelp", secrets["Ben"]);
    let note = send(&mut daemon, mail(BEN, GM, "[G1] help", "b9@x", &body), late);
    assert!(note.contains("not in the campaign"), "{note}");
    // A bad address is refused with the reason, and nothing changes.
    send(
        &mut daemon,
        mail(
            GM,
            GM,
            "[G1] gm add-player Eve not-an-address",
            "ge@x",
            &body_pw(&secret),
        ),
        late,
    );
    let mails = capture.flush(&mut daemon, late);
    assert!(
        to(&mails, GM)[0].body_text.contains("Failed"),
        "{}",
        to(&mails, GM)[0].body_text
    );
    assert_eq!(
        daemon.store.campaigns().load("G1").unwrap().players.len(),
        3
    );
}

fn body_pw(secret: &str) -> String {
    format!("Password: {secret}")
}

#[test]
fn magic_realm_confirmations_list_name_problems() {
    let mut daemon = support::daemon();
    let text = campaign_text("MN", &[("Ann", ANN)], "").replace("Annchar", "Amazon");
    let secrets = add_campaign(&mut daemon.store, "magic-realm", &text);
    let capture = Capture::default();
    daemon.turns().check_turn("MN", START).unwrap();
    capture.flush(&mut daemon, START); // the start report
    let body = format!("Password: {}\nM CV4, H\nBuy: Shieeld", secrets["Ann"]);
    let note = send(&mut daemon, mail(ANN, GM, "[MN] o", "n1@x", &body), START);
    assert!(note.contains("1 problem"), "{note}");
    let mails = capture.flush(&mut daemon, START);
    let reply = &to(&mails, ANN)[0].body_text;
    assert!(
        reply.contains("line 3, column 1: Buy: 'Shieeld' is not an item of the game"),
        "{reply}"
    );
    let body = format!("Password: {}\nM CV4, H\nBlock: Elf", secrets["Ann"]);
    let note = send(&mut daemon, mail(ANN, GM, "[MN] o", "n2@x", &body), START);
    assert!(note.contains("accepted"), "{note}");
    let mails = capture.flush(&mut daemon, START);
    let reply = &to(&mails, ANN)[0].body_text;
    assert!(reply.contains("Warnings:"), "{reply}");
    assert!(reply.contains("no character named 'Elf'"), "{reply}");
}

#[test]
fn a_magic_realm_campaign_is_set_up_by_mail_before_day_1() {
    let mut daemon = support::daemon();
    // Without characters in the file: both players choose by mail.
    let text = campaign_text(
        "SU",
        &[("Ann", ANN), ("Ben", BEN)],
        "[mail]\nsetup_by_mail = true\n",
    )
    .replace("character = \"Annchar\"\n", "")
    .replace("character = \"Benchar\"\n", "");
    let secrets = add_campaign(&mut daemon.store, "magic-realm", &text);
    let capture = Capture::default();
    let pw = |p: &str| format!("Password: {}\n", secrets[p]);
    let done = daemon.turns().check_turn("SU", START).unwrap();
    assert!(done.contains("Ann chooses a character next"), "{done}");
    let mails = capture.flush(&mut daemon, START);
    assert!(to(&mails, ANN)[0].body_text.contains("your turn to choose"));
    let note = send(
        &mut daemon,
        mail(
            BEN,
            GM,
            "[SU] pick",
            "s1@x",
            &(pw("Ben") + "Character: Wizard"),
        ),
        START,
    );
    assert!(note.contains("refused"), "{note}");
    send(
        &mut daemon,
        mail(
            ANN,
            GM,
            "[SU] pick",
            "s2@x",
            &(pw("Ann") + "Character: Amazon"),
        ),
        START,
    );
    let mails = capture.flush(&mut daemon, START);
    assert!(to(&mails, BEN)[0].body_text.contains("Ann's turn"));
    assert!(to(&mails, ANN)[0].body_text.contains("You play the Amazon"));
    assert!(to(&mails, BEN)[1].body_text.contains("your turn to choose"));
    let status = daemon.gm().status("SU").unwrap();
    assert!(
        status.contains("Setup by mail: Ben chooses a character next (1 of 2 chosen)"),
        "{status}"
    );
    // The GM answers for Ben.
    let answer = daemon
        .gm()
        .enter_orders("SU", "ben", "Character: Wizard", 1, None, START)
        .unwrap();
    assert!(answer.contains("You play the Wizard"), "{answer}");
    let mails = capture.flush(&mut daemon, START);
    assert!(
        to(&mails, ANN)[0]
            .body_text
            .contains("Send the GM your starting info")
    );
    // Orders are not read yet: the mail goes to the setup.
    let note = send(
        &mut daemon,
        mail(ANN, GM, "[SU] info", "s4@x", &(pw("Ann") + "M CV4")),
        START,
    );
    assert!(note.contains("refused"), "{note}");
    let ann = "Victory: F 4, N 1\nStart: Inn";
    send(
        &mut daemon,
        mail(ANN, GM, "[SU] info", "s5@x", &(pw("Ann") + ann)),
        START,
    );
    let data = realmgm::magic_realm::data::get().unwrap();
    let wizard = data.characters.iter().find(|c| c.name == "Wizard").unwrap();
    let spells: Vec<&str> = data
        .spells
        .iter()
        .filter(|s| {
            s.learnable() && realmgm::magic_realm::magic::spellbook::type_allowed(wizard, s).is_ok()
        })
        .take(usize::from(wizard.spells))
        .map(|s| s.name.as_str())
        .collect();
    let ben = format!(
        "Victory: G 3, F 2\nStart: Inn\nSpells: {}\nEnchanted: none",
        spells.join("; ")
    );
    send(
        &mut daemon,
        mail(BEN, GM, "[SU] info", "s6@x", &(pw("Ben") + &ben)),
        START,
    );
    let mails = capture.flush(&mut daemon, START);
    let gm = to(&mails, GM);
    assert!(gm.iter().any(
        |m| m.body_text.contains("Starting info of Ann (the Amazon)")
            && m.body_text.contains("Victory: GT 0, SP 0, F 4, N 1, G 0")
    ));
    assert!(gm.iter().any(|m| m.body_text.contains("setup is complete")
        || m.body_text.contains("sent the starting info")));
    assert!(
        !to(&mails, BEN)
            .iter()
            .any(|m| m.body_text.contains("F 4, N 1")),
        "Ann's victory requirements stay secret"
    );
    assert!(
        !to(&mails, BEN)
            .iter()
            .any(|m| m.body_text.contains("Send the GM your starting info")),
        "the request is sent once, not again after each answer"
    );
    daemon.turns().check_turn("SU", START).unwrap();
    let state = daemon
        .store
        .days()
        .load("SU", 0)
        .unwrap()
        .unwrap()
        .state
        .json()
        .clone();
    let characters: Vec<&str> = state["characters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(characters, vec!["Amazon", "Wizard"]);
    assert_eq!(state["characters"][0]["start"], "Inn");
    let players = daemon.store.campaigns().load("SU").unwrap().players;
    assert_eq!(players[1].character.as_deref(), Some("Wizard"));
    // Day 1 now takes orders.
    let note = send(
        &mut daemon,
        mail(ANN, GM, "[SU] o", "s7@x", &(pw("Ann") + "H, H")),
        START,
    );
    assert!(note.contains("accepted"), "{note}");
}

/// The shipped BIMR3 campaign set up by mail by its five players as seed
/// 003 says: the seed deals the tiles, each player places his own in turn
/// (following the legal place his turn's mail shows him), a player out of
/// tiles picks a character and the native group that equips him, then the
/// row-6 chits and the secret starting info; the game starts on day 1 with
/// that board, those characters and their equipment taken from the groups.
#[test]
fn the_shipped_bimr3_campaign_is_set_up_by_its_five_players_by_mail() {
    let characters = ["Amazon", "Berserker", "Black Knight", "Captain", "Dwarf"];
    set_up_a_shipped_campaign_by_mail("bimr3", &characters, "Victory: F 2, N 1, G 2");
}

/// BIMR5 the same way, with its 6 victory points in Midsummer and each
/// player naming his optional abilities (the Elf his form too).
#[test]
fn the_shipped_bimr5_campaign_is_set_up_by_its_players_by_mail() {
    let characters = ["Elf", "Captain", "Dwarf", "Druid"];
    set_up_a_shipped_campaign_by_mail("bimr5", &characters, "Victory: F 2, N 2, G 2");
}

fn set_up_a_shipped_campaign_by_mail(file: &str, wanted: &[&str], victory: &str) {
    use realmgm::magic_realm::setup::by_mail::{SetupByMail, Stage, supplying_groups};
    let tag = file.to_uppercase();
    let tag = tag.as_str();
    let mut daemon = support::daemon();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("campaigns/{file}.toml")),
    )
    .unwrap();
    let secrets = add_campaign(&mut daemon.store, "magic-realm", &text);
    let stored = daemon.store.campaigns().load(tag).unwrap();
    let email: std::collections::BTreeMap<String, String> = stored
        .players
        .iter()
        .map(|p| (p.name.clone(), p.email.to_string()))
        .collect();
    assert_eq!(email.len(), wanted.len());
    let gm = stored.campaign.gm.email.to_string();
    let data = realmgm::magic_realm::data::get().unwrap();
    let capture = Capture::default();
    daemon.turns().check_turn(tag, START).unwrap();
    let mut inbox = capture.flush(&mut daemon, START);
    let mut to_choose = wanted.iter();
    let mut count = 0;
    loop {
        let progress: SetupByMail = serde_json::from_value(
            daemon
                .store
                .campaigns()
                .setup_progress(tag)
                .unwrap()
                .unwrap(),
        )
        .unwrap();
        let (player, line) = match progress.stage() {
            Stage::Placing(player) => {
                // The player follows the example his turn's mail gives.
                let asked = to(&inbox, &email[&player]);
                let body = &asked.last().expect("the turn is announced").body_text;
                let line = body
                    .lines()
                    .find_map(|l| l.strip_prefix("One legal place, for example: "))
                    .unwrap_or_else(|| panic!("{body}"))
                    .to_string();
                assert!(body.contains("Your tiles: "), "{body}");
                (player, line)
            }
            Stage::Choosing(player) => {
                let asked = to(&inbox, &email[&player]);
                assert!(
                    asked
                        .last()
                        .unwrap()
                        .body_text
                        .contains("Equipment: <native group>"),
                    "{asked:?}"
                );
                let name = *to_choose.next().unwrap();
                let card = data.characters.iter().find(|c| c.name == name).unwrap();
                // A character without weapon or armour names no group.
                let group = supplying_groups(card, data)
                    .first()
                    .copied()
                    .unwrap_or("none");
                (player, format!("Character: {name}\nEquipment: {group}"))
            }
            Stage::PlacingVisitors(player) => {
                let chit = progress.chits_left(data)[0].0.clone();
                let place = progress.boxes_left(data)[0].clone();
                (player, format!("Visitor: {chit} in {place}"))
            }
            Stage::StartingInfo(waiting) => {
                let player = waiting[0].clone();
                let character = &progress.characters[&player];
                let card = data
                    .characters
                    .iter()
                    .find(|c| &c.name == character)
                    .unwrap();
                let start = card.start[0].label();
                let mut lines = format!("{victory}\nStart: {start}");
                let asked = progress.info_asked(&player, data);
                if asked.contains("Abilities:") {
                    lines.push_str("\nAbilities: none");
                }
                if asked.contains("Form:") {
                    lines.push_str("\nForm: Great");
                }
                if card.spells > 0 {
                    let spells = spells_for(card, data);
                    lines.push_str(&format!("\nSpells: {}", spells.join("; ")));
                }
                (player, lines)
            }
            Stage::Complete => break,
        };
        count += 1;
        let body = format!("Password: {}\n{line}", secrets[&player]);
        let note = send(
            &mut daemon,
            mail(
                &email[&player],
                &gm,
                "[BIMR3] setup",
                &format!("b{count}@x"),
                &body,
            ),
            START,
        );
        assert!(!note.contains("refused"), "{player}: {line}: {note}");
        inbox.extend(capture.flush(&mut daemon, START));
    }
    let progress: SetupByMail = serde_json::from_value(
        daemon
            .store
            .campaigns()
            .setup_progress(tag)
            .unwrap()
            .unwrap(),
    )
    .unwrap();
    daemon.turns().check_turn(tag, START).unwrap();
    let state = daemon
        .store
        .days()
        .load(tag, 0)
        .unwrap()
        .unwrap()
        .state
        .json()
        .clone();
    let built: Vec<serde_json::Value> = progress
        .placements
        .iter()
        .map(|p| serde_json::to_value(p).unwrap())
        .collect();
    assert_eq!(state["board"]["placements"].as_array(), Some(&built));
    let mut characters: Vec<&str> = state["characters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    characters.sort_unstable();
    let mut expected = wanted.to_vec();
    expected.sort_unstable();
    assert_eq!(characters, expected);
    // Each named group's stock gave up the counters it held of its
    // character's weapon and armour.
    let equipment = progress.equipment_groups();
    assert!(!equipment.is_empty());
    let counters = |holdings: &serde_json::Value| -> usize {
        holdings
            .as_object()
            .unwrap()
            .values()
            .flat_map(|items| items.as_array().unwrap())
            .filter(|i| i["kind"] == "weapon" || i["kind"] == "armor")
            .count()
    };
    let all = data.weapons.iter().map(|w| w.start.len()).sum::<usize>()
        + data
            .armor
            .iter()
            .filter(|a| !a.not_in_standard_setup)
            .map(|a| a.start.len())
            .sum::<usize>();
    // What the setup card gives each holder, then each character's items
    // taken from his group's holders in turn.
    let mut stock: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for w in &data.weapons {
        for holder in &w.start {
            stock.entry(holder).or_default().push(&w.name);
        }
    }
    for a in data.armor.iter().filter(|a| !a.not_in_standard_setup) {
        for holder in &a.start {
            stock.entry(holder).or_default().push(&a.name);
        }
    }
    let mut taken = 0;
    for (character, group) in &equipment {
        let card = data
            .characters
            .iter()
            .find(|c| &c.name == character)
            .unwrap();
        let group = data.natives.iter().find(|g| &g.name == group).unwrap();
        for item in card.weapon.iter().chain(&card.armor) {
            for holder in group.stock_holders() {
                let items = stock.entry(holder).or_default();
                if let Some(at) = items.iter().position(|i| i == item) {
                    items.remove(at);
                    taken += 1;
                    break;
                }
            }
        }
    }
    assert!(taken > 0);
    assert_eq!(all - counters(&state["holdings"]), taken, "{equipment:?}");
    assert!(
        state["weather"]["chit"].is_u64(),
        "Seasons and Weather: Autumn"
    );
    // Day 1 takes orders.
    let erin = &stored.players[0];
    let note = send(
        &mut daemon,
        mail(
            &email[&erin.name],
            &gm,
            &format!("[{tag}] orders"),
            "o1@x",
            &format!("Password: {}\nH, H", secrets[&erin.name]),
        ),
        START,
    );
    assert!(note.contains("accepted"), "{note}");
}

/// Learnable spells of the types `card` may record, as many as he records.
fn spells_for(
    card: &realmgm::magic_realm::data::characters::Character,
    data: &realmgm::magic_realm::data::GameData,
) -> Vec<String> {
    let types = card.spell_types();
    data.spells
        .iter()
        .filter(|s| s.learnable() && s.spell_type.is_some_and(|t| types.contains(&t)))
        .take(usize::from(card.spells))
        .map(|s| s.name.clone())
        .collect()
}

#[test]
fn a_polite_orders_mail_is_read_and_its_courtesies_named() {
    let mut daemon = support::daemon();
    let secrets = magic_realm(&mut daemon, "MR", false);
    let capture = Capture::default();
    daemon.turns().check_turn("MR", START).unwrap();
    let body = format!(
        "Password: {}\nHi GM,\n\nM CV4, H / S (for hidden enemies).\n\nThanks,\nAnn",
        secrets["Ann"]
    );
    let note = send(&mut daemon, mail(ANN, GM, "[MR] o", "o@x", &body), START);
    assert!(note.contains("accepted"), "{note}");
    let mails = capture.flush(&mut daemon, START);
    let confirmation = to(&mails, ANN).last().unwrap().body_text.clone();
    for said in [
        "(\"Hi GM,\") was read as a greeting and left out",
        "(\"Thanks,\") was read as a sign-off and left out",
        "(\"Ann\") was read as a name under the sign-off and left out",
    ] {
        assert!(confirmation.contains(said), "{said}:\n{confirmation}");
    }
    // A real error below a greeting still names the line the player wrote.
    let body = format!("Password: {}\nHello,\nM CV4, H, Q", secrets["Ann"]);
    send(
        &mut daemon,
        mail(ANN, GM, "[MR] o", "o2@x", &body),
        START + 1,
    );
    let mails = capture.flush(&mut daemon, START + 1);
    let confirmation = to(&mails, ANN).last().unwrap().body_text.clone();
    assert!(confirmation.contains("line 3"), "{confirmation}");
}

#[test]
fn a_mail_without_a_tag_goes_to_the_senders_one_campaign_or_asks_which() {
    let (mut daemon, secrets) = two_players("");
    let capture = Capture::default();
    let body = format!("Password: {}\nguess 7", secrets["Ann"]);
    let note = send(
        &mut daemon,
        mail(ANN, GM, "my orders", "u1@x", &body),
        START,
    );
    assert!(note.contains("accepted"), "{note}");
    let mails = capture.flush(&mut daemon, START);
    let confirmation = to(&mails, ANN).last().unwrap().body_text.clone();
    assert!(
        confirmation.contains("it was read for [G1], the one campaign you play in"),
        "{confirmation}"
    );
    // Ann joins a second campaign: an untagged mail is now answered with
    // the choice, and read for neither.
    let text = campaign_text("G2", &[("Ann", ANN)], "");
    let second = add_campaign(&mut daemon.store, "guess", &text);
    daemon.turns().check_turn("G2", START).unwrap();
    let body = format!("Password: {}\nguess 9", second["Ann"]);
    let note = send(
        &mut daemon,
        mail(ANN, GM, "my orders", "u2@x", &body),
        START + 1,
    );
    assert!(note.contains("asked which of [G1], [G2]"), "{note}");
    let mails = capture.flush(&mut daemon, START + 1);
    let answer = to(&mails, ANN).last().unwrap().body_text.clone();
    assert!(
        answer.contains("you play in several campaigns here: [G1], [G2]"),
        "{answer}"
    );
    // A stranger without a tag is still not answered.
    let note = send(
        &mut daemon,
        mail("eve@x.test", GM, "hello", "u3@x", "guess 1"),
        START + 2,
    );
    assert!(note.contains("not answered"), "{note}");
    assert!(to(&capture.flush(&mut daemon, START + 2), "eve@x.test").is_empty());
}

/// The daemon routes through `mail::route`: a tag a filter put first in
/// the subject does not hide the campaign's own, and a plus-address counts
/// only on the GM address of the campaign it names. Ann plays in two
/// campaigns, so the sender alone cannot route her mail.
#[test]
fn a_foreign_subject_tag_and_another_gms_plus_address_do_not_misroute() {
    let (mut daemon, _) = two_players("");
    let text = campaign_text("G2", &[("Ann", ANN)], "");
    let second = add_campaign(&mut daemon.store, "guess", &text);
    daemon.turns().check_turn("G2", START).unwrap();
    let body = format!("Password: {}\nguess 9", second["Ann"]);
    let raw = mail(
        ANN,
        "judge+g1@realmgm.test",
        "[SPAM] [G2] orders",
        "r1@x",
        &body,
    );
    let note = send(&mut daemon, raw, START);
    assert!(note.contains("accepted"), "{note}");
    let log = daemon.store.control().gm_log(Some("G1")).unwrap();
    assert!(!log.iter().any(|e| e.kind == "untagged"), "{log:?}");
}

#[test]
fn a_player_seated_before_the_game_is_set_up_is_not_told_an_empty_list() {
    const ERIN: &str = "erin@realmgm.test";
    let mut daemon = support::daemon();
    magic_realm(&mut daemon, "MR", false);
    let capture = Capture::default();
    daemon
        .seats()
        .add_player("MR", "Erin", ERIN, None, START)
        .unwrap();
    let welcome = &to(&capture.flush(&mut daemon, START), ERIN)[0].body_text;
    assert!(
        welcome.contains("Choose one the other players have not chosen.")
            && !welcome.contains("Nobody plays: ."),
        "{welcome}"
    );
}

#[test]
fn a_player_seated_mid_game_enters_at_the_inn_and_a_bad_seat_is_refused_at_once() {
    const ERIN: &str = "erin@realmgm.test";
    let mut daemon = support::daemon();
    magic_realm(&mut daemon, "MR", false);
    let capture = Capture::default();
    daemon.turns().check_turn("MR", START).unwrap();
    daemon.turns().process_turn("MR", START + 10).unwrap();
    // A typo and a taken character are refused before anything is stored.
    let typo = daemon
        .seats()
        .add_player("MR", "Erin", ERIN, Some("Elff"), START + 20)
        .unwrap_err();
    assert!(format!("{typo:#}").contains("did you mean Elf"), "{typo:#}");
    let taken = daemon
        .seats()
        .add_player("MR", "Erin", ERIN, Some("amazon"), START + 20)
        .unwrap_err();
    assert!(
        format!("{taken:#}").contains("the Amazon is already in the game"),
        "{taken:#}"
    );
    assert_eq!(daemon.campaign("MR").unwrap().players.len(), 1);
    // Seated without a character, Erin chooses by mail; nobody waits for
    // him meanwhile.
    let made = daemon
        .seats()
        .add_player("MR", "Erin", ERIN, None, START + 30)
        .unwrap();
    let mails = capture.flush(&mut daemon, START + 30);
    let welcome = &to(&mails, ERIN)[0].body_text;
    assert!(welcome.contains("Character: NAME"), "{welcome}");
    assert!(
        welcome.contains("Nobody plays: ") && welcome.contains("Elf"),
        "{welcome}"
    );
    assert!(
        !welcome.contains("Amazon,"),
        "the Amazon is played: {welcome}"
    );
    let status = daemon.gm().status("MR").unwrap();
    assert!(
        status.contains("Erin: has not chosen a character yet"),
        "{status}"
    );
    assert!(!status.contains("Erin: no orders"), "{status}");
    send(
        &mut daemon,
        mail(
            ERIN,
            GM,
            "[MR] o",
            "e0@x",
            &format!("Password: {}\nCharacter: Elff", made.secret),
        ),
        START + 35,
    );
    let mails = capture.flush(&mut daemon, START + 35);
    let refused = &to(&mails, ERIN)[0].body_text;
    assert!(refused.contains("did you mean Elf"), "{refused}");
    assert!(
        daemon.campaign("MR").unwrap().players[1]
            .character
            .is_none()
    );
    // His choice and his orders in one mail: he is awaited for day 2.
    let body = format!("Password: {}\nCharacter: elf\nH, H", made.secret);
    send(
        &mut daemon,
        mail(ERIN, GM, "[MR] o", "e1@x", &body),
        START + 40,
    );
    let mails = capture.flush(&mut daemon, START + 40);
    let chosen = &to(&mails, ERIN)[0].body_text;
    assert!(
        chosen.contains("You play the Elf, who enters the Realm at the Inn as day 2 begins"),
        "{chosen}"
    );
    assert!(chosen.contains("accepted"), "{chosen}");
    let status = daemon.gm().status("MR").unwrap();
    assert!(status.contains("Erin: orders in"), "{status}");
    daemon.turns().process_turn("MR", START + 50).unwrap();
    let mails = capture.flush(&mut daemon, START + 50);
    let report = to(&mails, ERIN).last().unwrap().body_text.clone();
    assert!(
        report.contains("The Elf (Erin) enters the Realm at the Inn"),
        "{report}"
    );
    let ann = to(&mails, ANN).last().unwrap().body_text.clone();
    assert!(
        ann.contains("The Elf (Erin) enters the Realm at the Inn"),
        "{ann}"
    );
    // A rollback re-runs the day with the same arrival and the same hashes.
    daemon.gm().rollback("MR", 1, START + 60).unwrap();
    let rerun = daemon.turns().process_turn("MR", START + 70).unwrap();
    assert!(
        matches!(
            rerun,
            realmgm::daemon::turns::process::TurnOutcome::Processed { day: 2, .. }
        ),
        "{rerun:?}"
    );
}

#[test]
fn a_game_that_takes_no_late_players_refuses_a_seat_once_begun() {
    let mut daemon = support::daemon();
    let text = campaign_text("G1", &[("Ann", ANN)], "");
    add_campaign(&mut daemon.store, "guess-broken", &text);
    daemon.turns().check_turn("G1", START).unwrap();
    let refused = daemon
        .seats()
        .add_player("G1", "Cat", "cat@realmgm.test", None, START + 20)
        .unwrap_err();
    assert!(
        format!("{refused:#}").contains("takes no new players once the game has begun"),
        "{refused:#}"
    );
}

#[test]
fn every_player_gets_a_start_report_before_day_1() {
    let mut daemon = support::daemon();
    let secrets = magic_realm(&mut daemon, "MR", true);
    let capture = Capture::default();
    daemon.turns().check_turn("MR", START).unwrap();
    let mails = capture.flush(&mut daemon, START);
    let ann = to(&mails, ANN);
    assert_eq!(ann.len(), 1, "one start report each");
    assert_eq!(ann[0].subject, "[MR] The game begins: you play the Amazon");
    let start = &ann[0].body_text;
    for said in [
        "== The game begins ==",
        "You play the Amazon, starting at",
        "Rules in force:\n  - unlimited_communication: ",
        "== Your clearing ==",
        "Activities: H / H / H / H",
        "Send your orders for day 1 by 2030-01-01 20:00 UTC",
    ] {
        assert!(start.contains(said), "{said}:\n{start}");
    }
    // The Dwarf has no sunlight phases: his form asks for two.
    let ben = &to(&mails, BEN)[0].body_text;
    assert!(ben.contains("Activities: H / H\n"), "{ben}");
    // `report?` before day 1 answers with the start report.
    let body = format!("Password: {}", secrets["Ann"]);
    send(
        &mut daemon,
        mail(ANN, GM, "[MR] report?", "r0@x", &body),
        START + 1,
    );
    let again = &to(&capture.flush(&mut daemon, START + 1), ANN)[0].body_text;
    assert!(
        again.contains("The game begins: you play the Amazon"),
        "{again}"
    );
}

#[test]
fn the_gms_announcement_is_mailed_at_once_and_opens_the_days_reports() {
    let mut daemon = support::daemon();
    magic_realm(&mut daemon, "MR", true);
    let capture = Capture::default();
    daemon.turns().check_turn("MR", START).unwrap();
    capture.flush(&mut daemon, START);
    let secret = daemon.store.control_mut().new_gm_secret("MR").unwrap();
    let body =
        format!("Password: {secret}\nThe bridge at the Crag is down: ford the river instead.");
    let note = send(
        &mut daemon,
        mail(GM, GM, "[MR] gm announce", "a1@x", &body),
        START + 1,
    );
    assert!(note.contains("GM command gm announce"), "{note}");
    let mails = capture.flush(&mut daemon, START + 1);
    let answer = &to(&mails, GM)[0].body_text;
    assert!(answer.contains("announced to 2 players"), "{answer}");
    for player in [ANN, BEN] {
        let news = &to(&mails, player)[0].body_text;
        assert!(news.contains("The bridge at the Crag is down"), "{news}");
        assert!(
            news.contains("The report of day 1 opens with it too."),
            "{news}"
        );
    }
    // An empty announcement is refused with what to do.
    let body = format!("Password: {secret}");
    send(
        &mut daemon,
        mail(GM, GM, "[MR] gm announce", "a2@x", &body),
        START + 2,
    );
    let answer = &to(&capture.flush(&mut daemon, START + 2), GM)[0].body_text;
    assert!(answer.contains("the announcement is empty"), "{answer}");
    daemon.turns().process_turn("MR", START + 10).unwrap();
    let mails = capture.flush(&mut daemon, START + 10);
    let report = to(&mails, ANN).last().unwrap().body_text.clone();
    let news = report
        .find("== From the GM ==\nThe bridge at the Crag is down")
        .expect(&report);
    assert!(
        news < report.find("== Your day ==").unwrap(),
        "the news comes first:\n{report}"
    );
    let history = to(&mails, GM).last().unwrap().body_text.clone();
    assert!(
        history.contains("== Your announcements ==\nThe bridge"),
        "{history}"
    );
}

#[test]
fn a_player_silent_for_days_is_reported_to_the_gm_and_then_his_seat_offered() {
    let (mut daemon, secrets) = two_players("");
    let capture = Capture::default();
    capture.flush(&mut daemon, START);
    let mut notices = Vec::new();
    for day in 1..=5u32 {
        let now = START + i64::from(day) * 10;
        let body = format!("Password: {}\nguess {day}", secrets["Ann"]);
        send(
            &mut daemon,
            mail(ANN, GM, "[G1] o", &format!("s{day}@x"), &body),
            now,
        );
        daemon.turns().process_turn("G1", now + 1).unwrap();
        for m in to(&capture.flush(&mut daemon, now + 1), GM) {
            if m.subject.contains("Ben sends no orders") {
                notices.push((day, m.body_text));
            }
        }
    }
    let days: Vec<u32> = notices.iter().map(|(d, _)| *d).collect();
    assert_eq!(
        days,
        [2, 4],
        "told after 2 days, the seat offered after 4: {notices:?}"
    );
    assert!(
        notices[0]
            .1
            .contains("no orders for 2 days in a row (days 1 and 2)"),
        "{}",
        notices[0].1
    );
    assert!(
        notices[1].1.contains("`gm replace Ben ADDRESS`"),
        "{}",
        notices[1].1
    );
    assert!(
        notices[1].1.contains("Nothing changes until you say so."),
        "{}",
        notices[1].1
    );
    assert!(
        !notices.iter().any(|(_, text)| text.contains("Ann ")),
        "Ann sent orders"
    );
}

#[test]
fn a_late_joiner_is_not_counted_silent_on_a_day_played_before_he_joined() {
    let (mut daemon, secrets) = two_players("");
    let capture = Capture::default();
    let mut notices = Vec::new();
    for day in 1..=3u32 {
        let now = START + i64::from(day) * 10;
        if day == 2 {
            daemon
                .seats()
                .add_player("G1", "Cy", "cy@example.org", None, now - 5)
                .unwrap();
        }
        for (player, address) in [("Ann", ANN), ("Ben", BEN)] {
            let body = format!("Password: {}\nguess {day}", secrets[player]);
            send(
                &mut daemon,
                mail(address, GM, "[G1] o", &format!("{player}{day}@x"), &body),
                now,
            );
        }
        daemon.turns().process_turn("G1", now + 1).unwrap();
        for m in to(&capture.flush(&mut daemon, now + 1), GM) {
            if m.subject.contains("Cy sends no orders") {
                notices.push((day, m.body_text));
            }
        }
    }
    let days: Vec<u32> = notices.iter().map(|(d, _)| *d).collect();
    assert_eq!(days, [3], "silent on days 2 and 3 only: {notices:?}");
    assert!(notices[0].1.contains("(days 2 and 3)"), "{}", notices[0].1);
}

#[test]
fn a_player_away_for_one_day_is_told_of_that_day_in_the_singular() {
    let (mut daemon, secrets) = two_players("");
    let capture = Capture::default();
    let body = format!("Password: {}\naway until 2030-01-05", secrets["Ben"]);
    send(
        &mut daemon,
        mail(BEN, GM, "[G1] away", "w1@x", &body),
        START,
    );
    let body = format!("Password: {}\nguess 1", secrets["Ann"]);
    send(&mut daemon, mail(ANN, GM, "[G1] o", "w2@x", &body), START);
    let done = daemon.turns().check_turn("G1", START + 6 * 60).unwrap();
    assert_eq!(done, "processed day 1 early");
    capture.flush(&mut daemon, START + 6 * 60);
    let back = 1_893_801_600; // 2030-01-05 00:00 UTC
    daemon.turns().check_turn("G1", back).unwrap();
    let mails = capture.flush(&mut daemon, back);
    let welcome = to(&mails, BEN).last().unwrap().body_text.clone();
    assert!(
        welcome.contains("While you were away, day 1 was played for you")
            && welcome.contains("Its report was mailed to you"),
        "{welcome}"
    );
}

#[test]
fn a_player_away_is_played_for_without_reminders_and_told_what_he_missed() {
    let (mut daemon, secrets) = two_players("");
    let capture = Capture::default();
    let body = format!("Password: {}\naway until 2030-01-05", secrets["Ben"]);
    send(
        &mut daemon,
        mail(BEN, GM, "[G1] away", "w1@x", &body),
        START,
    );
    let answer = &to(&capture.flush(&mut daemon, START), BEN)[0].body_text;
    assert!(
        answer.contains("You are away until 2030-01-05 00:00 UTC"),
        "{answer}"
    );
    // Three days run early on Ann's orders alone: Ben is not waited for,
    // reminded, or reported to the GM.
    let mut now = START;
    for day in 1..=3u32 {
        let body = format!("Password: {}\nguess {day}", secrets["Ann"]);
        send(
            &mut daemon,
            mail(ANN, GM, "[G1] o", &format!("w{day}@x"), &body),
            now,
        );
        now += 6 * 60;
        let done = daemon.turns().check_turn("G1", now).unwrap();
        assert_eq!(done, format!("processed day {day} early"));
        let mails = capture.flush(&mut daemon, now);
        assert!(
            !to(&mails, BEN)
                .iter()
                .any(|m| m.body_text.contains("reminder"))
        );
        assert!(
            !to(&mails, GM)
                .iter()
                .any(|m| m.subject.contains("Ben sends no orders"))
        );
    }
    // Past the date he is welcomed back with the days he missed.
    let back = 1_893_801_600; // 2030-01-05 00:00 UTC
    daemon.turns().check_turn("G1", back).unwrap();
    let mails = capture.flush(&mut daemon, back);
    let welcome = to(&mails, BEN).last().unwrap().body_text.clone();
    assert!(
        welcome.contains("While you were away, days 1 to 3 were played for you"),
        "{welcome}"
    );
    assert!(daemon.store.players().absences("G1").unwrap().is_empty());
    // A date that does not read gets an answer saying how to write it.
    let body = format!("Password: {}\naway until soon", secrets["Ann"]);
    send(
        &mut daemon,
        mail(ANN, GM, "[G1] away", "w9@x", &body),
        back + 1,
    );
    let answer = &to(&capture.flush(&mut daemon, back + 1), ANN)[0].body_text;
    assert!(answer.contains("e.g. `away until 2030-01-15`"), "{answer}");
}
