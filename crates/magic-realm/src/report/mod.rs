//! Magic Realm's reports: each player's report of what his
//! character saw, and the GM's full history, filled into the templates of
//! [`realmgm_core::report`].
//!
//! A player's report is built from two sources only: the day's events he
//! observed ([`realmgm_core::game::observed_by`]; the day log of
//! [`crate::day::log`] written from them, combat apart), and what his own
//! character knows or can see now in the state (his sheet, his clearing,
//! his known map). The GM's history has every event, the secrets section
//! and the full map.

pub mod clearing;
pub mod day_file;
pub mod death;
pub mod document;
pub mod map;
pub mod orders_form;
pub mod secrets;
mod several;
pub mod sheet;
pub mod site;

use std::sync::Arc;

use anyhow::{anyhow, bail};
use serde::Serialize;

use realmgm_core::game::{Event, Reader, Report, observed_by};
use realmgm_core::report::{PrivateMessage, ReportContext};

use crate::data::GameData;
use crate::day::events::{DayEvent, Happening};
use crate::day::log::{Citations, day_log};
use crate::state::{CharacterState, MrState};

/// The header every report starts with.
#[derive(Clone, Debug, Serialize)]
struct Header<'a> {
    campaign: &'a str,
    day: u32,
    season: Option<&'a str>,
    deadline: Option<&'a str>,
    /// The season and this week's weather from the game state (Seasons and
    /// Weather rule); it replaces the daemon's `season`.
    weather: Option<String>,
    /// The secret weather chit: the GM's history only.
    weather_chit: Option<u8>,
    /// The GM's announcements made while the day was pending.
    announcements: &'a [String],
}

/// What the player report templates are filled with.
#[derive(Clone, Debug, Serialize)]
struct PlayerReport<'a> {
    header: Header<'a>,
    player: &'a str,
    /// His death, when he is dead: the report opens with it.
    death: Option<death::Death>,
    day_log: String,
    combat_log: String,
    sheet: sheet::Sheet,
    clearing: clearing::ClearingView,
    messages: &'a [PrivateMessage],
    known_tiles: Vec<String>,
    map_file: String,
    orders_form: String,
    map_svg: &'a str,
    /// Before day 1 (the start report): each rule in force with what it
    /// changes; `None` on a game day.
    rules_in_force: Option<Vec<String>>,
}

/// What the GM history templates are filled with.
#[derive(Clone, Debug, Serialize)]
struct GmHistory<'a> {
    header: Header<'a>,
    /// The GM's narrative of the day, when he wrote one.
    narrative: Option<&'a str>,
    day_log: String,
    combat_log: String,
    secrets: secrets::Secrets,
    map_file: String,
    map_svg: &'a str,
}

/// The events `reader` observed, as Magic Realm events.
fn seen(events: &[Event], reader: Reader<'_>) -> anyhow::Result<Vec<DayEvent>> {
    Ok(observed_by(events, reader)
        .map_err(|e| anyhow!("an event is not a Magic Realm event: {e}"))?
        .into_iter()
        .map(|(observers, happening)| DayEvent {
            observers,
            happening: Arc::unwrap_or_clone(happening),
        })
        .collect())
}

/// The day log and the combat log of `events`.
fn logs(events: Vec<DayEvent>, citations: Citations) -> (String, String) {
    let (combat, day): (Vec<DayEvent>, Vec<DayEvent>) = events
        .into_iter()
        .partition(|e| matches!(e.happening, Happening::Combat(_)));
    (
        day_log(&day, citations),
        day_log(&combat, citations).trim_start().to_string(),
    )
}

fn header<'a>(
    data: &GameData,
    state: &MrState,
    context: &'a ReportContext,
    reader: Reader<'_>,
) -> Header<'a> {
    let weather = crate::day::weather::describe(data, state);
    Header {
        campaign: &context.campaign,
        day: state.day,
        season: if weather.is_some() {
            None
        } else {
            context.season.as_deref()
        },
        deadline: context.deadline.as_deref(),
        weather,
        weather_chit: match reader {
            Reader::Gm => state.weather.map(|w| w.chit),
            Reader::Player(_) => None,
        },
        announcements: &context.announcements,
    }
}

/// `player`'s report of the day that ended with `state`.
///
/// # Errors
/// The player has no character, an event is not a Magic Realm event, or a
/// template fails (named with its file and line).
pub fn player_report(
    data: &GameData,
    state: &MrState,
    events: &[Event],
    player: &str,
    context: &ReportContext,
) -> anyhow::Result<Report> {
    let mine: Vec<&CharacterState> = state.characters_of(player).collect();
    match mine.as_slice() {
        [] => bail!("{player} has no character in this game"),
        [me] => character_report(data, state, events, player, me, context, None),
        several => several::report(data, state, events, player, several, context),
    }
}

/// The report of the character `me`, played by `player`: what his seat
/// saw. `part` names him when he is one of several characters of the
/// player (3.1 10.E.4.4), whose parts his one report joins: his map is then
/// named after him, and his standing orders are his part of the player's.
fn character_report(
    data: &GameData,
    state: &MrState,
    events: &[Event],
    player: &str,
    me: &CharacterState,
    context: &ReportContext,
    part: Option<&str>,
) -> anyhow::Result<Report> {
    let observed = seen(events, Reader::Player(&me.player))?;
    let death = death::death(data, state, me, &observed);
    let citations = if context.cite_rules {
        Citations::Shown
    } else {
        Citations::Hidden
    };
    let seen_events = document::seen_events(&observed, citations);
    let (day_log, combat_log) = logs(observed, citations);
    let standing = context.standing_orders.get(player).map(|text| match part {
        Some(_) => several::part_of(text, &me.name),
        None => text.clone(),
    });
    // The player's messages are told once, in his first character's part.
    let first = state.characters_of(player).next().map(|c| c.name.as_str());
    let messages = if part.is_none() || first == Some(me.name.as_str()) {
        context.messages.get(player).map_or(&[][..], Vec::as_slice)
    } else {
        &[]
    };
    let mut form = orders_form::orders_form(
        data,
        &context.rules,
        state,
        me,
        state.day + 1,
        standing.as_deref(),
    );
    if part.is_some() {
        form.heading = Some(format!("{} {}", crate::orders::sections::HEADER, me.name));
    }
    let orders_form = context.templates.render("orders_form.txt", &form)?;
    let map_svg = map::known_map(data, state, me);
    let map_file = match part {
        Some(slug) => format!("map-day-{}-{slug}.svg", state.day),
        None => format!("map-day-{}.svg", state.day),
    };
    let view = PlayerReport {
        header: header(data, state, context, Reader::Player(player)),
        player,
        death,
        day_log,
        combat_log,
        sheet: sheet::sheet(data, &context.rules, state, me),
        clearing: clearing::clearing_view(data, &context.rules, state, me),
        messages,
        known_tiles: me
            .discoveries
            .tiles_visited
            .iter()
            .map(|code| {
                data.tiles
                    .by_code(code)
                    .map_or_else(|| code.clone(), |t| t.name.clone())
            })
            .collect(),
        map_file: map_file.clone(),
        orders_form,
        map_svg: &map_svg,
        rules_in_force: (state.day == 0).then(|| rules_in_force(&context.rules)),
    };
    let text = context.templates.render("player_report.txt", &view)?;
    let html = context.templates.render("player_report.html", &view)?;
    let known_map = map::known_map_data(data, state, me);
    let json = document::document(&view, seen_events, &known_map, &form)?;
    Ok(Report {
        subject: if state.day == 0 {
            format!("The game begins: you play the {}", me.name)
        } else if me.dead {
            format!(
                "Day {} report for the {}: you were killed",
                state.day, me.name
            )
        } else {
            format!("Day {} report for the {}", state.day, me.name)
        },
        text,
        html: Some(html),
        attachments: vec![
            (map_file, "image/svg+xml".to_string(), map_svg.into_bytes()),
            json,
        ],
    })
}

/// The campaign's rules as a start report lists them: each toggle's name
/// and what it changes, the standard rules when none is on.
fn rules_in_force(rules: &realmgm_core::game::Rules) -> Vec<String> {
    let listed: Vec<String> = crate::rules::TOGGLES
        .iter()
        .filter(|t| rules.is_on(t.name))
        .map(|t| format!("{}: {}", t.name, t.summary))
        .collect();
    if listed.is_empty() {
        vec!["the third edition's rules, release 3.1, with no optional rules".to_string()]
    } else {
        listed
    }
}

/// The GM's history of the day that ended with `state`.
///
/// # Errors
/// An event is not a Magic Realm event, or a template fails.
pub fn gm_history(
    data: &GameData,
    state: &MrState,
    events: &[Event],
    context: &ReportContext,
) -> anyhow::Result<Report> {
    let (day_log, combat_log) = logs(seen(events, Reader::Gm)?, Citations::Shown);
    let map_svg = map::full_map(data, state);
    let map_file = format!("map-day-{}-gm.svg", state.day);
    let view = GmHistory {
        header: header(data, state, context, Reader::Gm),
        narrative: context.narrative.as_deref(),
        day_log,
        combat_log,
        secrets: secrets::secrets(state),
        map_file: map_file.clone(),
        map_svg: &map_svg,
    };
    let text = context.templates.render("gm_history.txt", &view)?;
    let html = context.templates.render("gm_history.html", &view)?;
    Ok(Report {
        subject: format!("Day {} history (GM)", state.day),
        text,
        html: Some(html),
        attachments: vec![(map_file, "image/svg+xml".to_string(), map_svg.into_bytes())],
    })
}
