//! Players' orders in the store (table `order_submissions`): every version
//! of every player's orders for a day, as received, the highest counting.

use std::ops::{Deref, DerefMut};

use rusqlite::{OptionalExtension, params};
use serde_json::Value;

use super::{Store, StoreError};

/// Orders to record, as received.
#[derive(Clone, Debug)]
pub struct NewOrder<'a> {
    pub campaign: &'a str,
    pub player: &'a str,
    pub day: u32,
    /// The orders as the player wrote them.
    pub text: &'a str,
    /// The game's reading of the orders; `None` when they could not be read.
    pub parsed: Option<&'a Value>,
    /// The `inbound_mail` row they came in, if by mail.
    pub source_mail: Option<i64>,
    pub received: i64,
}

/// One stored version of a player's orders for a day.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderSubmission {
    pub player: String,
    pub day: u32,
    /// 1 for the first submission, counting up; the highest counts.
    pub version: u32,
    pub text: String,
    pub parsed: Option<Value>,
    pub source_mail: Option<i64>,
    pub received: i64,
}

/// Every version of every player's orders, by campaign and day.
///
/// Borrowed from the store by [`Store::orders`] to read and [`Store::orders_mut`]
/// to change.
pub struct Orders<S> {
    pub(super) store: S,
}

impl<S: Deref<Target = Store>> Orders<S> {
    /// Every version of every player's orders for `day`, by player (in
    /// joining order) and version.
    ///
    /// # Errors
    /// No such campaign, or stored JSON cannot be read.
    pub fn for_day(&self, campaign: &str, day: u32) -> Result<Vec<OrderSubmission>, StoreError> {
        let campaign_id = self.store.campaign_id(campaign)?;
        let mut statement = self.store.conn.prepare(
            "SELECT p.name, o.day, o.version, o.text, o.parsed_json, o.source_mail, o.received \
             FROM order_submissions o JOIN players p ON p.id = o.player_id \
             WHERE o.campaign_id = ?1 AND o.day = ?2 ORDER BY p.id, o.version",
        )?;
        let rows = statement.query_map(params![campaign_id, day], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, u32>(1)?,
                row.get::<_, u32>(2)?,
                row.get::<_, String>(3)?,
                row.get::<_, Option<String>>(4)?,
                row.get::<_, Option<i64>>(5)?,
                row.get::<_, i64>(6)?,
            ))
        })?;
        let mut orders = Vec::new();
        for row in rows {
            let (player, day, version, text, parsed, source_mail, received) = row?;
            let parsed = parsed
                .map(|json| serde_json::from_str(&json))
                .transpose()
                .map_err(|e| StoreError::Corrupt {
                    campaign: campaign.to_string(),
                    message: format!("orders of {player} for day {day} v{version}: {e}"),
                })?;
            orders.push(OrderSubmission {
                player,
                day,
                version,
                text,
                parsed,
                source_mail,
                received,
            });
        }
        Ok(orders)
    }

    /// The latest version of each player's orders for `day`.
    ///
    /// # Errors
    /// As [`Orders::for_day`].
    pub fn latest(&self, campaign: &str, day: u32) -> Result<Vec<OrderSubmission>, StoreError> {
        let mut latest: Vec<OrderSubmission> = Vec::new();
        for order in self.for_day(campaign, day)? {
            // Rows come by player, then by rising version.
            match latest.last_mut() {
                Some(last) if last.player == order.player => *last = order,
                _ => latest.push(order),
            }
        }
        Ok(latest)
    }

    /// The reading of `player`'s latest accepted orders for `day`, without
    /// loading any other version: the daemon asks this on every mail and
    /// every tick, so its cost must not grow with the versions stored.
    ///
    /// # Errors
    /// No such campaign or player, or stored JSON cannot be read.
    pub fn latest_accepted(
        &self,
        campaign: &str,
        day: u32,
        player: &str,
    ) -> Result<Option<Value>, StoreError> {
        let (campaign_id, player_id) = self.store.player_id(campaign, player)?;
        let json: Option<String> = self
            .store
            .conn
            .prepare_cached(
                "SELECT parsed_json FROM order_submissions \
                 WHERE campaign_id = ?1 AND player_id = ?2 AND day = ?3 \
                 AND parsed_json IS NOT NULL ORDER BY version DESC LIMIT 1",
            )?
            .query_row(params![campaign_id, player_id, day], |row| row.get(0))
            .optional()?;
        json.map(|json| {
            serde_json::from_str(&json).map_err(|e| StoreError::Corrupt {
                campaign: campaign.to_string(),
                message: format!("the latest orders of {player} for day {day}: {e}"),
            })
        })
        .transpose()
    }

    /// When each player's latest accepted orders for `day` arrived, by
    /// player name; players without accepted orders are left out.
    ///
    /// # Errors
    /// No such campaign.
    pub fn accepted_order_times(
        &self,
        campaign: &str,
        day: u32,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let campaign_id = self.store.campaign_id(campaign)?;
        let mut statement = self.store.conn.prepare_cached(
            "SELECT p.name, MAX(o.received) FROM order_submissions o \
             JOIN players p ON p.id = o.player_id \
             WHERE o.campaign_id = ?1 AND o.day = ?2 AND o.parsed_json IS NOT NULL \
             GROUP BY p.id ORDER BY p.id",
        )?;
        let rows = statement.query_map(params![campaign_id, day], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

impl<S: DerefMut<Target = Store>> Orders<S> {
    /// Record a new version of a player's orders for a day; earlier versions
    /// stay. Returns the version number.
    ///
    /// # Errors
    /// No such campaign or player.
    pub fn insert(&mut self, order: &NewOrder<'_>) -> Result<u32, StoreError> {
        let (campaign_id, player_id) = self.store.player_id(order.campaign, order.player)?;
        let parsed = order.parsed.map(Value::to_string);
        let tx = self.store.conn.savepoint()?;
        let version: u32 = tx.query_row(
            "SELECT COALESCE(MAX(version), 0) + 1 FROM order_submissions \
             WHERE campaign_id = ?1 AND player_id = ?2 AND day = ?3",
            params![campaign_id, player_id, order.day],
            |row| row.get(0),
        )?;
        tx.execute(
            "INSERT INTO order_submissions \
             (campaign_id, player_id, day, version, text, parsed_json, source_mail, received) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                campaign_id,
                player_id,
                order.day,
                version,
                order.text,
                parsed,
                order.source_mail,
                order.received
            ],
        )?;
        tx.commit()?;
        Ok(version)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::store::tests::{NOW, store_with_bimr3};

    #[test]
    fn every_order_version_is_kept_and_the_latest_counts() {
        let (mut store, _) = store_with_bimr3();
        let parsed = json!({"phases": ["H", "H"]});
        let mut order = NewOrder {
            campaign: "BIMR3",
            player: "Frank",
            day: 1,
            text: "H / H",
            parsed: Some(&parsed),
            source_mail: None,
            received: NOW,
        };
        assert_eq!(store.orders_mut().insert(&order).unwrap(), 1);
        order.text = "M-CV4 / H";
        order.parsed = None;
        order.received = NOW + 60;
        assert_eq!(store.orders_mut().insert(&order).unwrap(), 2);
        order.player = "Erin";
        assert_eq!(store.orders_mut().insert(&order).unwrap(), 1);
        order.day = 2;
        assert_eq!(store.orders_mut().insert(&order).unwrap(), 1);

        let all = store.orders().for_day("BIMR3", 1).unwrap();
        let seen: Vec<(&str, u32)> = all.iter().map(|o| (o.player.as_str(), o.version)).collect();
        assert_eq!(seen, [("Erin", 1), ("Frank", 1), ("Frank", 2)]);
        assert_eq!(all[1].parsed.as_ref(), Some(&parsed));
        let latest = store.orders().latest("BIMR3", 1).unwrap();
        let seen: Vec<(&str, &str)> = latest
            .iter()
            .map(|o| (o.player.as_str(), o.text.as_str()))
            .collect();
        assert_eq!(seen, [("Erin", "M-CV4 / H"), ("Frank", "M-CV4 / H")]);
        order.player = "Zed";
        assert!(matches!(
            store.orders_mut().insert(&order),
            Err(StoreError::NoSuchPlayer { .. })
        ));
    }
}
