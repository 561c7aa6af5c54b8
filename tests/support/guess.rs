//! A guessing game for the daemon tests: each player guesses a hidden
//! number from 1 to 100 every day (simultaneous orders); each learns
//! privately whether to go higher or lower; everyone learns who guessed;
//! the game ends when someone hits the number or after five days.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

use realmgm::dice::{Dice, DiceCount};
use realmgm::game::{
    AcceptedOrders, Event, Game, GameState, Observers, OrdersProblem, Reader, Report, RuleToggle,
    Rules, RulesVersions, Seat, Seats, Start, Turn, TurnResult, TurnStep,
};
use realmgm::report::ReportContext;
use serde_json::{Value, json};

pub const MAX_DAYS: u64 = 5;

/// The deterministic game.
pub struct Guess;

/// The same game with a counter leaking into its events and its state, so
/// re-running a day gives a different game: the daemon must refuse to send it.
pub struct FlakyGuess;

static FLAKE: AtomicU64 = AtomicU64::new(0);

/// The same game with a counter leaking into its events only: a re-run
/// plays the same game and words its reports differently, as a newer
/// realmgm does with a day played before the upgrade.
pub struct RewordedGuess;

static REWORDING: AtomicU64 = AtomicU64::new(0);

fn bad(line: usize, message: &str) -> OrdersProblem {
    OrdersProblem {
        line,
        column: 1,
        message: message.to_string(),
    }
}

fn read(player: &str, text: &str) -> Result<AcceptedOrders, Vec<OrdersProblem>> {
    let mut guess = None;
    let mut problems = Vec::new();
    let mut warnings = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let lower = line.to_lowercase();
        // Stand-ins for bugs, so the daemon's containment can be tested.
        if lower == "crash" {
            panic!("a simulated bug in the orders reader");
        }
        if lower == "crash the turn" {
            return Ok(AcceptedOrders {
                canonical: "Crash the turn".into(),
                parsed: json!({ "guess": null, "crash": true }).into(),
                warnings,
            });
        }
        if let Some(rest) = lower.strip_prefix("for ") {
            let who = rest.split(':').next().unwrap_or_default().trim();
            if !who.eq_ignore_ascii_case(player) {
                problems.push(bad(
                    index + 1,
                    &format!("you can only give orders for yourself, not for {who}"),
                ));
                continue;
            }
        }
        let Some(number) = lower
            .rsplit("guess")
            .next()
            .filter(|_| lower.contains("guess"))
        else {
            problems.push(bad(
                index + 1,
                &format!("'{line}' is not an order; write `guess N`"),
            ));
            continue;
        };
        match number.trim().parse::<u64>() {
            Ok(n) if (1..=100).contains(&n) => {
                if guess.replace(n).is_some() {
                    warnings.push("more than one guess: only the last counts".to_string());
                }
            }
            _ => problems.push(bad(
                index + 1,
                &format!("'{}' is not a number from 1 to 100", number.trim()),
            )),
        }
    }
    if guess.is_none() && problems.is_empty() {
        problems.push(bad(1, "no guess; write `guess N`"));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let n = guess.unwrap_or_default();
    Ok(AcceptedOrders {
        canonical: format!("Guess: {n}"),
        parsed: json!({ "guess": n }).into(),
        warnings,
    })
}

fn new_game(seats: &[Seat], dice: &mut Dice) -> GameState {
    let target = u64::from(dice.below("setup/target", 100)) + 1;
    let players: Vec<&str> = seats.iter().map(|s| s.player.as_str()).collect();
    GameState::new(json!({ "target": target, "players": players, "day": 0, "finished": false }))
}

/// Anyone may join a guessing game: he guesses from the next turn on.
fn admit(state: &GameState, seats: &[Seat]) -> GameState {
    let mut json = state.json().clone();
    if let Some(players) = json["players"].as_array_mut() {
        for seat in seats {
            if !players.iter().any(|p| p == seat.player.as_str()) {
                players.push(json!(seat.player));
            }
        }
    }
    GameState::new(json)
}

fn resolve(
    state: &GameState,
    orders: &BTreeMap<String, AcceptedOrders>,
    dice: &mut Dice,
    flake: u64,
    flake_in_state: bool,
) -> anyhow::Result<TurnResult> {
    let target = state.json()["target"]
        .as_u64()
        .ok_or_else(|| anyhow::anyhow!("not a guess state"))?;
    let day = state.json()["day"].as_u64().unwrap_or(0) + 1;
    if orders.values().any(|o| o.parsed.json()["crash"] == true) {
        panic!("a simulated bug in the engine");
    }
    let omen = dice.roll("day/omen", DiceCount::Two).result;
    let mut events = vec![Event {
        observers: Observers::Everyone,
        body: json!({ "day": day, "guessers": orders.iter().filter(|(_, o)| !o.parsed.json()["guess"].is_null()).map(|(p, _)| p.clone()).collect::<Vec<_>>(), "omen": omen, "flake": flake }).into(),
    }];
    let mut winners = Vec::new();
    for (player, accepted) in orders {
        let Some(guess) = accepted.parsed.json()["guess"].as_u64() else {
            continue;
        };
        let hint = match guess.cmp(&target) {
            std::cmp::Ordering::Less => "higher",
            std::cmp::Ordering::Greater => "lower",
            std::cmp::Ordering::Equal => {
                winners.push(player.clone());
                "exact"
            }
        };
        events.push(Event {
            observers: Observers::Players([player.clone()].into()),
            body: json!({ "player": player, "guess": guess, "hint": hint }).into(),
        });
    }
    let finished = !winners.is_empty() || day >= MAX_DAYS;
    if finished {
        events.push(Event {
            observers: Observers::Everyone,
            body: json!({ "game_over": true, "winners": winners, "target": target }).into(),
        });
    }
    let mut next = state.json().clone();
    next["day"] = Value::from(day);
    next["finished"] = Value::from(finished);
    if flake_in_state && flake != 0 {
        next["flake"] = Value::from(flake);
    }
    Ok(TurnResult {
        state: GameState::new(next),
        events,
        finished,
    })
}

fn report(state: &GameState, events: &[Event], reader: Reader<'_>) -> Report {
    let day = state.json()["day"].as_u64().unwrap_or(0);
    let mut text = String::new();
    for event in events.iter().filter(|e| e.observers.includes(&reader)) {
        let body = event.body.json();
        if let Some(guessers) = body["guessers"].as_array() {
            let names: Vec<&str> = guessers.iter().filter_map(Value::as_str).collect();
            text.push_str(&format!(
                "Day {day}: guesses came from {}. Omen {}.\n",
                names.join(", "),
                body["omen"]
            ));
            if body["flake"] != 0 {
                text.push_str(&format!("Flake {}.\n", body["flake"]));
            }
        } else if body["game_over"] == true {
            text.push_str(&format!(
                "The game is over; the number was {}. Winners: {}.\n",
                body["target"], body["winners"]
            ));
        } else {
            text.push_str(&format!(
                "{} guessed {}: {}.\n",
                body["player"].as_str().unwrap_or("?"),
                body["guess"],
                body["hint"].as_str().unwrap_or("?")
            ));
        }
    }
    Report {
        subject: format!("Day {day} report"),
        text,
        ..Report::default()
    }
}

macro_rules! guess_game {
    ($type:ty, $id:literal, $flake:expr, $flake_in_state:expr) => {
        impl Game for $type {
            fn id(&self) -> &'static str {
                $id
            }
            fn toggles(&self) -> &'static [RuleToggle] {
                realmgm::magic_realm::game::MagicRealm.toggles()
            }
            fn rules_versions(&self) -> RulesVersions {
                realmgm::magic_realm::game::MagicRealm.rules_versions()
            }
            fn start(&self, start: &Start<'_>, dice: &mut Dice) -> anyhow::Result<GameState> {
                Ok(new_game(start.seats, dice))
            }
            fn seats(&self) -> Option<&dyn Seats> {
                Some(self)
            }
            fn awaiting(&self, state: &GameState) -> anyhow::Result<Vec<String>> {
                if state.json()["finished"] == true {
                    return Ok(Vec::new());
                }
                Ok(state.json()["players"].as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect())
            }
            fn read_orders(&self, _state: &GameState, _rules: &Rules, player: &str, text: &str) -> Result<AcceptedOrders, Vec<OrdersProblem>> {
                read(player, text)
            }
            fn safe_orders(&self) -> &'static str {
                "no guess"
            }
            fn missing_orders(&self, _state: &GameState, _rules: &Rules, _player: &str) -> anyhow::Result<AcceptedOrders> {
                Ok(AcceptedOrders { canonical: "Guess: none (no orders received)".into(), parsed: json!({ "guess": null }).into(), warnings: Vec::new() })
            }
            fn resolve_turn(&self, state: GameState, turn: &Turn<'_>, dice: &mut Dice) -> anyhow::Result<TurnStep> {
                resolve(&state, turn.orders, dice, $flake, $flake_in_state).map(TurnStep::Done)
            }
            fn report(&self, state: &GameState, events: &[Event], reader: Reader<'_>, _context: &ReportContext) -> anyhow::Result<Report> {
                Ok(report(state, events, reader))
            }
        }

        impl Seats for $type {
            fn admit(&self, state: &GameState, _rules: &Rules, seats: &[Seat]) -> anyhow::Result<GameState> {
                Ok(admit(state, seats))
            }
        }
    };
}

guess_game!(Guess, "guess", 0, false);
guess_game!(
    FlakyGuess,
    "guess-flaky",
    FLAKE.fetch_add(1, Ordering::SeqCst),
    true
);
guess_game!(
    RewordedGuess,
    "guess-reworded",
    REWORDING.fetch_add(1, Ordering::SeqCst),
    false
);

/// The guessing game with a rule its engine does not implement: every turn
/// fails to resolve, as a game does when it meets an unbuilt rule.
pub struct BrokenGuess;

impl Game for BrokenGuess {
    fn id(&self) -> &'static str {
        "guess-broken"
    }
    fn toggles(&self) -> &'static [RuleToggle] {
        Guess.toggles()
    }
    fn rules_versions(&self) -> RulesVersions {
        Guess.rules_versions()
    }
    fn start(&self, start: &Start<'_>, dice: &mut Dice) -> anyhow::Result<GameState> {
        Guess.start(start, dice)
    }
    fn awaiting(&self, state: &GameState) -> anyhow::Result<Vec<String>> {
        Guess.awaiting(state)
    }
    fn read_orders(
        &self,
        state: &GameState,
        rules: &Rules,
        player: &str,
        text: &str,
    ) -> Result<AcceptedOrders, Vec<OrdersProblem>> {
        Guess.read_orders(state, rules, player, text)
    }
    fn safe_orders(&self) -> &'static str {
        Guess.safe_orders()
    }
    fn missing_orders(
        &self,
        state: &GameState,
        rules: &Rules,
        player: &str,
    ) -> anyhow::Result<AcceptedOrders> {
        Guess.missing_orders(state, rules, player)
    }
    fn resolve_turn(
        &self,
        _state: GameState,
        _turn: &Turn<'_>,
        _dice: &mut Dice,
    ) -> anyhow::Result<TurnStep> {
        anyhow::bail!("the guessing rules for ties are not implemented yet")
    }
    fn report(
        &self,
        state: &GameState,
        events: &[Event],
        reader: Reader<'_>,
        context: &ReportContext,
    ) -> anyhow::Result<Report> {
        Guess.report(state, events, reader, context)
    }
}
