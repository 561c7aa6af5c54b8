//! What a day's events say. Each part of the day has its own enum here, so
//! parts can grow without touching each other; [`DayEvent`] adds who saw it.
//! The GM log and the players' reports are built from these and nothing
//! else.

use serde::{Deserialize, Serialize};

use crate::dice::RollRecord;
use crate::game::Observers;

/// One event of the day with its observers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DayEvent {
    pub observers: Observers,
    pub happening: Happening,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "part", rename_all = "snake_case")]
pub enum Happening {
    /// A die roll, with its purpose and faces.
    Roll(RollRecord),
    /// A Search phase (seed 000 II.C.5).
    Search(super::search::SearchEvent),
    /// A Trade phase: buying or selling (seed 000 II.C.6).
    Trade(super::trade::TradeEvent),
    /// A Hire phase or a term of hire ending (seed 000 II.C.7).
    Hire(super::hire::HireEvent),
}
