//! The optional `[notify]` table of a campaign file: webhooks that get a
//! short public message when a day is processed, when the public pages are
//! rebuilt, when the deadline is near and when the GM announces something.
//! A webhook's secret (a Discord or Slack URL, a Matrix access token) may
//! stay out of the file: `url_env` names an environment variable holding
//! the URL, and a Matrix token comes only from `token_env` or `token_file`.
//!
//! ```toml
//! [notify]
//! deadline_hours = 12    # the "deadline near" news goes this long before it
//! name_awaited = false   # that news names the players still awaited
//!
//! [[notify.hooks]]
//! kind = "discord"       # "discord", "slack", "matrix" or "json"
//! url_env = "BIMR3_DISCORD_URL"   # or url = "https://..."
//! news = ["day", "site", "deadline", "announcement"]   # the default: all
//!
//! [[notify.hooks]]
//! name = "room"          # how the GM's log names it; the default is its kind
//! kind = "matrix"
//! homeserver = "https://matrix.example.org"
//! room = "!abcdef:example.org"
//! token_env = "BIMR3_MATRIX_TOKEN"  # or token_file = "/etc/realmgm/matrix-token"
//! ```
//!
//! A Matrix room reached through a bridge's webhook (matrix-hookshot) is
//! `kind = "matrix"` with `url` and no homeserver: it gets `{"text": ...}`.

use serde::{Deserialize, Serialize};

use crate::mail::webhook::{HookKind, HookTarget};

/// The `[notify]` table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotifySettings {
    /// How many hours before the deadline the "deadline near" news goes.
    #[serde(default)]
    pub deadline_hours: Option<u32>,
    /// Whether the "deadline near" news names the players still awaited.
    #[serde(default)]
    pub name_awaited: bool,
    #[serde(default)]
    pub hooks: Vec<Hook>,
}

/// The hours before the deadline the "deadline near" news goes by default.
pub const DEFAULT_DEADLINE_HOURS: u32 = 12;

/// The most hours before a deadline its news may go: a week.
const MAX_DEADLINE_HOURS: u32 = 7 * 24;

/// The kinds of news a webhook may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NewsKind {
    /// A day was processed: its number and the next deadline.
    Day,
    /// The public pages were rebuilt, with their link.
    Site,
    /// The deadline is near.
    Deadline,
    /// The GM announced something to every player.
    Announcement,
}

impl NewsKind {
    pub const ALL: [NewsKind; 4] = [
        NewsKind::Day,
        NewsKind::Site,
        NewsKind::Deadline,
        NewsKind::Announcement,
    ];

    /// The name the file, the store and the JSON news use.
    pub fn name(self) -> &'static str {
        match self {
            NewsKind::Day => "day",
            NewsKind::Site => "site",
            NewsKind::Deadline => "deadline",
            NewsKind::Announcement => "announcement",
        }
    }
}

/// The services a hook speaks to, as the file names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HookKindName {
    Discord,
    Slack,
    Matrix,
    Json,
}

impl HookKindName {
    fn kind(self) -> HookKind {
        match self {
            HookKindName::Discord => HookKind::Discord,
            HookKindName::Slack => HookKind::Slack,
            HookKindName::Matrix => HookKind::Matrix,
            HookKindName::Json => HookKind::Json,
        }
    }

    fn name(self) -> &'static str {
        match self {
            HookKindName::Discord => "discord",
            HookKindName::Slack => "slack",
            HookKindName::Matrix => "matrix",
            HookKindName::Json => "json",
        }
    }
}

/// One `[[notify.hooks]]` entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hook {
    #[serde(default)]
    pub name: Option<String>,
    pub kind: HookKindName,
    /// The webhook's URL written out (Discord, Slack, JSON, a Matrix bridge).
    #[serde(default)]
    pub url: Option<String>,
    /// The environment variable holding the URL, to keep it out of the file.
    #[serde(default)]
    pub url_env: Option<String>,
    /// Matrix: the homeserver's base URL.
    #[serde(default)]
    pub homeserver: Option<String>,
    /// Matrix: the room id.
    #[serde(default)]
    pub room: Option<String>,
    /// Matrix: the environment variable holding the access token.
    #[serde(default)]
    pub token_env: Option<String>,
    /// Matrix: a file holding the access token.
    #[serde(default)]
    pub token_file: Option<String>,
    /// The news it takes; all of them when absent.
    #[serde(default)]
    pub news: Option<Vec<NewsKind>>,
}

/// A hook whose secret cannot be found.
#[derive(Debug, thiserror::Error)]
pub enum HookError {
    #[error(
        "the environment variable {variable} named by [notify] hook '{hook}' is not set; export \
         it in the daemon's environment"
    )]
    MissingVariable { hook: String, variable: String },
    #[error("cannot read the token file {path} of [notify] hook '{hook}': {source}")]
    TokenFile {
        hook: String,
        path: String,
        source: std::io::Error,
    },
}

impl Hook {
    /// The name the GM's log, the status and the queue give the hook.
    pub fn name(&self) -> &str {
        self.name.as_deref().unwrap_or(self.kind.name())
    }

    /// Whether the hook takes news of `kind`.
    pub fn takes(&self, kind: NewsKind) -> bool {
        self.news.as_ref().is_none_or(|news| news.contains(&kind))
    }

    /// Where the hook posts, its secrets read from the environment or the
    /// token file now (so a changed secret needs no restart).
    ///
    /// # Errors
    /// A named variable is unset or the token file cannot be read.
    pub fn target(&self) -> Result<HookTarget, HookError> {
        let variable = |variable: &str| {
            std::env::var(variable).map_err(|_| HookError::MissingVariable {
                hook: self.name().to_string(),
                variable: variable.to_string(),
            })
        };
        let url = match (&self.kind, &self.homeserver, &self.url, &self.url_env) {
            (HookKindName::Matrix, Some(homeserver), _, _) => homeserver.clone(),
            (_, _, Some(url), _) => url.clone(),
            (_, _, None, Some(name)) => variable(name)?,
            // `problems` refuses a hook without an address.
            _ => String::new(),
        };
        let token = match (&self.token_env, &self.token_file) {
            (Some(name), _) => Some(variable(name)?),
            (None, Some(path)) => Some(
                std::fs::read_to_string(path)
                    .map_err(|source| HookError::TokenFile {
                        hook: self.name().to_string(),
                        path: path.clone(),
                        source,
                    })?
                    .trim()
                    .to_string(),
            ),
            (None, None) => None,
        };
        // A bridge's webhook (matrix-hookshot and its kind) takes the
        // Slack-style `{"text": ...}`, not the client-server API's event.
        let kind = match (self.kind, &self.homeserver) {
            (HookKindName::Matrix, None) => HookKind::Slack,
            (kind, _) => kind.kind(),
        };
        Ok(HookTarget {
            kind,
            url,
            room: self.room.clone(),
            token,
        })
    }
}

impl NotifySettings {
    /// The hours before the deadline the "deadline near" news goes.
    pub fn deadline_hours(&self) -> u32 {
        self.deadline_hours.unwrap_or(DEFAULT_DEADLINE_HOURS)
    }

    /// The problems with the table, as (field, message).
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let mut found = Vec::new();
        if let Some(hours) = self.deadline_hours
            && !(1..=MAX_DEADLINE_HOURS).contains(&hours)
        {
            found.push((
                "deadline_hours",
                format!("deadline_hours must be 1 to {MAX_DEADLINE_HOURS}"),
            ));
        }
        let mut names = std::collections::BTreeSet::new();
        for hook in &self.hooks {
            if !names.insert(hook.name()) {
                found.push((
                    "name",
                    format!(
                        "two hooks are named '{}'; give each its own name = \"...\"",
                        hook.name()
                    ),
                ));
            }
            found.extend(hook.problems());
        }
        found
    }
}

impl Hook {
    fn problems(&self) -> Vec<(&'static str, String)> {
        let mut found = Vec::new();
        let name = self.name();
        let web = |field: &'static str, url: &str| {
            (!(url.starts_with("https://") || url.starts_with("http://"))).then(|| {
                (
                    field,
                    // Only its start: a webhook's address is its password.
                    format!(
                        "hook '{name}': its address (beginning '{}') is not a web address; write \
                         it as https://...",
                        crate::mail::webhook::host_of(url)
                    ),
                )
            })
        };
        if self.kind == HookKindName::Matrix && self.homeserver.is_some() {
            if self.room.is_none() {
                found.push((
                    "room",
                    format!("hook '{name}' needs room = \"!id:server\", the room to post in"),
                ));
            }
            if self.token_env.is_none() == self.token_file.is_none() {
                found.push((
                    "token_env",
                    format!(
                        "hook '{name}' needs the access token from exactly one of token_env (an \
                         environment variable) or token_file"
                    ),
                ));
            }
            found.extend(
                self.homeserver
                    .as_deref()
                    .and_then(|u| web("homeserver", u)),
            );
            if self.url.is_some() || self.url_env.is_some() {
                found.push((
                    "url",
                    format!(
                        "hook '{name}' posts through its homeserver; remove url (a bridge's \
                         webhook is written without homeserver)"
                    ),
                ));
            }
        } else {
            if self.url.is_some() == self.url_env.is_some() {
                found.push((
                    "url",
                    format!(
                        "hook '{name}' needs exactly one of url or url_env (an environment \
                         variable holding the URL, which keeps its secret out of the file){}",
                        if self.kind == HookKindName::Matrix {
                            "; or homeserver, room and token_env for the Matrix API"
                        } else {
                            ""
                        }
                    ),
                ));
            }
            found.extend(self.url.as_deref().and_then(|u| web("url", u)));
            let matrix_only = [
                ("room", self.room.is_some()),
                ("token_env", self.token_env.is_some()),
                ("token_file", self.token_file.is_some()),
            ];
            for (field, given) in matrix_only {
                if given {
                    found.push((
                        field,
                        format!(
                            "hook '{name}': {field} is for kind = \"matrix\" with a homeserver; \
                             remove it"
                        ),
                    ));
                }
            }
        }
        if self.news.as_ref().is_some_and(Vec::is_empty) {
            found.push((
                "news",
                format!(
                    "hook '{name}' takes no news; list some of {} or remove the line",
                    NewsKind::ALL.map(NewsKind::name).join(", ")
                ),
            ));
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> NotifySettings {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn hooks_need_an_address_and_matrix_its_room_and_token() {
        let good = parse(
            "[[hooks]]\nkind = \"discord\"\nurl_env = \"X\"\n\n[[hooks]]\nkind = \"matrix\"\n\
             homeserver = \"https://m.example.org\"\nroom = \"!r:example.org\"\n\
             token_file = \"/t\"\n\n[[hooks]]\nname = \"bridge\"\nkind = \"matrix\"\n\
             url = \"http://127.0.0.1:1/hook\"\nnews = [\"day\"]\n",
        );
        assert_eq!(good.problems(), vec![]);
        assert!(good.hooks[2].takes(NewsKind::Day));
        assert!(!good.hooks[2].takes(NewsKind::Site));
        assert!(good.hooks[0].takes(NewsKind::Announcement));
        let bridge = good.hooks[2].target().unwrap();
        assert_eq!(bridge.kind, HookKind::Slack);
        assert_eq!(bridge.url, "http://127.0.0.1:1/hook");
        let bad = parse(
            "deadline_hours = 0\n[[hooks]]\nkind = \"slack\"\n\n[[hooks]]\nkind = \"matrix\"\n\
             homeserver = \"matrix.example.org\"\n\n[[hooks]]\nkind = \"slack\"\n\
             url = \"http://x/\"\nroom = \"!r\"\nnews = []\n",
        );
        let fields: Vec<&str> = bad.problems().iter().map(|p| p.0).collect();
        assert_eq!(
            fields,
            [
                "deadline_hours",
                "url",
                "room",
                "token_env",
                "homeserver",
                "name",
                "room",
                "news"
            ]
        );
    }

    #[test]
    fn a_missing_secret_names_the_variable_not_a_value() {
        let hook = parse(
            "[[hooks]]\nkind = \"matrix\"\nhomeserver = \"https://m.example.org\"\n\
             room = \"!r:example.org\"\ntoken_env = \"REALMGM_TEST_NO_SUCH_VARIABLE\"\n",
        )
        .hooks
        .remove(0);
        let error = hook.target().unwrap_err().to_string();
        assert!(error.contains("REALMGM_TEST_NO_SUCH_VARIABLE"), "{error}");
        assert!(error.contains("hook 'matrix'"), "{error}");
    }
}
