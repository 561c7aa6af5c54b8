//! What the mail daemon keeps per campaign beside the game (migration
//! 0004): pause and hold state, reminders sent, the GM secret, deadline
//! extensions, the GM's log, bounces, each day's reports, and each run of a
//! day with its hashes so a re-run can be checked against the first run.

use rusqlite::{OptionalExtension, params};

use super::packed::{PackedBytes, PackedText, UnpackedText};
use super::{MailAttachment, PlayerSecret, Store, StoreError, secret};
use crate::campaign::Email;

/// The daemon's control state of one campaign.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Control {
    pub paused: bool,
    /// Why the pending turn is held, when it is.
    pub hold_reason: Option<String>,
    /// The hold's cause is a condition the daemon checks again every
    /// round, lifting the hold once it is gone; otherwise the hold waits
    /// for the GM.
    pub hold_lifts_itself: bool,
    /// The day the GM let run despite the hold checks.
    pub approved_day: Option<u32>,
    /// The last day whose reminders went out.
    pub reminded_day: Option<u32>,
    /// When the daemon last looked at the campaign.
    pub last_tick: Option<i64>,
    pub has_gm_secret: bool,
}

/// One line of the GM's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GmLogEntry {
    pub at: i64,
    pub kind: String,
    pub message: String,
    pub inbound_id: Option<i64>,
}

/// A report as sent: the text, and the HTML alternative and attachments
/// when the game made them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredReport {
    pub day: u32,
    pub subject: String,
    pub text: String,
    pub html: Option<String>,
    pub attachments: Vec<MailAttachment>,
}

/// The hashes of one run of a day.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DayRun {
    pub orders_hash: String,
    pub state_hash: String,
    pub reports_hash: String,
}

impl Store {
    pub(super) fn control_row(&self, campaign: &str) -> Result<i64, StoreError> {
        let id = self.campaign_id(campaign)?;
        self.conn.execute(
            "INSERT OR IGNORE INTO daemon_state (campaign_id) VALUES (?1)",
            params![id],
        )?;
        Ok(id)
    }

    /// The control state of `campaign` (all defaults before the daemon ran).
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn control(&self, campaign: &str) -> Result<Control, StoreError> {
        let id = self.control_row(campaign)?;
        Ok(self.conn.query_row(
            "SELECT paused, hold_reason, approved_day, reminded_day, last_tick, \
                    gm_secret_hash IS NOT NULL, hold_lifts_itself \
             FROM daemon_state WHERE campaign_id = ?1",
            params![id],
            |row| {
                Ok(Control {
                    paused: row.get(0)?,
                    hold_reason: row.get(1)?,
                    approved_day: row.get(2)?,
                    reminded_day: row.get(3)?,
                    last_tick: row.get(4)?,
                    has_gm_secret: row.get(5)?,
                    hold_lifts_itself: row.get(6)?,
                })
            },
        )?)
    }

    /// Set one control column; `column` is one of this module's names.
    fn set_control(
        &mut self,
        campaign: &str,
        column: &'static str,
        value: &dyn rusqlite::ToSql,
    ) -> Result<(), StoreError> {
        let id = self.control_row(campaign)?;
        self.conn.execute(
            &format!("UPDATE daemon_state SET {column} = ?1 WHERE campaign_id = ?2"),
            params![value, id],
        )?;
        Ok(())
    }

    /// Pause or resume the campaign's deadlines.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn set_paused(&mut self, campaign: &str, paused: bool) -> Result<(), StoreError> {
        self.set_control(campaign, "paused", &paused)
    }

    /// Hold the pending turn for `reason` until the GM lifts it, or lift
    /// the hold with `None`.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn set_hold(&mut self, campaign: &str, reason: Option<&str>) -> Result<(), StoreError> {
        self.set_control(campaign, "hold_lifts_itself", &false)?;
        self.set_control(campaign, "hold_reason", &reason)
    }

    /// Hold the pending turn for `reason`, a condition the daemon checks
    /// again every round: the hold lifts itself once the cause is gone.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn set_condition_hold(&mut self, campaign: &str, reason: &str) -> Result<(), StoreError> {
        self.set_control(campaign, "hold_lifts_itself", &true)?;
        self.set_control(campaign, "hold_reason", &Some(reason))
    }

    /// Let `day` run even though a hold check would stop it.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn set_approved_day(&mut self, campaign: &str, day: Option<u32>) -> Result<(), StoreError> {
        self.set_control(campaign, "approved_day", &day)
    }

    /// Record that the reminders of `day` went out.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn set_reminded_day(&mut self, campaign: &str, day: u32) -> Result<(), StoreError> {
        self.set_control(campaign, "reminded_day", &day)
    }

    /// Record when the daemon last looked at the campaign.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn set_last_tick(&mut self, campaign: &str, now: i64) -> Result<(), StoreError> {
        self.set_control(campaign, "last_tick", &now)
    }

    /// Make a new GM secret for `campaign`, replacing any earlier one, and
    /// return it (only its hash is kept).
    ///
    /// # Errors
    /// No randomness, no such campaign, or the database fails.
    pub fn new_gm_secret(&mut self, campaign: &str) -> Result<String, StoreError> {
        let made = secret::generate()?;
        let hash = secret::hash(campaign, "\0gm", &made);
        self.set_control(campaign, "gm_secret_hash", &hash)?;
        Ok(made)
    }

    /// Whether `given` is the GM secret of `campaign`; false when none was made.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn check_gm_secret(&self, campaign: &str, given: &str) -> Result<bool, StoreError> {
        let id = self.control_row(campaign)?;
        let stored: Option<String> = self.conn.query_row(
            "SELECT gm_secret_hash FROM daemon_state WHERE campaign_id = ?1",
            params![id],
            |row| row.get(0),
        )?;
        Ok(stored.is_some_and(|stored| stored == secret::hash(campaign, "\0gm", given)))
    }

    /// Add `seconds` to the deadline of `day`.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn extend_deadline(
        &mut self,
        campaign: &str,
        day: u32,
        seconds: i64,
    ) -> Result<(), StoreError> {
        let id = self.campaign_id(campaign)?;
        self.conn.execute(
            "INSERT INTO deadline_extensions (campaign_id, day, seconds) VALUES (?1, ?2, ?3) \
             ON CONFLICT (campaign_id, day) DO UPDATE SET seconds = seconds + excluded.seconds",
            params![id, day, seconds],
        )?;
        Ok(())
    }

    /// The seconds the GM added to the deadline of `day`.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn deadline_extension(&self, campaign: &str, day: u32) -> Result<i64, StoreError> {
        let id = self.campaign_id(campaign)?;
        Ok(self
            .conn
            .query_row(
                "SELECT seconds FROM deadline_extensions WHERE campaign_id = ?1 AND day = ?2",
                params![id, day],
                |row| row.get(0),
            )
            .optional()?
            .unwrap_or(0))
    }

    /// Write a line in the GM's log; `campaign` is `None` when the mail
    /// could not be tied to a stored campaign.
    ///
    /// # Errors
    /// The database fails.
    pub fn log_gm(
        &mut self,
        campaign: Option<&str>,
        at: i64,
        kind: &str,
        message: &str,
        inbound_id: Option<i64>,
    ) -> Result<(), StoreError> {
        let id = campaign.and_then(|name| self.campaign_id(name).ok());
        self.conn.execute(
            "INSERT INTO gm_log (campaign_id, at, kind, message, inbound_id) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, at, kind, message, inbound_id],
        )?;
        Ok(())
    }

    /// The newest message of `kind` in `campaign`'s GM log.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn gm_log_last(&self, campaign: &str, kind: &str) -> Result<Option<String>, StoreError> {
        let id = self.campaign_id(campaign)?;
        Ok(self
            .conn
            .query_row(
                "SELECT message FROM gm_log WHERE campaign_id = ?1 AND kind = ?2 \
                 ORDER BY id DESC LIMIT 1",
                params![id, kind],
                |row| row.get(0),
            )
            .optional()?)
    }

    /// The GM's log of `campaign` (or of mail tied to none), oldest first.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn gm_log(&self, campaign: Option<&str>) -> Result<Vec<GmLogEntry>, StoreError> {
        let id = campaign.map(|name| self.campaign_id(name)).transpose()?;
        let mut statement = self.conn.prepare(
            "SELECT at, kind, message, inbound_id FROM gm_log WHERE campaign_id IS ?1 \
             ORDER BY id",
        )?;
        let rows = statement.query_map(params![id], |row| {
            Ok(GmLogEntry {
                at: row.get(0)?,
                kind: row.get(1)?,
                message: row.get(2)?,
                inbound_id: row.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Record that mail to `player` bounced; returns how many bounces he has.
    ///
    /// # Errors
    /// No such campaign or player, or the database fails.
    pub fn record_bounce(
        &mut self,
        campaign: &str,
        player: &str,
        at: i64,
        description: &str,
    ) -> Result<u32, StoreError> {
        let (campaign_id, player_id) = self.player_id(campaign, player)?;
        self.conn.execute(
            "INSERT INTO bounces (campaign_id, player_id, at, description) VALUES (?1, ?2, ?3, ?4)",
            params![campaign_id, player_id, at, description],
        )?;
        Ok(self.conn.query_row(
            "SELECT COUNT(*) FROM bounces WHERE player_id = ?1",
            params![player_id],
            |row| row.get(0),
        )?)
    }

    /// How many times mail to `player` has bounced.
    ///
    /// # Errors
    /// No such campaign or player, or the database fails.
    pub fn bounce_count(&self, campaign: &str, player: &str) -> Result<u32, StoreError> {
        let (_, player_id) = self.player_id(campaign, player)?;
        Ok(self.conn.query_row(
            "SELECT COUNT(*) FROM bounces WHERE player_id = ?1",
            params![player_id],
            |row| row.get(0),
        )?)
    }

    /// Keep `report` for `reader` (`None`: the GM's history), with its HTML
    /// and attachments; a re-run of the day replaces it whole.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn save_report(
        &mut self,
        campaign: &str,
        reader: Option<&str>,
        report: &StoredReport,
    ) -> Result<(), StoreError> {
        let id = self.campaign_id(campaign)?;
        let reader = reader.unwrap_or_default();
        let tx = self.conn.savepoint()?;
        tx.execute(
            "INSERT OR REPLACE INTO reports (campaign_id, day, reader, subject, text, html) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                id,
                report.day,
                reader,
                report.subject,
                PackedText(&report.text),
                report.html.as_deref().map(PackedText)
            ],
        )?;
        tx.execute(
            "DELETE FROM report_attachments WHERE campaign_id = ?1 AND day = ?2 AND reader = ?3",
            params![id, report.day, reader],
        )?;
        for (position, file) in (0_i64..).zip(&report.attachments) {
            tx.execute(
                "INSERT INTO report_attachments \
                 (campaign_id, day, reader, position, name, mime, bytes) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    id,
                    report.day,
                    reader,
                    position,
                    file.name,
                    file.mime,
                    PackedBytes(&file.bytes)
                ],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The report of `day` for `reader`, or his latest when `day` is `None`,
    /// with its HTML and attachments.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn report(
        &self,
        campaign: &str,
        reader: Option<&str>,
        day: Option<u32>,
    ) -> Result<Option<StoredReport>, StoreError> {
        let id = self.campaign_id(campaign)?;
        let found = self
            .conn
            .query_row(
                "SELECT day, subject, text, html, reader FROM reports WHERE campaign_id = ?1 \
                 AND reader = ?2 COLLATE NOCASE AND (?3 IS NULL OR day = ?3) \
                 ORDER BY day DESC LIMIT 1",
                params![id, reader.unwrap_or_default(), day],
                |row| {
                    let report = StoredReport {
                        day: row.get(0)?,
                        subject: row.get(1)?,
                        text: row.get::<_, UnpackedText>(2)?.0,
                        html: row.get::<_, Option<UnpackedText>>(3)?.map(|html| html.0),
                        attachments: Vec::new(),
                    };
                    Ok((report, row.get::<_, String>(4)?))
                },
            )
            .optional()?;
        let Some((mut report, stored_reader)) = found else {
            return Ok(None);
        };
        let mut statement = self.conn.prepare_cached(
            "SELECT name, mime, bytes FROM report_attachments \
             WHERE campaign_id = ?1 AND day = ?2 AND reader = ?3 ORDER BY position",
        )?;
        report.attachments =
            super::mail::attachments(&mut statement, params![id, report.day, stored_reader])?;
        Ok(Some(report))
    }

    /// Record one run of `day` with its hashes.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn record_day_run(
        &mut self,
        campaign: &str,
        day: u32,
        run: &DayRun,
        at: i64,
    ) -> Result<(), StoreError> {
        let id = self.campaign_id(campaign)?;
        self.conn.execute(
            "INSERT INTO day_runs (campaign_id, day, orders_hash, state_hash, reports_hash, at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                id,
                day,
                run.orders_hash,
                run.state_hash,
                run.reports_hash,
                at
            ],
        )?;
        Ok(())
    }

    /// Every earlier run of `day`, oldest first.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn day_runs(&self, campaign: &str, day: u32) -> Result<Vec<DayRun>, StoreError> {
        let id = self.campaign_id(campaign)?;
        let mut statement = self.conn.prepare(
            "SELECT orders_hash, state_hash, reports_hash FROM day_runs \
             WHERE campaign_id = ?1 AND day = ?2 ORDER BY id",
        )?;
        let rows = statement.query_map(params![id, day], |row| {
            Ok(DayRun {
                orders_hash: row.get(0)?,
                state_hash: row.get(1)?,
                reports_hash: row.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Go back to the end of `day`: later snapshots, events and reports are
    /// removed (orders and the record of earlier runs stay), so the next
    /// turn is `day + 1` again.
    ///
    /// # Errors
    /// No such campaign, or the database fails; nothing changes then.
    pub fn rollback_to(&mut self, campaign: &str, day: u32) -> Result<(), StoreError> {
        let id = self.campaign_id(campaign)?;
        let tx = self.conn.savepoint()?;
        for table in [
            "game_days",
            "events",
            "reports",
            "report_attachments",
            "combat_rounds",
        ] {
            tx.execute(
                &format!("DELETE FROM {table} WHERE campaign_id = ?1 AND day > ?2"),
                params![id, day],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Give the seat of `player` to someone else: the seat keeps its name
    /// (the game knows it by that name), its orders and history; address and
    /// secret change. Returns the new secret.
    ///
    /// # Errors
    /// No such campaign or player, or the address is taken.
    pub fn replace_player(
        &mut self,
        campaign: &str,
        player: &str,
        email: &Email,
    ) -> Result<PlayerSecret, StoreError> {
        let (_, player_id) = self.player_id(campaign, player)?;
        let name: String = self.conn.query_row(
            "SELECT name FROM players WHERE id = ?1",
            params![player_id],
            |row| row.get(0),
        )?;
        let made = secret::generate()?;
        let result = self.conn.execute(
            "UPDATE players SET email = ?1, secret_hash = ?2 WHERE id = ?3",
            params![
                email.as_str(),
                secret::hash(campaign, &name, &made),
                player_id
            ],
        );
        match result {
            Ok(_) => Ok(PlayerSecret {
                player: name,
                email: email.to_string(),
                secret: made,
            }),
            Err(rusqlite::Error::SqliteFailure(code, _))
                if code.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                Err(StoreError::DuplicatePlayer {
                    campaign: campaign.to_string(),
                    player: name,
                    email: email.to_string(),
                })
            }
            Err(other) => Err(other.into()),
        }
    }

    /// Every stored campaign with a player at `email` (any case), with his
    /// name: how a bounce naming an address finds its player.
    ///
    /// # Errors
    /// The database fails.
    pub fn players_by_email(&self, email: &str) -> Result<Vec<(String, String)>, StoreError> {
        let mut statement = self.conn.prepare(
            "SELECT c.name, p.name FROM players p JOIN campaigns c ON c.id = p.campaign_id \
             WHERE p.email = ?1 COLLATE NOCASE AND p.left_at IS NULL ORDER BY c.name",
        )?;
        let rows = statement.query_map(params![email], |row| Ok((row.get(0)?, row.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
