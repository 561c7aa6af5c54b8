//! Why a combat cannot be set up or a play cannot be made: the fighter's
//! components are unknown to the game data, a chit label does not read, or
//! the combat rules (play summary III) do not allow the play; each message says
//! what to do instead.

use thiserror::Error;

use crate::data::characters::ChitLabelError;
use crate::magic::error::MagicError;

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum CombatError {
    /// A weapon, armour, horse, character or denizen the data do not have.
    #[error("no {kind} is called {name}")]
    Unknown { kind: &'static str, name: String },
    #[error(transparent)]
    Chit(#[from] ChitLabelError),
    /// A spell cast in the combat cannot be done as asked.
    #[error(transparent)]
    Magic(#[from] MagicError),
    /// The rules do not allow the play or answer; the text says why.
    #[error("{0}")]
    Refused(String),
}

impl CombatError {
    pub fn unknown(kind: &'static str, name: &str) -> CombatError {
        CombatError::Unknown {
            kind,
            name: name.to_string(),
        }
    }
}

impl From<String> for CombatError {
    fn from(reason: String) -> CombatError {
        CombatError::Refused(reason)
    }
}

impl From<&str> for CombatError {
    fn from(reason: &str) -> CombatError {
        CombatError::Refused(reason.to_string())
    }
}
