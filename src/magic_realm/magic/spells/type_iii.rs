//! Type III spells (seed 001; `spells.toml`): Elven Grace, Faerie Lights,
//! See Hidden Signs, Lost, Illusion, Persuade.
//!
//! Elven Grace stays in effect for combat to read (faster move times);
//! Faerie Lights changes the caster's chit types while in effect; Illusion
//! and Persuade are read by [`super::super::influence`].

use super::{Build, in_effect};

pub fn build(name: &str) -> Option<Build> {
    Some(match name {
        "Elven Grace" | "Faerie Lights" | "Illusion" | "Persuade" => Build::Effect(in_effect),
        "See Hidden Signs" => {
            Build::NotBuilt("the extra Search phase each day is not given by the day engine yet")
        }
        "Lost" => Build::NotBuilt("moving by the Lost table is not in the movement rules yet"),
        _ => return None,
    })
}
