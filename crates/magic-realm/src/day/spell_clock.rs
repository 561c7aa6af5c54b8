//! The spells' clock through a game day: at dawn (after Birdsong), at
//! Sunset and at Midnight the day engine applies the expiry rules of
//! [`crate::magic::expiry`] and tells everyone what ended,
//! fell inert or woke.

use std::collections::BTreeMap;

use crate::abilities;
use crate::board::ClearingId;
use crate::data::characters::Advantage;
use crate::data::spells::Duration;
use crate::data::terms::Dwelling;
use crate::magic::events::MagicEvent;
use crate::magic::expiry::{energize_by_presence, expire_where};
use crate::magic::{curses, item_chit, prepare};
use crate::orders::DayOrders;
use realmgm_core::game::Observers;

use super::Day;
use super::events::Happening;

fn emit_all(day: &mut Day<'_>, events: Vec<MagicEvent>) {
    for event in events {
        day.emit(Observers::Everyone, Happening::Magic(event));
    }
}

/// The start of game day `today` (after Birdsong): inert permanent spells
/// wake where their colour is shared, so a colour day's spells act all day;
/// one aloft after flying away draws on both tiles below him, the second
/// named by the Fly his `orders` start his turn with (3.1 8.3.8e.2).
pub fn dawn(day: &mut Day<'_>, today: u32, orders: &BTreeMap<String, DayOrders>) {
    let next_tiles = super::fly::tiles_next_below(day, orders);
    let woken = energize_by_presence(&mut day.state, day.data, day.rules, today, &next_tiles);
    emit_all(day, woken);
}

/// Sunset of game day `today`: day spells cast earlier expire; inert
/// permanent spells wake where their colour is shared.
pub fn sunset(day: &mut Day<'_>, today: u32) {
    let ended = expire_where(&mut day.state, |s| {
        s.duration == Duration::Day && s.cast_on < today
    });
    emit_all(day, ended);
    // Everyone aloft after flying away has come down in his turn by now.
    let woken = energize_by_presence(&mut day.state, day.data, day.rules, today, &BTreeMap::new());
    emit_all(day, woken);
}

/// Midnight (3.1 rule 8.9.2): Combat spells expire, with any attack or
/// phase spell left (8.9.2e); permanent spells fall inert (8.9.2d), and an
/// item's colour from an Enchant Artifact numeral is expended with them
/// (10.C.3.4.2); alerted MAGIC chits fatigue (8.9.2c; the Magician's
/// optional Charms, 10.A.6.4, only unalerts his); artifacts rest; the
/// Chapel lifts curses (8.9.2f).
pub fn midnight(day: &mut Day<'_>) {
    // A Phase spell's chit not yet activated waits for its target (3.1
    // rule 4.6.7f; 8.9.2e ends only Combat spells).
    let ended = expire_where(&mut day.state, |s| {
        matches!(
            s.duration,
            Duration::Attack | Duration::Combat | Duration::Phase | Duration::Instant
        ) && !s.held
    });
    emit_all(day, ended);
    let mut inert = Vec::new();
    for spell in &mut day.state.magic.in_effect {
        if spell.duration == Duration::Permanent && !spell.inert {
            spell.inert = true;
            inert.push(MagicEvent::FellInert {
                spell: spell.spell.clone(),
                caster: spell.caster.clone(),
            });
        }
    }
    emit_all(day, inert);
    // The colour an Enchant Artifact's numeral gave an item goes as that
    // spell falls inert (3.1 10.C.3.4.2).
    for (who, faded) in item_chit::expend_added_colours(&mut day.state, day.data) {
        let observers = day.only(who);
        day.emit(observers, Happening::Magic(faded));
    }
    // Transmorphized belongings reappear as they were (3.1 4.6.9b.1).
    crate::magic::transmorph::release_all(&mut day.state);
    // Either game's Chapel lifts the curses of those standing in it.
    let chapels: Vec<(String, ClearingId)> = day
        .state
        .every_dwelling()
        .filter(|&(_, d, _)| d == Dwelling::Chapel)
        .map(|(realm, d, at)| (format!("the {}", realm.mark(&d.to_string())), at.clone()))
        .collect();
    for who in 0..day.state.characters.len() {
        day.state.characters[who].magic.artifacts_used_today.clear();
        let rest = abilities::has(
            day.data,
            day.rules,
            &day.state.characters[who],
            &Advantage::MagicReturnsWithoutFatigue,
        );
        prepare::unprepare(&mut day.state, who, rest);
        let position = &day.state.characters[who].position;
        if let Some((chapel, _)) = chapels.iter().find(|(_, at)| at == position) {
            let lifted = curses::lift_all(&mut day.state, who, chapel);
            let observers = day.only(who);
            for event in lifted {
                day.emit(observers.clone(), Happening::Magic(event));
            }
        }
    }
}
