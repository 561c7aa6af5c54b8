//! A Phase spell's chit activated as a character's Encounter action (3.1
//! rule 4.6.7f.1): `activate Protection from Magic` on the `Combat:` line,
//! read like any belonging to activate (`activation.rs`). It protects him
//! until the round ends; then the spell expires and its MAGIC chit
//! fatigues ([`crate::magic::phase_chit`]).

use super::Battle;
use super::casting::{sync_to_battle, sync_to_state};
use super::log::CombatLine;
use super::model::FighterId;
use crate::magic::phase_chit;

/// The Phase spells whose chits character fighter `who` may activate.
pub fn held(battle: &Battle, who: FighterId) -> Vec<String> {
    let Some(magic) = battle.magic.as_ref() else {
        return Vec::new();
    };
    magic
        .seats
        .get(&who)
        .map(|&seat| phase_chit::held(&magic.state, seat))
        .unwrap_or_default()
}

/// Activate his held Phase spell `name`; false when he holds none.
pub fn activate(battle: &mut Battle, who: FighterId, name: &str) -> bool {
    let Some(magic) = battle.magic.as_mut() else {
        return false;
    };
    let Some(&seat) = magic.seats.get(&who) else {
        return false;
    };
    let Some(spell) = phase_chit::activate(&mut magic.state, seat, name) else {
        return false;
    };
    battle.plays.eventful = true;
    let line = CombatLine::PhaseChit {
        character: battle.name(who).to_string(),
        spell,
        expired: false,
    };
    battle.say(super::log::Seen::Clearing, line);
    true
}

/// The end of a round: the Phase spells activated in it expire.
pub fn end_of_round(battle: &mut Battle) {
    let Some(mut magic) = battle.magic.take() else {
        return;
    };
    sync_to_state(battle, &mut magic);
    let mut lines = Vec::new();
    for (&who, &seat) in &magic.seats {
        for event in phase_chit::expire_activated(&mut magic.state, seat) {
            if let crate::magic::events::MagicEvent::Expired { spell, .. } = event {
                lines.push((who, spell));
            }
        }
    }
    sync_to_battle(battle, &magic);
    battle.magic = Some(magic);
    for (who, spell) in lines {
        let line = CombatLine::PhaseChit {
            character: battle.name(who).to_string(),
            spell,
            expired: true,
        };
        battle.say(super::log::Seen::Clearing, line);
    }
}
