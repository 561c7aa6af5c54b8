//! What the mail daemon keeps per campaign to steer it (tables
//! `daemon_state`, `deadline_extensions`, `gm_log`): pause and hold state,
//! reminders sent, the GM secret, deadline extensions and the GM's log.

use std::ops::{Deref, DerefMut};

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError, secret};

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

/// What the daemon keeps per campaign beside the game.
///
/// Borrowed from the store by [`Store::control`] to read and [`Store::control_mut`]
/// to change.
pub struct CampaignControl<S> {
    pub(super) store: S,
}

impl<S: Deref<Target = Store>> CampaignControl<S> {
    /// The control state of `campaign` (all defaults before the daemon ran).
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn get(&self, campaign: &str) -> Result<Control, StoreError> {
        let id = self.store.control_row(campaign)?;
        Ok(self.store.conn.query_row(
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

    /// Whether `given` is the GM secret of `campaign`; false when none was made.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn check_gm_secret(&self, campaign: &str, given: &str) -> Result<bool, StoreError> {
        let id = self.store.control_row(campaign)?;
        let stored: Option<String> = self.store.conn.query_row(
            "SELECT gm_secret_hash FROM daemon_state WHERE campaign_id = ?1",
            params![id],
            |row| row.get(0),
        )?;
        Ok(stored.is_some_and(|stored| stored == secret::hash(campaign, "\0gm", given)))
    }

    /// The seconds the GM added to the deadline of `day`.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn deadline_extension(&self, campaign: &str, day: u32) -> Result<i64, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        Ok(self
            .store
            .conn
            .query_row(
                "SELECT seconds FROM deadline_extensions WHERE campaign_id = ?1 AND day = ?2",
                params![id, day],
                |row| row.get(0),
            )
            .optional()?
            .unwrap_or(0))
    }

    /// The newest message of `kind` in `campaign`'s GM log.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn gm_log_last(&self, campaign: &str, kind: &str) -> Result<Option<String>, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        Ok(self
            .store
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
        let id = campaign
            .map(|name| self.store.campaign_id(name))
            .transpose()?;
        let mut statement = self.store.conn.prepare(
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
}

impl<S: DerefMut<Target = Store>> CampaignControl<S> {
    /// Set one control column; `column` is one of this module's names.
    fn set_control(
        &mut self,
        campaign: &str,
        column: &'static str,
        value: &dyn rusqlite::ToSql,
    ) -> Result<(), StoreError> {
        let id = self.store.control_row(campaign)?;
        self.store.conn.execute(
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
        let id = self.store.campaign_id(campaign)?;
        self.store.conn.execute(
            "INSERT INTO deadline_extensions (campaign_id, day, seconds) VALUES (?1, ?2, ?3) \
             ON CONFLICT (campaign_id, day) DO UPDATE SET seconds = seconds + excluded.seconds",
            params![id, day, seconds],
        )?;
        Ok(())
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
        let id = campaign.and_then(|name| self.store.campaign_id(name).ok());
        self.store.conn.execute(
            "INSERT INTO gm_log (campaign_id, at, kind, message, inbound_id) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, at, kind, message, inbound_id],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::{NOW, store_with_bimr3};

    #[test]
    fn pause_holds_and_the_gm_secret_are_kept_per_campaign() {
        let (mut store, _) = store_with_bimr3();
        assert_eq!(store.control().get("BIMR3").unwrap(), Control::default());
        store.control_mut().set_paused("BIMR3", true).unwrap();
        store
            .control_mut()
            .set_condition_hold("BIMR3", "a player left")
            .unwrap();
        let secret = store.control_mut().new_gm_secret("BIMR3").unwrap();
        let control = store.control().get("BIMR3").unwrap();
        assert!(control.paused && control.has_gm_secret && control.hold_lifts_itself);
        assert_eq!(control.hold_reason.as_deref(), Some("a player left"));
        store
            .control_mut()
            .set_hold("BIMR3", Some("the GM looks"))
            .unwrap();
        assert!(!store.control().get("BIMR3").unwrap().hold_lifts_itself);
        assert!(store.control().check_gm_secret("BIMR3", &secret).unwrap());
        assert!(!store.control().check_gm_secret("BIMR3", "wrong").unwrap());
    }

    #[test]
    fn extensions_add_up_and_the_gm_log_finds_its_last_line_of_a_kind() {
        let (mut store, _) = store_with_bimr3();
        assert_eq!(store.control().deadline_extension("BIMR3", 1).unwrap(), 0);
        store
            .control_mut()
            .extend_deadline("BIMR3", 1, 3600)
            .unwrap();
        store
            .control_mut()
            .extend_deadline("BIMR3", 1, 600)
            .unwrap();
        assert_eq!(
            store.control().deadline_extension("BIMR3", 1).unwrap(),
            4200
        );
        assert_eq!(store.control().deadline_extension("BIMR3", 2).unwrap(), 0);
        let mut control = store.control_mut();
        control
            .log_gm(Some("BIMR3"), NOW, "gm", "paused", None)
            .unwrap();
        control
            .log_gm(Some("BIMR3"), NOW + 1, "gm", "resumed", None)
            .unwrap();
        control
            .log_gm(None, NOW + 2, "mail", "a stranger wrote", None)
            .unwrap();
        assert_eq!(
            store
                .control()
                .gm_log_last("BIMR3", "gm")
                .unwrap()
                .as_deref(),
            Some("resumed")
        );
        let lines: Vec<String> = store
            .control()
            .gm_log(Some("BIMR3"))
            .unwrap()
            .into_iter()
            .map(|entry| entry.message)
            .collect();
        assert_eq!(lines, ["paused", "resumed"]);
        assert_eq!(store.control().gm_log(None).unwrap().len(), 1);
    }
}
