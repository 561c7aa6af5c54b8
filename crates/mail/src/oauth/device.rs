//! The device authorization flow (RFC 8628): the provider hands out a short
//! code and a URL, the GM approves in any browser on any machine, and the
//! program polls the token endpoint until he has. Microsoft offers it for
//! the mail scopes; it suits a server with no browser.

use std::time::Duration;

use super::endpoint::{self, Answer};
use super::{Client, OAuthError, Provider, Tokens};

/// The grant type a device poll names (RFC 8628 §3.4).
const DEVICE_GRANT: &str = "urn:ietf:params:oauth:grant-type:device_code";

/// Seconds between polls when the provider names none (RFC 8628 §3.2).
const DEFAULT_INTERVAL: u64 = 5;

/// What the GM is shown, and what the polls send.
#[derive(Clone, PartialEq, Eq)]
pub struct DeviceCode {
    /// The code the GM types at [`DeviceCode::verification_uri`].
    pub user_code: String,
    pub verification_uri: String,
    /// The URL with the code in it, where the provider gives one.
    pub verification_uri_complete: Option<String>,
    /// Seconds the code is good for.
    pub expires_in: u64,
    /// Seconds to wait between polls.
    pub interval: u64,
    device_code: String,
}

/// Never shows the device code, which the polls prove possession by.
impl std::fmt::Debug for DeviceCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceCode")
            .field("user_code", &self.user_code)
            .field("verification_uri", &self.verification_uri)
            .field("expires_in", &self.expires_in)
            .field("interval", &self.interval)
            .finish()
    }
}

/// Ask the provider for a device code (RFC 8628 §3.1).
///
/// # Errors
/// [`OAuthError::NoDeviceFlow`] when the provider has no device endpoint;
/// [`OAuthError::Refused`] when it refuses the client; others when it
/// cannot be reached.
pub fn start(provider: &Provider, client: &Client) -> Result<DeviceCode, OAuthError> {
    let Some(url) = &provider.device_url else {
        return Err(OAuthError::NoDeviceFlow);
    };
    let json = endpoint::post(url, client, &[("scope", &provider.scope())])?;
    if let Some(error) = endpoint::text(&json, "error") {
        let description = endpoint::text(&json, "error_description").unwrap_or_default();
        return Err(endpoint::failure(url, error, description));
    }
    let field = |key: &str| {
        endpoint::text(&json, key).ok_or_else(|| OAuthError::Protocol {
            url: url.clone(),
            why: format!("the device authorization answer has no {key}"),
        })
    };
    Ok(DeviceCode {
        device_code: field("device_code")?,
        user_code: field("user_code")?,
        // Google's older endpoint wrote verification_url.
        verification_uri: field("verification_uri").or_else(|_| field("verification_url"))?,
        verification_uri_complete: endpoint::text(&json, "verification_uri_complete"),
        expires_in: endpoint::seconds(&json, "expires_in").unwrap_or(900),
        interval: endpoint::seconds(&json, "interval").unwrap_or(DEFAULT_INTERVAL),
    })
}

/// Poll the token endpoint until the GM approved (RFC 8628 §3.4, §3.5):
/// `authorization_pending` waits the interval, `slow_down` adds five
/// seconds to it for good, `access_denied` and `expired_token` end the
/// login, and so does the code's lifetime running out. `wait` sleeps (a
/// test passes one that only counts).
///
/// # Errors
/// [`OAuthError::Denied`], [`OAuthError::Expired`], or a failure of the
/// endpoint.
pub fn poll(
    provider: &Provider,
    client: &Client,
    code: &DeviceCode,
    wait: &mut dyn FnMut(Duration),
) -> Result<Tokens, OAuthError> {
    let url = &provider.token_url;
    let mut interval = code.interval.max(1);
    let mut waited = 0;
    loop {
        if waited >= code.expires_in {
            return Err(OAuthError::Expired);
        }
        wait(Duration::from_secs(interval));
        waited += interval;
        let json = endpoint::post(
            url,
            client,
            &[
                ("grant_type", DEVICE_GRANT),
                ("device_code", &code.device_code),
            ],
        )?;
        match endpoint::answer(url, &json)? {
            Answer::Tokens(tokens) => return Ok(tokens),
            Answer::Error { error, description } => match error.as_str() {
                "authorization_pending" => {}
                "slow_down" => interval += 5,
                "access_denied" => return Err(OAuthError::Denied),
                "expired_token" => return Err(OAuthError::Expired),
                _ => return Err(endpoint::failure(url, error, description)),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fake::{Behaviour, TokenServer};
    use super::*;

    fn client() -> Client {
        Client {
            id: "realmgm-test".into(),
            secret: None,
        }
    }

    #[test]
    fn the_gm_approves_after_a_few_polls_and_a_slow_down() {
        let server = TokenServer::start(Behaviour {
            device_answers: vec![
                "authorization_pending",
                "slow_down",
                "authorization_pending",
            ],
            ..Behaviour::default()
        });
        let provider = server.provider();
        let code = start(&provider, &client()).unwrap();
        assert_eq!(code.user_code, "WDJB-MJHT");
        assert!(code.verification_uri.starts_with("http://127.0.0.1:"));
        let mut waits = Vec::new();
        let tokens = poll(&provider, &client(), &code, &mut |d| {
            waits.push(d.as_secs())
        })
        .unwrap();
        assert_eq!(
            waits,
            vec![1, 1, 6, 6],
            "slow_down adds five seconds for good"
        );
        assert!(tokens.refresh_token.is_some());
        let requests = server.requests();
        let polls: Vec<_> = requests
            .iter()
            .filter(|r| r.get("grant_type").is_some_and(|g| g == DEVICE_GRANT))
            .collect();
        assert_eq!(polls.len(), 4);
        assert_eq!(polls[0].get("device_code").unwrap(), "device-1");
        assert_eq!(requests[0].get("scope").unwrap(), "mail offline_access");
    }

    #[test]
    fn a_declined_or_expired_code_ends_the_login() {
        for (answer, expected) in [("access_denied", "declined"), ("expired_token", "expired")] {
            let server = TokenServer::start(Behaviour {
                device_answers: vec!["authorization_pending", answer],
                ..Behaviour::default()
            });
            let provider = server.provider();
            let code = start(&provider, &client()).unwrap();
            let error = poll(&provider, &client(), &code, &mut |_| {}).unwrap_err();
            assert!(error.to_string().contains(expected), "{error}");
        }
    }

    #[test]
    fn the_code_lifetime_bounds_the_polls() {
        let server = TokenServer::start(Behaviour {
            device_answers: vec!["authorization_pending"; 100],
            device_expires_in: 3,
            ..Behaviour::default()
        });
        let provider = server.provider();
        let code = start(&provider, &client()).unwrap();
        let mut polls = 0;
        let error = poll(&provider, &client(), &code, &mut |_| polls += 1).unwrap_err();
        assert!(matches!(error, OAuthError::Expired), "{error}");
        assert_eq!(polls, 3);
    }
}
