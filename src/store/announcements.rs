//! The GM's announcements (table `announcements`), kept by the turn that
//! was pending when he made them: mailed to every player at once, and
//! opening that turn's reports.

use rusqlite::params;

use super::{Store, StoreError};

impl Store {
    /// Keep an announcement made while `day` was pending.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn record_announcement(
        &mut self,
        campaign: &str,
        day: u32,
        text: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let id = self.campaign_id(campaign)?;
        self.conn.execute(
            "INSERT INTO announcements (campaign_id, day, text, made) VALUES (?1, ?2, ?3, ?4)",
            params![id, day, text, now],
        )?;
        Ok(())
    }

    /// The announcements made while `day` was pending, oldest first.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn announcements(&self, campaign: &str, day: u32) -> Result<Vec<String>, StoreError> {
        let id = self.campaign_id(campaign)?;
        let mut statement = self.conn.prepare(
            "SELECT text FROM announcements WHERE campaign_id = ?1 AND day = ?2 ORDER BY made, id",
        )?;
        let rows = statement.query_map(params![id, day], |row| row.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
