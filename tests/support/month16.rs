//! A 16-player Magic Realm month played through the daemon in-process, on
//! a database file: each day every player's bot orders arrive as a mail,
//! the day runs as soon as all are in, and all mail is sent to a transport
//! that only counts, or to one the caller gives. Shared by the storage
//! test (tests/mail/storage.rs), the test of what people read
//! (tests/mail/what_people_read.rs) and the daemon's month benchmark
//! (benches/daemon_month.rs).

use std::cell::Cell;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use serde::Deserialize;

use lettre::Message;
use realmgm::campaign::Campaign;
use realmgm::daemon::Daemon;
use realmgm::dice::Dice;
use realmgm::magic_realm::data;
use realmgm::magic_realm::day::bot;
use realmgm::magic_realm::state::MrState;
use realmgm::mail::transport::{MailTransport, SendError};
use realmgm::store::Store;

pub const TAG: &str = "M16";
const DAY: i64 = 24 * 3600;

/// What a month left in the database.
pub struct Played {
    /// The database file's size with its write-ahead log checkpointed.
    pub bytes: u64,
    pub mails_in: usize,
    /// Sent through the counting transport; 0 through the caller's.
    pub mails_out: usize,
    /// The bytes each table and index takes, largest first.
    pub tables: Vec<(String, u64)>,
    /// Time spent reading the players' mails, running the days (reports
    /// included), and sending.
    pub reading: Duration,
    pub running: Duration,
    pub sending: Duration,
    /// Each player's secret, by name.
    pub secrets: BTreeMap<String, String>,
    /// The clock when the last day's mail was sent.
    pub ended: i64,
}

/// A transport that accepts every mail and counts it.
#[derive(Default)]
struct Sink(Cell<usize>);

impl MailTransport for Sink {
    fn send(&self, _: &Message) -> Result<String, SendError> {
        self.0.set(self.0.get() + 1);
        Ok("accepted".into())
    }
}

fn campaign_text() -> String {
    let data = data::get().expect("the embedded data loads");
    let mut text = format!(
        "name = \"{TAG}\"\ngame = \"magic-realm\"\nseed = 16\nrules = []\n\
         [gm]\nemail = \"gm@month.test\"\n\
         [schedule]\nfirst_deadline = \"2030-01-01\"\nat = \"20:00\"\nevery_hours = 24\n\
         process_early_after_minutes = 0\n"
    );
    for (n, character) in (1..).zip(&data.characters) {
        text.push_str(&format!(
            "[[players]]\nname = \"P{n:02}\"\nemail = \"p{n:02}@month.test\"\n\
             character = \"{}\"\n",
            character.name
        ));
    }
    text
}

/// Remove the database at `path` with its write-ahead log.
pub fn remove(path: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let _ = std::fs::remove_file(name);
    }
}

/// Play `days` days into a new database at `path`.
pub fn play(path: &Path, days: u32) -> Played {
    let sink = Sink::default();
    let played = play_through(path, days, &sink);
    Played {
        mails_out: sink.0.get(),
        ..played
    }
}

/// [`play`], sending every mail through `transport`.
pub fn play_through(path: &Path, days: u32, transport: &dyn MailTransport) -> Played {
    remove(path);
    let data = data::get().expect("the embedded data loads");
    let text = campaign_text();
    let campaign =
        Campaign::parse("month16.toml", &text, realmgm::games::GAMES).expect("the campaign parses");
    let first_deadline = campaign.schedule.first_deadline_unix();
    let mut store = Store::open(path, realmgm::games::GAMES).expect("a new database");
    let secrets: BTreeMap<String, String> = store
        .campaigns_mut()
        .insert(&campaign, &text, first_deadline - DAY)
        .expect("the campaign is stored")
        .into_iter()
        .map(|s| (s.player, s.secret))
        .collect();
    let mut daemon = Daemon::new(store);
    let mut now = first_deadline - DAY / 2;
    daemon
        .turns()
        .check_turn(TAG, now)
        .expect("the game is set up");
    let mut mails_in = 0;
    let (mut reading, mut running, mut sending) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for day in 1..=days {
        now = now.max(first_deadline + i64::from(day - 1) * DAY - DAY / 2);
        let latest = daemon.store.days().latest(TAG).unwrap().unwrap();
        let state = MrState::deserialize(latest.state.json()).unwrap();
        let mut dice = Dice::new(17, day);
        for character in &state.characters {
            let player = &character.player;
            let orders = bot::orders_for(data, &campaign.rules, &state, player, &mut dice)
                .map(|orders| orders.to_string())
                .unwrap_or_default();
            let raw = format!(
                "From: {sender}@month.test\r\nTo: gm@month.test\r\nSubject: [{TAG}] day {day}\r\n\
                 Message-ID: <{player}-{day}@month.test>\r\n\
                 Date: Tue, 1 Jan 2030 10:00:00 +0000\r\n\r\nPassword: {secret}\r\n{orders}\r\n",
                sender = player.to_lowercase(),
                secret = secrets[player],
            );
            let start = Instant::now();
            let (_, note) = daemon.mail_in().ingest(raw.as_bytes(), now).unwrap();
            reading += start.elapsed();
            assert!(note.contains("accepted"), "day {day}, {player}: {note}");
            mails_in += 1;
        }
        now += 60;
        let start = Instant::now();
        let done = daemon.turns().check_turn(TAG, now).unwrap();
        running += start.elapsed();
        assert_eq!(done, format!("processed day {day} early"));
        let start = Instant::now();
        daemon.outbox().send_due(transport, None, now).unwrap();
        // As the daemon's round does after sending.
        daemon.outbox().prune_sent(&campaign, now).unwrap();
        sending += start.elapsed();
    }
    drop(daemon);
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        .unwrap();
    let mut tables: Vec<(String, u64)> = conn
        .prepare("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC")
        .unwrap()
        .query_map([], |row| {
            let bytes: i64 = row.get(1)?;
            Ok((row.get(0)?, bytes.unsigned_abs()))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    tables.retain(|(_, bytes)| *bytes > 4096);
    drop(conn);
    Played {
        bytes: std::fs::metadata(path).unwrap().len(),
        mails_in,
        mails_out: 0,
        tables,
        reading,
        running,
        sending,
        secrets,
        ended: now,
    }
}
