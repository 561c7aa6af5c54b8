//! Fantasy Realms, the second game on realmgm's plumbing (seed 004): the 53
//! cards as typed data, exact scoring of a hand in the rulebook's order, and
//! the search for the wild cards' and other choices that score best.
//!
//! - `cards`: the deck, embedded from `cards.toml` and checked at load.
//! - `scoring`: one hand with explicit choices → points per card and total.
//! - `best`: the choices giving the highest total (ties: lower base strength).

pub mod best;
pub mod cards;
pub mod scoring;
