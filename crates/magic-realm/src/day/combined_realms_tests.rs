//! Two Realms combined played through days (3.1 10.E.7): a combined setup
//! plays a month of the bots' days on the double board without a refusal,
//! and the rules that keep the two games' pieces apart.

use std::collections::BTreeMap;

use super::bot;
use super::resolve_day;
use crate::data::GameData;
use crate::data::realms::Realm;
use crate::orders::DayOrders;
use crate::rules::COMBINED_REALMS;
use crate::setup::{SetupInputs, new_game};
use crate::state::MrState;
use realmgm_core::dice::Dice;
use realmgm_core::game::{RuleToggle, Rules, Seat, ToggleStatus};

fn data() -> &'static GameData {
    crate::data::combined().unwrap_or_else(|e| panic!("{e}"))
}

/// The rules with `combined_realms` on, as a campaign will switch it once
/// it is built.
fn combined() -> Rules {
    let mut known: Vec<RuleToggle> = crate::rules::TOGGLES.to_vec();
    for toggle in known.iter_mut().filter(|t| t.name == COMBINED_REALMS) {
        toggle.status = ToggleStatus::Built;
    }
    Rules::new([COMBINED_REALMS], &known).unwrap_or_else(|e| panic!("{e}"))
}

fn set_up(seed: u64, roles: &[&str]) -> MrState {
    let seats: Vec<Seat> = roles
        .iter()
        .enumerate()
        .map(|(i, role)| Seat {
            player: format!("P{}", i + 1),
            role: Some((*role).to_string()),
        })
        .collect();
    new_game(
        data(),
        &seats,
        &combined(),
        &SetupInputs::default(),
        &mut Dice::new(seed, 0),
    )
    .unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

/// Play `days` days of the walking bots' orders.
fn bot_days(mut state: MrState, seed: u64, days: u32) -> MrState {
    let rules = combined();
    for _ in 0..days {
        let day = state.day + 1;
        let mut bot_dice = Dice::new(seed, 1000 + day);
        let orders: BTreeMap<String, DayOrders> = state
            .characters
            .iter()
            .filter_map(|c| {
                bot::orders_for(data(), &rules, &state, &c.player, &mut bot_dice)
                    .map(|o| (c.player.clone(), o))
            })
            .collect();
        let (next, _) = resolve_day(data(), &rules, state, &orders, &mut Dice::new(seed, day))
            .unwrap_or_else(|e| panic!("seed {seed}, day {day}: {e}"));
        state = next;
    }
    state
}

#[test]
fn a_combined_game_plays_a_month_of_days_on_the_double_board() {
    for seed in 0..3 {
        let state = set_up(
            seed,
            &["Amazon II", "Black Knight", "Swordsman II", "Dwarf"],
        );
        let state = bot_days(state, seed, 28);
        assert_eq!(state.day, 28);
        let second_on_the_map = state.denizens.iter().any(|(id, d)| {
            Realm::of_name(id) == Realm::Second
                && matches!(d.at, crate::state::Whereabouts::Clearing { .. })
        });
        assert!(
            second_on_the_map,
            "seed {seed}: no second-game denizen came out"
        );
    }
}
