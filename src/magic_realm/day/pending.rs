//! Daylight activities that belong to the magic rules and are not built
//! yet: flying and enchanting (seed 000 II.C.9–10). Each loses its phase
//! with a reason that says so, never silently.

use super::{Day, PhaseOutcome};

/// A FLY phase.
pub fn fly(_day: &mut Day<'_>, _who: usize, _tile: &str) -> PhaseOutcome {
    PhaseOutcome::Lost {
        reason: "flying is not implemented yet".into(),
    }
}

/// An SPX or SP phase.
pub fn enchant(_day: &mut Day<'_>, _who: usize) -> PhaseOutcome {
    PhaseOutcome::Lost {
        reason: "enchanting belongs to the magic rules, not implemented yet".into(),
    }
}
