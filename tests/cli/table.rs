//! `realmgm table list/show/roll` run as a GM runs them.

use std::process::{Command, Output};

fn realmgm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_realmgm"))
        .args(args)
        .output()
        .expect("the realmgm binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn list_names_every_table() {
    let out = realmgm(&["table", "list"]);
    assert!(out.status.success());
    let names = stdout(&out);
    for name in [
        "hide",
        "meeting",
        "stumble",
        "change-tactics",
        "crypt-of-the-knight",
    ] {
        assert!(names.lines().any(|l| l == name), "{name} missing");
    }
}

#[test]
fn show_prints_the_rows() {
    let out = realmgm(&["table", "show", "stumble"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("6: completed"), "{text}");
    assert!(text.contains("7: cancelled"), "{text}");
}

#[test]
fn hand_read_dice_follow_a_meeting_chain() {
    let out = realmgm(&[
        "table",
        "roll",
        "meeting",
        "--column",
        "neutral",
        "--faces",
        "6,2",
        "--faces",
        "3",
        "--modifier",
        "Honor=-1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // Neutral: 6 - 1 = 5 no deal.
    assert_eq!(
        text.trim(),
        "Meeting (neutral): dice 6,2 → 6; -1 Honor → 5; row 5: no deal"
    );
}

#[test]
fn seeded_rolls_repeat_exactly() {
    let args = ["table", "roll", "hide", "--seed", "42", "--day", "5"];
    assert_eq!(stdout(&realmgm(&args)), stdout(&realmgm(&args)));
}

#[test]
fn mistakes_say_what_to_do() {
    let out = realmgm(&["table", "roll", "hide"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--seed"));
    let out = realmgm(&["table", "roll", "meeting", "--seed", "1"]);
    assert!(stderr(&out).contains("relationship column"));
    let out = realmgm(&[
        "table",
        "roll",
        "reposition",
        "--seed",
        "1",
        "--modifier",
        "1",
    ]);
    assert!(stderr(&out).contains("never modified"));
    let out = realmgm(&["table", "show", "stumbel"]);
    assert!(stderr(&out).contains("did you mean stumble"));
}
