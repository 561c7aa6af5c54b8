//! `realmgm orders`: read orders the way the daemon will, offline.

use anyhow::Context;

use crate::daemon::Daemon;
use crate::daemon::mail_in::ingest::own_text;
use crate::daemon::orders::player::read_orders;
use crate::game::GameState;
use crate::magic_realm::{data, orders};
use crate::mail::route::take_password;

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
    let data = data::get()?;
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
    /// The body of the player's mail, as he would send it: greetings, prose, a
    /// `Password:` line and the quoted report under his orders are read as the
    /// daemon reads them.
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

/// Check a mail of orders as the daemon would read it for a campaign's
/// character when it arrived now, without storing or sending anything: the
/// same reading ([`crate::daemon::mail_in::ingest::own_text`],
/// [`crate::daemon::orders::player::read_orders`]) and the same checks, against the
/// state the next day starts from.
pub fn check(args: &CheckArgs) -> anyhow::Result<()> {
    let body = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read the orders file {}", args.file.display()))?;
    let (store, _) = args.db.open(false)?;
    let daemon = Daemon::new(store);
    let stored = daemon.campaign(&args.campaign)?;
    let campaign = &stored.campaign;
    if campaign.game != "magic-realm" {
        anyhow::bail!(
            "the campaign {} plays {}, and these are Magic Realm orders",
            campaign.name,
            campaign.game
        );
    }
    let characters: Vec<&str> = stored
        .players
        .iter()
        .filter_map(|p| p.character.as_deref())
        .collect();
    let seat = stored.players.iter().find(|p| {
        p.character
            .as_deref()
            .is_some_and(|c| crate::suggest::same(c, &args.character))
    });
    let Some((player, character)) = seat.and_then(|p| Some((&p.name, p.character.as_deref()?)))
    else {
        let hint = crate::suggest::did_you_mean(&args.character, characters.iter().copied());
        anyhow::bail!(
            "nobody plays '{}' in {}{hint}; `realmgm campaign show {}` lists the characters",
            args.character,
            campaign.name,
            campaign.name
        );
    };
    let game = daemon.game(campaign)?;
    let pending = daemon.pending(campaign)?;
    let unlocked = take_password(&body);
    let own = own_text(&unlocked.text, &campaign.name);
    let mut notes: Vec<String> = unlocked
        .line
        .map(|line| {
            format!(
                "line {line} is the Password: line; the daemon reads it to know the sender and \
                 never shows it"
            )
        })
        .into_iter()
        .chain(own.set_aside)
        .collect();
    let state = match &pending.state {
        Some(state) => state.clone(),
        None => {
            notes.push(
                "the game is not set up yet, so moves, chits and belongings are not checked"
                    .to_string(),
            );
            GameState::new(serde_json::Value::Null)
        }
    };
    let read = read_orders(game, campaign, &state, player, &own.text, own.first_line);
    notes.extend(read.set_aside);
    let noted: String = notes.iter().map(|n| format!("note: {n}\n")).collect();
    match read.outcome {
        Ok(accepted) => {
            let mut report = format!(
                "Orders of the {character} for day {} in {}:\n{}\n",
                pending.day,
                campaign.name,
                accepted.canonical.trim_end()
            );
            for warning in &accepted.warnings {
                report.push_str(&format!("warning: {warning}\n"));
            }
            report.push_str(&noted);
            super::emit(report.trim_end())
        }
        Err(problems) => {
            let listed: Vec<String> = problems
                .iter()
                .map(|p| format!("  line {}, column {}: {}", p.line, p.column, p.message))
                .collect();
            anyhow::bail!(
                "{} has {}:\n{}\n{noted}",
                args.file.display(),
                crate::words::counted(problems.len(), "problem", "problems"),
                listed.join("\n")
            );
        }
    }
}
