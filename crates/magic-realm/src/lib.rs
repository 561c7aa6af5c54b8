//! Magic Realm: the first game realmgm runs.
//!
//! `data` holds every component of the original game, typed and embedded;
//! `rules` lists the optional and house rules a campaign can switch on, and
//! `game` presents Magic Realm to the campaign plumbing; `setup` builds a
//! new game's `state` from a seed.
//! The rules engine modules (board, setup, day, combat, magic) build on it and
//! stay pure: state + orders + dice in, state + events out, no I/O.

pub mod abilities;
pub mod board;
pub mod combat;
pub mod data;
pub mod day;
pub mod game;
#[cfg(test)]
mod layers;
pub mod magic;
pub mod orders;
pub mod report;
pub mod round_prompts;
pub mod rules;
pub mod setup;
pub mod state;
pub mod tables;
/// Ready-made games for tests, here and in the application's.
#[cfg(any(test, feature = "test-support"))]
pub mod test_support;
