//! Requests to a token endpoint (RFC 6749 §5): a form POST answered with
//! JSON, tokens on success and an `error` code otherwise.

use std::time::Duration;

use super::{Client, OAuthError, Provider, Tokens};

/// What a token endpoint answered: tokens, or its error code and text.
pub(super) enum Answer {
    Tokens(Tokens),
    Error { error: String, description: String },
}

/// POST `fields` (with the client's id and secret) to `url`: its JSON
/// answer, whatever the HTTP status (errors come as 400 with JSON).
pub(super) fn post(
    url: &str,
    client: &Client,
    fields: &[(&str, &str)],
) -> Result<serde_json::Value, OAuthError> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into();
    let mut form: Vec<(&str, &str)> = vec![("client_id", client.id.as_str())];
    if let Some(secret) = &client.secret {
        form.push(("client_secret", secret.as_str()));
    }
    form.extend_from_slice(fields);
    let unreachable = |error: ureq::Error| OAuthError::Unreachable {
        url: url.to_string(),
        reason: error.to_string(),
    };
    let mut response = agent.post(url).send_form(form).map_err(unreachable)?;
    let status = response.status().as_u16();
    let body = response.body_mut().read_to_string().map_err(unreachable)?;
    let protocol = |why: String| OAuthError::Protocol {
        url: url.to_string(),
        why,
    };
    serde_json::from_str(&body).map_err(|_| {
        protocol(format!(
            "HTTP {status} without a JSON body; is this the OAuth endpoint?"
        ))
    })
}

/// A string field of a JSON answer.
pub(super) fn text(json: &serde_json::Value, key: &str) -> Option<String> {
    json.get(key).and_then(|v| v.as_str()).map(str::to_string)
}

/// A number of seconds, which some servers write as a string.
pub(super) fn seconds(json: &serde_json::Value, key: &str) -> Option<u64> {
    json.get(key).and_then(|v| {
        v.as_u64()
            .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
    })
}

/// A token endpoint's JSON answer read.
pub(super) fn answer(url: &str, json: &serde_json::Value) -> Result<Answer, OAuthError> {
    let text = |key: &str| text(json, key);
    if let Some(error) = text("error") {
        return Ok(Answer::Error {
            error,
            description: text("error_description").unwrap_or_default(),
        });
    }
    let access_token = text("access_token").ok_or_else(|| OAuthError::Protocol {
        url: url.to_string(),
        why: "an answer with neither an access token nor an error".to_string(),
    })?;
    Ok(Answer::Tokens(Tokens {
        access_token,
        expires_in: seconds(json, "expires_in"),
        refresh_token: text("refresh_token"),
    }))
}

/// An error answer as the failure it is: `invalid_grant` means the GM must
/// consent again.
pub(super) fn failure(url: &str, error: String, description: String) -> OAuthError {
    if error == "invalid_grant" {
        OAuthError::InvalidGrant {
            description: if description.is_empty() {
                error
            } else {
                description
            },
        }
    } else {
        OAuthError::Refused {
            url: url.to_string(),
            error,
            description,
        }
    }
}

/// Tokens, or the failure an error answer means.
pub(super) fn tokens_from(url: &str, json: &serde_json::Value) -> Result<Tokens, OAuthError> {
    match answer(url, json)? {
        Answer::Tokens(tokens) => Ok(tokens),
        Answer::Error { error, description } => Err(failure(url, error, description)),
    }
}

/// A fresh access token for a refresh token (RFC 6749 §6). The answer may
/// carry a new refresh token, which replaces the old one.
///
/// # Errors
/// [`OAuthError::InvalidGrant`] when the grant was revoked or expired;
/// others when the endpoint cannot be reached or answers otherwise.
pub fn refresh(
    provider: &Provider,
    client: &Client,
    refresh_token: &str,
) -> Result<Tokens, OAuthError> {
    let url = &provider.token_url;
    let answer = post(
        url,
        client,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token),
        ],
    )?;
    tokens_from(url, &answer)
}

/// Tokens for an authorization code, proven by the PKCE verifier (RFC 6749
/// §4.1.3, RFC 7636 §4.5).
///
/// # Errors
/// As [`refresh`].
pub fn exchange_code(
    provider: &Provider,
    client: &Client,
    code: &str,
    redirect_uri: &str,
    verifier: &str,
) -> Result<Tokens, OAuthError> {
    let url = &provider.token_url;
    let answer = post(
        url,
        client,
        &[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirect_uri),
            ("code_verifier", verifier),
        ],
    )?;
    tokens_from(url, &answer)
}
