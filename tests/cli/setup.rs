//! `realmgm setup show` run as the GM runs it.

use std::process::Command;

fn realmgm(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_realmgm"))
        .args(args)
        .output()
        .expect("the realmgm binary runs")
}

#[test]
fn the_setup_sheet_lists_tiles_dwellings_holders_and_boxes() {
    let out = realmgm(&["setup", "show", "--seed", "7", "--character", "Amazon"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for part in [
        "Tiles and map chits:",
        "under Lost City:",
        "Dwellings:",
        "Holders:",
        "Setup card boxes:",
        "Visitor boxes (row 6):",
        "Amazon (player 1)",
    ] {
        assert!(text.contains(part), "missing {part}:\n{text}");
    }
    let again = realmgm(&["setup", "show", "--seed", "7", "--character", "Amazon"]);
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
}

#[test]
fn json_is_the_stored_state_and_a_bad_character_is_explained() {
    let out = realmgm(&["setup", "show", "--seed", "3", "--json"]);
    let state: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(state["day"], 0);
    assert_eq!(state["board"]["placements"].as_array().unwrap().len(), 20);
    let out = realmgm(&["setup", "show", "--seed", "3", "--character", "Amazone"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean Amazon"));
}
