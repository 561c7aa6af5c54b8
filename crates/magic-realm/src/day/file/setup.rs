//! The position a day file sets: the seed's new game (board, chits,
//! denizens, treasures, characters at their starts), then each field the
//! file names put in place of the setup's.

use realmgm_core::dice::Dice;
use realmgm_core::embedded::DataError;
use realmgm_core::game::{Rules, Seat};

use super::{CharacterEntry, DayFile, DenizenEntry, DiscoveriesEntry};
use crate::board::ClearingId;
use crate::combat::script::item_named;
use crate::combat::tactics::same_chit;
use crate::data::GameData;
use crate::data::chits::GoldSpecialKind;
use crate::setup::{SetupInputs, new_game};
use crate::state::{
    Belonging, CharacterState, ChitCondition, DenizenKind, Discoveries, Hireling, Item, ItemKind,
    MapChit, MrState, TakenChit, WeatherState, Whereabouts,
};
use crate::tables::magic::CURSES;

/// Why a value a day file names cannot be put in place, in the words the
/// GM reads after the file, entry and field.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(super) struct Unplaceable(String);

impl From<String> for Unplaceable {
    fn from(message: String) -> Self {
        Unplaceable(message)
    }
}

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
        &SetupInputs {
            board: parsed.tiles.clone(),
            levels: parsed
                .character
                .iter()
                .filter_map(|c| Some((c.name.clone(), c.level?)))
                .collect(),
            ..SetupInputs::default()
        },
        &mut Dice::new(parsed.seed, 0),
    )
    .map_err(|e| DataError::entry(file, "setup", "", e.to_string()))?;
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
            character.position = clearing(data, &state.board, at).map_err(|m| fail("at", m.0))?;
            // Set in a clearing, he is on the map (a solitaire character
            // starts on the road from its edge).
            character.roadway = None;
        }
        character_fields(data, entry, character, &fail)?;
        if let Some(best) = entry.best_points {
            let development = character.development.as_mut().ok_or_else(|| {
                fail(
                    "best_points",
                    "best_points is a development level's progress; give the level he started \
                     at too (level = 1)"
                        .into(),
                )
            })?;
            development.best_points = best;
        }
    }
    for entry in &parsed.denizen {
        denizen(data, file, entry, &mut state)?;
    }
    for (entry, i) in parsed.character.iter().zip(0..) {
        let what = format!("character \"{}\"", entry.name);
        let fail = |field: &str, message: String| DataError::entry(file, &what, field, message);
        hirelings(data, entry, i, &mut state).map_err(|m| fail("hirelings", m.0))?;
        if let Some(d) = &entry.discoveries {
            discoveries(data, d, i, &mut state).map_err(|m| fail("discoveries", m.0))?;
        }
        missions(data, entry, i, parsed.day, &mut state).map_err(|m| fail("missions", m.0))?;
        if let Some(v) = entry.victory {
            state.victory_requirements.insert(entry.name.clone(), v);
        }
    }
    world(data, rules, file, parsed, &mut state)?;
    Ok(state)
}

/// The natives a character has hired: each his for `days_left` more days,
/// standing with him unless the entry says where.
fn hirelings(
    data: &GameData,
    entry: &CharacterEntry,
    who: usize,
    state: &mut MrState,
) -> Result<(), Unplaceable> {
    for h in &entry.hirelings {
        let at = match &h.at {
            Some(at) => clearing(data, &state.board, at)?,
            None => state.characters[who].position.clone(),
        };
        let native = state
            .denizens
            .get_mut(&h.id)
            .filter(|d| d.kind == DenizenKind::Native)
            .ok_or_else(|| {
                format!(
                    "no native is called {}; name one as the setup does, e.g. \"Company 3\"",
                    h.id
                )
            })?;
        native.at = Whereabouts::Clearing { clearing: at };
        state.characters[who].hirelings.push(Hireling {
            native: h.id.clone(),
            days_left: h.days_left,
        });
        if h.hidden {
            state.leaders.entry(h.id.clone()).or_default().hidden = true;
        }
        for name in &h.carries {
            let item = item_named(data, name).ok_or_else(|| {
                format!(
                    "{} carries no {name}: no weapon, armour, horse or treasure is called so",
                    h.id
                )
            })?;
            state
                .leaders
                .entry(h.id.clone())
                .or_default()
                .carries
                .push(item);
        }
    }
    Ok(())
}

fn discoveries(
    data: &GameData,
    entry: &DiscoveriesEntry,
    who: usize,
    state: &mut MrState,
) -> Result<(), Unplaceable> {
    let mut routes = std::collections::BTreeSet::new();
    for r in &entry.routes {
        let (a, b) = r
            .split_once('-')
            .ok_or_else(|| format!("the route {r} is not two clearings; write it as CV4-CV5"))?;
        let (a, b) = (
            clearing(data, &state.board, a)?,
            clearing(data, &state.board, b)?,
        );
        routes.insert(Discoveries::route_key(&a, &b));
    }
    let known = &mut state.characters[who].discoveries;
    known.routes = routes;
    known.sites = entry.sites.iter().cloned().collect();
    known.chits_seen = entry.chits_seen.iter().cloned().collect();
    Ok(())
}

/// The mission and campaign chits a character holds, off the map while
/// he has them (the visitor on the chit's other side too).
fn missions(
    data: &GameData,
    entry: &CharacterEntry,
    who: usize,
    day: u32,
    state: &mut MrState,
) -> Result<(), Unplaceable> {
    for m in &entry.missions {
        let chit = data
            .chits
            .gold_special
            .iter()
            .find(|g| g.name == m.chit)
            .ok_or_else(|| {
                let known: Vec<&str> = data
                    .chits
                    .gold_special
                    .iter()
                    .map(|g| g.name.as_str())
                    .collect();
                format!(
                    "no mission or campaign chit is called {}; write one of {}",
                    m.chit,
                    known.join(", ")
                )
            })?;
        let deliver_to = match (chit.kind, &m.deliver_to) {
            (GoldSpecialKind::Campaign, Some(_)) => {
                return Err(Unplaceable(format!(
                    "{} is a campaign chit and is not delivered; remove deliver_to",
                    chit.name
                )));
            }
            (GoldSpecialKind::Mission, None) => {
                return Err(Unplaceable(format!(
                    "the mission {} needs deliver_to = {{ dwelling = \"Chapel\", reward = 8 }}",
                    chit.name
                )));
            }
            (_, d) => d.clone(),
        };
        state.visitors_on_map.remove(&chit.name);
        state.visitors_on_map.remove(&chit.other_side);
        state.characters[who].gold_specials.push(TakenChit {
            chit: chit.name.clone(),
            taken_on: m.taken_on.unwrap_or(day),
            deliver_to,
        });
    }
    Ok(())
}

/// The map chits, holdings, awakened spells and weather the file sets.
fn world(
    data: &GameData,
    rules: &Rules,
    file: &str,
    parsed: &DayFile,
    state: &mut MrState,
) -> Result<(), DataError> {
    for c in &parsed.chit {
        let what = format!("chit \"{}\"", c.name);
        let fail = |field: &str, message: String| DataError::entry(file, &what, field, message);
        let tile = data
            .tiles
            .resolve(&c.tile)
            .map(|t| t.code.clone())
            .filter(|code| state.board.clearings().iter().any(|x| &x.tile == code))
            .ok_or_else(|| fail("tile", format!("the board has no tile {}", c.tile)))?;
        let dealt = state.map_chits.values().flatten().any(|m| m.name == c.name)
            || state.lost.values().flatten().any(|m| *m == c.name);
        if !dealt {
            return Err(fail(
                "name",
                format!(
                    "no map chit {} is in this game; name one as the GM's history does, \
                     e.g. \"Howl 4\" or \"Vault\"",
                    c.name
                ),
            ));
        }
        state.move_map_chit(
            &tile,
            MapChit {
                name: c.name.clone(),
                face_up: c.face_up,
            },
        );
    }
    for (holder, names) in &parsed.holdings {
        let what = format!("holdings \"{holder}\"");
        if !state.holdings.contains_key(holder) {
            return Err(DataError::entry(
                file,
                &what,
                "",
                format!(
                    "nothing in this game holds things under the name {holder}; name a site, dwelling, native group or visitor"
                ),
            ));
        }
        let items = names
            .iter()
            .map(|n| {
                item_named(data, n)
                    .or_else(|| {
                        data.spells.iter().any(|s| &s.name == n).then(|| Item {
                            kind: ItemKind::Spell,
                            name: n.clone(),
                        })
                    })
                    .ok_or_else(|| {
                        DataError::entry(
                            file,
                            &what,
                            n.as_str(),
                            "no weapon, armour, horse, treasure or spell is called so",
                        )
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        state.holdings.insert(holder.clone(), items);
    }
    for (holder, spells) in &parsed.awakened {
        if let Some(s) = spells
            .iter()
            .find(|s| !data.spells.iter().any(|x| &x.name == *s))
        {
            return Err(DataError::entry(
                file,
                "awakened",
                holder.as_str(),
                format!("no spell is called {s}"),
            ));
        }
        state
            .magic
            .awakened
            .insert(holder.clone(), spells.iter().cloned().collect());
    }
    for entry in &parsed.in_effect {
        crate::combat::script::put_in_effect(data, state, parsed.day - 1, entry).map_err(|e| {
            DataError::entry(
                file,
                format!("in_effect \"{}\"", entry.spell),
                "",
                e.to_string(),
            )
        })?;
    }
    if let Some(w) = &parsed.weather {
        if !rules.is_on(crate::rules::SEASONS_TOGGLE) {
            return Err(DataError::entry(
                file,
                "weather",
                "",
                "weather needs the seasons_and_weather rule; add it to rules",
            ));
        }
        if !(1..=13).contains(&w.season) || !(1..=6).contains(&w.chit) {
            return Err(DataError::entry(
                file,
                "weather",
                "",
                "the season is 1 to 13 and the weather chit 1 to 6",
            ));
        }
        state.magic.season = Some(w.season);
        state.weather = Some(WeatherState {
            weather: w.weather,
            chit: w.chit,
        });
    }
    Ok(())
}

/// The clearing a file names: a tile's code or name and the clearing's
/// number (`CV4`, `Cavern 4`), on this board.
pub(super) fn clearing(
    data: &GameData,
    board: &crate::board::Board,
    text: &str,
) -> Result<ClearingId, Unplaceable> {
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
    board.clearing(&id).map(|_| id.clone()).ok_or_else(|| {
        Unplaceable(format!(
            "the board has no clearing {id}; write a clearing as CV4"
        ))
    })
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
    if entry.flown_away {
        character.flown_away = Some(character.position.clone());
    }
    match entry.weapon.as_deref() {
        Some("none") => character.weapon = None,
        Some(w) => {
            known(data, w, ItemKind::Weapon).map_err(|m| fail("weapon", m.0))?;
            character.weapon = Some(w.to_string());
        }
        None => {}
    }
    if let Some(armor) = &entry.armor {
        for a in armor {
            known(data, a, ItemKind::Armor).map_err(|m| fail("armor", m.0))?;
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
        known(data, horse, ItemKind::Horse).map_err(|m| fail("horse", m.0))?;
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
    chits(entry, character).map_err(|m| fail("chits", m.0))?;
    relationships(data, entry, character, fail)?;
    for name in &entry.curses {
        let curse = CURSES
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| {
                let known: Vec<&str> = CURSES.iter().map(|k| k.name()).collect();
                fail(
                    "curses",
                    format!(
                        "no curse is called {name}; write one of {}",
                        known.join(", ")
                    ),
                )
            })?;
        character.magic.curses.insert(curse);
    }
    Ok(())
}

/// The levels his relationships have moved for good and the boons he
/// owes, each naming a group or visitor of the game.
fn relationships(
    data: &GameData,
    entry: &CharacterEntry,
    character: &mut CharacterState,
    fail: &dyn Fn(&str, String) -> DataError,
) -> Result<(), DataError> {
    let groups = super::trading_groups(data);
    let unknown = |name: &str| {
        format!(
            "no native group or visitor is called {name}; name one as the character sheet does, \
             e.g. \"Company\" or \"Scholar\""
        )
    };
    for (group, levels) in &entry.relationships {
        if !groups.contains(&group.as_str()) {
            return Err(fail("relationships", unknown(group)));
        }
        character.relationship_shift.remove(group);
        character.shift_relationship(group, *levels);
    }
    for boon in &entry.boons_owed {
        if !groups.contains(&boon.group.as_str()) {
            return Err(fail("boons_owed", unknown(&boon.group)));
        }
    }
    character.boons_owed.clone_from(&entry.boons_owed);
    Ok(())
}

/// Refuse a name that is no item of `kind`.
fn known(data: &GameData, name: &str, kind: ItemKind) -> Result<(), Unplaceable> {
    match item_named(data, name) {
        Some(item) if item.kind == kind => Ok(()),
        _ => Err(Unplaceable(format!("no {kind} is called {name}"))),
    }
}

/// Mark the chits the entry lists, each an active one of his.
fn chits(entry: &CharacterEntry, character: &mut CharacterState) -> Result<(), Unplaceable> {
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
            clearing: clearing(data, &state.board, at).map_err(|m| fail("at", m.0))?,
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
