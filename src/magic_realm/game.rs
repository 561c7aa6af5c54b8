//! Magic Realm as a [`Game`] the campaign plumbing can run: its id, its rule
//! toggles ([`super::rules`]) and its calendar of months and seasons
//! (TABLES.md §11).

use anyhow::bail;

use crate::dice::Dice;
use crate::game::{Calendar, Game, GameState, RuleToggle, Rules, Seat};

use super::rules;

/// The game of Magic Realm (2nd edition rules with optional and house rules).
#[derive(Clone, Copy, Debug)]
pub struct MagicRealm;

impl Game for MagicRealm {
    fn id(&self) -> &'static str {
        "magic-realm"
    }

    fn toggles(&self) -> &'static [RuleToggle] {
        rules::TOGGLES
    }

    fn calendar(&self) -> Option<Calendar> {
        Some(Calendar {
            seasons: rules::SEASONS,
            seasons_toggle: rules::SEASONS_TOGGLE,
        })
    }

    fn new_game(
        &self,
        _seats: &[Seat],
        _rules: &Rules,
        _dice: &mut Dice,
    ) -> anyhow::Result<GameState> {
        bail!(
            "Magic Realm setup is not built yet, so a Magic Realm game cannot start; \
             the campaign is stored and can start once setup exists"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_game_says_setup_is_not_built() {
        let err = MagicRealm
            .new_game(&[], &Rules::default(), &mut Dice::new(1, 0))
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("Magic Realm setup is not built yet"),
            "{err}"
        );
    }

    #[test]
    fn seasons_need_the_seasons_toggle_which_exists() {
        let calendar = MagicRealm.calendar().unwrap();
        assert!(
            MagicRealm
                .toggles()
                .iter()
                .any(|t| t.name == calendar.seasons_toggle)
        );
        assert_eq!(calendar.seasons.len(), 13);
    }
}
