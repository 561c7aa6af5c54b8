//! Stopping the daemon cleanly (issue 19 §2): SIGTERM (a service manager)
//! and SIGINT (Ctrl-C) set a flag instead of killing the process. The
//! daemon finishes its round — every mail and every day is one transaction,
//! so nothing is half-done either way — and exits at the next pause.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often a waiting daemon looks at the flag.
const TICK: Duration = Duration::from_millis(200);

/// A flag that SIGTERM and SIGINT set.
///
/// # Errors
/// The signal handlers cannot be installed.
pub fn on_stop_signals() -> anyhow::Result<Arc<AtomicBool>> {
    let stopping = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        signal_hook::flag::register(signal, Arc::clone(&stopping))?;
    }
    Ok(stopping)
}

/// Wait `pause`, or less when asked to stop; whether to stop.
pub fn wait(stopping: &AtomicBool, pause: Duration) -> bool {
    let until = Instant::now() + pause;
    while Instant::now() < until {
        if stopping.load(Ordering::Relaxed) {
            return true;
        }
        std::thread::sleep(TICK.min(until.saturating_duration_since(Instant::now())));
    }
    stopping.load(Ordering::Relaxed)
}
