//! The webhooks' news in the store: each piece of news queued once per hook
//! that takes it (table `news_deliveries`), with its attempts and the next
//! one, as outbound mail is queued; and how the daemon watches each IMAP
//! mailbox (table `mailbox_watch`), which `gm status` shows.

use std::ops::{Deref, DerefMut};

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError};

/// The news rows that still matter to `gm status`: waiting, or given up
/// after their hook's last delivery.
const CURRENT: &str = "WITH current AS (SELECT * FROM news_deliveries AS n \
             WHERE campaign_id = ?1 AND (status = 'pending' OR (status = 'failed' \
             AND NOT EXISTS (SELECT 1 FROM news_deliveries AS later WHERE \
                 later.campaign_id = n.campaign_id AND later.hook = n.hook \
                 AND later.status = 'sent' AND later.id > n.id)))) ";

/// A piece of news waiting for its hook.
#[derive(Clone, Debug, PartialEq)]
pub struct QueuedNews {
    pub id: i64,
    /// The hook's name in the campaign's `[notify]` table.
    pub hook: String,
    pub attempts: u32,
    /// The public news object every payload is made from.
    pub news: serde_json::Value,
}

/// The state of a campaign's news, for `gm status`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct NewsHealth {
    /// Waiting to go, failed attempts or not.
    pub to_send: u32,
    /// Of those, the ones whose last attempt failed.
    pub failing: u32,
    /// Given up: the endpoint refused them for good.
    pub undeliverable: u32,
    /// The hook and the error of the latest failed attempt, when a piece of
    /// news is still failing or was given up.
    pub last_error: Option<String>,
}

/// How the daemon watches an IMAP mailbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailboxMode {
    /// `idle`, `polling` or `reconnecting`.
    pub mode: String,
    pub since: i64,
    /// Why it reconnects, when it does.
    pub detail: Option<String>,
}

/// The webhooks' news queue and the mailboxes' watch.
///
/// Borrowed from the store by [`Store::news`] to read and
/// [`Store::news_mut`] to change.
pub struct News<S> {
    pub(super) store: S,
}

impl<S: Deref<Target = Store>> News<S> {
    /// `campaign`'s news due at `now`, in the order it was queued, so a chat
    /// reads day 1's news before day 2's even after retries: news queued
    /// behind a piece still waiting out its backoff waits for it too.
    ///
    /// # Errors
    /// No such campaign, or the database fails or holds unreadable news.
    pub fn due(&self, campaign: &str, now: i64) -> Result<Vec<QueuedNews>, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        let mut statement = self.store.conn.prepare(
            "SELECT id, hook, attempts, news_json FROM news_deliveries AS n WHERE \
             campaign_id = ?1 AND status = 'pending' AND next_attempt <= ?2 \
             AND NOT EXISTS (SELECT 1 FROM news_deliveries AS earlier WHERE \
                 earlier.campaign_id = n.campaign_id AND earlier.hook = n.hook \
                 AND earlier.status = 'pending' AND earlier.id < n.id \
                 AND earlier.next_attempt > ?2) \
             ORDER BY id",
        )?;
        let rows = statement.query_map(params![id, now], |row| {
            let text: String = row.get(3)?;
            let news = serde_json::from_str(&text).map_err(|e| {
                rusqlite::Error::FromSqlConversionFailure(3, rusqlite::types::Type::Text, e.into())
            })?;
            Ok(QueuedNews {
                id: row.get(0)?,
                hook: row.get(1)?,
                attempts: row.get(2)?,
                news,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Whether news of `kind` about `day` was queued for `campaign`.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn queued(&self, campaign: &str, kind: &str, day: u32) -> Result<bool, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        Ok(self.store.conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM news_deliveries WHERE campaign_id = ?1 AND kind = ?2 \
             AND day = ?3)",
            params![id, kind, day],
            |row| row.get(0),
        )?)
    }

    /// How `campaign`'s news stands. News given up counts only until its
    /// hook delivers a later piece: then the GM has fixed `[notify]` (or the
    /// endpoint came back) and the old failure is history, in the GM's log.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn health(&self, campaign: &str) -> Result<NewsHealth, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        let (to_send, failing, undeliverable) = self.store.conn.query_row(
            &format!(
                "{CURRENT}SELECT COUNT(*) FILTER (WHERE status = 'pending'), \
                    COUNT(*) FILTER (WHERE status = 'pending' AND last_error IS NOT NULL), \
                    COUNT(*) FILTER (WHERE status = 'failed') FROM current"
            ),
            params![id],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )?;
        let last_error = self
            .store
            .conn
            .query_row(
                &format!(
                    "{CURRENT}SELECT hook, last_error FROM current WHERE last_error IS NOT NULL \
                     ORDER BY next_attempt DESC, id DESC LIMIT 1"
                ),
                params![id],
                |row| {
                    Ok(format!(
                        "{}: {}",
                        row.get::<_, String>(0)?,
                        row.get::<_, String>(1)?
                    ))
                },
            )
            .optional()?;
        Ok(NewsHealth {
            to_send,
            failing,
            undeliverable,
            last_error,
        })
    }

    /// How the daemon last said it watches `mailbox`.
    ///
    /// # Errors
    /// The database fails.
    pub fn mailbox_mode(&self, mailbox: &str) -> Result<Option<MailboxMode>, StoreError> {
        Ok(self
            .store
            .conn
            .query_row(
                "SELECT mode, since, detail FROM mailbox_watch WHERE mailbox = ?1",
                params![mailbox],
                |row| {
                    Ok(MailboxMode {
                        mode: row.get(0)?,
                        since: row.get(1)?,
                        detail: row.get(2)?,
                    })
                },
            )
            .optional()?)
    }
}

impl<S: DerefMut<Target = Store>> News<S> {
    /// Queue `news` of `kind` about `day` for `campaign`'s hook `hook`; it
    /// is due at once. Returns its id.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn enqueue(
        &mut self,
        campaign: &str,
        hook: &str,
        kind: &str,
        day: u32,
        news: &serde_json::Value,
        now: i64,
    ) -> Result<i64, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        self.store.conn.execute(
            "INSERT INTO news_deliveries (campaign_id, hook, kind, day, news_json, next_attempt, \
             created) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
            params![id, hook, kind, day, news.to_string(), now],
        )?;
        Ok(self.store.conn.last_insert_rowid())
    }

    /// Record that news `id` was delivered.
    ///
    /// # Errors
    /// The database fails.
    pub fn mark_sent(&mut self, id: i64) -> Result<(), StoreError> {
        super::outbox::record_sent(&self.store, "news_deliveries", id)
    }

    /// Record a failed attempt: retry at `retry_at`, or give up (status
    /// `failed`) when `retry_at` is `None`.
    ///
    /// # Errors
    /// The database fails.
    pub fn mark_failed(
        &mut self,
        id: i64,
        error: &str,
        retry_at: Option<i64>,
    ) -> Result<(), StoreError> {
        super::outbox::record_failed(&self.store, "news_deliveries", id, error, retry_at)
    }

    /// Record how the daemon watches `mailbox` from `since` on.
    ///
    /// # Errors
    /// The database fails.
    pub fn set_mailbox_mode(
        &mut self,
        mailbox: &str,
        mode: &MailboxMode,
    ) -> Result<(), StoreError> {
        self.store.conn.execute(
            "INSERT INTO mailbox_watch (mailbox, mode, since, detail) VALUES (?1, ?2, ?3, ?4) \
             ON CONFLICT (mailbox) DO UPDATE SET mode = excluded.mode, since = excluded.since, \
             detail = excluded.detail",
            params![mailbox, mode.mode, mode.since, mode.detail],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::store_with_bimr3;

    const TAG: &str = "BIMR3";

    #[test]
    fn news_is_queued_retried_given_up_and_counted() {
        let (mut store, _) = store_with_bimr3();
        let news = serde_json::json!({"event": "day", "text": "Day 1 is out"});
        let first = store
            .news_mut()
            .enqueue(TAG, "discord", "day", 1, &news, 100)
            .unwrap();
        let second = store
            .news_mut()
            .enqueue(TAG, "slack", "day", 1, &news, 100)
            .unwrap();
        assert!(store.news().queued(TAG, "day", 1).unwrap());
        assert!(!store.news().queued(TAG, "deadline", 1).unwrap());
        let due = store.news().due(TAG, 100).unwrap();
        assert_eq!(due.len(), 2);
        assert_eq!((due[0].hook.as_str(), &due[0].news), ("discord", &news));
        store
            .news_mut()
            .mark_failed(first, "HTTP 500", Some(160))
            .unwrap();
        store
            .news_mut()
            .mark_failed(second, "HTTP 404", None)
            .unwrap();
        assert!(store.news().due(TAG, 159).unwrap().is_empty());
        assert_eq!(store.news().due(TAG, 160).unwrap()[0].attempts, 1);
        let health = store.news().health(TAG).unwrap();
        assert_eq!(
            (health.to_send, health.failing, health.undeliverable),
            (1, 1, 1)
        );
        assert!(health.last_error.is_some());
        store.news_mut().mark_sent(first).unwrap();
        let health = store.news().health(TAG).unwrap();
        assert_eq!((health.to_send, health.failing), (0, 0));
        assert_eq!(health.last_error.as_deref(), Some("slack: HTTP 404"));
    }

    #[test]
    fn later_news_waits_behind_a_piece_in_backoff() {
        let (mut store, _) = store_with_bimr3();
        let day = |n: u32| serde_json::json!({"event": "day", "day": n});
        let third = store
            .news_mut()
            .enqueue(TAG, "discord", "day", 3, &day(3), 100)
            .unwrap();
        store
            .news_mut()
            .mark_failed(third, "HTTP 500", Some(500))
            .unwrap();
        store
            .news_mut()
            .enqueue(TAG, "discord", "day", 4, &day(4), 200)
            .unwrap();
        store
            .news_mut()
            .enqueue(TAG, "slack", "day", 4, &day(4), 200)
            .unwrap();
        // Day 4 waits for day 3 on Discord; Slack owes nothing earlier.
        let due = store.news().due(TAG, 200).unwrap();
        let hooks: Vec<&str> = due.iter().map(|q| q.hook.as_str()).collect();
        assert_eq!(hooks, ["slack"]);
        let due = store.news().due(TAG, 500).unwrap();
        let days: Vec<(&str, &serde_json::Value)> = due
            .iter()
            .map(|q| (q.hook.as_str(), &q.news["day"]))
            .collect();
        assert_eq!(
            days,
            [
                ("discord", &day(3)["day"]),
                ("discord", &day(4)["day"]),
                ("slack", &day(4)["day"])
            ]
        );
    }

    #[test]
    fn news_given_up_is_forgotten_once_its_hook_delivers_again() {
        let (mut store, _) = store_with_bimr3();
        let news = serde_json::json!({"event": "day", "day": 1});
        let refused = store
            .news_mut()
            .enqueue(TAG, "discord", "day", 1, &news, 100)
            .unwrap();
        store
            .news_mut()
            .mark_failed(refused, "HTTP 404", None)
            .unwrap();
        let other = store
            .news_mut()
            .enqueue(TAG, "slack", "day", 1, &news, 100)
            .unwrap();
        store
            .news_mut()
            .mark_failed(other, "HTTP 410", None)
            .unwrap();
        assert_eq!(store.news().health(TAG).unwrap().undeliverable, 2);
        // The GM fixed the Discord hook: its next news arrives.
        let fixed = store
            .news_mut()
            .enqueue(TAG, "discord", "day", 2, &news, 200)
            .unwrap();
        store.news_mut().mark_sent(fixed).unwrap();
        let health = store.news().health(TAG).unwrap();
        assert_eq!((health.to_send, health.undeliverable), (0, 1));
        assert_eq!(health.last_error.as_deref(), Some("slack: HTTP 410"));
        let fixed = store
            .news_mut()
            .enqueue(TAG, "slack", "day", 2, &news, 200)
            .unwrap();
        store.news_mut().mark_sent(fixed).unwrap();
        assert_eq!(store.news().health(TAG).unwrap(), NewsHealth::default());
    }

    #[test]
    fn a_mailbox_keeps_its_latest_mode() {
        let (mut store, _) = store_with_bimr3();
        assert_eq!(store.news().mailbox_mode("gm@h:993/INBOX").unwrap(), None);
        let idle = MailboxMode {
            mode: "idle".into(),
            since: 5,
            detail: None,
        };
        store
            .news_mut()
            .set_mailbox_mode("gm@h:993/INBOX", &idle)
            .unwrap();
        let dropped = MailboxMode {
            mode: "reconnecting".into(),
            since: 9,
            detail: Some("connection reset".into()),
        };
        store
            .news_mut()
            .set_mailbox_mode("gm@h:993/INBOX", &dropped)
            .unwrap();
        assert_eq!(
            store.news().mailbox_mode("gm@h:993/INBOX").unwrap(),
            Some(dropped)
        );
    }
}
