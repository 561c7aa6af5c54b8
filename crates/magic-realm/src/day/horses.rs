//! Bonus Move phases from an active horse (play summary II.C "bonus phase from
//! an item, it must be active" and II.C.8 "a double move with a pony";
//! `day/daylight.rs` "Horses", §16).
//!
//! - A pony doubles his moves (3.1 6.2.4c, 7.3.2b.3): each Move phase not
//!   caused by the pony that he did (moved or climbed) may be followed by one
//!   bonus Move (`*M ...`) of the pony's, later in the turn, with other
//!   phases between; pony Moves alternate with other Moves and never come
//!   first. Followers without an active pony of their own are left behind
//!   by that move.
//! - A workhorse (the `horse` kind) gives one bonus Move phase a day.
//! - A warhorse gives none.
//! - Only a horse active at Birdsong, and still active, gives them (3.1
//!   6.2.2c.1, 7.3.2b).
//!
//! Horses become inactive on entering a cave (play summary II.C): his and his
//! followers' active horses turn inactive when he enters a cave clearing.
//! Ruling: a horse gives nothing while he stands in a cave clearing, even
//! one he activated there; only one horse counts, the first active one he
//! carries (the rules allow one active horse).

use realmgm_core::game::Observers;

use super::events::{Happening, PhaseEvent};
use super::{Day, movement};
use crate::data::GameData;
use crate::data::horses::{Horse, HorseKind};
use crate::state::{CharacterState, ItemKind};

/// The first active horse he carries.
pub fn active_horse<'d>(data: &'d GameData, who: &CharacterState) -> Option<&'d Horse> {
    who.belongings
        .iter()
        .filter(|b| b.active && b.item.kind == ItemKind::Horse)
        .find_map(|b| data.horses.iter().find(|h| h.name == b.item.name))
}

/// Whether he rides an active pony.
pub fn rides_pony(data: &GameData, who: &CharacterState) -> bool {
    active_horse(data, who).is_some_and(|h| h.kind == HorseKind::Pony)
}

/// What his horse gives for a bonus Move phase now, as a source name, and
/// whether it is the pony's double move. `undoubled_move` says a Move not
/// caused by the pony was done since the pony's last one.
pub fn bonus_move(day: &Day<'_>, who: usize, undoubled_move: bool) -> Option<(String, bool)> {
    let character = &day.state.characters[who];
    if movement::is_cave(day, &character.position) {
        return None;
    }
    let horse = active_horse(day.data, character)?;
    // Only a horse he rode at Birdsong gives him Moves (3.1 7.3.2b).
    if !day.today.was_active_at_birdsong(who, &horse.name) {
        return None;
    }
    match horse.kind {
        HorseKind::Pony if undoubled_move => {
            Some((format!("{} (pony, doubling a move)", horse.name), true))
        }
        HorseKind::Horse => Some((format!("{} (workhorse)", horse.name), false)),
        HorseKind::Pony | HorseKind::Warhorse => None,
    }
}

/// He (and the followers with him) entered a cave: every active horse
/// they carry becomes inactive.
pub fn unsaddle(day: &mut Day<'_>, who: usize, followers: &[usize], observers: &Observers) {
    for &i in std::iter::once(&who).chain(followers) {
        let character = &mut day.state.characters[i];
        let mut horses = Vec::new();
        for b in &mut character.belongings {
            if b.active && b.item.kind == ItemKind::Horse {
                b.active = false;
                horses.push(b.item.name.clone());
            }
        }
        if !horses.is_empty() {
            let event = PhaseEvent::HorsesInactive {
                character: character.name.clone(),
                horses,
            };
            day.emit(observers.clone(), Happening::Phase(event));
        }
    }
}
