//! The Encounter step (3.1 8.3): luring in turn order, random
//! assignment of monsters and battling natives by the characters' rolls
//! (8.3.5), then each character's
//! action — run away with a MOVE chit, alert his weapon with a FIGHT chit,
//! or cast — under the speed limits; with the Stumble rule (2nd-edition optional combat rule 5.1)
//! running rolls on the Stumble table instead.

use std::collections::BTreeMap;

use crate::tables::optional_combat::{Stumble, StumbleResult, stumble_modifiers};
use crate::tables::{Modifiers, push_number};
use realmgm_core::dice::Dice;

use super::Battle;
use super::decisions::{Action, Answer};
use super::log::{CombatLine, Seen};
use super::model::{FighterId, Out};
use super::tactics::{attacker_move_times, same_chit, why_he_stays};
use super::{abandon, activation, casting, charge, colour_fatigue, pick_up};

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

/// The characters who roll for an unassigned `denizen` (3.1 8.3.5a.1),
/// each with whom he would put it on: himself when he is unhidden and in
/// the fight, otherwise his unhidden hired natives (a.3). A battling native
/// is rolled for only by the characters it battles; a caster whose spell
/// spares the monster does not roll for it.
fn rollers(battle: &Battle, denizen: FighterId) -> Vec<(FighterId, Vec<FighterId>)> {
    let Some(den) = battle.denizen(denizen) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for &c in &battle.order {
        let present = battle.in_play(c);
        let absent = battle.fighters[c].out == Some(Out::Absent);
        if !(present || absent) || !(den.monster || den.battling.contains(&c)) {
            continue;
        }
        if super::protection::spared(battle, denizen, c) {
            continue;
        }
        let onto = if present && !battle.fighters[c].hidden {
            vec![c]
        } else {
            (0..battle.fighters.len())
                .filter(|&h| battle.in_play(h) && !battle.fighters[h].hidden)
                .filter(|&h| battle.denizen(h).and_then(|d| d.employer) == Some(c))
                .collect()
        };
        if !onto.is_empty() {
            out.push((c, onto));
        }
    }
    out
}

/// Random assignment (3.1 8.3.5a): for each unassigned monster or battling
/// native every character concerned rolls two dice and keeps the higher,
/// his die-roll modifiers added (not when he is absent; results above 6
/// stand); the highest puts it on himself or one of his unhidden hired
/// natives, and those who tie roll again. realmgm's ruling: a character
/// who must give it to one of his hired natives gives it to the first in
/// counter order (the rules leave the choice to him).
fn random_assignment(battle: &mut Battle, dice: &mut Dice) {
    let waiting: Vec<FighterId> = (0..battle.fighters.len())
        .filter(|&d| battle.in_play(d) && !battle.sheet.contains_key(&d))
        .filter(|&d| battle.denizen(d).is_some_and(|den| den.employer.is_none()))
        .collect();
    for d in waiting {
        let rollers = rollers(battle, d);
        let mut tied: Vec<FighterId> = rollers.iter().map(|(c, _)| *c).collect();
        let mut again = 0u8;
        while tied.len() > 1 {
            let mut best: Option<i16> = None;
            let mut highest = Vec::new();
            for c in tied {
                let result = assignment_roll(battle, dice, d, c, again);
                if best.is_none_or(|b| result > b) {
                    best = Some(result);
                    highest.clear();
                }
                if best == Some(result) {
                    highest.push(c);
                }
            }
            tied = highest;
            again = again.saturating_add(1);
        }
        let Some(owner) = tied
            .first()
            .and_then(|c| rollers.iter().find(|(r, _)| r == c))
            .and_then(|(_, onto)| onto.first().copied())
        else {
            continue;
        };
        assign(battle, d, owner);
        let line = CombatLine::Assigned {
            denizen: battle.name(d).to_string(),
            to: battle.name(owner).to_string(),
        };
        battle.say(Seen::Clearing, line);
    }
}

/// One character's roll for `denizen`: the higher of two dice (one with a
/// one-die advantage) plus his modifiers, which do not count while he is
/// absent from the clearing.
fn assignment_roll(
    battle: &mut Battle,
    dice: &mut Dice,
    denizen: FighterId,
    character: FighterId,
    again: u8,
) -> i16 {
    let mods = if battle.in_play(character) {
        battle
            .roll_mods
            .get(&character)
            .cloned()
            .unwrap_or_default()
    } else {
        Modifiers::none()
    };
    let mut what = ["assign/", battle.name(denizen), "/", battle.name(character)].concat();
    if again > 0 {
        what.push_str("/again");
        push_number(&mut what, i16::from(again));
    }
    let record = dice.roll(&battle.purpose(&what), mods.dice_count());
    let result = i16::from(record.result) + mods.total();
    let mut meaning = [
        "the ",
        battle.name(character),
        " rolls for ",
        battle.name(denizen),
        ": ",
    ]
    .concat();
    push_number(&mut meaning, result);
    for m in &mods.adjustments {
        meaning.push_str(&format!(" ({} {:+})", m.source, m.amount));
    }
    battle.say(
        Seen::Clearing,
        CombatLine::Roll {
            record,
            meaning,
            rule: "8.3.5a".into(),
        },
    );
    result
}

/// Deployment (3.1 rule 8.3.6): each hired native sent against a
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
                // is found and unhidden (3.1 rule 8.3.6).
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
pub fn chit_effort(battle: &Battle, who: FighterId, label: &str) -> Option<(String, u8, u8)> {
    battle.hero(who).and_then(|h| {
        h.playable_chits()
            .find(|c| same_chit(&c.label, label))
            .map(|c| (c.label.clone(), c.chit.effort, c.chit.time))
    })
}

/// Each character's Encounter action, in turn order; every charge is put
/// down first (they belong to the Deployment step, III.A.3).
pub fn actions(battle: &mut Battle, dice: &mut Dice, answers: &BTreeMap<FighterId, Answer>) {
    colour_fatigue::fatigue_ordered(battle);
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
            Action::Abandon { item, drop } => abandon::abandon(battle, who, item, *drop),
            Action::PickUp { item, with } => pick_up::pick_up(battle, who, item, with.as_deref()),
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
    let flew = label == super::fly_chit::LABEL;
    if flew && let Some(hero) = battle.hero_mut(who) {
        hero.flew_away = true;
    }
    battle.sheet.retain(|_, owner| *owner != who);
    let seen = battle.seen_by(who);
    let line = if flew {
        CombatLine::FlewAway { character: name }
    } else {
        CombatLine::Ran {
            character: name,
            chit: label,
        }
    };
    battle.say(seen, line);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::script;
    use crate::test_support::data;
    use realmgm_core::dice::DiceScript;

    /// 3.1 8.3.5a.2: each character's die-roll modifiers count in random
    /// assignment, and a result above 6 stands: the Amazon's 5 + 2 beats
    /// the Swordsman's 6.
    #[test]
    fn random_assignment_counts_modifiers_and_results_above_six() {
        let text = "clearing = \"CV4\"\n[[character]]\nname = \"Amazon\"\n\
                    [[character]]\nname = \"Swordsman\"\n[[denizen]]\nid = \"Wolf A 1\"\n";
        let mut battle = script::load(data(), "test.toml", text)
            .unwrap_or_else(|e| panic!("{e}"))
            .battle;
        battle.round = 1;
        battle
            .roll_mods
            .insert(0, Modifiers::none().with("a test", 2));
        let mut script = DiceScript::default();
        for (who, faces) in [("Amazon", [5, 5]), ("Swordsman", [6, 6])] {
            script
                .force(&format!("combat/CV4/round1/assign/Wolf A 1/{who}"), &faces)
                .expect("faces");
        }
        let mut dice = Dice::with_script(0, 1, script);
        random_assignment(&mut battle, &mut dice);
        let wolf = battle.find("Wolf A 1").expect("the wolf");
        assert_eq!(battle.sheet.get(&wolf), Some(&0), "{:#?}", battle.log);
    }
}
