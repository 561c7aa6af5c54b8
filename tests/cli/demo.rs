//! `realmgm demo` on a fresh folder, as a new user runs it: a week played
//! by mail, the same way every run.

use crate::common;

use common::{TempDb, realmgm, stderr, stdout};

fn state_hash(out: &str) -> String {
    out.lines()
        .find_map(|line| line.trim().strip_prefix("state hash"))
        .expect("the demo prints the state hash")
        .trim()
        .to_string()
}

#[test]
fn demo_sets_up_the_same_campaign_every_time() {
    let db = TempDb::new("demo-unused");
    let dir = std::env::temp_dir().join(format!("realmgm-demo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dir_arg = dir.to_str().unwrap();

    let first = stdout(&realmgm(&["demo", "--dir", dir_arg], &db.0));
    for file in [
        "campaign.toml",
        "realmgm.sqlite",
        "map.svg",
        "mail/gm/new",
        "mail/ann/cur",
    ] {
        assert!(dir.join(file).exists(), "{file} is missing:\n{first}");
    }
    let svg = std::fs::read_to_string(dir.join("map.svg")).unwrap();
    assert_eq!(
        svg.matches("<polygon").count(),
        20,
        "the map shows 20 tiles"
    );
    assert_eq!(
        first
            .lines()
            .filter(|l| l.contains("@demo.realmgm.test"))
            .count(),
        4,
        "{first}"
    );

    // A second run replaces the demo and sets up the identical game.
    let second = stdout(&realmgm(&["demo", "--dir", dir_arg], &db.0));
    assert_eq!(state_hash(&first), state_hash(&second));

    let shown = stdout(&realmgm(
        &[
            "campaign",
            "show",
            "DEMO",
            "--db",
            dir.join("realmgm.sqlite").to_str().unwrap(),
        ],
        &db.0,
    ));
    assert!(shown.contains("Amazon"), "{shown}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn demo_never_touches_a_folder_it_did_not_make() {
    let db = TempDb::new("demo-refuse");
    let dir = std::env::temp_dir().join(format!("realmgm-not-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("precious.txt"), "mine").unwrap();
    let err = stderr(&realmgm(&["demo", "--dir", dir.to_str().unwrap()], &db.0));
    assert!(err.contains("was not made by `realmgm demo`"), "{err}");
    assert!(dir.join("precious.txt").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
