//! Colour chits played in the Encounter step (3.1 rules 4.6.4i, 8.3.9a): a
//! character may play a colour chit to energize an inert Permanent spell
//! whose target is in his clearing and needs that colour (`energize SPELL
//! with CHIT`, 8.3.9a.1), or fatigue it without energizing anything
//! (`fatigue CHIT`, 8.3.9a.3); either way it reverts to a plain MAGIC
//! chit, fatigued. It is not his action (he may still run, cast or alert),
//! no attacker on his sheet stops it, and the round is not a quiet one (a
//! chit fatigued, 8.8.2).
//!
//! Ruling: both clauses of the `Combat:` line stand for every round; once
//! done they find nothing to do again, and an order that cannot be done is
//! reported once, in the first round.

use super::Battle;
use super::casting::sync_to_battle;
use super::log::CombatLine;
use super::model::FighterId;
use crate::magic::colour::{colour_chits, fatigue_at_will, names_chit};
use crate::magic::expiry::{energize_with_chit, target_clearing};

/// Each character in play energizes spells and fatigues the colour chits
/// his orders name.
pub fn fatigue_ordered(battle: &mut Battle) {
    for who in battle.characters_in_play() {
        let by_round = battle.plays.colour_energize.get(&who).cloned();
        let standing = battle.tactics.get(&who).map(|t| t.energize.clone());
        for (spell, chit) in by_round.or(standing).unwrap_or_default() {
            energize_one(battle, who, &spell, &chit);
        }
    }
    for who in battle.characters_in_play() {
        let by_round = battle.plays.colour_fatigue.get(&who).cloned();
        let standing = battle.tactics.get(&who).map(|t| t.fatigue.clone());
        let Some(named) = by_round.or(standing) else {
            continue;
        };
        for chit in named {
            fatigue_one(battle, who, &chit);
        }
    }
}

fn fatigue_one(battle: &mut Battle, who: FighterId, chit: &str) {
    let character = battle.name(who).to_string();
    let Some(mut magic) = battle.magic.take() else {
        if battle.round == 1 {
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
    if !holds && battle.round > 1 {
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

/// Energize his inert `spell` here with his colour chit `chit`.
fn energize_one(battle: &mut Battle, who: FighterId, spell: &str, chit: &str) {
    let report = battle.round == 1;
    let character = battle.name(who).to_string();
    let said = |kept: Option<String>| CombatLine::ColourChitEnergized {
        character: character.clone(),
        spell: spell.to_string(),
        chit: chit.to_string(),
        kept,
    };
    let Some(mut magic) = battle.magic.take() else {
        if report {
            let line = said(Some(super::casting::NOT_BUILT.to_string()));
            let seen = battle.seen_by(who);
            battle.say(seen, line);
        }
        return;
    };
    let Some(&seat) = magic.seats.get(&who) else {
        battle.magic = Some(magic);
        return;
    };
    super::casting::sync_to_state(battle, &mut magic);
    let here = magic.state.characters[seat].position.clone();
    let inert = magic
        .state
        .magic
        .in_effect
        .iter()
        .find(|s| {
            s.inert
                && s.spell.eq_ignore_ascii_case(spell)
                && target_clearing(&magic.state, s).as_ref() == Some(&here)
        })
        .map(|s| s.id);
    let index = colour_chits(&magic.state, seat)
        .into_iter()
        .find(|(_, printed, _)| names_chit(printed, chit))
        .map(|(i, _, _)| i);
    let outcome = match (inert, index) {
        (Some(id), Some(index)) => {
            energize_with_chit(&mut magic.state, battle.data, seat, index, id)
                .map_err(|e| e.to_string())
        }
        (None, _) => Err(format!(
            "no inert {spell} bewitches anyone in this clearing"
        )),
        (_, None) => Err(format!(
            "he holds no colour chit {chit} (an enchanted, active MAGIC chit)"
        )),
    };
    sync_to_battle(battle, &magic);
    battle.magic = Some(magic);
    let line = match outcome {
        Ok(_) => {
            battle.plays.eventful = true;
            said(None)
        }
        Err(_) if !report => return,
        Err(reason) => said(Some(reason)),
    };
    let seen = battle.seen_by(who);
    battle.say(seen, line);
}
