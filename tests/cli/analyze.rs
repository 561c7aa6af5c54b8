//! `realmgm analyze` as a GM runs it: two shipped campaign files
//! compared over a few seeded months, as text, as JSON (the same twice),
//! and as an HTML page with charts; a bad character name is refused with a
//! suggestion.

use crate::common;

use common::{TempDb, realmgm, stderr, stdout};

#[test]
fn two_campaign_files_are_compared_in_text_json_and_a_page() {
    let db = TempDb::new("analyze");
    let args = [
        "analyze",
        "campaigns/demo.toml",
        "campaigns/bimr3.toml",
        "--months",
        "2",
        "--characters",
        "Amazon, Wizard",
    ];
    let text = stdout(&realmgm(&args, &db.0));
    assert!(
        text.starts_with("2 months played by the planning bot"),
        "{text}"
    );
    assert!(text.contains("A: campaigns/demo.toml") && text.contains("B: campaigns/bimr3.toml"));
    assert!(
        text.contains("victory points") && text.contains("B-A"),
        "{text}"
    );
    // Counts keep their intervals (A's and B's, before "B-A") at or above
    // zero, and no zero is signed.
    for count in [
        "deaths",
        "great treasures",
        "natives killed",
        "phases searched",
    ] {
        for line in text.lines().filter(|l| l.trim_start().starts_with(count)) {
            let sides = line.split("B-A").next().unwrap();
            assert!(!sides.contains("[-"), "{line}");
        }
    }
    assert!(!text.contains("-0.000"), "{text}");
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let json = stdout(&realmgm(&json_args, &db.0));
    assert_eq!(
        json,
        stdout(&realmgm(&json_args, &db.0)),
        "the same numbers twice"
    );
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["months"], 2);
    let out = db.dir().join("analysis");
    let mut page_args = args.to_vec();
    page_args.extend(["--out", out.to_str().unwrap()]);
    stdout(&realmgm(&page_args, &db.0));
    let page = std::fs::read_to_string(out.join("analysis.html")).unwrap();
    assert!(
        page.contains("<svg") && page.contains("Victory points per month"),
        "{page}"
    );
    assert!(out.join("analysis.json").is_file());
}

#[test]
fn an_unknown_character_is_refused_with_the_nearest_name() {
    let db = TempDb::new("analyze-bad");
    let out = realmgm(
        &["analyze", "campaigns/demo.toml", "--characters", "Amazn"],
        &db.0,
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("there is no character 'Amazn'") && err.contains("Amazon"),
        "{err}"
    );
}

/// `--with` measures one rule against the same file without it: B is A
/// with the rule added, named so in the text; a rule A already has, or a
/// second file beside `--with`, is refused.
#[test]
fn with_compares_a_file_against_itself_plus_a_rule() {
    let db = TempDb::new("analyze-with");
    let args = [
        "analyze",
        "campaigns/bimr3.toml",
        "--with",
        "fumble",
        "--months",
        "1",
        "--characters",
        "Amazon",
    ];
    let text = stdout(&realmgm(&args, &db.0));
    assert!(
        text.contains("B: campaigns/bimr3.toml with fumble"),
        "{text}"
    );
    let already = realmgm(
        &[
            "analyze",
            "campaigns/bimr3.toml",
            "--with",
            "watchful_natives",
        ],
        &db.0,
    );
    assert!(!already.status.success());
    assert!(stderr(&already).contains("already has the rule 'watchful_natives'"));
    let both = realmgm(
        &[
            "analyze",
            "campaigns/demo.toml",
            "campaigns/bimr3.toml",
            "--with",
            "fumble",
        ],
        &db.0,
    );
    assert!(!both.status.success());
    assert!(stderr(&both).contains("not both"), "{}", stderr(&both));
}
