//! A 16-player Magic Realm month on the daemon's path: every
//! player's orders arrive as a mail each day and are read, checked and
//! confirmed; the day runs as soon as all are in; every report and the
//! GM's history are queued and sent (to a transport that only counts).
//! Against the engine's own month (`benches/day.rs`, the same bots without
//! mail or storage), and with the database's size at the month's end.
//! Run with `cargo bench --bench daemon_month`; under `cargo test` (no
//! `--bench` argument) it plays a shorter campaign once, as a smoke test.

// The month's own figures are needed here, not its mail.
#[allow(dead_code)]
#[path = "../tests/support/month16.rs"]
mod month16;

use std::time::{Duration, Instant};

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let (runs, days) = if bench { (5, 28) } else { (1, 3) };
    let mut times: Vec<Duration> = Vec::new();
    let mut size = None;
    for run in 0..runs {
        let path = std::env::temp_dir().join(format!(
            "realmgm-month-bench-{}-{run}.sqlite",
            std::process::id()
        ));
        let start = Instant::now();
        let played = month16::play(&path, days);
        times.push(start.elapsed());
        size.get_or_insert(played);
        month16::remove(&path);
    }
    times.sort();
    let played = size.expect("one run at least");
    println!(
        "{days} days, 16 players by mail through the daemon: median {:?}, worst {:?} over {runs} runs",
        times[times.len() / 2],
        times[times.len() - 1]
    );
    println!(
        "  of the first run: reading {:?}, running the days {:?}, sending {:?}",
        played.reading, played.running, played.sending
    );
    println!(
        "the database after {days} days: {:.1} MB ({} mails in, {} out)",
        played.bytes as f64 / 1e6,
        played.mails_in,
        played.mails_out
    );
    for (table, bytes) in &played.tables {
        println!("  {table:<20} {:>8.1} KB", *bytes as f64 / 1e3);
    }
}
