//! Treachery: a character who attacks a native he hired himself breaks
//! faith with the whole group. realmgm's ruling (the seeds only name the
//! rule, seed 003 "Extended Treachery"): when he targets one of his own
//! hired natives, that native and every other member of its group he has
//! hired become unhired at once and battle him for the rest of the day;
//! the day's Evening takes them off his payroll. Attacking another
//! character's hired native is no treachery: the native stays hired, and
//! its death earns the killer its bounty and notoriety and costs its
//! employer the notoriety (seed 000 III.B.9.d, `spoils.rs`).

use super::Battle;
use super::log::{CombatLine, Seen};
use super::model::FighterId;

/// `who` targets `target`: if it is his own hireling, its group turns.
pub fn on_target(battle: &mut Battle, who: FighterId, target: FighterId) {
    let Some(group) = battle
        .denizen(target)
        .filter(|d| d.employer == Some(who))
        .and_then(|d| {
            d.group
                .clone()
                .or_else(|| Some(battle.name(target).to_string()))
        })
    else {
        return;
    };
    let mut turned = Vec::new();
    for id in 0..battle.fighters.len() {
        let same = id == target
            || battle
                .denizen(id)
                .is_some_and(|d| d.group.as_deref() == Some(group.as_str()));
        if !same || !battle.in_play(id) {
            continue;
        }
        if let Some(d) = battle.denizen_mut(id)
            && d.employer == Some(who)
        {
            d.employer = None;
            d.battling.insert(who);
            turned.push(id);
        }
    }
    // Turned natives leave the sheets they stood on as hired natives.
    battle
        .sheet
        .retain(|d, owner| !turned.contains(owner) && !turned.contains(d));
    battle.plays.eventful = true;
    let natives: Vec<String> = turned.iter().map(|&n| battle.name(n).to_string()).collect();
    let character = battle.name(who).to_string();
    battle.say(
        Seen::Clearing,
        CombatLine::Treachery {
            character,
            group,
            natives,
        },
    );
}
