//! The Encounter step (play summary III.A): luring in turn order, random
//! assignment of monsters and battling natives to unhidden characters (or
//! to the hired natives of a hidden employer), then each character's
//! action — run away with a MOVE chit, alert his weapon with a FIGHT chit,
//! or cast — under the speed limits; with the Stumble rule (2nd-edition optional combat rule 5.1)
//! running rolls on the Stumble table instead.

use std::collections::BTreeMap;

use crate::tables::optional_combat::{Stumble, StumbleResult, stumble_modifiers};
use realmgm_core::dice::{Dice, DiceCount};

use super::Battle;
use super::decisions::{Action, Answer};
use super::log::{CombatLine, Seen};
use super::model::{FighterId, Out};
use super::tactics::{attacker_move_times, same_chit, why_he_stays};
use super::{abandon, activation, casting, charge};

/// Put `denizen` on the sheet of `owner`; an unhired native's group starts
/// battling the owner's side (play summary III: luring or attacking one of a
/// group makes the group battle).
pub fn assign(battle: &mut Battle, denizen: FighterId, owner: FighterId) {
    battle.sheet.insert(denizen, owner);
    let employer = battle
        .denizen(owner)
        .and_then(|d| d.employer)
        .unwrap_or(owner);
    make_group_battle(battle, denizen, employer);
}

/// Every member of `denizen`'s group in the fight battles `character`.
pub fn make_group_battle(battle: &mut Battle, denizen: FighterId, character: FighterId) {
    let Some(group) = battle
        .denizen(denizen)
        .filter(|d| d.employer.is_none())
        .and_then(|d| d.group.clone())
    else {
        return;
    };
    for id in 0..battle.fighters.len() {
        if let Some(d) = battle.denizen_mut(id)
            && d.employer.is_none()
            && d.group.as_deref() == Some(group.as_str())
        {
            d.battling.insert(character);
        }
    }
}

/// Luring, then random assignment.
pub fn lure_and_assign(
    battle: &mut Battle,
    dice: &mut Dice,
    answers: &BTreeMap<FighterId, Answer>,
) {
    for who in battle.characters_in_play() {
        let Some(Answer::Lure {
            denizens,
            hirelings,
        }) = answers.get(&who)
        else {
            continue;
        };
        lure_by_hirelings(battle, who, hirelings);
        for name in denizens {
            let Some(d) = battle.find(name) else { continue };
            if !super::tactics::lurable(battle, who).contains(&d) {
                continue;
            }
            battle.fighters[who].hidden = false;
            assign(battle, d, who);
            let line = CombatLine::Lured {
                character: battle.name(who).to_string(),
                denizen: battle.name(d).to_string(),
            };
            battle.say(Seen::Clearing, line);
        }
    }
    random_assignment(battle, dice);
}

/// His hired natives each take the denizen they lure onto their own sheet
/// (play summary III.A.1); with Extended Treachery, luring a member of the
/// hireling's own group turns the group (`treachery`).
fn lure_by_hirelings(battle: &mut Battle, who: FighterId, pairs: &[(String, String)]) {
    for (native, target) in pairs {
        let (Some(n), Some(t)) = (battle.find(native), battle.find(target)) else {
            continue;
        };
        if !super::tactics::hireling_may_lure(battle, who, n, t) {
            continue;
        }
        assign(battle, t, n);
        let line = CombatLine::LuredByHireling {
            native: battle.name(n).to_string(),
            denizen: battle.name(t).to_string(),
        };
        battle.say(Seen::Clearing, line);
        super::treachery::on_sent_against(battle, who, n, t);
    }
}

/// Who an unassigned denizen may be assigned to: unhidden characters it
/// battles; failing them, hired natives of hidden or absent employers.
fn candidates(battle: &Battle, denizen: FighterId) -> Vec<FighterId> {
    let Some(den) = battle.denizen(denizen) else {
        return Vec::new();
    };
    let battles = |c: FighterId| den.monster || den.battling.contains(&c);
    let characters: Vec<FighterId> = battle
        .characters_in_play()
        .into_iter()
        .filter(|&c| !battle.fighters[c].hidden && battles(c))
        .filter(|&c| !super::protection::spared(battle, denizen, c))
        .collect();
    if !characters.is_empty() {
        return characters;
    }
    (0..battle.fighters.len())
        .filter(|&h| battle.in_play(h) && !battle.fighters[h].hidden)
        .filter(|&h| {
            battle
                .denizen(h)
                .and_then(|d| d.employer)
                .is_some_and(|e| (battle.fighters[e].hidden || !battle.in_play(e)) && battles(e))
        })
        .collect()
}

fn random_assignment(battle: &mut Battle, dice: &mut Dice) {
    let waiting: Vec<FighterId> = (0..battle.fighters.len())
        .filter(|&d| battle.in_play(d) && !battle.sheet.contains_key(&d))
        .filter(|&d| battle.denizen(d).is_some_and(|den| den.employer.is_none()))
        .collect();
    for d in waiting {
        let to = candidates(battle, d);
        if to.is_empty() {
            continue;
        }
        let owner = if to.len() == 1 {
            to[0]
        } else {
            let what = ["assign/", battle.name(d)].concat();
            let mut meaning = ["assigns ", battle.name(d), " counting round "].concat();
            for (i, &c) in to.iter().enumerate() {
                if i > 0 {
                    meaning.push_str(", ");
                }
                meaning.push_str(battle.name(c));
            }
            let record = battle.roll(dice, &what, "8.3.5", DiceCount::One, meaning);
            to[usize::from(record.result.max(1) - 1) % to.len()]
        };
        assign(battle, d, owner);
        let line = CombatLine::Assigned {
            denizen: battle.name(d).to_string(),
            to: battle.name(owner).to_string(),
        };
        battle.say(Seen::Clearing, line);
    }
}

/// Deployment (play summary III.A.3): each hired native sent against a
/// denizen takes it onto his own sheet, where they fight each other.
pub fn deploy(battle: &mut Battle, dice: &mut Dice, answers: &BTreeMap<FighterId, Answer>) {
    for who in battle.characters_in_play() {
        let Some(Answer::Deploy { pairs }) = answers.get(&who) else {
            continue;
        };
        let mut watchful_groups = Vec::new();
        for (native, target) in pairs {
            let (Some(n), Some(t)) = (battle.find(native), battle.find(target)) else {
                continue;
            };
            if !super::tactics::may_deploy(battle, who, n, t) {
                continue;
            }
            if battle.hero(t).is_some() {
                // Onto the character's sheet, attacking him; a hidden one
                // is found and unhidden (III.A.3).
                battle.fighters[t].hidden = false;
                battle.sheet.insert(n, t);
                let line = CombatLine::Deployed {
                    native: battle.name(n).to_string(),
                    target: battle.name(t).to_string(),
                };
                battle.say(Seen::Clearing, line);
                continue;
            }
            super::watchful::deployed_against(battle, t, &mut watchful_groups);
            assign(battle, t, n);
            let line = CombatLine::Deployed {
                native: battle.name(n).to_string(),
                target: battle.name(t).to_string(),
            };
            battle.say(Seen::Clearing, line);
            super::treachery::on_sent_against(battle, who, n, t);
        }
        super::watchful::after_deploying(battle, dice, who, &watchful_groups);
    }
}

/// Record that `who` played `label` with `effort` stars of a kind.
pub fn spend(battle: &mut Battle, who: FighterId, label: &str, effort: u8, fight: bool) {
    let stars = if fight {
        battle.plays.fight_stars.entry(who).or_default()
    } else {
        battle.plays.move_stars.entry(who).or_default()
    };
    *stars += effort;
    battle
        .plays
        .chits_played
        .entry(who)
        .or_default()
        .push(label.to_string());
}

/// The chit of `who` printed as `label` (stars optional), with its effort.
fn chit_effort(battle: &Battle, who: FighterId, label: &str) -> Option<(String, u8, u8)> {
    battle.hero(who).and_then(|h| {
        h.playable_chits()
            .find(|c| same_chit(&c.label, label))
            .map(|c| (c.label.clone(), c.chit.effort, c.chit.time))
    })
}

/// Each character's Encounter action, in turn order; every charge is put
/// down first (they belong to the Deployment step, III.A.3).
pub fn actions(battle: &mut Battle, dice: &mut Dice, answers: &BTreeMap<FighterId, Answer>) {
    for who in battle.characters_in_play() {
        if let Some(Answer::Action(Action::Charge { target, with })) = answers.get(&who) {
            charge::charge(battle, who, target, with);
        }
    }
    for who in battle.characters_in_play() {
        let Some(Answer::Action(action)) = answers.get(&who) else {
            continue;
        };
        let name = battle.name(who).to_string();
        if let Some(reason) = why_he_stays(battle, who, action)
            && battle.stays_because.get(&who) != Some(&reason)
        {
            battle.stays_because.insert(who, reason.clone());
            let seen = battle.seen_by(who);
            battle.say(
                seen,
                CombatLine::CannotRun {
                    character: name.clone(),
                    reason,
                },
            );
        }
        if let Some(reason) = too_slow_for_charge(battle, who, action) {
            let seen = battle.seen_by(who);
            battle.say(
                seen,
                CombatLine::Refused {
                    character: name,
                    reason,
                },
            );
            continue;
        }
        match action {
            Action::Nothing | Action::Charge { .. } => {}
            Action::Abandon { item } => abandon::abandon(battle, who, item),
            Action::Switch {
                activate,
                inactivate,
            } => activation::switch(battle, who, activate.as_deref(), inactivate.as_deref()),
            Action::Cast { spell, target } => {
                if let Err(reason) = casting::cast_in_combat(battle, who, spell, target.as_deref())
                {
                    let line = CombatLine::Refused {
                        character: name,
                        reason: format!("cannot cast {spell}: {reason}"),
                    };
                    let seen = battle.seen_by(who);
                    battle.say(seen, line);
                }
            }
            Action::Alert { chit } => {
                let Some((label, effort, _)) = chit_effort(battle, who, chit) else {
                    continue;
                };
                spend(battle, who, &label, effort, true);
                battle.plays.acted.insert(who);
                let berserk_chit = label.clone();
                let weapon = battle
                    .hero_mut(who)
                    .and_then(|h| h.weapon.as_mut())
                    .map(|w| {
                        w.is_alerted = true;
                        w.name.clone()
                    });
                if let Some(weapon) = weapon {
                    let line = CombatLine::Alerted {
                        character: name,
                        weapon,
                        chit: label,
                    };
                    let seen = battle.seen_by(who);
                    battle.say(seen, line);
                }
                go_berserk(battle, who, &berserk_chit);
            }
            Action::Run { chit } => run(battle, dice, who, chit),
        }
    }
}

/// Alerting with the BERSERK chit makes the Berserker Tremendous for the
/// rest of the day (his Berserk ability; the combat is the day's last).
fn go_berserk(battle: &mut Battle, who: FighterId, label: &str) {
    let berserk = battle.hero(who).is_some_and(|h| {
        h.chits.iter().any(|c| {
            c.label == label && c.chit.action == crate::data::characters::ChitAction::Berserk
        })
    });
    if !berserk {
        return;
    }
    if let Some(h) = battle.hero_mut(who) {
        h.vulnerability = crate::data::terms::Strength::Tremendous;
    }
    let line = CombatLine::Berserk {
        character: battle.name(who).to_string(),
    };
    battle.say(Seen::Clearing, line);
}

/// A charge on his sheet stops an action whose chit is not faster than it.
fn too_slow_for_charge(battle: &Battle, who: FighterId, action: &Action) -> Option<String> {
    let fastest = charge::charge_times_on(battle, who).min()?;
    let time = match action {
        // With the Stumble rule a run rolls instead of racing.
        Action::Run { .. } if battle.rules.stumble => return None,
        Action::Alert { chit } | Action::Run { chit } if chit.eq_ignore_ascii_case("horse") => {
            battle.hero(who)?.horse.as_ref()?.gallop.move_speed
        }
        Action::Alert { chit } | Action::Run { chit } => chit_effort(battle, who, chit)?.2,
        _ => return None,
    };
    (time >= fastest).then(|| {
        format!(
            "the action with time {time} is stopped: a charge of time {fastest} is on the sheet"
        )
    })
}

fn run(battle: &mut Battle, dice: &mut Dice, who: FighterId, chit: &str) {
    let name = battle.name(who).to_string();
    let (label, time) = if chit.eq_ignore_ascii_case("horse") {
        let Some(horse) = battle.hero(who).and_then(|h| h.horse.clone()) else {
            return;
        };
        (horse.name, horse.gallop.move_speed)
    } else {
        let Some((label, effort, time)) = chit_effort(battle, who, chit) else {
            return;
        };
        spend(battle, who, &label, effort, false);
        (label, time)
    };
    battle.plays.acted.insert(who);
    if battle.rules.stumble {
        let mods = stumble_modifiers(time, &attacker_move_times(battle, who));
        let what = format!("stumble/{name}");
        let roll = battle.roll_table(dice, &Stumble, &what, &mods);
        if roll.result == StumbleResult::Cancelled {
            let line = CombatLine::CannotRun {
                character: name,
                reason: "a stumble (Stumble table)".into(),
            };
            battle.say(Seen::Clearing, line);
            return;
        }
    }
    battle.fighters[who].out = Some(Out::Ran);
    battle.sheet.retain(|_, owner| *owner != who);
    let seen = battle.seen_by(who);
    battle.say(
        seen,
        CombatLine::Ran {
            character: name,
            chit: label,
        },
    );
}
