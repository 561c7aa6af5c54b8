//! Who the hired leaders and controlled monsters are and where they stand:
//! the bookkeeping that blocking, dealings, hiring, the retinue and
//! summoning read about them, kept below the code that plays their own
//! turns (`leader_turn`, which plays them through `daylight`) so that none
//! of them depends on the turn machinery. A monster under its controller's
//! control spell takes turns as a hired leader does (3.1 6.2.5).

use std::collections::BTreeMap;

use super::Day;
use crate::board::ClearingId;
use crate::data::GameData;
use crate::data::natives::find_member;
use crate::magic::influence::{controlled_by, controller_of};
use crate::orders::DayOrders;
use crate::orders::activity::Activity;
use crate::orders::dealings::LeaderLine;
use crate::state::{MrState, Whereabouts};
use realmgm_core::suggest::same;

/// Whether the native is a group's leader. Every leader is his group's
/// `HQ` (as orders name them, `dealings::is_leader_key`), so other names
/// are answered without a look through the groups.
pub fn is_leader(data: &GameData, native: &str) -> bool {
    native.ends_with("HQ") && find_member(&data.natives, native).is_some_and(|(_, m)| m.is_leader())
}

/// The character a hired leader works for or a controlled monster obeys:
/// his employer, or the monster's controller (3.1 6.2.5).
pub fn master_of(state: &MrState, native: &str) -> Option<usize> {
    state
        .employer_of(native)
        .or_else(|| controller_of(state, native))
}

/// Those of character `who` who take turns like a character: his hired
/// leaders and the monsters he controls.
fn turn_takers(day: &Day<'_>, who: usize) -> Vec<String> {
    day.state.characters[who]
        .hirelings
        .iter()
        .map(|h| h.native.clone())
        .filter(|n| is_leader(day.data, n))
        .chain(controlled_by(&day.state, who))
        .collect()
}

/// His employer's line for the hired leader `native`, if any.
pub fn own_line<'o>(orders: &'o DayOrders, native: &str) -> Option<&'o LeaderLine> {
    orders.leaders.iter().find(|l| same(&l.leader, native))
}

/// The hired leader a `Send:` line puts `native` with, if any.
pub fn sent_with<'o>(orders: &'o DayOrders, native: &str) -> Option<&'o str> {
    orders
        .send
        .iter()
        .find(|s| s.natives.iter().any(|n| same(n, native)))
        .map(|s| s.leader.as_str())
}

/// The character the hired leader's line says he follows today (`Soldier
/// HQ: F Elf`), if it does.
pub fn follows<'o>(orders: &'o DayOrders, native: &str) -> Option<&'o str> {
    match &own_line(orders, native)?
        .activities
        .phases
        .first()?
        .activity
    {
        Activity::Follow { leader } => Some(leader),
        _ => None,
    }
}

/// Whether the hired leader or controlled monster `native` takes a turn of
/// his own today: his master wrote him a line that is not a Follow, or he
/// is a hired leader standing away from his employer with no line.
pub fn takes_own_turn(
    day: &Day<'_>,
    employer: usize,
    native: &str,
    orders: Option<&DayOrders>,
) -> bool {
    let boss = &day.state.characters[employer];
    let monster = !is_leader(day.data, native);
    if boss.dead || (monster && controller_of(&day.state, native) != Some(employer)) {
        return false;
    }
    let Some(Whereabouts::Clearing { clearing }) = day.state.denizens.get(native).map(|d| &d.at)
    else {
        return false;
    };
    match orders.and_then(|o| own_line(o, native)) {
        Some(_) => orders.and_then(|o| follows(o, native)).is_none(),
        // A controlled monster moves only as its controller records
        // (7.13.3e): without a line it stays where it stands.
        None => !monster && clearing != &boss.position,
    }
}

/// The hired leaders (of any employer) whose line has them follow `who`
/// today and who stand in his clearing as his turn starts, with the
/// hirelings sent with them: they move with him.
pub fn following(day: &Day<'_>, who: usize, orders: &BTreeMap<String, DayOrders>) -> Vec<String> {
    let guide = &day.state.characters[who];
    let here = Whereabouts::Clearing {
        clearing: guide.position.clone(),
    };
    let standing_here = |native: &str| day.state.denizens.get(native).map(|d| &d.at) == Some(&here);
    let mut with_him = Vec::new();
    for (seat, employer) in day.state.characters.iter().enumerate() {
        let Some(theirs) = orders.get(&employer.player) else {
            continue;
        };
        let any_follows = theirs.leaders.iter().any(|l| {
            matches!(
                l.activities.phases.first().map(|p| &p.activity),
                Some(Activity::Follow { .. })
            )
        });
        if !any_follows {
            continue;
        }
        for native in &turn_takers(day, seat) {
            if !standing_here(native)
                || !follows(theirs, native).is_some_and(|g| same(g, &guide.name))
            {
                continue;
            }
            with_him.push(native.clone());
            with_him.extend(
                employer
                    .hirelings
                    .iter()
                    .filter(|h| sent_with(theirs, &h.native).is_some_and(|l| same(l, native)))
                    .filter(|h| standing_here(&h.native))
                    .map(|h| h.native.clone()),
            );
        }
    }
    with_him
}

/// The hired leaders and controlled monsters standing in `clearing`
/// outside their own turn, with their masters' seats. Read from the
/// masters' hirelings and control spells, a few counters, not from every
/// denizen.
pub fn hired_leaders_in(day: &Day<'_>, clearing: &ClearingId) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    for employer in 0..day.state.characters.len() {
        for native in turn_takers(day, employer) {
            let native = native.as_str();
            let here = matches!(
                day.state.denizens.get(native).map(|d| &d.at),
                Some(Whereabouts::Clearing { clearing: at }) if at == clearing
            );
            if here && stand_in_of(day, native).is_none() {
                found.push((native.to_string(), employer));
            }
        }
    }
    found
}

/// The seat of a hired leader's stand-in while his turn is played.
pub fn stand_in_of(day: &Day<'_>, native: &str) -> Option<usize> {
    // Stand-ins sit after the seated characters, one at a time.
    let last = day.state.characters.len().checked_sub(1)?;
    (day.state.characters[last].name == native && master_of(&day.state, native).is_some())
        .then_some(last)
}

/// The hired leaders and controlled monsters who take turns of their own
/// today, in seat order of their masters.
pub fn taking_turns(day: &Day<'_>, orders: &BTreeMap<String, DayOrders>) -> Vec<String> {
    let mut leaders = Vec::new();
    for (employer, c) in day.state.characters.iter().enumerate() {
        let mine = orders.get(&c.player);
        for native in turn_takers(day, employer) {
            if takes_own_turn(day, employer, &native, mine) {
                leaders.push(native);
            }
        }
    }
    leaders
}
