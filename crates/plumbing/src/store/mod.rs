//! The SQLite store: campaigns, players, one state snapshot per game day,
//! every version of every order, events, raw inbound mail and the outbox.
//!
//! [`Store::open`] brings any older database up to the current schema by
//! applying the numbered migrations in `migrations/` in order, each in its own
//! transaction, and records the version in `PRAGMA user_version`. The store
//! never reads the clock: every function that records a time takes it as a
//! parameter (Unix seconds), so tests and re-runs are deterministic.
//!
//! [`Store`] holds the connection: it opens and migrates the database, runs
//! units of work ([`work`]) and backups. Each kind of record is read and
//! written through a view borrowing the store, in the module beside its
//! tables: `store.days()` reads days, `store.days_mut()` changes them, and
//! so on for [`campaigns`], [`control`], [`players`], [`days`], [`orders`],
//! [`rounds`], [`rulings`], [`announcements`], the [`inbox`] of received mail,
//! the [`outbox`] and the webhooks' [`news`]; [`Redaction`] masks secrets in stored mail. A change
//! that spans several kinds of records (a new campaign with its players, a
//! rollback of states, events, reports and combat rounds) is one method of
//! one view, in one transaction.

pub mod announcements;
pub mod backup;
pub mod campaigns;
pub mod control;
pub mod days;
pub mod grants;
pub mod inbox;
pub mod news;
pub mod orders;
pub mod outbox;
mod packed;
pub mod players;
mod redact;
pub mod rounds;
pub mod rulings;
pub mod sealing;
pub mod secret;
pub mod transfer;
pub mod work;

use std::fs::OpenOptions;
use std::io::ErrorKind;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OptionalExtension, params};

use crate::game::Games;

pub use announcements::Announcements;
pub use campaigns::{CampaignSummary, Campaigns, PlayerRecord, StoredCampaign};
pub use control::{CampaignControl, Control, GmLogEntry};
pub use days::{DayRun, DaySnapshot, Days, StoredEvent, StoredReport};
pub use grants::{Grant, GrantOwner, GrantState, Grants};
pub use inbox::{
    InboundInsert, InboundMail, InboundStatus, Inbox, NOTICE_HELD, NoticeTo, NoticeTurn,
    redelivery_note,
};
pub use news::{MailboxMode, News, NewsHealth, QueuedNews};
pub use orders::{NewOrder, OrderSubmission, Orders};
pub use outbox::{MailAttachment, Outbox, OutgoingMail, QueuedMail, RelayedMessage, ReportParts};
pub use players::{Absence, PlayerSecret, Players};
pub use redact::Redaction;
pub use rounds::{CombatRound, Rounds};
pub use rulings::Rulings;
pub use sealing::{SealError, SealingKey};

/// The migrations in order; migration `i` (from 0) takes the schema from
/// version `i` to `i + 1`. Append only: never edit one that has shipped.
const MIGRATIONS: &[(&str, &str)] = &[
    (
        "0001_campaigns",
        include_str!("migrations/0001_campaigns.sql"),
    ),
    ("0002_mail", include_str!("migrations/0002_mail.sql")),
    (
        "0003_orders_and_events",
        include_str!("migrations/0003_orders_and_events.sql"),
    ),
    ("0004_daemon", include_str!("migrations/0004_daemon.sql")),
    (
        "0005_mail_parts",
        include_str!("migrations/0005_mail_parts.sql"),
    ),
    (
        "0006_mailboxes",
        include_str!("migrations/0006_mailboxes.sql"),
    ),
    (
        "0007_combat_rounds",
        include_str!("migrations/0007_combat_rounds.sql"),
    ),
    (
        "0008_report_parts",
        include_str!("migrations/0008_report_parts.sql"),
    ),
    (
        "0009_mail_identity",
        include_str!("migrations/0009_mail_identity.sql"),
    ),
    (
        "0010_announcements",
        include_str!("migrations/0010_announcements.sql"),
    ),
    (
        "0011_absences",
        include_str!("migrations/0011_absences.sql"),
    ),
    (
        "0012_rulings_and_departures",
        include_str!("migrations/0012_rulings_and_departures.sql"),
    ),
    (
        "0013_narratives",
        include_str!("migrations/0013_narratives.sql"),
    ),
    (
        "0014_reports_kept_once",
        include_str!("migrations/0014_reports_kept_once.sql"),
    ),
    (
        "0015_hostile_mail",
        include_str!("migrations/0015_hostile_mail.sql"),
    ),
    (
        "0016_masked_mail",
        include_str!("migrations/0016_masked_mail.sql"),
    ),
    (
        "0017_condition_holds",
        include_str!("migrations/0017_condition_holds.sql"),
    ),
    (
        "0018_rules_versions",
        include_str!("migrations/0018_rules_versions.sql"),
    ),
    (
        "0019_oauth_grants",
        include_str!("migrations/0019_oauth_grants.sql"),
    ),
    (
        "0020_news_and_idle",
        include_str!("migrations/0020_news_and_idle.sql"),
    ),
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// A problem with the store, worded for the GM.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("{0}")]
    Seal(#[from] sealing::SealError),
    #[error(
        "the database has schema version {found}, newer than this realmgm knows ({known}); \
         use a newer realmgm"
    )]
    NewerSchema { found: u32, known: u32 },
    #[error("migration {name} failed: {source}")]
    Migration {
        name: &'static str,
        source: rusqlite::Error,
    },
    #[error(
        "a campaign named {0} is already stored; pick another name in the file, or look at it \
         with `realmgm campaign show {0}`"
    )]
    DuplicateCampaign(String),
    #[error("no campaign named {0} is stored; `realmgm campaign list` shows the stored ones")]
    NoSuchCampaign(String),
    #[error("campaign {campaign} has no player named {player}")]
    NoSuchPlayer { campaign: String, player: String },
    #[error("campaign {campaign} already has a player named {player} or with the address {email}")]
    DuplicatePlayer {
        campaign: String,
        player: String,
        email: String,
    },
    #[error(
        "day {day} of campaign {campaign} is already saved with a different state (hash \
         {stored}); refusing to overwrite it"
    )]
    DayConflict {
        campaign: String,
        day: u32,
        stored: String,
    },
    #[error("stored data of campaign {campaign} cannot be read: {message}")]
    Corrupt { campaign: String, message: String },
    #[error(
        "the stored state of day {day} of campaign {campaign} does not match the hash realmgm \
         saved with it: it was changed outside realmgm and is not used; {}",
        days::state_mismatch_fix(.campaign, *.day)
    )]
    StateMismatch { campaign: String, day: u32 },
    #[error("the operating system gave no random bytes for a secret: {0}")]
    Randomness(String),
    #[error("the backup file {0} exists already; name a new file, so no backup is overwritten")]
    BackupExists(String),
    #[error("the export file {0} exists already; name a new file, so no export is overwritten")]
    ExportExists(String),
    #[error("{file} is not a campaign export of realmgm: {why}")]
    NotAnExport { file: String, why: String },
    #[error(
        "{file} could not be copied to a private temporary folder to be checked before import \
         ({error}); free some space there or point TMPDIR at another folder"
    )]
    ImportCopy { file: String, error: String },
    #[error(
        "cannot create {}: {source}; check that its folder exists and that you may write there",
        file.display()
    )]
    Create {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "this database holds a campaign called {0} already; import it into another database, or \
         remove the campaign here first"
    )]
    ImportClash(String),
}

/// An open database.
pub struct Store {
    conn: Connection,
    /// States loaded or saved lately, handed out again while unchanged.
    states: days::KnownStates,
    /// A secret was masked since the last checkpoint: the write-ahead log
    /// may still hold the page as it was before ([`redact`]).
    masked_since_checkpoint: bool,
    /// The games its campaigns are read back with.
    games: Games,
}

impl Store {
    /// Read the stored campaigns: their files, setup by mail and copies to other databases.
    pub fn campaigns(&self) -> Campaigns<&Store> {
        Campaigns { store: self }
    }

    /// Change the stored campaigns: their files, setup by mail and copies to other databases.
    pub fn campaigns_mut(&mut self) -> Campaigns<&mut Store> {
        Campaigns { store: self }
    }

    /// Read the daemon's control of each campaign: pause, holds, the GM secret, deadlines and the GM's log.
    pub fn control(&self) -> CampaignControl<&Store> {
        CampaignControl { store: self }
    }

    /// Change the daemon's control of each campaign: pause, holds, the GM secret, deadlines and the GM's log.
    pub fn control_mut(&mut self) -> CampaignControl<&mut Store> {
        CampaignControl { store: self }
    }

    /// Read the players: seats, addresses, secrets, bounces and absences.
    pub fn players(&self) -> Players<&Store> {
        Players { store: self }
    }

    /// Change the players: seats, addresses, secrets, bounces and absences.
    pub fn players_mut(&mut self) -> Players<&mut Store> {
        Players { store: self }
    }

    /// Read the days: each day's state, events, reports and runs, and rollbacks.
    pub fn days(&self) -> Days<&Store> {
        Days { store: self }
    }

    /// Change the days: each day's state, events, reports and runs, and rollbacks.
    pub fn days_mut(&mut self) -> Days<&mut Store> {
        Days { store: self }
    }

    /// Read the players' orders, every version of each.
    pub fn orders(&self) -> Orders<&Store> {
        Orders { store: self }
    }

    /// Change the players' orders, every version of each.
    pub fn orders_mut(&mut self) -> Orders<&mut Store> {
        Orders { store: self }
    }

    /// Read the combat rounds the days wait for.
    pub fn rounds(&self) -> Rounds<&Store> {
        Rounds { store: self }
    }

    /// Change the combat rounds the days wait for.
    pub fn rounds_mut(&mut self) -> Rounds<&mut Store> {
        Rounds { store: self }
    }

    /// Read the GM's rulings.
    pub fn rulings(&self) -> Rulings<&Store> {
        Rulings { store: self }
    }

    /// Change the GM's rulings.
    pub fn rulings_mut(&mut self) -> Rulings<&mut Store> {
        Rulings { store: self }
    }

    /// Read the webhooks' news queue and the mailboxes' watch.
    pub fn news(&self) -> News<&Store> {
        News { store: self }
    }

    /// Change the webhooks' news queue and the mailboxes' watch.
    pub fn news_mut(&mut self) -> News<&mut Store> {
        News { store: self }
    }

    /// Read the GM's announcements and narratives.
    pub fn announcements(&self) -> Announcements<&Store> {
        Announcements { store: self }
    }

    /// Change the GM's announcements and narratives.
    pub fn announcements_mut(&mut self) -> Announcements<&mut Store> {
        Announcements { store: self }
    }

    /// Read the campaigns' OAuth grants.
    pub fn grants(&self) -> Grants<&Store> {
        Grants { store: self }
    }

    /// Keep, refresh and revoke the campaigns' OAuth grants.
    pub fn grants_mut(&mut self) -> Grants<&mut Store> {
        Grants { store: self }
    }

    /// Read the received mail and the mailboxes it came from.
    pub fn inbox(&self) -> Inbox<&Store> {
        Inbox { store: self }
    }

    /// Change the received mail and the mailboxes it came from.
    pub fn inbox_mut(&mut self) -> Inbox<&mut Store> {
        Inbox { store: self }
    }

    /// Read the mail to send, and the messages passed on between players.
    pub fn outbox(&self) -> Outbox<&Store> {
        Outbox { store: self }
    }

    /// Change the mail to send, and the messages passed on between players.
    pub fn outbox_mut(&mut self) -> Outbox<&mut Store> {
        Outbox { store: self }
    }

    /// Mask the secrets in the stored mail.
    pub fn redaction_mut(&mut self) -> Redaction<&mut Store> {
        Redaction { store: self }
    }

    /// ` --db PATH`, naming this database's file, for a command a mail or
    /// log suggests: it then works as printed wherever it is pasted.
    /// Nothing for a database in memory.
    pub fn db_option(&self) -> String {
        match self.conn.path().filter(|path| !path.is_empty()) {
            Some(path) if path.contains(char::is_whitespace) => format!(" --db '{path}'"),
            Some(path) => format!(" --db {path}"),
            None => String::new(),
        }
    }

    /// Open (or create) the database at `path` and migrate it to
    /// [`SCHEMA_VERSION`]; its campaigns play `games`.
    ///
    /// # Errors
    /// The file cannot be opened, a migration fails, or the database was
    /// written by a newer realmgm.
    pub fn open(path: &Path, games: Games) -> Result<Store, StoreError> {
        create_private(path, false).map_err(|source| StoreError::Create {
            file: path.to_path_buf(),
            source,
        })?;
        shut_out_others(path);
        let conn = Connection::open(path)?;
        // A stranger's mail is stored whole, then cut to its head: the pages
        // it freed go back to the file system ([`Inbox::release_free_pages`])
        // instead of staying in the file and in every backup. Only a new
        // database takes this; an older one keeps its pages until a VACUUM.
        conn.pragma_update(None, "auto_vacuum", "INCREMENTAL")?;
        // WAL lets the CLI read while the daemon writes.
        conn.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(()))?;
        // The log of a large mail's write is cut back once it is folded in.
        conn.pragma_update_and_check(None, "journal_size_limit", 4 << 20, |_| Ok(()))?;
        // Atomic, ordered commits without a flush each; raw mail is flushed
        // at once (see `work`).
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        // What is overwritten or freed (a secret masked in a stored mail)
        // is zeroed, not left for `grep`: FAST would leave a freed overflow
        // page of a long mail on the free list as it was.
        conn.pragma_update_and_check(None, "secure_delete", "ON", |_| Ok(()))?;
        Store::migrated(conn, SCHEMA_VERSION, games)
    }

    /// A fresh database in memory, for tests and dry runs; its campaigns
    /// play `games`.
    ///
    /// # Errors
    /// As [`Store::open`].
    pub fn open_in_memory(games: Games) -> Result<Store, StoreError> {
        Store::migrated(Connection::open_in_memory()?, SCHEMA_VERSION, games)
    }

    fn migrated(mut conn: Connection, target: u32, games: Games) -> Result<Store, StoreError> {
        conn.pragma_update(None, "foreign_keys", true)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        // One plan per prepared statement whatever its parameters: without
        // it, the bundled SQLite (built with STAT4) prepared a kept
        // statement again each time a new campaign id was bound, which cost
        // more than the query.
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
        migrate(&mut conn, target)?;
        Ok(Store {
            conn,
            states: days::KnownStates::default(),
            masked_since_checkpoint: false,
            games,
        })
    }

    /// The games its campaigns play.
    pub fn games(&self) -> Games {
        self.games
    }

    /// The schema version of the open database.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn schema_version(&self) -> Result<u32, StoreError> {
        user_version(&self.conn)
    }

    /// The id of campaign `name` (any case).
    fn campaign_id(&self, name: &str) -> Result<i64, StoreError> {
        // Asked before nearly every query: prepared once per connection.
        self.conn
            .prepare_cached("SELECT id FROM campaigns WHERE name = ?1")?
            .query_row(params![name], |row| row.get(0))
            .optional()?
            .ok_or_else(|| StoreError::NoSuchCampaign(name.to_string()))
    }

    /// The id of campaign `campaign`, with its row of the daemon's control
    /// state made first if the daemon never ran it.
    fn control_row(&self, campaign: &str) -> Result<i64, StoreError> {
        let id = self.campaign_id(campaign)?;
        self.conn.execute(
            "INSERT OR IGNORE INTO daemon_state (campaign_id) VALUES (?1)",
            params![id],
        )?;
        Ok(id)
    }

    /// The ids of campaign `campaign` and its player `player` (any case).
    fn player_id(&self, campaign: &str, player: &str) -> Result<(i64, i64), StoreError> {
        let campaign_id = self.campaign_id(campaign)?;
        let player_id = self
            .conn
            .prepare_cached(
                "SELECT id FROM players WHERE campaign_id = ?1 AND name = ?2 COLLATE NOCASE",
            )?
            .query_row(params![campaign_id, player], |row| row.get(0))
            .optional()?
            .ok_or_else(|| StoreError::NoSuchPlayer {
                campaign: campaign.to_string(),
                player: player.to_string(),
            })?;
        Ok((campaign_id, player_id))
    }
}

/// Create an empty file at `path`, readable and writable by its owner
/// alone whatever the umask, before SQLite opens it: SQLite gives a new
/// database 0644 less the umask, and its `-wal` and `-shm` files the
/// database file's own mode, so this one mode covers all three. With
/// `must_be_new` an existing file is an error (no backup overwrites one);
/// without, an existing database is left as it is.
///
/// # Errors
/// The file cannot be created, or exists and `must_be_new` holds.
pub(crate) fn create_private(path: &Path, must_be_new: bool) -> Result<(), std::io::Error> {
    let created = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path);
    match created {
        Err(error) if error.kind() == ErrorKind::AlreadyExists && !must_be_new => Ok(()),
        other => other.map(drop),
    }
}

/// Create `path` as a new owner-only file, as [`create_private`] does with
/// `must_be_new`: a path taken already, a link included (even one pointing
/// nowhere, which SQLite would follow and create with the umask's mode), is
/// refused with the error `taken` makes of it.
///
/// # Errors
/// The path is taken, or the file cannot be created.
pub(crate) fn create_new_private(
    path: &Path,
    taken: fn(String) -> StoreError,
) -> Result<(), StoreError> {
    create_private(path, true).map_err(|source| {
        if source.kind() == ErrorKind::AlreadyExists {
            taken(path.display().to_string())
        } else {
            StoreError::Create {
                file: path.to_path_buf(),
                source,
            }
        }
    })
}

/// Take away every right of other users on the database at `path` and its
/// `-wal` and `-shm` files: the store holds players' mail, and before
/// realmgm created its files 0600 the usual umask made them world-readable.
/// Rights the GM gave the file's group (a backup user) are his choice and
/// stay, with a warning in the log. A file realmgm may not change (someone
/// else's export being imported) is only warned about.
fn shut_out_others(path: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let file = PathBuf::from(name);
        let Ok(metadata) = std::fs::metadata(&file) else {
            continue;
        };
        let mode = metadata.permissions().mode() & 0o777;
        if mode & 0o007 != 0 {
            let tightened = mode & !0o007;
            match std::fs::set_permissions(&file, std::fs::Permissions::from_mode(tightened)) {
                Ok(()) => tracing::warn!(
                    "{} was open to every user of this machine (mode {mode:o}); it is now \
                     {tightened:o}",
                    file.display()
                ),
                Err(error) => tracing::warn!(
                    "{} is open to every user of this machine (mode {mode:o}) and cannot be \
                     closed to them ({error}); its owner should run `chmod o-rwx {}`",
                    file.display(),
                    file.display()
                ),
            }
        }
        if mode & 0o070 != 0 {
            tracing::warn!(
                "{} is open to its group (mode {:o}); if no one of the group should read \
                 players' mail, run `chmod 600 {}`",
                file.display(),
                mode & !0o007,
                file.display()
            );
        }
    }
}

fn user_version(conn: &Connection) -> Result<u32, StoreError> {
    Ok(conn.query_row("PRAGMA user_version", [], |row| row.get(0))?)
}

/// Apply the migrations between the database's version and `target`, each
/// in a transaction together with the version bump.
fn migrate(conn: &mut Connection, target: u32) -> Result<(), StoreError> {
    let found = user_version(conn)?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::NewerSchema {
            found,
            known: SCHEMA_VERSION,
        });
    }
    for version in found..target {
        let (name, sql) = MIGRATIONS[version as usize];
        let tx = conn.transaction()?;
        tx.execute_batch(sql)
            .map_err(|source| StoreError::Migration { name, source })?;
        tx.pragma_update(None, "user_version", version + 1)?;
        tx.commit()?;
    }
    Ok(())
}

/// Tests outside the store write what no API of it writes: rows as an
/// older realmgm left them.
#[cfg(test)]
impl Store {
    pub(crate) fn execute_batch(&self, sql: &str) {
        self.conn.execute_batch(sql).unwrap();
    }
}

#[cfg(test)]
mod tests;
