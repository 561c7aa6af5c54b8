//! The Enchant activity in Daylight (3.1 7.10.1): the first Enchant phase
//! of the day (EM, formerly SPX) only prepares; a later one (E, formerly SP)
//! enchants one MAGIC chit
//! into colour magic or, when its note says `tile`, turns the tile over.
//! The work is done by [`crate::magic::enchant`]; a note
//! `tile <clearing>` names another clearing's tile, allowed on a day the
//! Toadstool Circle gave the gift (`site_magic`). Under Enhanced Artifacts
//! (3.1 10.C.3) the note may name an artifact or book instead of a chit.
//!
//! Rulings: a character with the advantage "enchants without a
//! spellcasting step" needs no EM; an E without an earlier EM the same
//! day is lost with that reason; an EM when one was already done prepares
//! nothing more and is lost.

use super::events::Happening;
use super::{Day, PhaseOutcome, site_magic};
use crate::abilities;
use crate::data::characters::Advantage;
use crate::day::refusal::PhaseError;
use crate::magic::events::MagicEvent;
use crate::magic::{enchant, item_chit};
use crate::orders::Activity;

/// The artifact or book an E phase's note names (3.1 10.C.3.1, under
/// Enhanced Artifacts): `E (enchant ITEM)` enchants it into colour, `E
/// (enchant ITEM into COLOUR)` into the colour of one of its red numerals
/// (10.C.3.4.1), `E (enchant tile with ITEM)` enchants the tile with it,
/// and `RE (CV5) (with ITEM)` another clearing's tile. Gives the note
/// without the item, the item as the player wrote it and the colour he
/// named; the magic rules say why it cannot.
fn named_item<'n>(day: &Day<'_>, note: Option<&'n str>) -> NamedItem<'n> {
    let unnamed = NamedItem {
        note,
        item: None,
        into: None,
    };
    let Some(text) = note else {
        return unnamed;
    };
    let lower = text.to_ascii_lowercase();
    let (rest, named) = if let Some(at) = lower.find(" with ") {
        let rest = text[..at].trim().trim_end_matches(';').trim_end();
        (Some(rest), text[at + 6..].trim())
    } else if let Some(named) = lower.strip_prefix("with ") {
        (None, text[text.len() - named.len()..].trim())
    } else if let Some(named) = lower.strip_prefix("enchant ") {
        (None, text[text.len() - named.len()..].trim())
    } else {
        return unnamed;
    };
    let (named, into) = match named.to_ascii_lowercase().rfind(" into ") {
        Some(at) => (named[..at].trim(), Some(named[at + 6..].trim())),
        None => (named, None),
    };
    match item_chit::red_numeral(day.data, named) {
        Some(_) => NamedItem {
            note: rest,
            item: Some(named.to_string()),
            into,
        },
        None => unnamed,
    }
}

/// What [`named_item`] reads in an E phase's note.
struct NamedItem<'n> {
    /// The note without the item.
    note: Option<&'n str>,
    item: Option<String>,
    /// The colour named after `into`, as written.
    into: Option<&'n str>,
}

/// An EM or E phase; `note` is the phase's note (`tile` enchants the
/// tile).
pub fn enchant(
    day: &mut Day<'_>,
    who: usize,
    activity: &Activity,
    note: Option<&str>,
) -> PhaseOutcome {
    let name = day.state.characters[who].name.clone();
    let NamedItem { note, item, into } = named_item(day, note);
    if item.is_none() && enchant::usable_magic_chits(&day.state, who).is_empty() {
        return PhaseOutcome::Lost {
            reason: format!("the {name} has no active MAGIC chit free to enchant with"),
        };
    }
    let without_prep = abilities::has(
        day.data,
        day.rules,
        &day.state.characters[who],
        &Advantage::EnchantWithoutSpellcasting,
    );
    let chit = match activity {
        Activity::SpellPrep => {
            if !day.today.spell_prepared.insert(who) {
                return PhaseOutcome::Lost {
                    reason:
                        "already prepared today (one EM a day, 3.1 7.10.1); record E to enchant"
                            .into(),
                };
            }
            let observers = day.only(who);
            day.emit(
                observers,
                Happening::Magic(MagicEvent::Prepared { character: name }),
            );
            return PhaseOutcome::Done;
        }
        Activity::Spell { chit } => chit.as_deref().or(item.as_deref()),
        _ => {
            return PhaseOutcome::Lost {
                reason: "only EM and E phases enchant".into(),
            };
        }
    };
    if !without_prep && !day.today.spell_prepared.contains(&who) {
        return PhaseOutcome::Lost {
            reason: "an E phase enchants only after an EM phase earlier the same day (3.1 7.10.1)"
                .into(),
        };
    }
    let wants_tile = note.is_some_and(|n| n.to_lowercase().contains("tile"));
    let wants_item = item.is_some() && !wants_tile;
    let today = day.state.day + 1;
    let remote = match note.filter(|_| wants_tile) {
        Some(n) => match site_magic::enchant_target(day, who, n) {
            Ok(at) => at,
            Err(reason) => {
                return PhaseOutcome::Lost {
                    reason: reason.to_string(),
                };
            }
        },
        None => None,
    };
    let result = if let Some(at) = &remote {
        site_magic::enchant_remote(day, who, chit, at)
    } else if wants_tile {
        enchant::enchant_tile(&mut day.state, day.data, day.rules, today, who, chit)
            .map_err(PhaseError::from)
    } else if let Some(item) = item.as_deref().filter(|_| wants_item) {
        item_chit::enchant_item(&mut day.state, day.data, day.rules, who, item, into)
            .map_err(PhaseError::from)
    } else {
        enchant::enchant_chit(&mut day.state, who, chit).map_err(PhaseError::from)
    };
    match result {
        Ok(event) => {
            let observers = if wants_tile {
                day.clearing_of(who)
            } else {
                day.only(who)
            };
            day.emit(observers, Happening::Magic(event));
            if wants_tile {
                for (runaway, gone) in
                    super::movement::roadways_vanish(day.data, day.rules, &mut day.state)
                {
                    let observers = day.only(runaway);
                    day.emit(observers, Happening::Magic(gone));
                }
            }
            PhaseOutcome::Done
        }
        Err(reason) => PhaseOutcome::Lost {
            reason: reason.to_string(),
        },
    }
}
