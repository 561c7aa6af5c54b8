//! Hirelings stand in a clearing and follow their employer (play summary
//! I.C, II.C.8). A hired native is a counter on the map like
//! any other; what makes him a follower is his employer's turn:
//!
//! - The hirelings standing in his clearing when his turn starts move with
//!   him phase by phase, unless his `Leave:` line names them: those stay
//!   where they stand (hired non-leaders can only follow, and a character
//!   may always leave his hired followers behind).
//! - They are left behind when he flies, when a pony doubles his move and
//!   they ride no pony of their own, and when he is carried off alone.
//! - A hired leader with a line of his own takes his own turn, and the
//!   hirelings a `Send:` line puts with him follow him (`day::leader_turn`).
//! - Hirelings standing elsewhere stay put until he comes back to them: a
//!   ruling, as the rules put followers with their guide only at Birdsong,
//!   and realmgm already rules that a follower must start in his guide's
//!   clearing.
//!
//! - They hide when he hides and are unhidden when he is (3.1 4.2, 7.4.5);
//!   a hired non-leader hidden so stays hidden into the Evening's combat
//!   (3.1 8.1.4b) and until the next day begins.
//!
//! In the Evening a hireling fights where he stands, for his employer even
//! when the employer is elsewhere (`day::evening`); hired non-leaders alone
//! never start combat.

use realmgm_core::game::Observers;
use realmgm_core::suggest::same;

use super::Day;
use super::events::{Happening, PhaseEvent};
use crate::board::ClearingId;
use crate::data::GameData;
use crate::data::horses::HorseKind;
use crate::data::natives::find_member;
use crate::orders::DayOrders;
use crate::state::Whereabouts;

/// The hirelings of `who` who follow him this turn, and those his `Leave:`
/// line keeps where they stand ([`say_left_behind`] tells him).
pub fn at_turn_start(day: &Day<'_>, who: usize, orders: &DayOrders) -> (Vec<String>, Vec<String>) {
    let character = &day.state.characters[who];
    let here = Whereabouts::Clearing {
        clearing: character.position.clone(),
    };
    let (follow, stay): (Vec<String>, Vec<String>) = character
        .hirelings
        .iter()
        .map(|h| h.native.clone())
        .filter(|native| day.state.denizens.get(native).map(|d| &d.at) == Some(&here))
        // Hired leaders with turns of their own, and those sent with them.
        .filter(|native| {
            !super::hired_leaders::takes_own_turn(day, who, native, Some(orders))
                && super::hired_leaders::sent_with(orders, native).is_none()
        })
        .partition(|native| !left_by_order(day.data, orders, native));
    (follow, stay)
}

/// Tell him which followers (characters or hirelings) are left behind and
/// why; nothing when none are.
pub fn say_left_behind(
    day: &mut Day<'_>,
    who: usize,
    followers: Vec<String>,
    reason: &str,
    observers: &Observers,
) {
    if followers.is_empty() {
        return;
    }
    day.emit(
        observers.clone(),
        Happening::Phase(PhaseEvent::FollowersLeft {
            character: day.state.characters[who].name.clone(),
            followers,
            reason: reason.into(),
        }),
    );
}

/// Whether the `Leave:` line names this hireling, his group (`Soldiers`,
/// `Soldier`) or `all`.
fn left_by_order(data: &GameData, orders: &DayOrders, native: &str) -> bool {
    let group = find_member(&data.natives, native).map(|(g, _)| g);
    orders.leave.iter().any(|name| {
        same(name, native)
            || same(name, "all")
            || same(name, "everyone")
            || group.is_some_and(|g| same(name, &g.name) || same(name, &g.member_name))
    })
}

/// Put the hirelings in `natives` in `clearing`.
pub fn carry(day: &mut Day<'_>, natives: &[String], clearing: &ClearingId) {
    for native in natives {
        if let Some(counter) = day.state.denizens.get_mut(native) {
            counter.at = Whereabouts::Clearing {
                clearing: clearing.clone(),
            };
        }
    }
}

/// The hirelings with `who` share his hiding: hidden while he is, unhidden
/// when he is (3.1 4.2, 6.3.1b). A hired non-leader hides no other way, and
/// each day starts with him unhidden (3.1 7.4.5), so his hiding lasts the
/// day; a hired leader's is kept on his record.
pub fn hide_with_guide(day: &mut Day<'_>, who: usize, natives: &[String]) {
    let hidden = day.state.characters[who].hidden;
    for native in natives {
        if super::hired_leaders::is_leader(day.data, native) {
            if hidden {
                day.state.leaders.entry(native.clone()).or_default().hidden = true;
            } else if let Some(record) = day.state.leaders.get_mut(native) {
                record.hidden = false;
            }
        } else if hidden {
            day.today.hidden_underlings.insert(native.clone());
        } else {
            day.today.hidden_underlings.remove(native);
        }
    }
}

/// Whether a hired native rides a pony he still has, so he keeps up with a
/// pony's double move.
pub fn rides_pony(day: &Day<'_>, native: &str) -> bool {
    let Some((_, member)) = find_member(&day.data.natives, native) else {
        return false;
    };
    let Some(horse) = member.horse.as_deref() else {
        return false;
    };
    let still_his = day
        .state
        .holdings
        .get(native)
        .is_some_and(|items| items.iter().any(|i| i.name == horse));
    still_his
        && day
            .data
            .horses
            .iter()
            .any(|h| h.name == horse && h.kind == HorseKind::Pony)
}
