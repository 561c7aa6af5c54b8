//! Times the Fantasy Realms best-choice search on the hardest hands: the
//! Doppelgänger, Mirage, Shapeshifter, Book of Changes and Island together
//! with every pair of other cards (1,128 hands). Prints the median, 90th
//! percentile and worst time per hand, and the hand that took longest.
//! Run with `cargo bench --bench fantasy_score`; under `cargo test` (no
//! `--bench` argument) it only runs a few hands once, as a smoke test.

use std::time::{Duration, Instant};

use realmgm::fantasy_realms::best::best;
use realmgm::fantasy_realms::cards::{CardId, deck};
use realmgm::fantasy_realms::scoring::score_plain;

fn main() {
    let full = std::env::args().any(|arg| arg == "--bench");
    let runs_per_hand = if full { 7 } else { 1 };
    let deck = deck().expect("the embedded deck loads");
    let wild: Vec<CardId> = deck
        .parse_list("Doppelgänger, Mirage, Shapeshifter, Book of Changes, Island")
        .expect("known cards");
    let others: Vec<CardId> = deck.ids().filter(|c| !wild.contains(c)).collect();
    let mut hands = Vec::new();
    for (i, &a) in others.iter().enumerate() {
        for &b in &others[i + 1..] {
            let mut hand = wild.clone();
            hand.extend([a, b]);
            hands.push(hand);
        }
    }
    if !full {
        hands.truncate(20);
    }
    let mut per_hand: Vec<(Duration, usize, &Vec<CardId>)> = Vec::new();
    for hand in &hands {
        let mut times = Vec::with_capacity(runs_per_hand);
        let mut evaluated = 0;
        for _ in 0..runs_per_hand {
            let start = Instant::now();
            let found = best(deck, hand, &[]).expect("a legal hand");
            times.push(start.elapsed());
            evaluated = found.evaluated;
            std::hint::black_box(found);
        }
        times.sort();
        per_hand.push((times[runs_per_hand / 2], evaluated, hand));
    }
    per_hand.sort_by_key(|(time, _, _)| *time);
    let at = |q: f64| per_hand[((per_hand.len() - 1) as f64 * q) as usize].0;
    let (worst, worst_evaluated, worst_hand) = per_hand[per_hand.len() - 1];
    let names: Vec<&str> = worst_hand
        .iter()
        .map(|&c| deck.card(c).name.as_str())
        .collect();
    println!(
        "best-choice search, {} hands with all five choice cards:",
        per_hand.len()
    );
    println!("  median per hand: {:?}", at(0.5));
    println!("  90th percentile: {:?}", at(0.9));
    println!(
        "  worst hand:      {worst:?} ({worst_evaluated} combinations scored): {}",
        names.join(", ")
    );

    let plain: Vec<CardId> = deck
        .parse_list("Mountain, Great Flood, Wildfire, Smoke, Whirlwind, Air Elemental, Mirage")
        .expect("known cards");
    let mut times = Vec::new();
    for _ in 0..if full { 1001 } else { 11 } {
        let start = Instant::now();
        std::hint::black_box(score_plain(deck, &plain).expect("legal"));
        times.push(start.elapsed());
    }
    times.sort();
    println!(
        "plain scoring of one 7-card hand, median: {:?}",
        times[times.len() / 2]
    );
}
