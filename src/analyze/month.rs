//! One simulated month: a seeded Magic Realm game of the
//! chosen characters, each played by the planning bot
//! ([`crate::magic_realm::day::bot_plan`]) for every day of the campaign's
//! calendar, with the game's invariants checked after each day
//! ([`super::invariants`]), measured per character from the day's events
//! and the final state.

use std::collections::BTreeMap;

use crate::dice::Dice;
use crate::game::Seat;
use crate::magic_realm::board::generate::generate;
use crate::magic_realm::combat::log::CombatLine;
use crate::magic_realm::data::GameData;
use crate::magic_realm::day::events::{CombatEvent, DayEvent, Happening, PhaseEvent};
use crate::magic_realm::day::hire::HireEvent;
use crate::magic_realm::day::meeting::{Cause, DealStep};
use crate::magic_realm::day::trade::TradeEvent;
use crate::magic_realm::day::weather::{self, WeatherEvent};
use crate::magic_realm::day::{bot, bot_plan, resolve_day, victory};
use crate::magic_realm::orders::DayOrders;
use crate::magic_realm::rules::SEASONS_TOGGLE;
use crate::magic_realm::setup::{self, SetupInputs};
use crate::magic_realm::state::DAYS_PER_MONTH;
use crate::magic_realm::state::ItemKind;

use super::{Side, invariants};

/// How the characters are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// The planning bot: the analysis's players.
    Planned,
    /// The random walker, for comparison only.
    Walker,
}

/// One month's measures: per character (measure → value), and the rule
/// events of the whole game (name → count).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MonthRecord {
    pub characters: BTreeMap<String, BTreeMap<String, f64>>,
    pub events: BTreeMap<String, f64>,
}

/// The measures of a character, in the order reports list them.
pub const MEASURES: [&str; 17] = [
    "deaths",
    "first death day",
    "victory points",
    "requirement met",
    "fame",
    "notoriety",
    "gold",
    "great treasures",
    "treasures held",
    "spells",
    "combats",
    "natives killed",
    "monsters killed",
    "hirelings hired",
    "items sold",
    "days blocked",
    "phases searched",
];

/// A month that broke one of the game's invariants, or could not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("month seed {seed}, day {day}: {message}")]
pub struct MonthError {
    pub seed: u64,
    pub day: u32,
    pub message: String,
}

/// Play the month of `seed` under `rules` with `characters`.
///
/// # Errors
/// Setup fails, a day fails, or an invariant breaks: named with the seed and
/// the day, to be replayed as a regression test.
pub fn play(
    data: &GameData,
    side: &Side,
    characters: &[String],
    seed: u64,
    policy: Policy,
) -> Result<MonthRecord, MonthError> {
    let rules = &side.rules;
    let fail = |day: u32, message: String| MonthError { seed, day, message };
    let seats: Vec<Seat> = characters
        .iter()
        .enumerate()
        .map(|(i, c)| Seat {
            player: format!("P{}", i + 1),
            role: Some(c.clone()),
        })
        .collect();
    // A campaign whose players build the board gets the board the seed
    // would have built, as if its players had placed those tiles.
    let board = rules.is_on(setup::PLAYER_BUILT_BOARD).then(|| {
        generate(&data.tiles, &mut Dice::new(seed, 0))
            .placements()
            .cloned()
            .collect()
    });
    let inputs = SetupInputs {
        board,
        victory_requirements: characters
            .iter()
            .map(|c| {
                (
                    c.clone(),
                    bot_plan::victory_requirements(data, c, side.victory_points),
                )
            })
            .collect(),
        ..SetupInputs::default()
    };
    let mut setup_dice = Dice::new(seed, 0);
    let mut state = setup::new_game(data, &seats, rules, &inputs, &mut setup_dice)
        .map_err(|e| fail(0, format!("setup: {e}")))?;
    // The calendar as the daemon starts it (`Game::start` with the campaign's calendar).
    state.last_day = side.months * DAYS_PER_MONTH;
    state.victory_points = side.victory_points;
    if let Some(season) = side
        .season
        .as_deref()
        .filter(|_| rules.is_on(SEASONS_TOGGLE))
    {
        weather::start(&mut state, season, &mut setup_dice).map_err(|e| fail(0, e.to_string()))?;
    }
    invariants::check(data, &state, &state, &[]).map_err(|m| fail(0, m.to_string()))?;
    let mut record = MonthRecord::default();
    let mut tally: BTreeMap<String, Tally> = characters
        .iter()
        .map(|c| (c.clone(), Tally::default()))
        .collect();
    while state.day < state.last_day {
        let day = state.day + 1;
        let mut dice = Dice::new(seed, day);
        let orders: BTreeMap<String, DayOrders> = state
            .characters
            .iter()
            .filter_map(|c| {
                let orders = match policy {
                    Policy::Planned => {
                        bot_plan::orders_for(data, rules, &state, &c.player, &mut dice)
                    }
                    // The walker cannot foresee where a dead character
                    // starts again: he hides.
                    Policy::Walker if c.dead => Some(bot_plan::hiding_day()),
                    Policy::Walker => bot::orders_for(data, rules, &state, &c.player, &mut dice),
                };
                orders.map(|o| (c.player.clone(), o))
            })
            .collect();
        let before = state.clone();
        let (after, events) = resolve_day(data, rules, state, &orders, &mut dice)
            .map_err(|e| fail(day, e.to_string()))?;
        invariants::check(data, &before, &after, &events).map_err(|m| fail(day, m.to_string()))?;
        measure_day(data, day, &events, &mut tally, &mut record.events);
        state = after;
    }
    for c in &state.characters {
        let Some(t) = tally.get(&c.name) else {
            continue;
        };
        let requirements = state.victory_requirements.get(&c.name);
        let score = victory::score(data, rules, &state, c, requirements);
        let mut m = BTreeMap::new();
        let mut put = |name: &str, value: f64| {
            m.insert(name.to_string(), value);
        };
        put("deaths", f64::from(t.deaths));
        if let Some(day) = t.first_death {
            put("first death day", f64::from(day));
        }
        put("victory points", f64::from(score.total));
        put("requirement met", if score.total >= 0 { 1.0 } else { 0.0 });
        put("fame", f64::from(score.fame));
        put("notoriety", f64::from(score.notoriety));
        put("gold", f64::from(score.gold));
        put("great treasures", f64::from(score.great_treasures));
        put(
            "treasures held",
            c.belongings
                .iter()
                .filter(|b| b.item.kind == ItemKind::Treasure)
                .count() as f64,
        );
        put("spells", f64::from(score.spells));
        put("combats", f64::from(t.combats));
        put("natives killed", f64::from(t.natives_killed));
        put("monsters killed", f64::from(t.monsters_killed));
        put("hirelings hired", f64::from(t.hired));
        put("items sold", f64::from(t.sold));
        put("days blocked", f64::from(t.blocked));
        put("phases searched", f64::from(t.searched));
        for (group, n) in &t.natives_by_group {
            put(&format!("killed of the {group}"), f64::from(*n));
        }
        record.characters.insert(c.name.clone(), m);
    }
    Ok(record)
}

/// What the events of the month say of one character.
#[derive(Clone, Debug, Default)]
pub(super) struct Tally {
    pub(super) deaths: u32,
    pub(super) first_death: Option<u32>,
    combats: u32,
    natives_killed: u32,
    natives_by_group: BTreeMap<String, u32>,
    monsters_killed: u32,
    hired: u32,
    sold: u32,
    blocked: u32,
    searched: u32,
}

pub(super) fn measure_day(
    data: &GameData,
    day: u32,
    events: &[DayEvent],
    tally: &mut BTreeMap<String, Tally>,
    rule_events: &mut BTreeMap<String, f64>,
) {
    let mut add = |name: &str, n: f64| *rule_events.entry(name.to_string()).or_default() += n;
    for event in events {
        match &event.happening {
            Happening::Combat(CombatEvent::Line { line, .. }) => match line {
                CombatLine::Begins { fighters } => {
                    for fighter in fighters {
                        if let Some(t) = tally.get_mut(fighter) {
                            t.combats += 1;
                        }
                    }
                }
                CombatLine::Killed { victim, by } => {
                    let group = data
                        .natives
                        .iter()
                        .find(|g| g.members.iter().any(|m| &m.name == victim));
                    let victim_is_character = tally.contains_key(victim);
                    let killer = tally.get_mut(by);
                    match (group, killer) {
                        (Some(group), Some(t)) => {
                            t.natives_killed += 1;
                            *t.natives_by_group.entry(group.name.clone()).or_default() += 1;
                        }
                        (None, Some(t)) if !victim_is_character => t.monsters_killed += 1,
                        _ => {}
                    }
                    if group.is_some() {
                        add("natives killed", 1.0);
                    }
                    if let Some(t) = tally.get_mut(victim) {
                        t.deaths += 1;
                        t.first_death.get_or_insert(day);
                    }
                }
                // Fatigue kills with no killer: its own line.
                CombatLine::Died { character, .. } => {
                    if let Some(t) = tally.get_mut(character) {
                        t.deaths += 1;
                        t.first_death.get_or_insert(day);
                    }
                }
                CombatLine::Watchful { .. } => add("watchful natives join", 1.0),
                CombatLine::Treachery { .. } | CombatLine::ExtendedTreachery { .. } => {
                    add("treachery", 1.0);
                }
                CombatLine::Roll { record, .. } => {
                    if let Some(kind) = rule_roll(&record.purpose) {
                        add(kind, 1.0);
                    }
                }
                _ => {}
            },
            Happening::Roll(record) => {
                if let Some(kind) = rule_roll(&record.purpose) {
                    add(kind, 1.0);
                }
            }
            Happening::Phase(PhaseEvent::Blocked { blocked, .. }) => {
                if let Some(t) = tally.get_mut(blocked) {
                    t.blocked += 1;
                }
                add("blocks", 1.0);
            }
            Happening::Phase(PhaseEvent::PhaseDone {
                character,
                recorded,
                ..
            }) if recorded.starts_with('S') => {
                if let Some(t) = tally.get_mut(character) {
                    t.searched += 1;
                }
            }
            Happening::Hire(HireEvent::Hired {
                character, natives, ..
            }) => {
                if let Some(t) = tally.get_mut(character) {
                    t.hired += u32::try_from(natives.len()).unwrap_or(u32::MAX);
                }
            }
            // Levels a group's relationship moved for good (Grudges and
            // Gratitude, boons), counted one per level.
            Happening::Trade(TradeEvent::Deal(DealStep::Moved { levels, cause, .. })) => {
                let name = match cause {
                    Cause::Killed { .. } | Cause::Treachery => "grudge levels lost",
                    Cause::SoldRewardCard { .. } | Cause::BoughtRewardCard { .. } => {
                        "reward-card levels moved"
                    }
                    Cause::BoonTaken { .. } | Cause::BoonRepaid => "boon levels moved",
                };
                add(name, f64::from(levels.unsigned_abs()));
            }
            Happening::Trade(TradeEvent::Sold { character, .. }) => {
                if let Some(t) = tally.get_mut(character) {
                    t.sold += 1;
                }
            }
            Happening::Weather(WeatherEvent::DaySkipped { .. }) => {
                add("days skipped by weather", 1.0)
            }
            Happening::Weather(WeatherEvent::Week { .. }) => add("weather weeks", 1.0),
            _ => {}
        }
    }
}

/// The rule a roll's purpose belongs to, for the counts of rule events.
fn rule_roll(purpose: &str) -> Option<&'static str> {
    let head = purpose.split('/').next().unwrap_or(purpose);
    match head {
        "stumble" => Some("stumbles rolled"),
        _ => None,
    }
}
