//! Grudges and Gratitude (3.1 10.B.6) and Extended Grudges (10.B.7, which
//! brings in 10.B.6): the
//! natives remember what a character did to them. After each battle the
//! combat's kills and treachery move his relationships for good
//! (`CharacterState::relationship_shift`, read by `meeting::level_of`):
//! an unhired native killed by him or one of his hirelings while his group
//! was Friendly costs two levels, while it was Ally four; treachery
//! against a group costs five. Under Extended Grudges a kill while the
//! group was Neutral, Unfriendly or Enemy costs one. Selling and buying
//! the cards that name a group for a Fame reward are in `trade`.
//!
//! Each kill is weighed against the relationship as it stands after the
//! kills before it in the combat log, since the rule makes each change
//! instant (10.B.6.1).

use std::collections::BTreeMap;

use super::Day;
use super::meeting::{Cause, move_relationship, relationship};
use crate::combat::battle::Battle;
use crate::combat::log::CombatLine;
use crate::combat::model::FighterKind;
use crate::data::characters::Relationship;
use realmgm_core::game::Rules;

/// Extended Grudges and Gratitude (3.1 10.B.7).
const EXTENDED: &str = "extended_grudges";

/// Levels lost for killing an unhired member of a group standing at
/// `now` with the killer (3.1 10.B.6.1-2, 10.B.7.1).
fn kill_cost(rules: &Rules, now: Relationship) -> i8 {
    match now {
        Relationship::Ally => -4,
        Relationship::Friendly => -2,
        _ if rules.is_on(EXTENDED) => -1,
        _ => 0,
    }
}

/// Move relationships for the kills and treachery of a finished battle;
/// `seat_of` maps its character fighters to their seats.
pub fn after_battle(day: &mut Day<'_>, battle: &Battle, seat_of: &BTreeMap<usize, usize>) {
    if !crate::rules::grudges_and_gratitude(day.rules) {
        return;
    }
    for line in &battle.log {
        let CombatLine::Killed { victim, by } = &line.line else {
            continue;
        };
        let Some(group) = battle
            .find(victim)
            .and_then(|v| match &battle.fighters[v].kind {
                FighterKind::Denizen(d) if d.employer.is_none() && !d.monster => d.group.clone(),
                _ => None,
            })
        else {
            continue;
        };
        let Some(seat) = battle.find(by).and_then(|k| {
            let employer = match &battle.fighters[k].kind {
                FighterKind::Denizen(d) => d.employer?,
                FighterKind::Character(_) => k,
            };
            seat_of.get(&employer).copied()
        }) else {
            continue;
        };
        let cost = kill_cost(day.rules, relationship(day, seat, &group));
        let native = victim.clone();
        move_relationship(day, seat, &group, cost, Cause::Killed { native });
    }
    for (f, group) in &battle.treacheries {
        if let Some(&seat) = seat_of.get(f) {
            move_relationship(day, seat, group, -5, Cause::Treachery);
        }
    }
}
