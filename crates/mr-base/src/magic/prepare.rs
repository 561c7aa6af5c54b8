//! Alerting a MAGIC chit in an Alert phase (3.1 rules 4.6.3c and 7.9.3): an
//! alerted chit casts at time 0; it stays alerted through the Evening's
//! combats and fatigues at Midnight (8.9.2c) whether it cast or not, unless
//! it is tied to a spell still in effect. A character's special advantage
//! overrides that: the Magician's optional Charms (10.A.6.4) only unalerts
//! his chits. The characters cannot start the game with chits alerted.
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

/// Midnight: the alerted chits of `who` are unalerted; those not tied to a
/// spell fatigue, unless `rest` (his advantage returns them unfatigued).
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
