//! A real browser opens a player's report: headless Chromium
//! (Debian's package, through `scripts/chromium.sh`) renders the HTML part
//! of a report to a screenshot in `target/test-artifacts/`. Where Chromium
//! is not installed the test prints SKIPPED and returns.

use crate::{browser, report_support};

use realmgm::game::Reader;
use report_support::{play, report};

#[test]
fn chromium_renders_a_report_to_a_screenshot() {
    if browser::chromium().is_none() {
        eprintln!("SKIPPED: chromium is not installed (scripts/chromium.sh install)");
        return;
    }
    let days = play(11, &["Amazon", "Black Knight", "Wizard", "Dwarf"], 3);
    let html = report(&days[2], Reader::Player("P01")).html.unwrap();
    let page = browser::artifacts().join("player-report.html");
    let shot = browser::artifacts().join("player-report.png");
    std::fs::write(&page, &html).unwrap();
    let png = browser::screenshot(&page, &shot, None);
    // A blank page compresses to almost nothing; a rendered report with its
    // tables and map does not.
    assert!(
        png.len() > 30_000,
        "the screenshot looks empty ({} bytes)",
        png.len()
    );
    eprintln!("screenshot: {}", shot.display());
}
