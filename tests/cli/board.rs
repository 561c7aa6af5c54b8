//! `realmgm board show` as a GM runs it: the seeded map and its picture.

use crate::common;

use common::{TempDb, realmgm, stderr, stdout};

#[test]
fn seed_7_draws_twenty_connected_tiles_the_same_way_every_time() {
    let db = TempDb::new("board");
    let dir = std::env::temp_dir();
    let first = dir.join(format!("realmgm-map-a-{}.svg", std::process::id()));
    let second = dir.join(format!("realmgm-map-b-{}.svg", std::process::id()));
    let out = stdout(&realmgm(
        &[
            "board",
            "show",
            "--seed",
            "7",
            "--svg",
            first.to_str().unwrap(),
        ],
        &db.0,
    ));
    assert!(out.starts_with("Board seed 7: 20 tiles"), "{out}");
    assert!(out.contains("Roads across tile edges"), "{out}");
    stdout(&realmgm(
        &[
            "board",
            "show",
            "--seed",
            "7",
            "--svg",
            second.to_str().unwrap(),
        ],
        &db.0,
    ));
    let svg = std::fs::read_to_string(&first).unwrap();
    assert_eq!(svg.matches("<polygon").count(), 20, "one hex per tile");
    assert!(svg.contains("Borderland"));
    assert_eq!(
        svg,
        std::fs::read_to_string(&second).unwrap(),
        "same seed, same picture"
    );

    let json: serde_json::Value = serde_json::from_str(&stdout(&realmgm(
        &["board", "show", "--seed", "7", "--json"],
        &db.0,
    )))
    .unwrap();
    assert_eq!(json["placements"].as_array().unwrap().len(), 20);
    assert_eq!(
        json["placements"][0]["tile"], "BL",
        "the Borderland goes first"
    );
    let _ = std::fs::remove_file(first);
    let _ = std::fs::remove_file(second);
}

#[test]
fn an_illegal_player_built_board_is_explained() {
    let db = TempDb::new("board-bad");
    let file = std::env::temp_dir().join(format!("realmgm-placements-{}.toml", std::process::id()));
    std::fs::write(
        &file,
        "[[placements]]\ntile = \"BL\"\nat = [0, 0]\nrotation = 0\n\n[[placements]]\ntile = \"CV\"\nat = [5, 5]\nrotation = 0\n",
    )
    .unwrap();
    let err = stderr(&realmgm(
        &["board", "show", "--placements", file.to_str().unwrap()],
        &db.0,
    ));
    assert!(err.contains("placement 2"), "{err}");
    let _ = std::fs::remove_file(file);
}

/// 3.1 10.E.7.4: `--realms 2` deals both sets' forty tiles on one connected
/// map started by a Borderland, the second set's tiles marked II.
#[test]
fn two_realms_make_a_connected_double_board_of_forty_tiles() {
    let db = TempDb::new("board-double");
    let picture = std::env::temp_dir().join(format!("realmgm-double-{}.svg", std::process::id()));
    let out = stdout(&realmgm(
        &[
            "board",
            "show",
            "--seed",
            "7",
            "--realms",
            "2",
            "--svg",
            picture.to_str().unwrap(),
        ],
        &db.0,
    ));
    let svg = std::fs::read_to_string(&picture).unwrap();
    assert_eq!(svg.matches("<polygon").count(), 40, "one hex per tile");
    assert!(svg.contains("Borderland II"));
    let _ = std::fs::remove_file(picture);
    assert!(
        out.starts_with("Board seed 7, two Realms: 40 tiles"),
        "{out}"
    );
    assert!(out.contains("Awful Valley II"), "{out}");
    assert!(out.contains("Connected: every clearing"), "{out}");
    let json: serde_json::Value = serde_json::from_str(&stdout(&realmgm(
        &["board", "show", "--seed", "7", "--realms", "2", "--json"],
        &db.0,
    )))
    .unwrap();
    let placements = json["placements"].as_array().unwrap();
    assert_eq!(placements.len(), 40);
    let first = placements[0]["tile"].as_str().unwrap();
    assert!(first == "BL" || first == "BLII", "{first} starts the map");
    let err = stderr(&realmgm(
        &["board", "show", "--seed", "7", "--realms", "3"],
        &db.0,
    ));
    assert!(err.contains("--realms"), "{err}");
}
