//! `realmgm report`: after a day is processed, a player's report and the
//! GM's history are printed from the store, with the HTML part and the map
//! written to files; a wrong player or day is named.

use crate::common;

use common::{TempDb, realmgm, stderr, stdout};

#[test]
fn report_prints_a_players_day_and_the_gm_history_and_writes_html_and_map() {
    let db = TempDb::new("report");
    // Its Maildirs are made by `campaign new` beside the database.
    let dir = common::store_demo_campaign(&db, "CLIR");
    stdout(&realmgm(&["daemon", "--campaign", "CLIR", "--once"], &db.0));
    let none = stderr(&realmgm(
        &["report", "--campaign", "CLIR", "--player", "Ann"],
        &db.0,
    ));
    assert!(none.contains("has not played a day yet"), "{none}");
    stdout(&realmgm(&["gm", "--campaign", "CLIR", "process"], &db.0));

    let html = dir.join("ann.html");
    let map = dir.join("ann.svg");
    let ann = stdout(&realmgm(
        &[
            "report",
            "--campaign",
            "CLIR",
            "--day",
            "1",
            "--player",
            "ann",
            "--html",
            html.to_str().unwrap(),
            "--map",
            map.to_str().unwrap(),
        ],
        &db.0,
    ));
    assert!(ann.starts_with("CLIR — day 1 — the "), "{ann}");
    assert!(ann.contains("== Orders for tomorrow =="), "{ann}");
    assert!(ann.contains("Next orders due: 2"), "{ann}");
    assert!(!ann.contains("GM only"), "{ann}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    assert!(std::fs::read_to_string(&map).unwrap().starts_with("<svg"));

    let gm = stdout(&realmgm(&["report", "--campaign", "CLIR", "--gm"], &db.0));
    assert!(gm.contains("the GM's history"), "{gm}");
    assert!(gm.contains("== GM only: secrets =="), "{gm}");

    let wrong = stderr(&realmgm(
        &["report", "--campaign", "CLIR", "--player", "Anna"],
        &db.0,
    ));
    assert!(wrong.contains("no player 'Anna'"), "{wrong}");
    let later = stderr(&realmgm(
        &["report", "--campaign", "CLIR", "--day", "9", "--gm"],
        &db.0,
    ));
    assert!(later.contains("has no day 9"), "{later}");
}
