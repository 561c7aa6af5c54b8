//! Test doubles for the daemon tests: a small guessing game that
//! implements `Game` (simultaneous orders, private hints, public news, an
//! end), helpers to build campaigns of it, and mail writers.
#![allow(dead_code)]

pub mod capture;
pub mod guess;

use std::collections::BTreeMap;

use realmgm::campaign::Campaign;
use realmgm::daemon::Daemon;
use realmgm::game::Games;
use realmgm::store::{PlayerSecret, Store};

/// The games the daemon tests play: the guessing games, and Magic Realm,
/// whose checks their campaign files pass.
pub static GAMES: Games = Games::new(&[
    &guess::Guess,
    &guess::FlakyGuess,
    &guess::RewordedGuess,
    &guess::BrokenGuess,
    &realmgm::magic_realm::game::MagicRealm,
]);

/// 2030-01-01 20:00 UTC, the first deadline of the test campaigns.
pub const FIRST_DEADLINE: i64 = 1_893_528_000;
/// Long before the first deadline.
pub const START: i64 = FIRST_DEADLINE - 40 * 3600;

/// A campaign file of the guessing game (parsed as Magic Realm, whose
/// checks the file must pass, then switched to `game`).
pub fn campaign_text(tag: &str, players: &[(&str, &str)], extra: &str) -> String {
    let mut text = format!(
        "name = \"{tag}\"\ngame = \"magic-realm\"\nseed = 11\nrules = [\"unlimited_communication\"]\n\
         [gm]\nemail = \"gm@realmgm.test\"\n\
         [schedule]\nfirst_deadline = \"2030-01-01\"\nat = \"20:00\"\nevery_hours = 24\n\
         process_early_after_minutes = 5\nreminder_hours = 6\n{extra}\n"
    );
    for (name, email) in players {
        text.push_str(&format!(
            "[[players]]\nname = \"{name}\"\nemail = \"{email}\"\ncharacter = \"{name}char\"\n"
        ));
    }
    text
}

/// Store a campaign of `game` and return the players' secrets by name.
pub fn add_campaign(store: &mut Store, game: &str, text: &str) -> BTreeMap<String, String> {
    let mut campaign = Campaign::parse("test.toml", text, realmgm::games::GAMES).unwrap();
    campaign.game = game.to_string();
    let secrets: Vec<PlayerSecret> = store
        .campaigns_mut()
        .insert(&campaign, text, START)
        .unwrap();
    secrets.into_iter().map(|s| (s.player, s.secret)).collect()
}

/// A daemon over a fresh in-memory store running the test games.
pub fn daemon() -> Daemon {
    Daemon::new(Store::open_in_memory(GAMES).unwrap())
}

/// A plain-text mail.
pub fn mail(from: &str, to: &str, subject: &str, id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: <{id}>\r\n\
         Date: Tue, 1 Jan 2030 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}
