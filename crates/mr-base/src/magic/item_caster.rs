//! An Artifact or Spell Book as the spellcaster of the spells it casts
//! (3.1 rules 8.3.9c.5-6). The item, not the character who played it, is
//! the caster: whoever owns the item now controls the spell, the spell
//! outlives the death of the character who played it, and while nobody
//! owns the item the spell is nullified (it holds nothing, but is not
//! broken) until someone owns it again or it expires.
//!
//! Ruling: "owns" means carries, active or not (an item committed to a
//! spell stays face up even if sold or abandoned, 8.3.9c.3). A spell cast
//! with a MAGIC chit is controlled by its caster as before.

use crate::state::MrState;
use crate::state::magic::{CastWith, SpellInEffect};

/// The living character who carries `item` now.
pub fn owner<'s>(state: &'s MrState, item: &str) -> Option<&'s str> {
    state
        .characters
        .iter()
        .find(|c| !c.dead && c.belongings.iter().any(|b| b.item.name == item))
        .map(|c| c.name.as_str())
}

/// Who controls `spell` now: the owner of the item that cast it, or the
/// character who cast it with a MAGIC chit. `None` while nobody owns the
/// item.
pub fn controller<'s>(state: &'s MrState, spell: &'s SpellInEffect) -> Option<&'s str> {
    match &spell.with {
        CastWith::Treasure { name } => owner(state, name),
        CastWith::Chit { .. } => Some(spell.caster.as_str()),
    }
}

/// Whether `spell` holds its targets now: neither inert (a Permanent spell
/// waiting for colour, 4.6.7h), nor a Phase spell's chit not yet
/// activated (4.6.7f), nor nullified: its item owned by nobody, or
/// a stronger conflicting spell on its target (`conflicts.rs`, 4.6.10f).
pub fn works(state: &MrState, spell: &SpellInEffect) -> bool {
    let live = |s: &SpellInEffect| !s.inert && !s.held && controller(state, s).is_some();
    live(spell) && super::conflicts::nullified_by(state, spell, live).is_none()
}

/// Whether `spell` is one that killing `name` ends as its caster: only a
/// MAGIC chit's spell; an item cannot be killed (8.3.9c.6).
pub fn cast_by(spell: &SpellInEffect, name: &str) -> bool {
    matches!(spell.with, CastWith::Chit { .. }) && spell.caster == name
}
