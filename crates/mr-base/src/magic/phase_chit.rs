//! Phase spells (3.1 rule 4.6.7f; the only one is Protection from Magic):
//! cast, the spell has no effect yet; its MAGIC chit goes with the target's
//! inactive items, and he activates it like an item: at the start of a
//! phase of his turn it protects him until that phase ends, or as his
//! action in an Encounter step until that round of combat ends; then the
//! spell expires and its chit fatigues.
//!
//! Rulings: the chit is activated by the spell's name (`activate
//! Protection from Magic`, in a `Phase N:` line or the `Combat:` line); a
//! chit not activated waits, past Midnight too (only Combat spells end at
//! Midnight, 8.9.2e).

use crate::data::spells::Duration;
use crate::state::MrState;
use crate::state::magic::Aim;

use super::events::MagicEvent;
use super::expiry::expire_where;

fn targets(aims: &[Aim], name: &str) -> bool {
    matches!(aims.first(), Some(Aim::Character { name: n }) if n == name)
}

/// The Phase spells whose chits character `who` holds, not yet activated.
pub fn held(state: &MrState, who: usize) -> Vec<String> {
    let Some(c) = state.characters.get(who) else {
        return Vec::new();
    };
    state
        .magic
        .in_effect
        .iter()
        .filter(|s| s.held && s.duration == Duration::Phase && targets(&s.targets, &c.name))
        .map(|s| s.spell.clone())
        .collect()
}

/// Character `who` activates the chit of his held Phase spell `spell`
/// (any case); `None` when he holds none of that name.
pub fn activate(state: &mut MrState, who: usize, spell: &str) -> Option<String> {
    let name = state.characters.get(who)?.name.clone();
    let s = state.magic.in_effect.iter_mut().find(|s| {
        s.held
            && s.duration == Duration::Phase
            && s.spell.eq_ignore_ascii_case(spell)
            && targets(&s.targets, &name)
    })?;
    s.held = false;
    Some(s.spell.clone())
}

/// The end of the phase or round in which character `who` activated his
/// Phase spells: they expire and their chits fatigue.
pub fn expire_activated(state: &mut MrState, who: usize) -> Vec<MagicEvent> {
    let Some(name) = state.characters.get(who).map(|c| c.name.clone()) else {
        return Vec::new();
    };
    expire_where(state, |s| {
        s.duration == Duration::Phase && !s.held && targets(&s.targets, &name)
    })
}
