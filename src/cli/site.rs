//! `realmgm site build`: the campaign's public pages, written to
//! a folder any web host serves, showing what the campaign's `[site]`
//! table allows.

use std::path::PathBuf;

use anyhow::Context;

use super::campaign::DbArg;
use super::emit;

#[derive(Debug, clap::Subcommand)]
pub enum SiteCommand {
    /// Build the public pages of a campaign, e.g. `site build --campaign BIMR3 --out www/bimr3`.
    Build(BuildArgs),
}

#[derive(Debug, clap::Args)]
pub struct BuildArgs {
    /// The campaign, by tag.
    #[arg(long)]
    campaign: String,
    /// The folder to write [default: the campaign's `[site] out`]; it
    /// becomes a link to the version just built, replaced in one step.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    #[command(flatten)]
    db: DbArg,
}

/// Run `realmgm site ...`.
///
/// # Errors
/// No such campaign, nothing played yet, no folder named, a broken
/// template, or the folder cannot be written.
pub fn run(command: &SiteCommand) -> anyhow::Result<()> {
    let SiteCommand::Build(args) = command;
    // The daemon rebuilds the same folder after each day: one at a time.
    let _round = args.db.wait_for_round(false)?;
    let (store, _) = args.db.open(false)?;
    let stored = store.campaigns().load(&args.campaign)?;
    let out = match &args.out {
        Some(out) => out.clone(),
        None => stored
            .campaign
            .site
            .clone()
            .map(|s| s.anchored_at(&args.db.mail_base()))
            .and_then(|s| s.out)
            .map(PathBuf::from)
            .with_context(|| {
                format!(
                    "name the folder with --out, or set out in the [site] table of campaign {}",
                    stored.campaign.name
                )
            })?,
    };
    let built = crate::site::build(&store, &stored.campaign.name, &out)?;
    emit(format!(
        "The public pages of {} are in {}: {} days, {} of them with the characters' records; {} \
         files. Open {} in a browser, or copy the folder to a web host (cp -rL).",
        stored.campaign.name,
        built.out.display(),
        built.days,
        built.days_with_records,
        built.files,
        built.out.join("index.html").display()
    ))
}
