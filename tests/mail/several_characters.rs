//! Multiple Characters by mail (3.1 10.E.4): a player the campaign file
//! gives two characters sends one mail with each one's orders under its own
//! `Orders for:` line, and gets one report joining each one's.

use crate::support;

use realmgm::daemon::turns::process::TurnOutcome;
use support::capture::{Capture, to};
use support::*;

const ANN: &str = "ann@realmgm.test";
const BEN: &str = "ben@realmgm.test";
const GM: &str = "gm@realmgm.test";

const CAMPAIGN: &str = "name = \"MC\"\ngame = \"magic-realm\"\nseed = 21\n\
    rules = [\"multiple_characters\"]\n\
    [gm]\nemail = \"gm@realmgm.test\"\n\
    [schedule]\nfirst_deadline = \"2030-01-01\"\nat = \"20:00\"\nevery_hours = 24\n\
    [[players]]\nname = \"Ann\"\nemail = \"ann@realmgm.test\"\ncharacter = \"Amazon\"\n\
    more_characters = [\"Berserker\"]\n\
    [[players]]\nname = \"Ben\"\nemail = \"ben@realmgm.test\"\ncharacter = \"Wizard\"\n";

#[test]
fn a_player_of_two_characters_orders_both_in_one_mail_and_reads_both_3_1_10_e_4_4() {
    let mut daemon = daemon();
    let secrets = add_campaign(&mut daemon.store, "magic-realm", CAMPAIGN);
    let capture = Capture::default();
    daemon.turns().check_turn("MC", START).unwrap();
    let start = capture.flush(&mut daemon, START);
    let subjects: Vec<String> = to(&start, ANN).iter().map(|m| m.subject.clone()).collect();
    assert!(
        subjects
            .iter()
            .any(|s| s.contains("you play the Amazon and the Berserker")),
        "{subjects:?}"
    );
    let send = |daemon: &mut realmgm::daemon::Daemon, from: &str, who: &str, n: i64, body: &str| {
        let body = format!("Password: {}\n{body}", secrets[who]);
        daemon
            .mail_in()
            .ingest(
                &mail(from, GM, "[MC] orders", &format!("{who}{n}@x"), &body),
                START + n,
            )
            .unwrap();
        let mails = capture.flush(daemon, START + n);
        to(&mails, from).last().unwrap().body_text.clone()
    };
    // Orders without a character's line are refused with what to write.
    let refused = send(&mut daemon, ANN, "Ann", 1, "M EV2, H, S, S");
    assert!(refused.contains("could not be read"), "{refused}");
    assert!(
        refused.contains("'Orders for: Amazon' and 'Orders for: Berserker'"),
        "{refused}"
    );
    let accepted = send(
        &mut daemon,
        ANN,
        "Ann",
        2,
        "Orders for: Amazon\nR\n\nOrders for: Berserker\nH, H\n\nThanks!",
    );
    assert!(accepted.contains("are accepted"), "{accepted}");
    assert!(accepted.contains("Orders for: Berserker"), "{accepted}");
    let ben = send(&mut daemon, BEN, "Ben", 3, "R");
    assert!(ben.contains("are accepted"), "{ben}");
    let outcome = daemon.turns().process_turn("MC", START + 60).unwrap();
    assert!(
        matches!(outcome, TurnOutcome::Processed { day: 1, .. }),
        "{outcome:?}"
    );
    let mails = capture.flush(&mut daemon, START + 120);
    let reports = to(&mails, ANN);
    let report = reports
        .iter()
        .find(|m| m.subject.contains("Day 1 report"))
        .expect("Ann's report");
    assert!(
        report
            .subject
            .contains("Day 1 report for the Amazon and the Berserker"),
        "{}",
        report.subject
    );
    let text = &report.body_text;
    let amazon = text
        .find("==== The Amazon ====")
        .expect("the Amazon's part");
    let berserker = text
        .find("==== The Berserker ====")
        .expect("the Berserker's part");
    assert!(amazon < berserker);
    // Each part is his own day: the Amazon rested, the Berserker hid.
    assert!(text[amazon..berserker].contains("1. R: rests"), "{text}");
    assert!(
        text[berserker..].contains("Recorded: H / H\n  1. H: hides"),
        "{text}"
    );
    assert!(
        !text[amazon..berserker].contains("Recorded: H / H"),
        "{text}"
    );
    // Each part's orders form is headed as the next mail needs it.
    assert!(
        text[berserker..].contains("Orders for: Berserker\n# Orders of the Berserker for day 2."),
        "{text}"
    );
    assert_eq!(
        reports
            .iter()
            .filter(|m| m.subject.contains("Day 1"))
            .count(),
        1,
        "one report mail for Ann"
    );
}

/// Ann plays two characters and Ben one, all chosen by mail.
const BY_MAIL: &str = "name = \"MS\"\ngame = \"magic-realm\"\nseed = 21\n\
    rules = [\"multiple_characters\"]\n\
    [gm]\nemail = \"gm@realmgm.test\"\n\
    [schedule]\nfirst_deadline = \"2030-01-01\"\nat = \"20:00\"\nevery_hours = 24\n\
    [mail]\nsetup_by_mail = true\n\
    [[players]]\nname = \"Ann\"\nemail = \"ann@realmgm.test\"\nmore_characters = 1\n\
    [[players]]\nname = \"Ben\"\nemail = \"ben@realmgm.test\"\n";

/// A player of two characters chooses them by mail one a turn, the round
/// going to the other player between (3.1 10.E.4.2), then sends each one's
/// starting info under its `Orders for:` line, the second recording a
/// victory point more (10.E.4.3); the game starts with both in their seats.
#[test]
fn a_player_of_two_characters_chooses_both_by_mail_3_1_10_e_4_2() {
    let mut daemon = daemon();
    let secrets = add_campaign(&mut daemon.store, "magic-realm", BY_MAIL);
    let capture = Capture::default();
    let done = daemon.turns().check_turn("MS", START).unwrap();
    assert!(done.contains("Ann chooses a character next"), "{done}");
    capture.flush(&mut daemon, START);
    let send = |daemon: &mut realmgm::daemon::Daemon, from: &str, who: &str, n: i64, body: &str| {
        let body = format!("Password: {}\n{body}", secrets[who]);
        daemon
            .mail_in()
            .ingest(
                &mail(from, GM, "[MS] setup", &format!("{who}{n}@x"), &body),
                START + n,
            )
            .unwrap();
        capture.flush(daemon, START + n)
    };
    let mails = send(&mut daemon, ANN, "Ann", 1, "Character: Amazon");
    let answer = &to(&mails, ANN)[0].body_text;
    assert!(
        answer.contains("You play the Amazon, character 1 of your 2. Ben chooses"),
        "{answer}"
    );
    send(&mut daemon, BEN, "Ben", 2, "Character: Dwarf");
    let status = daemon.gm().status("MS").unwrap();
    assert!(status.contains("Ann chooses a character next"), "{status}");
    let mails = send(&mut daemon, ANN, "Ann", 3, "Character: Berserker");
    let asked = to(&mails, ANN)
        .last()
        .expect("Ann's request for starting info")
        .body_text
        .clone();
    assert!(
        asked.contains("Orders for: Amazon\n  Victory:")
            && asked.contains("Orders for: Berserker\n  Victory:")
            && asked.contains("(6 points in all: one more"),
        "{asked}"
    );
    // The second character's points are one more; nothing is recorded.
    let mails = send(
        &mut daemon,
        ANN,
        "Ann",
        4,
        "Orders for: Amazon\nVictory: F 5\nStart: Inn\n\nOrders for: Berserker\nVictory: G 5\nStart: Inn",
    );
    let refused = &to(&mails, ANN)[0].body_text;
    assert!(
        refused.contains("Nothing was recorded")
            && refused
                .contains("the Berserker: Victory: the points add up to 5; they must add up to 6"),
        "{refused}"
    );
    let mails = send(
        &mut daemon,
        ANN,
        "Ann",
        5,
        "Start: Inn\n\nOrders for: Amazon\nVictory: F 5\nStart: Inn\n\nOrders for: Berserker\nVictory: G 6\nStart: Inn",
    );
    let refused = &to(&mails, ANN)[0].body_text;
    assert!(
        refused.contains("comes before the first 'Orders for:' line"),
        "{refused}"
    );
    let mails = send(
        &mut daemon,
        ANN,
        "Ann",
        6,
        "Orders for: Amazon\nVictory: F 5\nStart: Inn\n\nOrders for: Berserker\nVictory: G 6\nStart: Inn",
    );
    assert!(
        to(&mails, ANN)[0]
            .body_text
            .contains("Starting info of the Berserker recorded"),
        "{:?}",
        to(&mails, ANN)
    );
    let gm = to(&mails, GM);
    assert!(
        gm.iter().any(
            |m| m.body_text.contains("Starting info of Ann (the Berserker)")
                && m.body_text.contains("Victory: GT 0, SP 0, F 0, N 0, G 6")
        ),
        "{gm:?}"
    );
    send(&mut daemon, BEN, "Ben", 7, "Victory: N 5\nStart: Inn");
    daemon.turns().check_turn("MS", START + 8).unwrap();
    let state = daemon
        .store
        .days()
        .load("MS", 0)
        .unwrap()
        .expect("the game started")
        .state
        .json()
        .clone();
    let seats: Vec<(&str, &str, &str)> = state["characters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap(),
                c["player"].as_str().unwrap(),
                c["controller"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        seats,
        [
            ("Amazon", "Ann/1", "Ann"),
            ("Berserker", "Ann/2", "Ann"),
            ("Dwarf", "Ben", "-")
        ]
    );
    assert_eq!(state["victory_requirements"]["Berserker"]["gold"], 6);
    // Day 1 takes each character's orders under his line.
    let mails = send(
        &mut daemon,
        ANN,
        "Ann",
        9,
        "Orders for: Amazon\nR\n\nOrders for: Berserker\nH",
    );
    assert!(
        to(&mails, ANN)
            .last()
            .unwrap()
            .body_text
            .contains("are accepted"),
        "{:?}",
        to(&mails, ANN)
    );
}
