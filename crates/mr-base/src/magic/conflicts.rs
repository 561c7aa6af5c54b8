//! Conflicting spells (3.1 rules 4.6.10f, 4.6.9g): different spells with
//! mutually exclusive effects on the same target at the same time. The
//! stronger nullifies the weaker until it ends; equals nullify each other.
//! The strengths realmgm knows are those the rules and the List of Spells
//! name: the transmorphizing spells, Melt Into Mist strongest, Transform
//! second, Absorb Essence weakest (4.6.9g); and the spells that nullify
//! every other spell bewitching their target: Melt Into Mist, Pentangle
//! and Protection from Magic (List of Spells).
//!
//! Rulings: the spells that nullify every other spell do not nullify one
//! another (they shield alike, 4.6.10f.5); a spell is nullified as a whole when the individual it
//! bewitches (its first target; for Absorb Essence, the caster it turns
//! into the monster) is bewitched by a stronger conflicting spell; only a
//! working spell (neither inert, 4.6.10f.4, nor its item unowned)
//! nullifies another. Attack and Instant spells never stay in effect, so
//! they never meet here (4.6.10f.2).

use crate::state::MrState;
use crate::state::magic::{Aim, SpellInEffect};

/// The transmorphizing spells, weakest first (4.6.9g).
const TRANSMORPHING: [&str; 3] = ["Absorb Essence", "Transform", "Melt Into Mist"];

/// Spells that nullify every other spell bewitching their target (List
/// of Spells: Melt Into Mist 2, Pentangle, Protection from Magic).
const NULLIFY_ALL: [&str; 3] = ["Melt Into Mist", "Pentangle", "Protection from Magic"];

/// The individual `spell` bewitches, if it bewitches one.
fn bewitched(spell: &SpellInEffect) -> Option<Aim> {
    if spell.spell == "Absorb Essence" {
        return Some(Aim::Character {
            name: spell.caster.clone(),
        });
    }
    spell
        .targets
        .first()
        .filter(|t| matches!(t, Aim::Character { .. } | Aim::Denizen { .. }))
        .cloned()
}

/// The name of the transmorphizing spell holding character `name` now (not
/// inert), if any: while it does, what he had as it took hold is frozen
/// (3.1 4.6.9b.2; `magic::transmorph`).
pub fn transmorphized<'s>(state: &'s MrState, name: &str) -> Option<&'s str> {
    holding(state, name).map(|s| s.spell.as_str())
}

/// The transmorphizing spell holding the individual called `name` now (not
/// inert): a character by name, or a hired leader or controlled monster by
/// its counter id, which is also the name of the stand-in that plays its
/// turn (`day::leader_turn`), so the character rules of 4.6.9b-c reach it
/// there too (3.1 4.6.9b.4, 4.6.9c: "character, hired leader, or controlled
/// monster").
pub fn holding<'s>(state: &'s MrState, name: &str) -> Option<&'s SpellInEffect> {
    holding_aim(
        state,
        &Aim::Character {
            name: name.to_string(),
        },
    )
    .or_else(|| holding_denizen(state, name))
}

/// The transmorphizing spell holding denizen `id` now (not inert): Transform
/// may take a hired leader or controlled monster (3.1 4.6.9c).
pub fn holding_denizen<'s>(state: &'s MrState, id: &str) -> Option<&'s SpellInEffect> {
    holding_aim(state, &Aim::Denizen { id: id.to_string() })
}

fn holding_aim<'s>(state: &'s MrState, aim: &Aim) -> Option<&'s SpellInEffect> {
    state
        .magic
        .in_effect
        .iter()
        .filter(|s| !s.inert && is_transmorphizing(&s.spell))
        .find(|s| bewitched(s).as_ref() == Some(aim))
}

/// Whether `spell` transmorphizes its target (4.6.9).
pub fn is_transmorphizing(spell: &str) -> bool {
    rank(spell).is_some()
}

/// The character `spell` transmorphizes, if it bewitches one.
pub fn transmorphized_character(spell: &SpellInEffect) -> Option<String> {
    match bewitched(spell)? {
        Aim::Character { name } if is_transmorphizing(&spell.spell) => Some(name),
        _ => None,
    }
}

/// The denizen (by counter id) `spell` transmorphizes, if it bewitches one.
pub fn transmorphized_denizen(spell: &SpellInEffect) -> Option<String> {
    match bewitched(spell)? {
        Aim::Denizen { id } if is_transmorphizing(&spell.spell) => Some(id),
        _ => None,
    }
}

fn rank(spell: &str) -> Option<usize> {
    TRANSMORPHING.iter().position(|s| *s == spell)
}

/// Whether `other` nullifies `spell` on their shared target.
fn beats(other: &SpellInEffect, spell: &SpellInEffect) -> bool {
    if NULLIFY_ALL.contains(&other.spell.as_str()) {
        // They all shield the target alike: no effect of one excludes
        // another's, so they do not conflict (4.6.10f.5).
        return !NULLIFY_ALL.contains(&spell.spell.as_str());
    }
    match (rank(&other.spell), rank(&spell.spell)) {
        (Some(a), Some(b)) => other.spell != spell.spell && a >= b,
        _ => false,
    }
}

/// The stronger (or equal) conflicting spell that nullifies `spell` now.
pub fn nullified_by<'s>(
    state: &'s MrState,
    spell: &SpellInEffect,
    working: impl Fn(&SpellInEffect) -> bool,
) -> Option<&'s SpellInEffect> {
    let target = bewitched(spell)?;
    state.magic.in_effect.iter().find(|other| {
        other.id != spell.id
            && working(other)
            && bewitched(other).as_ref() == Some(&target)
            && beats(other, spell)
    })
}
