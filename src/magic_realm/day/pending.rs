//! Daylight activities whose rules live elsewhere and are not built on this
//! branch: searching, trading and hiring (seed 000 II.C.5–7) have their own
//! modules, flying and enchanting (II.C.9–10) belong to the magic rules.
//! Each loses its phase with a reason that says so, never silently.

use super::super::orders::DayOrders;
use super::{Day, PhaseOutcome};

/// A SEARCH phase.
pub fn search(_day: &mut Day<'_>, _who: usize, _orders: &DayOrders) -> PhaseOutcome {
    PhaseOutcome::Lost {
        reason: "searching is not implemented yet".into(),
    }
}

/// A TRADE phase.
pub fn trade(_day: &mut Day<'_>, _who: usize, _orders: &DayOrders) -> PhaseOutcome {
    PhaseOutcome::Lost {
        reason: "trading is not implemented yet".into(),
    }
}

/// A HIRE phase.
pub fn hire(_day: &mut Day<'_>, _who: usize, _orders: &DayOrders) -> PhaseOutcome {
    PhaseOutcome::Lost {
        reason: "hiring is not implemented yet".into(),
    }
}

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
