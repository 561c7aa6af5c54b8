//! How `[mail.imap]` and `[mail.smtp]` sign in: `auth = "password"` (the
//! default, with `password_env`) or `auth = "oauth2"` with a `provider`
//! (`google`, `microsoft`, or `custom` naming its endpoints and scopes) and
//! the `client_id` the GM registered. A client secret, where the provider
//! wants one, comes from an environment variable or a file, never from the
//! campaign file. One sign-in (`realmgm mail login`) serves the campaign:
//! when both sections use OAuth they must name the same one.

use serde::{Deserialize, Serialize};

use crate::mail::oauth::Provider;

/// `auth = …`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AuthName {
    #[default]
    Password,
    Oauth2,
}

/// `provider = …`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProviderName {
    Google,
    Microsoft,
    Custom,
}

/// The sign-in keys of one section, borrowed from it.
#[derive(Clone, Copy, Debug)]
pub struct SignInKeys<'a> {
    /// `imap` or `smtp`, as errors name the section.
    pub section: &'static str,
    pub auth: AuthName,
    pub password_env: Option<&'a str>,
    pub provider: Option<ProviderName>,
    pub client_id: Option<&'a str>,
    pub client_secret_env: Option<&'a str>,
    pub client_secret_file: Option<&'a str>,
    pub tenant: Option<&'a str>,
    pub authorization_url: Option<&'a str>,
    pub token_url: Option<&'a str>,
    pub device_url: Option<&'a str>,
    pub scopes: Option<&'a [String]>,
}

/// Where the client secret is read from when it is needed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientSecret {
    None,
    Env(String),
    File(String),
}

/// A campaign's OAuth sign-in, as `realmgm mail login` and the daemon use it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OAuthSettings {
    pub provider: Provider,
    pub client_id: String,
    pub client_secret: ClientSecret,
}

impl SignInKeys<'_> {
    /// The OAuth sign-in these keys name, when `auth = "oauth2"` and they
    /// pass [`SignInKeys::problems`].
    pub fn oauth(&self) -> Option<OAuthSettings> {
        if self.auth != AuthName::Oauth2 {
            return None;
        }
        let provider = match self.provider? {
            ProviderName::Google => Provider::google(),
            ProviderName::Microsoft => Provider::microsoft(self.tenant.unwrap_or("common")),
            ProviderName::Custom => Provider {
                authorization_url: self.authorization_url?.to_string(),
                token_url: self.token_url?.to_string(),
                device_url: self.device_url.map(str::to_string),
                scopes: self.scopes.unwrap_or_default().to_vec(),
                authorization_extras: Vec::new(),
            },
        };
        let client_secret = match (self.client_secret_env, self.client_secret_file) {
            (Some(variable), _) => ClientSecret::Env(variable.to_string()),
            (None, Some(file)) => ClientSecret::File(file.to_string()),
            (None, None) => ClientSecret::None,
        };
        Some(OAuthSettings {
            provider,
            client_id: self.client_id?.to_string(),
            client_secret,
        })
    }

    /// What is missing or out of place, as (key, message) pairs; keys
    /// written `imap.client_id`.
    pub fn problems(&self) -> Vec<(String, String)> {
        let key = |name: &str| format!("{}.{name}", self.section);
        let mut problems = Vec::new();
        let oauth_keys = [
            ("provider", self.provider.is_some()),
            ("client_id", self.client_id.is_some()),
            ("client_secret_env", self.client_secret_env.is_some()),
            ("client_secret_file", self.client_secret_file.is_some()),
            ("tenant", self.tenant.is_some()),
            ("authorization_url", self.authorization_url.is_some()),
            ("token_url", self.token_url.is_some()),
            ("device_url", self.device_url.is_some()),
            ("scopes", self.scopes.is_some()),
        ];
        if self.auth == AuthName::Password {
            for (name, _) in oauth_keys.iter().filter(|(_, given)| *given) {
                problems.push((
                    key(name),
                    format!(
                        "{name} is read only with auth = \"oauth2\"; add that line or remove \
                         this one"
                    ),
                ));
            }
            return problems;
        }
        if self.password_env.is_some() {
            problems.push((
                key("password_env"),
                "with auth = \"oauth2\" no password is used; remove password_env".to_string(),
            ));
        }
        let Some(provider) = self.provider else {
            problems.push((
                key("provider"),
                "auth = \"oauth2\" needs provider = \"google\", \"microsoft\" or \"custom\""
                    .to_string(),
            ));
            return problems;
        };
        if self.client_id.is_none_or(|id| id.trim().is_empty()) {
            problems.push((
                key("client_id"),
                "auth = \"oauth2\" needs client_id, the id of the application you registered \
                 with the provider (see README)"
                    .to_string(),
            ));
        }
        if self.client_secret_env.is_some() && self.client_secret_file.is_some() {
            problems.push((
                key("client_secret_file"),
                "name the client secret once: client_secret_env or client_secret_file".to_string(),
            ));
        }
        if provider == ProviderName::Google
            && self.client_secret_env.is_none()
            && self.client_secret_file.is_none()
        {
            problems.push((
                key("client_secret_env"),
                "Google wants the client secret of a Desktop app client: name the environment \
                 variable holding it (client_secret_env) or a file (client_secret_file)"
                    .to_string(),
            ));
        }
        if self.tenant.is_some() && provider != ProviderName::Microsoft {
            problems.push((
                key("tenant"),
                "tenant is read only with provider = \"microsoft\"; remove it".to_string(),
            ));
        }
        let custom = [
            ("authorization_url", self.authorization_url.is_some()),
            ("token_url", self.token_url.is_some()),
            ("device_url", self.device_url.is_some()),
            ("scopes", self.scopes.is_some()),
        ];
        if provider == ProviderName::Custom {
            for (name, given) in &custom[..2] {
                if !given {
                    problems.push((
                        key(name),
                        format!("provider = \"custom\" needs {name}, the endpoint's https URL"),
                    ));
                }
            }
            if self.scopes.is_none_or(<[String]>::is_empty) {
                problems.push((
                    key("scopes"),
                    "provider = \"custom\" needs scopes, e.g. scopes = [\"mail\", \
                     \"offline_access\"]"
                        .to_string(),
                ));
            }
        } else {
            for (name, _) in custom.iter().filter(|(_, given)| *given) {
                problems.push((
                    key(name),
                    format!(
                        "{name} is read only with provider = \"custom\"; the {} endpoints and \
                         scopes are built in, so remove it",
                        match provider {
                            ProviderName::Google => "Google",
                            _ => "Microsoft",
                        }
                    ),
                ));
            }
        }
        problems
    }
}
