//! Type VII spells (seed 001; `spells.toml`): Control Bats, Sense Danger,
//! Premonition, Protection from Magic, Peace with Nature.
//!
//! Protection from Magic shields its target from being targeted while in
//! effect (read by the cast check); Control Bats stays in effect for combat
//! to read (moving with the bats in Daylight is not built).

use super::{Build, in_effect};

pub fn build(name: &str) -> Option<Build> {
    Some(match name {
        "Protection from Magic" | "Control Bats" => Build::Effect(in_effect),
        "Sense Danger" => {
            Build::NotBuilt("the extra Alert phase each turn is not given by the day engine yet")
        }
        "Premonition" => {
            Build::NotBuilt("choosing when to take one's turn is not in the orders yet")
        }
        "Peace with Nature" => Build::NotBuilt(
            "stopping summoning for one character is not in the summoning rules yet",
        ),
        _ => return None,
    })
}
