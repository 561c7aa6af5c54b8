//! The GM's rulings (table `rulings`), kept by the turn that was pending
//! when he made them: the daemon queues the standing ones on the state
//! before that turn runs, every time it runs.

use std::ops::{Deref, DerefMut};

use rusqlite::params;

use super::{Store, StoreError};
use crate::game::GmRuling;

/// A ruling as stored.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StoredRuling {
    pub id: i64,
    pub day: u32,
    pub text: String,
    pub why: String,
    pub made: i64,
}

impl StoredRuling {
    /// The ruling as the game reads it.
    pub fn given(&self) -> GmRuling {
        GmRuling {
            text: self.text.clone(),
            why: self.why.clone(),
        }
    }
}

/// The GM's rulings, by campaign and the day they were made for.
///
/// Borrowed from the store by [`Store::rulings`] to read and [`Store::rulings_mut`]
/// to change.
pub struct Rulings<S> {
    pub(super) store: S,
}

impl<S: Deref<Target = Store>> Rulings<S> {
    /// The standing rulings for the turn `day`, in the order they were made.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn on_day(&self, campaign: &str, day: u32) -> Result<Vec<StoredRuling>, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        let mut statement = self.store.conn.prepare(
            "SELECT id, day, text, why, made FROM rulings \
             WHERE campaign_id = ?1 AND day = ?2 AND withdrawn IS NULL ORDER BY id",
        )?;
        let rows = statement.query_map(params![id, day], |row| {
            Ok(StoredRuling {
                id: row.get(0)?,
                day: row.get(1)?,
                text: row.get(2)?,
                why: row.get(3)?,
                made: row.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The standing rulings for the turn `day` as the game reads them.
    ///
    /// # Errors
    /// As [`Rulings::on_day`].
    pub fn given_on_day(&self, campaign: &str, day: u32) -> Result<Vec<GmRuling>, StoreError> {
        Ok(self
            .on_day(campaign, day)?
            .iter()
            .map(StoredRuling::given)
            .collect())
    }
}

impl<S: DerefMut<Target = Store>> Rulings<S> {
    /// Keep a ruling for the turn `day`; returns its id.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn record(
        &mut self,
        campaign: &str,
        day: u32,
        ruling: &GmRuling,
        now: i64,
    ) -> Result<i64, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        self.store.conn.execute(
            "INSERT INTO rulings (campaign_id, day, text, why, made) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, day, ruling.text, ruling.why, now],
        )?;
        Ok(self.store.conn.last_insert_rowid())
    }

    /// Withdraw the standing ruling `ruling` of turn `day`; false when
    /// there is none with that id.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn withdraw(
        &mut self,
        campaign: &str,
        day: u32,
        ruling: i64,
        now: i64,
    ) -> Result<bool, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        let changed = self.store.conn.execute(
            "UPDATE rulings SET withdrawn = ?1 \
             WHERE campaign_id = ?2 AND day = ?3 AND id = ?4 AND withdrawn IS NULL",
            params![now, id, day, ruling],
        )?;
        Ok(changed == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::{NOW, store_with_bimr3};

    #[test]
    fn a_withdrawn_ruling_no_longer_stands_and_is_withdrawn_once() {
        let (mut store, _) = store_with_bimr3();
        let ruling = |text: &str| GmRuling {
            text: text.to_string(),
            why: "the GM said so".to_string(),
        };
        let first = store
            .rulings_mut()
            .record("BIMR3", 2, &ruling("the bridge is out"), NOW)
            .unwrap();
        store
            .rulings_mut()
            .record("BIMR3", 2, &ruling("the inn is closed"), NOW + 1)
            .unwrap();
        assert_eq!(store.rulings().on_day("BIMR3", 2).unwrap().len(), 2);
        assert!(store.rulings().on_day("BIMR3", 3).unwrap().is_empty());
        assert!(
            store
                .rulings_mut()
                .withdraw("BIMR3", 2, first, NOW + 2)
                .unwrap()
        );
        assert!(
            !store
                .rulings_mut()
                .withdraw("BIMR3", 2, first, NOW + 3)
                .unwrap()
        );
        assert_eq!(
            store.rulings().given_on_day("BIMR3", 2).unwrap(),
            [ruling("the inn is closed")]
        );
    }
}
