//! Type II spells (magic summary; `spells.toml`): Witch's Brew, Talk to Wise
//! Bird, Prophecy, Fog, Stones Fly, Blend Into Background.
//!
//! Witch's Brew changes the types of the caster's own chits while in effect
//! (read by [`crate::magic::cast::effective_type`]); Fog stops the Peer
//! table in its tile (read by the Search activity); Blend Into Background
//! gives a bonus Hide phase ([`crate::magic::influence`]); Talk to Wise
//! Bird peers into the clearing named as its second target.

use crate::board::ClearingId;
use crate::data::tiles::PathKind;
use crate::tables::search::{Peer, PeerResult};

use super::{Build, Ctx, in_effect};
use crate::magic::MagicError;
use crate::magic::effect::SpellEffect;
use crate::state::magic::Aim;

pub fn build(name: &str) -> Option<Build> {
    Some(match name {
        "Witch's Brew" | "Fog" | "Blend Into Background" => Build::Effect(in_effect),
        "Stones Fly" => Build::Attack,
        "Talk to Wise Bird" => Build::Effect(talk_to_wise_bird),
        // Read by the day: `super::prophecy`.
        "Prophecy" => Build::Effect(in_effect),
        _ => return None,
    })
}

/// The target rolls on the Peer table for the clearing named as the second
/// target, anywhere on the map (a Choice gives Clues and Paths, as in the
/// Search activity).
fn talk_to_wise_bird(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    let who = ctx.character(0)?;
    let Some(Aim::Clearing { clearing }) = ctx.targets.get(1).cloned() else {
        return Err(ctx.bad_target(1, "name the clearing to peer into"));
    };
    if ctx.state.board.clearing(&clearing).is_none() {
        return Err(ctx.bad_target(1, "that clearing is not on the map"));
    }
    let (roll, rolled) = ctx.roll(&Peer);
    let (clues, paths, enemies) = match roll.result {
        PeerResult::Choice | PeerResult::CluesAndPaths => (true, true, false),
        PeerResult::HiddenEnemiesAndPaths => (false, true, true),
        PeerResult::HiddenEnemies => (false, false, true),
        PeerResult::Clues => (true, false, false),
        PeerResult::Nothing => (false, false, false),
    };
    let chits: Vec<String> = if clues {
        ctx.state
            .map_chits
            .get(&clearing.tile)
            .map(|c| c.iter().map(|c| c.name.clone()).collect())
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    let routes: Vec<(ClearingId, ClearingId)> = if paths {
        ctx.state
            .board
            .neighbours(&clearing)
            .into_iter()
            .filter(|l| l.kind == PathKind::Hidden)
            .map(|l| {
                if clearing <= l.to {
                    (clearing.clone(), l.to)
                } else {
                    (l.to, clearing.clone())
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let c = &mut ctx.state.characters[who];
    c.discoveries.chits_seen.extend(chits.iter().cloned());
    c.discoveries.routes.extend(routes.iter().cloned());
    if enemies {
        c.found_hidden_enemies = true;
    }
    Ok(vec![
        rolled,
        SpellEffect::ForGm {
            text: format!(
                "the {} peers into {clearing}: chits seen {}, hidden paths found {}{}",
                c.name,
                chits.len(),
                routes.len(),
                if enemies {
                    ", hidden enemies found"
                } else {
                    ""
                }
            ),
        },
    ])
}
