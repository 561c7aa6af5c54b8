//! Type VII spells (magic summary; `spells.toml`): Control Bats, Sense Danger,
//! Premonition, Protection from Magic, Peace with Nature.
//!
//! Protection from Magic is a Phase spell: its chit waits with its target
//! until he activates it, and then shields him from being targeted for
//! that phase or round (`magic/phase_chit.rs`, read by the cast check); Control Bats stays in effect and combat
//! puts the bats under the caster (`combat/spell_effects.rs`), who records
//! their turns in the next Daylight (`day::leader_turn`); Sense Danger
//! gives a bonus Alert phase and Peace with Nature stops summoning for its
//! target and Premonition lets its target choose his turn while awake
//! ([`crate::magic::influence`]).

use super::{Build, control, in_effect};

pub fn build(name: &str) -> Option<Build> {
    Some(match name {
        "Control Bats" => Build::Effect(control),
        "Protection from Magic" | "Sense Danger" | "Peace with Nature" | "Premonition" => {
            Build::Effect(in_effect)
        }
        _ => return None,
    })
}
