//! The four spells built last in the day (magic summary "Spell Effects"):
//! Prophecy's alternatives, the phantasm's turn, hiring goblins under Deal
//! with Goblins, a lone character casting at Evening, each spell ending at
//! Sunset of the day after its cast; and bots that cast.

use std::collections::BTreeMap;

use crate::board::ClearingId;
use crate::combat::log::CombatLine;
use crate::data::spells::Duration;
use crate::data::tiles::{ClearingKind, PathKind};
use crate::magic::events::MagicEvent;
use crate::magic::spells::deal_with_goblins::kind_of;
use crate::orders::{DayOrders, parse_day_orders};
use crate::state::magic::{Aim, CastWith, SpellInEffect};
use crate::state::{ChitCondition, MrState, Whereabouts};
use crate::test_support::{combat_lines, data, game_played_by, results, without_denizens};
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;

use super::events::{DayEvent, Happening, PhaseResult};
use super::{bot, resolve_day};

/// One character, away from any dwelling (where natives gather), with no
/// denizen on the map.
fn alone(character: &str) -> MrState {
    let mut state = without_denizens(game_played_by(&[character], |_| "P1".into()));
    let quiet = state
        .board
        .clearings()
        .into_iter()
        .find(|c| {
            !state.dwellings.values().any(|d| d.tile == c.tile)
                && matches!(
                    state.board.clearing(c).map(|k| k.kind),
                    Some(ClearingKind::Woods | ClearingKind::Normal)
                )
        })
        .expect("a quiet clearing");
    // No map chit in his tile, so nothing comes at the end of his turn.
    state.map_chits.remove(&quiet.tile);
    state.characters[0].position = quiet;
    state
}

/// Put `spell` in effect on character 0, cast by him yesterday.
fn in_effect(state: &mut MrState, spell: &str, targets: Vec<Aim>) -> u32 {
    let id = state.magic.next_id;
    state.magic.next_id += 1;
    state.magic.in_effect.push(SpellInEffect {
        id,
        spell: spell.into(),
        caster: state.characters[0].name.clone(),
        with: CastWith::Chit { index: 0 },
        targets,
        duration: Duration::Day,
        cast_on: state.day,
        inert: false,
        held: false,
        detail: None,
        untied: false,
    });
    id
}

fn me(state: &MrState) -> Aim {
    Aim::Character {
        name: state.characters[0].name.clone(),
    }
}

fn play(state: MrState, orders: &str, seed: u64) -> (MrState, Vec<DayEvent>) {
    let orders: BTreeMap<String, DayOrders> = [(
        "P1".to_string(),
        parse_day_orders(orders, 1, data()).expect("orders"),
    )]
    .into();
    let day = state.day + 1;
    resolve_day(
        data(),
        &Rules::default(),
        state,
        &orders,
        &mut Dice::new(seed, day),
    )
    .expect("the day resolves")
}

fn tile_name(code: &str) -> String {
    data().tiles.by_code(code).expect("tile").name.clone()
}

/// A clearing along a road from `from`, not a mountain or a cave.
fn road_from(state: &MrState, from: &ClearingId) -> ClearingId {
    state
        .board
        .neighbours(from)
        .into_iter()
        .filter(|l| l.kind == PathKind::Normal)
        .map(|l| l.to)
        .find(|to| {
            matches!(
                state.board.clearing(to).map(|c| c.kind),
                Some(ClearingKind::Woods | ClearingKind::Normal)
            )
        })
        .expect("a road")
}

/// A clearing on another tile that is not next to `from`.
fn far_from(state: &MrState, from: &ClearingId) -> ClearingId {
    let near: Vec<ClearingId> = state
        .board
        .neighbours(from)
        .into_iter()
        .map(|l| l.to)
        .collect();
    state
        .board
        .clearings()
        .into_iter()
        .find(|c| c.tile != from.tile && !near.contains(c))
        .expect("a far clearing")
}

fn magic_events(events: &[DayEvent]) -> Vec<MagicEvent> {
    events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Magic(m) => Some(m.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn under_prophecy_the_first_alternative_that_can_be_done_is_done() {
    let mut state = alone("Wizard");
    let here = state.characters[0].position.clone();
    let far = far_from(&state, &here);
    let orders = format!("M {} {} or H", tile_name(&far.tile), far.clearing);
    let without = play(state.clone(), &orders, 5);
    assert!(
        matches!(&results(&without.1, "Wizard")[0], PhaseResult::Lost { .. }),
        "{:?}",
        results(&without.1, "Wizard")
    );
    assert!(
        magic_events(&without.1)
            .iter()
            .any(|e| matches!(e, MagicEvent::AlternativesUnread { phase: 1, .. }))
    );
    let target = vec![me(&state)];
    in_effect(&mut state, "Prophecy", target);
    let (after, events) = play(state, &orders, 5);
    match &results(&events, "Wizard")[0] {
        PhaseResult::Instead { reason, result } => {
            assert!(reason.contains("Prophecy chooses H"), "{reason}");
            assert!(matches!(**result, PhaseResult::Hid { .. }), "{result:?}");
        }
        other => panic!("{other:?}"),
    }
    assert!(
        after.magic.in_effect.is_empty(),
        "Prophecy ends at Sunset of the day after its cast"
    );
}

#[test]
fn the_phantasm_takes_its_own_turn_and_vanishes_at_sunset() {
    let mut state = alone("Wizard");
    let here = state.characters[0].position.clone();
    let next = road_from(&state, &here);
    let target = vec![me(&state)];
    let id = in_effect(&mut state, "Phantasm", target);
    state.magic.phantasms.insert(id, here.clone());
    let orders = format!(
        "H\nPhantasm: M {} {}, S, SPX, SP, T",
        tile_name(&next.tile),
        next.clearing
    );
    let (after, events) = play(state.clone(), &orders, 3);
    let phases: Vec<(usize, String)> = magic_events(&events)
        .into_iter()
        .filter_map(|e| match e {
            MagicEvent::PhantasmPhase { number, result, .. } => Some((number, result)),
            _ => None,
        })
        .collect();
    assert_eq!(phases.len(), 5, "{phases:?}");
    assert_eq!(phases[0].1, format!("moves to {next}"));
    assert!(phases[1].1.contains("peers"), "{phases:?}");
    assert!(phases[2].1.contains("Spell phase is done"), "{phases:?}");
    assert!(phases[3].1.contains("Spell phase is done"), "{phases:?}");
    assert!(phases[4].1.contains("only 4 phases"), "{phases:?}");
    assert!(
        after.characters[0].chits.iter().any(|c| c.enchanted),
        "its SP enchanted one of his MAGIC chits"
    );
    assert_eq!(
        after.characters[0].position, here,
        "only the phantasm moved"
    );
    assert!(after.magic.phantasms.is_empty(), "it vanished at Sunset");
    // Without a phantasm the line is reported, not done.
    let mut none = state;
    none.magic = Default::default();
    let (_, events) = play(none, &orders, 3);
    assert!(
        magic_events(&events)
            .iter()
            .any(|e| matches!(e, MagicEvent::NoPhantasm { .. }))
    );
}

fn goblins_here(state: &mut MrState) -> Vec<String> {
    let here = state.characters[0].position.clone();
    let spears: Vec<String> = state
        .denizens
        .keys()
        .filter(|id| kind_of(id) == Some("Spear Goblin"))
        .take(2)
        .cloned()
        .collect();
    for id in &spears {
        state.denizens.get_mut(id).expect("goblin").at = Whereabouts::Clearing {
            clearing: here.clone(),
        };
    }
    spears
}

#[test]
fn goblins_are_hired_only_under_deal_with_goblins() {
    let mut state = alone("Wizard");
    state.characters[0].gold = 40;
    let spears = goblins_here(&mut state);
    let orders = "HR\nHire: Spear Goblins";
    let (after, events) = play(state.clone(), orders, 9);
    match &results(&events, "Wizard")[0] {
        PhaseResult::Lost { reason } => assert!(reason.contains("Deal with Goblins"), "{reason}"),
        other => panic!("{other:?}"),
    }
    assert!(after.characters[0].hirelings.is_empty());
    let target = vec![Aim::Denizen {
        id: spears[0].clone(),
    }];
    in_effect(&mut state, "Deal with Goblins", target);
    // Some seed gets a price from the Meeting table; each either hires the
    // pair or says why not.
    let hired = (1..30).find_map(|seed| {
        let (after, events) = play(state.clone(), orders, seed);
        let met = events.iter().any(|e| {
            matches!(&e.happening, Happening::Hire(super::hire::HireEvent::Deal(
                super::meeting::DealStep::Met { group, .. })) if group == "Spear Goblins")
        });
        assert!(met, "the deal is made on the Meeting table");
        (!after.characters[0].hirelings.is_empty()).then_some(after)
    });
    let after = hired.expect("some seed hires them");
    let names: Vec<&str> = after.characters[0]
        .hirelings
        .iter()
        .map(|h| h.native.as_str())
        .collect();
    assert_eq!(names, spears.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(after.characters[0].gold < 40);
    assert!(
        !after
            .magic
            .in_effect
            .iter()
            .any(|s| s.spell == "Deal with Goblins"),
        "the spell ends at Sunset"
    );
}

#[test]
fn a_character_alone_casts_his_spell_at_evening() {
    let mut state = alone("Wizard");
    // Day 21, a purple day, is resolved next.
    state.day = 20;
    let c = &mut state.characters[0];
    c.chits[0].chit = "MAGIC II2*".into();
    c.chits[0].condition = ChitCondition::Active;
    c.magic.spells = vec!["Prophecy".into()];
    let (after, events) = play(state.clone(), "H\nCombat: cast Prophecy", 4);
    let lines = combat_lines(&events);
    assert!(
        lines
            .iter()
            .any(|l| l.to_string().contains("alone, casts Prophecy")),
        "{lines:#?}"
    );
    let prophecy = after
        .magic
        .in_effect
        .iter()
        .find(|s| s.spell == "Prophecy")
        .expect("in effect");
    assert_eq!(prophecy.cast_on, 21);
    assert_eq!(prophecy.targets, vec![me(&after)]);
    // On a day without purple the cast is refused with the reason.
    state.day = 21;
    let (after, events) = play(state, "H\nCombat: cast Prophecy", 4);
    assert!(after.magic.in_effect.is_empty());
    assert!(
        combat_lines(&events)
            .iter()
            .any(|l| matches!(l, CombatLine::Refused { reason, .. } if reason.contains("purple"))),
        "{:#?}",
        combat_lines(&events)
    );
}

#[test]
fn bot_magic_users_cast_over_a_seeded_month_and_never_are_refused() {
    // A month on one seed may bring no fight that calls for a spell;
    // forty seeded months together must, and no cast may ever be refused.
    let mut casts = Vec::new();
    for seed in 17..=56 {
        casts.extend(bot_month_casts(seed));
    }
    // Alone at Evening, or in a battle, named at itself.
    let on_itself = |t: &String| {
        ["Wizard", "Witch"].iter().any(|c| {
            t.starts_with(&format!("the {c}: "))
                && (t.contains("alone, casts") || t.contains(&format!(" on the {c} with")))
        })
    };
    assert!(
        casts.iter().any(on_itself),
        "a bot casts a spell on itself in a month: {casts:#?}"
    );
    assert!(
        casts.iter().any(|t| t.contains("casts Fiery Blast on")),
        "a bot casts its attack spell in a battle: {casts:#?}"
    );
}

/// The casts of the bots' combat lines over one month played on `seed`,
/// checking that none is refused.
fn bot_month_casts(seed: u64) -> Vec<String> {
    let mut state = game_played_by(&["Wizard", "Witch", "Amazon"], |i| format!("P{i}"));
    for who in 0..2 {
        let c = &mut state.characters[who];
        c.magic.spells = vec![
            "See Hidden Signs".into(),
            "Premonition".into(),
            "Sense Danger".into(),
            "Blend Into Background".into(),
            "Fiery Blast".into(),
        ];
    }
    let rules = Rules::default();
    let mut casts = Vec::new();
    for _ in 0..28 {
        let day = state.day + 1;
        let mut bot_dice = Dice::new(seed, day);
        let orders: BTreeMap<String, DayOrders> = state
            .characters
            .iter()
            .filter_map(|c| {
                bot::orders_for(data(), &rules, &state, &c.player, &mut bot_dice)
                    .map(|o| (c.player.clone(), o))
            })
            .collect();
        let (next, events) =
            resolve_day(data(), &rules, state, &orders, &mut Dice::new(seed, day)).expect("day");
        for line in combat_lines(&events) {
            let text = line.to_string();
            if text.contains("casts") {
                casts.push(text.clone());
            }
            assert!(
                !matches!(&line, CombatLine::Refused { reason, .. } if reason.contains("fails")),
                "a bot's cast was refused on day {day} of seed {seed}: {text}"
            );
        }
        state = next;
    }
    casts
}

#[test]
fn alone_he_enchants_a_treasure_he_carries_with_a_spell_named_in_the_order() {
    let mut state = alone("Wizard");
    state.day = 20;
    let c = &mut state.characters[0];
    c.chits[0].chit = "MAGIC VI2*".into();
    c.chits[0].condition = ChitCondition::Active;
    c.magic.spells = vec!["Enchant Artifact".into(), "Fiery Blast".into()];
    c.belongings.push(crate::state::Belonging {
        item: crate::state::Item {
            name: "Ancient Telescope".into(),
            kind: crate::state::ItemKind::Treasure,
        },
        active: true,
    });
    let orders = "H\nCombat: cast Enchant Artifact on ancient telescope with Fiery Blast";
    let (after, events) = play(state.clone(), orders, 4);
    assert!(
        crate::magic::spells::enchant_artifact::holds(&after, "Ancient Telescope", "Fiery Blast"),
        "{:#?}",
        combat_lines(&events)
    );
    // An attack spell named at a target alone is refused, not lost silently.
    let (after, events) = play(state, "H\nCombat: cast Fiery Blast on me", 4);
    assert!(after.magic.in_effect.is_empty());
    assert!(
        combat_lines(&events)
            .iter()
            .any(|l| matches!(l, CombatLine::Refused { reason, .. } if reason.contains("battle"))),
        "{:#?}",
        combat_lines(&events)
    );
}

#[test]
fn he_sells_to_the_goblins_his_spell_made_neutral() {
    let mut state = alone("Wizard");
    let spears = goblins_here(&mut state);
    let treasure = data()
        .treasures
        .iter()
        .find(|t| t.price.is_some_and(|p| p > 0))
        .expect("a treasure with a price");
    state.characters[0]
        .belongings
        .push(crate::state::Belonging {
            item: crate::state::Item {
                name: treasure.name.clone(),
                kind: crate::state::ItemKind::Treasure,
            },
            active: false,
        });
    let gold = state.characters[0].gold;
    let orders = format!("T\nSell: {}", treasure.name);
    let (after, events) = play(state.clone(), &orders, 2);
    match &results(&events, "Wizard")[0] {
        PhaseResult::Lost { reason } => assert!(reason.contains("nobody"), "{reason}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(after.characters[0].gold, gold);
    let target = vec![Aim::Denizen {
        id: spears[0].clone(),
    }];
    in_effect(&mut state, "Deal with Goblins", target);
    let (after, _) = play(state, &orders, 2);
    assert!(after.characters[0].gold > gold);
    assert_eq!(
        after.holdings["Spear Goblins"][0].name, treasure.name,
        "the goblins hold what they bought"
    );
}

/// The Wizard alone with a Shield and a Girtle of Energy carried inactive.
fn alone_carrying() -> MrState {
    let mut state = alone("Wizard");
    state.day = 20;
    let c = &mut state.characters[0];
    c.chits[0].chit = "MAGIC II2*".into();
    c.chits[0].condition = ChitCondition::Active;
    c.magic.spells = vec!["Prophecy".into()];
    for (kind, name) in [
        (crate::state::ItemKind::Armor, "Shield"),
        (crate::state::ItemKind::Treasure, "Girtle of Energy"),
    ] {
        c.belongings.push(crate::state::Belonging {
            item: crate::state::Item {
                kind,
                name: name.into(),
            },
            active: false,
        });
    }
    state
}

fn active(state: &MrState, name: &str) -> Option<bool> {
    state.characters[0]
        .belongings
        .iter()
        .find(|b| b.item.name == name)
        .map(|b| b.active)
}

/// 3.1 8.1.3a: alone, his two rounds may activate a belonging: his
/// standing `activate` clause makes the Shield active, as a battle's
/// Encounter step would.
#[test]
fn alone_he_activates_a_belonging_in_his_two_rounds_3_1_8_1_3a() {
    let (after, events) = play(alone_carrying(), "H\nCombat: activate Shield", 4);
    assert_eq!(active(&after, "Shield"), Some(true));
    let lines = combat_lines(&events);
    assert!(
        lines.iter().any(
            |l| matches!(l, CombatLine::Activated { item, active: true, .. } if item == "Shield")
        ),
        "{lines:#?}"
    );
}

/// 3.1 8.1.3a: each clause once, belongings first: round 1 abandons the
/// Shield (it lies in the clearing), round 2 casts Prophecy once, and no
/// round is left to activate the Girtle. Wounded, he does not run out of
/// the empty clearing.
#[test]
fn alone_his_clauses_take_a_round_each_and_he_does_not_run_3_1_8_1_3a() {
    let mut state = alone_carrying();
    state.characters[0].chits[5].condition = ChitCondition::Wounded;
    let home = state.characters[0].position.clone();
    let (after, events) = play(
        state,
        "H\nCombat: run when wounded 1, cast Prophecy, abandon Shield, activate Girtle of Energy",
        4,
    );
    let c = &after.characters[0];
    assert_eq!(c.position, home, "he stays");
    assert_eq!(active(&after, "Shield"), None, "abandoned");
    assert!(
        after
            .holdings
            .get(&crate::state::abandoned_pile(&home))
            .is_some_and(|pile| pile.iter().any(|i| i.name == "Shield"))
    );
    assert_eq!(active(&after, "Girtle of Energy"), Some(false));
    let casts = combat_lines(&events)
        .iter()
        .filter(|l| l.to_string().contains("alone, casts Prophecy"))
        .count();
    assert_eq!(casts, 1);
    assert!(after.magic.in_effect.iter().any(|s| s.spell == "Prophecy"));
}

/// 3.1 rule 4.6.7f.1: a Protection from Magic chit held by its target
/// shields nothing until he activates it at the start of a phase; it then
/// protects him for that phase and expires at its end, its chit fatigued.
#[test]
fn a_phase_chit_activated_at_a_phase_protects_for_that_phase_then_expires() {
    let mut state = alone("Elf");
    let index = crate::magic::enchant::find_chit(&state, 0, "VII3*").expect("the chit");
    let aim = me(&state);
    let id = in_effect(&mut state, "Protection from Magic", vec![aim.clone()]);
    let spell = state
        .magic
        .in_effect
        .iter_mut()
        .find(|s| s.id == id)
        .expect("it");
    spell.duration = Duration::Phase;
    spell.with = CastWith::Chit { index };
    spell.held = true;
    assert_eq!(
        crate::magic::cast::shielded(&state, &aim),
        None,
        "held: no effect"
    );
    let (after, events) = play(state, "H / H\nPhase 2: activate Protection from Magic", 3);
    assert!(after.magic.in_effect.is_empty());
    assert_eq!(
        after.characters[0].chits[index].condition,
        ChitCondition::Fatigued
    );
    let expired = magic_events(&events).into_iter().any(
        |m| matches!(m, MagicEvent::Expired { spell, .. } if spell == "Protection from Magic"),
    );
    assert!(expired);
}

/// 3.1 8.3.9a.3 in 8.1.3a: alone, his `fatigue` clause fatigues his colour
/// chit in his first round's Encounter step; it is a MAGIC chit again.
#[test]
fn alone_he_fatigues_a_colour_chit_3_1_8_3_9a_3() {
    let mut state = alone("Wizard");
    state.day = 20;
    let c = &mut state.characters[0];
    c.chits[0].chit = "MAGIC III2*".into();
    c.chits[0].condition = ChitCondition::Active;
    c.chits[0].enchanted = true;
    let (after, events) = play(state, "H\nCombat: fatigue MAGIC III2*", 4);
    let chit = &after.characters[0].chits[0];
    assert!(!chit.enchanted);
    assert_eq!(chit.condition, ChitCondition::Fatigued);
    let lines = combat_lines(&events);
    assert!(
        lines.iter().any(|l| matches!(
            l,
            CombatLine::ColourChitFatigued { chit, kept: None, .. } if chit == "MAGIC III2*"
        )),
        "{lines:#?}"
    );
}

/// 3.1 7.7.5a, 7.7.1b: drinks before hiring goblins under Deal with
/// Goblins cost a gold for each goblin of the kind present, his own hired
/// ones too.
#[test]
fn drinks_for_goblins_count_the_hired_ones_too() {
    let mut state = alone("Wizard");
    state.characters[0].gold = 40;
    let spears = goblins_here(&mut state);
    state.characters[0].hirelings.push(crate::state::Hireling {
        native: spears[0].clone(),
        days_left: 14,
    });
    let target = vec![Aim::Denizen {
        id: spears[1].clone(),
    }];
    in_effect(&mut state, "Deal with Goblins", target);
    let (_, events) = play(state, "HR\nHire: Spear Goblins\nDrinks: 5", 9);
    assert!(
        events.iter().any(|e| matches!(
            &e.happening,
            Happening::Hire(super::hire::HireEvent::Deal(
                super::meeting::DealStep::DrinksBought { gold: 2, .. }
            ))
        )),
        "{events:#?}"
    );
}

/// 3.1 4.6.6b: a bot plans no cast through its Good Book (type I) of a
/// type VII spell. With its MAGIC VII chit it plans Premonition; with that
/// chit fatigued, the book holding Premonition awake does not stand in.
#[test]
fn a_bot_plans_no_cast_its_book_cannot_make_3_1_4_6_6b() {
    let mut state = alone("Wizard");
    // Tonight is the 14th, a grey day: Premonition is grey.
    state.day = 13;
    let c = &mut state.characters[0];
    for chit in c.chits.iter_mut().filter(|c| c.chit.starts_with("MAGIC")) {
        chit.condition = ChitCondition::Fatigued;
    }
    c.chits[0].chit = "MAGIC VII3*".into();
    c.chits[0].condition = ChitCondition::Active;
    c.chits[0].enchanted = false;
    c.magic.spells = vec!["Premonition".into()];
    c.belongings.push(crate::state::Belonging {
        item: crate::state::Item {
            kind: crate::state::ItemKind::Treasure,
            name: "Good Book".into(),
        },
        active: true,
    });
    state
        .magic
        .awakened
        .entry("Good Book".into())
        .or_default()
        .insert("Premonition".into());
    let rules = Rules::default();
    let planned = |state: &MrState| super::bot_magic::day_spell(data(), &rules, state, 0);
    assert_eq!(planned(&state).as_deref(), Some("Premonition"));
    state.characters[0].chits[0].condition = ChitCondition::Fatigued;
    assert_eq!(planned(&state), None);
}
