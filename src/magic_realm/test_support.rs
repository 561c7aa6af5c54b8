//! Fixtures shared by the Magic Realm engine's unit tests: the embedded data
//! and small seeded games, so each test file says only what it changes.

use crate::dice::{Dice, DiceScript};
use crate::game::{Rules, Seat};

use crate::magic_realm::board::ClearingId;
use crate::magic_realm::combat::log::CombatLine;
use crate::magic_realm::data::{self, GameData};
use crate::magic_realm::day::Day;
use crate::magic_realm::day::events::{CombatEvent, DayEvent, Happening, PhaseEvent, PhaseResult};
use crate::magic_realm::setup::{self, SetupInputs};
use crate::magic_realm::state::{MapChit, MrState, Whereabouts};

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

/// A game of `characters` played by `p0`, `p1`, ...
pub fn test_game(characters: &[&str]) -> MrState {
    game_played_by(characters, |i| format!("p{i}"))
}

/// Run `act` on a day of `state` (seed 5, day 1) whose rolls for each
/// purpose prefix are forced; the state is updated and the day's events
/// returned beside `act`'s result.
pub fn run_on_day<R>(
    state: &mut MrState,
    rules: &Rules,
    forced: &[(&str, &[u8])],
    act: impl FnOnce(&mut Day<'_>) -> R,
) -> (R, Vec<DayEvent>) {
    let mut dice = Dice::with_script(5, 1, script(forced));
    let mut day = Day::new(data(), rules, state.clone(), &mut dice);
    let result = act(&mut day);
    *state = day.state;
    (result, day.events)
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

/// Every combat line of the day, in order.
pub fn combat_lines(events: &[DayEvent]) -> Vec<CombatLine> {
    events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Combat(CombatEvent::Line { line, .. }) => Some(line.clone()),
            _ => None,
        })
        .collect()
}

/// Every combat line of the day as printed.
pub fn combat_text(events: &[DayEvent]) -> Vec<String> {
    combat_lines(events)
        .iter()
        .map(ToString::to_string)
        .collect()
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

/// Move the site chit `site` onto a tile that has its clearing, face up or
/// down; returns that clearing.
pub fn place_site(state: &mut MrState, face_up: bool, site: &str) -> ClearingId {
    let number = data().chits.site(site).map_or(1, |s| s.clearing);
    for chits in state.map_chits.values_mut() {
        chits.retain(|c| c.name != site);
    }
    for chits in state.lost.values_mut() {
        chits.retain(|c| c != site);
    }
    let at = state
        .board
        .clearings()
        .into_iter()
        .find(|c| c.clearing == number)
        .unwrap_or_else(|| panic!("no clearing {number}"));
    state
        .map_chits
        .entry(at.tile.clone())
        .or_default()
        .push(MapChit {
            name: site.to_string(),
            face_up,
        });
    at
}
