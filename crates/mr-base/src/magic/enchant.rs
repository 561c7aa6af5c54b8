//! Enchanting in Daylight (3.1 rule 7.10): after an EM phase, an E
//! phase either turns one MAGIC chit of type I–V into colour magic of its
//! colour (7.10.3), or turns the tile over with a MAGIC chit of type I–V
//! while that chit's colour is present (7.10.4: in the clearing, or from
//! one of his own colour chits, which is played: it returns to a plain
//! MAGIC chit, fatigued). The MAGIC chit that turns the tile does not
//! fatigue: it stays in play (7.10.4).
//!
//! Rulings: a tile may be enchanted back to its normal side the same way
//! (7.10.4b: it turns whichever side is up);
//! chits tied to a spell in effect cannot enchant; when the order names no
//! chit, the first chit that can do the job is used, in chit order.

use crate::board::ClearingId;
use crate::data::GameData;
use crate::data::characters::{ActionChit, ChitAction};
use crate::data::terms::{Colour, MagicType};
use crate::data::tiles::Side;
use crate::magic::error::MagicError;
use crate::state::{ChitCondition, MrState};
use realmgm_core::game::Rules;

use super::colour::{chit_colour, colour_chits, list, names_chit, shared_colours};
use super::events::MagicEvent;
use super::item_chit;

/// A chit of `who` by its printed name (`MAGIC IV4*`, or `IV4*`).
pub fn find_chit(state: &MrState, who: usize, named: &str) -> Option<usize> {
    state
        .characters
        .get(who)?
        .chits
        .iter()
        .position(|c| names_chit(&c.chit, named))
}

/// Whether the chit at `index` is tied to a spell in effect; a spell cast
/// under Enhanced Magic (3.1 10.C.1) ties none.
pub fn tied_up(state: &MrState, who: usize, index: usize) -> bool {
    let Some(c) = state.characters.get(who) else {
        return false;
    };
    state.magic.in_effect.iter().any(|s| {
        !s.untied && s.caster == c.name && s.with == crate::state::magic::CastWith::Chit { index }
    })
}

/// Chits of `who` that could serve as a plain MAGIC chit now: active, not
/// a colour chit, not tied to a spell; with their parsed form.
pub fn usable_magic_chits(state: &MrState, who: usize) -> Vec<(usize, ActionChit)> {
    let Some(c) = state.characters.get(who) else {
        return Vec::new();
    };
    c.chits
        .iter()
        .enumerate()
        .filter(|(i, chit)| {
            chit.condition == ChitCondition::Active && !chit.enchanted && !tied_up(state, who, *i)
        })
        .filter_map(|(i, chit)| {
            let parsed = ActionChit::parse(&chit.chit).ok()?;
            (parsed.action == ChitAction::Magic).then_some((i, parsed))
        })
        .collect()
}

/// Pick the chit to use: the named one, or the first usable one that `fits`.
fn pick(
    state: &MrState,
    who: usize,
    named: Option<&str>,
    fits: impl Fn(&ActionChit) -> bool,
) -> Result<(usize, ActionChit), MagicError> {
    let usable = usable_magic_chits(state, who);
    match named {
        Some(name) => {
            let index = find_chit(state, who, name).ok_or_else(|| {
                format!("no chit {name}; name one of the character's MAGIC chits")
            })?;
            Ok(usable
                .into_iter()
                .find(|(i, _)| *i == index)
                .ok_or_else(|| {
                    format!(
                        "the chit {name} is not an active, unenchanted MAGIC chit free of spells"
                    )
                })?)
        }
        None => Ok(usable.into_iter().find(|(_, a)| fits(a)).ok_or_else(|| {
            "no active MAGIC chit of type I to V free to enchant with".to_string()
        })?),
    }
}

/// Turn a MAGIC chit of `who` into colour magic (3.1 rule 7.10.3).
///
/// # Errors
/// The reason the phase is lost: no such chit, a type without colour, a
/// chit not active.
pub fn enchant_chit(
    state: &mut MrState,
    who: usize,
    named: Option<&str>,
) -> Result<MagicEvent, MagicError> {
    let (index, parsed) = pick(state, who, named, |a| {
        a.magic.and_then(chit_colour).is_some()
    })?;
    let magic = parsed.magic.ok_or("only MAGIC chits can be enchanted")?;
    let colour = chit_colour(magic).ok_or_else(|| {
        format!("a type {magic} MAGIC chit cannot become colour magic: only types I to V can")
    })?;
    let c = &mut state.characters[who];
    c.chits[index].enchanted = true;
    Ok(MagicEvent::ChitEnchanted {
        character: c.name.clone(),
        chit: c.chits[index].chit.clone(),
        colour,
    })
}

/// What turns a tile, or pays its colour: a MAGIC chit (by index) or,
/// under Enhanced Artifacts, an artifact or book (3.1 10.C.3.1).
enum Enchanter {
    Chit(usize),
    Item(String),
}

/// The artifact or book `named` that enchants the tile as a MAGIC chit of
/// its red numeral (3.1 10.C.3.1), when the order names one under
/// Enhanced Artifacts; `None` when it names a chit, or nothing.
fn tile_item(
    state: &MrState,
    data: &GameData,
    rules: &Rules,
    who: usize,
    named: Option<&str>,
) -> Result<Option<(String, MagicType)>, MagicError> {
    let Some(named) = named.filter(|n| item_chit::red_numeral(data, n).is_some()) else {
        return Ok(None);
    };
    if !item_chit::on(rules) {
        return Err(MagicError::Impossible(format!(
            "the {named} cannot enchant a tile: artifacts and spell books do only under \
             Enhanced Artifacts and Spell Books (3.1 7.10.6, 10.C.3); name a MAGIC chit"
        )));
    }
    let item = item_chit::carried_active(state, data, who, named).ok_or_else(|| {
        MagicError::Impossible(format!(
            "the {} carries no active artifact or spell book called {named}",
            state.characters[who].name
        ))
    })?;
    if let Some(why) = item_chit::is_colour(state, who, &item) {
        return Err(MagicError::Impossible(why));
    }
    let magic = item_chit::red_numeral(data, &item)
        .ok_or_else(|| format!("the {item} holds no spells and is no MAGIC chit"))?;
    Ok(Some((item, magic)))
}

/// Turn the tile of `who` over (3.1 rule 7.10.4).
///
/// # Errors
/// The reason the phase is lost, naming the colour that is missing.
pub fn enchant_tile(
    state: &mut MrState,
    data: &GameData,
    rules: &Rules,
    day: u32,
    who: usize,
    named: Option<&str>,
) -> Result<MagicEvent, MagicError> {
    let here = state.characters[who].position.clone();
    enchant_tile_at(state, data, rules, day, who, named, &here)
}

/// Turn the tile of clearing `here` over as if `who` stood there: the
/// colour must be present in `here` (or be one of his colour chits). The
/// Toadstool Circle's gift enchants any clearing this way.
///
/// # Errors
/// The reason the phase is lost, naming the colour that is missing.
pub fn enchant_tile_at(
    state: &mut MrState,
    data: &GameData,
    rules: &Rules,
    day: u32,
    who: usize,
    named: Option<&str>,
    here: &ClearingId,
) -> Result<MagicEvent, MagicError> {
    let shared = shared_colours(state, data, rules, day, here);
    let own = colour_chits(state, who);
    let items = item_chit::colour_items(state, who);
    let present = |colour: Colour| {
        shared.contains(&colour)
            || own.iter().any(|o| o.2 == colour)
            || items.iter().any(|i| i.1 == colour)
    };
    let (magic, with) = match tile_item(state, data, rules, who, named)? {
        Some((item, magic)) => (magic, Enchanter::Item(item)),
        None => {
            let (index, parsed) = pick(state, who, named, |a| {
                a.magic.and_then(chit_colour).is_some_and(present)
            })?;
            let magic = parsed.magic.ok_or("only MAGIC chits can enchant a tile")?;
            (magic, Enchanter::Chit(index))
        }
    };
    let colour = chit_colour(magic).ok_or_else(|| {
        format!("a type {magic} MAGIC chit cannot enchant a tile: only types I to V can")
    })?;
    let colour_chit = if shared.contains(&colour) {
        None
    } else if let Some((item, _)) = items.iter().find(|i| i.1 == colour) {
        Some((Enchanter::Item(item.clone()), format!("the {item}")))
    } else {
        let mut all = shared.clone();
        all.extend(own.iter().map(|o| o.2));
        let Some((ci, name, _)) = own.iter().find(|o| o.2 == colour) else {
            return Err(format!(
                "a type {magic} chit enchants a tile only with {colour} magic, and {colour} is \
                 not present here (present: {}); wait for a {colour} day or enchant a type \
                 {magic} chit first",
                list(&all)
            )
            .into());
        };
        Some((Enchanter::Chit(*ci), name.clone()))
    };
    let tile = here.tile.clone();
    let now = state
        .board
        .placement_of(&tile)
        .map(|p| p.side)
        .ok_or_else(|| format!("tile {tile} is not on the map"))?;
    let to = match now {
        Side::Normal => Side::Enchanted,
        Side::Enchanted => Side::Normal,
    };
    state.board.set_side(&tile, to).map_err(|e| e.to_string())?;
    match &colour_chit {
        Some((Enchanter::Chit(ci), _)) => {
            let chit = &mut state.characters[who].chits[*ci];
            chit.enchanted = false;
            chit.condition = ChitCondition::Fatigued;
        }
        Some((Enchanter::Item(item), _)) => item_chit::expend(state, who, item),
        None => {}
    }
    let c = &state.characters[who];
    let chit = match with {
        Enchanter::Chit(index) => c.chits[index].chit.clone(),
        Enchanter::Item(item) => format!("the {item}"),
    };
    Ok(MagicEvent::TileEnchanted {
        character: c.name.clone(),
        tile,
        chit,
        colour,
        colour_chit: colour_chit.map(|(_, n)| n),
        now_enchanted: to == Side::Enchanted,
    })
}
