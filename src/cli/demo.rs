//! `realmgm demo`: a whole campaign in a local folder, on the embedded
//! defaults only (SQLite file, Maildir folders), so a new user sees the tool
//! work before setting up any mail server.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::campaign::Campaign;
use crate::store::Store;

/// The demo campaign file, embedded so the demo needs no other files.
const DEMO_CAMPAIGN: &str = include_str!("../../campaigns/demo.toml");

/// Marks a folder as made by `realmgm demo`, so a second run may replace it
/// and a folder of the user's is never touched.
const MARKER: &str = ".realmgm-demo";

#[derive(Debug, clap::Args)]
pub struct DemoArgs {
    /// The folder to create the demo in; a previous demo there is replaced.
    #[arg(long, default_value = "demo")]
    dir: PathBuf,
}

pub fn run(args: &DemoArgs) -> anyhow::Result<()> {
    let dir = &args.dir;
    prepare_folder(dir)?;
    let campaign_file = dir.join("campaign.toml");
    std::fs::write(&campaign_file, DEMO_CAMPAIGN)
        .with_context(|| format!("cannot write {}", campaign_file.display()))?;
    let campaign = Campaign::parse("campaign.toml", DEMO_CAMPAIGN)?;
    let db_path = dir.join("realmgm.sqlite");
    let mut store = Store::open(&db_path)
        .with_context(|| format!("cannot create the database {}", db_path.display()))?;
    let now = super::now()?;
    let secrets = store.insert_campaign(&campaign, DEMO_CAMPAIGN, now)?;
    let mut addresses = vec![("gm".to_string(), campaign.gm.email.as_str().to_string())];
    addresses.extend(
        campaign
            .players
            .iter()
            .map(|p| (p.name.to_lowercase(), p.email.as_str().to_string())),
    );
    for (name, _) in &addresses {
        make_maildir(&dir.join("mail").join(name))?;
    }
    let state = crate::play::start_game(&mut store, &campaign, now)?;
    let mut summary = format!(
        "The demo campaign {} is set up in {}:\n  campaign file  {}\n  database       {}\n  state hash     {}\n",
        campaign.name,
        dir.display(),
        campaign_file.display(),
        db_path.display(),
        state.hash()
    );
    if let Some(svg) = campaign.game()?.map_svg(&state)? {
        let map = dir.join("map.svg");
        std::fs::write(&map, svg).with_context(|| format!("cannot write {}", map.display()))?;
        summary.push_str(&format!("  map            {}\n", map.display()));
    }
    summary.push_str("Mailboxes (Maildir):\n");
    for (name, address) in &addresses {
        summary.push_str(&format!(
            "  {address:<28} {}\n",
            dir.join("mail").join(name).display()
        ));
    }
    summary.push_str("Player secrets (each player puts his in a `Password:` line):\n");
    for secret in &secrets {
        summary.push_str(&format!("  {:<6} {}\n", secret.player, secret.secret));
    }
    summary.push_str(&format!(
        "Look around with `realmgm campaign show {} --db {}`.",
        campaign.name,
        db_path.display()
    ));
    super::emit(summary)
}

/// Create the folder, or empty a previous demo in it.
fn prepare_folder(dir: &Path) -> anyhow::Result<()> {
    if dir.exists() {
        if !dir.join(MARKER).exists() {
            let empty = std::fs::read_dir(dir)
                .with_context(|| format!("cannot read {}", dir.display()))?
                .next()
                .is_none();
            if !empty {
                bail!(
                    "{} exists and was not made by `realmgm demo`; name another folder with --dir",
                    dir.display()
                );
            }
        } else {
            std::fs::remove_dir_all(dir)
                .with_context(|| format!("cannot remove the previous demo in {}", dir.display()))?;
        }
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    std::fs::write(
        dir.join(MARKER),
        "made by realmgm demo; `realmgm demo` replaces this folder\n",
    )
    .with_context(|| format!("cannot write into {}", dir.display()))
}

fn make_maildir(path: &Path) -> anyhow::Result<()> {
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(path.join(sub))
            .with_context(|| format!("cannot create the mailbox {}", path.display()))?;
    }
    Ok(())
}
