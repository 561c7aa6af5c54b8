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
//! SQLite zeroes what a masking overwrites in a page (`secure_delete`), and
//! the write-ahead log, which still holds the pages as they were, is
//! checkpointed and emptied after each masking
//! ([`Store::checkpoint_after_masking`]). A `grep` of the database's files
//! then finds no secret.

use rusqlite::params;

use super::packed::{PackedText, UnpackedBytes};
use super::{Store, StoreError, secret};
use crate::mail::inbound::{InboundOptions, parse};
use crate::mail::route::{plus_address, take_password};

/// What stands in a stored mail where a secret was.
pub const MASK: &str = "********";

/// Received mails looked at in one pass: bounds the memory and the time a
/// pass takes.
const MAIL_PER_PASS: i64 = 200;

impl Store {
    /// Mask the secrets in the stored copies of the received mail read
    /// since the last time, at most [`MAIL_PER_PASS`] of them (an older
    /// database, whose every mail is still to be looked at, is done over a
    /// few passes). Returns how many copies held a secret.
    ///
    /// # Errors
    /// The database fails.
    pub fn forget_secrets_of_read_mail(&mut self) -> Result<usize, StoreError> {
        let read: Vec<(i64, Vec<u8>)> = self
            .conn
            .prepare_cached(
                "SELECT id, raw FROM inbound_mail WHERE secrets_masked = 0 \
                 AND status IN ('processed', 'rejected', 'duplicate') ORDER BY id LIMIT ?1",
            )?
            .query_map([MAIL_PER_PASS], |row| {
                Ok((row.get(0)?, row.get::<_, UnpackedBytes>(1)?.0))
            })?
            .collect::<Result<_, _>>()?;
        if read.is_empty() {
            return Ok(0);
        }
        let tx = self.conn.savepoint()?;
        let mut masked = 0;
        for (id, raw) in read {
            let kept = without_secrets(&raw);
            masked += usize::from(kept.is_some());
            tx.prepare_cached(
                "UPDATE inbound_mail SET raw = COALESCE(?2, raw), secrets_masked = 1 \
                 WHERE id = ?1",
            )?
            .execute(params![id, kept])?;
        }
        tx.commit()?;
        self.masked_since_checkpoint |= masked > 0;
        Ok(masked)
    }

    /// After queued mail `id` was delivered or given up for good: its stored text `body` and
    /// HTML `html` lose every secret they carry (HTML read from a stored
    /// report is not the mail's own and is not written). Returns whether
    /// there was one.
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
        self.conn.execute(
            "UPDATE outbox SET body = ?2, html = CASE WHEN html IS NULL THEN NULL ELSE ?3 END \
             WHERE id = ?1",
            params![id, PackedText(body), html.map(PackedText)],
        )?;
        self.masked_since_checkpoint = true;
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
        if !self.masked_since_checkpoint || !self.conn.is_autocommit() {
            return Ok(());
        }
        let busy: i64 = self
            .conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get(0))?;
        self.masked_since_checkpoint = busy != 0;
        Ok(())
    }
}

/// `raw` with each secret it carries masked: the values of its
/// `Password:` lines and the secrets of its `gm+tag.SECRET@` addresses that
/// have the shape of a secret (a shorter value masked everywhere would
/// spoil the mail). `None` when it carries none, or cannot be read.
fn without_secrets(raw: &[u8]) -> Option<Vec<u8>> {
    let mail = parse(raw, &InboundOptions::default()).ok()?;
    let mut found = Vec::new();
    let mut text = mail.body_text;
    loop {
        let taken = take_password(&text);
        let Some(password) = taken.password else {
            break;
        };
        found.push(password);
        text = taken.text;
    }
    for address in mail.to.iter().chain(&mail.cc).chain(&mail.delivered_to) {
        let base = address.split('+').next().unwrap_or_default();
        if let Some((_, Some(secret))) = plus_address(address, base.trim_start_matches('<')) {
            found.push(secret);
        }
    }
    let mut kept: Option<Vec<u8>> = None;
    for secret in found.iter().filter(|s| secret::has_its_shape(s)) {
        if let Some(masked) = without_secret(kept.as_deref().unwrap_or(raw), secret) {
            kept = Some(masked);
        }
    }
    kept
}

/// `raw` with every occurrence of `secret` (in any case) masked; `None`
/// when it holds none. When the secret is still readable once the mail is
/// decoded (a base64 body, a quoted-printable line break inside it), the
/// copy keeps the headers and gets the decoded text as its body, masked.
fn without_secret(raw: &[u8], secret: &str) -> Option<Vec<u8>> {
    let secret = secret.trim();
    if secret.is_empty() {
        return None;
    }
    let replaced = replace_ignoring_case(raw, secret.as_bytes(), MASK.as_bytes());
    let bytes = replaced.as_deref().unwrap_or(raw);
    // A mail with no encoded part reads as its bytes: nothing to decode.
    let encoded = ["base64", "quoted-printable"]
        .iter()
        .any(|name| find_ignoring_case(bytes, name.as_bytes()));
    if !encoded {
        return replaced;
    }
    match decoded_still_holds(bytes, secret) {
        Some(text) => Some(with_text_body(bytes, &text)),
        None => replaced,
    }
}

/// The decoded text of `raw` with `secret` masked, when decoding shows the
/// secret; `None` when it does not (or the mail cannot be read, in which
/// case there is no decoded text to hide it in).
fn decoded_still_holds(raw: &[u8], secret: &str) -> Option<String> {
    let mail = parse(raw, &InboundOptions::default()).ok()?;
    let wanted = secret.to_lowercase();
    let text = mail.body_text;
    if !text.to_lowercase().contains(&wanted) {
        return None;
    }
    let masked = replace_ignoring_case(text.as_bytes(), secret.as_bytes(), MASK.as_bytes())
        .map_or(text, |bytes| String::from_utf8_lossy(&bytes).into_owned());
    Some(masked)
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

/// `haystack` with each ASCII-case-insensitive occurrence of `needle`
/// replaced by `with`; `None` when there is none.
fn replace_ignoring_case(haystack: &[u8], needle: &[u8], with: &[u8]) -> Option<Vec<u8>> {
    if needle.is_empty() || haystack.len() < needle.len() {
        return None;
    }
    let mut out = Vec::with_capacity(haystack.len());
    let mut at = 0;
    let mut found = false;
    while at < haystack.len() {
        let rest = &haystack[at..];
        if rest.len() >= needle.len() && rest[..needle.len()].eq_ignore_ascii_case(needle) {
            out.extend_from_slice(with);
            at += needle.len();
            found = true;
        } else {
            out.push(haystack[at]);
            at += 1;
        }
    }
    found.then_some(out)
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
        let masked = without_secret(&raw, "K7QM-2XRA-PWD9-E4NB").unwrap();
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
        let masked = without_secret(&raw, SECRET).unwrap();
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
        let text = String::from_utf8(without_secrets(&raw).unwrap()).unwrap();
        for secret in [SECRET, "k7qm 2xra", "abcd-efgh", "zzzz-yyyy"] {
            assert!(!text.to_lowercase().contains(secret), "{secret}: {text}");
        }
        assert!(text.contains("guess no\r\n"), "{text}");
        assert!(text.contains("Password: no\r\n"), "{text}");
        let plain = b"From: bob@realmgm.test\r\nSubject: x\r\n\r\nPassword: no\r\n";
        assert_eq!(without_secrets(plain), None);
    }

    #[test]
    fn read_mail_is_masked_once_and_failed_or_unread_mail_kept_as_it_came() {
        use crate::mail::arrival::arrival;
        use crate::store::InboundStatus;
        let mut store = Store::open_in_memory().unwrap();
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
                .insert_inbound_mail(&raw, &arrival(&raw), 1)
                .unwrap()
                .id();
            store.set_inbound_status(id, status, None).unwrap();
            ids.push((id, raw));
        }
        assert_eq!(store.forget_secrets_of_read_mail().unwrap(), 3);
        for (n, (id, raw)) in ids.iter().enumerate() {
            let stored = store.inbound_mail(*id).unwrap().unwrap();
            assert_eq!(holds_secret(&stored.raw), n >= 3, "mail {n}");
            assert_eq!(
                stored.content_hash,
                hex_sha256(raw),
                "the hash of what came"
            );
        }
        assert_eq!(store.forget_secrets_of_read_mail().unwrap(), 0, "each once");
    }

    fn hex_sha256(raw: &[u8]) -> String {
        use sha2::{Digest, Sha256};
        crate::game::hex(&Sha256::digest(raw))
    }

    #[test]
    fn a_mail_without_the_secret_is_left_alone() {
        let raw = b"From: bob@realmgm.test\r\nSubject: x\r\n\r\nPassword: something else\r\n";
        assert_eq!(without_secret(raw, SECRET), None);
    }
}
