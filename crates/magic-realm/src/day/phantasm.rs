//! A phantasm's own turn (the ruling is in
//! [`crate::magic::spells::phantasm`]): the phases of its
//! owner's `Phantasm:` line, done right after his turn, with the familiar's
//! moves and peering ([`super::familiar`]) and his Spell phases done from
//! where it stands ([`super::pending`]).

use std::collections::BTreeMap;

use super::events::Happening;
use super::familiar::{Stepped, Walk, as_if_there};
use super::{Day, PhaseOutcome, pending};
use crate::data::terms::Activity as Kind;
use crate::day::refusal::PhaseError;
use crate::magic::events::MagicEvent;
use crate::magic::spells::phantasm;
use crate::orders::{Activity, DayOrders};

/// What a phantasm may do besides its Spell phases.
const KINDS: [Kind; 2] = [Kind::Move, Kind::Peer];

/// The turn of the phantasm of character `who`, when his orders give it one.
pub fn take_turn(day: &mut Day<'_>, who: usize, orders: &BTreeMap<String, DayOrders>) {
    let character = day.state.characters[who].clone();
    let Some(mine) = orders.get(&character.player) else {
        return;
    };
    let Some(line) = &mine.phantasm else {
        return;
    };
    let observers = day.only(who);
    let Some((id, at)) = phantasm::of(&day.state, who) else {
        let event = MagicEvent::NoPhantasm {
            character: character.name,
        };
        day.emit(observers, Happening::Magic(event));
        return;
    };
    day.emit(
        observers.clone(),
        Happening::Magic(MagicEvent::PhantasmTurn {
            character: character.name.clone(),
            clearing: at.clone(),
            recorded: line.to_string(),
        }),
    );
    let mut walk = Walk::start(day, at);
    for (index, phase) in line.phases.iter().enumerate() {
        // The phase's line goes before what the phase set off.
        let phase_starts = day.events.len();
        let result = walk
            .spend(phase.bonus, "the phantasm")
            .and_then(|()| match &phase.activity {
                Activity::SpellPrep | Activity::Spell { .. } => {
                    let note = phase.note.as_deref();
                    let activity = &phase.activity;
                    let outcome = as_if_there(day, who, &walk.at, |day| {
                        pending::enchant(day, who, activity, note)
                    });
                    match outcome {
                        PhaseOutcome::Done => Ok("the Spell phase is done from here".to_string()),
                        PhaseOutcome::Lost { reason } => Err(PhaseError::Refused(reason)),
                    }
                }
                activity => {
                    let next = line.phases.get(index + 1).map(|p| &p.activity);
                    walk.step(day, who, activity, next, &KINDS, &mine.searches)
                        .map(|stepped| match stepped {
                            Stepped::Said(text) => text,
                            Stepped::Follows(_) => "a phantasm follows nobody".to_string(),
                        })
                }
            });
        let result = result.unwrap_or_else(|reason| format!("lost ({reason})"));
        day.emit_at(
            phase_starts,
            observers.clone(),
            Happening::Magic(MagicEvent::PhantasmPhase {
                character: character.name.clone(),
                number: index + 1,
                recorded: phase.to_string(),
                result,
            }),
        );
    }
    day.state.magic.phantasms.insert(id, walk.at);
}
