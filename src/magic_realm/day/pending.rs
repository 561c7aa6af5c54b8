//! Daylight activities that belong to the magic rules and are not built
//! yet: enchanting (seed 000 II.C.10). It loses its phase with a reason
//! that says so, never silently.

use super::{Day, PhaseOutcome};

/// An SPX or SP phase.
pub fn enchant(_day: &mut Day<'_>, _who: usize) -> PhaseOutcome {
    PhaseOutcome::Lost {
        reason: "enchanting belongs to the magic rules, not implemented yet".into(),
    }
}
