//! Tests of hirelings following their employer: they move
//! with him, stay where a `Leave:` line keeps them, fall behind a pony's
//! double move, fight only beside him and serve out their term where they
//! stand, the weekly return of prowling natives notwithstanding.

use super::events::{CombatEvent, Happening, PhaseEvent};
use super::tests::{border, game, place, play};
use crate::board::ClearingId;
use crate::data::tiles::ClearingKind;
use crate::state::{CounterSide, Hireling, MrState, Whereabouts};
use crate::test_support::move_to;
use realmgm_core::dice::DiceScript;

const SOLDIERS: [&str; 4] = ["Soldier 1", "Soldier 2", "Soldier 3", "Soldier HQ"];

/// The Amazon in `here` with the four Soldiers hired and standing beside her.
fn captain_of_soldiers(here: &ClearingId) -> MrState {
    with_soldiers("Amazon", here)
}

/// `character` (P1) in `here` with the four Soldiers hired beside him.
pub(super) fn with_soldiers(character: &str, here: &ClearingId) -> MrState {
    let mut state = game(&[character]);
    place(&mut state, 0, here);
    for soldier in SOLDIERS {
        state.denizens.get_mut(soldier).expect("a soldier").at = Whereabouts::Clearing {
            clearing: here.clone(),
        };
        state.characters[0].hirelings.push(Hireling {
            native: soldier.into(),
            days_left: 10,
        });
    }
    state
}

pub(super) fn at(state: &MrState, native: &str) -> Whereabouts {
    state.denizens[native].at.clone()
}

pub(super) fn standing(clearing: &ClearingId) -> Whereabouts {
    Whereabouts::Clearing {
        clearing: clearing.clone(),
    }
}

#[test]
fn hirelings_follow_their_employer_unless_left_behind() {
    let (here, next) = border(&game(&["Amazon"]), ClearingKind::Woods);
    let state = captain_of_soldiers(&here);
    let orders = format!("{}\nLeave: Soldier 2; soldier 3", move_to(&next));
    let (after, events) = play(state, &[("P1", &orders)], DiceScript::default());
    assert_eq!(after.characters[0].position, next);
    for soldier in ["Soldier 1", "Soldier HQ"] {
        assert_eq!(at(&after, soldier), standing(&next), "{soldier} follows");
    }
    for soldier in ["Soldier 2", "Soldier 3"] {
        assert_eq!(at(&after, soldier), standing(&here), "{soldier} stays");
    }
    assert!(events.iter().any(|e| matches!(&e.happening,
        Happening::Phase(PhaseEvent::TurnStarts { followers, .. })
            if followers == &["Soldier 1", "Soldier HQ"])));
    assert!(events.iter().any(|e| matches!(&e.happening,
        Happening::Phase(PhaseEvent::FollowersLeft { followers, reason, .. })
            if followers == &["Soldier 2", "Soldier 3"] && reason.contains("as ordered"))));

    // The next day those left behind stay put; the others go on with her.
    let (after, _) = play(after, &[("P1", &move_to(&here))], DiceScript::default());
    assert_eq!(after.characters[0].position, here);
    for soldier in SOLDIERS {
        assert_eq!(
            at(&after, soldier),
            standing(&here),
            "{soldier} is with her again"
        );
    }
}

#[test]
fn hirelings_elsewhere_do_not_follow_and_the_whole_group_can_be_left() {
    let (here, next) = border(&game(&["Amazon"]), ClearingKind::Woods);
    let state = captain_of_soldiers(&here);
    let (after, _) = play(
        state,
        &[("P1", &format!("{}\nLeave: Soldiers", move_to(&next)))],
        DiceScript::default(),
    );
    for soldier in SOLDIERS {
        assert_eq!(at(&after, soldier), standing(&here));
    }
    // She moves on from `next`: the soldiers, elsewhere, do not follow.
    let (after, _) = play(after, &[("P1", "H")], DiceScript::default());
    for soldier in SOLDIERS {
        assert_eq!(at(&after, soldier), standing(&here));
    }
}

/// Whether any combat round was fought.
fn fought(events: &[super::events::DayEvent]) -> bool {
    events.iter().any(|e| {
        matches!(&e.happening, Happening::Combat(CombatEvent::Line { round, .. }) if *round > 0)
    })
}

#[test]
fn a_hired_leader_left_beside_a_monster_fights_for_his_absent_employer() {
    let (here, next) = border(&game(&["Amazon"]), ClearingKind::Woods);
    let mut state = captain_of_soldiers(&here);
    state.denizens.get_mut("Wolf A 1").expect("a wolf").at = standing(&here);
    let amazon = state.characters[0].clone();
    let (after, events) = play(
        state.clone(),
        &[("P1", &format!("{}\nLeave: all", move_to(&next)))],
        DiceScript::default(),
    );
    assert!(fought(&events), "the soldiers fight the wolf");
    let log = super::log::gm_log(&events);
    assert!(
        log.contains(
            "combat begins; in sight: Soldier 1, Soldier 2, Soldier 3, Soldier HQ and Wolf A 1"
        ),
        "{log}"
    );
    assert!(
        log.contains("Wolf A 1 attacks Soldier"),
        "the wolf goes for a soldier, not for the absent Amazon: {log}"
    );
    // Their employer reads the fight; her own record is hers as it was,
    // but for what her hirelings won.
    assert!(
        events
            .iter()
            .any(|e| matches!(&e.happening, Happening::Combat(_))
                && matches!(&e.observers, realmgm_core::game::Observers::Players(p) if p.contains("P1")))
    );
    let her = &after.characters[0];
    assert_eq!(her.position, next);
    assert_eq!(her.chits, amazon.chits);
    assert!(!her.dead);

    // Soldiers without their leader never start a fight.
    let mut no_leader = state;
    no_leader.denizens.get_mut("Soldier HQ").expect("HQ").at = standing(&next);
    let (_, events) = play(
        no_leader,
        &[("P1", &format!("{}\nLeave: all", move_to(&next)))],
        DiceScript::default(),
    );
    let log = super::log::gm_log(&events);
    assert!(
        !log.contains(&format!("{}{} round 1", here.tile, here.clearing)),
        "{log}"
    );
}

#[test]
fn hired_natives_are_not_sent_home_on_the_seventh_day() {
    let (here, next) = border(&game(&["Amazon"]), ClearingKind::Woods);
    let mut state = captain_of_soldiers(&here);
    state.day = 6;
    // Row 3 (the Soldiers' row) is rolled, so their garrison would call them home.
    let roll = crate::test_support::script(&[("birdsong/monster-roll", &[3])]);
    let (after, _) = play(state, &[("P1", &move_to(&next))], roll);
    for soldier in SOLDIERS {
        assert_eq!(at(&after, soldier), standing(&next), "{soldier} serves on");
    }
}

/// 3.1 8.2.2a: an employer away from the clearing still rolls for the
/// natives battling his hirelings there, but buys them no drinks.
#[test]
fn an_absent_employer_buys_no_drinks() {
    let (here, next) = border(&game(&["Amazon"]), ClearingKind::Woods);
    let mut state = captain_of_soldiers(&here);
    state.denizens.get_mut("Bashkar 1").expect("a Bashkar").at = standing(&here);
    state.characters[0].gold = 50;
    let (after, events) = play(
        state,
        &[("P1", &format!("{}\nLeave: all\nDrinks: 5", move_to(&next)))],
        DiceScript::default(),
    );
    let log = super::log::gm_log(&events);
    assert!(
        log.contains("Bashkars"),
        "she rolls for the Bashkars: {log}"
    );
    assert!(!log.contains("buys drinks"), "{log}");
    assert_eq!(after.characters[0].gold, 50, "{log}");
}

/// 3.1 8.1.4b, 7.4.5: hirelings who hid with their employer keep hidden
/// into the Evening, where the monster in their clearing cannot attack
/// them, and go back hidden when combat ends.
#[test]
fn hirelings_hidden_with_their_guide_stay_hidden_in_combat_8_1_4b() {
    let (here, _) = border(&game(&["Amazon"]), ClearingKind::Woods);
    let mut state = captain_of_soldiers(&here);
    state.denizens.get_mut("Wolf A 1").expect("a wolf").at = standing(&here);
    let hide = crate::test_support::script(&[("daylight/hide", &[1])]);
    let (after, events) = play(state.clone(), &[("P1", "H")], hide);
    let log = super::log::gm_log(&events);
    assert!(after.characters[0].hidden, "{log}");
    assert!(!log.contains("Wolf A 1 attacks"), "{log}");
    assert!(after.leaders["Soldier HQ"].hidden, "{log}");
    for soldier in SOLDIERS {
        assert_eq!(at(&after, soldier), standing(&here), "{log}");
    }
    // Had they not hidden, the wolf would attack.
    let (_, events) = play(state, &[("P1", "S")], DiceScript::default());
    let log = super::log::gm_log(&events);
    assert!(log.contains("Wolf A 1 attacks"), "{log}");
}

/// 3.1 8.1.4b: at the end of combat the hirelings' counters show their
/// hiding: dark side up for those still hidden, light side up for the
/// others, whatever side they started on.
#[test]
fn hirelings_end_combat_dark_side_up_if_hidden_8_1_4b() {
    let (here, _) = border(&game(&["Amazon"]), ClearingKind::Woods);
    let mut state = captain_of_soldiers(&here);
    state.denizens.get_mut("Wolf A 1").expect("a wolf").at = standing(&here);
    let side = |s: &MrState, id: &str| s.denizens[id].side;
    let hide = crate::test_support::script(&[("daylight/hide", &[1])]);
    let (after, _) = play(state.clone(), &[("P1", "H")], hide);
    for soldier in SOLDIERS {
        assert_eq!(side(&after, soldier), CounterSide::Dark, "{soldier}");
    }
    for soldier in SOLDIERS {
        state.denizens.get_mut(soldier).expect("a soldier").side = CounterSide::Dark;
    }
    let (after, events) = play(state, &[("P1", "S")], DiceScript::default());
    let log = super::log::gm_log(&events);
    assert!(log.contains("Wolf A 1 attacks"), "{log}");
    for soldier in SOLDIERS {
        if !matches!(after.denizens[soldier].at, Whereabouts::Dead) {
            assert_eq!(
                side(&after, soldier),
                CounterSide::Light,
                "{soldier}: {log}"
            );
        }
    }
}
