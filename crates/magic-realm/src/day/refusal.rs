//! Why a phase is not done as recorded (play summary II.C: an activity that
//! cannot be done is lost): the day's report gives the reason to the
//! player, who learns what to write instead.

use thiserror::Error;

use crate::combat::error::CombatError;
use crate::magic::error::MagicError;

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum PhaseError {
    /// The rules of the day do not allow the activity here and now; the
    /// text says why.
    #[error("{0}")]
    Refused(String),
    /// A magic activity (prepare, enchant, a spell) that cannot be done.
    #[error(transparent)]
    Magic(#[from] MagicError),
    /// A fighter the phase needs cannot be built from the game data.
    #[error(transparent)]
    Combat(#[from] CombatError),
}

impl From<String> for PhaseError {
    fn from(reason: String) -> PhaseError {
        PhaseError::Refused(reason)
    }
}

impl From<&str> for PhaseError {
    fn from(reason: &str) -> PhaseError {
        PhaseError::Refused(reason.to_string())
    }
}
