//! Why a magic action cannot be done (magic summary "Casting a Spell"): each
//! error says what was wrong and what to do instead.

use thiserror::Error;

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MagicError {
    /// A rule the engine does not apply yet, said plainly.
    #[error("{0}")]
    NotImplemented(String),
    #[error("there is no spell '{name}'{hint}")]
    UnknownSpell { name: String, hint: String },
    #[error("there is no character number {0} in this game")]
    NoCharacter(usize),
    /// The spell cannot be cast as asked; the text says why.
    #[error("the {spell} cannot be cast: {reason}")]
    CannotCast { spell: String, reason: String },
    /// The target does not suit the spell; the spell is broken.
    #[error("the {spell} cannot target {target}: {reason}")]
    BadTarget {
        spell: String,
        target: String,
        reason: String,
    },
    /// Spells recorded or learned against the rules.
    #[error("{0}")]
    Spellbook(String),
    /// A magic phase (prepare, enchant) or aim the rules do not allow; the
    /// text says why and what would work.
    #[error("{0}")]
    Impossible(String),
}

impl From<String> for MagicError {
    fn from(reason: String) -> MagicError {
        MagicError::Impossible(reason)
    }
}

impl From<&str> for MagicError {
    fn from(reason: &str) -> MagicError {
        MagicError::Impossible(reason.to_string())
    }
}

impl MagicError {
    pub fn cannot(spell: &str, reason: impl Into<String>) -> MagicError {
        MagicError::CannotCast {
            spell: spell.to_string(),
            reason: reason.into(),
        }
    }

    pub fn not_built(spell: &str, what: &str) -> MagicError {
        MagicError::NotImplemented(format!("the spell {spell} is not implemented yet ({what})"))
    }
}
