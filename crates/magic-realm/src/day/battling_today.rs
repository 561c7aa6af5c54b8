//! Native groups battling a character for the rest of the day (play summary
//! III: a Block/Battle roll, luring or attacking one of a group; the
//! Treachery rule's rebels, `combat/treachery.rs`). The Evening records
//! every group that ended a combat battling a character, a later combat
//! the same day starts with that group battling him without a Meeting
//! roll, and Midnight forgets it all.
//!
//! realmgm's ruling: the day ends at Midnight, so the grudge never
//! reaches the next day's Evening; within a day each character fights in
//! one clearing, so it matters when the same group meets him in another
//! combat of that Evening (for example a group split between clearings).

use crate::combat::Battle;
use crate::combat::model::FighterKind;
use crate::state::{Grudge, MrState};

/// Remember every unhired group battling a character at the end of
/// `battle`.
pub fn remember(state: &mut MrState, battle: &Battle) {
    for f in &battle.fighters {
        let FighterKind::Denizen(d) = &f.kind else {
            continue;
        };
        let Some(group) = d.group.as_ref().filter(|_| d.employer.is_none()) else {
            continue;
        };
        for &c in &d.battling {
            let grudge = Grudge {
                group: group.clone(),
                character: battle.name(c).to_string(),
            };
            if let Err(at) = state.battling_today.binary_search(&grudge) {
                state.battling_today.insert(at, grudge);
            }
        }
    }
}

/// Whether `group` battles `character` already today.
pub fn battles(state: &MrState, group: &str, character: &str) -> bool {
    state
        .battling_today
        .iter()
        .any(|g| g.group == group && g.character == character)
}

/// Midnight: the day is over.
pub fn forget(state: &mut MrState) {
    state.battling_today.clear();
}
