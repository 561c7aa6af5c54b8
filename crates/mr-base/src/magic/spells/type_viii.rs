//! Type VIII spells (magic summary; `spells.toml`; `tables/magic.rs`): Bad Luck,
//! Poison, Remedy, Deal with Goblins, Guide Spider or Octopus, Whistle for
//! Monsters.
//!
//! Remedy breaks the spell or lifts the curse it targets; Poison and Guide
//! Spider or Octopus stay in effect for combat to read; Bad Luck is read
//! by [`crate::magic::influence`]. Whistle for Monsters moves a sound chit
//! (named as an item held by its tile) into the caster's tile, or, when it
//! is already there, to the tile named as the second target (ruling).

use super::{Build, Ctx, control, in_effect};
use crate::magic::MagicError;
use crate::magic::curses;
use crate::magic::effect::SpellEffect;
use crate::state::magic::Aim;

pub fn build(name: &str) -> Option<Build> {
    Some(match name {
        "Poison" | "Bad Luck" => Build::Effect(in_effect),
        "Guide Spider or Octopus" => Build::Effect(control),
        "Remedy" => Build::Effect(remedy),
        "Deal with Goblins" => Build::Effect(super::deal_with_goblins::deal),
        "Whistle for Monsters" => Build::Effect(whistle_for_monsters),
        _ => return None,
    })
}

fn remedy(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    match ctx.targets.first().cloned() {
        Some(Aim::Curse { character, curse }) => {
            let who = ctx
                .state
                .characters
                .iter()
                .position(|c| c.name == character)
                .ok_or_else(|| ctx.bad_target(0, "there is no such character"))?;
            let lifted = curses::lift(ctx.state, who, curse, "Remedy")
                .ok_or_else(|| ctx.bad_target(0, "that curse is not borne"))?;
            Ok(vec![SpellEffect::Magic(lifted)])
        }
        Some(Aim::Spell { .. }) => super::type_vi::break_spell(ctx),
        _ => Err(ctx.bad_target(0, "it must be a spell in effect or a curse")),
    }
}

fn whistle_for_monsters(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    let Some(Aim::Item { holder, item }) = ctx.targets.first().cloned() else {
        return Err(ctx.bad_target(0, "name a sound chit and the tile it is on"));
    };
    if !ctx.data.chits.sound.iter().any(|s| s.name == item) {
        return Err(ctx.bad_target(0, "it must be a sound chit"));
    }
    let here = ctx.here().tile;
    let to = if holder == here {
        match ctx.targets.get(1) {
            Some(Aim::Tile { code }) if ctx.state.board.placement_of(code).is_some() => {
                code.clone()
            }
            _ => return Err(ctx.bad_target(1, "name the tile it goes to")),
        }
    } else {
        here
    };
    let not_there = || MagicError::BadTarget {
        spell: "Whistle for Monsters".into(),
        target: format!("tile {holder}"),
        reason: "the sound chit is not on that tile".into(),
    };
    let from = ctx.state.map_chits.get_mut(&holder).ok_or_else(not_there)?;
    let at = from
        .iter()
        .position(|c| c.name == item)
        .ok_or_else(not_there)?;
    let chit = from.remove(at);
    ctx.state
        .map_chits
        .entry(to.clone())
        .or_default()
        .push(chit);
    Ok(vec![SpellEffect::ForGm {
        text: format!("the sound chit {item} moves from tile {holder} to tile {to}"),
    }])
}
