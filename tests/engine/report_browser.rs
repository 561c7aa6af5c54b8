//! A real browser opens a player's report (issue 7 §6): headless Chromium
//! (Debian's package, through `scripts/chromium.sh`) renders the HTML part
//! of a report to a screenshot in `target/test-artifacts/`. Where Chromium
//! is not installed the test prints SKIPPED and returns.

use crate::report_support;

use std::path::PathBuf;
use std::process::Command;

use realmgm::game::Reader;
use report_support::{play, report};

fn has_chromium() -> bool {
    ["chromium", "chromium-browser"].iter().any(|name| {
        Command::new("sh")
            .args(["-c", &format!("command -v {name}")])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

#[test]
fn chromium_renders_a_report_to_a_screenshot() {
    if !has_chromium() {
        eprintln!("SKIPPED: chromium is not installed (scripts/chromium.sh install)");
        return;
    }
    let days = play(11, &["Amazon", "Black Knight", "Wizard", "Dwarf"], 3);
    let html = report(&days[2], Reader::Player("P01")).html.unwrap();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let artifacts = root.join("target/test-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let page = artifacts.join("player-report.html");
    let shot = artifacts.join("player-report.png");
    let _ = std::fs::remove_file(&shot);
    std::fs::write(&page, &html).unwrap();
    let output = Command::new(root.join("scripts/chromium.sh"))
        .arg("screenshot")
        .arg(&page)
        .arg(&shot)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let png = std::fs::read(&shot).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG was written");
    // A blank page compresses to almost nothing; a rendered report with its
    // tables and map does not.
    assert!(
        png.len() > 30_000,
        "the screenshot looks empty ({} bytes)",
        png.len()
    );
    eprintln!("screenshot: {}", shot.display());
}
