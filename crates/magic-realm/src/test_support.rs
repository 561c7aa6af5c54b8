//! Fixtures that run a day, shared by the Magic Realm engine's tests and
//! the application's: a day on forced dice, a whole day from written
//! orders, and what the day's events say. The fixtures that need only the
//! base (the data, small seeded games) are `realmgm_mr_base`'s, re-exported
//! here so a test finds every fixture in one place.

use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;
use std::collections::BTreeMap;

pub use realmgm_mr_base::test_support::*;

use crate::combat::log::CombatLine;
use crate::day::Day;
use crate::day::events::{CombatEvent, DayEvent, Happening, PhaseEvent, PhaseResult};
use crate::day::resolve_day;
use crate::orders::{DayOrders, parse_day_orders};
use crate::state::MrState;

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

/// One whole day of `state` with the players' orders written as they
/// would mail them, on forced dice.
pub fn play_day(
    state: MrState,
    given: &[(&str, &str)],
    forced: &[(&str, &[u8])],
) -> (MrState, Vec<DayEvent>) {
    play_day_under(&Rules::default(), state, given, forced)
}

/// [`play_day`] under the optional rules `rules`.
pub fn play_day_under(
    rules: &Rules,
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
    resolve_day(data(), rules, state, &all, &mut dice).expect("the day resolves")
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
