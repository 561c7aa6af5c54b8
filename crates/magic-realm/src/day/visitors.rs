//! Row-6 visitors, missions and campaigns (play summary I.D, II.E; `data/setup_card.toml`
//! "Row 6 visitor/mission boxes", seventh-day regeneration): on a day the monster roll is
//! 6, a chit waiting in a row-6 box of the setup card comes to the clearing
//! of a character who ends his turn where the box says — with the unhired
//! leader of the box's native group, or at the box's site (the Altar, the
//! Shrine) or treasure site (Enchanted Meadow, Toadstool Circle). On a
//! seventh day with a roll of 6, the chits still on the card turn over.
//!
//! Rulings (the seeds are silent): a chit on the map stays in its clearing
//! for the rest of the game (regeneration turns over only those still on the
//! card); a visitor brings what it holds (its treasures and spells keep
//! their holder, the visitor's name) and trades there (see `trade`).
//! Missions and campaigns come to the map too; `missions` takes and
//! finishes them.

use serde::{Deserialize, Serialize};

use realmgm_core::game::Observers;

use super::Day;
use super::events::Happening;
use crate::board::ClearingId;
use crate::data::realms::Realm;
use crate::data::setup_card::VisitorBox;
use crate::state::hiring::unhired_in;

/// The monster roll that brings the row-6 chits out.
const VISITOR_ROW: u8 = 6;

/// Row-6 chits moving.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum VisitorEvent {
    /// A visitor came off the setup card to `clearing`.
    VisitorArrives {
        visitor: String,
        from_box: String,
        clearing: ClearingId,
    },
    /// A mission or campaign chit came to `clearing`; the note says how
    /// to take it (`missions`).
    MissionArrives {
        chit: String,
        from_box: String,
        clearing: ClearingId,
        note: String,
    },
    /// Seventh-day regeneration turned the chits still on the card over:
    /// (box, side now up).
    Flipped { chits: Vec<(String, String)> },
    /// A mission or campaign taken, delivered or over (`missions`).
    Mission { what: super::missions::MissionEvent },
}

impl VisitorEvent {
    /// The GM log line.
    pub fn log_line(&self) -> String {
        match self {
            VisitorEvent::VisitorArrives {
                visitor,
                from_box,
                clearing,
            } => format!("  The {visitor} comes from the {from_box} box to {clearing}."),
            VisitorEvent::MissionArrives {
                chit,
                from_box,
                clearing,
                note,
            } => format!("  {chit} comes from the {from_box} box to {clearing} ({note})."),
            VisitorEvent::Flipped { chits } => {
                let list: Vec<String> = chits
                    .iter()
                    .map(|(b, side)| format!("{side} on {b}"))
                    .collect();
                format!("Row-6 chits turn over: {}.", list.join(", "))
            }
            VisitorEvent::Mission { what } => what.log_line(),
        }
    }
}

/// How a chit on the map is taken.
const HOW_TO_TAKE: &str = "a character who ends a turn here takes it with a 'Missions:' line";

/// End of the turn of character `who`: on a roll of 6, every box whose
/// chit belongs in his clearing empties onto the map there.
pub fn end_of_turn(day: &mut Day<'_>, who: usize) {
    if !day.today.prowls_row(VISITOR_ROW) {
        return;
    }
    let here = day.state.characters[who].position.clone();
    // Each game's boxes, their chits called out by its own leaders and
    // sites (3.1 10.E.7.7.1).
    let boxes: Vec<String> = Realm::ALL
        .into_iter()
        .flat_map(|realm| {
            day.data
                .setup_card
                .visitor_box
                .iter()
                .map(move |b| (realm, b))
        })
        .filter(|(realm, b)| day.state.visitor_boxes.contains_key(&realm.mark(&b.name)))
        .filter(|(realm, b)| comes_out_at(day, *realm, b, &here))
        .map(|(realm, b)| realm.mark(&b.name))
        .collect();
    for box_name in boxes {
        let Some(chit) = day.state.visitor_boxes.remove(&box_name) else {
            continue;
        };
        day.state.visitors_on_map.insert(chit.clone(), here.clone());
        let event = if day.data.chits.visitor(&chit).is_some() {
            VisitorEvent::VisitorArrives {
                visitor: chit,
                from_box: box_name.clone(),
                clearing: here.clone(),
            }
        } else {
            VisitorEvent::MissionArrives {
                chit,
                from_box: box_name.clone(),
                clearing: here.clone(),
                note: HOW_TO_TAKE.into(),
            }
        };
        day.emit(Observers::Everyone, Happening::Visitors(event));
    }
}

/// Whether `realm`'s box's chit comes out in `clearing`: the named group's
/// leader of that game stands there unhired, or one of the named sites of
/// that game is there.
fn comes_out_at(day: &Day<'_>, realm: Realm, b: &VisitorBox, clearing: &ClearingId) -> bool {
    let leader_here = b.leader_of.as_ref().is_some_and(|group| {
        day.data
            .natives
            .iter()
            .filter(|g| &g.name == group)
            .any(|g| {
                unhired_in(&day.state, realm, g, clearing)
                    .iter()
                    .any(|m| m.is_leader())
            })
    });
    leader_here
        || b.places
            .iter()
            .any(|place| site_here(day, &realm.mark(place), clearing))
}

/// A site chit named `place` on the tile, numbered for `clearing`, or the
/// treasure site `place` lying there.
fn site_here(day: &Day<'_>, place: &str, clearing: &ClearingId) -> bool {
    let chit_here = day
        .state
        .map_chits
        .get(&clearing.tile)
        .into_iter()
        .flatten()
        .any(|chit| {
            chit.name == place
                && day
                    .data
                    .chits
                    .site(&chit.name)
                    .is_some_and(|s| s.clearing == clearing.clearing)
        });
    chit_here || day.state.treasure_sites.get(place) == Some(clearing)
}

/// Seventh-day regeneration with a roll of 6: the chits still in their
/// boxes turn over (a visitor shows its mission or campaign, and back).
pub fn flip_on_card(day: &mut Day<'_>) {
    let mut flipped = Vec::new();
    for (name, chit) in &mut day.state.visitor_boxes {
        let other = day
            .data
            .chits
            .visitor(chit)
            .map(|v| v.other_side.clone())
            .or_else(|| {
                day.data
                    .chits
                    .gold_special
                    .iter()
                    .find(|g| &g.name == chit)
                    .map(|g| g.other_side.clone())
            });
        if let Some(other) = other {
            *chit = other;
            flipped.push((name.clone(), chit.clone()));
        }
    }
    day.emit(
        Observers::Everyone,
        Happening::Visitors(VisitorEvent::Flipped { chits: flipped }),
    );
}

/// The visitors (not missions) standing in `clearing`.
pub fn visitors_in(day: &Day<'_>, clearing: &ClearingId) -> Vec<String> {
    day.state
        .visitors_on_map
        .iter()
        .filter(|(chit, at)| *at == clearing && day.data.chits.visitor(chit).is_some())
        .map(|(chit, _)| chit.clone())
        .collect()
}
