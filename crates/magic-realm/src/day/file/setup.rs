//! The position a day file sets: the seed's new game (board, chits,
//! denizens, treasures, characters at their starts), then each field the
//! file names put in place of the setup's.

use realmgm_core::dice::Dice;
use realmgm_core::embedded::DataError;
use realmgm_core::game::{Rules, Seat};

use super::{CharacterEntry, DayFile, DenizenEntry};
use crate::board::ClearingId;
use crate::combat::script::item_named;
use crate::combat::tactics::same_chit;
use crate::data::GameData;
use crate::setup::{SetupInputs, new_game};
use crate::state::{
    Belonging, CharacterState, ChitCondition, Item, ItemKind, MrState, Whereabouts,
};

/// The state at the end of the day before the file's day.
pub(super) fn position(
    data: &GameData,
    rules: &Rules,
    file: &str,
    parsed: &DayFile,
) -> Result<MrState, DataError> {
    if parsed.character.is_empty() {
        return Err(DataError::entry(
            file,
            "character",
            "",
            "a day needs at least one [[character]] entry (name = \"Amazon\")",
        ));
    }
    let seats: Vec<Seat> = parsed
        .character
        .iter()
        .enumerate()
        .map(|(i, c)| Seat {
            player: c.player.clone().unwrap_or_else(|| format!("P{}", i + 1)),
            role: Some(c.name.clone()),
        })
        .collect();
    let mut state = new_game(
        data,
        &seats,
        rules,
        &SetupInputs::default(),
        &mut Dice::new(parsed.seed, 0),
    )
    .map_err(|e| DataError::entry(file, "character", "name", e.to_string()))?;
    if parsed.day == 0 || parsed.day > state.last_day {
        return Err(DataError::entry(
            file,
            "day",
            "",
            format!(
                "day {} is not a day of the game; give a day from 1 to {}",
                parsed.day, state.last_day
            ),
        ));
    }
    state.day = parsed.day - 1;
    if parsed.clear_denizens {
        state.clear_denizens_from_map();
    }
    for (entry, character) in parsed.character.iter().zip(state.characters.iter_mut()) {
        let what = format!("character \"{}\"", entry.name);
        let fail = |field: &str, message: String| DataError::entry(file, &what, field, message);
        if let Some(at) = &entry.at {
            character.position = clearing(data, &state.board, at).map_err(|m| fail("at", m))?;
        }
        character_fields(data, entry, character, &fail)?;
    }
    for entry in &parsed.denizen {
        denizen(data, file, entry, &mut state)?;
    }
    Ok(state)
}

/// The clearing a file names: a tile's code or name and the clearing's
/// number (`CV4`, `Cavern 4`), on this board.
pub(super) fn clearing(
    data: &GameData,
    board: &crate::board::Board,
    text: &str,
) -> Result<ClearingId, String> {
    let text = text.trim();
    let digits = text.chars().rev().take_while(char::is_ascii_digit).count();
    let (tile_text, number) = text.split_at(text.len() - digits);
    let tile = data.tiles.resolve(tile_text.trim()).ok_or_else(|| {
        format!(
            "no tile is called \"{}\"; write a clearing as CV4",
            tile_text.trim()
        )
    })?;
    let id = ClearingId::new(&tile.code, number.parse().unwrap_or(0));
    board
        .clearing(&id)
        .map(|_| id.clone())
        .ok_or_else(|| format!("the board has no clearing {id}; write a clearing as CV4"))
}

fn character_fields(
    data: &GameData,
    entry: &CharacterEntry,
    character: &mut CharacterState,
    fail: &dyn Fn(&str, String) -> DataError,
) -> Result<(), DataError> {
    character.hidden = entry.hidden;
    character.gold = entry.gold.unwrap_or(character.gold);
    character.fame = entry.fame.unwrap_or(character.fame);
    character.notoriety = entry.notoriety.unwrap_or(character.notoriety);
    character.weapon_alerted = entry.alerted;
    character.found_hidden_enemies = entry.found_hidden_enemies;
    match entry.weapon.as_deref() {
        Some("none") => character.weapon = None,
        Some(w) => {
            known(data, w, ItemKind::Weapon).map_err(|m| fail("weapon", m))?;
            character.weapon = Some(w.to_string());
        }
        None => {}
    }
    if let Some(armor) = &entry.armor {
        for a in armor {
            known(data, a, ItemKind::Armor).map_err(|m| fail("armor", m))?;
        }
        character.armor.clone_from(armor);
    }
    for a in &entry.damaged_armor {
        if !character.armor.contains(a) {
            return Err(fail(
                "damaged_armor",
                format!("{a} is not armour he wears; list it under armor too"),
            ));
        }
    }
    character.damaged_armor.clone_from(&entry.damaged_armor);
    if let Some(belongings) = &entry.belongings {
        character.belongings = belongings
            .iter()
            .map(|b| {
                item_named(data, &b.name)
                    .map(|item| Belonging {
                        item,
                        active: b.active,
                    })
                    .ok_or_else(|| {
                        fail(
                            "belongings",
                            format!("no weapon, armour, horse or treasure is called {}", b.name),
                        )
                    })
            })
            .collect::<Result<_, _>>()?;
    }
    if let Some(horse) = &entry.horse {
        known(data, horse, ItemKind::Horse).map_err(|m| fail("horse", m))?;
        character.belongings.push(Belonging {
            item: Item {
                kind: ItemKind::Horse,
                name: horse.clone(),
            },
            active: true,
        });
    }
    if let Some(spells) = &entry.spells {
        for s in spells {
            if !data.spells.iter().any(|x| &x.name == s) {
                return Err(fail("spells", format!("no spell is called {s}")));
            }
        }
        character.magic.spells.clone_from(spells);
    }
    chits(entry, character).map_err(|m| fail("chits", m))
}

/// Refuse a name that is no item of `kind`.
fn known(data: &GameData, name: &str, kind: ItemKind) -> Result<(), String> {
    match item_named(data, name) {
        Some(item) if item.kind == kind => Ok(()),
        _ => Err(format!("no {kind} is called {name}")),
    }
}

/// Mark the chits the entry lists, each an active one of his.
fn chits(entry: &CharacterEntry, character: &mut CharacterState) -> Result<(), String> {
    let marks: [(&Vec<String>, &str); 4] = [
        (&entry.chits.fatigued, "fatigued"),
        (&entry.chits.wounded, "wounded"),
        (&entry.chits.enchanted, "enchanted"),
        (&entry.chits.prepared, "prepared"),
    ];
    for (list, how) in marks {
        for want in list {
            let slot = character
                .chits
                .iter_mut()
                .find(|c| {
                    c.condition == ChitCondition::Active
                        && !c.enchanted
                        && !c.prepared
                        && same_chit(&c.chit, want)
                })
                .ok_or_else(|| {
                    format!(
                        "the {} has no unmarked chit {want} to make {how}; name a chit of his \
                         as printed, e.g. MOVE M4*",
                        character.name
                    )
                })?;
            match how {
                "fatigued" => slot.condition = ChitCondition::Fatigued,
                "wounded" => slot.condition = ChitCondition::Wounded,
                "enchanted" => slot.enchanted = true,
                _ => slot.prepared = true,
            }
        }
    }
    Ok(())
}

fn denizen(
    data: &GameData,
    file: &str,
    entry: &DenizenEntry,
    state: &mut MrState,
) -> Result<(), DataError> {
    let what = format!("denizen \"{}\"", entry.id);
    let fail = |field: &str, message: String| DataError::entry(file, &what, field, message);
    let at = match (&entry.at, &entry.in_box, entry.dead) {
        (Some(at), None, false) => Whereabouts::Clearing {
            clearing: clearing(data, &state.board, at).map_err(|m| fail("at", m))?,
        },
        (None, Some(name), false) => {
            let boxes = data.setup_card.monster_box.iter().map(|b| b.name.as_str());
            let groups = data.natives.iter().map(|g| g.name.as_str());
            if !boxes.chain(groups).any(|b| b == name) {
                return Err(fail(
                    "box",
                    format!(
                        "the setup card has no box {name}; name a monster box (\"H Dragon\") \
                         or a native group (\"Company\")"
                    ),
                ));
            }
            Whereabouts::SetupBox { name: name.clone() }
        }
        (None, None, true) => Whereabouts::Dead,
        _ => {
            return Err(fail(
                "at",
                "give exactly one of at = \"CV4\", box = \"NAME\" or dead = true".to_string(),
            ));
        }
    };
    let Some(counter) = state.denizens.get_mut(&entry.id) else {
        return Err(fail(
            "id",
            format!(
                "no monster or native is called {}; name a counter as the setup does, \
                 e.g. \"Giant 1\" or \"Company 3\"",
                entry.id
            ),
        ));
    };
    counter.at = at;
    if let Some(side) = entry.side {
        counter.side = side;
    }
    Ok(())
}
