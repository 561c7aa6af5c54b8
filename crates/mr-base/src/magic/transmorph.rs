//! What a transmorphized character carries (3.1 4.6.9b). What he has as a
//! transmorphizing spell takes hold of him, cast or energized again, is
//! transmorphized with him: frozen, of Negligible weight, neither used,
//! rearranged, traded nor abandoned (4.6.9b.1–2). What he gets afterwards
//! as a creature (a monster or beast: Transform, Absorb Essence) he
//! carries as that creature: kept inactive but for an Enchanted card, left
//! behind on a move when heavier than the creature's move strength, and
//! traded, abandoned or loaded on a horse he leads normally (4.6.9b.4). As
//! mist (Melt Into Mist) he can take on nothing more. The moment a spell
//! takes hold, realmgm notes what he has ([`take_hold`]); at Midnight,
//! when every permanent spell falls inert and his belongings reappear as
//! they were (4.6.7h.2, 4.6.9b.1), the note goes ([`release_all`]).
//!
//! Rulings: a creature made by Absorb Essence carries by the monster's
//! vulnerability, as it moves in combat by it (`combat::spell_effects`); a
//! character held without a note (a state saved before it was kept) has
//! everything frozen; gold a mist gains in a way realmgm does not refuse
//! joins his frozen gold.

use crate::data::GameData;
use crate::data::terms::Strength;
use crate::data::treasures::TreasureEffect;
use crate::state::magic::{SpellInEffect, TransmorphizedWith};
use crate::state::{CharacterState, ItemKind, MrState};
use crate::tables::magic::transform_forms;

use super::conflicts::{holding, transmorphized_character};

/// The spell that turns its target into mist, who carries nothing more.
const MIST: &str = "Melt Into Mist";

/// Note what the character `spell` transmorphizes has now: it is frozen
/// with him while the spell holds (3.1 4.6.9b.1). Nothing for a spell that
/// transmorphizes no character.
pub fn take_hold(state: &mut MrState, spell: &SpellInEffect) {
    let Some(name) = transmorphized_character(spell) else {
        return;
    };
    let Some(c) = state.characters.iter_mut().find(|c| c.name == name) else {
        return;
    };
    let items = c
        .weapon
        .iter()
        .cloned()
        .chain(c.armor.iter().cloned())
        .chain(c.belongings.iter().map(|b| b.item.name.clone()))
        .chain(c.pack.values().flatten().map(|i| i.name.clone()))
        .collect();
    c.magic.transmorphized_with = Some(TransmorphizedWith {
        spell: spell.id,
        gold: c.gold,
        items,
    });
}

/// Midnight: every permanent spell falls inert and each transmorphized
/// character's belongings reappear as they were (4.6.7h.2, 4.6.9b.1).
pub fn release_all(state: &mut MrState) {
    for c in &mut state.characters {
        c.magic.transmorphized_with = None;
    }
}

/// What holds character `c` as a creature now: the spell and the note of
/// what it froze, when it is a creature's (not mist's) and noted.
fn as_creature<'s>(state: &'s MrState, c: &'s CharacterState) -> Option<&'s TransmorphizedWith> {
    let spell = holding(state, &c.name)?;
    c.magic
        .transmorphized_with
        .as_ref()
        .filter(|with| with.spell == spell.id && spell.spell != MIST)
}

/// Whether the spell holding character `name` made him mist.
pub fn is_mist(state: &MrState, name: &str) -> bool {
    holding(state, name).is_some_and(|s| s.spell == MIST)
}

/// The names of the items character `c` carries as a creature: all he has
/// but what the spell froze (a name counted as often as he has it). Empty
/// when he is not transmorphized, is mist, or nothing was noted.
pub fn carried_as_creature(state: &MrState, c: &CharacterState) -> Vec<String> {
    let Some(with) = as_creature(state, c) else {
        return Vec::new();
    };
    let mut frozen = with.items.clone();
    c.weapon
        .iter()
        .chain(c.armor.iter())
        .chain(c.belongings.iter().map(|b| &b.item.name))
        .chain(c.pack.values().flatten().map(|i| &i.name))
        .filter(|name| match frozen.iter().position(|f| f == *name) {
            Some(at) => {
                frozen.remove(at);
                false
            }
            None => true,
        })
        .cloned()
        .collect()
}

/// The gold character `c` gained as a creature, his to trade (4.6.9b.4);
/// the rest is frozen. 0 when he is not a noted creature.
pub fn gold_as_creature(state: &MrState, c: &CharacterState) -> u16 {
    as_creature(state, c).map_or(0, |with| c.gold.saturating_sub(with.gold))
}

/// Why character `c` may not use, rearrange, trade or abandon the item
/// `item` (its full name) now, if a transmorphizing spell holds him and it
/// is frozen with him (4.6.9b.2).
pub fn frozen(state: &MrState, c: &CharacterState, item: &str) -> Option<String> {
    let spell = holding(state, &c.name)?;
    let loose = carried_as_creature(state, c).iter().any(|n| n == item);
    (!loose).then(|| {
        format!(
            "the {item} of the {} is frozen while the {} spell holds {} (3.1 4.6.9b.2)",
            c.name,
            spell.spell,
            if spell.spell == MIST {
                "the mist"
            } else {
                "the creature"
            }
        )
    })
}

/// The move strength that carries what character `c` carries as a
/// creature (4.6.9b.4): Transform's form's, the absorbed monster's
/// vulnerability for Absorb Essence; `None` when no creature holds him.
pub fn creature_strength(data: &GameData, state: &MrState, c: &CharacterState) -> Option<Strength> {
    let spell = holding(state, &c.name)?;
    let form = spell.detail.as_deref()?;
    match spell.spell.as_str() {
        "Transform" => transform_forms()
            .iter()
            .find(|f| f.name == form)
            .map(|f| f.move_strength),
        "Absorb Essence" => data
            .monsters
            .iter()
            .find(|m| m.name == crate::data::base_name(form))
            .map(|m| m.vulnerability),
        _ => None,
    }
}

/// Whether `item` is an Enchanted card (it supplies colour magic, 4.6.2b),
/// which a creature may keep active (4.6.9b.4).
pub fn is_enchanted_card(data: &GameData, kind: ItemKind, item: &str) -> bool {
    kind == ItemKind::Treasure
        && data.treasures.iter().any(|t| {
            t.name == item
                && t.effects
                    .iter()
                    .any(|e| matches!(e, TreasureEffect::ColourSource { .. }))
        })
}
