//! What migration 0006 keeps: the IMAP mailboxes the daemon polls (table
//! `imap_mailboxes`) with the UIDVALIDITY each had when last selected (RFC
//! 3501 §2.3.1.1: UIDs are only comparable while UIDVALIDITY stays the
//! same; a new value means the server renumbered the mailbox), and the
//! progress of a setup by mail (table `setup_by_mail`).

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError};

impl Store {
    /// The UIDVALIDITY `mailbox` had when last selected; `None` the first time.
    ///
    /// # Errors
    /// The database fails.
    pub fn imap_uid_validity(&self, mailbox: &str) -> Result<Option<u32>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT uid_validity FROM imap_mailboxes WHERE mailbox = ?1",
                params![mailbox],
                |row| row.get(0),
            )
            .optional()?)
    }

    /// Remember the UIDVALIDITY of `mailbox` as of `now`.
    ///
    /// # Errors
    /// The database fails.
    pub fn set_imap_uid_validity(
        &mut self,
        mailbox: &str,
        uid_validity: u32,
        now: i64,
    ) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO imap_mailboxes (mailbox, uid_validity, checked) VALUES (?1, ?2, ?3) \
             ON CONFLICT (mailbox) DO UPDATE SET uid_validity = excluded.uid_validity, \
             checked = excluded.checked",
            params![mailbox, uid_validity, now],
        )?;
        Ok(())
    }
}

impl Store {
    /// The stored progress of `campaign`'s setup by mail; `None` before it began.
    ///
    /// # Errors
    /// No such campaign, or the stored JSON cannot be read.
    pub fn setup_progress(&self, campaign: &str) -> Result<Option<serde_json::Value>, StoreError> {
        let id = self.campaign_id(campaign)?;
        let json: Option<String> = self
            .conn
            .query_row(
                "SELECT progress_json FROM setup_by_mail WHERE campaign_id = ?1",
                params![id],
                |row| row.get(0),
            )
            .optional()?;
        json.map(|text| serde_json::from_str(&text))
            .transpose()
            .map_err(|e| StoreError::Corrupt {
                campaign: campaign.to_string(),
                message: format!("setup by mail: {e}"),
            })
    }

    /// Keep the progress of `campaign`'s setup by mail.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn save_setup_progress(
        &mut self,
        campaign: &str,
        progress: &serde_json::Value,
    ) -> Result<(), StoreError> {
        let id = self.campaign_id(campaign)?;
        self.conn.execute(
            "INSERT INTO setup_by_mail (campaign_id, progress_json) VALUES (?1, ?2) \
             ON CONFLICT (campaign_id) DO UPDATE SET progress_json = excluded.progress_json",
            params![id, progress.to_string()],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uid_validity_is_remembered_per_mailbox() {
        let mut store = Store::open_in_memory().unwrap();
        let inbox = "gm@127.0.0.1:1143/INBOX";
        assert_eq!(store.imap_uid_validity(inbox).unwrap(), None);
        store.set_imap_uid_validity(inbox, 7, 1).unwrap();
        store.set_imap_uid_validity("other", 9, 1).unwrap();
        store.set_imap_uid_validity(inbox, 8, 2).unwrap();
        assert_eq!(store.imap_uid_validity(inbox).unwrap(), Some(8));
        assert_eq!(store.imap_uid_validity("other").unwrap(), Some(9));
    }
}
