//! Secrets kept out of the stored mail. A received mail, once read
//! (accepted, refused or found to be a second delivery), keeps no secret in
//! its stored copy: the value of each `Password:` line and the secret of a
//! `gm+tag.SECRET@` address are masked. Its content hash and fingerprint,
//! taken when it arrived, stay, so a second delivery of the same letter is
//! still known. A mail set aside as failed is kept as it came, so that
//! `gm mail retry` authenticates it again as the first reading did. A sent
//! mail carrying a player's new secret (a welcome) loses it once delivered
//! or given up as undeliverable.
//!
//! Refused and duplicate mail is searched as well: a player writing from
//! an address of no player is refused as a stranger, yet the secret he wrote
//! is his. The search costs a few passes over a mail whatever it holds, and
//! a pass stops once its budget of work is spent, so neither a long mail nor
//! a heap of them holds the round up; each mail is marked done as it is done.
//!
//! SQLite zeroes what a masking overwrites or frees (`secure_delete`), and
//! the write-ahead log, which still holds the pages as they were, is
//! checkpointed and emptied after each masking
//! ([`Redaction::checkpoint_after_masking`]). A `grep` of the database's files
//! then finds no secret.

use std::ops::DerefMut;

use rusqlite::{OptionalExtension, params};

use super::packed::{PackedText, UnpackedBytes};
use super::{Store, StoreError, secret};
use crate::mail::inbound::{InboundMail, InboundOptions, parse};
use crate::mail::route::{password_value, plus_address};

/// What stands in a stored mail where a secret was.
pub const MASK: &str = "********";

/// Work one masking pass may do, in bytes gone over (each pass over a
/// mail's bytes or its decoded text counts them): the send step holds the
/// round lock, so a heap of long mail is masked over several rounds. A pass
/// always finishes the mail it started, so the longest mail (25 MiB) is
/// masked too.
const WORK_PER_PASS: u64 = 64 << 20;

/// Different secrets looked for in one mail. A player's letter carries one
/// or two (the `Password:` line, the plus-address); the cap keeps a mail of
/// thousands of made-up values from building a large search.
const SECRETS_PER_MAIL: usize = 64;

/// Longest value looked for as a secret: its 16 letters and digits with a
/// space or a dash around each group and some to spare. A longer one is no
/// secret as a player types it, and the cap bounds each step of the search.
const LONGEST_SECRET: usize = 48;

/// What one masking pass did.
#[derive(Default)]
struct Pass {
    /// Received mails looked at, each marked as done.
    looked_at: usize,
    /// Of those, the ones whose copy held a secret.
    masked: usize,
    /// Bytes gone over, as counted against [`WORK_PER_PASS`].
    work: u64,
}

/// The masking of secrets in the stored mail.
///
/// Borrowed from the store by [`Store::redaction_mut`].
pub struct Redaction<S> {
    pub(super) store: S,
}

impl<S: DerefMut<Target = Store>> Redaction<S> {
    /// Mask the secrets in the stored copies of the received mail read
    /// since the last time, one mail at a time, until
    /// [`WORK_PER_PASS`] is spent (the next pass goes on with the mail
    /// after). Returns how many copies held a secret.
    ///
    /// # Errors
    /// The database fails.
    pub fn forget_secrets_of_read_mail(&mut self) -> Result<usize, StoreError> {
        Ok(self.forget_secrets_within(WORK_PER_PASS)?.masked)
    }

    /// [`Redaction::forget_secrets_of_read_mail`] with `budget` bytes of work.
    fn forget_secrets_within(&mut self, budget: u64) -> Result<Pass, StoreError> {
        let mut pass = Pass::default();
        let mut after = 0;
        while pass.work < budget {
            // One mail in memory at a time, however many wait.
            let next: Option<(i64, Vec<u8>)> = self
                .store
                .conn
                .prepare_cached(
                    "SELECT id, raw FROM inbound_mail WHERE secrets_masked = 0 AND id > ?1 \
                     AND status IN ('processed', 'rejected', 'duplicate') ORDER BY id LIMIT 1",
                )?
                .query_row([after], |row| {
                    Ok((row.get(0)?, row.get::<_, UnpackedBytes>(1)?.0))
                })
                .optional()?;
            let Some((id, raw)) = next else {
                break;
            };
            after = id;
            let kept = without_secrets(&raw, &mut pass.work);
            // Marked done mail by mail: a pass cut short by its budget
            // never masks a mail again.
            self.store
                .conn
                .prepare_cached(
                    "UPDATE inbound_mail SET raw = COALESCE(?2, raw), secrets_masked = 1 \
                     WHERE id = ?1",
                )?
                .execute(params![id, kept])?;
            pass.looked_at += 1;
            pass.masked += usize::from(kept.is_some());
        }
        self.store.masked_since_checkpoint |= pass.masked > 0;
        Ok(pass)
    }

    /// After queued mail `id` was delivered or given up for good: its
    /// stored text `body` and HTML `html` lose every secret they carry
    /// (HTML read from a stored report is not the mail's own and is not
    /// written). Returns whether there was one.
    ///
    /// # Errors
    /// The database fails.
    pub fn forget_sent_secrets(
        &mut self,
        id: i64,
        body: &str,
        html: Option<&str>,
    ) -> Result<bool, StoreError> {
        let masked_body = secret::masked(body, MASK);
        let masked_html = html.and_then(|html| secret::masked(html, MASK));
        if masked_body.is_none() && masked_html.is_none() {
            return Ok(false);
        }
        let body = masked_body.as_deref().unwrap_or(body);
        let html = masked_html.as_deref().or(html);
        self.store.conn.execute(
            "UPDATE outbox SET body = ?2, html = CASE WHEN html IS NULL THEN NULL ELSE ?3 END \
             WHERE id = ?1",
            params![id, PackedText(body), html.map(PackedText)],
        )?;
        self.store.masked_since_checkpoint = true;
        Ok(true)
    }

    /// When a secret was masked since the last time: copy the write-ahead
    /// log into the database and empty it, so the pages as they were before
    /// the masking are gone from the disk. A reader holding an old snapshot
    /// (a CLI command) can keep the log from emptying: it is tried again
    /// next time.
    ///
    /// # Errors
    /// The database fails.
    pub fn checkpoint_after_masking(&mut self) -> Result<(), StoreError> {
        if !self.store.masked_since_checkpoint || !self.store.conn.is_autocommit() {
            return Ok(());
        }
        let busy: i64 =
            self.store
                .conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get(0))?;
        self.store.masked_since_checkpoint = busy != 0;
        Ok(())
    }
}

/// The secrets of one mail, as a tree of their bytes in lower case: one walk
/// over a text finds every one of them, however many there are, where
/// replacing them one after the other would go over the text once each.
struct Secrets {
    /// The root first; each node's branches by the next byte, and whether a
    /// secret ends there.
    nodes: Vec<(Vec<(u8, usize)>, bool)>,
    count: usize,
}

impl Secrets {
    fn new() -> Secrets {
        Secrets {
            nodes: vec![(Vec::new(), false)],
            count: 0,
        }
    }

    /// Look for `secret` too, when it has the shape of one (a shorter value
    /// masked everywhere would spoil the mail) and the cap is not reached.
    fn add(&mut self, secret: &str) {
        let secret = secret.trim();
        if !secret::has_its_shape(secret)
            || secret.len() > LONGEST_SECRET
            || self.count == SECRETS_PER_MAIL
        {
            return;
        }
        let mut node = 0;
        for byte in secret.bytes().map(|b| b.to_ascii_lowercase()) {
            node = match self.nodes[node].0.iter().find(|(b, _)| *b == byte) {
                Some(&(_, next)) => next,
                None => {
                    self.nodes.push((Vec::new(), false));
                    let next = self.nodes.len() - 1;
                    self.nodes[node].0.push((byte, next));
                    next
                }
            };
        }
        self.count += usize::from(!self.nodes[node].1);
        self.nodes[node].1 = true;
    }

    /// The length of the longest secret `text` starts with, in any ASCII
    /// case. Each step counts in `work`.
    fn longest_at(&self, text: &[u8], work: &mut u64) -> Option<usize> {
        let mut node = 0;
        let mut longest = None;
        for (at, byte) in text.iter().enumerate() {
            *work += 1;
            let byte = byte.to_ascii_lowercase();
            let Some(&(_, next)) = self.nodes[node].0.iter().find(|(b, _)| *b == byte) else {
                break;
            };
            node = next;
            if self.nodes[node].1 {
                longest = Some(at + 1);
            }
        }
        longest
    }

    /// `text` with each of the secrets masked, in one walk; `None` when it
    /// holds none.
    fn masked_in(&self, text: &[u8], work: &mut u64) -> Option<Vec<u8>> {
        let mut out: Option<Vec<u8>> = None;
        let mut copied = 0;
        let mut at = 0;
        while at < text.len() {
            match self.longest_at(&text[at..], work) {
                Some(length) => {
                    let kept = out.get_or_insert_with(|| Vec::with_capacity(text.len()));
                    kept.extend_from_slice(&text[copied..at]);
                    kept.extend_from_slice(MASK.as_bytes());
                    at += length;
                    copied = at;
                }
                None => at += 1,
            }
        }
        let mut kept = out?;
        kept.extend_from_slice(&text[copied..]);
        Some(kept)
    }
}

/// The secrets `mail` carries, found in one pass over its text: the values
/// of its `Password:` lines and the secrets of its `gm+tag.SECRET@`
/// addresses.
fn secrets_of(mail: &InboundMail, work: &mut u64) -> Secrets {
    let mut secrets = Secrets::new();
    for address in mail.to.iter().chain(&mail.cc).chain(&mail.delivered_to) {
        let base = address.split('+').next().unwrap_or_default();
        if let Some((_, Some(secret))) = plus_address(address, base.trim_start_matches('<')) {
            secrets.add(&secret);
        }
    }
    *work += mail.body_text.len() as u64;
    for line in mail.body_text.split('\n') {
        if let Some(password) = password_value(line) {
            secrets.add(&password);
        }
    }
    secrets
}

/// `raw` with each secret it carries masked (see [`secrets_of`]); `None`
/// when it carries none, or cannot be read. The work, a few passes over
/// `raw` whatever it holds, counts in `work`.
fn without_secrets(raw: &[u8], work: &mut u64) -> Option<Vec<u8>> {
    *work += raw.len() as u64;
    let mail = parse(raw, &InboundOptions::default()).ok()?;
    let secrets = secrets_of(&mail, work);
    if secrets.count == 0 {
        return None;
    }
    without_these(raw, &secrets, work)
}

/// `raw` with every occurrence of `secrets` (in any case) masked; `None`
/// when it holds none. When a secret is still readable once the mail is
/// decoded (a base64 body, a quoted-printable line break inside it), the
/// copy keeps the headers and gets the decoded text as its body, masked.
fn without_these(raw: &[u8], secrets: &Secrets, work: &mut u64) -> Option<Vec<u8>> {
    let replaced = secrets.masked_in(raw, work);
    let bytes = replaced.as_deref().unwrap_or(raw);
    // A mail with no encoded part reads as its bytes: nothing to decode.
    *work += 2 * bytes.len() as u64;
    let encoded = ["base64", "quoted-printable"]
        .iter()
        .any(|name| find_ignoring_case(bytes, name.as_bytes()));
    if !encoded {
        return replaced;
    }
    *work += bytes.len() as u64;
    let Ok(decoded) = parse(bytes, &InboundOptions::default()) else {
        return replaced;
    };
    match secrets.masked_in(decoded.body_text.as_bytes(), work) {
        Some(text) => {
            *work += bytes.len() as u64 + text.len() as u64;
            Some(with_text_body(bytes, &String::from_utf8_lossy(&text)))
        }
        None => replaced,
    }
}

/// The headers of `raw`, less those describing its body, over `text` as a
/// plain UTF-8 body.
fn with_text_body(raw: &[u8], text: &str) -> Vec<u8> {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|at| at + 2)
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n").map(|at| at + 1))
        .unwrap_or(raw.len());
    let head = String::from_utf8_lossy(&raw[..end]);
    let mut out = String::new();
    let mut skipping = false;
    for line in head.lines() {
        let folded = line.starts_with([' ', '\t']);
        if !folded {
            let name = line.split(':').next().unwrap_or_default().trim();
            skipping = name.eq_ignore_ascii_case("content-type")
                || name.eq_ignore_ascii_case("content-transfer-encoding");
        }
        if !skipping && !line.is_empty() {
            out.push_str(line);
            out.push_str("\r\n");
        }
    }
    out.push_str("Content-Type: text/plain; charset=utf-8\r\n");
    out.push_str("Content-Transfer-Encoding: 8bit\r\n\r\n");
    out.push_str(&text.replace('\n', "\r\n").replace("\r\r\n", "\r\n"));
    out.into_bytes()
}

/// Whether `needle` occurs in `haystack`, in any ASCII case.
fn find_ignoring_case(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "k7qm-2xra-pwd9-e4nb";

    fn mail(headers: &str, body: &str) -> Vec<u8> {
        format!(
            "From: alice@realmgm.test\r\nTo: gm+bimr3.{SECRET}@realmgm.test\r\n\
             Subject: [BIMR3] orders\r\nMessage-ID: <a@b>\r\n{headers}\r\n{body}"
        )
        .into_bytes()
    }

    /// `raw` with `secret` alone masked.
    fn masked_of(raw: &[u8], secret: &str) -> Option<Vec<u8>> {
        let mut secrets = Secrets::new();
        secrets.add(secret);
        without_these(raw, &secrets, &mut 0)
    }

    /// A read mail of `raw` stored in `store`.
    fn stored(store: &mut Store, raw: &[u8]) -> i64 {
        let id = store
            .inbox_mut()
            .insert(raw, &crate::mail::arrival::arrival(raw), 1)
            .unwrap()
            .id();
        store
            .inbox_mut()
            .set_status(id, crate::store::InboundStatus::Processed, None)
            .unwrap();
        id
    }

    /// The `n`th of many values shaped like a secret.
    fn made_up(n: usize) -> String {
        let letters: Vec<char> = "abcdefghjkmnpqrstuvwxyz23456789".chars().collect();
        let symbol = |k: usize| letters[(n / 31usize.pow(k as u32)) % 31];
        format!(
            "k7qm-2xra-pwd9-{}{}{}{}",
            symbol(0),
            symbol(1),
            symbol(2),
            symbol(3)
        )
    }

    #[test]
    fn a_long_mail_full_of_password_lines_is_masked_in_a_few_passes_over_it() {
        let mut store = Store::open_in_memory(crate::TEST_GAMES).unwrap();
        let mut body = format!("Password: {SECRET}\r\n");
        let mut n = 0;
        while body.len() < 2 << 20 {
            body.push_str(&format!("Password: x\r\nPassword: {}\r\n", made_up(n)));
            n += 1;
        }
        let raw = mail("", &body);
        let id = stored(&mut store, &raw);
        let pass = store
            .redaction_mut()
            .forget_secrets_within(u64::MAX)
            .unwrap();
        assert_eq!((pass.looked_at, pass.masked), (1, 1));
        // Parsed twice, its text and bytes gone over a few times: not once
        // for each of its 60,000 `Password:` lines.
        let passes = pass.work / raw.len() as u64;
        assert!(passes <= 12, "{passes} passes over the mail");
        let kept = store.inbox().get(id).unwrap().unwrap().raw;
        assert!(!holds_secret(&kept));
        let text = String::from_utf8_lossy(&kept);
        assert!(
            !text.contains(&made_up(0)),
            "the first secrets found are masked"
        );
        assert!(text.contains("Password: x\r\n"));
    }

    #[test]
    fn mail_beyond_a_passs_budget_is_masked_by_the_next_passes_each_once() {
        let mut store = Store::open_in_memory(crate::TEST_GAMES).unwrap();
        let raw = |n: usize| {
            let guesses = format!("guess {n}\r\n").repeat(1000);
            mail(
                &format!("X-N: {n}\r\n"),
                &format!("Password: {SECRET}\r\n{guesses}"),
            )
        };
        let ids: Vec<i64> = (0..5).map(|n| stored(&mut store, &raw(n))).collect();
        let mut one = 0;
        without_secrets(&raw(0), &mut one);
        let mut passes = Vec::new();
        loop {
            let pass = store
                .redaction_mut()
                .forget_secrets_within(2 * one)
                .unwrap();
            if pass.looked_at == 0 {
                break;
            }
            passes.push((pass.looked_at, pass.masked));
        }
        assert_eq!(passes, [(2, 2), (2, 2), (1, 1)]);
        for id in ids {
            assert!(!holds_secret(&store.inbox().get(id).unwrap().unwrap().raw));
        }
    }

    fn holds_secret(raw: &[u8]) -> bool {
        let text = String::from_utf8_lossy(raw).to_lowercase();
        let decoded = parse(raw, &InboundOptions::default()).unwrap().body_text;
        text.contains(SECRET) || decoded.to_lowercase().contains(SECRET)
    }

    #[test]
    fn a_plain_mail_keeps_everything_but_the_secret() {
        let raw = mail(
            "Content-Type: text/plain\r\n",
            "Password: K7QM-2XRA-PWD9-E4NB\r\nH / M-CV5\r\n",
        );
        let masked = masked_of(&raw, "K7QM-2XRA-PWD9-E4NB").unwrap();
        let text = String::from_utf8(masked.clone()).unwrap();
        assert!(!holds_secret(&masked), "{text}");
        assert!(text.contains("Password: ********\r\nH / M-CV5"), "{text}");
        assert!(
            text.contains("To: gm+bimr3.********@realmgm.test"),
            "{text}"
        );
        assert_eq!(text.len(), raw.len() - 2 * (SECRET.len() - MASK.len()));
    }

    #[test]
    fn an_encoded_body_is_kept_decoded_and_masked() {
        // "Password: k7qm-2xra-pwd9-e4nb\nH / M-CV5 é\n" in base64.
        let body = "UGFzc3dvcmQ6IGs3cW0tMnhyYS1wd2Q5LWU0bmIKSCAvIE0tQ1Y1IMOpCg==\r\n";
        let raw = mail(
            "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n",
            body,
        );
        assert!(holds_secret(&raw));
        let masked = masked_of(&raw, SECRET).unwrap();
        assert!(!holds_secret(&masked));
        let read = parse(&masked, &InboundOptions::default()).unwrap();
        assert!(
            read.body_text.contains("Password: ********"),
            "{}",
            read.body_text
        );
        assert!(read.body_text.contains("H / M-CV5 é"), "{}", read.body_text);
        assert_eq!(read.subject, "[BIMR3] orders");
    }

    #[test]
    fn every_password_line_and_plus_address_secret_is_found_but_no_short_word() {
        let raw = mail(
            "Cc: gm+bimr3.abcd-efgh-jkmn-pqrs@realmgm.test\r\n",
            "Password: K7QM 2XRA PWD9 E4NB\r\nguess no\r\npassword = \"zzzz-yyyy-xxxx-wwww\"\r\n\
             Password: no\r\n",
        );
        let text = String::from_utf8(without_secrets(&raw, &mut 0).unwrap()).unwrap();
        for secret in [SECRET, "k7qm 2xra", "abcd-efgh", "zzzz-yyyy"] {
            assert!(!text.to_lowercase().contains(secret), "{secret}: {text}");
        }
        assert!(text.contains("guess no\r\n"), "{text}");
        assert!(text.contains("Password: no\r\n"), "{text}");
        let plain = b"From: bob@realmgm.test\r\nSubject: x\r\n\r\nPassword: no\r\n";
        assert_eq!(without_secrets(plain, &mut 0), None);
    }

    #[test]
    fn read_mail_is_masked_once_and_failed_or_unread_mail_kept_as_it_came() {
        use crate::mail::arrival::arrival;
        use crate::store::InboundStatus;
        let mut store = Store::open_in_memory(crate::TEST_GAMES).unwrap();
        let mut ids = Vec::new();
        for (n, status) in [
            InboundStatus::Processed,
            InboundStatus::Rejected,
            InboundStatus::Duplicate,
            InboundStatus::Failed,
            InboundStatus::New,
        ]
        .into_iter()
        .enumerate()
        {
            let raw = mail("", &format!("Password: {SECRET}\r\nguess {n}\r\n"));
            let id = store
                .inbox_mut()
                .insert(&raw, &arrival(&raw), 1)
                .unwrap()
                .id();
            store.inbox_mut().set_status(id, status, None).unwrap();
            ids.push((id, raw));
        }
        assert_eq!(
            store.redaction_mut().forget_secrets_of_read_mail().unwrap(),
            3
        );
        for (n, (id, raw)) in ids.iter().enumerate() {
            let stored = store.inbox().get(*id).unwrap().unwrap();
            assert_eq!(holds_secret(&stored.raw), n >= 3, "mail {n}");
            assert_eq!(
                stored.content_hash,
                hex_sha256(raw),
                "the hash of what came"
            );
        }
        assert_eq!(
            store.redaction_mut().forget_secrets_of_read_mail().unwrap(),
            0,
            "each once"
        );
    }

    fn hex_sha256(raw: &[u8]) -> String {
        use sha2::{Digest, Sha256};
        crate::game::hex(&Sha256::digest(raw))
    }

    #[test]
    fn a_mail_without_the_secret_is_left_alone() {
        let raw = b"From: bob@realmgm.test\r\nSubject: x\r\n\r\nPassword: something else\r\n";
        assert_eq!(masked_of(raw, SECRET), None);
    }
}
