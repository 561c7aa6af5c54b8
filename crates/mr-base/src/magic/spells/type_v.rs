//! Type V spells (magic summary; `spells.toml`; `tables/magic.rs`, §5.2): Ask
//! Demon, Pentangle, Curse, Absorb Essence, Power of the Pit, Broomstick.
//!
//! Rulings: Absorb Essence kills the monster and keeps its name with the
//! spell in effect, so the caster takes its form whenever the permanent
//! spell is energized (combat reads the form); Power of the Pit applies
//! its event at once, killing denizens outright and reporting a
//! character's death to the combat engine; Rust is reported, since armour
//! damage is not kept in the state yet. Ask Demon sends the GM the
//! question to put to the demon's owner; Broomstick waits in effect until
//! its target's Fly phases and ends when he lands.

use crate::data::characters::ActionChit;
use crate::data::terms::Strength;
use crate::state::ChitCondition;
use crate::tables::magic::{Curse, PitEvent, PowerOfThePit};

use super::{Build, Ctx, everyone_in, in_effect};
use crate::magic::MagicError;
use crate::magic::curses;
use crate::magic::effect::SpellEffect;
use crate::state::magic::Aim;

pub fn build(name: &str) -> Option<Build> {
    Some(match name {
        "Pentangle" => Build::Effect(in_effect),
        "Curse" => Build::Effect(curse),
        "Absorb Essence" => Build::Effect(absorb_essence),
        "Power of the Pit" => Build::Effect(power_of_the_pit),
        "Ask Demon" => Build::Effect(ask_demon),
        "Broomstick" => Build::Effect(in_effect),
        _ => return None,
    })
}

fn curse(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    let who = ctx.character(0)?;
    let (roll, rolled) = ctx.roll(&Curse);
    let event = curses::inflict(
        ctx.state,
        ctx.data,
        ctx.rules,
        who,
        roll.result,
        "the Curse spell",
    );
    Ok(vec![rolled, SpellEffect::Magic(event)])
}

fn absorb_essence(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    let target = ctx
        .targets
        .first()
        .cloned()
        .ok_or_else(|| ctx.bad_target(0, "name a monster"))?;
    let Aim::Denizen { id } = &target else {
        return Err(ctx.bad_target(0, "it must be a monster"));
    };
    let form = ctx
        .data
        .monsters
        .iter()
        .filter(|m| id == &m.name || id.starts_with(&format!("{} ", m.name)))
        .max_by_key(|m| m.name.len())
        .map(|m| m.name.clone())
        .ok_or_else(|| ctx.bad_target(0, "it must be a monster"))?;
    ctx.detail = Some(form.clone());
    let killed = ctx.kill(&target);
    Ok(vec![
        killed,
        SpellEffect::Transformed {
            target: Aim::Character {
                name: ctx.caster_name(),
            },
            form,
        },
    ])
}

fn chits_where(
    ctx: &mut Ctx<'_>,
    who: usize,
    pick: impl Fn(&ActionChit) -> bool,
    to: ChitCondition,
) -> Vec<String> {
    let mut hit = Vec::new();
    for chit in &mut ctx.state.characters[who].chits {
        if chit.condition == ChitCondition::Active
            && ActionChit::parse(&chit.chit).is_ok_and(|a| pick(&a))
        {
            chit.condition = to;
            chit.enchanted = false;
            hit.push(chit.chit.clone());
        }
    }
    hit
}

fn power_of_the_pit(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    let target = ctx
        .targets
        .first()
        .cloned()
        .ok_or_else(|| ctx.bad_target(0, "name a target"))?;
    let (roll, rolled) = ctx.roll(&PowerOfThePit);
    let mut effects = vec![rolled];
    let here = ctx.here();
    let target_character = match &target {
        Aim::Character { name } => ctx.state.characters.iter().position(|c| &c.name == name),
        _ => None,
    };
    match roll.result {
        PitEvent::FieryChasm => {
            for aim in everyone_in(ctx.state, &here) {
                let hidden = match &aim {
                    Aim::Character { name } => ctx
                        .state
                        .characters
                        .iter()
                        .any(|c| &c.name == name && c.hidden),
                    _ => false,
                };
                if !hidden {
                    effects.push(ctx.kill(&aim));
                }
            }
        }
        PitEvent::CarriedAway => effects.push(ctx.kill(&target)),
        PitEvent::Terror => {
            for who in 0..ctx.state.characters.len() {
                if ctx.state.characters[who].position != here {
                    continue;
                }
                let chits = chits_where(
                    ctx,
                    who,
                    |a| PitEvent::Terror.touches(a),
                    ChitCondition::Wounded,
                );
                effects.push(SpellEffect::ChitsWounded {
                    character: ctx.state.characters[who].name.clone(),
                    chits,
                });
            }
            let small: Vec<Aim> = everyone_in(ctx.state, &here)
                .into_iter()
                .filter(|a| match a {
                    Aim::Denizen { id } => denizen_is_small(ctx, id),
                    _ => false,
                })
                .collect();
            for aim in small {
                effects.push(ctx.kill(&aim));
            }
            effects.push(SpellEffect::NotApplied {
                what: "killing light and medium horses".into(),
                reason: "horses in combat belong to the combat engine".into(),
            });
        }
        PitEvent::Blight => {
            if let Some(who) = target_character {
                let chits = chits_where(
                    ctx,
                    who,
                    |a| PitEvent::Blight.touches(a),
                    ChitCondition::Wounded,
                );
                effects.push(SpellEffect::ChitsWounded {
                    character: ctx.state.characters[who].name.clone(),
                    chits,
                });
            }
        }
        PitEvent::Forget => {
            if let Some(who) = target_character {
                let chits = chits_where(
                    ctx,
                    who,
                    |a| PitEvent::Forget.touches(a),
                    ChitCondition::Fatigued,
                );
                effects.push(SpellEffect::ChitsFatigued {
                    character: ctx.state.characters[who].name.clone(),
                    chits,
                });
            }
        }
        PitEvent::Rust => {
            if target_character.is_some() {
                effects.push(SpellEffect::NotApplied {
                    what: "rusting the target's active armour".into(),
                    reason: "armour damage is not kept in the state yet".into(),
                });
            }
        }
    }
    Ok(effects)
}

/// A light or medium monster or native (by its counter id).
fn denizen_is_small(ctx: &Ctx<'_>, id: &str) -> bool {
    let small = |s: Strength| matches!(s, Strength::Light | Strength::Medium);
    ctx.data
        .monsters
        .iter()
        .filter(|m| id == m.name || id.starts_with(&format!("{} ", m.name)))
        .max_by_key(|m| m.name.len())
        .map(|m| small(m.vulnerability))
        .or_else(|| {
            ctx.data
                .natives
                .iter()
                .flat_map(|g| g.members.iter())
                .find(|m| id == m.name)
                .map(|m| small(m.vulnerability))
        })
        .unwrap_or(false)
}

fn ask_demon(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    let Some(Aim::Denizen { id }) = ctx.targets.first().cloned() else {
        return Err(ctx.bad_target(0, "it must be a demon"));
    };
    Ok(vec![SpellEffect::ForGm {
        text: format!(
            "the {} asks the owner of {id} one question, to be answered with yes, no or a number",
            ctx.caster_name()
        ),
    }])
}
