//! Tests of the Search activity (play summary II.C.5): Peer, Locate, Loot,
//! sites and their access, Reading Runes and Magic Sight, on forced dice.

use super::PhaseOutcome;
use super::events::{DayEvent, Happening};
use super::search::{SearchEvent, search, search_taking};
use crate::board::ClearingId;
use crate::data::tiles::{ClearingKind, Edge, PathKind};
use crate::magic::events::MagicEvent;
use crate::orders::{SearchTable, Take};
use crate::state::{ItemKind, MrState, abandoned_pile};
use crate::test_support::{data, place_site, run_on_day as run, test_game as game};
use realmgm_core::game::{Observers, Rules};

fn searching(
    state: &mut MrState,
    faces: &[u8],
    table: SearchTable,
) -> (PhaseOutcome, Vec<DayEvent>) {
    run(state, &Rules::default(), &[("search", faces)], |day| {
        search(day, 0, &table)
    })
}

pub(super) fn peer() -> SearchTable {
    SearchTable::Peer {
        tile: None,
        clearing: None,
    }
}

/// A clearing with a route of `kind` leaving it, and the route.
fn clearing_with(state: &MrState, kind: PathKind) -> (ClearingId, (ClearingId, ClearingId)) {
    for c in state.board.clearings() {
        if let Some(link) = state
            .board
            .neighbours(&c)
            .into_iter()
            .find(|l| l.kind == kind)
        {
            let pair = if c <= link.to {
                (c.clone(), link.to)
            } else {
                (link.to, c.clone())
            };
            return (c, pair);
        }
    }
    panic!("no {kind:?} route on the board");
}

fn search_events(events: &[DayEvent]) -> Vec<&SearchEvent> {
    events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Search(s) => Some(s),
            _ => None,
        })
        .collect()
}

pub(super) fn only_p0(event: &DayEvent) -> bool {
    event.observers == Observers::Players(["p0".to_string()].into())
}

#[test]
fn peer_clues_show_every_map_chit_of_the_tile_to_him_alone() {
    let mut state = game(&["Amazon", "Dwarf"]);
    let tile = state.characters[0].position.tile.clone();
    let (outcome, events) = searching(&mut state, &[5], peer());
    assert_eq!(outcome, PhaseOutcome::Done);
    for chit in &state.map_chits[&tile] {
        assert!(
            state.characters[0]
                .discoveries
                .chits_seen
                .contains(&chit.name)
        );
    }
    assert!(events.iter().all(only_p0), "clues are secret");
    assert!(matches!(events[0].happening, Happening::Roll(_)));
}

#[test]
fn peer_paths_hidden_enemies_choice_and_nothing() {
    let mut state = game(&["Amazon"]);
    let (at, route) = clearing_with(&state, PathKind::Hidden);
    state.characters[0].position = at.clone();
    searching(&mut state, &[3], peer());
    let me = &state.characters[0];
    assert!(me.discoveries.routes.contains(&route));
    assert!(me.found_hidden_enemies);

    let mut state = game(&["Amazon"]);
    state.characters[0].position = at.clone();
    searching(&mut state, &[4], peer());
    assert!(state.characters[0].found_hidden_enemies);
    assert!(state.characters[0].discoveries.routes.is_empty());

    let mut state = game(&["Amazon"]);
    state.characters[0].position = at.clone();
    let (_, events) = searching(&mut state, &[1], peer());
    assert!(state.characters[0].discoveries.routes.contains(&route));
    assert!(
        search_events(&events)
            .iter()
            .any(|e| matches!(e, SearchEvent::Chose { .. }))
    );

    let mut state = game(&["Amazon"]);
    state.characters[0].position = at;
    let before = state.characters[0].clone();
    searching(&mut state, &[6], peer());
    assert_eq!(state.characters[0], before);
}

#[test]
fn peer_from_a_mountain_into_an_adjacent_tile_and_not_from_elsewhere() {
    let mut state = game(&["Amazon"]);
    let board = state.board.clone();
    let (from, target) = board
        .clearings()
        .into_iter()
        .filter(|c| board.clearing(c).map(|k| k.kind) == Some(ClearingKind::Mountain))
        .find_map(|c| {
            let at = board.placement_of(&c.tile)?.at;
            let target = Edge::ALL.iter().find_map(|&e| {
                let next = board.placement_at(at.neighbour(e))?;
                board.clearings().into_iter().find(|t| {
                    t.tile == next.tile
                        && board.clearing(t).map(|k| k.kind) != Some(ClearingKind::Cave)
                })
            })?;
            Some((c, target))
        })
        .expect("a mountain clearing with a neighbour tile");
    let table = SearchTable::Peer {
        tile: Some(
            data()
                .tiles
                .by_code(&target.tile)
                .map(|t| t.name.clone())
                .unwrap(),
        ),
        clearing: Some(target.clearing),
    };
    state.characters[0].position = from;
    let (outcome, _) = searching(&mut state, &[5], table.clone());
    assert_eq!(outcome, PhaseOutcome::Done);
    for chit in &state.map_chits[&target.tile] {
        assert!(
            state.characters[0]
                .discoveries
                .chits_seen
                .contains(&chit.name)
        );
    }
    let normal = board
        .clearings()
        .into_iter()
        .find(|c| {
            board.clearing(c).map(|k| k.kind) == Some(ClearingKind::Normal) && c.tile != target.tile
        })
        .unwrap();
    state.characters[0].position = normal;
    let (outcome, _) = searching(&mut state, &[5], table);
    assert!(matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("mountain")));
}

#[test]
fn locate_finds_passages_clues_and_site_chits() {
    let mut state = game(&["Amazon"]);
    let (at, route) = clearing_with(&state, PathKind::Secret);
    state.characters[0].position = at.clone();
    searching(&mut state, &[3], SearchTable::Locate);
    assert!(state.characters[0].discoveries.routes.contains(&route));
    assert!(state.characters[0].discoveries.chits_seen.is_empty());
    searching(&mut state, &[2], SearchTable::Locate);
    assert!(!state.characters[0].discoveries.chits_seen.is_empty());

    let site_at = place_site(&mut state, false, "Hoard");
    state.characters[0].position = site_at;
    searching(&mut state, &[5], SearchTable::Locate);
    assert!(state.characters[0].discoveries.sites.is_empty());
    searching(&mut state, &[4], SearchTable::Locate);
    assert!(state.characters[0].discoveries.sites.contains("Hoard"));
}

/// Amazon at a discovered Hoard whose pile holds only plain treasures.
pub(super) fn at_hoard(characters: &[&str]) -> (MrState, ClearingId) {
    let mut state = game(characters);
    let at = place_site(&mut state, false, "Hoard");
    let plain: Vec<String> = data()
        .treasures
        .iter()
        .filter(|t| t.within.is_none())
        .map(|t| t.name.clone())
        .collect();
    if let Some(pile) = state.holdings.get_mut("Hoard") {
        pile.retain(|i| plain.contains(&i.name));
    }
    state.characters[0].position = at.clone();
    state.characters[0].discoveries.sites.insert("Hoard".into());
    (state, at)
}

#[test]
fn loot_takes_the_nth_item_and_nothing_from_a_short_pile() {
    let (mut state, _) = at_hoard(&["Amazon"]);
    let pile = state.holdings["Hoard"].clone();
    assert!(pile.len() >= 2, "the Hoard keeps plain treasures");
    let (outcome, _) = searching(&mut state, &[2], SearchTable::Loot);
    assert_eq!(outcome, PhaseOutcome::Done);
    assert_eq!(state.characters[0].belongings[0].item, pile[1]);
    assert!(!state.characters[0].belongings[0].active);
    assert_eq!(state.holdings["Hoard"].len(), pile.len() - 1);

    state.holdings.get_mut("Hoard").unwrap().truncate(2);
    let (_, events) = searching(&mut state, &[6], SearchTable::Loot);
    assert_eq!(state.holdings["Hoard"].len(), 2);
    assert!(search_events(&events).iter().any(|e| matches!(
        e,
        SearchEvent::FoundNothing {
            from_top: 6,
            pile: 2,
            ..
        }
    )));
}

#[test]
fn loot_needs_a_discovered_site_or_an_abandoned_pile_and_honours_take() {
    let (mut state, at) = at_hoard(&["Amazon"]);
    state.characters[0].discoveries.sites.clear();
    let (outcome, _) = searching(&mut state, &[1], SearchTable::Loot);
    assert!(matches!(outcome, PhaseOutcome::Lost { .. }));

    let item = state.holdings.get_mut("Hoard").unwrap().remove(0);
    state
        .holdings
        .insert(abandoned_pile(&at), vec![item.clone()]);
    let takes = [Take {
        what: item.name.clone(),
        activate: true,
    }];
    let (outcome, _) = run(&mut state, &Rules::default(), &[("search", &[1])], |day| {
        search_taking(day, 0, &SearchTable::Loot, &takes)
    });
    assert_eq!(outcome, PhaseOutcome::Done);
    assert_eq!(state.characters[0].belongings[0].item, item);
    assert!(state.characters[0].belongings[0].active);
    assert!(state.holdings[&abandoned_pile(&at)].is_empty());
}

#[test]
fn those_who_see_the_looter_learn_the_site() {
    let (mut state, at) = at_hoard(&["Amazon", "Dwarf"]);
    state.characters[1].position = at.clone();
    searching(&mut state, &[1], SearchTable::Loot);
    assert!(state.characters[1].discoveries.sites.contains("Hoard"));

    let (mut state, at) = at_hoard(&["Amazon", "Dwarf"]);
    state.characters[1].position = at;
    state.characters[0].hidden = true;
    searching(&mut state, &[1], SearchTable::Loot);
    assert!(!state.characters[1].discoveries.sites.contains("Hoard"));
}

#[test]
fn site_access_vault_needs_keys_pool_fatigues_a_chit() {
    let mut state = game(&["Amazon"]);
    let at = place_site(&mut state, false, "Vault");
    state.characters[0].position = at;
    state.characters[0].discoveries.sites.insert("Vault".into());
    let (outcome, _) = searching(&mut state, &[1], SearchTable::Loot);
    assert!(matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("Lost Keys")));

    let mut state = game(&["Amazon"]);
    let at = place_site(&mut state, false, "Pool");
    state.characters[0].position = at;
    state.characters[0].discoveries.sites.insert("Pool".into());
    let (outcome, _) = searching(&mut state, &[1], SearchTable::Loot);
    assert_eq!(outcome, PhaseOutcome::Done);
    let fatigued = state.characters[0]
        .chits
        .iter()
        .filter(|c| c.condition == crate::state::ChitCondition::Fatigued)
        .count();
    assert_eq!(fatigued, 1);
}

#[test]
fn mouldy_skeleton_puts_its_armour_on_the_pile_and_reports_the_curse() {
    let (mut state, _) = at_hoard(&["Amazon"]);
    let skeleton = crate::state::Item {
        kind: ItemKind::Treasure,
        name: "Mouldy Skeleton".into(),
    };
    for pile in state.holdings.values_mut() {
        pile.retain(|i| *i != skeleton);
    }
    state.holdings.get_mut("Hoard").unwrap().insert(0, skeleton);
    let (_, events) = searching(&mut state, &[1], SearchTable::Loot);
    let mut top: Vec<&str> = state.holdings["Hoard"][..3]
        .iter()
        .map(|i| i.name.as_str())
        .collect();
    top.sort_unstable();
    assert_eq!(top, ["Gold Helmet", "Jade Shield", "Silver Breastplate"]);
    assert!(
        events.iter().any(|e| matches!(&e.happening,
        Happening::Magic(MagicEvent::Cursed { source, .. }) if source.contains("Mouldy Skeleton")))
    );
}

#[test]
fn reading_runes_and_magic_sight_limits() {
    let mut state = game(&["Amazon", "Witch King"]);
    let (outcome, _) = searching(&mut state, &[1], SearchTable::ReadingRunes);
    assert!(
        matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("no runes to read"))
    );
    let (outcome, _) = searching(&mut state, &[1], SearchTable::MagicSight);
    assert!(matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("Phantom Glass")));

    let at = place_site(&mut state, false, "Lair");
    state.characters[1].position = at;
    let (outcome, _) = run(&mut state, &Rules::default(), &[("search", &[5])], |day| {
        search(day, 1, &SearchTable::Locate)
    });
    assert_eq!(outcome, PhaseOutcome::Done);
    assert!(
        state.characters[1].discoveries.sites.contains("Lair"),
        "Magic Sight 5 discovers chits"
    );
}

/// 3.1 7.5.4b: from a mountain clearing he may Peer into a clearing of his
/// own tile (not a cave), as well as of an adjacent tile.
#[test]
fn peer_from_a_mountain_into_a_clearing_of_his_own_tile_3_1_7_5_4b() {
    let mut state = game(&["Amazon"]);
    let board = &state.board;
    let (peak, other) = board
        .clearings()
        .into_iter()
        .filter(|c| {
            board
                .clearing(c)
                .is_some_and(|k| k.kind == ClearingKind::Mountain)
        })
        .find_map(|peak| {
            let other = board.clearings().into_iter().find(|c| {
                c.tile == peak.tile
                    && c != &peak
                    && board
                        .clearing(c)
                        .is_some_and(|k| k.kind != ClearingKind::Cave)
            })?;
            Some((peak, other))
        })
        .expect("a mountain clearing with another clearing on its tile");
    state.characters[0].position = peak;
    let table = SearchTable::Peer {
        tile: Some(other.tile.clone()),
        clearing: Some(other.clearing),
    };
    let (outcome, events) = searching(&mut state, &[6], table);
    assert_eq!(outcome, PhaseOutcome::Done, "{events:#?}");
}

/// 3.1 7.5.7, 7.5.7b: one cause of Magic Sight (an active Phantom Glass)
/// forces the Magic Sight table on a Search; two (the Witch King's
/// Disembodied and the Glass) cancel, so he uses the table he named and
/// cannot use Magic Sight.
#[test]
fn causes_of_magic_sight_force_it_and_two_cancel_3_1_7_5_7b() {
    use crate::test_support::give;
    let mut state = game(&["Amazon", "Witch King"]);
    for who in [0, 1] {
        give(&mut state, who, ItemKind::Treasure, "Phantom Glass", true);
    }
    let switched = |events: &[DayEvent]| {
        search_events(events)
            .iter()
            .any(|e| matches!(e, SearchEvent::NotApplied { .. }))
    };
    let (outcome, events) = searching(&mut state, &[6], SearchTable::Locate);
    assert_eq!(outcome, PhaseOutcome::Done);
    assert!(switched(&events), "the Glass alone forces Magic Sight");
    let (outcome, events) = run(&mut state, &Rules::default(), &[("search", &[6])], |day| {
        search(day, 1, &SearchTable::Locate)
    });
    assert_eq!(outcome, PhaseOutcome::Done);
    assert!(!switched(&events), "two causes cancel: Locate stands");
    let (outcome, _) = run(&mut state, &Rules::default(), &[("search", &[6])], |day| {
        search(day, 1, &SearchTable::MagicSight)
    });
    assert!(
        matches!(&outcome, PhaseOutcome::Lost { reason } if reason.contains("cancel")),
        "{outcome:?}"
    );
}
