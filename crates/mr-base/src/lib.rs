//! The base of the Magic Realm engine: what combat, orders and the day
//! build on, and nothing that knows them.
//!
//! `data` holds every component of the original game, typed and embedded;
//! `rules` lists the optional and house rules a campaign can switch on;
//! `board`, `tables`, `state`, `abilities` and `magic` are the map, the
//! dice tables, the game state and the rules every step of a day shares;
//! `setup` builds a new game's `state` from a seed. All pure: state, data
//! and dice in, state and effects out, no I/O. This crate depends on no
//! other engine crate, so the compiler refuses a use of combat or the day.

pub mod abilities;
pub mod board;
pub mod data;
pub mod development;
pub mod magic;
pub mod rules;
pub mod setup;
pub mod state;
pub mod tables;
/// Ready-made games for tests, here and in the crates above.
#[cfg(any(test, feature = "test-support"))]
pub mod test_support;
