//! Times the combat engine (seed 000 III): five rounds of four characters
//! against eight monsters, every decision answered through the decision
//! API with default standing orders. Target: under 100 µs in release. Run
//! with `cargo bench --bench combat`; under `cargo test` it plays one
//! battle as a smoke test.

use std::time::{Duration, Instant};

use realmgm::dice::Dice;
use realmgm::magic_realm::combat::model::{Fighter, FighterKind};
use realmgm::magic_realm::combat::tactics::standing_answer;
use realmgm::magic_realm::combat::{Battle, CombatRules, Step, build};
use realmgm::magic_realm::data::characters::StartLocation;
use realmgm::magic_realm::data::{self, GameData};

use realmgm::magic_realm::state::{CharacterState, CounterSide};

const CHARACTERS: [&str; 4] = ["Black Knight", "White Knight", "Dwarf", "Amazon"];
const MONSTERS: [&str; 8] = [
    "Wolf A 1",
    "Wolf A 2",
    "Ogre 1",
    "Ogre 2",
    "Axe Goblin 1",
    "Sword Goblin 1",
    "H Troll 1",
    "Giant 1",
];

/// The characters as the game state holds them before the Evening: building
/// them is the day's work, not the combat's, so it stays outside the timing.
fn characters(data: &GameData) -> Vec<CharacterState> {
    CHARACTERS
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let card = data
                .characters
                .iter()
                .find(|c| c.name == *name)
                .expect("character");
            CharacterState::entering(
                card,
                format!("P{i}"),
                StartLocation::Inn,
                realmgm::magic_realm::board::ClearingId::new("CV", 4),
            )
        })
        .collect()
}

/// The clearing's combat, built from the game state as the Evening does:
/// the characters' sheets and the monsters' counters.
fn battle<'d>(data: &'d GameData, states: &[CharacterState]) -> Battle<'d> {
    let mut fighters = Vec::new();
    for state in states {
        fighters.push(Fighter {
            name: state.name.clone(),
            kind: FighterKind::Character(build::hero(data, state).expect("hero")),
            hidden: false,
            out: None,
        });
    }
    for id in MONSTERS {
        fighters.push(Fighter {
            name: id.to_string(),
            kind: FighterKind::Denizen(
                build::denizen(data, id, CounterSide::Light, None).expect("monster"),
            ),
            hidden: false,
            out: None,
        });
    }
    Battle::new(data, "CV4", fighters, CombatRules::default())
}

/// Up to five rounds, every decision answered by the default orders.
fn five_rounds(data: &GameData, states: &[CharacterState], seed: u64) -> u32 {
    let mut battle = battle(data, states);
    let mut dice = Dice::new(seed, 1);
    while let Step::Needs(decision) = battle.step(&mut dice) {
        if battle.round > 5 {
            break;
        }
        let answer = standing_answer(&battle, decision.fighter);
        battle
            .answer(decision.fighter, answer)
            .expect("default plays are legal");
    }
    battle.round.min(5)
}

/// The Evening's way: standing orders for everyone, to the end.
fn standing_orders(data: &GameData, states: &[CharacterState], seed: u64) -> u32 {
    let mut battle = battle(data, states);
    for c in 0..CHARACTERS.len() {
        battle.tactics.insert(c, Default::default());
    }
    battle.run_with_defaults(&mut Dice::new(seed, 1));
    battle.round
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

type Combat = fn(&GameData, &[CharacterState], u64) -> u32;

fn main() {
    let full = std::env::args().any(|arg| arg == "--bench");
    let data = data::get().expect("the embedded data loads");
    let states = characters(data);
    if !full {
        assert!(five_rounds(data, &states, 1) >= 1);
        assert!(standing_orders(data, &states, 1) >= 1);
        return;
    }
    // COMBAT_BENCH_RUNS shortens a run under a profiler.
    let runs: u64 = std::env::var("COMBAT_BENCH_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2000);
    // Five passes of `runs` seeds each: this VM's speed drifts by half over
    // minutes, so every pass's median is shown and the fastest pass is the
    // figure least disturbed by other work on the machine.
    let time = |f: Combat| -> Vec<Duration> {
        (0..5)
            .map(|_| {
                median(
                    (0..runs)
                        .map(|seed| {
                            let start = Instant::now();
                            std::hint::black_box(f(data, &states, seed));
                            start.elapsed()
                        })
                        .collect(),
                )
            })
            .collect()
    };
    let mean_rounds = |f: Combat| {
        let rounds: u32 = (0..100).map(|s| f(data, &states, s)).sum();
        f64::from(rounds) / 100.0
    };
    let report = |what: String, passes: Vec<Duration>| {
        let best = passes.iter().min().copied().unwrap_or_default();
        println!(
            "{what}: median of the fastest pass {best:?} (each pass: {passes:?}; target 100 µs)"
        );
    };
    report(
        format!(
            "combat, 4 characters against 8 monsters, up to 5 rounds (mean {:.1}), every decision asked and answered",
            mean_rounds(five_rounds)
        ),
        time(five_rounds),
    );
    report(
        format!(
            "combat, the same with standing orders to the end (mean {:.1} rounds)",
            mean_rounds(standing_orders)
        ),
        time(standing_orders),
    );
}
