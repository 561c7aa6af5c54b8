//! Bot-played Magic Realm games for the report tests: every day's state,
//! events and accepted orders, through the same `Game` interface the daemon
//! uses.
#![allow(dead_code)]

use realmgm::game::Start;
use realmgm::game::Turn;
use std::collections::BTreeMap;

use realmgm::dice::Dice;
use realmgm::game::{AcceptedOrders, Event, Game, GameState, Reader, Report, Rules, Seat};
use realmgm::magic_realm::data;
use realmgm::magic_realm::day::bot;
use realmgm::magic_realm::game::MagicRealm;
use realmgm::magic_realm::state::MrState;
use realmgm::report::ReportContext;

/// One resolved day.
pub struct PlayedDay {
    pub state: GameState,
    pub events: Vec<Event>,
    pub orders: BTreeMap<String, AcceptedOrders>,
}

/// The players' names: `P01`, `P02`, ...
pub fn player(i: usize) -> String {
    format!("P{:02}", i + 1)
}

/// Play `days` days of `characters` with bot orders from `seed`.
pub fn play(seed: u64, characters: &[&str], days: u32) -> Vec<PlayedDay> {
    let data = data::get().expect("data loads");
    let rules = Rules::default();
    let seats: Vec<Seat> = characters
        .iter()
        .enumerate()
        .map(|(i, c)| Seat {
            player: player(i),
            role: Some((*c).to_string()),
        })
        .collect();
    let mut state = MagicRealm
        .start(&Start::new(&seats, &rules), &mut Dice::new(seed, 0))
        .expect("setup works");
    let mut played = Vec::new();
    for day in 1..=days {
        let mr: MrState =
            serde_json::from_value(state.json().clone()).expect("a Magic Realm state");
        let mut bot_dice = Dice::new(seed ^ 0x0b07, day);
        let orders: BTreeMap<String, AcceptedOrders> = mr
            .characters
            .iter()
            .filter_map(|c| {
                let orders = bot::orders_for(data, &rules, &mr, &c.player, &mut bot_dice)?;
                let text = searching(day, &c.player).unwrap_or_else(|| orders.to_string());
                let accepted = MagicRealm
                    .read_orders(&state, &rules, &c.player, &text)
                    .expect("bot orders parse");
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
        state = turn.state.clone();
        played.push(PlayedDay {
            state: turn.state,
            events: turn.events,
            orders,
        });
        if turn.finished {
            break;
        }
    }
    played
}

/// Every third day, half the players search instead of following the bot,
/// and loot the next day where they stand, so sites, treasures and hidden
/// routes are found and taken.
fn searching(day: u32, player: &str) -> Option<String> {
    let odd = player.bytes().last().is_some_and(|b| b % 2 == 1);
    match (day % 3, odd) {
        (0, false) => Some("Activities: S / S / S / S\nSearch: locate; loot".to_string()),
        (1, true) => Some("Activities: S / S / S / S\nSearch: peer; locate".to_string()),
        (1, false) | (2, true) => Some("Activities: S / S / S / S\nSearch: loot".to_string()),
        _ => None,
    }
}

/// The report context a campaign named `T` gives on `day`.
pub fn context(day: &PlayedDay) -> ReportContext {
    ReportContext {
        campaign: "T".to_string(),
        deadline: Some("2025-03-02 20:00 UTC".to_string()),
        season: None,
        standing_orders: day
            .orders
            .iter()
            .map(|(p, o)| (p.clone(), o.canonical.clone()))
            .collect(),
        ..ReportContext::default()
    }
}

/// The report of `reader` for `day`.
pub fn report(day: &PlayedDay, reader: Reader<'_>) -> Report {
    MagicRealm
        .report(&day.state, &day.events, reader, &context(day))
        .expect("the report renders")
}

/// The validator of the players' JSON reports, from the schema file in the
/// repository.
pub fn report_schema() -> jsonschema::Validator {
    let schema: serde_json::Value =
        serde_json::from_str(realmgm::report_document::SCHEMA).expect("the schema is JSON");
    jsonschema::draft202012::new(&schema).expect("the schema is a valid draft 2020-12 schema")
}

/// The JSON document attached to `report`.
pub fn report_json(report: &Report) -> serde_json::Value {
    let (_, _, bytes) = report
        .attachments
        .iter()
        .find(|(name, mime, _)| name.ends_with(".json") && mime == realmgm::report_document::MIME)
        .expect("a player's report carries its JSON document");
    serde_json::from_slice(bytes).expect("the document is JSON")
}

/// Every error `validator` finds in `document`, one a line, naming where.
pub fn schema_errors(validator: &jsonschema::Validator, document: &serde_json::Value) -> String {
    validator
        .iter_errors(document)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect::<Vec<_>>()
        .join("\n")
}
