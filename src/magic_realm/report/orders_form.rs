//! The orders form at the end of a player's report (issue 7 §2): tomorrow's
//! orders, pre-filled with his standing instructions from his last accepted
//! orders, ready to fill in and send back as a reply. The form always
//! parses with the orders parser as it stands (its activities line holds
//! the safe default, hiding in every phase).

use serde::Serialize;

use crate::game::Rules;
use crate::magic_realm::data::GameData;
use crate::magic_realm::day::daylight::normal_phases;
use crate::magic_realm::orders::parse_day_orders;
use crate::magic_realm::state::{CharacterState, MrState};

/// What the orders form template is filled with.
#[derive(Clone, Debug, Serialize)]
pub struct OrdersForm {
    pub character: String,
    pub day: u32,
    /// The activities line's pre-filled value.
    pub activities: String,
    /// The standing instruction lines (`Search: ...`, `Block: ...`).
    pub standing: Vec<String>,
}

/// The form for `character`'s orders of `day`, from his last accepted
/// orders (canonical text) when there are any. Orders that no longer parse
/// (the data changed) fall back to the defaults. The activities line has
/// one Hide for each phase he has as things stand (`daylight::normal_phases`).
pub fn orders_form(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    character: &CharacterState,
    day: u32,
    last_orders: Option<&str>,
) -> OrdersForm {
    let standing = last_orders
        .and_then(|text| parse_day_orders(text, 1, data).ok())
        .unwrap_or_default();
    let text = standing.to_string();
    OrdersForm {
        character: character.name.clone(),
        day,
        activities: vec!["H"; normal_phases(data, rules, state, character)].join(" / "),
        standing: text.lines().skip(1).map(str::to_string).collect(),
    }
}
