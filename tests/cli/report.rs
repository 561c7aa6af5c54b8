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

/// A report made again (its mailed copy gone) carries the standing orders
/// the daemon accepted, also when the player wrote prose around them (the stored text keeps the
/// prose, which the game alone would not read).
#[test]
fn report_keeps_the_standing_orders_of_a_mail_with_prose_around_them() {
    let db = TempDb::new("report-prose");
    let dir = common::store_demo_campaign(&db, "CLIP");
    stdout(&realmgm(&["daemon", "--campaign", "CLIP", "--once"], &db.0));
    let orders = dir.join("ann-orders.txt");
    std::fs::write(
        &orders,
        "Hi GM,\nhere are my orders, sorry for the delay.\nH, H\nDrinks: 2\n\nCheers,\nAnn\n",
    )
    .unwrap();
    let entered = stdout(&realmgm(
        &[
            "gm",
            "--campaign",
            "CLIP",
            "orders",
            "--player",
            "Ann",
            "--file",
            orders.to_str().unwrap(),
        ],
        &db.0,
    ));
    assert!(entered.contains("accepted"), "{entered}");
    stdout(&realmgm(&["gm", "--campaign", "CLIP", "process"], &db.0));
    // Without its mailed copy the report is made again from the day.
    rusqlite::Connection::open(&db.0)
        .unwrap()
        .execute("DELETE FROM reports WHERE reader = 'Ann'", [])
        .unwrap();
    let ann = stdout(&realmgm(
        &[
            "report",
            "--campaign",
            "CLIP",
            "--day",
            "1",
            "--player",
            "Ann",
        ],
        &db.0,
    ));
    let form = &ann[ann.find("== Orders for tomorrow ==").expect(&ann)..];
    assert!(form.contains("Drinks: 2"), "{form}");
}

/// A day's report prints as it was mailed, kept in the store: a day played
/// by an older realmgm is not worded anew by this one.
#[test]
fn report_prints_the_report_as_it_was_mailed() {
    let db = TempDb::new("report-kept");
    common::store_demo_campaign(&db, "CLIK");
    stdout(&realmgm(&["daemon", "--campaign", "CLIK", "--once"], &db.0));
    stdout(&realmgm(&["gm", "--campaign", "CLIK", "process"], &db.0));
    {
        let mut store = realmgm::store::Store::open(&db.0, realmgm::games::GAMES).unwrap();
        let mut kept = store
            .days()
            .report("CLIK", Some("Ann"), Some(1))
            .unwrap()
            .unwrap();
        kept.text = "As an older realmgm mailed it.\n".to_string();
        store
            .days_mut()
            .save_report("CLIK", Some("Ann"), &kept)
            .unwrap();
    }
    let ann = stdout(&realmgm(
        &[
            "report",
            "--campaign",
            "CLIK",
            "--day",
            "1",
            "--player",
            "Ann",
        ],
        &db.0,
    ));
    assert_eq!(ann.trim_end(), "As an older realmgm mailed it.");
}

/// `report --json` prints the JSON document the player's mail carried; a
/// report kept from before reports carried one is made again, the same.
#[test]
fn report_json_prints_the_document_the_mail_carried() {
    let db = TempDb::new("report-json");
    common::store_demo_campaign(&db, "CLIJ");
    stdout(&realmgm(&["daemon", "--campaign", "CLIJ", "--once"], &db.0));
    stdout(&realmgm(&["gm", "--campaign", "CLIJ", "process"], &db.0));
    let args = [
        "report",
        "--campaign",
        "CLIJ",
        "--day",
        "1",
        "--player",
        "Ann",
        "--json",
    ];
    let printed = stdout(&realmgm(&args, &db.0));
    let document: serde_json::Value = serde_json::from_str(&printed).unwrap();
    assert_eq!(document["player"], "Ann");
    assert_eq!(document["day"], 1);
    assert_eq!(document["schema_version"], 1);
    let mut store = realmgm::store::Store::open(&db.0, realmgm::games::GAMES).unwrap();
    let mut kept = store
        .days()
        .report("CLIJ", Some("Ann"), Some(1))
        .unwrap()
        .unwrap();
    let mailed = kept
        .attachments
        .iter()
        .find(|a| a.name == "report-day-1.json")
        .expect("the mailed report kept its JSON document");
    assert_eq!(printed.trim_end(), String::from_utf8_lossy(&mailed.bytes));
    kept.attachments.retain(|a| !a.name.ends_with(".json"));
    store
        .days_mut()
        .save_report("CLIJ", Some("Ann"), &kept)
        .unwrap();
    drop(store);
    assert_eq!(stdout(&realmgm(&args, &db.0)), printed);
    let gm = stderr(&realmgm(
        &["report", "--campaign", "CLIJ", "--gm", "--json"],
        &db.0,
    ));
    assert!(gm.contains("--json"), "{gm}");
}
