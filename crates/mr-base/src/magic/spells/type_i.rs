//! Type I spells (magic summary; `spells.toml`): Make Whole, Small Blessing,
//! Peace, Exorcise.
//!
//! Rulings: a Wish that sends someone elsewhere moves him to the clearing
//! named as the cast's second target, else the GM is asked; "you
//! elsewhere" sends a denizen back to the setup card (it leaves the map)
//! and a character to the clearing named; Exorcise kills the Demons, Winged
//! Demons and Imps in the clearing, breaks every spell on an individual
//! there or on the clearing, and lifts the curses of the characters there.

use crate::state::Whereabouts;
use crate::tables::magic::{Wish, WishResult};

use super::{Build, Ctx, everyone_in, in_effect};
use crate::magic::MagicError;
use crate::magic::curses::lifted_by_health;
use crate::magic::effect::SpellEffect;
use crate::magic::{curses, expiry};
use crate::state::magic::Aim;

pub fn build(name: &str) -> Option<Build> {
    Some(match name {
        "Make Whole" => Build::Effect(make_whole),
        "Small Blessing" => Build::Effect(small_blessing),
        "Peace" => Build::Effect(in_effect),
        "Exorcise" => Build::Effect(exorcise),
        _ => return None,
    })
}

/// Every chit back to active; Wither lifted.
fn make_whole(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    let who = ctx.character(0)?;
    let mut effects = vec![ctx.heal_all(who)];
    if let Some(e) = curses::lift(
        ctx.state,
        who,
        crate::tables::magic::CurseKind::Wither,
        "Make Whole",
    ) {
        effects.push(SpellEffect::Magic(e));
    }
    effects.push(SpellEffect::NotApplied {
        what: "mending damaged armour".into(),
        reason: "armour damage is not kept in the state yet".into(),
    });
    Ok(effects)
}

/// The target rolls on the Wish table.
fn small_blessing(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    let who = ctx.character(0)?;
    let (roll, rolled) = ctx.roll(&Wish);
    let mut effects = vec![rolled];
    effects.extend(apply_wish(ctx, who, roll.result));
    Ok(effects)
}

/// Apply a Wish result for character `who` (`tables/magic.rs`).
pub fn apply_wish(ctx: &mut Ctx<'_>, who: usize, wish: WishResult) -> Vec<SpellEffect> {
    let name = ctx.state.characters[who].name.clone();
    let destination = ctx.targets.iter().skip(1).find_map(|t| match t {
        Aim::Clearing { clearing } => Some(clearing.clone()),
        _ => None,
    });
    match wish {
        WishResult::SelfElsewhere => match destination {
            Some(to) if ctx.state.board.clearing(&to).is_some() => {
                ctx.state.characters[who].position = to.clone();
                vec![SpellEffect::Moved {
                    target: Aim::Character { name },
                    to,
                }]
            }
            _ => vec![SpellEffect::ForGm {
                text: format!("the {name} may move to any clearing named; no clearing was given"),
            }],
        },
        WishResult::OtherElsewhere => {
            let here = ctx.state.characters[who].position.clone();
            let other = ctx.targets.iter().skip(1).find(|t| match t {
                Aim::Denizen { id } => ctx.state.denizens.get(id).is_some_and(
                    |d| matches!(&d.at, Whereabouts::Clearing { clearing } if *clearing == here),
                ),
                _ => false,
            });
            match other.cloned() {
                Some(Aim::Denizen { id }) => {
                    let mut effects = expiry::caster_or_target_gone(ctx.state, &id)
                        .into_iter()
                        .map(SpellEffect::Magic)
                        .collect::<Vec<_>>();
                    effects.push(SpellEffect::ForGm {
                        text: format!("{id} is sent back to its box on the setup card"),
                    });
                    if let Some(d) = ctx.state.denizens.get_mut(&id) {
                        d.at = Whereabouts::SetupBox { name: id.clone() };
                    }
                    effects
                }
                _ => vec![SpellEffect::ForGm {
                    text: format!(
                        "the {name} may send one other individual in the same clearing elsewhere; \
                         name it as the cast's second target"
                    ),
                }],
            }
        }
        WishResult::Vision => vec![SpellEffect::ForGm {
            text: format!("the {name} looks into one chosen box of the setup card"),
        }],
        WishResult::Peace => vec![SpellEffect::CombatEnds {
            clearing: ctx.state.characters[who].position.clone(),
        }],
        WishResult::Health => {
            let mut effects = vec![ctx.heal_all(who)];
            for curse in lifted_by_health() {
                if let Some(e) = curses::lift(ctx.state, who, curse, "a Wish for Health") {
                    effects.push(SpellEffect::Magic(e));
                }
            }
            effects
        }
        WishResult::Strength => {
            ctx.state.characters[who].magic.next_fight_tremendous = true;
            vec![SpellEffect::NextFightTremendous { character: name }]
        }
    }
}

fn exorcise(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    let Some(Aim::Clearing { clearing }) = ctx.targets.first().cloned() else {
        return Err(ctx.bad_target(0, "it must be a clearing"));
    };
    let mut effects = Vec::new();
    let everyone = everyone_in(ctx.state, &clearing);
    for aim in &everyone {
        if let Aim::Denizen { id } = aim
            && ["Demon", "Winged Demon", "Imp"]
                .iter()
                .any(|n| id == n || id.starts_with(&format!("{n} ")))
        {
            effects.push(ctx.kill(aim));
        }
    }
    let broken: Vec<(u32, String)> = ctx
        .state
        .magic
        .in_effect
        .iter()
        .filter(|s| {
            s.targets.iter().any(|t| {
                everyone.contains(t) || matches!(t, Aim::Clearing { clearing: c } if *c == clearing)
            })
        })
        .map(|s| (s.id, s.spell.clone()))
        .collect();
    for (id, spell) in broken {
        expiry::expire(ctx.state, id);
        effects.push(SpellEffect::SpellBroken { id, spell });
    }
    for who in 0..ctx.state.characters.len() {
        if ctx.state.characters[who].position == clearing {
            effects.extend(
                curses::lift_all(ctx.state, who, "Exorcise")
                    .into_iter()
                    .map(SpellEffect::Magic),
            );
        }
    }
    Ok(effects)
}
