//! `realmgm backup FILE`: copy the live database to a new file, safely
//! while the daemon runs ([`crate::store::Store::backup_to`]).

use std::path::PathBuf;

use super::campaign::DbArg;

#[derive(Debug, clap::Args)]
pub struct BackupArgs {
    /// The new file to write, e.g. backups/realmgm-2030-01-15.sqlite; it
    /// must not exist.
    file: PathBuf,
    #[command(flatten)]
    db: DbArg,
}

/// Copy the database to `args.file` and say how much was copied.
pub fn run(args: &BackupArgs) -> anyhow::Result<()> {
    let (store, path) = args.db.open(false)?;
    super::make_folder_for(&args.file)?;
    let pages = store.backup_to(&args.file, None)?;
    let campaigns = store.campaigns().list()?.len();
    super::emit(format!(
        "Backed up {} to {} ({}, {}). Restore it by stopping the daemon and putting the file in \
         the database's place (or name it with --db).",
        path.display(),
        args.file.display(),
        crate::words::counted(pages, "page", "pages"),
        crate::words::counted(campaigns, "campaign", "campaigns")
    ))
}
