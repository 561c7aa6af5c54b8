//! `realmgm site build` on the demo campaign, checked in a real browser:
//! every page loads in headless Chromium (Debian's
//! package, `scripts/chromium.sh`) with no console message, every link and
//! picture of every page resolves to a file of the site, the day pages hold
//! each character's records, and a day page (on a desktop's and a phone's
//! screen) and the standings are rendered to screenshots in
//! `target/test-artifacts/`. Without Chromium the
//! browser part prints SKIPPED; the link checks still run.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{browser, common};

use common::{TempDb, realmgm, stderr, stdout};

/// The demo played in a fresh folder, with its site built by the demo.
fn demo(name: &str) -> (PathBuf, TempDb) {
    let db = TempDb::new(name);
    let dir = std::env::temp_dir().join(format!("realmgm-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = realmgm(&["demo", "--dir", dir.to_str().unwrap()], &db.0);
    assert!(out.status.success(), "{}", stderr(&out));
    (dir, db)
}

/// The targets of every `href` and `src` in `html`, entities decoded.
fn links(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    for attribute in ["href=\"", "src=\""] {
        for (at, _) in html.match_indices(attribute) {
            let rest = &html[at + attribute.len()..];
            let value = &rest[..rest.find('"').unwrap()];
            found.push(
                value
                    .replace("&#x2f;", "/")
                    .replace("&amp;", "&")
                    .replace("&#x27;", "'"),
            );
        }
    }
    found
}

fn html_files(site: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(site)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_link_of_the_demo_site_resolves_and_the_days_hold_the_records() {
    let (dir, _db) = demo("site-links");
    let site = dir.join("site");
    let pages = html_files(&site);
    assert!(
        pages.len() >= 12,
        "index, standings, 7 days, 3 characters: {pages:?}"
    );
    let mut reached = BTreeSet::new();
    for page in &pages {
        let html = std::fs::read_to_string(page).unwrap();
        assert!(html.starts_with("<!DOCTYPE html>"), "{}", page.display());
        assert!(html.contains("name=\"viewport\""), "readable on a phone");
        assert!(
            !html.contains("<script"),
            "{}: no JavaScript",
            page.display()
        );
        for link in links(&html) {
            assert!(
                !link.starts_with("http"),
                "{}: an outside link {link}",
                page.display()
            );
            let target = site.join(link.split('#').next().unwrap());
            assert!(
                target.is_file(),
                "{} links to {link}, which is missing",
                page.display()
            );
            reached.insert(link);
        }
    }
    for needed in [
        "site.css",
        "feed.xml",
        "standings.html",
        "character-amazon.html",
    ] {
        assert!(reached.contains(needed), "nothing links to {needed}");
    }
    // The demo publishes each day's records two days after it: days 1-5
    // show every character's record, days 6 and 7 the news alone.
    for day in 1..=5 {
        let html = std::fs::read_to_string(site.join(format!("day-{day:03}.html"))).unwrap();
        for character in ["Amazon", "Black Knight", "Wizard"] {
            assert!(
                html.contains(&format!(">{character} in ")),
                "day {day} holds the {character}'s record"
            );
        }
        assert!(html.contains("Recorded: "), "day {day}");
    }
    let late = std::fs::read_to_string(site.join("day-007.html")).unwrap();
    assert!(!late.contains("Recorded: "), "day 7's records wait");
    let feed = std::fs::read_to_string(site.join("feed.xml")).unwrap();
    assert!(feed.starts_with("<?xml") && feed.matches("<entry>").count() == 7);
    for svg in [
        "maps/day-007.svg",
        "charts/fame.svg",
        "charts/amazon-gold.svg",
    ] {
        let text = std::fs::read_to_string(site.join(svg)).unwrap();
        assert!(text.contains("viewBox"), "{svg} scales");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn chromium_loads_every_page_of_the_demo_site_without_a_console_message() {
    let Some(browser) = browser::chromium() else {
        eprintln!("SKIPPED: chromium is not installed (scripts/chromium.sh install)");
        return;
    };
    let (dir, _db) = demo("site-browser");
    let site = dir.join("site").canonicalize().unwrap();
    for page in html_files(&site) {
        let profile = std::env::temp_dir().join(format!(
            "realmgm-site-profile-{}-{}",
            std::process::id(),
            page.file_stem().unwrap().to_string_lossy()
        ));
        let output = Command::new(browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--enable-logging=stderr",
                "--v=0",
                "--dump-dom",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("file://{}", page.display()))
            .output()
            .unwrap();
        let _ = std::fs::remove_dir_all(&profile);
        assert!(
            output.status.success(),
            "{}: {}",
            page.display(),
            String::from_utf8_lossy(&output.stderr)
        );
        let log = String::from_utf8_lossy(&output.stderr);
        let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
        assert!(console.is_empty(), "{}: {console:?}", page.display());
        let dom = String::from_utf8_lossy(&output.stdout);
        assert!(
            dom.contains("</main>"),
            "{} rendered: {dom}",
            page.display()
        );
    }
    for (page, shot, size, least) in [
        ("day-003.html", "site-day.png", None, 60_000),
        ("standings.html", "site-standings.png", None, 40_000),
        (
            "day-003.html",
            "site-day-phone.png",
            Some("390,1400"),
            30_000,
        ),
    ] {
        let png = browser::artifacts().join(shot);
        let bytes = browser::screenshot(&site.join(page), &png, size);
        // A blank page compresses to a few kilobytes; a page with its
        // records, tables, map or charts does not.
        assert!(
            bytes.len() > least,
            "{shot} looks empty ({} bytes)",
            bytes.len()
        );
        eprintln!("screenshot: {} ({} bytes)", png.display(), bytes.len());
    }
    let built = stdout(&realmgm(
        &["site", "build", "--campaign", "DEMO"],
        &dir.join("realmgm.sqlite"),
    ));
    assert!(
        built.contains("7 days, 5 of them with the characters' records"),
        "{built}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A `.www.versions` link planted beside the site points the build at
/// folders outside it: the build refuses and they stay; a version folder
/// named the largest number does not stop later builds.
#[test]
fn site_build_follows_no_planted_link_and_survives_the_largest_version() {
    let (dir, _db) = demo("site-hostile");
    let db = dir.join("realmgm.sqlite");
    let build = |out: &Path| {
        realmgm(
            &[
                "site",
                "build",
                "--campaign",
                "DEMO",
                "--out",
                out.to_str().unwrap(),
                "--db",
                db.to_str().unwrap(),
            ],
            &db,
        )
    };
    let victim = dir.join("victim");
    for folder in ["1", "5", "7.partial"] {
        std::fs::create_dir_all(victim.join(folder)).unwrap();
        std::fs::write(victim.join(folder).join("canary.txt"), "alive").unwrap();
    }
    std::os::unix::fs::symlink(&victim, dir.join(".www.versions")).unwrap();
    let err = stderr(&build(&dir.join("www")));
    assert!(err.contains(".www.versions is a link to"), "{err}");
    assert!(err.contains("Move it away and build again"), "{err}");
    for folder in ["1", "5", "7.partial"] {
        assert!(victim.join(folder).join("canary.txt").is_file(), "{folder}");
    }
    assert_eq!(std::fs::read_dir(&victim).unwrap().count(), 3);

    let site = dir.join("site");
    std::fs::create_dir(dir.join(".site.versions").join(u64::MAX.to_string())).unwrap();
    for _ in 0..3 {
        let built = stdout(&build(&site));
        assert!(built.contains("The public pages of DEMO are in"), "{built}");
    }
    assert!(site.join("index.html").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}
