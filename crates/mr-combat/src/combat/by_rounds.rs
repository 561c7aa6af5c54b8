//! Round-by-round combat by mail (the `round_by_round_combat` toggle, a
//! realmgm play-by-mail procedure): a character without a
//! `Combat:` line answers each round of a battle with a `Combat:` line of
//! his own, given by mail. [`run`] plays a battle with the answers given so
//! far and stops at the first round nobody answered for him.
//!
//! A round's answer is a [`Tactics`] for that round only: every decision
//! of his in that round (luring, deploying, the Encounter action, melee
//! plays, fatigue) is the standing answer those tactics give, so the
//! answer is legal by construction. A stopped day is never stored half
//! way: the day is resolved again from its start with the same dice and
//! more answers, which makes the resumed result byte-identical to the
//! same answers given up front.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::battle::{Battle, Step};
use super::decisions::Decision;
use super::log::{CombatLine, Seen};
use super::model::FighterId;
use super::tactics::{Tactics, fight_chits, move_chits};
use crate::state::ChitCondition;
use realmgm_core::dice::Dice;

/// The answers players gave by mail to round prompts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundAnswers {
    /// By [`RoundAnswers::key`]: clearing, round and character.
    #[serde(default)]
    pub given: BTreeMap<String, Tactics>,
    /// The round deadline has passed: a round nobody answered is played
    /// with default standing orders instead of stopping.
    #[serde(default)]
    pub deadline_passed: bool,
}

impl RoundAnswers {
    /// The key of a character's answer for one round of one battle.
    pub fn key(clearing: &str, round: u32, character: &str) -> String {
        format!("{clearing}/round {round}/{character}")
    }

    /// Record `character`'s answer to `decision`'s round.
    pub fn answer(&mut self, decision: &Decision, tactics: Tactics) {
        self.given.insert(
            Self::key(&decision.clearing, decision.round, &decision.character),
            tactics,
        );
    }
}

/// Play `battle` to its end, answering each decision from `answers`.
/// Without answers (the toggle is off) standing orders decide everything.
///
/// # Errors
/// The decisions of the first stage nobody answered, when the deadline has
/// not passed: the battle stops there.
pub fn run(
    battle: &mut Battle,
    dice: &mut Dice,
    answers: Option<&RoundAnswers>,
) -> Result<(), Vec<Decision>> {
    let Some(answers) = answers else {
        battle.run_with_defaults(dice);
        return Ok(());
    };
    while let Step::Needs(decision) = battle.step(dice) {
        let key = RoundAnswers::key(&battle.clearing, decision.round, &decision.character);
        let tactics = match answers.given.get(&key) {
            Some(tactics) => tactics.clone(),
            None if answers.deadline_passed => Tactics::default(),
            None => {
                return Err(battle
                    .unanswered()
                    .into_iter()
                    .filter(|d| {
                        !answers.given.contains_key(&RoundAnswers::key(
                            &battle.clearing,
                            d.round,
                            &d.character,
                        ))
                    })
                    .map(|mut d| {
                        d.sheet = sheet(battle, d.fighter);
                        d.options = battle.options(d.fighter);
                        d
                    })
                    .collect());
            }
        };
        play_round_answer(battle, decision.fighter, tactics);
    }
    Ok(())
}

/// His combat sheet in words: chits by condition, weapon, armour, horse
/// and who attacks him, for the round prompt.
pub fn sheet(battle: &Battle, who: FighterId) -> Vec<String> {
    let Some(hero) = battle.hero(who) else {
        return Vec::new();
    };
    let chits = |condition: ChitCondition| {
        let labels: Vec<&str> = hero
            .chits
            .iter()
            .filter(|c| c.condition == condition)
            .map(|c| c.label.as_str())
            .collect();
        if labels.is_empty() {
            "none".to_string()
        } else {
            labels.join(", ")
        }
    };
    let mut out = vec![
        format!("active chits: {}", chits(ChitCondition::Active)),
        format!("fatigued: {}", chits(ChitCondition::Fatigued)),
        format!("wounded: {}", chits(ChitCondition::Wounded)),
    ];
    if let Some(weapon) = &hero.weapon {
        let side = if weapon.is_alerted {
            "alerted"
        } else {
            "unalerted"
        };
        out.push(format!("weapon: {} ({side})", weapon.name));
    }
    for armor in hero.armor.iter().filter(|a| !a.destroyed) {
        let state = if armor.damaged { " (damaged)" } else { "" };
        out.push(format!("armour: {}{state}", armor.name));
    }
    if let Some(horse) = hero.horse.as_ref().filter(|h| !h.dead) {
        out.push(format!("horse: {}", horse.name));
    }
    let attackers: Vec<&str> = battle
        .attackers_of(who)
        .into_iter()
        .map(|a| battle.name(a))
        .collect();
    let listed = |names: Vec<String>| {
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    };
    out.push(format!(
        "on your sheet: {}",
        listed(attackers.into_iter().map(String::from).collect())
    ));
    // What a `Combat:` line for the round may name.
    let labels =
        |chits: Vec<&super::model::HeroChit>| chits.into_iter().map(|c| c.label.clone()).collect();
    out.push(format!(
        "you may attack with: {}",
        listed(labels(fight_chits(battle, who, 2)))
    ));
    out.push(format!(
        "you may maneuver with: {}",
        listed(labels(move_chits(battle, who, 2)))
    ));
    let targets = battle
        .fighters
        .iter()
        .enumerate()
        .filter(|&(i, f)| i != who && f.out.is_none() && !f.hidden)
        .map(|(_, f)| f.name.clone())
        .collect();
    out.push(format!("possible targets: {}", listed(targets)));
    out
}

/// Answer his current decision as `tactics` would. Tactics answer legally
/// by construction; should one ever not be legal, default standing orders
/// take over for the rest of the battle, and his player reads why, so no
/// answer of his is set aside unsaid.
fn play_round_answer(battle: &mut Battle, fighter: FighterId, tactics: Tactics) {
    let answer = battle.round_answer(fighter, tactics);
    if let Err(why) = battle.answer(fighter, answer) {
        let line = CombatLine::Refused {
            character: battle.name(fighter).to_string(),
            reason: format!(
                "the Combat: answer for this round cannot be played ({why}); default standing \
                 orders decide for the rest of this combat"
            ),
        };
        battle.say(Seen::Only { fighter }, line);
        battle.tactics.insert(fighter, Tactics::default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::log::LogLine;
    use crate::combat::script;
    use crate::data;

    #[test]
    fn an_answer_that_cannot_be_played_is_told_to_its_player_alone() {
        let text = r#"
clearing = "CV4"
[[character]]
name = "Amazon"
[[denizen]]
id = "Ogre 1"
"#;
        let data = data::get().expect("the embedded data loads");
        let mut s = script::load(data, "test.toml", text).unwrap_or_else(|e| panic!("{e}"));
        let battle = &mut s.battle;
        let Step::Needs(asked) = battle.step(&mut s.dice) else {
            panic!("the Amazon has no standing orders: she is asked")
        };
        let amazon = asked.fighter;
        // Out of the combat between the question and the answer: no play of
        // hers can be taken any more.
        battle.hero_mut(amazon).expect("a character").dead = true;
        play_round_answer(battle, amazon, Tactics::default());
        let told: Vec<&LogLine> = battle
            .log
            .iter()
            .filter(|l| matches!(&l.line, CombatLine::Refused { reason, .. } if reason.contains("cannot be played")))
            .collect();
        assert_eq!(told.len(), 1, "{:?}", battle.log);
        assert_eq!(told[0].seen, Seen::Only { fighter: amazon });
        assert!(battle.tactics.contains_key(&amazon));
    }
}
