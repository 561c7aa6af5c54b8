//! `realmgm orders`: read orders the way the daemon will, offline.

use anyhow::Context;

use crate::magic_realm::{data, orders};

#[derive(Debug, clap::Args)]
pub struct ParseArgs {
    /// One recorded day, e.g. "M CV4, H, S" or "M-CV2 / R-V3* / SPX / SP".
    line: String,
    /// Print {"phases": [...]} as JSON instead of the canonical line.
    #[arg(long)]
    json: bool,
}

/// Print the canonical phases of an activity line.
pub fn parse(args: &ParseArgs) -> anyhow::Result<()> {
    let data = data::get().map_err(|e| anyhow::anyhow!("{e}"))?;
    let activities = orders::parse_activities(&args.line, 1, &data.tiles)
        .map_err(|e| anyhow::anyhow!("{e}\n  {}\n  {}^", args.line, " ".repeat(e.column - 1)))?;
    if args.json {
        super::emit(
            serde_json::to_string_pretty(&activities).context("cannot write the phases as JSON")?,
        )
    } else {
        super::emit(activities)
    }
}
