//! A Fantasy Realms campaign played entirely by mail through the daemon:
//! players mail standing orders (one a conditional take) into a Maildir
//! inbox, one player never writes and the game's default plays for him,
//! turns run early or at their deadlines, every mail goes out through a
//! Maildir mailer, and the game is followed to its final scores. Also: a
//! turn that standing orders decide (the game awaits nobody) runs at once.

use crate::support;
use realmgm::game::Start;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use realmgm::campaign::Campaign;
use realmgm::daemon::Daemon;
use realmgm::dice::Dice;
use realmgm::fantasy_realms::cards;
use realmgm::game::{GameState, Rules, Seat};
use realmgm::mail::inbound::{InboundMail, InboundOptions, parse};
use realmgm::mail::maildir::Maildir;
use realmgm::mail::transport::MaildirMailer;
use realmgm::store::Store;
use support::{FIRST_DEADLINE, START, mail};

const TAG: &str = "FR1";
const GM: &str = "gm@realmgm.test";
const PLAYERS: [(&str, &str); 3] = [
    ("Ann", "ann@realmgm.test"),
    ("Ben", "ben@realmgm.test"),
    ("Cat", "cat@realmgm.test"),
];
/// Ann draws and drops her weakest card, always.
const ANN_ORDERS: &str = "draw, discard lowest";
/// The card Ben watches the discard area for (it is discarded in this deal).
const BEN_WANTS: &str = "Blizzard";

fn ben_orders() -> String {
    format!(
        "if {BEN_WANTS} is discarded: take {BEN_WANTS}, discard lowest\nelse: draw, discard lowest"
    )
}

fn campaign_text() -> String {
    let mut text = format!(
        "name = \"{TAG}\"\ngame = \"fantasy-realms\"\nseed = 4004\nrules = []\n\
         [gm]\nemail = \"{GM}\"\n\
         [schedule]\nfirst_deadline = \"2030-01-01\"\nat = \"20:00\"\nevery_hours = 24\n\
         process_early_after_minutes = 5\nreminder_hours = 6\nnmr = \"default\"\n\
         [mail]\nhold_if_missing_percent = 100\n"
    );
    for (name, email) in PLAYERS {
        text.push_str(&format!(
            "[[players]]\nname = \"{name}\"\nemail = \"{email}\"\n"
        ));
    }
    text
}

/// A daemon with the campaign stored; returns the players' secrets.
fn daemon() -> (Daemon, BTreeMap<String, String>) {
    let mut store = Store::open_in_memory(realmgm::games::GAMES).unwrap();
    let text = campaign_text();
    let campaign = Campaign::parse("fr.toml", &text, realmgm::games::GAMES).unwrap();
    let secrets = store
        .campaigns_mut()
        .insert(&campaign, &text, START)
        .unwrap();
    let secrets = secrets.into_iter().map(|s| (s.player, s.secret)).collect();
    (Daemon::new(store), secrets)
}

fn email(player: &str) -> &'static str {
    PLAYERS.iter().find(|(n, _)| *n == player).unwrap().1
}

/// Every mail the daemon wrote into the outgoing folder, oldest first.
fn sent(out: &Path) -> Vec<InboundMail> {
    let folder = Maildir::open(out).unwrap();
    let mut mails: Vec<(i64, InboundMail)> = folder
        .list_new()
        .unwrap()
        .iter()
        .map(|e| {
            let mail = parse(&folder.read(e).unwrap(), &InboundOptions::default()).unwrap();
            (mail.date_unix.unwrap_or_default(), mail)
        })
        .collect();
    mails.sort_by_key(|(date, _)| *date);
    mails.into_iter().map(|(_, m)| m).collect()
}

/// What one whole campaign left behind.
struct Played {
    final_state: GameState,
    mails: Vec<InboundMail>,
    days: u32,
    log: Vec<String>,
}

/// Play the campaign by mail until the game ends.
fn play(dir: &Path) -> Played {
    let _ = std::fs::remove_dir_all(dir);
    let inbox = Maildir::create(dir.join("in")).unwrap();
    let outbox = MaildirMailer::new(dir.join("out")).unwrap();
    let (mut daemon, secrets) = daemon();
    let mut now = START;
    let mut log = vec![daemon.turns().check_turn(TAG, now).unwrap()];
    let mut wrote: BTreeSet<&str> = BTreeSet::new();
    let mut over = false;
    for _ in 0..200 {
        let stored = daemon.campaign(TAG).unwrap();
        let pending = daemon.pending(&stored.campaign).unwrap();
        if daemon.over(&stored, &pending).unwrap() {
            over = true;
            break;
        }
        let (awaited, unknown) = daemon.awaited(&stored, &pending).unwrap();
        assert_eq!(unknown, None);
        // Ann and Ben write once, on their first turn: their orders stand.
        for player in &awaited {
            let orders = match player.as_str() {
                "Ann" => ANN_ORDERS.to_string(),
                "Ben" => ben_orders(),
                _ => continue,
            };
            if !wrote.insert(if player == "Ann" { "Ann" } else { "Ben" }) {
                continue;
            }
            let body = format!("Password: {}\n{orders}\n", secrets[player]);
            let id = format!("{player}-{}@x", pending.day);
            inbox
                .deliver(&mail(email(player), GM, "[FR1] orders", &id, &body))
                .unwrap();
        }
        daemon.mail_in().poll_maildir(&dir.join("in"), now).unwrap();
        for (_, note) in daemon.mail_in().handle_stored(now).unwrap() {
            assert!(note.contains("accepted"), "{note}");
            log.push(note);
        }
        now += 10 * 60;
        let mut done = daemon.turns().check_turn(TAG, now).unwrap();
        if done == "waiting" {
            // Cat never writes: remind her, then play the default at the deadline.
            now = now.max(pending.deadline - 3600);
            log.push(daemon.turns().check_turn(TAG, now).unwrap());
            now = pending.deadline + 60;
            done = daemon.turns().check_turn(TAG, now).unwrap();
        }
        assert!(
            done.starts_with("processed day"),
            "day {}: {done}",
            pending.day
        );
        log.push(done);
        daemon.outbox().send_due(&outbox, None, now).unwrap();
        now += 60;
    }
    assert!(
        over,
        "the game did not end within 200 turns of the daemon; log:\n{}",
        log.join("\n")
    );
    let latest = daemon.store.days().latest(TAG).unwrap().unwrap();
    // A finished game waits for nothing and refuses orders plainly.
    assert_eq!(daemon.turns().check_turn(TAG, now).unwrap(), "waiting");
    let late = daemon
        .mail_in()
        .ingest(
            &mail(
                email("Ann"),
                GM,
                "[FR1] more",
                "late@x",
                &format!("Password: {}\ndraw, discard lowest\n", secrets["Ann"]),
            ),
            now,
        )
        .unwrap()
        .1;
    assert!(late.contains("no turn waits"), "{late}");
    daemon.outbox().send_due(&outbox, None, now).unwrap();
    Played {
        final_state: latest.state,
        mails: sent(&dir.join("out")),
        days: latest.day,
        log,
    }
}

fn to<'m>(mails: &'m [InboundMail], player: &str) -> Vec<&'m InboundMail> {
    mails
        .iter()
        .filter(|m| m.to.iter().any(|t| t == email(player)))
        .collect()
}

/// Whether `text` names `card` (and not only inside a longer card name).
fn names_card(text: &str, card: &str, all: &[String]) -> bool {
    let mut rest = text.to_string();
    for longer in all
        .iter()
        .filter(|n| n.len() > card.len() && n.contains(card))
    {
        rest = rest.replace(longer.as_str(), "");
    }
    rest.contains(card)
}

#[test]
fn a_fantasy_realms_campaign_is_played_to_its_end_by_mail() {
    let dir = std::env::temp_dir().join(format!("realmgm-fr-mail-{}", std::process::id()));
    let played = play(&dir.join("first"));
    let log = played.log.join("\n");

    let deck = cards::deck().unwrap();
    let all: Vec<String> = deck.ids().map(|id| deck.card(id).name.clone()).collect();
    let table = &played.final_state.json();
    assert_eq!(table["phase"], "finished", "{table}");
    assert!(played.days >= 3, "{log}");
    // Cat's turns were played by the game's default, at their deadlines.
    let at_deadline = played
        .log
        .iter()
        .filter(|l| l.starts_with("processed day") && !l.ends_with("early"))
        .count();
    assert!(at_deadline >= 2, "{log}");
    assert!(log.contains("reminded Cat"), "{log}");
    // Ann and Ben wrote once each; their standing orders played the rest.
    let accepted = played.log.iter().filter(|l| l.contains("accepted")).count();
    assert_eq!(accepted, 2, "{log}");

    let hands: BTreeMap<String, Vec<String>> = table["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let hand = s["hand"]
                .as_array()
                .unwrap()
                .iter()
                .map(|id| {
                    let id = cards::CardId::try_from(id.as_u64().unwrap()).unwrap();
                    deck.card(id).name.clone()
                })
                .collect();
            (s["player"].as_str().unwrap().to_string(), hand)
        })
        .collect();
    assert_eq!(hands.len(), 3);

    for (player, _) in PLAYERS {
        let mine = to(&played.mails, player);
        let reports: Vec<_> = mine
            .iter()
            .filter(|m| m.body_text.contains("report ==="))
            .collect();
        assert_eq!(
            reports.len() as u32,
            played.days,
            "{player} gets a report every day"
        );
        if player == "Cat" {
            assert!(mine.iter().any(|m| m.body_text.contains("reminder ===")));
        } else {
            let confirmed = mine
                .iter()
                .filter(|m| m.body_text.contains("are accepted (version 1)"))
                .count();
            assert_eq!(confirmed, 1, "{player}'s orders are confirmed");
        }
        if player == "Ann" {
            assert!(
                mine.iter().any(|m| m
                    .body_text
                    .contains("No turn waits for orders: the game is over")),
                "Ann's late orders are answered"
            );
        }
        // Before the end, no report shows a card another player holds at
        // the end unless it was ever in the open (taken or discarded).
        let (before, last) = reports.split_at(reports.len() - 1);
        for report in before {
            for (other, hand) in &hands {
                if other == player {
                    continue;
                }
                for card in hand {
                    let public = played.mails.iter().any(|m| {
                        m.body_text.contains(&format!("discarded {card}."))
                            || m.body_text.contains(&format!("took {card} from"))
                    });
                    let own_orders = player == "Ben" && card == BEN_WANTS;
                    assert!(
                        public || own_orders || !names_card(&report.body_text, card, &all),
                        "{player}'s report shows {other}'s {card}:\n{}",
                        report.body_text
                    );
                }
            }
        }
        // The last report scores every hand card by card.
        let last = &last[0].body_text;
        assert!(last.contains("Final scores"), "{last}");
        assert!(last.contains("The game is over."), "{last}");
        for score in table["scores"].as_array().unwrap() {
            let line = format!(
                "{}: {} points",
                score["player"].as_str().unwrap(),
                score["total"]
            );
            assert!(last.contains(&line), "{player} misses '{line}':\n{last}");
            for card in score["cards"].as_array().unwrap() {
                let line = format!(
                    "  {:>4}  {}",
                    card["points"],
                    card["card"].as_str().unwrap()
                );
                assert!(last.contains(&line), "{player} misses '{line}':\n{last}");
            }
        }
    }
    // Ben's conditional rule played: he took the card he watched for.
    assert!(
        to(&played.mails, "Ben")
            .iter()
            .any(|m| m.body_text.contains(&format!(
                "You played by standing orders: if {BEN_WANTS} is discarded"
            ))),
        "Ben's rule never played"
    );
    assert!(
        played
            .mails
            .iter()
            .any(|m| m.body_text.contains(&format!("Ben took {BEN_WANTS} from"))),
        "Ben never took {BEN_WANTS}"
    );

    let again = play(&dir.join("second"));
    assert_eq!(again.final_state.hash(), played.final_state.hash());
    assert_eq!(again.days, played.days);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_turn_decided_by_standing_orders_runs_at_once_and_the_game_ends() {
    let (mut daemon, secrets) = daemon();
    let game = realmgm::games::GAMES.find("fantasy-realms").unwrap();
    let seats: Vec<Seat> = PLAYERS
        .iter()
        .map(|(name, _)| Seat {
            player: name.to_string(),
            role: None,
        })
        .collect();
    let stored = daemon.campaign(TAG).unwrap();
    let mut dice = Dice::new(stored.campaign.seed, 0);
    let fresh = game
        .start(&Start::new(&seats, &Rules::default()), &mut dice)
        .unwrap();
    // Every player already has standing orders that decide his turns.
    let mut json = fresh.json().clone();
    for seat in json["seats"].as_array_mut().unwrap() {
        let player = seat["player"].as_str().unwrap().to_string();
        let parsed = game
            .read_orders(&fresh, &Rules::default(), &player, ANN_ORDERS)
            .unwrap()
            .parsed;
        seat["orders"] = parsed.json().clone();
    }
    let state = GameState::new(json);
    assert_eq!(game.awaiting(&state).unwrap(), Vec::<String>::new());
    assert!(!game.is_over(&state).unwrap());
    daemon.store.days_mut().save(TAG, 0, &state, START).unwrap();
    let status = daemon.gm().status(TAG).unwrap();
    assert!(status.contains("standing orders decide"), "{status}");
    let answer = daemon
        .mail_in()
        .ingest(
            &mail(
                email("Cat"),
                GM,
                "[FR1] orders",
                "c@x",
                &format!("Password: {}\ndraw, discard lowest\n", secrets["Cat"]),
            ),
            START,
        )
        .unwrap()
        .1;
    // New standing orders are accepted even when no turn waits for them.
    assert!(answer.contains("accepted"), "{answer}");
    // Nobody is waited for: the turn runs on the first tick and plays on
    // to the end, since every player's orders decide every turn.
    assert_eq!(
        daemon.turns().check_turn(TAG, START + 1).unwrap(),
        "processed day 1 early"
    );
    let latest = daemon.store.days().latest(TAG).unwrap().unwrap();
    assert_eq!(latest.state.json()["phase"], "finished");
    assert!(game.is_over(&latest.state).unwrap());
    assert_eq!(
        daemon.turns().check_turn(TAG, FIRST_DEADLINE + 60).unwrap(),
        "waiting"
    );
    let status = daemon.gm().status(TAG).unwrap();
    assert!(status.contains("the game is over"), "{status}");
}
