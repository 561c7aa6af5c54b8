//! `realmgm orders parse` and `orders check` run as a player or GM runs them.

use crate::common;

use common::{TempDb, realmgm, stderr, stdout};

#[test]
fn parse_prints_the_documented_json() {
    let db = TempDb::new("orders-parse");
    let out = stdout(&realmgm(
        &[
            "orders",
            "parse",
            "--json",
            "M-CV2 / R-V3* / SPX / SP, *M BL1, F Elf, FL OW, H (quietly)",
        ],
        &db.0,
    ));
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let phases = json["phases"].as_array().unwrap();
    assert_eq!(phases.len(), 8);
    assert_eq!(
        phases[0],
        serde_json::json!({"activity": "move", "tile": "Curst Valley", "clearing": 2, "bonus": false, "note": null})
    );
    assert_eq!(phases[1]["activity"], "rest");
    assert_eq!(phases[1]["chit"], "MAGIC V3*");
    assert_eq!(phases[1]["bonus"], false);
    assert_eq!(phases[2]["activity"], "spell_prep");
    assert_eq!(phases[3]["activity"], "spell");
    assert_eq!(phases[4]["tile"], "Borderland");
    assert_eq!(phases[4]["bonus"], true);
    assert_eq!(
        phases[5],
        serde_json::json!({"activity": "follow", "leader": "Elf", "bonus": false, "note": null})
    );
    assert_eq!(
        phases[6],
        serde_json::json!({"activity": "fly", "tile": "Oak Woods", "bonus": false, "note": null})
    );
    assert_eq!(phases[7]["note"], "quietly");
}

#[test]
fn parse_errors_point_at_the_column() {
    let db = TempDb::new("orders-parse-error");
    let err = stderr(&realmgm(&["orders", "parse", "H, M-QQ4"], &db.0));
    assert!(
        err.contains("line 1, column 6: expected a tile code or name, found 'QQ'"),
        "{err}"
    );
}

#[test]
fn check_reads_a_whole_orders_file_for_a_campaign_character() {
    let db = TempDb::new("orders-check");
    stdout(&realmgm(
        &["campaign", "new", "campaigns/standard.toml"],
        &db.0,
    ));
    let dir = std::env::temp_dir();
    let good = dir.join(format!("realmgm-orders-good-{}.txt", std::process::id()));
    std::fs::write(
        &good,
        "Activities: M CV4, H, S\nSearch: locate\nBuy: Shield up to 10\n",
    )
    .unwrap();
    let out = stdout(&realmgm(
        &[
            "orders",
            "check",
            good.to_str().unwrap(),
            "--campaign",
            "MR1",
            "--character",
            "amazon",
        ],
        &db.0,
    ));
    assert!(
        out.contains("Activities: M-Curst Valley 4 / H / S"),
        "{out}"
    );
    assert!(out.contains("Buy: Shield up to 10"), "{out}");

    let bad = dir.join(format!("realmgm-orders-bad-{}.txt", std::process::id()));
    std::fs::write(&bad, "Activities: M CV9\nSerch: loot\n").unwrap();
    let err = stderr(&realmgm(
        &[
            "orders",
            "check",
            bad.to_str().unwrap(),
            "--campaign",
            "MR1",
            "--character",
            "Amazon",
        ],
        &db.0,
    ));
    assert!(err.contains("2 problems"), "{err}");
    assert!(err.contains("line 1, column 17"), "{err}");
    assert!(err.contains("did you mean Search"), "{err}");

    let err = stderr(&realmgm(
        &[
            "orders",
            "check",
            good.to_str().unwrap(),
            "--campaign",
            "MR1",
            "--character",
            "Wizard",
        ],
        &db.0,
    ));
    assert!(err.contains("nobody plays 'Wizard'"), "{err}");
    let _ = std::fs::remove_file(good);
    let _ = std::fs::remove_file(bad);
}

#[test]
fn check_reads_a_mail_body_as_the_daemon_does_and_dry_runs_the_moves() {
    let db = TempDb::new("orders-check-mail");
    common::store_demo_campaign(&db, "OCM");
    // The daemon's first pass sets the game up: the Amazon stands at the Inn.
    stdout(&realmgm(&["daemon", "--campaign", "OCM", "--once"], &db.0));
    let check = |file: &str| {
        realmgm(
            &[
                "orders",
                "check",
                file,
                "--campaign",
                "OCM",
                "--character",
                "amazon",
            ],
            &db.0,
        )
    };
    let gerald = "tests/fixtures/orders_mail/01-gerald.txt";
    let out = stdout(&check(gerald));
    for said in [
        "Orders of the Amazon for day 1 in OCM:\nActivities: M-Evil Valley 2 / H / S / S",
        "note: line 1 is the Password: line",
        "note: line 2 (\"Hi Gerald,\") was read as a greeting and left out",
        "note: line 3 (\"here are my orders for day 1.\") is not orders and was left out",
    ] {
        assert!(out.contains(said), "{said}:\n{out}");
    }
    assert!(
        !out.contains("SECRET"),
        "the password is never shown:\n{out}"
    );
    let far = db.dir().join("far.txt");
    std::fs::write(&far, "Hello,\nM CV4, H\n\nOn Tue, GM wrote:\n> M EV2, H\n").unwrap();
    let out = stdout(&check(far.to_str().unwrap()));
    assert!(
        out.contains("warning: phase 1 (M CV4): no known path from EV5 to CV4"),
        "{out}"
    );
}
