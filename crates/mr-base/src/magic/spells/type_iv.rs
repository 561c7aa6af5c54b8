//! Type IV spells (magic summary; `spells.toml`): Elemental Spirit, Lightning
//! Bolt, Fiery Blast, Blazing Light, Roof Collapses, Violent Storm,
//! Hurricane Winds.
//!
//! Blazing Light gives everyone in its cave clearing a bonus phase
//! ([`crate::magic::influence`]); Violent Storm strikes those who enter its
//! tile ([`crate::day::wilderness`]). Lightning Bolt, Fiery Blast and Roof
//! Collapses are attacks for combat
//! (Roof Collapses strikes everyone in the cave clearing). Hurricane Winds
//! blows its target to the adjacent tile named as the second target, where
//! it lands in the clearing of one die's number (or the nearest lower
//! clearing, else the lowest), as a flyer lands, and expires at once
//! (ruling).

use crate::board::ClearingId;
use crate::data::tiles::Edge;
use crate::state::Whereabouts;
use realmgm_core::dice::DiceCount;

use super::{Build, Ctx, in_effect};
use crate::magic::MagicError;
use crate::magic::effect::SpellEffect;
use crate::state::magic::Aim;

pub fn build(name: &str) -> Option<Build> {
    Some(match name {
        "Elemental Spirit" | "Blazing Light" | "Violent Storm" => Build::Effect(in_effect),
        "Lightning Bolt" | "Fiery Blast" | "Roof Collapses" => Build::Attack,
        "Hurricane Winds" => Build::Effect(hurricane_winds),
        _ => return None,
    })
}

fn adjacent(ctx: &Ctx<'_>, code: &str) -> Vec<String> {
    let board = &ctx.state.board;
    let Some(placement) = board.placement_of(code) else {
        return Vec::new();
    };
    Edge::ALL
        .iter()
        .filter_map(|&edge| board.placement_at(placement.at.neighbour(edge)))
        .map(|p| p.tile.clone())
        .collect()
}

fn hurricane_winds(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    let target = ctx
        .targets
        .first()
        .cloned()
        .ok_or_else(|| ctx.bad_target(0, "name whom it blows"))?;
    let Some(Aim::Tile { code }) = ctx.targets.get(1).cloned() else {
        return Err(ctx.bad_target(1, "name the adjacent tile it blows the target to"));
    };
    let here = ctx.here();
    if !adjacent(ctx, &here.tile).contains(&code) {
        return Err(ctx.bad_target(1, "the tile must be next to the target's tile"));
    }
    let purpose = format!("magic/Hurricane Winds/{}", ctx.caster_name());
    let die = ctx.dice.roll(&purpose, DiceCount::One);
    let numbers: Vec<u8> = ctx
        .state
        .board
        .clearings()
        .into_iter()
        .filter(|c| c.tile == code)
        .map(|c| c.clearing)
        .collect();
    let number = numbers
        .iter()
        .copied()
        .filter(|&n| n <= die.result)
        .max()
        .or_else(|| numbers.iter().copied().min())
        .ok_or_else(|| ctx.bad_target(1, "the tile has no clearings"))?;
    let to = ClearingId::new(&code, number);
    match &target {
        Aim::Character { name } => {
            let c = ctx
                .state
                .characters
                .iter_mut()
                .find(|c| &c.name == name)
                .ok_or_else(|| MagicError::BadTarget {
                    spell: "Hurricane Winds".into(),
                    target: name.clone(),
                    reason: "there is no such character".into(),
                })?;
            c.position = to.clone();
            c.discoveries.tiles_visited.insert(code.clone());
        }
        Aim::Denizen { id } => {
            if let Some(d) = ctx.state.denizens.get_mut(id) {
                d.at = Whereabouts::Clearing {
                    clearing: to.clone(),
                };
            }
        }
        _ => return Err(ctx.bad_target(0, "it blows an individual")),
    }
    ctx.spent = true;
    Ok(vec![
        SpellEffect::Rolled {
            purpose,
            faces: die.faces,
            result: format!("lands in clearing {number}"),
        },
        SpellEffect::Moved { target, to },
    ])
}
