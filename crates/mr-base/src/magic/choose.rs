//! Choosing how a character casts a spell outside a battle (a character
//! alone at Evening, a bot writing its orders; magic summary "Casting a Spell"):
//! the first of his MAGIC chits — those of the spell's type first — or
//! active treasures with which the magic rules' own [`check`] passes, and
//! the target a spell takes when none is named and nobody else is there.

use crate::data::GameData;
use crate::data::characters::{ActionChit, ChitAction};
use crate::data::spells::SpellTarget;
use crate::state::MrState;
use realmgm_core::game::Rules;

use super::MagicError;
use super::cast::{CastRequest, check, effective_type};
use super::spellbook::find_spell;
use crate::state::magic::{Aim, CastWith};

/// The aims a spell of target `kinds` takes by default for character
/// `who` with nobody else around: himself (for a character or a leader), his clearing or tile, his own
/// chits, the weather. `None` when it needs someone or something else.
pub fn default_aims(state: &MrState, who: usize, kinds: &[SpellTarget]) -> Option<Vec<Aim>> {
    let c = state.characters.get(who)?;
    kinds.iter().find_map(|kind| {
        Some(vec![match kind {
            SpellTarget::Character | SpellTarget::Leader => Aim::Character {
                name: c.name.clone(),
            },
            SpellTarget::Clearing => Aim::Clearing {
                clearing: c.position.clone(),
            },
            SpellTarget::Tile => Aim::Tile {
                code: c.position.tile.clone(),
            },
            SpellTarget::MagicChits => Aim::OwnChits {
                character: c.name.clone(),
            },
            SpellTarget::Weather => Aim::Weather,
            _ => return None,
        }])
    })
}

/// A legal cast of `spell` at `targets` by character `who` on the day being
/// played (the one after `state`'s), with the chit or item `named`, else
/// the first chit or treasure that passes [`check`].
///
/// # Errors
/// Why none does: the first reason [`check`] gave (for a chit of the
/// spell's type when he has one), or that he has nothing to cast with.
pub fn legal_request(
    state: &MrState,
    data: &GameData,
    rules: &Rules,
    who: usize,
    spell: &str,
    targets: Vec<Aim>,
    named: Option<&str>,
) -> Result<CastRequest, MagicError> {
    let day = state.day + 1;
    let c = state
        .characters
        .get(who)
        .ok_or(MagicError::NoCharacter(who))?;
    let found = find_spell(data, spell)?;
    let mut fitting = Vec::new();
    let mut others = Vec::new();
    for (index, chit) in c.chits.iter().enumerate() {
        let magic = ActionChit::parse(&chit.chit)
            .ok()
            .is_some_and(|a| a.action == ChitAction::Magic);
        if !magic {
            continue;
        }
        if found.spell_type.is_some() && effective_type(state, data, who, index) == found.spell_type
        {
            fitting.push(CastWith::Chit { index });
        } else {
            others.push(CastWith::Chit { index });
        }
    }
    fitting.extend(
        c.belongings
            .iter()
            .filter(|b| b.active && data.treasure(&b.item.name).is_some())
            .map(|b| CastWith::Treasure {
                name: b.item.name.clone(),
            }),
    );
    fitting.extend(others);
    // The chit or item he names casts, or nothing does (3.1 8.3.9b.3).
    if let Some(named) = named {
        fitting.retain(|with| match with {
            CastWith::Chit { index } => super::colour::names_chit(&c.chits[*index].chit, named),
            CastWith::Treasure { name } => name.eq_ignore_ascii_case(named.trim()),
        });
        if fitting.is_empty() {
            return Err(MagicError::cannot(
                &found.name,
                format!(
                    "he has no MAGIC chit or active artifact called {}",
                    named.trim()
                ),
            ));
        }
    }
    let mut first_error = None;
    for with in fitting {
        let request = CastRequest {
            caster: who,
            spell: found.name.clone(),
            with,
            targets: targets.clone(),
            colour_chit: None,
            day,
        };
        match check(state, data, rules, &request) {
            Ok(_) => return Ok(request),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.unwrap_or_else(|| {
        MagicError::cannot(
            &found.name,
            format!(
                "the {} has no MAGIC chit or treasure to cast it with",
                c.name
            ),
        )
    }))
}
