//! A character alone in his clearing at Evening casts a spell (3.1 rule
//! 4.6.5b: spells are cast in the Encounter step of a round of combat, even
//! when no other combat takes place). With nobody else there no battle is
//! fought, but he still has the Encounter step of a round of his own.
//!
//! Rulings: he casts what the `cast SPELL [on TARGET]` clause of his
//! `Combat:` line names, with the first MAGIC chit or active treasure the
//! magic rules accept ([`crate::magic::choose`]); without a
//! named target a spell aims at himself, his clearing or tile, his own
//! chits or the weather, as it allows. An attack spell waits for a battle
//! (named at a target, it is refused: alone there is none); another spell
//! that needs someone else is refused with the reason. The round then ends as combat ends: attack
//! and phase spells expire ([`expiry::end_of_combat`]); a combat spell
//! lasts to Midnight (4.6.7g.1). Everything
//! is reported as the clearing's combat lines, seen by him alone.

use std::collections::BTreeMap;

use crate::combat::casting::{read_order, split_order};
use crate::combat::log::CombatLine;
use crate::magic::cast::cast;
use crate::magic::choose::{default_aims, legal_request};
use crate::magic::spellbook::find_spell;
use crate::magic::spells::{Build, build_of};
use crate::magic::{MagicError, aims, expiry};
use crate::orders::DayOrders;
use crate::state::magic::{Aim, CastWith};

use super::Day;
use super::events::{CombatEvent, Happening};

/// Character `who`, alone in his clearing, casts what his orders name.
pub fn cast_alone(day: &mut Day<'_>, who: usize, orders: &BTreeMap<String, DayOrders>) {
    let c = &day.state.characters[who];
    let Some(order) = orders
        .get(&c.player)
        .and_then(|o| o.combat.as_ref())
        .and_then(|t| t.cast.clone())
    else {
        return;
    };
    if c.dead {
        return;
    }
    let name = c.name.clone();
    let clearing = c.position.clone();
    let lines = match attempt(day, who, &order) {
        Ok(None) => return,
        Ok(Some(lines)) => lines,
        Err(e) => {
            let reason = match e {
                MagicError::CannotCast { reason, .. } => format!("the {order} fails: {reason}"),
                other => format!("the {order} fails: {other}"),
            };
            vec![CombatLine::Refused {
                character: name.clone(),
                reason,
            }]
        }
    };
    let observers = day.only(who);
    for line in lines {
        day.emit(
            observers.clone(),
            Happening::Combat(CombatEvent::Line {
                clearing: clearing.clone(),
                round: 1,
                line,
            }),
        );
    }
    for event in expiry::end_of_combat(&mut day.state, &clearing) {
        day.emit(observers.clone(), Happening::Magic(event));
    }
}

/// The cast and its lines; `None` when an attack spell has nobody here.
fn attempt(
    day: &mut Day<'_>,
    who: usize,
    order: &str,
) -> Result<Option<Vec<CombatLine>>, MagicError> {
    let (spell, target) = split_order(order);
    let order = read_order(day.data, &spell, target.as_deref());
    let target = order.target;
    let spell = find_spell(day.data, &order.spell)?;
    if matches!(build_of(&spell.name), Some(Build::Attack)) {
        return match target {
            // A standing order for battles: with nobody here it waits.
            None => Ok(None),
            Some(_) => Err(MagicError::cannot(
                &spell.name,
                "an attack spell is resolved in a battle, and a lone caster has none",
            )),
        };
    }
    let me = &day.state.characters[who].name;
    let targets = match target.as_deref() {
        // Alone, the only individual he can name is himself.
        Some(text) if text.trim().eq_ignore_ascii_case(me) => {
            vec![Aim::Character { name: me.clone() }]
        }
        Some(text) => aims::named(&day.state, who, text).ok_or_else(|| MagicError::BadTarget {
            spell: spell.name.clone(),
            target: text.to_string(),
            reason: "nobody of that name is here".into(),
        })?,
        None => default_aims(&day.state, who, &spell.targets).ok_or_else(|| {
            MagicError::cannot(
                &spell.name,
                "alone, the caster must name its target: `cast SPELL on TARGET` (`on me` aims it \
                 at the caster, `on ITEM with SPELL` at a treasure carried)",
            )
        })?,
    };
    let request = legal_request(
        &day.state,
        day.data,
        day.rules,
        who,
        &spell.name,
        targets,
        order.with.as_deref(),
    )?;
    let character = day.state.characters[who].name.clone();
    let with = match &request.with {
        CastWith::Chit { index } => day.state.characters[who].chits[*index].chit.clone(),
        CastWith::Treasure { name } => name.clone(),
    };
    let on: Vec<String> = request.targets.iter().map(ToString::to_string).collect();
    let mut lines = vec![CombatLine::Plays {
        fighter: character.clone(),
        text: format!(
            "alone, casts {} on {} with {with}",
            request.spell,
            on.join(", ")
        ),
    }];
    let effects = cast(&mut day.state, day.data, day.rules, &request, day.dice)?;
    lines.extend(effects.iter().map(|e| CombatLine::Plays {
        fighter: character.clone(),
        text: e.to_string(),
    }));
    Ok(Some(lines))
}
