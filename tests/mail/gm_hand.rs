//! The GM's hand on a running Magic Realm campaign:
//! rulings made on the command line and by mail, carried out as the next
//! day begins and read by the players they concern, replayed after a
//! rollback; a seat handed to a new player and a new character; a player
//! leaving.

use crate::support;

use realmgm::daemon::Daemon;
use realmgm::game::GmRuling;
use support::capture::{Capture, to};
use support::*;

const ANN: &str = "ann@realmgm.test";
const BEN: &str = "ben@realmgm.test";
const CY: &str = "cy@realmgm.test";
const GM: &str = "gm@realmgm.test";

/// Ann plays the Amazon and Ben the Dwarf; day 1 is processed.
fn running() -> (Daemon, Capture) {
    let mut daemon = support::daemon();
    let text = campaign_text("MR", &[("Ann", ANN), ("Ben", BEN)], "")
        .replace("Annchar", "Amazon")
        .replace("Benchar", "Dwarf");
    add_campaign(&mut daemon.store, "magic-realm", &text);
    let capture = Capture::default();
    daemon.turns().check_turn("MR", START).unwrap();
    daemon.turns().process_turn("MR", START + 10).unwrap();
    capture.flush(&mut daemon, START + 10);
    (daemon, capture)
}

fn ruling(text: &str, why: &str) -> GmRuling {
    GmRuling {
        text: text.to_string(),
        why: why.to_string(),
    }
}

fn last_report(mails: &[realmgm::mail::inbound::InboundMail], address: &str) -> String {
    to(mails, address)
        .last()
        .map(|m| m.body_text.clone())
        .unwrap_or_default()
}

#[test]
fn a_ruling_reaches_only_those_it_concerns_and_a_rerun_repeats_it() {
    let (mut daemon, capture) = running();
    let refused = daemon
        .gm()
        .rule("MR", &ruling("fame Amazn +3", ""), START + 20)
        .unwrap_err();
    assert!(
        format!("{refused:#}").contains("did you mean Amazon"),
        "{refused:#}"
    );
    let answer = daemon
        .gm()
        .rule(
            "MR",
            &ruling("fame Amazon +3", "for the dragon slain off the record"),
            START + 20,
        )
        .unwrap();
    assert!(answer.contains("carried out as day 2 begins"), "{answer}");
    daemon
        .gm()
        .rule(
            "MR",
            &ruling("gold Dwarf -5", "a debt to the Inn"),
            START + 21,
        )
        .unwrap();
    let withdrawn = daemon
        .gm()
        .rule("MR", &ruling("notoriety Dwarf +9", ""), START + 22)
        .unwrap();
    let id: i64 = withdrawn
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("the answer names the ruling's id");
    daemon.gm().withdraw_ruling("MR", id, START + 23).unwrap();
    let status = daemon.gm().status("MR").unwrap();
    assert!(
        status.contains("fame Amazon +3 (for the dragon slain off the record)"),
        "{status}"
    );
    assert!(!status.contains("notoriety Dwarf"), "{status}");
    daemon.turns().process_turn("MR", START + 30).unwrap();
    let mails = capture.flush(&mut daemon, START + 30);
    let ann = last_report(&mails, ANN);
    let ben = last_report(&mails, BEN);
    assert!(
        ann.contains("GM ruling: the Amazon gains 3 fame (for the dragon slain off the record)."),
        "{ann}"
    );
    assert!(
        !ann.contains("debt"),
        "Ann does not read the Dwarf's ruling: {ann}"
    );
    assert!(
        ben.contains("GM ruling: the Dwarf loses 5 gold (a debt to the Inn)."),
        "{ben}"
    );
    assert!(
        !ben.contains("dragon") && !ben.contains("gains 9 notoriety"),
        "{ben}"
    );
    assert!(
        !ann.contains("replaces the one mailed before"),
        "a first run replaces nothing: {ann}"
    );
    let first = daemon.store.days().runs("MR", 2).unwrap();
    daemon.gm().rollback("MR", 1, START + 40).unwrap();
    daemon.turns().process_turn("MR", START + 50).unwrap();
    // Each report of the day run again says it replaces the one mailed before.
    let mails = capture.flush(&mut daemon, START + 50);
    assert!(
        to(&mails, GM)
            .iter()
            .any(|m| m.subject.contains("(replaces the earlier one)")),
        "the GM's history of day 2 too"
    );
    for address in [ANN, BEN] {
        let report = to(&mails, address)
            .into_iter()
            .last()
            .unwrap_or_else(|| panic!("{address} gets day 2 again"));
        assert!(
            report.subject.contains("(replaces the earlier one)"),
            "{}",
            report.subject
        );
        assert!(
            report.body_text.contains(
                "replaces the one mailed before: the GM rolled the game back and ran day 2 again"
            ),
            "{}",
            report.body_text
        );
    }
    let runs = daemon.store.days().runs("MR", 2).unwrap();
    assert_eq!(runs.len(), 2, "day 2 ran twice");
    assert_eq!(runs[1].state_hash, first[0].state_hash);
    assert_eq!(runs[1].orders_hash, first[0].orders_hash);
}

#[test]
fn rulings_by_mail_are_answered_one_by_one() {
    let (mut daemon, capture) = running();
    let secret = daemon.store.control_mut().new_gm_secret("MR").unwrap();
    let body = format!("Password: {secret}\nheal Amazon -- the healer came by\nfame Nobody +1\n");
    daemon
        .mail_in()
        .ingest(&mail(GM, GM, "[MR] gm rule", "r1@x", &body), START + 20)
        .unwrap();
    let mails = capture.flush(&mut daemon, START + 20);
    let answer = last_report(&mails, GM);
    assert!(
        answer.contains("for day 2: heal Amazon (the healer came by)"),
        "{answer}"
    );
    assert!(
        answer.contains("Refused: the ruling 'fame Nobody +1': no character 'Nobody'"),
        "{answer}"
    );
    assert_eq!(daemon.store.rulings().on_day("MR", 2).unwrap().len(), 1);
}

#[test]
fn a_seat_handed_to_a_new_player_and_character_and_a_player_leaving() {
    let (mut daemon, capture) = running();
    let typo = daemon
        .seats()
        .replace_player("MR", "Ben", CY, Some("Wizzard"), START + 20)
        .unwrap_err();
    assert!(
        format!("{typo:#}").contains("did you mean Wizard"),
        "{typo:#}"
    );
    let made = daemon
        .seats()
        .replace_player("MR", "Ben", CY, Some("Wizard"), START + 20)
        .unwrap();
    let mails = capture.flush(&mut daemon, START + 20);
    let farewell = last_report(&mails, BEN);
    assert!(farewell.contains("given your seat (Ben)"), "{farewell}");
    let welcome = last_report(&mails, CY);
    assert!(welcome.contains(&made.secret), "{welcome}");
    assert!(welcome.contains("You play the Wizard"), "{welcome}");
    daemon.turns().process_turn("MR", START + 30).unwrap();
    let mails = capture.flush(&mut daemon, START + 30);
    let cy = to(&mails, CY);
    assert_eq!(
        cy.last().unwrap().subject,
        "[MR] Day 2 report for the Wizard"
    );
    let news = "GM ruling: the Dwarf leaves the Realm and the Wizard enters it at the Inn (the seat has passed to a new player).";
    assert!(last_report(&mails, ANN).contains(news));
    assert!(to(&mails, BEN).is_empty(), "Ben's seat is Cy's now");
    // Ann leaves; her Amazon leaves the Realm as day 3 begins.
    daemon
        .seats()
        .remove_player("MR", "Ann", false, START + 40)
        .unwrap();
    let mails = capture.flush(&mut daemon, START + 40);
    assert!(last_report(&mails, ANN).contains("no more mail"));
    let refused = daemon
        .mail_in()
        .ingest(&mail(ANN, GM, "[MR] help", "a1@x", "help"), START + 41)
        .unwrap()
        .1;
    assert!(
        refused.contains("not in the campaign"),
        "Ann is no player any more: {refused}"
    );
    let status = daemon.gm().status("MR").unwrap();
    assert!(
        !status.contains("Ann"),
        "the turn waits for Ann no more: {status}"
    );
    let done = daemon.turns().process_turn("MR", START + 50).unwrap();
    assert!(!format!("{done:?}").contains("Ann"), "{done:?}");
    let mails = capture.flush(&mut daemon, START + 50);
    assert!(
        to(&mails, ANN)
            .iter()
            .all(|m| !m.subject.contains("report")),
        "no report for Ann"
    );
    let cy = last_report(&mails, CY);
    assert!(
        cy.contains("GM ruling: the Amazon leaves the Realm (the player has left the campaign)."),
        "{cy}"
    );
    let status = daemon.gm().status("MR").unwrap();
    assert!(!status.contains("Ann"), "{status}");
}

#[test]
fn the_gms_narrative_of_a_day_is_in_his_history_only() {
    let (mut daemon, capture) = running();
    let early = daemon
        .gm()
        .narrate("MR", Some(5), "Later.", START + 19)
        .unwrap_err();
    assert!(
        format!("{early:#}").contains("day 5 is not reached yet"),
        "{early:#}"
    );
    let secret = daemon.store.control_mut().new_gm_secret("MR").unwrap();
    let body = format!("Password: {secret}\nThe Amazon and the Dwarf met at dawn.");
    daemon
        .mail_in()
        .ingest(
            &mail(GM, GM, "[MR] gm narrate 2", "n1@x", &body),
            START + 20,
        )
        .unwrap();
    assert_eq!(
        daemon
            .store
            .announcements()
            .narrative("MR", 2)
            .unwrap()
            .as_deref(),
        Some("The Amazon and the Dwarf met at dawn.")
    );
    daemon.turns().process_turn("MR", START + 30).unwrap();
    let mails = capture.flush(&mut daemon, START + 30);
    let history = to(&mails, GM)
        .into_iter()
        .find(|m| m.subject.contains("Day 2 history"))
        .expect("the GM's history of day 2");
    assert!(
        history
            .body_text
            .contains("== Your narrative ==\nThe Amazon and the Dwarf met at dawn."),
        "{}",
        history.body_text
    );
    assert!(!last_report(&mails, ANN).contains("met at dawn"));
    assert!(!last_report(&mails, BEN).contains("met at dawn"));
}

/// `gm status --json` tells a monitoring script how the
/// campaign and its mail stand.
#[test]
fn status_facts_tell_a_monitor_the_latest_day_and_the_mail_backlog() {
    let (mut daemon, capture) = running();
    let facts = daemon.gm().status_facts("MR").unwrap();
    assert_eq!(facts.latest_day, Some(1));
    assert_eq!(facts.mail.to_send, 0, "running() sent everything");
    daemon
        .gm()
        .announce("MR", "The bridge is out.", START + 20)
        .unwrap();
    let facts = daemon.gm().status_facts("MR").unwrap();
    assert_eq!(facts.mail.to_send, 2, "the announcement to Ann and Ben");
    assert!(facts.mail.oldest_to_send.is_some());
    let json = serde_json::to_value(&facts).unwrap();
    assert_eq!(json["mail"]["to_send"], 2);
    assert!(
        daemon
            .gm()
            .status("MR")
            .unwrap()
            .contains("Mail: 2 to send (oldest queued ")
    );
    capture.flush(&mut daemon, START + 21);
    assert_eq!(daemon.gm().status_facts("MR").unwrap().mail.to_send, 0);
}
