//! Daemon throughput: one message from raw bytes to stored, parsed, orders
//! recorded and confirmation queued (target under 20 ms), then a burst of
//! 1,000 messages across 10 campaigns with none lost or duplicated, then
//! 10, 100 and 1,000 orders mails for one campaign-day, each followed by a
//! tick as the daemon's poll makes it: the cost per mail must stay flat
//! however many versions the day already holds.
//! Runs against a database file (WAL), as the daemon does. `cargo bench
//! --bench daemon_ingest`.

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::Instant;

use realmgm::daemon::Daemon;
use realmgm::store::{InboundStatus, Store};
use support::{GAMES, START, add_campaign, campaign_text, mail};

const CAMPAIGNS: usize = 10;
const PLAYERS: usize = 4;
const BURST: usize = 1000;

fn main() {
    let path = std::env::temp_dir().join(format!("realmgm-bench-{}.sqlite", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    let mut daemon = Daemon::new(Store::open(&path, GAMES).unwrap());
    let mut secrets = Vec::new();
    for c in 0..CAMPAIGNS {
        let players: Vec<(String, String)> = (0..PLAYERS)
            .map(|p| (format!("P{p}"), format!("p{p}.c{c}@bench.test")))
            .collect();
        let list: Vec<(&str, &str)> = players
            .iter()
            .map(|(n, e)| (n.as_str(), e.as_str()))
            .collect();
        let tag = format!("B{c}");
        secrets.push(add_campaign(
            &mut daemon.store,
            "guess",
            &campaign_text(&tag, &list, ""),
        ));
        daemon.turns().check_turn(&tag, START).unwrap();
    }
    let message = |i: usize| {
        let (c, p) = (i % CAMPAIGNS, (i / CAMPAIGNS) % PLAYERS);
        let body = format!(
            "guess {}\nPassword: {}\n",
            i % 100 + 1,
            secrets[c][&format!("P{p}")]
        );
        mail(
            &format!("p{p}.c{c}@bench.test"),
            "gm@realmgm.test",
            &format!("[B{c}] orders"),
            &format!("bench{i}@x"),
            &body,
        )
    };

    // One message at a time: ingest → stored → parsed → confirmation queued.
    let mut single = Vec::new();
    for i in 0..100 {
        let raw = message(1_000_000 + i);
        let start = Instant::now();
        let (_, note) = daemon.mail_in().ingest(&raw, START).unwrap();
        single.push(start.elapsed());
        assert!(note.contains("accepted"), "{note}");
    }
    single.sort();
    let mean = single.iter().sum::<std::time::Duration>() / single.len() as u32;
    println!(
        "single message: mean {:.2} ms, median {:.2} ms, p95 {:.2} ms, max {:.2} ms (target < 20 ms)",
        mean.as_secs_f64() * 1e3,
        single[50].as_secs_f64() * 1e3,
        single[95].as_secs_f64() * 1e3,
        single[99].as_secs_f64() * 1e3
    );

    // A burst: every message stored first, then all handled in one pass.
    let outbox_before = daemon.store.outbox().due(START).unwrap().len();
    let start = Instant::now();
    for i in 0..BURST {
        daemon.mail_in().store_raw(&message(i), START).unwrap();
    }
    // The same burst again (a retried fetch) must store nothing new.
    for i in 0..BURST {
        assert!(matches!(
            daemon.mail_in().store_raw(&message(i), START).unwrap(),
            realmgm::store::InboundInsert::Duplicate(_)
        ));
    }
    let handled = daemon.mail_in().handle_stored(START).unwrap();
    let elapsed = start.elapsed();
    let accepted = handled
        .iter()
        .filter(|(_, n)| n.contains("accepted"))
        .count();
    let queued = daemon.store.outbox().due(START).unwrap().len() - outbox_before;
    let processed = daemon
        .store
        .inbox()
        .with_status(InboundStatus::Processed)
        .unwrap()
        .len();
    println!(
        "burst of {BURST} across {CAMPAIGNS} campaigns (+{BURST} duplicates): {:.0} ms total, {:.2} ms per message; handled {}, accepted {accepted}, confirmations queued {queued}",
        elapsed.as_secs_f64() * 1e3,
        elapsed.as_secs_f64() * 1e3 / BURST as f64,
        handled.len()
    );
    assert_eq!(handled.len(), BURST, "none lost, none handled twice");
    assert_eq!(accepted, BURST);
    assert_eq!(queued, BURST);
    assert_eq!(processed, BURST + 100);
    let versions: usize = (0..CAMPAIGNS)
        .map(|c| {
            daemon
                .store
                .orders()
                .for_day(&format!("B{c}"), 1)
                .unwrap()
                .len()
        })
        .sum();
    assert_eq!(versions, BURST + 100, "every order stored once");
    let per_mail: Vec<f64> = [10, 100, 1000]
        .into_iter()
        .map(|mails| one_campaign_day(&mut daemon, mails))
        .collect();
    println!(
        "cost per mail at 1,000 mails / at 10: {:.2} (flat is 1)",
        per_mail[2] / per_mail[0]
    );
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// `mails` orders mails of four players for one day of a new campaign,
/// each ingested and followed by a tick; returns the mean ms per mail.
fn one_campaign_day(daemon: &mut Daemon, mails: usize) -> f64 {
    let tag = format!("D{mails}");
    let players: Vec<(String, String)> = (0..PLAYERS)
        .map(|p| (format!("P{p}"), format!("p{p}.{tag}@bench.test")))
        .collect();
    let list: Vec<(&str, &str)> = players
        .iter()
        .map(|(n, e)| (n.as_str(), e.as_str()))
        .collect();
    let secrets = add_campaign(&mut daemon.store, "guess", &campaign_text(&tag, &list, ""));
    daemon.turns().check_turn(&tag, START).unwrap();
    let start = Instant::now();
    for i in 0..mails {
        let p = i % PLAYERS;
        let body = format!(
            "guess {}\nPassword: {}\n",
            i % 100 + 1,
            secrets[&format!("P{p}")]
        );
        let raw = mail(
            &players[p].1,
            "gm@realmgm.test",
            &format!("[{tag}] orders"),
            &format!("{tag}-{i}@x"),
            &body,
        );
        let (_, note) = daemon.mail_in().ingest(&raw, START).unwrap();
        assert!(note.contains("accepted"), "{note}");
        // A tick before the early-processing delay is over: it only looks.
        assert_eq!(daemon.turns().check_turn(&tag, START).unwrap(), "waiting");
    }
    let per_mail = start.elapsed().as_secs_f64() * 1e3 / mails as f64;
    println!(
        "{mails} orders mails for one campaign-day: {per_mail:.2} ms per mail (with a tick each)"
    );
    per_mail
}
