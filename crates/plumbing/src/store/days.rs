//! Game days in the store: one state snapshot per day (table `game_days`),
//! the events a day produced (`events`), the reports it made for each
//! reader (`reports`, `report_attachments`) and each run of a day with its
//! hashes (`day_runs`), so a re-run can be checked against the first run.
//! A rollback removes the later days' states, events, reports and combat
//! rounds in one transaction.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ops::{Deref, DerefMut};

use rusqlite::{OptionalExtension, params};
use serde_json::Value;

use super::packed::{PackedBytes, PackedText, UnpackedText};
use super::{MailAttachment, Store, StoreError};
use crate::game::{Event, GameState, GameValue, text_hash};

/// The state of a campaign at the end of a day (day 0: after setup).
#[derive(Clone, Debug, PartialEq)]
pub struct DaySnapshot {
    pub day: u32,
    pub state: GameState,
    /// [`GameState::hash`] of `state`.
    pub hash: String,
    pub created: i64,
}

/// One event of a day and who may see it.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredEvent {
    /// Position within the day, from 1.
    pub seq: u32,
    /// The game's event, as JSON.
    pub event: GameValue,
    /// The players who may read it; the GM reads everything.
    pub observers: Vec<String>,
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
    /// The version of the game's rules the day was played under.
    pub rules_version: u32,
}

/// The days of the campaigns: each day's state, events, reports and runs.
///
/// Borrowed from the store by [`Store::days`] to read and [`Store::days_mut`]
/// to change.
pub struct Days<S> {
    pub(super) store: S,
}

impl<S: Deref<Target = Store>> Days<S> {
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
    pub fn load(&self, campaign: &str, day: u32) -> Result<Option<DaySnapshot>, StoreError> {
        let campaign_id = self.store.campaign_id(campaign)?;
        let mut statement = self.store.conn.prepare_cached(
            "SELECT day, state_json, state_hash, created FROM game_days \
             WHERE campaign_id = ?1 AND day = ?2",
        )?;
        let mut rows = statement.query(params![campaign_id, day])?;
        match rows.next()? {
            Some(row) => self.snapshot(campaign, campaign_id, row).map(Some),
            None => Ok(None),
        }
    }

    /// The state a `game_days` row (day, text, hash, created) holds: the
    /// one already known when the row holds its very text ([`Days::load`]),
    /// else read from the text; either way checked against the row's hash.
    fn snapshot(
        &self,
        campaign: &str,
        campaign_id: i64,
        row: &rusqlite::Row<'_>,
    ) -> Result<DaySnapshot, StoreError> {
        let day: u32 = row.get(0)?;
        let hash: String = row.get(2)?;
        let created: i64 = row.get(3)?;
        let mismatch = || StoreError::StateMismatch {
            campaign: campaign.to_string(),
            day,
        };
        // Borrowed from SQLite: the cached path copies nothing.
        let text = row.get_ref(1)?.as_bytes().map_err(|_| mismatch())?;
        let (state, fresh) = match self.store.states.get(campaign_id, day, text) {
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
            self.store.states.keep(campaign_id, day, &state);
        }
        Ok(DaySnapshot {
            day,
            state,
            hash,
            created,
        })
    }

    /// Forget the state of `day` this store keeps, so whoever holds it
    /// holds its only handle: the daemon hands the pending state over to
    /// the game to resolve in place ([`crate::game::Game::resolve_turn`])
    /// and saves the next day right after, which is kept as usual. A later
    /// load reads the state from its row again.
    ///
    /// # Errors
    /// No such campaign.
    pub fn forget(&self, campaign: &str, day: u32) -> Result<(), StoreError> {
        let campaign_id = self.store.campaign_id(campaign)?;
        self.store.states.forget(campaign_id, day);
        Ok(())
    }

    /// The highest saved day, if any, without reading its state (a
    /// rollback away from a state that cannot be used must not need it).
    ///
    /// # Errors
    /// No such campaign.
    pub fn latest_number(&self, campaign: &str) -> Result<Option<u32>, StoreError> {
        let campaign_id = self.store.campaign_id(campaign)?;
        Ok(self
            .store
            .conn
            .prepare_cached("SELECT MAX(day) FROM game_days WHERE campaign_id = ?1")?
            .query_row(params![campaign_id], |row| row.get(0))?)
    }

    /// The state of the highest saved day, if any.
    ///
    /// # Errors
    /// As [`Days::load`].
    pub fn latest(&self, campaign: &str) -> Result<Option<DaySnapshot>, StoreError> {
        // One query: the daemon asks this for every orders mail.
        let campaign_id = self.store.campaign_id(campaign)?;
        let mut statement = self.store.conn.prepare_cached(
            "SELECT day, state_json, state_hash, created FROM game_days \
             WHERE campaign_id = ?1 ORDER BY day DESC LIMIT 1",
        )?;
        let mut rows = statement.query(params![campaign_id])?;
        match rows.next()? {
            Some(row) => self.snapshot(campaign, campaign_id, row).map(Some),
            None => Ok(None),
        }
    }

    /// The events of `day` in order.
    ///
    /// # Errors
    /// No such campaign, or stored JSON cannot be read.
    pub fn events(&self, campaign: &str, day: u32) -> Result<Vec<StoredEvent>, StoreError> {
        let campaign_id = self.store.campaign_id(campaign)?;
        let mut statement = self.store.conn.prepare(
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
                event: GameValue::from_canonical_text(&event).map_err(corrupt)?,
                observers: serde_json::from_str(&observers).map_err(corrupt)?,
            });
        }
        Ok(events)
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
        let id = self.store.campaign_id(campaign)?;
        let found = self
            .store
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
        let mut statement = self.store.conn.prepare_cached(
            "SELECT name, mime, bytes FROM report_attachments \
             WHERE campaign_id = ?1 AND day = ?2 AND reader = ?3 ORDER BY position",
        )?;
        report.attachments =
            super::outbox::attachments(&mut statement, params![id, report.day, stored_reader])?;
        Ok(Some(report))
    }

    /// Every earlier run of `day`, oldest first.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn runs(&self, campaign: &str, day: u32) -> Result<Vec<DayRun>, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        let mut statement = self.store.conn.prepare(
            "SELECT orders_hash, state_hash, reports_hash, rules_version FROM day_runs \
             WHERE campaign_id = ?1 AND day = ?2 ORDER BY id",
        )?;
        let rows = statement.query_map(params![id, day], |row| {
            Ok(DayRun {
                orders_hash: row.get(0)?,
                state_hash: row.get(1)?,
                reports_hash: row.get(2)?,
                rules_version: row.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The rules version each stored day after `day` was last played under,
    /// by day; a day stored without a recorded run is left out.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn rules_versions_after(
        &self,
        campaign: &str,
        day: u32,
    ) -> Result<Vec<(u32, u32)>, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        let mut statement = self.store.conn.prepare(
            "SELECT g.day, (SELECT r.rules_version FROM day_runs r \
                            WHERE r.campaign_id = g.campaign_id AND r.day = g.day \
                            ORDER BY r.id DESC LIMIT 1) \
             FROM game_days g WHERE g.campaign_id = ?1 AND g.day > ?2 ORDER BY g.day",
        )?;
        let rows = statement.query_map(params![id, day], |row| {
            Ok((row.get::<_, u32>(0)?, row.get::<_, Option<u32>>(1)?))
        })?;
        let mut found = Vec::new();
        for row in rows {
            if let (day, Some(version)) = row? {
                found.push((day, version));
            }
        }
        Ok(found)
    }
}

impl<S: DerefMut<Target = Store>> Days<S> {
    /// Save the state at the end of `day`. Saving the same state again is
    /// harmless (a re-run); a different state for a saved day is refused.
    /// Returns the state's hash.
    ///
    /// # Errors
    /// No such campaign, or the day holds a different state.
    pub fn save(
        &mut self,
        campaign: &str,
        day: u32,
        state: &GameState,
        now: i64,
    ) -> Result<String, StoreError> {
        let campaign_id = self.store.campaign_id(campaign)?;
        let hash = state.hash();
        // The text is handed to SQLite only to write it, or to compare it
        // with a row saved under the same hash (a re-run): the daemon
        // saves every day, and the text is tens of kilobytes.
        let stored: Option<String> = self
            .store
            .conn
            .prepare_cached("SELECT state_hash FROM game_days WHERE campaign_id = ?1 AND day = ?2")?
            .query_row(params![campaign_id, day], |row| row.get(0))
            .optional()?;
        match stored {
            Some(stored) if stored == hash => {
                let same_text: bool = self.store.conn.query_row(
                    "SELECT state_json = ?3 FROM game_days WHERE campaign_id = ?1 AND day = ?2",
                    params![campaign_id, day, state.canonical_text()],
                    |row| row.get(0),
                )?;
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
            Some(stored) => Err(StoreError::DayConflict {
                campaign: campaign.to_string(),
                day,
                stored,
            }),
            None => {
                self.store
                    .conn
                    .prepare_cached(
                        "INSERT INTO game_days (campaign_id, day, state_json, state_hash, \
                         created) VALUES (?1, ?2, ?3, ?4, ?5)",
                    )?
                    .execute(params![campaign_id, day, state.canonical_text(), hash, now])?;
                // The next turn starts from this state: keep it with the
                // game's reading the engine left in it.
                self.store.states.keep(campaign_id, day, state);
                Ok(hash)
            }
        }
    }

    /// Append events to `day`, numbering them after those already stored:
    /// each body in its canonical text (written here, at the store's edge,
    /// from the game's typed event), who saw it as a list
    /// ([`crate::game::Observers::to_list`]).
    ///
    /// # Errors
    /// No such campaign.
    pub fn append_events(
        &mut self,
        campaign: &str,
        day: u32,
        events: &[Event],
    ) -> Result<(), StoreError> {
        let campaign_id = self.store.campaign_id(campaign)?;
        let tx = self.store.conn.savepoint()?;
        let last: u32 = tx.query_row(
            "SELECT COALESCE(MAX(seq), 0) FROM events WHERE campaign_id = ?1 AND day = ?2",
            params![campaign_id, day],
            |row| row.get(0),
        )?;
        for (seq, event) in (last + 1..).zip(events) {
            let observers = Value::from(event.observers.to_list()).to_string();
            tx.execute(
                "INSERT INTO events (campaign_id, day, seq, event_json, observers_json) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    campaign_id,
                    day,
                    seq,
                    event.body.canonical_text(),
                    observers
                ],
            )?;
        }
        tx.commit()?;
        Ok(())
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
        let id = self.store.campaign_id(campaign)?;
        let reader = reader.unwrap_or_default();
        let tx = self.store.conn.savepoint()?;
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

    /// Record one run of `day` with its hashes.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn record_run(
        &mut self,
        campaign: &str,
        day: u32,
        run: &DayRun,
        at: i64,
    ) -> Result<(), StoreError> {
        let id = self.store.campaign_id(campaign)?;
        self.store.conn.execute(
            "INSERT INTO day_runs \
             (campaign_id, day, orders_hash, state_hash, reports_hash, at, rules_version) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                id,
                day,
                run.orders_hash,
                run.state_hash,
                run.reports_hash,
                at,
                run.rules_version
            ],
        )?;
        Ok(())
    }

    /// Go back to the end of `day`: later snapshots, events and reports are
    /// removed (orders and the record of earlier runs stay), so the next
    /// turn is `day + 1` again.
    ///
    /// # Errors
    /// No such campaign, or the database fails; nothing changes then.
    pub fn rollback_to(&mut self, campaign: &str, day: u32) -> Result<(), StoreError> {
        let id = self.store.campaign_id(campaign)?;
        let tx = self.store.conn.savepoint()?;
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

    fn forget(&self, campaign_id: i64, day: u32) {
        self.0.borrow_mut().remove(&(campaign_id, day));
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
    use crate::store::tests::{TempDb, bimr3, store_with_bimr3};

    const BIMR3: &str = include_str!("../../../../campaigns/bimr3.toml");
    const NOW: i64 = 1_740_000_000;

    /// Two stores on one new database file holding BIMR3 with day 0 saved
    /// by the first: the second reads day 0 from its row, the first has it
    /// cached.
    fn two_stores(test: &str) -> (std::path::PathBuf, Store, Store, GameState) {
        let path =
            std::env::temp_dir().join(format!("realmgm-days-{}-{test}.sqlite", std::process::id()));
        remove(&path);
        let mut saver = Store::open(&path, crate::TEST_GAMES).unwrap();
        let campaign = Campaign::parse("bimr3.toml", BIMR3, crate::TEST_GAMES).unwrap();
        saver.campaigns_mut().insert(&campaign, BIMR3, NOW).unwrap();
        let day0 = GameState::new(json!({"day": 0, "gold": {"Amazon": 10}}));
        saver.days_mut().save("BIMR3", 0, &day0, NOW).unwrap();
        let reader = Store::open(&path, crate::TEST_GAMES).unwrap();
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
        assert_eq!(saver.days().load("BIMR3", 0).unwrap().unwrap().state, day0);
        assert_eq!(reader.days().load("BIMR3", 0).unwrap().unwrap().state, day0);
        let forged = day0.canonical_text().replace(":10", ":9999");
        set_state_text(&saver, &forged);
        let message = refused(saver.days().load("BIMR3", 0));
        refused(reader.days().load("BIMR3", 0));
        refused(reader.days().latest("BIMR3"));
        assert!(
            message.contains("day 0 of campaign BIMR3") && message.contains("restore a backup"),
            "{message}"
        );
        // Saving the same state again does not bless the changed row.
        let again = saver.days_mut().save("BIMR3", 0, &day0, NOW).unwrap_err();
        assert!(
            matches!(again, StoreError::StateMismatch { day: 0, .. }),
            "{again}"
        );
        // The text put back is served again, by both.
        set_state_text(&saver, day0.canonical_text());
        assert_eq!(saver.days().load("BIMR3", 0).unwrap().unwrap().state, day0);
        assert_eq!(reader.days().load("BIMR3", 0).unwrap().unwrap().state, day0);
        drop((saver, reader));
        remove(&path);
    }

    #[test]
    fn a_changed_hash_or_unreadable_text_is_refused_and_named() {
        let (path, mut saver, reader, day0) = two_stores("hash");
        saver
            .days_mut()
            .save("BIMR3", 1, &GameState::new(json!({"day": 1})), NOW)
            .unwrap();
        saver
            .conn
            .execute(
                "UPDATE game_days SET state_hash = ?1 WHERE day = 1",
                [day0.hash()],
            )
            .unwrap();
        let message = refused(saver.days().load("BIMR3", 1));
        refused(reader.days().latest("BIMR3"));
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
        let damaged = reader.days().load("BIMR3", 0).unwrap_err();
        assert!(
            matches!(damaged, StoreError::Corrupt { .. }) && damaged.to_string().contains("day 0"),
            "{damaged}"
        );
        // A rollback away from the refused day reads nothing of it.
        assert_eq!(saver.days().latest_number("BIMR3").unwrap(), Some(1));
        drop((saver, reader));
        remove(&path);
    }

    #[test]
    fn day_snapshots_save_load_and_refuse_a_different_state() {
        let (mut store, _) = store_with_bimr3();
        assert_eq!(store.days().latest("BIMR3").unwrap(), None);
        let day0 = GameState::new(json!({"day": 0, "board": ["AV", "BV"]}));
        let day1 = GameState::new(json!({"day": 1}));
        let hash = store.days_mut().save("BIMR3", 0, &day0, NOW).unwrap();
        assert_eq!(hash, day0.hash());
        store.days_mut().save("BIMR3", 1, &day1, NOW + 10).unwrap();
        assert_eq!(
            store.days_mut().save("BIMR3", 1, &day1, NOW + 20).unwrap(),
            day1.hash()
        );
        let err = store
            .days_mut()
            .save("BIMR3", 1, &day0, NOW + 30)
            .unwrap_err();
        assert!(
            matches!(err, StoreError::DayConflict { day: 1, .. }),
            "{err}"
        );

        let loaded = store.days().load("BIMR3", 0).unwrap().unwrap();
        assert_eq!((loaded.state, loaded.hash), (day0, hash));
        let latest = store.days().latest("BIMR3").unwrap().unwrap();
        assert_eq!((latest.day, latest.created), (1, NOW + 10));
        assert_eq!(store.days().load("BIMR3", 5).unwrap(), None);
        assert_eq!(store.campaigns().list().unwrap()[0].latest_day, Some(1));
        let err = store.days().latest("NOPE").unwrap_err();
        assert!(err.to_string().contains("realmgm campaign list"), "{err}");
    }

    #[test]
    fn a_loaded_state_is_shared_until_its_day_is_saved_anew() {
        let db = TempDb::new("shared-state");
        let mut store = Store::open(&db.0, crate::TEST_GAMES).unwrap();
        store.campaigns_mut().insert(&bimr3(), BIMR3, NOW).unwrap();
        let first = GameState::new(json!({"day": 1, "gold": 10}));
        let second = GameState::new(json!({"day": 1, "gold": 20}));
        store
            .days_mut()
            .save("BIMR3", 0, &GameState::new(json!({"day": 0})), NOW)
            .unwrap();
        store.days_mut().save("BIMR3", 1, &first, NOW).unwrap();
        let readings = std::cell::Cell::new(0);
        let gold = |state: &GameState| {
            state
                .typed(|json| {
                    readings.set(readings.get() + 1);
                    Ok::<_, ()>(json["gold"].as_i64())
                })
                .unwrap()
        };
        // The saved state, its reading and all, comes back on every load.
        assert_eq!(*gold(&first), Some(10));
        for _ in 0..3 {
            let loaded = store.days().latest("BIMR3").unwrap().unwrap();
            assert_eq!(*gold(&loaded.state), Some(10));
        }
        assert_eq!(readings.get(), 1);
        // A rollback and a different day 1 give the new state, not the kept one.
        store.days_mut().rollback_to("BIMR3", 0).unwrap();
        assert_eq!(store.days().load("BIMR3", 1).unwrap(), None);
        store
            .days_mut()
            .save("BIMR3", 1, &second, NOW + 10)
            .unwrap();
        let loaded = store.days().load("BIMR3", 1).unwrap().unwrap();
        assert_eq!(*gold(&loaded.state), Some(20));
        // Another store on the same file reads it from its JSON once.
        let reopened = Store::open(&db.0, crate::TEST_GAMES).unwrap();
        let again = reopened.days().load("BIMR3", 1).unwrap().unwrap();
        assert_eq!((*gold(&again.state), again.hash), (Some(20), second.hash()));
        assert_eq!(readings.get(), 3);
    }

    #[test]
    fn a_forgotten_state_is_its_holders_alone_and_read_again_on_the_next_load() {
        let (mut store, _) = store_with_bimr3();
        let day0 = GameState::new(json!({"day": 0, "gold": 10}));
        store.days_mut().save("BIMR3", 0, &day0, NOW).unwrap();
        drop(day0);
        let read = |json: &serde_json::Value| Ok::<_, ()>(json.to_string());
        let pending = store.days().latest("BIMR3").unwrap().unwrap();
        let reading = pending.state.typed(read).unwrap().as_ptr();
        store.days().forget("BIMR3", pending.day).unwrap();
        // Nobody else holds it: the game may change the reading in place.
        let taken = pending.state.into_typed(read).unwrap();
        assert_eq!(taken.as_ptr(), reading);
        // The store reads the same state from its row again.
        let again = store.days().latest("BIMR3").unwrap().unwrap();
        assert_eq!(*again.state.typed(read).unwrap(), taken);
        assert_ne!(again.state.typed(read).unwrap().as_ptr(), reading);
    }

    #[test]
    fn events_are_numbered_in_order_across_appends() {
        let (mut store, _) = store_with_bimr3();
        let everyone: Vec<String> = vec!["Erin".into(), "Frank".into()];
        let event = |body, observers: &[String]| Event {
            observers: crate::game::Observers::from_list(observers),
            body: GameValue::new(body),
        };
        store
            .days_mut()
            .append_events("BIMR3", 1, &[event(json!({"monster_roll": 3}), &everyone)])
            .unwrap();
        store
            .days_mut()
            .append_events(
                "BIMR3",
                1,
                &[
                    event(json!({"hide": "ok"}), &["Erin".into()]),
                    event(json!({"x": 1}), &[]),
                ],
            )
            .unwrap();
        let events = store.days().events("BIMR3", 1).unwrap();
        let seqs: Vec<u32> = events.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, [1, 2, 3]);
        assert_eq!(events[0].observers, everyone);
        assert_eq!(events[1].event.json(), &json!({"hide": "ok"}));
        assert!(store.days().events("BIMR3", 2).unwrap().is_empty());
    }
}
