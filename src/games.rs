//! The registry of games realmgm can run, by the id campaign files use.
//!
//! Adding a game is one line in [`GAMES`].

use crate::game::Game;

/// Every game, in the order `known_ids` lists them.
static GAMES: &[&dyn Game] = &[
    &crate::magic_realm::game::MagicRealm,
    &crate::fantasy_realms::game::FantasyRealms,
];

/// The game a campaign file names, e.g. `game("magic-realm")`.
pub fn game(id: &str) -> Option<&'static dyn Game> {
    GAMES.iter().copied().find(|game| game.id() == id)
}

/// The ids of every known game, for error messages and help text.
pub fn known_ids() -> Vec<&'static str> {
    GAMES.iter().map(|game| game.id()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_found_by_their_own_id_and_ids_are_unique() {
        let ids = known_ids();
        assert!(ids.contains(&"magic-realm"));
        assert!(ids.contains(&"fantasy-realms"));
        for id in &ids {
            assert_eq!(game(id).map(|g| g.id()), Some(*id));
        }
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len());
        assert!(game("chess").is_none());
    }

    #[test]
    fn each_game_offers_the_capabilities_it_has_and_no_other() {
        let offered = |id: &str| {
            let game = game(id).unwrap();
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
