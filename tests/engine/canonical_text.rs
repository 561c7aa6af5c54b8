//! The canonical text the store saves and hashes of a state, an event and
//! a player's orders, written straight from the engine's typed values, is
//! byte for byte the text the JSON tree gave (`serde_json::to_value` then
//! `to_string`, kept here as the oracle): on every day of the demo's game,
//! on a month of all sixteen characters (battles, spells, treasure), on a
//! day with every native hired, and on a game of Fantasy Realms.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use realmgm::campaign::Campaign;
use realmgm::dice::Dice;
use realmgm::fantasy_realms::game::FantasyRealms;
use realmgm::fantasy_realms::state::{Happening as FrHappening, Table};
use realmgm::game::{
    AcceptedOrders, CalendarStart, Game, GameState, Rules, Seat, Start, Turn, TurnResult,
};
use realmgm::magic_realm::data;
use realmgm::magic_realm::day::bot;
use realmgm::magic_realm::day::events::Happening;
use realmgm::magic_realm::game::MagicRealm;
use realmgm::magic_realm::state::{Hireling, MrState, Whereabouts};

const DEMO: &str = include_str!("../../campaigns/demo.toml");

/// The text of the JSON tree of `value`: what the store saved before.
fn through_the_tree<T: Serialize>(value: &T) -> String {
    serde_json::to_string(&serde_json::to_value(value).expect("a tree")).expect("a text")
}

/// The Magic Realm state a game state carries, typed as the engine left it.
fn typed(state: &GameState) -> std::sync::Arc<MrState> {
    state
        .typed(|json| MrState::deserialize(json))
        .expect("a Magic Realm state")
}

/// Every text of a turn against the tree's: its state and each event.
fn check_turn<E: Serialize + for<'de> Deserialize<'de> + Send + Sync + 'static>(
    turn: &TurnResult,
    state_tree: String,
) {
    assert_eq!(turn.state.canonical_text(), state_tree);
    for event in &turn.events {
        let body = event
            .body
            .typed(|json| E::deserialize(json))
            .expect("the game's own event");
        assert_eq!(event.body.canonical_text(), through_the_tree(&*body));
    }
}

/// The orders of every awaited player, as the bot writes them and the game
/// reads them; each one's text against the tree's.
fn bot_orders(
    game: &dyn Game,
    rules: &Rules,
    state: &GameState,
    dice: &mut Dice,
) -> BTreeMap<String, AcceptedOrders> {
    let data = data::get().expect("the data");
    let mr = typed(state);
    let mut orders = BTreeMap::new();
    for player in game.awaiting(state).expect("the awaited") {
        let Some(text) = bot::orders_for(data, rules, &mr, &player, dice) else {
            continue;
        };
        let accepted = game
            .read_orders(state, rules, &player, &text.to_string())
            .expect("bot orders read");
        assert_eq!(
            accepted.parsed.canonical_text(),
            through_the_tree(accepted.parsed.json())
        );
        orders.insert(player, accepted);
    }
    orders
}

/// Play `days` days of `state` with bot orders, checking every text.
fn play(rules: &Rules, mut state: GameState, seed: u64, days: u32) -> GameState {
    let game: &dyn Game = &MagicRealm;
    for day in 1..=days {
        let mut dice = Dice::new(seed, day);
        let orders = bot_orders(game, rules, &state, &mut dice);
        let turn = game
            .resolve_turn(state.clone(), &Turn::new(rules, &orders), &mut dice)
            .expect("a bot day resolves")
            .done()
            .expect("no rounds by mail");
        check_turn::<Happening>(&turn, through_the_tree(&*typed(&turn.state)));
        state = turn.state;
    }
    state
}

#[test]
fn the_demos_game_writes_every_day_as_the_tree_did() {
    let campaign =
        Campaign::parse("demo.toml", DEMO, realmgm::games::GAMES).expect("the demo campaign");
    let seats = campaign.seats();
    let calendar = campaign.calendar.as_ref().expect("the demo's calendar");
    let start = Start {
        calendar: Some(CalendarStart {
            months: calendar.months,
            season: calendar.start_season.as_deref(),
            victory_points: calendar.victory_points,
        }),
        ..Start::new(&seats, &campaign.rules)
    };
    let state = MagicRealm
        .start(&start, &mut Dice::new(campaign.seed, 0))
        .expect("the demo sets up");
    assert_eq!(state.canonical_text(), through_the_tree(&*typed(&state)));
    let last = play(&campaign.rules, state, campaign.seed, 28);
    assert_eq!(typed(&last).day, 28);
}

/// The seats of a game with every character.
fn everyone() -> Vec<Seat> {
    data::get()
        .expect("the data")
        .characters
        .iter()
        .enumerate()
        .map(|(i, c)| Seat {
            player: format!("P{:02}", i + 1),
            role: Some(c.name.clone()),
        })
        .collect()
}

#[test]
fn a_month_of_every_character_and_a_day_with_every_native_hired_write_as_the_tree_did() {
    let rules = Rules::default();
    let seats = everyone();
    let state = MagicRealm
        .start(&Start::new(&seats, &rules), &mut Dice::new(3, 0))
        .expect("setup");
    play(&rules, state.clone(), 3, 28);
    // Each native group hired whole by one character in turn, standing with
    // him: hired leaders and their groups in the state and the day.
    let data = data::get().expect("the data");
    let mut mr = MrState::clone(&typed(&state));
    for (i, group) in data.natives.iter().enumerate() {
        let employer = i % mr.characters.len();
        let here = mr.characters[employer].position.clone();
        for member in &group.members {
            if let Some(counter) = mr.denizens.get_mut(&member.name) {
                counter.at = Whereabouts::Clearing {
                    clearing: here.clone(),
                };
                mr.characters[employer].hirelings.push(Hireling {
                    native: member.name.clone(),
                    days_left: 14,
                });
            }
        }
    }
    let hiring = GameState::from_typed(mr);
    assert_eq!(hiring.canonical_text(), through_the_tree(&*typed(&hiring)));
    play(&rules, hiring, 4, 3);
}

#[test]
fn a_game_of_fantasy_realms_writes_as_the_tree_did() {
    let game: &dyn Game = &FantasyRealms;
    let rules = Rules::default();
    let seats: Vec<Seat> = ["Ann", "Ben", "Cat"]
        .iter()
        .map(|p| Seat {
            player: (*p).to_string(),
            role: None,
        })
        .collect();
    let mut state = game
        .start(&Start::new(&seats, &rules), &mut Dice::new(5, 0))
        .expect("dealt");
    let table = |state: &GameState| {
        state
            .typed(|json| Table::deserialize(json))
            .expect("a table")
    };
    assert_eq!(state.canonical_text(), through_the_tree(&*table(&state)));
    let mut day = 1;
    while !game.is_over(&state).expect("a table") {
        let mut dice = Dice::new(5, day);
        let orders: BTreeMap<String, AcceptedOrders> = game
            .awaiting(&state)
            .expect("the awaited")
            .into_iter()
            .map(|player| {
                let orders = game
                    .missing_orders(&state, &rules, &player)
                    .expect("the default orders");
                (player, orders)
            })
            .collect();
        let turn = game
            .resolve_turn(state.clone(), &Turn::new(&rules, &orders), &mut dice)
            .expect("a turn")
            .done()
            .expect("no rounds");
        check_turn::<FrHappening>(&turn, through_the_tree(&*table(&turn.state)));
        state = turn.state;
        day += 1;
        assert!(day < 200, "the game ends");
    }
}
