//! Picking up dropped belongings under Dropping and Losing Belongings (3.1
//! 10.A.5): at the end of each phase of his turn (`After phase 2: pick up
//! Spear`), one at a time until he is blocked, and after a combat in his
//! clearing (`Midnight: pick up Spear`). Taking up what lies in front of
//! himself keeps him hidden and cannot be blocked; anything else in the
//! clearing unhides him, and at the end of a phase those able to block him
//! may do so first (10.A.5.3–4). After combat each takes what lies in front
//! of him, then the characters claim the rest one belonging at a time, in
//! seat order (10.A.5.6; ruling: seat order stands for "the first character
//! and going to the left"). The start-of-phase pick-up is a rearranging step
//! (`day::rearrange`).

use std::collections::{BTreeMap, VecDeque};

use super::Day;
use super::blocking;
use super::events::Happening;
use super::rearrange::{self, RearrangeEvent, StepRefused};
use crate::orders::DayOrders;
use crate::orders::dealings::{Arrange, When};
use crate::state::belongings;
use crate::state::dropped;

/// The belongings `orders` pick up at `at`, in order.
fn wanted(orders: &DayOrders, at: When) -> Vec<String> {
    orders
        .rearrange
        .iter()
        .filter(|r| r.at == at)
        .flat_map(|r| r.steps.iter())
        .filter(|(how, _)| *how == Arrange::PickUp)
        .map(|(_, item)| item.clone())
        .collect()
}

/// Whether the dropped `name` lies in front of `who` in his clearing.
fn in_front(day: &Day<'_>, who: usize, name: &str) -> bool {
    let me = &day.state.characters[who];
    day.state
        .dropped_in(&me.position)
        .into_iter()
        .any(|(before, item)| {
            before == Some(me.name.as_str()) && belongings::names(name, &item.name)
        })
}

/// Tell who saw it that `who` picked up `item` at `at`, or him alone why not.
fn tell(day: &mut Day<'_>, who: usize, at: When, item: &str, done: Result<String, StepRefused>) {
    let character = day.state.characters[who].name.clone();
    let (observers, event) = match done {
        Ok(item) => (
            day.seen_acting(who),
            RearrangeEvent::Done {
                character,
                at,
                how: Arrange::PickUp,
                item,
                displaced: None,
            },
        ),
        Err(reason) => (
            day.only(who),
            RearrangeEvent::NotDone {
                character,
                at,
                how: Arrange::PickUp,
                item: item.to_string(),
                reason: reason.to_string(),
            },
        ),
    };
    day.emit(observers, Happening::Rearranged(event));
}

/// The end of phase `phase` of `who`'s turn: his `After phase N:` pick-ups,
/// each one first unhiding him and letting those able to block him do so
/// when it does not lie in front of him (3.1 10.A.5.3–4). Flying above
/// the clearing (`aloft`) he picks up nothing.
pub fn at_phase_end(
    day: &mut Day<'_>,
    who: usize,
    phase: u8,
    mine: &DayOrders,
    orders: &BTreeMap<String, DayOrders>,
    aloft: bool,
) {
    let at = When::AfterPhase(phase);
    for item in wanted(mine, at) {
        if aloft {
            tell(day, who, at, &item, Err(StepRefused::Aloft));
            continue;
        }
        if day.today.blocked.contains(&who) {
            tell(day, who, at, &item, Err(StepRefused::Blocked));
            continue;
        }
        if day.rules.is_on(dropped::TOGGLE) && !in_front(day, who, &item) {
            // Ordering it is his choice to come out of hiding for it.
            day.state.characters[who].hidden = false;
            if blocking::end_of_phase(day, who, orders) {
                tell(day, who, at, &item, Err(StepRefused::Blocked));
                continue;
            }
        }
        let done = rearrange::pick_up(day, who, &item, false);
        tell(day, who, at, &item, done);
    }
}

/// After the Evening: the `Midnight:` pick-ups of each living character in
/// a clearing where a combat was fought, what lies in front of each first,
/// then the rest claimed one belonging a turn in seat order (3.1 10.A.5.6).
pub fn at_midnight(day: &mut Day<'_>, orders: &BTreeMap<String, DayOrders>) {
    let mut queues: Vec<(usize, VecDeque<String>)> = Vec::new();
    for who in 0..day.state.characters.len() {
        let character = &day.state.characters[who];
        if character.dead {
            continue;
        }
        let Some(mine) = orders.get(&character.player) else {
            continue;
        };
        let items = wanted(mine, When::Midnight);
        if items.is_empty() {
            continue;
        }
        if day.rules.is_on(dropped::TOGGLE) && !day.today.fought_in.contains(&character.position) {
            for name in items {
                let refused = StepRefused::AfterCombatOnly { name: name.clone() };
                tell(day, who, When::Midnight, &name, Err(refused));
            }
            continue;
        }
        queues.push((who, items.into()));
    }
    day.state.settle_dropped();
    for (who, items) in &mut queues {
        let (before, rest): (Vec<String>, Vec<String>) =
            items.drain(..).partition(|name| in_front(day, *who, name));
        for name in before {
            let done = rearrange::pick_up(day, *who, &name, true);
            tell(day, *who, When::Midnight, &name, done);
        }
        items.extend(rest);
    }
    while queues.iter().any(|(_, items)| !items.is_empty()) {
        for (who, items) in &mut queues {
            if let Some(name) = items.pop_front() {
                // Taking what lies elsewhere unhides him (3.1 10.A.5.3).
                day.state.characters[*who].hidden = false;
                let done = rearrange::pick_up(day, *who, &name, false);
                tell(day, *who, When::Midnight, &name, done);
            }
        }
    }
}
