//! Spells end with their caster or target (3.1 rule 4.6.10h): when a round
//! ends, every spell a character killed in it cast with a MAGIC chit, and
//! every spell holding anyone killed in it (character, monster or native),
//! ends at once, so it does not hold on through the rounds still to come.
//! A spell an Artifact or Spell Book cast outlives him (8.3.9c.6). A
//! denizen's own spells (Power of the Pit, Curse) take effect at once and
//! leave nothing in effect to end.

use super::Battle;
use super::casting::{sync_to_battle, sync_to_state};
use super::log::{CombatLine, Seen};
use super::model::Out;
use crate::magic::events::MagicEvent;
use crate::magic::expiry::caster_or_target_gone;

/// The end of a round: the spells of those killed in it end.
pub fn end_of_round(battle: &mut Battle) {
    let killed: Vec<String> = (0..battle.fighters.len())
        .filter(|&f| matches!(battle.fighters[f].out, Some(Out::Killed { .. })))
        .map(|f| battle.name(f).to_string())
        .collect();
    if killed.is_empty() {
        return;
    }
    let Some(mut magic) = battle.magic.take() else {
        return;
    };
    sync_to_state(battle, &mut magic);
    let mut lines = Vec::new();
    for name in &killed {
        for event in caster_or_target_gone(&mut magic.state, name) {
            if let MagicEvent::Expired { spell, caster } = event {
                lines.push(CombatLine::SpellEnded {
                    spell,
                    caster,
                    killed: name.clone(),
                });
            }
        }
    }
    sync_to_battle(battle, &magic);
    battle.magic = Some(magic);
    for line in lines {
        battle.say(Seen::Clearing, line);
    }
}
