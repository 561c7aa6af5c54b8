//! Midnight (seed 000 IV; TABLES.md §6.3 last note, §14): weapons are
//! unalerted, Hidden Enemies found today are forgotten, the map chits of
//! tiles without characters turn face down again, and after day 28 the
//! victory points are counted in all five categories.

use crate::game::Observers;

use super::super::data::GameData;
use super::super::state::{CharacterState, ItemKind};
use super::Day;
use super::events::{Happening, MidnightEvent, Score};

/// The last day of the one-month game.
pub const LAST_DAY: u32 = 28;

/// Points per victory point, by category (TABLES.md §14).
const GREAT_TREASURE_FACTOR: i32 = 1;
const SPELL_FACTOR: i32 = 2;
const FAME_FACTOR: i32 = 10;
const NOTORIETY_FACTOR: i32 = 20;
const GOLD_FACTOR: i32 = 30;

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
    crate::magic_realm::magic::expiry::midnight(day);
    turn_chits_down(day);
    super::hire::count_down_hire_terms(day);
    if day_number == LAST_DAY {
        let scores = day
            .state
            .characters
            .iter()
            .map(|c| score(day.data, c))
            .collect();
        day.emit(
            Observers::Everyone,
            Happening::Midnight(MidnightEvent::VictoryPoints {
                scores,
                note: "no victory requirements were recorded, so each category scores its \
                       raw total divided by its factor (GT 1, spells 2, fame 10, notoriety \
                       20, gold 30)"
                    .into(),
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

/// Raw victory points of one character (TABLES.md §14 with no
/// requirements: points ÷ factor, rounded down, summed).
pub fn score(data: &GameData, who: &CharacterState) -> Score {
    let treasures: Vec<_> = who
        .belongings
        .iter()
        .filter(|b| b.item.kind == ItemKind::Treasure)
        .filter_map(|b| data.treasures.iter().find(|t| t.name == b.item.name))
        .collect();
    let great_treasures = treasures.iter().filter(|t| t.great).count();
    let spells = who
        .belongings
        .iter()
        .filter(|b| b.item.kind == ItemKind::Spell)
        .count()
        + who.magic.spells.len();
    let fame = crate::magic_realm::magic::curses::fame_for_points(who)
        + treasures.iter().map(|t| i32::from(t.fame)).sum::<i32>();
    let notoriety = who.notoriety
        + treasures
            .iter()
            .map(|t| i32::from(t.notoriety))
            .sum::<i32>();
    let great_treasures = i32::try_from(great_treasures).unwrap_or(i32::MAX);
    let spells = i32::try_from(spells).unwrap_or(i32::MAX);
    let gold = crate::magic_realm::magic::curses::gold_for_points(who);
    let total = great_treasures.div_euclid(GREAT_TREASURE_FACTOR)
        + spells.div_euclid(SPELL_FACTOR)
        + fame.div_euclid(FAME_FACTOR)
        + notoriety.div_euclid(NOTORIETY_FACTOR)
        + gold.div_euclid(GOLD_FACTOR);
    Score {
        character: who.name.clone(),
        great_treasures,
        spells,
        fame,
        notoriety,
        gold,
        total,
    }
}
