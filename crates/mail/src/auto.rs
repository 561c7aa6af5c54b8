//! Detect mail that a robot sent and that must never be answered: vacation
//! replies, list traffic, our own mail coming back, mailer-daemon notices and
//! delivery status notifications (bounces). Answering any of them risks a mail
//! loop; a bounce also names the player whose address failed, which the daemon
//! records (reference pbem-practice.md §1.5 DPjudge procmail rules, §1.3
//! Olympia's X-Loop check, §4 idea 9 bounce counting; RFC 3834, RFC 3464).

use mail_parser::{Message, MimeHeaders, PartType};

use crate::inbound::one_line;

/// Why a message counts as automatic. The first matching reason wins, in the
/// order bounce, own loop, mailer-daemon sender, Auto-Submitted, Precedence,
/// other report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AutoKind {
    /// A delivery status notification: some of our mail did not arrive.
    /// `failed_recipients` are the addresses that failed (lower-cased), empty
    /// when the notice did not say which.
    Bounce { failed_recipients: Vec<String> },
    /// An `X-Loop` header carrying our own loop token: our mail came back.
    OwnLoop { value: String },
    /// Sent by a mailer-daemon or postmaster address.
    MailerDaemon { sender: String },
    /// `Auto-Submitted` with a value other than `no` (RFC 3834).
    AutoSubmitted { value: String },
    /// `Precedence: bulk`, `junk` or `list`.
    Precedence { value: String },
    /// Another machine report (`multipart/report`, e.g. a read receipt).
    Report { report_type: String },
}

impl AutoKind {
    /// A short description for logs and the GM's view of the inbox: a
    /// robot's mail is not authenticated, so what it says is shown on one
    /// short line and at most [`RECIPIENTS_SHOWN`] failed addresses are
    /// named.
    pub fn describe(&self) -> String {
        let shown = |value: &str| one_line(value, VALUE_SHOWN);
        match self {
            AutoKind::Bounce { failed_recipients } if failed_recipients.is_empty() => {
                "delivery failure notice (recipient not stated)".to_string()
            }
            AutoKind::Bounce { failed_recipients } => {
                let mut named: Vec<String> = failed_recipients
                    .iter()
                    .take(RECIPIENTS_SHOWN)
                    .map(|address| shown(address))
                    .collect();
                let more = failed_recipients.len().saturating_sub(RECIPIENTS_SHOWN);
                if more > 0 {
                    named.push(format!("{more} more"));
                }
                format!("delivery failure notice for {}", named.join(", "))
            }
            AutoKind::OwnLoop { value } => {
                format!("our own mail came back (X-Loop: {})", shown(value))
            }
            AutoKind::MailerDaemon { sender } => {
                format!("sent by the mail system ({})", shown(sender))
            }
            AutoKind::AutoSubmitted { value } => {
                format!("automatic reply (Auto-Submitted: {})", shown(value))
            }
            AutoKind::Precedence { value } => {
                format!("bulk or list mail (Precedence: {})", shown(value))
            }
            AutoKind::Report { report_type } => {
                format!("machine report ({})", shown(report_type))
            }
        }
    }
}

/// The most failed addresses a bounce's description names.
pub const RECIPIENTS_SHOWN: usize = 5;

/// The most characters of a header value a description repeats.
const VALUE_SHOWN: usize = 80;

/// Classify a parsed message. `loop_token` is the prefix of the `X-Loop`
/// values we put on our own mail (`realmgm` for `X-Loop: realmgm-<campaign>`).
pub fn classify(message: &Message<'_>, loop_token: &str) -> Option<AutoKind> {
    if let Some(bounce) = bounce(message) {
        return Some(bounce);
    }
    let token = loop_token.trim().to_ascii_lowercase();
    if !token.is_empty()
        && let Some(value) = raw_headers(message, "X-Loop")
            .into_iter()
            .find(|v| v.to_ascii_lowercase().starts_with(&token))
    {
        return Some(AutoKind::OwnLoop { value });
    }
    if let Some(sender) = daemon_sender(message) {
        return Some(AutoKind::MailerDaemon { sender });
    }
    if let Some(value) = raw_headers(message, "Auto-Submitted")
        .into_iter()
        .find(|v| !first_word(v).eq_ignore_ascii_case("no"))
    {
        return Some(AutoKind::AutoSubmitted { value });
    }
    if let Some(value) = raw_headers(message, "Precedence").into_iter().find(|v| {
        let word = first_word(v).to_ascii_lowercase();
        matches!(word.as_str(), "bulk" | "junk" | "list")
    }) {
        return Some(AutoKind::Precedence { value });
    }
    report_type(message).map(|report_type| AutoKind::Report { report_type })
}

/// All values of a header, unfolded and trimmed, in the order they appear.
pub(crate) fn raw_headers(message: &Message<'_>, name: &str) -> Vec<String> {
    message
        .headers_raw()
        .filter(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| unfold(v))
        .collect()
}

/// Join folded header lines into one and trim it.
pub(crate) fn unfold(value: &str) -> String {
    value
        .split(['\r', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn first_word(value: &str) -> &str {
    value
        .split(|c: char| c == ';' || c == '(' || c.is_whitespace())
        .find(|w| !w.is_empty())
        .unwrap_or("")
}

/// The sender address when it is a mailer-daemon or postmaster mailbox.
fn daemon_sender(message: &Message<'_>) -> Option<String> {
    let from = message
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .map(str::to_string);
    let return_path = message.return_address().map(str::to_string);
    [from, return_path].into_iter().flatten().find(|address| {
        let local = address
            .rsplit_once('@')
            .map_or(address.as_str(), |(l, _)| l);
        let local = local.to_ascii_lowercase();
        local == "mailer-daemon" || local == "postmaster" || local == "mail-daemon"
    })
}

/// The `report-type` of a `multipart/report` top-level message.
fn report_type(message: &Message<'_>) -> Option<String> {
    let content_type = message.content_type()?;
    if !content_type.ctype().eq_ignore_ascii_case("multipart")
        || !content_type
            .subtype()
            .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    {
        return None;
    }
    Some(
        content_type
            .attribute("report-type")
            .unwrap_or("unknown")
            .to_ascii_lowercase(),
    )
}

/// A bounce: a `multipart/report; report-type=delivery-status` message, a
/// message with a `message/delivery-status` part, or one carrying Exim's
/// `X-Failed-Recipients` header.
fn bounce(message: &Message<'_>) -> Option<AutoKind> {
    let status_part = message.parts.iter().find(|part| {
        part.content_type().is_some_and(|ct| {
            ct.ctype().eq_ignore_ascii_case("message")
                && ct
                    .subtype()
                    .is_some_and(|s| s.eq_ignore_ascii_case("delivery-status"))
        })
    });
    let mut failed: Vec<String> = Vec::new();
    if let Some(part) = status_part {
        let text = match &part.body {
            PartType::Text(text) | PartType::Html(text) => text.to_string(),
            PartType::Binary(bytes) | PartType::InlineBinary(bytes) => {
                String::from_utf8_lossy(bytes).into_owned()
            }
            PartType::Message(inner) => String::from_utf8_lossy(inner.raw_message()).into_owned(),
            PartType::Multipart(_) => String::new(),
        };
        failed.extend(failed_recipients_from_status(&text));
    }
    for value in raw_headers(message, "X-Failed-Recipients") {
        for address in value.split(',') {
            push_address(&mut failed, address);
        }
    }
    let is_dsn = status_part.is_some()
        || report_type(message).as_deref() == Some("delivery-status")
        || !failed.is_empty();
    is_dsn.then_some(AutoKind::Bounce {
        failed_recipients: failed,
    })
}

/// Read the per-recipient blocks of a `message/delivery-status` body
/// (RFC 3464 §2.3) and return the recipients whose action is `failed`
/// (or whose status is 5.x.x when no action is given): the
/// Original-Recipient when given, else the Final-Recipient.
pub fn failed_recipients_from_status(status: &str) -> Vec<String> {
    let mut failed = Vec::new();
    let normalised = status.replace("\r\n", "\n");
    for block in normalised.split("\n\n") {
        let mut recipient: Option<String> = None;
        let mut original: Option<String> = None;
        let mut action: Option<String> = None;
        let mut code: Option<String> = None;
        for line in block.lines() {
            let Some((name, value)) = line.split_once(':') else {
                continue;
            };
            let value = value.trim();
            match name.trim().to_ascii_lowercase().as_str() {
                "final-recipient" => recipient = Some(strip_address_type(value)),
                "original-recipient" => original = Some(strip_address_type(value)),
                "action" => action = Some(value.to_ascii_lowercase()),
                "status" => code = Some(value.to_string()),
                _ => {}
            }
        }
        // The original recipient is the address we sent to; the final one
        // may be a forwarding target the daemon never heard of.
        let Some(address) = original.or(recipient) else {
            continue;
        };
        let is_failure = match action.as_deref() {
            Some(action) => action.starts_with("failed"),
            None => code.is_some_and(|c| c.starts_with('5')),
        };
        if is_failure {
            push_address(&mut failed, &address);
        }
    }
    failed
}

/// `rfc822; a@b` → `a@b`.
fn strip_address_type(value: &str) -> String {
    value
        .split_once(';')
        .map_or(value, |(_, address)| address)
        .trim()
        .to_string()
}

fn push_address(list: &mut Vec<String>, raw: &str) {
    let address = raw
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim()
        .to_ascii_lowercase();
    if address.contains('@') && !list.contains(&address) {
        list.push(address);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mail_parser::MessageParser;

    fn classify_raw(raw: &str) -> Option<AutoKind> {
        let message = MessageParser::default().parse(raw.as_bytes()).unwrap();
        classify(&message, "realmgm")
    }

    #[test]
    fn a_forged_robot_mail_is_described_in_one_short_line() {
        let forged = format!(
            "From: x@y.test\r\nAuto-Submitted: auto-replied {}\r\nX-Failed-Recipients: {}\r\n\r\nx",
            "A".repeat(1_000_000),
            (0..10_000)
                .map(|n| format!("p{n}@x.test"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let bounce = classify_raw(&forged).unwrap();
        let described = bounce.describe();
        assert!(described.len() < 300, "{described}");
        assert!(described.ends_with("9995 more"), "{described}");
        let reply = AutoKind::AutoSubmitted {
            value: format!("auto-replied\r\nBcc: all {}", "A".repeat(1_000_000)),
        };
        let described = reply.describe();
        assert!(
            described.len() < 150 && !described.contains('\n'),
            "{described}"
        );
    }

    #[test]
    fn plain_player_mail_is_not_automatic() {
        let raw =
            "From: Ann <ann@example.org>\r\nTo: gm@realmgm.test\r\nSubject: orders\r\n\r\nH\r\n";
        assert_eq!(classify_raw(raw), None);
    }

    #[test]
    fn auto_submitted_no_is_human() {
        let raw = "From: ann@example.org\r\nAuto-Submitted: no\r\n\r\nH\r\n";
        assert_eq!(classify_raw(raw), None);
        let raw = "From: ann@example.org\r\nAuto-Submitted: auto-replied (vacation)\r\n\r\nH\r\n";
        assert_eq!(
            classify_raw(raw),
            Some(AutoKind::AutoSubmitted {
                value: "auto-replied (vacation)".into()
            })
        );
    }

    #[test]
    fn precedence_bulk_junk_list() {
        for value in ["bulk", "junk", "List"] {
            let raw = format!("From: a@b.c\r\nPrecedence: {value}\r\n\r\nx\r\n");
            assert_eq!(
                classify_raw(&raw),
                Some(AutoKind::Precedence {
                    value: value.into()
                })
            );
        }
        assert_eq!(
            classify_raw("From: a@b.c\r\nPrecedence: first-class\r\n\r\nx\r\n"),
            None
        );
    }

    #[test]
    fn only_our_own_loop_token_counts() {
        let raw = "From: a@b.c\r\nX-Loop: realmgm-bimr3\r\n\r\nx\r\n";
        assert_eq!(
            classify_raw(raw),
            Some(AutoKind::OwnLoop {
                value: "realmgm-bimr3".into()
            })
        );
        assert_eq!(
            classify_raw("From: a@b.c\r\nX-Loop: other-robot\r\n\r\nx\r\n"),
            None
        );
    }

    #[test]
    fn mailer_daemon_and_postmaster_senders() {
        let raw = "From: MAILER-DAEMON@mx.example.org\r\nSubject: hi\r\n\r\nx\r\n";
        assert_eq!(
            classify_raw(raw),
            Some(AutoKind::MailerDaemon {
                sender: "MAILER-DAEMON@mx.example.org".into()
            })
        );
        let raw = "From: Postmaster <postmaster@example.org>\r\n\r\nx\r\n";
        assert!(matches!(
            classify_raw(raw),
            Some(AutoKind::MailerDaemon { .. })
        ));
    }

    #[test]
    fn exim_failed_recipients_header_is_a_bounce() {
        let raw = "From: Mail Delivery System <Mailer-Daemon@mx.example.org>\r\n\
            X-Failed-Recipients: Player1@Example.org\r\n\r\nfailed\r\n";
        assert_eq!(
            classify_raw(raw),
            Some(AutoKind::Bounce {
                failed_recipients: vec!["player1@example.org".into()]
            })
        );
    }

    #[test]
    fn status_blocks_keep_only_failures() {
        let status = "Reporting-MTA: dns; mx.example.org\r\n\r\n\
            Final-Recipient: rfc822; ok@example.org\r\nAction: delivered\r\nStatus: 2.0.0\r\n\r\n\
            Final-Recipient: rfc822; <Gone@Example.org>\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n\
            Original-Recipient: rfc822; late@example.org\r\nStatus: 5.2.2\r\n\r\n\
            Final-Recipient: rfc822; forwarded@elsewhere.org\r\n\
            Original-Recipient: rfc822; player3@example.org\r\nAction: failed\r\n";
        assert_eq!(
            failed_recipients_from_status(status),
            vec![
                "gone@example.org".to_string(),
                "late@example.org".to_string(),
                "player3@example.org".to_string()
            ]
        );
    }

    #[test]
    fn read_receipt_is_a_report() {
        let raw = "From: a@b.c\r\nContent-Type: multipart/report; report-type=disposition-notification; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nread\r\n--b--\r\n";
        assert_eq!(
            classify_raw(raw),
            Some(AutoKind::Report {
                report_type: "disposition-notification".into()
            })
        );
    }
}
