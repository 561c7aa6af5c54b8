//! Everything around the engines: the store, campaign files, the daemon
//! and the public site. It knows no game by name: every game comes
//! through [`game::Game`], found in the [`game::Games`] the program hands
//! to [`store::Store::open`], so the compiler refuses plumbing that names
//! an engine, and an engine edit does not rebuild this crate.

pub mod campaign;
pub mod daemon;
pub mod site;
pub mod store;

// The crates below, under the names the plumbing uses for them.
pub use realmgm_core::{dice, embedded, game, page, report, suggest, words};
pub use realmgm_mail as mail;

/// The games the plumbing's own tests play: the real engines, which only
/// tests may name here.
#[cfg(test)]
pub(crate) static TEST_GAMES: game::Games = game::Games::new(&[
    &realmgm_magic_realm::game::MagicRealm,
    &realmgm_fantasy_realms::game::FantasyRealms,
]);

/// The version of Magic Realm's rules this realmgm plays, for tests that
/// must not name it.
#[cfg(test)]
pub(crate) fn current_rules() -> u32 {
    TEST_GAMES
        .find("magic-realm")
        .expect("the test games have Magic Realm")
        .rules_versions()
        .current
        .number
}
