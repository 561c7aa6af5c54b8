//! Setup invariants: every component in exactly one place, the map chits
//! and site contents as the rules deal them, 200 seeds valid, the same seed
//! giving the same bytes.

use std::collections::BTreeMap;

use super::*;
use crate::data::terms::{Dwelling, TileGroup};
use crate::data::treasures::TreasureSize;
use crate::state::{ChitCondition, ItemKind, Whereabouts};
use realmgm_core::game::GameState;

fn data() -> &'static GameData {
    crate::data::get().unwrap_or_else(|e| panic!("{e}"))
}

fn seats(characters: &[&str]) -> Vec<Seat> {
    characters
        .iter()
        .enumerate()
        .map(|(i, c)| Seat {
            player: format!("player{i}"),
            role: Some((*c).to_string()),
        })
        .collect()
}

fn game(seed: u64) -> MrState {
    let seats = seats(&["Amazon", "Witch King", "White Knight"]);
    new_game(
        data(),
        &seats,
        &Rules::default(),
        &SetupInputs::default(),
        &mut Dice::new(seed, 0),
    )
    .unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

/// How often each item id of a kind is held, over every holder.
fn held(state: &MrState, kind: ItemKind) -> BTreeMap<&str, usize> {
    let mut counts = BTreeMap::new();
    for items in state.holdings.values() {
        for item in items.iter().filter(|i| i.kind == kind) {
            *counts.entry(item.name.as_str()).or_default() += 1;
        }
    }
    counts
}

/// The first invariant a fresh setup breaks, in words.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct BrokenInvariant(String);

/// Every invariant of a fresh setup; the message names the first broken.
fn check(state: &MrState) -> Result<(), BrokenInvariant> {
    let data = data();
    let fail = |what: String| Err(BrokenInvariant(what));
    // Denizens: 59 monsters and 42 natives, each once.
    let monsters: usize = data.monsters.iter().map(|m| m.counters.len()).sum();
    let natives: usize = data.natives.iter().map(|g| g.members.len()).sum();
    if state.denizens.len() != monsters + natives || monsters != 59 || natives != 42 {
        return fail(format!("{} denizens", state.denizens.len()));
    }
    // Every horse, placed weapon and armour counter, and treasure once.
    let once = |kind, expected: usize| -> Result<(), BrokenInvariant> {
        let counts = held(state, kind);
        let total: usize = counts.values().sum();
        if counts.values().any(|c| *c != 1) || total != expected {
            return fail(format!(
                "{kind:?}: {total} held, expected {expected} each once"
            ));
        }
        Ok(())
    };
    once(ItemKind::Horse, 34)?;
    once(ItemKind::Weapon, 28)?;
    once(ItemKind::Armor, 19)?;
    once(ItemKind::Treasure, 74)?;
    let spells_wanted: usize = data
        .setup_card
        .site_box
        .iter()
        .map(|b| b.spells.len())
        .sum::<usize>()
        + data
            .chits
            .visitor
            .iter()
            .map(|v| v.spells.len())
            .sum::<usize>()
        + data
            .treasures
            .iter()
            .flat_map(|t| &t.effects)
            .map(|e| match e {
                crate::data::treasures::TreasureEffect::Spells { spells, .. } => spells.len(),
                _ => 0,
            })
            .sum::<usize>();
    once(ItemKind::Spell, spells_wanted)?;
    // Map chits: 18 sound/site + 2 lost + 20 warnings, each in one place.
    let mut chits: Vec<&str> = state
        .map_chits
        .values()
        .flatten()
        .map(|c| c.name.as_str())
        .chain(state.lost.values().flatten().map(String::as_str))
        .collect();
    chits.sort_unstable();
    let before = chits.len();
    chits.dedup();
    if before != 40 || chits.len() != 40 {
        return fail(format!(
            "{before} map chits placed, {} different",
            chits.len()
        ));
    }
    for (name, hidden) in &state.lost {
        if hidden.len() != 5 {
            return fail(format!("{name} holds {}", hidden.len()));
        }
    }
    for p in state.board.placements() {
        let group = state.board.tile(&p.tile).map(|t| t.group);
        let on_tile = &state.map_chits[&p.tile];
        let warnings = on_tile
            .iter()
            .filter(|c| data.chits.warning.iter().any(|w| w.name == c.name))
            .count();
        let expected = match group {
            Some(TileGroup::Mountain | TileGroup::Cave) => 2,
            _ => 1,
        };
        if warnings != 1 || on_tile.len() != expected {
            return fail(format!("tile {} holds {on_tile:?}", p.tile));
        }
    }
    // Sites hold what §3.1 gives them.
    for b in &data.setup_card.site_box {
        let pile = state.holdings.get(&b.site).cloned().unwrap_or_default();
        let size = |size| {
            pile.iter()
                .filter(|i| i.kind == ItemKind::Treasure)
                .filter(|i| {
                    data.treasures
                        .iter()
                        .any(|t| t.name == i.name && t.size == size)
                })
                .count()
        };
        let spells = pile.iter().filter(|i| i.kind == ItemKind::Spell).count();
        if size(TreasureSize::Large) != usize::from(b.large)
            || size(TreasureSize::Small) != usize::from(b.small)
            || spells != b.spells.len()
        {
            return fail(format!("site {} holds {pile:?}", b.site));
        }
    }
    // The four valley dwellings on the map, campfires not yet.
    let placed: Vec<Dwelling> = state.dwellings.keys().copied().collect();
    if placed
        != [
            Dwelling::Inn,
            Dwelling::House,
            Dwelling::Chapel,
            Dwelling::GuardHouse,
        ]
    {
        return fail(format!("dwellings {placed:?}"));
    }
    if state.visitor_boxes.len() != 6 {
        return fail(format!(
            "{} visitor boxes filled",
            state.visitor_boxes.len()
        ));
    }
    Ok(())
}

#[test]
fn two_hundred_seeds_give_valid_setups() {
    for seed in 0..200 {
        if let Err(problem) = check(&game(seed)) {
            panic!("seed {seed}: {problem}");
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes_and_others_differ() {
    let hash = |seed| GameState::from_typed(game(seed)).hash();
    assert_eq!(hash(7), hash(7));
    assert_ne!(hash(7), hash(8));
}

#[test]
fn a_state_round_trips_through_json() {
    let state = game(3);
    let json = serde_json::to_string(&state).unwrap();
    let back: MrState = serde_json::from_str(&json).unwrap();
    assert_eq!(back, state);
}

#[test]
fn denizens_start_in_their_places() {
    let state = game(11);
    let at = |id: &str| state.denizens[id].at.clone();
    assert_eq!(
        at("T Flying Dragon"),
        Whereabouts::Guarding {
            site: "Hoard".into()
        }
    );
    assert_eq!(
        at("Giant 2"),
        Whereabouts::SetupBox {
            name: "Giant 2".into()
        }
    );
    assert_eq!(
        at("Bashkar 3"),
        Whereabouts::SetupBox {
            name: "Bashkars".into()
        }
    );
    let chapel = state.dwellings[&Dwelling::Chapel].clone();
    assert_eq!(at("Order HQ"), Whereabouts::Clearing { clearing: chapel });
    let ghost_tile = state.tile_of_chit("Bones V").unwrap();
    assert_eq!(
        at("Ghost 1"),
        Whereabouts::Clearing {
            clearing: ClearingId::new(ghost_tile, 5)
        }
    );
    let inn = state.tile_of_chit("Stink V").unwrap();
    assert_eq!(state.dwellings[&Dwelling::Inn], ClearingId::new(inn, 5));
}

#[test]
fn characters_start_with_their_kit() {
    let state = game(5);
    let amazon = &state.characters[0];
    assert_eq!(
        (amazon.name.as_str(), amazon.player.as_str()),
        ("Amazon", "player0")
    );
    assert_eq!(amazon.position, state.dwellings[&Dwelling::Inn]);
    assert_eq!((amazon.gold, amazon.hidden), (10, false));
    assert_eq!(amazon.weapon.as_deref(), Some("Short Sword"));
    assert_eq!(amazon.chits.len(), 12);
    assert!(
        amazon
            .chits
            .iter()
            .all(|c| c.condition == ChitCondition::Active)
    );
    let king = &state.characters[1];
    let allowed = &data()
        .characters
        .iter()
        .find(|c| c.name == "Witch King")
        .unwrap()
        .start;
    assert!(allowed.contains(&king.start));
}

#[test]
fn a_chosen_start_is_used_and_a_forbidden_one_refused() {
    let seats = seats(&["Amazon", "Witch King"]);
    let mut inputs = SetupInputs::default();
    inputs
        .starts
        .insert("Witch King".into(), StartLocation::Ghosts);
    let state = new_game(
        data(),
        &seats,
        &Rules::default(),
        &inputs,
        &mut Dice::new(1, 0),
    )
    .unwrap();
    let ghost_tile = state.tile_of_chit("Bones V").unwrap();
    assert_eq!(state.characters[1].position, ClearingId::new(ghost_tile, 5));
    inputs.starts.insert("Amazon".into(), StartLocation::Chapel);
    let err = new_game(
        data(),
        &seats,
        &Rules::default(),
        &inputs,
        &mut Dice::new(1, 0),
    )
    .unwrap_err();
    assert!(matches!(err, SetupError::BadStart { .. }), "{err}");
}

#[test]
fn bad_seats_are_refused() {
    let run = |seats: &[Seat]| {
        new_game(
            data(),
            seats,
            &Rules::default(),
            &SetupInputs::default(),
            &mut Dice::new(1, 0),
        )
    };
    let err = run(&seats(&["Amazon", "amazon"])).unwrap_err();
    assert_eq!(
        err,
        SetupError::CharacterTwice {
            name: "Amazon".into()
        }
    );
    let err = run(&seats(&["Amazone"])).unwrap_err();
    assert!(err.to_string().contains("did you mean Amazon"), "{err}");
    let nobody = [Seat {
        player: "ann".into(),
        role: None,
    }];
    assert_eq!(
        run(&nobody).unwrap_err(),
        SetupError::NoCharacter {
            player: "ann".into()
        }
    );
}

#[test]
fn a_player_built_board_is_required_by_its_rule() {
    let rules = Rules::new([PLAYER_BUILT_BOARD], crate::rules::TOGGLES).unwrap();
    let run = |rules: &Rules, inputs: &SetupInputs| {
        new_game(data(), &[], rules, inputs, &mut Dice::new(2, 0))
    };
    assert_eq!(
        run(&rules, &SetupInputs::default()).unwrap_err(),
        SetupError::MissingBoard
    );
    let random = game(2).board;
    let inputs = SetupInputs {
        board: Some(random.placements().cloned().collect()),
        ..SetupInputs::default()
    };
    assert_eq!(
        run(&Rules::default(), &inputs).unwrap_err(),
        SetupError::UnexpectedBoard
    );
    let state = run(&rules, &inputs).unwrap();
    assert_eq!(state.board, random);
    let short = SetupInputs {
        board: Some(random.placements().take(19).cloned().collect()),
        ..SetupInputs::default()
    };
    assert!(matches!(
        run(&rules, &short).unwrap_err(),
        SetupError::Board(_)
    ));
}

#[test]
fn players_may_place_the_visitor_chits() {
    let mut chosen: BTreeMap<String, String> = [
        ("Company", "Raid"),
        ("Woodfolk", "Scholar"),
        ("Patrol", "Food and Ale"),
        ("Bashkars", "War"),
        ("Altar Meadow", "Shaman"),
        ("Shrine Circle", "Revolt"),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    let inputs = SetupInputs {
        visitors: Some(chosen.clone()),
        ..SetupInputs::default()
    };
    let run = |inputs: &SetupInputs| {
        new_game(data(), &[], &Rules::default(), inputs, &mut Dice::new(4, 0))
    };
    assert_eq!(run(&inputs).unwrap().visitor_boxes, chosen);
    chosen.insert("Lancers".into(), "Pillage".into());
    let twice = SetupInputs {
        visitors: Some(chosen.clone()),
        ..SetupInputs::default()
    };
    assert!(
        run(&twice)
            .unwrap_err()
            .to_string()
            .contains("placed twice")
    );
    chosen.remove("Lancers");
    chosen.remove("Company");
    let missing = SetupInputs {
        visitors: Some(chosen),
        ..SetupInputs::default()
    };
    assert!(
        run(&missing)
            .unwrap_err()
            .to_string()
            .contains("Crone/Raid is not placed")
    );
}

/// BIMR3 "Selecting Characters": the Amazon's weapon and armour come from
/// the group her player named; its stock gives them up, another's does not.
#[test]
fn starting_equipment_leaves_the_named_groups_stock() {
    let seats = [Seat {
        player: "Ann".into(),
        role: Some("Amazon".into()),
    }];
    let amazon = data()
        .characters
        .iter()
        .find(|c| c.name == "Amazon")
        .unwrap();
    let group = by_mail::supplying_groups(amazon, data())[0];
    let holders: Vec<String> = data()
        .natives
        .iter()
        .find(|g| g.name == group)
        .unwrap()
        .stock_holders()
        .iter()
        .map(|h| h.to_string())
        .collect();
    let stock = |state: &MrState| -> usize {
        holders
            .iter()
            .map(|h| state.holdings.get(h).map_or(0, Vec::len))
            .sum()
    };
    let set_up = |inputs: &SetupInputs| {
        new_game(
            data(),
            &seats,
            &Rules::default(),
            inputs,
            &mut Dice::new(2, 0),
        )
    };
    let plain = set_up(&SetupInputs::default()).unwrap();
    let inputs = SetupInputs {
        equipment: [("Amazon".to_string(), group.to_string())].into(),
        ..SetupInputs::default()
    };
    let equipped = set_up(&inputs).unwrap();
    assert!(
        stock(&equipped) < stock(&plain),
        "{group} gives up some of her kit"
    );
    assert_eq!(equipped.characters[0].weapon, plain.characters[0].weapon);
    let unknown = SetupInputs {
        equipment: [("Amazon".to_string(), "Hobbits".to_string())].into(),
        ..SetupInputs::default()
    };
    let err = set_up(&unknown).unwrap_err();
    assert!(matches!(err, SetupError::Equipment { .. }), "{err}");
}

/// Solitaire Play is one player's game (3.1 10.E.1.1): two seats are
/// refused with the reason; over many seeds a lone player waits at the
/// map's edge, free to enter by any road from it whose clearing reaches
/// the Borderland (10.E.1.6),
/// and no Valley dwelling is out at setup (10.E.1.5).
#[test]
fn a_solitaire_setup_seats_one_player_on_a_road_from_the_edge_3_1_10_e_1() {
    let rules = Rules::new([SOLITAIRE], crate::rules::TOGGLES).unwrap();
    let err = new_game(
        data(),
        &seats(&["Amazon", "Dwarf"]),
        &rules,
        &SetupInputs::default(),
        &mut Dice::new(1, 0),
    )
    .unwrap_err();
    assert_eq!(err, SetupError::SolitaireSeats { count: 2 });
    assert!(err.to_string().contains("exactly one player"), "{err}");
    for seed in 0..40 {
        let state = new_game(
            data(),
            &seats(&["Amazon"]),
            &rules,
            &SetupInputs::default(),
            &mut Dice::new(seed, 0),
        )
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(state.solitaire_entry.is_none(), "seed {seed}");
        let road = state.characters[0].roadway.clone().expect("at the edge");
        assert!(road.is_from_edge(), "seed {seed}");
        for entry in &road.edge_entries {
            assert!(
                state
                    .board
                    .dead_ends()
                    .iter()
                    .any(|end| &end.from == entry && !end.blocked_by_tile),
                "seed {seed}: {entry} has no road to the map's edge"
            );
            assert!(
                state
                    .board
                    .reaches_tile(entry, crate::board::layout::FIRST_TILE, |kind| matches!(
                        kind,
                        crate::data::tiles::PathKind::Normal | crate::data::tiles::PathKind::Cave
                    )),
                "seed {seed}"
            );
        }
        assert!(
            state.dwellings.is_empty(),
            "seed {seed}: a dwelling is out at setup"
        );
    }
}
