//! Enchant Artifact (type VI, purple, an artifact, permanent; magic summary
//! "Spell Effects", `spells.toml`): a MAGIC chit and a spell go into a
//! treasure, which from then on can cast that spell.
//!
//! Rulings (the facts do not say which chit or which spell):
//! - The treasure is one the caster carries (first target, `Aim::Item`
//!   with him as holder); the spell added is one he knows, named as the
//!   second target (`cast Enchant Artifact on Lucky Charm with Fiery
//!   Blast`), any except Enchant Artifact itself.
//! - The MAGIC chit added is the one that cast Enchant Artifact: it stays
//!   committed to the spell, as a chit is to any spell in effect, for as
//!   long as the enchantment lasts.
//! - While the spell is in effect (awake or inert: the chit and spell are
//!   in the treasure for good) the treasure, carried active by whoever
//!   holds it, casts the
//!   added spell like an artifact holding an awakened spell: once a day,
//!   at speed 0, whatever its red numeral, with the spell's colour
//!   present; the added spell's type also lets it cast its own awakened
//!   Spell cards of that type ([`added_types`]). Breaking the spell (Dissolve Spell, Remedy) takes both out
//!   again and the chit fatigues.

use crate::data::GameData;
use crate::data::terms::MagicType;
use crate::state::MrState;

use super::Ctx;
use crate::magic::MagicError;
use crate::magic::effect::SpellEffect;
use crate::magic::events::MagicEvent;
use crate::state::magic::Aim;

pub const NAME: &str = "Enchant Artifact";

/// Put the named spell into the caster's treasure.
pub fn enchant(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    let Some(Aim::Item { holder, item }) = ctx.targets.first().cloned() else {
        return Err(ctx.bad_target(0, "it must be a treasure the caster carries"));
    };
    let caster = ctx.caster_name();
    let carried = ctx.state.characters[ctx.caster]
        .belongings
        .iter()
        .any(|b| b.item.name == item);
    let treasure = ctx.data.treasure(&item).is_some();
    if holder != caster || !carried || !treasure {
        return Err(ctx.bad_target(0, "it must be a treasure the caster carries"));
    }
    if let Some(why) = crate::magic::item_chit::is_colour(ctx.state, ctx.caster, &item) {
        return Err(ctx.bad_target(0, &why));
    }
    let Some(Aim::KnownSpell { name }) = ctx.targets.get(1).cloned() else {
        return Err(ctx.bad_target(
            1,
            "name the spell to put in it: `cast Enchant Artifact on TREASURE with SPELL`",
        ));
    };
    let known = ctx.state.characters[ctx.caster]
        .magic
        .spells
        .iter()
        .find(|s| s.eq_ignore_ascii_case(&name))
        .cloned();
    let Some(spell) = known.filter(|s| s != NAME) else {
        return Err(ctx.bad_target(
            1,
            "it must be a spell the caster knows, other than Enchant Artifact",
        ));
    };
    ctx.detail = Some(spell.clone());
    Ok(vec![SpellEffect::Magic(MagicEvent::Awakened {
        spell,
        holder: item,
        uncastable: None,
    })])
}

/// The types of the spells Enchant Artifacts in effect added to `item`:
/// each is a type it casts, its own Spell cards of that type included
/// (List of Spells, Enchant Artifact 2: Type VII added to the Good Book
/// casts its Type VII cards).
pub fn added_types(state: &MrState, data: &GameData, item: &str) -> Vec<MagicType> {
    state
        .magic
        .in_effect
        .iter()
        .filter(|s| s.spell == NAME)
        .filter(|s| matches!(s.targets.first(), Some(Aim::Item { item: i, .. }) if i == item))
        .filter_map(|s| s.detail.as_deref())
        .filter_map(|added| data.spells.iter().find(|d| d.name == added))
        .filter_map(|d| d.spell_type)
        .collect()
}

/// Whether `item` holds `spell` through an Enchant Artifact in effect.
pub fn holds(state: &MrState, item: &str, spell: &str) -> bool {
    state.magic.in_effect.iter().any(|s| {
        s.spell == NAME
            && s.detail.as_deref() == Some(spell)
            && matches!(s.targets.first(), Some(Aim::Item { item: i, .. }) if i == item)
    })
}
