//! The public pages: for each `[site] publish` setting, no
//! page holds a fact the setting does not allow. A 16-character campaign
//! is played through the daemon (tests/support/month16.rs), the GM adds an
//! announcement and narratives, a player whispers to another, and the site
//! is built under each setting; every file it wrote is read.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use realmgm::campaign::{Publish, SiteSettings};
use realmgm::magic_realm::data;
use realmgm::magic_realm::report::secrets::secrets;
use realmgm::magic_realm::state::MrState;
use realmgm::store::{RelayedMessage, Store};
use serde::Deserialize;

use crate::month16;

const TAG: &str = "M16";
const ANNOUNCED: &str = "Announced: the bridge at the Crag is out";
const EARLY_TALE: &str = "The tale of day 2: a quiet dawn";
const LATE_TALE: &str = "The tale of day 9: smoke over the Cavern";
const WHISPER: &str = "Whispered: meet me at the Inn";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("realmgm-site-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every file of the site at `out`, by its path inside it.
fn pages(out: &Path) -> BTreeMap<String, String> {
    fn walk(root: &Path, dir: &Path, into: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(root, &path, into);
            } else {
                let name = path.strip_prefix(root).unwrap().display().to_string();
                into.insert(name, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut found = BTreeMap::new();
    walk(out, out, &mut found);
    found
}

/// Build the site of the stored campaign under `site`.
fn build(store: &mut Store, site: SiteSettings, out: &Path) -> BTreeMap<String, String> {
    let mut stored = store.campaigns().load(TAG).unwrap();
    stored.campaign.site = Some(site);
    store
        .campaigns_mut()
        .update(&stored.campaign, &stored.file_text)
        .unwrap();
    realmgm::site::build(store, TAG, out).unwrap();
    pages(out)
}

fn day_page(pages: &BTreeMap<String, String>, day: u32) -> &str {
    &pages[&format!("day-{day:03}.html")]
}

fn setting(publish: Publish, delay_days: Option<u32>) -> SiteSettings {
    SiteSettings {
        publish,
        delay_days,
        ..SiteSettings::default()
    }
}

/// The treasures still lying in the sites at the end of `day`: no page may
/// name them before the campaign ends.
fn hidden_treasures(store: &Store, day: u32) -> Vec<String> {
    let data = data::get().unwrap();
    let state = store.days().load(TAG, day).unwrap().unwrap().state;
    let state = MrState::deserialize(state.json()).unwrap();
    secrets(&state)
        .holders
        .into_iter()
        .filter(|h| h.tile.is_some())
        .flat_map(|h| h.items)
        .filter(|item| data.treasures.iter().any(|t| &t.name == item))
        .collect()
}

/// Words that only a character's whole record shows.
const RECORD_MARK: &str = "Recorded: ";

#[test]
fn each_publish_setting_shows_only_what_it_allows_while_the_campaign_runs() {
    let dir = scratch("running");
    let db = dir.join("m16.sqlite");
    month16::play(&db, 10);
    let mut store = Store::open(&db, realmgm::games::GAMES).unwrap();
    store
        .announcements_mut()
        .record(TAG, 3, ANNOUNCED, 0)
        .unwrap();
    store
        .announcements_mut()
        .set_narrative(TAG, 2, EARLY_TALE, 0)
        .unwrap();
    store
        .announcements_mut()
        .set_narrative(TAG, 9, LATE_TALE, 0)
        .unwrap();
    let whisper = RelayedMessage {
        recipient: "P02".into(),
        sender: "P01".into(),
        text: WHISPER.into(),
    };
    store
        .outbox_mut()
        .record_relayed(TAG, 5, &whisper, 0)
        .unwrap();
    let secret_treasures = hidden_treasures(&store, 10);
    assert!(
        !secret_treasures.is_empty(),
        "the sites still hold treasures"
    );
    let characters: Vec<String> = {
        let state = store.days().load(TAG, 10).unwrap().unwrap().state;
        MrState::deserialize(state.json())
            .unwrap()
            .characters
            .into_iter()
            .map(|c| c.name)
            .collect()
    };
    let never = |pages: &BTreeMap<String, String>, setting: &str| {
        for (file, text) in pages {
            assert!(
                !text.contains(WHISPER),
                "{setting}: {file} holds a private message"
            );
            for treasure in &secret_treasures {
                assert!(
                    !text.contains(treasure.as_str()),
                    "{setting}: {file} names {treasure}, still hidden in its site"
                );
            }
            assert!(
                !file.starts_with("final"),
                "{setting}: a final page before the end"
            );
        }
        let index = &pages["index.html"];
        assert!(index.contains("Calendar") && index.contains("Day 10 is the latest day played"));
        assert!(
            day_page(pages, 3).contains(ANNOUNCED),
            "{setting}: announcements are public"
        );
    };
    // A day shown as public news: no record, no tale, no standings, and a
    // map without anyone on it.
    let only_news = |pages: &BTreeMap<String, String>, day: u32, setting: &str| {
        let page = day_page(pages, day);
        for withheld in [RECORD_MARK, EARLY_TALE, LATE_TALE, "Standings at the end"] {
            assert!(
                !page.contains(withheld),
                "{setting}: day {day} shows {withheld:?}"
            );
        }
        let map = &pages[&format!("maps/day-{day:03}.svg")];
        for character in &characters {
            assert!(
                !map.contains(&format!(">{character}<")),
                "{setting}: the map of day {day} shows where the {character} is"
            );
        }
    };

    let public = build(
        &mut store,
        setting(Publish::Public, None),
        &dir.join("public"),
    );
    never(&public, "public");
    for day in 1..=10 {
        only_news(&public, day, "public");
    }
    assert!(
        !public.keys().any(|f| f.starts_with("charts/")),
        "public: no standings unless the GM allows them"
    );
    for character in &characters {
        let page = public
            .iter()
            .find(|(f, _)| {
                f.starts_with("character-")
                    && f.contains(&character.to_lowercase().replace(' ', "-"))
            })
            .map(|(_, text)| text)
            .unwrap();
        assert!(
            !page.contains(RECORD_MARK),
            "public: the {character}'s journey is withheld"
        );
    }

    let allowed = SiteSettings {
        standings: true,
        ..setting(Publish::Public, None)
    };
    let with_standings = build(&mut store, allowed, &dir.join("public"));
    never(&with_standings, "public with standings");
    assert!(day_page(&with_standings, 4).contains("Standings at the end"));
    assert!(with_standings.contains_key("charts/fame.svg"));
    assert!(!day_page(&with_standings, 4).contains(RECORD_MARK));

    let delayed = build(
        &mut store,
        setting(Publish::Delayed, Some(3)),
        &dir.join("delayed"),
    );
    never(&delayed, "delayed");
    for day in 1..=7 {
        let page = day_page(&delayed, day);
        assert!(
            page.contains(RECORD_MARK),
            "delayed: day {day}'s records are due"
        );
        assert!(page.contains("Standings at the end"), "delayed: day {day}");
    }
    assert!(day_page(&delayed, 2).contains(EARLY_TALE));
    for day in 8..=10 {
        only_news(&delayed, day, "delayed");
    }
    let feed = &delayed["feed.xml"];
    assert_eq!(feed.matches("<entry>").count(), 10);
    assert!(feed.contains("Day 7: the characters"));
    assert!(feed.contains("Day 8: the news every player learnt."));

    let end = build(&mut store, setting(Publish::End, None), &dir.join("end"));
    never(&end, "end");
    for day in 1..=10 {
        only_news(&end, day, "end");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn after_the_last_day_end_shows_everything_and_public_still_keeps_the_secrets() {
    let dir = scratch("ended");
    let db = dir.join("m16.sqlite");
    month16::play(&db, 28);
    let mut store = Store::open(&db, realmgm::games::GAMES).unwrap();
    let secret_treasures = hidden_treasures(&store, 28);

    let end = build(&mut store, setting(Publish::End, None), &dir.join("end"));
    let index = &end["index.html"];
    assert!(index.contains("The campaign ended after day 28"), "{index}");
    for day in 1..=28 {
        assert!(day_page(&end, day).contains(RECORD_MARK), "end: day {day}");
    }
    let scores = &end["final.html"];
    assert!(
        scores.contains("Final scores") && scores.contains("VP"),
        "{scores}"
    );
    assert!(day_page(&end, 28).contains("Victory points"));

    let public = build(
        &mut store,
        setting(Publish::Public, None),
        &dir.join("public"),
    );
    assert!(
        !public.contains_key("final.html"),
        "public: no scoring arithmetic"
    );
    assert!(
        end["maps/day-028.svg"].len() > public["maps/day-028.svg"].len(),
        "after the end the GM's map, with every site and denizen, is shown"
    );
    assert!(
        day_page(&public, 28).contains("Victory points"),
        "the final scores are news"
    );
    for (file, text) in &public {
        assert!(!text.contains(RECORD_MARK), "public: {file} holds a record");
        for treasure in &secret_treasures {
            assert!(
                !text.contains(treasure.as_str()),
                "public: {file} names {treasure}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_daemon_rebuilds_the_pages_when_they_are_out_of_date_and_logs_a_failure_once() {
    let dir = scratch("daemon");
    let db = dir.join("m16.sqlite");
    month16::play(&db, 3);
    let out = dir.join("www").join("m16");
    let mut daemon = realmgm::daemon::Daemon::new(Store::open(&db, realmgm::games::GAMES).unwrap());
    let done = daemon.site().refresh_site(TAG, &out, 100).unwrap();
    assert!(
        done.as_deref()
            .is_some_and(|d| d.contains("3 days (0 with records)")),
        "{done:?}"
    );
    assert!(out.join("day-003.html").is_file());
    assert_eq!(
        daemon.site().refresh_site(TAG, &out, 101).unwrap(),
        None,
        "up to date"
    );
    // The GM's announcement changes what the pages show: built again, and
    // the folder switched to the new version.
    daemon
        .store
        .announcements_mut()
        .record(TAG, 3, ANNOUNCED, 102)
        .unwrap();
    assert!(
        daemon
            .site()
            .refresh_site(TAG, &out, 103)
            .unwrap()
            .is_some()
    );
    let day3 = std::fs::read_to_string(out.join("day-003.html")).unwrap();
    assert!(day3.contains(ANNOUNCED));
    let target = std::fs::read_link(&out).unwrap();
    assert_eq!(target, PathBuf::from(".m16.versions/2"));
    // A broken template: the failure is logged once, the game goes on,
    // and the pages already published stay.
    let templates = dir.join("templates");
    std::fs::create_dir_all(&templates).unwrap();
    std::fs::write(templates.join("site_day.html"), "{% if %}").unwrap();
    let mut stored = daemon.store.campaigns().load(TAG).unwrap();
    stored.campaign.template_folder = Some(templates.display().to_string());
    daemon
        .store
        .campaigns_mut()
        .update(&stored.campaign, &stored.file_text)
        .unwrap();
    let failed = daemon.site().refresh_site(TAG, &out, 104).unwrap().unwrap();
    assert!(
        failed.contains("could not be built") && failed.contains("site_day.html"),
        "{failed}"
    );
    assert_eq!(
        daemon.site().refresh_site(TAG, &out, 105).unwrap(),
        None,
        "logged once"
    );
    let log = daemon.store.control().gm_log(Some(TAG)).unwrap();
    assert_eq!(
        log.iter()
            .filter(|e| e.message.contains("could not be built"))
            .count(),
        1
    );
    assert!(
        std::fs::read_to_string(out.join("day-003.html"))
            .unwrap()
            .contains(ANNOUNCED)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
