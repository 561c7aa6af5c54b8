//! Charging (3.1 8.3.6b-c): in the Encounter step a character may put
//! a MOVE chit (with Riding Horses, his horse) on another character's sheet — an
//! unhidden one, or a hidden one when he found Hidden Enemies today or
//! Magic Sight shows him that one (`hidden_enemies.rs`); both
//! are then unhidden. The MOVE chit counts toward his effort and fatigue;
//! nobody charges with a red-side-up Tremendous monster on his sheet. The charge counts as the charger's Encounter
//! action; every charge takes effect before the other actions, so the
//! charged character's own action must be faster than the charge; and in
//! the Melee step the charger attacks the character he charged or nobody.
//! A Fly chit charges too (8.3.6b.4); it is used up at the end of the
//! Encounter step (`fly_chit.rs`).
//! realmgm's ruling: charges are answered with the Encounter action (the
//! Deployment step asks only characters with free hired natives), and all
//! charges of the round are put down before any other action is done.

use super::Battle;
use super::encounter::spend;
use super::error::CombatError;
use super::log::CombatLine;
use super::model::FighterId;
use super::tactics::{move_chits, same_chit, stars_left};

/// The characters `who` may charge now.
pub fn chargeable(battle: &Battle, who: FighterId) -> Vec<FighterId> {
    battle
        .characters_in_play()
        .into_iter()
        .filter(|&c| c != who && super::hidden_enemies::sees(battle, who, c))
        .collect()
}

/// What he may charge with, each with its move time: his legal MOVE chits
/// (3.1 8.3.6b names only a Move chit), or, with Riding Horses, his living
/// horse alone (2nd-edition optional combat rule 5.2: a rider charges on
/// his horse only); and last his Fly chit, whose flying values charge like
/// move values (8.3.6b.4): he flies, so it is his whether he rides or not.
pub fn charge_chits(battle: &Battle, who: FighterId) -> Vec<(String, u8)> {
    let Some(hero) = battle.hero(who) else {
        return Vec::new();
    };
    let mut out: Vec<(String, u8)> = if super::riding::rides(battle, who) {
        hero.horse
            .iter()
            .map(|horse| ("horse".into(), horse.gallop.move_speed))
            .collect()
    } else {
        move_chits(battle, who, stars_left(battle, who))
            .into_iter()
            .filter(|c| !super::tactics::is_duck(c))
            .map(|c| (c.label.clone(), c.chit.time))
            .collect()
    };
    out.extend(hero.fly.iter().map(|f| (f.label.clone(), f.chit.time)));
    out
}

/// Check a charge is legal now.
///
/// # Errors
/// Whom he may charge, or what he may charge with.
pub fn check(battle: &Battle, who: FighterId, target: &str, with: &str) -> Result<(), CombatError> {
    let targets = chargeable(battle, who);
    if !battle.find(target).is_some_and(|t| targets.contains(&t)) {
        let names: Vec<&str> = targets.iter().map(|&t| battle.name(t)).collect();
        return Err(format!(
            "cannot charge {target} (only unhidden characters, or hidden ones after finding Hidden Enemies or those Magic Sight shows); may charge: {}",
            if names.is_empty() {
                "nobody".to_string()
            } else {
                names.join(", ")
            }
        ).into());
    }
    if super::tactics::red_side_up_on(battle, who) {
        return Err(
            "cannot charge: a red-side-up Tremendous monster is on his sheet (3.1 8.3.6b.1)".into(),
        );
    }
    let chits = charge_chits(battle, who);
    if !chits.iter().any(|(c, _)| same_chit(c, with)) {
        let names: Vec<&str> = chits.iter().map(|(c, _)| c.as_str()).collect();
        return Err(format!(
            "cannot charge with {with}; may charge with: {}",
            if names.is_empty() {
                "nothing".to_string()
            } else {
                names.join(", ")
            }
        )
        .into());
    }
    Ok(())
}

/// Put the charge down: the chit's effort is spent, both are unhidden.
/// A charge no longer legal (someone ran or was unhidden in between) is
/// refused aloud.
pub fn charge(battle: &mut Battle, who: FighterId, target: &str, with: &str) {
    let name = battle.name(who).to_string();
    if let Err(reason) = check(battle, who, target, with) {
        let seen = battle.seen_by(who);
        battle.say(
            seen,
            CombatLine::Refused {
                character: name,
                reason: reason.to_string(),
            },
        );
        return;
    }
    let Some(t) = battle.find(target) else { return };
    let Some((label, time)) = charge_chits(battle, who)
        .into_iter()
        .find(|(c, _)| same_chit(c, with))
    else {
        return;
    };
    if label == "horse" {
        // A charge plays the horse galloping side up (its move time).
        battle.plays.galloped.insert(who);
    } else {
        let effort = battle
            .hero(who)
            .and_then(|h| h.playable_chits().find(|c| c.label == label))
            .map_or(0, |c| c.chit.effort);
        spend(battle, who, &label, effort, false);
    }
    battle.fighters[who].hidden = false;
    battle.fighters[t].hidden = false;
    battle.plays.acted.insert(who);
    battle.plays.charges.insert(who, (t, time));
    let with = if label == "horse" {
        battle
            .hero(who)
            .and_then(|h| h.horse.as_ref())
            .map_or(label, |h| h.name.clone())
    } else {
        label
    };
    let line = CombatLine::Charged {
        character: name,
        target: battle.name(t).to_string(),
        with,
    };
    battle.say(super::log::Seen::Clearing, line);
}

/// The move times of the charges on `who`'s sheet.
pub fn charge_times_on<'b>(
    battle: &'b Battle<'_>,
    who: FighterId,
) -> impl Iterator<Item = u8> + 'b {
    battle
        .plays
        .charges
        .values()
        .filter(move |&&(t, _)| t == who)
        .map(|&(_, time)| time)
}

/// The character `who` charged this round, whom alone he may attack.
pub fn charged_by(battle: &Battle, who: FighterId) -> Option<FighterId> {
    battle.plays.charges.get(&who).map(|&(t, _)| t)
}
