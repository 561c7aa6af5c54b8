//! The Fly chit a Fly spell gives its target (3.1 rules 4.6.7e, 8.3.7):
//! Broomstick's has Light strength and time 1. In combat it is played like
//! a MOVE chit to maneuver; it is never fatigued or wounded, and once
//! played it is used up: the spell expires at the end of that Melee step
//! (4.6.7e.1) and the MAGIC chit that cast it fatigues.
//!
//! It charges as well (8.3.6b.4): used to charge, it is used up at the end
//! of the Encounter step (4.6.7e.1).
//!
//! Rulings: the Fly chit is played only when his orders name it
//! (`maneuver with fly`, `charge NAME with fly`), never as a default, so a
//! spell the player keeps for travel is not spent by accident. Played to
//! run away (`run with Fly chit`) he flies away (8.3.8e): he ends the day
//! aloft, half over his tile and half over one next to it, and starts his
//! next turn with a Fly phase into either (8.3.8e.2, `day::fly`).

use super::Battle;
use super::casting::{sync_to_battle, sync_to_state};
use super::log::{CombatLine, Seen};
use super::model::HeroChit;
use crate::data::characters::ActionChit;
use crate::magic::item_caster::works;
use crate::state::ChitCondition;
use crate::state::magic::Aim;

/// How a Fly chit is named in the log and the orders.
pub const LABEL: &str = "Fly chit";

/// The Fly spells that make a Fly chit for combat, with its values.
const FLY_SPELLS: [(&str, &str); 1] = [("Broomstick", "MOVE L1")];

/// Whether `chit` is a Fly chit.
pub fn is_fly(chit: &HeroChit) -> bool {
    chit.label == LABEL
}

/// At the start of combat, and after each round (a Fly spell cast in it
/// has come to life, or one was broken), each character a working Fly
/// spell holds has its Fly chit, and nobody else has one.
pub fn grant(battle: &mut Battle) {
    let Some(magic) = battle.magic.as_ref() else {
        return;
    };
    let mut grants = Vec::new();
    for (&who, &seat) in &magic.seats {
        let Some(c) = magic.state.characters.get(seat) else {
            continue;
        };
        let me = Aim::Character {
            name: c.name.clone(),
        };
        let values = magic.state.magic.in_effect.iter().find_map(|s| {
            let (_, values) = FLY_SPELLS.iter().find(|(name, _)| *name == s.spell)?;
            (works(&magic.state, s) && s.targets.first() == Some(&me)).then_some(*values)
        });
        grants.push((who, values.and_then(|v| ActionChit::parse(v).ok())));
    }
    for (who, chit) in grants {
        if let Some(hero) = battle.hero_mut(who) {
            hero.fly = chit.map(|chit| HeroChit {
                label: LABEL.to_string(),
                chit,
                condition: ChitCondition::Active,
                unleashed: false,
            });
        }
    }
}

/// Why a character may not run with a Fly chit he does not have.
pub const NO_FLY_CHIT: &str = "cannot fly away: no Fly spell gives him a Fly chit now; run with a \
     MOVE chit instead";

/// The end of the Encounter step and of the Melee step: each Fly chit
/// played this round (to charge, or to maneuver) and not yet used up is
/// used up now, and its spell expires (4.6.7e.1).
pub fn use_up(battle: &mut Battle) {
    let used: Vec<_> = battle
        .plays
        .chits_played
        .iter()
        .filter(|(_, labels)| labels.iter().any(|l| l == LABEL))
        .map(|(&who, _)| who)
        .filter(|&who| battle.hero(who).is_some_and(|h| h.fly.is_some()))
        .collect();
    if used.is_empty() {
        return;
    }
    let Some(mut magic) = battle.magic.take() else {
        return;
    };
    sync_to_state(battle, &mut magic);
    let mut lines = Vec::new();
    for who in used {
        if let Some(&seat) = magic.seats.get(&who) {
            for event in crate::magic::expiry::landed(&mut magic.state, seat) {
                if let crate::magic::events::MagicEvent::Expired { spell, .. } = event {
                    lines.push((who, spell));
                }
            }
        }
        if let Some(hero) = battle.hero_mut(who) {
            hero.fly = None;
        }
    }
    sync_to_battle(battle, &magic);
    battle.magic = Some(magic);
    for (who, spell) in lines {
        let line = CombatLine::FlyChitUsed {
            character: battle.name(who).to_string(),
            spell,
        };
        battle.say(Seen::Clearing, line);
    }
}
