//! The Witch's familiar (TABLES.md §10.1 FAMILIAR; `Advantage::Familiar`
//! lists what it may do: move, follow, peer): an unseen companion that does
//! phases of its own, recorded on the `Familiar:` line of her orders.
//!
//! Rulings (seed 000 is silent on the familiar):
//! - It starts the game with her and takes its turn right after the turn in
//!   which she moved (her own, or her guide's when she follows).
//! - It has a day of phases like a character's: four, two when it starts in
//!   or enters a cave; no bonus phases; a mountain clearing takes two moves
//!   in a row. It moves along roads and along the hidden paths and secret
//!   passages she has discovered.
//! - A search phase is a Peer, in its clearing or (from a mountain) into the
//!   clearing her `Search:` line names for that search; what it finds is
//!   hers, as if she had peered from there.
//! - Follow: it joins the named character if he stands in its clearing, and
//!   at the end of Daylight it is put where he ended.
//! - Nobody sees it: it never blocks or is blocked, turns no chits over and
//!   summons nothing; only her player hears of it.
//! - Other activities on the line are lost with the reason.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::super::board::ClearingId;
use super::super::data::characters::Advantage;
use super::super::data::terms::Activity as Kind;
use super::super::orders::{Activity, DayOrders, SearchTable};
use super::events::Happening;
use super::{Day, PhaseOutcome, abilities, movement, search};

/// Phases of an ordinary day, and of a day in caves.
const FULL_DAY: usize = 4;
const BASIC: usize = 2;

/// What the familiar did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum FamiliarEvent {
    /// Its turn starts in `clearing`.
    TurnStarts {
        character: String,
        clearing: ClearingId,
        recorded: String,
    },
    /// One phase and how it went.
    PhaseDone {
        character: String,
        number: usize,
        recorded: String,
        result: String,
    },
    /// Put with the character it follows at the end of Daylight.
    Rejoined {
        character: String,
        leader: String,
        clearing: ClearingId,
    },
}

impl FamiliarEvent {
    /// The GM log line.
    pub fn log_line(&self) -> String {
        match self {
            FamiliarEvent::TurnStarts {
                character,
                clearing,
                recorded,
            } => format!("\nThe {character}'s familiar in {clearing}:\n  Recorded: {recorded}"),
            FamiliarEvent::PhaseDone {
                number,
                recorded,
                result,
                ..
            } => format!("  {number}. {recorded}: {result}."),
            FamiliarEvent::Rejoined {
                character,
                leader,
                clearing,
            } => {
                format!("The {character}'s familiar ends the day with the {leader} in {clearing}.")
            }
        }
    }
}

/// The activities her familiar may do, when she has one.
fn allowed(day: &Day<'_>, who: usize) -> Option<Vec<Kind>> {
    abilities::advantages(day.data, day.rules, &day.state.characters[who])
        .into_iter()
        .find_map(|a| match a {
            Advantage::Familiar { activities } => Some(activities),
            _ => None,
        })
}

/// Where her familiar is (with her until it first moves).
pub fn position(day: &Day<'_>, who: usize) -> ClearingId {
    let character = &day.state.characters[who];
    day.state
        .familiars
        .get(&character.name)
        .cloned()
        .unwrap_or_else(|| character.position.clone())
}

/// The familiar's turn for character `who`, from the `Familiar:` line.
/// Returns the character it follows, if it follows someone.
pub fn take_turn(
    day: &mut Day<'_>,
    who: usize,
    orders: &BTreeMap<String, DayOrders>,
) -> Option<usize> {
    let character = day.state.characters[who].clone();
    let line = orders.get(&character.player)?.familiar.as_ref()?;
    let mine = &orders[&character.player];
    let observers = day.only(who);
    let mut at = position(day, who);
    day.emit(
        observers.clone(),
        Happening::Familiar(FamiliarEvent::TurnStarts {
            character: character.name.clone(),
            clearing: at.clone(),
            recorded: line.to_string(),
        }),
    );
    let allowed = allowed(day, who);
    let mut budget = if movement::is_cave(day, &at) {
        BASIC
    } else {
        FULL_DAY
    };
    let mut used = 0;
    let mut climbing: Option<ClearingId> = None;
    let mut searches = 0;
    let mut follows = None;
    for (index, phase) in line.phases.iter().enumerate() {
        let result = if allowed.is_none() {
            Err(format!("the {} has no familiar", character.name))
        } else if phase.bonus {
            Err("a familiar has no bonus phases".into())
        } else if used >= budget {
            Err(format!("the familiar has only {budget} phases today"))
        } else {
            used += 1;
            let next = line.phases.get(index + 1).map(|p| &p.activity);
            let kinds = allowed.as_deref().unwrap_or_default();
            act(
                day,
                who,
                &mut at,
                &phase.activity,
                next,
                kinds,
                &mut climbing,
            )
            .map(|done| match done {
                Done::Moved => {
                    if movement::is_cave(day, &at) {
                        budget = budget.min(used.max(BASIC));
                    }
                    format!("moves to {at}")
                }
                Done::Climbing => format!("starts the climb toward {at}"),
                Done::Search => {
                    let table = mine
                        .searches
                        .get(searches)
                        .or(mine.searches.last())
                        .cloned();
                    searches += 1;
                    peer(day, who, &at, table)
                }
                Done::Follows(leader) => {
                    follows = Some(leader);
                    format!("joins the {}", day.state.characters[leader].name)
                }
            })
        };
        let result = result.unwrap_or_else(|reason| format!("lost ({reason})"));
        day.emit(
            observers.clone(),
            Happening::Familiar(FamiliarEvent::PhaseDone {
                character: character.name.clone(),
                number: index + 1,
                recorded: phase.to_string(),
                result,
            }),
        );
    }
    if allowed.is_some() {
        day.state.familiars.insert(character.name.clone(), at);
    }
    follows
}

/// What a phase did, before its report.
pub(super) enum Done {
    Moved,
    Climbing,
    Search,
    Follows(usize),
}

pub(super) fn act(
    day: &mut Day<'_>,
    who: usize,
    at: &mut ClearingId,
    activity: &Activity,
    next: Option<&Activity>,
    kinds: &[Kind],
    climbing: &mut Option<ClearingId>,
) -> Result<Done, String> {
    let was_climbing = climbing.take();
    match activity {
        Activity::Move { tile, clearing } if kinds.contains(&Kind::Move) => {
            let code = day
                .data
                .tiles
                .resolve(tile)
                .map(|t| t.code.clone())
                .ok_or_else(|| format!("there is no tile {tile}"))?;
            let to = ClearingId::new(&code, *clearing);
            as_if_there(day, who, at, |day| movement::check_move(day, who, &to))?;
            if movement::is_mountain(day, &to) && was_climbing.as_ref() != Some(&to) {
                if next != Some(activity) {
                    return Err(format!(
                        "entering the mountain clearing {to} takes two move phases in a row"
                    ));
                }
                *climbing = Some(to);
                return Ok(Done::Climbing);
            }
            *at = to;
            Ok(Done::Moved)
        }
        Activity::Search if kinds.contains(&Kind::Peer) => Ok(Done::Search),
        Activity::Follow { leader } if kinds.contains(&Kind::Follow) => {
            let found = day
                .state
                .characters
                .iter()
                .position(|c| c.name.eq_ignore_ascii_case(leader))
                .ok_or_else(|| format!("no {leader} is in the game"))?;
            if day.state.characters[found].position != *at {
                return Err(format!("the {leader} is not in its clearing"));
            }
            Ok(Done::Follows(found))
        }
        other => Err(format!(
            "a familiar cannot do {} (only {})",
            other.code(),
            kinds
                .iter()
                .map(|k| k.word())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Run `f` with her standing where the familiar is, then put her back.
pub(super) fn as_if_there<R>(
    day: &mut Day<'_>,
    who: usize,
    at: &ClearingId,
    f: impl FnOnce(&mut Day<'_>) -> R,
) -> R {
    let home = std::mem::replace(&mut day.state.characters[who].position, at.clone());
    let result = f(day);
    day.state.characters[who].position = home;
    result
}

/// A Peer from the familiar's clearing; what it finds is hers.
pub(super) fn peer(
    day: &mut Day<'_>,
    who: usize,
    at: &ClearingId,
    table: Option<SearchTable>,
) -> String {
    let table = match table {
        Some(peer @ SearchTable::Peer { .. }) => peer,
        _ => SearchTable::Peer {
            tile: None,
            clearing: None,
        },
    };
    let outcome = as_if_there(day, who, at, |day| search::search(day, who, &table));
    match outcome {
        PhaseOutcome::Done => "peers (what it finds is hers)".into(),
        PhaseOutcome::Lost { reason } => format!("lost ({reason})"),
    }
}

/// End of Daylight: each familiar that follows someone is put where he is.
pub fn end_of_daylight(day: &mut Day<'_>, following: &BTreeMap<usize, usize>) {
    for (&who, &leader) in following {
        let clearing = day.state.characters[leader].position.clone();
        let name = day.state.characters[who].name.clone();
        day.state.familiars.insert(name.clone(), clearing.clone());
        let event = FamiliarEvent::Rejoined {
            character: name,
            leader: day.state.characters[leader].name.clone(),
            clearing,
        };
        day.emit(day.only(who), Happening::Familiar(event));
    }
}
