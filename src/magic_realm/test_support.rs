//! Fixtures shared by the Magic Realm engine's unit tests: the embedded data
//! and small seeded games, so each test file says only what it changes.

use crate::dice::Dice;
use crate::game::{Rules, Seat};

use super::data::{self, GameData};
use super::setup::{self, SetupInputs};
use super::state::{MrState, Whereabouts};

/// The embedded game data.
pub fn data() -> &'static GameData {
    data::get().expect("the embedded data loads")
}

/// A game set up from seed 11 with the default rules: one seat per
/// character, the i-th played by `player(i)`.
pub fn game_played_by(characters: &[&str], player: impl Fn(usize) -> String) -> MrState {
    let seats: Vec<Seat> = characters
        .iter()
        .enumerate()
        .map(|(i, c)| Seat {
            player: player(i),
            character: Some((*c).to_string()),
        })
        .collect();
    setup::new_game(
        data(),
        &seats,
        &Rules::default(),
        &SetupInputs::default(),
        &mut Dice::new(11, 0),
    )
    .unwrap_or_else(|e| panic!("setup works: {e}"))
}

/// The same game with every monster and native taken off the map, so
/// nothing blocks or fights unless a test puts it there.
pub fn without_denizens(mut state: MrState) -> MrState {
    for d in state.denizens.values_mut() {
        if matches!(d.at, Whereabouts::Clearing { .. }) {
            d.at = Whereabouts::Dead;
        }
    }
    state
}
