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

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The orders, as the player would mail them (see `Activities:`, `Search:`, `Buy:` ...).
    file: std::path::PathBuf,
    /// The campaign the orders are for.
    #[arg(long)]
    campaign: String,
    /// The character giving the orders.
    #[arg(long)]
    character: String,
    #[command(flatten)]
    db: super::campaign::DbArg,
}

/// Check a whole orders file against the game and the campaign, offline.
pub fn check(args: &CheckArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read the orders file {}", args.file.display()))?;
    let (store, _) = args.db.open(false)?;
    let stored = store.load_campaign(&args.campaign)?;
    if stored.campaign.game != "magic-realm" {
        anyhow::bail!(
            "the campaign {} plays {}, and these are Magic Realm orders",
            stored.campaign.name,
            stored.campaign.game
        );
    }
    let characters: Vec<&str> = stored
        .players
        .iter()
        .filter_map(|p| p.character.as_deref())
        .collect();
    let Some(character) = crate::suggest::find(&args.character, characters.iter().copied()) else {
        let hint = crate::suggest::did_you_mean(&args.character, characters.iter().copied());
        anyhow::bail!(
            "nobody plays '{}' in {}{hint}; `realmgm campaign show {}` lists the characters",
            args.character,
            stored.campaign.name,
            stored.campaign.name
        );
    };
    let data = data::get().map_err(|e| anyhow::anyhow!("{e}"))?;
    let day_orders = match orders::parse_day_orders(&text, 1, data) {
        Ok(day_orders) => day_orders,
        Err(errors) => {
            let listed: Vec<String> = errors.iter().map(|e| format!("  {e}")).collect();
            anyhow::bail!(
                "{} has {}:\n{}",
                args.file.display(),
                crate::words::counted(errors.len(), "problem", "problems"),
                listed.join("\n")
            );
        }
    };
    let names = orders::check_names(&day_orders, data, &characters);
    let mut report = format!(
        "Orders of the {character} in {}:\n{day_orders}",
        stored.campaign.name
    );
    for warning in &names.warnings {
        report.push_str(&format!("warning: {warning}\n"));
    }
    if !names.errors.is_empty() {
        anyhow::bail!("{report}\n{}", names.errors.join("\n"));
    }
    super::emit(report.trim_end())
}
