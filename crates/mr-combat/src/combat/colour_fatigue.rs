//! Colour chits fatigued at will in the Encounter step (3.1 rules 4.6.4i,
//! 8.3.9a.2-3): a character may fatigue any of his colour chits without
//! energizing or casting anything; each reverts to a plain MAGIC chit,
//! fatigued. It is not his action (he may still run, cast or alert), no
//! attacker on his sheet stops it, and the round is not a quiet one (a
//! chit fatigued, 8.8.2).
//!
//! Ruling: the `fatigue CHIT` clause of the `Combat:` line stands for
//! every round; a chit already fatigued is not named again, and a chit he
//! does not hold as a colour chit is reported once, in the first round
//! (or in the round whose own orders name it).

use super::Battle;
use super::casting::sync_to_battle;
use super::log::CombatLine;
use super::model::FighterId;
use crate::magic::colour::{colour_chits, fatigue_at_will, names_chit};

/// Each character in play fatigues the colour chits his orders name.
pub fn fatigue_ordered(battle: &mut Battle) {
    for who in battle.characters_in_play() {
        let by_round = battle.plays.colour_fatigue.get(&who).cloned();
        let standing = battle.tactics.get(&who).map(|t| t.fatigue.clone());
        let Some(named) = by_round.clone().or(standing) else {
            continue;
        };
        for chit in named {
            fatigue_one(battle, who, &chit, by_round.is_some());
        }
    }
}

fn fatigue_one(battle: &mut Battle, who: FighterId, chit: &str, by_round: bool) {
    let character = battle.name(who).to_string();
    let Some(mut magic) = battle.magic.take() else {
        if battle.round == 1 || by_round {
            let kept = Some(super::casting::NOT_BUILT.to_string());
            say(battle, who, character, chit.to_string(), kept);
        }
        return;
    };
    let Some(&seat) = magic.seats.get(&who) else {
        battle.magic = Some(magic);
        return;
    };
    super::casting::sync_to_state(battle, &mut magic);
    let holds = colour_chits(&magic.state, seat)
        .iter()
        .any(|(_, printed, _)| names_chit(printed, chit));
    if !holds && battle.round > 1 && !by_round {
        battle.magic = Some(magic);
        return;
    }
    let outcome = fatigue_at_will(&mut magic.state, seat, chit, false);
    sync_to_battle(battle, &magic);
    battle.magic = Some(magic);
    match outcome {
        Ok(_) => {
            battle.plays.eventful = true;
            say(battle, who, character, chit.to_string(), None);
        }
        Err(e) => say(
            battle,
            who,
            character,
            chit.to_string(),
            Some(e.to_string()),
        ),
    }
}

fn say(battle: &mut Battle, who: FighterId, character: String, chit: String, kept: Option<String>) {
    let seen = battle.seen_by(who);
    battle.say(
        seen,
        CombatLine::ColourChitFatigued {
            character,
            chit,
            kept,
        },
    );
}
