//! `realmgm analyze` at speed: 1,000 seeded months of four
//! characters played by the planning bot, every day checked against the
//! game's invariants, on every core of the machine (target: under 30 s on
//! two cores). Run with `cargo bench --bench analyze`; under `cargo test`
//! it plays 4 months, as a smoke test.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use realmgm::analyze::{Analysis, Plan, Side, play};
use realmgm::game::Rules;
use realmgm::magic_realm::data;

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let months = if bench { 1_000 } else { 4 };
    let data = data::get().expect("the embedded data loads");
    let plan = Plan {
        a: Side::standard("standard rules", Rules::default()),
        b: None,
        months,
        characters: ["Amazon", "Black Knight", "Swordsman", "Wizard"]
            .iter()
            .map(|c| (*c).to_string())
            .collect(),
        seed: 1,
    };
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let start = Instant::now();
    let played = play(data, &plan, threads, &AtomicBool::new(false), &|_| {});
    let elapsed = start.elapsed();
    let analysis = Analysis::of(&plan, &played);
    assert_eq!(analysis.months, months, "{:?}", analysis.failure);
    println!(
        "{months} four-character months on {threads} threads: {elapsed:.2?}, {:.1} months a second",
        months as f64 / elapsed.as_secs_f64()
    );
}
