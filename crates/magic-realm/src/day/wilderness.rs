//! Spells that act on movement in Daylight (`spells.toml` summaries;
//! `tables/wilderness.rs`): Lost sends whoever it holds to the clearing of one die
//! at each Move; Violent Storm cancels phases of whoever enters its tile.
//!
//! Rulings: a Lost character (or one moving out of a tile under Lost)
//! arrives in the clearing of the rolled number in the tile he moves into,
//! or where he aimed when that tile has no such clearing; the storm strikes
//! once per tile entered, and the phases it cancels come off his turn.

use crate::board::ClearingId;
use crate::day::Day;
use crate::day::events::Happening;
use crate::tables::wilderness::{Lost, ViolentStorm};
use crate::tables::{DieTable, Modifiers, read_roll};
use realmgm_core::dice::DiceCount;

use crate::magic::cast::active_on;
use crate::magic::events::MagicEvent;
use crate::state::magic::Aim;

fn lost_here(day: &Day<'_>, who: usize) -> bool {
    let c = &day.state.characters[who];
    let me = Aim::Character {
        name: c.name.clone(),
    };
    let tile = Aim::Tile {
        code: c.position.tile.clone(),
    };
    active_on(&day.state, &me, "Lost").is_some() || active_on(&day.state, &tile, "Lost").is_some()
}

/// Where a Move of `who` toward `to` really ends.
pub fn lost_destination(day: &mut Day<'_>, who: usize, to: ClearingId) -> ClearingId {
    if !lost_here(day, who) {
        return to;
    }
    let name = day.state.characters[who].name.clone();
    let observers = day.only(who);
    let record = day.roll(
        &format!("daylight/lost/{name}"),
        DiceCount::One,
        observers.clone(),
    );
    let roll = read_roll(&Lost, record, &Modifiers::none());
    let rolled = ClearingId::new(&to.tile, roll.result.clearing);
    let arrives = if day.state.board.clearing(&rolled).is_some() {
        rolled
    } else {
        to
    };
    day.emit(
        observers,
        Happening::Magic(MagicEvent::Wandered {
            character: name,
            to: arrives.clone(),
        }),
    );
    arrives
}

/// Phases the storm cancels for `who`, who just moved from tile `from`.
pub fn storm_phases(day: &mut Day<'_>, who: usize, from: &str) -> usize {
    let c = &day.state.characters[who];
    if c.position.tile == from {
        return 0;
    }
    let tile = Aim::Tile {
        code: c.position.tile.clone(),
    };
    if active_on(&day.state, &tile, "Violent Storm").is_none() {
        return 0;
    }
    let name = c.name.clone();
    let observers = day.only(who);
    let mods = Modifiers::none();
    let count = ViolentStorm.fixed_dice().unwrap_or(mods.dice_count());
    let record = day.roll(&format!("daylight/storm/{name}"), count, observers.clone());
    let roll = read_roll(&ViolentStorm, record, &mods);
    day.emit(
        observers,
        Happening::Magic(MagicEvent::Storm {
            character: name,
            phases: roll.result.phases,
        }),
    );
    usize::from(roll.result.phases)
}
