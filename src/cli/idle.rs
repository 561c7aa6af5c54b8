//! IMAP IDLE for the daemon (RFC 2177): one thread per IMAP mailbox of the
//! served campaigns keeps a session waiting in IDLE and, the moment the
//! server says a message arrived, flags the mailbox and wakes the daemon's
//! loop, which fetches and answers the mail in its next round as always.
//!
//! Threads rather than one loop multiplexing the sessions: a watcher only
//! waits and flags, it never touches the store or the game, so the
//! daemon's loop (the only one that does) stays as it was, and a server
//! that hangs stalls nothing but its own watcher. A server without IDLE is
//! polled every round, as before; a dropped connection is tried again
//! after pauses that double up to [`MAX_BACKOFF`], and IDLE is re-issued
//! every [`IDLE_LONGEST`], before the 29 minutes after which a server may
//! drop an idle client.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::mail::imap::{IdleEnd, ImapClient, ImapError, ImapSettings};

/// The longest one IDLE lasts before it is re-issued.
const IDLE_LONGEST: Duration = Duration::from_secs(25 * 60);
/// How often a watcher looks whether the daemon stops.
const TICK: Duration = Duration::from_millis(500);
/// The first pause before a reconnection; each later one is twice as long.
const FIRST_BACKOFF: Duration = Duration::from_secs(1);
/// The longest pause between reconnections.
const MAX_BACKOFF: Duration = Duration::from_secs(5 * 60);

/// How a watcher reads its mailbox now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Connecting for the first time.
    Starting,
    /// Waiting in IDLE: mail is read as it arrives.
    Idle,
    /// The server offers no IDLE: the daemon polls it every round.
    Polling,
    /// The connection failed; tried again with growing pauses.
    Reconnecting { error: String },
}

impl Mode {
    /// The word `gm status` shows.
    pub fn name(&self) -> &'static str {
        match self {
            Mode::Starting | Mode::Polling => "polling",
            Mode::Idle => "idle",
            Mode::Reconnecting { .. } => "reconnecting",
        }
    }
}

/// What a watcher shares with the daemon's loop.
#[derive(Debug)]
struct Watched {
    mode: Mode,
    /// When it entered `mode`, Unix seconds.
    since: i64,
    /// The server said a message arrived since the loop last looked.
    new_mail: bool,
    /// The mode changed since the loop last recorded it.
    changed: bool,
}

struct Watcher {
    settings: ImapSettings,
    folder: String,
    shared: Arc<Mutex<Watched>>,
    stop: Arc<AtomicBool>,
}

/// The watchers of the served campaigns' IMAP mailboxes, by mailbox key.
#[derive(Default)]
pub struct Watchers {
    watchers: BTreeMap<String, Watcher>,
}

impl Watchers {
    /// Watch exactly these mailboxes (key, settings, folder): a new one
    /// gets a watcher, one no longer served or with changed settings loses
    /// its own (a changed one gets a new watcher).
    pub fn serve(&mut self, mailboxes: &[(String, ImapSettings, String)]) {
        self.watchers.retain(|key, watcher| {
            let kept = mailboxes
                .iter()
                .any(|(k, s, f)| k == key && *s == watcher.settings && *f == watcher.folder);
            if !kept {
                watcher.stop.store(true, Ordering::Relaxed);
            }
            kept
        });
        for (key, settings, folder) in mailboxes {
            if self.watchers.contains_key(key) {
                continue;
            }
            let watcher = Watcher {
                settings: settings.clone(),
                folder: folder.clone(),
                shared: Arc::new(Mutex::new(Watched {
                    mode: Mode::Starting,
                    since: now(),
                    new_mail: false,
                    changed: false,
                })),
                stop: Arc::new(AtomicBool::new(false)),
            };
            let (settings, folder) = (settings.clone(), folder.clone());
            let (shared, stop) = (Arc::clone(&watcher.shared), Arc::clone(&watcher.stop));
            std::thread::spawn(move || watch(&settings, &folder, &shared, &stop));
            self.watchers.insert(key.clone(), watcher);
        }
    }

    /// Whether any mailbox has news for the loop: mail arrived, or its
    /// mode changed (the GM's log and the status are told at once).
    pub fn any_news(&self) -> bool {
        self.watchers
            .values()
            .any(|w| w.shared.lock().is_ok_and(|s| s.new_mail || s.changed))
    }

    /// Whether the daemon must fetch `key`'s mail in this round: it is not
    /// watched in IDLE, or its watcher saw a message arrive (the flag is
    /// cleared).
    pub fn must_fetch(&self, key: &str) -> bool {
        let Some(watcher) = self.watchers.get(key) else {
            return true;
        };
        let Ok(mut shared) = watcher.shared.lock() else {
            return true;
        };
        let fetch = shared.mode != Mode::Idle || shared.new_mail;
        shared.new_mail = false;
        fetch
    }

    /// `key`'s mode and since when, once its watcher has connected; the
    /// change is taken as recorded.
    pub fn mode(&self, key: &str) -> Option<(Mode, i64)> {
        let mut shared = self.watchers.get(key)?.shared.lock().ok()?;
        shared.changed = false;
        (shared.mode != Mode::Starting).then(|| (shared.mode.clone(), shared.since))
    }
}

impl Drop for Watchers {
    fn drop(&mut self) {
        for watcher in self.watchers.values() {
            watcher.stop.store(true, Ordering::Relaxed);
        }
    }
}

fn now() -> i64 {
    super::now().unwrap_or_default()
}

fn set_mode(shared: &Mutex<Watched>, mode: Mode) {
    if let Ok(mut shared) = shared.lock()
        && shared.mode != mode
    {
        // A reconnection that fails again keeps the time it began.
        let still_down = matches!(
            (&shared.mode, &mode),
            (Mode::Reconnecting { .. }, Mode::Reconnecting { .. })
        );
        if !still_down {
            shared.since = now();
            shared.changed = true;
        }
        // Entering IDLE: mail may have come while it connected.
        shared.new_mail |= mode == Mode::Idle;
        shared.mode = mode;
    }
}

/// A watcher's life: sessions in IDLE until told to stop, reconnecting
/// after pauses that double up to [`MAX_BACKOFF`], and ending when the
/// server offers no IDLE (the daemon polls it then).
fn watch(settings: &ImapSettings, folder: &str, shared: &Mutex<Watched>, stop: &AtomicBool) {
    let mut backoff = FIRST_BACKOFF;
    while !stop.load(Ordering::Relaxed) {
        match session(settings, folder, shared, stop) {
            Ok(Ended::Stopped) => return,
            Ok(Ended::NoIdle) => {
                set_mode(shared, Mode::Polling);
                return;
            }
            Err(error) => {
                let was_idle = shared.lock().is_ok_and(|s| s.mode == Mode::Idle);
                if was_idle {
                    backoff = FIRST_BACKOFF;
                }
                set_mode(
                    shared,
                    Mode::Reconnecting {
                        error: error.to_string(),
                    },
                );
                let until = std::time::Instant::now() + backoff;
                while std::time::Instant::now() < until && !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(TICK.min(backoff));
                }
                backoff = (backoff * 2).min(MAX_BACKOFF);
            }
        }
    }
}

enum Ended {
    Stopped,
    NoIdle,
}

/// One session: log in, see whether the server offers IDLE, and wait in it
/// on `folder`, flagging each arrival, until told to stop or the
/// connection fails.
fn session(
    settings: &ImapSettings,
    folder: &str,
    shared: &Mutex<Watched>,
    stop: &AtomicBool,
) -> Result<Ended, ImapError> {
    let mut client = ImapClient::connect(settings)?;
    if !client.offers_idle()? {
        client.logout();
        return Ok(Ended::NoIdle);
    }
    client.select(folder)?;
    set_mode(shared, Mode::Idle);
    let stopping = || stop.load(Ordering::Relaxed);
    loop {
        match client.idle(IDLE_LONGEST, TICK, &stopping)? {
            IdleEnd::NewMail => {
                if let Ok(mut shared) = shared.lock() {
                    shared.new_mail = true;
                }
            }
            IdleEnd::TimeUp => {}
            IdleEnd::Stopped => {
                client.logout();
                return Ok(Ended::Stopped);
            }
        }
    }
}
