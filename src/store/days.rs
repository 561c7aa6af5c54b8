//! Game days in the store: one state snapshot per day (table `game_days`),
//! every version of every player's orders (`order_submissions`) and the
//! events a day produced (`events`).

use std::cell::RefCell;
use std::collections::BTreeMap;

use rusqlite::{OptionalExtension, params};
use serde_json::Value;

use super::{Store, StoreError};
use crate::game::{GameState, text_hash};

/// The state of a campaign at the end of a day (day 0: after setup).
#[derive(Clone, Debug, PartialEq)]
pub struct DaySnapshot {
    pub day: u32,
    pub state: GameState,
    /// [`GameState::hash`] of `state`.
    pub hash: String,
    pub created: i64,
}

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

/// One event of a day and who may see it.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredEvent {
    /// Position within the day, from 1.
    pub seq: u32,
    pub event: Value,
    /// The players who may read it; the GM reads everything.
    pub observers: Vec<String>,
}

impl Store {
    /// Save the state at the end of `day`. Saving the same state again is
    /// harmless (a re-run); a different state for a saved day is refused.
    /// Returns the state's hash.
    ///
    /// # Errors
    /// No such campaign, or the day holds a different state.
    pub fn save_day(
        &mut self,
        campaign: &str,
        day: u32,
        state: &GameState,
        now: i64,
    ) -> Result<String, StoreError> {
        let campaign_id = self.campaign_id(campaign)?;
        let hash = state.hash();
        let stored: Option<(String, bool)> = self
            .conn
            .query_row(
                "SELECT state_hash, state_json = ?3 FROM game_days \
                 WHERE campaign_id = ?1 AND day = ?2",
                params![campaign_id, day, state.canonical_text()],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()?;
        match stored {
            Some((stored, same_text)) if stored == hash => {
                if same_text {
                    Ok(hash)
                } else {
                    // The hash is this state's, the text is not: the text
                    // was changed under its hash.
                    Err(StoreError::StateMismatch {
                        campaign: campaign.to_string(),
                        day,
                    })
                }
            }
            Some((stored, _)) => Err(StoreError::DayConflict {
                campaign: campaign.to_string(),
                day,
                stored,
            }),
            None => {
                self.conn.execute(
                    "INSERT INTO game_days (campaign_id, day, state_json, state_hash, created) \
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![campaign_id, day, state.canonical_text(), hash, now],
                )?;
                // The next turn starts from this state: keep it with the
                // game's reading the engine left in it.
                self.states.keep(campaign_id, day, state);
                Ok(hash)
            }
        }
    }

    /// The state saved for `day`, if any, checked against the hash saved
    /// beside it: a row whose text or hash was changed outside realmgm is
    /// an error, never a state.
    ///
    /// The daemon reads the pending state for every orders mail, and
    /// reading 36 KB of JSON each time cost more than the day's engine, so
    /// a state already loaded or saved by this store is handed out again
    /// while the row still holds its very text and hash: comparing the
    /// text costs a few microseconds, reading it as JSON again hundreds.
    ///
    /// # Errors
    /// No such campaign, the stored state does not match its hash
    /// ([`StoreError::StateMismatch`]), or it matches but is not JSON.
    pub fn load_day(&self, campaign: &str, day: u32) -> Result<Option<DaySnapshot>, StoreError> {
        let campaign_id = self.campaign_id(campaign)?;
        let mut statement = self.conn.prepare_cached(
            "SELECT state_json, state_hash, created FROM game_days \
             WHERE campaign_id = ?1 AND day = ?2",
        )?;
        let mut rows = statement.query(params![campaign_id, day])?;
        let Some(row) = rows.next()? else {
            return Ok(None);
        };
        let hash: String = row.get(1)?;
        let created: i64 = row.get(2)?;
        let mismatch = || StoreError::StateMismatch {
            campaign: campaign.to_string(),
            day,
        };
        // Borrowed from SQLite: the cached path copies nothing.
        let text = row.get_ref(0)?.as_bytes().map_err(|_| mismatch())?;
        let (state, fresh) = match self.states.get(campaign_id, day, text) {
            Some(known) => (known, false),
            None => {
                let read = std::str::from_utf8(text)
                    .map_err(|e| e.to_string())
                    .and_then(|text| {
                        GameState::from_canonical_text(text).map_err(|e| e.to_string())
                    });
                match read {
                    Ok(state) => (state, true),
                    // Text realmgm saved under its own hash that is not
                    // JSON is damage, not an edit.
                    Err(e) if text_hash(text) == hash => {
                        return Err(StoreError::Corrupt {
                            campaign: campaign.to_string(),
                            message: format!("state of day {day}: {e}"),
                        });
                    }
                    Err(_) => return Err(mismatch()),
                }
            }
        };
        // Made on every load, cached or not: the hash of what is served
        // (of the text it was read from) against the hash saved with it.
        if state.hash() != hash {
            return Err(mismatch());
        }
        if fresh {
            self.states.keep(campaign_id, day, &state);
        }
        Ok(Some(DaySnapshot {
            day,
            state,
            hash,
            created,
        }))
    }

    /// The highest saved day, if any, without reading its state (a
    /// rollback away from a state that cannot be used must not need it).
    ///
    /// # Errors
    /// No such campaign.
    pub fn latest_day_number(&self, campaign: &str) -> Result<Option<u32>, StoreError> {
        let campaign_id = self.campaign_id(campaign)?;
        Ok(self
            .conn
            .prepare_cached("SELECT MAX(day) FROM game_days WHERE campaign_id = ?1")?
            .query_row(params![campaign_id], |row| row.get(0))?)
    }

    /// The state of the highest saved day, if any.
    ///
    /// # Errors
    /// As [`Store::load_day`].
    pub fn latest_day(&self, campaign: &str) -> Result<Option<DaySnapshot>, StoreError> {
        match self.latest_day_number(campaign)? {
            Some(day) => self.load_day(campaign, day),
            None => Ok(None),
        }
    }

    /// Record a new version of a player's orders for a day; earlier versions
    /// stay. Returns the version number.
    ///
    /// # Errors
    /// No such campaign or player.
    pub fn insert_order(&mut self, order: &NewOrder<'_>) -> Result<u32, StoreError> {
        let (campaign_id, player_id) = self.player_id(order.campaign, order.player)?;
        let parsed = order.parsed.map(Value::to_string);
        let tx = self.conn.savepoint()?;
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

    /// Every version of every player's orders for `day`, by player (in
    /// joining order) and version.
    ///
    /// # Errors
    /// No such campaign, or stored JSON cannot be read.
    pub fn orders_for_day(
        &self,
        campaign: &str,
        day: u32,
    ) -> Result<Vec<OrderSubmission>, StoreError> {
        let campaign_id = self.campaign_id(campaign)?;
        let mut statement = self.conn.prepare(
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
    /// As [`Store::orders_for_day`].
    pub fn latest_orders(
        &self,
        campaign: &str,
        day: u32,
    ) -> Result<Vec<OrderSubmission>, StoreError> {
        let mut latest: Vec<OrderSubmission> = Vec::new();
        for order in self.orders_for_day(campaign, day)? {
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
    pub fn latest_accepted_order(
        &self,
        campaign: &str,
        day: u32,
        player: &str,
    ) -> Result<Option<Value>, StoreError> {
        let (campaign_id, player_id) = self.player_id(campaign, player)?;
        let json: Option<String> = self
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
        let campaign_id = self.campaign_id(campaign)?;
        let mut statement = self.conn.prepare_cached(
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

    /// Append events to `day`, numbering them after those already stored.
    ///
    /// # Errors
    /// No such campaign.
    pub fn append_events(
        &mut self,
        campaign: &str,
        day: u32,
        events: &[(Value, Vec<String>)],
    ) -> Result<(), StoreError> {
        let campaign_id = self.campaign_id(campaign)?;
        let tx = self.conn.savepoint()?;
        let last: u32 = tx.query_row(
            "SELECT COALESCE(MAX(seq), 0) FROM events WHERE campaign_id = ?1 AND day = ?2",
            params![campaign_id, day],
            |row| row.get(0),
        )?;
        for (seq, (event, observers)) in (last + 1..).zip(events) {
            let observers = Value::from(observers.clone()).to_string();
            tx.execute(
                "INSERT INTO events (campaign_id, day, seq, event_json, observers_json) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![campaign_id, day, seq, event.to_string(), observers],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The events of `day` in order.
    ///
    /// # Errors
    /// No such campaign, or stored JSON cannot be read.
    pub fn events(&self, campaign: &str, day: u32) -> Result<Vec<StoredEvent>, StoreError> {
        let campaign_id = self.campaign_id(campaign)?;
        let mut statement = self.conn.prepare(
            "SELECT seq, event_json, observers_json FROM events \
             WHERE campaign_id = ?1 AND day = ?2 ORDER BY seq",
        )?;
        let rows = statement.query_map(params![campaign_id, day], |row| {
            Ok((
                row.get::<_, u32>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, String>(2)?,
            ))
        })?;
        let mut events = Vec::new();
        for row in rows {
            let (seq, event, observers) = row?;
            let corrupt = |e: serde_json::Error| StoreError::Corrupt {
                campaign: campaign.to_string(),
                message: format!("event {seq} of day {day}: {e}"),
            };
            events.push(StoredEvent {
                seq,
                event: serde_json::from_str(&event).map_err(corrupt)?,
                observers: serde_json::from_str(&observers).map_err(corrupt)?,
            });
        }
        Ok(events)
    }
}

/// What a GM can do about a day whose stored state does not match its hash
/// ([`StoreError::StateMismatch`]).
pub(super) fn state_mismatch_fix(campaign: &str, day: u32) -> String {
    let backup = "restore a backup made before the change (stop the daemon first)";
    match day.checked_sub(1) {
        Some(before) => format!(
            "{backup}, or roll back to the day before with `realmgm gm --campaign {campaign} \
             rollback --day {before}` (day {day} then runs again from its kept orders)"
        ),
        None => backup.to_string(),
    }
}

/// The states this store loaded or saved lately, by campaign and day: a
/// state is handed out again only while its stored row holds the very text
/// it was read from or saved as (its canonical text).
/// A few per campaign are enough (the pending day's state and the one
/// before it, for reports).
#[derive(Default)]
pub(super) struct KnownStates(RefCell<BTreeMap<(i64, u32), GameState>>);

/// Kept states per campaign, beyond which the oldest day goes.
const KNOWN_PER_CAMPAIGN: usize = 2;
/// Kept states in all, beyond which all are dropped (a daemon serving many
/// campaigns keeps the states of those it served last).
const KNOWN_IN_ALL: usize = 64;

impl KnownStates {
    fn get(&self, campaign_id: i64, day: u32, stored_text: &[u8]) -> Option<GameState> {
        let known = self.0.borrow();
        let state = known.get(&(campaign_id, day))?;
        (state.canonical_text().as_bytes() == stored_text).then(|| state.clone())
    }

    fn keep(&self, campaign_id: i64, day: u32, state: &GameState) {
        let mut known = self.0.borrow_mut();
        if known.len() >= KNOWN_IN_ALL {
            known.clear();
        }
        known.insert((campaign_id, day), state.clone());
        let days: Vec<u32> = known
            .range((campaign_id, 0)..=(campaign_id, u32::MAX))
            .map(|((_, day), _)| *day)
            .collect();
        for old in &days[..days.len().saturating_sub(KNOWN_PER_CAMPAIGN)] {
            known.remove(&(campaign_id, *old));
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::campaign::Campaign;

    const BIMR3: &str = include_str!("../../campaigns/bimr3.toml");
    const NOW: i64 = 1_740_000_000;

    /// Two stores on one new database file holding BIMR3 with day 0 saved
    /// by the first: the second reads day 0 from its row, the first has it
    /// cached.
    fn two_stores(test: &str) -> (std::path::PathBuf, Store, Store, GameState) {
        let path =
            std::env::temp_dir().join(format!("realmgm-days-{}-{test}.sqlite", std::process::id()));
        remove(&path);
        let mut saver = Store::open(&path).unwrap();
        let campaign = Campaign::parse("bimr3.toml", BIMR3).unwrap();
        saver.insert_campaign(&campaign, BIMR3, NOW).unwrap();
        let day0 = GameState::new(json!({"day": 0, "gold": {"Amazon": 10}}));
        saver.save_day("BIMR3", 0, &day0, NOW).unwrap();
        let reader = Store::open(&path).unwrap();
        (path, saver, reader, day0)
    }

    fn remove(path: &std::path::Path) {
        for suffix in ["", "-wal", "-shm"] {
            let mut name = path.as_os_str().to_owned();
            name.push(suffix);
            let _ = std::fs::remove_file(name);
        }
    }

    fn set_state_text(store: &Store, text: &str) {
        store
            .conn
            .execute("UPDATE game_days SET state_json = ?1 WHERE day = 0", [text])
            .unwrap();
    }

    fn refused(result: Result<Option<DaySnapshot>, StoreError>) -> String {
        match result {
            Err(error @ StoreError::StateMismatch { .. }) => error.to_string(),
            Err(other) => panic!("another error: {other}"),
            Ok(served) => panic!(
                "a changed state was served: {}",
                served.map_or_else(String::new, |s| s.state.canonical_text().to_string())
            ),
        }
    }

    #[test]
    fn a_state_edited_under_its_hash_is_refused_whether_read_or_cached() {
        let (path, mut saver, reader, day0) = two_stores("edited");
        // Both paths serve the saved state while its row is untouched.
        assert_eq!(saver.load_day("BIMR3", 0).unwrap().unwrap().state, day0);
        assert_eq!(reader.load_day("BIMR3", 0).unwrap().unwrap().state, day0);
        let forged = day0.canonical_text().replace(":10", ":9999");
        set_state_text(&saver, &forged);
        let message = refused(saver.load_day("BIMR3", 0));
        refused(reader.load_day("BIMR3", 0));
        refused(reader.latest_day("BIMR3"));
        assert!(
            message.contains("day 0 of campaign BIMR3") && message.contains("restore a backup"),
            "{message}"
        );
        // Saving the same state again does not bless the changed row.
        let again = saver.save_day("BIMR3", 0, &day0, NOW).unwrap_err();
        assert!(
            matches!(again, StoreError::StateMismatch { day: 0, .. }),
            "{again}"
        );
        // The text put back is served again, by both.
        set_state_text(&saver, day0.canonical_text());
        assert_eq!(saver.load_day("BIMR3", 0).unwrap().unwrap().state, day0);
        assert_eq!(reader.load_day("BIMR3", 0).unwrap().unwrap().state, day0);
        drop((saver, reader));
        remove(&path);
    }

    #[test]
    fn a_changed_hash_or_unreadable_text_is_refused_and_named() {
        let (path, mut saver, reader, day0) = two_stores("hash");
        saver
            .save_day("BIMR3", 1, &GameState::new(json!({"day": 1})), NOW)
            .unwrap();
        saver
            .conn
            .execute(
                "UPDATE game_days SET state_hash = ?1 WHERE day = 1",
                [day0.hash()],
            )
            .unwrap();
        let message = refused(saver.load_day("BIMR3", 1));
        refused(reader.latest_day("BIMR3"));
        assert!(
            message.contains("`realmgm gm --campaign BIMR3 rollback --day 0`"),
            "{message}"
        );
        // Not JSON but saved under its own hash: damage, named as such.
        saver
            .conn
            .execute(
                "UPDATE game_days SET state_json = 'garbage', state_hash = ?1 WHERE day = 0",
                [text_hash(b"garbage")],
            )
            .unwrap();
        let damaged = reader.load_day("BIMR3", 0).unwrap_err();
        assert!(
            matches!(damaged, StoreError::Corrupt { .. }) && damaged.to_string().contains("day 0"),
            "{damaged}"
        );
        // A rollback away from the refused day reads nothing of it.
        assert_eq!(saver.latest_day_number("BIMR3").unwrap(), Some(1));
        drop((saver, reader));
        remove(&path);
    }
}
