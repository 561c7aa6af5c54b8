//! An SMTP server on 127.0.0.1 for tests, here and in the application's:
//! it offers only AUTH XOAUTH2, accepts the access tokens a check allows,
//! refuses others as Gmail does (a `334` carrying the reason as JSON), and
//! keeps every message it was given.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;

use base64::Engine as _;

/// Which access tokens the server accepts.
pub type TokenCheck = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// What the server saw.
#[derive(Clone, Debug, Default)]
pub struct Seen {
    /// Every message's data, as sent.
    pub messages: Vec<String>,
    /// Each AUTH's access token, accepted or not.
    pub tokens: Vec<String>,
}

/// A running server; it serves until the test process ends.
pub struct FakeSmtp {
    pub port: u16,
    seen: Arc<Mutex<Seen>>,
}

impl FakeSmtp {
    pub fn start(accept: TokenCheck) -> FakeSmtp {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Seen::default()));
        let shared = Arc::clone(&seen);
        thread::spawn(move || {
            for socket in listener.incoming().flatten() {
                session(socket, &accept, &shared);
            }
        });
        FakeSmtp { port, seen }
    }

    pub fn seen(&self) -> Seen {
        self.seen.lock().unwrap().clone()
    }
}

fn session(socket: TcpStream, accept: &TokenCheck, seen: &Mutex<Seen>) {
    let mut reader = BufReader::new(socket.try_clone().unwrap());
    let mut out = socket;
    let mut say = |text: &str| out.write_all(format!("{text}\r\n").as_bytes()).is_ok();
    if !say("220 fake ESMTP") {
        return;
    }
    let mut authenticated = false;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let line = line.trim_end();
        let verb = line
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_ascii_uppercase();
        let ok = match verb.as_str() {
            "EHLO" => say("250-fake\r\n250 AUTH XOAUTH2"),
            "AUTH" => {
                let response = line.split_whitespace().nth(2).unwrap_or_default();
                let decoded = base64::engine::general_purpose::STANDARD
                    .decode(response)
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
                    .unwrap_or_default();
                let token = decoded
                    .split('\x01')
                    .find_map(|part| part.strip_prefix("auth=Bearer "))
                    .unwrap_or_default()
                    .to_string();
                seen.lock().unwrap().tokens.push(token.clone());
                if accept(&token) {
                    authenticated = true;
                    say("235 2.7.0 Accepted")
                } else {
                    let reason = base64::engine::general_purpose::STANDARD
                        .encode(r#"{"status":"401","schemes":"bearer"}"#);
                    say(&format!("334 {reason}"))
                }
            }
            "MAIL" if !authenticated => say("530 5.7.0 Authentication required"),
            "MAIL" | "RCPT" | "RSET" | "NOOP" => say("250 OK"),
            "DATA" => {
                if !say("354 go on") {
                    return;
                }
                let mut data = String::new();
                loop {
                    let mut part = String::new();
                    if reader.read_line(&mut part).unwrap_or(0) == 0 {
                        return;
                    }
                    if part == ".\r\n" {
                        break;
                    }
                    data.push_str(&part);
                }
                seen.lock().unwrap().messages.push(data);
                say("250 2.0.0 queued")
            }
            "QUIT" => {
                say("221 bye");
                return;
            }
            // The empty answer to a refused token's 334.
            _ => say("535 5.7.8 Username and Password not accepted"),
        };
        if !ok {
            return;
        }
    }
}
