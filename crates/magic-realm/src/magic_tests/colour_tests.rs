//! Tests of colour magic (magic summary): the colours of the 7th days and the
//! season, enchanted tiles, dwellings, treasures and colour chits.

use std::collections::BTreeSet;

use crate::board::ClearingId;
use crate::data::terms::{Colour, Dwelling};
use crate::data::tiles::Side;
use crate::rules::TOGGLES;
use crate::state::{ChitCondition, MrState};
use crate::test_support::{data, test_game as game};
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;

use crate::magic::cast::check;
use crate::magic::colour::{ColourSource, colours_present, sources_present};
use crate::magic::effect::SpellEffect;

use super::test_fixtures::{cast_ok, caster, forced, me, request, together};

#[test]
fn colour_days_and_no_colour_between() {
    let state = game(&["Wizard"]);
    let rules = Rules::default();
    assert_eq!(
        colours_present(&state, data(), &rules, 7, 0),
        [Colour::White, Colour::Black].into()
    );
    assert_eq!(
        colours_present(&state, data(), &rules, 14, 0),
        [Colour::Grey].into()
    );
    assert_eq!(
        colours_present(&state, data(), &rules, 49, 0),
        [Colour::Purple].into()
    );
    assert_eq!(
        colours_present(&state, data(), &rules, 28, 0),
        [Colour::Gold].into()
    );
    // The Wizard starts at the Inn, in a valley clearing without colour.
    let none = colours_present(&state, data(), &rules, 3, 0);
    assert!(none.is_empty(), "{none:?}");
}

#[test]
fn the_season_names_the_seventh_days_colour() {
    let mut state = game(&["Wizard"]);
    state.magic.season = Some(11);
    let rules = Rules::new(["seasons_and_weather"], TOGGLES).unwrap();
    assert_eq!(
        colours_present(&state, data(), &rules, 7, 0),
        [Colour::Purple].into()
    );
    assert_eq!(
        colours_present(&state, data(), &rules, 14, 0),
        [Colour::Grey].into()
    );
}

#[test]
fn enchanted_tiles_and_the_chapel_supply_colour_in_their_clearing() {
    let mut state = game(&["Wizard"]);
    let chapel = state.dwellings[&Dwelling::Chapel].clone();
    state.characters[0].position = chapel.clone();
    let found = sources_present(&state, data(), &Rules::default(), 3, 0);
    assert!(found.iter().any(|p| p.colour == Colour::White
        && matches!(&p.source, ColourSource::Dwelling { dwelling } if dwelling.contains("Chapel"))));
    let tile = chapel.tile.clone();
    state.board.set_side(&tile, Side::Enchanted).unwrap();
    let on_side: BTreeSet<Colour> = state
        .board
        .clearing(&chapel)
        .unwrap()
        .magic
        .iter()
        .copied()
        .collect();
    let present = colours_present(&state, data(), &Rules::default(), 3, 0);
    assert!(
        !on_side.is_empty() && on_side.is_subset(&present),
        "{on_side:?} {present:?}"
    );
}

/// 3.1 rules 4.6.2b–c: an Enchanted card lying face up in a clearing's
/// pile, and a discovered Toadstool Circle, supply their colour to everyone
/// in that clearing and nowhere else.
#[test]
fn an_enchanted_card_lying_here_and_the_toadstool_circle_supply_colour() {
    let mut state = game(&["Wizard"]);
    let here = state.characters[0].position.clone();
    let rules = Rules::default();
    assert!(colours_present(&state, data(), &rules, 3, 0).is_empty());
    state
        .holdings
        .entry(crate::state::abandoned_pile(&here))
        .or_default()
        .push(crate::state::Item {
            kind: crate::state::ItemKind::Treasure,
            name: "Golden Icon".into(),
        });
    let found = sources_present(&state, data(), &rules, 3, 0);
    assert!(
        found.iter().any(|p| p.colour == Colour::Grey
            && matches!(&p.source, ColourSource::Lying { treasure } if treasure == "Golden Icon")),
        "{found:?}"
    );
    state
        .treasure_sites
        .insert("Toadstool Circle".into(), here.clone());
    assert_eq!(
        colours_present(&state, data(), &rules, 3, 0),
        [Colour::Grey, Colour::Black].into()
    );
    let elsewhere = state
        .board
        .clearings()
        .into_iter()
        .find(|c| *c != here)
        .expect("another clearing");
    state.characters[0].position = elsewhere;
    assert!(colours_present(&state, data(), &rules, 3, 0).is_empty());
}

#[test]
fn a_colour_chit_serves_only_its_owner() {
    let mut state = game(&["Wizard", "Witch"]);
    together(&mut state);
    caster(&mut state, 0, "IV", "Fiery Blast");
    state.characters[0].chits[1].chit = "MAGIC IV3*".into();
    state.characters[0].chits[1].enchanted = true;
    assert!(colours_present(&state, data(), &Rules::default(), 3, 0).contains(&Colour::Purple));
    assert!(!colours_present(&state, data(), &Rules::default(), 3, 1).contains(&Colour::Purple));
    // The Witch cannot cast her purple spell with the Wizard's colour chit.
    caster(&mut state, 1, "IV", "Fiery Blast");
    let err = check(
        &state,
        data(),
        &Rules::default(),
        &request(1, "Fiery Blast", vec![me(&state, 0)], 3),
    )
    .unwrap_err();
    assert!(err.to_string().contains("purple is missing"), "{err}");
    // The Wizard can, and his colour chit fatigues.
    let req = request(0, "Fiery Blast", vec![me(&state, 1)], 3);
    let effects = cast_ok(&mut state, &req, &mut Dice::new(1, 1));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, SpellEffect::ColourChitPlayed { .. }))
    );
    assert!(!state.characters[0].chits[1].enchanted);
    assert_eq!(
        state.characters[0].chits[1].condition,
        ChitCondition::Fatigued
    );
}

/// Two tiles next to each other, the second's enchanted side showing
/// purple and the first's not, both turned enchanted side up.
fn purple_next_door(state: &mut MrState) -> (String, String) {
    let board = &state.board;
    let purple = |board: &crate::board::Board, tile: &str| {
        let mut board = board.clone();
        board.set_side(tile, Side::Enchanted).expect("a tile");
        board
            .clearings()
            .iter()
            .filter(|c| c.tile == tile)
            .any(|c| {
                board
                    .clearing(c)
                    .is_some_and(|c| c.magic.contains(&Colour::Purple))
            })
    };
    let pair = board
        .clearings()
        .iter()
        .map(|c| c.tile.clone())
        .find_map(|from| {
            let at = board.placement_of(&from)?.at;
            let next = crate::data::tiles::Edge::ALL
                .iter()
                .filter_map(|&edge| board.placement_at(at.neighbour(edge)))
                .map(|p| p.tile.clone())
                .find(|next| purple(board, next))?;
            (!purple(board, &from)).then_some((from, next))
        })
        .expect("a tile without purple next to one with it");
    for tile in [&pair.0, &pair.1] {
        state.board.set_side(tile, Side::Enchanted).expect("a tile");
    }
    pair
}

/// The Amazon, transformed by the Witch King's Transform (purple), aloft
/// after flying away from a clearing of `from`; the spell inert.
fn transformed_aloft_over(state: &mut MrState, from: &str) {
    together(state);
    caster(state, 0, "VI", "Transform");
    let req = request(0, "Transform", vec![me(state, 1)], 21);
    cast_ok(state, &req, &mut forced("magic/Transform/Witch King", &[6]));
    state.magic.in_effect[0].inert = true;
    let clearing = state
        .board
        .clearings()
        .into_iter()
        .find(|c| c.tile == from)
        .expect("a clearing");
    for c in &mut state.characters {
        c.position = clearing.clone();
    }
    state.characters[1].flown_away = Some(clearing);
}

/// 3.1 8.3.8e.2: aloft after flying away, a character is half over the
/// tile he flew from and half over the one next to it, and both supply
/// him colour magic (4.6.2e, 4.6.7h.3): the purple of the enchanted tile
/// his first Fly phase names wakes the Transform on him at dawn; his own
/// tile, without purple, does not.
#[test]
fn aloft_after_flying_away_both_tiles_below_supply_colour_8_3_8e_2() {
    use crate::day::Day;
    use crate::orders::parse_day_orders;
    let mut state = game(&["Witch King", "Amazon"]);
    let (from, next) = purple_next_door(&mut state);
    transformed_aloft_over(&mut state, &from);
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    let down_into = |tile: &str| {
        let orders = parse_day_orders(&format!("FL {tile}"), 1, data()).expect("parses");
        [("p1".to_string(), orders)].into()
    };
    crate::day::spell_clock::dawn(&mut day, 3, &down_into(&from));
    assert!(day.state.magic.in_effect[0].inert, "no purple over {from}");
    crate::day::spell_clock::dawn(&mut day, 3, &down_into(&next));
    assert!(
        !day.state.magic.in_effect[0].inert,
        "the purple of {next} below wakes it"
    );
}

/// 3.1 8.3.8e.2 with 4.6.2b.2: the face-up Enchanted card one aloft
/// carries supplies him, not the clearing he flew out of.
#[test]
fn a_card_carried_aloft_supplies_its_bearer_not_the_clearing_left_4_6_2b_2() {
    use crate::magic::colour::shared_with;
    use crate::state::{Belonging, Item, ItemKind};
    let mut state = game(&["Witch King", "Amazon"]);
    let home = state.characters[0].position.tile.clone();
    transformed_aloft_over(&mut state, &home);
    state.characters[1].belongings.push(Belonging {
        item: Item {
            kind: ItemKind::Treasure,
            name: "Dragon Essence".into(),
        },
        active: true,
    });
    let rules = Rules::default();
    assert!(!colours_present(&state, data(), &rules, 3, 0).contains(&Colour::Purple));
    let hers = shared_with(&state, data(), &rules, 3, &state.characters[1], None);
    assert!(hers.iter().any(|p| p.colour == Colour::Purple), "{hers:?}");
    let woken = crate::magic::expiry::energize_by_presence(
        &mut state,
        data(),
        &rules,
        3,
        &Default::default(),
    );
    assert_eq!(woken.len(), 1, "{woken:?}");
    // Landed, she is back in the clearing, and so is her card's colour.
    state.characters[1].flown_away = None;
    assert!(colours_present(&state, data(), &rules, 3, 0).contains(&Colour::Purple));
}

/// A road from a clearing of a tile on its normal side into a clearing of
/// another tile turned enchanted side up, whose enchanted clearing shows
/// colour: the state with that tile enchanted, and the road's two ends.
fn road_into_an_enchanted_tile(state: &mut MrState) -> (ClearingId, ClearingId) {
    let board = state.board.clone();
    let (from, to, tile) = board
        .clearings()
        .into_iter()
        .find_map(|from| {
            board.neighbours(&from).into_iter().find_map(|link| {
                let tile = link.to.tile.clone();
                let mut enchanted = board.clone();
                enchanted.set_side(&tile, Side::Enchanted).ok()?;
                let coloured = enchanted
                    .clearing(&link.to)
                    .is_some_and(|c| !c.magic.is_empty());
                let still_linked = enchanted.neighbours(&from).iter().any(|l| l.to == link.to);
                (link.across.is_some() && coloured && still_linked)
                    .then(|| (from.clone(), link.to.clone(), tile))
            })
        })
        .expect("a road into a tile whose enchanted side shows colour");
    state.board.set_side(&tile, Side::Enchanted).unwrap();
    (from, to)
}

fn on_the_roadway(state: &mut MrState, who: usize, from: &ClearingId, to: &ClearingId) {
    state.characters[who].position = from.clone();
    state.characters[who].roadway = Some(crate::state::Roadway {
        from: from.clone(),
        to: to.clone(),
        vanished: false,
        edge_entries: Vec::new(),
    });
}

/// 3.1 4.6.2e.2: a runaway on a roadway is supplied by the enchanted tiles
/// of the clearings at both its ends, here the far end he did not run out
/// of; the Chapel's white and an Enchanted card in the clearing he left
/// stay in their clearing, while a card carried by another on the same
/// roadway supplies him (4.6.2b.2).
#[test]
fn a_runaway_on_a_roadway_draws_colour_from_both_its_ends_4_6_2e_2() {
    use crate::state::{Belonging, Item, ItemKind};
    let mut state = game(&["Wizard", "Amazon"]);
    let rules = Rules::default();
    let (from, to) = road_into_an_enchanted_tile(&mut state);
    let far: BTreeSet<Colour> = state
        .board
        .clearing(&to)
        .unwrap()
        .magic
        .iter()
        .copied()
        .collect();
    on_the_roadway(&mut state, 0, &from, &to);
    let found = sources_present(&state, data(), &rules, 3, 0);
    for colour in &far {
        assert!(
            found.iter().any(|p| p.colour == *colour
                && matches!(&p.source, ColourSource::Tile { clearing } if *clearing == to)),
            "{colour:?} from {to}: {found:?}"
        );
    }
    // Run out of the Chapel's clearing: its white does not reach the road.
    let chapel = state.dwellings[&Dwelling::Chapel].clone();
    let beyond = state.board.neighbours(&chapel)[0].to.clone();
    on_the_roadway(&mut state, 0, &chapel, &beyond);
    let white_there = |state: &MrState| {
        let p = colours_present(state, data(), &rules, 3, 0);
        p.contains(&Colour::White)
    };
    let beyond_has_white = state
        .board
        .clearing(&beyond)
        .is_some_and(|c| c.magic.contains(&Colour::White));
    assert!(!beyond_has_white && !white_there(&state));
    // The Amazon on the same roadway, the other way, carries the Golden
    // Icon (grey) face up: it supplies the Wizard there.
    on_the_roadway(&mut state, 1, &beyond, &chapel);
    state.characters[1].belongings.push(Belonging {
        item: Item {
            kind: ItemKind::Treasure,
            name: "Golden Icon".into(),
        },
        active: true,
    });
    assert!(colours_present(&state, data(), &rules, 3, 0).contains(&Colour::Grey));
    // Off the roadway, in the Chapel's clearing, the card does not reach him.
    state.characters[0].roadway = None;
    let back = colours_present(&state, data(), &rules, 3, 0);
    assert!(
        back.contains(&Colour::White) && !back.contains(&Colour::Grey),
        "{back:?}"
    );
}
