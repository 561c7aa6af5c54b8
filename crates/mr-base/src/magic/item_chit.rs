//! Enhanced Artifacts and Spell Books (3.1 10.C.3): with the rule on, an
//! artifact or spell book its owner carries active serves him as a MAGIC
//! chit of its red Roman numeral's type with time 0 (10.C.3.1.1), still
//! once an Evening (10.C.3.1.2): it casts his recorded spells of that type,
//! it can be enchanted into the colour of that type, and it can enchant
//! the tile. The Spell cards awakened in it can be cast by his MAGIC chits
//! as if recorded, and count toward his victory at the end when he has
//! MAGIC chits of their types (10.C.3.2).
//!
//! An item enchanted into colour magic is no artifact or book while the
//! colour lasts (10.C.3.3): it casts nothing, has no runes to read, is no
//! target of Enchant Artifact and cannot be sold or given away. Its colour
//! serves only its owner, like a colour chit's; it is expended when used,
//! at will, or the moment the item leaves him. While an Enchant Artifact
//! that put a spell in it is energized, the item has a second red numeral
//! of that spell's type and may take its colour instead (10.C.3.4.1); that
//! colour, unused, is expended at Midnight as the spell falls inert
//! (10.C.3.4.2).
//!
//! Rulings: the red numeral is the first type its card lists (every
//! artifact lists one type; each spell book lists its red numeral's
//! spells first, as the Good Book's I before its VII); an added numeral
//! serves only colour, the one use 10.C.3.4.1 gives it, the item casting
//! and enchanting tiles by its printed numeral; an item whose colour is
//! its printed numeral's keeps it past Midnight even when an added numeral
//! has that colour too, and one whose colour is not keeps it until that
//! Midnight even if its Enchant Artifact is broken sooner; `E (enchant
//! ITEM)` takes the printed numeral's colour when it has one, else the
//! first added numeral's; an item counts as "used" for the Evening's once
//! when it casts, not when it enchants in Daylight.

use std::collections::{BTreeMap, BTreeSet};

use crate::data::GameData;
use crate::data::characters::{ActionChit, ChitAction};
use crate::data::spells::Spell;
use crate::data::terms::{Colour, MagicType};
use crate::data::treasures::TreasureEffect;
use crate::state::magic::{Aim, SpellInEffect};
use crate::state::{CharacterState, MrState};
use realmgm_core::game::Rules;

use super::MagicError;
use super::colour::chit_colour;
use super::events::MagicEvent;
use super::item_caster::works;

/// Whether Enhanced Artifacts and Spell Books is in force.
pub fn on(rules: &Rules) -> bool {
    rules.is_on(crate::rules::ENHANCED_ARTIFACTS)
}

/// The type of MAGIC chit `item` acts as: its red Roman numeral
/// (3.1 10.C.3.1.1, 4.6.5b). `None` for a treasure holding no spells.
pub fn red_numeral(data: &GameData, item: &str) -> Option<MagicType> {
    // Either game's card is the printed treasure (3.1 10.E.7.2.1).
    let printed = crate::data::realms::printed(item);
    data.treasures
        .iter()
        .find(|t| t.name.eq_ignore_ascii_case(&printed))?
        .effects
        .iter()
        .find_map(|e| match e {
            TreasureEffect::Spells { spells, .. } => spells.first().copied(),
            _ => None,
        })
}

/// The name, as the card spells it, of the artifact or book `named` that
/// character `who` carries active.
pub fn carried_active(state: &MrState, data: &GameData, who: usize, named: &str) -> Option<String> {
    let c = state.characters.get(who)?;
    c.belongings
        .iter()
        .find(|b| b.active && b.item.name.eq_ignore_ascii_case(named.trim()))
        .map(|b| b.item.name.clone())
        .filter(|name| red_numeral(data, name).is_some())
}

/// The colour `item` of character `who` is enchanted into now: none once
/// it has left him (3.1 10.C.3.3).
pub fn colour_of(state: &MrState, who: usize, item: &str) -> Option<Colour> {
    let c = state.characters.get(who)?;
    let colour = *c.magic.coloured_items.get(item)?;
    c.belongings
        .iter()
        .any(|b| b.item.name == item)
        .then_some(colour)
}

/// His items enchanted into colour magic that he still carries, with their
/// colours.
pub fn colour_items(state: &MrState, who: usize) -> Vec<(String, Colour)> {
    let Some(c) = state.characters.get(who) else {
        return Vec::new();
    };
    c.magic
        .coloured_items
        .iter()
        .filter(|(item, _)| c.belongings.iter().any(|b| &&b.item.name == item))
        .map(|(item, colour)| (item.clone(), *colour))
        .collect()
}

/// Why `item` of character `who` cannot act as an artifact or book now, if
/// it cannot: it is colour magic (3.1 10.C.3.3).
pub fn is_colour(state: &MrState, who: usize, item: &str) -> Option<String> {
    let colour = colour_of(state, who, item)?;
    Some(format!(
        "the {item} is {colour} magic now and no artifact or book until its colour is expended \
         (3.1 10.C.3.3); write `Phase N: fatigue {item}` to expend it at the start of phase N"
    ))
}

/// Whether `item` may cast `spell` of type `kind` as a MAGIC chit of its
/// red numeral for character `who`, who has recorded it (3.1 10.C.3.1).
pub fn casts_recorded(
    state: &MrState,
    data: &GameData,
    rules: &Rules,
    who: usize,
    item: &str,
    spell: &str,
    kind: MagicType,
) -> bool {
    on(rules)
        && red_numeral(data, item) == Some(kind)
        && state
            .characters
            .get(who)
            .is_some_and(|c| c.magic.spells.iter().any(|s| s == spell))
}

/// The artifact or book character `who` carries whose awakened Spell card
/// `spell` is: his MAGIC chits cast it as if recorded (3.1 10.C.3.2).
pub fn awakened_in_his_item<'s>(
    state: &'s MrState,
    rules: &Rules,
    who: usize,
    spell: &str,
) -> Option<&'s str> {
    if !on(rules) {
        return None;
    }
    let c = state.characters.get(who)?;
    c.belongings
        .iter()
        .map(|b| b.item.name.as_str())
        .filter(|item| colour_of(state, who, item).is_none())
        .find(|item| state.magic.is_awakened(item, spell))
}

/// The artifact or book character `c` carries active, not colour magic,
/// whose red numeral is the type of `spell`: under Enhanced Artifacts it
/// lets him record the spell though no MAGIC chit of his has that type
/// (3.1 10.C.3.1).
pub fn records_through(
    data: &GameData,
    rules: &Rules,
    c: &CharacterState,
    spell: &Spell,
) -> Option<String> {
    let kind = spell.spell_type?;
    if !on(rules) {
        return None;
    }
    c.belongings
        .iter()
        .filter(|b| b.active && !c.magic.coloured_items.contains_key(&b.item.name))
        .find(|b| red_numeral(data, &b.item.name) == Some(kind))
        .map(|b| b.item.name.clone())
}

/// The Spell cards awakened in `items`, the artifacts and books character
/// `c` has at the end of the game, that count toward his victory under
/// Enhanced Artifacts: those of a type one of his MAGIC chits has, so that
/// he could cast them (3.1 10.C.3.2). Ruling: a chit counts whatever its
/// state, fatigued, wounded or colour, being still his, and by its printed
/// type, a day's change of type being over by the end.
pub fn spell_cards_for_victory<'s>(
    state: &'s MrState,
    data: &GameData,
    rules: &Rules,
    c: &CharacterState,
    items: &[&str],
) -> BTreeSet<&'s str> {
    if !on(rules) {
        return BTreeSet::new();
    }
    let chit_types: BTreeSet<MagicType> = c
        .chits
        .iter()
        .filter_map(|chit| ActionChit::parse(&chit.chit).ok())
        .filter(|a| a.action == ChitAction::Magic)
        .filter_map(|a| a.magic)
        .collect();
    let castable = |spell: &str| {
        // Either game's Spell card is the printed spell (3.1 10.E.7.2.1).
        let printed = crate::data::realms::printed(spell);
        data.spells
            .iter()
            .find(|s| s.name == printed)
            .and_then(|s| s.spell_type)
            .is_some_and(|kind| chit_types.contains(&kind))
    };
    items
        .iter()
        .filter_map(|item| state.magic.awakened.get(*item))
        .flatten()
        .map(String::as_str)
        .filter(|spell| castable(spell))
        .collect()
}

/// The red numerals of `item` that colour magic can come from, each with
/// whether an energized Enchant Artifact added it (3.1 10.C.3.4.1): its
/// printed numeral, then one for the type of each spell an Enchant
/// Artifact that works now (awake, not nullified) has put in it, oldest
/// first.
fn numerals(state: &MrState, data: &GameData, item: &str) -> Vec<(MagicType, bool)> {
    let printed = red_numeral(data, item).map(|n| (n, false));
    let added = state
        .magic
        .in_effect
        .iter()
        .filter(|s| works(state, s))
        .filter_map(|s| enchant_artifact_spell(s, item))
        .filter_map(|spell| {
            data.spells
                .iter()
                .find(|s| s.name.eq_ignore_ascii_case(spell))
        })
        .filter_map(|spell| spell.spell_type.map(|n| (n, true)));
    printed.into_iter().chain(added).collect()
}

/// What `spell`, when it is an Enchant Artifact on `item`, has put in
/// it, named as its caster knows it: Enchant Artifact is the one spell
/// whose targets are a treasure and a spell to add ([`Aim::KnownSpell`]).
fn enchant_artifact_spell<'s>(spell: &'s SpellInEffect, item: &str) -> Option<&'s str> {
    let on_item = matches!(spell.targets.first(), Some(Aim::Item { item: i, .. }) if i == item);
    let added = spell.targets.iter().find_map(|t| match t {
        Aim::KnownSpell { name } => Some(name.as_str()),
        _ => None,
    })?;
    on_item.then(|| spell.detail.as_deref().unwrap_or(added))
}

/// Enchant the artifact or book `named` of character `who` into colour
/// magic (3.1 10.C.3.1, 10.C.3.4), in an E phase: into the colour `into`
/// names, or else that of its printed red numeral, or else that of a
/// numeral an energized Enchant Artifact added (10.C.3.4.1).
///
/// # Errors
/// The reason the phase is lost: the rule off, no such item carried
/// active, no numeral of a colour (VI to VIII have none) or none of the
/// colour named, already colour magic.
pub fn enchant_item(
    state: &mut MrState,
    data: &GameData,
    rules: &Rules,
    who: usize,
    named: &str,
    into: Option<&str>,
) -> Result<MagicEvent, MagicError> {
    if !on(rules) {
        return Err(MagicError::Impossible(
            "artifacts and spell books are enchanted only under Enhanced Artifacts and Spell \
             Books (3.1 10.C.3, 7.10.6); name a MAGIC chit instead"
                .into(),
        ));
    }
    let character = state
        .characters
        .get(who)
        .map(|c| c.name.clone())
        .ok_or(MagicError::NoCharacter(who))?;
    let item = carried_active(state, data, who, named).ok_or_else(|| {
        MagicError::Impossible(format!(
            "the {character} carries no active artifact or spell book called {named}"
        ))
    })?;
    if let Some(why) = is_colour(state, who, &item) {
        return Err(MagicError::Impossible(why));
    }
    let numerals = numerals(state, data, &item);
    let colours: Vec<Colour> = numerals
        .iter()
        .filter_map(|(numeral, _)| chit_colour(*numeral))
        .collect();
    let colour = match into {
        Some(word) => {
            let wanted = Colour::named(word).ok_or_else(|| {
                MagicError::Impossible(format!(
                    "'{word}' is no colour of magic: write white, grey, gold, purple or black"
                ))
            })?;
            colours.contains(&wanted).then_some(wanted)
        }
        None => colours.first().copied(),
    };
    let colour = colour.ok_or_else(|| {
        let listed: Vec<String> = numerals
            .iter()
            .map(|(numeral, added)| {
                let colour = chit_colour(*numeral).map_or("no colour", Colour::word);
                let source = if *added {
                    "added by Enchant Artifact"
                } else {
                    "printed"
                };
                format!("{numeral} ({source}, {colour})")
            })
            .collect();
        let has = if listed.len() == 1 {
            "red numeral is"
        } else {
            "red numerals are"
        };
        MagicError::Impossible(format!(
            "the {item}'s {has} {}, and it takes only the colour of a numeral of types I to V; \
             an Enchant Artifact adds its spell's numeral only while it is energized (3.1 \
             10.C.3.4, 10.C.3.4.1)",
            realmgm_core::words::listed(&listed)
        ))
    })?;
    state.characters[who]
        .magic
        .coloured_items
        .insert(item.clone(), colour);
    Ok(MagicEvent::ItemEnchanted {
        character,
        item,
        colour,
    })
}

/// At Midnight, when every Enchant Artifact falls inert, the colour an item
/// took from a numeral one added and did not use is expended (3.1
/// 10.C.3.4.2): the colour of an item that is not its printed numeral's.
/// Gives each owner with the event he reads.
pub fn expend_added_colours(state: &mut MrState, data: &GameData) -> Vec<(usize, MagicEvent)> {
    let mut faded = Vec::new();
    for who in 0..state.characters.len() {
        for (item, colour) in colour_items(state, who) {
            if red_numeral(data, &item).and_then(chit_colour) == Some(colour) {
                continue;
            }
            expend(state, who, &item);
            faded.push((
                who,
                MagicEvent::ItemColourFaded {
                    character: state.characters[who].name.clone(),
                    item,
                    colour,
                },
            ));
        }
    }
    faded
}

/// Use up the colour of `item` (cast or tile paid with it): it is an
/// artifact or book again (3.1 10.C.3.3).
pub fn expend(state: &mut MrState, who: usize, item: &str) {
    if let Some(c) = state.characters.get_mut(who) {
        c.magic.coloured_items.remove(item);
    }
}

/// Character `who` expends the colour of his item `named` at will (3.1
/// 10.C.3.3); `None` when he has no coloured item of that name.
pub fn expend_at_will(state: &mut MrState, who: usize, named: &str) -> Option<MagicEvent> {
    let (item, colour) = colour_items(state, who)
        .into_iter()
        .find(|(item, _)| item.eq_ignore_ascii_case(named.trim()))?;
    expend(state, who, &item);
    Some(MagicEvent::ItemColourExpended {
        character: state.characters[who].name.clone(),
        item,
        colour,
    })
}

/// Forget the colour of every item its owner no longer carries: the colour
/// disappears the moment an item is dropped, lost, stolen or taken (3.1
/// 10.C.3.3), so it does not come back if he picks the item up again.
pub fn forget_departed(state: &mut MrState) {
    for c in &mut state.characters {
        let carried: BTreeMap<String, Colour> = std::mem::take(&mut c.magic.coloured_items)
            .into_iter()
            .filter(|(item, _)| c.belongings.iter().any(|b| &b.item.name == item))
            .collect();
        c.magic.coloured_items = carried;
    }
}
