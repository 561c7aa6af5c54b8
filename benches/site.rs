//! Building the public pages of a 28-day, 16-character campaign (the
//! aim: under 2 seconds). The month is played through the daemon
//! once (tests/support/month16.rs); then the whole site is built from the
//! database several times, under `publish = "end"` after the last day, so
//! every page shows everything (the most to render). Run with
//! `cargo bench --bench site`; under `cargo test` it plays 3 days and builds
//! once, as a smoke test.

// Only the played database is needed here, not the month's own figures.
#[allow(dead_code)]
#[path = "../tests/support/month16.rs"]
mod month16;

use std::time::{Duration, Instant};

use realmgm::campaign::{Publish, SiteSettings};
use realmgm::store::Store;

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let (runs, days) = if bench { (7, 28) } else { (1, 3) };
    let dir = std::env::temp_dir().join(format!("realmgm-site-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let db = dir.join("m16.sqlite");
    month16::play(&db, days);
    let mut store = Store::open(&db, realmgm::games::GAMES).expect("the played database opens");
    let mut stored = store
        .campaigns()
        .load("M16")
        .expect("the campaign is stored");
    stored.campaign.site = Some(SiteSettings {
        publish: Publish::End,
        ..SiteSettings::default()
    });
    store
        .campaigns_mut()
        .update(&stored.campaign, &stored.file_text)
        .expect("the site settings are stored");
    let mut times: Vec<Duration> = Vec::new();
    let mut built = None;
    for _ in 0..runs {
        let start = Instant::now();
        built =
            Some(realmgm::site::build(&store, "M16", &dir.join("site")).expect("the site builds"));
        times.push(start.elapsed());
    }
    times.sort();
    let built = built.expect("one build at least");
    let bytes: u64 = walk(&dir.join("site"));
    println!(
        "site of {days} days, 16 characters: median {:?}, worst {:?} over {runs} builds; {} files, {:.1} MB",
        times[times.len() / 2],
        times[times.len() - 1],
        built.files,
        bytes as f64 / 1e6
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The bytes of the files under `dir`.
fn walk(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| {
                    let path = e.path();
                    if path.is_dir() {
                        walk(&path)
                    } else {
                        e.metadata().map_or(0, |m| m.len())
                    }
                })
                .sum()
        })
        .unwrap_or(0)
}
