//! Caching (2nd-edition advanced rule A.4; the BIMR5 rules use it): in a
//! Cache phase (`C`) a character puts belongings and gold into his cache in
//! his clearing, or takes them back, as his `Cache:` line says
//! (`Cache: Spear; 10 gold`, `Cache: take Spear; take all`).
//!
//! Rulings, as the rule is played here: a character has at
//! most one cache in a clearing; it is his record alone, so no search finds
//! it and nobody else sees him fill or empty it; only he can take from it.
//! Putting in happens before taking out, each entry on its own; an entry
//! that cannot be done is reported and the others are still done. A cache
//! outlives its owner's death but nobody can open it.

use serde::{Deserialize, Serialize};

use super::Day;
use super::PhaseOutcome;
use super::events::Happening;
use crate::orders::dealings::CacheEntry;
use crate::state::belongings::{self, BelongingRefused};
use crate::state::{Cache, Item};

/// The toggle that allows caches.
pub const CACHING: &str = "caching";

/// What a Cache phase did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum CacheEvent {
    Put {
        character: String,
        at: String,
        what: String,
    },
    Took {
        character: String,
        at: String,
        what: String,
    },
    NotDone {
        character: String,
        /// Taking out (else putting in).
        #[serde(default)]
        take: bool,
        what: String,
        reason: String,
    },
}

impl CacheEvent {
    /// The report and GM log line.
    pub fn log_line(&self) -> String {
        match self {
            CacheEvent::Put {
                character,
                at,
                what,
            } => format!("    The {character} puts {what} into a cache in {at}."),
            CacheEvent::Took {
                character,
                at,
                what,
            } => format!("    The {character} takes {what} from the cache in {at}."),
            CacheEvent::NotDone {
                character,
                take: true,
                what,
                reason,
            } => format!("    The {character} cannot take {what} from the cache: {reason}."),
            CacheEvent::NotDone {
                character,
                take: false,
                what,
                reason,
            } => format!("    The {character} cannot put {what} into a cache: {reason}."),
        }
    }
}

/// One Cache phase of character `who`.
pub fn cache_phase(day: &mut Day<'_>, who: usize, entries: &[CacheEntry]) -> PhaseOutcome {
    if !day.rules.is_on(CACHING) {
        return PhaseOutcome::Lost {
            reason: "this campaign does not use the Caching rule (add \"caching\" to its rules)"
                .into(),
        };
    }
    if entries.is_empty() {
        return PhaseOutcome::Lost {
            reason: "a Cache phase needs a 'Cache:' line naming what to put in or take out".into(),
        };
    }
    let name = day.state.characters[who].name.clone();
    let here = day.state.characters[who].position.clone();
    let mine = match day
        .state
        .caches
        .iter()
        .position(|c| c.owner == name && c.at == here)
    {
        Some(found) => found,
        None => {
            day.state.caches.push(Cache {
                owner: name.clone(),
                at: here.clone(),
                gold: 0,
                items: Vec::new(),
            });
            day.state.caches.len() - 1
        }
    };
    let observers = day.only(who);
    let at = here.to_string();
    let (puts, takes): (Vec<&CacheEntry>, Vec<&CacheEntry>) = entries.iter().partition(|e| !e.take);
    for entry in puts.into_iter().chain(takes) {
        let event = match step(day, who, mine, entry) {
            Ok(what) if entry.take => CacheEvent::Took {
                character: name.clone(),
                at: at.clone(),
                what,
            },
            Ok(what) => CacheEvent::Put {
                character: name.clone(),
                at: at.clone(),
                what,
            },
            Err(reason) => CacheEvent::NotDone {
                character: name.clone(),
                take: entry.take,
                what: entry.thing(),
                reason: reason.to_string(),
            },
        };
        day.emit(observers.clone(), Happening::Cache(event));
    }
    day.state
        .caches
        .retain(|c| c.gold > 0 || !c.items.is_empty());
    PhaseOutcome::Done
}

/// Why an entry of a cache line is not done, in the player's words.
#[derive(Debug, thiserror::Error)]
enum EntryRefused {
    /// `holder` words whose purse falls short: "he has", "the cache holds".
    #[error("{holder} only {has} gold")]
    ShortOfGold { holder: &'static str, has: u16 },
    #[error(transparent)]
    NotCarried(#[from] BelongingRefused),
    #[error("there is no cache of his here, or it is empty")]
    NoCache,
    #[error("the cache here holds no {what}")]
    NotInCache { what: String },
}

/// Move `gold` from one purse to the other; `holder` words the shortfall.
fn move_gold(
    gold: u32,
    from: &mut u16,
    to: &mut u16,
    holder: &'static str,
) -> Result<String, EntryRefused> {
    let amount = u16::try_from(gold).unwrap_or(u16::MAX);
    if *from < amount {
        return Err(EntryRefused::ShortOfGold { holder, has: *from });
    }
    *from -= amount;
    *to = to.saturating_add(amount);
    Ok(format!("{gold} gold"))
}

/// Do one entry; what moved, in words, or why not.
fn step(
    day: &mut Day<'_>,
    who: usize,
    cache: usize,
    entry: &CacheEntry,
) -> Result<String, EntryRefused> {
    let character = &mut day.state.characters[who];
    let store = &mut day.state.caches[cache];
    match (entry.take, entry.gold, entry.what.as_str()) {
        (false, Some(gold), _) => move_gold(gold, &mut character.gold, &mut store.gold, "he has"),
        (true, Some(gold), _) => move_gold(
            gold,
            &mut store.gold,
            &mut character.gold,
            "the cache holds",
        ),
        (false, None, what) => {
            let item = belongings::take_out(character, what)
                .ok_or_else(|| belongings::not_carried(character, what))?;
            let said = item.name.clone();
            store.items.push(item);
            Ok(format!("the {said}"))
        }
        (true, None, "all") => {
            let items: Vec<Item> = std::mem::take(&mut store.items);
            let gold = std::mem::take(&mut store.gold);
            let mut said: Vec<String> = items.iter().map(|i| format!("the {}", i.name)).collect();
            if gold > 0 {
                said.push(format!("{gold} gold"));
            }
            character.gold = character.gold.saturating_add(gold);
            for item in items {
                belongings::carry(character, item);
            }
            if said.is_empty() {
                return Err(EntryRefused::NoCache);
            }
            Ok(said.join(", "))
        }
        (true, None, what) => {
            let at = store
                .items
                .iter()
                .position(|i| belongings::names(what, &i.name))
                .ok_or_else(|| EntryRefused::NotInCache {
                    what: what.to_string(),
                })?;
            let item = store.items.remove(at);
            let said = format!("the {}", item.name);
            belongings::carry(character, item);
            Ok(said)
        }
    }
}
