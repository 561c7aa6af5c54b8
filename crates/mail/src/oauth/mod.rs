//! OAuth 2.0 for the GM's mailbox: the providers' endpoints and scopes, the
//! token endpoint (RFC 6749 §6 refresh, §4.1.3 code exchange), the device
//! flow (`device`, RFC 8628), the authorization-code flow with PKCE and a
//! loopback redirect (`pkce`, RFC 7636, RFC 8252), and the SASL XOAUTH2
//! string IMAP and SMTP send the access token in.
//!
//! Mail providers that switched off passwords (Outlook.com, Microsoft 365)
//! or steer programs away from them (Gmail) accept an access token instead.
//! Nothing here stores a token: the caller keeps the refresh token and asks
//! for a fresh access token before each session.

pub mod device;
mod endpoint;
#[cfg(any(test, feature = "test-support"))]
pub mod fake;
pub mod form;
pub mod pkce;

use base64::Engine as _;

pub use endpoint::{exchange_code, refresh};

/// Where a provider's endpoints are and which scopes mail needs there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provider {
    /// Where the GM's browser is sent to approve access.
    pub authorization_url: String,
    /// Where codes and refresh tokens are exchanged for access tokens.
    pub token_url: String,
    /// The device authorization endpoint, where the provider offers the
    /// device flow for the mail scopes.
    pub device_url: Option<String>,
    pub scopes: Vec<String>,
    /// Extra parameters of the authorization request (Google hands out a
    /// refresh token only when asked for offline access with consent).
    pub authorization_extras: Vec<(String, String)>,
}

impl Provider {
    /// Gmail: the one scope covering IMAP and SMTP. Google's device flow
    /// does not allow that scope, so consent goes through the browser.
    pub fn google() -> Provider {
        Provider {
            authorization_url: "https://accounts.google.com/o/oauth2/v2/auth".to_string(),
            token_url: "https://oauth2.googleapis.com/token".to_string(),
            device_url: None,
            scopes: vec!["https://mail.google.com/".to_string()],
            authorization_extras: vec![
                ("access_type".to_string(), "offline".to_string()),
                ("prompt".to_string(), "consent".to_string()),
            ],
        }
    }

    /// Outlook.com and Microsoft 365 through the Microsoft identity
    /// platform of `tenant` (`common`, `consumers`, `organizations` or a
    /// tenant's id); `offline_access` is what brings a refresh token.
    pub fn microsoft(tenant: &str) -> Provider {
        let base = format!("https://login.microsoftonline.com/{tenant}/oauth2/v2.0");
        Provider {
            authorization_url: format!("{base}/authorize"),
            token_url: format!("{base}/token"),
            device_url: Some(format!("{base}/devicecode")),
            scopes: [
                "https://outlook.office.com/IMAP.AccessAsUser.All",
                "https://outlook.office.com/SMTP.Send",
                "offline_access",
            ]
            .map(str::to_string)
            .to_vec(),
            authorization_extras: Vec::new(),
        }
    }

    /// The scopes as the `scope` parameter writes them.
    pub fn scope(&self) -> String {
        self.scopes.join(" ")
    }
}

/// The application the GM registered with the provider.
#[derive(Clone, PartialEq, Eq)]
pub struct Client {
    pub id: String,
    /// Only where the provider requires one for installed applications
    /// (Google's "Desktop app" clients).
    pub secret: Option<String>,
}

/// Never shows the secret.
impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("id", &self.id)
            .field("secret", &self.secret.as_ref().map(|_| "********"))
            .finish()
    }
}

/// What a token endpoint handed out.
#[derive(Clone, PartialEq, Eq)]
pub struct Tokens {
    pub access_token: String,
    /// Seconds the access token lives, when the server said.
    pub expires_in: Option<u64>,
    /// A new refresh token: the first one at consent, or a rotated one
    /// that replaces the old.
    pub refresh_token: Option<String>,
}

/// Never shows a token.
impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokens")
            .field("expires_in", &self.expires_in)
            .field("refresh_token", &self.refresh_token.is_some())
            .finish()
    }
}

/// An OAuth failure, worded for the GM.
#[derive(Debug, thiserror::Error)]
pub enum OAuthError {
    #[error("cannot reach the OAuth endpoint {url}: {reason}; check the network and the endpoint")]
    Unreachable { url: String, reason: String },
    #[error(
        "the mail account's consent is no longer valid: the provider says the grant was revoked \
         or has expired ({description})"
    )]
    InvalidGrant { description: String },
    #[error("the OAuth endpoint {url} refused: {error}{}", describe(.description))]
    Refused {
        url: String,
        error: String,
        description: String,
    },
    #[error("unexpected answer from the OAuth endpoint {url}: {why}")]
    Protocol { url: String, why: String },
    #[error("this provider offers no device sign-in; use the sign-in in a browser")]
    NoDeviceFlow,
    #[error("access was declined at the provider's page; run the login again and approve it")]
    Denied,
    #[error(
        "the sign-in code expired before it was approved; run the login again and approve it \
         sooner"
    )]
    Expired,
    #[error(
        "the redirect does not answer this sign-in (its state differs); run the login again and \
         use the newest link"
    )]
    StateMismatch,
    #[error("{0}")]
    Redirect(String),
    #[error("the login's local redirect listener failed: {0}")]
    Io(#[from] std::io::Error),
    #[error("the system's random source failed: {0}")]
    Random(String),
}

fn describe(description: &str) -> String {
    if description.is_empty() {
        String::new()
    } else {
        format!(" ({description})")
    }
}

/// The SASL XOAUTH2 initial response, base64 encoded, as IMAP's
/// AUTHENTICATE sends it: `user=…^Aauth=Bearer …^A^A`.
pub fn xoauth2(user: &str, access_token: &str) -> String {
    base64::engine::general_purpose::STANDARD
        .encode(format!("user={user}\x01auth=Bearer {access_token}\x01\x01"))
}

/// `bytes` random bytes from the operating system, base64url without
/// padding: PKCE verifiers and `state` values.
pub(crate) fn random_text(bytes: usize) -> Result<String, OAuthError> {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer).map_err(|e| OAuthError::Random(e.to_string()))?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(buffer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sasl_string_carries_user_and_token() {
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(xoauth2("gm@example.org", "ya29.x"))
            .unwrap();
        assert_eq!(
            decoded,
            b"user=gm@example.org\x01auth=Bearer ya29.x\x01\x01".to_vec()
        );
    }

    #[test]
    fn providers_ask_the_mail_scopes() {
        assert_eq!(Provider::google().scope(), "https://mail.google.com/");
        let microsoft = Provider::microsoft("consumers");
        assert!(microsoft.scope().contains("IMAP.AccessAsUser.All"));
        assert!(microsoft.scope().ends_with("offline_access"));
        assert_eq!(
            microsoft.device_url.as_deref(),
            Some("https://login.microsoftonline.com/consumers/oauth2/v2.0/devicecode")
        );
        assert!(Provider::google().device_url.is_none());
    }

    #[test]
    fn debug_never_shows_secrets() {
        let client = Client {
            id: "id".into(),
            secret: Some("hush".into()),
        };
        let tokens = Tokens {
            access_token: "at-hush".into(),
            expires_in: Some(3600),
            refresh_token: Some("rt-hush".into()),
        };
        let text = format!("{client:?} {tokens:?}");
        assert!(!text.contains("hush"), "{text}");
    }
}
