//! Mail to send in the store: the queue with its retries (table `outbox`)
//! and the private messages the daemon passed on between players (table
//! `relayed_messages`), kept by the turn they arrived in so that turn's
//! reports can repeat them to their readers.

use std::collections::BTreeMap;
use std::ops::{Deref, DerefMut};

use rusqlite::params;

use super::packed::{PackedBytes, PackedText, UnpackedBytes, UnpackedText};
use super::{Store, StoreError};

/// A message to queue for sending.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutgoingMail {
    /// The campaign it belongs to, if any.
    pub campaign: Option<String>,
    pub recipient: String,
    pub subject: String,
    /// The plain text, always sent (first, when there is more).
    pub body: String,
    /// Extra headers (In-Reply-To, References, ...), name to value.
    pub headers: BTreeMap<String, String>,
    /// An HTML alternative of the body.
    pub html: Option<String>,
    pub attachments: Vec<MailAttachment>,
    /// The stored report this mail carries: its HTML and attachments are
    /// read from the report when the mail is sent, not stored twice.
    pub report: Option<ReportParts>,
}

/// Which stored report a queued mail carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportParts {
    pub day: u32,
    /// The player; `None` for the GM's history.
    pub reader: Option<String>,
}

/// A file sent with a message (a report's map picture).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailAttachment {
    pub name: String,
    /// MIME type, e.g. `image/svg+xml`.
    pub mime: String,
    pub bytes: Vec<u8>,
}

/// The attachments a `SELECT name, mime, bytes ...` statement finds.
///
/// # Errors
/// The database fails.
pub(super) fn attachments(
    statement: &mut rusqlite::Statement<'_>,
    params: impl rusqlite::Params,
) -> Result<Vec<MailAttachment>, rusqlite::Error> {
    statement
        .query_map(params, |row| {
            Ok(MailAttachment {
                name: row.get(0)?,
                mime: row.get(1)?,
                bytes: row.get::<_, UnpackedBytes>(2)?.0,
            })
        })?
        .collect()
}

/// A queued message as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedMail {
    pub id: i64,
    pub mail: OutgoingMail,
    pub attempts: u32,
    pub next_attempt: i64,
    pub last_error: Option<String>,
}

/// One passed-on message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelayedMessage {
    /// The player it was for.
    pub recipient: String,
    /// The sender as he signed (his character, else his name).
    pub sender: String,
    pub text: String,
}

/// The mail waiting to go out, and what went out before.
///
/// Borrowed from the store by [`Store::outbox`] to read and [`Store::outbox_mut`]
/// to change.
pub struct Outbox<S> {
    pub(super) store: S,
}

impl<S: Deref<Target = Store>> Outbox<S> {
    /// Whether a report of `day` for `reader` (the GM's history when
    /// `None`) was mailed before: the day is run again after a rollback.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn report_mailed_before(
        &self,
        campaign: &str,
        day: u32,
        reader: Option<&str>,
    ) -> Result<bool, StoreError> {
        let campaign_id = self.store.campaign_id(campaign)?;
        Ok(self.store.conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM outbox WHERE campaign_id = ?1 AND report_day = ?2 \
             AND report_reader = ?3)",
            params![campaign_id, day, reader.unwrap_or_default()],
            |row| row.get(0),
        )?)
    }

    /// Pending messages due at `now`, oldest first.
    ///
    /// # Errors
    /// The database fails or holds unreadable headers.
    pub fn due(&self, now: i64) -> Result<Vec<QueuedMail>, StoreError> {
        let mut statement = self.store.conn.prepare(
            "SELECT o.id, c.name, o.recipient, o.subject, o.body, o.headers_json, o.attempts, \
                    o.next_attempt, o.last_error, COALESCE(o.html, r.html), o.report_day, \
                    o.report_reader \
             FROM outbox o LEFT JOIN campaigns c ON c.id = o.campaign_id \
             LEFT JOIN reports r ON r.campaign_id = o.campaign_id AND r.day = o.report_day \
                                AND r.reader = o.report_reader \
             WHERE o.status = 'pending' AND o.next_attempt <= ?1 ORDER BY o.next_attempt, o.id",
        )?;
        let rows = statement.query_map(params![now], |row| {
            let headers: String = row.get(5)?;
            let headers = serde_json::from_str(&headers).map_err(|e| {
                rusqlite::Error::FromSqlConversionFailure(5, rusqlite::types::Type::Text, e.into())
            })?;
            Ok(QueuedMail {
                id: row.get(0)?,
                mail: OutgoingMail {
                    campaign: row.get(1)?,
                    recipient: row.get(2)?,
                    subject: row.get(3)?,
                    body: row.get::<_, UnpackedText>(4)?.0,
                    headers,
                    html: row.get::<_, Option<UnpackedText>>(9)?.map(|html| html.0),
                    attachments: Vec::new(),
                    report: row
                        .get::<_, Option<u32>>(10)?
                        .map(|day| -> Result<ReportParts, rusqlite::Error> {
                            let reader: String = row.get(11)?;
                            Ok(ReportParts {
                                day,
                                reader: Some(reader).filter(|r| !r.is_empty()),
                            })
                        })
                        .transpose()?,
                },
                attempts: row.get(6)?,
                next_attempt: row.get(7)?,
                last_error: row.get(8)?,
            })
        })?;
        let mut due: Vec<QueuedMail> = rows.collect::<Result<_, _>>()?;
        let mut files = self.store.conn.prepare(
            "SELECT name, mime, bytes FROM outbox_attachments WHERE outbox_id = ?1 \
             ORDER BY position",
        )?;
        let mut report_files = self.store.conn.prepare(
            "SELECT a.name, a.mime, a.bytes FROM report_attachments a \
             JOIN outbox o ON o.campaign_id = a.campaign_id AND o.report_day = a.day \
                          AND o.report_reader = a.reader \
             WHERE o.id = ?1 ORDER BY a.position",
        )?;
        for queued in &mut due {
            queued.mail.attachments = if queued.mail.report.is_some() {
                attachments(&mut report_files, params![queued.id])?
            } else {
                attachments(&mut files, params![queued.id])?
            };
        }
        Ok(due)
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
        let id = self.store.campaign_id(campaign)?;
        let mut statement = self.store.conn.prepare(
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

impl<S: DerefMut<Target = Store>> Outbox<S> {
    /// Queue a message; it is due at once. Returns its id.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn enqueue(&mut self, mail: &OutgoingMail, now: i64) -> Result<i64, StoreError> {
        let campaign_id = mail
            .campaign
            .as_deref()
            .map(|name| self.store.campaign_id(name))
            .transpose()?;
        let headers = serde_json::to_string(&mail.headers).map_err(|e| StoreError::Corrupt {
            campaign: mail.campaign.clone().unwrap_or_default(),
            message: e.to_string(),
        })?;
        let tx = self.store.conn.savepoint()?;
        tx.execute(
            "INSERT INTO outbox (campaign_id, recipient, subject, body, headers_json, \
             next_attempt, created, html, report_day, report_reader) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7, ?8, ?9)",
            params![
                campaign_id,
                mail.recipient,
                mail.subject,
                PackedText(&mail.body),
                headers,
                now,
                mail.html.as_deref().map(PackedText),
                mail.report.as_ref().map(|r| r.day),
                mail.report
                    .as_ref()
                    .map(|r| r.reader.clone().unwrap_or_default()),
            ],
        )?;
        let id = tx.last_insert_rowid();
        for (position, file) in (0_i64..).zip(&mail.attachments) {
            tx.execute(
                "INSERT INTO outbox_attachments (outbox_id, position, name, mime, bytes) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id, position, file.name, file.mime, PackedBytes(&file.bytes)],
            )?;
        }
        tx.commit()?;
        Ok(id)
    }

    /// Drop the body, HTML and attachments of campaign `campaign`'s mail
    /// sent and queued before `before`, keeping the row (recipient, subject,
    /// when) and noting `now` as when it was pruned. Returns how many mails
    /// were pruned.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn prune_sent(
        &mut self,
        campaign: &str,
        before: i64,
        now: i64,
    ) -> Result<usize, StoreError> {
        let campaign_id = self.store.campaign_id(campaign)?;
        let tx = self.store.conn.savepoint()?;
        tx.execute(
            "DELETE FROM outbox_attachments WHERE outbox_id IN (SELECT id FROM outbox \
             WHERE campaign_id = ?1 AND status = 'sent' AND created < ?2 AND pruned IS NULL)",
            params![campaign_id, before],
        )?;
        let pruned = tx.execute(
            "UPDATE outbox SET body = '', html = NULL, pruned = ?3 \
             WHERE campaign_id = ?1 AND status = 'sent' AND created < ?2 AND pruned IS NULL",
            params![campaign_id, before, now],
        )?;
        tx.commit()?;
        Ok(pruned)
    }

    /// Record that message `id` was handed to the mail server.
    ///
    /// # Errors
    /// The database fails.
    pub fn mark_sent(&mut self, id: i64) -> Result<(), StoreError> {
        record_sent(&self.store, "outbox", id)
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
        record_failed(&self.store, "outbox", id, error, retry_at)
    }

    /// Keep a message passed on while `day` was pending.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn record_relayed(
        &mut self,
        campaign: &str,
        day: u32,
        message: &RelayedMessage,
        now: i64,
    ) -> Result<(), StoreError> {
        let id = self.store.campaign_id(campaign)?;
        self.store.conn.execute(
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
}

/// A delivery of `table` (the outbox, or the news deliveries, which share
/// its columns) handed over at last.
pub(super) fn record_sent(store: &Store, table: &'static str, id: i64) -> Result<(), StoreError> {
    store.conn.execute(
        &format!(
            "UPDATE {table} SET status = 'sent', attempts = attempts + 1, last_error = NULL \
             WHERE id = ?1"
        ),
        params![id],
    )?;
    Ok(())
}

/// A failed attempt at a delivery of `table`: tried again at `retry_at`, or
/// given up (status `failed`) when `retry_at` is `None`.
pub(super) fn record_failed(
    store: &Store,
    table: &'static str,
    id: i64,
    error: &str,
    retry_at: Option<i64>,
) -> Result<(), StoreError> {
    let status = if retry_at.is_some() {
        "pending"
    } else {
        "failed"
    };
    store.conn.execute(
        &format!(
            "UPDATE {table} SET status = ?1, attempts = attempts + 1, last_error = ?2, \
             next_attempt = COALESCE(?3, next_attempt) WHERE id = ?4"
        ),
        params![status, error, retry_at, id],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::store::days::StoredReport;
    use crate::store::tests::{NOW, store_with_bimr3};

    #[test]
    fn outbox_queues_retries_and_gives_up() {
        let (mut store, _) = store_with_bimr3();
        let mail = OutgoingMail {
            campaign: Some("BIMR3".into()),
            recipient: "erin@example.org".into(),
            subject: "[BIMR3] Day 1 results".into(),
            body: "You hide.".into(),
            headers: BTreeMap::from([("In-Reply-To".to_string(), "<a@x>".to_string())]),
            html: Some("<p>You hide.</p>".into()),
            attachments: vec![crate::store::MailAttachment {
                name: "map.svg".into(),
                mime: "image/svg+xml".into(),
                bytes: b"<svg/>".to_vec(),
            }],
            report: None,
        };
        let id = store.outbox_mut().enqueue(&mail, NOW).unwrap();
        let loose = OutgoingMail {
            campaign: None,
            ..mail.clone()
        };
        let loose_id = store.outbox_mut().enqueue(&loose, NOW + 1).unwrap();
        assert!(store.outbox().due(NOW - 1).unwrap().is_empty());
        let due = store.outbox().due(NOW + 1).unwrap();
        assert_eq!(due.len(), 2);
        assert_eq!((due[0].id, &due[0].mail, due[0].attempts), (id, &mail, 0));

        store
            .outbox_mut()
            .mark_failed(id, "connection refused", Some(NOW + 300))
            .unwrap();
        store.outbox_mut().mark_sent(loose_id).unwrap();
        assert!(store.outbox().due(NOW + 299).unwrap().is_empty());
        let due = store.outbox().due(NOW + 300).unwrap();
        assert_eq!(
            (due[0].attempts, due[0].last_error.as_deref()),
            (1, Some("connection refused"))
        );
        store
            .outbox_mut()
            .mark_failed(id, "mailbox unknown", None)
            .unwrap();
        assert!(store.outbox().due(NOW + 10_000).unwrap().is_empty());

        let unknown = OutgoingMail {
            campaign: Some("NOPE".into()),
            ..mail
        };
        assert!(matches!(
            store.outbox_mut().enqueue(&unknown, NOW),
            Err(StoreError::NoSuchCampaign(_))
        ));
    }

    #[test]
    fn a_report_mail_carries_the_stored_report_and_is_pruned_once_old() {
        let (mut store, _) = store_with_bimr3();
        let map = format!("<svg>{}</svg>", "<polygon points='1,2 3,4'/>".repeat(300));
        let html = format!("<p>{}</p>", "You hide in the Oak Woods. ".repeat(100));
        store
            .days_mut()
            .save_report(
                "BIMR3",
                Some("Erin"),
                &StoredReport {
                    day: 1,
                    subject: "[BIMR3] Day 1 report".into(),
                    text: "You hide in the Oak Woods. ".repeat(100),
                    html: Some(html.clone()),
                    attachments: vec![MailAttachment {
                        name: "map.svg".into(),
                        mime: "image/svg+xml".into(),
                        bytes: map.clone().into_bytes(),
                    }],
                },
            )
            .unwrap();
        let mail = OutgoingMail {
            campaign: Some("BIMR3".into()),
            recipient: "erin@example.org".into(),
            subject: "[BIMR3] Day 1 report".into(),
            body: "=== [BIMR3] day 1 report ===".into(),
            report: Some(ReportParts {
                day: 1,
                reader: Some("Erin".into()),
            }),
            ..OutgoingMail::default()
        };
        let id = store.outbox_mut().enqueue(&mail, NOW).unwrap();
        // The mail stores neither the HTML nor the map: it reads them from the report.
        let (html_kept, files_kept): (Option<String>, i64) = store
            .conn
            .query_row(
                "SELECT html, (SELECT COUNT(*) FROM outbox_attachments WHERE outbox_id = ?1) \
                 FROM outbox WHERE id = ?1",
                params![id],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .unwrap();
        assert_eq!((html_kept, files_kept), (None, 0));
        let due = store.outbox().due(NOW).unwrap();
        assert_eq!(due.len(), 1);
        assert_eq!(due[0].mail.html.as_deref(), Some(html.as_str()));
        assert_eq!(due[0].mail.attachments[0].bytes, map.as_bytes());
        // The report is stored compressed and read back whole.
        let stored: i64 = store
            .conn
            .query_row("SELECT length(html) FROM reports", [], |row| row.get(0))
            .unwrap();
        assert!(stored * 5 < html.len() as i64, "{stored} of {}", html.len());
        let report = store
            .days()
            .report("BIMR3", Some("Erin"), Some(1))
            .unwrap()
            .unwrap();
        assert_eq!(report.html.as_deref(), Some(html.as_str()));
        assert_eq!(report.attachments[0].bytes, map.as_bytes());

        // Sent, then old: its contents go, its row and the report stay.
        assert_eq!(
            store
                .outbox_mut()
                .prune_sent("BIMR3", NOW + 1, NOW + 2)
                .unwrap(),
            0,
            "not sent yet"
        );
        store.outbox_mut().mark_sent(id).unwrap();
        assert_eq!(
            store
                .outbox_mut()
                .prune_sent("BIMR3", NOW, NOW + 2)
                .unwrap(),
            0,
            "not old yet"
        );
        assert_eq!(
            store
                .outbox_mut()
                .prune_sent("BIMR3", NOW + 1, NOW + 2)
                .unwrap(),
            1
        );
        assert_eq!(
            store
                .outbox_mut()
                .prune_sent("BIMR3", NOW + 1, NOW + 3)
                .unwrap(),
            0,
            "once"
        );
        let (body, pruned): (String, i64) = store
            .conn
            .query_row(
                "SELECT body, pruned FROM outbox WHERE id = ?1",
                params![id],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .unwrap();
        assert_eq!((body.as_str(), pruned), ("", NOW + 2));
        let report = store
            .days()
            .report("BIMR3", Some("Erin"), Some(1))
            .unwrap()
            .unwrap();
        assert_eq!(report.attachments[0].bytes, map.as_bytes());
    }
}
