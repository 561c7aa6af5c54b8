//! How a bot casts (the built-in players of [`super::bot`]; magic summary
//! "Casting a Spell"): a bot that knows one of a few spells that help it
//! through the day (bonus phases, no summoning, choosing its turn) and can
//! cast it where it stands today stays there and casts it on itself at
//! Evening, with the `cast SPELL` clause of its `Combat:` line; otherwise a
//! bot that knows an attack spell it could cast where its day ends keeps
//! `cast SPELL` in its standing combat orders, aimed by combat at an
//! attacker. Every clause is first checked with the magic rules' own check
//! for the bot in the clearing where it will be at Evening on the day being
//! ordered, so a bot never orders a cast the rules refuse there.

use crate::board::ClearingId;
use crate::combat::Tactics;
use crate::data::GameData;
use crate::magic::cast::active_on;
use crate::magic::choose::{default_aims, legal_request};
use crate::magic::spells::{Build, build_of};
use crate::state::MrState;
use crate::state::magic::Aim;
use realmgm_core::game::Rules;

/// The spells a bot casts on itself for the day, best first.
const HELPFUL: [&str; 6] = [
    "See Hidden Signs",
    "Blend Into Background",
    "Sense Danger",
    "Peace with Nature",
    "Premonition",
    "World Fades",
];

/// A helpful spell bot character `who` can cast on itself tonight where
/// it stands, not already awake on it.
pub fn day_spell(data: &GameData, rules: &Rules, state: &MrState, who: usize) -> Option<String> {
    let c = state.characters.get(who)?;
    let me = Aim::Character {
        name: c.name.clone(),
    };
    HELPFUL
        .iter()
        .filter(|s| c.magic.spells.iter().any(|k| k == *s))
        .filter(|s| active_on(state, &me, s).is_none())
        .find(|s| castable(data, rules, state, who, s))
        .map(ToString::to_string)
}

/// An attack spell bot character `who` could cast in clearing `tonight`,
/// where its recorded day ends.
pub fn attack_spell(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    who: usize,
    tonight: &ClearingId,
) -> Option<String> {
    let c = state.characters.get(who)?;
    let attacks: Vec<&String> = c
        .magic
        .spells
        .iter()
        .filter(|s| matches!(build_of(s), Some(Build::Attack)))
        .collect();
    if attacks.is_empty() {
        return None;
    }
    let moved;
    let there = if &c.position == tonight {
        state
    } else {
        let mut copy = state.clone();
        copy.characters[who].position = tonight.clone();
        moved = copy;
        &moved
    };
    attacks
        .into_iter()
        .find(|s| castable(data, rules, there, who, s))
        .cloned()
}

/// Whether the magic rules accept the cast now, aimed as it would be with
/// nobody else there (an attack spell: at the bot itself, standing in for
/// the attacker combat will aim at — the chit, colour and place are what
/// is checked).
fn castable(data: &GameData, rules: &Rules, state: &MrState, who: usize, spell: &str) -> bool {
    let Some(found) = data.spells.iter().find(|s| s.name == spell) else {
        return false;
    };
    let Some(c) = state.characters.get(who) else {
        return false;
    };
    let aims = default_aims(state, who, &found.targets).unwrap_or_else(|| {
        vec![Aim::Character {
            name: c.name.clone(),
        }]
    });
    legal_request(state, data, rules, who, spell, aims, None).is_ok()
}

/// Standing combat orders that cast `spell`.
pub fn casting(spell: String) -> Tactics {
    Tactics {
        cast: Some(spell),
        ..Tactics::default()
    }
}
