//! Tests of the magic rules (seed 001; seed 000 II.C.10, IV.B–C; TABLES.md
//! §3, §5, §12): colour, enchanting, spells known and learned, curses,
//! casting, expiry and the spell registry.

use std::collections::BTreeSet;

use crate::dice::{Dice, DiceScript};
use crate::game::{Rules, Seat};
use crate::magic_realm::board::ClearingId;
use crate::magic_realm::data::spells::Duration;
use crate::magic_realm::data::terms::{Colour, Dwelling};
use crate::magic_realm::data::tiles::{ClearingKind, Side};
use crate::magic_realm::day::events::Happening;
use crate::magic_realm::day::{Day, PhaseOutcome, activities, events::PhaseResult, search};
use crate::magic_realm::orders::{Activity, SearchTable};
use crate::magic_realm::rules::TOGGLES;
use crate::magic_realm::setup::{SetupInputs, new_game};
use crate::magic_realm::state::{
    Belonging, ChitCondition, DenizenKind, Item, ItemKind, MrState, Whereabouts,
};
use crate::magic_realm::tables::magic::CurseKind;
use crate::magic_realm::test_support::{data, game_played_by};

use super::MagicError;
use super::cast::{CastRequest, SpellEffect, cast, check};
use super::colour::{ColourSource, colours_present, sources_present};
use super::events::MagicEvent;
use super::{curses, enchant, expiry, spellbook, spells};
use crate::magic_realm::state::magic::{Aim, CastWith};

fn game(characters: &[&str]) -> MrState {
    game_played_by(characters, |i| format!("p{i}"))
}

/// Everyone into the clearing of character 0.
fn together(state: &mut MrState) {
    let here = state.characters[0].position.clone();
    for c in &mut state.characters {
        c.position = here.clone();
    }
}

/// Give `who` a MAGIC chit of type `kind` (as chit 0) and the spell.
fn caster(state: &mut MrState, who: usize, kind: &str, spell: &str) -> usize {
    let c = &mut state.characters[who];
    c.chits[0].chit = format!("MAGIC {kind}2*");
    c.chits[0].condition = ChitCondition::Active;
    c.chits[0].enchanted = false;
    if !c.magic.spells.iter().any(|s| s == spell) {
        c.magic.spells.push(spell.to_string());
    }
    0
}

fn who(name: &str) -> Aim {
    Aim::Character {
        name: name.to_string(),
    }
}

fn request(who: usize, spell: &str, targets: Vec<Aim>, day: u32) -> CastRequest {
    CastRequest {
        caster: who,
        spell: spell.to_string(),
        with: CastWith::Chit { index: 0 },
        targets,
        colour_chit: None,
        day,
    }
}

fn me(state: &MrState, who: usize) -> Aim {
    Aim::Character {
        name: state.characters[who].name.clone(),
    }
}

fn forced(purpose: &str, faces: &[u8]) -> Dice {
    let mut script = DiceScript::default();
    script
        .force(purpose, faces)
        .unwrap_or_else(|e| panic!("{e}"));
    Dice::with_script(3, 1, script)
}

fn cast_ok(state: &mut MrState, req: &CastRequest, dice: &mut Dice) -> Vec<SpellEffect> {
    cast(state, data(), &Rules::default(), req, dice).unwrap_or_else(|e| panic!("{e}"))
}

// ---- colour magic ----

#[test]
fn colour_days_and_no_colour_between() {
    let state = game(&["Wizard"]);
    let rules = Rules::default();
    assert_eq!(
        colours_present(&state, data(), &rules, 7, 0),
        [Colour::White, Colour::Black].into()
    );
    assert_eq!(
        colours_present(&state, data(), &rules, 14, 0),
        [Colour::Grey].into()
    );
    assert_eq!(
        colours_present(&state, data(), &rules, 49, 0),
        [Colour::Purple].into()
    );
    assert_eq!(
        colours_present(&state, data(), &rules, 28, 0),
        [Colour::Gold].into()
    );
    // The Wizard starts at the Inn, in a valley clearing without colour.
    let none = colours_present(&state, data(), &rules, 3, 0);
    assert!(none.is_empty(), "{none:?}");
}

#[test]
fn the_season_names_the_seventh_days_colour() {
    let mut state = game(&["Wizard"]);
    state.magic.season = Some(11);
    let rules = Rules::new(["seasons_and_weather"], TOGGLES).unwrap();
    assert_eq!(
        colours_present(&state, data(), &rules, 7, 0),
        [Colour::Purple].into()
    );
    assert_eq!(
        colours_present(&state, data(), &rules, 14, 0),
        [Colour::Grey].into()
    );
}

#[test]
fn enchanted_tiles_and_the_chapel_supply_colour_in_their_clearing() {
    let mut state = game(&["Wizard"]);
    let chapel = state.dwellings[&Dwelling::Chapel].clone();
    state.characters[0].position = chapel.clone();
    let found = sources_present(&state, data(), &Rules::default(), 3, 0);
    assert!(found.iter().any(|p| p.colour == Colour::White
        && matches!(&p.source, ColourSource::Dwelling { dwelling } if dwelling.contains("Chapel"))));
    let tile = chapel.tile.clone();
    state.board.set_side(&tile, Side::Enchanted).unwrap();
    let on_side: BTreeSet<Colour> = state
        .board
        .clearing(&chapel)
        .unwrap()
        .magic
        .iter()
        .copied()
        .collect();
    let present = colours_present(&state, data(), &Rules::default(), 3, 0);
    assert!(
        !on_side.is_empty() && on_side.is_subset(&present),
        "{on_side:?} {present:?}"
    );
}

#[test]
fn a_colour_chit_serves_only_its_owner() {
    let mut state = game(&["Wizard", "Witch"]);
    together(&mut state);
    caster(&mut state, 0, "IV", "Fiery Blast");
    state.characters[0].chits[1].chit = "MAGIC IV3*".into();
    state.characters[0].chits[1].enchanted = true;
    assert!(colours_present(&state, data(), &Rules::default(), 3, 0).contains(&Colour::Purple));
    assert!(!colours_present(&state, data(), &Rules::default(), 3, 1).contains(&Colour::Purple));
    // The Witch cannot cast her purple spell with the Wizard's colour chit.
    caster(&mut state, 1, "IV", "Fiery Blast");
    let err = check(
        &state,
        data(),
        &Rules::default(),
        &request(1, "Fiery Blast", vec![me(&state, 0)], 3),
    )
    .unwrap_err();
    assert!(err.to_string().contains("purple is missing"), "{err}");
    // The Wizard can, and his colour chit fatigues.
    let req = request(0, "Fiery Blast", vec![me(&state, 1)], 3);
    let effects = cast_ok(&mut state, &req, &mut Dice::new(1, 1));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, SpellEffect::ColourChitPlayed { .. }))
    );
    assert!(!state.characters[0].chits[1].enchanted);
    assert_eq!(
        state.characters[0].chits[1].condition,
        ChitCondition::Fatigued
    );
}

// ---- enchanting in Daylight ----

fn spell_phase(
    state: &mut MrState,
    who: usize,
    activity: Activity,
    note: Option<&str>,
) -> (PhaseOutcome, Vec<Happening>) {
    let rules = Rules::default();
    let mut dice = Dice::new(2, 1);
    let mut day = Day::new(data(), &rules, state.clone(), &mut dice);
    day.today.spell_prepared.extend(state_prepared(state));
    let outcome = crate::magic_realm::day::pending::enchant(&mut day, who, &activity, note);
    let prepared = day.today.spell_prepared.clone();
    *state = day.state;
    PREPARED.with(|p| *p.borrow_mut() = prepared);
    (
        outcome,
        day.events.into_iter().map(|e| e.happening).collect(),
    )
}

thread_local! {
    static PREPARED: std::cell::RefCell<BTreeSet<usize>> = const { std::cell::RefCell::new(BTreeSet::new()) };
}

fn state_prepared(_: &MrState) -> BTreeSet<usize> {
    PREPARED.with(|p| p.borrow().clone())
}

fn reset_prepared() {
    PREPARED.with(|p| p.borrow_mut().clear());
}

#[test]
fn sp_needs_spx_first_and_then_enchants_a_chit_to_its_colour() {
    reset_prepared();
    let mut state = game(&["Witch"]);
    let sp = Activity::Spell {
        chit: Some("II3*".into()),
    };
    let (outcome, _) = spell_phase(&mut state, 0, sp.clone(), None);
    assert!(
        matches!(&outcome, PhaseOutcome::Lost { reason } if reason.contains("after an SPX")),
        "{outcome:?}"
    );
    let (outcome, _) = spell_phase(&mut state, 0, Activity::SpellPrep, None);
    assert_eq!(outcome, PhaseOutcome::Done);
    let (outcome, events) = spell_phase(&mut state, 0, sp, None);
    assert_eq!(outcome, PhaseOutcome::Done);
    assert!(events.iter().any(|e| matches!(
        e,
        Happening::Magic(MagicEvent::ChitEnchanted {
            colour: Colour::Grey,
            ..
        })
    )));
    let index = enchant::find_chit(&state, 0, "II3*").unwrap();
    assert!(state.characters[0].chits[index].enchanted);
    assert!(colours_present(&state, data(), &Rules::default(), 3, 0).contains(&Colour::Grey));
    reset_prepared();
}

#[test]
fn a_type_viii_chit_has_no_colour() {
    let mut state = game(&["Witch"]);
    let err = enchant::enchant_chit(&mut state, 0, Some("VIII4*")).unwrap_err();
    assert!(
        err.contains("not an active") || err.contains("only types I to V"),
        "{err}"
    );
    let index = enchant::find_chit(&state, 0, "VIII4*").unwrap();
    state.characters[0].chits[index].condition = ChitCondition::Active;
    let err = enchant::enchant_chit(&mut state, 0, Some("VIII4*")).unwrap_err();
    assert!(err.contains("only types I to V"), "{err}");
}

#[test]
fn enchanting_the_tile_needs_the_colour_and_changes_its_routes() {
    let mut state = game(&["Wizard"]);
    let here = state
        .board
        .clearings()
        .into_iter()
        .find(|c| {
            let tile = state.board.tile(&c.tile).unwrap();
            tile.normal.paths != tile.enchanted.paths
                && tile
                    .enchanted
                    .clearings
                    .iter()
                    .all(|k| k.magic.iter().all(|m| *m != Colour::Purple))
        })
        .unwrap();
    state.characters[0].position = here.clone();
    let c = &mut state.characters[0];
    c.chits[0].chit = "MAGIC IV3*".into();
    c.chits[1].chit = "MAGIC IV4*".into();
    for chit in &mut c.chits[..2] {
        chit.condition = ChitCondition::Active;
    }
    let rules = Rules::default();
    let err = enchant::enchant_tile(&mut state, data(), &rules, 3, 0, Some("IV3*")).unwrap_err();
    assert!(err.contains("purple is not present"), "{err}");
    // Enchant the IV4* into purple, then the tile with the IV3*.
    enchant::enchant_chit(&mut state, 0, Some("IV4*")).unwrap();
    let before: Vec<_> = state
        .board
        .clearings()
        .iter()
        .flat_map(|c| state.board.neighbours(c))
        .collect();
    let event = enchant::enchant_tile(&mut state, data(), &rules, 3, 0, Some("IV3*")).unwrap();
    assert!(matches!(
        event,
        MagicEvent::TileEnchanted {
            now_enchanted: true,
            colour_chit: Some(_),
            ..
        }
    ));
    assert_eq!(
        state.board.placement_of(&here.tile).unwrap().side,
        Side::Enchanted
    );
    let after: Vec<_> = state
        .board
        .clearings()
        .iter()
        .flat_map(|c| state.board.neighbours(c))
        .collect();
    assert_ne!(before, after, "turning the tile changes its routes");
    assert_eq!(
        state.characters[0].chits[0].condition,
        ChitCondition::Fatigued
    );
    assert_eq!(
        state.characters[0].chits[1].condition,
        ChitCondition::Fatigued
    );
    assert!(!state.characters[0].chits[1].enchanted);
}

// ---- spells known ----

#[test]
fn setup_records_each_allowance_of_the_right_types() {
    let state = game(&["Wizard", "Witch King", "Amazon"]);
    for c in &state.characters {
        let card = data().characters.iter().find(|d| d.name == c.name).unwrap();
        assert_eq!(c.magic.spells.len(), usize::from(card.spells), "{}", c.name);
        for s in &c.magic.spells {
            let spell = spellbook::find_spell(data(), s).unwrap();
            assert!(card.spell_types().contains(&spell.spell_type.unwrap()));
        }
    }
}

#[test]
fn recording_too_many_or_the_wrong_type_is_refused() {
    let mut state = game(&["Wizard"]);
    let c = &mut state.characters[0];
    c.magic.spells.clear();
    let three: Vec<String> = ["Fog", "Fiery Blast", "Elven Grace"]
        .map(String::from)
        .into();
    let err = spellbook::record_starting(data(), c, &three).unwrap_err();
    assert!(err.to_string().contains("may record 2"), "{err}");
    let err = spellbook::record_starting(data(), c, &["Curse".to_string()]).unwrap_err();
    assert!(err.to_string().contains("type V spell"), "{err}");
    let err = spellbook::record_starting(data(), c, &["Fogg".to_string()]).unwrap_err();
    assert!(err.to_string().contains("Fog"), "{err}");
    spellbook::record_starting(data(), c, &["Fog".to_string(), "Fiery Blast".to_string()]).unwrap();
    assert_eq!(c.magic.spells, ["Fog", "Fiery Blast"]);
}

#[test]
fn the_player_choice_at_setup_is_kept() {
    let inputs = SetupInputs {
        spells: [("Wizard".to_string(), vec!["Fog".to_string()])].into(),
        ..SetupInputs::default()
    };
    let seats = [Seat {
        player: "p".into(),
        character: Some("Wizard".into()),
    }];
    let state = new_game(
        data(),
        &seats,
        &Rules::default(),
        &inputs,
        &mut Dice::new(1, 0),
    )
    .unwrap();
    assert_eq!(state.characters[0].magic.spells, ["Fog"]);
    let bad = SetupInputs {
        spells: [("Amazon".to_string(), vec!["Fog".to_string()])].into(),
        ..SetupInputs::default()
    };
    assert!(
        new_game(
            data(),
            &seats,
            &Rules::default(),
            &bad,
            &mut Dice::new(1, 0)
        )
        .is_err()
    );
}

#[test]
fn no_more_than_fourteen_spells() {
    let mut state = game(&["Magician"]);
    let c = &mut state.characters[0];
    c.magic.spells = (0..14).map(|i| format!("spell {i}")).collect();
    let err = spellbook::learn(data(), c, "Fog").unwrap_err();
    assert!(err.to_string().contains("14"), "{err}");
}

// ---- Reading Runes ----

fn with_book(state: &mut MrState, who: usize, book: &str, spell: &str) {
    state.characters[who].belongings.push(Belonging {
        item: Item {
            kind: ItemKind::Treasure,
            name: book.into(),
        },
        active: true,
    });
    state.holdings.insert(
        book.to_string(),
        vec![Item {
            kind: ItemKind::Spell,
            name: spell.into(),
        }],
    );
}

fn read(state: &mut MrState, rolls: &[&[u8]]) -> (PhaseOutcome, Vec<Happening>) {
    let rules = Rules::default();
    let mut script = DiceScript::default();
    for faces in rolls {
        script.force("search", faces).unwrap();
    }
    let mut dice = Dice::with_script(4, 1, script);
    let mut day = Day::new(data(), &rules, state.clone(), &mut dice);
    let outcome = search::search(&mut day, 0, &SearchTable::ReadingRunes);
    *state = day.state;
    (
        outcome,
        day.events.into_iter().map(|e| e.happening).collect(),
    )
}

#[test]
fn reading_runes_learns_awakens_or_curses() {
    let mut state = game(&["Wizard"]);
    state.characters[0].magic.spells.clear();
    with_book(&mut state, 0, "Book of Lore", "Fiery Blast");
    let (outcome, _) = read(&mut state, &[&[1]]);
    assert_eq!(outcome, PhaseOutcome::Done);
    assert_eq!(state.characters[0].magic.spells, ["Fiery Blast"]);
    assert!(state.magic.awakened["Book of Lore"].contains("Fiery Blast"));

    let mut state = game(&["Wizard"]);
    state.characters[0].magic.spells.clear();
    with_book(&mut state, 0, "Book of Lore", "Fiery Blast");
    read(&mut state, &[&[4]]);
    assert!(state.characters[0].magic.spells.is_empty());
    assert!(state.magic.awakened["Book of Lore"].contains("Fiery Blast"));

    let mut state = game(&["Wizard"]);
    state.characters[0].magic.spells.clear();
    with_book(&mut state, 0, "Book of Lore", "Fiery Blast");
    let (_, events) = read(&mut state, &[&[5], &[1]]);
    assert!(
        events.iter().any(|e| matches!(
            e,
            Happening::Magic(MagicEvent::Cursed {
                curse: CurseKind::Eyemist,
                ..
            })
        )),
        "{events:?}"
    );
    assert!(curses::has(&state.characters[0], CurseKind::Eyemist));
}

#[test]
fn reading_runes_without_runes_is_lost() {
    let mut state = game(&["Wizard"]);
    let (outcome, _) = read(&mut state, &[&[1]]);
    assert!(matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("no runes")));
}

// ---- curses ----

#[test]
fn each_curse_has_its_effect_in_the_day() {
    let rules = Rules::default();
    let mut state = game(&["Wizard"]);
    curses::inflict(&mut state, data(), &rules, 0, CurseKind::Eyemist, "test");
    let (outcome, _) = read(&mut state, &[&[1]]);
    assert!(matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("Eyemist")));

    curses::inflict(&mut state, data(), &rules, 0, CurseKind::IllHealth, "test");
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state.clone(), &mut dice);
    assert!(
        matches!(activities::rest(&mut day, 0, None), PhaseResult::Lost { reason } if reason.contains("Ill Health"))
    );

    curses::inflict(&mut state, data(), &rules, 0, CurseKind::Squeak, "test");
    let mut script = DiceScript::default();
    script.force("daylight/hide", &[1]).unwrap();
    let mut dice = Dice::with_script(1, 1, script);
    let mut day = Day::new(data(), &rules, state.clone(), &mut dice);
    assert!(matches!(
        activities::hide(&mut day, 0),
        PhaseResult::Hid { hidden: false, .. }
    ));
    assert!(!day.state.characters[0].hidden);

    state.characters[0].gold = 40;
    curses::inflict(&mut state, data(), &rules, 0, CurseKind::Ashes, "test");
    assert_eq!(curses::spendable_gold(&state.characters[0]), 0);
    assert_eq!(curses::gold_for_points(&state.characters[0]), -1);
    state.characters[0].fame = 12;
    curses::inflict(&mut state, data(), &rules, 0, CurseKind::Disgust, "test");
    assert_eq!(curses::spendable_fame(&state.characters[0]), 0);
    assert_eq!(curses::fame_for_points(&state.characters[0]), -1);

    curses::inflict(&mut state, data(), &rules, 0, CurseKind::Wither, "test");
    assert!(state.characters[0].chits.iter().all(|c| {
        c.condition != ChitCondition::Active
            || crate::magic_realm::data::characters::ActionChit::parse(&c.chit)
                .unwrap()
                .effort
                == 0
    }));
}

#[test]
fn the_druid_is_never_cursed_and_the_chapel_lifts_curses_at_midnight() {
    let rules = Rules::new(["optional_abilities"], TOGGLES).unwrap();
    let mut state = game(&["Druid", "Wizard"]);
    let event = curses::inflict(&mut state, data(), &rules, 0, CurseKind::Ashes, "test");
    assert!(matches!(event, MagicEvent::CurseMissed { .. }));
    curses::inflict(&mut state, data(), &rules, 1, CurseKind::Ashes, "test");
    state.characters[1].position = state.dwellings[&Dwelling::Chapel].clone();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    crate::magic_realm::day::spell_clock::midnight(&mut day);
    assert!(day.state.characters[1].magic.curses.is_empty());
}

#[test]
fn remedy_lifts_a_curse() {
    let mut state = game(&["Witch"]);
    curses::inflict(
        &mut state,
        data(),
        &Rules::default(),
        0,
        CurseKind::Squeak,
        "test",
    );
    caster(&mut state, 0, "VIII", "Remedy");
    let aim = Aim::Curse {
        character: "Witch".into(),
        curse: CurseKind::Squeak,
    };
    cast_ok(
        &mut state,
        &request(0, "Remedy", vec![aim], 14),
        &mut Dice::new(1, 1),
    );
    assert!(state.characters[0].magic.curses.is_empty());
    assert_eq!(
        state.characters[0].chits[0].condition,
        ChitCondition::Fatigued,
        "instant: chit fatigued at once"
    );
}

// ---- casting ----

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
fn artifacts_cast_once_a_day_and_only_awakened_spells() {
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
    let id = state.magic.in_effect[0].id;
    expiry::expire(&mut state, id);
    let err = check(&state, data(), &Rules::default(), &req).unwrap_err();
    assert!(err.to_string().contains("once a day"), "{err}");
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    crate::magic_realm::day::spell_clock::midnight(&mut day);
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
    crate::magic_realm::day::spell_clock::sunset(&mut day, 14);
    assert_eq!(day.state.magic.in_effect.len(), 1);
    crate::magic_realm::day::spell_clock::sunset(&mut day, 15);
    assert!(day.state.magic.in_effect.is_empty());
    assert_eq!(
        day.state.characters[0].chits[0].condition,
        ChitCondition::Fatigued
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
        super::cast::effective_type(&state, data(), 0, 1),
        Some(crate::magic_realm::data::terms::MagicType::IV)
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
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    crate::magic_realm::day::spell_clock::midnight(&mut day);
    assert!(day.state.magic.in_effect[0].inert);
    crate::magic_realm::day::spell_clock::sunset(&mut day, 22);
    assert!(day.state.magic.in_effect[0].inert, "no purple on day 22");
    crate::magic_realm::day::spell_clock::dawn(&mut day, 23);
    assert!(day.state.magic.in_effect[0].inert, "no purple on day 23");
    crate::magic_realm::day::spell_clock::dawn(&mut day, 49);
    assert!(
        !day.state.magic.in_effect[0].inert,
        "purple on day 21 of the second month, from dawn"
    );
    crate::magic_realm::day::spell_clock::midnight(&mut day);
    crate::magic_realm::day::spell_clock::sunset(&mut day, 49);
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
fn attack_spells_describe_a_missile_attack_for_combat() {
    let mut state = game(&["Wizard", "Amazon", "Captain"]);
    together(&mut state);
    caster(&mut state, 0, "IV", "Fiery Blast");
    let targets = vec![me(&state, 1), me(&state, 2)];
    let effects = cast_ok(
        &mut state,
        &request(0, "Fiery Blast", targets.clone(), 21),
        &mut Dice::new(1, 1),
    );
    let attack = effects.iter().find_map(|e| match e {
        SpellEffect::Attack {
            harm,
            stars,
            missile,
            speed,
            targets: t,
            ..
        } => Some((*harm, *stars, *missile, *speed, t.clone())),
        _ => None,
    });
    let (harm, stars, missile, speed, t) = attack.unwrap();
    assert_eq!(
        (harm.letter(), stars, missile, speed, t),
        ("L", 3, true, 2, targets)
    );
    assert!(
        state
            .magic
            .in_effect
            .iter()
            .any(|s| s.duration == Duration::Attack)
    );
    let here = state.characters[0].position.clone();
    expiry::end_of_combat(&mut state, &here);
    assert!(state.magic.in_effect.is_empty());
    assert_eq!(
        state.characters[0].chits[0].condition,
        ChitCondition::Fatigued
    );
}

#[test]
fn make_whole_and_small_blessing_heal() {
    let mut state = game(&["Pilgrim"]);
    state.characters[0].chits[3].condition = ChitCondition::Wounded;
    curses::inflict(
        &mut state,
        data(),
        &Rules::default(),
        0,
        CurseKind::Wither,
        "test",
    );
    caster(&mut state, 0, "I", "Make Whole");
    cast_ok(
        &mut state,
        &request(0, "Make Whole", vec![who("Pilgrim")], 7),
        &mut Dice::new(1, 1),
    );
    assert!(
        state.characters[0].chits[1..]
            .iter()
            .all(|c| c.condition == ChitCondition::Active)
    );
    assert!(state.characters[0].magic.curses.is_empty());

    let mut state = game(&["Pilgrim"]);
    caster(&mut state, 0, "I", "Small Blessing");
    let mut dice = forced("magic/Small Blessing/Pilgrim", &[6]);
    let effects = cast_ok(
        &mut state,
        &request(0, "Small Blessing", vec![who("Pilgrim")], 7),
        &mut dice,
    );
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, SpellEffect::NextFightTremendous { .. }))
    );
    assert!(state.characters[0].magic.next_fight_tremendous);
}

fn monster_here(state: &mut MrState, name: &str) -> String {
    let here = state.characters[0].position.clone();
    let id = state
        .denizens
        .iter()
        .find(|(id, d)| {
            d.kind == DenizenKind::Monster
                && (id.as_str() == name || id.starts_with(&format!("{name} ")))
        })
        .map(|(id, _)| id.clone())
        .unwrap();
    state.denizens.get_mut(&id).unwrap().at = Whereabouts::Clearing { clearing: here };
    id
}

#[test]
fn exorcise_kills_imps_and_breaks_spells_here() {
    let mut state = game(&["Pilgrim", "Amazon"]);
    together(&mut state);
    let imp = monster_here(&mut state, "Imp");
    state
        .magic
        .in_effect
        .push(crate::magic_realm::state::magic::SpellInEffect {
            id: 9,
            spell: "Peace".into(),
            caster: "Pilgrim".into(),
            with: CastWith::Chit { index: 5 },
            targets: vec![me(&state, 1)],
            duration: Duration::Combat,
            cast_on: 7,
            inert: false,
            detail: None,
        });
    caster(&mut state, 0, "I", "Exorcise");
    let here = state.characters[0].position.clone();
    cast_ok(
        &mut state,
        &request(0, "Exorcise", vec![Aim::Clearing { clearing: here }], 7),
        &mut Dice::new(1, 1),
    );
    assert_eq!(state.denizens[&imp].at, Whereabouts::Dead);
    assert!(state.magic.in_effect.is_empty());
}

#[test]
fn curse_and_power_of_the_pit_roll_their_tables() {
    let mut state = game(&["Witch", "Amazon"]);
    together(&mut state);
    caster(&mut state, 0, "V", "Curse");
    let mut dice = forced("magic/Curse/Witch", &[4]);
    cast_ok(
        &mut state,
        &request(0, "Curse", vec![who("Amazon")], 14),
        &mut dice,
    );
    assert!(curses::has(&state.characters[1], CurseKind::IllHealth));

    caster(&mut state, 0, "V", "Power of the Pit");
    let mut dice = forced("magic/Power of the Pit/Witch", &[5]);
    let effects = cast_ok(
        &mut state,
        &request(0, "Power of the Pit", vec![who("Amazon")], 7),
        &mut dice,
    );
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, SpellEffect::ChitsFatigued { .. }))
    );

    let wolf = monster_here(&mut state, "Wolf A");
    state.characters[0].chits[0].condition = ChitCondition::Active;
    let mut dice = forced("magic/Power of the Pit/Witch", &[2]);
    cast_ok(
        &mut state,
        &request(
            0,
            "Power of the Pit",
            vec![Aim::Denizen { id: wolf.clone() }],
            7,
        ),
        &mut dice,
    );
    assert_eq!(state.denizens[&wolf].at, Whereabouts::Dead);
}

#[test]
fn absorb_essence_kills_the_monster_and_keeps_its_form() {
    let mut state = game(&["Witch King"]);
    let wolf = monster_here(&mut state, "Wolf B");
    caster(&mut state, 0, "V", "Absorb Essence");
    cast_ok(
        &mut state,
        &request(
            0,
            "Absorb Essence",
            vec![Aim::Denizen { id: wolf.clone() }],
            7,
        ),
        &mut Dice::new(1, 1),
    );
    assert_eq!(state.denizens[&wolf].at, Whereabouts::Dead);
    assert_eq!(state.magic.in_effect[0].detail.as_deref(), Some("Wolf B"));
    assert_eq!(state.magic.in_effect[0].duration, Duration::Permanent);
}

#[test]
fn dissolve_spell_breaks_a_spell_and_protection_from_magic_shields() {
    let mut state = game(&["Magician", "Amazon"]);
    together(&mut state);
    caster(&mut state, 0, "VII", "Protection from Magic");
    cast_ok(
        &mut state,
        &request(0, "Protection from Magic", vec![who("Amazon")], 28),
        &mut Dice::new(1, 1),
    );
    let id = state.magic.in_effect[0].id;
    state.characters[0].chits[1].chit = "MAGIC VI3*".into();
    state.characters[0].chits[1].condition = ChitCondition::Active;
    state.characters[0].magic.spells.push("Transform".into());
    let transform = CastRequest {
        with: CastWith::Chit { index: 1 },
        ..request(0, "Transform", vec![me(&state, 1)], 21)
    };
    let err = check(&state, data(), &Rules::default(), &transform).unwrap_err();
    assert!(err.to_string().contains("Protection from Magic"), "{err}");
    state.characters[0]
        .magic
        .spells
        .push("Dissolve Spell".into());
    let dissolve = CastRequest {
        with: CastWith::Chit { index: 1 },
        ..request(0, "Dissolve Spell", vec![Aim::Spell { id }], 21)
    };
    let effects = cast_ok(&mut state, &dissolve, &mut Dice::new(1, 1));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, SpellEffect::SpellBroken { .. }))
    );
    assert!(state.magic.in_effect.is_empty());
}

#[test]
fn fog_stops_the_peer_table_in_its_tile() {
    let mut state = game(&["Wizard"]);
    caster(&mut state, 0, "II", "Fog");
    let tile = state.characters[0].position.tile.clone();
    cast_ok(
        &mut state,
        &request(0, "Fog", vec![Aim::Tile { code: tile }], 14),
        &mut Dice::new(1, 1),
    );
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    let peer = SearchTable::Peer {
        tile: None,
        clearing: None,
    };
    let outcome = search::search(&mut day, 0, &peer);
    assert!(matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("Fog")));
}

#[test]
fn hurricane_winds_blows_the_target_to_the_next_tile() {
    let mut state = game(&["Wizard", "Amazon"]);
    // Find a mountain clearing with a neighbouring tile.
    let mountain = state
        .board
        .clearings()
        .into_iter()
        .find(|c| {
            state.board.clearing(c).unwrap().kind == ClearingKind::Mountain
                && state
                    .board
                    .neighbours(c)
                    .iter()
                    .any(|l| l.to.tile != c.tile)
        })
        .unwrap();
    for c in &mut state.characters {
        c.position = mountain.clone();
    }
    let next = state
        .board
        .neighbours(&mountain)
        .into_iter()
        .find(|l| l.to.tile != mountain.tile)
        .map(|l| l.to.tile)
        .unwrap();
    caster(&mut state, 0, "IV", "Hurricane Winds");
    let req = request(
        0,
        "Hurricane Winds",
        vec![me(&state, 1), Aim::Tile { code: next.clone() }],
        21,
    );
    let effects = cast_ok(&mut state, &req, &mut Dice::new(1, 1));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, SpellEffect::Moved { .. }))
    );
    assert_eq!(state.characters[1].position.tile, next);
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
fn bad_luck_and_illusion_change_the_targets_rolls() {
    use crate::magic_realm::data::terms::Roll;
    let mut state = game(&["Magician", "Amazon"]);
    together(&mut state);
    caster(&mut state, 0, "VIII", "Bad Luck");
    let req = request(0, "Bad Luck", vec![who("Amazon")], 14);
    cast_ok(&mut state, &req, &mut Dice::new(1, 1));
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let day = Day::new(data(), &rules, state.clone(), &mut dice);
    let hide = crate::magic_realm::day::modifiers::for_roll(&day, 1, Roll::Hide);
    assert_eq!(hide.total(), 1);
    // Inert after Midnight: no more effect until energized.
    state.magic.in_effect[0].inert = true;
    let day = Day::new(data(), &rules, state.clone(), &mut dice);
    assert_eq!(
        crate::magic_realm::day::modifiers::for_roll(&day, 1, Roll::Hide).total(),
        0
    );

    let mut state = game(&["Magician", "Amazon"]);
    together(&mut state);
    caster(&mut state, 0, "III", "Illusion");
    let tile = state.characters[0].position.tile.clone();
    cast_ok(
        &mut state,
        &request(0, "Illusion", vec![Aim::Tile { code: tile }], 28),
        &mut Dice::new(1, 1),
    );
    let day = Day::new(data(), &rules, state, &mut dice);
    assert_eq!(
        crate::magic_realm::day::modifiers::for_roll(&day, 1, Roll::Locate).total(),
        1
    );
    assert_eq!(
        crate::magic_realm::day::modifiers::for_roll(&day, 1, Roll::Hide).total(),
        0
    );
}

#[test]
fn persuade_makes_a_native_group_friendly_for_the_day() {
    use crate::magic_realm::data::characters::Relationship;
    let mut state = game(&["Magician"]);
    let here = state.characters[0].position.clone();
    let group = data()
        .natives
        .iter()
        .find(|g| g.name == "Bashkars")
        .unwrap();
    let member = group.members[0].name.clone();
    state.denizens.get_mut(&member).unwrap().at = Whereabouts::Clearing { clearing: here };
    caster(&mut state, 0, "III", "Persuade");
    cast_ok(
        &mut state,
        &request(0, "Persuade", vec![Aim::Denizen { id: member }], 28),
        &mut Dice::new(1, 1),
    );
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    assert_eq!(
        crate::magic_realm::day::meeting::relationship(&day, 0, "Bashkars"),
        Relationship::Friendly
    );
    crate::magic_realm::day::spell_clock::sunset(&mut day, 29);
    assert_ne!(
        crate::magic_realm::day::meeting::relationship(&day, 0, "Bashkars"),
        Relationship::Friendly
    );
}

#[test]
fn a_whole_day_of_spx_and_sp_enchants_a_chit_and_the_log_says_so() {
    let mut state = game(&["Witch"]);
    // Day 6 is resolved next... the 7th day brings black magic for the tile.
    state.day = 6;
    let orders: std::collections::BTreeMap<String, crate::magic_realm::orders::DayOrders> = [(
        "p0".to_string(),
        crate::magic_realm::orders::parse_day_orders(
            "SPX, SP-V5*, SP-V4* (tile)",
            1,
            &data().tiles,
        )
        .unwrap(),
    )]
    .into();
    let tile = state.characters[0].position.tile.clone();
    let side_before = state.board.placement_of(&tile).unwrap().side;
    let (after, events) = crate::magic_realm::day::resolve_day(
        data(),
        &Rules::default(),
        state,
        &orders,
        &mut Dice::new(5, 7),
    )
    .unwrap();
    let log = crate::magic_realm::day::log::gm_log(&events);
    assert!(log.contains("Witch prepares to enchant"), "{log}");
    assert!(log.contains("enchants MAGIC V5* into black magic"), "{log}");
    assert!(log.contains(&format!("turns {tile} to its")), "{log}");
    assert_ne!(after.board.placement_of(&tile).unwrap().side, side_before);
    let v5 = enchant::find_chit(&after, 0, "V5*").unwrap();
    assert!(
        after.characters[0].chits[v5].enchanted,
        "black on day 7: the colour chit was not needed"
    );
}

#[test]
fn see_hidden_signs_and_blazing_light_give_bonus_phases() {
    use crate::magic_realm::data::terms::Activity as Kind;
    let mut state = game(&["Wizard"]);
    caster(&mut state, 0, "III", "See Hidden Signs");
    cast_ok(
        &mut state,
        &request(0, "See Hidden Signs", vec![who("Wizard")], 28),
        &mut Dice::new(1, 1),
    );
    let c = state.characters[0].clone();
    let search = crate::magic_realm::magic::influence::bonus_phases(&state, &c, Kind::Search);
    assert!(
        search.iter().any(|s| s.contains("See Hidden Signs")),
        "{search:?}"
    );
    let hide = crate::magic_realm::magic::influence::bonus_phases(&state, &c, Kind::Hide);
    assert!(!hide.iter().any(|s| s.contains("See Hidden Signs")));
}

#[test]
fn perceive_spell_learns_without_awakening() {
    let mut state = game(&["Wizard"]);
    state.characters[0].magic.spells.clear();
    with_book(&mut state, 0, "Book of Lore", "Fiery Blast");
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    crate::magic_realm::day::runes::perceive(&mut day, 0);
    assert_eq!(day.state.characters[0].magic.spells, ["Fiery Blast"]);
    assert!(day.state.magic.awakened.is_empty());
}

#[test]
fn whistle_for_monsters_brings_a_sound_chit_and_peace_with_nature_quiets_them() {
    let mut state = game(&["Magician"]);
    let here = state.characters[0].position.tile.clone();
    let (tile, chit) = state
        .map_chits
        .iter()
        .filter(|(t, _)| **t != here)
        .find_map(|(t, chits)| {
            chits
                .iter()
                .find(|c| data().chits.sound.iter().any(|s| s.name == c.name))
                .map(|c| (t.clone(), c.name.clone()))
        })
        .unwrap();
    caster(&mut state, 0, "VIII", "Whistle for Monsters");
    let aim = Aim::Item {
        holder: tile.clone(),
        item: chit.clone(),
    };
    cast_ok(
        &mut state,
        &request(0, "Whistle for Monsters", vec![aim], 21),
        &mut Dice::new(1, 1),
    );
    assert!(state.map_chits[&here].iter().any(|c| c.name == chit));
    assert!(!state.map_chits[&tile].iter().any(|c| c.name == chit));

    caster(&mut state, 0, "VII", "Peace with Nature");
    assert!(!super::influence::peace_with_nature(&state, 0));
    cast_ok(
        &mut state,
        &request(0, "Peace with Nature", vec![who("Magician")], 28),
        &mut Dice::new(1, 1),
    );
    assert!(super::influence::peace_with_nature(&state, 0));
}

#[test]
fn talk_to_wise_bird_peers_into_any_clearing() {
    let mut state = game(&["Wizard"]);
    caster(&mut state, 0, "II", "Talk to Wise Bird");
    let far = state.board.clearings().into_iter().last().unwrap();
    let req = request(
        0,
        "Talk to Wise Bird",
        vec![
            who("Wizard"),
            Aim::Clearing {
                clearing: far.clone(),
            },
        ],
        28,
    );
    let mut dice = forced("magic/Talk to Wise Bird/Wizard", &[5]);
    cast_ok(&mut state, &req, &mut dice);
    let seen = &state.characters[0].discoveries.chits_seen;
    for chit in &state.map_chits[&far.tile] {
        assert!(seen.contains(&chit.name), "{} not seen", chit.name);
    }
    assert!(!state.characters[0].found_hidden_enemies);
    let req = request(0, "Talk to Wise Bird", vec![who("Wizard")], 28);
    state.characters[0].chits[0].condition = ChitCondition::Active;
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
}

#[test]
fn ask_demon_sends_the_question_to_the_gm() {
    let mut state = game(&["Witch King"]);
    let demon = monster_here(&mut state, "Demon");
    caster(&mut state, 0, "V", "Ask Demon");
    let effects = cast_ok(
        &mut state,
        &request(0, "Ask Demon", vec![Aim::Denizen { id: demon }], 7),
        &mut Dice::new(1, 1),
    );
    assert!(
        effects.iter().any(
            |e| matches!(e, SpellEffect::ForGm { text } if text.contains("yes, no or a number"))
        )
    );
}

#[test]
fn broomstick_flies_its_target_and_ends_when_he_lands() {
    let mut state = game(&["Witch King"]);
    caster(&mut state, 0, "V", "Broomstick");
    cast_ok(
        &mut state,
        &request(0, "Broomstick", vec![who("Witch King")], 7),
        &mut Dice::new(1, 1),
    );
    let (here, next) = state
        .board
        .clearings()
        .into_iter()
        .find_map(|c| {
            let next = state
                .board
                .neighbours(&c)
                .into_iter()
                .find(|l| l.to.tile != c.tile)?;
            Some((c, next.to.tile))
        })
        .unwrap();
    state.characters[0].position = here;
    let orders: std::collections::BTreeMap<String, crate::magic_realm::orders::DayOrders> = [(
        "p0".to_string(),
        crate::magic_realm::orders::parse_day_orders(&format!("FL {next}"), 1, &data().tiles)
            .unwrap(),
    )]
    .into();
    let (after, _) = crate::magic_realm::day::resolve_day(
        data(),
        &Rules::default(),
        state,
        &orders,
        &mut Dice::new(5, 1),
    )
    .unwrap();
    assert_eq!(after.characters[0].position.tile, next);
    assert!(
        after.magic.in_effect.is_empty(),
        "the Broomstick ends on landing"
    );
    assert_eq!(
        after.characters[0].chits[0].condition,
        ChitCondition::Fatigued
    );
}

#[test]
fn protection_from_magic_ends_with_the_combat() {
    let mut state = game(&["Magician", "Amazon"]);
    together(&mut state);
    caster(&mut state, 0, "VII", "Protection from Magic");
    cast_ok(
        &mut state,
        &request(0, "Protection from Magic", vec![who("Amazon")], 28),
        &mut Dice::new(1, 1),
    );
    assert!(super::cast::shielded(&state, &who("Amazon")).is_some());
    let here = state.characters[0].position.clone();
    expiry::end_of_combat(&mut state, &here);
    assert!(super::cast::shielded(&state, &who("Amazon")).is_none());
}

#[test]
fn a_lost_traveller_wanders_and_a_storm_cancels_phases() {
    let mut state = game(&["Magician"]);
    // A clearing with a neighbour in another tile.
    let (here, link) = state
        .board
        .clearings()
        .into_iter()
        .find_map(|c| {
            let l = state.board.neighbours(&c).into_iter().find(|l| {
                l.to.tile != c.tile && l.kind == crate::magic_realm::data::tiles::PathKind::Normal
            })?;
            Some((c, l))
        })
        .unwrap();
    state.characters[0].position = here.clone();
    caster(&mut state, 0, "III", "Lost");
    cast_ok(
        &mut state,
        &request(0, "Lost", vec![who("Magician")], 28),
        &mut Dice::new(1, 1),
    );
    state.characters[0].chits[1].chit = "MAGIC IV3*".into();
    state.characters[0].chits[1].condition = ChitCondition::Active;
    state.characters[0]
        .magic
        .spells
        .push("Violent Storm".into());
    let storm = CastRequest {
        with: CastWith::Chit { index: 1 },
        ..request(
            0,
            "Violent Storm",
            vec![Aim::Tile {
                code: link.to.tile.clone(),
            }],
            21,
        )
    };
    // The storm is cast from inside its tile; then he goes back.
    state.characters[0].position = link.to.clone();
    cast_ok(&mut state, &storm, &mut Dice::new(1, 1));
    state.characters[0].position = here.clone();
    let rules = Rules::default();
    let mut script = DiceScript::default();
    let other = state
        .board
        .clearings()
        .into_iter()
        .find(|c| c.tile == link.to.tile && c.clearing != link.to.clearing)
        .unwrap();
    script.force("daylight/lost", &[other.clearing]).unwrap();
    script.force("daylight/storm", &[1]).unwrap();
    let mut dice = Dice::with_script(1, 1, script);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    let to = crate::magic_realm::day::wilderness::lost_destination(&mut day, 0, link.to.clone());
    assert_eq!(to, other);
    day.state.characters[0].position = to;
    assert_eq!(
        crate::magic_realm::day::wilderness::storm_phases(&mut day, 0, &here.tile),
        4
    );
    assert_eq!(
        crate::magic_realm::day::wilderness::storm_phases(&mut day, 0, &link.to.tile),
        0,
        "no storm without entering"
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
fn premonition_lets_its_target_choose_his_turn() {
    let mut state = game(&["Amazon", "Black Knight", "Dwarf", "Magician"]);
    caster(&mut state, 3, "VII", "Premonition");
    let req = request(3, "Premonition", vec![who("Magician")], 14);
    assert!(!super::influence::premonition(&state, 3));
    cast_ok(&mut state, &req, &mut Dice::new(1, 1));
    assert!(super::influence::premonition(&state, 3));
    let orders: std::collections::BTreeMap<String, crate::magic_realm::orders::DayOrders> =
        ["p0", "p1", "p2", "p3"]
            .iter()
            .map(|p| {
                let text = if *p == "p3" { "H\nTurn: first" } else { "H" };
                (
                    p.to_string(),
                    crate::magic_realm::orders::parse_day_orders(text, 1, &data().tiles).unwrap(),
                )
            })
            .collect();
    let (_, events) = crate::magic_realm::day::resolve_day(
        data(),
        &Rules::default(),
        state,
        &orders,
        &mut Dice::new(9, 1),
    )
    .unwrap();
    assert!(events.iter().any(|e| matches!(&e.happening,
        Happening::Birdsong(crate::magic_realm::day::events::BirdsongEvent::TurnChosen { character, .. })
            if character == "Magician")));
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
        super::cast::fizzle(&mut state, &bad).as_deref(),
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
    assert_eq!(super::cast::speed(&state, &req), 0);
    // Unused, it fatigues at the end of combat.
    let here = state.characters[0].position.clone();
    expiry::end_of_combat(&mut state, &here);
    assert!(!state.characters[0].chits[0].prepared);
    assert_eq!(
        state.characters[0].chits[0].condition,
        ChitCondition::Fatigued
    );
}

#[test]
fn world_fades_opens_the_magic_sight_table() {
    let mut state = game(&["Witch King", "Amazon"]);
    together(&mut state);
    caster(&mut state, 0, "VI", "World Fades");
    cast_ok(
        &mut state,
        &request(0, "World Fades", vec![who("Amazon")], 7),
        &mut Dice::new(1, 1),
    );
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    let outcome = search::search(&mut day, 1, &SearchTable::MagicSight);
    assert_eq!(outcome, PhaseOutcome::Done);
}
