//! The end of a turn in the rulebook's order (3.1 7.13.2-7.13.4): prowling
//! monsters first, then the chits turn up and summon, once a day each;
//! natives on the map stay put; campfires by road to the Borderland.

use realmgm_core::game::Rules;

use super::Day;
use super::events::{ArrivalEvent, DayEvent, Happening};
use super::summoning::end_of_turn;
use super::tests::{game, place};
use crate::board::ClearingId;
use crate::board::layout::FIRST_TILE;
use crate::data::tiles::PathKind;
use crate::state::{DenizenKind, MapChit, MrState, Whereabouts};
use crate::test_support::{data, run_on_day};

/// Two clearings of the tile holding `chit`, with the chit alone there face
/// down; the first character stands in the first clearing.
fn tile_with_only(state: &mut MrState, chit: &str) -> (ClearingId, ClearingId) {
    let tile = state
        .tile_of_chit(chit)
        .expect("the chit is dealt")
        .to_string();
    state.map_chits.insert(
        tile.clone(),
        vec![MapChit {
            name: chit.into(),
            face_up: false,
        }],
    );
    let mut clearings = state
        .board
        .clearings()
        .into_iter()
        .filter(|c| c.tile == tile);
    let here = clearings.next().expect("a clearing");
    let there = clearings.next().expect("a second clearing");
    place(state, 0, &here);
    (here, there)
}

/// End the turns of `who`, one after another, on a day whose prowling row
/// is `row`.
fn end_turns(state: &mut MrState, row: u8, who: &[usize]) -> Vec<DayEvent> {
    run_on_day(state, &Rules::default(), &[], |day: &mut Day<'_>| {
        day.today.prowling_row = row;
        for &i in who {
            end_of_turn(day, i, &[]);
        }
    })
    .1
}

fn summoned(events: &[DayEvent], by: &str) -> Vec<String> {
    let cause = format!("summoned by {by}");
    events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Arrival(ArrivalEvent::Arrived {
                counters, cause: c, ..
            }) if *c == cause => Some(counters.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// 3.1 7.13.2a-b: the prowling monsters already in the tile come before
/// its chits turn face up.
#[test]
fn prowlers_come_before_the_chits_turn_up_7_13_2() {
    let mut state = game(&["Black Knight"]);
    let (_, there) = tile_with_only(&mut state, "Ruins W");
    state.denizens.get_mut("Wolf A 1").expect("wolf").at =
        Whereabouts::Clearing { clearing: there };
    let events = end_turns(&mut state, 3, &[0]);
    let at = |wanted: fn(&Happening) -> bool| {
        events
            .iter()
            .position(|e| wanted(&e.happening))
            .expect("the event happens")
    };
    let prowled = at(
        |h| matches!(h, Happening::Arrival(ArrivalEvent::Arrived { cause, .. }) if cause == "prowling"),
    );
    let revealed = at(|h| matches!(h, Happening::Arrival(ArrivalEvent::ChitsRevealed { .. })));
    assert!(prowled < revealed, "{events:?}");
}

/// 3.1 7.13.2d, 7.13.3b.2: chits already face up from an earlier
/// individual's turn summon nothing more that day, even if they summoned
/// nothing then (the Druid's Peace with Nature kept them quiet).
#[test]
fn chits_face_up_from_an_earlier_turn_summon_nothing_7_13_3b() {
    let mut state = game(&["Druid", "Black Knight"]);
    let (here, _) = tile_with_only(&mut state, "Ruins W");
    place(&mut state, 1, &here);
    let events = end_turns(&mut state, 3, &[0, 1]);
    assert_eq!(summoned(&events, "Ruins W"), Vec::<String>::new());
    // The next day the chit summons again for the first to end a turn.
    let events = end_turns(&mut state, 3, &[1]);
    assert!(!summoned(&events, "Ruins W").is_empty());
}

/// 3.1 7.13.2a: natives on the map stay where they are; only monsters
/// prowl to the clearing of the one ending his turn.
#[test]
fn prowling_natives_on_the_map_stay_put_7_13_2a() {
    let mut state = game(&["Black Knight"]);
    let (here, there) = tile_with_only(&mut state, "Ruins W");
    let group = data()
        .natives
        .iter()
        .find(|g| g.garrison.is_none())
        .expect("a roving group");
    let member = &group.members[0].name;
    let native = state.denizens.get_mut(member).expect("the member");
    assert_eq!(native.kind, DenizenKind::Native);
    native.at = Whereabouts::Clearing {
        clearing: there.clone(),
    };
    end_turns(&mut state, group.row, &[0]);
    assert_eq!(
        state.denizens[member].at,
        Whereabouts::Clearing { clearing: there }
    );
    assert_eq!(state.characters[0].position, here);
}

/// 3.1 7.13.2c: a campfire goes to clearing 5, else 4, else 2, the first
/// that connects to the Borderland by road.
#[test]
fn a_campfire_goes_to_the_first_clearing_on_a_road_to_the_borderland_7_13_2c() {
    let state = game(&["Black Knight"]);
    let open = |kind| matches!(kind, PathKind::Normal | PathKind::Cave);
    let board = &state.board;
    // A woods tile (where Smoke W lies) whose clearing 5 has no open road
    // to the Borderland: none on the seeded board, so cut one by moving
    // the chit to each woods tile and checking where the fire goes.
    let woods: Vec<String> = board
        .placements()
        .map(|p| p.tile.clone())
        .filter(|t| data().tiles.by_code(t).map(|d| d.group.letter()) == Some("W"))
        .collect();
    assert!(!woods.is_empty());
    for tile in woods {
        let five = ClearingId::new(&tile, 5);
        let want = [5, 4, 2]
            .into_iter()
            .map(|n| ClearingId::new(&tile, n))
            .filter(|c| board.clearing(c).is_some())
            .find(|c| board.reaches_tile(c, FIRST_TILE, open))
            .unwrap_or_else(|| ClearingId::new(&tile, 2));
        let mut s = state.clone();
        for chits in s.map_chits.values_mut() {
            chits.retain(|c| c.name != "Smoke W");
        }
        s.map_chits.insert(
            tile.clone(),
            vec![MapChit {
                name: "Smoke W".into(),
                face_up: false,
            }],
        );
        s.dwellings.clear();
        place(&mut s, 0, &five);
        end_turns(&mut s, 1, &[0]);
        let fire = s.dwellings.values().next().expect("a campfire").clone();
        assert_eq!(fire, want, "{tile}");
    }
}
