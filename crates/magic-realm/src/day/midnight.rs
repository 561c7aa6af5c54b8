//! Midnight (play summary IV; `data/setup_card.toml` last note, §14): weapons are
//! unalerted, Hidden Enemies found today are forgotten, the map chits of
//! tiles without characters turn face down again, and after the game's
//! last day (day 28 of its last month, `MrState::last_day`) the victory
//! points are counted in all five categories (`victory`).

use realmgm_core::game::Observers;

use super::events::{Happening, MidnightEvent};
use super::{Day, victory};

pub fn midnight(day: &mut Day<'_>, day_number: u32) {
    for i in 0..day.state.characters.len() {
        let c = &mut day.state.characters[i];
        c.found_hidden_enemies = false;
        if c.weapon_alerted {
            c.weapon_alerted = false;
            let event = MidnightEvent::WeaponUnalerted {
                character: c.name.clone(),
            };
            let observers = day.only(i);
            day.emit(observers, Happening::Midnight(event));
        }
    }
    super::battling_today::forget(&mut day.state);
    crate::day::spell_clock::midnight(day);
    turn_chits_down(day);
    super::hire::count_down_hire_terms(day);
    super::missions::midnight(day, day_number);
    if day_number == day.state.last_day {
        let requirements = &day.state.victory_requirements;
        let scores = day
            .state
            .characters
            .iter()
            .map(|c| victory::score(day.data, c, requirements.get(&c.name)))
            .collect();
        let note = if requirements.is_empty() {
            "no victory requirements were recorded, so each category scores its raw total \
             divided by its factor (GT 1, spells 2, fame 10, notoriety 20, gold 30)"
        } else {
            "each category scored against the recorded requirements (`day/victory.rs`); a \
             character without requirements scores raw totals; a dead one -100"
        };
        day.emit(
            Observers::Everyone,
            Happening::Midnight(MidnightEvent::VictoryPoints {
                scores,
                note: note.into(),
            }),
        );
    }
}

/// Face-up chits in tiles without a character turn face down again; the
/// Lost City and Castle stay replaced by their chits.
fn turn_chits_down(day: &mut Day<'_>) {
    let occupied: std::collections::BTreeSet<&str> = day
        .state
        .characters
        .iter()
        .map(|c| c.position.tile.as_str())
        .collect();
    let mut turned = Vec::new();
    for (tile, chits) in &mut day.state.map_chits {
        if occupied.contains(tile.as_str()) || !chits.iter().any(|c| c.face_up) {
            continue;
        }
        for chit in chits.iter_mut() {
            chit.face_up = false;
        }
        turned.push(tile.clone());
    }
    for tile in turned {
        day.emit(
            Observers::Gm,
            Happening::Midnight(MidnightEvent::ChitsTurnedDown { tile }),
        );
    }
}
