//! Magic Realm as a [`Game`] the campaign plumbing can run: its id, its rule
//! toggles ([`super::rules`]) and its calendar of months and seasons
//! (TABLES.md §11).

use anyhow::anyhow;

use crate::dice::Dice;
use crate::game::{Calendar, Game, GameState, RuleToggle, Rules, Seat};

use super::setup::{self, SetupInputs};
use super::{data, rules};

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
        seats: &[Seat],
        rules: &Rules,
        dice: &mut Dice,
    ) -> anyhow::Result<GameState> {
        let data = data::get().map_err(|e| anyhow!("{e}"))?;
        // The campaign does not collect the players' placements yet, so a
        // player-built board cannot start here; setup says so by name.
        let state = setup::new_game(data, seats, rules, &SetupInputs::default(), dice)?;
        Ok(GameState(serde_json::to_value(state)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_game_sets_up_the_seats_and_hashes_the_same_twice() {
        let seats = [Seat {
            player: "ann".into(),
            character: Some("Dwarf".into()),
        }];
        let start = || {
            MagicRealm
                .new_game(&seats, &Rules::default(), &mut Dice::new(9, 0))
                .unwrap()
        };
        let state = start();
        assert_eq!(state.0["characters"][0]["name"], "Dwarf");
        assert_eq!(state.0["day"], 0);
        assert_eq!(state.hash(), start().hash());
    }

    #[test]
    fn a_player_built_board_cannot_start_without_placements() {
        let rules = Rules::new(["player_built_board"], rules::TOGGLES).unwrap();
        let err = MagicRealm
            .new_game(&[], &rules, &mut Dice::new(1, 0))
            .unwrap_err();
        assert!(err.to_string().contains("player_built_board"), "{err}");
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
