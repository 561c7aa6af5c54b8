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

use realmgm::magic_realm::state::{CharacterChit, CharacterState, CounterSide, Discoveries};

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

fn battle(data: &GameData) -> Battle {
    let mut fighters = Vec::new();
    for (i, name) in CHARACTERS.iter().enumerate() {
        let card = data
            .characters
            .iter()
            .find(|c| c.name == *name)
            .expect("character");
        let state = CharacterState {
            name: card.name.clone(),
            player: format!("P{i}"),
            start: StartLocation::Inn,
            position: realmgm::magic_realm::board::ClearingId::new("CV", 4),
            gold: 10,
            weapon: card.weapon.clone(),
            armor: card.armor.clone(),
            chits: card
                .chits
                .iter()
                .map(|c| CharacterChit::fresh(c.to_string()))
                .collect(),
            hidden: false,
            fame: 0,
            notoriety: 0,
            belongings: Vec::new(),
            discoveries: Discoveries::default(),
            found_hidden_enemies: false,
            hirelings: Vec::new(),
            weapon_alerted: false,
            dead: false,
            damaged_armor: Vec::new(),
            gold_specials: Vec::new(),
            magic: Default::default(),
        };
        fighters.push(Fighter {
            name: card.name.clone(),
            kind: FighterKind::Character(build::hero(data, &state).expect("hero")),
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
    Battle::new("CV4", fighters, CombatRules::default())
}

/// Up to five rounds, every decision answered by the default orders.
fn five_rounds(data: &GameData, seed: u64) -> u32 {
    let mut battle = battle(data);
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
fn standing_orders(data: &GameData, seed: u64) -> u32 {
    let mut battle = battle(data);
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

fn main() {
    let full = std::env::args().any(|arg| arg == "--bench");
    let data = data::get().expect("the embedded data loads");
    if !full {
        assert!(five_rounds(data, 1) >= 1);
        assert!(standing_orders(data, 1) >= 1);
        return;
    }
    let runs = 2000u64;
    let time = |f: fn(&GameData, u64) -> u32| {
        median(
            (0..runs)
                .map(|seed| {
                    let start = Instant::now();
                    std::hint::black_box(f(data, seed));
                    start.elapsed()
                })
                .collect(),
        )
    };
    let asked = time(five_rounds);
    let rounds: u32 = (0..100).map(|s| five_rounds(data, s)).sum();
    println!(
        "combat, 4 characters against 8 monsters, up to 5 rounds (mean {:.1}), every decision asked and answered: median {asked:?} (target 100 µs)",
        f64::from(rounds) / 100.0,
    );
    let standing = time(standing_orders);
    let rounds: u32 = (0..100).map(|s| standing_orders(data, s)).sum();
    println!(
        "combat, the same with standing orders to the end (mean {:.1} rounds): median {standing:?}",
        f64::from(rounds) / 100.0,
    );
}
