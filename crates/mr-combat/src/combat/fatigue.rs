//! The Fatigue step (play summary III.C): a character who played two effort
//! stars this round fatigues a one-star chit of that kind (or a two-star
//! chit, taking a fatigued one-star chit back as change); then each wound
//! takes an active chit, then a fatigued one; with none left to wound he
//! dies.

use std::collections::BTreeMap;

use crate::state::ChitCondition;

use super::Battle;
use super::decisions::{Answer, FatiguePlay};
use super::error::CombatError;
use super::log::{CombatLine, Seen};
use super::model::{FighterId, HeroChit, Out};
use super::tactics::same_chit;

/// Whether `who` has fatigue or wounds to take this round.
pub fn owes(battle: &Battle, who: FighterId) -> bool {
    stars(battle, who).0 + stars(battle, who).1 >= 2
        || battle.plays.wounds.get(&who).copied().unwrap_or(0) > 0
}

fn stars(battle: &Battle, who: FighterId) -> (u8, u8) {
    (
        battle.plays.fight_stars.get(&who).copied().unwrap_or(0),
        battle.plays.move_stars.get(&who).copied().unwrap_or(0),
    )
}

/// The chits that may take his fatigue: active chits with stars, of the
/// kind he played stars with.
fn fatigue_candidates<'b>(battle: &'b Battle<'_>, who: FighterId) -> Vec<&'b str> {
    let mut chits: Vec<&HeroChit> = could_take_fatigue(battle, who).collect();
    chits.sort_by_key(|c| cheapest_first(c));
    chits.into_iter().map(|c| c.label.as_str()).collect()
}

/// The chits that may take his fatigue, in sheet order.
fn could_take_fatigue<'b>(
    battle: &'b Battle<'_>,
    who: FighterId,
) -> impl Iterator<Item = &'b HeroChit> {
    let (fight, moved) = stars(battle, who);
    battle
        .hero(who)
        .filter(|_| fight + moved >= 2)
        .into_iter()
        .flat_map(|hero| hero.chits.iter())
        .filter(|c| c.is_active() && c.chit.effort > 0)
        .filter(move |c| (fight > 0 && c.can_fight()) || (moved > 0 && c.can_move()))
}

/// One-star chits first, slowest first: the cheapest to lose.
fn cheapest_first(chit: &HeroChit) -> (u8, std::cmp::Reverse<u8>) {
    (chit.chit.effort, std::cmp::Reverse(chit.chit.time))
}

/// Chits that may take wounds now, by label: active ones (less one copy
/// of the chit that takes the fatigue), slowest first, then fatigued ones.
/// Labels are borrowed: the explicit-answer check runs this every round.
fn wound_pools<'a>(
    battle: &'a Battle,
    who: FighterId,
    skip: Option<&str>,
) -> (Vec<&'a str>, Vec<&'a str>) {
    let Some(hero) = battle.hero(who) else {
        return (Vec::new(), Vec::new());
    };
    let mut active: Vec<_> = hero.chits.iter().filter(|c| c.is_active()).collect();
    active.sort_by_key(|c| (std::cmp::Reverse(c.chit.time), c.chit.effort));
    let mut active: Vec<&str> = active.into_iter().map(|c| c.label.as_str()).collect();
    if let Some(skip) = skip
        && let Some(i) = active.iter().position(|c| same_chit(c, skip))
    {
        active.remove(i);
    }
    let tired = hero
        .chits
        .iter()
        .filter(|c| c.condition == ChitCondition::Fatigued)
        .map(|c| c.label.as_str())
        .collect();
    (active, tired)
}

fn wound_candidates<'a>(battle: &'a Battle, who: FighterId, skip: Option<&str>) -> Vec<&'a str> {
    let (mut active, tired) = wound_pools(battle, who, skip);
    active.extend(tired);
    active
}

/// The choice a player would not regret: fatigue a one-star chit, wound
/// the slowest chits.
pub fn default_choice(battle: &Battle, who: FighterId) -> FatiguePlay {
    // The first of the sorted candidates, found without sorting.
    let fatigue = could_take_fatigue(battle, who)
        .min_by_key(|c| cheapest_first(c))
        .map(|c| c.label.as_str());
    let wounds = battle.plays.wounds.get(&who).copied().unwrap_or(0);
    // Most rounds he takes no wound: then the chits are not worth sorting.
    let wounds = if wounds == 0 {
        Vec::new()
    } else {
        wound_candidates(battle, who, fatigue)
            .into_iter()
            .take(usize::from(wounds))
            .map(str::to_string)
            .collect()
    };
    FatiguePlay {
        fatigue: fatigue.map(str::to_string),
        wounds,
    }
}

pub fn options(battle: &Battle, who: FighterId) -> Vec<String> {
    let mut out: Vec<String> = fatigue_candidates(battle, who)
        .into_iter()
        .map(|c| format!("fatigue {c}"))
        .collect();
    let wounds = battle.plays.wounds.get(&who).copied().unwrap_or(0);
    if wounds > 0 {
        out.extend(
            wound_candidates(battle, who, None)
                .into_iter()
                .map(|c| format!("wound {c} ({wounds} wounds to take)")),
        );
    }
    out
}

/// Check an explicit fatigue answer.
///
/// # Errors
/// A chit that cannot take the fatigue or a wound, or the wrong count.
pub fn check(battle: &Battle, who: FighterId, play: &FatiguePlay) -> Result<(), CombatError> {
    let can = fatigue_candidates(battle, who);
    match (&play.fatigue, can.is_empty()) {
        (None, false) => {
            return Err(format!("one of these must fatigue: {}", can.join(", ")).into());
        }
        (Some(chit), _) if !can.iter().any(|c| same_chit(c, chit)) => {
            return Err(format!(
                "{chit} cannot take the fatigue; choose one of: {}",
                can.join(", ")
            )
            .into());
        }
        _ => {}
    }
    let owed = usize::from(battle.plays.wounds.get(&who).copied().unwrap_or(0));
    if owed == 0 && play.wounds.is_empty() {
        // No wound owed and none named: the usual round, checked at once.
        return Ok(());
    }
    let (mut active, mut tired) = wound_pools(battle, who, play.fatigue.as_deref());
    let candidates: Vec<&str> = active.iter().chain(&tired).copied().collect();
    let needed = owed.min(candidates.len());
    if play.wounds.len() != needed {
        return Err(format!("{needed} chits must be wounded, not {}", play.wounds.len()).into());
    }
    // Each wound takes an active copy of its chit, else a fatigued one;
    // fatigued chits only once no active chit is left.
    let mut took_tired = false;
    for chit in &play.wounds {
        if let Some(i) = active.iter().position(|c| same_chit(c, chit)) {
            active.remove(i);
        } else if let Some(i) = tired.iter().position(|c| same_chit(c, chit)) {
            tired.remove(i);
            took_tired = true;
        } else {
            return Err(format!(
                "{chit} cannot be wounded; choose among: {}",
                candidates.join(", ")
            )
            .into());
        }
    }
    if took_tired && !active.is_empty() {
        return Err(format!(
            "wound active chits first ({} still active)",
            active.join(", ")
        )
        .into());
    }
    Ok(())
}

/// Apply everyone's fatigue and wounds.
pub fn fatigue(battle: &mut Battle, answers: &BTreeMap<FighterId, Answer>) {
    for who in battle.characters_in_play() {
        let Some(Answer::Fatigue(play)) = answers.get(&who) else {
            continue;
        };
        let name = battle.name(who).to_string();
        if let Some(chit) = &play.fatigue {
            fatigue_chit(battle, who, chit);
            battle.plays.eventful = true;
            let seen = battle.seen_by(who);
            battle.say(
                seen,
                CombatLine::Fatigued {
                    character: name.clone(),
                    chit: chit.clone(),
                },
            );
        }
        let owed = usize::from(battle.plays.wounds.get(&who).copied().unwrap_or(0));
        for chit in &play.wounds {
            // Chits may share a label: take an active one, else a fatigued one.
            if let Some(hero) = battle.hero_mut(who) {
                let pick = [ChitCondition::Active, ChitCondition::Fatigued]
                    .into_iter()
                    .find_map(|want| {
                        hero.chits
                            .iter()
                            .position(|c| c.condition == want && same_chit(&c.label, chit))
                    });
                if let Some(index) = pick {
                    hero.chits[index].condition = ChitCondition::Wounded;
                }
            }
            let seen = battle.seen_by(who);
            battle.say(
                seen,
                CombatLine::Wounded {
                    character: name.clone(),
                    chit: chit.clone(),
                },
            );
        }
        if owed > play.wounds.len() {
            die_of_wounds(battle, who);
        }
    }
}

fn fatigue_chit(battle: &mut Battle, who: FighterId, chit: &str) {
    let Some(hero) = battle.hero_mut(who) else {
        return;
    };
    let Some(index) = hero
        .chits
        .iter()
        .position(|c| c.is_active() && same_chit(&c.label, chit))
    else {
        return;
    };
    hero.chits[index].condition = ChitCondition::Fatigued;
    let tired = hero.chits[index].clone();
    if tired.chit.effort == 2 {
        // Making change: a fatigued one-star chit of the same kind returns.
        if let Some(change) = hero.chits.iter_mut().find(|c| {
            c.condition == ChitCondition::Fatigued
                && c.chit.effort == 1
                && c.chit.action == tired.chit.action
        }) {
            change.condition = ChitCondition::Active;
        }
    }
}

fn die_of_wounds(battle: &mut Battle, who: FighterId) {
    let name = battle.name(who).to_string();
    battle.fighters[who].out = Some(Out::Killed {
        by: "wounds".into(),
    });
    if let Some(h) = battle.hero_mut(who) {
        h.dead = true;
    }
    battle.sheet.retain(|d, o| *d != who && *o != who);
    let items = super::spoils::take_belongings(battle, who);
    battle.dropped.extend(items);
    battle.say(
        Seen::Clearing,
        CombatLine::Died {
            character: name,
            reason: "no chit is left to take the wounds".into(),
        },
    );
}
