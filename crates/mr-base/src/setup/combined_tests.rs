//! Two Realms combined at setup (3.1 10.E.7.2–7.4): two of every component,
//! each once, the second game's marked; treasures, map chits, weapons and
//! horses mixed across the games; denizens, Spell cards and row-6 chits on
//! their own game's card; garrisons and characters at their own game's
//! dwellings.

use std::collections::BTreeMap;

use super::*;
use crate::data::realms::Realm;
use crate::data::terms::{Dwelling, TileGroup};
use crate::rules::COMBINED_REALMS;
use crate::state::{ItemKind, Whereabouts};

fn data() -> &'static GameData {
    crate::data::get().unwrap_or_else(|e| panic!("{e}"))
}

/// The rules with `combined_realms` on; `also` are further toggles.
fn combined(also: &[&'static str]) -> Rules {
    Rules::new(
        also.iter().copied().chain([COMBINED_REALMS]),
        crate::rules::TOGGLES,
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

fn seats(roles: &[&str]) -> Vec<Seat> {
    roles
        .iter()
        .enumerate()
        .map(|(i, role)| Seat {
            player: format!("player{i}"),
            role: Some((*role).to_string()),
        })
        .collect()
}

fn set_up(seed: u64, roles: &[&str], rules: &Rules) -> Result<MrState, SetupError> {
    new_game(
        data(),
        &seats(roles),
        rules,
        &SetupInputs::default(),
        &mut Dice::new(seed, 0),
    )
}

fn game(seed: u64) -> MrState {
    set_up(seed, &["Amazon II", "Witch King"], &combined(&[]))
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

/// How often each item of a kind is held, over every holder.
fn held(state: &MrState, kind: ItemKind) -> BTreeMap<&str, usize> {
    let mut counts = BTreeMap::new();
    for item in state.holdings.values().flatten().filter(|i| i.kind == kind) {
        *counts.entry(item.name.as_str()).or_default() += 1;
    }
    counts
}

/// Where a counter or card of the given name lies.
fn holder_of<'a>(state: &'a MrState, name: &str) -> Option<&'a str> {
    state
        .holdings
        .iter()
        .find(|(_, pile)| pile.iter().any(|i| i.name == name))
        .map(|(holder, _)| holder.as_str())
}

#[test]
fn two_realms_hold_two_of_every_component_each_once() {
    for seed in 0..20 {
        let state = game(seed);
        assert_eq!(state.denizens.len(), 2 * (59 + 42), "seed {seed}");
        for (kind, one_game) in [
            (ItemKind::Horse, 34),
            (ItemKind::Weapon, 28),
            (ItemKind::Armor, 19),
            (ItemKind::Treasure, 74),
        ] {
            let counts = held(&state, kind);
            assert!(counts.values().all(|n| *n == 1), "seed {seed}: {kind:?}");
            assert_eq!(counts.len(), 2 * one_game, "seed {seed}: {kind:?}");
            let second = counts
                .keys()
                .filter(|name| Realm::of_name(name) == Realm::Second)
                .count();
            assert_eq!(second, one_game, "seed {seed}: {kind:?} of the second game");
        }
        let chits: Vec<&str> = state
            .map_chits
            .values()
            .flatten()
            .map(|c| c.name.as_str())
            .chain(state.lost.values().flatten().map(String::as_str))
            .collect();
        let different: std::collections::BTreeSet<&str> = chits.iter().copied().collect();
        assert_eq!((chits.len(), different.len()), (80, 80), "seed {seed}");
        assert_eq!(state.lost.len(), 4, "seed {seed}");
        assert!(state.lost.values().all(|hidden| hidden.len() == 5));
        assert_eq!(state.board.placements().count(), 40, "seed {seed}");
        assert_eq!(state.dwellings.len(), 4, "seed {seed}");
        assert_eq!(state.second_realm_dwellings.len(), 4, "seed {seed}");
        assert_eq!(state.visitor_boxes.len(), 12, "seed {seed}");
    }
}

#[test]
fn every_tile_holds_one_warning_chit_of_either_game() {
    let state = game(3);
    let warning = |name: &str| {
        let printed = crate::data::realms::printed(name);
        data().chits.warning.iter().any(|w| w.name == printed)
    };
    for p in state.board.placements() {
        let on_tile = &state.map_chits[&p.tile];
        let warnings = on_tile.iter().filter(|c| warning(&c.name)).count();
        let expected = match state.board.tile(&p.tile).map(|t| t.group) {
            Some(TileGroup::Mountain | TileGroup::Cave) => 2,
            _ => 1,
        };
        assert_eq!(
            (warnings, on_tile.len()),
            (1, expected),
            "{}: {on_tile:?}",
            p.tile
        );
    }
}

/// 3.1 10.E.7.3, 7.4.1: treasures and map chits are dealt without regard
/// to their game.
#[test]
fn treasures_and_map_chits_mix_across_the_games() {
    let state = game(5);
    let site_boxes = &data().setup_card.site_box;
    let across = site_boxes.iter().any(|b| {
        state.holdings.get(&b.site).is_some_and(|pile| {
            pile.iter()
                .any(|i| i.kind == ItemKind::Treasure && Realm::of_name(&i.name) == Realm::Second)
        })
    });
    assert!(across, "no second-game treasure on the first card");
    let first_tiles_with_second_chits = state
        .map_chits
        .iter()
        .filter(|(tile, _)| Realm::of_code(tile) == Realm::First)
        .any(|(_, chits)| {
            chits
                .iter()
                .any(|c| Realm::of_name(&c.name) == Realm::Second)
        });
    assert!(first_tiles_with_second_chits);
}

/// 3.1 10.E.7.3.3, 7.4.3, 7.9: denizens, Spell cards and row-6 chits stay
/// with their own game; garrisons live at their own game's dwellings.
#[test]
fn denizens_spells_and_visitors_stay_on_their_own_card() {
    let state = game(8);
    for (id, denizen) in &state.denizens {
        let realm = Realm::of_name(id);
        match &denizen.at {
            Whereabouts::SetupBox { name } => assert_eq!(Realm::of_name(name), realm, "{id}"),
            Whereabouts::Guarding { site } => assert_eq!(Realm::of_name(site), realm, "{id}"),
            Whereabouts::Clearing { clearing } => {
                let ghost = crate::data::base_name(id) == "Ghost";
                let home = state.dwellings_of(realm).values().any(|d| d == clearing);
                assert!(ghost || home, "{id} at {clearing}");
            }
            other => panic!("{id} starts at {other:?}"),
        }
    }
    for (holder, pile) in &state.holdings {
        for spell in pile.iter().filter(|i| i.kind == ItemKind::Spell) {
            assert_eq!(
                Realm::of_name(&spell.name),
                Realm::of_name(holder),
                "{holder}"
            );
        }
    }
    for (row_box, chit) in &state.visitor_boxes {
        assert_eq!(Realm::of_name(chit), Realm::of_name(row_box), "{row_box}");
    }
    let rogues_home = &state.second_realm_dwellings[&Dwelling::Inn];
    assert!(matches!(
        &state.denizens["Rogue HQ II"].at,
        Whereabouts::Clearing { clearing } if clearing == rogues_home
    ));
}

/// 3.1 10.E.7.3.1–7.3.2: the Spears and armour of a native box are its own
/// game's; the other weapons and the boxes' horses are mixed, each box
/// keeping its printed count of a class.
#[test]
fn weapons_and_horses_mix_but_spears_and_armour_stay() {
    let mut crossed = false;
    for seed in 0..5 {
        let state = game(seed);
        for (holder, pile) in &state.holdings {
            let realm = Realm::of_name(holder);
            for item in pile {
                let same = Realm::of_name(&item.name) == realm;
                match item.kind {
                    ItemKind::Armor => assert!(same, "{holder}: {}", item.name),
                    ItemKind::Weapon if crate::data::base_name(&item.name) == "Spear" => {
                        assert!(same, "{holder}: {}", item.name);
                    }
                    ItemKind::Weapon | ItemKind::Horse => crossed |= !same,
                    _ => {}
                }
            }
        }
        let weapons = |holder: &str| {
            state.holdings.get(holder).map_or(0, |pile| {
                pile.iter().filter(|i| i.kind == ItemKind::Weapon).count()
            })
        };
        for holder in ["House", "Chapel", "Guard House", "Woodfolk"] {
            assert_eq!(
                weapons(holder),
                weapons(&Realm::Second.mark(holder)),
                "seed {seed}: {holder}"
            );
        }
    }
    assert!(crossed, "no weapon or horse went to the other game's box");
    assert!(holder_of(&game(0), "Spear II 1").is_some_and(|h| h == "Lancers II"));
}

/// 3.1 10.E.7.4.2: a character of the second game starts at a dwelling of
/// that game; one seated without the mark plays the first.
#[test]
fn a_character_starts_at_a_dwelling_of_his_own_game() {
    for seed in 0..10 {
        let state = game(seed);
        let amazon = &state.characters[0];
        assert_eq!(
            (amazon.name.as_str(), amazon.realm),
            ("Amazon", Realm::Second)
        );
        assert_eq!(
            amazon.position,
            state.second_realm_dwellings[&Dwelling::Inn]
        );
        let witch_king = &state.characters[1];
        assert_eq!(witch_king.realm, Realm::First);
        let first_ghosts = Whereabouts::Clearing {
            clearing: witch_king.position.clone(),
        };
        assert!(
            state.dwellings.values().any(|d| *d == witch_king.position)
                || state.denizens["Ghost 1"].at == first_ghosts,
            "seed {seed}"
        );
    }
}

#[test]
fn a_second_game_character_needs_combined_realms() {
    let error = set_up(1, &["Amazon II"], &Rules::default()).expect_err("one Realm");
    assert_eq!(
        error,
        SetupError::SecondRealmAlone {
            role: "Amazon II".into(),
            character: "Amazon".into(),
        }
    );
    assert!(error.to_string().contains("3.1 10.E.7.4.2"));
}

#[test]
fn combined_realms_refuse_the_setups_they_do_not_offer_yet() {
    let error = set_up(1, &["Amazon"], &combined(&[PLAYER_BUILT_BOARD])).expect_err("refused");
    assert!(
        error
            .to_string()
            .contains("a board the players build is not implemented yet"),
        "{error}"
    );
    let error = set_up(1, &["Amazon"], &combined(&[SOLITAIRE])).expect_err("refused");
    assert!(error.to_string().contains("Solitaire Play"), "{error}");
}

#[test]
fn the_same_seed_sets_up_the_same_combined_game() {
    let hash = |seed| realmgm_core::game::GameState::from_typed(game(seed)).hash();
    assert_eq!(hash(4), hash(4));
    assert_ne!(hash(4), hash(5));
}
