//! News to where players chat: one short public message posted to a
//! webhook, shaped for the service that receives it (Discord, a
//! Slack-style incoming webhook, a Matrix room through the client-server
//! API, or a generic JSON object), over HTTP with ureq.
//!
//! A failure is classed as the mail transports class theirs
//! ([`SendError`]): a refusal the endpoint will repeat (a 4xx other than
//! "too many requests" or "timeout") is permanent, anything else (no
//! answer, a 5xx) is worth retrying. A webhook's address is a secret (a
//! Discord or Slack URL is its own password, a Matrix token is one): no
//! error names more of it than its host.

use std::time::Duration;

use serde_json::{Value, json};

use crate::transport::SendError;

/// The services a webhook may speak to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookKind {
    /// A Discord webhook: `{"content": text}`.
    Discord,
    /// A Slack-style incoming webhook (Slack, Mattermost, Rocket.Chat, many
    /// bridges): `{"text": text}`.
    Slack,
    /// A Matrix room: an `m.room.message` event sent with a transaction id,
    /// so a retried delivery never posts twice.
    Matrix,
    /// The news object itself, POSTed as it is stored.
    Json,
}

/// Where one webhook posts.
#[derive(Clone, PartialEq, Eq)]
pub struct HookTarget {
    pub kind: HookKind,
    /// The webhook's URL; for Matrix, the homeserver's base URL.
    pub url: String,
    /// Matrix only: the room id (`!abc:example.org`).
    pub room: Option<String>,
    /// Matrix only: the access token of the account that posts.
    pub token: Option<String>,
}

// Written by hand so that neither the URL nor the token reaches a log.
impl std::fmt::Debug for HookTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HookTarget")
            .field("kind", &self.kind)
            .field("host", &host_of(&self.url))
            .finish_non_exhaustive()
    }
}

/// The body a service takes for `news`, a JSON object whose `text` is the
/// message a person reads.
pub fn payload(kind: HookKind, news: &Value) -> Value {
    let text = news.get("text").and_then(Value::as_str).unwrap_or_default();
    match kind {
        HookKind::Discord => json!({ "content": text }),
        HookKind::Slack => json!({ "text": text }),
        HookKind::Matrix => json!({ "msgtype": "m.text", "body": text }),
        HookKind::Json => news.clone(),
    }
}

/// Post `news` to `target`. `txn` names this delivery for good (the same
/// on every retry): Matrix takes it as the transaction id.
///
/// # Errors
/// [`SendError::Temporary`] when the endpoint cannot be reached or fails
/// (5xx, 408, 429); [`SendError::Permanent`] when it refuses the request
/// (another 4xx) or the target is incomplete.
pub fn post(
    target: &HookTarget,
    news: &Value,
    txn: &str,
    timeout: Duration,
) -> Result<(), SendError> {
    let host = host_of(&target.url);
    // No redirects: a token must not follow one to another host, and a
    // webhook that moved is told to the GM to write its new address.
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into();
    let body = payload(target.kind, news);
    let sent = match target.kind {
        HookKind::Matrix => {
            let (Some(room), Some(token)) = (&target.room, &target.token) else {
                return Err(SendError::Permanent(format!(
                    "the Matrix webhook for {host} needs a room and an access token"
                )));
            };
            let url = format!(
                "{}/_matrix/client/v3/rooms/{}/send/m.room.message/{}",
                target.url.trim_end_matches('/'),
                path_segment(room),
                path_segment(txn)
            );
            agent
                .put(&url)
                .header("Authorization", &format!("Bearer {token}"))
                .send_json(&body)
        }
        HookKind::Discord | HookKind::Slack | HookKind::Json => {
            agent.post(&target.url).send_json(&body)
        }
    };
    let response = sent.map_err(|error| {
        SendError::Temporary(format!(
            "cannot reach the webhook at {host}: {}",
            kind_of(&error)
        ))
    })?;
    let status = response.status().as_u16();
    match status {
        200..=299 => Ok(()),
        300..=399 => Err(SendError::Permanent(format!(
            "the webhook at {host} moved (HTTP {status}); write its new address in [notify]"
        ))),
        408 | 429 => Err(SendError::Temporary(format!(
            "the webhook at {host} answered HTTP {status}; tried again later"
        ))),
        400..=499 => Err(SendError::Permanent(format!(
            "the webhook at {host} refused the news with HTTP {status}; check its address \
             (and for Matrix the room and token) in [notify]"
        ))),
        _ => Err(SendError::Temporary(format!(
            "the webhook at {host} answered HTTP {status}"
        ))),
    }
}

/// What went wrong, without the URL some of ureq's errors carry.
fn kind_of(error: &ureq::Error) -> String {
    match error {
        ureq::Error::Io(io) => io.kind().to_string(),
        ureq::Error::Timeout(_) => "no answer in time".to_string(),
        ureq::Error::HostNotFound => "host not found".to_string(),
        ureq::Error::ConnectionFailed => "connection failed".to_string(),
        ureq::Error::Tls(_) | ureq::Error::Rustls(_) => "TLS failure".to_string(),
        _ => "request failed".to_string(),
    }
}

/// The host of a URL, all a log may show of it.
pub fn host_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host)
        .to_string()
}

/// `text` as one percent-encoded path segment (a Matrix room id holds `!`
/// and `:`).
fn path_segment(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_service_gets_its_shape() {
        let news = json!({ "event": "day", "text": "Day 3 is out" });
        assert_eq!(
            payload(HookKind::Discord, &news),
            json!({"content": "Day 3 is out"})
        );
        assert_eq!(
            payload(HookKind::Slack, &news),
            json!({"text": "Day 3 is out"})
        );
        assert_eq!(
            payload(HookKind::Matrix, &news),
            json!({"msgtype": "m.text", "body": "Day 3 is out"})
        );
        assert_eq!(payload(HookKind::Json, &news), news);
    }

    #[test]
    fn only_the_host_of_a_secret_url_is_shown() {
        assert_eq!(
            host_of("https://discord.com/api/webhooks/123/SECRET"),
            "discord.com"
        );
        assert_eq!(
            host_of("http://user:pw@127.0.0.1:8080/x?y"),
            "127.0.0.1:8080"
        );
        let target = HookTarget {
            kind: HookKind::Matrix,
            url: "https://matrix.example.org/SECRET".into(),
            room: Some("!room:example.org".into()),
            token: Some("TOKEN".into()),
        };
        let shown = format!("{target:?}");
        assert!(
            !shown.contains("SECRET") && !shown.contains("TOKEN"),
            "{shown}"
        );
    }

    #[test]
    fn room_ids_are_encoded_in_the_path() {
        assert_eq!(path_segment("!abc:example.org"), "%21abc%3Aexample.org");
    }

    #[test]
    fn nobody_listening_is_temporary_and_names_no_path() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let target = HookTarget {
            kind: HookKind::Discord,
            url: format!("http://127.0.0.1:{port}/api/webhooks/SECRET"),
            room: None,
            token: None,
        };
        let error = post(&target, &json!({"text": "x"}), "1", Duration::from_secs(5)).unwrap_err();
        assert!(error.is_temporary(), "{error}");
        assert!(!error.to_string().contains("SECRET"), "{error}");
    }
}
