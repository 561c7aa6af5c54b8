//! Times the reports of a 16-player Magic Realm day: every
//! player's report (text, HTML, known map) and the GM's history with the
//! full map, for a day late in a bot-played month. Target: under 20 ms in
//! release. Run with `cargo bench --bench reports`; under `cargo test` (no
//! `--bench` argument) it renders one day's reports once, as a smoke test.

use realmgm::game::Start;
use realmgm::game::Turn;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use realmgm::dice::Dice;
use realmgm::game::{AcceptedOrders, Event, Game, GameState, Reader, Rules, Seat};
use realmgm::magic_realm::data;
use realmgm::magic_realm::day::bot;
use realmgm::magic_realm::game::MagicRealm;
use realmgm::magic_realm::state::MrState;
use realmgm::report::ReportContext;

/// The state and events of day `days` of a 16-character bot game.
fn played(seed: u64, days: u32) -> (GameState, Vec<Event>, Vec<String>) {
    let data = data::get().expect("the embedded data loads");
    let rules = Rules::default();
    let seats: Vec<Seat> = data
        .characters
        .iter()
        .enumerate()
        .map(|(i, c)| Seat {
            player: format!("P{:02}", i + 1),
            role: Some(c.name.clone()),
        })
        .collect();
    let mut state = MagicRealm
        .start(&Start::new(&seats, &rules), &mut Dice::new(seed, 0))
        .expect("setup works");
    let mut events = Vec::new();
    for day in 1..=days {
        let mr: MrState =
            serde_json::from_value(state.json().clone()).expect("a Magic Realm state");
        let mut dice = Dice::new(seed, day);
        let orders: BTreeMap<String, AcceptedOrders> = mr
            .characters
            .iter()
            .filter_map(|c| {
                let orders = bot::orders_for(data, &rules, &mr, &c.player, &mut dice)?;
                let accepted = MagicRealm
                    .read_orders(&state, &rules, &c.player, &orders.to_string())
                    .ok()?;
                Some((c.player.clone(), accepted))
            })
            .collect();
        let turn = MagicRealm
            .resolve_turn(
                state.clone(),
                &Turn::new(&rules, &orders),
                &mut Dice::new(seed, day),
            )
            .expect("a bot day resolves")
            .done()
            .expect("the turn is resolved to its end");
        state = turn.state;
        events = turn.events;
    }
    let players = seats.into_iter().map(|s| s.player).collect();
    (state, events, players)
}

/// Every report of the day; returns the bytes rendered.
fn all_reports(state: &GameState, events: &[Event], players: &[String]) -> usize {
    let context = ReportContext {
        campaign: "BENCH".to_string(),
        deadline: Some("2030-01-02 20:00 UTC".to_string()),
        ..ReportContext::default()
    };
    let mut bytes = 0;
    for reader in players
        .iter()
        .map(|p| Reader::Player(p))
        .chain([Reader::Gm])
    {
        let report = MagicRealm
            .report(state, events, reader, &context)
            .expect("the report renders");
        bytes += report.text.len()
            + report.html.map_or(0, |h| h.len())
            + report.attachments.iter().map(|a| a.2.len()).sum::<usize>();
    }
    bytes
}

fn main() {
    let full = std::env::args().any(|arg| arg == "--bench");
    let (state, events, players) = played(7, if full { 20 } else { 2 });
    assert_eq!(players.len(), 16);
    if !full {
        assert!(all_reports(&state, &events, &players) > 0);
        return;
    }
    let runs = 50;
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let begin = Instant::now();
            std::hint::black_box(all_reports(&state, &events, &players));
            begin.elapsed()
        })
        .collect();
    times.sort();
    let bytes = all_reports(&state, &events, &players);
    println!(
        "16 player reports and the GM history with maps ({} KB): median {:?}, worst {:?} over {runs} runs (target < 20 ms)",
        bytes / 1024,
        times[runs / 2],
        times[runs - 1]
    );
}
