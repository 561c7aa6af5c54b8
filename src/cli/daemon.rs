//! `realmgm daemon`, `realmgm ingest`, `realmgm gm ...` and `realmgm
//! doctor`: the mail daemon's loop and the GM's controls on the command
//! line. Mail settings come from the campaign file's `[mail]` table, with
//! passwords from the environment variables it names, or with OAuth an
//! access token got before each session (`mail_login`). The clock is read
//! here, at the edge.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};

use crate::campaign::{AuthName, Campaign, MailSettings};
use crate::daemon::gm::DayToProcess;
use crate::daemon::mail_in::ingest::mailbox_key;
use crate::daemon::turns::process::TurnOutcome;
use crate::daemon::{Daemon, guard};
use crate::mail::imap::{ImapClient, ImapSettings};
use crate::mail::maildir::Maildir;
use crate::mail::transport::{MailTransport, MaildirMailer, Mechanism, SmtpMailer, SmtpSettings};
use crate::store::MailboxMode;

use super::campaign::{DbArg, db_option};
use super::idle::{self, Watchers};
use super::{emit, now};

#[derive(Debug, clap::Args)]
pub struct DaemonArgs {
    /// A campaign to run, by tag; repeat for several [default: every
    /// campaign in the database].
    #[arg(long)]
    campaign: Vec<String>,
    /// Run one round (collect, answer, schedule, send) and stop.
    #[arg(long)]
    once: bool,
    /// Seconds between rounds [default: the campaign's mail.poll_seconds, else 60].
    #[arg(long)]
    poll_seconds: Option<u64>,
    /// How log lines are written: text for a person, json for a log collector.
    #[arg(long, value_enum, default_value_t)]
    log_format: super::log::LogFormat,
    /// Log more: -v adds the quiet rounds, -vv everything.
    #[arg(short, long, action = clap::ArgAction::Count)]
    verbose: u8,
    #[command(flatten)]
    db: DbArg,
}

#[derive(Debug, clap::Args)]
pub struct IngestArgs {
    #[command(flatten)]
    db: DbArg,
}

#[derive(Debug, clap::Args)]
pub struct DoctorArgs {
    /// The campaign whose mail settings to check.
    #[arg(long)]
    campaign: String,
    /// Print JSON: {"campaign", "problems", "checks": [{"ok", "line"}]}; the
    /// exit status still says whether there were problems.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    db: DbArg,
}

#[derive(Debug, clap::Args)]
pub struct GmArgs {
    /// The campaign, by tag; before or after the command
    /// (`gm --campaign C status` or `gm status --campaign C`).
    #[arg(long, global = true)]
    campaign: Option<String>,
    #[command(subcommand)]
    command: GmCommand,
    #[command(flatten)]
    db: DbArg,
}

#[derive(Debug, clap::Subcommand)]
pub enum GmCommand {
    /// Who has orders in for the pending turn; deadline, pause and hold.
    /// Without `--campaign`, every stored campaign's.
    Status {
        /// Print JSON, for scripts and monitoring.
        #[arg(long)]
        json: bool,
    },
    /// Run the pending turn now, whatever the schedule says; refused when
    /// the daemon ran it meanwhile and another day is pending.
    Process {
        /// The day to run, as `gm status` showed it pending [default: the
        /// day pending when the command starts].
        #[arg(long)]
        day: Option<u32>,
    },
    /// Show the reports the pending turn would give now, storing nothing.
    Preview,
    /// Go back to the end of a day; the next day runs again from its kept orders.
    Rollback {
        #[arg(long)]
        day: u32,
        /// Roll back even past days played under older rules: they are
        /// played again under the rules this realmgm plays.
        #[arg(long)]
        new_rules: bool,
    },
    /// Enter or replace a player's orders for the pending turn (from a file or stdin).
    Orders {
        #[arg(long)]
        player: String,
        /// The orders file; stdin when absent.
        #[arg(long)]
        file: Option<PathBuf>,
    },
    /// Stop the deadlines.
    Pause,
    /// Start the deadlines again and let the pending turn run despite a hold.
    Resume,
    /// Move the pending deadline later.
    Extend {
        #[arg(long)]
        hours: u32,
    },
    /// Send a player's report again (his latest, or of --day).
    Resend {
        #[arg(long)]
        player: String,
        #[arg(long)]
        day: Option<u32>,
    },
    /// Tell every player some news now; the pending day's reports open with it.
    Announce {
        /// The news, as the players will read it.
        text: String,
    },
    /// Write the GM's narrative of a day (the latest processed when --day is
    /// absent): his history shows it; players' reports do not.
    Narrate {
        /// The narrative.
        text: String,
        #[arg(long)]
        day: Option<u32>,
    },
    /// Add a player, or give an existing seat (--replace NAME) to a new address.
    AddPlayer {
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        email: String,
        #[arg(long)]
        character: Option<String>,
        /// The seat to hand over.
        #[arg(long)]
        replace: Option<String>,
    },
    /// Give a seat to a new address (the old secret stops working), and with
    /// --character to another character, who enters at the Inn next day.
    Replace {
        #[arg(long)]
        player: String,
        #[arg(long)]
        email: String,
        #[arg(long)]
        character: Option<String>,
    },
    /// A player leaves: no more mail; his character leaves the Realm next
    /// day, or with --keep-character is played as when orders are missing.
    RemovePlayer {
        #[arg(long)]
        player: String,
        #[arg(long)]
        keep_character: bool,
    },
    /// Make a ruling carried out as the pending day begins, e.g.
    /// `gm --campaign C rule "give Gold Helmet to Amazon" --why "lost on day 11"`; forms:
    /// give/take ITEM to/from CHARACTER, gold|fame|notoriety CHARACTER +N,
    /// move CHARACTER|DENIZEN to CLEARING, chit CHARACTER CHIT
    /// active|fatigued|wounded, heal CHARACTER, kill CHARACTER, discover SITE|CV2-CV5 for
    /// CHARACTER, replace CHARACTER with CHARACTER, starting CHARACTER victory GT 1, SP 0,
    /// F 2, N 1, G 1 [spells SPELL; SPELL] (a late joiner's starting info, before he enters).
    Rule {
        /// The ruling.
        text: String,
        /// The reason, as the players concerned will read it.
        #[arg(long, default_value = "")]
        why: String,
    },
    /// Take back a ruling of the pending day (its id from `gm rule` or `gm status`).
    WithdrawRuling { id: i64 },
    /// Make a new GM secret for commands by mail (printed once).
    Secret,
    /// The GM's log: strangers, bounces, holds, late orders.
    Log,
    /// Mail set aside because handling it failed: list it, or read one again.
    #[command(subcommand)]
    Mail(MailCommand),
}

impl GmCommand {
    /// Whether the command only reads, and so need not wait for the
    /// daemon's round.
    fn only_reads(&self) -> bool {
        matches!(
            self,
            GmCommand::Status { .. }
                | GmCommand::Preview
                | GmCommand::Log
                | GmCommand::Mail(MailCommand::List)
        )
    }
}

#[derive(Debug, clap::Subcommand)]
pub enum MailCommand {
    /// The campaign's mail set aside as failed, with the reasons.
    List,
    /// Read a failed mail again once its cause is fixed.
    Retry {
        #[arg(long)]
        id: i64,
    },
}

fn open(db: &DbArg) -> anyhow::Result<Daemon> {
    Ok(Daemon::new(db.open(false)?.0))
}

/// The campaign with its relative mail folders anchored at the database's
/// folder, where `campaign new` made them.
fn with_mail_base(mut campaign: Campaign, db: &DbArg) -> Campaign {
    campaign.mail = campaign.mail.map(|m| m.anchored_at(&db.mail_base()));
    campaign
}

fn mail_settings(campaign: &Campaign) -> anyhow::Result<MailSettings> {
    campaign.mail.clone().with_context(|| {
        format!(
            "campaign {} has no [mail] table; add one with smtp/imap settings or maildir_in and \
             maildir_out folders (see README)",
            campaign.name
        )
    })
}

fn password(variable: &str, field: &str) -> anyhow::Result<String> {
    std::env::var(variable).with_context(|| {
        format!("the environment variable {variable} named by {field} is not set; export it with the password")
    })
}

/// The campaign's SMTP settings, when it sends by SMTP. With an OAuth
/// sign-in they carry an access token got now (from the store, or
/// refreshed).
fn smtp_settings(
    daemon: &mut Daemon,
    campaign: &Campaign,
    database: &Path,
    now: i64,
) -> anyhow::Result<Option<SmtpSettings>> {
    let Some(mail) = &campaign.mail else {
        return Ok(None);
    };
    let Some(smtp) = &mail.smtp else {
        return Ok(None);
    };
    let (password, mechanism) = if smtp.auth == AuthName::Oauth2 {
        let token = super::mail_login::access_token(daemon, campaign, database, now)?;
        (token, Mechanism::XOAuth2)
    } else {
        let password = smtp
            .password_env
            .as_deref()
            .map(|v| password(v, "mail.smtp.password_env"))
            .transpose()?;
        (password, Mechanism::Password)
    };
    Ok(Some(SmtpSettings {
        host: smtp.host.clone(),
        port: smtp.port,
        security: smtp.security.security(),
        username: smtp.user.clone(),
        password,
        mechanism,
        ca_file: mail.ca_path(),
    }))
}

/// The campaign's way to send.
fn transport(
    daemon: &mut Daemon,
    campaign: &Campaign,
    database: &Path,
    now: i64,
) -> anyhow::Result<Box<dyn MailTransport>> {
    let mail = mail_settings(campaign)?;
    if let Some(settings) = smtp_settings(daemon, campaign, database, now)? {
        return Ok(Box::new(SmtpMailer::new(&settings)?));
    }
    if let Some(folder) = &mail.maildir_out {
        return Ok(Box::new(MaildirMailer::new(folder)?));
    }
    bail!(
        "campaign {} has no way to send mail; add [mail.smtp] or mail.maildir_out",
        campaign.name
    )
}

/// The campaign's IMAP settings and folder, when it reads a mailbox. With
/// an OAuth sign-in they carry an access token got now.
fn imap_settings(
    daemon: &mut Daemon,
    campaign: &Campaign,
    database: &Path,
    now: i64,
) -> anyhow::Result<Option<(ImapSettings, String)>> {
    let Some(imap) = campaign.mail.as_ref().and_then(|m| m.imap.as_ref()) else {
        return Ok(None);
    };
    let (password, mechanism) = match (&imap.auth, &imap.password_env) {
        (AuthName::Oauth2, _) => (
            super::mail_login::access_token(daemon, campaign, database, now)?.unwrap_or_default(),
            Mechanism::XOAuth2,
        ),
        (AuthName::Password, Some(variable)) => (
            password(variable, "mail.imap.password_env")?,
            Mechanism::Password,
        ),
        (AuthName::Password, None) => {
            bail!("[mail.imap] names no password_env; add it, or sign in with auth = \"oauth2\"")
        }
    };
    Ok(Some((
        ImapSettings {
            host: imap.host.clone(),
            port: imap.port,
            security: imap.security.security(),
            username: imap.user.clone(),
            password,
            mechanism,
            timeout: Duration::from_secs(30),
            ca_file: campaign.mail.as_ref().and_then(MailSettings::ca_path),
        },
        imap.folder_or_inbox(),
    )))
}

/// Whether the campaign's pending day is past its deadline (with the GM's
/// extensions): its turn may run in this round.
fn deadline_passed(daemon: &Daemon, campaign: &Campaign, now: i64) -> bool {
    // A store that cannot tell is read rather than risk a day without mail.
    !matches!(daemon.pending_deadline(campaign), Ok(deadline) if deadline > now)
}

/// The key the store and the watchers know an IMAP mailbox by.
fn mailbox(settings: &ImapSettings, folder: &str) -> String {
    mailbox_key(&settings.username, &settings.host, settings.port, folder)
}

/// The key of the campaign's IMAP mailbox, when it reads one.
fn campaign_mailbox(campaign: &Campaign) -> Option<String> {
    let imap = campaign.mail.as_ref()?.imap.as_ref()?;
    Some(mailbox_key(
        &imap.user,
        &imap.host,
        imap.port,
        &imap.folder_or_inbox(),
    ))
}

/// The IMAP mailboxes of the served campaigns, for their IDLE watchers.
/// Got every round: a watcher whose settings changed (a refreshed OAuth
/// access token among them) starts a new session with them.
fn imap_mailboxes(
    daemon: &mut Daemon,
    campaigns: &[Campaign],
    database: &Path,
    now: i64,
) -> Vec<(String, ImapSettings, String)> {
    campaigns
        .iter()
        .filter_map(|c| imap_settings(daemon, c, database, now).ok().flatten())
        .map(|(settings, folder)| (mailbox(&settings, &folder), settings, folder))
        .collect()
}

/// Record in the store how each served IMAP mailbox is read now, for `gm
/// status`, and tell the GM's log when a connection drops or comes back.
fn record_mailbox_modes(daemon: &mut Daemon, campaigns: &[Campaign], watchers: &Watchers) {
    for (campaign, key) in campaigns
        .iter()
        .filter_map(|c| Some((c, campaign_mailbox(c)?)))
    {
        let Some((mode, since)) = watchers.mode(&key) else {
            continue;
        };
        let detail = match &mode {
            idle::Mode::Reconnecting { error } => Some(error.clone()),
            _ => None,
        };
        let now_mode = MailboxMode {
            mode: mode.name().to_string(),
            since,
            detail,
        };
        let before = daemon.store.news().mailbox_mode(&key).ok().flatten();
        if before.as_ref() == Some(&now_mode) {
            continue;
        }
        let note = match (&mode, before.as_ref().map(|b| b.mode.as_str())) {
            // Said when it dropped; the status shows the latest error.
            (idle::Mode::Reconnecting { .. }, Some("reconnecting")) => None,
            (idle::Mode::Reconnecting { error }, _) => Some(format!(
                "IMAP mailbox {key}: the connection dropped ({error}); reconnecting with growing \
                 pauses, and polled every round meanwhile"
            )),
            (idle::Mode::Idle, Some("reconnecting")) => Some(format!(
                "IMAP mailbox {key}: reconnected; waiting in IDLE again"
            )),
            (idle::Mode::Idle, _) => Some(format!(
                "IMAP mailbox {key}: waiting in IDLE, so mail is read as it arrives"
            )),
            (_, _) => Some(format!(
                "IMAP mailbox {key}: the server offers no IDLE; polled every mail.poll_seconds"
            )),
        };
        let logged = daemon
            .store
            .news_mut()
            .set_mailbox_mode(&key, &now_mode)
            .map_err(anyhow::Error::from)
            .and_then(|()| match &note {
                Some(note) => daemon
                    .store
                    .control_mut()
                    .log_gm(Some(&campaign.name), since, "imap", note, None)
                    .map_err(anyhow::Error::from),
                None => Ok(()),
            });
        match (logged, note) {
            (Ok(()), Some(note)) => tracing::info!(campaign = %campaign.name, "{note}"),
            (Ok(()), None) => {}
            (Err(error), _) => {
                tracing::error!(campaign = %campaign.name, "cannot record it: {error:#}");
            }
        }
    }
}

/// The campaigns one daemon serves, read again from the store every round
/// (so a `campaign edit` or a new campaign is served without a restart),
/// and the last error each met, so that its GM is told of a failure once
/// and not on every round.
struct Served {
    /// The tags asked for on the command line; empty: every campaign.
    wanted: Vec<String>,
    /// Where relative mail folders are anchored: the database's folder.
    mail_base: std::path::PathBuf,
    campaigns: Vec<Campaign>,
    last_error: BTreeMap<String, String>,
}

impl Served {
    /// Read the served campaigns again. One whose record cannot be read is
    /// left out, said on the log and told to its GM once (until its error
    /// changes).
    fn refresh(&mut self, daemon: &mut Daemon) -> anyhow::Result<()> {
        let names = if self.wanted.is_empty() {
            daemon
                .store
                .campaigns()
                .list()?
                .into_iter()
                .map(|c| c.name)
                .collect()
        } else {
            self.wanted.clone()
        };
        let mut campaigns = Vec::new();
        for name in &names {
            match daemon.campaign(name) {
                Ok(stored) => {
                    let mut campaign = stored.campaign;
                    campaign.mail = campaign.mail.map(|m| m.anchored_at(&self.mail_base));
                    campaign.site = campaign.site.map(|s| s.anchored_at(&self.mail_base));
                    campaigns.push(campaign);
                }
                Err(error) => {
                    let text = format!("not served: {error:#}");
                    if self.last_error.get(name) != Some(&text) {
                        tracing::error!(campaign = %name, "{text}");
                        if let Err(error) =
                            daemon.gm().report_unreadable_campaign(name, &error, now()?)
                        {
                            tracing::error!(campaign = %name, "cannot log it: {error:#}");
                        }
                        self.last_error.insert(name.clone(), text);
                    }
                }
            }
        }
        self.campaigns = campaigns;
        Ok(())
    }
}

/// One round for the campaigns: collect (an IMAP mailbox waiting in IDLE
/// only when its watcher saw mail arrive), answer, schedule, send (mail,
/// then, outside the round lock, the webhooks' news). A failure
/// of one campaign is logged against it and the others go on; only an
/// unreadable clock or round lock ends the loop. When `stopping` turns true
/// the round ends after the mail or the campaign it is at, whose work is
/// one transaction; what is left waits for the next round. Answering the
/// mail ([`answer_mail`]) and each campaign's turn and mail hold the round
/// lock of the database at `database`, so no command of the GM changes a
/// campaign meanwhile; collecting only stores mail, and holds nothing.
fn round(
    daemon: &mut Daemon,
    served: &mut Served,
    watchers: &Watchers,
    database: &Path,
    stopping: &dyn Fn() -> bool,
) -> anyhow::Result<()> {
    use super::lock::RoundLock;
    let now = now()?;
    for campaign in &served.campaigns {
        if stopping() {
            return Ok(());
        }
        let mail = campaign.mail.clone().unwrap_or_default();
        if let Some(folder) = &mail.maildir_in
            && let Err(error) = daemon.mail_in().poll_maildir(Path::new(folder), now)
        {
            tracing::error!(campaign = %campaign.name, "cannot read {folder}: {error:#}");
        }
        match imap_settings(daemon, campaign, database, now) {
            Ok(Some((settings, folder))) => {
                let key = mailbox(&settings, &folder);
                // A mailbox watched in IDLE is read when mail arrives, and
                // always before a turn whose deadline has passed.
                let fetch = watchers.to_fetch(&key, now).or_else(|| {
                    deadline_passed(daemon, campaign, now).then(|| watchers.fetch_now(&key))
                });
                if let Some(fetch) = fetch {
                    match daemon.mail_in().poll_imap(&settings, &folder, now) {
                        Ok(_) => watchers.fetched(&key, fetch, now),
                        Err(error) => tracing::warn!(campaign = %campaign.name, "IMAP: {error:#}"),
                    }
                }
            }
            Ok(None) => {}
            Err(error) => tracing::error!(campaign = %campaign.name, "{error:#}"),
        }
    }
    answer_mail(daemon, database, now, stopping)?;
    let mut outside_sent = false;
    for campaign in &served.campaigns {
        if stopping() {
            return Ok(());
        }
        let turn = RoundLock::hold(database)?;
        let result = guard::contained(|| turn_and_send(daemon, campaign, database, now));
        match result {
            Ok(lines) => {
                served.last_error.remove(&campaign.name);
                if lines.is_empty() {
                    tracing::debug!(campaign = %campaign.name, "waiting; nothing to send");
                }
                for line in lines {
                    tracing::info!(campaign = %campaign.name, "{line}");
                }
            }
            Err(error) => {
                daemon.store.abandon_work();
                let text = format!("{error:#}");
                tracing::error!(campaign = %campaign.name, "{text}");
                if served.last_error.get(&campaign.name) != Some(&text) {
                    let message = format!(
                        "The daemon met an error serving {}: {text}. The other campaigns go \
                         on; this one is tried again every round.",
                        campaign.name
                    );
                    if let Err(error) = daemon.outbox().tell_gm(
                        campaign,
                        "error",
                        "daemon error",
                        &message,
                        None,
                        now,
                    ) {
                        tracing::error!(campaign = %campaign.name, "cannot tell the GM: {error:#}");
                    }
                    served.last_error.insert(campaign.name.clone(), text);
                }
                // The failure came before the campaign's own send step: its
                // due mail, the notice just queued among it, goes out now.
                match send_campaign_mail(daemon, campaign, database, now) {
                    Ok(Some(line)) => tracing::info!(campaign = %campaign.name, "{line}"),
                    Ok(None) => {}
                    Err(error) => tracing::error!(campaign = %campaign.name, "outbox: {error:#}"),
                }
            }
        }
        // Posting touches only the news' own rows: a slow webhook keeps no
        // GM command waiting for the round.
        drop(turn);
        match guard::contained(|| post_news(daemon, campaign, now)) {
            Ok(Some(line)) => tracing::info!(campaign = %campaign.name, "{line}"),
            Ok(None) => {}
            Err(error) => tracing::error!(campaign = %campaign.name, "news: {error:#}"),
        }
        // Notices about unreadable campaigns go out through the first
        // transport that works.
        if !outside_sent && let Ok(transport) = transport(daemon, campaign, database, now) {
            outside_sent = true;
            if let Err(error) = daemon
                .outbox()
                .send_due_outside_campaigns(transport.as_ref(), now)
            {
                tracing::error!("outbox: {error:#}");
            }
        }
    }
    Ok(())
}

/// How long the daemon answers mail under one hold of the round lock: a
/// heap of mail is answered in slices, and a command of the GM waiting for
/// the round gets in between two of them.
const ANSWER_SLICE: Duration = Duration::from_secs(1);

/// Answer the stored mail under the round lock of the database at
/// `database`, in slices of [`ANSWER_SLICE`], and log what each mail did.
/// One failed mail is set aside inside; an error of the store ends the
/// answering, and the mail stays new for the next round.
///
/// # Errors
/// The round lock cannot be taken.
fn answer_mail(
    daemon: &mut Daemon,
    database: &Path,
    now: i64,
    stopping: &dyn Fn() -> bool,
) -> anyhow::Result<()> {
    loop {
        let round = super::lock::RoundLock::hold(database)?;
        let started = std::time::Instant::now();
        let slice_over = std::cell::Cell::new(false);
        let go_on = || {
            slice_over.set(started.elapsed() >= ANSWER_SLICE);
            !slice_over.get() && !stopping()
        };
        let answered = daemon.mail_in().handle_stored_while(now, &go_on);
        drop(round);
        match answered {
            Ok(handled) => {
                for (id, note) in handled {
                    tracing::info!(mail = id, "{note}");
                }
            }
            Err(error) => {
                tracing::error!("mail: {error:#}; tried again next round");
                return Ok(());
            }
        }
        if !slice_over.get() || stopping() {
            return Ok(());
        }
        std::thread::sleep(super::lock::GIVE_WAY);
    }
}

/// A campaign's turn checked and its due mail sent; the lines to log.
fn turn_and_send(
    daemon: &mut Daemon,
    campaign: &Campaign,
    database: &Path,
    now: i64,
) -> anyhow::Result<Vec<String>> {
    let mut lines = Vec::new();
    let done = daemon.turns().check_turn(&campaign.name, now)?;
    if done != "waiting" {
        lines.push(done);
    }
    if let Some(out) = campaign.site.as_ref().and_then(|s| s.out.as_deref()) {
        lines.extend(
            daemon
                .site()
                .refresh_site(&campaign.name, std::path::Path::new(out), now)?,
        );
    }
    lines.extend(send_campaign_mail(daemon, campaign, database, now)?);
    if campaign.notify.is_some() && daemon.news().deadline_near(&campaign.name, now)? {
        lines.push("the deadline is near: news queued for [notify]".to_string());
    }
    let pruned = daemon.outbox().prune_sent(campaign, now)?;
    if pruned > 0 {
        lines.push(format!(
            "pruned {pruned} sent mails past mail.keep_sent_days (their reports stay)"
        ));
    }
    Ok(lines)
}

/// Post a campaign's due news to its webhooks; the line to log, if any
/// was due.
fn post_news(daemon: &mut Daemon, campaign: &Campaign, now: i64) -> anyhow::Result<Option<String>> {
    if campaign.notify.is_none() {
        return Ok(None);
    }
    let news = daemon.news().send_due(campaign, now)?;
    Ok((news.sent + news.deferred + news.failed > 0).then(|| {
        format!(
            "news sent {}, deferred {}, given up {}",
            news.sent, news.deferred, news.failed
        )
    }))
}

/// Send a campaign's due mail; the line to log, if any was due.
fn send_campaign_mail(
    daemon: &mut Daemon,
    campaign: &Campaign,
    database: &Path,
    now: i64,
) -> anyhow::Result<Option<String>> {
    let transport = match transport(daemon, campaign, database, now) {
        Ok(transport) => transport,
        Err(error) => return Ok(Some(format!("{error:#}"))),
    };
    let sent = daemon
        .outbox()
        .send_due(transport.as_ref(), Some(&campaign.name), now)?;
    Ok((sent.sent + sent.deferred + sent.failed > 0).then(|| {
        format!(
            "sent {}, deferred {}, failed {}",
            sent.sent, sent.deferred, sent.failed
        )
    }))
}

/// `realmgm daemon [--campaign C]... [--once]`: the campaigns named, else
/// every stored one, each round. A campaign whose record cannot be read is
/// skipped and its GM told; the others are served. One daemon at a time
/// serves a database (`lock`); SIGTERM and SIGINT let the current mail or
/// day finish and end the daemon cleanly, SIGHUP starts the next round at
/// once (`stop`).
pub fn run(args: &DaemonArgs) -> anyhow::Result<()> {
    super::log::init(args.log_format, args.verbose)?;
    let database = args.db.real_path(false)?;
    // Taken before the connection opens and dropped after it closes (locals
    // drop in reverse order): see `lock` on why that order matters.
    let _lock = super::lock::DaemonLock::take(&database)?;
    let signals = super::stop::Signals::install()?;
    let mut daemon = Daemon::new(super::campaign::open_real(&database)?);
    let mut served = Served {
        wanted: args.campaign.clone(),
        mail_base: args.db.mail_base(),
        campaigns: Vec::new(),
        last_error: BTreeMap::new(),
    };
    served.refresh(&mut daemon)?;
    remove_partial_files(&served.campaigns);
    if served.campaigns.is_empty() {
        bail!(
            "no campaign can be served: store one with `realmgm campaign new FILE`, or see the \
             lines above"
        );
    }
    let stopping = || signals.stopping();
    let mut watchers = Watchers::default();
    loop {
        if !args.once {
            let mailboxes = imap_mailboxes(&mut daemon, &served.campaigns, &database, now()?);
            watchers.serve(&mailboxes);
        }
        round(&mut daemon, &mut served, &watchers, &database, &stopping)?;
        if args.once {
            return Ok(());
        }
        record_mailbox_modes(&mut daemon, &served.campaigns, &watchers);
        let poll = args.poll_seconds.unwrap_or_else(|| {
            served
                .campaigns
                .iter()
                .filter_map(|c| c.mail.as_ref().map(|m| u64::from(m.poll_seconds())))
                .min()
                .unwrap_or(60)
        });
        match signals.wait(Duration::from_secs(poll.max(1)), &|| watchers.any_news()) {
            super::stop::Wake::Stop => {
                tracing::info!(
                    "stopping: each mail and day begun was finished, and what the round had left \
                     waits for the next start"
                );
                return Ok(());
            }
            super::stop::Wake::Reload => {
                tracing::info!("SIGHUP: the campaigns are read again and served now");
            }
            super::stop::Wake::Time => {}
            super::stop::Wake::Woken => {
                tracing::debug!("IMAP IDLE: mail arrived or a connection changed; a round now");
            }
        }
        served.refresh(&mut daemon)?;
    }
}

/// At the start, the halves of messages a killed writer left in the `tmp/`
/// of the campaigns' Maildir folders, in or out (said in the log).
fn remove_partial_files(campaigns: &[Campaign]) {
    let folders = campaigns
        .iter()
        .filter_map(|c| c.mail.as_ref())
        .flat_map(|m| [&m.maildir_in, &m.maildir_out])
        .flatten();
    for folder in folders {
        match Maildir::open(folder)
            .and_then(|m| m.remove_partial_files(std::time::SystemTime::now()))
        {
            Ok(0) => {}
            Ok(removed) => tracing::info!(
                "removed {} a killed delivery left in {folder}/tmp",
                crate::words::counted(removed, "half-written message", "half-written messages")
            ),
            Err(error) => tracing::warn!("cannot clean {folder}/tmp: {error}"),
        }
    }
}

/// `realmgm ingest < message`: store one mail from an MTA pipe and answer it.
pub fn ingest(args: &IngestArgs) -> anyhow::Result<()> {
    let mut daemon = open(&args.db)?;
    let now = now()?;
    // Stored before anything else, then answered as the daemon answers
    // mail: under the round lock (the mail may carry a GM command), waiting
    // as long as the round needs, in slices that let a waiting GM command
    // in, and the mail stored before it first.
    let inserted = daemon
        .mail_in()
        .store_from(std::io::stdin().lock(), now)
        .context("cannot store the message from stdin")?;
    answer_mail(&mut daemon, &args.db.real_path(false)?, now, &|| false)?;
    emit(format!(
        "mail {}: {}",
        inserted.id(),
        daemon.mail_in().stored_note(&inserted)?
    ))
}

/// `realmgm gm status` with no campaign named: every stored campaign's
/// status, for a GM running several and for a container's health check,
/// which cannot name them.
fn every_campaign_status(daemon: &mut Daemon, json: bool) -> anyhow::Result<String> {
    let names: Vec<String> = daemon
        .store
        .campaigns()
        .list()?
        .into_iter()
        .map(|c| c.name)
        .collect();
    if json {
        let statuses = names
            .iter()
            .map(|name| daemon.gm().status_facts(name))
            .collect::<anyhow::Result<Vec<_>>>()?;
        return Ok(serde_json::to_string_pretty(&statuses)?);
    }
    if names.is_empty() {
        return Ok("no campaign is stored; `realmgm campaign new FILE` stores one".to_string());
    }
    let texts = names
        .iter()
        .map(|name| daemon.gm().status(name))
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(texts.join("\n\n"))
}

/// `realmgm gm <command> --campaign C`.
pub fn gm(args: &GmArgs) -> anyhow::Result<()> {
    let mut daemon = open(&args.db)?;
    if let (None, GmCommand::Status { json }) = (&args.campaign, &args.command) {
        return emit(every_campaign_status(&mut daemon, *json)?);
    }
    // clap cannot require an option that may stand on either side.
    let Some(tag) = &args.campaign else {
        let db = db_option(&args.db.path());
        anyhow::bail!(
            "name the campaign with `--campaign C`, before or after the command; `realmgm \
             campaign list{db}` shows the stored ones"
        );
    };
    let campaign = daemon.campaign(tag)?.campaign;
    // Read before waiting for the daemon's round, which may run this day.
    let seen = daemon.pending_day(&campaign.name)?;
    let name = campaign.name;
    let _round = if args.command.only_reads() {
        None
    } else {
        Some(args.db.wait_for_round(false)?)
    };
    let now = now()?;
    let text = match &args.command {
        GmCommand::Status { json: false } => daemon.gm().status(&name)?,
        GmCommand::Status { json: true } => {
            serde_json::to_string_pretty(&daemon.gm().status_facts(&name)?)?
        }
        GmCommand::Process { day } => match daemon.gm().process_day(
            &name,
            day.map_or(DayToProcess::Seen(seen), DayToProcess::Named),
            now,
        )? {
            TurnOutcome::Processed { day, no_orders, .. } => format!(
                "day {day} processed; reports queued{}",
                if no_orders.is_empty() {
                    String::new()
                } else {
                    format!(" (no orders from {})", no_orders.join(", "))
                }
            ),
            TurnOutcome::Held(reason) => bail!("the turn was not processed: {reason}"),
            TurnOutcome::WaitingForCombat { day, players } => format!(
                "day {day} stopped at a combat round; asked {} for their plays (round \
                 deadline in the campaign's [mail] round_deadline_hours)",
                players.join(", ")
            ),
        },
        GmCommand::Preview => daemon.gm().preview(&name)?,
        GmCommand::Rollback { day, new_rules } if *new_rules => {
            daemon.gm().rollback_to_new_rules(&name, *day, now)?
        }
        GmCommand::Rollback { day, .. } => daemon.gm().rollback(&name, *day, now)?,
        GmCommand::Orders { player, file } => {
            let text = match file {
                Some(file) => std::fs::read_to_string(file)
                    .with_context(|| format!("cannot read {}", file.display()))?,
                None => {
                    let mut text = String::new();
                    std::io::stdin().read_to_string(&mut text)?;
                    text
                }
            };
            daemon
                .gm()
                .enter_orders(&name, player, &text, 1, None, now)?
        }
        GmCommand::Pause => daemon.gm().pause(&name, now)?,
        GmCommand::Resume => daemon.gm().resume(&name, now)?,
        GmCommand::Extend { hours } => daemon.gm().extend(&name, *hours, now)?,
        GmCommand::Resend { player, day } => daemon.gm().resend(&name, player, *day, now)?,
        GmCommand::AddPlayer {
            name: player,
            email,
            character,
            replace,
        } => {
            let secret = match (replace, player) {
                // A seat keeps its name (the game knows the character's
                // player by it): a new name is a new player.
                (Some(seat), Some(player)) if !player.eq_ignore_ascii_case(seat) => bail!(
                    "--replace {seat} gives the seat of {seat} to a new address and keeps its \
                     name, so --name {player} cannot be used with it; leave out --name, or make \
                     {player} a new player: `realmgm gm --campaign {name} remove-player --player \
                     {seat}`, then `realmgm gm --campaign {name} add-player --name {player} \
                     --email {email}`"
                ),
                (Some(seat), _) => {
                    daemon
                        .seats()
                        .replace_player(&name, seat, email, character.as_deref(), now)?
                }
                (None, Some(player)) => {
                    daemon
                        .seats()
                        .add_player(&name, player, email, character.as_deref(), now)?
                }
                (None, None) => bail!("give --name for a new player, or --replace SEAT"),
            };
            shown_once(&secret)
        }
        GmCommand::Replace {
            player,
            email,
            character,
        } => shown_once(&daemon.seats().replace_player(
            &name,
            player,
            email,
            character.as_deref(),
            now,
        )?),
        GmCommand::RemovePlayer {
            player,
            keep_character,
        } => daemon
            .seats()
            .remove_player(&name, player, *keep_character, now)?,
        GmCommand::Rule { text, why } => daemon.gm().rule(
            &name,
            &crate::game::GmRuling {
                text: text.clone(),
                why: why.clone(),
            },
            now,
        )?,
        GmCommand::WithdrawRuling { id } => daemon.gm().withdraw_ruling(&name, *id, now)?,
        GmCommand::Announce { text } => daemon.gm().announce(&name, text, now)?,
        GmCommand::Narrate { text, day } => daemon.gm().narrate(&name, *day, text, now)?,
        GmCommand::Secret => format!(
            "the GM secret of {name} is {} (shown once); put `Password: <it>` in GM mail",
            daemon.store.control_mut().new_gm_secret(&name)?
        ),
        GmCommand::Mail(MailCommand::List) => daemon.gm().failed_mail_list(&name)?,
        GmCommand::Mail(MailCommand::Retry { id }) => {
            daemon.gm().retry_failed_mail(&name, *id, now)?
        }
        GmCommand::Log => {
            let lines: Vec<String> = daemon
                .store
                .control()
                .gm_log(Some(&name))?
                .into_iter()
                .map(|e| {
                    format!(
                        "{} {}: {}",
                        crate::campaign::format_utc(e.at),
                        e.kind,
                        e.message
                    )
                })
                .collect();
            if lines.is_empty() {
                "the log is empty".to_string()
            } else {
                lines.join("\n")
            }
        }
    };
    emit(text.trim_end())
}

/// One line of the doctor's answer: a setting that works, or a problem
/// with what to do about it.
enum Check {
    Works(String),
    Problem(String),
}

impl Check {
    /// A check's outcome: the working line, or the problem's.
    fn of<E: Into<String>>(outcome: Result<String, E>) -> Check {
        match outcome {
            Ok(line) => Check::Works(line),
            Err(problem) => Check::Problem(problem.into()),
        }
    }
}

/// `realmgm doctor --campaign C`: check the mail settings and say exactly
/// what is wrong.
pub fn doctor(args: &DoctorArgs) -> anyhow::Result<()> {
    let mut daemon = open(&args.db)?;
    let database = args.db.real_path(false)?;
    let now = now()?;
    let campaign = with_mail_base(daemon.campaign(&args.campaign)?.campaign, &args.db);
    let mail = mail_settings(&campaign)?;
    let mut problems = 0;
    let mut checks: Vec<serde_json::Value> = Vec::new();
    let json = args.json;
    let mut report = |check: Check| -> anyhow::Result<()> {
        let (ok, line) = match check {
            Check::Works(line) => (true, line),
            Check::Problem(line) => {
                problems += 1;
                (false, line)
            }
        };
        if json {
            checks.push(serde_json::json!({ "ok": ok, "line": line }));
            Ok(())
        } else if ok {
            emit(format!("OK       {line}"))
        } else {
            emit(format!("PROBLEM  {line}"))
        }
    };
    if let Some(path) = mail.ca_path() {
        report(Check::of(
            crate::mail::tls::read_ca_file(&path)
                .map(|certificates| {
                    format!(
                        "mail.ca_file {} holds {}",
                        path.display(),
                        crate::words::counted(certificates.len(), "certificate", "certificates")
                    )
                })
                .map_err(|e| format!("{e}; fix the path or the file")),
        ))?;
    }
    if let Some(settings) = mail.oauth() {
        report(Check::of(
            super::mail_login::check_sign_in(&mut daemon, &campaign, &settings, &database, now)
                .map_err(|e| format!("OAuth: {e:#}")),
        ))?;
    }
    if let Some(smtp) = &mail.smtp {
        let check = smtp_settings(&mut daemon, &campaign, &database, now)
            .map_err(|e| format!("SMTP: {e:#}"))
            .and_then(|settings| {
                let settings = settings.ok_or("SMTP: no [mail.smtp]")?;
                let mailer = SmtpMailer::new(&settings).map_err(|e| e.to_string())?;
                mailer
                    .test_connection()
                    .map(|()| format!("SMTP {}:{} answers", smtp.host, smtp.port))
                    .map_err(|e| {
                        let why = e.to_string();
                        match crate::mail::tls::advice(&why) {
                            Some(advice) => format!(
                                "SMTP {}:{} (security {}): {why}; {advice}",
                                smtp.host, smtp.port, smtp.security
                            ),
                            None => format!(
                                "SMTP {}:{} (security {}): {why}; check host, port, security and the \
                                 login",
                                smtp.host, smtp.port, smtp.security
                            ),
                        }
                    })
            });
        report(Check::of(check))?;
    }
    match imap_settings(&mut daemon, &campaign, &database, now) {
        Ok(Some((settings, folder))) => {
            let check = ImapClient::connect(&settings)
                .and_then(|mut client| {
                    let status = client.select(&folder)?;
                    let idle = client.offers_idle()?;
                    client.logout();
                    Ok((status, idle))
                })
                .map(|(status, idle)| {
                    format!(
                        "IMAP {}:{} folder {folder} ({} messages; {})",
                        settings.host,
                        settings.port,
                        status.exists,
                        if idle {
                            "IDLE offered: mail is read as it arrives"
                        } else {
                            "no IDLE: polled every mail.poll_seconds"
                        }
                    )
                })
                .map_err(|e| {
                    format!(
                        "IMAP {}:{} folder {folder}: {e}",
                        settings.host, settings.port
                    )
                });
            report(Check::of(check))?;
        }
        Ok(None) => {}
        Err(error) => report(Check::Problem(format!("IMAP: {error:#}")))?,
    }
    for (field, folder) in [
        ("maildir_in", &mail.maildir_in),
        ("maildir_out", &mail.maildir_out),
    ] {
        if let Some(folder) = folder {
            report(Check::of(
                Maildir::open(folder)
                    .map(|_| format!("mail.{field} {folder} is a Maildir"))
                    .map_err(|e| format!("mail.{field}: {e}")),
            ))?;
        }
    }
    if mail.smtp.is_none() && mail.maildir_out.is_none() {
        report(Check::Problem(
            "no way to send: add [mail.smtp] or mail.maildir_out".to_string(),
        ))?;
    }
    if mail.imap.is_none() && mail.maildir_in.is_none() {
        report(Check::Works(
            "no mailbox to poll; mail must come through `realmgm ingest` from the MTA".to_string(),
        ))?;
    }
    // Nothing is posted: a test message would land in the players' chat.
    for hook in campaign.notify.iter().flat_map(|n| &n.hooks) {
        report(Check::of(
            hook.target()
                .map(|target| {
                    format!(
                        "notify hook '{}' posts to {} (its address and secret are found; nothing \
                         was posted)",
                        hook.name(),
                        crate::mail::webhook::host_of(&target.url)
                    )
                })
                .map_err(|e| e.to_string()),
        ))?;
    }
    if !daemon.store.control().get(&campaign.name)?.has_gm_secret {
        report(Check::Problem(format!(
            "no GM secret yet: GM commands by mail are refused; run `realmgm gm secret --campaign {}`",
            campaign.name
        )))?;
    }
    if json {
        emit(serde_json::to_string_pretty(&serde_json::json!({
            "campaign": campaign.name,
            "problems": problems,
            "checks": checks,
        }))?)?;
    }
    if problems > 0 {
        bail!(
            "{} in the mail settings of {}",
            crate::words::counted(problems, "problem", "problems"),
            campaign.name
        );
    }
    Ok(())
}

/// A new secret for the GM's screen: it is mailed to the player too.
fn shown_once(secret: &crate::store::PlayerSecret) -> String {
    format!(
        "{} <{}> has the secret {} (shown once; it was mailed there with how to play)",
        secret.player, secret.email, secret.secret
    )
}
