//! Signals to a running daemon. SIGTERM (a service manager)
//! and SIGINT (Ctrl-C) set a flag instead of killing the process: the
//! daemon finishes the mail or the campaign's day it is at (each is one
//! transaction), leaves the rest of its round for its next start, and
//! exits. SIGHUP ends the pause at once, so the campaigns are read again and
//! served now (they are read again every round anyway).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often a waiting daemon looks at the flags.
const TICK: Duration = Duration::from_millis(200);

/// Why a pause ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wake {
    /// SIGTERM or SIGINT: finish and exit.
    Stop,
    /// SIGHUP: read the campaigns again now.
    Reload,
    /// The pause is over.
    Time,
    /// Something the daemon waits for came (mail announced by IMAP IDLE).
    Woken,
}

/// The flags the daemon's signals set.
pub struct Signals {
    stopping: Arc<AtomicBool>,
    reloading: Arc<AtomicBool>,
}

impl Signals {
    /// Install the handlers.
    ///
    /// # Errors
    /// The signal handlers cannot be installed.
    pub fn install() -> anyhow::Result<Signals> {
        let stopping = Arc::new(AtomicBool::new(false));
        for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
            signal_hook::flag::register(signal, Arc::clone(&stopping))?;
        }
        let reloading = Arc::new(AtomicBool::new(false));
        signal_hook::flag::register(signal_hook::consts::SIGHUP, Arc::clone(&reloading))?;
        Ok(Signals {
            stopping,
            reloading,
        })
    }

    /// Whether SIGTERM or SIGINT has come.
    pub fn stopping(&self) -> bool {
        self.stopping.load(Ordering::Relaxed)
    }

    /// Wait `pause`, or less when a signal comes or `woken` turns true.
    pub fn wait(&self, pause: Duration, woken: &dyn Fn() -> bool) -> Wake {
        let until = Instant::now() + pause;
        loop {
            if self.stopping() {
                return Wake::Stop;
            }
            if self.reloading.swap(false, Ordering::Relaxed) {
                return Wake::Reload;
            }
            if woken() {
                return Wake::Woken;
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Wake::Time;
            }
            std::thread::sleep(TICK.min(left));
        }
    }
}
