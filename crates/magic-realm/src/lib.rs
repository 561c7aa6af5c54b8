//! Magic Realm: the first game realmgm runs.
//!
//! `data` holds every component of the original game, typed and embedded;
//! `rules` lists the optional and house rules a campaign can switch on, and
//! `game` presents Magic Realm to the campaign plumbing; `setup` builds a
//! new game's `state` from a seed.
//! The rules engine modules (board, setup, day, combat, magic) build on it and
//! stay pure: state + orders + dice in, state + events out, no I/O.
//!
//! The engine is three crates along its layers: `realmgm-mr-base` (data up
//! to setup), `realmgm-mr-combat` (combat and orders) and this one (the day,
//! reports and the game). Their modules are re-exported here under their
//! own names, so `crate::data::...` and `realmgm_magic_realm::combat::...`
//! read as in one crate; an edit to the day rebuilds only this crate.

pub use realmgm_mr_base::{
    abilities, board, data, development, magic, rules, setup, state, tables,
};
pub use realmgm_mr_combat::{combat, orders};

pub mod day;
pub mod game;
pub mod report;
pub mod round_prompts;

#[cfg(test)]
mod combat_spell_tests;
#[cfg(test)]
mod layers;
#[cfg(test)]
mod magic_tests;
/// Ready-made games for tests, here and in the application's.
#[cfg(any(test, feature = "test-support"))]
pub mod test_support;
