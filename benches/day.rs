//! Times the Magic Realm day engine: one full day of 16 bot-driven
//! characters (bot orders plus resolution), the same day with every native
//! hired and every hired leader taking his own turn (target within twice
//! the plain day), and a whole 28-day month.
//! Targets: under 1 ms a day and 30 ms a month in release. Then the same
//! month on the daemon's path: through the game's interface
//! and the store, as the daemon handles the state, without mail and reports
//! (`benches/daemon_month.rs` and `benches/reports.rs` time those); target
//! within 1.5 times the engine's month. Run with `cargo bench --bench day`;
//! under `cargo test` (no `--bench` argument) it plays each month once, as a
//! smoke test.

use std::collections::BTreeMap;

use serde::Deserialize;
use std::time::{Duration, Instant};

use realmgm::campaign::Campaign;
use realmgm::dice::Dice;
use realmgm::game::{AcceptedOrders, Game, Rules, Seat, Start, Turn};
use realmgm::magic_realm::data::{self, GameData};
use realmgm::magic_realm::day::{bot, resolve_day};
use realmgm::magic_realm::game::MagicRealm;
use realmgm::magic_realm::orders::dealings::LeaderLine;
use realmgm::magic_realm::orders::{Activities, Activity, DayOrders, Phase};
use realmgm::magic_realm::setup::{self, SetupInputs};
use realmgm::magic_realm::state::{Hireling, MrState, Whereabouts};
use realmgm::store::Store;

fn new_game(data: &GameData, seed: u64) -> MrState {
    setup::new_game(
        data,
        &seats(data),
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

/// The game with every native hired: each of the game's nine
/// native groups, leader and all, is hired whole by one character in turn
/// and stands with him. The game has nine leaders, so nine characters have
/// a hired leader and a group; the rest have none.
fn with_hirelings(data: &GameData, mut state: MrState) -> MrState {
    for (i, group) in data.natives.iter().enumerate() {
        let employer = i % state.characters.len();
        let here = state.characters[employer].position.clone();
        for member in &group.members {
            if let Some(counter) = state.denizens.get_mut(&member.name) {
                counter.at = Whereabouts::Clearing {
                    clearing: here.clone(),
                };
                state.characters[employer].hirelings.push(Hireling {
                    native: member.name.clone(),
                    days_left: 14,
                });
            }
        }
    }
    state
}

/// A day of [`with_hirelings`]: bot orders for the characters, and each
/// hired leader a line of his own with his employer's moves, hides,
/// searches, trades and hires, so every leader takes a turn.
fn day_with_hirelings(data: &GameData, rules: &Rules, state: MrState, seed: u64) -> MrState {
    let mut dice = Dice::new(seed, state.day + 1);
    let orders: BTreeMap<String, DayOrders> = state
        .characters
        .iter()
        .filter_map(|c| {
            let mut orders = bot::orders_for(data, rules, &state, &c.player, &mut dice)?;
            let phases: Vec<Phase> = orders
                .activities
                .phases
                .iter()
                .filter(|p| {
                    matches!(
                        p.activity,
                        Activity::Move { .. }
                            | Activity::Hide
                            | Activity::Search
                            | Activity::Trade
                            | Activity::Hire
                    )
                })
                .cloned()
                .collect();
            for h in &c.hirelings {
                if h.native.ends_with("HQ") && !phases.is_empty() {
                    orders.leaders.push(LeaderLine {
                        leader: h.native.clone(),
                        activities: Activities {
                            phases: phases.clone(),
                        },
                    });
                }
            }
            Some((c.player.clone(), orders))
        })
        .collect();
    resolve_day(data, rules, state, &orders, &mut dice)
        .expect("a day with hirelings resolves")
        .0
}

fn month(data: &GameData, rules: &Rules, seed: u64) -> MrState {
    let mut state = new_game(data, seed);
    for d in 1..=28 {
        state = day(data, rules, state, seed * 100 + d);
    }
    state
}

/// The seats of a game with every character.
fn seats(data: &GameData) -> Vec<Seat> {
    data.characters
        .iter()
        .enumerate()
        .map(|(i, c)| Seat {
            player: format!("P{:02}", i + 1),
            role: Some(c.name.clone()),
        })
        .collect()
}

/// The campaign of the daemon's-path month.
const TAG: &str = "B";

/// A store holding an empty campaign named `name` for `seats`.
fn store_for(name: &str, seats: &[Seat]) -> Store {
    let mut text = format!(
        "name = \"{name}\"\ngame = \"magic-realm\"\nseed = 1\nrules = []\n\
         [gm]\nemail = \"gm@bench.test\"\n\
         [schedule]\nfirst_deadline = \"2030-01-01\"\nat = \"20:00\"\nevery_hours = 24\n"
    );
    for seat in seats {
        text.push_str(&format!(
            "[[players]]\nname = \"{0}\"\nemail = \"{0}@bench.test\"\ncharacter = \"{1}\"\n",
            seat.player,
            seat.role.as_deref().unwrap_or_default()
        ));
    }
    let campaign =
        Campaign::parse("bench.toml", &text, realmgm::games::GAMES).expect("the campaign parses");
    let mut store = Store::open_in_memory(realmgm::games::GAMES).expect("an in-memory store");
    store
        .campaigns_mut()
        .insert(&campaign, &text, 0)
        .expect("the campaign is stored");
    store
}

/// The month of [`month`] on the daemon's path, in the campaign `TAG` of
/// `store` (a daemon opens its store once, not once a month): each player's
/// orders arrive as a text and are read against the pending state loaded
/// from the store, and who is still awaited is asked, as for every orders
/// mail; each day loads the pending state, hands it over (the store
/// forgets it), admits seats, applies (no) rulings, resolves the day from
/// the accepted orders and saves the new state. What the daemon does besides is left out, as reports and mail
/// are: storing each orders mail and reading the accepted orders back
/// from the store, and storing the day's events and run hashes.
fn month_on_the_daemons_path(
    data: &GameData,
    rules: &Rules,
    store: &mut Store,
    seed: u64,
) -> MrState {
    let game: &dyn Game = &MagicRealm;
    let seats = seats(data);
    let start = game
        .start(&Start::new(&seats, rules), &mut Dice::new(seed, 0))
        .expect("setup works");
    store
        .days_mut()
        .save(TAG, 0, &start, 0)
        .expect("day 0 saved");
    // The daemon keeps no state of its own beyond the store's.
    drop(start);
    let read = |state: &realmgm::game::GameState| {
        // The state the game keeps beside the JSON: what a player's bot is
        // given to write orders from, as a player reads his report.
        state
            .typed(|json| MrState::deserialize(json))
            .expect("a Magic Realm state")
    };
    for day in 1..=28 {
        let mut dice = Dice::new(seed * 100 + u64::from(day), day);
        let mut accepted: BTreeMap<String, AcceptedOrders> = BTreeMap::new();
        for seat in &seats {
            let pending = store.days().latest(TAG).unwrap().unwrap().state;
            let Some(orders) =
                bot::orders_for(data, rules, &read(&pending), &seat.player, &mut dice)
            else {
                continue;
            };
            let orders = game
                .read_orders(&pending, rules, &seat.player, &orders.to_string())
                .expect("bot orders are accepted");
            accepted.insert(seat.player.clone(), orders);
            let admitted = game.admit(&pending, rules, &seats).expect("nobody new");
            game.awaiting(&admitted).expect("the awaited players");
        }
        let pending = store.days().latest(TAG).unwrap().unwrap();
        // Handed over as the daemon does: the store forgets it and each
        // step's input is dropped, so the game resolves it in place.
        store.days().forget(TAG, pending.day).expect("forgotten");
        let admitted = game
            .admit(&pending.state, rules, &seats)
            .expect("nobody new");
        drop(pending);
        let state = game.rule(&admitted, rules, &[]).expect("no rulings");
        drop(admitted);
        game.awaiting(&state).expect("the awaited players");
        let turn = game
            .resolve_turn(state, &Turn::new(rules, &accepted), &mut dice)
            .expect("a bot day resolves")
            .done()
            .expect("a day without rounds by mail ends");
        store
            .days_mut()
            .save(TAG, day, &turn.state, 0)
            .expect("the day is saved");
    }
    let last = store.days().latest(TAG).unwrap().unwrap().state;
    MrState::clone(&read(&last))
}

fn main() {
    let full = std::env::args().any(|arg| arg == "--bench");
    let data = data::get().expect("the embedded data loads");
    let rules = Rules::default();
    if !full {
        assert_eq!(month(data, &rules, 1).day, 28);
        let hiring = with_hirelings(data, new_game(data, 7));
        assert_eq!(day_with_hirelings(data, &rules, hiring, 1).day, 1);
        let mut store = store_for(TAG, &seats(data));
        assert_eq!(
            month_on_the_daemons_path(data, &rules, &mut store, 1).day,
            28
        );
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
    let hiring = with_hirelings(data, start.clone());
    let begin = Instant::now();
    for seed in 0..days {
        let next = day_with_hirelings(data, &rules, hiring.clone(), seed);
        assert_eq!(next.day, 1);
    }
    let per_hiring_day = begin.elapsed() / u32::try_from(days).unwrap_or(1);
    let months = 20;
    // Each seed's two months run one after the other, so a machine that
    // slows down for a while slows both alike.
    let (mut times, mut on_path): (Vec<Duration>, Vec<Duration>) = (0..months)
        .map(|seed| {
            let begin = Instant::now();
            assert_eq!(month(data, &rules, seed).day, 28);
            let engine = begin.elapsed();
            let mut store = store_for(TAG, &seats(data));
            let begin = Instant::now();
            assert_eq!(
                month_on_the_daemons_path(data, &rules, &mut store, seed).day,
                28
            );
            (engine, begin.elapsed())
        })
        .unzip();
    times.sort();
    on_path.sort();
    println!("one day, 16 bot characters: {per_day:?} on average over {days} days (target < 1 ms)");
    println!(
        "the same day with every native hired (9 hired leaders taking their own turns, 9 groups): {per_hiring_day:?}, {:.2}x (target < 2x)",
        per_hiring_day.as_secs_f64() / per_day.as_secs_f64()
    );
    println!(
        "28 days, 16 bot characters (setup included): median {:?}, worst {:?} over {months} months (target < 30 ms)",
        times[times.len() / 2],
        times[times.len() - 1]
    );
    let (engine, path) = (times[times.len() / 2], on_path[on_path.len() / 2]);
    println!(
        "the same on the daemon's path (game interface and store, no mail or reports): median {path:?}, worst {:?}, {:.2}x the engine's median (target < 1.5x)",
        on_path[on_path.len() - 1],
        path.as_secs_f64() / engine.as_secs_f64()
    );
}
