//! Players away for a while (table `absences`): the daemon plays the NMR
//! policy for them without reminders or notices to the GM until they are
//! back, then tells them what they missed.

use rusqlite::params;

use super::{Store, StoreError};

/// A player's announced absence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Absence {
    pub player: String,
    /// Away until this moment (Unix seconds).
    pub until: i64,
    /// The day that was pending when he said so.
    pub since_day: u32,
}

impl Store {
    /// Record (or replace) `player`'s absence.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn set_absence(&mut self, campaign: &str, absence: &Absence) -> Result<(), StoreError> {
        let id = self.campaign_id(campaign)?;
        self.conn.execute(
            "INSERT INTO absences (campaign_id, player, until, since_day) VALUES (?1, ?2, ?3, ?4) \
             ON CONFLICT (campaign_id, player) DO UPDATE SET until = ?3, since_day = ?4",
            params![id, absence.player, absence.until, absence.since_day],
        )?;
        Ok(())
    }

    /// `player` is back: his absence ends.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn clear_absence(&mut self, campaign: &str, player: &str) -> Result<(), StoreError> {
        let id = self.campaign_id(campaign)?;
        self.conn.execute(
            "DELETE FROM absences WHERE campaign_id = ?1 AND player = ?2",
            params![id, player],
        )?;
        Ok(())
    }

    /// Every absence recorded for the campaign, by player.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn absences(&self, campaign: &str) -> Result<Vec<Absence>, StoreError> {
        let id = self.campaign_id(campaign)?;
        let mut statement = self.conn.prepare(
            "SELECT player, until, since_day FROM absences WHERE campaign_id = ?1 ORDER BY player",
        )?;
        let rows = statement.query_map(params![id], |row| {
            Ok(Absence {
                player: row.get(0)?,
                until: row.get(1)?,
                since_day: row.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
