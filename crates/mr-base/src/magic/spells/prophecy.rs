//! Prophecy (type II, purple, a character, for a day; magic summary "Spell
//! Effects", `spells.toml`): its target need not fix his activities ahead;
//! he chooses each phase as he does it.
//!
//! Ruling for play by mail, where the day is resolved from orders sent
//! beforehand: a phase of the `Activities:` line may list alternatives
//! joined by `or` (`M CV4 or H`). While Prophecy is awake on him, each such
//! phase is done as the first alternative that can be done at that moment
//! of his turn: an alternative the day refuses (a move blocked by the map,
//! a Loot with nothing found, an enchantment without a free chit) costs
//! nothing and the next is tried; the phase is lost only when every
//! alternative is. Without Prophecy the first alternative is done as if
//! written alone and the report says the others were not read. Cast in the
//! Evening, the spell covers the next day's turn (a day spell lasts to
//! Sunset of the day after it is cast). The alternatives are tried by
//! [`crate::day::prophecy`].

use crate::state::MrState;

use crate::magic::cast::active_on;
use crate::state::magic::Aim;

/// Whether Prophecy is awake on character `who`.
pub fn foresees(state: &MrState, who: usize) -> bool {
    state.characters.get(who).is_some_and(|c| {
        let me = Aim::Character {
            name: c.name.clone(),
        };
        active_on(state, &me, "Prophecy").is_some()
    })
}
