//! Parse one raw inbound mail (RFC 5322 bytes) into the plain facts the
//! daemon needs: who sent it to which address, threading headers, the body as
//! readable text in any charset, attachments, a SHA-256 of the raw bytes (the
//! dedupe and evidence key, reference pbem-practice.md §4 idea 1–2) and
//! whether a robot sent it (see [`crate::auto`]).
//!
//! The body is the first `text/plain` part; failing that, the first HTML part
//! converted by [`crate::html`]. Malformed MIME, invalid UTF-8 and empty
//! bodies never panic: mail-parser decodes what it can and this module returns
//! either a usable [`InboundMail`] or an [`InboundError`].
//!
//! What the daemon repeats of a mail it did not accept (a subject, an
//! address) goes through [`quotable`] or [`one_line`]: a few words on one
//! line, so a forger's text never comes back larger or with his links.
//!
//! Message-IDs are bare throughout the mail layer (`abc@host`, no angle
//! brackets), the form mail-parser returns.

use mail_parser::{Address, HeaderValue, Message, MessageParser, MimeHeaders, PartType};
use sha2::{Digest, Sha256};

use crate::arrival::let_go;
use crate::auto::{self, AutoKind};
use crate::html;

/// A mailbox: the address (as written) and its display name, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailAddress {
    pub address: String,
    pub name: Option<String>,
}

/// An attachment kept because it was within the size limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InboundAttachment {
    pub name: String,
    pub mime: String,
    pub bytes: Vec<u8>,
}

/// An attachment dropped because it was larger than the limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IgnoredAttachment {
    pub name: String,
    pub size: usize,
}

/// Where the body text came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodySource {
    Plain,
    /// Converted from the HTML part because there was no plain text part.
    Html,
    /// The message had no text at all; `body_text` is empty.
    Empty,
}

/// One inbound mail, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InboundMail {
    /// Bare Message-ID, or None when the mail has none.
    pub message_id: Option<String>,
    pub from: Option<MailAddress>,
    /// `Reply-To`, when present (the daemon still answers the registered
    /// address, never this one blindly).
    pub reply_to: Option<MailAddress>,
    pub to: Vec<String>,
    pub cc: Vec<String>,
    /// `Delivered-To` values added by the receiving MTA, first one topmost.
    pub delivered_to: Vec<String>,
    /// Decoded subject, empty when missing.
    pub subject: String,
    /// `Date:` as RFC 3339, when present and valid.
    pub date: Option<String>,
    /// `Date:` as Unix seconds, when present and valid.
    pub date_unix: Option<i64>,
    /// Bare Message-IDs this mail replies to.
    pub in_reply_to: Vec<String>,
    pub references: Vec<String>,
    /// The body as text, lines separated by `\n`.
    pub body_text: String,
    pub body_source: BodySource,
    pub attachments: Vec<InboundAttachment>,
    pub attachments_ignored: Vec<IgnoredAttachment>,
    /// Lower-case hex SHA-256 of the raw bytes.
    pub content_hash: String,
    /// Set when a robot sent this mail; the daemon must not answer it.
    pub auto_kind: Option<AutoKind>,
}

/// Limits and identity used while parsing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InboundOptions {
    /// Attachments larger than this many bytes are dropped and listed.
    pub max_attachment_bytes: usize,
    /// Prefix of our own `X-Loop` values (see [`crate::auto::classify`]).
    pub loop_token: String,
}

impl Default for InboundOptions {
    fn default() -> Self {
        InboundOptions {
            max_attachment_bytes: 1024 * 1024,
            loop_token: "realmgm".to_string(),
        }
    }
}

/// Why a byte string could not be read as a mail at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InboundError {
    #[error("the message is empty (0 bytes); nothing to read")]
    Empty,
    #[error(
        "the message has no mail headers (no 'Name: value' lines before the body); it is not an RFC 5322 mail"
    )]
    NoHeaders,
}

/// Parse raw bytes into an [`InboundMail`].
///
/// # Errors
/// [`InboundError::Empty`] for zero bytes and [`InboundError::NoHeaders`] when
/// mail-parser finds no header at all. Everything else (bad charsets, broken
/// MIME, missing parts) yields a mail with whatever could be read.
pub fn parse(raw: &[u8], options: &InboundOptions) -> Result<InboundMail, InboundError> {
    if raw.is_empty() {
        return Err(InboundError::Empty);
    }
    let message = MessageParser::default()
        .parse(raw)
        .ok_or(InboundError::NoHeaders)?;
    if message.headers().is_empty() {
        let_go(message);
        return Err(InboundError::NoHeaders);
    }
    let (body_text, body_source) = body_of(&message);
    let (attachments, attachments_ignored) = attachments_of(&message, options.max_attachment_bytes);
    let mail = InboundMail {
        message_id: message.message_id().map(bare_id),
        from: message.from().and_then(first_mailbox),
        reply_to: message.reply_to().and_then(first_mailbox),
        to: addresses(message.to()),
        cc: addresses(message.cc()),
        delivered_to: auto::raw_headers(&message, "Delivered-To")
            .into_iter()
            .map(|v| v.trim_matches(['<', '>']).to_string())
            .filter(|v| !v.is_empty())
            .collect(),
        subject: message.subject().unwrap_or("").trim().to_string(),
        date: message
            .date()
            .filter(|d| d.is_valid())
            .map(|d| d.to_rfc3339()),
        date_unix: message
            .date()
            .filter(|d| d.is_valid())
            .map(|d| d.to_timestamp()),
        in_reply_to: id_list(message.in_reply_to()),
        references: id_list(message.references()),
        body_text,
        body_source,
        attachments,
        attachments_ignored,
        content_hash: sha256_hex(raw),
        auto_kind: auto::classify(&message, &options.loop_token),
    };
    let_go(message);
    Ok(mail)
}

/// The most characters of a sender's own words a notice repeats.
pub const QUOTED_CHARS: usize = 60;

/// Characters that change how text is shown without being seen: zero-width
/// spaces and joiners, direction overrides and isolates, the byte-order mark.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// `text` on one line of at most `max_chars` characters: control and
/// invisible characters and runs of white space become one space, and a
/// text cut short ends in `...`. Reads no further into `text` than it
/// needs, so a 10 MB subject costs no more than a short one.
pub fn one_line(text: &str, max_chars: usize) -> String {
    words_on_one_line(text, max_chars, |word| word)
}

/// What a notice may repeat of words an unauthenticated sender wrote:
/// [`one_line`], with every link, mail address and host name replaced by
/// `[link]`, so a forged subject cannot make the daemon mail "log in at
/// ..." to a player in its own name.
pub fn quotable(text: &str, max_chars: usize) -> String {
    words_on_one_line(text, max_chars, |word| {
        if looks_like_link(word) {
            "[link]"
        } else {
            word
        }
    })
}

fn words_on_one_line<'a>(
    text: &'a str,
    max_chars: usize,
    shown: impl Fn(&'a str) -> &'a str,
) -> String {
    let mut line = String::new();
    let mut length = 0;
    let words = text
        .split(|c: char| c.is_whitespace() || c.is_control() || is_invisible(c))
        .filter(|word| !word.is_empty())
        .map(shown);
    for word in words {
        let gap = usize::from(length > 0);
        let room = max_chars.saturating_sub(length + gap);
        let chars = word.chars().count();
        if chars > room {
            if room > 0 {
                line.push_str(&" ".repeat(gap));
                line.extend(word.chars().take(room));
            }
            line.push_str("...");
            return line;
        }
        line.push_str(&" ".repeat(gap));
        line.push_str(word);
        length += gap + chars;
    }
    line
}

/// A URL, a mail address or a host name (`evil.example`, `www.x`,
/// `x.test/login`), punctuation around it aside.
fn looks_like_link(word: &str) -> bool {
    let word = word
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    if word.contains("://") || word.contains('@') || word.starts_with("www.") {
        return true;
    }
    if word.starts_with("mailto:") || word.starts_with("javascript:") {
        return true;
    }
    let host = word.split(['/', '?', '#', ':']).next().unwrap_or_default();
    let labels: Vec<&str> = host.split('.').collect();
    labels.len() >= 2
        && labels
            .iter()
            .all(|l| !l.is_empty() && l.chars().all(|c| c.is_alphanumeric() || c == '-'))
        && labels
            .last()
            .is_some_and(|tld| tld.chars().count() >= 2 && tld.chars().all(char::is_alphabetic))
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn bare_id(id: &str) -> String {
    id.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_string()
}

fn id_list(value: &HeaderValue<'_>) -> Vec<String> {
    match value {
        HeaderValue::Text(id) => vec![bare_id(id)],
        HeaderValue::TextList(ids) => ids.iter().map(|id| bare_id(id)).collect(),
        _ => Vec::new(),
    }
    .into_iter()
    .filter(|id| !id.is_empty())
    .collect()
}

fn first_mailbox(address: &Address<'_>) -> Option<MailAddress> {
    let first = address.iter().find(|a| a.address().is_some())?;
    Some(MailAddress {
        address: first.address()?.trim().to_string(),
        name: first
            .name()
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_string),
    })
}

fn addresses(address: Option<&Address<'_>>) -> Vec<String> {
    address
        .map(|a| {
            a.iter()
                .filter_map(|a| a.address())
                .map(|a| a.trim().to_string())
                .filter(|a| !a.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// The body text: first text/plain body part, else the first HTML body part
/// converted, with line endings normalised to `\n`.
fn body_of(message: &Message<'_>) -> (String, BodySource) {
    let plain = message.text_bodies().find_map(|part| match &part.body {
        PartType::Text(text) => Some(text.to_string()),
        _ => None,
    });
    if let Some(text) = plain {
        return (normalise_newlines(text), BodySource::Plain);
    }
    let html = message
        .html_bodies()
        .chain(message.text_bodies())
        .find_map(|part| match &part.body {
            PartType::Html(html) => Some(html.to_string()),
            _ => None,
        });
    match html {
        Some(html) => (html::html_to_text(&html), BodySource::Html),
        None => (String::new(), BodySource::Empty),
    }
}

/// `text` with `\n` line ends, made in place: a large body is never held
/// twice.
fn normalise_newlines(text: String) -> String {
    if !text.contains('\r') {
        return text;
    }
    let mut bytes = text.into_bytes();
    let (mut read, mut write) = (0, 0);
    while read < bytes.len() {
        let byte = bytes[read];
        if byte == b'\r' {
            bytes[write] = b'\n';
            if bytes.get(read + 1) == Some(&b'\n') {
                read += 1;
            }
        } else {
            bytes[write] = byte;
        }
        read += 1;
        write += 1;
    }
    bytes.truncate(write);
    // Only ASCII bytes were replaced, so the text is still UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn attachments_of(
    message: &Message<'_>,
    max_bytes: usize,
) -> (Vec<InboundAttachment>, Vec<IgnoredAttachment>) {
    let mut kept = Vec::new();
    let mut ignored = Vec::new();
    for (index, part) in message.attachments().enumerate() {
        let name = part
            .attachment_name()
            .map(str::to_string)
            .unwrap_or_else(|| format!("attachment-{}", index + 1));
        let bytes = part.contents();
        if bytes.len() > max_bytes {
            ignored.push(IgnoredAttachment {
                name,
                size: bytes.len(),
            });
            continue;
        }
        let mime = part
            .content_type()
            .map(|ct| match ct.subtype() {
                Some(sub) => format!("{}/{}", ct.ctype(), sub),
                None => ct.ctype().to_string(),
            })
            .unwrap_or_else(|| "application/octet-stream".to_string())
            .to_ascii_lowercase();
        kept.push(InboundAttachment {
            name,
            mime,
            bytes: bytes.to_vec(),
        });
    }
    (kept, ignored)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_plain_mail() {
        let raw = b"From: \"Ann Smith\" <ann@example.org>\r\nTo: gm+bimr3@realmgm.test\r\n\
            Subject: Re: [BIMR3] Day 3\r\nMessage-ID: <m1@example.org>\r\n\
            Date: Tue, 4 Mar 2025 09:12:00 +0100\r\nIn-Reply-To: <r1@realmgm.test>\r\n\
            References: <t@realmgm.test> <r1@realmgm.test>\r\n\r\nH / H\r\n";
        let mail = parse(raw, &InboundOptions::default()).unwrap();
        assert_eq!(mail.message_id.as_deref(), Some("m1@example.org"));
        assert_eq!(
            mail.from,
            Some(MailAddress {
                address: "ann@example.org".into(),
                name: Some("Ann Smith".into())
            })
        );
        assert_eq!(mail.to, vec!["gm+bimr3@realmgm.test".to_string()]);
        assert_eq!(mail.subject, "Re: [BIMR3] Day 3");
        assert_eq!(mail.date.as_deref(), Some("2025-03-04T09:12:00+01:00"));
        assert_eq!(mail.in_reply_to, vec!["r1@realmgm.test".to_string()]);
        assert_eq!(mail.references.len(), 2);
        assert_eq!(mail.body_text, "H / H\n");
        assert_eq!(mail.body_source, BodySource::Plain);
        assert_eq!(mail.content_hash, sha256_hex(raw));
        assert_eq!(mail.auto_kind, None);
    }

    #[test]
    fn empty_and_headerless_input_are_typed_errors() {
        assert_eq!(
            parse(b"", &InboundOptions::default()),
            Err(InboundError::Empty)
        );
        let err = parse(b"\r\n\r\n", &InboundOptions::default()).unwrap_err();
        assert_eq!(err, InboundError::NoHeaders);
    }

    #[test]
    fn a_quoted_text_is_short_on_one_line_and_without_links() {
        let forged = format!(
            "Urgent:\r\n\tlog in at https://evil.example/login or evil.example now\u{202E} \
             mail me@evil.example {}",
            "A".repeat(10_000_000)
        );
        let quoted = quotable(&forged, QUOTED_CHARS);
        assert!(quoted.chars().count() <= QUOTED_CHARS + 3, "{quoted}");
        assert!(quoted.starts_with("Urgent: log in at [link] or [link] now mail [link] AAA"));
        assert!(quoted.ends_with("..."), "{quoted}");
        assert!(!quoted.contains("evil") && !quoted.chars().any(char::is_control));
        // Ordinary words, numbers and a day's subject stay as written.
        assert_eq!(
            quotable("Re: [G1] orders for day 3.5, e.g. move", 60),
            "Re: [G1] orders for day 3.5, e.g. move"
        );
        assert_eq!(
            one_line("eve@evil.test\r\nBcc: x", 60),
            "eve@evil.test Bcc: x"
        );
        assert_eq!(one_line("abcdef", 3), "abc...");
        assert_eq!(one_line("", 3), "");
    }

    #[test]
    fn line_ends_become_newlines() {
        assert_eq!(
            normalise_newlines("a\r\nb\rc\n\r\n\u{e9}\r".to_string()),
            "a\nb\nc\n\n\u{e9}\n"
        );
        assert_eq!(normalise_newlines("plain\n".to_string()), "plain\n");
    }

    #[test]
    fn sha256_of_known_input() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
