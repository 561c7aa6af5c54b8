//! A small synchronous IMAP4rev1 client (RFC 3501) for polling the GM
//! mailbox: LOGIN, SELECT, UID SEARCH UNSEEN, UID FETCH BODY.PEEK[] and
//! UID STORE +FLAGS (\Seen), over implicit TLS, STARTTLS or plain TCP (the
//! last only for a server on this machine).
//!
//! Written here rather than taken from crates.io: the stable `imap` 2.x
//! supports TLS only through native-tls/OpenSSL, and `imap` 3 has been an
//! alpha for years; `async-imap` needs an async runtime. These five commands
//! over rustls (already in the tree through lettre) are a few hundred lines.
//! Fetching uses BODY.PEEK so nothing is marked read until the daemon has
//! stored the mail and calls [`ImapClient::mark_seen`]
//! (reference pbem-practice.md §4 idea 2).

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::time::Duration;

use rustls::pki_types::ServerName;
use rustls::{ClientConnection, StreamOwned};

use crate::mail::transport::Security;

/// The largest literal (one fetched message) accepted, to bound memory.
const MAX_LITERAL_BYTES: usize = 64 * 1024 * 1024;
/// The longest response line accepted outside literals.
const MAX_LINE_BYTES: usize = 1024 * 1024;

/// Where and how to connect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImapSettings {
    pub host: String,
    pub port: u16,
    pub security: Security,
    pub username: String,
    pub password: String,
    /// Read/write timeout for every network operation.
    pub timeout: Duration,
    /// An extra CA certificate file (PEM) to trust beside the web roots.
    pub ca_file: Option<PathBuf>,
}

/// What SELECT reported about a folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FolderStatus {
    pub exists: u32,
    /// UIDs are only comparable across sessions while this stays the same.
    pub uid_validity: Option<u32>,
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
/// literal replaced by `{n}`, `literals` the literal bytes in order.
#[derive(Debug, Default)]
struct ResponseLine {
    text: String,
    literals: Vec<Vec<u8>>,
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
        let greeting = client.read_line()?;
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
        let login = format!(
            "LOGIN {} {}",
            quote(&settings.username),
            quote(&settings.password)
        );
        client
            .command(&login)
            .map_err(|e| hide_password(e, &settings.password))?;
        Ok(client)
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

    /// The raw bytes of one message, without marking it seen.
    ///
    /// # Errors
    /// [`ImapError::Protocol`] when the server returns no body for the UID
    /// (e.g. it was expunged meanwhile).
    pub fn fetch(&mut self, uid: u32) -> Result<Vec<u8>, ImapError> {
        let lines = self.command(&format!("UID FETCH {uid} BODY.PEEK[]"))?;
        for line in lines {
            if line.text.starts_with("* ")
                && line.text.to_ascii_uppercase().contains("FETCH")
                && line.text.to_ascii_uppercase().contains("BODY[]")
                && let Some(body) = line.literals.into_iter().next()
            {
                return Ok(body);
            }
        }
        Err(ImapError::Protocol(format!(
            "no message body came back for UID {uid}; it may have been deleted"
        )))
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
        let tag = format!("A{:04}", self.next_tag);
        self.next_tag += 1;
        self.stream
            .write_all(format!("{tag} {command}\r\n").as_bytes())?;
        self.stream.flush()?;
        let mut untagged = Vec::new();
        loop {
            let line = self.read_line()?;
            if let Some(rest) = line.text.strip_prefix(&tag) {
                let rest = rest.trim_start();
                let verb = command.split_whitespace().next().unwrap_or(command);
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

    /// Read one response line, following literals (`{n}\r\n` + n bytes).
    fn read_line(&mut self) -> Result<ResponseLine, ImapError> {
        let mut response = ResponseLine::default();
        loop {
            let raw = self.read_crlf_line()?;
            let text = String::from_utf8_lossy(&raw).into_owned();
            match literal_length(&text) {
                Some(length) => {
                    if length > MAX_LITERAL_BYTES {
                        return Err(ImapError::Protocol(format!(
                            "a {length}-byte literal is larger than the {MAX_LITERAL_BYTES}-byte limit"
                        )));
                    }
                    response.text.push_str(&text);
                    let literal = self.read_exact_bytes(length)?;
                    response.literals.push(literal);
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

    fn read_exact_bytes(&mut self, length: usize) -> Result<Vec<u8>, ImapError> {
        while self.buffer.len() < length {
            self.fill()?;
        }
        Ok(self.buffer.drain(..length).collect())
    }
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
    let config = crate::mail::tls::client_config(settings.ca_file.as_deref())
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
                Some(tls) => ImapError::Tls(crate::mail::tls::explain(&tls.to_string())),
                None => ImapError::Io(io),
            }
        }
        ImapError::Tls(message) => ImapError::Tls(crate::mail::tls::explain(&message)),
        other => other,
    }
}

/// A scripted IMAP server for tests, here and in the daemon's: one session
/// per script, each command answered by its script line.
#[cfg(test)]
pub(crate) mod fake {
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpListener;
    use std::thread;

    /// Serve `sessions` in turn on a free local port: in each, every
    /// command must start with the line's prefix and gets its reply (`TAG`
    /// standing for the command's tag). Returns the port and a handle that
    /// yields every command received.
    pub(crate) fn serve(
        sessions: Vec<Vec<(&'static str, Vec<u8>)>>,
    ) -> (u16, thread::JoinHandle<Vec<String>>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let handle = thread::spawn(move || {
            let mut seen = Vec::new();
            for script in sessions {
                let (mut socket, _) = listener.accept().unwrap();
                socket.write_all(b"* OK fake IMAP ready\r\n").unwrap();
                let mut reader = BufReader::new(socket.try_clone().unwrap());
                for (expected, reply) in script {
                    let mut line = String::new();
                    reader.read_line(&mut line).unwrap();
                    let (tag, command) = line.trim_end().split_once(' ').unwrap();
                    assert!(
                        command.starts_with(expected),
                        "got '{command}', expected '{expected}'"
                    );
                    seen.push(command.to_string());
                    let reply = String::from_utf8_lossy(&reply).replace("TAG", tag);
                    socket.write_all(reply.as_bytes()).unwrap();
                }
            }
            seen
        });
        (port, handle)
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
            ("UID FETCH 7 BODY.PEEK[]", fetch.into_bytes()),
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
        assert_eq!(client.fetch(7).unwrap(), message.as_bytes());
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
