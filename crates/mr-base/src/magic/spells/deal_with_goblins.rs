//! Deal with Goblins (type VIII, black, goblins, for a day; magic summary
//! "Spell Effects", `spells.toml`): a goblin group turns Neutral, so it can
//! be dealt with like natives.
//!
//! Rulings:
//! - The group is every unhired goblin of the target's kind (Spear, Sword
//!   or Axe Goblins) standing in the clearing where its member is.
//! - For the spell's day the caster may hire that group in a Hire phase,
//!   as a native group: `Hire: Spear Goblins` (or `Goblins`), on the
//!   Meeting table's Neutral column, the price being the sum of the
//!   goblins' base prices times the table's multiplier, for the usual term
//!   of hire ([`crate::day::goblins`]). He may also trade with
//!   it as with a native group (after native leaders and visitors there):
//!   it buys his belongings at their basic price and sells back only what
//!   it was sold, as goblins carry no goods of their own.
//! - In combat, as under Peace, each of them stays neutral to him (never
//!   assigned to him, lured by him or attacking him) until someone attacks
//!   it in that combat ([`crate::combat::protection`]); to the
//!   others they are monsters as before.

use crate::board::ClearingId;
use crate::state::{MrState, Whereabouts};

use super::Ctx;
use crate::magic::MagicError;
use crate::magic::effect::SpellEffect;
use crate::magic::item_caster;
use crate::state::magic::Aim;

pub const NAME: &str = "Deal with Goblins";

/// The goblin kinds, as monster names.
pub const KINDS: [&str; 3] = ["Spear Goblin", "Sword Goblin", "Axe Goblin"];

/// The goblin kind of counter `id`.
pub fn kind_of(id: &str) -> Option<&'static str> {
    KINDS
        .into_iter()
        .find(|k| id == *k || id.starts_with(&format!("{k} ")))
}

pub fn deal(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    let Some(Aim::Denizen { id }) = ctx.targets.first().cloned() else {
        return Err(ctx.bad_target(0, "it must be a goblin"));
    };
    let Some(kind) = kind_of(&id) else {
        return Err(ctx.bad_target(0, "it must be a goblin"));
    };
    Ok(vec![SpellEffect::ForGm {
        text: format!(
            "the {kind}s here are Neutral to the {} for the day, who may hire them",
            ctx.caster_name()
        ),
    }])
}

/// The goblins character `who` may deal with in `clearing` now, by the
/// awake spell of his: the counters of the spell's group standing there
/// unhired, with their kind.
pub fn dealing(
    state: &MrState,
    who: usize,
    clearing: &ClearingId,
) -> Option<(String, Vec<String>)> {
    let caster = &state.characters.get(who)?.name;
    state
        .magic
        .in_effect
        .iter()
        .filter(|s| {
            item_caster::works(state, s)
                && s.spell == NAME
                && item_caster::controller(state, s) == Some(caster.as_str())
        })
        .find_map(|s| {
            let Some(Aim::Denizen { id }) = s.targets.first() else {
                return None;
            };
            let kind = kind_of(id)?;
            let members: Vec<String> = state
                .denizens
                .iter()
                .filter(|(d, counter)| {
                    kind_of(d) == Some(kind)
                        && counter.at
                            == Whereabouts::Clearing {
                                clearing: clearing.clone(),
                            }
                        && state.employer_of(d).is_none()
                })
                .map(|(d, _)| d.clone())
                .collect();
            (!members.is_empty()).then(|| (format!("{kind}s"), members))
        })
}
