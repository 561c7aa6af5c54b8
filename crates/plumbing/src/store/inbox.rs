//! Received mail in the store: every received message kept raw and
//! recorded once (table `inbound_mail`), and the IMAP mailboxes the daemon
//! polls (`imap_mailboxes`) with the UIDVALIDITY each had when last
//! selected (RFC 3501 §2.3.1.1: UIDs are only comparable while UIDVALIDITY
//! stays the same; a new value means the server renumbered the mailbox).
//!
//! Receiving the same message twice (a fetch retried after a crash) finds
//! the first copy instead of recording it again: a message is the same when
//! its Message-ID and the SHA-256 of its bytes both match. The same letter
//! delivered twice with other trace headers ([`crate::mail::arrival`]) is
//! stored as a duplicate that is never answered; only its headers are
//! kept.
//!
//! Of mail whose sender was not authenticated only the head is kept once
//! that is known, a stranger's only until its `prune_after`; and the time
//! of the last notice about refused mail to each address decides whether
//! the next may go ([`Inbox::notice_turn`]).

use std::ops::{Deref, DerefMut};

use rusqlite::{OptionalExtension, params};
use sha2::{Digest, Sha256};

use super::{Store, StoreError};
use crate::game::hex;
use crate::mail::arrival::{Arrival, split_head};

/// What has become of a received message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InboundStatus {
    /// Not looked at yet.
    New,
    /// Read and acted on (orders stored, reply queued).
    Processed,
    /// Not acted on, with the reason in its note.
    Rejected,
    /// Handling it failed (a bug or a broken campaign); the note says why
    /// and the GM was told. It is kept for the GM to look at and retry.
    Failed,
    /// A second delivery of a mail already stored (same Message-ID, sender
    /// and content); its headers kept, never answered again.
    Duplicate,
}

impl InboundStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            InboundStatus::New => "new",
            InboundStatus::Processed => "processed",
            InboundStatus::Rejected => "rejected",
            InboundStatus::Failed => "failed",
            InboundStatus::Duplicate => "duplicate",
        }
    }

    fn parse(text: &str) -> Option<InboundStatus> {
        [
            InboundStatus::New,
            InboundStatus::Processed,
            InboundStatus::Rejected,
            InboundStatus::Failed,
            InboundStatus::Duplicate,
        ]
        .into_iter()
        .find(|status| status.as_str() == text)
    }
}

/// The outcome of recording a received message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InboundInsert {
    /// Recorded for the first time, with this id.
    New(i64),
    /// Seen before under this id; nothing was recorded.
    Duplicate(i64),
    /// The same letter delivered again: recorded as `id`, a duplicate of
    /// `original`, and not to be answered.
    Redelivered { id: i64, original: i64 },
}

impl InboundInsert {
    pub fn id(self) -> i64 {
        match self {
            InboundInsert::New(id)
            | InboundInsert::Duplicate(id)
            | InboundInsert::Redelivered { id, .. } => id,
        }
    }
}

/// What became of a second delivery of mail `original`: the stored copy's
/// note, and what the daemon says of it.
pub fn redelivery_note(original: i64) -> String {
    format!(
        "a second delivery of mail {original} (same Message-ID, sender and content); its headers \
         kept, not answered again"
    )
}

/// A received message as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InboundMail {
    pub id: i64,
    pub raw: Vec<u8>,
    /// Empty when the message had none.
    pub message_id: String,
    pub content_hash: String,
    pub received: i64,
    pub status: InboundStatus,
    pub note: Option<String>,
}

/// How a campaign's mail stands (`Inbox::mail_health`).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct MailHealth {
    /// Queued mail not sent yet, and when the oldest was queued.
    pub to_send: u32,
    pub oldest_to_send: Option<i64>,
    /// Mail that can never be delivered (a permanent failure).
    pub undeliverable: u32,
    /// Received mail of any campaign not read yet.
    pub unread: u32,
    /// Received mail set aside as failed (`gm mail list`).
    pub failed: u32,
    /// Notices about refused mail held back because one had gone to the
    /// same address within `mail.notice_interval_minutes`, since the last
    /// one sent to each address (the GM's log lists every one ever held).
    pub notices_held: u32,
}

/// Who a notice about refused mail goes to: each address has its own
/// interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeTo<'a> {
    Gm,
    /// The player of this name.
    Player(&'a str),
}

/// Whether a notice about refused mail may go now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeTurn {
    /// It may; `held` notices to the address were held back since the last.
    Send { held: u32 },
    /// One went to the address within the interval: hold this one back.
    Held,
}

/// The most of a second delivery's headers that is kept (its letter is
/// its original's, stored once).
const REDELIVERY_HEAD_BYTES: usize = 16 * 1024;

/// The GM's log kind of a notice held back.
pub const NOTICE_HELD: &str = "notice held";

/// The received mail, and how far each mailbox was read.
///
/// Borrowed from the store by [`Store::inbox`] to read and [`Store::inbox_mut`]
/// to change.
pub struct Inbox<S> {
    pub(super) store: S,
}

impl<S: Deref<Target = Store>> Inbox<S> {
    /// The first other stored mail with the same non-empty Message-ID as
    /// mail `id`, if any.
    ///
    /// # Errors
    /// The database fails.
    pub fn earlier_with_message_id(&self, id: i64) -> Result<Option<i64>, StoreError> {
        Ok(self
            .store
            .conn
            .prepare_cached(
                "SELECT MIN(o.id) FROM inbound_mail m JOIN inbound_mail o \
                 ON o.message_id = m.message_id AND o.id < m.id \
                 WHERE m.id = ?1 AND m.message_id != ''",
            )?
            .query_row(params![id], |row| row.get(0))?)
    }

    /// The ids of received messages with `status`, oldest first: the
    /// messages themselves are read one at a time, so a poll never holds
    /// every unread mail in memory at once.
    ///
    /// # Errors
    /// The database fails.
    pub fn ids_with_status(&self, status: InboundStatus) -> Result<Vec<i64>, StoreError> {
        let mut statement = self.store.conn.prepare_cached(
            "SELECT id FROM inbound_mail WHERE status = ?1 ORDER BY received, id",
        )?;
        let rows = statement.query_map(params![status.as_str()], |row| row.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// How the mail of `campaign` stands, for monitoring: its outbox
    /// backlog and undeliverable mail, and the received mail not yet read
    /// (of every campaign: a mail's campaign is known once it is read).
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn mail_health(&self, campaign: &str) -> Result<MailHealth, StoreError> {
        let campaign_id = self.store.campaign_id(campaign)?;
        let (to_send, oldest_to_send, undeliverable) = self.store.conn.query_row(
            "SELECT COUNT(*) FILTER (WHERE status = 'pending'), \
                    MIN(created) FILTER (WHERE status = 'pending'), \
                    COUNT(*) FILTER (WHERE status = 'failed') \
             FROM outbox WHERE campaign_id = ?1",
            params![campaign_id],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )?;
        let unread = self.store.conn.query_row(
            "SELECT COUNT(*) FROM inbound_mail WHERE status = 'new'",
            [],
            |row| row.get(0),
        )?;
        Ok(MailHealth {
            to_send,
            oldest_to_send,
            undeliverable,
            unread,
            failed: u32::try_from(self.failed(campaign)?.len()).unwrap_or(u32::MAX),
            notices_held: self.store.conn.query_row(
                "SELECT (SELECT COALESCE(SUM(notices_held), 0) FROM players \
                         WHERE campaign_id = ?1) \
                      + (SELECT COALESCE(SUM(gm_notices_held), 0) FROM daemon_state \
                         WHERE campaign_id = ?1)",
                params![campaign_id],
                |row| row.get(0),
            )?,
        })
    }

    /// The mail that failed to be handled and concerns campaign `campaign`
    /// (its GM was told of it) or no campaign at all, oldest first.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn failed(&self, campaign: &str) -> Result<Vec<InboundMail>, StoreError> {
        let campaign_id = self.store.campaign_id(campaign)?;
        let mut statement = self.store.conn.prepare(
            "SELECT id, raw, message_id, content_hash, received, status, note \
             FROM inbound_mail m WHERE status = 'failed' AND ( \
                EXISTS (SELECT 1 FROM gm_log l WHERE l.inbound_id = m.id AND l.campaign_id = ?1) \
                OR NOT EXISTS (SELECT 1 FROM gm_log l WHERE l.inbound_id = m.id \
                               AND l.campaign_id IS NOT NULL)) \
             ORDER BY received, id",
        )?;
        let rows = statement.query_map(params![campaign_id], inbound_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The received message `id`, if stored.
    ///
    /// # Errors
    /// The database fails or holds an unknown status.
    pub fn get(&self, id: i64) -> Result<Option<InboundMail>, StoreError> {
        let row = self
            .store
            .conn
            .query_row(
                "SELECT id, raw, message_id, content_hash, received, status, note \
                 FROM inbound_mail WHERE id = ?1",
                params![id],
                inbound_row,
            )
            .optional()?;
        Ok(row)
    }

    /// Received messages with `status`, oldest first.
    ///
    /// # Errors
    /// The database fails or holds an unknown status.
    pub fn with_status(&self, status: InboundStatus) -> Result<Vec<InboundMail>, StoreError> {
        let mut statement = self.store.conn.prepare(
            "SELECT id, raw, message_id, content_hash, received, status, note \
             FROM inbound_mail WHERE status = ?1 ORDER BY received, id",
        )?;
        let rows = statement.query_map(params![status.as_str()], inbound_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The UIDVALIDITY `mailbox` had when last selected; `None` the first time.
    ///
    /// # Errors
    /// The database fails.
    pub fn imap_uid_validity(&self, mailbox: &str) -> Result<Option<u32>, StoreError> {
        Ok(self
            .store
            .conn
            .query_row(
                "SELECT uid_validity FROM imap_mailboxes WHERE mailbox = ?1",
                params![mailbox],
                |row| row.get(0),
            )
            .optional()?)
    }
}

impl<S: DerefMut<Target = Store>> Inbox<S> {
    /// Record a received message unless it was recorded before. The same
    /// bytes under the same Message-ID are found, not stored again (a fetch
    /// retried after a crash); the same letter delivered again (same
    /// Message-ID, sender and fingerprint, other trace headers) is stored
    /// as a duplicate of the first, never to be answered: only its headers
    /// are kept (at most [`REDELIVERY_HEAD_BYTES`]), no longer than its
    /// original's.
    ///
    /// # Errors
    /// The database fails.
    pub fn insert(
        &mut self,
        raw: &[u8],
        arrival: &Arrival,
        received: i64,
    ) -> Result<InboundInsert, StoreError> {
        self.insert_head(raw, raw.len(), arrival, received)
    }

    /// [`Inbox::insert`] for a mail of which only `head` is
    /// kept, of the `delivered` bytes that arrived (its row records that
    /// size when it is larger than the head).
    ///
    /// # Errors
    /// The database fails.
    pub fn insert_head(
        &mut self,
        raw: &[u8],
        delivered: usize,
        arrival: &Arrival,
        received: i64,
    ) -> Result<InboundInsert, StoreError> {
        let delivered_size = (delivered > raw.len()).then_some(delivered as i64);
        let content_hash = hex(&Sha256::digest(raw));
        self.store.durably(|store| {
            let tx = store.conn.savepoint()?;
            let existing: Option<i64> = tx
                .prepare_cached(
                    "SELECT id FROM inbound_mail WHERE message_id = ?1 AND content_hash = ?2",
                )?
                .query_row(params![arrival.message_id, content_hash], |row| row.get(0))
                .optional()?;
            if let Some(id) = existing {
                return Ok(InboundInsert::Duplicate(id));
            }
            // Without a Message-ID two letters cannot be told apart from
            // one letter sent twice: both are read.
            let original: Option<i64> = if arrival.message_id.is_empty() {
                None
            } else {
                tx.prepare_cached(
                    "SELECT MIN(id) FROM inbound_mail \
                     WHERE message_id = ?1 AND sender = ?2 AND fingerprint = ?3",
                )?
                .query_row(
                    params![arrival.message_id, arrival.sender, arrival.fingerprint],
                    |row| row.get(0),
                )?
            };
            let (status, note) = match original {
                Some(first) => (InboundStatus::Duplicate, Some(redelivery_note(first))),
                None => (InboundStatus::New, None),
            };
            // A second delivery keeps only what differs from the first: its
            // headers. It is pruned with its original.
            let (kept, delivered_size, prune_after) = match original {
                Some(first) => {
                    let headers = split_head(raw).0;
                    let kept = &headers[..headers.len().min(REDELIVERY_HEAD_BYTES)];
                    let prune_after: Option<i64> = tx
                        .prepare_cached("SELECT prune_after FROM inbound_mail WHERE id = ?1")?
                        .query_row(params![first], |row| row.get(0))?;
                    (kept, Some(delivered as i64), prune_after)
                }
                None => (raw, delivered_size, None),
            };
            tx.prepare_cached(
                "INSERT INTO inbound_mail \
                 (raw, message_id, content_hash, received, sender, fingerprint, status, note, \
                  delivered_size, prune_after) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?
            .execute(params![
                kept,
                arrival.message_id,
                content_hash,
                received,
                arrival.sender,
                arrival.fingerprint,
                status.as_str(),
                note,
                delivered_size,
                prune_after
            ])?;
            let id = tx.last_insert_rowid();
            tx.commit()?;
            Ok(match original {
                Some(original) => InboundInsert::Redelivered { id, original },
                None => InboundInsert::New(id),
            })
        })
    }

    /// Keep only `head` of received mail `id`, stored as `stored` bytes,
    /// whose sender was not authenticated, recording the size it arrived
    /// with; with `prune_after`, a stranger's mail, the head itself is
    /// dropped at that time ([`Inbox::prune_stranger_mail`]), and so are
    /// the headers kept of its second deliveries.
    ///
    /// # Errors
    /// The database fails.
    pub fn keep_head(
        &mut self,
        id: i64,
        head: &[u8],
        stored: usize,
        prune_after: Option<i64>,
    ) -> Result<(), StoreError> {
        if head.len() < stored {
            self.store.conn
                .prepare_cached(
                    "UPDATE inbound_mail SET raw = ?2, delivered_size = COALESCE(delivered_size, ?3) \
                     WHERE id = ?1",
                )?
                .execute(params![id, head, stored as i64])?;
        }
        self.store
            .conn
            .prepare_cached(
                "UPDATE inbound_mail SET prune_after = ?2 WHERE id = ?1 OR (status = 'duplicate' \
                 AND (message_id, sender, fingerprint) = \
                     (SELECT message_id, sender, fingerprint FROM inbound_mail WHERE id = ?1))",
            )?
            .execute(params![id, prune_after])?;
        Ok(())
    }

    /// Drop the raw bytes of strangers' mail due to be pruned at `now`,
    /// keeping each row (when, Message-ID, content hash, what became of
    /// it), so a redelivery is still known. Returns how many were pruned.
    ///
    /// # Errors
    /// The database fails.
    pub fn prune_stranger_mail(&mut self, now: i64) -> Result<usize, StoreError> {
        Ok(self
            .store
            .conn
            .prepare_cached(
                "UPDATE inbound_mail SET raw = X'', pruned = ?1, \
                 delivered_size = COALESCE(delivered_size, length(raw)) \
                 WHERE prune_after <= ?1 AND pruned IS NULL",
            )?
            .execute(params![now])?)
    }

    /// Whether a notice about refused mail may go to `to` in `campaign` at
    /// `now`: not when one went to the same address less than `interval`
    /// seconds ago. A player's address is one address in every campaign
    /// he plays in; the GM's counts per campaign. Either way the answer is
    /// recorded: the time of the notice that goes (and nothing held back
    /// at that address any more), or one more held back in `campaign`.
    ///
    /// # Errors
    /// No such campaign or player, or the database fails.
    pub fn notice_turn(
        &mut self,
        campaign: &str,
        to: NoticeTo<'_>,
        now: i64,
        interval: i64,
    ) -> Result<NoticeTurn, StoreError> {
        // `rows` picks every row of the address, `row` the one of `campaign`.
        let (table, at, held, row, rows, id) = match to {
            NoticeTo::Gm => (
                "daemon_state",
                "gm_notice_at",
                "gm_notices_held",
                "campaign_id = ?1",
                "campaign_id = ?1",
                self.store.control_row(campaign)?,
            ),
            NoticeTo::Player(player) => (
                "players",
                "notice_at",
                "notices_held",
                "id = ?1",
                "email = (SELECT email FROM players WHERE id = ?1) COLLATE NOCASE",
                self.store.player_id(campaign, player)?.1,
            ),
        };
        let (last, held_back): (Option<i64>, u32) = self.store.conn.query_row(
            &format!("SELECT MAX({at}), SUM({held}) FROM {table} WHERE {rows}"),
            params![id],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )?;
        if last.is_some_and(|last| now - last < interval) {
            self.store.conn.execute(
                &format!("UPDATE {table} SET {held} = {held} + 1 WHERE {row}"),
                params![id],
            )?;
            return Ok(NoticeTurn::Held);
        }
        let tx = self.store.conn.savepoint()?;
        tx.execute(
            &format!("UPDATE {table} SET {held} = 0 WHERE {rows}"),
            params![id],
        )?;
        tx.execute(
            &format!("UPDATE {table} SET {at} = ?2 WHERE {row}"),
            params![id, now],
        )?;
        tx.commit()?;
        Ok(NoticeTurn::Send { held: held_back })
    }

    /// Mark what became of a received message.
    ///
    /// # Errors
    /// The database fails.
    pub fn set_status(
        &mut self,
        id: i64,
        status: InboundStatus,
        note: Option<&str>,
    ) -> Result<(), StoreError> {
        self.store.conn.execute(
            "UPDATE inbound_mail SET status = ?1, note = ?2 WHERE id = ?3",
            params![status.as_str(), note, id],
        )?;
        Ok(())
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
        self.store.conn.execute(
            "INSERT INTO imap_mailboxes (mailbox, uid_validity, checked) VALUES (?1, ?2, ?3) \
             ON CONFLICT (mailbox) DO UPDATE SET uid_validity = excluded.uid_validity, \
             checked = excluded.checked",
            params![mailbox, uid_validity, now],
        )?;
        Ok(())
    }

    /// Give the pages freed by cutting and pruning mail back to the file
    /// system, so a stranger's large mail does not stay in the file's size
    /// (a database made before realmgm asked for it keeps them).
    ///
    /// # Errors
    /// The database fails.
    pub fn release_free_pages(&mut self) -> Result<(), StoreError> {
        let pragma = |name: &str| -> Result<i64, StoreError> {
            Ok(self
                .store
                .conn
                .query_row(&format!("PRAGMA {name}"), [], |row| row.get(0))?)
        };
        const INCREMENTAL: i64 = 2;
        if pragma("auto_vacuum")? != INCREMENTAL || pragma("freelist_count")? == 0 {
            return Ok(());
        }
        // SQLite frees one page per step of this pragma: step it through.
        let mut vacuum = self.store.conn.prepare("PRAGMA incremental_vacuum")?;
        let mut steps = vacuum.query([])?;
        while steps.next()?.is_some() {}
        // In WAL mode the file is cut at a checkpoint; a reader still at an
        // older page only delays it to a later one.
        self.store
            .conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }
}

/// A row of `SELECT id, raw, message_id, content_hash, received, status,
/// note FROM inbound_mail`.
fn inbound_row(row: &rusqlite::Row<'_>) -> Result<InboundMail, rusqlite::Error> {
    let status: String = row.get(5)?;
    Ok(InboundMail {
        id: row.get(0)?,
        raw: row.get(1)?,
        message_id: row.get(2)?,
        content_hash: row.get(3)?,
        received: row.get(4)?,
        status: InboundStatus::parse(&status).ok_or_else(|| {
            rusqlite::Error::InvalidColumnType(
                5,
                format!("status '{status}'"),
                rusqlite::types::Type::Text,
            )
        })?,
        note: row.get(6)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::arrival::{Arrival, arrival};
    use crate::store::tests::NOW;

    #[test]
    fn uid_validity_is_remembered_per_mailbox() {
        let mut store = Store::open_in_memory(crate::TEST_GAMES).unwrap();
        let inbox = "gm@127.0.0.1:1143/INBOX";
        assert_eq!(store.inbox().imap_uid_validity(inbox).unwrap(), None);
        store
            .inbox_mut()
            .set_imap_uid_validity(inbox, 7, 1)
            .unwrap();
        store
            .inbox_mut()
            .set_imap_uid_validity("other", 9, 1)
            .unwrap();
        store
            .inbox_mut()
            .set_imap_uid_validity(inbox, 8, 2)
            .unwrap();
        assert_eq!(store.inbox().imap_uid_validity(inbox).unwrap(), Some(8));
        assert_eq!(store.inbox().imap_uid_validity("other").unwrap(), Some(9));
    }

    #[test]
    fn a_letter_delivered_again_through_another_relay_is_kept_as_a_duplicate() {
        let mut store = Store::open_in_memory(crate::TEST_GAMES).unwrap();
        let raw = b"From: ann@x.test\r\nMessage-ID: <a@x>\r\nSubject: [B] o\r\n\r\nH / H\r\n";
        let first = store.inbox_mut().insert(raw, &arrival(raw), NOW).unwrap();
        let mut relayed = b"Received: from relay2 by mx; Tue, 1 Jan 2030\r\n".to_vec();
        relayed.extend_from_slice(raw);
        let again = store
            .inbox_mut()
            .insert(&relayed, &arrival(&relayed), NOW + 1)
            .unwrap();
        assert_eq!(
            again,
            InboundInsert::Redelivered {
                id: again.id(),
                original: first.id()
            }
        );
        let copies = store.inbox().with_status(InboundStatus::Duplicate).unwrap();
        assert_eq!(copies.len(), 1);
        let relayed_headers = &relayed[..relayed.len() - b"\r\nH / H\r\n".len()];
        assert_eq!(copies[0].raw, relayed_headers, "the copy keeps its headers");
        assert!(
            copies[0]
                .note
                .as_deref()
                .unwrap()
                .contains("second delivery")
        );
        assert_eq!(
            store.inbox().with_status(InboundStatus::New).unwrap().len(),
            1
        );
        // The same Message-ID from another sender, or with another body, is a
        // letter of its own.
        let forged = b"From: eve@x.test\r\nMessage-ID: <a@x>\r\nSubject: [B] o\r\n\r\nH / H\r\n";
        let forged = store
            .inbox_mut()
            .insert(forged, &arrival(forged), NOW + 2)
            .unwrap();
        assert!(matches!(forged, InboundInsert::New(_)));
        assert_eq!(
            store.inbox().earlier_with_message_id(forged.id()).unwrap(),
            Some(first.id())
        );
        assert_eq!(
            store.inbox().earlier_with_message_id(first.id()).unwrap(),
            None
        );
    }

    #[test]
    fn inbound_mail_is_recorded_once() {
        let mut store = Store::open_in_memory(crate::TEST_GAMES).unwrap();
        let raw = b"Message-ID: <a@x>\r\nSubject: [BIMR3] orders\r\n\r\nH / H\r\n";
        let first = store.inbox_mut().insert(raw, &arrival(raw), NOW).unwrap();
        assert!(matches!(first, InboundInsert::New(_)));
        let again = store
            .inbox_mut()
            .insert(raw, &arrival(raw), NOW + 1)
            .unwrap();
        assert_eq!(again, InboundInsert::Duplicate(first.id()));
        // Same bytes without a Message-ID, or a different body: both new.
        let other = store
            .inbox_mut()
            .insert(raw, &Arrival::default(), NOW + 2)
            .unwrap();
        assert!(matches!(other, InboundInsert::New(_)));
        assert_eq!(
            store
                .inbox_mut()
                .insert(raw, &Arrival::default(), NOW + 3)
                .unwrap()
                .id(),
            other.id()
        );
        let changed = store
            .inbox_mut()
            .insert(
                b"different",
                &Arrival {
                    message_id: "a@x".into(),
                    ..arrival(b"different")
                },
                NOW + 4,
            )
            .unwrap();
        assert!(matches!(changed, InboundInsert::New(_)));

        store
            .inbox_mut()
            .set_status(first.id(), InboundStatus::Rejected, Some("no secret"))
            .unwrap();
        let new = store.inbox().with_status(InboundStatus::New).unwrap();
        assert_eq!(new.len(), 2);
        let rejected = store.inbox().with_status(InboundStatus::Rejected).unwrap();
        assert_eq!(rejected[0].raw, raw);
        assert_eq!(rejected[0].message_id, "a@x");
        assert_eq!(rejected[0].note.as_deref(), Some("no secret"));
    }
}
