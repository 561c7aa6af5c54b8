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
//!
//! A forger gets nothing bigger than what he sent, and not many of them: a
//! notice about refused mail repeats at most a few words of it
//! ([`quotable`]) and goes to an address at most once per
//! `mail.notice_interval_minutes` (the others are counted in the GM's log);
//! of mail whose sender is not authenticated only the head is kept once
//! that is known (`mail.stranger_keep_kb`), a stranger's only for
//! `mail.keep_strangers_days`; no mail is stored beyond [`MAX_MAIL_BYTES`].

use std::io::Read;
use std::path::Path;

use anyhow::Context;

use crate::campaign::{Campaign, MailSettings};
use crate::mail::arrival::arrival;
use crate::mail::clean::clean_reply_with_markers;
use crate::mail::imap::{ImapClient, ImapSettings};
use crate::mail::inbound::{
    BodySource, InboundMail, InboundOptions, QUOTED_CHARS, one_line, parse, quotable,
};
use crate::mail::maildir::Maildir;
use crate::mail::outbound::LOOP_TOKEN;
use crate::mail::route::{Routed, bare_address, route, take_password};
use crate::store::{
    InboundInsert, InboundStatus, NOTICE_HELD, NoticeTo, NoticeTurn, StoredCampaign,
    redelivery_note,
};

use super::MailIn;
use super::auth::{Refused, Sender, identify};
use crate::daemon::orders::commands;
use crate::daemon::sender;

/// The most of any one mail that is stored: far above any orders mail, so
/// only a mail made to fill the disk or the memory is cut (the GM's log
/// says so).
pub const MAX_MAIL_BYTES: usize = 25 * 1024 * 1024;

/// The most characters of a sender's address the GM's log repeats.
const ADDRESS_SHOWN: usize = 120;

/// Read one mail from `source`, keeping at most [`MAX_MAIL_BYTES`] (and one
/// byte more, to know it was larger) and counting the rest without holding
/// it. Returns the bytes kept and how many arrived.
///
/// # Errors
/// The source cannot be read.
pub fn read_mail(mut source: impl Read) -> std::io::Result<(Vec<u8>, usize)> {
    let mut kept = Vec::new();
    (&mut source)
        .take(MAX_MAIL_BYTES as u64 + 1)
        .read_to_end(&mut kept)?;
    let rest = std::io::copy(&mut source, &mut std::io::sink())?;
    let delivered = kept.len() + usize::try_from(rest).unwrap_or(usize::MAX);
    Ok((kept, delivered))
}

/// The first `max` bytes of `raw` (all of it when it is no longer), cut
/// after the last whole line when there is one.
fn head_of(raw: &[u8], max: usize) -> &[u8] {
    if raw.len() <= max {
        return raw;
    }
    let head = &raw[..max];
    match head.iter().rposition(|&b| b == b'\n') {
        Some(end) => &head[..=end],
        None => head,
    }
}

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

/// What a player wrote himself in a mail body, as the daemon reads it.
pub struct OwnText {
    /// His text, with greetings and sign-offs blanked.
    pub text: String,
    /// Line `n` of `text` is line `first_line + n - 1` of the body.
    pub first_line: usize,
    /// A note for each greeting or sign-off set aside.
    pub set_aside: Vec<String>,
}

/// The player's own text of a mail `body` whose `Password:` line is
/// already blanked ([`take_password`]): the quoted report under it cut
/// (also where a client quotes without `>`, at the campaign `tag`'s
/// marker), then greetings and sign-offs set aside, each named.
pub fn own_text(body: &str, tag: &str) -> OwnText {
    let marker = crate::daemon::orders::confirm::marker(tag);
    let cleaned = clean_reply_with_markers(body, &[marker.as_str()]);
    let (text, set_aside) = crate::mail::courtesy::set_aside(&cleaned.text, cleaned.first_line);
    OwnText {
        text,
        first_line: cleaned.first_line,
        set_aside,
    }
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

impl MailIn<'_> {
    /// Store a raw message (nothing else); a message stored before is found,
    /// not stored again, and a second delivery of a letter stored before is
    /// kept as its duplicate.
    ///
    /// # Errors
    /// The store fails.
    pub fn store_raw(&mut self, raw: &[u8], now: i64) -> anyhow::Result<InboundInsert> {
        self.store_delivered(raw, raw.len(), now)
    }

    /// [`MailIn::store_raw`] for `raw`, the start of a mail of `delivered`
    /// bytes: no more than [`MAX_MAIL_BYTES`] of it is stored, and the GM's
    /// log says when a mail was cut.
    fn store_delivered(
        &mut self,
        raw: &[u8],
        delivered: usize,
        now: i64,
    ) -> anyhow::Result<InboundInsert> {
        let head = head_of(raw, MAX_MAIL_BYTES);
        let inserted = self
            .store
            .inbox_mut()
            .insert_head(head, delivered, &arrival(head), now)?;
        // A second delivery keeps only its headers: nothing of it was cut.
        if head.len() < delivered && matches!(inserted, InboundInsert::New(_)) {
            let id = inserted.id();
            let note = format!(
                "mail {id}: {delivered} bytes arrived, more than the {} MiB realmgm keeps of a \
                 mail; only its first {} bytes are stored",
                MAX_MAIL_BYTES / (1024 * 1024),
                head.len()
            );
            self.store
                .control_mut()
                .log_gm(None, now, "too large", &note, Some(id))?;
        }
        if let InboundInsert::Redelivered { id, original } = inserted {
            let note = format!("mail {id}: {}", redelivery_note(original));
            self.store
                .control_mut()
                .log_gm(None, now, "duplicate", &note, Some(id))?;
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
        self.handle_ingested(inserted, now)
    }

    /// [`MailIn::ingest`] of a mail read from `source` (an MTA's pipe):
    /// however large it is, no more than [`MAX_MAIL_BYTES`] of it is held,
    /// and that copy is let go once it is stored.
    ///
    /// # Errors
    /// The source cannot be read, or the store fails.
    pub fn ingest_from(
        &mut self,
        source: impl Read,
        now: i64,
    ) -> anyhow::Result<(InboundInsert, String)> {
        let inserted = self.store_from(source, now)?;
        self.handle_ingested(inserted, now)
    }

    /// Store a mail read from `source` (an MTA's pipe) and nothing else:
    /// however large it is, no more than [`MAX_MAIL_BYTES`] of it is held,
    /// and that copy is let go once it is stored.
    ///
    /// # Errors
    /// The source cannot be read, or the store fails.
    pub fn store_from(&mut self, source: impl Read, now: i64) -> anyhow::Result<InboundInsert> {
        let (raw, delivered) = read_mail(source).context("cannot read the message")?;
        self.store_delivered(&raw, delivered, now)
    }

    /// What became of a mail stored by [`MailIn::store_from`], once the
    /// stored mail has been answered (or not yet).
    ///
    /// # Errors
    /// The store fails.
    pub fn stored_note(&self, inserted: &InboundInsert) -> anyhow::Result<String> {
        Ok(match inserted {
            InboundInsert::New(id) => match self.store.inbox().get(*id)? {
                Some(mail) if mail.status != InboundStatus::New => mail.note.unwrap_or_default(),
                _ => "stored; the daemon answers it in its next round".to_string(),
            },
            InboundInsert::Duplicate(id) => format!("already stored as mail {id}; not read again"),
            InboundInsert::Redelivered { original, .. } => redelivery_note(*original),
        })
    }

    /// Handle a mail just stored from a pipe; what became of it.
    fn handle_ingested(
        &mut self,
        inserted: InboundInsert,
        now: i64,
    ) -> anyhow::Result<(InboundInsert, String)> {
        if let InboundInsert::New(_) = inserted {
            self.handle_stored(now)?;
        }
        let note = self.stored_note(&inserted)?;
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
            let file = std::fs::File::open(&entry.path)
                .and_then(read_mail)
                .with_context(|| format!("cannot read {}", entry.path.display()));
            let (raw, delivered) = file?;
            if matches!(
                self.store_delivered(&raw, delivered, now)?,
                InboundInsert::New(_)
            ) {
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
    /// Of each message no more than [`MAX_MAIL_BYTES`] and one byte is
    /// fetched, and a larger one is stored cut as from any other source. A
    /// message the server will not hand out is flagged seen and skipped,
    /// once, with a line in the GM's log: it would otherwise fail every
    /// round and hold back the mail after it.
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
        let mailbox = mailbox_key(&settings.username, &settings.host, settings.port, folder);
        let remembered = self.store.inbox().imap_uid_validity(&mailbox)?;
        let scan = scan_for(remembered, status.uid_validity);
        let uids = match scan {
            Scan::Unseen => client.search_unseen()?,
            Scan::Everything { .. } => client.search_all()?,
        };
        let mut new = 0;
        for uid in &uids {
            match client.fetch(*uid, MAX_MAIL_BYTES + 1) {
                Ok(fetched) => {
                    let inserted = self.store_delivered(&fetched.head, fetched.size, now)?;
                    if matches!(inserted, InboundInsert::New(_)) {
                        new += 1;
                    }
                }
                Err(error) if error.leaves_session_usable() => {
                    let note = format!(
                        "IMAP mailbox {mailbox}: message UID {uid} cannot be fetched ({error}); \
                         it is flagged seen and skipped, and stays on the server: flag it unread \
                         there to have it fetched again"
                    );
                    self.store
                        .control_mut()
                        .log_gm(None, now, "imap", &note, None)?;
                }
                Err(error) => return Err(error.into()),
            }
            client.mark_seen(*uid)?;
        }
        client.logout();
        if let Scan::Everything { old, new: current } = scan {
            let note = format!(
                "IMAP mailbox {mailbox}: UIDVALIDITY changed from {old} to {current} (the \
                 server renumbered it); re-scanned all {}, {new} of them new",
                crate::words::counted(uids.len(), "message", "messages")
            );
            self.store
                .control_mut()
                .log_gm(None, now, "imap", &note, None)?;
        }
        if let Some(current) = status.uid_validity {
            self.store
                .inbox_mut()
                .set_imap_uid_validity(&mailbox, current, now)?;
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

    /// As [`MailIn::handle_stored`], asking `go_on` before each mail: a
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
        let pruned = self.store.inbox_mut().prune_stranger_mail(now)?;
        if pruned > 0 {
            let note = format!(
                "dropped the kept text of {} older than mail.keep_strangers_days; their rows \
                 stay",
                crate::words::counted(pruned, "stranger mail", "stranger mails")
            );
            self.store
                .control_mut()
                .log_gm(None, now, "pruned", &note, None)?;
        }
        let mut handled = Vec::new();
        for id in self.store.inbox().ids_with_status(InboundStatus::New)? {
            if !go_on() {
                break;
            }
            let Some(stored) = self.store.inbox().get(id)? else {
                continue;
            };
            // Everything one mail causes is committed together with its new
            // status: a crash midway leaves it new, to be read again.
            self.store.begin_work()?;
            let outcome =
                crate::daemon::guard::contained(|| self.dispatch(stored.id, &stored.raw, now));
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
                .inbox_mut()
                .set_status(stored.id, status, Some(&note))
            {
                self.store.abandon_work();
                return Err(error.into());
            }
            self.store.commit_work()?;
            handled.push((stored.id, note));
        }
        self.store.inbox_mut().release_free_pages()?;
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
        let campaign = crate::daemon::guard::contained(|| {
            let mail = parse(raw, &InboundOptions::default())?;
            Ok(self.route(&mail).map(|routed| routed.campaign.campaign))
        });
        match campaign {
            Ok(Some(campaign)) => {
                let message = format!(
                    "Mail {id} could not be handled and was set aside: {error:#}.\n\nThe mail is \
                     kept in the database and the daemon goes on with the others. Once the cause \
                     is fixed, `realmgm gm --campaign {} mail retry --id {id}{db}` reads it again.",
                    campaign.name,
                    db = self.store.db_option()
                );
                self.outbox().tell_gm(
                    &campaign,
                    "error",
                    "a mail failed",
                    &message,
                    Some(id),
                    now,
                )?;
            }
            _ => self
                .store
                .control_mut()
                .log_gm(None, now, "error", &note, Some(id))?,
        }
        Ok(note)
    }

    fn dispatch(
        &mut self,
        id: i64,
        raw: &[u8],
        now: i64,
    ) -> anyhow::Result<(InboundStatus, String)> {
        // Attachments are never read: with a limit of 0 each is only named
        // with its size, not copied; the campaign's limit only decides how
        // the reply words them.
        let options = InboundOptions {
            max_attachment_bytes: 0,
            loop_token: LOOP_TOKEN.to_string(),
        };
        let no_campaign = MailSettings::default();
        let mail = match parse(raw, &options) {
            Ok(mail) => mail,
            Err(error) => {
                let note = format!("unreadable mail: {error}");
                self.store
                    .control_mut()
                    .log_gm(None, now, "rejected", &note, Some(id))?;
                let kept = self.keep_head(id, raw, &no_campaign, true, now)?;
                return Ok((InboundStatus::Rejected, note + &kept));
            }
        };
        let from = mail.from.as_ref().map(|f| f.address.clone());
        if let Some(kind) = &mail.auto_kind {
            let (status, note) = self.robot(id, &mail, kind, now)?;
            let kept = self.keep_head(id, raw, &no_campaign, true, now)?;
            return Ok((status, note + &kept));
        }
        let mut untagged_note = None;
        let routed = match self.route(&mail) {
            Some(routed) => (routed.campaign, routed.secret),
            None => match self.route_by_sender(from.as_deref(), id, now)? {
                BySender::One { stored, as_gm } => {
                    untagged_note = Some(format!(
                        "your mail had no campaign tag, so it was read for [{tag}], the one campaign \
                         you {}; put [{tag}] in the subject to be sure",
                        if as_gm { "run" } else { "play in" },
                        tag = stored.campaign.name
                    ));
                    (*stored, None)
                }
                BySender::Refused {
                    note,
                    settings,
                    stranger,
                } => {
                    let kept = self.keep_head(id, raw, &settings, stranger, now)?;
                    return Ok((InboundStatus::Rejected, note + &kept));
                }
            },
        };
        let (stored, plus_secret) = routed;
        let campaign = stored.campaign.clone();
        if let Some(earlier) = self.store.inbox().earlier_with_message_id(id)? {
            let note = format!(
                "mail {id} has the Message-ID of mail {earlier} but another sender or content; \
                 it is read as a mail of its own"
            );
            self.store.control_mut().log_gm(
                Some(&campaign.name),
                now,
                "message-id",
                &note,
                Some(id),
            )?;
        }
        // Read only for a registered sender: a stranger's text is not copied.
        let password = std::cell::LazyCell::new(|| take_password(&mail.body_text));
        let secret = || plus_secret.or_else(|| password.password.clone());
        let who = identify(&self.store, &campaign, from.as_deref(), secret)?;
        let player = match who {
            Sender::Gm => None,
            Sender::Player(player) => Some(player),
            Sender::Refused(refused) => {
                let stranger = matches!(refused, Refused::Stranger(_));
                let note = self.refuse(id, &campaign, refused, &mail, now)?;
                let settings = campaign.mail.clone().unwrap_or_default();
                let kept = self.keep_head(id, raw, &settings, stranger, now)?;
                return Ok((InboundStatus::Rejected, note + &kept));
            }
        };
        let own = own_text(&password.text, &campaign.name);
        drop(password);
        let mut notes: Vec<String> = untagged_note.into_iter().collect();
        if mail.body_source == BodySource::Html {
            notes.push("your mail had no plain-text part; it was read from its HTML".to_string());
        }
        let limit = campaign
            .mail
            .clone()
            .unwrap_or_default()
            .max_attachment_bytes();
        let attachments = mail
            .attachments
            .iter()
            .map(|a| (&a.name, a.bytes.len()))
            .chain(mail.attachments_ignored.iter().map(|a| (&a.name, a.size)));
        for (name, size) in attachments {
            notes.push(if size > limit {
                format!(
                    "the attachment {name} ({size} bytes) is larger than the {limit} bytes the \
                     campaign allows and was ignored"
                )
            } else {
                format!("the attachment {name} was not read; write orders in the body")
            });
        }
        notes.extend(own.set_aside);
        let letter = Letter {
            inbound_id: Some(id),
            text: own.text,
            first_line: own.first_line,
            mail,
            notes,
        };
        match player {
            None => {
                let note = self.gm().gm_mail(&stored, &letter, now)?;
                Ok((InboundStatus::Processed, note))
            }
            Some(player) => {
                let command = commands::read(&letter.mail.subject, &letter.text);
                let note = self
                    .orders()
                    .player_mail(&stored, &player, command, &letter, now)?;
                Ok((InboundStatus::Processed, note))
            }
        }
    }

    /// A mail to `campaign` whose sender was not authenticated (`who`):
    /// logged, never acted on; the registered address it claims to come
    /// from gets a short notice, at most one per interval. Returns the
    /// mail's note.
    fn refuse(
        &mut self,
        id: i64,
        campaign: &Campaign,
        who: Refused,
        mail: &InboundMail,
        now: i64,
    ) -> anyhow::Result<String> {
        let marker = crate::daemon::orders::confirm::marker(&campaign.name);
        let subject = quotable(&mail.subject, QUOTED_CHARS);
        // What the log says, and who is told what under which subject.
        let (note, to, address, heading, body) = match &who {
            Refused::Stranger(address) => {
                let note = format!(
                    "mail from {}, who is not in the campaign; not answered",
                    one_line(address, ADDRESS_SHOWN)
                );
                self.store.control_mut().log_gm(
                    Some(&campaign.name),
                    now,
                    "stranger",
                    &note,
                    Some(id),
                )?;
                return Ok(note);
            }
            Refused::GmWithoutSecret => (
                "mail from the GM address without the right GM secret".to_string(),
                NoticeTo::Gm,
                campaign.gm.email.as_str().to_string(),
                "GM mail refused",
                format!(
                    "{marker} GM notice ===\n\nA mail with the subject '{subject}' arrived from \
                     your address without the right GM secret and was not acted on. Put a line \
                     `Password: <GM secret>` in GM mail; `realmgm gm secret --campaign {}{db}` \
                     makes a new secret.\n",
                    campaign.name,
                    db = self.store.db_option()
                ),
            ),
            // A mail with no text at all cannot carry a secret: say what
            // is really wrong with it.
            Refused::PlayerWithoutSecret {
                player,
                given: false,
            } if mail.body_source == BodySource::Empty => (
                format!("mail from {}'s address with no text", player.name),
                NoticeTo::Player(&player.name),
                player.email.clone(),
                "mail not read",
                format!(
                    "{marker} notice ===\n\nThe mail with the subject '{subject}' had no text, \
                     only attachments or nothing at all, so it was not acted on. Attachments are \
                     never read: write your orders and your `Password:` line in the body of the \
                     mail itself and send it again.\n"
                ),
            ),
            Refused::PlayerWithoutSecret { player, given } => {
                let why = if *given {
                    "a wrong secret"
                } else {
                    "no secret"
                };
                (
                    format!("mail from {}'s address with {why}", player.name),
                    NoticeTo::Player(&player.name),
                    player.email.clone(),
                    "mail not accepted",
                    format!(
                        "{marker} notice ===\n\nA mail with the subject '{subject}' arrived from \
                         your address with {why}, so it was not acted on. If you sent it, add a \
                         line `Password: <your secret>` and send it again. If you did not, someone \
                         may be writing in your name; the GM has been told.\n"
                    ),
                )
            }
        };
        self.store
            .control_mut()
            .log_gm(Some(&campaign.name), now, "rejected", &note, Some(id))?;
        self.notice(campaign, to, &address, heading, &body, id, now)?;
        Ok(note)
    }

    /// Queue a notice about refused mail `inbound_id` to `address` (`to`),
    /// unless one went to that address less than
    /// `mail.notice_interval_minutes` ago: then it is held back and
    /// counted in the GM's log. The next notice that goes says how many
    /// were held back.
    #[allow(clippy::too_many_arguments)]
    fn notice(
        &mut self,
        campaign: &Campaign,
        to: NoticeTo<'_>,
        address: &str,
        subject: &str,
        body: &str,
        inbound_id: i64,
        now: i64,
    ) -> anyhow::Result<()> {
        let interval = campaign
            .mail
            .clone()
            .unwrap_or_default()
            .notice_interval_seconds();
        match self
            .store
            .inbox_mut()
            .notice_turn(&campaign.name, to, now, interval)?
        {
            NoticeTurn::Held => {
                let note = format!(
                    "the notice '{subject}' to {address} was held back: one went there less \
                     than {} ago (mail.notice_interval_minutes)",
                    crate::words::counted(interval / 60, "minute", "minutes")
                );
                self.store.control_mut().log_gm(
                    Some(&campaign.name),
                    now,
                    NOTICE_HELD,
                    &note,
                    Some(inbound_id),
                )?;
            }
            NoticeTurn::Send { held } => {
                let body = if held == 0 {
                    body.to_string()
                } else {
                    let notices = if held == 1 {
                        "1 more notice about mail that was not accepted was".to_string()
                    } else {
                        format!("{held} more notices about mail that was not accepted were")
                    };
                    format!(
                        "{body}\n{notices} held back since the last one, so that nobody can fill \
                         this mailbox by sending mail in its name; the GM's log lists them.\n"
                    )
                };
                self.outbox()
                    .queue(campaign, address, subject, &body, None, now)?;
            }
        }
        Ok(())
    }

    /// What is kept of mail `id` (`raw`) from a sender who was not
    /// authenticated, once that is known: its first `mail.stranger_keep_kb`
    /// (the headers and the start of the body); of a `stranger`'s mail
    /// even that only for `mail.keep_strangers_days`. Returns what the
    /// mail's note adds.
    fn keep_head(
        &mut self,
        id: i64,
        raw: &[u8],
        settings: &MailSettings,
        stranger: bool,
        now: i64,
    ) -> anyhow::Result<String> {
        let head = head_of(raw, settings.stranger_keep_bytes());
        let prune_after = if stranger {
            settings.keep_strangers_seconds().map(|keep| now + keep)
        } else {
            None
        };
        self.store
            .inbox_mut()
            .keep_head(id, head, raw.len(), prune_after)?;
        Ok(if head.len() < raw.len() {
            // `raw` is what was stored, itself perhaps cut: the size that
            // arrived is in the row and in the "too large" line.
            format!(
                "; only its first {} bytes are kept (mail.stranger_keep_kb)",
                head.len()
            )
        } else {
            String::new()
        })
    }

    /// Never answered; a bounce is recorded against its player and the GM
    /// told (at most once per notice interval: anyone can forge a bounce).
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
                for (campaign, player) in self.store.players().by_email_everywhere(address)? {
                    let count = self
                        .store
                        .players_mut()
                        .record_bounce(&campaign, &player, now, &note)?;
                    let stored = self.store.campaigns().load(&campaign)?;
                    let message = format!(
                        "mail to {player} ({address}) bounced ({} so far): {}",
                        crate::words::counted(count, "bounce", "bounces"),
                        quotable(&mail.subject, QUOTED_CHARS)
                    );
                    self.store.control_mut().log_gm(
                        Some(&campaign),
                        now,
                        "bounce",
                        &message,
                        Some(id),
                    )?;
                    let body = format!(
                        "{} GM notice ===\n\n{message}\n",
                        crate::daemon::orders::confirm::marker(&campaign)
                    );
                    let gm = stored.campaign.gm.email.as_str();
                    let subject = "a player's mail bounced";
                    self.notice(&stored.campaign, NoticeTo::Gm, gm, subject, &body, id, now)?;
                    told = true;
                }
            }
            if !told {
                self.store
                    .control_mut()
                    .log_gm(None, now, "bounce", &note, Some(id))?;
            }
        } else {
            self.store
                .control_mut()
                .log_gm(None, now, "robot", &note, Some(id))?;
        }
        Ok((InboundStatus::Rejected, note))
    }

    /// The campaign a mail is for, and a secret its plus-address carried.
    /// A mail with no campaign tag: the campaign of its sender, when he
    /// plays in exactly one. Playing in several, he is told which tags to
    /// put in the subject (at most once per notice interval: the sender
    /// is not authenticated); a stranger is logged and not answered (no
    /// backscatter).
    fn route_by_sender(
        &mut self,
        from: Option<&str>,
        id: i64,
        now: i64,
    ) -> anyhow::Result<BySender> {
        let address = from.unwrap_or("(no From)");
        let mut seats = self.store.players().by_email_everywhere(address)?;
        seats.dedup_by(|a, b| a.0 == b.0);
        match seats.as_slice() {
            [(one, _)] => Ok(BySender::One {
                stored: Box::new(self.store.campaigns().load(one)?),
                as_gm: false,
            }),
            [] => self.route_by_gm(address, id, now),
            several => {
                let names: Vec<String> = several.iter().map(|(c, _)| c.clone()).collect();
                let to = NoticeTo::Player(&several[0].1);
                self.ask_which_campaign(address, &names, to, false, id, now)
            }
        }
    }

    /// A mail with no campaign tag from someone who plays nowhere: the
    /// campaign its sender runs, when he is the GM of exactly one (his
    /// commands are then checked against its GM secret as usual). The GM of
    /// several is told which tags to put in the subject; anybody else is a
    /// stranger, logged and not answered.
    fn route_by_gm(&mut self, address: &str, id: i64, now: i64) -> anyhow::Result<BySender> {
        let bare = bare_address(address);
        let mut runs = Vec::new();
        for summary in self.store.campaigns().list()? {
            // A campaign whose record cannot be read is no reason to leave
            // the mail unread; it is read loosely, and skipped if it fails.
            let gm = self.store.campaigns().gm_address(&summary.name);
            if gm
                .ok()
                .flatten()
                .is_some_and(|gm| gm.eq_ignore_ascii_case(bare))
            {
                runs.push(summary.name);
            }
        }
        match runs.len() {
            0 => {
                let note = format!(
                    "no campaign tag or plus-address in mail from {}, who plays in no campaign; \
                     not answered",
                    one_line(address, ADDRESS_SHOWN)
                );
                self.store
                    .control_mut()
                    .log_gm(None, now, "stranger", &note, Some(id))?;
                Ok(BySender::Refused {
                    note,
                    settings: Box::default(),
                    stranger: true,
                })
            }
            1 => Ok(BySender::One {
                stored: Box::new(self.store.campaigns().load(&runs[0])?),
                as_gm: true,
            }),
            _ => self.ask_which_campaign(address, &runs, NoticeTo::Gm, true, id, now),
        }
    }

    /// Tells the sender of an untagged mail that it was not read and which
    /// of `campaigns` (all of which he plays in, or runs `as_gm`) he may tag
    /// it for, at most once per notice interval (the sender is not
    /// authenticated); each of those campaigns' GM logs keeps a line.
    fn ask_which_campaign(
        &mut self,
        address: &str,
        campaigns: &[String],
        to: NoticeTo<'_>,
        as_gm: bool,
        id: i64,
        now: i64,
    ) -> anyhow::Result<BySender> {
        let tags = campaigns
            .iter()
            .map(|c| format!("[{c}]"))
            .collect::<Vec<_>>()
            .join(", ");
        let (sender, role, example) = if as_gm {
            ("GM mail", "run", "gm status")
        } else {
            ("mail", "play in", "orders")
        };
        let note = format!(
            "{sender} from {} without a campaign tag; asked which of {tags}",
            one_line(address, ADDRESS_SHOWN)
        );
        let Some(first) = campaigns.first() else {
            anyhow::bail!("an untagged mail from {address} was to be asked about no campaign");
        };
        let first = self.store.campaigns().load(first)?.campaign;
        let body = format!(
            "Your mail had no campaign tag, and you {role} several campaigns here: {tags}. \
             It was not read. Send it again with the campaign's tag in the subject, for \
             example \"[{}] {example}\".\n",
            first.name
        );
        for campaign in campaigns {
            self.store
                .control_mut()
                .log_gm(Some(campaign), now, "untagged", &note, Some(id))?;
        }
        self.notice(&first, to, address, "which campaign?", &body, id, now)?;
        Ok(BySender::Refused {
            note,
            settings: Box::new(first.mail.clone().unwrap_or_default()),
            stranger: false,
        })
    }

    /// The stored campaign `mail` names, with the secret of its
    /// plus-address.
    fn route(&self, mail: &InboundMail) -> Option<Routed<StoredCampaign>> {
        route(mail, |tag| {
            let stored = self.store.campaigns().load(tag).ok()?;
            let gm_local_part = bare_address(&sender(&stored.campaign))
                .split('@')
                .next()
                .unwrap_or_default()
                .to_string();
            Some((stored, gm_local_part))
        })
    }
}

/// Where a mail without a campaign tag goes.
enum BySender {
    /// The one campaign its sender plays in, or runs `as_gm`.
    One {
        stored: Box<StoredCampaign>,
        as_gm: bool,
    },
    /// Nowhere: the sender was asked which campaign (under `settings`, of
    /// the first), or was a `stranger`.
    Refused {
        note: String,
        settings: Box<MailSettings>,
        stranger: bool,
    },
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
pub fn mailbox_key(user: &str, host: &str, port: u16, folder: &str) -> String {
    format!("{user}@{host}:{port}/{folder}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::daemon::Daemon;
    use crate::mail::transport::{Mechanism, Security};
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
        let settings = fake_imap(port);
        let mut daemon = Daemon::new(Store::open_in_memory(crate::TEST_GAMES).unwrap());
        assert_eq!(
            daemon.mail_in().poll_imap(&settings, "INBOX", 10).unwrap(),
            1
        );
        assert_eq!(
            daemon.mail_in().poll_imap(&settings, "INBOX", 20).unwrap(),
            0
        );
        assert!(daemon.store.control().gm_log(None).unwrap().is_empty());
        assert_eq!(
            daemon.mail_in().poll_imap(&settings, "INBOX", 30).unwrap(),
            1
        );
        server.join().unwrap();
        let log = daemon.store.control().gm_log(None).unwrap();
        assert_eq!(log.len(), 1, "{log:?}");
        assert!(
            log[0].message.contains("UIDVALIDITY changed from 7 to 9")
                && log[0].message.contains("all 2 messages, 1 of them new"),
            "{log:?}"
        );
        let key = format!("gm@127.0.0.1:{port}/INBOX");
        assert_eq!(
            daemon.store.inbox().imap_uid_validity(&key).unwrap(),
            Some(9)
        );
        assert_eq!(
            daemon
                .store
                .inbox()
                .with_status(InboundStatus::New)
                .unwrap()
                .len(),
            2
        );
    }

    fn fake_imap(port: u16) -> ImapSettings {
        ImapSettings {
            host: "127.0.0.1".into(),
            port,
            security: Security::None,
            username: "gm".into(),
            password: "pw".into(),
            mechanism: Mechanism::Password,
            timeout: Duration::from_secs(30),
            ca_file: None,
        }
    }

    #[test]
    fn a_mail_beyond_the_cap_is_fetched_in_part_and_stored_cut_with_its_size() {
        let mut head = "Message-ID: <big@x>\r\nFrom: s@x\r\nSubject: big\r\n\r\n".to_string();
        let line = format!("{}\r\n", "a".repeat(98));
        while head.len() <= MAX_MAIL_BYTES {
            head.push_str(&line);
        }
        head.truncate(MAX_MAIL_BYTES + 1);
        let reply = format!(
            "* 1 FETCH (UID 3 RFC822.SIZE 104857600 BODY[]<0> {{{}}}\r\n{head})\r\nTAG OK\r\n",
            head.len()
        );
        drop(head);
        let mut script = session(7, "UID SEARCH UNSEEN", &[]);
        script[2].1 = b"* SEARCH 3\r\nTAG OK\r\n".to_vec();
        script.insert(
            3,
            (
                "UID FETCH 3 (RFC822.SIZE BODY.PEEK[]<0.26214401>)",
                reply.into_bytes(),
            ),
        );
        script.insert(4, ("UID STORE 3", b"TAG OK\r\n".to_vec()));
        let (port, server) = crate::mail::imap::fake::serve(vec![script]);
        let mut daemon = Daemon::new(Store::open_in_memory(crate::TEST_GAMES).unwrap());
        assert_eq!(
            daemon
                .mail_in()
                .poll_imap(&fake_imap(port), "INBOX", 10)
                .unwrap(),
            1
        );
        let commands = server.join().unwrap();
        assert_eq!(
            commands[3],
            format!(
                "UID FETCH 3 (RFC822.SIZE BODY.PEEK[]<0.{}>)",
                MAX_MAIL_BYTES + 1
            )
        );
        let stored = daemon.store.inbox().get(1).unwrap().unwrap();
        assert!(stored.raw.len() <= MAX_MAIL_BYTES, "{}", stored.raw.len());
        assert!(stored.raw.ends_with(b"\r\n"));
        let log = daemon.store.control().gm_log(None).unwrap();
        assert_eq!(log.len(), 1);
        assert_eq!(log[0].kind, "too large");
        assert!(
            log[0].message.contains("mail 1: 104857600 bytes arrived"),
            "{}",
            log[0].message
        );
    }

    #[test]
    fn a_message_the_server_will_not_hand_out_is_skipped_once_and_logged() {
        let later = "Message-ID: <later@x>\r\nSubject: later\r\n\r\nbody\r\n";
        let mut first = session(7, "UID SEARCH UNSEEN", &[(6, later)]);
        first[2].1 = b"* SEARCH 5 6\r\nTAG OK\r\n".to_vec();
        first.insert(
            3,
            (
                "UID FETCH 5",
                b"TAG NO [SERVERBUG] Internal error occurred\r\n".to_vec(),
            ),
        );
        first.insert(4, ("UID STORE 5", b"TAG OK\r\n".to_vec()));
        let (port, server) =
            crate::mail::imap::fake::serve(vec![first, session(7, "UID SEARCH UNSEEN", &[])]);
        let mut daemon = Daemon::new(Store::open_in_memory(crate::TEST_GAMES).unwrap());
        let settings = fake_imap(port);
        assert_eq!(
            daemon.mail_in().poll_imap(&settings, "INBOX", 10).unwrap(),
            1
        );
        assert_eq!(
            daemon.mail_in().poll_imap(&settings, "INBOX", 20).unwrap(),
            0
        );
        server.join().unwrap();
        let log = daemon.store.control().gm_log(None).unwrap();
        assert_eq!(log.len(), 1);
        assert_eq!(log[0].kind, "imap");
        assert!(
            log[0].message.contains("message UID 5 cannot be fetched")
                && log[0].message.contains("[SERVERBUG]")
                && log[0].message.contains("flag it unread there"),
            "{}",
            log[0].message
        );
    }

    #[test]
    fn a_mail_is_read_up_to_the_cap_and_cut_after_a_whole_line() {
        let (kept, delivered) = read_mail(&b"Subject: x\r\n\r\nbody\r\n"[..]).unwrap();
        assert_eq!((kept.len(), delivered), (20, 20));
        let endless = std::io::repeat(b'a').take(MAX_MAIL_BYTES as u64 + 1000);
        let (kept, delivered) = read_mail(endless).unwrap();
        assert_eq!(kept.len(), MAX_MAIL_BYTES + 1);
        assert_eq!(delivered, MAX_MAIL_BYTES + 1000);
        assert_eq!(head_of(b"one\ntwo\nthree", 10), b"one\ntwo\n");
        assert_eq!(head_of(b"onetwothree", 3), b"one");
        assert_eq!(head_of(b"short", 10), b"short");
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
