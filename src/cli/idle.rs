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
//! drop an idle client, and soon enough that a connection that died
//! without a word is found within minutes.
//!
//! A mailbox in IDLE is still fetched every [`SAFETY_POLL`], and an arrival
//! counts as handled only once a fetch after it succeeded: a failed fetch,
//! or a watcher that has not yet noticed its connection is dead, never
//! leaves a player's mail unread for long. (The daemon also fetches before
//! a turn whose deadline has passed, whatever the watcher says.)

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::mail::imap::{IdleEnd, ImapClient, ImapError, ImapSettings};

/// The longest one IDLE lasts before it is re-issued.
const IDLE_LONGEST: Duration = Duration::from_secs(10 * 60);
/// How long a mailbox in IDLE goes without a fetch at most, in seconds.
const SAFETY_POLL: i64 = 10 * 60;
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

/// A fetch the loop is to make, and what it will have read.
pub struct Fetch {
    /// The watcher's arrival count when the fetch was decided; `None` for a
    /// mailbox no watcher waits on.
    arrivals: Option<u64>,
}

/// What a watcher shares with the daemon's loop.
#[derive(Debug)]
struct Watched {
    mode: Mode,
    /// When it entered `mode`, Unix seconds.
    since: i64,
    /// Arrivals the server announced (and IDLE sessions begun, during whose
    /// connecting mail may have come), counted up.
    arrivals: u64,
    /// The arrivals a successful fetch has read.
    handled: u64,
    /// When the loop last fetched this mailbox successfully, Unix seconds.
    fetched_at: i64,
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
                    arrivals: 0,
                    handled: 0,
                    fetched_at: now(),
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
        self.watchers.values().any(|w| {
            w.shared
                .lock()
                .is_ok_and(|s| s.arrivals > s.handled || s.changed)
        })
    }

    /// Whether the daemon fetches `key`'s mail in this round, and what a
    /// successful fetch then marks handled ([`Watchers::fetched`]): it is
    /// not watched in IDLE, its watcher saw a message arrive, or its last
    /// fetch is [`SAFETY_POLL`] old.
    pub fn to_fetch(&self, key: &str, now: i64) -> Option<Fetch> {
        let Some(watcher) = self.watchers.get(key) else {
            return Some(Fetch { arrivals: None });
        };
        let Ok(shared) = watcher.shared.lock() else {
            return Some(Fetch { arrivals: None });
        };
        let due = shared.mode != Mode::Idle
            || shared.arrivals > shared.handled
            || now - shared.fetched_at >= SAFETY_POLL;
        due.then_some(Fetch {
            arrivals: Some(shared.arrivals),
        })
    }

    /// A fetch of `key` made whatever its watcher says (a turn is due).
    pub fn fetch_now(&self, key: &str) -> Fetch {
        let arrivals = self
            .watchers
            .get(key)
            .and_then(|w| w.shared.lock().ok().map(|s| s.arrivals));
        Fetch { arrivals }
    }

    /// `key` was fetched successfully: the arrivals counted before the
    /// fetch began are handled; one announced meanwhile is not.
    pub fn fetched(&self, key: &str, fetch: Fetch, now: i64) {
        let (Some(watcher), Some(arrivals)) = (self.watchers.get(key), fetch.arrivals) else {
            return;
        };
        if let Ok(mut shared) = watcher.shared.lock() {
            shared.handled = shared.handled.max(arrivals);
            shared.fetched_at = now;
        }
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
        if mode == Mode::Idle {
            shared.arrivals += 1;
        }
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
                    shared.arrivals += 1;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::transport::{Mechanism, Security};

    const KEY: &str = "gm@imap.example.org:993/INBOX";

    /// Watchers holding one mailbox in `mode`, with no thread behind it.
    fn watching(mode: Mode, fetched_at: i64) -> (Watchers, Arc<Mutex<Watched>>) {
        let shared = Arc::new(Mutex::new(Watched {
            mode,
            since: 0,
            arrivals: 0,
            handled: 0,
            fetched_at,
            changed: false,
        }));
        let watcher = Watcher {
            settings: ImapSettings {
                host: "imap.example.org".into(),
                port: 993,
                security: Security::Tls,
                username: "gm".into(),
                password: String::new(),
                mechanism: Mechanism::Password,
                timeout: Duration::from_secs(1),
                ca_file: None,
            },
            folder: "INBOX".into(),
            shared: Arc::clone(&shared),
            // Stopped already: dropping the watchers stops nothing real.
            stop: Arc::new(AtomicBool::new(true)),
        };
        let mut watchers = Watchers::default();
        watchers.watchers.insert(KEY.into(), watcher);
        (watchers, shared)
    }

    fn arrive(shared: &Mutex<Watched>) {
        shared.lock().unwrap().arrivals += 1;
    }

    #[test]
    fn an_arrival_stays_to_fetch_until_a_fetch_succeeds() {
        let (watchers, shared) = watching(Mode::Idle, 100);
        assert!(watchers.to_fetch(KEY, 110).is_none(), "nothing arrived");
        arrive(&shared);
        assert!(watchers.any_news());
        // The fetch fails: nothing is marked, the next round fetches again.
        assert!(watchers.to_fetch(KEY, 120).is_some());
        let fetch = watchers.to_fetch(KEY, 130).expect("still to fetch");
        watchers.fetched(KEY, fetch, 130);
        assert!(watchers.to_fetch(KEY, 140).is_none());
        assert!(!watchers.any_news());
    }

    #[test]
    fn an_arrival_during_a_fetch_is_fetched_in_the_next_round() {
        let (watchers, shared) = watching(Mode::Idle, 100);
        arrive(&shared);
        let fetch = watchers.to_fetch(KEY, 110).expect("to fetch");
        arrive(&shared);
        watchers.fetched(KEY, fetch, 111);
        assert!(watchers.to_fetch(KEY, 112).is_some());
    }

    #[test]
    fn a_mailbox_in_idle_is_fetched_at_least_every_safety_poll() {
        let (watchers, _) = watching(Mode::Idle, 100);
        assert!(watchers.to_fetch(KEY, 100 + SAFETY_POLL - 1).is_none());
        assert!(watchers.to_fetch(KEY, 100 + SAFETY_POLL).is_some());
        // A mailbox not in IDLE, or not watched, is fetched every round.
        let (polled, _) = watching(Mode::Polling, 100);
        assert!(polled.to_fetch(KEY, 101).is_some());
        assert!(polled.to_fetch("other", 101).is_some());
    }
}
