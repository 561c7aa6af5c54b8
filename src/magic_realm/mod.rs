//! Magic Realm: the first game realmgm runs.
//!
//! `data` holds every component of the original game, typed and embedded.
//! The rules engine modules (board, setup, day, combat, magic) build on it and
//! stay pure: state + orders + dice in, state + events out, no I/O.

pub mod board;
pub mod data;
pub mod orders;
