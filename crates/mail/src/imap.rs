//! A small synchronous IMAP4rev1 client (RFC 3501) for polling the GM
//! mailbox: LOGIN, SELECT, UID SEARCH UNSEEN, UID FETCH of a message's size
//! and its first bytes, and UID STORE +FLAGS (\Seen), over implicit TLS,
//! STARTTLS or plain TCP (the last only for a server on this machine).
//!
//! Written here rather than taken from crates.io: the stable `imap` 2.x
//! supports TLS only through native-tls/OpenSSL, and `imap` 3 has been an
//! alpha for years; `async-imap` needs an async runtime. These five commands
//! over rustls (already in the tree through lettre) are a few hundred lines.
//! Fetching uses BODY.PEEK so nothing is marked read until the daemon has
//! stored the mail and calls [`ImapClient::mark_seen`]
//! (reference pbem-practice.md §4 idea 2). However large a message or a
//! literal the server sends, no more than the bytes the caller asked for
//! are held: the rest is read and dropped.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rustls::pki_types::ServerName;
use rustls::{ClientConnection, StreamOwned};

use crate::transport::{Mechanism, Security};

/// The longest response line accepted outside literals, and the most kept
/// of a literal in any reply but a fetched message's.
const MAX_LINE_BYTES: usize = 1024 * 1024;

/// Where and how to connect.
#[derive(Clone, PartialEq, Eq)]
pub struct ImapSettings {
    pub host: String,
    pub port: u16,
    pub security: Security,
    pub username: String,
    /// The password, or with [`Mechanism::XOAuth2`] the access token.
    pub password: String,
    pub mechanism: Mechanism,
    /// Read/write timeout for every network operation.
    pub timeout: Duration,
    /// An extra CA certificate file (PEM) to trust beside the web roots.
    pub ca_file: Option<PathBuf>,
}

/// Never shows the password or access token.
impl std::fmt::Debug for ImapSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImapSettings")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("username", &self.username)
            .field("mechanism", &self.mechanism)
            .finish_non_exhaustive()
    }
}

/// What SELECT reported about a folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FolderStatus {
    pub exists: u32,
    /// UIDs are only comparable across sessions while this stays the same.
    pub uid_validity: Option<u32>,
}

/// The start of one message, as [`ImapClient::fetch`] returns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fetched {
    /// The message's first bytes: all of it when it is no longer than asked.
    pub head: Vec<u8>,
    /// How many bytes the whole message has (`head.len()` when it is whole).
    pub size: usize,
}

/// How a wait in IDLE ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdleEnd {
    /// The server reported a message arrived in the folder.
    NewMail,
    /// The wait reached its longest, with nothing new.
    TimeUp,
    /// The caller asked it to stop.
    Stopped,
}

/// An IMAP failure.
#[derive(Debug, thiserror::Error)]
pub enum ImapError {
    #[error(
        "cannot reach IMAP server {host}:{port}: {source}; check host, port and that the server runs"
    )]
    Connect {
        host: String,
        port: u16,
        source: io::Error,
    },
    #[error("IMAP TLS failure: {0}")]
    Tls(String),
    #[error("IMAP connection failed: {0}")]
    Io(#[from] io::Error),
    #[error("the IMAP server refused {command}: {reply}")]
    Refused { command: String, reply: String },
    #[error("unexpected reply from the IMAP server: {0}")]
    Protocol(String),
    #[error(
        "the IMAP server offers no XOAUTH2 sign-in (it offers: {offered}); use auth = \"password\" \
         for it, or check host and port"
    )]
    NoXOAuth2 { offered: String },
    #[error(
        "the IMAP server refused the OAuth access token: {reply}{detail}; check mail.imap.user is \
         the account that consented, or sign in again with `realmgm mail login --campaign C`"
    )]
    TokenRefused { reply: String, detail: String },
    #[error("no message came back for UID {uid}; it may have been deleted meanwhile")]
    NoMessage { uid: u32 },
}

impl ImapError {
    /// True when the failure concerns one message and the session is still
    /// in step with the server, so the next command can go on: the server
    /// refused the command, or had no such message.
    pub fn leaves_session_usable(&self) -> bool {
        matches!(
            self,
            ImapError::Refused { .. } | ImapError::NoMessage { .. }
        )
    }
}

enum Stream {
    Plain(TcpStream),
    Tls(Box<StreamOwned<ClientConnection, TcpStream>>),
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(s) => s.read(buf),
            Stream::Tls(s) => s.read(buf),
        }
    }
}

impl Stream {
    /// The connection under the TLS, whose read timeout is the client's.
    fn socket(&self) -> &TcpStream {
        match self {
            Stream::Plain(s) => s,
            Stream::Tls(s) => s.get_ref(),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(s) => s.write(buf),
            Stream::Tls(s) => s.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Plain(s) => s.flush(),
            Stream::Tls(s) => s.flush(),
        }
    }
}

/// One response line with its literals: `text` holds the line with each
/// literal replaced by `{n}`, `literals` the literals in order.
#[derive(Debug, Default)]
struct ResponseLine {
    text: String,
    literals: Vec<Literal>,
}

/// A literal as read: its first bytes, up to what was wanted, and the
/// length the server announced.
#[derive(Debug)]
struct Literal {
    kept: Vec<u8>,
    length: usize,
}

/// A logged-in IMAP session.
pub struct ImapClient {
    stream: Stream,
    buffer: Vec<u8>,
    next_tag: u32,
}

impl ImapClient {
    /// Connect, secure the connection as configured, and log in.
    ///
    /// # Errors
    /// [`ImapError`] naming the step that failed.
    pub fn connect(settings: &ImapSettings) -> Result<ImapClient, ImapError> {
        ImapClient::open(settings).map_err(|error| match settings.security {
            Security::None => error,
            Security::Tls | Security::StartTls => tls_failure(error),
        })
    }

    fn open(settings: &ImapSettings) -> Result<ImapClient, ImapError> {
        let tcp =
            TcpStream::connect((settings.host.as_str(), settings.port)).map_err(|source| {
                ImapError::Connect {
                    host: settings.host.clone(),
                    port: settings.port,
                    source,
                }
            })?;
        tcp.set_read_timeout(Some(settings.timeout))?;
        tcp.set_write_timeout(Some(settings.timeout))?;
        let stream = match settings.security {
            Security::Tls => Stream::Tls(Box::new(tls_stream(settings, tcp)?)),
            Security::StartTls | Security::None => Stream::Plain(tcp),
        };
        let mut client = ImapClient {
            stream,
            buffer: Vec::new(),
            next_tag: 1,
        };
        let greeting = client.read_line(MAX_LINE_BYTES)?;
        if !greeting.text.starts_with("* OK") && !greeting.text.starts_with("* PREAUTH") {
            return Err(ImapError::Protocol(format!(
                "greeting was '{}'",
                greeting.text
            )));
        }
        if settings.security == Security::StartTls {
            client.command("STARTTLS")?;
            if !client.buffer.is_empty() {
                // Bytes sent before the handshake could be an injection attack.
                return Err(ImapError::Tls(
                    "the server sent data before the STARTTLS handshake".to_string(),
                ));
            }
            let Stream::Plain(tcp) = client.stream else {
                return Err(ImapError::Tls("STARTTLS on a TLS stream".to_string()));
            };
            client.stream = Stream::Tls(Box::new(tls_stream(settings, tcp)?));
        }
        match settings.mechanism {
            Mechanism::Password => {
                let login = format!(
                    "LOGIN {} {}",
                    quote(&settings.username),
                    quote(&settings.password)
                );
                client
                    .command(&login)
                    .map_err(|e| hide_password(e, &settings.password))?;
            }
            Mechanism::XOAuth2 => client.authenticate_xoauth2(settings)?,
        }
        Ok(client)
    }

    /// SASL XOAUTH2 (RFC 3501 AUTHENTICATE, RFC 4959 SASL-IR where the
    /// server offers it). A refused token comes back as a continuation
    /// holding the server's JSON reason, which must be answered with an
    /// empty line before the tagged NO arrives.
    fn authenticate_xoauth2(&mut self, settings: &ImapSettings) -> Result<(), ImapError> {
        let capabilities: Vec<String> = self
            .command("CAPABILITY")?
            .iter()
            .filter_map(|line| line.text.strip_prefix("* CAPABILITY"))
            .flat_map(|rest| rest.split_whitespace().map(str::to_ascii_uppercase))
            .collect();
        let offers = |name: &str| capabilities.iter().any(|c| c == name);
        if !offers("AUTH=XOAUTH2") {
            let offered: Vec<&str> = capabilities
                .iter()
                .filter(|c| c.starts_with("AUTH=") || *c == "LOGINDISABLED")
                .map(String::as_str)
                .collect();
            return Err(ImapError::NoXOAuth2 {
                offered: if offered.is_empty() {
                    "no SASL mechanism".to_string()
                } else {
                    offered.join(" ")
                },
            });
        }
        let response = crate::oauth::xoauth2(&settings.username, &settings.password);
        let tag = format!("A{:04}", self.next_tag);
        self.next_tag += 1;
        let mut sent = offers("SASL-IR");
        let first = if sent {
            format!("{tag} AUTHENTICATE XOAUTH2 {response}\r\n")
        } else {
            format!("{tag} AUTHENTICATE XOAUTH2\r\n")
        };
        self.stream.write_all(first.as_bytes())?;
        self.stream.flush()?;
        let mut detail = String::new();
        loop {
            let line = self.read_line(MAX_LINE_BYTES)?;
            if let Some(challenge) = line.text.strip_prefix('+') {
                let answer = if sent {
                    // The server's reason as JSON: answered empty, as
                    // the mechanism asks, to get the tagged NO.
                    detail = format!("; the server said {}", decoded(challenge.trim()));
                    String::new()
                } else {
                    sent = true;
                    response.clone()
                };
                self.stream.write_all(format!("{answer}\r\n").as_bytes())?;
                self.stream.flush()?;
                continue;
            }
            if let Some(rest) = line.text.strip_prefix(&tag) {
                let rest = rest.trim_start();
                if rest.len() >= 2 && rest[..2].eq_ignore_ascii_case("OK") {
                    return Ok(());
                }
                return Err(ImapError::TokenRefused {
                    reply: rest.replace(&settings.password, "********"),
                    detail,
                });
            }
            if line.text.starts_with("* BYE") {
                return Err(ImapError::Protocol(format!(
                    "the server closed the session: {}",
                    line.text
                )));
            }
        }
    }

    /// Select a folder (e.g. `INBOX`).
    ///
    /// # Errors
    /// [`ImapError::Refused`] when the folder does not exist.
    pub fn select(&mut self, folder: &str) -> Result<FolderStatus, ImapError> {
        let lines = self.command(&format!("SELECT {}", quote(folder)))?;
        let mut status = FolderStatus {
            exists: 0,
            uid_validity: None,
        };
        for line in &lines {
            let words: Vec<&str> = line.text.split_whitespace().collect();
            if words.len() >= 3 && words[2].eq_ignore_ascii_case("EXISTS") {
                status.exists = words[1].parse().unwrap_or(0);
            }
            if let Some(at) = line.text.to_ascii_uppercase().find("[UIDVALIDITY ") {
                let rest = &line.text[at + "[UIDVALIDITY ".len()..];
                status.uid_validity = rest.split(']').next().and_then(|n| n.trim().parse().ok());
            }
        }
        Ok(status)
    }

    /// UIDs of the unseen messages in the selected folder, ascending.
    ///
    /// # Errors
    /// [`ImapError`] when the search fails.
    pub fn search_unseen(&mut self) -> Result<Vec<u32>, ImapError> {
        self.search("UNSEEN")
    }

    /// UIDs of every message in the selected folder, ascending (a re-scan
    /// after the folder's UIDVALIDITY changed).
    ///
    /// # Errors
    /// [`ImapError`] when the search fails.
    pub fn search_all(&mut self) -> Result<Vec<u32>, ImapError> {
        self.search("ALL")
    }

    fn search(&mut self, criteria: &str) -> Result<Vec<u32>, ImapError> {
        let lines = self.command(&format!("UID SEARCH {criteria}"))?;
        let mut uids: Vec<u32> = lines
            .iter()
            .filter_map(|l| l.text.strip_prefix("* SEARCH"))
            .flat_map(|rest| rest.split_whitespace().filter_map(|n| n.parse().ok()))
            .collect();
        uids.sort_unstable();
        uids.dedup();
        Ok(uids)
    }

    /// The first `keep` bytes of one message and its whole size, without
    /// marking it seen. Only those bytes are asked for (a partial fetch,
    /// RFC 3501 §6.4.5); a server that sends more anyway costs no more
    /// memory, its extra bytes are read and dropped.
    ///
    /// # Errors
    /// [`ImapError::NoMessage`] when the server returns no body for the UID
    /// (e.g. it was expunged meanwhile).
    pub fn fetch(&mut self, uid: u32, keep: usize) -> Result<Fetched, ImapError> {
        let lines = self.command_keeping(
            &format!("UID FETCH {uid} (RFC822.SIZE BODY.PEEK[]<0.{keep}>)"),
            keep,
        )?;
        for line in lines {
            let upper = line.text.to_ascii_uppercase();
            if line.text.starts_with("* ")
                && upper.contains("FETCH")
                && upper.contains("BODY[]")
                && let Some(body) = line.literals.into_iter().next()
            {
                // The announced size counts only when the body was cut: a
                // server's RFC822.SIZE may differ a little from the bytes
                // it sends, and a whole mail must not look cut.
                let size = if body.length < keep {
                    body.length
                } else {
                    body.length.max(rfc822_size(&upper).unwrap_or(0))
                };
                return Ok(Fetched {
                    head: body.kept,
                    size,
                });
            }
        }
        Err(ImapError::NoMessage { uid })
    }

    /// Mark one message seen, after it has been stored.
    ///
    /// # Errors
    /// [`ImapError`] when the server refuses.
    pub fn mark_seen(&mut self, uid: u32) -> Result<(), ImapError> {
        self.command(&format!("UID STORE {uid} +FLAGS.SILENT (\\Seen)"))?;
        Ok(())
    }

    /// Log out politely; errors are irrelevant at this point.
    pub fn logout(mut self) {
        let _ = self.command("LOGOUT");
    }

    /// Send one tagged command and collect the untagged lines until its
    /// tagged completion. NO or BAD becomes [`ImapError::Refused`].
    fn command(&mut self, command: &str) -> Result<Vec<ResponseLine>, ImapError> {
        self.command_keeping(command, MAX_LINE_BYTES)
    }

    /// [`ImapClient::command`], keeping at most `keep` bytes of each literal
    /// in the reply.
    fn command_keeping(
        &mut self,
        command: &str,
        keep: usize,
    ) -> Result<Vec<ResponseLine>, ImapError> {
        let tag = self.tag();
        self.stream
            .write_all(format!("{tag} {command}\r\n").as_bytes())?;
        self.stream.flush()?;
        let mut untagged = Vec::new();
        loop {
            let line = self.read_line(keep)?;
            if let Some(rest) = line.text.strip_prefix(&tag) {
                let rest = rest.trim_start();
                let verb = command_name(command);
                if rest.len() >= 2 && rest[..2].eq_ignore_ascii_case("OK") {
                    return Ok(untagged);
                }
                return Err(ImapError::Refused {
                    command: verb.to_string(),
                    reply: rest.to_string(),
                });
            }
            if line.text.starts_with("* BYE") && !command.eq_ignore_ascii_case("LOGOUT") {
                return Err(ImapError::Protocol(format!(
                    "the server closed the session: {}",
                    line.text
                )));
            }
            untagged.push(line);
        }
    }

    /// The tag of the next command.
    fn tag(&mut self) -> String {
        let tag = format!("A{:04}", self.next_tag);
        self.next_tag += 1;
        tag
    }

    /// Whether the server offers IDLE (RFC 2177), by its CAPABILITY.
    ///
    /// # Errors
    /// [`ImapError`] when the command fails.
    pub fn offers_idle(&mut self) -> Result<bool, ImapError> {
        let lines = self.command("CAPABILITY")?;
        Ok(lines.iter().any(|line| {
            line.text.strip_prefix("* CAPABILITY").is_some_and(|caps| {
                caps.split_whitespace()
                    .any(|c| c.eq_ignore_ascii_case("IDLE"))
            })
        }))
    }

    /// Wait in IDLE (RFC 2177) on the selected folder until the server says
    /// a message arrived (`EXISTS`), `longest` has passed or `stop` says so,
    /// then end it with DONE. `stop` is asked every `tick`, the longest
    /// the connection is read without a look at it.
    ///
    /// # Errors
    /// [`ImapError`] when the server refuses IDLE, closes the session or
    /// the connection fails.
    pub fn idle(
        &mut self,
        longest: Duration,
        tick: Duration,
        stop: &dyn Fn() -> bool,
    ) -> Result<IdleEnd, ImapError> {
        let tag = self.tag();
        self.stream
            .write_all(format!("{tag} IDLE\r\n").as_bytes())?;
        self.stream.flush()?;
        let mut end = None;
        loop {
            let line = self.read_line(MAX_LINE_BYTES)?;
            if line.text.starts_with('+') {
                break;
            }
            if let Some(rest) = line.text.strip_prefix(&tag) {
                return Err(ImapError::Refused {
                    command: "IDLE".to_string(),
                    reply: rest.trim_start().to_string(),
                });
            }
            end = end.or(untagged_news(&line.text)?);
        }
        let normal = self.stream.socket().read_timeout()?;
        self.stream.socket().set_read_timeout(Some(tick))?;
        let started = Instant::now();
        let waited = loop {
            if let Some(end) = end {
                break Ok(end);
            }
            if stop() {
                break Ok(IdleEnd::Stopped);
            }
            if started.elapsed() >= longest {
                break Ok(IdleEnd::TimeUp);
            }
            match self.read_line(MAX_LINE_BYTES) {
                Ok(line) => match untagged_news(&line.text) {
                    Ok(news) => end = news,
                    Err(error) => break Err(error),
                },
                Err(ImapError::Io(error))
                    if matches!(
                        error.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) => {}
                Err(error) => break Err(error),
            }
        };
        self.stream.socket().set_read_timeout(normal)?;
        let mut end = waited?;
        self.stream.write_all(b"DONE\r\n")?;
        self.stream.flush()?;
        loop {
            let line = self.read_line(MAX_LINE_BYTES)?;
            if let Some(rest) = line.text.strip_prefix(&tag) {
                let rest = rest.trim_start();
                if rest.len() >= 2 && rest[..2].eq_ignore_ascii_case("OK") {
                    return Ok(end);
                }
                return Err(ImapError::Refused {
                    command: "IDLE".to_string(),
                    reply: rest.to_string(),
                });
            }
            // Mail that came between the last look and DONE counts too.
            if let Some(news) = untagged_news(&line.text)? {
                end = news;
            }
        }
    }

    /// Read one response line, following literals (`{n}\r\n` + n bytes),
    /// of which at most `keep` bytes each are kept.
    fn read_line(&mut self, keep: usize) -> Result<ResponseLine, ImapError> {
        let mut response = ResponseLine::default();
        loop {
            let raw = self.read_crlf_line()?;
            let text = String::from_utf8_lossy(&raw).into_owned();
            match literal_length(&text) {
                Some(length) => {
                    response.text.push_str(&text);
                    let kept = self.read_literal(length, keep)?;
                    response.literals.push(Literal { kept, length });
                }
                None => {
                    response.text.push_str(&text);
                    return Ok(response);
                }
            }
        }
    }

    fn fill(&mut self) -> Result<(), ImapError> {
        let mut chunk = [0u8; 16 * 1024];
        let n = self.stream.read(&mut chunk)?;
        if n == 0 {
            return Err(ImapError::Protocol(
                "the server closed the connection".to_string(),
            ));
        }
        self.buffer.extend_from_slice(&chunk[..n]);
        Ok(())
    }

    fn read_crlf_line(&mut self) -> Result<Vec<u8>, ImapError> {
        loop {
            if let Some(end) = self.buffer.windows(2).position(|w| w == b"\r\n") {
                let line = self.buffer[..end].to_vec();
                self.buffer.drain(..end + 2);
                return Ok(line);
            }
            if self.buffer.len() > MAX_LINE_BYTES {
                return Err(ImapError::Protocol(
                    "a response line is longer than 1 MiB".to_string(),
                ));
            }
            self.fill()?;
        }
    }

    /// Read a literal of `length` bytes, keeping its first `keep`: the rest
    /// passes through the read buffer a chunk at a time and is dropped.
    fn read_literal(&mut self, length: usize, keep: usize) -> Result<Vec<u8>, ImapError> {
        let mut kept = Vec::with_capacity(length.min(keep));
        let mut left = length;
        while left > 0 {
            if self.buffer.is_empty() {
                self.fill()?;
            }
            let here = left.min(self.buffer.len());
            let wanted = here.min(keep - kept.len());
            kept.extend_from_slice(&self.buffer[..wanted]);
            self.buffer.drain(..here);
            left -= here;
        }
        Ok(kept)
    }
}

/// What an untagged line in IDLE means: new mail when it reports a
/// message count (`* n EXISTS`), an error when the server ends the session (`* BYE`).
fn untagged_news(line: &str) -> Result<Option<IdleEnd>, ImapError> {
    if line.starts_with("* BYE") {
        return Err(ImapError::Protocol(format!(
            "the server closed the session: {line}"
        )));
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let counted = words.len() >= 3
        && words[0] == "*"
        && words[1].parse::<u32>().is_ok()
        && words[2].eq_ignore_ascii_case("EXISTS");
    Ok(counted.then_some(IdleEnd::NewMail))
}

/// The command's name as an error names it: `UID FETCH`, `LOGIN`.
fn command_name(command: &str) -> String {
    let mut words = command.split_whitespace();
    match (words.next(), words.next()) {
        (Some(uid), Some(name)) if uid.eq_ignore_ascii_case("UID") => format!("{uid} {name}"),
        (Some(name), _) => name.to_string(),
        (None, _) => command.to_string(),
    }
}

/// The `RFC822.SIZE n` item of an (upper-cased) FETCH response.
fn rfc822_size(upper: &str) -> Option<usize> {
    let at = upper.find("RFC822.SIZE ")?;
    upper[at + "RFC822.SIZE ".len()..]
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// `n` when a line ends with a literal announcement `{n}`.
fn literal_length(line: &str) -> Option<usize> {
    let open = line.strip_suffix('}')?.rfind('{')?;
    line[open + 1..line.len() - 1].parse().ok()
}

/// An IMAP quoted string.
fn quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        if c == '"' || c == '\\' {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted.push('"');
    quoted
}

/// A base64 continuation as text (the JSON of a refused XOAUTH2 token); as
/// sent when it is not base64.
fn decoded(challenge: &str) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(challenge)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_else(|_| challenge.to_string())
}

/// Never let a password reach a log through an error message.
fn hide_password(error: ImapError, password: &str) -> ImapError {
    match error {
        ImapError::Refused { command, reply } if !password.is_empty() => ImapError::Refused {
            command,
            reply: reply.replace(password, "********"),
        },
        other => other,
    }
}

fn tls_stream(
    settings: &ImapSettings,
    tcp: TcpStream,
) -> Result<StreamOwned<ClientConnection, TcpStream>, ImapError> {
    let host = &settings.host;
    let config = crate::tls::client_config(settings.ca_file.as_deref())
        .map_err(|e| ImapError::Tls(e.to_string()))?;
    let name = ServerName::try_from(host.to_string())
        .map_err(|e| ImapError::Tls(format!("'{host}' is not a valid server name: {e}")))?;
    let connection =
        ClientConnection::new(config, name).map_err(|e| ImapError::Tls(e.to_string()))?;
    Ok(StreamOwned::new(connection, tcp))
}

/// A failed TLS handshake surfaces as an I/O error around a rustls error:
/// name it as a TLS failure, with the advice for it.
fn tls_failure(error: ImapError) -> ImapError {
    match error {
        ImapError::Io(io) => {
            match io
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<rustls::Error>())
            {
                Some(tls) => ImapError::Tls(crate::tls::explain(&tls.to_string())),
                None => ImapError::Io(io),
            }
        }
        ImapError::Tls(message) => ImapError::Tls(crate::tls::explain(&message)),
        other => other,
    }
}

/// A scripted IMAP server for tests, here and in the daemon's: one session
/// per script, each command answered by its script line.
#[cfg(any(test, feature = "test-support"))]
pub mod fake {
    use std::io::{BufRead, BufReader, Write};
    use std::net::{TcpListener, TcpStream};
    use std::sync::{Arc, Mutex};
    use std::thread;

    /// Serve `sessions` in turn on a free local port: in each, every
    /// command must start with the line's prefix and gets its reply (`TAG`
    /// standing for the command's tag). Returns the port and a handle that
    /// yields every command received.
    pub fn serve(
        sessions: Vec<Vec<(&'static str, Vec<u8>)>>,
    ) -> (u16, thread::JoinHandle<Vec<String>>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        (port, serve_on(listener, sessions))
    }

    /// [`serve`] on a listener the test bound before it knew the scripts
    /// (its port written in a campaign file first).
    pub fn serve_on(
        listener: TcpListener,
        sessions: Vec<Vec<(&'static str, Vec<u8>)>>,
    ) -> thread::JoinHandle<Vec<String>> {
        thread::spawn(move || {
            let mut seen = Vec::new();
            for script in sessions {
                let (mut socket, _) = listener.accept().unwrap();
                socket.write_all(b"* OK fake IMAP ready\r\n").unwrap();
                let mut reader = BufReader::new(socket.try_clone().unwrap());
                // A line with no space answers a continuation (`+`): it
                // belongs to the last tagged command, whose tag `TAG` names.
                let mut tag = String::new();
                for (expected, reply) in script {
                    let mut line = String::new();
                    reader.read_line(&mut line).unwrap();
                    let line = line.trim_end();
                    let command = match line.split_once(' ') {
                        Some((tagged, command)) => {
                            tag = tagged.to_string();
                            command
                        }
                        None => line,
                    };
                    assert!(
                        command.starts_with(expected),
                        "got '{command}', expected '{expected}'"
                    );
                    seen.push(command.to_string());
                    let reply = String::from_utf8_lossy(&reply).replace("TAG", &tag);
                    socket.write_all(reply.as_bytes()).unwrap();
                }
            }
            seen
        })
    }

    /// A fake IMAP mailbox that keeps its messages and serves any number
    /// of sessions at once, for the daemon's tests: LOGIN, CAPABILITY,
    /// SELECT, UID SEARCH, UID FETCH, UID STORE, LOGOUT, and IDLE when it
    /// offers it. A message delivered while a session waits in IDLE is
    /// reported to it at once (`* n EXISTS`).
    #[derive(Clone)]
    pub struct Mailbox {
        port: u16,
        state: Arc<Mutex<State>>,
    }

    #[derive(Default)]
    struct State {
        offers_idle: bool,
        /// (UID, message, seen), by UID.
        messages: Vec<(u32, Vec<u8>, bool)>,
        /// The sessions waiting in IDLE, by session number.
        idlers: Vec<(usize, TcpStream)>,
        /// How many sessions were opened.
        sessions: usize,
        /// Every open session, to cut them all.
        open: Vec<TcpStream>,
        /// Every command received, without its tag.
        commands: Vec<String>,
        /// While set, new connections are refused (closed at once).
        refusing: bool,
    }

    impl Mailbox {
        /// Start serving on a free local port, offering IDLE or not.
        pub fn start(offers_idle: bool) -> Mailbox {
            let listener = TcpListener::bind("127.0.0.1:0").unwrap();
            let port = listener.local_addr().unwrap().port();
            let state = Arc::new(Mutex::new(State {
                offers_idle,
                ..State::default()
            }));
            let shared = Arc::clone(&state);
            thread::spawn(move || {
                for socket in listener.incoming().flatten() {
                    if shared.lock().unwrap().refusing {
                        continue;
                    }
                    let state = Arc::clone(&shared);
                    thread::spawn(move || {
                        // A session cut by the test ends with a write or
                        // read error, which is all it needs to do.
                        let _ = session(&state, socket);
                    });
                }
            });
            Mailbox { port, state }
        }

        pub fn port(&self) -> u16 {
            self.port
        }

        /// Add a message, unseen, and tell every session in IDLE.
        pub fn deliver(&self, raw: &[u8]) {
            let mut state = self.state.lock().unwrap();
            let uid = state.messages.last().map_or(1, |m| m.0 + 1);
            state.messages.push((uid, raw.to_vec(), false));
            let exists = format!("* {} EXISTS\r\n", state.messages.len());
            state
                .idlers
                .retain_mut(|(_, idler)| idler.write_all(exists.as_bytes()).is_ok());
        }

        /// Every command received so far, without tags.
        pub fn commands(&self) -> Vec<String> {
            self.state.lock().unwrap().commands.clone()
        }

        /// How many sessions wait in IDLE now.
        pub fn idling(&self) -> usize {
            self.state.lock().unwrap().idlers.len()
        }

        /// Cut every open session, and refuse new ones until
        /// [`Mailbox::accept`]: the server went away.
        pub fn cut(&self) {
            let mut state = self.state.lock().unwrap();
            state.refusing = true;
            for socket in state.open.drain(..) {
                let _ = socket.shutdown(std::net::Shutdown::Both);
            }
            state.idlers.clear();
        }

        /// Take sessions again after [`Mailbox::cut`].
        pub fn accept(&self) {
            self.state.lock().unwrap().refusing = false;
        }
    }

    fn session(state: &Mutex<State>, socket: TcpStream) -> std::io::Result<()> {
        let mut out = socket.try_clone()?;
        let id = {
            let mut held = state.lock().unwrap();
            held.open.push(socket.try_clone()?);
            held.sessions += 1;
            held.sessions
        };
        out.write_all(b"* OK fake IMAP ready\r\n")?;
        let mut reader = BufReader::new(socket);
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line)? == 0 {
                return Ok(());
            }
            let line = line.trim_end();
            let (tag, command) = line.split_once(' ').unwrap_or((line, ""));
            let upper = command.to_ascii_uppercase();
            let mut held = state.lock().unwrap();
            held.commands.push(command.to_string());
            let reply = if upper == "CAPABILITY" {
                let idle = if held.offers_idle { " IDLE" } else { "" };
                format!("* CAPABILITY IMAP4rev1{idle}\r\n{tag} OK done\r\n")
            } else if upper.starts_with("LOGIN") {
                format!("{tag} OK logged in\r\n")
            } else if upper.starts_with("SELECT") {
                format!(
                    "* {} EXISTS\r\n* OK [UIDVALIDITY 1] ok\r\n{tag} OK [READ-WRITE] done\r\n",
                    held.messages.len()
                )
            } else if upper.starts_with("UID SEARCH") {
                let all = upper.ends_with("ALL");
                let uids: Vec<String> = held
                    .messages
                    .iter()
                    .filter(|m| all || !m.2)
                    .map(|m| m.0.to_string())
                    .collect();
                format!("* SEARCH {}\r\n{tag} OK done\r\n", uids.join(" "))
            } else if let Some(rest) = upper.strip_prefix("UID FETCH ") {
                let uid: u32 = rest.split(' ').next().unwrap_or("").parse().unwrap_or(0);
                match held.messages.iter().position(|m| m.0 == uid) {
                    Some(at) => {
                        let body = String::from_utf8_lossy(&held.messages[at].1).into_owned();
                        format!(
                            "* {} FETCH (UID {uid} RFC822.SIZE {len} BODY[]<0> {{{len}}}\r\n\
                             {body})\r\n{tag} OK done\r\n",
                            at + 1,
                            len = body.len()
                        )
                    }
                    None => format!("{tag} OK nothing\r\n"),
                }
            } else if let Some(rest) = upper.strip_prefix("UID STORE ") {
                let uid: u32 = rest.split(' ').next().unwrap_or("").parse().unwrap_or(0);
                if let Some(message) = held.messages.iter_mut().find(|m| m.0 == uid) {
                    message.2 = true;
                }
                format!("{tag} OK done\r\n")
            } else if upper == "IDLE" && held.offers_idle {
                // Registered under the lock, so a delivery after the
                // continuation line is never missed.
                out.write_all(b"+ idling\r\n")?;
                held.idlers.push((id, out.try_clone()?));
                drop(held);
                let mut done = String::new();
                let read = reader.read_line(&mut done);
                let mut held = state.lock().unwrap();
                held.idlers.retain(|(idler, _)| *idler != id);
                if read? == 0 {
                    return Ok(());
                }
                held.commands.push(done.trim_end().to_string());
                format!("{tag} OK IDLE terminated\r\n")
            } else if upper == "LOGOUT" {
                out.write_all(format!("* BYE bye\r\n{tag} OK done\r\n").as_bytes())?;
                return Ok(());
            } else {
                format!("{tag} BAD unknown command\r\n")
            };
            out.write_all(reply.as_bytes())?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    fn settings(port: u16) -> ImapSettings {
        ImapSettings {
            host: "127.0.0.1".into(),
            port,
            security: Security::None,
            username: "gm@realmgm.test".into(),
            password: "p\"w".into(),
            mechanism: Mechanism::Password,
            timeout: Duration::from_secs(5),
            ca_file: None,
        }
    }

    #[test]
    fn login_select_search_fetch_store() {
        let message = "Subject: hi\r\n\r\nline {3}\r\n";
        let fetch = format!(
            "* 2 FETCH (UID 7 BODY[] {{{}}}\r\n{message})\r\nTAG OK done\r\n",
            message.len()
        );
        let (port, server) = fake::serve(vec![vec![
            ("LOGIN", b"TAG OK logged in\r\n".to_vec()),
            (
                "SELECT \"INBOX\"",
                b"* 3 EXISTS\r\n* OK [UIDVALIDITY 1234] ok\r\nTAG OK [READ-WRITE] done\r\n"
                    .to_vec(),
            ),
            (
                "UID SEARCH UNSEEN",
                b"* SEARCH 9 7\r\nTAG OK done\r\n".to_vec(),
            ),
            (
                "UID FETCH 7 (RFC822.SIZE BODY.PEEK[]<0.1000>)",
                fetch.into_bytes(),
            ),
            (
                "UID STORE 7 +FLAGS.SILENT (\\Seen)",
                b"TAG OK done\r\n".to_vec(),
            ),
            ("LOGOUT", b"* BYE bye\r\nTAG OK done\r\n".to_vec()),
        ]]);
        let mut client = ImapClient::connect(&settings(port)).unwrap();
        let status = client.select("INBOX").unwrap();
        assert_eq!(
            status,
            FolderStatus {
                exists: 3,
                uid_validity: Some(1234)
            }
        );
        assert_eq!(client.search_unseen().unwrap(), vec![7, 9]);
        assert_eq!(
            client.fetch(7, 1000).unwrap(),
            Fetched {
                head: message.as_bytes().to_vec(),
                size: message.len()
            }
        );
        client.mark_seen(7).unwrap();
        client.logout();
        let seen = server.join().unwrap();
        assert_eq!(seen[0], "LOGIN \"gm@realmgm.test\" \"p\\\"w\"");
    }

    #[test]
    fn refused_login_hides_the_password() {
        let (port, server) = fake::serve(vec![vec![(
            "LOGIN",
            b"TAG NO [AUTHENTICATIONFAILED] bad p\"w\r\n".to_vec(),
        )]]);
        let err = ImapClient::connect(&settings(port)).err().unwrap();
        let text = err.to_string();
        assert!(text.contains("refused LOGIN"), "{text}");
        assert!(!text.contains("p\"w"), "{text}");
        server.join().unwrap();
    }

    fn oauth(port: u16) -> ImapSettings {
        ImapSettings {
            mechanism: Mechanism::XOAuth2,
            password: "access-1".into(),
            ..settings(port)
        }
    }

    #[test]
    fn xoauth2_sends_the_token_at_once_where_sasl_ir_is_offered() {
        let response = crate::oauth::xoauth2("gm@realmgm.test", "access-1");
        let (port, server) = fake::serve(vec![
            vec![
                (
                    "CAPABILITY",
                    b"* CAPABILITY IMAP4rev1 SASL-IR AUTH=XOAUTH2 AUTH=PLAIN\r\nTAG OK\r\n"
                        .to_vec(),
                ),
                ("AUTHENTICATE XOAUTH2 ", b"TAG OK signed in\r\n".to_vec()),
                ("SELECT", b"* 0 EXISTS\r\nTAG OK\r\n".to_vec()),
            ],
            // Without SASL-IR the token follows the server's empty `+`.
            vec![
                (
                    "CAPABILITY",
                    b"* CAPABILITY IMAP4rev1 AUTH=XOAUTH2\r\nTAG OK\r\n".to_vec(),
                ),
                ("AUTHENTICATE XOAUTH2", b"+ \r\n".to_vec()),
                (
                    "",
                    b"* CAPABILITY IMAP4rev1\r\nTAG OK signed in\r\n".to_vec(),
                ),
            ],
        ]);
        assert!(!format!("{:?}", oauth(port)).contains("access-1"));
        let mut client = ImapClient::connect(&oauth(port)).unwrap();
        client.select("INBOX").unwrap();
        drop(client);
        ImapClient::connect(&oauth(port)).unwrap();
        let seen = server.join().unwrap();
        assert_eq!(seen[1], format!("AUTHENTICATE XOAUTH2 {response}"));
        assert_eq!(seen[4], "AUTHENTICATE XOAUTH2");
        assert_eq!(seen[5], response);
    }

    #[test]
    fn a_refused_token_is_answered_empty_and_its_reason_reported() {
        use base64::Engine as _;
        let reason = r#"{"status":"401","schemes":"bearer","scope":"https://mail.google.com/"}"#;
        let challenge = format!(
            "+ {}\r\n",
            base64::engine::general_purpose::STANDARD.encode(reason)
        );
        let (port, server) = fake::serve(vec![vec![
            (
                "CAPABILITY",
                b"* CAPABILITY IMAP4rev1 SASL-IR AUTH=XOAUTH2\r\nTAG OK\r\n".to_vec(),
            ),
            ("AUTHENTICATE XOAUTH2 ", challenge.into_bytes()),
            (
                "",
                b"TAG NO [AUTHENTICATIONFAILED] Invalid credentials access-1\r\n".to_vec(),
            ),
        ]]);
        let error = ImapClient::connect(&oauth(port)).err().unwrap();
        let text = error.to_string();
        assert!(matches!(error, ImapError::TokenRefused { .. }), "{text}");
        assert!(text.contains(r#""status":"401""#), "{text}");
        assert!(text.contains("AUTHENTICATIONFAILED"), "{text}");
        assert!(!text.contains("access-1"), "{text}");
        let seen = server.join().unwrap();
        assert_eq!(seen[2], "", "the challenge is answered with an empty line");
    }

    #[test]
    fn a_server_without_xoauth2_is_named_before_any_token_is_sent() {
        let (port, server) = fake::serve(vec![vec![(
            "CAPABILITY",
            b"* CAPABILITY IMAP4rev1 AUTH=PLAIN AUTH=LOGIN\r\nTAG OK\r\n".to_vec(),
        )]]);
        let error = ImapClient::connect(&oauth(port)).err().unwrap();
        assert!(
            error.to_string().contains("offers: AUTH=PLAIN AUTH=LOGIN"),
            "{error}"
        );
        assert_eq!(server.join().unwrap(), vec!["CAPABILITY".to_string()]);
    }

    #[test]
    fn only_the_first_bytes_of_a_large_message_are_asked_for() {
        let (port, server) = fake::serve(vec![vec![
            ("LOGIN", b"TAG OK\r\n".to_vec()),
            (
                "UID FETCH 7 (RFC822.SIZE BODY.PEEK[]<0.10>)",
                b"* 1 FETCH (UID 7 RFC822.SIZE 5000 BODY[]<0> {10}\r\n0123456789)\r\nTAG OK\r\n"
                    .to_vec(),
            ),
            // A whole message whose announced size is a little off.
            (
                "UID FETCH 8 (RFC822.SIZE BODY.PEEK[]<0.10>)",
                b"* 2 FETCH (UID 8 RFC822.SIZE 7 BODY[]<0> {5}\r\nhello)\r\nTAG OK\r\n".to_vec(),
            ),
            // The size may come after the body.
            (
                "UID FETCH 9 (RFC822.SIZE BODY.PEEK[]<0.10>)",
                b"* 3 FETCH (UID 9 BODY[]<0> {10}\r\n0123456789 RFC822.SIZE 70)\r\nTAG OK\r\n"
                    .to_vec(),
            ),
        ]]);
        let mut client = ImapClient::connect(&settings(port)).unwrap();
        let cut = client.fetch(7, 10).unwrap();
        assert_eq!((cut.head.as_slice(), cut.size), (&b"0123456789"[..], 5000));
        let whole = client.fetch(8, 10).unwrap();
        assert_eq!((whole.head.as_slice(), whole.size), (&b"hello"[..], 5));
        assert_eq!(client.fetch(9, 10).unwrap().size, 70);
        drop(client);
        let seen = server.join().unwrap();
        assert_eq!(seen[1], "UID FETCH 7 (RFC822.SIZE BODY.PEEK[]<0.10>)");
    }

    #[test]
    fn a_server_sending_the_whole_message_anyway_costs_no_more_memory() {
        let huge = "x".repeat(50_000);
        let reply = format!(
            "* 1 FETCH (UID 7 BODY[] {{{}}}\r\n{huge})\r\nTAG OK\r\n",
            huge.len()
        );
        let (port, server) = fake::serve(vec![vec![
            ("LOGIN", b"TAG OK\r\n".to_vec()),
            ("UID FETCH 7", reply.into_bytes()),
            ("UID STORE 7", b"TAG OK\r\n".to_vec()),
        ]]);
        let mut client = ImapClient::connect(&settings(port)).unwrap();
        let fetched = client.fetch(7, 10).unwrap();
        assert_eq!(fetched.head, b"xxxxxxxxxx");
        assert!(fetched.head.capacity() < 100, "{}", fetched.head.capacity());
        assert_eq!(fetched.size, 50_000);
        // The dropped bytes were read to the end: the session goes on.
        client.mark_seen(7).unwrap();
        drop(client);
        server.join().unwrap();
    }

    #[test]
    fn a_refused_fetch_names_the_command_and_leaves_the_session_usable() {
        let (port, server) = fake::serve(vec![vec![
            ("LOGIN", b"TAG OK\r\n".to_vec()),
            ("UID FETCH 7", b"TAG NO [SERVERBUG] broken\r\n".to_vec()),
            ("UID FETCH 8", b"TAG OK nothing\r\n".to_vec()),
        ]]);
        let mut client = ImapClient::connect(&settings(port)).unwrap();
        let refused = client.fetch(7, 10).unwrap_err();
        assert!(refused.leaves_session_usable());
        assert!(
            refused
                .to_string()
                .contains("refused UID FETCH: NO [SERVERBUG]"),
            "{refused}"
        );
        let missing = client.fetch(8, 10).unwrap_err();
        assert!(
            matches!(missing, ImapError::NoMessage { uid: 8 }),
            "{missing}"
        );
        assert!(missing.leaves_session_usable());
        drop(client);
        server.join().unwrap();
        let closed = ImapError::Protocol("the server closed the connection".into());
        assert!(!closed.leaves_session_usable());
    }

    #[test]
    fn idle_ends_when_the_server_reports_new_mail() {
        let (port, server) = fake::serve(vec![vec![
            ("LOGIN", b"TAG OK\r\n".to_vec()),
            (
                "CAPABILITY",
                b"* CAPABILITY IMAP4rev1 IDLE\r\nTAG OK\r\n".to_vec(),
            ),
            (
                "IDLE",
                b"+ idling\r\n* 1 EXPUNGE\r\n* 4 EXISTS\r\n".to_vec(),
            ),
            ("DONE", b"TAG OK IDLE terminated\r\n".to_vec()),
        ]]);
        let mut client = ImapClient::connect(&settings(port)).unwrap();
        assert!(client.offers_idle().unwrap());
        let end = client
            .idle(Duration::from_secs(60), Duration::from_millis(50), &|| {
                false
            })
            .unwrap();
        assert_eq!(end, IdleEnd::NewMail);
        drop(client);
        let seen = server.join().unwrap();
        assert_eq!(seen[2..], ["IDLE", "DONE"]);
    }

    #[test]
    fn idle_ends_at_its_longest_or_when_told_to_stop() {
        let idle_session = || {
            vec![
                ("IDLE", b"+ idling\r\n".to_vec()),
                ("DONE", b"TAG OK IDLE terminated\r\n".to_vec()),
            ]
        };
        let mut script = vec![
            ("LOGIN", b"TAG OK\r\n".to_vec()),
            (
                "CAPABILITY",
                b"* CAPABILITY IMAP4rev1\r\nTAG OK\r\n".to_vec(),
            ),
        ];
        script.extend(idle_session());
        script.extend(idle_session());
        let (port, server) = fake::serve(vec![script]);
        let mut client = ImapClient::connect(&settings(port)).unwrap();
        assert!(!client.offers_idle().unwrap());
        let tick = Duration::from_millis(20);
        let end = client
            .idle(Duration::from_millis(100), tick, &|| false)
            .unwrap();
        assert_eq!(end, IdleEnd::TimeUp);
        let end = client
            .idle(Duration::from_secs(60), tick, &|| true)
            .unwrap();
        assert_eq!(end, IdleEnd::Stopped);
        drop(client);
        server.join().unwrap();
    }

    #[test]
    fn a_server_ending_the_session_in_idle_is_an_error() {
        let (port, server) = fake::serve(vec![vec![
            ("LOGIN", b"TAG OK\r\n".to_vec()),
            ("IDLE", b"+ idling\r\n* BYE shutting down\r\n".to_vec()),
        ]]);
        let mut client = ImapClient::connect(&settings(port)).unwrap();
        let error = client
            .idle(Duration::from_secs(60), Duration::from_millis(20), &|| {
                false
            })
            .unwrap_err();
        assert!(error.to_string().contains("closed the session"), "{error}");
        drop(client);
        server.join().unwrap();
    }

    #[test]
    fn the_fake_mailbox_reports_a_delivery_to_a_session_in_idle() {
        let mailbox = fake::Mailbox::start(true);
        let mut client = ImapClient::connect(&settings(mailbox.port())).unwrap();
        assert_eq!(client.select("INBOX").unwrap().exists, 0);
        let deliverer = mailbox.clone();
        let delivery = std::thread::spawn(move || {
            while deliverer.idling() == 0 {
                std::thread::sleep(Duration::from_millis(10));
            }
            deliverer.deliver(b"Subject: hi\r\n\r\nhello\r\n");
        });
        let end = client
            .idle(Duration::from_secs(30), Duration::from_millis(50), &|| {
                false
            })
            .unwrap();
        assert_eq!(end, IdleEnd::NewMail);
        delivery.join().unwrap();
        assert_eq!(client.search_unseen().unwrap(), vec![1]);
        assert_eq!(
            client.fetch(1, 1000).unwrap().head,
            b"Subject: hi\r\n\r\nhello\r\n"
        );
        client.mark_seen(1).unwrap();
        assert!(client.search_unseen().unwrap().is_empty());
        client.logout();
    }

    #[test]
    fn fetch_sizes() {
        assert_eq!(
            rfc822_size("* 1 FETCH (UID 7 RFC822.SIZE 104857600 BODY[]<0> {10}"),
            Some(104_857_600)
        );
        assert_eq!(rfc822_size("* 1 FETCH (RFC822.SIZE 42)"), Some(42));
        assert_eq!(rfc822_size("* 1 FETCH (UID 7 BODY[] {10}"), None);
    }

    #[test]
    fn literal_lengths() {
        assert_eq!(literal_length("* 1 FETCH (BODY[] {42}"), Some(42));
        assert_eq!(literal_length("* OK no literal"), None);
        assert_eq!(literal_length("* x {abc}"), None);
    }

    #[test]
    fn nobody_listening_is_a_connect_error() {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let err = ImapClient::connect(&settings(port)).err().unwrap();
        assert!(matches!(err, ImapError::Connect { .. }), "{err}");
    }
}
