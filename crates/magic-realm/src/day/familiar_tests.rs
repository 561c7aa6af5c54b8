//! Tests of the Witch's familiar: its own moves and peers, following, and
//! its orders line.

use super::travel_tests::open_walk;

use super::events::{DayEvent, Happening, PhaseEvent};
use crate::orders::parse_day_orders;
use crate::test_support::{data, move_to, play_day as play, quiet_game as game};

fn familiar_lines(events: &[DayEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Familiar(super::familiar::FamiliarEvent::PhaseDone { result, .. }) => {
                Some(result.clone())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_familiar_moves_and_peers_on_its_own_unseen() {
    let mut state = game(&["Witch", "Amazon"]);
    let (a, b, c) = open_walk(&state);
    state.characters[0].position = a.clone();
    state.characters[1].position = b.clone();
    let text = format!("H\nFamiliar: {}, {}, S, H", move_to(&b), move_to(&c));
    let (after, events) = play(state, &[("P1", &text)], &[("hide", &[6]), ("search", &[5])]);
    assert_eq!(after.characters[0].position, a, "she stays");
    assert_eq!(after.familiars.get("Witch"), Some(&c));
    let lines = familiar_lines(&events);
    assert!(lines[0].starts_with("moves to"), "{lines:?}");
    assert!(lines[2].contains("peers"), "{lines:?}");
    assert!(lines[3].contains("cannot do H"), "{lines:?}");
    // Peer 5 is Clues: she sees the chits of the familiar's tile.
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Search(super::search::SearchEvent::SawChits { character, tile, .. })
            if character == "Witch" && *tile == c.tile
    )));
    // The peer's roll and what it showed stand under the familiar's third
    // phase, one step deeper.
    let log = super::log::gm_log(&events);
    let lines: Vec<&str> = log.lines().collect();
    let third = lines
        .iter()
        .position(|l| l.starts_with("  3. S: "))
        .expect("the familiar's search phase");
    assert!(
        lines[third + 1].starts_with("    Peer: ") && lines[third + 2].contains("sees the chits"),
        "{log}"
    );
    // Only her player hears of it; the Amazon standing in b sees nothing.
    for e in events
        .iter()
        .filter(|e| matches!(e.happening, Happening::Familiar(_)))
    {
        assert_eq!(
            e.observers,
            realmgm_core::game::Observers::Players(["P1".to_string()].into())
        );
    }
    assert!(
        !events
            .iter()
            .any(|e| matches!(&e.happening, Happening::Phase(PhaseEvent::Blocked { .. })))
    );
}

#[test]
fn the_familiar_follows_and_only_the_witch_has_one() {
    let mut state = game(&["Witch", "Swordsman"]);
    let (a, b, _) = open_walk(&state);
    state.characters[0].position = a.clone();
    state.characters[1].position = a.clone();
    let text = "H\nFamiliar: F Swordsman".to_string();
    let walk = format!("{}\nTurn: last", move_to(&b));
    let (after, events) = play(state.clone(), &[("P1", &text), ("P2", &walk)], &[]);
    assert_eq!(
        after.familiars.get("Witch"),
        Some(&b),
        "put with the Swordsman"
    );
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Familiar(super::familiar::FamiliarEvent::Rejoined { leader, .. }) if leader == "Swordsman"
    )));

    let swordsman = format!("H\nFamiliar: {}", move_to(&b));
    let (after, events) = play(state, &[("P2", &swordsman)], &[]);
    assert!(after.familiars.is_empty());
    assert!(familiar_lines(&events)[0].contains("no familiar"));
}

#[test]
fn the_familiar_line_round_trips() {
    let text = "Activities: H\nFamiliar: M Curst Valley 4, S\nTeleport: CV-3\n";
    let orders = parse_day_orders(text, 1, data()).expect("parses");
    assert_eq!(orders.teleport, Some(("Curst Valley".to_string(), 3)));
    let bad = parse_day_orders("H\nTeleport: CV9", 1, data()).unwrap_err();
    assert!(bad[0].message.contains("cave clearing"), "{}", bad[0]);
    let familiar = orders.familiar.as_ref().expect("a familiar line");
    assert_eq!(familiar.phases.len(), 2);
    let again = parse_day_orders(&orders.to_string(), 1, data()).expect("parses back");
    assert_eq!(again, orders);
}
