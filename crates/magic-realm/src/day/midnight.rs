//! Midnight (3.1 8.9): weapons are unalerted, Hidden Enemies found today
//! are forgotten, potions activated today go back to their boxes, a
//! character whose orders say so kills himself, every face-up map chit
//! turns face down again, a developing character's gains bring him chits
//! and levels (`development`), and after the game's last day (day 28 of its
//! last month, `MrState::last_day`) the victory points are counted in all
//! five categories (`victory`).

use std::collections::BTreeMap;

use realmgm_core::game::Observers;

use super::events::{Happening, MidnightEvent};
use super::{Day, victory};
use crate::data::realms::Realm;
use crate::data::treasures::TreasureEffect;
use crate::orders::DayOrders;
use crate::state::ItemKind;

pub fn midnight(day: &mut Day<'_>, day_number: u32, orders: &BTreeMap<String, DayOrders>) {
    for i in 0..day.state.characters.len() {
        let c = &mut day.state.characters[i];
        c.found_hidden_enemies = false;
        c.magic_sight.clear();
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
    if day_number != day.state.last_day {
        return_potions(day);
    }
    suicides(day, day_number, orders);
    turn_chits_down(day);
    super::hire::count_down_hire_terms(day);
    // Sudden Death, or a victory under Extended Development, may make
    // tonight the game's end, when missions and campaigns still held fail
    // (3.1 7.2.4d): decide it first.
    sudden_death(day, day_number, orders);
    super::development::end_at_victory(day, day_number);
    super::missions::midnight(day, day_number);
    super::development::at_midnight(day, orders);
    if day_number == day.state.last_day {
        let requirements = &day.state.victory_requirements;
        let scores: Vec<_> = day
            .state
            .characters
            .iter()
            .map(|c| {
                victory::score(
                    day.data,
                    day.rules,
                    &day.state,
                    c,
                    requirements.get(&c.name),
                )
            })
            .collect();
        let players = victory::player_scores(&day.state, &scores);
        let victor_by_chits = day.rules.is_on(crate::development::WITHOUT_REQUIREMENTS);
        let note = if victor_by_chits {
            "Extended Development without victory requirements: each category scores its raw \
             total divided by its factor, and the chits earned name the victor (3.1 10.E.6.10)"
        } else if requirements.is_empty() {
            "no victory requirements were recorded, so each category scores its raw total \
             divided by its factor (GT 1, spells 2, fame 10, notoriety 20, gold 30)"
        } else {
            "each category scored against the recorded requirements (3.1 9.3.2); a \
             character without requirements scores raw totals; a dead one -100"
        };
        day.emit(
            Observers::Everyone,
            Happening::Midnight(MidnightEvent::VictoryPoints {
                scores,
                note: note.into(),
                players,
                victor_by_chits,
            }),
        );
        super::development::carry_over(day);
    }
}

/// Every potion a character activated today expires and goes back, face
/// down, to the visitor or dwelling named on its card, to be bought again
/// (3.1 8.9.2a); with two Realms combined, to its own game's (10.E.7.8). A
/// potion is active only on the day it is used.
fn return_potions(day: &mut Day<'_>) {
    for who in 0..day.state.characters.len() {
        let data = day.data;
        let returns_to = |name: &str| {
            let treasure = data.treasure(name)?;
            treasure.effects.iter().find_map(|e| match e {
                TreasureEffect::Potion { returns_to } => {
                    Some(Realm::of_name(name).mark(returns_to))
                }
                _ => None,
            })
        };
        let character = &mut day.state.characters[who];
        let mut returned = Vec::new();
        character.belongings.retain(|b| {
            let back = (b.active && b.item.kind == ItemKind::Treasure)
                .then(|| returns_to(&b.item.name))
                .flatten();
            if let Some(to) = back {
                returned.push((b.item.clone(), to));
                false
            } else {
                true
            }
        });
        let name = character.name.clone();
        for (potion, to) in returned {
            day.state
                .holdings
                .entry(to.clone())
                .or_default()
                .push(potion.clone());
            let observers = day.only(who);
            day.emit(
                observers,
                Happening::Midnight(MidnightEvent::PotionReturned {
                    character: name.clone(),
                    potion: potion.name,
                    to,
                }),
            );
        }
    }
}

/// A character whose orders say `Suicide: yes` dies now; what he carried
/// is abandoned in his clearing, and he sits out the whole next day
/// before he may start over (3.1 9.2.2a).
fn suicides(day: &mut Day<'_>, day_number: u32, orders: &BTreeMap<String, DayOrders>) {
    for who in 0..day.state.characters.len() {
        let c = &day.state.characters[who];
        if c.dead || !orders.get(&c.player).is_some_and(|o| o.suicide) {
            continue;
        }
        let c = &mut day.state.characters[who];
        let left = c.give_up_everything();
        c.dead = true;
        let rejoins_on = day_number + 2;
        c.rejoins_on = Some(rejoins_on);
        let (name, at) = (c.name.clone(), c.position.clone());
        super::restart::drop_where_he_fell(day, &at, &left);
        day.state.release_hired_leaders(who);
        day.state.characters[who].hirelings.clear();
        // A death is news to every player, as a restart is; what he left
        // is told only to those in his clearing.
        super::restart::tell_left_behind(day, &name, &at, &left, who);
        day.emit(
            Observers::Everyone,
            Happening::Midnight(MidnightEvent::Suicide {
                character: name,
                rejoins_on,
            }),
        );
    }
}

/// Under Sudden Death a living character whose orders say `End game: yes`
/// ends the game tonight when he scores zero or more in every category
/// against his recorded requirements (3.1 10.E.3.2); one without recorded
/// requirements has none to meet and cannot; with the recommended limit
/// he must stand in the clearing where he started (3.1 10.E.3.3). The
/// first of several in seat order is named; the game ends for all.
fn sudden_death(day: &mut Day<'_>, day_number: u32, orders: &BTreeMap<String, DayOrders>) {
    // The recommended limit brings the rule it limits with it (10.E.3.3).
    let on = day.rules.is_on(SUDDEN_DEATH) || day.rules.is_on(SUDDEN_DEATH_AT_START);
    if !on || day_number >= day.state.last_day {
        return;
    }
    for who in 0..day.state.characters.len() {
        let c = &day.state.characters[who];
        if c.dead || !orders.get(&c.player).is_some_and(|o| o.end_game) {
            continue;
        }
        let requirements = day.state.victory_requirements.get(&c.name);
        let short =
            victory::short_of_requirements(day.data, day.rules, &day.state, c, requirements);
        let character = c.name.clone();
        let start = c
            .start
            .dwelling()
            .and_then(|d| day.state.dwellings_of(c.realm).get(&d));
        if let Some(start) = start.filter(|s| {
            day.rules.is_on(SUDDEN_DEATH_AT_START) && short.is_empty() && **s != c.position
        }) {
            let event = MidnightEvent::NotWhereHeStarted {
                character,
                start: start.clone(),
            };
            let observers = day.only(who);
            day.emit(observers, Happening::Midnight(event));
            continue;
        }
        if short.is_empty() {
            day.state.last_day = day_number;
            day.emit(
                Observers::Everyone,
                Happening::Midnight(MidnightEvent::GameEnded { character }),
            );
            return;
        }
        let observers = day.only(who);
        day.emit(
            observers,
            Happening::Midnight(MidnightEvent::CannotEndGame { character, short }),
        );
    }
}

/// The name of the Sudden Death toggle (3.1 10.E.3).
pub const SUDDEN_DEATH: &str = "sudden_death";

/// The name of Sudden Death's recommended limit: he ends the game only
/// where he started (3.1 10.E.3.3).
pub const SUDDEN_DEATH_AT_START: &str = "sudden_death_at_start";

/// Every face-up map chit turns face down again (3.1 8.9.5); the Lost City
/// and Castle, once revealed, stay replaced by their chits, which turn
/// down with the rest.
fn turn_chits_down(day: &mut Day<'_>) {
    let mut turned = Vec::new();
    for (tile, chits) in &mut day.state.map_chits {
        if !chits.iter().any(|c| c.face_up) {
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
