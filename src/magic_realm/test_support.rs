//! Fixtures shared by the Magic Realm engine's unit tests: the embedded data
//! and small seeded games, so each test file says only what it changes.

use crate::dice::{Dice, DiceScript};
use crate::game::{Rules, Seat};

use super::data::{self, GameData};
use super::day::events::{DayEvent, Happening, PhaseEvent, PhaseResult};
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

/// Dice forced for each purpose prefix (faces 1 to 6).
pub fn script(forced: &[(&str, &[u8])]) -> DiceScript {
    let mut s = DiceScript::default();
    for (purpose, faces) in forced {
        s.force(purpose, faces).expect("faces 1..6");
    }
    s
}

/// How each phase of `character` went, in order.
pub fn results(events: &[DayEvent], character: &str) -> Vec<PhaseResult> {
    events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Phase(PhaseEvent::PhaseDone {
                character: c,
                result,
                ..
            }) if c == character => Some(result.clone()),
            _ => None,
        })
        .collect()
}
