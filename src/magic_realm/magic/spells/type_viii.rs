//! Type VIII spells (seed 001; `spells.toml`; TABLES.md §5.2): Bad Luck,
//! Poison, Remedy, Deal with Goblins, Guide Spider or Octopus, Whistle for
//! Monsters.
//!
//! Remedy breaks the spell or lifts the curse it targets; Poison and Guide
//! Spider or Octopus stay in effect for combat to read; Bad Luck is read
//! by [`super::super::influence`].

use super::super::MagicError;
use super::super::cast::SpellEffect;
use super::super::curses;
use super::super::state::Aim;
use super::{Build, Ctx, in_effect};

pub fn build(name: &str) -> Option<Build> {
    Some(match name {
        "Poison" | "Guide Spider or Octopus" | "Bad Luck" => Build::Effect(in_effect),
        "Remedy" => Build::Effect(remedy),
        "Deal with Goblins" => {
            Build::NotBuilt("a temporary neutrality is not read by the Meeting table yet")
        }
        "Whistle for Monsters" => {
            Build::NotBuilt("moving a sound chit between tiles is not in the map rules yet")
        }
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
                .ok_or_else(|| ctx.bad_target(0, "he does not bear that curse"))?;
            Ok(vec![SpellEffect::Magic(lifted)])
        }
        Some(Aim::Spell { .. }) => super::type_vi::break_spell(ctx),
        _ => Err(ctx.bad_target(0, "it must be a spell in effect or a curse")),
    }
}
