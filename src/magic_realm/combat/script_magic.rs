//! The game state behind a battle file's spells (issue 4 §4, issue 5 §3):
//! a game set up with the file's characters, all standing in the file's
//! clearing when the board has it (`LD2`), else in the first character's
//! starting clearing, with the file's denizens, knowing the
//! spells the file names and carrying its artifacts active, on the file's
//! game day (which decides the colour day).

use std::collections::BTreeMap;

use crate::dice::Dice;
use crate::game::{Rules, Seat};
use crate::magic_realm::board::ClearingId;
use crate::magic_realm::data::GameData;
use crate::magic_realm::setup::{SetupInputs, new_game};
use crate::magic_realm::state::{Belonging, Item, ItemKind, MrState, Whereabouts};

use super::battle::Battle;
use super::casting::CombatMagic;
use super::script::BattleFile;

/// The magic of a battle file; `None` when it sets no `day` and names no
/// spells or artifacts (its characters then cannot cast).
///
/// # Errors
/// A setup that fails, a denizen the game does not have.
pub fn magic_for(
    data: &GameData,
    file: &BattleFile,
    battle: &Battle,
    rules: &Rules,
) -> Result<Option<CombatMagic>, String> {
    let wants = file.day.is_some()
        || file
            .character
            .iter()
            .any(|c| c.spells.is_some() || !c.artifacts.is_empty());
    if !wants {
        return Ok(None);
    }
    let seats: Vec<Seat> = file
        .character
        .iter()
        .enumerate()
        .map(|(i, c)| Seat {
            player: format!("P{}", i + 1),
            character: Some(c.name.clone()),
        })
        .collect();
    let mut state = new_game(
        data,
        &seats,
        rules,
        &SetupInputs::default(),
        &mut Dice::new(file.seed, 0),
    )
    .map_err(|e| format!("the game behind the spells cannot be set up: {e}"))?;
    let day = file.day.unwrap_or(1);
    state.day = day;
    let Some(start) = state.characters.first().map(|c| c.position.clone()) else {
        return Ok(None);
    };
    let here = board_clearing(&state, &file.clearing).unwrap_or(start);
    let mut fighter_seats = BTreeMap::new();
    for (seat, entry) in file.character.iter().enumerate() {
        let c = &mut state.characters[seat];
        c.position = here.clone();
        if let Some(spells) = &entry.spells {
            c.magic.spells.clone_from(spells);
        }
        c.belongings
            .extend(entry.artifacts.iter().map(|a| Belonging {
                item: Item {
                    kind: ItemKind::Treasure,
                    name: a.clone(),
                },
                active: true,
            }));
        if let Some(f) = battle.find(&entry.name) {
            fighter_seats.insert(f, seat);
        }
    }
    for entry in &file.denizen {
        let d = state.denizens.get_mut(&entry.id).ok_or_else(|| {
            format!(
                "the game has no counter {} for the spells to reach",
                entry.id
            )
        })?;
        d.at = Whereabouts::Clearing {
            clearing: here.clone(),
        };
    }
    for (holder, spells) in &file.awakened {
        state
            .magic
            .awakened
            .entry(holder.clone())
            .or_default()
            .extend(spells.iter().cloned());
    }
    Ok(Some(CombatMagic::new(
        state,
        rules.clone(),
        day,
        fighter_seats,
    )))
}

/// The clearing a battle file names (`LD2`), when the board has it.
fn board_clearing(state: &MrState, label: &str) -> Option<ClearingId> {
    let digits = label.trim_start_matches(|c: char| !c.is_ascii_digit());
    let tile = &label[..label.len() - digits.len()];
    let id = ClearingId::new(tile, digits.parse().ok()?);
    state.board.clearing(&id).map(|_| id)
}
