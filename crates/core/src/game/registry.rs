//! The games one program can run, found by the id campaign files use.
//!
//! The program that names the engines builds the one registry and hands it
//! to what reads campaigns (the store, the daemon), which know no game by
//! name.

use super::Game;

/// Games by id, in the order [`Games::ids`] lists them.
#[derive(Clone, Copy)]
pub struct Games {
    all: &'static [&'static dyn Game],
}

impl Games {
    /// The registry of `all`, whose ids are expected to differ.
    pub const fn new(all: &'static [&'static dyn Game]) -> Games {
        Games { all }
    }

    /// The game whose id is `id`, e.g. `find("magic-realm")`.
    pub fn find(&self, id: &str) -> Option<&'static dyn Game> {
        self.all.iter().copied().find(|game| game.id() == id)
    }

    /// The ids of every game, for error messages and help text.
    pub fn ids(&self) -> Vec<&'static str> {
        self.all.iter().map(|game| game.id()).collect()
    }
}
