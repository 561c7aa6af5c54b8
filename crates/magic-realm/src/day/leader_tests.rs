//! Tests of hired leaders taking their own turns: a line of
//! his own gives him an attention counter and phases; without one he
//! follows his employer or hides where he stands; he loots, carries and
//! hands over what he finds; natives sent with him follow him; a killer
//! takes what he carried.

use super::events::{BirdsongEvent, Happening, PhaseEvent, PhaseResult};
use super::retinue_tests::{at, standing, with_soldiers};
use super::tests::{border, game, play};
use crate::board::ClearingId;
use crate::data::tiles::ClearingKind;
use crate::state::{Item, ItemKind, MrState, abandoned_pile};
use crate::test_support::{move_to, results, script};
use realmgm_core::dice::DiceScript;

/// The Captain (P1) in `here` with the four Soldiers hired beside him.
fn captain(here: &ClearingId) -> MrState {
    with_soldiers("Captain", here)
}

#[test]
fn a_hired_leader_with_a_line_takes_his_own_turn_with_those_sent_with_him() {
    let (here, next) = border(&game(&["Captain"]), ClearingKind::Woods);
    let state = captain(&here);
    let orders = format!(
        "H\nSoldier HQ: {}, H\nSend: Soldier 1 with Soldier HQ\nLeave: Soldier 2",
        move_to(&next)
    );
    let (after, events) = play(state, &[("P1", &orders)], DiceScript::default());
    assert_eq!(after.characters[0].position, here);
    assert_eq!(at(&after, "Soldier HQ"), standing(&next));
    assert_eq!(at(&after, "Soldier 1"), standing(&next), "sent with the HQ");
    assert_eq!(at(&after, "Soldier 2"), standing(&here), "left");
    assert_eq!(at(&after, "Soldier 3"), standing(&here), "with the Captain");
    let order = events.iter().find_map(|e| match &e.happening {
        Happening::Birdsong(BirdsongEvent::TurnOrder { order }) => Some(order.clone()),
        _ => None,
    });
    let mut order = order.expect("a turn order");
    order.sort();
    assert_eq!(
        order,
        ["Captain", "Soldier HQ"],
        "his own attention counter"
    );
    let his = results(&events, "Soldier HQ");
    assert!(
        matches!(&his[0], PhaseResult::Moved { to, .. } if to == &next),
        "{his:?}"
    );
    assert_eq!(his.len(), 2);
    // Only his employer's player saw the leader's phases.
    let seen_by_p1 = events.iter().any(|e| {
        matches!(&e.happening, Happening::Phase(PhaseEvent::TurnStarts { character, .. }) if character == "Soldier HQ")
            && matches!(&e.observers, realmgm_core::game::Observers::Players(p) if p.contains("P1"))
    });
    assert!(seen_by_p1);
    assert!(
        after.characters.len() == 1,
        "the stand-in is gone after his turn"
    );
}

#[test]
fn without_a_line_he_follows_his_employer_or_hides_where_he_stands() {
    let (here, next) = border(&game(&["Captain"]), ClearingKind::Woods);
    let state = captain(&here);
    let (after, events) = play(state, &[("P1", &move_to(&next))], DiceScript::default());
    assert_eq!(at(&after, "Soldier HQ"), standing(&next), "he follows");
    assert!(
        results(&events, "Soldier HQ").is_empty(),
        "no turn of his own"
    );

    // Left behind, the next day he hides where he stands.
    let mut apart = captain(&here);
    apart.denizens.get_mut("Soldier HQ").expect("HQ").at = standing(&next);
    let hide = script(&[("daylight/hide", &[1])]);
    let (after, events) = play(apart, &[("P1", "R")], hide);
    assert_eq!(at(&after, "Soldier HQ"), standing(&next));
    let his = results(&events, "Soldier HQ");
    assert!(
        matches!(his[0], PhaseResult::Hid { hidden: true, .. }),
        "{his:?}"
    );
    assert!(
        his[1..]
            .iter()
            .all(|r| matches!(r, PhaseResult::AlreadyHidden)),
        "{his:?}"
    );
    assert!(after.leaders["Soldier HQ"].hidden, "he keeps his hiding");
}

#[test]
fn what_he_loots_he_carries_and_hands_to_his_employer_when_they_meet() {
    let (here, next) = border(&game(&["Captain"]), ClearingKind::Woods);
    let mut state = captain(&here);
    state.denizens.get_mut("Soldier HQ").expect("HQ").at = standing(&next);
    let telescope = Item {
        kind: ItemKind::Treasure,
        name: "Ancient Telescope".into(),
    };
    state
        .holdings
        .insert(abandoned_pile(&next), vec![telescope.clone()]);
    let loot = script(&[("search/Soldier HQ/loot", &[1])]);
    let (after, _) = play(state, &[("P1", "R\nSoldier HQ: S\nSearch: loot")], loot);
    assert_eq!(after.leaders["Soldier HQ"].carries, vec![telescope.clone()]);
    assert!(after.characters[0].belongings.is_empty());

    // No map chit summons anything, so no monster spoils the meeting.
    let mut after = after;
    after.map_chits.clear();
    let (after, events) = play(
        after,
        &[("P1", &format!("R\nSoldier HQ: {}", move_to(&here)))],
        DiceScript::default(),
    );
    let log = super::log::gm_log(&events);
    assert!(
        after.characters[0]
            .belongings
            .iter()
            .any(|b| b.item == telescope && !b.active),
        "{log}"
    );
    assert!(!after.leaders.contains_key("Soldier HQ"));
    assert!(events.iter().any(|e| matches!(&e.happening,
        Happening::Phase(PhaseEvent::HandedOver { leader, .. }) if leader == "Soldier HQ")));
}

#[test]
fn his_killer_takes_what_he_carried_and_a_released_leader_drops_it() {
    let (here, _) = border(&game(&["Captain"]), ClearingKind::Woods);
    let item = Item {
        kind: ItemKind::Treasure,
        name: "Ancient Telescope".into(),
    };
    let mut state = game(&["Captain", "Amazon"]);
    state.characters[0] = captain(&here).characters[0].clone();
    state.denizens.get_mut("Soldier HQ").expect("HQ").at = standing(&here);
    state.leaders.insert(
        "Soldier HQ".into(),
        crate::state::LeaderRecord {
            carries: vec![item.clone()],
            ..Default::default()
        },
    );
    let mut killed = state.clone();
    killed.hired_leader_killed("Soldier HQ", "Amazon");
    assert!(
        killed.characters[1]
            .belongings
            .iter()
            .any(|b| b.item == item)
    );
    let mut by_monster = state.clone();
    by_monster.hired_leader_killed("Soldier HQ", "Giant 1");
    assert_eq!(
        by_monster.holdings[&abandoned_pile(&here)],
        vec![item.clone()]
    );
    let mut released = state;
    released.release_hired_leaders(0);
    assert_eq!(released.holdings[&abandoned_pile(&here)], vec![item]);
    assert!(released.leaders.is_empty());
}

#[test]
fn a_hidden_hired_leader_is_not_attacked_where_he_waits() {
    let (here, next) = border(&game(&["Captain"]), ClearingKind::Woods);
    let mut state = captain(&next);
    for soldier in ["Soldier 1", "Soldier 2", "Soldier 3"] {
        state.denizens.get_mut(soldier).expect("a soldier").at = crate::state::Whereabouts::Dead;
    }
    state.denizens.get_mut("Soldier HQ").expect("HQ").at = standing(&here);
    state.denizens.get_mut("Wolf A 1").expect("a wolf").at = standing(&here);
    let hide = script(&[("daylight/hide", &[1])]);
    // He hides in his own turn; the wolf cannot find him in the Evening.
    let (after, events) = play(state.clone(), &[("P1", "R\nSoldier HQ: H")], hide);
    let log = super::log::gm_log(&events);
    assert!(after.leaders["Soldier HQ"].hidden, "{log}");
    assert!(!log.contains("Wolf A 1 attacks"), "{log}");
    assert_eq!(at(&after, "Soldier HQ"), standing(&here));
    // Unhidden, the wolf goes for him.
    let (_, events) = play(state, &[("P1", "R\nSoldier HQ: S")], DiceScript::default());
    let log = super::log::gm_log(&events);
    assert!(log.contains("Wolf A 1 attacks Soldier HQ"), "{log}");
}

#[test]
fn a_hired_leader_blocked_before_his_turn_does_no_phases() {
    let (here, next) = border(&game(&["Captain"]), ClearingKind::Woods);
    let mut state = game(&["Captain", "Swordsman"]);
    let with_him = captain(&next);
    state.characters[0] = with_him.characters[0].clone();
    state.denizens = with_him.denizens;
    state.denizens.get_mut("Soldier HQ").expect("HQ").at = standing(&here);
    state.characters[1].position = here.clone();
    let leader_line = format!("R\nSoldier HQ: {}", move_to(&next));
    // The Swordsman takes the first turn and blocks everyone he meets.
    let (after, events) = play(
        state.clone(),
        &[
            ("P1", &leader_line),
            ("P2", "R\nTurn: first\nBlock: everyone"),
        ],
        DiceScript::default(),
    );
    let log = super::log::gm_log(&events);
    assert!(log.contains("The Swordsman blocks the Soldier HQ"), "{log}");
    assert_eq!(
        at(&after, "Soldier HQ"),
        standing(&here),
        "he never moved: {log}"
    );
    // Without the block he goes.
    let (after, _) = play(
        state,
        &[("P1", &leader_line), ("P2", "R\nTurn: first")],
        DiceScript::default(),
    );
    assert_eq!(at(&after, "Soldier HQ"), standing(&next));
}

#[test]
fn a_hired_leader_follows_the_character_his_line_names() {
    let (here, next) = border(&game(&["Captain"]), ClearingKind::Woods);
    let mut state = game(&["Captain", "Elf"]);
    let with_soldiers = captain(&here);
    state.characters[0] = with_soldiers.characters[0].clone();
    state.denizens = with_soldiers.denizens;
    state.characters[1].position = here.clone();
    let (after, events) = play(
        state,
        &[
            (
                "P1",
                "R\nSoldier HQ: F Elf\nSend: Soldier 1 with Soldier HQ",
            ),
            ("P2", &move_to(&next)),
        ],
        DiceScript::default(),
    );
    let log = super::log::gm_log(&events);
    assert_eq!(at(&after, "Soldier HQ"), standing(&next), "{log}");
    assert_eq!(at(&after, "Soldier 1"), standing(&next), "sent with him");
    assert_eq!(at(&after, "Soldier 2"), standing(&here), "with the Captain");
    assert!(
        results(&events, "Soldier HQ").is_empty(),
        "no turn of his own"
    );
}

/// 3.1 6.2.5: a hired leader may not Alert, Rest or Enchant for himself;
/// such phases are struck from his turn and his employer is told.
#[test]
fn a_hired_leader_does_not_rest_alert_or_enchant_6_2_5() {
    let (here, next) = border(&game(&["Captain"]), ClearingKind::Woods);
    let state = captain(&here);
    let orders = format!("H\nSoldier HQ: R, A, {}, EM", move_to(&next));
    let (after, events) = play(state, &[("P1", &orders)], DiceScript::default());
    let his = results(&events, "Soldier HQ");
    assert_eq!(his.len(), 1, "{his:?}");
    assert!(
        matches!(&his[0], PhaseResult::Moved { to, .. } if to == &next),
        "{his:?}"
    );
    assert_eq!(at(&after, "Soldier HQ"), standing(&next));
    let struck = events.iter().find_map(|e| match &e.happening {
        Happening::Phase(PhaseEvent::StruckForLeader { leader, phases, .. }) => {
            Some((leader.clone(), phases.clone()))
        }
        _ => None,
    });
    let (leader, phases) = struck.expect("the struck phases are told");
    assert_eq!(leader, "Soldier HQ");
    assert_eq!(phases.len(), 3, "{phases:?}");
    assert_eq!(phases[..2], ["R", "A"]);
}

/// 3.1 6.2.5: a hired leader's only extra phases are his native horse's,
/// so a starred phase recorded for him is struck, and a treasure he
/// carries that gives a character an extra phase (the Cloak of Mist) gives
/// him none: nothing holds it back, and he gives it away at his first
/// phase (3.1 6.2.4d has nothing to keep for him).
#[test]
fn a_hired_leaders_starred_phase_is_struck_and_holds_back_no_gift_6_2_5() {
    let (here, next) = border(&game(&["Captain"]), ClearingKind::Woods);
    let mut state = game(&["Captain", "Elf"]);
    super::tests::place(&mut state, 0, &next);
    super::tests::place(&mut state, 1, &here);
    state.denizens.get_mut("Soldier HQ").expect("HQ").at = standing(&here);
    state.characters[0].hirelings.push(crate::state::Hireling {
        native: "Soldier HQ".into(),
        days_left: 9,
    });
    let cloak = Item {
        kind: ItemKind::Treasure,
        name: "Cloak of Mist".into(),
    };
    state.leaders.insert(
        "Soldier HQ".into(),
        crate::state::LeaderRecord {
            carries: vec![cloak.clone()],
            ..Default::default()
        },
    );
    let (after, events) = play(
        state,
        &[
            (
                "P1",
                "R\nSoldier HQ: H*, H\nGive: Cloak of Mist to Elf by Soldier HQ at phase 1",
            ),
            ("P2", "R\nReceive: Cloak of Mist from Soldier HQ at phase 1"),
        ],
        DiceScript::default(),
    );
    let log = super::log::gm_log(&events);
    let struck = events.iter().find_map(|e| match &e.happening {
        Happening::Phase(PhaseEvent::StruckForLeader { phases, .. }) => Some(phases.clone()),
        _ => None,
    });
    assert_eq!(struck, Some(vec!["H*".to_string()]), "{log}");
    assert!(
        log.contains("his only extra phases are his native horse's Moves"),
        "{log}"
    );
    assert_eq!(results(&events, "Soldier HQ").len(), 1, "{log}");
    assert!(
        after.characters[1]
            .belongings
            .iter()
            .any(|b| b.item == cloak),
        "{log}"
    );
}

/// 3.1 4.6.9c.1: a hired leader transmorphized by a Transform cast on him
/// (it takes one character, monster or native) never Trades or Hires; the
/// same line untransformed keeps its Trade. As mist (Melt Into Mist takes
/// a native too) he does not Search either (4.6.9c.2).
#[test]
fn a_transmorphized_hired_leader_does_not_trade_4_6_9c_1() {
    use crate::state::magic::{Aim, CastWith, SpellInEffect};
    let (here, _) = border(&game(&["Captain"]), ClearingKind::Woods);
    let mut state = game(&["Captain"]);
    super::tests::place(&mut state, 0, &here);
    state.denizens.get_mut("Soldier HQ").expect("HQ").at = standing(&here);
    state.characters[0].hirelings.push(crate::state::Hireling {
        native: "Soldier HQ".into(),
        days_left: 9,
    });
    let struck = |state: MrState| {
        let (_, events) = play(
            state,
            &[("P1", "H\nSoldier HQ: T, S, H")],
            DiceScript::default(),
        );
        let log = super::log::gm_log(&events);
        let struck = events.iter().find_map(|e| match &e.happening {
            Happening::Phase(PhaseEvent::StruckForLeader { phases, .. }) => Some(phases.clone()),
            _ => None,
        });
        (struck, log)
    };
    assert_eq!(struck(state.clone()).0, None);
    state.magic.in_effect.push(SpellInEffect {
        id: 7,
        spell: "Transform".into(),
        caster: "Captain".into(),
        with: CastWith::Treasure {
            name: "Black Book".into(),
        },
        targets: vec![Aim::Denizen {
            id: "Soldier HQ".into(),
        }],
        duration: crate::data::spells::Duration::Permanent,
        cast_on: 1,
        inert: false,
        held: false,
        detail: Some("Squirrel".into()),
        untied: false,
    });
    let (phases, log) = struck(state.clone());
    assert_eq!(phases, Some(vec!["T".to_string()]), "{log}");
    assert!(log.contains("(3.1 4.6.9c)"), "{log}");
    state.magic.in_effect[0].spell = "Melt Into Mist".into();
    state.magic.in_effect[0].detail = None;
    let (phases, log) = struck(state);
    assert_eq!(
        phases,
        Some(vec!["T".to_string(), "S".to_string()]),
        "{log}"
    );
}

/// 3.1 6.2.5, 7.3.2e.1: the Patrol HQ rides his native workhorse, which
/// gives him one extra Move a day as a character's does; the Soldier HQ
/// has no horse, and the same starred Move is struck from his turn.
#[test]
fn a_hired_leaders_native_horse_gives_him_its_extra_move_7_3_2e_1() {
    let (here, next) = border(&game(&["Captain"]), ClearingKind::Woods);
    let line = |leader: &str| format!("H\n{leader}: H, H, H, H, {}*", move_to(&next));
    let rides = |leader: &str| {
        let mut state = game(&["Captain"]);
        super::tests::place(&mut state, 0, &here);
        state.denizens.get_mut(leader).expect("HQ").at = standing(&here);
        state.characters[0].hirelings.push(crate::state::Hireling {
            native: leader.into(),
            days_left: 9,
        });
        let (after, events) = play(state, &[("P1", &line(leader))], DiceScript::default());
        let log = super::log::gm_log(&events);
        (at(&after, leader), log, after)
    };
    let (patrol, log, after) = rides("Patrol HQ");
    assert_eq!(patrol, standing(&next), "{log}");
    assert!(
        !after
            .leaders
            .get("Patrol HQ")
            .is_some_and(|r| r.carries.iter().any(|i| i.name == "Patrol Horse HQ")),
        "his horse is not something he carries"
    );
    let (soldier, log, _) = rides("Soldier HQ");
    assert_eq!(soldier, standing(&here), "{log}");
    assert!(log.contains("struck"), "{log}");
}
