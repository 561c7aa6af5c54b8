//! `realmgm battle run FILE [--json]`: play a battle file (one clearing's
//! combat with its participants, orders and forced dice) and print the
//! round-by-round log and the outcome, checked against the file's
//! `[expect]` table when it has one.

use anyhow::{Context, anyhow, bail};

use crate::magic_realm::combat::script;
use crate::magic_realm::data;

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The battle file (TOML; see tests/battles/ for examples).
    file: std::path::PathBuf,
    /// Print the log and outcome as JSON.
    #[arg(long)]
    json: bool,
}

/// Run one battle file.
///
/// # Errors
/// The file cannot be read or set up, an order is illegal, or the outcome
/// differs from the file's `[expect]` table.
pub fn run(args: &RunArgs) -> anyhow::Result<()> {
    let data = data::get()?;
    let name = args.file.display().to_string();
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read the battle file {name}; check the path"))?;
    let mut battle = script::load(data, &name, &text).map_err(|e| anyhow!("{e}"))?;
    let outcome = battle
        .run()
        .map_err(|e| anyhow!("{name}: {e}; fix the orders in the file"))?;
    let log = script::log_text(&battle.battle);
    let wrong = battle
        .expect
        .as_ref()
        .map(|e| script::check(e, &outcome, &log))
        .unwrap_or_default();
    if args.json {
        let value = serde_json::json!({
            "log": battle.battle.log,
            "outcome": outcome,
            "mismatches": wrong,
        });
        super::emit(serde_json::to_string_pretty(&value)?)?;
    } else {
        for line in &log {
            super::emit(line)?;
        }
        super::emit(format!("outcome: {}", serde_json::to_string(&outcome)?))?;
    }
    if !wrong.is_empty() {
        bail!(
            "{name}: the outcome differs from [expect]:\n  {}",
            wrong.join("\n  ")
        );
    }
    Ok(())
}
