//! The spells a character has (magic summary "Types of Spells"; play summary
//! II.C.5 "Reading Runes", III.A.4.c): the spells recorded at the start, up
//! to his allowance and only of the types of his MAGIC chits, and those he
//! learns later, never more than 14 in all.
//!
//! Rulings: a player who records no spells at setup has them chosen by the
//! dice (`setup/spells/<character>`), as a start not chosen is; the
//! allowance is the one his character card gives at the start (level 4).

use std::collections::BTreeMap;

use crate::data::GameData;
use crate::data::characters::Character;
use crate::data::spells::Spell;
use crate::state::CharacterState;
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;
use realmgm_core::suggest;

use super::MagicError;

/// No character may know more spells than this.
pub const SPELL_LIMIT: usize = 14;

/// The learnable spell called `name` (any case, accents ignored).
///
/// # Errors
/// No such spell, with the nearest names.
pub fn find_spell<'a>(data: &'a GameData, name: &str) -> Result<&'a Spell, MagicError> {
    let names = data.spells.iter().map(|s| s.name.as_str());
    // Either game's Spell card names the printed spell (3.1 10.E.7.2.1).
    suggest::find(&crate::data::realms::printed(name), names)
        .and_then(|n| data.spells.iter().find(|s| s.name == n))
        .ok_or_else(|| MagicError::UnknownSpell {
            name: name.to_string(),
            hint: suggest::did_you_mean(name, data.spells.iter().map(|s| s.name.as_str())),
        })
}

fn character_data<'a>(data: &'a GameData, c: &CharacterState) -> Result<&'a Character, MagicError> {
    data.characters
        .iter()
        .find(|d| d.name == c.name)
        .ok_or_else(|| MagicError::Spellbook(format!("there is no character card for {}", c.name)))
}

/// Whether the character `card` can ever hold `spell`: a learnable spell
/// of the type of one of his MAGIC chits (magic summary).
///
/// # Errors
/// Why not, worded for the player.
pub fn type_allowed(card: &Character, spell: &Spell) -> Result<(), MagicError> {
    let Some(kind) = spell.spell_type else {
        return Err(MagicError::Spellbook(format!(
            "{} belongs to its treasure and cannot be learned",
            spell.name
        )));
    };
    if !card.spell_types().contains(&kind) {
        let types: Vec<&str> = card.spell_types().iter().map(|t| t.numeral()).collect();
        return Err(MagicError::Spellbook(format!(
            "{} is a type {kind} spell and the {} has MAGIC chits of type {} only",
            spell.name,
            card.name,
            if types.is_empty() {
                "none".to_string()
            } else {
                types.join(", ")
            }
        )));
    }
    Ok(())
}

/// Whether `c` may learn `spell` now: a learnable spell, of a type of one
/// of his MAGIC chits (or, under Enhanced Artifacts, of an artifact or
/// book he carries, 3.1 10.C.3.1), not known yet, under the limit. Gives
/// the item he records it through, when no chit of his allows it.
///
/// # Errors
/// Why not, worded for the player.
pub fn may_learn(
    data: &GameData,
    rules: &Rules,
    c: &CharacterState,
    spell: &Spell,
) -> Result<Option<String>, MagicError> {
    let through = match type_allowed(character_data(data, c)?, spell) {
        Ok(()) => None,
        Err(by_chits) => {
            Some(super::item_chit::records_through(data, rules, c, spell).ok_or(by_chits)?)
        }
    };
    if c.magic.spells.contains(&spell.name) {
        return Err(MagicError::Spellbook(format!(
            "the {} already knows {}",
            c.name, spell.name
        )));
    }
    if c.magic.spells.len() >= SPELL_LIMIT {
        return Err(MagicError::Spellbook(format!(
            "the {} already knows {SPELL_LIMIT} spells, the most a character may have",
            c.name
        )));
    }
    Ok(through)
}

/// Add `spell` to what `c` knows, noting the item he recorded it through.
///
/// # Errors
/// See [`may_learn`].
pub fn learn(
    data: &GameData,
    rules: &Rules,
    c: &mut CharacterState,
    spell: &str,
) -> Result<(), MagicError> {
    let spell = find_spell(data, spell)?;
    let through = may_learn(data, rules, c, spell)?;
    c.magic.spells.push(spell.name.clone());
    if let Some(item) = through {
        c.magic.recorded_through.insert(spell.name.clone(), item);
    }
    Ok(())
}

/// Record the starting spells of `c` (names as the player wrote them).
///
/// # Errors
/// Too many for his allowance, a wrong type, an unknown or doubled spell.
pub fn record_starting(
    data: &GameData,
    c: &mut CharacterState,
    names: &[String],
) -> Result<(), MagicError> {
    // Under Development his level sets the allowance (3.1 10.E.5.2).
    let level = crate::development::level(c);
    let allowance =
        usize::from(crate::development::card_at_level(character_data(data, c)?, level).spells);
    if names.len() > allowance {
        return Err(MagicError::Spellbook(format!(
            "the {} may record {} at the start, and {} {} given; drop {}",
            c.name,
            realmgm_core::words::counted(allowance, "spell", "spells"),
            names.len(),
            realmgm_core::words::agreeing(names.len(), "was", "were"),
            names.len() - allowance
        )));
    }
    // A character starts with no artifact or book, so only his MAGIC
    // chits' types record his starting spells, whatever the rules.
    for name in names {
        learn(data, &Rules::default(), c, name)?;
    }
    c.magic.starting_spells = Some(u8::try_from(c.magic.spells.len()).unwrap_or(u8::MAX));
    Ok(())
}

/// Record every character's starting spells at setup: the player's choice
/// when given, otherwise a seeded choice among the spells of his types.
///
/// # Errors
/// A choice that breaks the rules, or a choice for a character not in play.
pub fn record_at_setup(
    data: &GameData,
    characters: &mut [CharacterState],
    chosen: &BTreeMap<String, Vec<String>>,
    dice: &mut Dice,
) -> Result<(), MagicError> {
    if let Some(absent) = chosen
        .keys()
        .find(|n| !characters.iter().any(|c| &c.name == *n))
    {
        return Err(MagicError::Spellbook(format!(
            "spells were given for the {absent}, who is not in the game"
        )));
    }
    for c in characters.iter_mut() {
        if let Some(names) = chosen.get(&c.name) {
            record_starting(data, c, names)?;
            continue;
        }
        let card = crate::development::card_at_level(
            character_data(data, c)?,
            crate::development::level(c),
        );
        let types = card.spell_types();
        let mut pool: Vec<&str> = data
            .spells
            .iter()
            .filter(|s| s.spell_type.is_some_and(|t| types.contains(&t)))
            .filter(|s| !c.magic.spells.contains(&s.name))
            .map(|s| s.name.as_str())
            .collect();
        dice.shuffle(&format!("setup/spells/{}", c.name), &mut pool);
        let picked: Vec<String> = pool
            .into_iter()
            .take(usize::from(card.spells))
            .map(str::to_string)
            .collect();
        record_starting(data, c, &picked)?;
    }
    Ok(())
}
