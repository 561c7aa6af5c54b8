//! The game's invariants, checked after every simulated day.
//! A violation stops the month with its seed and day, to be replayed as a
//! regression test.
//!
//! Checked:
//! - every item (treasure, spell, horse, weapon or armour copy) is in one
//!   place only: a holder's pile, a character's belongings, a pack horse's
//!   load, a cache or what a hired leader carries;
//! - no item comes from nowhere: a day never ends with more items than it
//!   began with (a native's horse coming back at regeneration aside), nor with more of the characters' own weapons and armour
//!   (unnumbered; two characters may each bring a Shield) unless a
//!   character started again with fresh gear;
//! - every native a character has hired is a counter of the game, alive;
//! - a dead character takes no phase (until he starts again at Birdsong),
//!   and a character dead at the end of a day either was dead at its start
//!   or an event of the day tells of his death;
//! - no event is shown to a player who is not in the game;
//! - a character's gold, fame and notoriety change only through events
//!   that tell him so ([`super::purse`]);
//! - no player reads of a treasure that lies face down in a site
//!   ([`super::secrets`]).

use std::collections::{BTreeMap, BTreeSet};

use crate::game::Observers;
use crate::magic_realm::combat::log::CombatLine;
use crate::magic_realm::data::GameData;
use crate::magic_realm::day::events::{
    BirdsongEvent, CombatEvent, DayEvent, Happening, PhaseEvent,
};
use crate::magic_realm::day::restart::RestartEvent;
use crate::magic_realm::state::{Item, ItemKind, MrState, Whereabouts};

/// An invariant the day broke, in words.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum InvariantBroken {
    #[error("the day ended with {now} counted items where it began with {was}: new {new}")]
    MoreItems {
        now: usize,
        was: usize,
        /// The items that came from nowhere, each with where it is.
        new: String,
    },
    #[error("there are {count} of the characters' own {name} where there were {had}")]
    MoreOwnGear {
        name: String,
        count: usize,
        had: usize,
    },
    #[error("the {character} has hired {native}, who is not in the game")]
    HiredUnknown { character: String, native: String },
    #[error("the {character} has hired {native}, who is dead")]
    HiredDead { character: String, native: String },
    #[error("the {character} is dead and took a phase")]
    DeadTookAPhase { character: String },
    #[error("an event is shown to {reader}, who plays no character")]
    ShownToAStranger { reader: String },
    #[error("the {character} is dead, and no event of the day tells of his death")]
    UntoldDeath { character: String },
    #[error("{item} is both {one} and {other}")]
    InTwoPlaces {
        item: String,
        one: String,
        other: String,
    },
    #[error(transparent)]
    UntoldChange(#[from] super::purse::UntoldChange),
    #[error(transparent)]
    SecretRead(#[from] super::secrets::SecretRead),
}

/// Check the day that turned `before` into `after` with `events`.
///
/// # Errors
/// The first invariant broken, in words.
pub fn check(
    data: &GameData,
    before: &MrState,
    after: &MrState,
    events: &[DayEvent],
) -> Result<(), InvariantBroken> {
    let (places, gear) = item_places(after)?;
    let (places_before, gear_before) = item_places(before)?;
    // Seventh-day regeneration brings natives back with their horses,
    // killed ones too (3.1 6.3.4a): only those horses may come back.
    let regenerated = events.iter().any(|e| {
        matches!(
            e.happening,
            Happening::Birdsong(BirdsongEvent::Regenerated { .. })
        )
    });
    let new: Vec<String> = places
        .iter()
        .filter(|(item, _)| !places_before.contains_key(*item))
        .filter(|(item, _)| !(regenerated && item.kind == ItemKind::Horse))
        .map(|(item, place)| format!("{} ({place})", item.name))
        .collect();
    if !new.is_empty() && places.len() > places_before.len() {
        return Err(InvariantBroken::MoreItems {
            now: places.len(),
            was: places_before.len(),
            new: new.join(", "),
        });
    }
    // A character who starts again (or arrives) brings fresh gear of his
    // own, as a new character would; his old gear stays where he fell.
    let fresh_gear = events.iter().any(|e| {
        matches!(
            e.happening,
            Happening::Restart(
                RestartEvent::Restarted { .. }
                    | RestartEvent::RestartedAtEdge { .. }
                    | RestartEvent::Arrived { .. }
            )
        )
    });
    for (name, count) in gear.iter().filter(|_| !fresh_gear) {
        let had = gear_before.get(name).copied().unwrap_or(0);
        if *count > had {
            return Err(InvariantBroken::MoreOwnGear {
                name: name.clone(),
                count: *count,
                had,
            });
        }
    }
    for c in &after.characters {
        for hired in &c.hirelings {
            match after.denizens.get(&hired.native) {
                None => {
                    return Err(InvariantBroken::HiredUnknown {
                        character: c.name.clone(),
                        native: hired.native.clone(),
                    });
                }
                Some(counter) if counter.at == Whereabouts::Dead => {
                    return Err(InvariantBroken::HiredDead {
                        character: c.name.clone(),
                        native: hired.native.clone(),
                    });
                }
                Some(_) => {}
            }
        }
    }
    // Who is dead, as the day goes: those dead at its start until they
    // start again at Birdsong, and whoever dies in it.
    let mut dead: BTreeSet<String> = before
        .characters
        .iter()
        .filter(|c| c.dead)
        .map(|c| c.name.clone())
        .collect();
    let players: BTreeSet<&str> = before
        .characters
        .iter()
        .chain(&after.characters)
        .map(|c| c.player.as_str())
        .collect();
    for event in events {
        match &event.happening {
            Happening::Restart(
                RestartEvent::Restarted { character, .. }
                | RestartEvent::RestartedAtEdge { character, .. },
            ) => {
                dead.remove(character);
            }
            Happening::Combat(CombatEvent::Line {
                line:
                    CombatLine::Died { character, .. }
                    | CombatLine::Killed {
                        victim: character, ..
                    },
                ..
            }) => {
                dead.insert(character.clone());
            }
            Happening::Phase(PhaseEvent::PhaseDone { character, .. })
                if dead.contains(character) =>
            {
                return Err(InvariantBroken::DeadTookAPhase {
                    character: character.clone(),
                });
            }
            _ => {}
        }
        if let Observers::Players(readers) = &event.observers
            && let Some(stranger) = readers.iter().find(|r| !players.contains(r.as_str()))
        {
            return Err(InvariantBroken::ShownToAStranger {
                reader: stranger.clone(),
            });
        }
    }
    let texts: Vec<String> = events
        .iter()
        .map(|e| serde_json::to_string(&e.happening).unwrap_or_default())
        .collect();
    // Every death is told: in combat, or by magic in Daylight (a site's
    // terror) as a spell effect.
    for c in after.characters.iter().filter(|c| c.dead) {
        let by_magic = format!(
            r#""effect":"killed","target":{{"aim":"character","name":"{}"}}"#,
            c.name
        );
        if !dead.contains(&c.name) && !texts.iter().any(|t| t.contains(&by_magic)) {
            return Err(InvariantBroken::UntoldDeath {
                character: c.name.clone(),
            });
        }
    }
    super::purse::check(before, after, events, &texts)?;
    super::secrets::check(data, after, events, &texts)?;
    Ok(())
}

/// Where each numbered item is, and how many of each character's own
/// weapon and armour there are.
type Inventory<'a> = (BTreeMap<&'a Item, String>, BTreeMap<String, usize>);

/// Every numbered item of `state` (treasures, spells, horses, the copies of
/// weapons and armour) with the place it is in, and how many of each
/// character's own weapons and armour (unnumbered: two characters may
/// each bring a Shield) there are; an error when a numbered item is in two
/// places.
fn item_places(state: &MrState) -> Result<Inventory<'_>, InvariantBroken> {
    let mut all: Vec<(&Item, String)> = Vec::new();
    for (holder, items) in &state.holdings {
        all.extend(items.iter().map(|i| (i, format!("held by {holder}"))));
    }
    let mut gear: BTreeMap<String, usize> = BTreeMap::new();
    for c in &state.characters {
        all.extend(
            c.belongings
                .iter()
                .map(|b| (&b.item, format!("the {}'s", c.name))),
        );
        for (horse, load) in &c.pack {
            all.extend(
                load.iter()
                    .map(|i| (i, format!("on the {}'s {horse}", c.name))),
            );
        }
        for own in c.weapon.iter().chain(&c.armor) {
            *gear.entry(own.clone()).or_default() += 1;
        }
    }
    for cache in &state.caches {
        all.extend(
            cache
                .items
                .iter()
                .map(|i| (i, format!("in the {}'s cache", cache.owner))),
        );
    }
    for (leader, record) in &state.leaders {
        all.extend(
            record
                .carries
                .iter()
                .map(|i| (i, format!("carried by {leader}"))),
        );
    }
    let mut places: BTreeMap<&Item, String> = BTreeMap::new();
    for (item, place) in all {
        let own_gear = matches!(item.kind, ItemKind::Weapon | ItemKind::Armor)
            && !item.name.ends_with(|c: char| c.is_ascii_digit());
        if own_gear {
            *gear.entry(item.name.clone()).or_default() += 1;
        } else if let Some(other) = places.insert(item, place.clone()) {
            return Err(InvariantBroken::InTwoPlaces {
                item: item.name.clone(),
                one: other,
                other: place,
            });
        }
    }
    Ok((places, gear))
}
