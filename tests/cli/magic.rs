//! `realmgm data show spells NAME` says how far the engine builds a spell.

use std::process::Command;

fn show(spell: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_realmgm"))
        .args(["data", "show", "spells", spell])
        .output()
        .expect("the realmgm binary runs");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn a_built_spell_says_so() {
    let text = show("Fiery Blast");
    assert!(
        text.contains("engine: built (an attack for combat to resolve)"),
        "{text}"
    );
    assert!(show("curse").contains("engine: built"));
}

#[test]
fn an_unbuilt_spell_says_why() {
    // The Flying Carpet's spell is its FLY activity, not a cast.
    let text = show("Flying Carpet Spell");
    assert!(text.contains("engine: not implemented yet ("), "{text}");
}

#[test]
fn the_setup_sheet_lists_each_casters_recorded_spells() {
    let output = Command::new(env!("CARGO_BIN_EXE_realmgm"))
        .args(["setup", "show", "--seed", "7", "--character", "Wizard"])
        .output()
        .expect("the realmgm binary runs");
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("spells:"))
        .unwrap_or_else(|| panic!("no spells line in {text}"));
    assert_eq!(
        line.split(", ").count(),
        2,
        "the Wizard records two: {line}"
    );
}

#[test]
fn a_characters_spell_types_agree_in_number() {
    let shown = |character: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_realmgm"))
            .args(["data", "show", "characters", character])
            .output()
            .expect("the realmgm binary runs");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    assert!(
        shown("Woods Girl").contains("spells: 1 of type VII\n"),
        "{}",
        shown("Woods Girl")
    );
    assert!(
        shown("Wizard").contains("spells: 2 of types II, III, IV\n"),
        "{}",
        shown("Wizard")
    );
}
