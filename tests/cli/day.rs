//! `realmgm day run FILE` as a GM runs it: the reports and the outcome on
//! stdout, and an exit status that tells an agreeing day (0) from one that
//! differs from its `[expect]` (1) and from a broken file (2).

use std::path::Path;
use std::process::{Command, Output};

use crate::common::{TempDb, stderr, stdout};

fn day_run(file: &Path, more: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_realmgm"))
        .args(["day", "run"])
        .arg(file)
        .args(more)
        .output()
        .expect("the realmgm binary runs")
}

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/days")
        .join(name)
}

/// The Hire activity's day file (3.1 7.7.1) agrees with its `[expect]`.
#[test]
fn an_agreeing_day_prints_the_reports_and_exits_0() {
    let out = day_run(&fixture("hire_rogue.toml"), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    for part in [
        "==== The GM's history ====",
        "==== The report of ann ====",
        "The Amazon hires Rogue 7 for 3 gold, 14 days.",
        "outcome: {",
    ] {
        assert!(text.contains(part), "no {part} in:\n{text}");
    }
}

#[test]
fn one_player_alone_leaves_out_the_gm_history() {
    let out = day_run(&fixture("hire_rogue.toml"), &["--player", "ann", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(json["gm_history"].is_null());
    assert_eq!(json["reports"][0]["player"], "ann");
    assert_eq!(json["outcome"]["gold"]["Amazon"], 27);
}

#[test]
fn a_day_that_differs_lists_each_mismatch_and_exits_1() {
    let db = TempDb::new("day-run-mismatch");
    let text = std::fs::read_to_string(fixture("hire_rogue.toml")).expect("the fixture");
    let wrong = text.replace("gold = { Amazon = 27 }", "gold = { Amazon = 25 }");
    let file = db.dir().join("wrong.toml");
    std::fs::write(&file, wrong).expect("write the file");
    let out = day_run(&file, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("gold of Amazon: expected 25, got 27"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_broken_file_names_the_field_and_exits_2() {
    let db = TempDb::new("day-run-broken");
    let file = db.dir().join("broken.toml");
    std::fs::write(&file, "[[character]]\nname = \"Amazon\"\nat = \"ZZ9\"\n").expect("write");
    let out = day_run(&file, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("character \"Amazon\"") && err.contains("at"),
        "{err}"
    );
    assert!(err.contains("write a clearing as CV4"), "{err}");
}
