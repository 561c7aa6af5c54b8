//! `realmgm day run FILE [--player P] [--json]`: play a day file (a
//! position, the characters' orders as mailed and forced dice) and print
//! the GM's history, each player's report and the outcome, checked against
//! the file's `[expect]` table when it has one. Exit status: 0 when every
//! expectation agrees, 1 when one differs or the day cannot be played, 2
//! when the file itself is wrong ([`BadFile`]).

use anyhow::{Context, bail};

use crate::magic_realm::data;
use crate::magic_realm::report::day_file::{self, DayRunError};

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The day file (TOML; see tests/days/README.md for the format).
    file: std::path::PathBuf,
    /// Print only this player's report (and not the GM's history).
    #[arg(long)]
    player: Option<String>,
    /// Print the texts, the outcome and the mismatches as JSON.
    #[arg(long)]
    json: bool,
}

/// A day file that cannot be read or set up: the command exits with 2, so
/// a script tells a broken file from a day that came out otherwise.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadFile(String);

/// Run one day file.
///
/// # Errors
/// The file cannot be read or set up ([`BadFile`]), the day cannot be
/// played, or the outcome differs from the file's `[expect]` table.
pub fn run(args: &RunArgs) -> anyhow::Result<()> {
    let data = data::get()?;
    let name = args.file.display().to_string();
    let text = std::fs::read_to_string(&args.file).map_err(|e| {
        BadFile(format!(
            "cannot read the day file {name} ({e}); check the path"
        ))
    })?;
    let run = match day_file::run(data, &name, &text) {
        Ok(run) => run,
        Err(DayRunError::File(e)) => return Err(BadFile(e.to_string()).into()),
        Err(e) => return Err(e.into()),
    };
    let reports: Vec<&(String, String)> = match &args.player {
        Some(p) => {
            let mine: Vec<_> = run.reports.iter().filter(|(who, _)| who == p).collect();
            if mine.is_empty() {
                let players: Vec<&str> = run.reports.iter().map(|(who, _)| who.as_str()).collect();
                return Err(BadFile(format!(
                    "{name} has no player {p}; its players are {}",
                    players.join(", ")
                ))
                .into());
            }
            mine
        }
        None => run.reports.iter().collect(),
    };
    let gm = args.player.is_none().then_some(run.gm_history.as_str());
    if args.json {
        let value = serde_json::json!({
            "gm_history": gm,
            "reports": reports.iter().map(|(p, t)| serde_json::json!({"player": p, "text": t})).collect::<Vec<_>>(),
            "outcome": run.outcome,
            "mismatches": run.mismatches,
        });
        super::emit(serde_json::to_string_pretty(&value).context("the outcome as JSON")?)?;
    } else {
        if let Some(gm) = gm {
            super::emit("==== The GM's history ====")?;
            super::emit(gm)?;
        }
        for (player, text) in &reports {
            super::emit(format!("==== The report of {player} ===="))?;
            super::emit(text)?;
        }
        super::emit(format!("outcome: {}", serde_json::to_string(&run.outcome)?))?;
    }
    if !run.mismatches.is_empty() {
        bail!(
            "{name}: the day differs from [expect]:\n  {}",
            run.mismatches.join("\n  ")
        );
    }
    Ok(())
}
