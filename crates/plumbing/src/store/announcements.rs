//! The GM's words on a day: his announcements (table `announcements`),
//! kept by the turn that was pending when he made them, mailed to every
//! player at once and opening that turn's reports; and his narrative of a
//! day (table `narratives`), for his history and the public pages.

use std::ops::{Deref, DerefMut};

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError};

/// The GM's announcements and narratives, by campaign and day.
///
/// Borrowed from the store by [`Store::announcements`] to read and [`Store::announcements_mut`]
/// to change.
pub struct Announcements<S> {
    pub(super) store: S,
}

impl<S: Deref<Target = Store>> Announcements<S> {
    /// The GM's narrative of `day`, if he wrote one.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn narrative(&self, campaign: &str, day: u32) -> Result<Option<String>, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        Ok(self
            .store
            .conn
            .query_row(
                "SELECT text FROM narratives WHERE campaign_id = ?1 AND day = ?2",
                params![id, day],
                |row| row.get(0),
            )
            .optional()?)
    }

    /// The announcements made while `day` was pending, oldest first.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn of_day(&self, campaign: &str, day: u32) -> Result<Vec<String>, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        let mut statement = self.store.conn.prepare(
            "SELECT text FROM announcements WHERE campaign_id = ?1 AND day = ?2 ORDER BY made, id",
        )?;
        let rows = statement.query_map(params![id, day], |row| row.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

impl<S: DerefMut<Target = Store>> Announcements<S> {
    /// Keep an announcement made while `day` was pending.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn record(
        &mut self,
        campaign: &str,
        day: u32,
        text: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let id = self.store.campaign_id(campaign)?;
        self.store.conn.execute(
            "INSERT INTO announcements (campaign_id, day, text, made) VALUES (?1, ?2, ?3, ?4)",
            params![id, day, text, now],
        )?;
        Ok(())
    }

    /// Write (or rewrite) the GM's narrative of `day`.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn set_narrative(
        &mut self,
        campaign: &str,
        day: u32,
        text: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let id = self.store.campaign_id(campaign)?;
        self.store.conn.execute(
            "INSERT INTO narratives (campaign_id, day, text, made) VALUES (?1, ?2, ?3, ?4) \
             ON CONFLICT (campaign_id, day) DO UPDATE SET text = excluded.text, made = excluded.made",
            params![id, day, text, now],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::store::tests::{NOW, store_with_bimr3};

    #[test]
    fn announcements_are_kept_in_order_and_a_narrative_is_rewritten() {
        let (mut store, _) = store_with_bimr3();
        let mut words = store.announcements_mut();
        words.record("BIMR3", 1, "Welcome", NOW).unwrap();
        words.record("BIMR3", 1, "Storms ahead", NOW + 1).unwrap();
        words.set_narrative("BIMR3", 1, "A calm day", NOW).unwrap();
        words
            .set_narrative("BIMR3", 1, "A stormy day", NOW + 2)
            .unwrap();
        assert_eq!(
            store.announcements().of_day("BIMR3", 1).unwrap(),
            ["Welcome", "Storms ahead"]
        );
        assert!(store.announcements().of_day("BIMR3", 2).unwrap().is_empty());
        assert_eq!(
            store
                .announcements()
                .narrative("BIMR3", 1)
                .unwrap()
                .as_deref(),
            Some("A stormy day")
        );
        assert_eq!(store.announcements().narrative("BIMR3", 2).unwrap(), None);
    }
}
