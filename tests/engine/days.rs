//! Every day file in `tests/days/` plays to the result its `[expect]`
//! table states; each file cites in its top comment the 3.1 sections it
//! checks.

use std::path::Path;

use realmgm::magic_realm::data;
use realmgm::magic_realm::report::day_file;

fn files() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/days");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("tests/days exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_day_file_gives_its_expected_result() {
    let data = data::get().expect("the embedded data loads");
    let files = files();
    assert!(files.len() >= 3, "{files:?}");
    let mut failures = Vec::new();
    for path in &files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).expect("read the day file");
        let run = day_file::run(data, &name, &text).unwrap_or_else(|e| panic!("{e}"));
        assert!(run.expects, "{name} has no [expect] table");
        if !run.mismatches.is_empty() {
            failures.push(format!(
                "{name}:\n  {}\n  GM history:\n{}",
                run.mismatches.join("\n  "),
                run.gm_history
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_day_file_cites_the_rules_it_checks() {
    for path in files() {
        let text = std::fs::read_to_string(&path).expect("read the day file");
        let head = text
            .lines()
            .take_while(|l| l.starts_with('#'))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            head.contains("3.1 "),
            "{} must cite its 3.1 sections in its top comment",
            path.display()
        );
    }
}
