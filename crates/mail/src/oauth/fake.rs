//! A token endpoint on 127.0.0.1 for tests, here and in the application's:
//! it serves the device flow, code exchange with PKCE, and refreshes, and
//! can be told to shorten token lifetimes or revoke the grant.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;

use base64::Engine as _;
use sha2::{Digest, Sha256};

use super::Provider;
use super::form;

/// How the endpoint answers.
#[derive(Clone, Debug)]
pub struct Behaviour {
    /// The device flow's error answers, in order, before it hands out tokens.
    pub device_answers: Vec<&'static str>,
    /// Seconds a device code lives.
    pub device_expires_in: u64,
    /// Seconds an access token lives.
    pub expires_in: u64,
    /// Hand out a new refresh token at every refresh.
    pub rotate: bool,
}

impl Default for Behaviour {
    fn default() -> Behaviour {
        Behaviour {
            device_answers: Vec::new(),
            device_expires_in: 900,
            expires_in: 3600,
            rotate: false,
        }
    }
}

#[derive(Default)]
struct State {
    behaviour: Option<Behaviour>,
    device_polls: usize,
    issued: usize,
    refresh_tokens: BTreeSet<String>,
    access_tokens: BTreeSet<String>,
    /// Authorization codes with their PKCE challenge and redirect.
    codes: BTreeMap<String, (String, String)>,
    requests: Vec<BTreeMap<String, String>>,
}

/// A running endpoint; it serves until the test process ends.
pub struct TokenServer {
    port: u16,
    state: Arc<Mutex<State>>,
}

impl TokenServer {
    pub fn start(behaviour: Behaviour) -> TokenServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(Mutex::new(State {
            behaviour: Some(behaviour),
            ..State::default()
        }));
        let shared = Arc::clone(&state);
        thread::spawn(move || {
            for socket in listener.incoming().flatten() {
                answer(socket, port, &shared);
            }
        });
        TokenServer { port, state }
    }

    /// The endpoints, with the scopes `mail` and `offline_access`.
    pub fn provider(&self) -> Provider {
        let base = format!("http://127.0.0.1:{}", self.port);
        Provider {
            authorization_url: format!("{base}/authorize"),
            token_url: format!("{base}/token"),
            device_url: Some(format!("{base}/device")),
            scopes: vec!["mail".to_string(), "offline_access".to_string()],
            authorization_extras: Vec::new(),
        }
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap()
    }

    /// The GM approves in the browser: a code for this challenge and
    /// redirect.
    pub fn approve(&self, challenge: &str, redirect_uri: &str) -> String {
        let mut state = self.state();
        let code = format!("code-{}", state.codes.len() + 1);
        state.codes.insert(
            code.clone(),
            (challenge.to_string(), redirect_uri.to_string()),
        );
        code
    }

    /// Access tokens handed out from now on live this many seconds.
    pub fn set_expires_in(&self, seconds: u64) {
        if let Some(behaviour) = self.state().behaviour.as_mut() {
            behaviour.expires_in = seconds;
        }
    }

    /// The GM revokes the grant: every refresh token stops working.
    pub fn revoke(&self) {
        self.state().refresh_tokens.clear();
    }

    /// Whether `token` is an access token this endpoint handed out.
    pub fn knows_access_token(&self, token: &str) -> bool {
        self.state().access_tokens.contains(token)
    }

    /// Every request's form fields, with `path` beside them.
    pub fn requests(&self) -> Vec<BTreeMap<String, String>> {
        self.state().requests.clone()
    }

    /// How many refreshes were asked.
    pub fn refreshes(&self) -> usize {
        self.requests()
            .iter()
            .filter(|r| r.get("grant_type").is_some_and(|g| g == "refresh_token"))
            .count()
    }
}

fn answer(socket: TcpStream, port: u16, state: &Mutex<State>) {
    let mut reader = BufReader::new(socket.try_clone().unwrap());
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    let mut length = 0;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).unwrap_or(0) == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0u8; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let path = request_line
        .split_whitespace()
        .nth(1)
        .unwrap_or("/")
        .to_string();
    let mut fields: BTreeMap<String, String> = form::pairs(&String::from_utf8_lossy(&body))
        .into_iter()
        .collect();
    fields.insert("path".to_string(), path.clone());
    let (status, json) = {
        let mut state = state.lock().unwrap();
        state.requests.push(fields.clone());
        respond(&mut state, port, &path, &fields)
    };
    let text = json.to_string();
    let mut socket = socket;
    let _ = write!(
        socket,
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{text}",
        text.len()
    );
}

fn error(code: &str) -> (u16, serde_json::Value) {
    (
        400,
        serde_json::json!({ "error": code, "error_description": format!("test endpoint: {code}") }),
    )
}

fn respond(
    state: &mut State,
    port: u16,
    path: &str,
    fields: &BTreeMap<String, String>,
) -> (u16, serde_json::Value) {
    let behaviour = state.behaviour.clone().unwrap_or_default();
    let field = |key: &str| fields.get(key).map(String::as_str).unwrap_or_default();
    if path == "/device" {
        return (
            200,
            serde_json::json!({
                "device_code": "device-1",
                "user_code": "WDJB-MJHT",
                "verification_uri": format!("http://127.0.0.1:{port}/approve"),
                "expires_in": behaviour.device_expires_in,
                "interval": 1,
            }),
        );
    }
    if path != "/token" {
        return (404, serde_json::json!({ "error": "not_found" }));
    }
    let mut new_refresh = true;
    match field("grant_type") {
        "urn:ietf:params:oauth:grant-type:device_code" => {
            if field("device_code") != "device-1" {
                return error("invalid_grant");
            }
            let poll = state.device_polls;
            state.device_polls += 1;
            if let Some(answer) = behaviour.device_answers.get(poll) {
                return error(answer);
            }
        }
        "authorization_code" => {
            let Some((challenge, redirect)) = state.codes.remove(field("code")) else {
                return error("invalid_grant");
            };
            let proof = base64::engine::general_purpose::URL_SAFE_NO_PAD
                .encode(Sha256::digest(field("code_verifier").as_bytes()));
            if proof != challenge || redirect != field("redirect_uri") {
                return error("invalid_grant");
            }
        }
        "refresh_token" => {
            if !state.refresh_tokens.contains(field("refresh_token")) {
                return error("invalid_grant");
            }
            new_refresh = behaviour.rotate;
            if new_refresh {
                state.refresh_tokens.remove(field("refresh_token"));
            }
        }
        _ => return error("unsupported_grant_type"),
    }
    state.issued += 1;
    let access = format!("access-{}", state.issued);
    state.access_tokens.insert(access.clone());
    let mut json = serde_json::json!({
        "access_token": access,
        "token_type": "Bearer",
        "expires_in": behaviour.expires_in,
    });
    if new_refresh {
        let refresh = format!("refresh-{}", state.issued);
        state.refresh_tokens.insert(refresh.clone());
        json["refresh_token"] = serde_json::Value::String(refresh);
    }
    (200, json)
}
