//! Fixtures shared by the Magic Realm engine's unit tests: the embedded data
//! and small seeded games, so each test file says only what it changes.

use realmgm_core::dice::{Dice, DiceScript};
use realmgm_core::game::{Rules, Seat};

use crate::board::ClearingId;
use crate::combat::log::CombatLine;
use crate::data::{self, GameData};
use crate::day::Day;
use crate::day::events::{CombatEvent, DayEvent, Happening, PhaseEvent, PhaseResult};
use crate::setup::{self, SetupInputs};
use std::collections::BTreeMap;

use crate::day::resolve_day;
use crate::orders::{DayOrders, parse_day_orders};
use crate::state::{Belonging, Item, ItemKind, MapChit, MrState, Whereabouts};

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
            role: Some((*c).to_string()),
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

/// A game with these characters (players P1, P2...), no denizen and no
/// map chit on the map, so nothing arrives unless a test puts it there.
pub fn quiet_game(characters: &[&str]) -> MrState {
    let mut state = without_denizens(game_played_by(characters, |i| format!("P{}", i + 1)));
    state.map_chits.values_mut().for_each(Vec::clear);
    state
}

/// One whole day of `state` with the players' orders written as they
/// would mail them, on forced dice.
pub fn play_day(
    state: MrState,
    given: &[(&str, &str)],
    forced: &[(&str, &[u8])],
) -> (MrState, Vec<DayEvent>) {
    let all: BTreeMap<String, DayOrders> = given
        .iter()
        .map(|(p, text)| {
            let orders = parse_day_orders(text, 1, data()).expect("test orders parse");
            ((*p).to_string(), orders)
        })
        .collect();
    let mut dice = Dice::with_script(3, state.day + 1, script(forced));
    resolve_day(data(), &Rules::default(), state, &all, &mut dice).expect("the day resolves")
}

/// Run `act` on a day with forced rolls and the monster roll `row`.
pub fn run_with_prowling_row<R>(
    state: &mut MrState,
    row: u8,
    forced: &[(&str, &[u8])],
    act: impl FnOnce(&mut Day<'_>) -> R,
) -> (R, Vec<DayEvent>) {
    let rules = Rules::default();
    let mut dice = Dice::with_script(5, 1, script(forced));
    let mut day = Day::new(data(), &rules, state.clone(), &mut dice);
    day.today.prowling_row = row;
    let result = act(&mut day);
    *state = day.state;
    (result, day.events)
}

/// An item of `kind` called `name`.
pub fn item(kind: ItemKind, name: &str) -> Item {
    Item {
        kind,
        name: name.to_string(),
    }
}

/// Give character `who` the item, active or not.
pub fn give(state: &mut MrState, who: usize, kind: ItemKind, name: &str, active: bool) {
    state.characters[who].belongings.push(Belonging {
        item: item(kind, name),
        active,
    });
}

/// The Move activity into clearing `c`, as a player writes it.
pub fn move_to(c: &ClearingId) -> String {
    let name = &data().tiles.by_code(&c.tile).expect("tile").name;
    format!("M {name} {}", c.clearing)
}
