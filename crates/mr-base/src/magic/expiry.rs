//! When spells end (3.1 rules 4.6.7, 4.6.10h and 8.9.2): Instant, Attack,
//! Fly and Phase spells have one effect and then expire (4.6.7b); a Combat
//! spell lasts the rest of the Evening and expires at Midnight (4.6.7g.1,
//! 8.9.2e), so it follows its target into any later combat that Evening; a
//! Day spell expires at Sunset of the day after it was cast (4.6.7g.2); a
//! Permanent spell never expires, but falls inert at Midnight and is
//! energized again by its colour (4.6.7h): the colour of the day, the
//! tile, the Chapel, an Enchanted card, or a colour chit anyone plays. When
//! a spell expires the MAGIC chit that cast it fatigues (4.6.7b). A spell
//! ends when its caster or target is killed (4.6.10h). At Midnight the
//! alerted MAGIC chits fatigue (4.6.3c, 7.9.3, 8.9.2c), artifacts and spell
//! books may cast again, and the Chapel lifts the curses of those in its
//! clearing (8.9.2f).
//!
//! Rulings: an Attack or Phase spell still in effect when its combat ends
//! expires then (its one effect is spent in that combat); a Fly spell
//! (Broomstick) waits until its flyer lands; shared colour wakes permanent
//! spells at the start of the day (after Birdsong) and at Sunset; a
//! permanent spell is energized at Sunset when its colour is shared in its
//! target's clearing; alerted chits stay alerted through the end of combat
//! and fatigue at Midnight, unless the owner's special advantage says
//! otherwise (a special advantage overrides the general rule: the
//! Magician's optional Charms, 3.1 rule 10.A.6.4, only unalerts them).

use std::collections::BTreeMap;

use crate::board::ClearingId;
use crate::data::GameData;
use crate::data::spells::{Duration, Spell, SpellColour};
use crate::data::terms::Colour;
use crate::state::{CharacterState, ChitCondition, MrState, Whereabouts};
use realmgm_core::game::Rules;

use super::MagicError;
use super::colour::{colour_chits, shared_colours, shared_with};
use super::events::MagicEvent;
use crate::state::magic::{Aim, CastWith, SpellInEffect};

/// End spell `id`: take it off the board and fatigue its chit, unless
/// Enhanced Magic fatigued the chit when it was cast (3.1 10.C.1.1).
pub fn expire(state: &mut MrState, id: u32) -> Option<MagicEvent> {
    let at = state.magic.in_effect.iter().position(|s| s.id == id)?;
    let spell = state.magic.in_effect.remove(at);
    state.magic.phantasms.remove(&id);
    if let CastWith::Chit { index } = spell.with
        && !spell.untied
        && let Some(c) = state.characters.iter_mut().find(|c| c.name == spell.caster)
        && let Some(chit) = c.chits.get_mut(index)
        && chit.condition == ChitCondition::Active
    {
        chit.condition = ChitCondition::Fatigued;
    }
    Some(MagicEvent::Expired {
        spell: spell.spell,
        caster: spell.caster,
    })
}

/// End every spell in effect that `ends` picks.
pub fn expire_where(state: &mut MrState, ends: impl Fn(&SpellInEffect) -> bool) -> Vec<MagicEvent> {
    let ids: Vec<u32> = state
        .magic
        .in_effect
        .iter()
        .filter(|s| ends(s))
        .map(|s| s.id)
        .collect();
    ids.into_iter().filter_map(|id| expire(state, id)).collect()
}

/// The clearing a spell's target is in (the caster's when it has none).
pub fn target_clearing(state: &MrState, spell: &SpellInEffect) -> Option<ClearingId> {
    match spell.targets.first() {
        Some(Aim::Denizen { id }) => match state.denizens.get(id).map(|d| &d.at) {
            Some(Whereabouts::Clearing { clearing }) => Some(clearing.clone()),
            _ => None,
        },
        Some(Aim::Clearing { clearing }) => Some(clearing.clone()),
        _ => target_character(state, spell).map(|c| c.position.clone()),
    }
}

/// The character a spell's target is, or is held or carried by (the
/// caster when it has no target); `None` for a denizen or a clearing.
fn target_character<'s>(state: &'s MrState, spell: &SpellInEffect) -> Option<&'s CharacterState> {
    let name = match spell.targets.first() {
        Some(Aim::Denizen { .. } | Aim::Clearing { .. }) => return None,
        Some(Aim::Character { name })
        | Some(Aim::OwnChits { character: name })
        | Some(Aim::Item { holder: name, .. }) => name,
        _ => &spell.caster,
    };
    state.characters.iter().find(|c| &c.name == name)
}

/// Whether `colour` wakes a spell of colour `needed`.
fn wakes(needed: SpellColour, colour: Colour) -> bool {
    match needed {
        SpellColour::Colour(c) => c == colour,
        SpellColour::Any(_) => true,
    }
}

/// Wake every inert permanent spell whose colour is shared in its target's
/// clearing on game day `day`, or, for a target aloft after flying away,
/// over the tiles he is over (3.1 8.3.8e.2): the one he flew from and the
/// one next to it that `next_tiles` names for him (his first Fly phase's).
pub fn energize_by_presence(
    state: &mut MrState,
    data: &GameData,
    rules: &Rules,
    day: u32,
    next_tiles: &BTreeMap<String, String>,
) -> Vec<MagicEvent> {
    let mut events = Vec::new();
    for i in 0..state.magic.in_effect.len() {
        let spell = &state.magic.in_effect[i];
        if !spell.inert {
            continue;
        }
        let Some(needed) = data
            .spells
            .iter()
            .find(|s| s.name == spell.spell)
            .map(|s| s.colour)
        else {
            continue;
        };
        let present: Vec<Colour> = match target_character(state, spell) {
            Some(c) => {
                let next = next_tiles.get(&c.name).map(String::as_str);
                shared_with(state, data, rules, day, c, next)
                    .into_iter()
                    .map(|p| p.colour)
                    .collect()
            }
            None => {
                let Some(clearing) = target_clearing(state, spell) else {
                    continue;
                };
                shared_colours(state, data, rules, day, &clearing)
                    .into_iter()
                    .collect()
            }
        };
        if let Some(colour) = present.into_iter().find(|c| wakes(needed, *c)) {
            let spell = &mut state.magic.in_effect[i];
            spell.inert = false;
            events.push(MagicEvent::Energized {
                spell: spell.spell.clone(),
                caster: spell.caster.clone(),
                colour,
            });
            let woken = spell.clone();
            super::transmorph::take_hold(state, &woken);
        }
    }
    events
}

/// Character `who` plays one of his colour chits (`chit`, its index) to
/// wake the inert permanent spell `id` whose target is in his clearing; the
/// chit returns to a plain MAGIC chit, fatigued (magic summary "Permanent
/// Spells").
///
/// # Errors
/// No such colour chit, no such inert spell, the target elsewhere, or the
/// wrong colour.
pub fn energize_with_chit(
    state: &mut MrState,
    data: &GameData,
    who: usize,
    chit: usize,
    id: u32,
) -> Result<MagicEvent, MagicError> {
    let c = state
        .characters
        .get(who)
        .ok_or(MagicError::NoCharacter(who))?;
    let (_, chit_name, colour) = colour_chits(state, who)
        .into_iter()
        .find(|(i, _, _)| *i == chit)
        .ok_or_else(|| {
            MagicError::Spellbook(format!("the {} has no colour chit number {chit}", c.name))
        })?;
    let spell = state
        .magic
        .in_effect
        .iter()
        .find(|s| s.id == id && s.inert)
        .ok_or_else(|| {
            MagicError::Spellbook(format!("there is no inert spell #{id} to energize"))
        })?;
    let needed = data
        .spells
        .iter()
        .find(|s| s.name == spell.spell)
        .map(|s| s.colour)
        .ok_or_else(|| MagicError::Spellbook(format!("unknown spell {}", spell.spell)))?;
    if target_clearing(state, spell).as_ref() != Some(&c.position) {
        return Err(MagicError::cannot(
            &spell.spell,
            "its target is in another clearing, so the colour chit cannot reach it",
        ));
    }
    if !wakes(needed, colour) {
        return Err(MagicError::cannot(
            &spell.spell,
            format!(
                "it needs {} magic and {chit_name} is {colour}",
                needed.word()
            ),
        ));
    }
    let c = &mut state.characters[who];
    c.chits[chit].enchanted = false;
    c.chits[chit].condition = ChitCondition::Fatigued;
    let spell = state
        .magic
        .in_effect
        .iter_mut()
        .find(|s| s.id == id)
        .ok_or_else(|| MagicError::Spellbook(format!("there is no spell #{id}")))?;
    spell.inert = false;
    let woken = spell.clone();
    super::transmorph::take_hold(state, &woken);
    Ok(MagicEvent::Energized {
        spell: woken.spell,
        caster: woken.caster,
        colour,
    })
}

/// The end of combat in `clearing`: the Attack and Phase spells of casters
/// there expire. Combat spells last to Midnight (3.1 rule 4.6.7g.1) and
/// alerted chits stay alerted to Midnight (7.9.3).
pub fn end_of_combat(state: &mut MrState, clearing: &ClearingId) -> Vec<MagicEvent> {
    let casters: Vec<String> = state
        .characters
        .iter()
        .filter(|c| &c.position == clearing)
        .map(|c| c.name.clone())
        .collect();
    expire_where(state, |s| {
        matches!(s.duration, Duration::Attack | Duration::Phase)
            && !s.held
            && casters.contains(&s.caster)
    })
}

/// The targets of a new cast of `spell` already bewitched by the same
/// spell (3.1 rule 4.6.10e): a Combat, Day or Permanent spell does not go
/// into effect on them (inert or not, the first spell holds them), so they
/// are released from the new one. Instant, Attack, Fly and Phase spells
/// stack (4.6.10e.3): none is released.
pub fn already_bewitched(state: &MrState, spell: &Spell, targets: &[Aim]) -> Vec<Aim> {
    if !matches!(
        spell.duration,
        Duration::Combat | Duration::Day | Duration::Permanent
    ) {
        return Vec::new();
    }
    targets
        .iter()
        .filter(|aim| {
            state
                .magic
                .in_effect
                .iter()
                .any(|s| s.spell == spell.name && s.targets.contains(aim))
        })
        .cloned()
        .collect()
}

/// A caster or target killed (a character by name, a monster or native by
/// id): every spell he cast or that holds him ends (3.1 rule 4.6.10h.2-3);
/// a spell an artifact or book cast outlives him (8.3.9c.6), and Absorb
/// Essence outlives the monster it absorbed.
pub fn caster_or_target_gone(state: &mut MrState, name: &str) -> Vec<MagicEvent> {
    expire_where(state, |s| {
        super::item_caster::cast_by(s, name)
            || s.targets.iter().any(|t| match t {
                Aim::Character { name: n } => n == name,
                // Absorb Essence kills the monster it names as its effect
                // and from then on holds its caster, not the monster.
                Aim::Denizen { id } => id == name && s.spell != "Absorb Essence",
                _ => false,
            })
    })
}

/// Denizens that regenerated are freed from every spell (3.1 6.3.4e): a
/// spell whose targets all regenerated is broken, one with other targets
/// left lets go of them. Absorb Essence holds its caster, not the monster
/// (as when a target is killed).
pub fn regenerated(state: &mut MrState, ids: &[String]) -> Vec<MagicEvent> {
    let freed = |t: &Aim| matches!(t, Aim::Denizen { id } if ids.contains(id));
    let events = expire_where(state, |s| {
        s.spell != "Absorb Essence" && !s.targets.is_empty() && s.targets.iter().all(freed)
    });
    for s in &mut state.magic.in_effect {
        if s.spell != "Absorb Essence" {
            s.targets.retain(|t| !freed(t));
        }
    }
    events
}

/// Character `who` has landed: the Fly spell that flew him (Broomstick)
/// expires (3.1 rule 4.6.7e.1).
pub fn landed(state: &mut MrState, who: usize) -> Vec<MagicEvent> {
    let Some(name) = state.characters.get(who).map(|c| c.name.clone()) else {
        return Vec::new();
    };
    expire_where(state, |s| {
        s.duration == Duration::Fly
            && s.targets
                .iter()
                .any(|t| matches!(t, Aim::Character { name: n } if *n == name))
    })
}
