//! Tests of controlled monsters taking turns (3.1 6.2.5, 7.13.3e): a
//! monster under its controller's control spell does the phases he records
//! for it, never Trade or Hire; without a line it stays where it stands; the
//! orders check refuses a line for a monster he does not control; a monster
//! whose control has ended leaves what it carried where it stands.

use super::events::{Happening, PhaseEvent, PhaseResult};
use super::retinue_tests::{at, standing};
use super::tests::{border, game, orders, play};
use crate::board::ClearingId;
use crate::data::tiles::ClearingKind;
use crate::state::magic::{Aim, CastWith, SpellInEffect};
use crate::state::{Item, ItemKind, LeaderRecord, MrState, abandoned_pile};
use crate::test_support::{move_to, results, script};
use realmgm_core::dice::DiceScript;

pub(super) const BAT: &str = "Giant Bat 1";

/// The Magician (P1) in `here`, the bat beside him under his Control Bats
/// cast the Evening before (it holds until this day's Sunset).
pub(super) fn magician_with_bat(here: &ClearingId) -> MrState {
    let mut state = game(&["Magician"]);
    state.characters[0].position = here.clone();
    state.denizens.get_mut(BAT).expect("a bat").at = standing(here);
    let id = state.magic.next_id;
    state.magic.next_id += 1;
    state.magic.in_effect.push(SpellInEffect {
        id,
        spell: "Control Bats".into(),
        caster: "Magician".into(),
        with: CastWith::Chit { index: 4 },
        targets: vec![Aim::Denizen { id: BAT.into() }],
        duration: crate::data::spells::Duration::Day,
        cast_on: state.day,
        inert: false,
        held: false,
        untied: false,
        detail: None,
    });
    state
}

/// 3.1 6.2.5: a controlled monster cannot do Trade or Hire phases (nor
/// Alert, Rest, Enchant); they are struck and its controller is told.
#[test]
fn a_controlled_monster_does_not_trade_or_hire_6_2_5() {
    let (here, next) = border(&game(&["Magician"]), ClearingKind::Woods);
    let state = magician_with_bat(&here);
    let orders = format!("H\n{BAT}: T, {}, HR", move_to(&next));
    let (after, events) = play(state, &[("P1", &orders)], DiceScript::default());
    let its = results(&events, BAT);
    assert_eq!(its.len(), 1, "{its:?}");
    assert!(
        matches!(&its[0], PhaseResult::Moved { to, .. } if to == &next),
        "{its:?}"
    );
    assert_eq!(at(&after, BAT), standing(&next));
    let struck = events.iter().find_map(|e| match &e.happening {
        Happening::Phase(PhaseEvent::StruckForLeader {
            leader,
            phases,
            monster,
            ..
        }) => Some((leader.clone(), phases.clone(), *monster)),
        _ => None,
    });
    let (leader, phases, monster) = struck.expect("the struck phases are told");
    assert_eq!((leader.as_str(), monster), (BAT, true));
    assert_eq!(phases, ["T", "HR"]);
    let log = super::log::gm_log(&events);
    assert!(
        log.contains("a controlled monster does not Alert, Rest, Enchant, Trade or Hire"),
        "{log}"
    );
}

/// 3.1 7.13.3e: a controlled monster moves only at its controller's word;
/// without a line it takes no turn and stays where it stands, and once the
/// control has ended a line for it moves nothing.
#[test]
fn without_a_line_or_a_control_it_stays_7_13_3e() {
    let (here, next) = border(&game(&["Magician"]), ClearingKind::Woods);
    // Away from its controller and without a line, it does not hide in
    // place as a hired leader would: it takes no turn at all.
    let mut apart = magician_with_bat(&here);
    apart.denizens.get_mut(BAT).expect("bat").at = standing(&next);
    let hide = script(&[("daylight/hide", &[1])]);
    let (after, events) = play(apart, &[("P1", "H")], hide);
    assert_eq!(at(&after, BAT), standing(&next));
    assert!(results(&events, BAT).is_empty(), "no turn of its own");
    assert!(!after.leaders.contains_key(BAT), "it never hid");

    let mut ended = magician_with_bat(&here);
    ended.magic.in_effect.clear();
    let line = format!("H\n{BAT}: {}", move_to(&next));
    let (after, events) = play(ended, &[("P1", &line)], DiceScript::default());
    assert_eq!(at(&after, BAT), standing(&here));
    assert!(results(&events, BAT).is_empty());
}

/// 3.1 6.2.5: the orders check takes a line for a monster he controls and
/// refuses one with a Trade phase, and one for a monster he does not
/// control, saying why.
#[test]
fn the_orders_check_knows_his_controlled_monsters_6_2_5() {
    let (here, next) = border(&game(&["Magician"]), ClearingKind::Woods);
    let state = magician_with_bat(&here);
    let check = |state: &MrState, text: &str| {
        let (problems, _) = crate::orders::mail_check::problems(
            crate::test_support::data(),
            Some(state),
            "P1",
            &orders(text),
            text,
        );
        problems
            .iter()
            .map(|p| p.message.clone())
            .collect::<Vec<_>>()
    };
    let good = format!("H\n{BAT}: {}, H", move_to(&next));
    assert!(
        check(&state, &good).is_empty(),
        "{:?}",
        check(&state, &good)
    );
    let trade = format!("H\n{BAT}: T");
    let said = check(&state, &trade).join(" ");
    assert!(
        said.contains("it does not trade or hire (3.1 6.2.5)"),
        "{said}"
    );
    let mut ended = state.clone();
    ended.magic.in_effect.clear();
    let said = check(&ended, &good).join(" ");
    assert!(said.contains("you do not control this monster"), "{said}");
}

/// A monster whose control ended at Sunset leaves what it carried in its
/// clearing at Midnight; its record goes.
#[test]
fn a_monster_set_free_leaves_what_it_carried() {
    let (here, _) = border(&game(&["Magician"]), ClearingKind::Woods);
    let mut state = magician_with_bat(&here);
    state.magic.in_effect.clear();
    let elsewhere = state
        .board
        .clearings()
        .into_iter()
        .find(|c| c.tile != here.tile)
        .expect("another tile");
    state.denizens.get_mut(BAT).expect("bat").at = standing(&elsewhere);
    let telescope = Item {
        kind: ItemKind::Treasure,
        name: "Ancient Telescope".into(),
    };
    state.leaders.insert(
        BAT.into(),
        LeaderRecord {
            hidden: true,
            found_hidden_enemies: false,
            carries: vec![telescope.clone()],
            transmorphized_with: None,
        },
    );
    let hide = script(&[("daylight/hide", &[6])]);
    let (after, _) = play(state, &[("P1", "H")], hide);
    assert!(!after.leaders.contains_key(BAT));
    assert!(
        after
            .holdings
            .get(&abandoned_pile(&elsewhere))
            .is_some_and(|pile| pile.contains(&telescope))
    );
}

/// 3.1 6.2.5: his sheet names each monster he controls, where it stands
/// and how he records its turn.
#[test]
fn his_sheet_names_the_monsters_he_controls_6_2_5() {
    let (here, _) = border(&game(&["Magician"]), ClearingKind::Woods);
    let state = magician_with_bat(&here);
    let sheet = crate::report::sheet::sheet(
        crate::test_support::data(),
        &realmgm_core::game::Rules::default(),
        &state,
        &state.characters[0],
    );
    assert_eq!(sheet.controlled.len(), 1, "{:?}", sheet.controlled);
    assert!(
        sheet.controlled[0].starts_with(&format!("{BAT}, ")),
        "{:?}",
        sheet.controlled
    );
    assert!(sheet.controlled[0].contains(&format!("'{BAT}: M <clearing>, H'")));
}
