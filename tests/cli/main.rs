//! The command line as a user runs it: the `realmgm` binary, its output and its exit codes.
//!
//! One test binary for the group: each file is a module, so the crate is
//! linked once for all of them.

#[path = "../browser/mod.rs"]
mod browser;
#[path = "../common/mod.rs"]
mod common;

mod analyze;
mod board;
mod campaign;
mod daemon;
mod day;
mod demo;
mod imap_idle;
mod magic;
mod orders;
mod report;
mod setup;
mod shipped;
mod site;
mod table;
mod transfer;
