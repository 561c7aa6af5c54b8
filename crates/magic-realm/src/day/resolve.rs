//! One whole Magic Realm day (play summary I–IV): Birdsong and Sunrise,
//! Daylight turn by turn, Sunset and Evening, Midnight. The only entry
//! point the game calls.

use std::collections::BTreeMap;

use thiserror::Error;

use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;

use super::events::DayEvent;
use super::{
    Day, auto_enchant, birdsong, daylight, dealings, evening, familiar, leader_turn, midnight,
    phantasm, pick_up, rearrange, weather,
};
use crate::combat::Decision;
use crate::combat::by_rounds::RoundAnswers;
use crate::data::GameData;
use crate::orders::DayOrders;
use crate::state::MrState;

/// Why a day could not be resolved.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum DayError {
    #[error("the game ended after day {last_day}; start a new game to play on")]
    GameOver { last_day: u32 },
    #[error("orders were given for {player}, who has no character in this game; drop them")]
    UnknownPlayer { player: String },
}

/// A day played to its end, or stopped in the Evening at a combat
/// decision nobody answered (round-by-round combat).
#[derive(Debug)]
pub enum DayOutcome {
    Done(Box<MrState>, Vec<DayEvent>),
    /// The decisions waited for, and what happened up to them.
    Stopped(Vec<Decision>, Vec<DayEvent>),
}

/// Resolve day `state.day + 1` with every player's orders (a player with
/// none does nothing). Returns the new state and what happened.
///
/// # Errors
/// The game is over, or orders name a player without a character.
pub fn resolve_day(
    data: &GameData,
    rules: &Rules,
    state: MrState,
    orders: &BTreeMap<String, DayOrders>,
    dice: &mut Dice,
) -> Result<(MrState, Vec<DayEvent>), DayError> {
    match resolve_day_by_rounds(data, rules, state, orders, None, dice)? {
        DayOutcome::Done(state, events) => Ok((*state, events)),
        DayOutcome::Stopped(..) => unreachable!("without round answers no battle stops"),
    }
}

/// [`resolve_day`] with the round answers given by mail so far: with
/// `round_answers`, a battle stops at a round nobody answered for a
/// character without a `Combat:` line (see
/// [`crate::combat::by_rounds`]).
///
/// # Errors
/// The game is over, or orders name a player without a character.
pub fn resolve_day_by_rounds(
    data: &GameData,
    rules: &Rules,
    state: MrState,
    orders: &BTreeMap<String, DayOrders>,
    round_answers: Option<&RoundAnswers>,
    dice: &mut Dice,
) -> Result<DayOutcome, DayError> {
    if state.day >= state.last_day {
        return Err(DayError::GameOver {
            last_day: state.last_day,
        });
    }
    if let Some(player) = orders.keys().find(|p| {
        !state.characters.iter().any(|c| &c.player == *p)
            && !state.arrivals.iter().any(|a| &a.player == *p)
    }) {
        return Err(DayError::UnknownPlayer {
            player: player.clone(),
        });
    }
    let day_number = state.day + 1;
    let mut day = Day::new(data, rules, state, dice);
    auto_enchant::at_dawn(&mut day, day_number);
    let plan = birdsong::birdsong(&mut day, day_number, orders);
    weather::at_birdsong(&mut day);
    daylight::note_active_at_birdsong(&mut day);
    daylight::note_committed_at_birdsong(&mut day, orders);
    let mut familiars_following = BTreeMap::new();
    crate::day::spell_clock::dawn(&mut day, day_number, orders);
    for turn in &plan.order {
        let who = match turn {
            birdsong::Turn::Character(who) => *who,
            birdsong::Turn::Leader(native) => {
                leader_turn::take_turn(&mut day, native, orders);
                continue;
            }
        };
        let followers = plan.followers.get(&who).cloned().unwrap_or_default();
        // A character blocked before his turn (a monster came to his
        // clearing) loses all his phases but still ends his turn.
        daylight::take_turn(&mut day, who, &followers, orders);
        // A familiar acts after the turn in which its mistress moved.
        for i in std::iter::once(who).chain(followers) {
            if let Some(leader) = familiar::take_turn(&mut day, i, orders) {
                familiars_following.insert(i, leader);
            }
            phantasm::take_turn(&mut day, i, orders);
        }
    }
    familiar::end_of_daylight(&mut day, &familiars_following);
    dealings::end_of_daylight(&mut day, orders);
    crate::day::spell_clock::sunset(&mut day, day_number);
    if let Err(decisions) = evening::evening(&mut day, orders, round_answers) {
        return Ok(DayOutcome::Stopped(decisions, day.events));
    }
    weather::pay_fatigue(&mut day);
    pick_up::at_midnight(&mut day, orders);
    dealings::at_midnight(&mut day, orders);
    leader_turn::at_midnight(&mut day);
    rearrange::at_midnight(&mut day, orders);
    midnight::midnight(&mut day, day_number, orders);
    day.state.settle_dropped();
    day.state.day = day_number + weather::end_of_week(&mut day, day_number);
    Ok(DayOutcome::Done(Box::new(day.state), day.events))
}
