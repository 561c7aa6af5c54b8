//! Times the Magic Realm day engine: one full day of 16 bot-driven
//! characters (bot orders plus resolution), and a whole 28-day month.
//! Targets: under 1 ms a day and 30 ms a month in release. Run with
//! `cargo bench --bench day`; under `cargo test` (no `--bench` argument) it
//! plays a single month once, as a smoke test.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use realmgm::dice::Dice;
use realmgm::game::{Rules, Seat};
use realmgm::magic_realm::data::{self, GameData};
use realmgm::magic_realm::day::{bot, resolve_day};
use realmgm::magic_realm::orders::DayOrders;
use realmgm::magic_realm::setup::{self, SetupInputs};
use realmgm::magic_realm::state::MrState;

fn new_game(data: &GameData, seed: u64) -> MrState {
    let seats: Vec<Seat> = data
        .characters
        .iter()
        .enumerate()
        .map(|(i, c)| Seat {
            player: format!("P{:02}", i + 1),
            character: Some(c.name.clone()),
        })
        .collect();
    setup::new_game(
        data,
        &seats,
        &Rules::default(),
        &SetupInputs::default(),
        &mut Dice::new(seed, 0),
    )
    .expect("setup works")
}

/// One day with bot orders for all; returns the next state.
fn day(data: &GameData, rules: &Rules, state: MrState, seed: u64) -> MrState {
    let mut dice = Dice::new(seed, state.day + 1);
    let orders: BTreeMap<String, DayOrders> = state
        .characters
        .iter()
        .filter_map(|c| {
            bot::orders_for(data, rules, &state, &c.player, &mut dice)
                .map(|o| (c.player.clone(), o))
        })
        .collect();
    resolve_day(data, rules, state, &orders, &mut dice)
        .expect("a bot day resolves")
        .0
}

fn month(data: &GameData, rules: &Rules, seed: u64) -> MrState {
    let mut state = new_game(data, seed);
    for d in 1..=28 {
        state = day(data, rules, state, seed * 100 + d);
    }
    state
}

fn main() {
    let full = std::env::args().any(|arg| arg == "--bench");
    let data = data::get().expect("the embedded data loads");
    let rules = Rules::default();
    if !full {
        assert_eq!(month(data, &rules, 1).day, 28);
        return;
    }
    let start = new_game(data, 7);
    let days = 200;
    let begin = Instant::now();
    for seed in 0..days {
        let next = day(data, &rules, start.clone(), seed);
        assert_eq!(next.day, 1);
    }
    let per_day = begin.elapsed() / u32::try_from(days).unwrap_or(1);
    let months = 20;
    let mut times: Vec<Duration> = (0..months)
        .map(|seed| {
            let begin = Instant::now();
            assert_eq!(month(data, &rules, seed).day, 28);
            begin.elapsed()
        })
        .collect();
    times.sort();
    println!("one day, 16 bot characters: {per_day:?} on average over {days} days (target < 1 ms)");
    println!(
        "28 days, 16 bot characters (setup included): median {:?}, worst {:?} over {months} months (target < 30 ms)",
        times[times.len() / 2],
        times[times.len() - 1]
    );
}
