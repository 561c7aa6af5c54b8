//! The embedded game data and die tables, cross-checked against the shared reference where it exists.
//!
//! One test binary for the group: each file is a module, so the crate is
//! linked once for all of them.

#[path = "../common/mod.rs"]
mod common;

mod characters;
mod denizens;
mod fantasy_reference;
mod items;
mod magic;
mod setup;
mod tables_reference;
mod tiles;
