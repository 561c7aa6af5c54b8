//! The orders form at the end of a player's report (issue 7 §2): tomorrow's
//! orders, pre-filled with his standing instructions from his last accepted
//! orders (not that day's deals, rearrangements or hired leaders' phases),
//! ready to fill in and send back as a reply. The form always
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
    let mut standing = last_orders
        .and_then(|text| parse_day_orders(text, 1, data).ok())
        .unwrap_or_default();
    standing.for_another_day();
    let text = standing.to_string();
    OrdersForm {
        character: character.name.clone(),
        day,
        activities: vec!["H"; normal_phases(data, rules, state, character)].join(" / "),
        standing: text.lines().skip(1).map(str::to_string).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::magic_realm::test_support::{data, game_played_by};

    #[test]
    fn the_form_keeps_standing_lines_and_drops_the_days_dealings() {
        let state = game_played_by(&["Captain"], |_| "Ann".into());
        let last = "M CV4\nBlock: everyone\nLeave: Soldier 2\nSend: Soldier 1 with Soldier HQ\n\
                    Soldier HQ: M CV5\nGive: Spear to Elf\nPhase 2: activate Spear";
        let form = orders_form(
            data(),
            &Rules::default(),
            &state,
            &state.characters[0],
            2,
            Some(last),
        );
        let lines = form.standing.join("\n");
        assert!(
            lines.contains("Block: everyone") && lines.contains("Leave: Soldier 2"),
            "{lines}"
        );
        assert!(lines.contains("Send: Soldier 1 with Soldier HQ"), "{lines}");
        for gone in ["Soldier HQ:", "Give:", "Phase 2:"] {
            assert!(!lines.contains(gone), "{gone} in {lines}");
        }
    }
}
