//! Multiple Characters (3.1 10.E.4) through the game interface the daemon
//! drives: seats, orders by mail, the day, the report.

use std::collections::BTreeMap;

use realmgm_core::dice::Dice;
use realmgm_core::game::{AcceptedOrders, Game, GameState, Reader, Rules, Seat, Start, Turn};
use realmgm_core::report::ReportContext;

use super::{MagicRealm, read_state};
use crate::rules::{MULTIPLE_CHARACTERS, TOGGLES};

fn rules(on: &[&str]) -> Rules {
    Rules::new(on.iter().copied(), TOGGLES).expect("known toggles")
}

/// Ann plays the Amazon and the Berserker, Ben the Wizard.
fn seats() -> Vec<Seat> {
    [("Ann", "Amazon"), ("Ann", "Berserker"), ("Ben", "Wizard")]
        .iter()
        .map(|(player, character)| Seat {
            player: (*player).into(),
            role: Some((*character).into()),
        })
        .collect()
}

fn start(rules: &Rules) -> anyhow::Result<GameState> {
    MagicRealm.start(&Start::new(&seats(), rules), &mut Dice::new(7, 0))
}

/// Off, a player seated twice is refused; on, each of his characters has
/// a seat of his own and the player is awaited once (3.1 10.E.4.1, 10.E.4.4).
#[test]
fn multiple_characters_seat_each_of_a_players_characters_3_1_10_e_4() {
    let refused = start(&rules(&[])).unwrap_err();
    assert!(
        format!("{refused:#}").contains("multiple_characters"),
        "{refused:#}"
    );
    let state = start(&rules(&[MULTIPLE_CHARACTERS])).unwrap();
    assert_eq!(
        MagicRealm.awaiting(&state).unwrap(),
        vec!["Ann".to_string(), "Ben".to_string()]
    );
    let mr = read_state(&state).unwrap();
    let seated: Vec<(&str, &str, Option<&str>)> = mr
        .characters
        .iter()
        .map(|c| (c.name.as_str(), c.player.as_str(), c.controller.as_deref()))
        .collect();
    assert_eq!(
        seated,
        vec![
            ("Amazon", "Ann/1", Some("Ann")),
            ("Berserker", "Ann/2", Some("Ann")),
            ("Wizard", "Ben", None),
        ]
    );
}

/// Each further character of a player records one victory point more
/// (3.1 10.E.4.3).
#[test]
fn each_further_character_records_one_point_more_3_1_10_e_4_3() {
    let state = start(&rules(&[MULTIPLE_CHARACTERS])).unwrap();
    let mr = read_state(&state).unwrap();
    let base = mr.victory_points;
    assert_eq!(mr.victory_points_for("Amazon"), base);
    assert_eq!(mr.victory_points_for("Berserker"), base + 1);
    assert_eq!(mr.victory_points_for("Wizard"), base);
    // A restart's `Victory:` line of the Berserker must add up to his own.
    let rules = rules(&[MULTIPLE_CHARACTERS]);
    let short = format!(
        "Orders for: Amazon\nH\nOrders for: Berserker\nH\nVictory: GT {base}, SP 0, F 0, N 0, G 0"
    );
    let problems = MagicRealm
        .read_orders(&state, &rules, "Ann", &short)
        .unwrap_err();
    assert!(
        problems
            .iter()
            .any(|p| p.line == 5 && p.message.contains(&format!("must add up to {}", base + 1))),
        "{problems:?}"
    );
}

/// One mail carries each character's orders under its own `Orders for:`
/// line; a mail without them, or leaving a character out, is refused with
/// what to write (3.1 10.E.4.4).
#[test]
fn one_mail_gives_each_character_his_orders_3_1_10_e_4_4() {
    let rules = rules(&[MULTIPLE_CHARACTERS]);
    let state = start(&rules).unwrap();
    let bare = MagicRealm
        .read_orders(&state, &rules, "Ann", "H")
        .unwrap_err();
    assert!(
        bare[0]
            .message
            .contains("'Orders for: Amazon' and 'Orders for: Berserker'"),
        "{bare:?}"
    );
    let half = MagicRealm
        .read_orders(&state, &rules, "Ann", "Orders for: amazon\nR")
        .unwrap_err();
    assert!(
        half.iter()
            .any(|p| p.message.contains("no orders for the Berserker")),
        "{half:?}"
    );
    let stray = MagicRealm
        .read_orders(
            &state,
            &rules,
            "Ann",
            "R\nOrders for: Amazon\nR\nOrders for: Dwarf\nH",
        )
        .unwrap_err();
    let lines: Vec<usize> = stray.iter().map(|p| p.line).collect();
    assert_eq!(lines, vec![1, 1, 4], "{stray:?}");
    let ann = MagicRealm
        .read_orders(
            &state,
            &rules,
            "Ann",
            "Orders for: Amazon\nR\n\nOrders for: Berserker\nH",
        )
        .unwrap();
    assert!(
        ann.canonical
            .starts_with("Orders for: Amazon\nActivities: R"),
        "{}",
        ann.canonical
    );
    assert!(
        ann.canonical
            .contains("Orders for: Berserker\nActivities: H")
    );
    // Ben plays one character and writes no header.
    let ben = MagicRealm.read_orders(&state, &rules, "Ben", "R").unwrap();
    let orders: BTreeMap<String, AcceptedOrders> =
        [("Ann".to_string(), ann), ("Ben".to_string(), ben)].into();
    let turn = MagicRealm
        .resolve_turn(
            state.clone(),
            &Turn::new(&rules, &orders),
            &mut Dice::new(7, 1),
        )
        .unwrap()
        .done()
        .expect("the day is resolved");
    // Each seat played its own part: the Amazon rested, the Berserker hid.
    let recorded = |character: &str| {
        turn.events.iter().find_map(|e| {
            let json = e.body.json();
            (json["event"] == "turn_starts" && json["character"] == character)
                .then(|| json["recorded"].as_str().unwrap_or_default().to_string())
        })
    };
    assert_eq!(recorded("Amazon").as_deref(), Some("R"));
    assert_eq!(recorded("Berserker").as_deref(), Some("H"));
    assert_eq!(recorded("Wizard").as_deref(), Some("R"));
    // His one report joins each character's own.
    let report = MagicRealm
        .report(
            &turn.state,
            &turn.events,
            Reader::Player("Ann"),
            &ReportContext::default(),
        )
        .unwrap();
    assert_eq!(
        report.subject,
        "Day 1 report for the Amazon and the Berserker"
    );
    assert!(
        report.text.contains("==== The Amazon ===="),
        "{}",
        report.text
    );
    assert!(report.text.contains("==== The Berserker ===="));
    let names: Vec<&str> = report.attachments.iter().map(|a| a.0.as_str()).collect();
    assert!(names.contains(&"map-day-1-berserker.svg"), "{names:?}");
    // Missing orders hide each of his characters.
    let missing = MagicRealm
        .missing_orders(&turn.state, &rules, "Ann")
        .unwrap();
    assert_eq!(missing.canonical.matches("Orders for:").count(), 2);
}
