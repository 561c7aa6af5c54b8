//! realmgm: a game-master tool for play-by-email Magic Realm campaigns, with
//! Fantasy Realms as a second game on the same plumbing.
//!
//! See ARCHITECTURE.md for the bird's-eye view and the code map.

pub mod campaign;
pub mod cli;
pub mod daemon;
pub mod dice;
pub mod embedded;
pub mod fantasy_realms;
pub mod game;
pub mod games;
pub mod magic_realm;
pub mod mail;
pub mod report;
pub mod store;
pub mod suggest;
