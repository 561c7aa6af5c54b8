//! One `realmgm daemon` serving three campaigns through the local Postfix
//! and Dovecot: the binary runs as a service runs
//! it, with no `--campaign`, reading one GM mailbox over IMAP and sending
//! over SMTP. The same three people play in all three campaigns; each sends
//! his orders, the daemon routes every mail by its campaign's tag, runs
//! each campaign's day as soon as its orders are in, and every player finds
//! each campaign's report in his mailbox. SIGTERM then ends it cleanly.
//! Prints SKIPPED and returns when the server is not running.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Child;
use std::thread::sleep;
use std::time::Duration;

use common::{TempDb, realmgm, stdout};
use lettre::Message;
use realmgm::dice::Dice;
use realmgm::magic_realm::day::bot;
use realmgm::magic_realm::state::MrState;
use realmgm::mail::transport::MailTransport;
use realmgm::store::Store;

use super::daemon_server::{imap_settings, server_is_up, smtp};

/// The GM's mailbox of this test, apart from the other tests' GMs.
const GM_USER: &str = "trio";
/// The players, by name and mailbox, the same in every campaign.
const PLAYERS: [(&str, &str, &str); 3] = [
    ("Ann", "player4", "Amazon"),
    ("Ben", "player5", "Black Knight"),
    ("Cat", "player6", "Wizard"),
];
const DAYS: u32 = 2;

fn campaign_file(tag: &str, seed: u32) -> String {
    let mut text = format!(
        "name = \"{tag}\"\ngame = \"magic-realm\"\nseed = {seed}\nrules = []\n\
         [gm]\nemail = \"{GM_USER}@realmgm.test\"\n\
         [schedule]\nfirst_deadline = \"2099-01-01\"\nat = \"20:00\"\nevery_hours = 24\n\
         process_early_after_minutes = 0\n\
         [mail]\npoll_seconds = 1\n\
         [mail.smtp]\nhost = \"127.0.0.1\"\nport = 2525\nsecurity = \"none\"\n\
         [mail.imap]\nhost = \"127.0.0.1\"\nport = 1143\nsecurity = \"none\"\n\
         user = \"{GM_USER}@realmgm.test\"\npassword_env = \"REALMGM_TRIO_PASSWORD\"\n"
    );
    for (name, user, character) in PLAYERS {
        text.push_str(&format!(
            "[[players]]\nname = \"{name}\"\nemail = \"{user}@realmgm.test\"\n\
             character = \"{character}\"\n"
        ));
    }
    text
}

/// The secrets `campaign new` printed, by player.
fn secrets(printed: &str) -> BTreeMap<String, String> {
    PLAYERS
        .iter()
        .map(|(name, user, _)| {
            let prefix = format!("{name} <{user}@realmgm.test>: ");
            let secret = printed
                .lines()
                .find_map(|line| line.trim().strip_prefix(&prefix))
                .unwrap_or_else(|| panic!("no secret for {name} in {printed}"));
            ((*name).to_string(), secret.to_string())
        })
        .collect()
}

/// Wait (60 seconds at most) until every campaign has stored `day`.
fn wait_for_day(db: &Path, tags: &[String], day: u32, daemon: &mut Child) {
    for _ in 0..300 {
        let store = Store::open(db, realmgm::games::GAMES).unwrap();
        let reached = tags.iter().all(|tag| {
            store
                .days()
                .latest(tag)
                .unwrap()
                .is_some_and(|latest| latest.day >= day)
        });
        if reached {
            return;
        }
        if let Some(status) = daemon.try_wait().unwrap() {
            panic!("the daemon ended early: {status}");
        }
        sleep(Duration::from_millis(200));
    }
    panic!("not every campaign reached day {day}");
}

#[test]
fn one_daemon_serves_three_campaigns_through_the_mail_servers() {
    if !server_is_up() {
        eprintln!("SKIPPED: no local mail server; run scripts/mailserver.sh start");
        return;
    }
    let db = TempDb::new("three-campaigns");
    let marker = common::run_marker();
    let tags: Vec<String> = ["A", "B", "C"]
        .iter()
        .map(|letter| format!("{letter}{marker}"))
        .collect();
    // Mail of earlier runs carries other tags.
    for (_, user, _) in PLAYERS {
        for tag in &tags {
            common::collect_unseen(&imap_settings(user), &format!("[{tag}]"));
        }
    }
    let mut keys = BTreeMap::new();
    for (seed, tag) in (1..).zip(&tags) {
        let file = db.dir().join(format!("{tag}.toml"));
        std::fs::write(&file, campaign_file(tag, seed)).unwrap();
        let printed = stdout(&realmgm(
            &["campaign", "new", file.to_str().unwrap()],
            &db.0,
        ));
        keys.insert(tag.clone(), secrets(&printed));
    }
    let password = format!("{GM_USER}-secret");
    let mut daemon = common::spawn_daemon(
        &db.0,
        &["--poll-seconds", "1"],
        &[("REALMGM_TRIO_PASSWORD", &password)],
    );
    wait_for_day(&db.0, &tags, 0, &mut daemon);
    let data = realmgm::magic_realm::data::get().unwrap();
    let smtp = smtp();
    for day in 1..=DAYS {
        for tag in &tags {
            let store = Store::open(&db.0, realmgm::games::GAMES).unwrap();
            let latest = store.days().latest(tag).unwrap().unwrap();
            let state: MrState = serde_json::from_value(latest.state.json().clone()).unwrap();
            let rules = store.campaigns().load(tag).unwrap().campaign.rules;
            let mut dice = Dice::new(5, day);
            for (name, user, _) in PLAYERS {
                let orders = bot::orders_for(data, &rules, &state, name, &mut dice)
                    .map(|orders| orders.to_string())
                    .unwrap_or_default();
                let body = format!("Password: {}\n{orders}\n", keys[tag][name]);
                let message = Message::builder()
                    .from(format!("{user}@realmgm.test").parse().unwrap())
                    .to(format!("{GM_USER}@realmgm.test").parse().unwrap())
                    .subject(format!("[{tag}] orders for day {day}"))
                    .body(body)
                    .unwrap();
                smtp.send(&message).unwrap();
            }
        }
        wait_for_day(&db.0, &tags, day, &mut daemon);
        // Each player reads each campaign's report of the day.
        for (name, user, character) in PLAYERS {
            for tag in &tags {
                let subject = format!("[{tag}] Day {day} report");
                let reports = common::wait_for_mail(&imap_settings(user), &subject, 1);
                let text = &reports[0].body_text;
                assert!(text.contains(character), "{name} in {tag}: {text}");
            }
        }
    }
    let log = common::terminate(daemon);
    for tag in &tags {
        for day in 1..=DAYS {
            assert!(
                log.contains(&format!("processed day {day} early campaign={tag}")),
                "{tag} day {day}: {log}"
            );
        }
    }
    // Every mail the players sent was read and accepted, none failed.
    let store = Store::open(&db.0, realmgm::games::GAMES).unwrap();
    for tag in &tags {
        let status = store.inbox().mail_health(tag).unwrap();
        assert_eq!(status.failed, 0, "{tag}");
        for day in 1..=DAYS {
            let orders = store.orders().for_day(tag, day).unwrap();
            let senders: Vec<&str> = orders.iter().map(|o| o.player.as_str()).collect();
            assert_eq!(senders, ["Ann", "Ben", "Cat"], "{tag} day {day}");
        }
    }
}
