//! A day file played through to its reports: the GM's history and each
//! player's report as they would be mailed, and the file's `[expect]`
//! checked against the day's outcome and those texts. The day itself is
//! [`crate::day::file`]'s; this layer adds the reports it may not call.

use std::collections::BTreeMap;

use thiserror::Error;

use realmgm_core::embedded::DataError;
use realmgm_core::report::ReportContext;

use crate::data::GameData;
use crate::day::events::to_events;
use crate::day::file::{self, Outcome};
use crate::day::resolve::DayError;

/// A day file played: the texts, the outcome and what differs from the
/// file's `[expect]` (empty when all agree or it has none).
#[derive(Debug)]
pub struct DayRun {
    pub gm_history: String,
    /// Player → his report, in seat order.
    pub reports: Vec<(String, String)>,
    pub outcome: Outcome,
    pub mismatches: Vec<String>,
    /// The file has an `[expect]` table.
    pub expects: bool,
}

/// Why a day file could not be played.
#[derive(Debug, Error)]
pub enum DayRunError {
    /// The file is broken: fix it.
    #[error("{0}")]
    File(#[from] DataError),
    #[error("{file}: the day cannot be played: {error}")]
    Day { file: String, error: DayError },
    #[error("{file}: the reports cannot be written: {message}")]
    Report { file: String, message: String },
}

/// Read, play and check the day file `file` (its text `text`).
///
/// # Errors
/// A broken file, a day that cannot be played, a report that cannot be
/// written.
pub fn run(data: &GameData, file: &str, text: &str) -> Result<DayRun, DayRunError> {
    let played = file::load(data, file, text)?
        .play(data)
        .map_err(|error| DayRunError::Day {
            file: file.to_string(),
            error,
        })?;
    let report_error = |e: anyhow::Error| DayRunError::Report {
        file: file.to_string(),
        message: format!("{e:#}"),
    };
    let context = ReportContext {
        campaign: file.to_string(),
        rules: played.rules.clone(),
        ..ReportContext::default()
    };
    let events = to_events(played.events.clone());
    let gm_history = super::gm_history(data, &played.after, &events, &context)
        .map_err(report_error)?
        .text;
    // One report a player, whatever number of characters he plays (3.1
    // 10.E.4).
    let mut players: Vec<&str> = Vec::new();
    for c in &played.after.characters {
        if !players.contains(&c.played_by()) {
            players.push(c.played_by());
        }
    }
    let mut reports = Vec::new();
    for player in players {
        let report = super::player_report(data, &played.after, &events, player, &context)
            .map_err(report_error)?;
        reports.push((player.to_string(), report.text));
    }
    let outcome = file::outcome(data, &played);
    let mut texts: BTreeMap<String, String> = reports.iter().cloned().collect();
    texts.insert("gm".to_string(), gm_history.clone());
    let mismatches = played
        .expect
        .as_ref()
        .map(|e| file::check(e, &outcome, &texts))
        .unwrap_or_default();
    Ok(DayRun {
        gm_history,
        reports,
        outcome,
        mismatches,
        expects: played.expect.is_some(),
    })
}
