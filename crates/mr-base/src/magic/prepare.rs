//! Preparing a MAGIC chit in an Alert phase (play summary III.A.4.c, III.C;
//! the magic summary "Specifying a Target"): a prepared chit casts at speed 0, and
//! fatigues at the end of combat whether it cast or not; with no combat it
//! fatigues at Midnight, except for a character whose advantage returns
//! prepared chits without fatigue (the Witch King).
//!
//! Ruling: an Alert phase prepares the MAGIC chit its note names; with no
//! note and no weapon to alert, his fastest free MAGIC chit.

use crate::magic::error::MagicError;
use crate::state::{ChitCondition, MrState};

use super::enchant::{tied_up, usable_magic_chits};
use super::events::MagicEvent;

/// Prepare chit `named` (an index) of `who`, or his fastest free one.
///
/// # Errors
/// The reason the phase is lost.
pub fn prepare(
    state: &mut MrState,
    who: usize,
    named: Option<usize>,
) -> Result<MagicEvent, MagicError> {
    let usable = usable_magic_chits(state, who);
    let pick = match named {
        Some(index) => usable.iter().find(|(i, _)| *i == index).ok_or_else(|| {
            "the chit named is not an active, unenchanted MAGIC chit free of spells".to_string()
        })?,
        None => usable
            .iter()
            .filter(|(i, _)| !state.characters[who].chits[*i].prepared)
            .min_by_key(|(i, a)| (a.time, *i))
            .ok_or_else(|| "no weapon to alert and no free MAGIC chit to prepare".to_string())?,
    };
    let index = pick.0;
    let c = &mut state.characters[who];
    if c.chits[index].prepared {
        return Err(format!("{} is already prepared", c.chits[index].chit).into());
    }
    c.chits[index].prepared = true;
    Ok(MagicEvent::ChitPrepared {
        character: c.name.clone(),
        chit: c.chits[index].chit.clone(),
    })
}

/// Prepared chits of `who` end their preparation: those not tied to a
/// spell fatigue, unless `rest` (the Witch King at Midnight).
pub fn unprepare(state: &mut MrState, who: usize, rest: bool) {
    for index in 0..state.characters.get(who).map_or(0, |c| c.chits.len()) {
        if !state.characters[who].chits[index].prepared {
            continue;
        }
        let tied = tied_up(state, who, index);
        let chit = &mut state.characters[who].chits[index];
        chit.prepared = false;
        if !tied && !rest && chit.condition == ChitCondition::Active {
            chit.condition = ChitCondition::Fatigued;
        }
    }
}
