//! The Meeting-table rolls for battling natives made today (3.1 8.2.2b): a
//! character rolls once per native group per day, at the start of the
//! first combat in which he meets it. Battling never carries over to
//! another clearing (8.2.1d, 8.2.3b): in a later combat the same day (his
//! hired natives fighting for him elsewhere) that group neither rolls nor
//! battles him until something there starts it, a lure or an attack.
//! Midnight forgets the rolls.

use crate::state::{Grudge, MrState};

/// Whether `character` rolled for `group` already today.
pub fn rolled(state: &MrState, group: &str, character: &str) -> bool {
    state
        .battling_today
        .iter()
        .any(|g| g.group == group && g.character == character)
}

/// `character` rolls for `group` today.
pub fn record(state: &mut MrState, group: &str, character: &str) {
    let roll = Grudge {
        group: group.to_string(),
        character: character.to_string(),
    };
    if let Err(at) = state.battling_today.binary_search(&roll) {
        state.battling_today.insert(at, roll);
    }
}

/// Midnight: the day is over.
pub fn forget(state: &mut MrState) {
    state.battling_today.clear();
}
