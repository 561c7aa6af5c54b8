//! A killed character comes back ("A character killed restarts at
//! the Inn the next day, as in BIMR play"; BIMR3 rules is the BIMR3 rules
//! page): at Birdsong after his death he starts again at the Inn.
//!
//! Ruling (BIMR3 rules says nothing of what he keeps): he comes back as a new
//! character of the same kind, as at setup — the character's starting gold,
//! weapon and armour, every chit fresh, no fame or notoriety, unhidden, no
//! hirelings (they are free again where they stand), nothing learned
//! (routes, sites, chits seen are forgotten; the tiles he visits start with
//! the Inn's). Whatever he still carried lies in the abandoned pile of the
//! clearing where he fell, for anyone to loot.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use realmgm_core::game::Observers;

use super::Day;
use super::events::Happening;
use crate::board::ClearingId;
use crate::data::characters::StartLocation;
use crate::data::terms::Dwelling;
use crate::orders::DayOrders;
use crate::state::{CharacterState, Discoveries, Item, abandoned_pile};

/// A dead character coming back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum RestartEvent {
    /// He starts again at the Inn; what he carried was left where he fell.
    Restarted {
        character: String,
        fell_in: ClearingId,
        at: ClearingId,
        left_behind: Vec<Item>,
        /// The character he comes back as, when his player named another.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        became: Option<String>,
    },
    /// He cannot come back: there is no Inn on the map.
    NoInn { character: String },
    /// A joining character waits: there is no Inn on the map to enter at.
    CannotEnter { character: String },
    /// A player who joined the running game: his character enters at the
    /// Inn, fresh as at setup.
    Arrived {
        character: String,
        player: String,
        at: ClearingId,
    },
}

impl RestartEvent {
    /// The GM log line.
    pub fn log_line(&self) -> String {
        match self {
            RestartEvent::Restarted {
                character,
                fell_in,
                at,
                left_behind,
                became,
            } => {
                let left = if left_behind.is_empty() {
                    String::new()
                } else {
                    let names: Vec<&str> = left_behind.iter().map(|i| i.name.as_str()).collect();
                    format!(" {} left in {fell_in}.", names.join(", "))
                };
                match became {
                    Some(new) => format!(
                        "The {character}, killed, comes back as the {new} at the Inn ({at}).{left}"
                    ),
                    None => {
                        format!("The {character}, killed, starts again at the Inn ({at}).{left}")
                    }
                }
            }
            RestartEvent::NoInn { character } => {
                format!("The {character} is dead and cannot restart: the Inn is not on the map.")
            }
            RestartEvent::CannotEnter { character } => {
                format!("The {character} cannot enter the Realm: the Inn is not on the map.")
            }
            RestartEvent::Arrived {
                character,
                player,
                at,
            } => format!("The {character} ({player}) enters the Realm at the Inn ({at})."),
        }
    }
}

/// Bring every dead character back at the Inn (called first at Birdsong),
/// as the character his player's `Character:` line names when nobody plays
/// it (play summary III.B.9.d: a killed character's player may return with
/// another character), else as his own kind.
pub fn restart_the_dead(day: &mut Day<'_>, orders: &BTreeMap<String, DayOrders>) {
    for who in 0..day.state.characters.len() {
        if day.state.characters[who].dead {
            let wanted = orders
                .get(&day.state.characters[who].player)
                .and_then(|o| o.character.as_deref());
            let became = wanted.and_then(|w| unplayed_character(day, w));
            restart(day, who, became);
        }
    }
}

/// The character `wanted` names, when it is in the game data and nobody
/// plays it.
fn unplayed_character(day: &Day<'_>, wanted: &str) -> Option<String> {
    let names = day.data.characters.iter().map(|c| c.name.as_str());
    let name = realmgm_core::suggest::find(wanted, names)?;
    let played = day.state.characters_in_play().any(|c| c == name);
    (!played).then(|| name.to_string())
}

/// Let in the players who joined since the last day: each character
/// enters at the Inn as at setup (his starting gold, weapon, armour and
/// chits; spells recorded by the dice), unhidden, knowing only the Inn's
/// tile. Ruling: BIMR players who joined late started at the Inn, as a
/// killed character does. With no Inn on the map he waits, and the GM is
/// told through the event.
pub fn admit_arrivals(day: &mut Day<'_>) {
    let arrivals = std::mem::take(&mut day.state.arrivals);
    for arrival in arrivals {
        let Some(inn) = day.state.dwellings.get(&Dwelling::Inn).cloned() else {
            day.emit(
                Observers::Gm,
                Happening::Restart(RestartEvent::CannotEnter {
                    character: arrival.character.clone(),
                }),
            );
            day.state.arrivals.push(arrival);
            continue;
        };
        let Some(kind) = day
            .data
            .characters
            .iter()
            .find(|c| c.name == arrival.character)
        else {
            // `Seats::admit` checked the name against the same data.
            unreachable!("an admitted character is in the game data");
        };
        let character = fresh_at_inn(day, kind, arrival.player.clone(), &inn, &arrival.spells);
        day.state.characters.push(character);
        day.emit(
            Observers::Everyone,
            Happening::Restart(RestartEvent::Arrived {
                character: arrival.character,
                player: arrival.player,
                at: inn,
            }),
        );
    }
}

fn restart(day: &mut Day<'_>, who: usize, became: Option<String>) {
    let name = day.state.characters[who].name.clone();
    let Some(inn) = day.state.dwellings.get(&Dwelling::Inn).cloned() else {
        day.emit(
            Observers::Everyone,
            Happening::Restart(RestartEvent::NoInn { character: name }),
        );
        return;
    };
    let kind_name = became.clone().unwrap_or_else(|| name.clone());
    let Some(kind) = day.data.characters.iter().find(|c| c.name == kind_name) else {
        return;
    };
    let fell_in = day.state.characters[who].position.clone();
    day.state.release_hired_leaders(who);
    let left_behind: Vec<Item> = day.state.characters[who]
        .belongings
        .drain(..)
        .map(|b| b.item)
        .collect();
    if became.is_some() {
        // Another character: fresh as at setup, with no requirements yet.
        let player = day.state.characters[who].player.clone();
        day.state.characters[who] = fresh_at_inn(day, kind, player, &inn, &[]);
        day.state.victory_requirements.remove(&name);
    } else {
        let character = &mut day.state.characters[who];
        character.dead = false;
        character.position = inn.clone();
        character.roadway = None;
        character.gold = kind.gold;
        character.weapon = kind.weapon.clone();
        character.armor = kind.armor.clone();
        // His chosen abilities and form stay with him (`abilities::shape_chits`).
        crate::abilities::shape_chits(day.data, day.rules, character);
        // He keeps the spells he knows; curses die with him.
        character.magic.curses.clear();
        character.magic.next_fight_tremendous = false;
        character.hidden = false;
        character.fame = 0;
        character.notoriety = 0;
        character.points_kept = Default::default();
        character.discoveries = Discoveries {
            tiles_visited: [inn.tile.clone()].into(),
            ..Discoveries::default()
        };
        character.found_hidden_enemies = false;
        character.hirelings.clear();
        character.weapon_alerted = false;
    }
    // His familiar, if he has one, starts again with him.
    day.state.familiars.remove(&name);
    drop_where_he_fell(day, &fell_in, &left_behind);
    day.emit(
        Observers::Everyone,
        Happening::Restart(RestartEvent::Restarted {
            character: name,
            fell_in,
            at: inn,
            left_behind,
            became,
        }),
    );
}

/// A character of `kind` for `player` entering at the Inn as at setup: his
/// starting gold, weapon, armour and chits, and the `spells` his player
/// chose, or (none chosen) spells recorded by the dice of the day he enters.
pub(super) fn fresh_at_inn(
    day: &mut Day<'_>,
    kind: &crate::data::characters::Character,
    player: String,
    inn: &ClearingId,
    spells: &[String],
) -> CharacterState {
    let mut entering = [CharacterState::entering(
        kind,
        player,
        StartLocation::Inn,
        inn.clone(),
    )];
    let chosen = if spells.is_empty() {
        BTreeMap::new()
    } else {
        BTreeMap::from([(kind.name.clone(), spells.to_vec())])
    };
    if let Err(e) =
        crate::magic::spellbook::record_at_setup(day.data, &mut entering, &chosen, day.dice)
    {
        // Chosen spells were checked as the `starting` ruling was made.
        unreachable!("recording spells of a fresh character cannot fail: {e}");
    }
    let [mut character] = entering;
    crate::setup::choose_form(day.data, day.rules, &mut character, None, day.dice);
    character
}

/// What a dead character carried lies in the clearing where he fell.
pub(super) fn drop_where_he_fell(day: &mut Day<'_>, fell_in: &ClearingId, left_behind: &[Item]) {
    if !left_behind.is_empty() {
        day.state
            .holdings
            .entry(abandoned_pile(fell_in))
            .or_default()
            .extend(left_behind.iter().cloned());
    }
}
