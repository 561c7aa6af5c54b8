//! Type III spells (magic summary; `spells.toml`): Elven Grace, Faerie Lights,
//! See Hidden Signs, Lost, Illusion, Persuade.
//!
//! Elven Grace stays in effect for combat to read (move times by strength,
//! `combat/spell_effects.rs`);
//! Faerie Lights changes the caster's chit types while in effect; Illusion,
//! Persuade and See Hidden Signs are read by [`crate::magic::influence`],
//! Lost by [`crate::day::wilderness`].

use super::{Build, in_effect};

pub fn build(name: &str) -> Option<Build> {
    Some(match name {
        "Elven Grace" | "Faerie Lights" | "Illusion" | "Persuade" | "Lost" | "See Hidden Signs" => {
            Build::Effect(in_effect)
        }
        _ => return None,
    })
}
