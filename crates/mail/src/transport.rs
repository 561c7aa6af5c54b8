//! Send built mail: over SMTP (lettre, rustls) or into a Maildir folder for
//! the demo and the tests. Failures are classed as temporary (the outbox
//! retries with backoff) or permanent (the outbox records a bounce), after
//! SMTP's own 4xx/5xx split (reference pbem-practice.md §4 idea 9).

use std::path::PathBuf;
use std::time::Duration;

use lettre::Message;
use lettre::Transport;
use lettre::transport::smtp::authentication::{Credentials, Mechanism as SmtpMechanism};
use lettre::transport::smtp::client::Tls;
use lettre::transport::smtp::{Error as SmtpError, SmtpTransport};

use crate::maildir::{Maildir, MaildirError};

/// How a connection is protected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Security {
    /// TLS from the first byte (SMTPS on 465, IMAPS on 993).
    Tls,
    /// Plain connection upgraded with STARTTLS, which must succeed.
    StartTls,
    /// No encryption: only for a server on this machine.
    None,
}

/// How a client proves to the server who it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mechanism {
    /// The account's password (IMAP LOGIN, SMTP PLAIN or LOGIN).
    #[default]
    Password,
    /// An OAuth 2.0 access token in SASL XOAUTH2, in place of the password.
    XOAuth2,
}

/// Where and how to send over SMTP.
#[derive(Clone, PartialEq, Eq)]
pub struct SmtpSettings {
    pub host: String,
    pub port: u16,
    pub security: Security,
    /// Both or neither: login only happens when a username is given.
    pub username: Option<String>,
    pub password: Option<String>,
    /// With [`Mechanism::XOAuth2`] the password is the access token.
    pub mechanism: Mechanism,
    /// An extra CA certificate file (PEM) to trust beside the web roots.
    pub ca_file: Option<PathBuf>,
}

/// Never shows the password or access token.
impl std::fmt::Debug for SmtpSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpSettings")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("username", &self.username)
            .field("mechanism", &self.mechanism)
            .finish_non_exhaustive()
    }
}

/// A failed send (a mail or a webhook post), classed for the outbox; the
/// message around it says which.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// Worth retrying later: the server was unreachable, busy or said 4xx.
    #[error("temporary failure (will retry): {0}")]
    Temporary(String),
    /// Retrying will not help: the server refused with 5xx or the mail or
    /// settings are wrong.
    #[error("permanent failure (not retried): {0}")]
    Permanent(String),
}

impl SendError {
    pub fn is_temporary(&self) -> bool {
        matches!(self, SendError::Temporary(_))
    }
}

/// Something that can deliver a built message. Returns a short description
/// of what happened (the server's reply, or the file written).
pub trait MailTransport {
    /// # Errors
    /// [`SendError`] classed temporary or permanent.
    fn send(&self, message: &Message) -> Result<String, SendError>;
}

/// SMTP delivery through lettre.
pub struct SmtpMailer {
    transport: SmtpTransport,
    mechanism: Mechanism,
}

impl SmtpMailer {
    /// Prepare a connection (it is opened on the first send).
    ///
    /// # Errors
    /// [`SendError::Permanent`] when the TLS parameters cannot be built for
    /// the host name.
    pub fn new(settings: &SmtpSettings) -> Result<SmtpMailer, SendError> {
        let tls_parameters = || {
            crate::tls::smtp_parameters(&settings.host, settings.ca_file.as_deref())
                .map_err(|e| SendError::Permanent(e.to_string()))
        };
        let tls = match settings.security {
            Security::Tls => Tls::Wrapper(tls_parameters()?),
            Security::StartTls => Tls::Required(tls_parameters()?),
            Security::None => Tls::None,
        };
        let mut builder = SmtpTransport::builder_dangerous(settings.host.clone())
            .port(settings.port)
            .tls(tls)
            .timeout(Some(Duration::from_secs(30)));
        if let Some(username) = &settings.username {
            builder = builder.credentials(Credentials::new(
                username.clone(),
                settings.password.clone().unwrap_or_default(),
            ));
            if settings.mechanism == Mechanism::XOAuth2 {
                builder = builder.authentication(vec![SmtpMechanism::Xoauth2]);
            }
        }
        Ok(SmtpMailer {
            transport: builder.build(),
            mechanism: settings.mechanism,
        })
    }
}

impl SmtpMailer {
    /// Connect, greet and (when configured) log in, without sending: what
    /// `realmgm doctor` checks.
    ///
    /// # Errors
    /// [`SendError`] with the server's or the network's reason.
    pub fn test_connection(&self) -> Result<(), SendError> {
        match self.transport.test_connection() {
            Ok(true) => Ok(()),
            Ok(false) => Err(SendError::Temporary(
                "the server did not answer the connection test".to_string(),
            )),
            Err(error) => Err(self.classify(&error)),
        }
    }

    /// A refused access token is temporary: the mail waits while the GM
    /// signs in again, and is not taken for a bounce. The server refuses
    /// with 53x, or answers the token with a challenge (its reason), which
    /// lettre's XOAUTH2 takes for a client error.
    fn classify(&self, error: &SmtpError) -> SendError {
        let text = error.to_string();
        let refused = error
            .status()
            .is_some_and(|code| code.to_string().starts_with("53"))
            || text.contains("does not expect a challenge");
        if self.mechanism == Mechanism::XOAuth2 && refused {
            SendError::Temporary(format!(
                "the SMTP server refused the OAuth access token ({text}); the mail waits until \
                 the sign-in works again"
            ))
        } else {
            classify_smtp_error(error)
        }
    }
}

impl MailTransport for SmtpMailer {
    fn send(&self, message: &Message) -> Result<String, SendError> {
        match self.transport.send(message) {
            Ok(response) => Ok(format!(
                "SMTP {}: {}",
                response.code(),
                response.message().collect::<Vec<_>>().join(" ")
            )),
            Err(error) => Err(self.classify(&error)),
        }
    }
}

/// 5xx replies and client-side errors (bad envelope) are permanent;
/// 4xx replies, timeouts, network and TLS trouble are temporary.
pub fn classify_smtp_error(error: &SmtpError) -> SendError {
    let text = error.to_string();
    if error.is_permanent() || error.is_client() {
        SendError::Permanent(text)
    } else {
        SendError::Temporary(text)
    }
}

/// Delivery into a Maildir folder (`new/`), for the demo's mailboxes and tests.
pub struct MaildirMailer {
    maildir: Maildir,
}

impl MaildirMailer {
    /// Deliver into `root`, creating the Maildir when needed.
    ///
    /// # Errors
    /// [`MaildirError`] when the folders cannot be created.
    pub fn new(root: impl Into<PathBuf>) -> Result<MaildirMailer, MaildirError> {
        Ok(MaildirMailer {
            maildir: Maildir::create(root)?,
        })
    }
}

impl MailTransport for MaildirMailer {
    fn send(&self, message: &Message) -> Result<String, SendError> {
        let entry = self
            .maildir
            .deliver(&message.formatted())
            .map_err(|e| SendError::Temporary(e.to_string()))?;
        Ok(format!("written to {}", entry.path.display()))
    }
}

/// Local delivery with no server: each message goes into the Maildir of
/// each recipient, `root/<local part of the address>` (the demo's player
/// mailboxes).
pub struct LocalMailboxes {
    root: PathBuf,
}

impl LocalMailboxes {
    pub fn new(root: impl Into<PathBuf>) -> LocalMailboxes {
        LocalMailboxes { root: root.into() }
    }
}

impl MailTransport for LocalMailboxes {
    fn send(&self, message: &Message) -> Result<String, SendError> {
        let recipients = message.envelope().to();
        if recipients.is_empty() {
            return Err(SendError::Permanent("the message has no recipient".into()));
        }
        let raw = message.formatted();
        let mut written = Vec::new();
        for address in recipients {
            let mailbox = self.root.join(address.user().to_lowercase());
            let entry = Maildir::create(&mailbox)
                .and_then(|maildir| maildir.deliver(&raw))
                .map_err(|e| SendError::Temporary(e.to_string()))?;
            written.push(entry.path.display().to_string());
        }
        Ok(format!("written to {}", written.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outbound::{AutoSubmitted, OutboundMail, build};
    use std::net::TcpListener;
    use std::time::UNIX_EPOCH;

    #[test]
    fn local_mailboxes_deliver_by_recipient() {
        let root = std::env::temp_dir().join(format!("realmgm-local-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let sent = LocalMailboxes::new(&root).send(&message()).unwrap();
        assert!(sent.contains("player1"), "{sent}");
        let inbox = Maildir::open(root.join("player1")).unwrap();
        assert_eq!(inbox.list_new().unwrap().len(), 1);
        let _ = std::fs::remove_dir_all(&root);
    }

    fn message() -> Message {
        build(&OutboundMail {
            campaign: "t".into(),
            from: "gm@realmgm.test".into(),
            to: vec!["player1@realmgm.test".into()],
            subject: "s".into(),
            text: "body".into(),
            html: None,
            attachments: Vec::new(),
            message_id: "realmgm.t.test.1@realmgm.test".into(),
            in_reply_to: None,
            references: Vec::new(),
            auto_submitted: AutoSubmitted::AutoGenerated,
            date: UNIX_EPOCH,
        })
        .unwrap()
    }

    #[test]
    fn unreachable_server_is_temporary() {
        // Bind then drop a listener to get a port nobody listens on.
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mailer = SmtpMailer::new(&SmtpSettings {
            host: "127.0.0.1".into(),
            port,
            security: Security::None,
            username: None,
            password: None,
            mechanism: Mechanism::Password,
            ca_file: None,
        })
        .unwrap();
        let err = mailer.send(&message()).unwrap_err();
        assert!(err.is_temporary(), "{err}");
    }

    #[test]
    fn xoauth2_sends_the_access_token_and_a_refused_one_is_temporary() {
        use crate::fake_smtp::FakeSmtp;
        let server = FakeSmtp::start(std::sync::Arc::new(|token: &str| token == "access-1"));
        let mailer = |token: &str| {
            SmtpMailer::new(&SmtpSettings {
                host: "127.0.0.1".into(),
                port: server.port,
                security: Security::None,
                username: Some("gm@realmgm.test".into()),
                password: Some(token.into()),
                mechanism: Mechanism::XOAuth2,
                ca_file: None,
            })
            .unwrap()
        };
        mailer("access-1").send(&message()).unwrap();
        let refused = mailer("stale").send(&message()).unwrap_err();
        assert!(refused.is_temporary(), "{refused}");
        assert!(refused.to_string().contains("access token"), "{refused}");
        let seen = server.seen();
        assert_eq!(seen.tokens, vec!["access-1", "stale"]);
        assert_eq!(seen.messages.len(), 1);
        assert!(seen.messages[0].contains("Subject: s"));
    }

    #[test]
    fn maildir_mailer_writes_the_formatted_message() {
        let dir =
            std::env::temp_dir().join(format!("realmgm-maildir-mailer-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mailer = MaildirMailer::new(&dir).unwrap();
        let report = mailer.send(&message()).unwrap();
        assert!(report.starts_with("written to"));
        let maildir = Maildir::open(&dir).unwrap();
        let entries = maildir.list_new().unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(maildir.read(&entries[0]).unwrap(), message().formatted());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
