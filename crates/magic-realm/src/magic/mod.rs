//! The magic rules (magic summary; play summary II.C.10, III.A.4.c, IV.B–C;
//! `tables/search.rs`, `tables/magic.rs`, `magic/colour.rs` "Reading Runes"): colour magic, enchanting in
//! Daylight, the spells a character has and learns, curses, and the spell
//! registry the combat engine casts through.
//!
//! Everything here is pure: state, data and dice in, state and effects out.
//! Casting happens only in combat's Encounter step (magic summary "Casting a
//! Spell"); this module checks and applies a cast, combat decides when.

pub mod aims;
pub mod cast;
#[cfg(test)]
mod cast_tests;
pub mod choose;
pub mod colour;
#[cfg(test)]
mod colour_tests;
pub mod curses;
#[cfg(test)]
mod curses_tests;
pub mod effect;
pub mod enchant;
#[cfg(test)]
mod enchant_tests;
pub mod error;
pub mod events;
pub mod expiry;
pub mod influence;
pub mod prepare;
pub mod spellbook;
#[cfg(test)]
mod spellbook_tests;
pub mod spells;
#[cfg(test)]
mod spells_tests;
#[cfg(test)]
mod test_fixtures;

pub use error::MagicError;
