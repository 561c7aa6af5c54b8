//! What identifies a delivered mail before it is read: its Message-ID, its
//! sender and a fingerprint of the letter itself.
//!
//! The same letter can arrive twice: a relay retries after a lost
//! acknowledgement, or a second mailbox forwards a copy. Each delivery adds
//! its own trace headers (`Received:`, `Delivered-To:`, authentication
//! results, spam scores), so the raw bytes differ while the letter does not.
//! The fingerprint hashes the letter without those headers, its headers
//! unfolded and its body decoded, so both deliveries get the same one even
//! when a relay re-encoded the body or folded the subject anew.

use mail_parser::{Message, MessageParser, PartType};
use sha2::{Digest, Sha256};

use crate::inbound::sha256_hex;

/// The identity of one delivered mail.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Arrival {
    /// The Message-ID as written (trimmed), empty when there is none.
    pub message_id: String,
    /// The bare `From:` address in lower case, empty when there is none.
    pub sender: String,
    /// SHA-256 (hex) of the letter without the headers relays add.
    pub fingerprint: String,
}

/// Headers a relay or a delivery agent adds on the way; never the author's.
const TRACE_HEADERS: &[&str] = &[
    "received",
    "return-path",
    "delivered-to",
    "envelope-to",
    "authentication-results",
    "received-spf",
    "dkim-signature",
    "arc-seal",
    "arc-message-signature",
    "arc-authentication-results",
    "status",
    "lines",
    "content-length",
];

/// The identity of the raw mail `raw`. Never fails: a mail without
/// headers has an empty Message-ID and sender.
pub fn arrival(raw: &[u8]) -> Arrival {
    let message = MessageParser::default().parse(raw);
    let message_id = message
        .as_ref()
        .and_then(|m| m.message_id().map(|id| id.trim().to_string()))
        .unwrap_or_default();
    let sender = message
        .as_ref()
        .and_then(|m| m.from()?.first()?.address().map(str::to_lowercase))
        .map(|a| a.trim().to_string())
        .unwrap_or_default();
    let fingerprint = fingerprint_of(raw, message.as_ref(), 0);
    message.map(let_go);
    Arrival {
        message_id,
        sender,
        fingerprint,
    }
}

/// SHA-256 of the letter in `raw`, not of its bytes: its headers without
/// the trace headers (and every `X-` header, which authors' programs and
/// relays both add and no reader sees) or the MIME headers that only say
/// how the body was encoded, each unfolded with its white space collapsed
/// (the subject decoded), then its body parts decoded, each text with line
/// ends as `\n`, no white space at a line's end and no blank lines at its
/// end. So a relay that re-encodes the body as quoted-printable, folds the
/// subject anew or adds blank lines makes no new letter. A letter nested
/// in a letter is hashed the same way down to [`NORMALISED_DEPTH`] levels,
/// and as its bytes below that: no relay re-encodes that deep, and a mail
/// made of thousands of nested letters costs no more than its size.
pub fn fingerprint(raw: &[u8]) -> String {
    let message = MessageParser::default().parse(raw);
    let fingerprint = fingerprint_of(raw, message.as_ref(), 0);
    message.map(let_go);
    fingerprint
}

/// Let go of a parsed `message` one nested letter at a time. mail-parser
/// reads letters nested in letters without limit (and without recursing),
/// but dropping its `Message` whole recurses once per level: a mail of
/// 50,000 nested letters (2 MB) would overflow the stack.
pub fn let_go(message: Message<'_>) {
    let mut letters = vec![message];
    while let Some(mut letter) = letters.pop() {
        for part in &mut letter.parts {
            if let PartType::Message(inner) = &mut part.body {
                letters.push(std::mem::take(inner));
            }
        }
    }
}

/// How many levels of letters nested in letters the fingerprint reads as
/// letters (as deep as mail-parser decodes an encoded one).
const NORMALISED_DEPTH: usize = 3;

/// [`fingerprint`] of `raw` parsed as `message` (`None`: it could not be),
/// a letter nested `depth` levels deep.
fn fingerprint_of(raw: &[u8], message: Option<&Message<'_>>, depth: usize) -> String {
    let (head, body) = split_head(raw);
    let subject = message.and_then(|m| m.subject());
    let mut hasher = Sha256::new();
    for (name, value) in unfolded(head) {
        let name = String::from_utf8_lossy(name).trim().to_ascii_lowercase();
        if is_trace_header(&name) || MIME_HEADERS.contains(&name.as_str()) {
            continue;
        }
        let value = String::from_utf8_lossy(&value);
        let value = match subject {
            Some(subject) if name == "subject" => subject,
            _ => value.as_ref(),
        };
        hasher.update(name.as_bytes());
        hasher.update(b":");
        hasher.update(value.split_whitespace().collect::<Vec<_>>().join(" "));
        hasher.update(b"\n");
    }
    hasher.update(b"\n");
    match message {
        Some(message) => {
            for part in &message.parts {
                match &part.body {
                    PartType::Text(text) | PartType::Html(text) => {
                        hasher.update(b"\0text\n");
                        hash_text(&mut hasher, text.as_bytes());
                    }
                    PartType::Binary(bytes) | PartType::InlineBinary(bytes) => {
                        hasher.update(b"\0binary\n");
                        hasher.update(bytes);
                    }
                    PartType::Message(inner) if depth < NORMALISED_DEPTH => {
                        hasher.update(b"\0message\n");
                        hasher.update(fingerprint_of(inner.raw_message(), Some(inner), depth + 1));
                    }
                    PartType::Message(inner) => {
                        hasher.update(b"\0message bytes\n");
                        hasher.update(inner.raw_message());
                    }
                    PartType::Multipart(_) => {}
                }
            }
        }
        None => hash_text(&mut hasher, body),
    }
    sha256_hex(&hasher.finalize())
}

/// Headers that say how the body is encoded; the decoded body stands for
/// them.
const MIME_HEADERS: &[&str] = &["content-transfer-encoding", "content-type", "mime-version"];

/// The headers of `head` as (name, value) with folded lines joined.
fn unfolded(head: &[u8]) -> Vec<(&[u8], Vec<u8>)> {
    let mut headers: Vec<(&[u8], Vec<u8>)> = Vec::new();
    for line in head.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.starts_with(b" ") || line.starts_with(b"\t") {
            if let Some((_, value)) = headers.last_mut() {
                value.push(b' ');
                value.extend_from_slice(line);
            }
            continue;
        }
        match line.iter().position(|&b| b == b':') {
            Some(colon) => headers.push((&line[..colon], line[colon + 1..].to_vec())),
            None if !line.is_empty() => headers.push((line, Vec::new())),
            None => {}
        }
    }
    headers
}

/// Hash `text` line by line, each line without its line end and trailing
/// white space, leaving out the blank lines at its end.
fn hash_text(hasher: &mut Sha256, text: &[u8]) {
    let mut blank_lines = 0;
    for line in text.split(|&b| b == b'\n') {
        let line = line.trim_ascii_end();
        if line.is_empty() {
            blank_lines += 1;
            continue;
        }
        for _ in 0..blank_lines {
            hasher.update(b"\n");
        }
        blank_lines = 0;
        hasher.update(line);
        hasher.update(b"\n");
    }
}

/// The header block and the body of a raw mail (all head when there is no
/// blank line).
pub fn split_head(raw: &[u8]) -> (&[u8], &[u8]) {
    let blank = raw
        .windows(2)
        .position(|w| w == b"\n\n")
        .map(|at| (at + 1, at + 2));
    let crlf_blank = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|at| (at + 2, at + 4));
    match [blank, crlf_blank].into_iter().flatten().min() {
        Some((head_end, body_start)) => (&raw[..head_end], &raw[body_start..]),
        None => (raw, &[]),
    }
}

/// A header a relay adds (or any `X-` header), by its lower-case name.
fn is_trace_header(name: &str) -> bool {
    name.starts_with("x-") || TRACE_HEADERS.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LETTER: &str = "From: Ann <Ann@X.test>\r\nTo: gm@x.test\r\nSubject: [T] orders\r\n\
                          Message-ID: <m1@x.test>\r\n\r\nguess 5\r\n";

    #[test]
    fn a_second_delivery_with_trace_headers_has_the_same_fingerprint() {
        let relayed = format!(
            "Received: from relay2.test by mx.test;\r\n\tTue, 1 Jan 2030 10:00:00 +0000\r\n\
             Delivered-To: gm@x.test\r\nX-Spam-Score: 0.1\r\n{LETTER}"
        );
        let first = arrival(LETTER.as_bytes());
        let second = arrival(relayed.as_bytes());
        assert_eq!(first, second);
        assert_eq!(first.sender, "ann@x.test");
        assert_eq!(first.message_id, "m1@x.test");
        let lf = LETTER.replace("\r\n", "\n");
        assert_eq!(fingerprint(lf.as_bytes()), first.fingerprint);
    }

    #[test]
    fn a_changed_letter_has_another_fingerprint() {
        let changed = LETTER.replace("guess 5", "guess 6");
        assert_ne!(
            fingerprint(changed.as_bytes()),
            fingerprint(LETTER.as_bytes())
        );
        let resubjected = LETTER.replace("[T] orders", "[T] help");
        assert_ne!(
            fingerprint(resubjected.as_bytes()),
            fingerprint(LETTER.as_bytes())
        );
    }

    #[test]
    fn a_letter_re_encoded_refolded_or_padded_on_the_way_is_the_same_letter() {
        let letter = "From: Ann <ann@x.test>\r\nTo: gm@x.test\r\nSubject: [T] orders for the \
                      third day\r\nMessage-ID: <m2@x.test>\r\nContent-Type: text/plain; \
                      charset=utf-8\r\n\r\nguess 5 = five\r\nwith caf\u{e9}\r\n";
        let quoted_printable = "From: Ann <ann@x.test>\r\nTo: gm@x.test\r\nSubject: [T] orders \
                                for the third day\r\nMessage-ID: <m2@x.test>\r\nMIME-Version: \
                                1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\
                                Content-Transfer-Encoding: quoted-printable\r\n\r\nguess 5 =3D \
                                fi=\r\nve\r\nwith caf=C3=A9\r\n";
        let refolded = letter.replace("orders for the third", "orders for\r\n\t the  third");
        let padded = format!("{letter}\r\n\r\n  \r\n");
        let first = fingerprint(letter.as_bytes());
        for again in [quoted_printable.to_string(), refolded, padded] {
            assert_eq!(fingerprint(again.as_bytes()), first, "{again}");
        }
        let one_word = letter.replace("guess 5 = five", "guess 6 = five");
        assert_ne!(fingerprint(one_word.as_bytes()), first);
    }

    #[test]
    fn anything_at_all_has_an_identity() {
        assert_eq!(arrival(b"").message_id, "");
        assert_eq!(arrival(b"\xff\xfe:\r\n\r\n").sender, "");
        assert_eq!(
            split_head(b"no blank line"),
            (&b"no blank line"[..], &b""[..])
        );
    }
}

#[cfg(test)]
mod nesting_tests {
    use super::*;

    /// A mail with `levels` letters each nested in the one before, the
    /// innermost saying `last`.
    fn nested(levels: usize, last: &str) -> Vec<u8> {
        let mut raw = String::from(
            "From: Eve <eve@evil.test>\r\nTo: gm@x.test\r\nSubject: [T] n\r\n\
             Message-ID: <n@evil.test>\r\nContent-Type: message/rfc822\r\n\r\n",
        );
        for _ in 1..levels {
            raw.push_str("Subject: x\r\nContent-Type: message/rfc822\r\n\r\n");
        }
        raw.push_str(&format!("Subject: end\r\n\r\n{last}\r\n"));
        raw.into_bytes()
    }

    #[test]
    fn fifty_thousand_nested_letters_get_an_identity() {
        let deep = arrival(&nested(50_000, "hello"));
        assert_eq!(deep.sender, "eve@evil.test");
        assert_eq!(
            deep.fingerprint,
            arrival(&nested(50_000, "hello")).fingerprint
        );
        assert_ne!(deep.fingerprint, arrival(&nested(3, "hello")).fingerprint);
    }

    #[test]
    fn letters_nested_deeper_than_three_are_hashed_as_bytes() {
        let letter = String::from_utf8(nested(10, "hello")).unwrap();
        let refolded_at = |level: usize| {
            let at = letter
                .match_indices("Subject: x\r\n")
                .nth(level - 1)
                .unwrap()
                .0;
            format!("{}Subject:   x{}", &letter[..at], &letter[at + 10..])
        };
        assert_eq!(
            fingerprint(refolded_at(1).as_bytes()),
            fingerprint(letter.as_bytes())
        );
        assert_ne!(
            fingerprint(refolded_at(5).as_bytes()),
            fingerprint(letter.as_bytes())
        );
    }
}
