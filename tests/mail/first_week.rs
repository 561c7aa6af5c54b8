//! A new GM's first week, scripted through the daemon in-process on a
//! database file (mail kept by a capturing transport; the GM's commands
//! run as the `realmgm` binary): the shipped standard campaign with setup
//! by mail forgotten, a hold that lifts itself once the GM switches it on,
//! characters chosen and starting info sent by mail, a day of orders
//! wrapped in greetings and sign-offs, a late joiner, a removal, and the
//! public pages after it. Every player mail must get an answer.
//!
//! Each step is a function of its own, so a step can be added between two
//! others without touching them.

use std::collections::BTreeMap;

use realmgm::campaign::Campaign;
use realmgm::daemon::Daemon;
use realmgm::mail::inbound::InboundMail;
use realmgm::store::Store;

use crate::common::{TempDb, realmgm, stderr, stdout};
use crate::support::capture::{Capture, to};
use crate::support::{self, FIRST_DEADLINE, START, mail};

const TAG: &str = "MR1";
const GM: &str = "gm@example.org";
const HOUR: i64 = 3600;

/// The campaign, its mail, and every mail the players sent and got.
struct Week {
    db: TempDb,
    file: std::path::PathBuf,
    daemon: Daemon,
    capture: Capture,
    secrets: BTreeMap<String, String>,
    emails: BTreeMap<String, String>,
    now: i64,
    /// Every mail the daemon sent, in order.
    inbox: Vec<InboundMail>,
    /// Message-ID of each player mail sent, with its sender's address.
    sent: Vec<(String, String)>,
}

impl Week {
    /// Send what is due and keep it; the mails just sent.
    fn flush(&mut self) -> Vec<InboundMail> {
        let mails = self.capture.flush(&mut self.daemon, self.now);
        self.inbox.extend(mails.iter().cloned());
        mails
    }

    /// A player's mail with his `Password:` line on top; the answer to it.
    fn post(&mut self, player: &str, subject: &str, body: &str) -> String {
        let id = format!("{}-{}@example.org", player.to_lowercase(), self.sent.len());
        let email = self.emails[player].clone();
        let body = format!("Password: {}\n{body}", self.secrets[player]);
        let raw = mail(&email, GM, &format!("[{TAG}] {subject}"), &id, &body);
        self.daemon.mail_in().ingest(&raw, self.now).unwrap();
        self.sent.push((email.clone(), id.clone()));
        let mails = self.flush();
        let answer = to(&mails, &email)
            .into_iter()
            .find(|m| m.in_reply_to.iter().any(|r| r.contains(&id)))
            .unwrap_or_else(|| panic!("{player}'s mail \"{subject}\" got no answer"));
        answer.body_text
    }

    fn tick(&mut self) -> String {
        self.daemon.turns().check_turn(TAG, self.now).unwrap()
    }

    fn gm_mail(&self) -> Vec<InboundMail> {
        to(&self.inbox, GM)
    }

    fn cli(&self, args: &[&str]) -> std::process::Output {
        realmgm(args, &self.db.0)
    }
}

/// The shipped standard campaign as a GM who forgot `setup_by_mail`
/// stores it with `campaign new`: Dave has no character.
fn a_new_campaign_from_the_shipped_file() -> Week {
    let db = TempDb::new("first-week");
    let shipped = std::fs::read_to_string("campaigns/standard.toml").unwrap();
    assert!(shipped.contains("setup_by_mail = true"), "{shipped}");
    let forgotten = shipped.replace("setup_by_mail = true", "setup_by_mail = false");
    let file = db.dir().join("standard.toml");
    std::fs::write(&file, &forgotten).unwrap();
    let made = stdout(&realmgm(
        &["campaign", "new", file.to_str().unwrap()],
        &db.0,
    ));
    assert!(
        made.contains("Warning: Dave has no character"),
        "campaign new warns about Dave: {made}"
    );
    let mut secrets = BTreeMap::new();
    let mut emails = BTreeMap::new();
    for line in made.lines() {
        if let Some((who, secret)) = line.trim().split_once(">: ")
            && let Some((name, email)) = who.split_once(" <")
        {
            secrets.insert(name.to_string(), secret.to_string());
            emails.insert(name.to_string(), email.to_string());
        }
    }
    assert_eq!(secrets.len(), 4, "{made}");
    let campaign = Campaign::parse("standard.toml", &forgotten, realmgm::games::GAMES).unwrap();
    let first_deadline = campaign.schedule.first_deadline_unix();
    let daemon = Daemon::new(Store::open(&db.0, support::GAMES).unwrap());
    Week {
        db,
        file,
        daemon,
        capture: Capture::default(),
        secrets,
        emails,
        now: first_deadline - 3 * 24 * HOUR,
        inbox: Vec::new(),
        sent: Vec::new(),
    }
}

/// The daemon's first look holds the game (Dave has no character) and
/// tells the GM once that the hold lifts itself once the cause is gone.
fn the_game_holds_for_a_seat_without_character(week: &mut Week) {
    let done = week.tick();
    assert!(done.contains("seat of Dave has no character yet"), "{done}");
    let mails = week.flush();
    let told = to(&mails, GM);
    assert_eq!(told.len(), 1, "the GM is told of the hold");
    assert!(
        told[0].body_text.contains("lifts the hold itself"),
        "{}",
        told[0].body_text
    );
    let status = week.daemon.gm().status(TAG).unwrap();
    assert!(
        status.contains("HELD until this is no longer so") && status.contains("Dave"),
        "{status}"
    );
    week.now += 60;
    week.tick();
    assert!(
        week.flush().is_empty(),
        "the GM is told once, not every round"
    );
}

/// The GM switches setup by mail on with `campaign edit`: the next round
/// finds the cause gone, lifts the hold, tells the GM and asks Dave.
fn the_gm_switches_setup_by_mail_on_and_the_hold_lifts(week: &mut Week) {
    let text = std::fs::read_to_string(&week.file)
        .unwrap()
        .replace("setup_by_mail = false", "setup_by_mail = true");
    std::fs::write(&week.file, text).unwrap();
    stdout(&week.cli(&["campaign", "edit", TAG, week.file.to_str().unwrap()]));
    week.now += 60;
    let done = week.tick();
    assert!(done.contains("Dave chooses a character next"), "{done}");
    let mails = week.flush();
    let told = to(&mails, GM);
    assert!(
        told.iter()
            .any(|m| m.subject.contains("day 1 no longer held")
                && m.body_text.contains("seat of Dave has no character yet")
                && m.body_text.contains("the hold lifted itself")),
        "{told:?}"
    );
    assert_eq!(
        week.daemon.store.control().get(TAG).unwrap().hold_reason,
        None
    );
    assert!(
        to(&mails, &week.emails["Dave"])[0]
            .body_text
            .contains("your turn to choose")
    );
    let log: Vec<String> = week
        .daemon
        .store
        .control()
        .gm_log(Some(TAG))
        .unwrap()
        .into_iter()
        .map(|e| e.message)
        .collect();
    assert!(
        log.iter().any(|l| l.contains("is no longer held")),
        "the lifting is logged: {log:?}"
    );
}

/// The starting info a player of `character` sends: his requirements, a
/// start the character may take, and his spells when he records some.
fn starting_info(character: &str) -> String {
    let data = realmgm::magic_realm::data::get().unwrap();
    let card = data
        .characters
        .iter()
        .find(|c| c.name == character)
        .unwrap();
    let mut info = format!("Victory: F 2, N 1, G 2\nStart: {}\n", card.start[0].label());
    if card.spells > 0 {
        let spells = spells_of(character);
        info.push_str(&format!("Spells: {}\nEnchanted: none\n", spells.join("; ")));
    }
    info
}

/// Dave chooses by mail, then everyone sends his starting info, each in a
/// polite mail; the game starts and every player gets his start report.
fn setup_by_mail_with_greetings(week: &mut Week) {
    let answer = week.post(
        "Dave",
        "my character",
        "Hi Gerald,\n\nCharacter: Black Knight\n\nCheers,\nDave",
    );
    assert!(answer.contains("You play the Black Knight"), "{answer}");
    for (player, character) in [
        ("Alice", "Amazon"),
        ("Bob", "Dwarf"),
        ("Carol", "White Knight"),
        ("Dave", "Black Knight"),
    ] {
        let asked = to(&week.inbox, &week.emails[player]);
        assert!(
            asked
                .iter()
                .any(|m| m.body_text.contains("Send the GM your starting info")),
            "{player} is asked for his starting info"
        );
        let body = format!(
            "Hello GM,\n\n{}\nThanks,\n{player}",
            starting_info(character)
        );
        let answer = week.post(player, "starting info", &body);
        assert!(!answer.contains("Nothing was recorded"), "{answer}");
    }
    assert!(
        week.gm_mail()
            .iter()
            .any(|m| m.body_text.contains("Every player has chosen"))
    );
    for player in ["Alice", "Bob", "Carol", "Dave"] {
        let asked = to(&week.inbox, &week.emails[player])
            .iter()
            .filter(|m| m.body_text.contains("Send the GM your starting info"))
            .count();
        assert_eq!(asked, 1, "{player} is asked for his starting info once");
    }
    week.now += 60;
    week.tick();
    let mails = week.flush();
    for player in ["Alice", "Bob", "Carol", "Dave"] {
        assert!(
            to(&mails, &week.emails[player])
                .iter()
                .any(|m| m.body_text.contains("start of the game")),
            "{player} gets his start report"
        );
    }
}

/// Orders for the pending day from `players`, each between a greeting and
/// a sign-off; every one is accepted.
fn orders_with_greetings(week: &mut Week, day: u32, players: &[&str]) {
    for player in players {
        let body = format!("Hi Gerald,\n\nH, H\n\nCheers,\n{player}");
        let answer = week.post(player, &format!("day {day}"), &body);
        assert!(answer.contains("accepted"), "{player}: {answer}");
        assert!(
            answer.contains("was read as a greeting and left out"),
            "{player}: {answer}"
        );
    }
}

/// Orders as people write them: a greeting, a line of prose before the
/// orders, a sign-off, a phone's footer and the quoted report under a
/// top-posted reply. Only the orders are read; the rest is named as set aside.
fn orders_with_prose_around_them(week: &mut Week, day: u32, players: &[&str]) {
    for player in players {
        let body = format!(
            "Hi Gerald,\nhere are my orders for day {day}, sorry they are late.\nH, H\n\n\
             Cheers,\n{player}\n\nSent from my iPhone\n\n\
             On Tue, 1 Jan 2030 at 20:00, GM <gm@x> wrote:\n> Activities: M CV4, H\n"
        );
        let answer = week.post(player, &format!("day {day}"), &body);
        assert!(answer.contains("accepted"), "{player}: {answer}");
        assert!(
            answer.contains(&format!(
                "(\"here are my orders for day {day}, sorry they are late.\") is not orders and was left out"
            )),
            "{player}: {answer}"
        );
        assert!(answer.contains("Activities: H / H"), "{player}: {answer}");
        let at = |text: &str| {
            answer
                .find(text)
                .unwrap_or_else(|| panic!("{text}: {answer}"))
        };
        assert!(
            at("(\"Hi Gerald,\")") < at("(\"here are my orders")
                && at("(\"here are my orders") < at("(\"Cheers,\")"),
            "the notes go down the mail: {answer}"
        );
    }
}

/// A line between two lines of orders that reads as nothing is not set
/// aside: the mail is refused, naming that line as the player wrote it.
fn a_line_of_chatter_between_orders_is_an_error(week: &mut Week) {
    let body = "Hello,\nH, H\nand then we see what happens\nBlock: nobody\n";
    let answer = week.post("Alice", "day 1", body);
    assert!(answer.contains("could not be read"), "{answer}");
    // The mail's line 1 is the Password: line the test puts first.
    assert!(answer.contains("line 4"), "{answer}");
}

/// Alice's Amazon, unhidden at the Inn, attacks Rogue 2 (the campaign's
/// seed has the Rogues kill her in the first round).
fn alice_attacks_the_rogues(week: &mut Week) {
    let answer = week.post(
        "Alice",
        "day 2",
        "Hi,\nS, S\nCombat: target Rogue 2\nthanks\nAlice",
    );
    assert!(answer.contains("accepted"), "{answer}");
}

/// The dead character's report says so first, with the killer, the
/// combat and the round, and what comes next; her next form no longer aims
/// at the Rogue.
fn alices_report_opens_with_her_death(week: &Week) {
    let report = to(&week.inbox, &week.emails["Alice"])
        .into_iter()
        .rfind(|m| m.body_text.contains("day 2 report"))
        .expect("Alice's day 2 report");
    assert!(
        report.subject.ends_with("you were killed"),
        "{}",
        report.subject
    );
    let text = &report.body_text;
    let dead = text.find("== Your character is dead ==").expect(text);
    let day = text.find("== Your day ==").expect(text);
    assert!(dead < day, "the death comes first: {text}");
    assert!(text.contains("You were killed by Rogue"), "{text}");
    assert!(text.contains("you start again at the Inn"), "{text}");
    let form = &text[text.find("# Orders of the Amazon for day 3").expect(text)..];
    assert!(
        form.contains("# Taken out of your standing orders: Combat: target Rogue 2")
            && !form
                .lines()
                .any(|l| l.starts_with("Combat: target Rogue 2")),
        "{form}"
    );
}

/// Everyone's orders are in: the day runs early and every player reads
/// his report.
fn the_day_runs(week: &mut Week, day: u32, readers: &[&str]) {
    week.now += 61 * 60;
    assert_eq!(week.tick(), format!("processed day {day} early"));
    let mails = week.flush();
    for player in readers {
        assert!(
            to(&mails, &week.emails[*player])
                .iter()
                .any(|m| m.body_text.contains(&format!("day {day} report"))),
            "{player} reads day {day}"
        );
    }
}

/// The GM adds Erin; she chooses her character by mail (to enter at the
/// Inn as the next day begins) and is asked for her starting info, as the
/// others were at setup.
fn a_late_joiner_chooses_by_mail(week: &mut Week) {
    let added = stdout(&week.cli(&[
        "gm",
        "--campaign",
        TAG,
        "add-player",
        "--name",
        "Erin",
        "--email",
        "erin@example.org",
    ]));
    assert!(added.contains("Erin <erin@example.org>"), "{added}");
    let mails = week.flush();
    let welcome = &to(&mails, "erin@example.org")[0].body_text;
    let secret = welcome
        .lines()
        .find_map(|l| l.strip_prefix("Your secret is: "))
        .unwrap_or_else(|| panic!("{welcome}"))
        .trim()
        .to_string();
    assert!(
        welcome.contains("Character: NAME") && welcome.contains("Put a line `Password: "),
        "{welcome}"
    );
    week.secrets.insert("Erin".into(), secret);
    week.emails
        .insert("Erin".into(), "erin@example.org".to_string());
    let answer = week.post(
        "Erin",
        "joining",
        "Hello,\n\nCharacter: Wizard\n\nThanks,\nErin",
    );
    assert!(answer.contains("You play the Wizard"), "{answer}");
    assert!(
        answer.contains("Record yours before the Wizard enters the Realm")
            && answer.contains("Victory: GT 1, SP 0, F 2, N 1, G 1   (5 points in all)")
            && answer.contains("Spells: <the"),
        "{answer}"
    );
    let status = week.daemon.gm().status(TAG).unwrap();
    assert!(
        status.contains("Erin: has not sent the starting info yet"),
        "{status}"
    );
}

/// The spells a player of `character` records, the first his types allow.
fn spells_of(character: &str) -> Vec<String> {
    let data = realmgm::magic_realm::data::get().unwrap();
    let card = data
        .characters
        .iter()
        .find(|c| c.name == character)
        .unwrap();
    data.spells
        .iter()
        .filter(|s| {
            s.learnable() && realmgm::magic_realm::magic::spellbook::type_allowed(card, s).is_ok()
        })
        .take(usize::from(card.spells))
        .map(|s| s.name.clone())
        .collect()
}

/// Erin answers with her starting info: a wrong total is refused with the
/// reason, the right one recorded (the GM gets a copy, nobody else).
fn the_late_joiner_records_her_starting_info(week: &mut Week) {
    let answer = week.post("Erin", "my info", "Victory: F 2, G 2");
    assert!(
        answer.contains("Nothing was recorded")
            && answer.contains("add up to 4")
            && answer.contains("Answer again with the corrected `Victory:` line"),
        "{answer}"
    );
    let seen_before = week.inbox.len();
    let body = format!(
        "Hi Gerald,\n\nVictory: F 2, N 1, G 2\nSpells: {}\n\nCheers,\nErin",
        spells_of("Wizard").join("; ")
    );
    let answer = week.post("Erin", "my info", &body);
    assert!(
        answer.contains("Your starting info is recorded: it takes effect as day 2 begins"),
        "{answer}"
    );
    let copies: Vec<&InboundMail> = week.inbox[seen_before..]
        .iter()
        .filter(|m| m.body_text.contains("starting Wizard victory"))
        .collect();
    assert_eq!(copies.len(), 1, "one copy, to the GM");
    assert_eq!(copies[0].to, [GM]);
    let status = week.daemon.gm().status(TAG).unwrap();
    assert!(!status.contains("Erin: has not sent"), "{status}");
    assert!(
        status.contains("Ruling 1: starting Wizard victory"),
        "{status}"
    );
}

/// As day 2 began the Wizard entered with Erin's requirements and spells,
/// which her report shows her, and no other player's.
fn the_late_joiner_entered_with_her_starting_info(week: &Week) {
    use realmgm::magic_realm::state::{MrState, VictoryRequirements};
    use serde::Deserialize;
    let latest = week.daemon.store.days().latest(TAG).unwrap().unwrap();
    let state = MrState::deserialize(latest.state.json()).unwrap();
    assert_eq!(
        state.victory_requirements.get("Wizard"),
        Some(&VictoryRequirements {
            fame: 2,
            notoriety: 1,
            gold: 2,
            ..VictoryRequirements::default()
        })
    );
    let wizard = state
        .characters
        .iter()
        .find(|c| c.name == "Wizard")
        .expect("the Wizard entered");
    assert_eq!(wizard.magic.spells, spells_of("Wizard"));
    let reports: Vec<&InboundMail> = week
        .inbox
        .iter()
        .filter(|m| m.body_text.contains("day 2 report"))
        .collect();
    for report in reports {
        let hers_or_gms = report.to.iter().any(|t| t == "erin@example.org" || t == GM);
        assert_eq!(
            report
                .body_text
                .contains("the Wizard's starting info is recorded"),
            hers_or_gms,
            "only Erin (and the GM) read her starting info: {:?}",
            report.to
        );
    }
}

/// `gm add-player --replace SEAT --name NEW` cannot rename a seat: it is
/// refused, saying what to do, and the seat is untouched.
fn a_seat_handed_over_keeps_its_name(week: &mut Week) {
    let refused = stderr(&week.cli(&[
        "gm",
        "--campaign",
        TAG,
        "add-player",
        "--replace",
        "Carol",
        "--name",
        "Dan",
        "--email",
        "dan@example.org",
    ]));
    assert!(
        refused.contains("--name Dan cannot be used") && refused.contains("remove-player"),
        "{refused}"
    );
    let players = week.daemon.store.campaigns().load(TAG).unwrap().players;
    let carol = players.iter().find(|p| p.name == "Carol").unwrap();
    assert_eq!(carol.email.as_str(), "carol@example.org");
    assert!(!players.iter().any(|p| p.name == "Dan"));
}

/// The GM removes Bob, who played day 1: `campaign list` and `campaign
/// show` count the same players.
fn a_player_is_removed(week: &mut Week) {
    // The campaign option may follow the command, as the tool prints it.
    stdout(&week.cli(&["gm", "remove-player", "--player", "Bob", "--campaign", TAG]));
    let mails = week.flush();
    assert!(
        to(&mails, &week.emails["Bob"])[0]
            .body_text
            .contains("farewell")
    );
    let listed = stdout(&week.cli(&["campaign", "list"]));
    assert!(listed.contains("4 players"), "{listed}");
    let shown = stdout(&week.cli(&["campaign", "show", TAG]));
    assert!(shown.contains("Players:   4 (at most 6)"), "{shown}");
    assert!(!shown.contains("bob@example.org"), "{shown}");
}

/// A newcomer whose character the GM names is asked for his starting
/// info in his welcome.
fn a_late_joiner_named_by_the_gm_is_asked_in_his_welcome(week: &mut Week) {
    stdout(&week.cli(&[
        "gm",
        "--campaign",
        TAG,
        "add-player",
        "--name",
        "Finn",
        "--email",
        "finn@example.org",
        "--character",
        "Druid",
    ]));
    let mails = week.flush();
    let welcome = &to(&mails, "finn@example.org")[0].body_text;
    assert!(
        welcome.contains("Record yours before the Druid enters the Realm")
            && welcome.contains("Victory: GT 1, SP 0, F 2, N 1, G 1"),
        "{welcome}"
    );
}

/// The public pages after day 2: the Dwarf, who left the Realm with Bob,
/// keeps his page and his place in the list of characters.
fn the_removed_players_character_keeps_his_page(week: &mut Week) {
    let out = week.db.dir().join("site");
    realmgm::site::build(&week.daemon.store, TAG, &out).unwrap();
    let page = std::fs::read_to_string(out.join("character-dwarf.html"))
        .expect("the Dwarf, who played day 1, keeps his page");
    assert!(page.contains("Dwarf"), "{page}");
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        index.contains("<a href=\"character-dwarf.html\">Dwarf</a>, played by Bob"),
        "{index}"
    );
    assert!(index.contains("character-wizard.html"), "{index}");
}

/// Every mail a player sent got an answer addressed to him.
fn every_player_mail_was_answered(week: &Week) {
    for (email, id) in &week.sent {
        assert!(
            to(&week.inbox, email)
                .iter()
                .any(|m| m.in_reply_to.iter().any(|r| r.contains(id.as_str()))),
            "the mail {id} of {email} got no answer"
        );
    }
}

#[test]
fn a_first_week_runs_without_a_stall() {
    let mut week = a_new_campaign_from_the_shipped_file();
    the_game_holds_for_a_seat_without_character(&mut week);
    the_gm_switches_setup_by_mail_on_and_the_hold_lifts(&mut week);
    setup_by_mail_with_greetings(&mut week);
    a_line_of_chatter_between_orders_is_an_error(&mut week);
    orders_with_prose_around_them(&mut week, 1, &["Alice", "Bob"]);
    orders_with_greetings(&mut week, 1, &["Carol", "Dave"]);
    the_day_runs(&mut week, 1, &["Alice", "Bob", "Carol", "Dave"]);
    a_late_joiner_chooses_by_mail(&mut week);
    the_late_joiner_records_her_starting_info(&mut week);
    a_seat_handed_over_keeps_its_name(&mut week);
    a_player_is_removed(&mut week);
    alice_attacks_the_rogues(&mut week);
    orders_with_greetings(&mut week, 2, &["Carol", "Dave", "Erin"]);
    the_day_runs(&mut week, 2, &["Alice", "Carol", "Dave", "Erin"]);
    the_late_joiner_entered_with_her_starting_info(&week);
    alices_report_opens_with_her_death(&week);
    the_removed_players_character_keeps_his_page(&mut week);
    a_late_joiner_named_by_the_gm_is_asked_in_his_welcome(&mut week);
    every_player_mail_was_answered(&week);
}

/// Too many players without orders at the deadline hold the day while that
/// lasts: once the GM enters the missing orders by hand, the next round
/// lifts the hold, tells him, and runs the day.
#[test]
fn a_hold_for_missing_orders_lifts_itself_once_they_are_in() {
    let mut daemon = support::daemon();
    let ann = "ann@realmgm.test";
    let text = support::campaign_text("H1", &[("Ann", ann), ("Ben", "ben@realmgm.test")], "");
    support::add_campaign(&mut daemon.store, "guess", &text);
    let capture = Capture::default();
    daemon.turns().check_turn("H1", START).unwrap();
    capture.flush(&mut daemon, START);
    let done = daemon
        .turns()
        .check_turn("H1", FIRST_DEADLINE + 60)
        .unwrap();
    assert!(
        done.contains("2 of 2 awaited players sent no orders"),
        "{done}"
    );
    let told = capture.flush(&mut daemon, FIRST_DEADLINE + 60);
    assert!(
        to(&told, "gm@realmgm.test")[0]
            .body_text
            .contains("lifts the hold itself")
    );
    // Still so a round later: held, and the GM is not told again.
    let done = daemon
        .turns()
        .check_turn("H1", FIRST_DEADLINE + 120)
        .unwrap();
    assert!(done.starts_with("held: 2 of 2"), "{done}");
    assert!(capture.flush(&mut daemon, FIRST_DEADLINE + 120).is_empty());
    daemon
        .gm()
        .enter_orders("H1", "Ann", "guess 50", 1, None, FIRST_DEADLINE + 180)
        .unwrap();
    let done = daemon
        .turns()
        .check_turn("H1", FIRST_DEADLINE + 240)
        .unwrap();
    assert_eq!(done, "processed day 1");
    let told = to(
        &capture.flush(&mut daemon, FIRST_DEADLINE + 240),
        "gm@realmgm.test",
    );
    assert!(
        told.iter()
            .any(|m| m.body_text.contains("no longer held")
                && m.body_text.contains("Day 1 runs now.")),
        "{told:?}"
    );
    assert_eq!(daemon.store.control().get("H1").unwrap().hold_reason, None);
}

/// A missing-orders hold whose count falls but stays over the limit is the
/// same hold: its reason follows the count, and the GM is not told again.
#[test]
fn a_hold_for_missing_orders_is_told_once_as_its_count_falls() {
    let mut daemon = support::daemon();
    let players = [
        ("Ann", "ann@realmgm.test"),
        ("Ben", "ben@realmgm.test"),
        ("Cat", "cat@realmgm.test"),
    ];
    let text = support::campaign_text("H3", &players, "");
    support::add_campaign(&mut daemon.store, "guess", &text);
    let capture = Capture::default();
    daemon.turns().check_turn("H3", START).unwrap();
    capture.flush(&mut daemon, START);
    let done = daemon
        .turns()
        .check_turn("H3", FIRST_DEADLINE + 60)
        .unwrap();
    assert!(done.contains("3 of 3 awaited players"), "{done}");
    assert_eq!(
        to(
            &capture.flush(&mut daemon, FIRST_DEADLINE + 60),
            "gm@realmgm.test"
        )
        .len(),
        1
    );
    daemon
        .gm()
        .enter_orders("H3", "Ann", "guess 50", 1, None, FIRST_DEADLINE + 120)
        .unwrap();
    let done = daemon
        .turns()
        .check_turn("H3", FIRST_DEADLINE + 180)
        .unwrap();
    assert!(done.contains("2 of 3 awaited players"), "{done}");
    let reason = daemon
        .store
        .control()
        .get("H3")
        .unwrap()
        .hold_reason
        .unwrap();
    assert!(reason.contains("2 of 3"), "{reason}");
    assert!(
        to(
            &capture.flush(&mut daemon, FIRST_DEADLINE + 180),
            "gm@realmgm.test"
        )
        .is_empty(),
        "the GM was told of this hold already"
    );
}

/// A hold the GM must look at does not lift itself: the daemon down past
/// the deadline holds the day until he acts, however many rounds pass.
#[test]
fn a_hold_for_the_gm_waits_for_him() {
    let mut daemon = support::daemon();
    let text = support::campaign_text("H2", &[("Ann", "ann@realmgm.test")], "");
    support::add_campaign(&mut daemon.store, "guess", &text);
    daemon.turns().check_turn("H2", START).unwrap();
    let done = daemon
        .turns()
        .check_turn("H2", FIRST_DEADLINE + 3 * HOUR)
        .unwrap();
    assert!(done.contains("after its deadline"), "{done}");
    for round in 1..3 {
        let done = daemon
            .turns()
            .check_turn("H2", FIRST_DEADLINE + 3 * HOUR + round * 60)
            .unwrap();
        assert_eq!(done, "waiting");
    }
    let control = daemon.store.control().get("H2").unwrap();
    assert!(control.hold_reason.is_some() && !control.hold_lifts_itself);
}
