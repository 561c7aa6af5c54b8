//! `realmgm demo`: a three-player campaign played for a week by mail in a
//! local folder, on the embedded defaults only (SQLite file, Maildir
//! folders, local delivery), so a new user sees the whole loop work before
//! setting up any mail server: bots write each player's orders as mail, the
//! daemon collects, confirms and processes them, and every player's reports
//! land in his Maildir.

use serde::Deserialize;
use std::path::{Path, PathBuf};

use std::collections::BTreeMap;

use anyhow::{Context, bail};

use crate::campaign::Campaign;
use crate::daemon::Daemon;
use crate::dice::Dice;
use crate::games::GAMES;
use crate::magic_realm::data;
use crate::magic_realm::day::bot;
use crate::magic_realm::state::MrState;
use crate::mail::maildir::Maildir;
use crate::mail::transport::LocalMailboxes;
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
    let campaign = Campaign::parse("campaign.toml", DEMO_CAMPAIGN, GAMES)?;
    let db_path = dir.join("realmgm.sqlite");
    let mut store = Store::open(&db_path, GAMES)
        .with_context(|| format!("cannot create the database {}", db_path.display()))?;
    // A virtual clock: the week plays in seconds, the same way every run.
    let mut now = campaign.schedule.first_deadline_unix() - 6 * 3600;
    let secrets: BTreeMap<String, String> = store
        .campaigns_mut()
        .insert(&campaign, DEMO_CAMPAIGN, now)?
        .into_iter()
        .map(|s| (s.player, s.secret))
        .collect();
    let mail_root = dir.join("mail");
    // The campaign's own folders, so `realmgm daemon` run on this database
    // afterwards reads and writes the same ones and the game plays on.
    let folders = campaign
        .mail
        .clone()
        .map(|mail| mail.anchored_at(dir))
        .context("the demo campaign names its mail folders")?;
    let (Some(inbox_path), Some(outbox_path)) = (folders.maildir_in, folders.maildir_out) else {
        bail!("the demo campaign names no maildir_in or maildir_out");
    };
    let (inbox_path, outbox_path) = (PathBuf::from(inbox_path), PathBuf::from(outbox_path));
    let inbox = Maildir::create(&inbox_path)?;
    Maildir::create(&outbox_path)?;
    let mailboxes = LocalMailboxes::new(&mail_root);
    let mut daemon = Daemon::new(store);
    daemon.turns().check_turn(&campaign.name, now)?;
    let data = data::get()?;
    let mut log = String::new();
    for day in 1..=DAYS {
        let stored = daemon
            .store
            .days()
            .latest(&campaign.name)?
            .context("the demo game was not set up")?;
        let state = MrState::deserialize(stored.state.json())?;
        let mut dice = Dice::new(campaign.seed, day);
        for player in &campaign.players {
            let orders = bot::orders_for(data, &campaign.rules, &state, &player.name, &mut dice)
                .with_context(|| format!("{} has no character in the demo", player.name))?;
            let body = format!("Password: {}\n{orders}", secrets[&player.name]);
            inbox.deliver(&player_mail(&campaign, player.email.as_str(), day, &body))?;
        }
        daemon.mail_in().poll_maildir(&inbox_path, now)?;
        daemon.mail_in().handle_stored(now)?;
        now += 60;
        let done = daemon.turns().check_turn(&campaign.name, now)?;
        daemon
            .outbox()
            .send_due(&mailboxes, Some(&campaign.name), now)?;
        log.push_str(&format!("  day {day}: {done}\n"));
        now += 24 * 3600 - 60;
    }
    let last = daemon
        .store
        .days()
        .latest(&campaign.name)?
        .context("the demo game has no days")?;
    let mut summary = format!(
        "The demo campaign {} played {DAYS} days by mail in {}:\n{log}  campaign file  {}\n  database       {}\n  state hash     {}\n",
        campaign.name,
        dir.display(),
        campaign_file.display(),
        db_path.display(),
        last.hash
    );
    if let Some(pages) = campaign.game(GAMES)?.pages() {
        let svg = pages.map_svg(&last.state)?;
        let map = dir.join("map.svg");
        std::fs::write(&map, svg).with_context(|| format!("cannot write {}", map.display()))?;
        summary.push_str(&format!("  map            {}\n", map.display()));
    }
    if let Some(out) = campaign.site.clone().and_then(|s| s.anchored_at(dir).out) {
        let built = crate::site::build(&daemon.store, &campaign.name, Path::new(&out))?;
        summary.push_str(&format!(
            "  public pages   {} ({} days, {} with the characters' records)\n",
            built.out.join("index.html").display(),
            built.days,
            built.days_with_records
        ));
    }
    summary.push_str("Mailboxes (Maildir; reports and confirmations are in new/):\n");
    let gm = campaign.gm.email.as_str();
    for address in std::iter::once(gm).chain(campaign.players.iter().map(|p| p.email.as_str())) {
        let local = address.split('@').next().unwrap_or(address).to_lowercase();
        summary.push_str(&format!(
            "  {address:<28} {}\n",
            mail_root.join(local).display()
        ));
    }
    summary.push_str(&format!(
        "  (orders went to the campaign's inbox {})\n",
        inbox_path.display()
    ));
    // After `cargo run` realmgm is not on the PATH: name the binary that
    // ran, so the command works as printed.
    let binary = std::env::current_exe()
        .map_or_else(|_| "realmgm".to_string(), |path| path.display().to_string());
    summary.push_str(&format!(
        "Look around with `{binary} gm --db {} --campaign {} status` or `log`\n\
         (`cargo install --path .` puts `realmgm` on your PATH).\n\
         Play on by hand: put each player's mail in {inbox}/new (From: his address, Subject: [{}] orders,\n\
         the Password: line of his mails in {inbox}/cur, then his orders), run\n\
         `{binary} daemon --db {} --once`, and read the answers in {}/new.\n\
         The next day runs once all three players' orders are in (its deadline is years away on the demo's clock).",
        db_path.display(),
        campaign.name,
        campaign.name,
        db_path.display(),
        outbox_path.display(),
        inbox = inbox_path.display(),
    ));
    super::emit(summary)
}

/// How many days the demo plays.
const DAYS: u32 = 7;

/// A player's orders as a plain mail to the GM, as a mail client sends it.
fn player_mail(campaign: &Campaign, from: &str, day: u32, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {gm}\r\nSubject: [{tag}] orders for day {day}\r\n\
         Message-ID: <demo-{day}-{from}>\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{body}",
        gm = campaign.gm.email.as_str(),
        tag = campaign.name,
        body = body.replace('\n', "\r\n"),
    )
    .into_bytes()
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
