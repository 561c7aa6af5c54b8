//! The Witch's familiar (`data/characters.toml` FAMILIAR; `Advantage::Familiar`
//! lists what it may do: move, follow, peer): an unseen companion that does
//! phases of its own, recorded on the `Familiar:` line of her orders.
//!
//! Rulings (play summary is silent on the familiar):
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

use super::events::Happening;
use super::{Day, PhaseOutcome, movement, search};
use crate::abilities;
use crate::board::ClearingId;
use crate::data::characters::Advantage;
use crate::data::terms::Activity as Kind;
use crate::day::refusal::PhaseError;
use crate::orders::{Activity, DayOrders, SearchTable};

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
    let mut walk = Walk::start(day, position(day, who));
    day.emit(
        observers.clone(),
        Happening::Familiar(FamiliarEvent::TurnStarts {
            character: character.name.clone(),
            clearing: walk.at.clone(),
            recorded: line.to_string(),
        }),
    );
    let allowed = allowed(day, who);
    let mut follows = None;
    for (index, phase) in line.phases.iter().enumerate() {
        // The phase's line goes before what the phase set off.
        let phase_starts = day.events.len();
        let result = match &allowed {
            None => Err(PhaseError::Refused(format!(
                "the {} has no familiar",
                character.name
            ))),
            Some(kinds) => walk.spend(phase.bonus, "the familiar").and_then(|()| {
                let next = line.phases.get(index + 1).map(|p| &p.activity);
                walk.step(day, who, &phase.activity, next, kinds, &mine.searches)
            }),
        }
        .map(|stepped| match stepped {
            Stepped::Said(text) => text,
            Stepped::Follows(leader) => {
                follows = Some(leader);
                format!("joins the {}", day.state.characters[leader].name)
            }
        });
        let result = result.unwrap_or_else(|reason| format!("lost ({reason})"));
        day.emit_at(
            phase_starts,
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
        day.state.familiars.insert(character.name.clone(), walk.at);
    }
    follows
}

/// A companion's walk through its phases (the familiar's, a phantasm's):
/// where it stands, its phase budget (four, two once in a cave), a climb
/// in progress and the searches used.
pub(super) struct Walk {
    pub at: ClearingId,
    budget: usize,
    used: usize,
    climbing: Option<ClearingId>,
    searches: usize,
}

/// What a phase of a walk came to, when it was done.
pub(super) enum Stepped {
    Said(String),
    Follows(usize),
}

impl Walk {
    pub fn start(day: &Day<'_>, at: ClearingId) -> Walk {
        let budget = if movement::is_cave(day, &at) {
            BASIC
        } else {
            FULL_DAY
        };
        Walk {
            at,
            budget,
            used: 0,
            climbing: None,
            searches: 0,
        }
    }

    /// Count one more phase, unless it is a bonus one or none is left.
    ///
    /// # Errors
    /// Why the phase is lost, naming `what` walks (`the familiar`).
    pub fn spend(&mut self, bonus: bool, what: &str) -> Result<(), PhaseError> {
        if bonus {
            Err(format!("{what} has no bonus phases").into())
        } else if self.used >= self.budget {
            Err(format!("{what} has only {} phases today", self.budget).into())
        } else {
            self.used += 1;
            Ok(())
        }
    }

    /// Do `activity` (one of `kinds`) for character `who`, whose `Search:`
    /// line is `searches`.
    ///
    /// # Errors
    /// Why the phase is lost.
    pub fn step(
        &mut self,
        day: &mut Day<'_>,
        who: usize,
        activity: &Activity,
        next: Option<&Activity>,
        kinds: &[Kind],
        searches: &[SearchTable],
    ) -> Result<Stepped, PhaseError> {
        let done = act(
            day,
            who,
            &mut self.at,
            activity,
            next,
            kinds,
            &mut self.climbing,
        )?;
        Ok(match done {
            Done::Moved => {
                if movement::is_cave(day, &self.at) {
                    self.budget = self.budget.min(self.used.max(BASIC));
                }
                Stepped::Said(format!("moves to {}", self.at))
            }
            Done::Climbing => Stepped::Said(format!("starts the climb toward {}", self.at)),
            Done::Search => {
                let table = searches.get(self.searches).or(searches.last()).cloned();
                self.searches += 1;
                Stepped::Said(peer(day, who, &self.at, table))
            }
            Done::Follows(leader) => Stepped::Follows(leader),
        })
    }
}

/// What a phase did, before its report.
enum Done {
    Moved,
    Climbing,
    Search,
    Follows(usize),
}

fn act(
    day: &mut Day<'_>,
    who: usize,
    at: &mut ClearingId,
    activity: &Activity,
    next: Option<&Activity>,
    kinds: &[Kind],
    climbing: &mut Option<ClearingId>,
) -> Result<Done, PhaseError> {
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
                    )
                    .into());
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
                return Err(format!("the {leader} is not in its clearing").into());
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
        )
        .into()),
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
