//! The optional `[mail]` table of a campaign file: how the daemon receives
//! (IMAP or a Maildir folder) and sends (SMTP or a Maildir folder) the
//! campaign's mail, and the daemon's limits.
//!
//! Passwords are never written in the file: the file names the environment
//! variable that holds each one (`password_env`), read when the daemon
//! starts.

use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::mail::transport::Security;

use super::mail_auth::{AuthName, OAuthSettings, ProviderName, SignInKeys};

/// The `[mail]` table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailSettings {
    /// The address the daemon writes from, e.g. `"Game Master <gm@host>"`;
    /// the GM's address when absent.
    #[serde(default)]
    pub from: Option<String>,
    #[serde(default)]
    pub smtp: Option<SmtpSection>,
    #[serde(default)]
    pub imap: Option<ImapSection>,
    /// A Maildir folder the daemon reads players' mail from.
    #[serde(default)]
    pub maildir_in: Option<String>,
    /// A Maildir folder the daemon writes all outgoing mail into (demo, tests).
    #[serde(default)]
    pub maildir_out: Option<String>,
    /// Seconds between polls of the mailbox [default 60].
    #[serde(default)]
    pub poll_seconds: Option<u32>,
    /// Attachments above this size are ignored with a note [default 1024 KiB].
    #[serde(default)]
    pub max_attachment_kb: Option<u32>,
    /// Hold the turn instead of processing when more than this share of the
    /// awaited players has sent nothing [default 50].
    #[serde(default)]
    pub hold_if_missing_percent: Option<u32>,
    /// Hold the turn when the daemon first looks at it more than this long
    /// after its deadline (it was down) [default 60].
    #[serde(default)]
    pub late_grace_minutes: Option<u32>,
    /// Send the GM a copy of every relayed private message.
    #[serde(default)]
    pub copy_relays_to_gm: bool,
    /// A CA certificate file (PEM) to trust for SMTP and IMAP beside the
    /// public roots: for a mail server with its own or a self-signed
    /// certificate.
    #[serde(default)]
    pub ca_file: Option<String>,
    /// Set the game up by mail before day 1: players choose characters in
    /// turn and send their starting info (Magic Realm).
    #[serde(default)]
    pub setup_by_mail: bool,
    /// With round-by-round combat, how long the players asked for a combat
    /// round have to answer before default standing orders decide it
    /// [default 24].
    #[serde(default)]
    pub round_deadline_hours: Option<u32>,
    /// A player's mail whose text (quoted text removed) is larger than
    /// this is refused unread [default 16 KiB].
    #[serde(default)]
    pub max_orders_kb: Option<u32>,
    /// ... or has more lines than this [default 200].
    #[serde(default)]
    pub max_orders_lines: Option<u32>,
    /// Orders asking more phases of one day than this are not accepted
    /// [default 16; no character has more than a handful].
    #[serde(default)]
    pub max_phases_per_day: Option<u32>,
    /// Days a sent mail is kept whole; after that its body, HTML and
    /// attachments are dropped and only who, what subject and when stay.
    /// Reports are kept for good apart from their mails, so the GM's
    /// history and a resend never need the sent copy. 0 keeps every sent
    /// mail whole [default 60].
    #[serde(default)]
    pub keep_sent_days: Option<u32>,
    /// Of a mail from an unauthenticated sender (a stranger, a forger, a
    /// robot), only the first this many KiB are kept once the sender is
    /// known: the headers and the start of the body; 0 keeps only the row
    /// (when, Message-ID, what became of it) [default 64].
    #[serde(default)]
    pub stranger_keep_kb: Option<u32>,
    /// Days the kept head of a stranger's mail stays; then it is dropped
    /// and only its row (when, Message-ID, what became of it) stays. 0
    /// keeps it for good [default 30].
    #[serde(default)]
    pub keep_strangers_days: Option<u32>,
    /// A notice about a mail that was not accepted (no secret, a wrong
    /// one, a bounce) goes to an address at most once in this many
    /// minutes; the others are counted in the GM's log and `gm status`. 0
    /// sends every one [default 60].
    #[serde(default)]
    pub notice_interval_minutes: Option<u32>,
}

impl MailSettings {
    /// The settings with relative Maildir folders taken as relative to
    /// `base`, the database's folder: the daemon, a service with any
    /// working directory, finds the same folders `campaign new` made.
    pub fn anchored_at(mut self, base: &std::path::Path) -> MailSettings {
        for folder in [&mut self.maildir_in, &mut self.maildir_out]
            .into_iter()
            .flatten()
        {
            if std::path::Path::new(folder.as_str()).is_relative() {
                *folder = base.join(folder.as_str()).display().to_string();
            }
        }
        self
    }
}

/// The most problems a confirmation lists; the rest are counted.
pub const CONFIRMATION_PROBLEMS_SHOWN: usize = 20;

/// How a connection is protected, as campaign files write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SecurityName {
    Tls,
    Starttls,
    None,
}

/// As the campaign file writes it.
impl std::fmt::Display for SecurityName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SecurityName::Tls => "tls",
            SecurityName::Starttls => "starttls",
            SecurityName::None => "none",
        })
    }
}

impl SecurityName {
    pub fn security(self) -> Security {
        match self {
            SecurityName::Tls => Security::Tls,
            SecurityName::Starttls => Security::StartTls,
            SecurityName::None => Security::None,
        }
    }
}

/// `[mail.smtp]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmtpSection {
    pub host: String,
    pub port: u16,
    pub security: SecurityName,
    #[serde(default)]
    pub user: Option<String>,
    /// The environment variable holding the password.
    #[serde(default)]
    pub password_env: Option<String>,
    /// `password` (the default) or `oauth2`.
    #[serde(default)]
    pub auth: AuthName,
    #[serde(default)]
    pub provider: Option<ProviderName>,
    /// The id of the application the GM registered with the provider.
    #[serde(default)]
    pub client_id: Option<String>,
    /// The environment variable holding the client secret, where the
    /// provider wants one.
    #[serde(default)]
    pub client_secret_env: Option<String>,
    /// ... or a file holding it.
    #[serde(default)]
    pub client_secret_file: Option<String>,
    /// Microsoft's tenant [default common].
    #[serde(default)]
    pub tenant: Option<String>,
    /// A custom provider's endpoints and scopes.
    #[serde(default)]
    pub authorization_url: Option<String>,
    #[serde(default)]
    pub token_url: Option<String>,
    #[serde(default)]
    pub device_url: Option<String>,
    #[serde(default)]
    pub scopes: Option<Vec<String>>,
}

impl SmtpSection {
    /// The keys saying how this section signs in.
    pub fn sign_in(&self) -> SignInKeys<'_> {
        SignInKeys {
            section: "smtp",
            auth: self.auth,
            password_env: self.password_env.as_deref(),
            provider: self.provider,
            client_id: self.client_id.as_deref(),
            client_secret_env: self.client_secret_env.as_deref(),
            client_secret_file: self.client_secret_file.as_deref(),
            tenant: self.tenant.as_deref(),
            authorization_url: self.authorization_url.as_deref(),
            token_url: self.token_url.as_deref(),
            device_url: self.device_url.as_deref(),
            scopes: self.scopes.as_deref(),
        }
    }
}

/// `[mail.imap]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImapSection {
    pub host: String,
    pub port: u16,
    pub security: SecurityName,
    pub user: String,
    /// The environment variable holding the password (`auth = "password"`).
    #[serde(default)]
    pub password_env: Option<String>,
    /// The folder to read [default INBOX].
    #[serde(default)]
    pub folder: Option<String>,
    /// `password` (the default) or `oauth2`.
    #[serde(default)]
    pub auth: AuthName,
    #[serde(default)]
    pub provider: Option<ProviderName>,
    /// The id of the application the GM registered with the provider.
    #[serde(default)]
    pub client_id: Option<String>,
    /// The environment variable holding the client secret, where the
    /// provider wants one.
    #[serde(default)]
    pub client_secret_env: Option<String>,
    /// ... or a file holding it.
    #[serde(default)]
    pub client_secret_file: Option<String>,
    /// Microsoft's tenant [default common].
    #[serde(default)]
    pub tenant: Option<String>,
    /// A custom provider's endpoints and scopes.
    #[serde(default)]
    pub authorization_url: Option<String>,
    #[serde(default)]
    pub token_url: Option<String>,
    #[serde(default)]
    pub device_url: Option<String>,
    #[serde(default)]
    pub scopes: Option<Vec<String>>,
}

impl ImapSection {
    /// The keys saying how this section signs in.
    pub fn sign_in(&self) -> SignInKeys<'_> {
        SignInKeys {
            section: "imap",
            auth: self.auth,
            password_env: self.password_env.as_deref(),
            provider: self.provider,
            client_id: self.client_id.as_deref(),
            client_secret_env: self.client_secret_env.as_deref(),
            client_secret_file: self.client_secret_file.as_deref(),
            tenant: self.tenant.as_deref(),
            authorization_url: self.authorization_url.as_deref(),
            token_url: self.token_url.as_deref(),
            device_url: self.device_url.as_deref(),
            scopes: self.scopes.as_deref(),
        }
    }
}

impl ImapSection {
    /// The folder read: the one named, else INBOX.
    pub fn folder_or_inbox(&self) -> String {
        self.folder.clone().unwrap_or_else(|| "INBOX".to_string())
    }
}

impl MailSettings {
    /// The extra CA file, as a path.
    pub fn ca_path(&self) -> Option<std::path::PathBuf> {
        self.ca_file.as_ref().map(std::path::PathBuf::from)
    }

    pub fn poll_seconds(&self) -> u32 {
        self.poll_seconds.unwrap_or(60)
    }

    pub fn max_attachment_bytes(&self) -> usize {
        self.max_attachment_kb.unwrap_or(1024) as usize * 1024
    }

    pub fn hold_if_missing_percent(&self) -> u32 {
        self.hold_if_missing_percent.unwrap_or(50)
    }

    pub fn late_grace_seconds(&self) -> i64 {
        i64::from(self.late_grace_minutes.unwrap_or(60)) * 60
    }

    /// How long a sent mail is kept whole; `None`: for good.
    pub fn keep_sent_seconds(&self) -> Option<i64> {
        match self.keep_sent_days.unwrap_or(60) {
            0 => None,
            days => Some(i64::from(days) * 24 * 3600),
        }
    }

    pub fn stranger_keep_bytes(&self) -> usize {
        self.stranger_keep_kb.unwrap_or(64) as usize * 1024
    }

    /// How long the head of a stranger's mail is kept; `None`: for good.
    pub fn keep_strangers_seconds(&self) -> Option<i64> {
        match self.keep_strangers_days.unwrap_or(30) {
            0 => None,
            days => Some(i64::from(days) * 24 * 3600),
        }
    }

    pub fn notice_interval_seconds(&self) -> i64 {
        i64::from(self.notice_interval_minutes.unwrap_or(60)) * 60
    }

    pub fn max_orders_bytes(&self) -> usize {
        self.max_orders_kb.unwrap_or(16) as usize * 1024
    }

    pub fn max_orders_lines(&self) -> usize {
        self.max_orders_lines.unwrap_or(200) as usize
    }

    pub fn max_phases_per_day(&self) -> usize {
        self.max_phases_per_day.unwrap_or(16) as usize
    }

    pub fn round_deadline_seconds(&self) -> i64 {
        i64::from(self.round_deadline_hours.unwrap_or(24)) * 3600
    }

    /// The sections' sign-in keys: IMAP's first.
    fn sign_ins(&self) -> Vec<SignInKeys<'_>> {
        let imap = self.imap.as_ref().map(ImapSection::sign_in);
        let smtp = self.smtp.as_ref().map(SmtpSection::sign_in);
        imap.into_iter().chain(smtp).collect()
    }

    /// The campaign's OAuth sign-in, when a section uses one.
    pub fn oauth(&self) -> Option<OAuthSettings> {
        self.sign_ins().iter().find_map(SignInKeys::oauth)
    }

    /// Problems of how the sections sign in, as (key, message) pairs with
    /// keys written `imap.client_id`.
    fn sign_in_problems(&self) -> Vec<(String, String)> {
        let sign_ins = self.sign_ins();
        let mut problems: Vec<(String, String)> =
            sign_ins.iter().flat_map(SignInKeys::problems).collect();
        if let Some(imap) = &self.imap
            && imap.auth == AuthName::Password
            && imap.password_env.is_none()
        {
            problems.push((
                "imap.password_env".to_string(),
                "name the environment variable holding the IMAP password (password_env), or \
                 sign in with auth = \"oauth2\""
                    .to_string(),
            ));
        }
        if let Some(smtp) = &self.smtp
            && smtp.auth == AuthName::Oauth2
            && smtp.user.is_none()
        {
            problems.push((
                "smtp.user".to_string(),
                "auth = \"oauth2\" signs in as an account: name it with user".to_string(),
            ));
        }
        let oauths: Vec<OAuthSettings> = sign_ins.iter().filter_map(SignInKeys::oauth).collect();
        if problems.is_empty() && oauths.windows(2).any(|pair| pair[0] != pair[1]) {
            problems.push((
                "smtp.provider".to_string(),
                "one sign-in serves the campaign: [mail.smtp] must name the same provider, \
                 client and endpoints as [mail.imap]"
                    .to_string(),
            ));
        }
        problems
    }

    /// Problems serde cannot see for a campaign of `game`, as (field,
    /// message) pairs.
    pub(crate) fn problems(&self, game: &dyn Game) -> Vec<(String, String)> {
        let mut problems = self.sign_in_problems();
        if self.setup_by_mail && game.setup_by_mail().is_none() {
            problems.push((
                "setup_by_mail".to_string(),
                format!("{} offers no setup by mail; remove it", game.id()),
            ));
        }
        if self.smtp.is_some() && self.maildir_out.is_some() {
            problems.push((
                "maildir_out".to_string(),
                "mail goes out either by SMTP or into maildir_out, not both; remove one"
                    .to_string(),
            ));
        }
        for (field, folder) in [
            ("maildir_in", &self.maildir_in),
            ("maildir_out", &self.maildir_out),
        ] {
            if let Some(problem) = folder
                .as_deref()
                .and_then(super::leaves_the_database_folder)
            {
                problems.push((field.to_string(), problem));
            }
        }
        for (field, value) in [
            ("max_orders_kb", self.max_orders_kb),
            ("max_orders_lines", self.max_orders_lines),
            ("max_phases_per_day", self.max_phases_per_day),
        ] {
            if value == Some(0) {
                problems.push((
                    field.to_string(),
                    "a limit of 0 would refuse every mail; give a positive number or remove it"
                        .to_string(),
                ));
            }
        }
        if self.hold_if_missing_percent.is_some_and(|p| p > 100) {
            problems.push((
                "hold_if_missing_percent".to_string(),
                "a share of players is at most 100 percent".to_string(),
            ));
        }
        if self.round_deadline_hours == Some(0) {
            problems.push((
                "round_deadline_hours".to_string(),
                "a combat round needs at least 1 hour for the answers; write 1 or more".to_string(),
            ));
        }
        if self.poll_seconds == Some(0) {
            problems.push((
                "poll_seconds".to_string(),
                "polling every 0 seconds would spin; write 1 or more".to_string(),
            ));
        }
        problems
    }
}
