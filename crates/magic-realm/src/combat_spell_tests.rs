//! Spells in an Evening's combat, through the whole day: an Imp's Curse is
//! kept in the game state, a fighter a spell moved out of the clearing is
//! where the spell put him, a transformed character is hit as his form
//! (`monster_spells.rs`, `spell_effects.rs`).

use std::collections::BTreeMap;

use crate::board::ClearingId;
use crate::data;
use crate::data::tiles::Edge;
use crate::day::events::DayEvent;
use crate::day::resolve_day;
use crate::orders::parse_day_orders;
use crate::state::{MrState, Whereabouts};
use crate::tables::magic::CurseKind;
use crate::test_support::{combat_text, game_played_by, without_denizens};
use realmgm_core::dice::{Dice, DiceScript};
use realmgm_core::game::Rules;

/// One character alone with `denizen` in `at` (his own start when `None`).
fn alone_with(character: &str, denizen: &str, at: Option<ClearingId>) -> (MrState, ClearingId) {
    let mut state = without_denizens(game_played_by(&[character], |_| "P1".into()));
    let here = at.unwrap_or_else(|| state.characters[0].position.clone());
    state.characters[0].position = here.clone();
    state.denizens.get_mut(denizen).expect("the denizen").at = Whereabouts::Clearing {
        clearing: here.clone(),
    };
    (state, here)
}

/// Resolve day `state.day + 1` with P1 resting and fighting by `combat`.
fn play(state: MrState, combat: &str, forced: &[(String, Vec<u8>)]) -> (MrState, Vec<DayEvent>) {
    let data = data::get().expect("data");
    let day = state.day + 1;
    let mut script = DiceScript::default();
    for (purpose, faces) in forced {
        script.force(purpose, faces).expect("dice");
    }
    let orders: BTreeMap<_, _> = [(
        "P1".to_string(),
        parse_day_orders(&format!("R\nCombat: {combat}"), 1, data).expect("orders"),
    )]
    .into();
    let mut dice = Dice::with_script(3, day, script);
    resolve_day(data, &Rules::default(), state, &orders, &mut dice).expect("the day resolves")
}

#[test]
fn an_imps_curse_is_kept_in_the_game_state() {
    let (state, here) = alone_with("Amazon", "Imp", None);
    let label = format!("{here}");
    let forced = [
        (format!("combat/{label}/round1/reposition/Amazon"), vec![4]),
        (format!("combat/{label}/round1/tactics"), vec![1, 1]),
        (format!("combat/{label}/round1/curse/Imp"), vec![3, 1]),
    ];
    let (after, events) = play(
        state,
        "maneuver with MOVE M4, maneuver charge, target nobody",
        &forced,
    );
    let curses = &after.characters[0].magic.curses;
    assert!(
        curses.contains(&CurseKind::Wither),
        "{curses:?} {:#?}",
        combat_text(&events)
    );
}

/// A tile next to `code` on the board.
fn next_to(state: &MrState, code: &str) -> String {
    let board = &state.board;
    let at = board.placement_of(code).expect("the tile").at;
    Edge::ALL
        .iter()
        .find_map(|&edge| board.placement_at(at.neighbour(edge)))
        .map(|p| p.tile.clone())
        .expect("a neighbouring tile")
}

#[test]
fn a_denizen_blown_away_by_hurricane_winds_is_where_it_landed() {
    let ledges = ClearingId::new("LD", 2);
    let (mut state, _) = alone_with("Sorceror", "Giant 1", Some(ledges));
    state.characters[0].magic.spells = vec!["Hurricane Winds".into()];
    // Day 21, a purple day, is resolved next.
    state.day = 20;
    let to = next_to(&state, "LD");
    let forced = [("magic/Hurricane Winds/Sorceror".to_string(), vec![6])];
    let (after, events) = play(
        state,
        &format!("cast Hurricane Winds on Giant 1 to {to}, maneuver duck, target nobody"),
        &forced,
    );
    let at = &after.denizens["Giant 1"].at;
    assert!(
        matches!(at, Whereabouts::Clearing { clearing } if clearing.tile == to),
        "{at:?} {:#?}",
        combat_text(&events)
    );
}

#[test]
fn elven_grace_expires_at_the_end_of_the_combat() {
    let (mut state, here) = alone_with("Elf", "Giant 1", None);
    state.characters[0].magic.spells = vec!["Elven Grace".into()];
    // Day 28, a gold day, is resolved next.
    state.day = 27;
    let label = format!("{here}");
    let forced = [
        // Day 28 regenerates the rolled row: not the Giant's.
        ("birdsong/monster-roll".to_string(), vec![1]),
        (format!("combat/{label}/round1/reposition/Elf"), vec![4]),
    ];
    let (after, events) = play(
        state,
        "cast Elven Grace on Elf, maneuver with MOVE M4, maneuver duck, target nobody",
        &forced,
    );
    let seen = combat_text(&events);
    assert!(
        seen.iter().any(|l| l.contains("Elven Grace is in effect")),
        "{seen:#?}"
    );
    assert!(
        after
            .magic
            .in_effect
            .iter()
            .all(|s| s.spell != "Elven Grace"),
        "{seen:#?}"
    );
}

/// 3.1 6.2.5, Control Bats: the spell holds every Bat it took in combat,
/// not only the one named, so each takes the next day's turns its
/// controller records.
#[test]
fn control_bats_holds_every_bat_it_took() {
    let (mut state, here) = alone_with("Elf", "Giant Bat 1", None);
    state.denizens.get_mut("Giant Bat 2").expect("bat").at = Whereabouts::Clearing {
        clearing: here.clone(),
    };
    state.characters[0].magic.spells = vec!["Control Bats".into()];
    // Day 28, a day of every colour, is resolved next.
    state.day = 27;
    let label = format!("{here}");
    let forced = [
        ("birdsong/monster-roll".to_string(), vec![1]),
        (format!("combat/{label}/round1/reposition"), vec![4]),
        (format!("combat/{label}/round1/tactics"), vec![1, 1]),
    ];
    let (after, events) = play(
        state,
        "cast Control Bats on Giant Bat 1, maneuver with MOVE L2*, maneuver dodge, target nobody",
        &forced,
    );
    let seen = combat_text(&events);
    let spell = after
        .magic
        .in_effect
        .iter()
        .find(|s| s.spell == "Control Bats")
        .unwrap_or_else(|| panic!("Control Bats in effect: {seen:#?}"));
    for bat in ["Giant Bat 1", "Giant Bat 2"] {
        assert!(
            crate::magic::influence::controller_of(&after, bat) == Some(0),
            "{bat} in {:?}: {seen:#?}",
            spell.targets
        );
    }
}
