//! Tests of what a transmorphized character may not do by day (3.1
//! 4.6.9c) and how he carries what he picks up (3.1 4.6.9b.4): frozen
//! what he had as the spell took hold, carried by the creature's strength
//! and traded what he took on since, nothing more as mist.

use super::events::PhaseResult;
use super::search::search_taking;
use super::search_tests::at_hoard;
use super::tests::{game, play};
use crate::data::spells::Duration;
use crate::data::tiles::ClearingKind;
use crate::orders::{SearchTable, Take};
use crate::state::magic::{Aim, CastWith, SpellInEffect};
use crate::state::{Belonging, Item, ItemKind, MrState, abandoned_pile};
use crate::test_support::{results, run_on_day as run};
use realmgm_core::dice::DiceScript;
use realmgm_core::game::Rules;

/// The Amazon held by `spell`, cast by the Black Knight: what she has now
/// is frozen with her, as when a cast takes hold.
fn held_by(state: &mut MrState, spell: &str) {
    let spell = SpellInEffect {
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
    };
    state.magic.in_effect.push(spell.clone());
    crate::magic::transmorph::take_hold(state, &spell);
}

fn weapon(name: &str) -> Item {
    Item {
        kind: ItemKind::Weapon,
        name: name.into(),
    }
}

fn carries(state: &MrState, who: usize, item: &str) -> bool {
    state.characters[who]
        .belongings
        .iter()
        .any(|b| b.item.name == item)
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

/// 3.1 4.6.9b.2 and b.4: what she had as Transform took hold (the Great
/// Axe, Heavy) is frozen, weighs nothing and moves with her; the Mace she
/// took on since as a Squirrel (Light) is too heavy for the creature and
/// stays behind when she moves. At Midnight the spell falls inert and the
/// note of what froze goes.
#[test]
fn a_creature_carries_what_it_took_on_by_its_own_strength_4_6_9b_4() {
    let (here, next) = super::tests::border(&game(&["Amazon"]), ClearingKind::Woods);
    let mut state = game(&["Amazon"]);
    super::tests::place(&mut state, 0, &here);
    state.characters[0].belongings.push(Belonging {
        item: weapon("Great Axe"),
        active: false,
    });
    held_by(&mut state, "Transform");
    state.characters[0].belongings.push(Belonging {
        item: weapon("Mace"),
        active: false,
    });
    let move_on = crate::test_support::move_to(&next);
    let (after, events) = play(state, &[("P1", &move_on)], DiceScript::default());
    let log = super::log::gm_log(&events);
    assert_eq!(after.characters[0].position, next, "{log}");
    assert!(
        carries(&after, 0, "Great Axe"),
        "frozen, it moves with her: {log}"
    );
    assert!(!carries(&after, 0, "Mace"), "{log}");
    assert!(
        after.holdings[&abandoned_pile(&here)].contains(&weapon("Mace")),
        "{log}"
    );
    assert_eq!(after.characters[0].magic.transmorphized_with, None);
}

/// 3.1 4.6.9b.4: a creature trades what it took on (and gold gained since)
/// but not what froze with it, keeps it inactive but an Enchanted card,
/// and may abandon it; mist takes on nothing, not even a gift.
#[test]
fn a_creature_trades_and_rearranges_only_what_it_took_on_4_6_9b_4() {
    let mut state = game(&["Amazon", "Elf"]);
    let here = state.characters[1].position.clone();
    super::tests::place(&mut state, 0, &here);
    state.characters[0].gold = 10;
    held_by(&mut state, "Transform");
    state.characters[0].gold = 13;
    for name in ["Mace", "Broadsword"] {
        state.characters[0].belongings.push(Belonging {
            item: weapon(name),
            active: false,
        });
    }
    let elf_gold = state.characters[1].gold;
    let (after, events) = play(
        state.clone(),
        &[
            (
                "P1",
                "H / H\nPhase 1: activate Broadsword\nPhase 2: abandon Broadsword\n\
                 Give: Mace, 3 gold to Elf at phase 1\nGive: Short Sword to Elf at phase 2",
            ),
            (
                "P2",
                "H / H\nReceive: Mace, 3 gold from Amazon at phase 1\n\
                 Receive: Short Sword from Amazon at phase 2",
            ),
        ],
        DiceScript::default(),
    );
    let log = super::log::gm_log(&events);
    assert!(
        log.contains("keeps what was taken on as a creature inactive"),
        "{log}"
    );
    assert!(carries(&after, 1, "Mace"), "{log}");
    assert_eq!(after.characters[1].gold, elf_gold + 3, "{log}");
    assert!(!carries(&after, 0, "Broadsword"), "abandoned: {log}");
    assert_eq!(after.characters[0].weapon.as_deref(), Some("Short Sword"));
    assert!(
        log.contains("the Short Sword of the Amazon is frozen"),
        "{log}"
    );

    state.magic.in_effect[0].spell = "Melt Into Mist".into();
    let (after, events) = play(
        state,
        &[
            ("P1", "H\nReceive: 2 gold from Elf"),
            ("P2", "H\nGive: 2 gold to Amazon"),
        ],
        DiceScript::default(),
    );
    let log = super::log::gm_log(&events);
    assert_eq!(after.characters[1].gold, elf_gold, "{log}");
    assert!(log.contains("can take on no gold or belongings"), "{log}");
}
