//! Mail in: three ways (IMAP polling, a Maildir folder, `realmgm ingest`
//! from an MTA pipe) that all store the raw message in SQLite first,
//! idempotently on Message-ID plus content hash, and only then mark it read
//! at the source; then each stored message is read once and dispatched.
//!
//! Dispatch: unreadable mail is logged; robots (auto-replies, loops,
//! bounces) are never answered, and a bounce is recorded against the player
//! whose address failed and told to the GM; mail is routed to a campaign by
//! plus-address or subject tag; the sender is identified ([`super::auth`]);
//! the body loses quoted text so a player can answer a report by writing on
//! top; then the command or the orders are handled. No mail crashes the
//! daemon: a failure while handling one is recorded against it.

use std::path::Path;

use anyhow::Context;

use crate::mail::arrival::arrival;
use crate::mail::clean::clean_reply_with_markers;
use crate::mail::imap::{ImapClient, ImapSettings};
use crate::mail::inbound::{BodySource, InboundMail, InboundOptions, parse};
use crate::mail::maildir::Maildir;
use crate::mail::outbound::LOOP_TOKEN;
use crate::mail::route::{plus_address, subject_tags, take_password};
use crate::store::{InboundInsert, InboundStatus, StoredCampaign, redelivery_note};

use super::auth::{Sender, identify};
use super::commands;
use super::{Daemon, bare_address, sender};

/// A mail after reading: what the handlers need.
pub struct Letter {
    pub inbound_id: Option<i64>,
    pub mail: InboundMail,
    /// The player's own text: password line blanked, quotes cut.
    pub text: String,
    /// Line `n` of `text` is line `first_line + n - 1` of the body.
    pub first_line: usize,
    /// Things about the mail the reply should mention.
    pub notes: Vec<String>,
}

impl Letter {
    /// Message-ID and References of the mail, for threading a reply.
    pub fn answering(&self) -> Option<(&str, &[String])> {
        self.mail
            .message_id
            .as_deref()
            .map(|id| (id, self.mail.references.as_slice()))
    }
}

impl Daemon {
    /// Store a raw message (nothing else); a message stored before is found,
    /// not stored again, and a second delivery of a letter stored before is
    /// kept as its duplicate.
    ///
    /// # Errors
    /// The store fails.
    pub fn store_raw(&mut self, raw: &[u8], now: i64) -> anyhow::Result<InboundInsert> {
        let inserted = self.store.insert_inbound_mail(raw, &arrival(raw), now)?;
        if let InboundInsert::Redelivered { id, original } = inserted {
            let note = format!("mail {id}: {}", redelivery_note(original));
            self.store.log_gm(None, now, "duplicate", &note, Some(id))?;
        }
        Ok(inserted)
    }

    /// Store a message from a pipe and handle it at once (`realmgm ingest`).
    /// Returns the stored row and what became of it.
    ///
    /// # Errors
    /// The store fails.
    pub fn ingest(&mut self, raw: &[u8], now: i64) -> anyhow::Result<(InboundInsert, String)> {
        let inserted = self.store_raw(raw, now)?;
        let note = match inserted {
            InboundInsert::New(_) => {
                let handled = self.handle_stored(now)?;
                handled.last().map(|(_, n)| n.clone()).unwrap_or_default()
            }
            InboundInsert::Duplicate(id) => format!("already stored as mail {id}; not read again"),
            InboundInsert::Redelivered { original, .. } => redelivery_note(original),
        };
        Ok((inserted, note))
    }

    /// Store every new message of a Maildir folder, moving each to `cur/`
    /// only after its row is committed. Returns how many were new.
    ///
    /// # Errors
    /// The folder cannot be read, or the store fails.
    pub fn poll_maildir(&mut self, root: &Path, now: i64) -> anyhow::Result<usize> {
        let maildir = Maildir::open(root)?;
        let mut new = 0;
        for entry in maildir.list_new()? {
            let raw = maildir.read(&entry)?;
            if matches!(self.store_raw(&raw, now)?, InboundInsert::New(_)) {
                new += 1;
            }
            maildir.mark_processed(&entry)?;
        }
        Ok(new)
    }

    /// Store every unseen message of an IMAP folder, flagging each as seen
    /// only after its row is committed. When the folder's UIDVALIDITY
    /// differs from the one remembered, the server has renumbered it and its
    /// flags cannot be trusted: every message is fetched again (those stored
    /// before are found as duplicates) and the GM's log says so. Returns how
    /// many were new.
    ///
    /// # Errors
    /// The server cannot be reached or refuses, or the store fails.
    pub fn poll_imap(
        &mut self,
        settings: &ImapSettings,
        folder: &str,
        now: i64,
    ) -> anyhow::Result<usize> {
        let mut client = ImapClient::connect(settings)?;
        let status = client
            .select(folder)
            .with_context(|| format!("cannot open the IMAP folder '{folder}'"))?;
        let mailbox = mailbox_key(settings, folder);
        let remembered = self.store.imap_uid_validity(&mailbox)?;
        let scan = scan_for(remembered, status.uid_validity);
        let uids = match scan {
            Scan::Unseen => client.search_unseen()?,
            Scan::Everything { .. } => client.search_all()?,
        };
        let mut new = 0;
        for uid in &uids {
            let raw = client.fetch(*uid)?;
            if matches!(self.store_raw(&raw, now)?, InboundInsert::New(_)) {
                new += 1;
            }
            client.mark_seen(*uid)?;
        }
        client.logout();
        if let Scan::Everything { old, new: current } = scan {
            let note = format!(
                "IMAP mailbox {mailbox}: UIDVALIDITY changed from {old} to {current} (the \
                 server renumbered it); re-scanned all {} message(s), {new} of them new",
                uids.len()
            );
            self.store.log_gm(None, now, "imap", &note, None)?;
        }
        if let Some(current) = status.uid_validity {
            self.store.set_imap_uid_validity(&mailbox, current, now)?;
        }
        Ok(new)
    }

    /// Read and act on every stored message not read yet, oldest first.
    /// Returns each message's id with a note of what became of it.
    ///
    /// A mail whose handling fails or panics is marked failed with the
    /// reason, its GM is told, and the next mail is handled: one mail never
    /// stops the others, of its campaign or any other.
    ///
    /// # Errors
    /// The store itself fails.
    pub fn handle_stored(&mut self, now: i64) -> anyhow::Result<Vec<(i64, String)>> {
        self.handle_stored_while(now, &|| true)
    }

    /// As [`Daemon::handle_stored`], asking `go_on` before each mail: a
    /// daemon told to stop leaves the mails after the current one new, for
    /// its next start.
    ///
    /// # Errors
    /// The store itself fails.
    pub fn handle_stored_while(
        &mut self,
        now: i64,
        go_on: &dyn Fn() -> bool,
    ) -> anyhow::Result<Vec<(i64, String)>> {
        let mut handled = Vec::new();
        for stored in self.store.inbound_with_status(InboundStatus::New)? {
            if !go_on() {
                break;
            }
            // Everything one mail causes is committed together with its new
            // status: a crash midway leaves it new, to be read again.
            self.store.begin_work()?;
            let outcome = super::guard::contained(|| self.dispatch(stored.id, &stored.raw, now));
            let (status, note) = match outcome {
                Ok(outcome) => outcome,
                Err(error) => {
                    // Nothing the failed attempt wrote may stay.
                    self.store.abandon_work();
                    self.store.begin_work()?;
                    match self.record_failure(stored.id, &stored.raw, &error, now) {
                        Ok(note) => (InboundStatus::Failed, note),
                        Err(error) => {
                            self.store.abandon_work();
                            return Err(error);
                        }
                    }
                }
            };
            if let Err(error) = self
                .store
                .set_inbound_status(stored.id, status, Some(&note))
            {
                self.store.abandon_work();
                return Err(error.into());
            }
            self.store.commit_work()?;
            handled.push((stored.id, note));
        }
        Ok(handled)
    }

    /// Record that mail `id` could not be handled, and tell the GM of the
    /// campaign it is for (when that much can be read) by mail. Returns the
    /// mail's note.
    fn record_failure(
        &mut self,
        id: i64,
        raw: &[u8],
        error: &anyhow::Error,
        now: i64,
    ) -> anyhow::Result<String> {
        let note = format!("could not be handled: {error:#}");
        let campaign = super::guard::contained(|| {
            let mail = parse(raw, &InboundOptions::default())?;
            Ok(self.route(&mail)?.map(|(stored, _)| stored.campaign))
        });
        match campaign {
            Ok(Some(campaign)) => {
                let message = format!(
                    "Mail {id} could not be handled and was set aside: {error:#}.\n\nThe mail is \
                     kept in the database and the daemon goes on with the others. Once the cause \
                     is fixed, `realmgm gm --campaign {} mail retry --id {id}` reads it again.",
                    campaign.name
                );
                self.tell_gm(&campaign, "error", "a mail failed", &message, Some(id), now)?;
            }
            _ => self.store.log_gm(None, now, "error", &note, Some(id))?,
        }
        Ok(note)
    }

    fn dispatch(
        &mut self,
        id: i64,
        raw: &[u8],
        now: i64,
    ) -> anyhow::Result<(InboundStatus, String)> {
        // Attachments are never read: the campaign's size limit only decides
        // how the reply words them, once the campaign is known.
        let options = InboundOptions {
            max_attachment_bytes: usize::MAX,
            loop_token: LOOP_TOKEN.to_string(),
        };
        let mail = match parse(raw, &options) {
            Ok(mail) => mail,
            Err(error) => {
                let note = format!("unreadable mail: {error}");
                self.store.log_gm(None, now, "rejected", &note, Some(id))?;
                return Ok((InboundStatus::Rejected, note));
            }
        };
        let from = mail.from.as_ref().map(|f| f.address.clone());
        if let Some(kind) = &mail.auto_kind {
            return self.robot(id, &mail, kind, now);
        }
        let mut untagged_note = None;
        let routed = match self.route(&mail)? {
            Some(routed) => routed,
            None => match self.route_by_sender(from.as_deref(), id, now)? {
                BySender::One(stored) => {
                    untagged_note = Some(format!(
                        "your mail had no campaign tag, so it was read for [{tag}], the one campaign \
                         you play in; put [{tag}] in the subject to be sure",
                        tag = stored.campaign.name
                    ));
                    (*stored, None)
                }
                BySender::Answered(note) => return Ok((InboundStatus::Rejected, note)),
            },
        };
        let (stored, plus_secret) = routed;
        let campaign = stored.campaign.clone();
        if let Some(earlier) = self.store.earlier_mail_with_message_id(id)? {
            let note = format!(
                "mail {id} has the Message-ID of mail {earlier} but another sender or content; \
                 it is read as a mail of its own"
            );
            self.store
                .log_gm(Some(&campaign.name), now, "message-id", &note, Some(id))?;
        }
        let password = take_password(&mail.body_text);
        let secret = plus_secret.or(password.password.clone());
        let who = identify(&self.store, &campaign, from.as_deref(), secret.as_deref())?;
        let marker = super::confirm::marker(&campaign.name);
        let cleaned = clean_reply_with_markers(&password.text, &[marker.as_str()]);
        let mut notes: Vec<String> = untagged_note.into_iter().collect();
        if mail.body_source == BodySource::Html {
            notes.push("your mail had no plain-text part; it was read from its HTML".to_string());
        }
        let limit = campaign
            .mail
            .clone()
            .unwrap_or_default()
            .max_attachment_bytes();
        for attachment in &mail.attachments {
            notes.push(if attachment.bytes.len() > limit {
                format!(
                    "the attachment {} ({} bytes) is larger than the {limit} bytes the campaign \
                     allows and was ignored",
                    attachment.name,
                    attachment.bytes.len()
                )
            } else {
                format!(
                    "the attachment {} was not read; write orders in the body",
                    attachment.name
                )
            });
        }
        // Greetings and sign-offs are set aside, each named in the answer.
        let (text, courtesies) =
            crate::mail::courtesy::set_aside(&cleaned.text, cleaned.first_line);
        notes.extend(courtesies);
        let letter = Letter {
            inbound_id: Some(id),
            text,
            first_line: cleaned.first_line,
            mail,
            notes,
        };
        match who {
            Sender::Stranger(address) => {
                let note = format!("mail from {address}, who is not in the campaign; not answered");
                self.store
                    .log_gm(Some(&campaign.name), now, "stranger", &note, Some(id))?;
                Ok((InboundStatus::Rejected, note))
            }
            Sender::GmWithoutSecret => {
                let note = "mail from the GM address without the right GM secret".to_string();
                let body = format!(
                    "{marker} GM notice ===\n\nA mail from your address '{}' arrived without the \
                     right GM secret and was not acted on. Put a line `Password: <GM secret>` in \
                     GM mail; `realmgm gm secret --campaign {}` makes a new secret.\n",
                    letter.mail.subject, campaign.name
                );
                self.store
                    .log_gm(Some(&campaign.name), now, "rejected", &note, Some(id))?;
                self.queue(
                    &campaign,
                    campaign.gm.email.as_str(),
                    "GM mail refused",
                    &body,
                    None,
                    now,
                )?;
                Ok((InboundStatus::Rejected, note))
            }
            // A mail with no text at all cannot carry a secret: say what
            // is really wrong with it.
            Sender::PlayerWithoutSecret {
                player,
                given: false,
            } if letter.mail.body_source == BodySource::Empty => {
                let note = format!("mail from {}'s address with no text", player.name);
                let body = format!(
                    "{marker} notice ===\n\nThe mail with the subject '{}' had no text, only \
                     attachments or nothing at all, so it was not acted on. Attachments are \
                     never read: write your orders and your `Password:` line in the body of \
                     the mail itself and send it again.\n",
                    letter.mail.subject
                );
                self.store
                    .log_gm(Some(&campaign.name), now, "rejected", &note, Some(id))?;
                self.queue(&campaign, &player.email, "mail not read", &body, None, now)?;
                Ok((InboundStatus::Rejected, note))
            }
            Sender::PlayerWithoutSecret { player, given } => {
                let why = if given { "a wrong secret" } else { "no secret" };
                let note = format!("mail from {}'s address with {why}", player.name);
                let body = format!(
                    "{marker} notice ===\n\nA mail with the subject '{}' arrived from your \
                     address with {why}, so it was not acted on. If you sent it, add a line \
                     `Password: <your secret>` and send it again. If you did not, someone may be \
                     writing in your name; the GM has been told.\n",
                    letter.mail.subject
                );
                self.store
                    .log_gm(Some(&campaign.name), now, "rejected", &note, Some(id))?;
                self.queue(
                    &campaign,
                    &player.email,
                    "mail not accepted",
                    &body,
                    None,
                    now,
                )?;
                Ok((InboundStatus::Rejected, note))
            }
            Sender::Gm => {
                let note = self.gm_mail(&stored, &letter, now)?;
                Ok((InboundStatus::Processed, note))
            }
            Sender::Player(player) => {
                let command = commands::read(&letter.mail.subject, &letter.text);
                let note = self.player_mail(&stored, &player, command, &letter, now)?;
                Ok((InboundStatus::Processed, note))
            }
        }
    }

    /// Never answered; a bounce is recorded against its player and the GM told.
    fn robot(
        &mut self,
        id: i64,
        mail: &InboundMail,
        kind: &crate::mail::auto::AutoKind,
        now: i64,
    ) -> anyhow::Result<(InboundStatus, String)> {
        let note = format!("not answered: {}", kind.describe());
        if let crate::mail::auto::AutoKind::Bounce { failed_recipients } = kind {
            let mut told = false;
            for address in failed_recipients {
                for (campaign, player) in self.store.players_by_email(address)? {
                    let count = self.store.record_bounce(&campaign, &player, now, &note)?;
                    let stored = self.store.load_campaign(&campaign)?;
                    let message = format!(
                        "mail to {player} ({address}) bounced ({count} bounce(s) so far): {}",
                        mail.subject
                    );
                    self.tell_gm(
                        &stored.campaign,
                        "bounce",
                        "a player's mail bounced",
                        &message,
                        Some(id),
                        now,
                    )?;
                    told = true;
                }
            }
            if !told {
                self.store.log_gm(None, now, "bounce", &note, Some(id))?;
            }
        } else {
            self.store.log_gm(None, now, "robot", &note, Some(id))?;
        }
        Ok((InboundStatus::Rejected, note))
    }

    /// The campaign a mail is for, and a secret its plus-address carried.
    /// A mail with no campaign tag: the campaign of its sender, when he
    /// plays in exactly one. Playing in several, he is told which tags to
    /// put in the subject; a stranger is logged and not answered (no
    /// backscatter).
    fn route_by_sender(
        &mut self,
        from: Option<&str>,
        id: i64,
        now: i64,
    ) -> anyhow::Result<BySender> {
        let address = from.unwrap_or("(no From)");
        let mut campaigns: Vec<String> = self
            .store
            .players_by_email(address)?
            .into_iter()
            .map(|(campaign, _)| campaign)
            .collect();
        campaigns.dedup();
        match campaigns.as_slice() {
            [one] => Ok(BySender::One(Box::new(self.store.load_campaign(one)?))),
            [] => {
                let note = format!(
                    "no campaign tag or plus-address in mail from {address}, who plays in no                      campaign; not answered"
                );
                self.store.log_gm(None, now, "stranger", &note, Some(id))?;
                Ok(BySender::Answered(note))
            }
            several => {
                let tags = several
                    .iter()
                    .map(|c| format!("[{c}]"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let note =
                    format!("mail from {address} without a campaign tag; asked which of {tags}");
                let first = self.store.load_campaign(&several[0])?.campaign;
                let body = format!(
                    "Your mail had no campaign tag, and you play in several campaigns here: {tags}. \
                     It was not read. Send it again with the campaign's tag in the subject, for \
                     example \"{} orders\".\n",
                    several
                        .first()
                        .map(|c| format!("[{c}]"))
                        .unwrap_or_default()
                );
                for campaign in several {
                    self.store
                        .log_gm(Some(campaign), now, "untagged", &note, Some(id))?;
                }
                self.queue(&first, address, "which campaign?", &body, None, now)?;
                Ok(BySender::Answered(note))
            }
        }
    }

    fn route(
        &self,
        mail: &InboundMail,
    ) -> anyhow::Result<Option<(StoredCampaign, Option<String>)>> {
        let recipients = mail.delivered_to.iter().chain(&mail.to).chain(&mail.cc);
        for address in recipients {
            let address = bare_address(address);
            let Some(base) = address.split_once('+').map(|(base, _)| base) else {
                continue;
            };
            if let Some((tag, secret)) = plus_address(address, base)
                && let Ok(stored) = self.store.load_campaign(&tag)
            {
                let gm_base = bare_address(&sender(&stored.campaign))
                    .split('@')
                    .next()
                    .unwrap_or_default()
                    .to_string();
                if gm_base.eq_ignore_ascii_case(base) {
                    return Ok(Some((stored, secret)));
                }
            }
        }
        for tag in subject_tags(&mail.subject) {
            if let Ok(stored) = self.store.load_campaign(&tag) {
                return Ok(Some((stored, None)));
            }
        }
        Ok(None)
    }
}

/// Where a mail without a campaign tag goes.
enum BySender {
    /// The one campaign its sender plays in.
    One(Box<StoredCampaign>),
    /// Nowhere: the sender was asked which campaign, or was a stranger.
    Answered(String),
}

/// How much of an IMAP folder a poll reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scan {
    /// The unseen messages: the folder is the one seen before (or new to us).
    Unseen,
    /// Every message: the UIDVALIDITY changed from `old` to `new`.
    Everything { old: u32, new: u32 },
}

/// What to read, given the UIDVALIDITY remembered and the one just reported.
/// The first look at a folder reads only unseen mail, as before it was
/// remembered; a server that reports none gives nothing to compare.
pub fn scan_for(remembered: Option<u32>, reported: Option<u32>) -> Scan {
    match (remembered, reported) {
        (Some(old), Some(new)) if old != new => Scan::Everything { old, new },
        _ => Scan::Unseen,
    }
}

/// The key a mailbox is remembered by: `user@host:port/folder`.
fn mailbox_key(settings: &ImapSettings, folder: &str) -> String {
    format!(
        "{}@{}:{}/{folder}",
        settings.username, settings.host, settings.port
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::transport::Security;
    use crate::store::Store;
    use std::time::Duration;

    fn fetched(uid: u32, message: &str) -> String {
        format!(
            "* {uid} FETCH (UID {uid} BODY[] {{{}}}\r\n{message})\r\nTAG OK\r\n",
            message.len()
        )
    }

    fn session(
        validity: u32,
        search: &'static str,
        uids: &[(u32, &str)],
    ) -> Vec<(&'static str, Vec<u8>)> {
        let found: Vec<String> = uids.iter().map(|(uid, _)| uid.to_string()).collect();
        let mut script = vec![
            ("LOGIN", "TAG OK\r\n".to_string()),
            (
                "SELECT",
                format!("* 2 EXISTS\r\n* OK [UIDVALIDITY {validity}] ok\r\nTAG OK\r\n"),
            ),
            (
                search,
                format!("* SEARCH {}\r\nTAG OK\r\n", found.join(" ")),
            ),
        ];
        for (uid, message) in uids {
            script.push(("UID FETCH", fetched(*uid, message)));
            script.push(("UID STORE", "TAG OK\r\n".to_string()));
        }
        script.push(("LOGOUT", "* BYE\r\nTAG OK\r\n".to_string()));
        script
            .into_iter()
            .map(|(command, reply)| (command, reply.into_bytes()))
            .collect()
    }

    #[test]
    fn a_renumbered_mailbox_is_rescanned_without_duplicates_and_logged() {
        let first = "Message-ID: <a@x>\r\nSubject: one\r\n\r\nbody\r\n";
        let second = "Message-ID: <b@x>\r\nSubject: two\r\n\r\nbody\r\n";
        let (port, server) = crate::mail::imap::fake::serve(vec![
            session(7, "UID SEARCH UNSEEN", &[(1, first)]),
            session(7, "UID SEARCH UNSEEN", &[]),
            // Restored from a backup: new numbers, and the flags are lost
            // for one mail the daemon has while another arrived seen.
            session(9, "UID SEARCH ALL", &[(1, first), (2, second)]),
        ]);
        let settings = ImapSettings {
            host: "127.0.0.1".into(),
            port,
            security: Security::None,
            username: "gm".into(),
            password: "pw".into(),
            timeout: Duration::from_secs(5),
            ca_file: None,
        };
        let mut daemon = Daemon::new(Store::open_in_memory().unwrap());
        assert_eq!(daemon.poll_imap(&settings, "INBOX", 10).unwrap(), 1);
        assert_eq!(daemon.poll_imap(&settings, "INBOX", 20).unwrap(), 0);
        assert!(daemon.store.gm_log(None).unwrap().is_empty());
        assert_eq!(daemon.poll_imap(&settings, "INBOX", 30).unwrap(), 1);
        server.join().unwrap();
        let log = daemon.store.gm_log(None).unwrap();
        assert_eq!(log.len(), 1, "{log:?}");
        assert!(
            log[0].message.contains("UIDVALIDITY changed from 7 to 9")
                && log[0].message.contains("all 2 message(s), 1 of them new"),
            "{log:?}"
        );
        let key = format!("gm@127.0.0.1:{port}/INBOX");
        assert_eq!(daemon.store.imap_uid_validity(&key).unwrap(), Some(9));
        assert_eq!(
            daemon
                .store
                .inbound_with_status(InboundStatus::New)
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn a_changed_uid_validity_rescans_everything() {
        assert_eq!(scan_for(None, Some(5)), Scan::Unseen);
        assert_eq!(scan_for(Some(5), Some(5)), Scan::Unseen);
        assert_eq!(scan_for(Some(5), None), Scan::Unseen);
        assert_eq!(
            scan_for(Some(5), Some(6)),
            Scan::Everything { old: 5, new: 6 }
        );
    }
}
