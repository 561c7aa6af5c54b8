//! Headless Chromium for the browser checks (a report's HTML, the public
//! pages): Debian's package, installed by `scripts/chromium.sh install`.
//! A check whose browser is missing prints SKIPPED and returns.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The Chromium command on this machine, if any.
pub fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser"].into_iter().find(|name| {
        Command::new("sh")
            .args(["-c", &format!("command -v {name}")])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// The folder screenshots are left in for a person to look at.
pub fn artifacts() -> PathBuf {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/test-artifacts");
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// Render `page` to the PNG `shot` (`scripts/chromium.sh screenshot`) in a
/// window of `size` ("WIDTH,HEIGHT"; a desktop's when `None`) and return
/// its bytes, checked to be a PNG.
pub fn screenshot(page: &Path, shot: &Path, size: Option<&str>) -> Vec<u8> {
    let _ = std::fs::remove_file(shot);
    let output =
        Command::new(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/chromium.sh"))
            .arg("screenshot")
            .arg(page)
            .arg(shot)
            .args(size)
            .output()
            .unwrap();
    assert!(
        output.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let png = std::fs::read(shot).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG was written");
    png
}
