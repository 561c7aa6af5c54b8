//! What a transmorphized individual carries (3.1 4.6.9b): a character, a
//! hired leader or a controlled monster. What he has as a
//! transmorphizing spell takes hold of him, cast or energized again, is
//! transmorphized with him: frozen, of Negligible weight, neither used,
//! rearranged, traded, handed over nor abandoned (4.6.9b.1–2). What he
//! gets afterwards as a creature (a monster or beast: Transform, Absorb
//! Essence) he carries as that creature: kept inactive but for an
//! Enchanted card, left behind on a move when heavier than the creature's
//! move strength, and traded, abandoned or loaded on a horse he leads
//! normally (4.6.9b.4). As mist (Melt Into Mist) he can take on nothing
//! more. The moment a spell takes hold, realmgm notes what he has
//! ([`take_hold`]): a character's note is kept with his magic, a hired
//! leader's or controlled monster's on his `LeaderRecord`, and the
//! stand-in that plays such a one's turn carries the note as a character
//! would (`day::leader_turn`). At Midnight, when every permanent spell
//! falls inert and the belongings reappear as they were (4.6.7h.2,
//! 4.6.9b.1), the notes go ([`release_all`]).
//!
//! Rulings: a creature made by Absorb Essence carries by the monster's
//! vulnerability, as it moves in combat by it (`combat::spell_effects`); an
//! individual held without a note (a state saved before it was kept) has
//! everything frozen; gold a mist gains in a way realmgm does not refuse
//! joins his frozen gold. A hired leader has no gold of his own (he trades
//! with his employer's, which stays the employer's), so none of it freezes
//! with him. What a leader's record `carries` is what he picked up for his
//! employer (loot, spoils, deals): his own, in the sense of 4.6.9b.1, so
//! it freezes with him; the belongings his native group owns (its holdings
//! at its dwelling) are the group's and are never noted (4.6.9b.3). His
//! native horse is always transmorphized with him (4.6.9b.3): it is part
//! of his counter, never among what he carries, and he cannot ride it while
//! held (`day::leader_turn`); realmgm keeps no head or club counters.

use crate::data::GameData;
use crate::data::terms::Strength;
use crate::data::treasures::TreasureEffect;
use crate::state::magic::{SpellInEffect, TransmorphizedWith};
use crate::state::{CharacterState, DenizenKind, Item, ItemKind, LeaderRecord, MrState};
use crate::tables::magic::transform_forms;

use super::conflicts::{holding, transmorphized_character, transmorphized_denizen};

/// The spell that turns its target into mist, who carries nothing more.
const MIST: &str = "Melt Into Mist";

/// Note what the individual `spell` transmorphizes has now: it is frozen
/// with him while the spell holds (3.1 4.6.9b.1). A character (or the
/// stand-in playing a hired leader's or controlled monster's turn) is
/// noted on his record; a hired leader or controlled monster outside his
/// turn on his `LeaderRecord`. Nothing for a spell that transmorphizes no
/// one, nor for a native nobody hires: he carries nothing.
pub fn take_hold(state: &mut MrState, spell: &SpellInEffect) {
    let Some(name) = transmorphized_character(spell).or_else(|| transmorphized_denizen(spell))
    else {
        return;
    };
    if let Some(c) = state.characters.iter_mut().find(|c| c.name == name) {
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
        return;
    }
    // A hired native carries for his employer; a monster only while
    // controlled, but whether it is is left to `magic::influence`, which
    // lies above this module: an uncontrolled monster's note holds nothing
    // and goes at Midnight like the rest.
    let monster = state
        .denizens
        .get(&name)
        .is_some_and(|d| d.kind == DenizenKind::Monster);
    if state.employer_of(&name).is_none() && !monster {
        return;
    }
    let record = state.leaders.entry(name).or_default();
    record.transmorphized_with = Some(TransmorphizedWith {
        spell: spell.id,
        gold: 0,
        items: record.carries.iter().map(|i| i.name.clone()).collect(),
    });
}

/// Midnight: every permanent spell falls inert and each transmorphized
/// individual's belongings reappear as they were (4.6.7h.2, 4.6.9b.1). A
/// leader's record kept only for its note goes with it.
pub fn release_all(state: &mut MrState) {
    for c in &mut state.characters {
        c.magic.transmorphized_with = None;
    }
    for record in state.leaders.values_mut() {
        record.transmorphized_with = None;
    }
    state.leaders.retain(|_, record| !record.is_empty());
}

/// The note a hired leader's or controlled monster's stand-in carries
/// through his turn (`day::leader_turn`), from his record: with no gold,
/// as he has none of his own and deals with his employer's.
pub fn note_for_stand_in(record: &LeaderRecord) -> Option<TransmorphizedWith> {
    record
        .transmorphized_with
        .clone()
        .map(|with| TransmorphizedWith { gold: 0, ..with })
}

/// The note of what the spell holding the individual `name` froze, when
/// that spell made him a creature (not mist) and `note` is its note.
fn as_creature<'s>(
    state: &'s MrState,
    name: &str,
    note: Option<&'s TransmorphizedWith>,
) -> Option<&'s TransmorphizedWith> {
    let spell = holding(state, name)?;
    note.filter(|with| with.spell == spell.id && spell.spell != MIST)
}

/// Whether the spell holding the individual `name` (a character, or a
/// hired leader or controlled monster by counter id) made him mist.
pub fn is_mist(state: &MrState, name: &str) -> bool {
    holding(state, name).is_some_and(|s| s.spell == MIST)
}

/// `items` parted into those `names` name, one item for each name (a name
/// counted as often as it is written), and the rest.
fn part_named<T>(
    items: impl IntoIterator<Item = T>,
    names: &[String],
    name_of: impl Fn(&T) -> &str,
) -> (Vec<T>, Vec<T>) {
    let mut names: Vec<&str> = names.iter().map(String::as_str).collect();
    items.into_iter().partition(
        |item| match names.iter().position(|n| *n == name_of(item)) {
            Some(at) => {
                names.remove(at);
                true
            }
            None => false,
        },
    )
}

/// What is left of the item names `has` once those `with` froze are set
/// aside, one for one.
fn taken_on_since<'a>(
    with: &TransmorphizedWith,
    has: impl Iterator<Item = &'a String>,
) -> Vec<String> {
    let (_, since) = part_named(has, &with.items, |name| name.as_str());
    since.into_iter().cloned().collect()
}

/// The names of the items character `c` carries as a creature: all he has
/// but what the spell froze (a name counted as often as he has it). Empty
/// when he is not transmorphized, is mist, or nothing was noted.
pub fn carried_as_creature(state: &MrState, c: &CharacterState) -> Vec<String> {
    let Some(with) = as_creature(state, &c.name, c.magic.transmorphized_with.as_ref()) else {
        return Vec::new();
    };
    taken_on_since(
        with,
        c.weapon
            .iter()
            .chain(c.armor.iter())
            .chain(c.belongings.iter().map(|b| &b.item.name))
            .chain(c.pack.values().flatten().map(|i| &i.name)),
    )
}

/// The gold character `c` gained as a creature, his to trade (4.6.9b.4);
/// the rest is frozen. 0 when he is not a noted creature.
pub fn gold_as_creature(state: &MrState, c: &CharacterState) -> u16 {
    as_creature(state, &c.name, c.magic.transmorphized_with.as_ref())
        .map_or(0, |with| c.gold.saturating_sub(with.gold))
}

/// Why character `c` may not use, rearrange, trade or abandon the item
/// `item` (its full name) now, if a transmorphizing spell holds him and it
/// is frozen with him (4.6.9b.2).
pub fn frozen(state: &MrState, c: &CharacterState, item: &str) -> Option<String> {
    let loose = carried_as_creature(state, c);
    frozen_unless_loose(state, &c.name, item, &loose)
}

/// Why the hired leader or controlled monster `id` may not trade, give or
/// hand over the item `item` he carries (outside his turn, from his
/// record), if a transmorphizing spell holds him and it froze with him
/// (4.6.9b.2).
pub fn frozen_with_leader(state: &MrState, id: &str, item: &str) -> Option<String> {
    let loose = leader_carried_as_creature(state, id);
    frozen_unless_loose(state, id, item, &loose)
}

/// What the hired leader or controlled monster `id` carries, parted into
/// what froze with him and what he is free to hand over: all of it frozen
/// when mist or held without a note, none when no transmorphizing spell
/// holds him (4.6.9b.2, 4.6.9b.4).
pub fn part_frozen(state: &MrState, id: &str) -> (Vec<Item>, Vec<Item>) {
    let carries = state
        .leaders
        .get(id)
        .map(|record| record.carries.clone())
        .unwrap_or_default();
    if holding(state, id).is_none() {
        return (Vec::new(), carries);
    }
    let loose = leader_carried_as_creature(state, id);
    let (free, frozen) = part_named(carries, &loose, |item| item.name.as_str());
    (frozen, free)
}

/// The names of the items the hired leader or controlled monster `id`
/// carries as a creature, taken on since the spell took hold (4.6.9b.4).
fn leader_carried_as_creature(state: &MrState, id: &str) -> Vec<String> {
    let Some(record) = state.leaders.get(id) else {
        return Vec::new();
    };
    as_creature(state, id, record.transmorphized_with.as_ref()).map_or_else(Vec::new, |with| {
        taken_on_since(with, record.carries.iter().map(|i| &i.name))
    })
}

/// Why the individual `name` may not part with `item`: a spell holds him
/// and the item is not among `loose`, what he took on as a creature.
fn frozen_unless_loose(
    state: &MrState,
    name: &str,
    item: &str,
    loose: &[String],
) -> Option<String> {
    let spell = holding(state, name)?;
    (!loose.iter().any(|n| n == item)).then(|| {
        format!(
            "the {item} of the {name} is frozen while the {} spell holds {} (3.1 4.6.9b.2)",
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
/// creature (4.6.9b.4); `None` when no creature holds him. A hired
/// leader's or controlled monster's stand-in is held under its counter's
/// name, so this serves them too.
pub fn creature_strength(data: &GameData, state: &MrState, c: &CharacterState) -> Option<Strength> {
    form_strength(data, holding(state, &c.name)?)
}

/// The move strength of the creature a transmorphizing `spell` makes:
/// Transform's form's, the absorbed monster's vulnerability for Absorb
/// Essence; `None` for mist or a form realmgm does not know.
pub fn form_strength(data: &GameData, spell: &SpellInEffect) -> Option<Strength> {
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
