//! Why a value written in a data file's short notation (a clearing
//! `"6 cave purple"`, a path `"3-6 secret"`, a setup-card chit `"Smoke M"`)
//! or a tile name does not read; each message shows the expected form.

use thiserror::Error;

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum NotationError {
    /// The text does not follow the notation; the message shows it.
    #[error("{0}")]
    Unreadable(String),
    /// No tile has that code, alias or name.
    #[error(
        "there is no tile '{text}'{hint}; tiles are named by code (AV, LD, BL...) or full name"
    )]
    UnknownTile { text: String, hint: String },
}

impl From<String> for NotationError {
    fn from(expected: String) -> NotationError {
        NotationError::Unreadable(expected)
    }
}
