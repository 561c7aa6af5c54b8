//! The registry of games realmgm can run, by the id campaign files use: the
//! one place that names the engines for the plumbing, which gets it passed
//! in ([`crate::store::Store::open`]).
//!
//! Adding a game is one line in [`GAMES`].

use crate::game::Games;

/// Every game, in the order [`Games::ids`] lists them.
pub static GAMES: Games = Games::new(&[
    &crate::magic_realm::game::MagicRealm,
    &crate::fantasy_realms::game::FantasyRealms,
]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_found_by_their_own_id_and_ids_are_unique() {
        let ids = GAMES.ids();
        assert!(ids.contains(&"magic-realm"));
        assert!(ids.contains(&"fantasy-realms"));
        for id in &ids {
            assert_eq!(GAMES.find(id).map(|g| g.id()), Some(*id));
        }
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len());
        assert!(GAMES.find("chess").is_none());
    }

    #[test]
    fn each_game_offers_the_capabilities_it_has_and_no_other() {
        let offered = |id: &str| {
            let game = GAMES.find(id).unwrap();
            [
                game.seats().is_some(),
                game.calendar().is_some(),
                game.rounds().is_some(),
                game.setup_by_mail().is_some(),
                game.pages().is_some(),
            ]
        };
        assert_eq!(offered("magic-realm"), [true; 5]);
        assert_eq!(offered("fantasy-realms"), [false; 5]);
    }
}
