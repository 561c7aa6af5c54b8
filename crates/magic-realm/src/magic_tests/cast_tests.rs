//! Tests of casting: the colour and chit a spell needs, artifacts, chits
//! tied up until expiry, permanent spells falling inert and waking, reach,
//! targets, prepared chits, and the registry of every learnable spell.

use crate::board::ClearingId;
use crate::data::terms::Colour;
use crate::data::tiles::ClearingKind;
use crate::day::{Day, activities, events::PhaseResult};
use crate::rules::TOGGLES;
use crate::state::ChitCondition;
use crate::test_support::{data, test_game as game};
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;

use crate::magic::MagicError;
use crate::magic::cast::{CastRequest, cast, check};
use crate::magic::effect::SpellEffect;
use crate::magic::events::MagicEvent;
use crate::magic::{enchant, expiry, spells};
use crate::state::magic::{Aim, CastWith};

use super::test_fixtures::{cast_ok, caster, forced, me, request, together, who, with_book};

#[test]
fn the_wrong_colour_cannot_cast_and_says_which_is_missing() {
    let mut state = game(&["Wizard"]);
    caster(&mut state, 0, "II", "Fog");
    let tile = state.characters[0].position.tile.clone();
    let err = check(
        &state,
        data(),
        &Rules::default(),
        &request(0, "Fog", vec![Aim::Tile { code: tile }], 7),
    )
    .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("needs grey magic") && text.contains("white, black"),
        "{text}"
    );
}

#[test]
fn a_spell_at_the_wrong_kind_of_target_says_in_words_what_it_targets() {
    let mut state = game(&["Wizard"]);
    caster(&mut state, 0, "II", "Witch's Brew");
    let tile = state.characters[0].position.tile.clone();
    let err = check(
        &state,
        data(),
        &Rules::default(),
        &request(0, "Witch's Brew", vec![Aim::Tile { code: tile }], 14),
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("it targets own Magic chits"),
        "{err}"
    );
}

#[test]
fn a_spell_not_known_or_the_wrong_chit_type_cannot_be_cast() {
    let mut state = game(&["Wizard"]);
    caster(&mut state, 0, "IV", "Fiery Blast");
    state.characters[0].magic.spells.clear();
    let req = request(0, "Fiery Blast", vec![me(&state, 0)], 21);
    assert!(
        check(&state, data(), &Rules::default(), &req)
            .unwrap_err()
            .to_string()
            .contains("not recorded")
    );
    caster(&mut state, 0, "III", "Fiery Blast");
    assert!(
        check(&state, data(), &Rules::default(), &req)
            .unwrap_err()
            .to_string()
            .contains("not type IV")
    );
}

#[test]
fn artifacts_cast_once_per_evening_and_only_awakened_spells() {
    let mut state = game(&["Wizard", "Amazon"]);
    together(&mut state);
    with_book(&mut state, 0, "Book of Lore", "Fiery Blast");
    let req = CastRequest {
        with: CastWith::Treasure {
            name: "Book of Lore".into(),
        },
        ..request(0, "Fiery Blast", vec![me(&state, 1)], 21)
    };
    let err = check(&state, data(), &Rules::default(), &req).unwrap_err();
    assert!(err.to_string().contains("not awakened"), "{err}");
    state
        .magic
        .awakened
        .entry("Book of Lore".into())
        .or_default()
        .insert("Fiery Blast".into());
    let effects = cast_ok(&mut state, &req, &mut Dice::new(1, 1));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, SpellEffect::Attack { speed: 0, .. })),
        "artifact spells have speed 0"
    );
    // The attack spell expired with its attack (3.1 4.6.7b); the book has
    // had its use for the Evening (8.3.9c.4).
    assert!(state.magic.in_effect.is_empty());
    let err = check(&state, data(), &Rules::default(), &req).unwrap_err();
    assert!(err.to_string().contains("once per Evening"), "{err}");
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    crate::day::spell_clock::midnight(&mut day);
    assert!(check(&day.state, data(), &rules, &req).is_ok());
}

#[test]
fn a_chit_stays_tied_up_until_the_spell_expires_then_fatigues() {
    let mut state = game(&["Wizard"]);
    caster(&mut state, 0, "II", "Witch's Brew");
    let aim = Aim::OwnChits {
        character: "Wizard".into(),
    };
    let req = request(0, "Witch's Brew", vec![aim], 14);
    cast_ok(&mut state, &req, &mut Dice::new(1, 1));
    assert_eq!(
        state.characters[0].chits[0].condition,
        ChitCondition::Active
    );
    assert!(enchant::tied_up(&state, 0, 0));
    assert!(
        check(&state, data(), &Rules::default(), &req)
            .unwrap_err()
            .to_string()
            .contains("tied")
    );
    // A day spell lasts until Sunset of the next day.
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    crate::day::spell_clock::sunset(&mut day, 14);
    assert_eq!(day.state.magic.in_effect.len(), 1);
    crate::day::spell_clock::sunset(&mut day, 15);
    assert!(day.state.magic.in_effect.is_empty());
    assert_eq!(
        day.state.characters[0].chits[0].condition,
        ChitCondition::Fatigued
    );
}

/// Enhanced Magic (3.1 10.C.1.1): the cast fatigues its MAGIC chit at once
/// and ties up neither chit nor spell, so a rested chit casts the same spell
/// again while the first casting lasts, and the spell's end fatigues
/// nothing.
#[test]
fn enhanced_magic_ties_up_neither_chit_nor_spell_3_1_10_c_1() {
    let rules = Rules::new(["enhanced_magic"], TOGGLES).expect("a built toggle");
    let mut state = game(&["Wizard"]);
    caster(&mut state, 0, "II", "Fog");
    let tile = state.characters[0].position.tile.clone();
    let req = request(0, "Fog", vec![Aim::Tile { code: tile }], 14);
    cast(&mut state, data(), &rules, &req, &mut Dice::new(1, 1)).expect("cast");
    assert_eq!(
        state.characters[0].chits[0].condition,
        ChitCondition::Fatigued
    );
    assert!(!enchant::tied_up(&state, 0, 0));
    state.characters[0].chits[0].condition = ChitCondition::Active;
    check(&state, data(), &rules, &req).expect("the spell is free to be cast again");
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    crate::day::spell_clock::sunset(&mut day, 15);
    assert!(day.state.magic.in_effect.is_empty());
    assert_eq!(
        day.state.characters[0].chits[0].condition,
        ChitCondition::Active,
        "the spell's end gives back no chit to fatigue"
    );
}

#[test]
fn witchs_brew_makes_type_ii_chits_count_as_type_iv() {
    let mut state = game(&["Wizard"]);
    caster(&mut state, 0, "II", "Witch's Brew");
    state.characters[0].chits[1].chit = "MAGIC II3*".into();
    state.characters[0].chits[1].condition = ChitCondition::Active;
    let aim = Aim::OwnChits {
        character: "Wizard".into(),
    };
    cast_ok(
        &mut state,
        &request(0, "Witch's Brew", vec![aim], 14),
        &mut Dice::new(1, 1),
    );
    assert_eq!(
        crate::magic::cast::effective_type(&state, data(), 0, 1),
        Some(crate::data::terms::MagicType::IV)
    );
}

#[test]
fn permanent_spells_fall_inert_at_midnight_and_wake_on_a_colour_day() {
    let mut state = game(&["Witch King", "Amazon"]);
    together(&mut state);
    caster(&mut state, 0, "VI", "Transform");
    let req = request(0, "Transform", vec![me(&state, 1)], 21);
    let mut dice = forced("magic/Transform/Witch King", &[6]);
    let effects = cast_ok(&mut state, &req, &mut dice);
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, SpellEffect::Transformed { form, .. } if form == "Frog"))
    );
    assert_eq!(state.magic.in_effect[0].detail.as_deref(), Some("Frog"));
    // What she has as it takes hold is frozen with her (3.1 4.6.9b.1),
    // and reappears as it was when the spell falls inert at Midnight.
    let noted =
        |state: &crate::state::MrState| state.characters[1].magic.transmorphized_with.clone();
    let frozen = noted(&state).expect("noted as the cast takes hold");
    assert_eq!(frozen.gold, state.characters[1].gold);
    assert!(
        frozen.items.iter().any(|i| i == "Short Sword"),
        "{frozen:?}"
    );
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    crate::day::spell_clock::midnight(&mut day);
    assert!(day.state.magic.in_effect[0].inert);
    assert_eq!(noted(&day.state), None);
    crate::day::spell_clock::sunset(&mut day, 22);
    assert!(day.state.magic.in_effect[0].inert, "no purple on day 22");
    crate::day::spell_clock::dawn(&mut day, 23, &Default::default());
    assert!(day.state.magic.in_effect[0].inert, "no purple on day 23");
    crate::day::spell_clock::dawn(&mut day, 49, &Default::default());
    assert!(
        !day.state.magic.in_effect[0].inert,
        "purple on day 21 of the second month, from dawn"
    );
    assert!(
        noted(&day.state).is_some(),
        "energized, it takes hold again"
    );
    crate::day::spell_clock::midnight(&mut day);
    crate::day::spell_clock::sunset(&mut day, 49);
    assert!(!day.state.magic.in_effect[0].inert, "and at Sunset");
}

#[test]
fn a_colour_chit_can_wake_another_casters_permanent_spell() {
    let mut state = game(&["Witch King", "Amazon", "Wizard"]);
    together(&mut state);
    caster(&mut state, 0, "VI", "Melt Into Mist");
    cast_ok(
        &mut state,
        &request(0, "Melt Into Mist", vec![who("Amazon")], 21),
        &mut Dice::new(1, 1),
    );
    let id = state.magic.in_effect[0].id;
    state.magic.in_effect[0].inert = true;
    state.characters[2].chits[1].chit = "MAGIC IV3*".into();
    state.characters[2].chits[1].condition = ChitCondition::Active;
    state.characters[2].chits[1].enchanted = true;
    let event = expiry::energize_with_chit(&mut state, data(), 2, 1, id).unwrap();
    assert!(matches!(
        event,
        MagicEvent::Energized {
            colour: Colour::Purple,
            ..
        }
    ));
    assert!(!state.magic.in_effect[0].inert);
    assert_eq!(
        state.characters[2].chits[1].condition,
        ChitCondition::Fatigued
    );
}

#[test]
fn mountain_spells_need_a_mountain_clearing() {
    let mut state = game(&["Wizard", "Amazon"]);
    together(&mut state);
    caster(&mut state, 0, "IV", "Lightning Bolt");
    let here = state.characters[0].position.clone();
    assert_ne!(
        state.board.clearing(&here).unwrap().kind,
        ClearingKind::Mountain
    );
    let err = check(
        &state,
        data(),
        &Rules::default(),
        &request(0, "Lightning Bolt", vec![me(&state, 1)], 21),
    )
    .unwrap_err();
    assert!(err.to_string().contains("mountain"), "{err}");
}

#[test]
fn every_learnable_spell_is_in_the_registry_and_unbuilt_ones_say_so() {
    let mut built = 0;
    for spell in data().spells.iter().filter(|s| s.learnable()) {
        let build =
            spells::build_of(&spell.name).unwrap_or_else(|| panic!("{} missing", spell.name));
        if let spells::Build::NotBuilt(_) = build {
            let mut state = game(&["Magician"]);
            let kind = spell.spell_type.unwrap().numeral();
            caster(&mut state, 0, kind, &spell.name);
            let err = check(
                &state,
                data(),
                &Rules::default(),
                &request(0, &spell.name, vec![me(&state, 0)], 7),
            )
            .unwrap_err();
            assert!(
                matches!(&err, MagicError::NotImplemented(t) if t.contains(&spell.name) && t.contains("not implemented yet")),
                "{err}"
            );
        } else {
            built += 1;
        }
    }
    assert!(built >= 25, "{built} spells built");
    assert!(!spells::is_built("Flying Carpet Spell"));
    assert!(spells::build_of("Nonsense").is_none());
}

#[test]
fn a_cast_that_fails_leaves_the_state_unchanged() {
    let mut state = game(&["Wizard", "Amazon"]);
    together(&mut state);
    caster(&mut state, 0, "IV", "Hurricane Winds");
    let mountain_free = state.clone();
    let req = request(0, "Hurricane Winds", vec![me(&state, 1)], 21);
    assert!(
        cast(
            &mut state,
            data(),
            &Rules::default(),
            &req,
            &mut Dice::new(1, 1)
        )
        .is_err()
    );
    assert_eq!(state, mountain_free);
}

#[test]
fn a_target_elsewhere_cannot_be_targeted() {
    let mut state = game(&["Witch", "Amazon"]);
    caster(&mut state, 0, "V", "Curse");
    state.characters[1].position = ClearingId::new("XX", 1);
    let err = check(
        &state,
        data(),
        &Rules::default(),
        &request(0, "Curse", vec![me(&state, 1)], 14),
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("not in the caster's clearing"),
        "{err}"
    );
}

#[test]
fn a_spell_reaches_only_the_casters_clearing_and_tile() {
    let mut state = game(&["Wizard"]);
    caster(&mut state, 0, "II", "Fog");
    let elsewhere = state
        .board
        .clearings()
        .into_iter()
        .find(|c| c.tile != state.characters[0].position.tile)
        .unwrap();
    let err = check(
        &state,
        data(),
        &Rules::default(),
        &request(
            0,
            "Fog",
            vec![Aim::Tile {
                code: elsewhere.tile,
            }],
            14,
        ),
    )
    .unwrap_err();
    assert!(err.to_string().contains("own tile"), "{err}");
}

#[test]
fn targeting_an_individual_unhides_the_caster_and_a_bad_target_fatigues_the_chit() {
    let mut state = game(&["Witch", "Amazon"]);
    together(&mut state);
    state.characters[0].hidden = true;
    caster(&mut state, 0, "V", "Curse");
    let req = request(0, "Curse", vec![who("Amazon")], 14);
    let effects = cast_ok(&mut state, &req, &mut Dice::new(1, 1));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, SpellEffect::Unhidden { .. }))
    );
    assert!(!state.characters[0].hidden);

    let mut state = game(&["Witch", "Amazon"]);
    together(&mut state);
    state.characters[0].hidden = true;
    caster(&mut state, 0, "V", "Curse");
    let ambush = Rules::new(["ambush"], TOGGLES).unwrap();
    cast(&mut state, data(), &ambush, &req, &mut Dice::new(1, 1)).unwrap();
    assert!(
        state.characters[0].hidden,
        "under Ambush combat rolls his hide"
    );

    let mut state = game(&["Witch", "Amazon"]);
    together(&mut state);
    caster(&mut state, 0, "V", "Curse");
    let bad = request(0, "Curse", vec![Aim::Weather], 14);
    assert!(matches!(
        check(&state, data(), &Rules::default(), &bad),
        Err(MagicError::BadTarget { .. })
    ));
    assert_eq!(
        crate::magic::cast::fizzle(&mut state, &bad).as_deref(),
        Some("MAGIC V2*")
    );
    assert_eq!(
        state.characters[0].chits[0].condition,
        ChitCondition::Fatigued
    );
}

#[test]
fn an_alert_phase_prepares_a_magic_chit_that_casts_at_speed_zero() {
    let mut state = game(&["Witch", "Amazon"]);
    together(&mut state);
    state.characters[0].weapon = None;
    caster(&mut state, 0, "V", "Curse");
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    let result = activities::alert(&mut day, 0, Some("V2*")).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(
        matches!(&result, PhaseResult::Done { activity } if activity.contains("MAGIC V2*")),
        "{result:?}"
    );
    let mut state = day.state;
    assert!(state.characters[0].chits[0].prepared);
    let req = request(0, "Curse", vec![who("Amazon")], 14);
    assert_eq!(crate::magic::cast::speed(&state, &req), 0);
    // 3.1 rules 7.9.3 and 8.9.2c: unused, it stays alerted through the end
    // of combat and fatigues at Midnight.
    let here = state.characters[0].position.clone();
    expiry::end_of_combat(&mut state, &here);
    assert!(state.characters[0].chits[0].prepared);
    assert_eq!(
        state.characters[0].chits[0].condition,
        ChitCondition::Active
    );
    let mut day = Day::new(data(), &rules, state, &mut dice);
    crate::day::spell_clock::midnight(&mut day);
    assert!(!day.state.characters[0].chits[0].prepared);
    assert_eq!(
        day.state.characters[0].chits[0].condition,
        ChitCondition::Fatigued
    );
}

/// 3.1 rule 10.A.6.4 (the Magician's optional ability) overrides 8.9.2c:
/// at Midnight his alerted chits are only unalerted.
#[test]
fn the_magicians_charms_unalert_his_chits_at_midnight_without_fatigue() {
    let mut state = game(&["Magician"]);
    caster(&mut state, 0, "IV", "Fiery Blast");
    state.characters[0].chits[0].prepared = true;
    let rules = Rules::new(["optional_abilities"], TOGGLES).unwrap();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    crate::day::spell_clock::midnight(&mut day);
    let chit = &day.state.characters[0].chits[0];
    assert!(!chit.prepared);
    assert_eq!(chit.condition, ChitCondition::Active);
}

/// 3.1 rules 4.6.7g.1 and 8.9.2e: a Combat spell outlasts the end of its
/// combat (it follows its target into later combats that Evening) and
/// expires at Midnight, when its chit fatigues.
#[test]
fn a_combat_spell_lasts_past_the_end_of_combat_until_midnight() {
    let mut state = game(&["Elf", "Amazon"]);
    together(&mut state);
    caster(&mut state, 0, "III", "Elven Grace");
    let elf = me(&state, 0);
    cast_ok(
        &mut state,
        &request(0, "Elven Grace", vec![elf], 28),
        &mut Dice::new(1, 1),
    );
    let here = state.characters[0].position.clone();
    expiry::end_of_combat(&mut state, &here);
    assert!(
        state
            .magic
            .in_effect
            .iter()
            .any(|s| s.spell == "Elven Grace"),
        "the combat spell ended with the combat"
    );
    assert_eq!(
        state.characters[0].chits[0].condition,
        ChitCondition::Active
    );
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    crate::day::spell_clock::midnight(&mut day);
    assert!(day.state.magic.in_effect.is_empty());
    assert_eq!(
        day.state.characters[0].chits[0].condition,
        ChitCondition::Fatigued
    );
}

/// 3.1 rule 4.6.7f: cast, Protection from Magic waits as a chit with its
/// target, through the end of combat, and shields only once activated.
#[test]
fn protection_from_magic_shields_once_activated_and_ends_with_the_combat() {
    let mut state = game(&["Magician", "Amazon"]);
    together(&mut state);
    caster(&mut state, 0, "VII", "Protection from Magic");
    cast_ok(
        &mut state,
        &request(0, "Protection from Magic", vec![who("Amazon")], 28),
        &mut Dice::new(1, 1),
    );
    assert!(crate::magic::cast::shielded(&state, &who("Amazon")).is_none());
    let here = state.characters[0].position.clone();
    expiry::end_of_combat(&mut state, &here);
    assert_eq!(state.magic.in_effect.len(), 1, "the held chit waits");
    crate::magic::phase_chit::activate(&mut state, 1, "protection from magic").expect("held");
    assert!(crate::magic::cast::shielded(&state, &who("Amazon")).is_some());
    expiry::end_of_combat(&mut state, &here);
    assert!(crate::magic::cast::shielded(&state, &who("Amazon")).is_none());
}

/// 3.1 rule 4.6.10e: a second Combat spell of the same name has no hold on
/// a target the first one bewitches; with no target left it is broken and
/// its chit fatigues, and the first spell holds on.
#[test]
fn a_duplicate_combat_spell_on_a_bewitched_target_is_broken() {
    // The Wizard bewitches the Elf first: a caster cannot cast his own
    // spell again while it lasts (3.1 8.4.3c), so the duplicate is the
    // Elf's own.
    let mut state = game(&["Elf", "Wizard"]);
    caster(&mut state, 0, "III", "Elven Grace");
    caster(&mut state, 1, "III", "Elven Grace");
    state.characters[0].chits[1].chit = "MAGIC III3*".into();
    state.characters[0].chits[1].condition = ChitCondition::Active;
    state.characters[0].chits[1].enchanted = false;
    let elf = me(&state, 0);
    cast_ok(
        &mut state,
        &request(1, "Elven Grace", vec![elf.clone()], 28),
        &mut Dice::new(1, 1),
    );
    let mut second = request(0, "Elven Grace", vec![elf], 28);
    second.with = CastWith::Chit { index: 1 };
    let effects = cast_ok(&mut state, &second, &mut Dice::new(1, 1));
    assert!(
        effects.iter().any(|e| matches!(
            e,
            SpellEffect::Magic(MagicEvent::Duplicate { broken: true, .. })
        )),
        "{effects:?}"
    );
    assert_eq!(state.magic.in_effect.len(), 1);
    assert_eq!(
        state.characters[0].chits[1].condition,
        ChitCondition::Fatigued
    );
    assert_eq!(
        state.characters[0].chits[0].condition,
        ChitCondition::Active
    );
}

/// 3.1 rules 8.3.9c.5-6: the Scroll of Nature is the spellcaster. Killing the Wizard
/// who played it does not end its Fog; while the Scroll lies unowned the Fog
/// is nullified, not broken; once the Amazon carries the Scroll it holds the
/// tile again, under her control.
#[test]
fn an_items_spell_outlives_its_owner_and_is_nullified_while_unowned_3_1_8_3_9c_5() {
    let mut state = game(&["Wizard", "Amazon"]);
    together(&mut state);
    with_book(&mut state, 0, "Scroll of Nature", "Fog");
    state
        .magic
        .awakened
        .entry("Scroll of Nature".into())
        .or_default()
        .insert("Fog".into());
    let tile = state.characters[0].position.tile.clone();
    let req = CastRequest {
        with: CastWith::Treasure {
            name: "Scroll of Nature".into(),
        },
        ..request(0, "Fog", vec![Aim::Tile { code: tile.clone() }], 14)
    };
    cast_ok(&mut state, &req, &mut Dice::new(1, 1));
    assert!(crate::magic::cast::fogged(&state, &tile));
    // The Wizard dies; his belongings lie in the clearing.
    let events = expiry::caster_or_target_gone(&mut state, "Wizard");
    assert!(events.is_empty(), "{events:?}");
    let book = state.characters[0].belongings.remove(0);
    state.characters[0].dead = true;
    assert_eq!(state.magic.in_effect.len(), 1, "the spell is not broken");
    assert!(!crate::magic::cast::fogged(&state, &tile), "nullified");
    state.characters[1].belongings.push(book);
    assert!(crate::magic::cast::fogged(&state, &tile));
    let spell = &state.magic.in_effect[0];
    assert_eq!(
        crate::magic::item_caster::controller(&state, spell),
        Some("Amazon")
    );
}
