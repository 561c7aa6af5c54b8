//! Type VI spells (magic summary; `spells.toml`; `tables/magic.rs`): Enchant
//! Artifact, Phantasm, Transform, Unleash Power, Dissolve Spell, Melt Into
//! Mist, World Fades.
//!
//! Transform rolls on the Transform table and keeps the form with the
//! spell in effect (combat reads it: attack, move, vulnerability); Dissolve
//! Spell breaks the spell named; Unleash Power and Melt Into Mist stay in
//! effect for combat to read; World Fades opens the Magic Sight table to
//! its target ([`crate::magic::influence`]) and leaves its hiding in every
//! combat round to combat.

use crate::tables::magic::Transform;

use super::{Build, Ctx, in_effect};
use crate::magic::MagicError;
use crate::magic::effect::SpellEffect;
use crate::magic::expiry;
use crate::state::magic::Aim;

pub fn build(name: &str) -> Option<Build> {
    Some(match name {
        "Transform" => Build::Effect(transform),
        "Dissolve Spell" => Build::Effect(break_spell),
        "Unleash Power" | "Melt Into Mist" | "World Fades" => Build::Effect(in_effect),
        "Enchant Artifact" => Build::Effect(super::enchant_artifact::enchant),
        "Phantasm" => Build::Effect(super::phantasm::appear),
        _ => return None,
    })
}

fn transform(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    let target = ctx
        .targets
        .first()
        .cloned()
        .ok_or_else(|| ctx.bad_target(0, "name a target"))?;
    let (roll, rolled) = ctx.roll(&Transform);
    let form = roll.result.name.to_string();
    ctx.detail = Some(form.clone());
    Ok(vec![rolled, SpellEffect::Transformed { target, form }])
}

/// Break the spell in effect named by the first target (Dissolve Spell,
/// Remedy).
pub fn break_spell(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    let Some(Aim::Spell { id }) = ctx.targets.first().cloned() else {
        return Err(ctx.bad_target(0, "it must be a spell in effect"));
    };
    let spell = ctx
        .state
        .magic
        .in_effect
        .iter()
        .find(|s| s.id == id)
        .map(|s| s.spell.clone())
        .ok_or_else(|| ctx.bad_target(0, "no spell with that number is in effect"))?;
    expiry::expire(ctx.state, id);
    Ok(vec![SpellEffect::SpellBroken { id, spell }])
}
