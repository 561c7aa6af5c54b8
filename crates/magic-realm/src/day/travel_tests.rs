//! Tests of travel: bonus moves from horses, horses in caves, and what the
//! Flying Carpet carries.

use super::events::{Happening, PhaseEvent, PhaseResult};
use crate::board::ClearingId;
use crate::data::tiles::{ClearingKind, PathKind};
use crate::state::{ItemKind, MrState, abandoned_pile};
use crate::test_support::{
    data, give, item, move_to, play_day as play, quiet_game as game, results,
};

/// Three clearings a → b → c joined by normal paths, none a cave or a
/// mountain.
pub(super) fn open_walk(state: &MrState) -> (ClearingId, ClearingId, ClearingId) {
    let board = &state.board;
    let open = |c: &ClearingId| {
        board
            .clearing(c)
            .is_some_and(|k| k.kind != ClearingKind::Cave && k.kind != ClearingKind::Mountain)
    };
    let step = |from: &ClearingId, not: &ClearingId| {
        board
            .neighbours(from)
            .into_iter()
            .find(|l| l.kind == PathKind::Normal && open(&l.to) && &l.to != not)
            .map(|l| l.to)
    };
    board
        .clearings()
        .into_iter()
        .filter(|c| open(c))
        .find_map(|a| {
            let b = step(&a, &a)?;
            let c = step(&b, &a)?;
            Some((a, b, c))
        })
        .expect("an open walk of two steps")
}

#[test]
fn a_pony_doubles_each_move_and_leaves_followers_without_one() {
    let mut state = game(&["Black Knight", "Amazon"]);
    let (a, b, c) = open_walk(&state);
    state.characters[0].position = a.clone();
    state.characters[1].position = a.clone();
    give(&mut state, 0, ItemKind::Horse, "Pony 7", true);
    let line = format!("{}, *{}", move_to(&b), move_to(&c));
    let (after, events) = play(
        state.clone(),
        &[("P1", &line), ("P2", "F Black Knight")],
        &[],
    );
    assert_eq!(after.characters[0].position, c);
    assert_eq!(
        after.characters[1].position, b,
        "left behind at the pony's move"
    );
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Phase(PhaseEvent::FollowersLeft { followers, .. })
            if followers == &["Amazon".to_string()]
    )));

    // A follower on a pony keeps up.
    let mut both = state.clone();
    give(&mut both, 1, ItemKind::Horse, "Pony 6", true);
    let (after, _) = play(both, &[("P1", &line), ("P2", "F Black Knight")], &[]);
    assert_eq!(after.characters[1].position, c);

    // The pony's bonus follows a move only, and an inactive pony gives none.
    let hide_first = format!("H, *{}", move_to(&b));
    let (_, events) = play(state.clone(), &[("P1", &hide_first)], &[("hide", &[6])]);
    assert!(matches!(
        &results(&events, "Black Knight")[1],
        PhaseResult::Lost { .. }
    ));
    let mut idle = state;
    idle.characters[0].belongings[0].active = false;
    let (after, _) = play(idle, &[("P1", &line)], &[]);
    assert_eq!(after.characters[0].position, b);
}

#[test]
fn a_workhorse_gives_one_bonus_move_a_day() {
    let mut state = game(&["Black Knight"]);
    let (a, b, c) = open_walk(&state);
    state.characters[0].position = a.clone();
    let horse = data()
        .horses
        .iter()
        .find(|h| h.kind == crate::data::horses::HorseKind::Horse)
        .expect("a workhorse");
    give(&mut state, 0, ItemKind::Horse, &horse.name, true);
    let line = format!("H, *{}, *{}", move_to(&b), move_to(&c));
    let (after, events) = play(state, &[("P1", &line)], &[("hide", &[6])]);
    assert_eq!(after.characters[0].position, b);
    let phases = results(&events, "Black Knight");
    assert!(
        matches!(&phases[1], PhaseResult::Moved { .. }),
        "{phases:?}"
    );
    assert!(matches!(&phases[2], PhaseResult::Lost { .. }), "{phases:?}");
}

#[test]
fn horses_give_nothing_in_a_cave() {
    let mut state = game(&["Black Knight"]);
    let cave = state
        .board
        .clearings()
        .into_iter()
        .find(|c| {
            state
                .board
                .clearing(c)
                .is_some_and(|k| k.kind == ClearingKind::Cave)
                && !state.board.neighbours(c).is_empty()
        })
        .expect("a cave clearing");
    let next = state.board.neighbours(&cave)[0].to.clone();
    state.characters[0].position = cave;
    let pony = "Pony 7";
    give(&mut state, 0, ItemKind::Horse, pony, true);
    let line = format!("H, *{}", move_to(&next));
    let (_, events) = play(state, &[("P1", &line)], &[("hide", &[6])]);
    let phases = results(&events, "Black Knight");
    assert!(matches!(&phases[1], PhaseResult::Lost { .. }), "{phases:?}");
}

#[test]
fn entering_a_cave_makes_horses_inactive() {
    let mut state = game(&["Black Knight", "Amazon"]);
    let board = &state.board;
    let (outside, cave) = board
        .clearings()
        .into_iter()
        .filter(|c| {
            board
                .clearing(c)
                .is_some_and(|k| k.kind == ClearingKind::Cave)
        })
        .find_map(|cave| {
            board
                .neighbours(&cave)
                .into_iter()
                .find(|l| {
                    matches!(l.kind, PathKind::Normal | PathKind::Cave)
                        && board.clearing(&l.to).is_some_and(|k| {
                            k.kind != ClearingKind::Cave && k.kind != ClearingKind::Mountain
                        })
                })
                .map(|l| (l.to, cave.clone()))
        })
        .expect("a way into a cave");
    state.characters[0].position = outside.clone();
    state.characters[1].position = outside;
    give(&mut state, 0, ItemKind::Horse, "Pony 7", true);
    give(&mut state, 1, ItemKind::Horse, "Pony 6", true);
    let line = move_to(&cave);
    let (after, events) = play(state, &[("P1", &line), ("P2", "F Black Knight")], &[]);
    assert_eq!(after.characters[0].position, cave);
    assert!(!after.characters[0].belongings[0].active);
    assert!(
        !after.characters[1].belongings[0].active,
        "the follower's too"
    );
    let told = events
        .iter()
        .filter(|e| {
            matches!(
                &e.happening,
                Happening::Phase(PhaseEvent::HorsesInactive { .. })
            )
        })
        .count();
    assert_eq!(told, 2);
}

#[test]
fn the_carpet_leaves_heavy_items_and_cannot_lift_a_heavy_flyer() {
    let mut state = game(&["Amazon", "Berserker"]);
    let here = state.characters[0].position.clone();
    // Give the Amazon purple magic where she stands and a Great Axe (H).
    let purple = crate::data::terms::Colour::Purple;
    let source = data()
        .treasures
        .iter()
        .find(|t| {
            t.effects
                .contains(&crate::data::treasures::TreasureEffect::ColourSource { colour: purple })
        })
        .expect("a purple source")
        .name
        .clone();
    for who in [0, 1] {
        state.characters[who].position = here.clone();
        give(&mut state, who, ItemKind::Treasure, "Flying Carpet", true);
        give(&mut state, who, ItemKind::Treasure, &source, true);
    }
    give(&mut state, 0, ItemKind::Weapon, "Great Axe", false);
    let line = format!("FL {}", here.tile);
    let (after, events) = play(state, &[("P1", &line), ("P2", &line)], &[]);
    let amazon = results(&events, "Amazon");
    assert!(
        matches!(&amazon[0], PhaseResult::Flew { left_behind, .. } if left_behind == &["Great Axe".to_string()]),
        "{amazon:?}"
    );
    assert!(after.holdings[&abandoned_pile(&here)].contains(&item(ItemKind::Weapon, "Great Axe")));
    let berserker = results(&events, "Berserker");
    assert!(
        matches!(&berserker[0], PhaseResult::Lost { reason } if reason.contains("weighs H")),
        "{berserker:?}"
    );
}

/// 3.1 rule 8.3.8d.1: a runaway on the roadway between a and b must start
/// his turn with a Move to one of its ends. A Hide first is lost with the
/// reason; the Move back into the clearing he ran out of takes him off the
/// roadway, and he carries what he ran with (no MOVE chit is needed for
/// it).
#[test]
fn a_runaway_on_the_roadway_must_first_move_to_one_of_its_ends_3_1_8_3_8d() {
    let mut state = game(&["Amazon"]);
    let (a, b, _) = open_walk(&state);
    state.characters[0].position = a.clone();
    state.characters[0].roadway = Some(crate::state::Roadway {
        from: a.clone(),
        to: b.clone(),
        vanished: false,
        edge_entries: Vec::new(),
    });
    let line = format!("H, {}", move_to(&a));
    let (after, events) = play(state.clone(), &[("P1", &line)], &[("hide", &[6])]);
    let results = results(&events, "Amazon");
    assert!(
        matches!(&results[0], PhaseResult::Lost { reason } if reason.contains("must start with a Move")),
        "{results:?}"
    );
    assert!(matches!(&results[1], PhaseResult::Moved { to, .. } if *to == a));
    assert_eq!(after.characters[0].roadway, None);
    assert_eq!(after.characters[0].position, a);
    // A Move to the far end takes him off the roadway as well.
    let (after, _) = play(state, &[("P1", &move_to(&b))], &[]);
    assert_eq!(after.characters[0].position, b);
    assert_eq!(after.characters[0].roadway, None);
}

/// 3.1 rule 8.3.8d.2: one who ran out of a cave toward a clearing that is
/// not a cave may record Sunlight phases on his next turn.
#[test]
fn a_runaway_out_of_a_cave_has_sunlight_phases_3_1_8_3_8d_2() {
    let mut state = game(&["Amazon"]);
    let (cave, outside) = state
        .board
        .clearings()
        .into_iter()
        .filter(|c| state.board.clearing(c).map(|k| k.kind) == Some(ClearingKind::Cave))
        .find_map(|c| {
            let out = state.board.neighbours(&c).into_iter().find(|l| {
                state.board.clearing(&l.to).map(|k| k.kind) != Some(ClearingKind::Cave)
            })?;
            Some((c, out.to))
        })
        .expect("a cave with a way out");
    state.characters[0].position = cave.clone();
    let rules = realmgm_core::game::Rules::default();
    let in_cave = super::daylight::normal_phases(data(), &rules, &state, &state.characters[0]);
    state.characters[0].roadway = Some(crate::state::Roadway {
        from: cave,
        to: outside,
        vanished: false,
        edge_entries: Vec::new(),
    });
    let out = super::daylight::normal_phases(data(), &rules, &state, &state.characters[0]);
    assert!(
        out > in_cave,
        "{out} phases on the roadway, {in_cave} in the cave"
    );
}

/// 3.1 rule 8.3.8d.3: a tile turned over while a runaway stands on one of
/// its roadways, and that roadway gone (or now a path he has not found):
/// he is in the forest, and his turn must start with a Move back to the
/// clearing he ran out of. A roadway still there leaves him where he is.
#[test]
fn a_roadway_vanishing_under_a_runaway_puts_him_in_the_forest_3_1_8_3_8d_3() {
    use crate::data::tiles::Side;
    let mut state = game(&["Amazon"]);
    let plain = |state: &MrState, c: &ClearingId| {
        state
            .board
            .clearing(c)
            .is_some_and(|k| k.kind != ClearingKind::Cave && k.kind != ClearingKind::Mountain)
    };
    let (a, b) = state
        .board
        .clearings()
        .into_iter()
        .filter(|a| plain(&state, a))
        .find_map(|a| {
            let b = state.board.neighbours(&a).into_iter().find(|l| {
                l.kind == PathKind::Normal && l.to.tile == a.tile && plain(&state, &l.to)
            })?;
            let mut turned = state.clone();
            turned.board.set_side(&a.tile, Side::Enchanted).ok()?;
            let kept = turned
                .board
                .neighbours(&a)
                .into_iter()
                .any(|l| l.to == b.to && l.kind == PathKind::Normal);
            (!kept).then_some((a, b.to))
        })
        .expect("a road that the enchanted side of its tile takes away");
    state.characters[0].position = a.clone();
    state.characters[0].roadway = Some(crate::state::Roadway {
        from: a.clone(),
        to: b.clone(),
        vanished: false,
        edge_entries: Vec::new(),
    });
    let rules = realmgm_core::game::Rules::default();
    assert!(super::movement::roadways_vanish(data(), &rules, &mut state).is_empty());
    state
        .board
        .set_side(&a.tile, Side::Enchanted)
        .expect("on the map");
    let gone = super::movement::roadways_vanish(data(), &rules, &mut state);
    assert_eq!(gone.len(), 1, "{gone:?}");
    assert_eq!(gone[0].1.rule(), "8.3.8d.3");
    assert!(
        state.characters[0]
            .roadway
            .as_ref()
            .is_some_and(|r| r.vanished)
    );
    let line = format!("{}, {}", move_to(&b), move_to(&a));
    let (after, events) = play(state, &[("P1", &line)], &[]);
    let results = results(&events, "Amazon");
    assert!(
        matches!(&results[0], PhaseResult::Lost { reason }
            if reason.contains(&format!("must start with a Move to {a} ("))),
        "{results:?}"
    );
    assert!(matches!(&results[1], PhaseResult::Moved { to, .. } if *to == a));
    assert_eq!(after.characters[0].roadway, None);
}

/// 3.1 7.3.1e: an active horse or Boots card carries items in place of a
/// MOVE chit. The Amazon's MOVE chits are Medium: her Great Axe (Heavy) goes
/// with her when she rides Horse 1 (trot T) or wears the Power Boots (H),
/// and stays behind with the horse led inactive and the boots inactive.
#[test]
fn an_active_horse_or_boots_card_carries_what_move_chits_cannot_3_1_7_3_1e() {
    let walk = |kind: ItemKind, name: &str, active: bool| {
        let mut state = game(&["Amazon"]);
        let (a, b, _) = open_walk(&state);
        state.characters[0].position = a.clone();
        give(&mut state, 0, kind, name, active);
        give(&mut state, 0, ItemKind::Weapon, "Great Axe", false);
        let (after, _) = play(state, &[("P1", &move_to(&b))], &[]);
        assert_eq!(after.characters[0].position, b);
        after.characters[0]
            .belongings
            .iter()
            .any(|x| x.item.name == "Great Axe")
    };
    for (kind, name) in [
        (ItemKind::Horse, "Horse 1"),
        (ItemKind::Treasure, "Power Boots"),
    ] {
        assert!(walk(kind, name, true), "carried by the active {name}");
        assert!(!walk(kind, name, false), "left behind, the {name} inactive");
    }
}

/// 3.1 6.2.4c, 7.3.2b.3: a pony's Move follows a Move of his own, with other
/// phases between allowed; pony Moves alternate with his other Moves, so a
/// second pony Move straight after the first is lost.
#[test]
fn pony_moves_alternate_with_other_moves_and_may_come_later_3_1_7_3_2b_3() {
    let mut state = game(&["Black Knight"]);
    let (a, b, c) = open_walk(&state);
    state.characters[0].position = a.clone();
    give(&mut state, 0, ItemKind::Horse, "Pony 7", true);
    let later = format!("{}, H, *{}", move_to(&b), move_to(&c));
    let (after, events) = play(state.clone(), &[("P1", &later)], &[("hide", &[6])]);
    assert_eq!(
        after.characters[0].position,
        c,
        "{:?}",
        results(&events, "Black Knight")
    );

    let twice = format!("{}, *{}, *{}", move_to(&b), move_to(&c), move_to(&b));
    let (after, events) = play(state, &[("P1", &twice)], &[]);
    let phases = results(&events, "Black Knight");
    assert!(
        matches!(&phases[1], PhaseResult::Moved { .. }),
        "{phases:?}"
    );
    assert!(matches!(&phases[2], PhaseResult::Lost { .. }), "{phases:?}");
    assert_eq!(after.characters[0].position, c);
}

/// A cave clearing and a clearing of another kind reached from it by a
/// normal path or tunnel: (cave, outside).
fn cave_and_way_in(state: &MrState) -> (ClearingId, ClearingId) {
    let board = &state.board;
    board
        .clearings()
        .into_iter()
        .filter(|c| {
            board
                .clearing(c)
                .is_some_and(|k| k.kind == ClearingKind::Cave)
        })
        .find_map(|cave| {
            board
                .neighbours(&cave)
                .into_iter()
                .find(|l| {
                    matches!(l.kind, PathKind::Normal | PathKind::Cave)
                        && board.clearing(&l.to).is_some_and(|k| {
                            k.kind != ClearingKind::Cave && k.kind != ClearingKind::Mountain
                        })
                })
                .map(|l| (cave.clone(), l.to))
        })
        .expect("a way into a cave")
}

/// 3.1 6.2.2b, 7.3.1c.2: recording a Move into a cave clearing takes away
/// the day's sunlight phases from the start, so the Move recorded fourth
/// is lost and he never enters the cave after a sunlight phase.
#[test]
fn a_recorded_move_into_a_cave_leaves_only_the_basic_phases_3_1_6_2_2b() {
    let mut state = game(&["Amazon"]);
    let (cave, outside) = cave_and_way_in(&state);
    state.characters[0].position = outside.clone();
    let line = format!("H, H, H, {}", move_to(&cave));
    let (after, events) = play(state, &[("P1", &line)], &[("hide", &[6])]);
    let phases = results(&events, "Amazon");
    assert_eq!(after.characters[0].position, outside, "{phases:?}");
    assert!(matches!(&phases[2], PhaseResult::Lost { .. }), "{phases:?}");
    assert!(
        events.iter().any(|e| matches!(
            &e.happening,
            Happening::Phase(PhaseEvent::TurnStarts { phases: 2, .. })
        )),
        "{events:#?}"
    );
}

/// The Amazon with the Flying Carpet and purple magic where she stands.
fn flyer(state: &mut MrState) {
    let purple = crate::data::terms::Colour::Purple;
    let source = data()
        .treasures
        .iter()
        .find(|t| {
            t.effects
                .contains(&crate::data::treasures::TreasureEffect::ColourSource { colour: purple })
        })
        .expect("a purple source")
        .name
        .clone();
    give(state, 0, ItemKind::Treasure, "Flying Carpet", true);
    give(state, 0, ItemKind::Treasure, &source, true);
}

/// 3.1 7.3.3b.1: landing after a sunlight phase in a cave clearing cancels
/// the rest of the turn.
#[test]
fn landing_in_a_cave_after_sunlight_ends_the_turn_3_1_7_3_3b_1() {
    let mut state = game(&["Amazon"]);
    let board = &state.board;
    let (outside, cave) = board
        .clearings()
        .into_iter()
        .filter(|c| {
            board
                .clearing(c)
                .is_some_and(|k| k.kind == ClearingKind::Cave)
        })
        .find_map(|cave| {
            let outside = board.clearings().into_iter().find(|c| {
                c.tile == cave.tile
                    && board
                        .clearing(c)
                        .is_some_and(|k| k.kind != ClearingKind::Cave)
            })?;
            Some((outside, cave))
        })
        .expect("a tile with a cave and another clearing");
    state.characters[0].position = outside;
    flyer(&mut state);
    let line = format!("H, H, FL {}, H", cave.tile);
    let (after, events) = play(
        state,
        &[("P1", &line)],
        &[("hide", &[6]), ("daylight/land", &[cave.clearing])],
    );
    assert_eq!(after.characters[0].position, cave);
    assert!(
        events.iter().any(|e| matches!(
            &e.happening,
            Happening::Phase(PhaseEvent::PhasesLeft { count: 1, reason, .. })
                if reason.contains("7.3.3b.1")
        )),
        "{events:#?}"
    );
    assert_eq!(results(&events, "Amazon").len(), 3);
}

/// 3.1 7.3.3b.1: the landing die is rolled again until it names a
/// clearing of the tile.
#[test]
fn the_landing_die_is_rolled_again_until_it_names_a_clearing_3_1_7_3_3b_1() {
    let mut state = game(&["Amazon"]);
    let board = &state.board;
    // A clearing other than the one the nearest lower number would give.
    let (start, missing) = board
        .clearings()
        .into_iter()
        .find_map(|c| {
            let numbers: Vec<u8> = board
                .clearings()
                .into_iter()
                .filter(|o| o.tile == c.tile)
                .map(|o| o.clearing)
                .collect();
            let missing = (1..=6).find(|n| !numbers.contains(n))?;
            let nearest = numbers.iter().copied().filter(|&n| n <= missing).max();
            let lowest = numbers.iter().copied().min();
            (Some(c.clearing) != nearest.or(lowest)).then_some((c, missing))
        })
        .expect("a tile without one of the numbers 1 to 6");
    state.characters[0].position = start.clone();
    flyer(&mut state);
    let line = format!("FL {}", start.tile);
    let (after, _) = play(
        state,
        &[("P1", &line)],
        &[
            ("daylight/land", &[missing]),
            ("daylight/land", &[start.clearing]),
        ],
    );
    assert_eq!(after.characters[0].position, start);
}

/// 3.1 7.3.3a.3, 7.3.1i.3: taking off he becomes unhidden and leaves his
/// horses, and his pack horse's load, in the clearing he flies from.
#[test]
fn flying_unhides_and_leaves_the_horses_behind_3_1_7_3_3a_3() {
    let mut state = game(&["Amazon"]);
    let here = state.characters[0].position.clone();
    flyer(&mut state);
    give(&mut state, 0, ItemKind::Horse, "Pony 7", true);
    give(&mut state, 0, ItemKind::Horse, "Horse 1", false);
    state.characters[0]
        .pack
        .insert("Horse 1".into(), vec![item(ItemKind::Weapon, "Spear")]);
    let line = format!("H, FL {}", here.tile);
    let (after, events) = play(state, &[("P1", &line)], &[("hide", &[1])]);
    let amazon = &after.characters[0];
    assert!(!amazon.hidden, "{events:#?}");
    assert!(
        amazon
            .belongings
            .iter()
            .all(|b| b.item.kind != ItemKind::Horse)
    );
    assert!(amazon.pack.is_empty());
    let pile = &after.holdings[&abandoned_pile(&here)];
    for (kind, name) in [
        (ItemKind::Horse, "Pony 7"),
        (ItemKind::Horse, "Horse 1"),
        (ItemKind::Weapon, "Spear"),
    ] {
        assert!(pile.contains(&item(kind, name)), "{name}: {pile:?}");
    }
}

/// 3.1 6.2.2c.1, 7.3.2b: a horse gives its extra Move only if it was active
/// at Birdsong; activated at the start of his first phase it gives none.
#[test]
fn a_horse_activated_during_the_day_gives_no_extra_move_3_1_6_2_2c_1() {
    let mut state = game(&["Black Knight"]);
    let (a, b, c) = open_walk(&state);
    state.characters[0].position = a.clone();
    give(&mut state, 0, ItemKind::Horse, "Horse 1", false);
    let line = format!(
        "{}, *{}\nPhase 1: activate Horse 1",
        move_to(&b),
        move_to(&c)
    );
    let (after, events) = play(state.clone(), &[("P1", &line)], &[]);
    let phases = results(&events, "Black Knight");
    assert!(matches!(&phases[1], PhaseResult::Lost { .. }), "{phases:?}");
    assert_eq!(after.characters[0].position, b);
    state.characters[0].belongings[0].active = true;
    let (after, _) = play(state, &[("P1", &line)], &[]);
    assert_eq!(
        after.characters[0].position, c,
        "active at Birdsong, it gives the Move"
    );
}

/// 3.1 10.A.3 (Flying Activities): aloft, he Peers into a clearing of the
/// tile he flies over, and Alerts, without landing; without the rule he
/// lands first, and from a clearing that is not a mountain the Peer into
/// another clearing is lost.
#[test]
fn flying_activities_peer_and_alert_without_landing_3_1_10_a_3() {
    use crate::rules::TOGGLES;
    use crate::test_support::play_day_under;
    use realmgm_core::game::Rules;
    let mut state = game(&["Amazon"]);
    let board = &state.board;
    let kind = |c: &ClearingId| board.clearing(c).map(|k| k.kind);
    // A tile with a clearing to peer into (not a cave) and another, not a
    // mountain, to take off from and land in.
    let (target, ground) = board
        .clearings()
        .into_iter()
        .filter(|c| kind(c) != Some(ClearingKind::Cave))
        .find_map(|target| {
            let ground = board.clearings().into_iter().find(|c| {
                c.tile == target.tile
                    && c != &target
                    && !matches!(kind(c), Some(ClearingKind::Mountain | ClearingKind::Cave))
            })?;
            Some((target, ground))
        })
        .expect("a tile with two such clearings");
    state.characters[0].position = ground.clone();
    flyer(&mut state);
    let name = &data().tiles.by_code(&target.tile).expect("tile").name;
    let line = format!(
        "FL {}, S\nSearch: peer {name} {}",
        target.tile, target.clearing
    );
    let day = |on: &[&str]| {
        let rules = Rules::new(on.iter().copied(), TOGGLES).expect("known toggles");
        let (_, events) = play_day_under(
            &rules,
            state.clone(),
            &[("P1", &line)],
            &[("daylight/land", &[ground.clearing]), ("search", &[6])],
        );
        results(&events, "Amazon")
    };
    let on = day(&["flying_activities"]);
    assert!(matches!(&on[1], PhaseResult::Done { .. }), "{on:?}");
    let off = day(&[]);
    assert!(
        matches!(&off[1], PhaseResult::Lost { reason } if reason.contains("mountain")),
        "{off:?}"
    );

    // An Alert aloft: with the rule he lands after it, at the end of his
    // turn; without it, before it.
    let alert = format!("FL {}, A", target.tile);
    let lands_after_the_alert = |on: &[&str]| {
        let rules = Rules::new(on.iter().copied(), TOGGLES).expect("known toggles");
        let (_, events) = play_day_under(
            &rules,
            state.clone(),
            &[("P1", &alert)],
            &[("daylight/land", &[ground.clearing])],
        );
        let at = |wanted: fn(&PhaseEvent) -> bool| {
            events.iter().position(|e| match &e.happening {
                Happening::Phase(p) => wanted(p),
                _ => false,
            })
        };
        let landed = at(|p| matches!(p, PhaseEvent::Landed { .. })).expect("he lands");
        let alerted =
            at(|p| matches!(p, PhaseEvent::PhaseDone { number: 2, .. })).expect("the Alert phase");
        landed > alerted
    };
    assert!(lands_after_the_alert(&["flying_activities"]));
    assert!(!lands_after_the_alert(&[]));
}

/// 3.1 6.2.4d: a horse that gives an extra Move he recorded is kept until
/// that phase is done; abandoning it before is refused, and the Move is his.
#[test]
fn a_horse_his_recorded_extra_move_needs_cannot_be_abandoned_first_3_1_6_2_4d() {
    let mut state = game(&["Black Knight"]);
    let (a, b, c) = open_walk(&state);
    state.characters[0].position = a.clone();
    give(&mut state, 0, ItemKind::Horse, "Horse 1", true);
    let line = format!(
        "{}, *{}\nPhase 1: abandon Horse 1",
        move_to(&b),
        move_to(&c)
    );
    let (after, events) = play(state, &[("P1", &line)], &[]);
    assert_eq!(after.characters[0].position, c, "{events:#?}");
    assert!(
        after.characters[0]
            .belongings
            .iter()
            .any(|x| x.item.name == "Horse 1")
    );
}

/// 3.1 6.2.4d: nor can he give that horse away before the extra Move it
/// gives is done: a give at phase 1 fails with the reason, and the same
/// give with no extra Move recorded is done.
#[test]
fn a_horse_his_recorded_extra_move_needs_cannot_be_given_first_3_1_6_2_4d() {
    let mut state = game(&["Black Knight", "Amazon"]);
    let (a, b, c) = open_walk(&state);
    state.characters[0].position = a.clone();
    state.characters[1].position = a.clone();
    give(&mut state, 0, ItemKind::Horse, "Horse 1", true);
    let walk = format!("{}, *{}", move_to(&b), move_to(&c));
    let early = format!("{walk}\nGive: Horse 1 to Amazon at phase 1");
    let (after, events) = play(
        state.clone(),
        &[
            ("P1", &early),
            ("P2", "R\nReceive: Horse 1 from Black Knight at phase 1"),
        ],
        &[],
    );
    assert_eq!(after.characters[0].position, c, "{events:#?}");
    let kept = |s: &MrState, who: usize| {
        s.characters[who]
            .belongings
            .iter()
            .any(|x| x.item.name == "Horse 1")
    };
    assert!(kept(&after, 0));
    assert!(events.iter().any(|e| matches!(&e.happening,
        Happening::Dealing(super::dealings::DealEvent::Failed { reason, .. })
            if reason.contains("6.2.4d"))));
    // The same give on a day with no extra Move recorded is done.
    let plain = "R\nGive: Horse 1 to Amazon at phase 1";
    let (after, _) = play(
        state,
        &[
            ("P1", plain),
            ("P2", "R\nReceive: Horse 1 from Black Knight at phase 1"),
        ],
        &[],
    );
    assert!(kept(&after, 1), "no extra phase relies on it");
}
