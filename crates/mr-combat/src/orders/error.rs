//! Why a part of an orders line does not read: the text says what was
//! expected, and the sheet adds the line and column for the player.

use thiserror::Error;

use crate::combat::error::CombatError;

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum OrdersError {
    /// The value does not follow the key's grammar; the text says what
    /// would.
    #[error("{0}")]
    Unreadable(String),
    /// A `Combat:` clause that does not read.
    #[error(transparent)]
    Combat(#[from] CombatError),
}

impl From<String> for OrdersError {
    fn from(expected: String) -> OrdersError {
        OrdersError::Unreadable(expected)
    }
}

impl From<&str> for OrdersError {
    fn from(expected: &str) -> OrdersError {
        OrdersError::Unreadable(expected.to_string())
    }
}
