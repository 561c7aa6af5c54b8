//! Blocking at the end of a phase (3.1 7.12.2; `day/daylight.rs`
//! "Blocking"): monsters always block an unhidden character in their
//! clearing, but only the one ending his phase there: those present since
//! the start of the day block nobody else in it at another's turn end,
//! only monsters arriving do (7.12.3, `day::summoning`); characters block as their `Block:` instruction says, hidden
//! ones only after finding Hidden Enemies. Blocker and blocked become
//! unhidden; the blocked one does no more phases today, nor a turn if it
//! is still to come, nor trades (7.12.4). Hired leaders and controlled
//! monsters standing in the clearing block and are blocked the same way,
//! with their master's `Block:` line (6.2.5). An individual in mist
//! neither blocks nor is blocked (4.6.9c.2).

use super::Day;
use super::events::{Happening, PhaseEvent};
use crate::orders::{Blocking, DayOrders};
use crate::state::{DenizenKind, Whereabouts};
use std::collections::BTreeMap;

/// The unhired, uncontrolled monsters on the map in the clearing of
/// character `who`: those that block him by being there (3.1 7.12.2; a
/// hired or controlled monster blocks only at its master's word).
pub fn monsters_with(day: &Day<'_>, who: usize) -> Vec<String> {
    let here = &day.state.characters[who].position;
    day.state
        .denizens
        .iter()
        .filter(|(id, d)| {
            d.kind == DenizenKind::Monster
                && matches!(&d.at, Whereabouts::Clearing { clearing } if clearing == here)
                && super::hired_leaders::master_of(&day.state, id).is_none()
        })
        .map(|(id, _)| id.clone())
        .collect()
}

/// Whether character `who` (or the stand-in of a hired leader or
/// controlled monster) is mist: he cannot block or be blocked (3.1
/// 4.6.9c.2).
pub fn in_mist(day: &Day<'_>, who: usize) -> bool {
    crate::magic::transmorph::is_mist(&day.state, &day.state.characters[who].name)
}

/// Whether `orders` tell its character to block the character `name`.
fn wants_to_block(orders: Option<&DayOrders>, name: &str) -> bool {
    match orders.map(|o| &o.block) {
        Some(Blocking::Everyone) => true,
        Some(Blocking::Named(names)) => names.iter().any(|n| n.eq_ignore_ascii_case(name)),
        Some(Blocking::Nobody) | None => false,
    }
}

/// Block `who` (and let him block) at the end of his phase. Returns true
/// when he is blocked.
pub fn end_of_phase(day: &mut Day<'_>, who: usize, orders: &BTreeMap<String, DayOrders>) -> bool {
    // Between clearings he neither blocks nor is blocked (3.1 rule 8.3.8d);
    // nor does mist (4.6.9c.2).
    if day.state.characters[who].between_clearings() || in_mist(day, who) {
        return false;
    }
    let here = day.state.characters[who].position.clone();
    let name = day.state.characters[who].name.clone();
    if !day.state.characters[who].hidden
        && !day.today.blocked.contains(&who)
        && let Some(monster) = monsters_with(day, who).into_iter().next()
    {
        day.today.blocking_monsters.insert(monster.clone());
        block(day, &monster, None, who);
    }
    // A player's character and his hired leaders never block each other.
    let player = day.state.characters[who].player.clone();
    let others: Vec<usize> = (0..day.state.characters.len())
        .filter(|&i| i != who && day.state.characters[i].position == here)
        .filter(|&i| !day.state.characters[i].between_clearings() && !in_mist(day, i))
        .filter(|&i| day.state.characters[i].player != player)
        .collect();
    for other in others {
        let blocker = &day.state.characters[other];
        let target = &day.state.characters[who];
        if wants_to_block(orders.get(&blocker.player), &name)
            && (!target.hidden || blocker.sees_hidden(target))
            && !day.today.blocked.contains(&who)
        {
            let blocker_name = blocker.name.clone();
            block(day, &blocker_name, Some(other), who);
        }
        let mover = &day.state.characters[who];
        let target = &day.state.characters[other];
        if wants_to_block(orders.get(&mover.player), &target.name)
            && (!target.hidden || mover.sees_hidden(target))
            && !day.today.blocked.contains(&other)
        {
            block(day, &name, Some(who), other);
        }
    }
    hired_leaders_here(day, who, orders);
    day.today.blocked.contains(&who)
}

/// The hired leaders standing in the clearing of `who` outside their own
/// turn (play summary II.D.2: a character or hired leader may block another
/// character or hired leader when either ends a phase there). A leader uses
/// his employer's `Block:` line and his own Hidden Enemies; a player's
/// characters and leaders never block each other.
fn hired_leaders_here(day: &mut Day<'_>, who: usize, orders: &BTreeMap<String, DayOrders>) {
    let mover = &day.state.characters[who];
    let (name, player) = (mover.name.clone(), mover.player.clone());
    // During his own turn a leader is a seat, blocked as one.
    let leaders: Vec<(String, usize)> =
        super::hired_leaders::hired_leaders_in(day, &mover.position)
            .into_iter()
            .filter(|(_, employer)| day.state.characters[*employer].player != player)
            .filter(|(leader, _)| !crate::magic::transmorph::is_mist(&day.state, leader))
            .collect();
    for (leader, employer) in leaders {
        let record = day.state.leaders.get(&leader).cloned().unwrap_or_default();
        let mover = &day.state.characters[who];
        if wants_to_block(orders.get(&player), &leader)
            && (!record.hidden || mover.sees_hidden_native())
            && !day.today.blocked_leaders.contains(&leader)
        {
            day.state.characters[who].hidden = false;
            block_leader(day, &name, &leader, employer);
        }
        let boss = &day.state.characters[employer].player;
        let mover = &day.state.characters[who];
        if wants_to_block(orders.get(boss), &name)
            && (!mover.hidden || record.found_hidden_enemies)
            && !day.today.blocked.contains(&who)
        {
            if let Some(r) = day.state.leaders.get_mut(&leader) {
                r.hidden = false;
            }
            block(day, &leader, None, who);
        }
    }
}

/// The hired leader `leader` is blocked by `blocker` outside his turn: he
/// is unhidden and does no phases today if his turn is still to come.
pub fn block_leader(day: &mut Day<'_>, blocker: &str, leader: &str, employer: usize) {
    if let Some(r) = day.state.leaders.get_mut(leader) {
        r.hidden = false;
    }
    day.today.blocked_leaders.insert(leader.to_string());
    let Some(Whereabouts::Clearing { clearing }) =
        day.state.denizens.get(leader).map(|d| d.at.clone())
    else {
        return;
    };
    let mut seen = day.players_in(&clearing);
    seen.insert(day.state.characters[employer].player.clone());
    day.emit(
        realmgm_core::game::Observers::Players(seen),
        Happening::Phase(PhaseEvent::Blocked {
            blocker: blocker.to_string(),
            blocked: leader.to_string(),
            clearing,
        }),
    );
}

/// `blocked` is blocked by `blocker` (a character by index, or a monster).
pub fn block(day: &mut Day<'_>, blocker: &str, by: Option<usize>, blocked: usize) {
    if let Some(by) = by {
        day.state.characters[by].hidden = false;
    }
    day.state.characters[blocked].hidden = false;
    day.today.blocked.insert(blocked);
    let clearing = day.state.characters[blocked].position.clone();
    let observers = day.clearing_of(blocked);
    day.emit(
        observers,
        Happening::Phase(PhaseEvent::Blocked {
            blocker: blocker.to_string(),
            blocked: day.state.characters[blocked].name.clone(),
            clearing,
        }),
    );
}
