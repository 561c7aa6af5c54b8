//! The GM's rulings carried out first thing at Birdsong,
//! before the dead restart and late joiners enter: each is one event with
//! the GM's reason, seen by the players it concerns (the character's own
//! player, and for a move those whose characters stand where it leaves or
//! arrives; a character leaving or entering the Realm is public news).
//!
//! A ruling was checked against the state when the GM made it; if the state
//! has changed since (a rollback), a ruling that no longer fits is void, and
//! only the GM's history says so.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use realmgm_core::game::Observers;

use super::Day;
use super::events::Happening;
use super::restart::{Choices, drop_where_he_fell, fresh_at_inn};
use crate::data::realms::{Realm, printed};
use crate::data::terms::Dwelling;
use crate::state::ruling::{Discovery, GM_BOX, QueuedRuling, Record, Ruling};
use crate::state::{Belonging, ChitCondition, Item, Whereabouts};

/// A ruling carried out, or found void.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum RulingEvent {
    Carried {
        ruling: Ruling,
        why: String,
    },
    Void {
        ruling: Ruling,
        why: String,
        reason: String,
    },
}

impl RulingEvent {
    /// The report and GM log line.
    pub fn log_line(&self) -> String {
        match self {
            RulingEvent::Carried { ruling, why } => {
                format!("GM ruling: {}", with_reason(ruling, why))
            }
            RulingEvent::Void {
                ruling,
                why,
                reason,
            } => format!(
                "GM ruling not carried out ({reason}): {}",
                with_reason(ruling, why)
            ),
        }
    }
}

/// The ruling's sentence with the GM's reason inside it, before its full
/// stop: "the Amazon is killed (a fall the rules missed)."
fn with_reason(ruling: &Ruling, why: &str) -> String {
    let said = describe(ruling);
    let why = why.trim();
    if why.is_empty() {
        return said;
    }
    let said = said.strip_suffix('.').unwrap_or(&said);
    format!("{said} ({why}).")
}

/// A ruling as a sentence.
pub fn describe(ruling: &Ruling) -> String {
    match ruling {
        Ruling::Give { item, to } => format!("the {to} is given the {}.", item.name),
        Ruling::Take { item, from } => format!("the {} is taken from the {from}.", item.name),
        Ruling::Change {
            character,
            record,
            change,
        } => {
            let how = if *change < 0 { "loses" } else { "gains" };
            format!(
                "the {character} {how} {} {}.",
                change.unsigned_abs(),
                record.name()
            )
        }
        Ruling::MoveCharacter { character, to } => format!("the {character} is moved to {to}."),
        Ruling::MoveDenizen { denizen, to } => format!("the {denizen} is moved to {to}."),
        Ruling::Chit {
            character,
            chit,
            condition,
        } => {
            let state = match condition {
                ChitCondition::Active => "active",
                ChitCondition::Fatigued => "fatigued",
                ChitCondition::Wounded => "wounded",
            };
            format!("the {character}'s chit {chit} is {state}.")
        }
        Ruling::Heal { character } => format!("the {character}'s chits are all active again."),
        Ruling::Kill { character } => format!("the {character} is killed."),
        Ruling::Discover {
            character,
            discovery: Discovery::Site(site),
        } => format!("the {character} learns where the {site} lies."),
        Ruling::Discover {
            character,
            discovery: Discovery::Route(a, b),
        } => format!("the {character} learns the hidden way between {a} and {b}."),
        Ruling::Retire { character } => format!("the {character} leaves the Realm."),
        Ruling::Replace { character, with } => {
            let inn = Realm::of_name(with).mark("Inn");
            format!("the {character} leaves the Realm and the {with} enters it at the {inn}.")
        }
        Ruling::StartingInfo {
            character,
            victory,
            spells,
        } => {
            let spells = if spells.is_empty() {
                String::new()
            } else {
                format!("; spells {}", spells.join(", "))
            };
            format!(
                "the {character}'s starting info is recorded: victory requirements GT {}, SP \
                 {}, F {}, N {}, G {}{spells}.",
                victory.great_treasures,
                victory.spells,
                victory.fame,
                victory.notoriety,
                victory.gold
            )
        }
    }
}

/// Carry out every queued ruling, in the order the GM made them.
pub fn carry_out(day: &mut Day<'_>) {
    for QueuedRuling { ruling, why } in std::mem::take(&mut day.state.rulings) {
        let observers = observers(day, &ruling);
        let event = match apply(day, &ruling) {
            Ok(()) => RulingEvent::Carried { ruling, why },
            Err(reason) => RulingEvent::Void {
                ruling,
                why,
                reason: reason.to_string(),
            },
        };
        let observers = match event {
            RulingEvent::Carried { .. } => observers,
            RulingEvent::Void { .. } => Observers::Gm,
        };
        day.emit(observers, Happening::Ruling(event));
    }
}

/// Who sees a ruling, decided before it changes the board.
fn observers(day: &Day<'_>, ruling: &Ruling) -> Observers {
    let player_of = |name: &str| {
        day.state
            .characters
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.player.clone())
    };
    let mut players: BTreeSet<String> = BTreeSet::new();
    match ruling {
        Ruling::Retire { .. } | Ruling::Replace { .. } | Ruling::Kill { .. } => {
            return Observers::Everyone;
        }
        Ruling::Give { item, to } => {
            players.extend(player_of(to));
            // Whoever carried it sees it go.
            players.extend(
                day.state
                    .characters
                    .iter()
                    .filter(|c| c.belongings.iter().any(|b| &b.item == item))
                    .map(|c| c.player.clone()),
            );
        }
        Ruling::MoveCharacter { character, to } => {
            if let Some(c) = day.state.characters.iter().find(|c| &c.name == character) {
                players.extend(day.players_in(&c.position));
                players.insert(c.player.clone());
            }
            players.extend(day.players_in(to));
        }
        Ruling::MoveDenizen { denizen, to } => {
            if let Some(Whereabouts::Clearing { clearing }) =
                day.state.denizens.get(denizen).map(|d| &d.at)
            {
                players.extend(day.players_in(clearing));
            }
            players.extend(day.players_in(to));
        }
        Ruling::Take {
            from: character, ..
        }
        | Ruling::Change { character, .. }
        | Ruling::Chit { character, .. }
        | Ruling::Heal { character }
        | Ruling::Discover { character, .. } => players.extend(player_of(character)),
        // His requirements are secret from the other players.
        Ruling::StartingInfo { character, .. } => players.extend(
            day.state
                .arrivals
                .iter()
                .filter(|a| &a.character == character)
                .map(|a| a.player.clone()),
        ),
    }
    Observers::Players(players)
}

/// Why a ruling cannot be carried out: the game moved on since the GM
/// wrote it.
#[derive(Debug, thiserror::Error)]
enum RulingVoid {
    #[error("the {character} is not in the Realm")]
    NotInTheRealm { character: String },
    #[error("the {character} does not carry the {item}")]
    NotCarried { character: String, item: String },
    #[error("the {denizen} is not in the game")]
    NoSuchDenizen { denizen: String },
    #[error("the {denizen} is dead")]
    DenizenDead { denizen: String },
    #[error("the {character} has no chit {chit}")]
    NoSuchChit { character: String, chit: String },
    #[error("the {character} is dead already")]
    DeadAlready { character: String },
    #[error("the {character} is not about to enter the Realm")]
    NotArriving { character: String },
    #[error("the {character} is already in play")]
    InPlay { character: String },
    #[error("the Inn is not on the map")]
    NoInn,
    #[error("there is no character {character}")]
    NoSuchCharacter { character: String },
    #[error("nobody holds the {item} any more")]
    HeldByNobody { item: String },
}

fn apply(day: &mut Day<'_>, ruling: &Ruling) -> Result<(), RulingVoid> {
    let who_is = |day: &Day<'_>, name: &str| {
        day.state
            .characters
            .iter()
            .position(|c| c.name == name)
            .ok_or_else(|| RulingVoid::NotInTheRealm {
                character: name.to_string(),
            })
    };
    match ruling {
        Ruling::Give { item, to } => {
            let who = who_is(day, to)?;
            remove_item(day, item)?;
            day.state.characters[who].belongings.push(Belonging {
                item: item.clone(),
                active: false,
            });
        }
        Ruling::Take { item, from } => {
            let who = who_is(day, from)?;
            let belongings = &mut day.state.characters[who].belongings;
            let at = belongings
                .iter()
                .position(|b| &b.item == item)
                .ok_or_else(|| RulingVoid::NotCarried {
                    character: from.clone(),
                    item: item.name.clone(),
                })?;
            let taken = belongings.remove(at).item;
            day.state
                .holdings
                .entry(GM_BOX.to_string())
                .or_default()
                .push(taken);
        }
        Ruling::Change {
            character,
            record,
            change,
        } => {
            let who = who_is(day, character)?;
            let character = &mut day.state.characters[who];
            match record {
                Record::Gold => {
                    let gold = i32::from(character.gold).saturating_add(*change).max(0);
                    character.gold = u16::try_from(gold).unwrap_or(u16::MAX);
                }
                Record::Fame => character.fame += change,
                Record::Notoriety => character.notoriety += change,
            }
        }
        Ruling::MoveCharacter { character, to } => {
            let who = who_is(day, character)?;
            let character = &mut day.state.characters[who];
            character.position = to.clone();
            // Put in a clearing, he is off any roadway he ran onto.
            character.roadway = None;
            character.discoveries.tiles_visited.insert(to.tile.clone());
        }
        Ruling::MoveDenizen { denizen, to } => {
            let counter =
                day.state
                    .denizens
                    .get_mut(denizen)
                    .ok_or_else(|| RulingVoid::NoSuchDenizen {
                        denizen: denizen.clone(),
                    })?;
            if counter.at == Whereabouts::Dead {
                return Err(RulingVoid::DenizenDead {
                    denizen: denizen.clone(),
                });
            }
            counter.at = Whereabouts::Clearing {
                clearing: to.clone(),
            };
        }
        Ruling::Chit {
            character,
            chit,
            condition,
        } => {
            let who = who_is(day, character)?;
            let held = day.state.characters[who]
                .chits
                .iter_mut()
                .find(|c| &c.chit == chit)
                .ok_or_else(|| RulingVoid::NoSuchChit {
                    character: character.clone(),
                    chit: chit.clone(),
                })?;
            held.condition = *condition;
        }
        Ruling::Heal { character } => {
            let who = who_is(day, character)?;
            for chit in &mut day.state.characters[who].chits {
                chit.condition = ChitCondition::Active;
            }
        }
        Ruling::Discover {
            character,
            discovery,
        } => {
            let who = who_is(day, character)?;
            let known = &mut day.state.characters[who].discoveries;
            match discovery {
                Discovery::Site(site) => {
                    known.sites.insert(site.clone());
                }
                Discovery::Route(a, b) => {
                    known.learn_route(a, b);
                }
            }
        }
        Ruling::Kill { character } => {
            let who = who_is(day, character)?;
            if day.state.characters[who].dead {
                return Err(RulingVoid::DeadAlready {
                    character: character.clone(),
                });
            }
            day.state.characters[who].dead = true;
        }
        Ruling::Retire { character } => {
            let who = who_is(day, character)?;
            leave_the_realm(day, who);
            day.state.characters.remove(who);
        }
        Ruling::StartingInfo {
            character,
            victory,
            spells,
        } => {
            let arrival = day
                .state
                .arrivals
                .iter_mut()
                .find(|a| &a.character == character)
                .ok_or_else(|| RulingVoid::NotArriving {
                    character: character.clone(),
                })?;
            arrival.spells.clone_from(spells);
            day.state
                .victory_requirements
                .insert(character.clone(), *victory);
        }
        Ruling::Replace { character, with } => {
            let who = who_is(day, character)?;
            // A second game's character (`Dwarf II`) enters at that game's
            // Inn, still of that game (3.1 10.E.7.4.2).
            let realm = Realm::of_name(with);
            let name = printed(with);
            if day.state.characters_in_play().any(|c| c == name) {
                return Err(RulingVoid::InPlay { character: name });
            }
            let inn = day
                .state
                .dwellings_of(realm)
                .get(&Dwelling::Inn)
                .cloned()
                .ok_or(RulingVoid::NoInn)?;
            let kind = day
                .data
                .characters
                .iter()
                .find(|c| c.name == name)
                .ok_or_else(|| RulingVoid::NoSuchCharacter {
                    character: with.clone(),
                })?;
            leave_the_realm(day, who);
            let player = day.state.characters[who].player.clone();
            let mut fresh = fresh_at_inn(day, kind, player, &inn, &[], Choices::default());
            fresh.realm = realm;
            day.state.characters[who] = fresh;
        }
    }
    Ok(())
}

/// What a character leaving the Realm leaves behind: his belongings in
/// his clearing, his hirelings free, his familiar gone, his requirements
/// forgotten.
fn leave_the_realm(day: &mut Day<'_>, who: usize) {
    let name = day.state.characters[who].name.clone();
    let at = day.state.characters[who].position.clone();
    let left: Vec<Item> = day.state.characters[who]
        .belongings
        .drain(..)
        .map(|b| b.item)
        .collect();
    drop_where_he_fell(day, &at, &left);
    day.state.release_hired_leaders(who);
    day.state.characters[who].hirelings.clear();
    day.state.familiars.remove(&name);
    day.state.victory_requirements.remove(&name);
}

/// Take `item` from whoever holds it.
fn remove_item(day: &mut Day<'_>, item: &Item) -> Result<(), RulingVoid> {
    for character in &mut day.state.characters {
        if let Some(at) = character.belongings.iter().position(|b| &b.item == item) {
            character.belongings.remove(at);
            return Ok(());
        }
    }
    for pile in day.state.holdings.values_mut() {
        if let Some(at) = pile.iter().position(|i| i == item) {
            pile.remove(at);
            return Ok(());
        }
    }
    Err(RulingVoid::HeldByNobody {
        item: item.name.clone(),
    })
}
