//! Tests of colour magic (magic summary): the colours of the 7th days and the
//! season, enchanted tiles, dwellings, treasures and colour chits.

use std::collections::BTreeSet;

use crate::data::terms::{Colour, Dwelling};
use crate::data::tiles::Side;
use crate::rules::TOGGLES;
use crate::state::ChitCondition;
use crate::test_support::{data, test_game as game};
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;

use crate::magic::cast::check;
use crate::magic::colour::{ColourSource, colours_present, sources_present};
use crate::magic::effect::SpellEffect;

use super::test_fixtures::{cast_ok, caster, me, request, together};

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
