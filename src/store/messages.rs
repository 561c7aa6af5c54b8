//! Private messages the daemon passed on between players (table
//! `relayed_messages`), kept by the turn they arrived in so that turn's
//! reports can repeat them to their readers.

use rusqlite::params;

use super::{Store, StoreError};

/// One passed-on message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelayedMessage {
    /// The player it was for.
    pub recipient: String,
    /// The sender as he signed (his character, else his name).
    pub sender: String,
    pub text: String,
}

impl Store {
    /// Keep a message passed on while `day` was pending.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn record_relayed_message(
        &mut self,
        campaign: &str,
        day: u32,
        message: &RelayedMessage,
        now: i64,
    ) -> Result<(), StoreError> {
        let id = self.campaign_id(campaign)?;
        self.conn.execute(
            "INSERT INTO relayed_messages (campaign_id, day, recipient, sender, text, received) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                id,
                day,
                message.recipient,
                message.sender,
                message.text,
                now
            ],
        )?;
        Ok(())
    }

    /// The messages passed on while `day` was pending, oldest first.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn relayed_messages(
        &self,
        campaign: &str,
        day: u32,
    ) -> Result<Vec<RelayedMessage>, StoreError> {
        let id = self.campaign_id(campaign)?;
        let mut statement = self.conn.prepare(
            "SELECT recipient, sender, text FROM relayed_messages \
             WHERE campaign_id = ?1 AND day = ?2 ORDER BY received, id",
        )?;
        let rows = statement.query_map(params![id, day], |row| {
            Ok(RelayedMessage {
                recipient: row.get(0)?,
                sender: row.get(1)?,
                text: row.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
