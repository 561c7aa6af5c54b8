//! The authorization-code flow with PKCE (RFC 7636, S256) for a native
//! program (RFC 8252): the GM's browser goes to the provider, which sends
//! it back to `http://127.0.0.1:PORT/` with a code; a listener on that
//! port catches it, or, on a server with no browser, the GM pastes the
//! address the browser ended at. The `state` value proves the redirect
//! answers this sign-in and no other.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;

use base64::Engine as _;
use sha2::{Digest, Sha256};

use super::{Client, OAuthError, Provider, Tokens, form};

/// The most header lines read from the browser's request; a browser sends
/// a few dozen at most.
const MAX_HEADER_LINES: usize = 200;

/// One sign-in begun: the URL to open and what its answer is checked with.
pub struct Consent {
    /// Where the GM's browser goes.
    pub url: String,
    pub redirect_uri: String,
    state: String,
    verifier: String,
}

/// The S256 challenge of a verifier (RFC 7636 §4.2).
pub fn challenge(verifier: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

impl Consent {
    /// A sign-in whose browser comes back to `redirect_uri`, with a fresh
    /// verifier (43 characters: 32 random bytes) and state.
    ///
    /// # Errors
    /// [`OAuthError::Random`] when the random source fails.
    pub fn begin(
        provider: &Provider,
        client: &Client,
        redirect_uri: &str,
    ) -> Result<Consent, OAuthError> {
        let verifier = super::random_text(32)?;
        let state = super::random_text(16)?;
        let challenge = challenge(&verifier);
        let scope = provider.scope();
        let mut params: Vec<(&str, &str)> = vec![
            ("response_type", "code"),
            ("client_id", &client.id),
            ("redirect_uri", redirect_uri),
            ("scope", &scope),
            ("state", &state),
            ("code_challenge", &challenge),
            ("code_challenge_method", "S256"),
        ];
        params.extend(
            provider
                .authorization_extras
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str())),
        );
        Ok(Consent {
            url: form::url_with_query(&provider.authorization_url, &params),
            redirect_uri: redirect_uri.to_string(),
            state,
            verifier,
        })
    }

    /// The code in the address the browser was sent back to, once its state
    /// is this sign-in's.
    ///
    /// # Errors
    /// [`OAuthError::StateMismatch`], [`OAuthError::Denied`], or
    /// [`OAuthError::Redirect`] when the address holds no code.
    pub fn code_from(&self, redirected: &str) -> Result<String, OAuthError> {
        let redirected = redirected.trim();
        let query = redirected
            .split_once('?')
            .map_or(redirected, |(_, query)| query);
        let query = query.split('#').next().unwrap_or_default();
        let pairs = form::pairs(query);
        if let Some(error) = form::value(&pairs, "error") {
            if error == "access_denied" {
                return Err(OAuthError::Denied);
            }
            return Err(OAuthError::Refused {
                url: self.redirect_uri.clone(),
                error: error.to_string(),
                description: form::value(&pairs, "error_description")
                    .unwrap_or_default()
                    .to_string(),
            });
        }
        let Some(code) = form::value(&pairs, "code") else {
            return Err(OAuthError::Redirect(
                "the address holds no code=…; paste the whole address the browser ended at, \
                 beginning with http://127.0.0.1"
                    .to_string(),
            ));
        };
        if form::value(&pairs, "state") != Some(self.state.as_str()) {
            return Err(OAuthError::StateMismatch);
        }
        Ok(code.to_string())
    }

    /// Exchange the redirect's code for tokens, proving the verifier.
    ///
    /// # Errors
    /// As [`Consent::code_from`] and [`super::exchange_code`].
    pub fn finish(
        &self,
        provider: &Provider,
        client: &Client,
        redirected: &str,
    ) -> Result<Tokens, OAuthError> {
        let code = self.code_from(redirected)?;
        super::exchange_code(provider, client, &code, &self.redirect_uri, &self.verifier)
    }
}

/// A listener on a free port of 127.0.0.1 for the browser's redirect.
pub struct Loopback {
    listener: TcpListener,
}

impl Loopback {
    /// # Errors
    /// The port cannot be bound.
    pub fn bind() -> Result<Loopback, OAuthError> {
        Ok(Loopback {
            listener: TcpListener::bind("127.0.0.1:0")?,
        })
    }

    /// `http://127.0.0.1:PORT/`, which the provider must accept as a
    /// redirect (a "Desktop"/"Mobile and desktop" application does, for any
    /// port).
    pub fn redirect_uri(&self) -> Result<String, OAuthError> {
        Ok(format!(
            "http://127.0.0.1:{}/",
            self.listener.local_addr()?.port()
        ))
    }

    /// Wait for the browser's redirect and return the address it asked
    /// for; requests without a code or an error (a favicon) are answered
    /// 404 and waited past.
    ///
    /// # Errors
    /// The listener fails.
    pub fn wait(&self) -> Result<String, OAuthError> {
        let base = self.redirect_uri()?;
        loop {
            let (socket, _) = self.listener.accept()?;
            let mut request = BufReader::new(&socket);
            let mut line = String::new();
            request.read_line(&mut line)?;
            // The headers are read to their end before answering: a socket
            // closed with unread bytes is reset, and the browser may then
            // lose the page.
            let mut header = String::new();
            for _ in 0..MAX_HEADER_LINES {
                header.clear();
                if request.read_line(&mut header)? == 0 || header.trim_end().is_empty() {
                    break;
                }
            }
            let target = line.split_whitespace().nth(1).unwrap_or("/");
            let answers = target.contains("code=") || target.contains("error=");
            let (status, page) = if answers {
                (
                    "200 OK",
                    "realmgm has the answer; you can close this tab and go back to the terminal.",
                )
            } else {
                ("404 Not Found", "Not the sign-in's answer.")
            };
            let mut socket = socket;
            // The browser's page is a courtesy: the code is already read.
            let _ = write!(
                socket,
                "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{page}",
                page.len()
            );
            let _ = socket.shutdown(std::net::Shutdown::Write);
            if answers {
                return Ok(format!("{}{}", base.trim_end_matches('/'), target));
            }
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
            secret: Some("desktop-secret".into()),
        }
    }

    #[test]
    fn the_browser_comes_back_to_the_loopback_and_the_code_is_exchanged() {
        let server = TokenServer::start(Behaviour::default());
        let provider = server.provider();
        let loopback = Loopback::bind().unwrap();
        let consent =
            Consent::begin(&provider, &client(), &loopback.redirect_uri().unwrap()).unwrap();
        let (_, query) = consent.url.split_once('?').unwrap();
        let params = form::pairs(query);
        assert_eq!(form::value(&params, "code_challenge_method"), Some("S256"));
        assert_eq!(form::value(&params, "scope"), Some("mail offline_access"));
        // The test plays the GM's browser: the provider approves and
        // redirects; a favicon request comes first.
        let redirect = form::value(&params, "redirect_uri").unwrap().to_string();
        let code = server.approve(form::value(&params, "code_challenge").unwrap(), &redirect);
        let state = form::value(&params, "state").unwrap().to_string();
        let browser = std::thread::spawn(move || {
            let agent: ureq::Agent = ureq::Agent::config_builder()
                .http_status_as_error(false)
                .build()
                .into();
            let favicon = agent.get(format!("{redirect}favicon.ico")).call().unwrap();
            assert_eq!(favicon.status().as_u16(), 404);
            let url = form::url_with_query(&redirect, &[("code", &code), ("state", &state)]);
            let mut page = agent.get(url).call().unwrap();
            page.body_mut().read_to_string().unwrap()
        });
        let redirected = loopback.wait().unwrap();
        let tokens = consent.finish(&provider, &client(), &redirected).unwrap();
        assert!(browser.join().unwrap().contains("close this tab"));
        assert!(server.knows_access_token(&tokens.access_token));
        assert!(tokens.refresh_token.is_some());
        let exchange = server.requests().pop().unwrap();
        assert_eq!(exchange.get("client_secret").unwrap(), "desktop-secret");
        assert_eq!(exchange.get("code_verifier").unwrap().len(), 43);
    }

    #[test]
    fn a_pasted_address_is_checked() {
        let server = TokenServer::start(Behaviour::default());
        let provider = server.provider();
        let consent = Consent::begin(&provider, &client(), "http://127.0.0.1:1/").unwrap();
        let state = &consent.state;
        let forged = "http://127.0.0.1:1/?code=c&state=other";
        assert!(matches!(
            consent.code_from(forged),
            Err(OAuthError::StateMismatch)
        ));
        let denied = format!("http://127.0.0.1:1/?error=access_denied&state={state}");
        assert!(matches!(
            consent.code_from(&denied),
            Err(OAuthError::Denied)
        ));
        let empty = consent.code_from("http://127.0.0.1:1/").unwrap_err();
        assert!(
            empty.to_string().contains("paste the whole address"),
            "{empty}"
        );
        let pasted = format!("  http://127.0.0.1:1/?code=4%2Fx&state={state}#\n");
        assert_eq!(consent.code_from(&pasted).unwrap(), "4/x");
        // A code the provider never issued, or exchanged without the
        // verifier, is refused by the endpoint.
        let wrong = format!("http://127.0.0.1:1/?code=code-9&state={state}");
        let refused = consent.finish(&provider, &client(), &wrong).unwrap_err();
        assert!(
            matches!(refused, OAuthError::InvalidGrant { .. }),
            "{refused}"
        );
    }

    #[test]
    fn the_challenge_is_the_verifiers_sha256_in_base64url() {
        // Computed apart, with Python's hashlib and base64.
        assert_eq!(
            challenge("a-verifier-of-the-realm~0123456789_ABCDEFGH"),
            "I2HNaVlVt7OPzNmFfFQgjOoU6gTUs3wn9kWecuZphJU"
        );
    }
}
