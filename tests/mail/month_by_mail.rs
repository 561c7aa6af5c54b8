//! A month of Magic Realm played by mail through the local Postfix and
//! Dovecot: five players send their orders over
//! SMTP and read everything over IMAP; the daemon collects over IMAP and
//! sends over SMTP. Along the month a player joins on day 3 and chooses his
//! character by mail, one is away days 5–8, one is killed by the GM's
//! ruling and comes back as another character, a seat passes to a new
//! player and character on day 10, the GM gives an item by ruling on day
//! 12, edits the schedule and announces news on day 14, and rolls back day
//! 15 and re-runs it to the same hashes. Every mail is answered, every day
//! runs, and no report holds what its reader could not see.
//! Prints SKIPPED and returns when the server is not running.

use crate::common;
use crate::support;

use std::collections::BTreeMap;
use std::thread::sleep;
use std::time::Duration;

use realmgm::daemon::Daemon;
use realmgm::dice::Dice;
use realmgm::magic_realm::day::bot;
use realmgm::magic_realm::state::MrState;
use realmgm::mail::inbound::InboundMail;
use realmgm::mail::transport::{MailTransport, SmtpMailer};
use support::*;

use super::daemon_server::{imap_settings, server_is_up, smtp};

/// The GM's mailbox of this test, apart from `gm@`, which the other server
/// tests poll at the same time (each poll marks what it read).
const GM_USER: &str = "month";

const DAY: i64 = 24 * 3600;

/// A seat as the test drives it: who mails from where with which secret.
struct Seat {
    name: &'static str,
    user: &'static str,
    secret: String,
}

struct Month {
    daemon: Daemon,
    smtp: SmtpMailer,
    tag: String,
    gm_secret: String,
    now: i64,
    /// Players' mails sent to the daemon, which must each get an answer.
    sent: usize,
}

impl Month {
    fn subject(&self, text: &str) -> String {
        format!("[{}] {text}", self.tag)
    }

    fn send(&mut self, user: &str, subject: &str, body: &str) {
        let from = format!("{user}@realmgm.test");
        let message = lettre::Message::builder()
            .from(from.parse().unwrap())
            .to(format!("{GM_USER}@realmgm.test").parse().unwrap())
            .subject(self.subject(subject))
            .body(body.to_string())
            .unwrap();
        self.smtp.send(&message).unwrap();
        // The daemon reads the GM's mailbox too (marking his answers seen),
        // so the GM's commands are checked by their notes instead.
        if user != GM_USER {
            self.sent += 1;
        }
    }

    /// A GM command by mail, carried out and answered.
    fn gm(&mut self, subject: &str, body: &str) {
        let body = format!("Password: {}\n{body}", self.gm_secret);
        self.send(GM_USER, subject, &body);
        let notes = self.collect(1);
        assert!(notes[0].starts_with("GM command"), "{notes:?}");
    }

    /// Collect and answer mail until `handled` more mails were handled.
    fn collect(&mut self, handled: usize) -> Vec<String> {
        let mut notes = Vec::new();
        // The GM's mailbox, which the daemon polls, also holds its own mail
        // to the GM (histories, notices) and the mail of other tests and
        // runs using the same server: only mail sent to this campaign counts.
        let ours = format!("[{}]", self.tag);
        for _ in 0..150 {
            self.daemon
                .mail_in()
                .poll_imap(&imap_settings(GM_USER), "INBOX", self.now)
                .unwrap();
            for (id, note) in self.daemon.mail_in().handle_stored(self.now).unwrap() {
                let mail = self.daemon.store.inbox().get(id).unwrap().unwrap();
                let raw = String::from_utf8_lossy(&mail.raw);
                let sent_here = raw
                    .lines()
                    .any(|l| l.starts_with("Subject:") && l.contains(&ours));
                let from_the_daemon = raw.lines().any(|l| l.starts_with("Auto-Submitted:"));
                if sent_here && !from_the_daemon {
                    notes.push(note);
                }
            }
            if notes.len() >= handled {
                break;
            }
            sleep(Duration::from_millis(100));
        }
        assert!(notes.len() >= handled, "only {notes:?}");
        self.deliver();
        notes
    }

    fn deliver(&mut self) {
        let summary = self
            .daemon
            .outbox()
            .send_due(&self.smtp, Some(&self.tag), self.now)
            .unwrap();
        assert_eq!(summary.failed, 0);
    }

    fn state(&self) -> MrState {
        let latest = self.daemon.store.days().latest(&self.tag).unwrap().unwrap();
        serde_json::from_value(latest.state.json().clone()).unwrap()
    }

    fn secret_from_welcome(&self, user: &str) -> String {
        let welcome = common::wait_for_mail(&imap_settings(user), "welcome", 1);
        let text = &welcome[0].body_text;
        text.lines()
            .find_map(|l| l.strip_prefix("Your secret is: "))
            .unwrap_or_else(|| panic!("no secret in {text}"))
            .trim()
            .to_string()
    }
}

#[test]
fn a_month_with_five_players_is_played_through_the_mail_servers() {
    if !server_is_up() {
        eprintln!("SKIPPED: no local mail server; run scripts/mailserver.sh start");
        return;
    }
    let tag = format!("M{}", common::run_marker());
    let mut daemon = support::daemon();
    let text = campaign_text(
        &tag,
        &[
            ("Ann", "player1@realmgm.test"),
            ("Ben", "player2@realmgm.test"),
            ("Cat", "player3@realmgm.test"),
            ("Dan", "player4@realmgm.test"),
        ],
        "",
    )
    .replace("Annchar", "Amazon")
    .replace("Benchar", "Black Knight")
    .replace("Catchar", "Wizard")
    .replace("Danchar", "Dwarf")
    .replace("gm@realmgm.test", &format!("{GM_USER}@realmgm.test"));
    let secrets = add_campaign(&mut daemon.store, "magic-realm", &text);
    let gm_secret = daemon.store.control_mut().new_gm_secret(&tag).unwrap();
    let mut seats: Vec<Seat> = [
        ("Ann", "player1"),
        ("Ben", "player2"),
        ("Cat", "player3"),
        ("Dan", "player4"),
    ]
    .into_iter()
    .map(|(name, user)| Seat {
        name,
        user,
        secret: secrets[name].clone(),
    })
    .collect();
    let mut month = Month {
        daemon,
        smtp: smtp(),
        tag: tag.clone(),
        gm_secret,
        now: FIRST_DEADLINE - DAY / 2,
        sent: 0,
    };
    // Mail of earlier runs carries other tags; the mailboxes are read from
    // here on.
    for user in [
        "player1", "player2", "player3", "player4", "player5", "player6",
    ] {
        common::collect_unseen(&imap_settings(user), &format!("[{tag}]"));
    }
    month.daemon.turns().check_turn(&tag, month.now).unwrap();
    month.deliver();
    let data = realmgm::magic_realm::data::get().unwrap();
    let rules = month.daemon.campaign(&tag).unwrap().campaign.rules.clone();
    let mut away: Vec<&str> = Vec::new();
    let mut first_run_of_15 = None;
    let mut day = 1u32;
    while day <= 28 {
        let deadline = FIRST_DEADLINE + i64::from(day - 1) * DAY;
        month.now = month.now.max(deadline - DAY / 2);
        let mut extra: BTreeMap<&str, String> = BTreeMap::new();
        match day {
            3 => {
                month.gm("gm", "gm add-player Erin player5@realmgm.test");
                let secret = month.secret_from_welcome("player5");
                seats.push(Seat {
                    name: "Erin",
                    user: "player5",
                    secret,
                });
                extra.insert("Erin", "Character: Elf\nH, H".to_string());
            }
            5 => {
                let seat = &seats[1];
                let body = format!("Password: {}\naway until 2030-01-09", seat.secret);
                let user = seat.user;
                month.send(user, "away", &body);
                month.collect(1);
                away.push("Ben");
            }
            6 => {
                month.gm(
                    "gm rule",
                    "kill Wizard -- struck by lightning the rules forgot",
                );
                extra.insert("Cat", "Character: Druid".to_string());
            }
            9 => away.clear(),
            10 => {
                month.gm("gm", "gm replace Dan player6@realmgm.test Swordsman");
                let secret = month.secret_from_welcome("player6");
                let dan = seats.iter_mut().find(|s| s.name == "Dan").unwrap();
                dan.user = "player6";
                dan.secret = secret;
            }
            12 => {
                let state = month.state();
                let item = state
                    .holdings
                    .values()
                    .flatten()
                    .find(|i| i.kind == realmgm::magic_realm::state::ItemKind::Treasure)
                    .unwrap()
                    .name
                    .clone();
                month.gm(
                    "gm rule",
                    &format!("give {item} to Amazon -- a reward the GM owed"),
                );
                assert_eq!(
                    month.daemon.store.rulings().on_day(&tag, 12).unwrap().len(),
                    1
                );
            }
            14 => {
                let stored = month.daemon.campaign(&tag).unwrap();
                let mut edited = stored.campaign.clone();
                edited.schedule.reminder_hours = Some(8);
                let changes = realmgm::campaign::edit::changes(&stored.campaign, &edited, true);
                assert_eq!(changes.len(), 1, "{changes:?}");
                let updated =
                    realmgm::campaign::edit::apply(&stored.campaign, &edited, &changes).unwrap();
                month
                    .daemon
                    .store
                    .campaigns_mut()
                    .update(&updated, &stored.file_text)
                    .unwrap();
                month.gm(
                    "gm announce",
                    "The Inn's cellar is flooded: no drinks this week.",
                );
            }
            _ => {}
        }
        let state = month.state();
        let mut dice = Dice::new(11, day);
        let mut orders_sent = 0;
        for seat in &seats {
            if away.contains(&seat.name) {
                continue;
            }
            let mut body = format!("Password: {}\n", seat.secret);
            if let Some(orders) = bot::orders_for(data, &rules, &state, seat.name, &mut dice) {
                body.push_str(&orders.to_string());
                body.push('\n');
            }
            if let Some(more) = extra.get(seat.name) {
                body.push_str(more);
            }
            let (user, subject) = (seat.user, format!("day {day}"));
            month.send(user, &subject, &body);
            orders_sent += 1;
        }
        let notes = month.collect(orders_sent);
        assert!(
            notes
                .iter()
                .all(|n| n.contains("accepted") || n.contains("chose")),
            "day {day}: {notes:?}"
        );
        month.now += 10 * 60;
        let done = month.daemon.turns().check_turn(&tag, month.now).unwrap();
        assert_eq!(done, format!("processed day {day} early"), "day {day}");
        month.deliver();
        if day == 15 && first_run_of_15.is_none() {
            first_run_of_15 = Some(month.daemon.store.days().runs(&tag, 15).unwrap()[0].clone());
            month.gm("gm", "gm rollback 14");
            // Day 15 runs again from its kept orders and rulings.
            month.now += 10 * 60;
            month.daemon.turns().check_turn(&tag, month.now).unwrap();
            month.deliver();
            let runs = month.daemon.store.days().runs(&tag, 15).unwrap();
            let first = first_run_of_15.as_ref().unwrap();
            assert_eq!(runs.last().unwrap().state_hash, first.state_hash);
            assert_eq!(runs.last().unwrap().reports_hash, first.reports_hash);
        }
        day += 1;
    }
    let last = month.daemon.store.days().latest(&tag).unwrap().unwrap();
    assert_eq!(last.day, 28, "every day ran");
    // Every mail the daemon got was handled, none failed.
    let unhandled = month
        .daemon
        .store
        .inbox()
        .with_status(realmgm::store::InboundStatus::New)
        .unwrap();
    assert!(unhandled.is_empty(), "{unhandled:?}");
    let mailboxes: BTreeMap<&str, Vec<InboundMail>> = [
        "player1", "player2", "player3", "player4", "player5", "player6", GM_USER,
    ]
    .into_iter()
    .map(|user| {
        (
            user,
            common::collect_unseen(&imap_settings(user), &format!("[{tag}]")),
        )
    })
    .collect();
    let reports = |user: &str| -> Vec<&InboundMail> {
        mailboxes[user]
            .iter()
            .filter(|m| m.subject.contains(" report for the "))
            .collect()
    };
    let answers: usize = mailboxes
        .iter()
        .filter(|(user, _)| **user != GM_USER)
        .flat_map(|(_, mails)| mails)
        .filter(|m| m.subject.contains("Re: "))
        .count();
    assert_eq!(answers, month.sent, "every player's mail is answered once");
    // Ann played all month; Ben was away days 5–8 and got his summary.
    assert!(
        reports("player1").len() >= 28,
        "{}",
        reports("player1").len()
    );
    assert!(mailboxes["player2"].iter().any(|m| {
        m.body_text
            .contains("While you were away, days 5 to 8 were played for you")
    }));
    // Cat came back as the Druid; Dan's seat went to player6 as the Swordsman.
    assert!(
        reports("player3")
            .iter()
            .any(|m| m.subject.ends_with("for the Druid"))
    );
    assert!(
        reports("player6")
            .iter()
            .any(|m| m.subject.ends_with("for the Swordsman"))
    );
    assert!(
        !reports("player4")
            .iter()
            .any(|m| m.subject.contains("Day 10 "))
    );
    assert!(
        reports("player5")
            .iter()
            .any(|m| m.subject.ends_with("for the Elf"))
    );
    // Only the Amazon's player (and whoever held the item) reads the gift;
    // everyone reads the announcement; nobody reads the GM's secrets.
    let gift = "GM ruling: the Amazon is given the";
    assert!(
        reports("player1")
            .iter()
            .any(|m| m.body_text.contains(gift))
    );
    assert!(
        !reports("player5")
            .iter()
            .any(|m| m.body_text.contains(gift))
    );
    for user in ["player1", "player2", "player3", "player5", "player6"] {
        assert!(
            reports(user)
                .iter()
                .any(|m| m.body_text.contains("The Inn's cellar is flooded")),
            "{user}"
        );
        assert!(
            reports(user)
                .iter()
                .all(|m| !m.body_text.contains("GM only")),
            "{user}"
        );
    }
}
