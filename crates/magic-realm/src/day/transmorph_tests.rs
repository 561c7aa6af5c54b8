//! Tests of what a transmorphized character may not do by day (3.1
//! 4.6.9c) and how he carries what he picks up (3.1 4.6.9b.4).

use super::events::PhaseResult;
use super::search::search_taking;
use super::search_tests::at_hoard;
use super::tests::{game, play};
use crate::data::spells::Duration;
use crate::orders::{SearchTable, Take};
use crate::state::MrState;
use crate::state::abandoned_pile;
use crate::state::magic::{Aim, CastWith, SpellInEffect};
use crate::test_support::{results, run_on_day as run};
use realmgm_core::dice::DiceScript;
use realmgm_core::game::Rules;

/// The Amazon held by `spell`, cast by the Black Knight.
fn held_by(state: &mut MrState, spell: &str) {
    state.magic.in_effect.push(SpellInEffect {
        id: 7,
        spell: spell.into(),
        caster: "Black Knight".into(),
        with: CastWith::Treasure {
            name: "Black Book".into(),
        },
        targets: vec![Aim::Character {
            name: "Amazon".into(),
        }],
        duration: Duration::Permanent,
        cast_on: 1,
        inert: false,
        held: false,
        detail: Some("Squirrel".into()),
        untied: false,
    });
}

fn refused_for(result: &PhaseResult, section: &str) -> bool {
    matches!(result, PhaseResult::Lost { reason }
        if reason.contains("transmorphized by") && reason.contains(section))
}

/// 3.1 4.6.9c.1: no Rest, Alert, Trade, Hire or Enchant while transformed;
/// he still Hides. 4.6.9c.2: in mist he cannot Search, transformed into a beast he can.
#[test]
fn a_transmorphized_character_cancels_rest_alert_trade_hire_and_enchant_4_6_9c_1() {
    let mut state = game(&["Amazon"]);
    held_by(&mut state, "Transform");
    let (_, events) = play(
        state.clone(),
        &[("P1", "R / A / T / HR")],
        DiceScript::default(),
    );
    let his = results(&events, "Amazon");
    assert_eq!(his.len(), 4);
    assert!(his.iter().all(|r| refused_for(r, "4.6.9c.1")), "{his:?}");
    let hide = crate::test_support::script(&[("daylight/hide", &[6])]);
    let (_, events) = play(state, &[("P1", "H / S / EM")], hide);
    let his = results(&events, "Amazon");
    assert!(matches!(his[0], PhaseResult::Hid { .. }), "{his:?}");
    assert!(!refused_for(&his[1], "4.6.9c"), "{his:?}");
    assert!(refused_for(&his[2], "4.6.9c.1"), "{his:?}");

    let mut state = game(&["Amazon"]);
    held_by(&mut state, "Melt Into Mist");
    let (_, events) = play(state, &[("P1", "S")], DiceScript::default());
    let his = results(&events, "Amazon");
    assert!(refused_for(&his[0], "4.6.9c.2"), "{his:?}");
}

/// 3.1 4.6.9b.4: what a transformed character picks up he keeps inactive,
/// whatever his `Take:` line asks.
#[test]
fn what_a_transformed_character_loots_stays_inactive_4_6_9b_4() {
    let (mut state, at) = at_hoard(&["Amazon"]);
    state.characters[0].discoveries.sites.clear();
    let item = state.holdings.get_mut("Hoard").expect("hoard").remove(0);
    state
        .holdings
        .insert(abandoned_pile(&at), vec![item.clone()]);
    held_by(&mut state, "Transform");
    let takes = [Take {
        what: item.name.clone(),
        activate: true,
    }];
    run(&mut state, &Rules::default(), &[("search", &[1])], |day| {
        search_taking(day, 0, &SearchTable::Loot, &takes)
    });
    let taken = &state.characters[0].belongings[0];
    assert_eq!(taken.item, item);
    assert!(!taken.active);
}
