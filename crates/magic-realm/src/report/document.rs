//! A player's report as a JSON document (`report-day-N.json`, the envelope
//! of [`realmgm_core::report_document`]): the same facts his text report
//! shows, taken from the very values the templates are filled with, so the
//! two cannot say different things. The day's events are the lines of his
//! log, each with its kind, and the section of the rules only when his
//! text shows it.

use serde::Serialize;

use realmgm_core::report::PrivateMessage;
use realmgm_core::report_document::{Addressed, attachment};

use crate::day::events::{DayEvent, Happening};
use crate::day::log::{Citations, indented, kind, line, rule_applied};

use super::PlayerReport;
use super::map::KnownMap;
use super::orders_form::OrdersForm;

/// The game's id, the schema's discriminator.
pub const GAME: &str = "magic-realm";

/// The document's Magic Realm part, under the key `magic_realm`.
#[derive(Serialize)]
struct Part<'a> {
    magic_realm: MagicRealm<'a>,
}

#[derive(Serialize)]
struct MagicRealm<'a> {
    character: &'a str,
    season: Option<&'a str>,
    weather: Option<&'a str>,
    deadline: Option<&'a str>,
    announcements: &'a [String],
    death: Option<&'a super::death::Death>,
    rules_in_force: Option<&'a [String]>,
    events: Vec<SeenEvent>,
    sheet: &'a super::sheet::Sheet,
    clearing: &'a super::clearing::ClearingView,
    messages: &'a [PrivateMessage],
    map: &'a KnownMap,
    orders_form: &'a OrdersForm,
}

/// One line of his day or of his combat.
#[derive(Serialize)]
pub(super) struct SeenEvent {
    /// `day` or `combat`: the report's section.
    section: &'static str,
    kind: &'static str,
    text: String,
    /// The section of the rules it applied, when his report cites them.
    rule: Option<String>,
}

/// The lines of `observed` as the day and combat logs write them.
pub(super) fn seen_events(observed: &[DayEvent], citations: Citations) -> Vec<SeenEvent> {
    observed
        .iter()
        .filter_map(|event| {
            Some(SeenEvent {
                section: if matches!(event.happening, Happening::Combat(_)) {
                    "combat"
                } else {
                    "day"
                },
                kind: kind(&event.happening),
                // Without the log's layout: no blank line before a turn, no
                // indent (lines after the first keep theirs relative to it).
                text: indented(&line(event)?, 0).trim_matches('\n').to_string(),
                rule: match citations {
                    Citations::Shown => rule_applied(&event.happening).map(str::to_string),
                    Citations::Hidden => None,
                },
            })
        })
        .collect()
}

/// The attachment of `view`'s document, with the lines of the events he
/// observed ([`seen_events`]), his known map and his orders form.
pub(super) fn document(
    view: &PlayerReport<'_>,
    events: Vec<SeenEvent>,
    map: &KnownMap,
    form: &OrdersForm,
) -> serde_json::Result<(String, String, Vec<u8>)> {
    let header = &view.header;
    attachment(
        Addressed {
            game: GAME,
            campaign: header.campaign,
            day: header.day,
            player: view.player,
        },
        &Part {
            magic_realm: MagicRealm {
                character: &view.sheet.character,
                season: header.season,
                weather: header.weather.as_deref(),
                deadline: header.deadline,
                announcements: header.announcements,
                death: view.death.as_ref(),
                rules_in_force: view.rules_in_force.as_deref(),
                events,
                sheet: &view.sheet,
                clearing: &view.clearing,
                messages: view.messages,
                map,
                orders_form: form,
            },
        },
    )
}
