//! `realmgm campaign export NAME FILE` and `campaign import FILE`: move one
//! campaign, with its days, orders, reports and mail, to another database
//! ([`crate::store::transfer`]).

use std::path::PathBuf;

use super::campaign::DbArg;
use crate::store::transfer::Transfer;

#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// The campaign's name (its mail tag, any case).
    name: String,
    /// The new file to write, e.g. bimr3-export.sqlite; it must not exist.
    file: PathBuf,
    #[command(flatten)]
    db: DbArg,
}

#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// A file written by `campaign export`.
    file: PathBuf,
    #[command(flatten)]
    db: DbArg,
}

/// Write the campaign to its export file and say what went in.
pub fn export(args: &ExportArgs) -> anyhow::Result<()> {
    let (store, path) = args.db.open(false)?;
    super::make_folder_for(&args.file)?;
    let moved = store.campaigns().export(&args.name, &args.file)?;
    super::emit(format!(
        "Exported {} from {} to {}.\n\
         To move it to another host: `realmgm gm --campaign {campaign} pause` here first, so only \
         one host answers its mail; copy the file; run `realmgm campaign import FILE` there; then \
         `realmgm gm --campaign {campaign} resume` there.",
        summary(&moved),
        path.display(),
        args.file.display(),
        campaign = moved.campaign,
    ))
}

/// Add the export file's campaign to the database and say what came in.
pub fn import(args: &ImportArgs) -> anyhow::Result<()> {
    let _round = args.db.wait_for_round(true)?;
    let (mut store, path) = args.db.open(true)?;
    let moved = store.campaigns_mut().import(&args.file)?;
    // As `campaign new` does: the daemon of this host reads and writes them.
    let campaign = store.campaigns().load(&moved.campaign)?.campaign;
    let created = super::campaign::create_maildirs(&campaign, &args.db.mail_base())?;
    let created = created
        .iter()
        .map(|line| format!("{line}\n"))
        .collect::<String>();
    super::emit(format!(
        "Imported {} into {}.\n{created}\
         A running daemon serves it from its next round. Its mail settings came with it: check \
         them on this host with `realmgm doctor --campaign {campaign}`.",
        summary(&moved),
        path.display(),
        campaign = moved.campaign,
    ))
}

fn summary(moved: &Transfer) -> String {
    format!(
        "campaign {} ({} players, days 0 to {}, {} mails received, {} sent or queued)",
        moved.campaign, moved.players, moved.days, moved.mails_in, moved.mails_out
    )
}
