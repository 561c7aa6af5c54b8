//! Fantasy Realms, the second game on realmgm's plumbing (Fantasy Realms rulebook): the 53
//! cards as typed data, exact scoring of a hand in the rulebook's order, the
//! search for the wild cards' and other choices that score best, and the game
//! itself played by mail.
//!
//! - `cards`: the deck, embedded from `cards.toml` and checked at load.
//! - `scoring`: one hand with explicit choices → points per card and total.
//! - `best`: the choices giving the highest total (ties: lower base strength).
//! - `orders`: a player's orders (conditional rules, trades) read and written back.
//! - `state`: the table and how a turn changes it, with who saw what.
//! - `game`: the [`realmgm_core::game::Game`] implementation (toggles, turns, NMR).
//! - `report`: a player's or the GM's report of a turn.

pub mod best;
pub mod cards;
pub mod game;
pub mod orders;
pub mod report;
pub mod scoring;
pub mod state;
