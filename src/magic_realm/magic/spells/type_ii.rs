//! Type II spells (seed 001; `spells.toml`): Witch's Brew, Talk to Wise
//! Bird, Prophecy, Fog, Stones Fly, Blend Into Background.
//!
//! Witch's Brew changes the types of the caster's own chits while in effect
//! (read by [`super::super::cast::effective_type`]); Fog stops the Peer
//! table in its tile (read by the Search activity); Blend Into Background
//! gives a bonus Hide phase ([`super::super::influence`]).

use super::{Build, in_effect};

pub fn build(name: &str) -> Option<Build> {
    Some(match name {
        "Witch's Brew" | "Fog" | "Blend Into Background" => Build::Effect(in_effect),
        "Stones Fly" => Build::Attack,
        "Talk to Wise Bird" => Build::NotBuilt(
            "peering into any clearing from combat needs the Peer results of the day engine",
        ),
        "Prophecy" => Build::NotBuilt("choosing phases as they are done is not in the orders yet"),
        _ => return None,
    })
}
