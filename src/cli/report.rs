//! `realmgm report`: print a day's report for a player, or the GM's
//! history, as the daemon mailed it (made again from the store's snapshot
//! and events of that day when no copy is kept); `--html` and `--map` write
//! its HTML part and its map picture to files, and `--json` prints a
//! player's report as the JSON document attached to his mail.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, bail};

use crate::daemon::turns::report_context::{gm_words, report_context};
use crate::game::{Event, Game, Observers, Reader, Report};
use crate::report_document::MIME;
use crate::store::{Store, StoredCampaign};

use super::campaign::{DbArg, db_option};
use super::emit;

#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// The campaign, by tag.
    #[arg(long)]
    campaign: String,
    /// The day [default: the latest day played].
    #[arg(long)]
    day: Option<u32>,
    /// The player whose report to print.
    #[arg(long, required_unless_present = "gm", conflicts_with = "gm")]
    player: Option<String>,
    /// Print the GM's history instead of a player's report.
    #[arg(long)]
    gm: bool,
    /// Also write the report's HTML part to this file.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Also write the report's map picture (SVG) to this file.
    #[arg(long, value_name = "FILE")]
    map: Option<PathBuf>,
    /// Print the player's report as the JSON document his mail carries
    /// (schema `schemas/report-v1.schema.json`) instead of its text.
    #[arg(long, conflicts_with = "gm")]
    json: bool,
    #[command(flatten)]
    db: DbArg,
}

/// Run `realmgm report`.
///
/// # Errors
/// No such campaign, day or player; the game cannot report; a file cannot
/// be written.
pub fn run(args: &ReportArgs) -> anyhow::Result<()> {
    let (store, _) = args.db.open(false)?;
    let stored = store.campaigns().load(&args.campaign)?;
    let campaign = &stored.campaign;
    let game = campaign.game(store.games())?;
    let day = match args.day {
        Some(day) => day,
        None => store
            .days()
            .latest(&campaign.name)?
            .map(|s| s.day)
            .filter(|d| *d > 0)
            .with_context(|| {
                format!(
                    "campaign {} has not played a day yet; there is no report",
                    campaign.name
                )
            })?,
    };
    let reader = match &args.player {
        Some(name) => {
            let Some(player) = stored
                .players
                .iter()
                .find(|p| p.name.eq_ignore_ascii_case(name))
            else {
                let hint = crate::suggest::did_you_mean(
                    name,
                    stored.players.iter().map(|p| p.name.as_str()),
                );
                bail!("campaign {} has no player '{name}'{hint}", campaign.name);
            };
            Reader::Player(&player.name)
        }
        None => Reader::Gm,
    };
    // The report as it was mailed, when the store keeps it: a day played by
    // an older realmgm reads as its players read it.
    let kept = store
        .days()
        .report(&campaign.name, reader.player(), Some(day))?
        // A report mailed before reports carried their JSON document is
        // made again for `--json`: the same day's data gives the same text.
        .filter(|kept| !args.json || kept.attachments.iter().any(|a| a.mime == MIME));
    let report = match kept {
        Some(kept) => Report {
            subject: kept.subject,
            text: kept.text,
            html: kept.html,
            attachments: kept
                .attachments
                .into_iter()
                .map(|a| (a.name, a.mime, a.bytes))
                .collect(),
        },
        None => rendered(&store, &stored, game, day, reader, &args.db)?,
    };
    if let Some(path) = &args.html {
        let Some(html) = &report.html else {
            bail!("the {} report has no HTML part", campaign.game);
        };
        std::fs::write(path, html)
            .with_context(|| format!("cannot write the HTML to {}", path.display()))?;
    }
    if let Some(path) = &args.map {
        let Some((_, _, bytes)) = report
            .attachments
            .iter()
            .find(|(_, mime, _)| mime.starts_with("image/"))
        else {
            bail!("the {} report has no map picture", campaign.game);
        };
        std::fs::write(path, bytes)
            .with_context(|| format!("cannot write the map to {}", path.display()))?;
    }
    if args.json {
        let Some((_, _, bytes)) = report.attachments.iter().find(|(_, mime, _)| mime == MIME)
        else {
            bail!("the {} report has no JSON document", campaign.game);
        };
        return emit(String::from_utf8_lossy(bytes).trim_end());
    }
    emit(report.text.trim_end())
}

/// The report of `day` for `reader` made again from the day's stored state
/// and events, for a day whose mailed report the store no longer keeps.
fn rendered(
    store: &Store,
    stored: &StoredCampaign,
    game: &dyn Game,
    day: u32,
    reader: Reader<'_>,
    db: &DbArg,
) -> anyhow::Result<Report> {
    let campaign = &stored.campaign;
    let Some(snapshot) = store.days().load(&campaign.name, day)? else {
        let db = db_option(&db.path());
        bail!(
            "campaign {} has no day {day} stored; see `realmgm gm --campaign {} status{db}`",
            campaign.name,
            campaign.name
        );
    };
    let events: Vec<Event> = store
        .days()
        .events(&campaign.name, day)?
        .into_iter()
        .map(|e| Event {
            observers: Observers::from_list(&e.observers),
            body: e.event,
        })
        .collect();
    // The orders as the daemon accepted them: their stored text may hold
    // prose the daemon set aside, which the game alone would not read.
    let mut orders = BTreeMap::new();
    for submission in store.orders().latest(&campaign.name, day)? {
        if let Some(parsed) =
            store
                .orders()
                .latest_accepted(&campaign.name, day, &submission.player)?
        {
            orders.insert(submission.player, serde_json::from_value(parsed)?);
        }
    }
    let deadline = if game.is_over(&snapshot.state)? {
        None
    } else {
        Some(
            campaign.schedule.deadline(day + 1)
                + store
                    .control()
                    .deadline_extension(&campaign.name, day + 1)?,
        )
    };
    let relayed = store.outbox().relayed_messages(&campaign.name, day)?;
    let words = gm_words(store, &campaign.name, day)?;
    let context = report_context(game, campaign, day, deadline, &orders, &relayed, words)?;
    game.report(&snapshot.state, &events, reader, &context)
}
