//! A phase with alternatives (`M CV4 or H`) in Daylight, for a character
//! under Prophecy (the ruling is in
//! [`crate::magic::spells::prophecy`]): the first alternative
//! the day can do is done; without Prophecy only the first is done and the
//! report says so.

use crate::magic::events::MagicEvent;
use crate::magic::spells::prophecy::foresees;
use crate::orders::{DayOrders, Phase};

use super::Day;
use super::events::{Happening, PhaseResult};

/// The result of phase `index`, given `first` (the result of its first
/// activity): under Prophecy, a lost first activity gives way to the next
/// alternative, done by `again`, and so on.
pub fn choose(
    day: &mut Day<'_>,
    who: usize,
    index: usize,
    first: PhaseResult,
    orders: &DayOrders,
    mut again: impl FnMut(&mut Day<'_>, &Phase) -> PhaseResult,
) -> PhaseResult {
    let Some(others) = orders.alternatives.get(&index).filter(|o| !o.is_empty()) else {
        return first;
    };
    if !foresees(&day.state, who) {
        let event = MagicEvent::AlternativesUnread {
            character: day.state.characters[who].name.clone(),
            phase: index + 1,
        };
        day.emit(day.only(who), Happening::Magic(event));
        return first;
    }
    let mut skipped = Vec::new();
    let mut tried = orders
        .activities
        .phases
        .get(index)
        .map(ToString::to_string)
        .unwrap_or_default();
    let mut result = first;
    for alternative in others {
        match result {
            PhaseResult::Lost { reason } => {
                skipped.push(format!("{tried} ({reason})"));
                tried = alternative.to_string();
                result = again(day, alternative);
            }
            done => {
                result = done;
                break;
            }
        }
    }
    if skipped.is_empty() {
        return result;
    }
    match result {
        PhaseResult::Lost { reason } => PhaseResult::Lost {
            reason: format!(
                "under Prophecy no alternative can be done: {}; {tried} ({reason})",
                skipped.join("; ")
            ),
        },
        done => PhaseResult::Instead {
            reason: format!(
                "Prophecy chooses {tried}, as {} cannot be done",
                skipped.join("; ")
            ),
            result: Box::new(done),
        },
    }
}
