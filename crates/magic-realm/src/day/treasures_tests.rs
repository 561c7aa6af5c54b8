//! Tests of treasure sites searched on their own tables (the Hoard, the
//! Crypt, the Toadstool Circle), locked sites, the site pile, and treasures
//! that give bonus phases (the Ancient Telescope).

use super::PhaseOutcome;
use super::events::{Happening, PhaseResult};
use super::search::search_taking;
use super::treasure_sites::SiteEvent;
use crate::board::ClearingId;
use crate::data::tiles::ClearingKind;
use crate::orders::{SearchTable, Take};
use crate::state::{ChitCondition, ItemKind, MrState};
use crate::test_support::{
    data, give, item, place_site, play_day as play, quiet_game as game, results,
    run_with_prowling_row as run,
};

/// The Amazon at a discovered Hoard whose pile is only `card`.
fn hoard_with(card: &str) -> (MrState, ClearingId) {
    let mut state = game(&["Amazon"]);
    let at = place_site(&mut state, true, "Hoard");
    for pile in state.holdings.values_mut() {
        pile.retain(|i| i.name != card);
    }
    state
        .holdings
        .insert("Hoard".into(), vec![item(ItemKind::Treasure, card)]);
    state.characters[0].position = at.clone();
    state.characters[0].discoveries.sites.insert("Hoard".into());
    (state, at)
}

fn loot(state: &mut MrState, faces: &[u8]) -> (PhaseOutcome, Vec<SiteEvent>) {
    let takes = [Take {
        what: "Truesteel Sword".into(),
        activate: true,
    }];
    let (outcome, events) = run(state, 1, &[("search", faces)], |day| {
        search_taking(day, 0, &SearchTable::Loot, &takes)
    });
    let site = events
        .into_iter()
        .filter_map(|e| match e.happening {
            Happening::TreasureSite(s) => Some(s),
            _ => None,
        })
        .collect();
    (outcome, site)
}

#[test]
fn a_site_card_found_lies_in_the_clearing_and_is_searched_on_its_table() {
    let (mut state, at) = hoard_with("Enchanted Meadow");
    let (_, events) = loot(&mut state, &[1]);
    assert!(matches!(&events[0], SiteEvent::Found { site, .. } if site == "Enchanted Meadow"));
    assert_eq!(state.treasure_sites.get("Enchanted Meadow"), Some(&at));
    assert!(state.holdings["Hoard"].is_empty());
    assert!(
        state.characters[0]
            .discoveries
            .sites
            .contains("Enchanted Meadow")
    );
    let contents = state.holdings["Enchanted Meadow"].clone();
    assert!(
        contents.iter().any(|i| i.kind == ItemKind::Horse),
        "{contents:?}"
    );

    // 1: the pony; 1 again: gone.
    let (_, events) = loot(&mut state, &[1]);
    assert!(matches!(&events[1], SiteEvent::Took { item, .. } if item.kind == ItemKind::Horse));
    let (_, events) = loot(&mut state, &[1]);
    assert!(matches!(&events[1], SiteEvent::Gone { .. }), "{events:?}");
    // 2: the Truesteel Sword, activated by the Take line.
    let (_, events) = loot(&mut state, &[2]);
    assert!(
        matches!(&events[1], SiteEvent::Took { item, active: true, .. } if item.name == "Truesteel Sword")
    );
    // 3: a wish, worked by the spell engine (`site_magic`).
    let (_, events) = loot(&mut state, &[3]);
    assert!(
        matches!(&events[1], SiteEvent::MagicWorked { .. }),
        "{events:?}"
    );
    // 5: a curse, rolled on the Curse table.
    assert!(state.characters[0].magic.curses.is_empty());
    let (_, events) = loot(&mut state, &[5]);
    assert_eq!(events.len(), 1, "only the row read: {events:?}");
    assert_eq!(state.characters[0].magic.curses.len(), 1);
    state.characters[0].magic.curses.clear();
    // 4: every chit rested.
    state.characters[0].chits[0].condition = ChitCondition::Wounded;
    state.characters[0].chits[1].condition = ChitCondition::Fatigued;
    let (_, events) = loot(&mut state, &[4]);
    assert!(matches!(&events[1], SiteEvent::Rested { chits, .. } if chits.len() == 2));
    assert!(
        state.characters[0]
            .chits
            .iter()
            .all(|c| c.condition == ChitCondition::Active)
    );
    // 6: nothing.
    let (outcome, events) = loot(&mut state, &[6]);
    assert_eq!(outcome, PhaseOutcome::Done);
    assert_eq!(events.len(), 1, "only the row read: {events:?}");
}

#[test]
fn the_crypt_needs_the_lost_keys_and_pays_a_gold() {
    let (mut state, _) = hoard_with("Crypt of the Knight");
    loot(&mut state, &[1]);
    assert!(state.treasure_sites.contains_key("Crypt of the Knight"));
    let (outcome, _) = loot(&mut state, &[5]);
    assert!(matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("Lost Keys")));
    give(&mut state, 0, ItemKind::Treasure, "Lost Keys", true);
    let gold = state.characters[0].gold;
    let (_, events) = loot(&mut state, &[5]);
    assert!(matches!(
        &events[1],
        SiteEvent::GoldRecorded { gold: 1, .. }
    ));
    assert_eq!(state.characters[0].gold, gold + 1);
    let (_, events) = loot(&mut state, &[2]);
    assert!(matches!(&events[1], SiteEvent::Took { item, .. } if item.kind == ItemKind::Armor));
}

#[test]
fn toadstool_rows_needing_choices_or_magic_apply_or_say_so() {
    let (mut state, _) = hoard_with("Toadstool Circle");
    loot(&mut state, &[1]);
    // 5: Power of the Pit against himself; 6 on it: rust, which the state
    // cannot show yet.
    let forced: &[(&str, &[u8])] = &[("search", &[5]), ("magic", &[6, 6])];
    let (_, events) = run(&mut state, 1, forced, |day| {
        search_taking(day, 0, &SearchTable::Loot, &[])
    });
    assert!(
        events.iter().any(|e| matches!(
            &e.happening,
            Happening::TreasureSite(SiteEvent::MagicWorked { .. })
        )),
        "{events:?}"
    );
    let (_, events) = loot(&mut state, &[6]);
    assert_eq!(
        events.len(),
        1,
        "the curse is rolled, not a site event: {events:?}"
    );
    assert_eq!(state.characters[0].magic.curses.len(), 1);
    // Lifted again, so that Eyemist cannot stop the next searches.
    state.characters[0].magic.curses.clear();
    let (_, events) = loot(&mut state, &[3]);
    assert!(
        matches!(&events[1], SiteEvent::NotApplied { reason, .. } if reason.contains("Teleport:")),
        "{events:?}"
    );
    let (_, events) = loot(&mut state, &[1]);
    assert!(matches!(&events[1], SiteEvent::Took { item, .. } if item.name == "Devil Sword"));
}

#[test]
fn the_site_pile_is_looted_before_the_treasure_site() {
    let (mut state, _) = hoard_with("Enchanted Meadow");
    loot(&mut state, &[1]);
    state
        .holdings
        .insert("Hoard".into(), vec![item(ItemKind::Treasure, "Lost Keys")]);
    let (_, events) = loot(&mut state, &[1]);
    assert!(events.is_empty(), "the Hoard is looted: {events:?}");
    assert!(
        state.characters[0]
            .belongings
            .iter()
            .any(|b| b.item.name == "Lost Keys")
    );
}

#[test]
fn the_telescope_gives_a_bonus_peer_in_a_mountain_clearing() {
    let mut state = game(&["Black Knight"]);
    let mountain = state
        .board
        .clearings()
        .into_iter()
        .find(|c| {
            state
                .board
                .clearing(c)
                .is_some_and(|k| k.kind == ClearingKind::Mountain)
        })
        .expect("a mountain clearing");
    state.characters[0].position = mountain;
    give(&mut state, 0, ItemKind::Treasure, "Ancient Telescope", true);
    let (_, events) = play(
        state.clone(),
        &[("P1", "S*\nSearch: peer")],
        &[("search", &[6])],
    );
    let phases = results(&events, "Black Knight");
    assert!(matches!(&phases[0], PhaseResult::Done { .. }), "{phases:?}");
    let (_, events) = play(state, &[("P1", "S*\nSearch: locate")], &[("search", &[6])]);
    let phases = results(&events, "Black Knight");
    assert!(
        matches!(&phases[0], PhaseResult::Lost { reason } if reason.contains("bonus")),
        "{phases:?}"
    );
}

#[test]
fn a_toadstool_circle_lying_here_gives_a_bonus_spell_phase() {
    let mut state = game(&["Black Knight"]);
    let here = state.characters[0].position.clone();
    let (_, events) = play(state.clone(), &[("P1", "SP*")], &[]);
    let reason = match &results(&events, "Black Knight")[0] {
        PhaseResult::Lost { reason } => reason.clone(),
        other => panic!("{other:?}"),
    };
    assert!(reason.contains("bonus"), "{reason}");
    state.treasure_sites.insert("Toadstool Circle".into(), here);
    let (_, events) = play(state, &[("P1", "SP*")], &[]);
    let reason = match &results(&events, "Black Knight")[0] {
        PhaseResult::Lost { reason } => reason.clone(),
        other => panic!("{other:?}"),
    };
    assert!(
        !reason.contains("bonus") && reason.contains("MAGIC chit"),
        "the phase exists, and is tried: {reason}"
    );
}

#[test]
fn the_toadstool_circle_sends_him_to_the_cave_his_orders_name() {
    let mut state = game(&["Black Knight", "Amazon"]);
    let here = state.characters[0].position.clone();
    state.characters[1].position = here.clone();
    state
        .treasure_sites
        .insert("Toadstool Circle".into(), here.clone());
    state.characters[0]
        .discoveries
        .sites
        .insert("Toadstool Circle".into());
    let cave = state
        .board
        .clearings()
        .into_iter()
        .find(|c| {
            state
                .board
                .clearing(c)
                .is_some_and(|k| k.kind == ClearingKind::Cave)
        })
        .expect("a cave clearing");
    let name = &data().tiles.by_code(&cave.tile).expect("tile").name;
    let text = format!("S\nSearch: loot\nTeleport: {name} {}", cave.clearing);
    let (after, events) = play(
        state,
        &[("P1", &text), ("P2", "F Black Knight")],
        &[("search", &[3])],
    );
    assert_eq!(after.characters[0].position, cave);
    assert_eq!(after.characters[1].position, here, "the follower stays");
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::TreasureSite(SiteEvent::Teleported { to, .. }) if *to == cave
    )));
}

#[test]
fn a_tremendous_effort_opens_the_crypt() {
    let mut state = game(&["Berserker"]);
    let at = place_site(&mut state, true, "Hoard");
    state.holdings.insert(
        "Hoard".into(),
        vec![item(ItemKind::Treasure, "Crypt of the Knight")],
    );
    state.characters[0].position = at.clone();
    state.characters[0].discoveries.sites.insert("Hoard".into());
    loot(&mut state, &[1]);
    assert_eq!(state.treasure_sites.get("Crypt of the Knight"), Some(&at));
    let gold = state.characters[0].gold;
    let (outcome, events) = loot(&mut state, &[5]);
    assert_eq!(outcome, PhaseOutcome::Done);
    assert!(
        matches!(&events[1], SiteEvent::GoldRecorded { .. }),
        "{events:?}"
    );
    assert_eq!(state.characters[0].gold, gold + 1);
    let tired: Vec<&str> = state.characters[0]
        .chits
        .iter()
        .filter(|c| c.condition == ChitCondition::Fatigued)
        .map(|c| c.chit.as_str())
        .collect();
    assert_eq!(tired.len(), 1);
    assert!(tired[0].contains('T'), "{tired:?}");
}

/// The Black Knight at a Toadstool Circle he has discovered, and a clearing
/// of another tile to peer into once its row 4 lets him.
fn at_a_discovered_toadstool_circle() -> (crate::state::MrState, crate::board::ClearingId) {
    let mut state = game(&["Black Knight"]);
    let here = state.characters[0].position.clone();
    state
        .treasure_sites
        .insert("Toadstool Circle".into(), here.clone());
    state.characters[0]
        .discoveries
        .sites
        .insert("Toadstool Circle".into());
    let far = state
        .board
        .clearings()
        .into_iter()
        .find(|c| c.tile != here.tile)
        .expect("another tile");
    (state, far)
}

/// 3.1 7.5.4i: the enhanced Peer recorded as 3.1 writes it, `P` and the
/// clearing, does what `S` with `Search: peer <clearing>` does, and takes no
/// table from the `Search:` line.
#[test]
fn an_enhanced_peer_recorded_as_p_and_a_clearing_3_1_7_5_4i() {
    let (state, far) = at_a_discovered_toadstool_circle();
    let text = format!("S, P ({}{})\nSearch: loot", far.tile, far.clearing);
    let forced: &[(&str, &[u8])] = &[("search", &[4]), ("search", &[5])];
    let (_, events) = play(state, &[("P1", &text)], forced);
    let phases = results(&events, "Black Knight");
    assert!(matches!(&phases[1], PhaseResult::Done { .. }), "{phases:?}");
}

#[test]
fn the_toadstool_circle_row_4_lets_him_peer_anywhere_today() {
    let (state, far) = at_a_discovered_toadstool_circle();
    let name = &data().tiles.by_code(&far.tile).expect("tile").name;
    let text = format!("S, S\nSearch: loot; peer {name} {}", far.clearing);
    let forced: &[(&str, &[u8])] = &[("search", &[4]), ("search", &[5])];
    let (_, events) = play(state.clone(), &[("P1", &text)], forced);
    let phases = results(&events, "Black Knight");
    assert!(matches!(&phases[1], PhaseResult::Done { .. }), "{phases:?}");
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::TreasureSite(SiteEvent::Granted { what, .. }) if what.contains("any clearing")
    )));
    // Without the gift the far peer is lost.
    let text = format!("S\nSearch: peer {name} {}", far.clearing);
    let (_, events) = play(state, &[("P1", &text)], &[("search", &[5])]);
    assert!(matches!(
        &results(&events, "Black Knight")[0],
        PhaseResult::Lost { .. }
    ));
}
