//! Every battle file in `tests/battles/` runs to the outcome its `[expect]`
//! table states (play summary III; 2nd-edition optional combat rules for the optional rules), and the
//! files that come in `_on`/`_off` pairs prove a toggle changes the fight.

use std::path::Path;

use realmgm::magic_realm::combat::script;
use realmgm::magic_realm::data;

fn run(path: &Path) -> (script::Outcome, Vec<String>, Vec<String>) {
    let data = data::get().expect("the embedded data loads");
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).expect("read the battle file");
    let mut battle = script::load(data, &name, &text).unwrap_or_else(|e| panic!("{e}"));
    let outcome = battle.run().unwrap_or_else(|e| panic!("{name}: {e}"));
    let log = script::log_text(&battle.battle);
    let expect = battle
        .expect
        .clone()
        .unwrap_or_else(|| panic!("{name} has no [expect] table"));
    let wrong = script::check(&expect, &outcome, &log);
    (outcome, log, wrong)
}

fn files() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/battles");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("tests/battles exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_battle_file_gives_its_expected_outcome() {
    let files = files();
    assert!(files.len() >= 13, "{files:?}");
    let mut failures = Vec::new();
    for path in &files {
        let (_, log, wrong) = run(path);
        if !wrong.is_empty() {
            failures.push(format!(
                "{}:\n  {}\n  log:\n    {}",
                path.display(),
                wrong.join("\n  "),
                log.join("\n    ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn each_toggle_pair_differs() {
    for path in files() {
        let name = path.display().to_string();
        let Some(stem) = name.strip_suffix("_on.toml") else {
            continue;
        };
        let off = Path::new(&format!("{stem}_off.toml")).to_path_buf();
        assert!(off.exists(), "{name} has no _off partner");
        let (on, _, _) = run(&path);
        let (off, _, _) = run(&off);
        assert_ne!(on, off, "{name}: the toggle changed nothing");
    }
}

#[test]
fn the_same_file_gives_the_same_log() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/battles/intercept.toml");
    assert_eq!(run(&path).1, run(&path).1);
}
