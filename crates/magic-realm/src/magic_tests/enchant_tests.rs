//! Tests of enchanting in Daylight (SPX/SP): a MAGIC chit to its colour,
//! the tile to its other side, and a whole day of it in the log.

use std::collections::BTreeSet;

use crate::data::terms::Colour;
use crate::data::tiles::Side;
use crate::day::events::Happening;
use crate::day::{Day, PhaseOutcome};
use crate::orders::Activity;
use crate::state::{ChitCondition, MrState};
use crate::test_support::{data, test_game as game};
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;

use crate::magic::colour::colours_present;
use crate::magic::enchant;
use crate::magic::events::MagicEvent;

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
    let outcome = crate::day::pending::enchant(&mut day, who, &activity, note);
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
        matches!(&outcome, PhaseOutcome::Lost { reason } if reason.contains("after an EM")),
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
        err.to_string().contains("not an active") || err.to_string().contains("only types I to V"),
        "{err}"
    );
    let index = enchant::find_chit(&state, 0, "VIII4*").unwrap();
    state.characters[0].chits[index].condition = ChitCondition::Active;
    let err = enchant::enchant_chit(&mut state, 0, Some("VIII4*")).unwrap_err();
    assert!(err.to_string().contains("only types I to V"), "{err}");
}

/// 3.1 rule 7.10.4: the tile needs the chit's colour; the MAGIC chit that
/// turns it does not fatigue.
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
    assert!(err.to_string().contains("purple is not present"), "{err}");
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
    // 3.1 rule 7.10.4: the MAGIC chit that turns the tile stays in play;
    // only the colour chit that supplied the colour fatigues.
    assert_eq!(
        state.characters[0].chits[0].condition,
        ChitCondition::Active
    );
    assert_eq!(
        state.characters[0].chits[1].condition,
        ChitCondition::Fatigued
    );
    assert!(!state.characters[0].chits[1].enchanted);
}

#[test]
fn a_whole_day_of_spx_and_sp_enchants_a_chit_and_the_log_says_so() {
    let mut state = game(&["Witch"]);
    // Day 6 is resolved next... the 7th day brings black magic for the tile.
    state.day = 6;
    let orders: std::collections::BTreeMap<String, crate::orders::DayOrders> = [(
        "p0".to_string(),
        crate::orders::parse_day_orders("SPX, SP-V5*, SP-V4* (tile)", 1, data()).unwrap(),
    )]
    .into();
    let tile = state.characters[0].position.tile.clone();
    let side_before = state.board.placement_of(&tile).unwrap().side;
    let (after, events) = crate::day::resolve_day(
        data(),
        &Rules::default(),
        state,
        &orders,
        &mut Dice::new(5, 7),
    )
    .unwrap();
    let log = crate::day::log::gm_log(&events);
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
