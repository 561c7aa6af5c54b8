//! Tests of caching (advanced rule A.4, `day/cache.rs`) on whole days.

use std::collections::BTreeMap;

use super::events::{DayEvent, Happening, PhaseEvent, PhaseResult};
use super::resolve_day;
use crate::orders::parse_day_orders;
use crate::rules::TOGGLES;
use crate::state::MrState;
use crate::test_support::{data, quiet_game};
use realmgm_core::dice::Dice;
use realmgm_core::game::{Observers, Rules};

fn day(state: MrState, on: &[&str], amazon: &str) -> (MrState, Vec<DayEvent>) {
    let rules = Rules::new(on.iter().copied(), TOGGLES).unwrap();
    let orders: BTreeMap<String, _> = [
        (
            "P1".to_string(),
            parse_day_orders(amazon, 1, data()).unwrap(),
        ),
        ("P2".to_string(), parse_day_orders("H", 1, data()).unwrap()),
    ]
    .into();
    let mut dice = Dice::new(7, state.day + 1);
    resolve_day(data(), &rules, state, &orders, &mut dice).unwrap()
}

fn lost_reasons(events: &[DayEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Phase(PhaseEvent::PhaseDone {
                result: PhaseResult::Lost { reason },
                ..
            }) => Some(reason.clone()),
            _ => None,
        })
        .collect()
}

/// Two characters in the same clearing: the Amazon caches, the Elf hides.
fn together() -> MrState {
    let mut state = quiet_game(&["Amazon", "Elf"]);
    state.characters[1].position = state.characters[0].position.clone();
    state.characters[0].gold = 20;
    state
}

#[test]
fn without_the_rule_a_cache_phase_is_lost() {
    let (after, events) = day(together(), &[], "C\nCache: Short Sword; 5 gold");
    assert!(
        lost_reasons(&events)
            .iter()
            .any(|r| r.contains("does not use the Caching rule")),
        "{events:#?}"
    );
    assert!(after.caches.is_empty());
    assert_eq!(after.characters[0].weapon.as_deref(), Some("Short Sword"));
}

#[test]
fn a_cache_holds_what_its_owner_left_and_only_he_sees_it() {
    let (after, events) = day(
        together(),
        &["caching"],
        "C\nCache: Short Sword; 5 gold; Lantern",
    );
    let amazon = &after.characters[0];
    assert_eq!(amazon.weapon, None);
    assert_eq!(amazon.gold, 15);
    assert_eq!(after.caches.len(), 1);
    let cache = &after.caches[0];
    assert_eq!((cache.owner.as_str(), cache.gold), ("Amazon", 5));
    assert_eq!(cache.items[0].name, "Short Sword");
    let cached: Vec<&DayEvent> = events
        .iter()
        .filter(|e| matches!(e.happening, Happening::Cache(_)))
        .collect();
    assert_eq!(cached.len(), 3, "two done, the Lantern not carried");
    for event in &cached {
        assert_eq!(
            event.observers,
            Observers::Players(["P1".to_string()].into()),
            "the Elf beside her sees nothing"
        );
    }
    let sheet = crate::report::sheet::sheet(
        data(),
        &realmgm_core::game::Rules::default(),
        &after,
        amazon,
    );
    assert_eq!(sheet.caches, [format!("{}: Short Sword, 5 gold", cache.at)]);
    // The next day she takes everything back.
    let (after, _) = day(after, &["caching"], "C\nCache: take all");
    assert!(after.caches.is_empty());
    assert_eq!(after.characters[0].gold, 20);
    assert!(
        after.characters[0]
            .belongings
            .iter()
            .any(|b| b.item.name == "Short Sword")
    );
}

/// Pack horses are a basic rule (3.1 7.3.1i): the Amazon, whose MOVE chits
/// are Medium, loads her Great Axe (Heavy) on the horse she leads and walks
/// on with it, in a campaign naming no rule; the old toggle name still
/// loads and changes nothing. Without the load the axe stays behind.
#[test]
fn a_pack_horse_carries_what_its_leader_could_not_3_1_7_3_1i() {
    use crate::state::{ItemKind, abandoned_pile};
    use crate::test_support::{give, move_to};
    let walk = |on: &[&str], load: bool| {
        let mut state = together();
        let (from, to, _) = super::travel_tests::open_walk(&state);
        state.characters[0].position = from.clone();
        state.characters[1].position = from.clone();
        give(&mut state, 0, ItemKind::Horse, "Horse 1", false);
        give(&mut state, 0, ItemKind::Weapon, "Great Axe", false);
        let mut orders = move_to(&to);
        if load {
            orders.push_str("\nPhase 1: load Great Axe on Horse 1");
        }
        let (after, events) = day(state, on, &orders);
        (after, events, from)
    };
    for on in [&[][..], &["pack_horses"][..]] {
        let (after, events, _) = walk(on, true);
        let amazon = &after.characters[0];
        assert_eq!(amazon.pack["Horse 1"][0].name, "Great Axe", "{events:#?}");
        assert!(amazon.belongings.iter().all(|b| b.item.name != "Great Axe"));
    }
    let (after, events, from) = walk(&[], false);
    assert!(after.characters[0].pack.is_empty(), "{events:#?}");
    assert!(
        after.holdings[&abandoned_pile(&from)]
            .iter()
            .any(|i| i.name == "Great Axe"),
        "too heavy for her MOVE chits, the axe stays where she set out"
    );
}

#[test]
fn a_horse_lost_drops_its_load_at_midnight_and_a_ridden_horse_takes_none() {
    use crate::state::{ItemKind, abandoned_pile};
    use crate::test_support::give;
    let mut state = together();
    give(&mut state, 0, ItemKind::Horse, "Horse 1", true);
    give(&mut state, 0, ItemKind::Weapon, "Great Axe", false);
    let (after, events) = day(state, &[], "H\nPhase 1: load Great Axe on Horse 1");
    assert!(
        events
            .iter()
            .any(|e| format!("{e:?}").contains("is ridden; only a horse he leads")),
        "{events:#?}"
    );
    let mut state = after;
    let here = state.characters[0].position.clone();
    let (after, _) = day(
        state.clone(),
        &[],
        "H\nPhase 1: inactivate Horse 1; load Great Axe on Horse 1",
    );
    assert_eq!(after.characters[0].pack["Horse 1"].len(), 1);
    state = after;
    // He sells or loses the horse: its load falls where he stands.
    state.characters[0]
        .belongings
        .retain(|b| b.item.name != "Horse 1");
    let (after, events) = day(state, &[], "H");
    assert!(after.characters[0].pack.is_empty());
    assert!(
        after.holdings[&abandoned_pile(&here)]
            .iter()
            .any(|i| i.name == "Great Axe"),
        "{events:#?}"
    );
}
