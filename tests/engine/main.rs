//! The game engines through their public interfaces: battle files, whole days, Fantasy Realms games and scoring, reports and what they may reveal.
//!
//! One test binary for the group: each file is a module, so the crate is
//! linked once for all of them.

#[path = "../browser/mod.rs"]
mod browser;
#[path = "../report_support/mod.rs"]
mod report_support;

mod battles;
mod canonical_text;
mod day_engine;
mod days;
mod fantasy_game;
mod fantasy_scoring;
mod hirelings_campaign;
mod report_browser;
mod report_json;
mod report_leaks;
mod reports;
