//! What identifies a delivered mail before it is read: its Message-ID, its
//! sender and a fingerprint of the letter itself.
//!
//! The same letter can arrive twice: a relay retries after a lost
//! acknowledgement, or a second mailbox forwards a copy. Each delivery adds
//! its own trace headers (`Received:`, `Delivered-To:`, authentication
//! results, spam scores), so the raw bytes differ while the letter does not.
//! The fingerprint hashes the letter without those headers, with line
//! endings made uniform, so both deliveries get the same one.

use mail_parser::MessageParser;
use sha2::{Digest, Sha256};

use crate::mail::inbound::sha256_hex;

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
    let headers = MessageParser::default().parse_headers(raw);
    let message_id = headers
        .as_ref()
        .and_then(|m| m.message_id().map(|id| id.trim().to_string()))
        .unwrap_or_default();
    let sender = headers
        .as_ref()
        .and_then(|m| m.from()?.first()?.address().map(str::to_lowercase))
        .map(|a| a.trim().to_string())
        .unwrap_or_default();
    Arrival {
        message_id,
        sender,
        fingerprint: fingerprint(raw),
    }
}

/// SHA-256 of `raw` with trace headers (and every `X-` header, which
/// authors' programs and relays both add and no reader sees) left out and
/// line endings as `\n`.
pub fn fingerprint(raw: &[u8]) -> String {
    let (head, body) = split_head(raw);
    let mut hasher = Sha256::new();
    let mut keep = true;
    for line in head.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        // A folded line continues the header before it.
        if !line.starts_with(b" ") && !line.starts_with(b"\t") {
            keep = !is_trace_header(line);
        }
        if keep {
            hasher.update(line);
            hasher.update(b"\n");
        }
    }
    hasher.update(b"\n");
    for line in body.split(|&b| b == b'\n') {
        hasher.update(line.strip_suffix(b"\r").unwrap_or(line));
        hasher.update(b"\n");
    }
    sha256_hex(&hasher.finalize())
}

/// The header block and the body of a raw mail (all head when there is no
/// blank line).
fn split_head(raw: &[u8]) -> (&[u8], &[u8]) {
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

fn is_trace_header(line: &[u8]) -> bool {
    let Some(colon) = line.iter().position(|&b| b == b':') else {
        return false;
    };
    let name = String::from_utf8_lossy(&line[..colon])
        .trim()
        .to_ascii_lowercase();
    name.starts_with("x-") || TRACE_HEADERS.contains(&name.as_str())
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
    fn anything_at_all_has_an_identity() {
        assert_eq!(arrival(b"").message_id, "");
        assert_eq!(arrival(b"\xff\xfe:\r\n\r\n").sender, "");
        assert_eq!(
            split_head(b"no blank line"),
            (&b"no blank line"[..], &b""[..])
        );
    }
}
