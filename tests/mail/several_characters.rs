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
