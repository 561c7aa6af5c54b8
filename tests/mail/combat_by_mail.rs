//! Round-by-round combat by mail: with the
//! `round_by_round_combat` toggle, a day whose Evening combat reaches a
//! round the player's orders do not cover stops there; the daemon mails a
//! round prompt, takes the answer by mail and resumes the day, or lets
//! default standing orders decide once the round deadline passes. Mail in
//! through a Maildir folder, out into another.

use crate::support;
use realmgm::game::Start;

use mail_parser::MessageParser;
use realmgm::daemon::Daemon;
use realmgm::daemon::turns::process::TurnOutcome;
use realmgm::dice::Dice;
use realmgm::game::{Rules, Seat};
use realmgm::magic_realm::state::{MrState, Whereabouts};
use realmgm::mail::maildir::Maildir;
use realmgm::mail::transport::MaildirMailer;
use support::{START, add_campaign, daemon, mail};

const ANN: &str = "ann@realmgm.test";

const CAMPAIGN: &str = "name = \"C1\"\ngame = \"magic-realm\"\nseed = 3\n\
    rules = [\"round_by_round_combat\"]\n\
    [gm]\nemail = \"gm@realmgm.test\"\n\
    [schedule]\nfirst_deadline = \"2030-01-01\"\nat = \"20:00\"\nevery_hours = 24\n\
    [mail]\nround_deadline_hours = 6\n\
    [[players]]\nname = \"Ann\"\nemail = \"ann@realmgm.test\"\ncharacter = \"Amazon\"\n";

/// A campaign whose day 0 has the Amazon alone with an Ogre, Ann's orders
/// for day 1 (rest, no `Combat:` line) in, and the mail folders.
struct Table {
    daemon: Daemon,
    secret: String,
    inbox: Maildir,
    dir: std::path::PathBuf,
    out: MaildirMailer,
    now: i64,
    mails: usize,
}

impl Table {
    fn new(test: &str) -> Table {
        Table::with(test, CAMPAIGN, &["Amazon"], "R")
    }

    /// `campaign`'s day 0 with Ann's `characters` each in a clearing with
    /// an Ogre, and Ann's `orders` for day 1 in.
    fn with(test: &str, campaign: &str, characters: &[&str], orders: &str) -> Table {
        let dir = std::env::temp_dir().join(format!("realmgm-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut daemon = daemon();
        let secrets = add_campaign(&mut daemon.store, "magic-realm", campaign);
        let game = realmgm::games::GAMES.find("magic-realm").unwrap();
        let seats: Vec<Seat> = characters
            .iter()
            .map(|character| Seat {
                player: "Ann".into(),
                role: Some((*character).into()),
            })
            .collect();
        let rules = daemon.campaign("C1").unwrap().campaign.rules;
        let start_rules = Rules::new(
            rules.names().filter(|r| *r == "multiple_characters"),
            realmgm::magic_realm::rules::TOGGLES,
        )
        .unwrap();
        let state = game
            .start(&Start::new(&seats, &start_rules), &mut Dice::new(3, 0))
            .unwrap();
        let mut state: MrState = serde_json::from_value(state.json().clone()).unwrap();
        for d in state.denizens.values_mut() {
            if matches!(d.at, Whereabouts::Clearing { .. }) {
                d.at = Whereabouts::Dead;
            }
        }
        for (character, ogre) in state.characters.iter().zip(["Ogre 1", "Ogre 2"]) {
            let here = character.position.clone();
            state.denizens.get_mut(ogre).unwrap().at = Whereabouts::Clearing { clearing: here };
        }
        assert!(rules.is_on("round_by_round_combat"));
        let state = realmgm::game::GameState::from_typed(state);
        daemon
            .store
            .days_mut()
            .save("C1", 0, &state, START)
            .unwrap();
        let mut table = Table {
            daemon,
            secret: secrets["Ann"].clone(),
            inbox: Maildir::create(dir.join("in")).unwrap(),
            out: MaildirMailer::new(dir.join("out")).unwrap(),
            dir,
            now: START,
            mails: 0,
        };
        let handled = table.send("[C1] orders", orders);
        assert!(handled.contains("accepted"), "{handled}");
        table
    }

    /// Deliver Ann's mail into the inbox and let the daemon handle it.
    fn send(&mut self, subject: &str, body: &str) -> String {
        self.now += 60;
        self.mails += 1;
        let body = format!("Password: {}\n{body}\n", self.secret);
        let id = format!("m{}@x", self.mails);
        self.inbox
            .deliver(&mail(ANN, "gm@realmgm.test", subject, &id, &body))
            .unwrap();
        assert_eq!(
            self.daemon
                .mail_in()
                .poll_maildir(&self.dir.join("in"), self.now)
                .unwrap(),
            1
        );
        let handled = self.daemon.mail_in().handle_stored(self.now).unwrap();
        handled.into_iter().map(|(_, n)| n).collect()
    }

    /// Send what is due and return the text of every mail sent so far
    /// whose subject contains `subject`.
    fn sent(&mut self, subject: &str) -> Vec<String> {
        self.daemon
            .outbox()
            .send_due(&self.out, None, self.now)
            .unwrap();
        let folder = Maildir::open(self.dir.join("out")).unwrap();
        folder
            .list_new()
            .unwrap()
            .iter()
            .filter_map(|entry| {
                let raw = folder.read(entry).unwrap();
                let message = MessageParser::default().parse(&raw).unwrap();
                let to_ann = message
                    .to()
                    .and_then(|a| a.first())
                    .and_then(|a| a.address())
                    == Some(ANN);
                (to_ann && message.subject().unwrap_or("").contains(subject))
                    .then(|| message.body_text(0).unwrap().into_owned())
            })
            .collect()
    }

    fn finish(self) {
        std::fs::remove_dir_all(&self.dir).unwrap();
    }
}

#[test]
fn a_player_answers_combat_rounds_by_mail_and_the_day_completes() {
    let mut table = Table::new("combat-by-mail");
    table.now += 60;
    let outcome = table.daemon.turns().process_turn("C1", table.now).unwrap();
    assert_eq!(
        outcome,
        TurnOutcome::WaitingForCombat {
            day: 1,
            players: vec!["Ann".into()]
        }
    );
    let prompts = table.sent("combat round");
    assert_eq!(prompts.len(), 1);
    assert!(
        prompts[0].contains("the Amazon is asked for"),
        "{}",
        prompts[0]
    );
    assert!(
        prompts[0].contains("you may attack with: "),
        "{}",
        prompts[0]
    );
    table.now += 60;
    let waiting = table.daemon.turns().check_turn("C1", table.now).unwrap();
    assert!(
        waiting.contains("waiting for the combat round answers of Ann"),
        "{waiting}"
    );
    let status = table.daemon.gm().status("C1").unwrap();
    assert!(
        status.contains("Combat round: waiting for Ann until"),
        "{status}"
    );
    let bad = table.send("Re: [C1] day 1 combat round", "Combat: attack sideways");
    assert!(bad.contains("not read"), "{bad}");
    let mut rounds = 0;
    loop {
        let answered = table.send("Re: [C1] day 1 combat round", "Combat: target weakest");
        assert!(answered.contains("accepted"), "{answered}");
        let done = table.daemon.turns().check_turn("C1", table.now).unwrap();
        rounds += 1;
        if done == "processed day 1" {
            break;
        }
        assert!(done.contains("combat round asked of Ann"), "{done}");
        assert!(rounds < 60, "the battle never ends");
    }
    // A prompt for each round and a reply to each answer (and the bad one).
    assert_eq!(table.sent("combat round").len(), 2 * rounds + 1);
    let reports = table.sent("report");
    assert_eq!(reports.len(), 1);
    assert!(reports[0].contains("Ogre"), "{}", reports[0]);
    assert!(table.daemon.store.days().load("C1", 1).unwrap().is_some());
    table.finish();
}

#[test]
fn after_the_round_deadline_default_standing_orders_decide() {
    let mut table = Table::new("combat-deadline");
    table.now += 60;
    let outcome = table.daemon.turns().process_turn("C1", table.now).unwrap();
    assert!(
        matches!(outcome, TurnOutcome::WaitingForCombat { day: 1, .. }),
        "{outcome:?}"
    );
    table.now += 5 * 3600;
    let waiting = table.daemon.turns().check_turn("C1", table.now).unwrap();
    assert!(
        waiting.starts_with("waiting for the combat round"),
        "{waiting}"
    );
    table.now += 3600;
    let done = table.daemon.turns().check_turn("C1", table.now).unwrap();
    assert_eq!(done, "processed day 1");
    let late = table.send("Re: [C1] day 1 combat round", "Combat: target weakest");
    assert!(!late.contains("combat answer"), "the day is over: {late}");
    assert_eq!(table.sent("report").len(), 1);
    table.finish();
}

/// Ann plays the Amazon and the Berserker, with an Ogre each: every
/// round's one prompt asks her for each of them, and her answer gives each
/// one's `Combat:` line under his `Orders for:` line (3.1 10.E.4).
#[test]
fn a_player_of_two_characters_answers_each_ones_rounds_in_one_mail_3_1_10_e_4() {
    let campaign = CAMPAIGN
        .replace(
            "rules = [\"round_by_round_combat\"]",
            "rules = [\"round_by_round_combat\", \"multiple_characters\"]",
        )
        .replace(
            "character = \"Amazon\"\n",
            "character = \"Amazon\"\nmore_characters = [\"Berserker\"]\n",
        );
    let mut table = Table::with(
        "combat-several",
        &campaign,
        &["Amazon", "Berserker"],
        "Orders for: Amazon\nR\n\nOrders for: Berserker\nR",
    );
    table.now += 60;
    let outcome = table.daemon.turns().process_turn("C1", table.now).unwrap();
    assert_eq!(
        outcome,
        TurnOutcome::WaitingForCombat {
            day: 1,
            players: vec!["Ann".into()]
        }
    );
    let bare = table.send("Re: [C1] day 1 combat round", "Combat: target weakest");
    assert!(bare.contains("not read"), "{bare}");
    let mut rounds = 0;
    loop {
        let prompts = table.sent("combat round");
        let prompt = prompts
            .iter()
            .rev()
            .find(|p| p.contains("is asked for"))
            .expect("a round prompt");
        let answer: String = ["Amazon", "Berserker"]
            .iter()
            .filter(|name| prompt.contains(&format!("the {name} is asked for")))
            .map(|name| format!("Orders for: {name}\nCombat: target weakest\n"))
            .collect();
        if rounds == 0 {
            assert!(
                answer.contains("Amazon") && answer.contains("Berserker"),
                "both are asked at first: {prompt}"
            );
        }
        let answered = table.send("Re: [C1] day 1 combat round", &answer);
        assert!(answered.contains("accepted"), "{answered}");
        let done = table.daemon.turns().check_turn("C1", table.now).unwrap();
        rounds += 1;
        if done == "processed day 1" {
            break;
        }
        assert!(done.contains("combat round asked of Ann"), "{done}");
        assert!(rounds < 60, "the battle never ends");
    }
    assert_eq!(table.sent("report").len(), 1, "one report mail for Ann");
    table.finish();
}
