//! `realmgm campaign new|show|list|edit`: store a campaign file with its
//! players, look at stored campaigns, and apply an edited file
//! ([`crate::campaign::edit`] decides what may change).
//!
//! The database is `--db PATH`, else `$REALMGM_DB`, else `realmgm.sqlite`
//! in the current folder. The clock is read here, at the edge, and handed to
//! the store.

use crate::mail::maildir::Maildir;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::campaign::{Campaign, format_utc};
use crate::games::GAMES;
use crate::store::{PlayerSecret, Store, StoredCampaign};

/// The database file used when neither `--db` nor `REALMGM_DB` names one.
pub const DEFAULT_DB: &str = "realmgm.sqlite";

/// ` --db PATH` for a command the program prints, so it works as printed
/// on the database the GM named; nothing for the default one.
pub(crate) fn db_option(path: &Path) -> String {
    if path == Path::new(DEFAULT_DB) {
        String::new()
    } else {
        format!(" --db {}", path.display())
    }
}

#[derive(Debug, clap::Args)]
pub(crate) struct DbArg {
    /// The database file.
    #[arg(long, value_name = "PATH", global = true, env = "REALMGM_DB", default_value = DEFAULT_DB)]
    db: PathBuf,
}

impl DbArg {
    pub(crate) fn path(&self) -> PathBuf {
        self.db.clone()
    }

    /// The folder relative mail folders are anchored at: the real
    /// database's, so every path that reaches one database (a link, `..`)
    /// reads and writes the same Maildirs. Where the real path cannot be
    /// found, opening the database fails with the reason; until then the
    /// path as typed stands in.
    pub(crate) fn mail_base(&self) -> PathBuf {
        let path = self.real_path(true).unwrap_or_else(|_| self.path());
        path.parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
    }

    /// The database's real path ([`super::db_path`]); a missing file is an
    /// error unless `create`.
    pub(crate) fn real_path(&self, create: bool) -> anyhow::Result<PathBuf> {
        super::db_path::real_path(&self.path(), create)
    }

    /// Open the database by its real path, creating it if `create`;
    /// otherwise a missing file is an error rather than a new empty
    /// database. Returns the store and the path as the GM named it.
    pub(crate) fn open(&self, create: bool) -> anyhow::Result<(Store, PathBuf)> {
        let real = self.real_path(create)?;
        Ok((open_real(&real)?, self.path()))
    }

    /// Wait for the daemon's round to end and hold the database's round
    /// lock: every command that changes a campaign takes it first.
    ///
    /// # Errors
    /// The daemon keeps working past [`super::lock::ROUND_PATIENCE`], or
    /// the database's path is refused ([`Self::real_path`]).
    pub(crate) fn wait_for_round(&self, create: bool) -> anyhow::Result<super::lock::RoundLock> {
        super::lock::RoundLock::wait(&self.real_path(create)?, super::lock::ROUND_PATIENCE)
    }
}

/// The store of the database at its real path `real`.
pub(crate) fn open_real(real: &Path) -> anyhow::Result<Store> {
    Store::open(real, GAMES).with_context(|| format!("cannot open the database {}", real.display()))
}

#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// The campaign file (TOML), e.g. campaigns/bimr3.toml.
    file: PathBuf,
    #[command(flatten)]
    db: DbArg,
}

#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The campaign's name (its mail tag, any case).
    name: String,
    /// Print JSON: the campaign's settings as stored and its players now.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    db: DbArg,
}

#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// Print JSON: one object per campaign (name, game, created, players,
    /// latest_day), for scripts.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    db: DbArg,
}

#[derive(Debug, clap::Args)]
pub struct EditArgs {
    /// The campaign's name (its mail tag, any case).
    name: String,
    /// The edited campaign file (TOML).
    file: PathBuf,
    /// Show the changes without storing them.
    #[arg(long)]
    dry_run: bool,
    #[command(flatten)]
    db: DbArg,
}

/// `campaign edit NAME FILE`: compare the edited file with the stored
/// settings, print each change with what happens to it, and store the
/// applied ones unless one is refused (then nothing is stored).
pub fn edit(args: &EditArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read the campaign file {}", args.file.display()))?;
    let edited = Campaign::parse_stored(&args.file.display().to_string(), &text, GAMES)?;
    let _round = args.db.wait_for_round(false)?;
    let (mut store, _) = args.db.open(false)?;
    let stored = store.campaigns().load(&args.name)?;
    let edited = crate::campaign::edit::as_meant(&stored.campaign, edited, &text);
    let latest = store.days().latest_number(&stored.campaign.name)?;
    let found = crate::campaign::edit::changes(&stored.campaign, &edited, latest.is_some());
    let (mut report, applied) = render_edit(&stored.campaign.name, &found);
    if edited.rules_version != stored.campaign.rules_version {
        let next_day = latest.map_or(0, |day| day + 1);
        report.push_str(&rules_move(&stored.campaign, next_day));
    }
    let updated = crate::campaign::edit::apply(&stored.campaign, &edited, &found);
    match updated {
        None => bail!(
            "{report}
Nothing was stored: remove the refused changes from the file and run `campaign edit` again."
        ),
        Some(_) if args.dry_run || applied == 0 => super::emit(report.trim_end())?,
        Some(updated) => {
            store.campaigns_mut().update(&updated, &text)?;
            let now = super::now()?;
            for change in &found {
                if change.verdict == crate::campaign::edit::Verdict::Applied {
                    store.control_mut().log_gm(
                        Some(&updated.name),
                        now,
                        "gm",
                        &format!(
                            "campaign edited: {} {} -> {}",
                            change.field, change.before, change.after
                        ),
                        None,
                    )?;
                }
            }
            create_maildirs(&updated, &args.db.mail_base())?;
            super::emit(report.trim_end())?;
            super::emit(format!(
                "Stored: {} {} from now on.",
                crate::words::counted(applied, "change", "changes"),
                crate::words::agreeing(applied, "applies", "apply")
            ))?;
        }
    }
    Ok(())
}

/// What moving `campaign` to the rules this realmgm plays changes, version
/// by version, from day `next_day` on.
fn rules_move(campaign: &Campaign, next_day: u32) -> String {
    let Some(game) = GAMES.find(&campaign.game) else {
        return String::new();
    };
    let mut out = format!(
        "Once stored, the campaign plays rules version {} ({}) from day {next_day} on; the days \
         before keep the rules they were played under. What changes:\n",
        game.rules_versions().current.number,
        game.rules_versions().current.name
    );
    for change in game.rules_versions().changes_after(campaign.rules_version) {
        out.push_str("  - ");
        out.push_str(change);
        out.push('\n');
    }
    out
}

/// The changes as the GM reads them, and how many apply.
fn render_edit(name: &str, changes: &[crate::campaign::edit::Change]) -> (String, usize) {
    use crate::campaign::edit::Verdict;
    if changes.is_empty() {
        return (
            format!(
                "The file changes nothing in campaign {name}.
"
            ),
            0,
        );
    }
    let mut out = format!(
        "Changes to campaign {name}:
"
    );
    let mut applied = 0;
    for change in changes {
        let what = match &change.verdict {
            Verdict::Applied => {
                applied += 1;
                "applies".to_string()
            }
            Verdict::Refused(why) => format!("REFUSED: {why}"),
            Verdict::Kept(why) => format!("not applied: {why}"),
        };
        out.push_str(&format!(
            "  {}: {} -> {}
    {what}
",
            change.field, change.before, change.after
        ));
    }
    (out, applied)
}

/// `campaign new FILE`: check the file, store it and its players, and print
/// each player's secret once.
pub fn new(args: &NewArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read the campaign file {}", args.file.display()))?;
    let campaign = Campaign::parse(&args.file.display().to_string(), &text, GAMES)?;
    let _round = args.db.wait_for_round(true)?;
    let (mut store, path) = args.db.open(true)?;
    let now = super::now()?;
    let secrets = store.campaigns_mut().insert(&campaign, &text, now)?;
    let created = create_maildirs(&campaign, &args.db.mail_base())?;
    super::emit(render_new(&campaign, &secrets, &path, &args.file, now)?.trim_end())?;
    for line in created {
        super::emit(line)?;
    }
    Ok(())
}

/// The Maildir folders the campaign's `[mail]` names, created when missing
/// so the daemon can run at once; one line per folder made. Relative paths
/// are relative to the database's folder (`base`).
pub(super) fn create_maildirs(campaign: &Campaign, base: &Path) -> anyhow::Result<Vec<String>> {
    let Some(mail) = campaign.mail.clone().map(|m| m.anchored_at(base)) else {
        return Ok(Vec::new());
    };
    let mut created = Vec::new();
    for (field, folder) in [
        ("maildir_in", &mail.maildir_in),
        ("maildir_out", &mail.maildir_out),
    ] {
        let Some(folder) = folder else { continue };
        if Maildir::open(folder).is_err() {
            Maildir::create(folder)
                .with_context(|| format!("cannot create mail.{field} {folder}"))?;
            created.push(format!(
                "Created the Maildir folder {folder} (mail.{field})."
            ));
        }
    }
    Ok(created)
}

/// `campaign show NAME`.
pub fn show(args: &ShowArgs) -> anyhow::Result<()> {
    let (store, _) = args.db.open(false)?;
    let stored = store.campaigns().load(&args.name)?;
    if args.json {
        let shown = serde_json::json!({
            "campaign": stored.campaign,
            "created": stored.created,
            "players": stored.players,
        });
        return super::emit(serde_json::to_string_pretty(&shown)?);
    }
    let played = store
        .days()
        .rules_versions_after(&stored.campaign.name, 0)?;
    super::emit(render_show(&stored, &played)?.trim_end())
}

/// The rules version a campaign plays under, and which versions its days
/// were played under when not all the same one: "version 2 (...); days
/// 1-11 played under version 1".
fn rules_line(campaign: &Campaign, played: &[(u32, u32)]) -> String {
    let Some(game) = GAMES.find(&campaign.game) else {
        return format!("rules version {}", campaign.rules_version);
    };
    let versions = game.rules_versions();
    let mut line = format!("rules version {}", campaign.rules_version);
    if let Some(version) = versions.find(campaign.rules_version) {
        line.push_str(&format!(" ({})", version.name));
    }
    if campaign.rules_version != versions.current.number {
        line.push_str(&format!(
            "; this realmgm plays only version {}: the campaign is held until `campaign edit` \
             moves it on",
            versions.current.number
        ));
    }
    // Runs of days under one version, in order: (version, first, last).
    let mut spans: Vec<(u32, u32, u32)> = Vec::new();
    for &(day, version) in played {
        match spans.last_mut() {
            Some((v, _, last)) if *v == version => *last = day,
            _ => spans.push((version, day, day)),
        }
    }
    if spans.iter().any(|&(v, _, _)| v != campaign.rules_version) {
        let told: Vec<String> = spans
            .iter()
            .map(|&(version, first, last)| {
                let days = if first == last {
                    format!("day {first}")
                } else {
                    format!("days {first}-{last}")
                };
                format!("{days} played under version {version}")
            })
            .collect();
        line.push_str(&format!("; {}", told.join(", ")));
    }
    line
}

/// `campaign list`.
pub fn list(args: &ListArgs) -> anyhow::Result<()> {
    let (store, path) = args.db.open(false)?;
    let campaigns = store.campaigns().list()?;
    if args.json {
        return super::emit(serde_json::to_string_pretty(&campaigns)?);
    }
    if campaigns.is_empty() {
        super::emit(format!(
            "No campaigns in {}; add one with `realmgm campaign new FILE`.",
            path.display()
        ))?;
    }
    for c in campaigns {
        let day = c
            .latest_day
            .map_or("not started".to_string(), |day| format!("day {day}"));
        super::emit(format!(
            "{:<16} {:<16} {} players, {day}, created {}",
            c.name,
            c.game,
            c.players,
            format_utc(c.created)
        ))?;
    }
    Ok(())
}

/// What `campaign new` prints; `file` is the campaign file it read.
fn render_new(
    campaign: &Campaign,
    secrets: &[PlayerSecret],
    path: &Path,
    file: &Path,
    now: i64,
) -> anyhow::Result<String> {
    let count = match secrets.len() {
        1 => "1 player".to_string(),
        n => format!("{n} players"),
    };
    let mut out = format!(
        "Stored campaign {} ({}, {count}) in {}.\n",
        campaign.name,
        campaign.game,
        path.display()
    );
    if !secrets.is_empty() {
        out.push_str(
            "\nPlayer secrets. They are shown only this once; send each player his own, \
             privately. A player proves his mails are his with it.\n",
        );
        for s in secrets {
            // A team's seat: its secret goes to every address of the team.
            let also = team_note(campaign, &s.player);
            out.push_str(&format!(
                "  {} <{}>{also}: {}\n",
                s.player, s.email, s.secret
            ));
        }
    }
    // Each command below works as printed, whichever database the GM named.
    let db = db_option(path);
    // Magic Realm sets up only once every seat has a character; without
    // setup by mail nothing asks the player to choose, so the game would
    // hold at its first look with no word to him.
    let chooses_by_mail = campaign.mail.as_ref().is_some_and(|m| m.setup_by_mail);
    if campaign.game == "magic-realm" && !chooses_by_mail {
        for player in campaign.players.iter().filter(|p| p.character.is_none()) {
            out.push_str(&format!(
                "\nWarning: {} has no character, and nothing will ask him to choose one, so the \
                 game holds before day 1: set [mail] setup_by_mail = true in the file and run \
                 `realmgm campaign edit {} {}{db}`, and he chooses by mail.\n",
                player.name,
                campaign.name,
                file.display()
            ));
        }
    }
    let first = campaign.schedule.first_deadline_unix();
    if first <= now {
        out.push_str(&format!(
            "\nWarning: the first deadline ({}) has already passed; set a later \
             [schedule] first_deadline in the file if that is not what you meant.\n",
            format_utc(first)
        ));
    }
    out.push_str(&format!(
        "\nSee it all with `realmgm campaign show {}{db}`.\n",
        campaign.name
    ));
    Ok(out)
}

/// What `campaign show` prints: everything the file said, with the players
/// as stored now.
fn render_show(stored: &StoredCampaign, played: &[(u32, u32)]) -> anyhow::Result<String> {
    let c = &stored.campaign;
    let mut out = format!("Campaign {}", c.name);
    if let Some(title) = &c.title {
        out.push_str(&format!(": {title}"));
    }
    out.push('\n');
    if let Some(description) = &c.description {
        for line in description.trim().lines() {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out.push_str(&format!("Game:      {}\n", c.game));
    out.push_str(&format!("Seed:      {}\n", c.seed));
    out.push_str(&format!("Edition:   {}\n", rules_line(c, played)));
    let gm = match &c.gm.name {
        Some(name) => format!("{name} <{}>", c.gm.email),
        None => c.gm.email.to_string(),
    };
    out.push_str(&format!("GM:        {gm}\n"));
    out.push_str(&format!("Created:   {}\n", format_utc(stored.created)));
    let limit = c
        .max_players
        .map_or(String::new(), |max| format!(" (at most {max})"));
    out.push_str(&format!("Players:   {}{limit}\n", stored.players.len()));
    for p in &stored.players {
        let character = p.character.as_deref().unwrap_or("not chosen");
        let team = team_note(c, &p.name);
        out.push_str(&format!("  {} <{}>{team}: {character}\n", p.name, p.email));
    }
    out.push_str("Schedule:\n");
    for line in c.schedule_lines(GAMES) {
        out.push_str(&format!("  {line}\n"));
    }
    if let Some(calendar) = &c.calendar {
        let months = if calendar.months == 1 {
            "month"
        } else {
            "months"
        };
        out.push_str(&format!("Calendar:  {} {months}", calendar.months));
        if let Some(season) = &calendar.start_season {
            out.push_str(&format!(", starting in {season}"));
        }
        out.push_str(&format!(", {} victory points\n", calendar.victory_points));
    }
    let templates = c.template_folder.as_deref().unwrap_or("built in");
    out.push_str(&format!("Templates: {templates}\n"));
    out.push_str(&format!("Pages:     {}\n", site_line(c)));
    if let Some(profile) = &c.rules_profile {
        out.push_str(&format!("Rule set:  {profile}\n"));
    }
    let toggles = c.toggles_on(GAMES)?;
    if toggles.is_empty() {
        out.push_str("Rules:     none beyond the standard rules\n");
    } else {
        out.push_str("Rules:\n");
        for t in toggles {
            out.push_str(&format!("  {}\n", t.name));
            out.push_str(&format!("      {}\n", t.summary));
            out.push_str(&format!("      source: {}\n", t.source));
        }
    }
    Ok(out)
}

/// What the campaign's public pages show and where the daemon writes them.
fn site_line(campaign: &Campaign) -> String {
    let site = campaign.site.clone().unwrap_or_default();
    let mut line = match (site.publish, site.delay_days) {
        (crate::campaign::Publish::Delayed, Some(days)) => {
            let plural = if days == 1 { "" } else { "s" };
            format!("delayed: each day's records {days} day{plural} after it")
        }
        (crate::campaign::Publish::End, _) => {
            "end: the public news until the end, then everything".into()
        }
        _ => "public: what every player learns".into(),
    };
    if site.standings {
        line.push_str("; standings shown");
    }
    match &site.out {
        Some(out) => line.push_str(&format!("; rebuilt by the daemon in {out}")),
        None => line.push_str("; built by `realmgm site build`"),
    }
    line
}

/// ` (team: a, b)` after a team seat's address; nothing for a seat alone.
fn team_note(campaign: &Campaign, player: &str) -> String {
    let team = campaign.team_of(player);
    if team.is_empty() {
        String::new()
    } else {
        format!(" (team: {})", team.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STANDARD: &str = include_str!("../../campaigns/standard.toml");
    const BIMR3: &str = include_str!("../../campaigns/bimr3.toml");
    const NOW: i64 = 1_740_859_200;

    #[test]
    fn relative_mail_folders_are_the_real_databases_whatever_path_reaches_it() {
        let dir = std::env::temp_dir().join(format!("realmgm-mail-base-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("real")).unwrap();
        std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
        let real = dir.join("real/realmgm.sqlite");
        std::fs::write(&real, b"").unwrap();
        let link = dir.join("elsewhere/realmgm.sqlite");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let through_link = DbArg { db: link }.mail_base();
        let direct = DbArg { db: real }.mail_base();
        assert_eq!(through_link, direct);
        assert_eq!(direct, std::fs::canonicalize(dir.join("real")).unwrap());
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn stored(file: &str, text: &str) -> StoredCampaign {
        let mut store = Store::open_in_memory(GAMES).unwrap();
        let campaign = Campaign::parse(file, text, GAMES).unwrap();
        store.campaigns_mut().insert(&campaign, text, NOW).unwrap();
        store.campaigns().load(&campaign.name).unwrap()
    }

    #[test]
    fn show_prints_what_the_standard_file_says() {
        let shown = render_show(&stored("standard.toml", STANDARD), &[]).unwrap();
        let expected = "\
Campaign MR1: Standard Magic Realm
  One month in the Realm on the 2nd-edition rules, no optional rules.
Game:      magic-realm
Seed:      20250301
Edition:   rules version 4 (the third edition, release 3.1: the day, trade, Midnight and scoring)
GM:        Game Master <gm@example.org>
Created:   2025-03-01 20:00 UTC
Players:   4 (at most 6)
  Alice <alice@example.org>: Amazon
  Bob <bob@example.org>: Dwarf
  Carol <carol@example.org>: White Knight
  Dave <dave@example.org>: not chosen
Schedule:
  first deadline 2030-03-01 20:00 UTC, then every 48 hours
  early processing: 60 minutes after the last orders arrive
  reminders: 12 hours before the deadline
  no orders received: the game's safe orders (hide in every phase)
Calendar:  1 month, 5 victory points
Templates: built in
Pages:     public: what every player learns; built by `realmgm site build`
Rules:     none beyond the standard rules
";
        assert_eq!(shown, expected);
    }

    #[test]
    fn show_names_the_rules_version_and_the_days_played_under_older_rules() {
        let mut stored = stored("standard.toml", STANDARD);
        stored.campaign.rules_version = 1;
        let shown = render_show(&stored, &[(1, 1), (2, 1), (3, 1)]).unwrap();
        assert!(
            shown.contains(
                "Edition:   rules version 1 (the seed summaries (2nd-edition play summary, magic \
                 primer, optional combat)); this realmgm plays only version 4: the campaign is \
                 held until `campaign edit` moves it on\n"
            ),
            "{shown}"
        );
        stored.campaign.rules_version = 4;
        let shown = render_show(&stored, &[(1, 1), (2, 2), (3, 3)]).unwrap();
        assert!(
            shown.contains(
                "Edition:   rules version 4 (the third edition, release 3.1: the day, trade, \
                 Midnight and scoring); day 1 played under version 1, day 2 played under version \
                 2, day 3 played under version 3\n"
            ),
            "{shown}"
        );
    }

    #[test]
    fn show_lists_the_bimr3_rules_and_calendar() {
        let stored = stored("bimr3.toml", BIMR3);
        let shown = render_show(&stored, &[]).unwrap();
        assert!(
            shown.contains("Calendar:  1 month, starting in Autumn, 5 victory points\n"),
            "{shown}"
        );
        for toggle in stored.campaign.toggles_on(GAMES).unwrap() {
            assert!(
                shown.contains(&format!("  {}\n", toggle.name)),
                "{}",
                toggle.name
            );
        }
        assert!(
            shown.contains("  Ivan <ivan@example.org>: not chosen\n"),
            "{shown}"
        );
        assert!(shown.contains("early processing: 120 minutes"), "{shown}");
    }

    #[test]
    fn new_prints_each_secret_and_warns_of_a_past_deadline() {
        let campaign = Campaign::parse("bimr3.toml", BIMR3, GAMES).unwrap();
        let secrets = vec![PlayerSecret {
            player: "Erin".into(),
            email: "erin@example.org".into(),
            secret: "aaaa-bbbb-cccc-dddd".into(),
        }];
        let first = campaign.schedule.first_deadline_unix();
        let out = render_new(
            &campaign,
            &secrets,
            Path::new("x.sqlite"),
            Path::new("c.toml"),
            first - 1,
        )
        .unwrap();
        assert!(out.starts_with("Stored campaign BIMR3 (magic-realm, 1 player) in x.sqlite."));
        assert!(
            out.contains("  Erin <erin@example.org>: aaaa-bbbb-cccc-dddd\n"),
            "{out}"
        );
        assert!(!out.contains("Warning"), "{out}");
        assert!(
            out.contains("`realmgm campaign show BIMR3 --db x.sqlite`"),
            "{out}"
        );
        let default = render_new(
            &campaign,
            &secrets,
            Path::new(DEFAULT_DB),
            Path::new("c.toml"),
            first - 1,
        )
        .unwrap();
        assert!(
            default.contains("`realmgm campaign show BIMR3`"),
            "{default}"
        );
        let late = render_new(
            &campaign,
            &secrets,
            Path::new("x.sqlite"),
            Path::new("c.toml"),
            first,
        )
        .unwrap();
        let mut unasked = Campaign::parse("standard.toml", STANDARD, GAMES).unwrap();
        let seated = render_new(
            &unasked,
            &secrets,
            Path::new("x.sqlite"),
            Path::new("c.toml"),
            first - 1,
        )
        .unwrap();
        assert!(!seated.contains("has no character"), "{seated}");
        if let Some(mail) = unasked.mail.as_mut() {
            mail.setup_by_mail = false;
        }
        let warned = render_new(
            &unasked,
            &secrets,
            Path::new("x.sqlite"),
            Path::new("c.toml"),
            first - 1,
        )
        .unwrap();
        assert!(
            warned.contains("Warning: Dave has no character, and nothing will ask him to choose"),
            "{warned}"
        );
        assert!(
            warned.contains("`realmgm campaign edit MR1 c.toml --db x.sqlite`"),
            "{warned}"
        );
        assert!(late.contains("Warning: the first deadline (2030-09-01 20:00 UTC) has already"));
    }
}
