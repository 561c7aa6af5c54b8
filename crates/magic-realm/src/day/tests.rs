//! Tests of the day engine: the table rows and movement rules that matter,
//! summoning by setup-card row, blocking and following.

use std::collections::BTreeMap;

use super::events::{ArrivalEvent, DayEvent, Happening, PhaseEvent, PhaseResult};
use super::resolve_day;
use crate::board::ClearingId;
use crate::data::tiles::{ClearingKind, PathKind};
use crate::orders::{DayOrders, parse_day_orders};
use crate::state::{ChitCondition, MapChit, MrState, Whereabouts};
use crate::test_support::{data, game_played_by, move_to, results, script, without_denizens};
use realmgm_core::dice::{Dice, DiceScript, Faces};
use realmgm_core::game::Rules;

/// A game with these characters, played by P1, P2...; every monster and
/// native off the map so nothing blocks unless a test puts it there.
pub(super) fn game(characters: &[&str]) -> MrState {
    without_denizens(game_played_by(characters, |i| format!("P{}", i + 1)))
}

pub(super) fn orders(text: &str) -> DayOrders {
    parse_day_orders(text, 1, data()).expect("test orders parse")
}

pub(super) fn play(
    state: MrState,
    given: &[(&str, &str)],
    script: DiceScript,
) -> (MrState, Vec<DayEvent>) {
    let all: BTreeMap<String, DayOrders> = given
        .iter()
        .map(|(p, text)| ((*p).to_string(), orders(text)))
        .collect();
    let mut dice = Dice::with_script(3, state.day + 1, script);
    resolve_day(data(), &Rules::default(), state, &all, &mut dice).expect("the day resolves")
}

/// A clearing of `kind` and a neighbour of another kind joined by a normal
/// path, as (inside, outside).
pub(super) fn border(state: &MrState, kind: ClearingKind) -> (ClearingId, ClearingId) {
    let board = &state.board;
    board
        .clearings()
        .into_iter()
        .find_map(|c| {
            if board.clearing(&c)?.kind != kind {
                return None;
            }
            board
                .neighbours(&c)
                .into_iter()
                .find(|l| {
                    l.kind == PathKind::Normal
                        && board.clearing(&l.to).is_some_and(|o| {
                            o.kind != kind
                                && o.kind != ClearingKind::Cave
                                && o.kind != ClearingKind::Mountain
                        })
                })
                .map(|l| (c.clone(), l.to))
        })
        .expect("the board has such a clearing")
}

/// A hidden way of one of `kinds` between two clearings, the far one
/// neither a cave nor a mountain: (near, far).
pub(super) fn hidden_way(state: &MrState, kinds: &[PathKind]) -> (ClearingId, ClearingId) {
    let board = &state.board;
    let open = |c: &ClearingId| {
        board
            .clearing(c)
            .is_some_and(|k| !matches!(k.kind, ClearingKind::Mountain | ClearingKind::Cave))
    };
    board
        .clearings()
        .into_iter()
        .find_map(|c| {
            board
                .neighbours(&c)
                .into_iter()
                .find(|l| kinds.contains(&l.kind) && open(&l.to))
                .map(|l| (c.clone(), l.to))
        })
        .expect("the board has a hidden way")
}

pub(super) fn place(state: &mut MrState, who: usize, at: &ClearingId) {
    state.characters[who].position = at.clone();
}

fn lost_reason(result: &PhaseResult) -> &str {
    match result {
        PhaseResult::Lost { reason } => reason,
        other => panic!("expected a lost phase, got {other:?}"),
    }
}

#[test]
fn hide_fails_on_a_six_and_succeeds_below() {
    let state = game(&["Black Knight"]);
    let forced = script(&[("daylight/hide", &[6, 2]), ("daylight/hide", &[5, 1])]);
    let (state, events) = play(state, &[("P1", "H / H")], forced);
    assert_eq!(
        results(&events, "Black Knight"),
        vec![
            PhaseResult::Hid {
                faces: Faces::new(&[6, 2]),
                hidden: false
            },
            PhaseResult::Hid {
                faces: Faces::new(&[5, 1]),
                hidden: true
            },
        ]
    );
    assert!(state.characters[0].hidden);
}

#[test]
fn an_undiscovered_hidden_path_cannot_be_used_until_discovered() {
    let mut state = game(&["Black Knight"]);
    let (from, to) = hidden_way(&state, &[PathKind::Hidden, PathKind::Secret]);
    place(&mut state, 0, &from);
    let (after, events) = play(
        state.clone(),
        &[("P1", &move_to(&to))],
        DiceScript::default(),
    );
    let result = &results(&events, "Black Knight")[0];
    let reason = lost_reason(result);
    assert!(reason.contains("no known path"), "{result:?}");
    assert!(
        !reason.contains("hidden") && !reason.contains("secret"),
        "the reason must not reveal the undiscovered path: {reason}"
    );
    assert_eq!(after.characters[0].position, from);
    let key = if from <= to {
        (from.clone(), to.clone())
    } else {
        (to.clone(), from.clone())
    };
    state.characters[0].discoveries.routes.insert(key);
    let (after, _) = play(state, &[("P1", &move_to(&to))], DiceScript::default());
    assert_eq!(after.characters[0].position, to);
}

#[test]
fn a_mountain_clearing_takes_two_move_phases() {
    let mut state = game(&["Black Knight"]);
    let (mountain, below) = border(&state, ClearingKind::Mountain);
    place(&mut state, 0, &below);
    let once = format!("{} / H", move_to(&mountain));
    let (after, events) = play(state.clone(), &[("P1", &once)], DiceScript::default());
    let result = &results(&events, "Black Knight")[0];
    assert!(
        lost_reason(result).contains("two move phases"),
        "{result:?}"
    );
    assert_eq!(after.characters[0].position, below);
    let twice = format!("{0} / {0}", move_to(&mountain));
    let (after, events) = play(state, &[("P1", &twice)], DiceScript::default());
    assert!(matches!(
        results(&events, "Black Knight")[0],
        PhaseResult::Climbing { .. }
    ));
    assert_eq!(after.characters[0].position, mountain);
}

#[test]
fn caves_cost_the_sunlight_phases() {
    let mut state = game(&["Black Knight"]);
    let (cave, outside) = border(&state, ClearingKind::Cave);
    place(&mut state, 0, &cave);
    let (_, events) = play(
        state.clone(),
        &[("P1", "R / R / R / R")],
        DiceScript::default(),
    );
    let done = results(&events, "Black Knight");
    assert!(matches!(done[1], PhaseResult::Rested { .. }));
    assert!(lost_reason(&done[2]).contains("only 2 phases"), "{done:?}");
    assert!(lost_reason(&done[3]).contains("only 2 phases"));
    place(&mut state, 0, &outside);
    let into = format!("{} / R / R / R", move_to(&cave));
    let (after, events) = play(state, &[("P1", &into)], DiceScript::default());
    let done = results(&events, "Black Knight");
    assert_eq!(after.characters[0].position, cave);
    assert!(matches!(done[1], PhaseResult::Rested { .. }));
    assert!(lost_reason(&done[2]).contains("only 2 phases"), "{done:?}");
}

#[test]
fn a_bonus_phase_needs_an_advantage_that_gives_it() {
    let state = game(&["Amazon", "Black Knight"]);
    let (_, events) = play(
        state,
        &[("P1", "R / R / R / R / R*"), ("P2", "R / R / R / R / R*")],
        DiceScript::default(),
    );
    let amazon = results(&events, "Amazon");
    assert!(lost_reason(&amazon[4]).contains("bonus R"), "{amazon:?}");
    let knight = results(&events, "Black Knight");
    assert!(lost_reason(&knight[4]).contains("bonus R"));
    let state = game(&["Amazon"]);
    let (cave_free, outside) = border(&state, ClearingKind::Woods);
    let mut state = state;
    place(&mut state, 0, &outside);
    let text = format!("H / H / H / H / {}*", move_to(&cave_free));
    let six: &[u8] = &[6];
    let forced = script(&[("daylight/hide", six); 4]);
    let (after, events) = play(state, &[("P1", &text)], forced);
    assert!(matches!(
        results(&events, "Amazon")[4],
        PhaseResult::Moved { .. }
    ));
    assert_eq!(after.characters[0].position, cave_free);
}

#[test]
fn an_impossible_phase_hides_instead_when_told_so() {
    let state = game(&["Black Knight"]);
    let forced = script(&[("daylight/hide", &[2])]);
    let (after, events) = play(state, &[("P1", "FL OW\nIf impossible: hide")], forced);
    match &results(&events, "Black Knight")[0] {
        PhaseResult::Instead { reason, result } => {
            assert!(reason.contains("no active item that flies"), "{reason}");
            assert!(matches!(**result, PhaseResult::Hid { hidden: true, .. }));
        }
        other => panic!("{other:?}"),
    }
    assert!(after.characters[0].hidden);
}

#[test]
fn rest_heals_the_named_chit_and_alert_readies_the_weapon_until_midnight() {
    let mut state = game(&["Black Knight"]);
    state.characters[0].chits[0].condition = ChitCondition::Fatigued;
    state.characters[0].chits[1].condition = ChitCondition::Wounded;
    let wounded = state.characters[0].chits[1].chit.clone();
    let text = format!("R-{wounded} / A");
    let (after, events) = play(state, &[("P1", &text)], DiceScript::default());
    let done = results(&events, "Black Knight");
    match &done[0] {
        PhaseResult::Rested { changes } => assert_eq!(changes[0].chit, wounded),
        other => panic!("{other:?}"),
    }
    assert_ne!(
        after.characters[0].chits[1].condition,
        ChitCondition::Wounded
    );
    assert!(matches!(done[1], PhaseResult::Alerted { .. }));
    assert!(!after.characters[0].weapon_alerted, "unalerted at Midnight");
}

#[test]
fn a_monster_blocks_an_unhidden_character_at_the_end_of_his_phase() {
    let mut state = game(&["Black Knight"]);
    let (here, next) = border(&state, ClearingKind::Woods);
    place(&mut state, 0, &here);
    state.denizens.get_mut("Ogre 1").expect("ogre").at = Whereabouts::Clearing {
        clearing: here.clone(),
    };
    let text = format!("R / {}", move_to(&next));
    let (after, events) = play(state, &[("P1", &text)], DiceScript::default());
    assert_eq!(after.characters[0].position, here);
    assert!(events.iter().any(|e| matches!(&e.happening,
        Happening::Phase(PhaseEvent::Blocked { blocker, .. }) if blocker == "Ogre 1")));
    assert_eq!(results(&events, "Black Knight").len(), 1);
}

#[test]
fn a_character_blocks_as_his_instruction_says() {
    let mut state = game(&["Black Knight", "Amazon"]);
    let (here, next) = border(&state, ClearingKind::Woods);
    place(&mut state, 0, &here);
    place(&mut state, 1, &here);
    let amazon = format!("R / {}", move_to(&next));
    let (after, events) = play(
        state,
        &[("P1", "R / R\nBlock: Amazon"), ("P2", &amazon)],
        DiceScript::default(),
    );
    assert_eq!(after.characters[1].position, here, "the Amazon stays");
    assert!(events.iter().any(|e| matches!(&e.happening,
        Happening::Phase(PhaseEvent::Blocked { blocker, blocked, .. })
            if blocker == "Black Knight" && blocked == "Amazon")));
}

#[test]
fn a_follower_moves_with_his_guide() {
    let mut state = game(&["Black Knight", "Amazon"]);
    let (here, next) = border(&state, ClearingKind::Woods);
    place(&mut state, 0, &here);
    place(&mut state, 1, &here);
    let (after, events) = play(
        state,
        &[("P1", "F Amazon"), ("P2", &move_to(&next))],
        DiceScript::default(),
    );
    assert_eq!(after.characters[0].position, next);
    assert_eq!(after.characters[1].position, next);
    assert!(events.iter().any(|e| matches!(&e.happening,
        Happening::Birdsong(super::events::BirdsongEvent::TurnOrder { order }) if order == &["Amazon"])));
}

/// The tile holding a chit, and a clearing of it where the character can stand.
fn tile_with(state: &MrState, chit: &str) -> String {
    state
        .tile_of_chit(chit)
        .expect("the chit is dealt")
        .to_string()
}

#[test]
fn a_warning_chit_summons_its_box_only_on_its_row() {
    let mut state = game(&["Black Knight"]);
    let tile = tile_with(&state, "Ruins W");
    let clearing = state
        .board
        .clearings()
        .into_iter()
        .find(|c| c.tile == tile)
        .expect("a clearing");
    place(&mut state, 0, &clearing);
    let arrivals = |events: &[DayEvent]| -> Vec<String> {
        events
            .iter()
            .filter_map(|e| match &e.happening {
                Happening::Arrival(ArrivalEvent::Arrived {
                    counters, cause, ..
                }) if cause == "summoned by Ruins W" => Some(counters.clone()),
                _ => None,
            })
            .flatten()
            .collect()
    };
    let hide = script(&[("birdsong/monster-roll", &[4]), ("daylight/hide", &[1])]);
    let (_, events) = play(state.clone(), &[("P1", "H")], hide);
    assert!(
        arrivals(&events).is_empty(),
        "row 4 does not answer Ruins W"
    );
    let hide = script(&[("birdsong/monster-roll", &[3]), ("daylight/hide", &[1])]);
    let (after, events) = play(state, &[("P1", "H")], hide);
    let wolves = arrivals(&events);
    assert_eq!(wolves.len(), 6, "{wolves:?}");
    assert!(wolves.iter().all(|w| w.starts_with("Wolf")));
    for w in &wolves {
        assert_eq!(
            after.denizens[w].at,
            Whereabouts::Clearing {
                clearing: clearing.clone()
            }
        );
    }
}

#[test]
fn a_sound_chit_summons_into_its_numbered_clearing() {
    let mut state = game(&["Black Knight"]);
    // Put the Roar 6 sound chit alone on a cave-group tile and stand there:
    // row 4 sends the first troll box into clearing 6.
    let tile = state
        .board
        .placements()
        .map(|p| p.tile.clone())
        .find(|t| data().tiles.by_code(t).map(|d| d.group.letter()) == Some("C"))
        .expect("a cave-group tile");
    state.map_chits.insert(
        tile.clone(),
        vec![MapChit {
            name: "Roar 6".into(),
            face_up: false,
        }],
    );
    let clearing = state
        .board
        .clearings()
        .into_iter()
        .find(|c| c.tile == tile && c.clearing != 6)
        .expect("a clearing");
    place(&mut state, 0, &clearing);
    let forced = script(&[("birdsong/monster-roll", &[4]), ("daylight/hide", &[1])]);
    let (after, events) = play(state, &[("P1", "H")], forced);
    let six = ClearingId::new(&tile, 6);
    let came: Vec<&String> = after
        .denizens
        .iter()
        .filter(|(_, d)| {
            d.at == Whereabouts::Clearing {
                clearing: six.clone(),
            }
        })
        .map(|(id, _)| id)
        .collect();
    assert!(
        !came.is_empty() && came.iter().all(|id| id.contains("Troll")),
        "{came:?}"
    );
    assert!(events.iter().any(|e| matches!(&e.happening,
        Happening::Arrival(ArrivalEvent::ChitsRevealed { chits, .. }) if chits == &["Roar 6"])));
}

#[test]
fn the_seventh_day_sends_the_rolled_row_home() {
    let mut state = game(&["Black Knight"]);
    state.day = 6;
    let somewhere = state.characters[0].position.clone();
    state.denizens.get_mut("Wolf A 1").expect("wolf").at = Whereabouts::Clearing {
        clearing: somewhere,
    };
    let (_, events) = play(
        state,
        &[("P1", "R")],
        script(&[("birdsong/monster-roll", &[3])]),
    );
    let returned = events
        .iter()
        .find_map(|e| match &e.happening {
            Happening::Birdsong(super::events::BirdsongEvent::Regenerated { returned, .. }) => {
                Some(returned.clone())
            }
            _ => None,
        })
        .expect("regeneration on day 7");
    assert!(returned.contains(&"Wolf A 1".to_string()), "{returned:?}");
    assert!(
        returned.contains(&"Soldier HQ".to_string()),
        "garrisons go home"
    );
    assert!(!returned.iter().any(|r| r.starts_with("Giant")));
}

#[test]
fn orders_for_an_unknown_player_and_a_finished_game_are_refused() {
    let state = game(&["Black Knight"]);
    let all: BTreeMap<String, DayOrders> = [("Zed".to_string(), orders("H"))].into();
    let err = resolve_day(
        data(),
        &Rules::default(),
        state.clone(),
        &all,
        &mut Dice::new(1, 1),
    )
    .unwrap_err();
    assert!(err.to_string().contains("Zed"));
    let mut done = state;
    done.day = 28;
    let err = resolve_day(
        data(),
        &Rules::default(),
        done,
        &BTreeMap::new(),
        &mut Dice::new(1, 29),
    )
    .unwrap_err();
    assert!(err.to_string().contains("ended"));
}

#[test]
fn moving_without_a_strong_enough_move_chit_leaves_heavy_items_behind() {
    let mut state = game(&["Black Knight"]);
    let (here, next) = border(&state, ClearingKind::Woods);
    place(&mut state, 0, &here);
    for chit in &mut state.characters[0].chits {
        if chit.chit.starts_with("MOVE") {
            chit.condition = ChitCondition::Wounded;
        }
    }
    let armour = state.characters[0].armor.clone();
    assert!(!armour.is_empty());
    let (after, events) = play(state, &[("P1", &move_to(&next))], DiceScript::default());
    match &results(&events, "Black Knight")[0] {
        PhaseResult::Moved { left_behind, .. } => {
            for a in &armour {
                assert!(left_behind.contains(a), "{left_behind:?}");
            }
        }
        other => panic!("{other:?}"),
    }
    assert!(after.characters[0].armor.is_empty());
    let pile = super::movement::abandoned_pile(&here);
    assert_eq!(
        after.holdings[&pile].len(),
        armour.len() + 1,
        "armour and weapon"
    );
}

#[test]
fn a_follower_not_in_his_guides_clearing_takes_his_own_turn() {
    let mut state = game(&["Black Knight", "Amazon"]);
    let (here, next) = border(&state, ClearingKind::Woods);
    place(&mut state, 0, &here);
    place(&mut state, 1, &next);
    let (_, events) = play(
        state,
        &[("P1", "F Amazon"), ("P2", "R")],
        DiceScript::default(),
    );
    assert!(events.iter().any(|e| matches!(&e.happening,
        Happening::Birdsong(super::events::BirdsongEvent::CannotFollow { reason, .. })
            if reason.contains("is in another clearing"))));
    let knight = results(&events, "Black Knight");
    assert!(lost_reason(&knight[0]).contains("whole day"), "{knight:?}");
}

#[test]
fn combat_is_announced_where_it_would_start_and_day_28_scores() {
    let mut state = game(&["Black Knight", "Amazon"]);
    let here = state.characters[0].position.clone();
    place(&mut state, 1, &here);
    state.day = 27;
    state.characters[0].gold = 61;
    state.characters[0].fame = 25;
    // He alerts his weapon: a combat in which something happens is told.
    let (after, events) = play(
        state,
        &[("P1", "R\nCombat: alert, target nobody"), ("P2", "R")],
        DiceScript::default(),
    );
    assert_eq!(after.day, 28);
    let combat = events
        .iter()
        .find(|e| matches!(e.happening, Happening::Combat(_)))
        .expect("a combat notice");
    assert_eq!(
        combat.observers,
        realmgm_core::game::Observers::Players(["P1".to_string(), "P2".to_string()].into())
    );
    let scores = events
        .iter()
        .find_map(|e| match &e.happening {
            Happening::Midnight(super::events::MidnightEvent::VictoryPoints { scores, .. }) => {
                Some(scores.clone())
            }
            _ => None,
        })
        .expect("victory points on day 28");
    // Gold 61 less his starting worth, 40 (3.1 9.3.2e): 21 → 0; fame 25 → 2.
    assert_eq!(
        (scores[0].gold, scores[0].fame, scores[0].total),
        (21, 25, 2)
    );
}

#[test]
fn stored_orders_read_back_the_same() {
    let text = "M CV4, R-MOVE M4*, S*\nSearch: locate\nBuy: Shield up to 10\nBlock: Amazon, Elf\nIf impossible: rest";
    let parsed = orders(text);
    let json = serde_json::to_value(&parsed).unwrap();
    let back: DayOrders = serde_json::from_value(json).unwrap();
    assert_eq!(back, parsed);
}

fn turn_order(events: &[DayEvent]) -> Vec<String> {
    events
        .iter()
        .find_map(|e| match &e.happening {
            Happening::Birdsong(super::events::BirdsongEvent::TurnOrder { order }) => {
                Some(order.clone())
            }
            _ => None,
        })
        .expect("Birdsong draws the turn order")
}

#[test]
fn the_swordsman_takes_his_turn_where_his_turn_line_says() {
    let characters = ["Amazon", "Swordsman", "Black Knight", "Dwarf"];
    for (choice, place) in [("first", 0), ("last", 3), ("2", 1), ("9", 3)] {
        let text = format!("H\nTurn: {choice}");
        let given = [("P1", "H"), ("P2", text.as_str()), ("P3", "H"), ("P4", "H")];
        let (_, events) = play(game(&characters), &given, DiceScript::default());
        let order = turn_order(&events);
        assert_eq!(order.len(), 4);
        assert_eq!(order[place], "Swordsman", "Turn: {choice} gave {order:?}");
        assert!(events.iter().any(|e| matches!(&e.happening,
            Happening::Birdsong(super::events::BirdsongEvent::TurnChosen { character, .. })
                if character == "Swordsman")));
    }
}

#[test]
fn only_the_swordsman_may_choose_his_turn() {
    let (_, events) = play(
        game(&["Amazon", "Swordsman"]),
        &[("P1", "H\nTurn: first"), ("P2", "H")],
        DiceScript::default(),
    );
    let note = events
        .iter()
        .find_map(|e| match &e.happening {
            Happening::Birdsong(super::events::BirdsongEvent::NotApplied { what })
                if what.contains("'Turn:'") =>
            {
                Some((e.observers.clone(), what.clone()))
            }
            _ => None,
        })
        .expect("the Amazon is told her Turn line is not applied");
    assert!(note.1.contains("Amazon's 'Turn:' line"), "{}", note.1);
    assert_eq!(
        note.0,
        realmgm_core::game::Observers::Players(["P1".to_string()].into())
    );
    assert!(!events.iter().any(|e| matches!(
        &e.happening,
        Happening::Birdsong(super::events::BirdsongEvent::TurnChosen { .. })
    )));
    assert_eq!(turn_order(&events).len(), 2);
}

/// The Amazon (P1) with the Black Knight (P2) in a clearing with purple
/// magic on an enchanted tile, and a tile next to it.
fn ready_to_fly(carpet: bool) -> (MrState, ClearingId, String) {
    use crate::data::terms::Colour;
    use crate::data::tiles::{Edge, Side};
    use crate::state::{Belonging, Item, ItemKind};
    let mut state = game(&["Amazon", "Black Knight"]);
    let codes: Vec<String> = state.board.placements().map(|p| p.tile.clone()).collect();
    let (start, next) = codes
        .iter()
        .find_map(|code| {
            let tile = data().tiles.by_code(code)?;
            let clearing = tile.enchanted.clearings.iter().find(|c| {
                c.magic.contains(&Colour::Purple)
                    && c.kind != ClearingKind::Cave
                    && !tile
                        .normal
                        .clearings
                        .iter()
                        .any(|n| n.number == c.number && n.magic.contains(&Colour::Purple))
            })?;
            let at = state.board.placement_of(code)?.at;
            let next = Edge::ALL
                .iter()
                .find_map(|&e| state.board.placement_at(at.neighbour(e)))?;
            Some((ClearingId::new(code, clearing.number), next.tile.clone()))
        })
        .expect("an enchanted purple clearing beside another tile");
    state
        .board
        .set_side(&start.tile, Side::Enchanted)
        .expect("side");
    place(&mut state, 0, &start);
    place(&mut state, 1, &start);
    if carpet {
        state.characters[0].belongings.push(Belonging {
            item: Item {
                kind: ItemKind::Treasure,
                name: "Flying Carpet".into(),
            },
            active: true,
        });
    }
    (state, start, next)
}

#[test]
fn the_flying_carpet_flies_to_the_next_tile_and_lands_by_the_die() {
    let (state, start, next) = ready_to_fly(true);
    let numbers: Vec<u8> = state
        .board
        .clearings()
        .into_iter()
        .filter(|c| c.tile == next)
        .map(|c| c.clearing)
        .collect();
    let fly = format!("Fly-{next}, Fly-{next}, H");
    for die in 1..=6u8 {
        let (after, events) = play(
            state.clone(),
            &[("P1", fly.as_str()), ("P2", "F Amazon")],
            script(&[("daylight/land/Amazon", &[die])]),
        );
        let want = numbers
            .iter()
            .copied()
            .filter(|&n| n <= die)
            .max()
            .unwrap_or_else(|| *numbers.iter().min().expect("clearings"));
        assert_eq!(
            after.characters[0].position,
            ClearingId::new(&next, want),
            "die {die}"
        );
        assert_eq!(
            after.characters[1].position, start,
            "the follower is left behind"
        );
        let amazon = results(&events, "Amazon");
        assert!(
            matches!(&amazon[0], PhaseResult::Flew { over, followers_left, .. }
                if over == &next && followers_left == &["Black Knight".to_string()]),
            "{amazon:?}"
        );
        assert!(
            matches!(&amazon[1], PhaseResult::Flew { followers_left, .. } if followers_left.is_empty())
        );
        let in_cave = after
            .board
            .clearing(&after.characters[0].position)
            .map(|c| c.kind)
            == Some(ClearingKind::Cave);
        match &amazon[2] {
            PhaseResult::Hid { .. } => assert!(!in_cave),
            PhaseResult::Lost { reason } => {
                assert!(in_cave && reason.contains("caves"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        let landings = events
            .iter()
            .filter(|e| matches!(&e.happening, Happening::Phase(PhaseEvent::Landed { die: d, .. }) if *d == die))
            .count();
        assert_eq!(landings, 1, "one landing at the end of the flying");
    }
}

#[test]
fn flying_needs_an_active_flying_item_and_its_magic() {
    let (state, start, next) = ready_to_fly(false);
    let fly = format!("Fly-{next}");
    let (after, events) = play(state, &[("P1", fly.as_str())], DiceScript::default());
    let reason = lost_reason(&results(&events, "Amazon")[0]).to_string();
    assert!(reason.contains("no active item that flies"), "{reason}");
    assert!(reason.contains("no Broomstick spell"), "{reason}");
    assert_eq!(after.characters[0].position, start);

    let (mut state, _, next) = ready_to_fly(true);
    let tile = state.characters[0].position.tile.clone();
    state
        .board
        .set_side(&tile, crate::data::tiles::Side::Normal)
        .expect("side");
    let fly = format!("Fly-{next}");
    let (_, events) = play(state, &[("P1", fly.as_str())], DiceScript::default());
    let reason = lost_reason(&results(&events, "Amazon")[0]).to_string();
    assert!(reason.contains("purple magic"), "{reason}");
}
