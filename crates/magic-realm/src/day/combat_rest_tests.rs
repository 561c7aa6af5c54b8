//! The Evening carries belongings switched in combat into the state
//! (`combat/activation.rs`), and a group a character rolled for today
//! does not roll again (`battling_today.rs`).

use std::collections::BTreeMap;

use crate::orders::parse_day_orders;
use crate::state::{Belonging, Item, ItemKind, MrState, Whereabouts};
use crate::test_support::{combat_text, data, game_played_by, without_denizens};
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;

use super::battling_today;
use super::events::{DayEvent, Happening};
use super::resolve_day;
use crate::state::Grudge;

fn day_with(state: MrState, combat: &[&str]) -> (MrState, Vec<DayEvent>) {
    let orders: BTreeMap<_, _> = combat
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let text = format!("R\nCombat: {c}");
            let orders = parse_day_orders(&text, 1, data()).expect("orders");
            (format!("P{}", i + 1), orders)
        })
        .collect();
    let mut dice = Dice::new(5, 1);
    resolve_day(data(), &Rules::default(), state, &orders, &mut dice).expect("the day")
}

#[test]
fn a_weapon_activated_in_combat_is_his_active_weapon_afterwards() {
    let mut state = without_denizens(game_played_by(&["Amazon", "Swordsman"], |i| {
        format!("P{}", i + 1)
    }));
    let here = state.characters[0].position.clone();
    state.characters[1].position = here;
    state.characters[0].belongings.push(Belonging {
        item: Item {
            kind: ItemKind::Weapon,
            name: "Spear 1".into(),
        },
        active: false,
    });
    let (after, events) = day_with(state, &["activate Spear 1, target nobody", "target nobody"]);
    let lines = combat_text(&events);
    assert!(
        lines
            .iter()
            .any(|l| l == "the Amazon activates the Spear 1"),
        "{lines:#?}"
    );
    let amazon = &after.characters[0];
    assert_eq!(amazon.weapon, None, "her Short Sword went inactive");
    let active = |name: &str| {
        amazon
            .belongings
            .iter()
            .find(|b| b.item.name == name)
            .map(|b| b.active)
    };
    assert_eq!(active("Spear 1"), Some(true));
    assert_eq!(active("Short Sword"), Some(false));
}

/// 3.1 8.2.2b, 8.2.3b: he rolls once per group per day, and battling does
/// not carry over from another clearing: a group he rolled for earlier today
/// neither rolls again nor battles him, and Midnight forgets the rolls.
#[test]
fn a_group_he_rolled_for_today_neither_rolls_again_nor_battles_him() {
    let mut state = without_denizens(game_played_by(&["Amazon"], |_| "P1".into()));
    let here = state.characters[0].position.clone();
    state
        .denizens
        .get_mut("Company 1")
        .expect("a Company man")
        .at = Whereabouts::Clearing { clearing: here };
    state.battling_today.push(Grudge {
        group: "Company".into(),
        character: "Amazon".into(),
    });
    let (after, events) = day_with(state, &["target nobody, run when wounded 1"]);
    let rolled = events.iter().any(|e| {
        matches!(&e.happening, Happening::Roll(r) if r.purpose.contains("battling/Amazon/Company"))
    });
    assert!(!rolled, "no second roll");
    // Nobody battles her, so nothing happens and no combat is told.
    let lines = combat_text(&events);
    assert!(lines.is_empty(), "{lines:#?}");
    assert!(
        after.battling_today.is_empty(),
        "Midnight forgets the rolls"
    );
    assert!(!battling_today::rolled(&after, "Company", "Amazon"));
}

/// The Amazon and Lancer 1, whose group battles her today.
fn amazon_and_a_lancer() -> MrState {
    let mut state = without_denizens(game_played_by(&["Amazon"], |_| "P1".into()));
    let here = state.characters[0].position.clone();
    state.denizens.get_mut("Lancer 1").expect("a Lancer").at =
        Whereabouts::Clearing { clearing: here };
    state.battling_today.push(Grudge {
        group: "Lancers".into(),
        character: "Amazon".into(),
    });
    state
}

const AT_THE_LANCER: &str =
    "target Lancer 1, attack with FIGHT M3**, attack smash, maneuver duck, run when wounded 1";

#[test]
fn a_natives_horse_killed_in_the_evening_is_gone_from_his_holdings() {
    let state = amazon_and_a_lancer();
    assert!(
        state.holdings["Lancer 1"]
            .iter()
            .any(|i| i.name == "Lancer Pony 1")
    );
    let (after, events) = day_with(state, &[AT_THE_LANCER]);
    let lines = combat_text(&events);
    assert!(
        lines
            .iter()
            .any(|l| l == "Lancer 1's Lancer Pony 1 is killed"),
        "{lines:#?}"
    );
    let held = after.holdings.get("Lancer 1").cloned().unwrap_or_default();
    assert!(held.iter().all(|i| i.name != "Lancer Pony 1"), "{held:?}");
}

#[test]
fn a_native_without_his_horse_fights_on_foot() {
    let mut state = amazon_and_a_lancer();
    state.holdings.remove("Lancer 1");
    let (_, events) = day_with(state, &[AT_THE_LANCER]);
    let lines = combat_text(&events);
    assert!(
        lines.iter().all(|l| !l.contains("Lancer Pony")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("the Amazon on Lancer 1")),
        "{lines:#?}"
    );
}

/// 3.1 rule 8.3.8b, d: a character who runs away ends the day on the
/// roadway out of his clearing, by the clearing he ran out of, not in the
/// clearing at its far end.
#[test]
fn a_runaway_ends_the_day_on_the_roadway_3_1_8_3_8d() {
    let mut state = without_denizens(game_played_by(&["Amazon"], |_| "P1".into()));
    let here = state.characters[0].position.clone();
    state.denizens.get_mut("Ogre 1").expect("an Ogre").at = Whereabouts::Clearing {
        clearing: here.clone(),
    };
    let (after, events) = day_with(state, &["target nobody, run when wounded 0"]);
    let lines = combat_text(&events);
    assert!(
        lines.iter().any(|l| l.contains("the Amazon runs away")),
        "{lines:#?}"
    );
    let amazon = &after.characters[0];
    assert_eq!(amazon.position, here);
    let road = amazon.roadway.as_ref().expect("on the roadway");
    assert_eq!(road.from, here);
    assert!(
        after
            .board
            .neighbours(&here)
            .iter()
            .any(|l| l.to == road.to)
    );
}

/// 3.1 rule 8.3.8b: one who walked into the clearing today runs back onto
/// the roadway he came by.
#[test]
fn a_runaway_who_walked_in_today_runs_onto_the_roadway_he_came_by_3_1_8_3_8b() {
    let mut state = without_denizens(game_played_by(&["Amazon"], |_| "P1".into()));
    let (a, b, c) = super::travel_tests::open_walk(&state);
    // He comes from the side that is not b's first roadway, which one who
    // started the day in b would take.
    let first = state
        .board
        .neighbours(&b)
        .into_iter()
        .find(|l| l.kind == crate::data::tiles::PathKind::Normal)
        .expect("a road")
        .to;
    let start = if first == a { c } else { a };
    state.characters[0].position = start.clone();
    state.denizens.get_mut("Ogre 1").expect("an Ogre").at = Whereabouts::Clearing {
        clearing: b.clone(),
    };
    let text = format!(
        "{}\nCombat: target nobody, run when wounded 0",
        crate::test_support::move_to(&b)
    );
    let orders: BTreeMap<_, _> = [(
        "P1".to_string(),
        parse_day_orders(&text, 1, data()).expect("orders"),
    )]
    .into();
    let (after, _) = resolve_day(
        data(),
        &Rules::default(),
        state,
        &orders,
        &mut Dice::new(5, 1),
    )
    .expect("the day");
    let road = after.characters[0]
        .roadway
        .as_ref()
        .expect("on the roadway");
    assert_eq!((&road.from, &road.to), (&b, &start));
}
