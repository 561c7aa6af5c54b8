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
pub mod choose;
pub mod colour;
pub mod conflicts;
pub mod curses;
pub mod effect;
pub mod enchant;
pub mod error;
pub mod events;
pub mod expiry;
pub mod influence;
pub mod item_caster;
pub mod item_chit;
pub mod phase_chit;
pub mod prepare;
pub mod spellbook;
pub mod spells;
pub mod transmorph;

pub use error::MagicError;
