//! Tests of Dropping and Losing Belongings (3.1 10.A.5) on whole days: a
//! drop lies in front of the one who dropped it, a loss goes to the pile,
//! pick-ups at a phase's start and end and after combat, and blocking.

use std::collections::BTreeMap;

use super::Day;
use super::events::{DayEvent, Happening};
use super::pick_up;
use super::rearrange::RearrangeEvent;
use super::resolve_day;
use crate::board::ClearingId;
use crate::orders::{DayOrders, parse_day_orders};
use crate::rules::TOGGLES;
use crate::state::dropped::{TOGGLE, in_front_of, in_the_open};
use crate::state::{ItemKind, MrState, Whereabouts, abandoned_pile};
use crate::test_support::{data, give, item, quiet_game, script};
use realmgm_core::dice::{Dice, DiceScript};
use realmgm_core::game::Rules;

fn rules(on: bool) -> Rules {
    let named: &[&str] = if on { &[TOGGLE] } else { &[] };
    Rules::new(named.iter().copied(), TOGGLES).expect("rules")
}

fn orders(given: &[(&str, &str)]) -> BTreeMap<String, DayOrders> {
    given
        .iter()
        .map(|(p, text)| {
            (
                (*p).to_string(),
                parse_day_orders(text, 1, data()).expect("orders"),
            )
        })
        .collect()
}

fn day(
    state: MrState,
    on: bool,
    given: &[(&str, &str)],
    forced: DiceScript,
) -> (MrState, Vec<DayEvent>) {
    let mut dice = Dice::with_script(5, state.day + 1, forced);
    resolve_day(data(), &rules(on), state, &orders(given), &mut dice).expect("the day resolves")
}

/// The Amazon (P1) and the Elf (P2) in one clearing, the Amazon with a
/// Lantern to spare.
fn together() -> (MrState, ClearingId) {
    let mut state = quiet_game(&["Amazon", "Elf"]);
    let here = state.characters[0].position.clone();
    state.characters[1].position = here.clone();
    give(&mut state, 0, ItemKind::Treasure, "Lantern", false);
    (state, here)
}

fn carries(state: &MrState, who: usize, name: &str) -> bool {
    state.characters[who]
        .belongings
        .iter()
        .any(|b| b.item.name == name)
}

fn steps(events: &[DayEvent]) -> Vec<&RearrangeEvent> {
    events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Rearranged(r) => Some(r),
            _ => None,
        })
        .collect()
}

fn refusal<'e>(events: &'e [DayEvent], who: &str) -> Option<&'e str> {
    steps(events).into_iter().find_map(|r| match r {
        RearrangeEvent::NotDone {
            character, reason, ..
        } if character == who => Some(reason.as_str()),
        _ => None,
    })
}

/// 3.1 10.A.5.1–2: under the rule a drop lies in plain sight in front of
/// the one who dropped it; without it, the same order abandons the
/// belonging to the clearing's pile (4.3.4).
#[test]
fn dropping_belongings_on_drops_in_plain_sight_and_off_abandons() {
    for on in [true, false] {
        let (state, here) = together();
        let (after, _) = day(
            state,
            on,
            &[("P1", "R\nPhase 1: drop Lantern"), ("P2", "R")],
            DiceScript::default(),
        );
        let lantern = vec![item(ItemKind::Treasure, "Lantern")];
        let in_front = after.holdings.get(&in_front_of("Amazon", &here));
        let pile = after.holdings.get(&abandoned_pile(&here));
        if on {
            assert_eq!((in_front, pile), (Some(&lantern), None), "on");
        } else {
            assert_eq!((in_front, pile), (None, Some(&lantern)), "off");
        }
        assert!(!carries(&after, 0, "Lantern"));
    }
}

/// 3.1 10.A.5.1: a lost belonging goes to the pile, found only by looting;
/// nobody picks it up.
#[test]
fn a_lost_belonging_is_not_picked_up() {
    let (state, here) = together();
    let (after, events) = day(
        state,
        true,
        &[
            ("P1", "R\nPhase 1: lose Lantern"),
            ("P2", "R, R\nAfter phase 1: pick up Lantern"),
        ],
        DiceScript::default(),
    );
    assert_eq!(
        after.holdings.get(&abandoned_pile(&here)),
        Some(&vec![item(ItemKind::Treasure, "Lantern")])
    );
    assert!(!carries(&after, 1, "Lantern"));
    assert!(refusal(&events, "Elf").is_some_and(|r| r.contains("no Lantern lies dropped")));
}

/// 3.1 10.A.5.3–4: at the end of a phase the Elf picks up what lies in
/// front of the Amazon, coming out of hiding for it; at the start of a
/// phase he may take only what lies in front of himself.
#[test]
fn the_end_of_a_phase_picks_up_anything_dropped_and_unhides() {
    let (mut state, here) = together();
    state.drop_in_front("Amazon", &here, item(ItemKind::Treasure, "Lantern"));
    state.characters[0]
        .belongings
        .retain(|b| b.item.name != "Lantern");
    let hides = script(&[("daylight/hide", &[1, 1])]);
    let (after, events) = day(
        state.clone(),
        true,
        &[("P1", "R"), ("P2", "H\nAfter phase 1: pick up Lantern")],
        hides,
    );
    assert!(carries(&after, 1, "Lantern"), "{:#?}", steps(&events));
    assert!(!after.characters[1].hidden, "picking up unhid him");
    assert!(!after.holdings.contains_key(&in_front_of("Amazon", &here)));

    let (after, events) = day(
        state,
        true,
        &[("P1", "R"), ("P2", "R\nPhase 1: pick up Lantern")],
        DiceScript::default(),
    );
    assert!(!carries(&after, 1, "Lantern"));
    assert!(refusal(&events, "Elf").is_some_and(|r| r.contains("in front of him")));
}

/// 3.1 10.A.5.3: what lies in front of him he takes up at the start of a
/// phase and stays hidden.
#[test]
fn a_hidden_character_takes_up_what_he_dropped_and_stays_hidden() {
    let (mut state, here) = together();
    state.drop_in_front("Elf", &here, item(ItemKind::Treasure, "Lantern"));
    let hides = script(&[("daylight/hide", &[1, 1])]);
    let (after, _) = day(
        state,
        true,
        &[("P1", "R"), ("P2", "H, R\nPhase 2: pick up Lantern")],
        hides,
    );
    assert!(carries(&after, 1, "Lantern"));
    assert!(after.characters[1].hidden);
}

/// 3.1 10.A.5.4: a monster in the clearing blocks him as he starts to pick
/// up what does not lie in front of him.
#[test]
fn a_monster_blocks_a_pick_up_at_the_end_of_a_phase() {
    let (mut state, here) = together();
    state.drop_in_front("Amazon", &here, item(ItemKind::Treasure, "Lantern"));
    state.characters[0]
        .belongings
        .retain(|b| b.item.name != "Lantern");
    let ogre = state.denizens.get_mut("Ogre 1").expect("ogre");
    ogre.at = Whereabouts::Clearing {
        clearing: here.clone(),
    };
    state.characters[1].hidden = true;
    state.characters[0].hidden = true;
    let hides = script(&[("daylight/hide", &[1, 1])]);
    let (after, events) = day(
        state,
        true,
        &[("P1", "H"), ("P2", "H\nAfter phase 1: pick up Lantern")],
        hides,
    );
    assert!(!carries(&after, 1, "Lantern"));
    assert!(refusal(&events, "Elf").is_some_and(|r| r.contains("blocked")));
}

/// 3.1 10.A.5.6: after a combat each takes what lies in front of him
/// first, then the characters claim the rest one at a time in seat order;
/// where no combat was fought nothing is picked up at Midnight.
#[test]
fn after_combat_what_lies_in_front_goes_first_then_turns() {
    let (mut state, here) = together();
    state.drop_in_front("Elf", &here, item(ItemKind::Weapon, "Spear"));
    state.holdings.insert(
        in_the_open(&here),
        vec![item(ItemKind::Treasure, "Lantern")],
    );
    state.characters[0]
        .belongings
        .retain(|b| b.item.name != "Lantern");
    let given = orders(&[
        ("P1", "R\nMidnight: pick up Spear; pick up Lantern"),
        ("P2", "R\nMidnight: pick up Spear"),
    ]);
    let rules = rules(true);
    let mut dice = Dice::new(5, 1);
    let mut today = Day::new(data(), &rules, state.clone(), &mut dice);
    today.today.fought_in.insert(here.clone());
    pick_up::at_midnight(&mut today, &given);
    assert!(carries(&today.state, 1, "Spear"), "in front of the Elf");
    assert!(carries(&today.state, 0, "Lantern"));
    assert!(!carries(&today.state, 0, "Spear"));

    let mut dice = Dice::new(5, 1);
    let mut quiet = Day::new(data(), &rules, state, &mut dice);
    pick_up::at_midnight(&mut quiet, &given);
    assert!(!carries(&quiet.state, 1, "Spear"), "no combat was fought");
    let events = quiet.events.clone();
    assert!(refusal(&events, "Elf").is_some_and(|r| r.contains("10.A.5.6")));
}
