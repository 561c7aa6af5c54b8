//! The fog-of-war leak test: bot campaigns of 16 characters
//! for a whole month on several seeds, and for every player and every day,
//! his report (text, HTML, map and JSON document) names no treasure, site,
//! hidden path or passage, hidden character, other character's recorded
//! day, or face-down map chit that his character had not observed. Every
//! JSON document also follows its schema, and each event line it holds is
//! a line of the text.
//!
//! "Observed" is judged independently of the report code: from the raw
//! events whose observers include him (every day so far), his own
//! character's state, and what lies face up on the map for all to see.

use crate::report_support;

use std::collections::{BTreeMap, BTreeSet};

use realmgm::game::{Observers, Reader, observed_by};
use realmgm::magic_realm::data;
use realmgm::magic_realm::day::events::{Happening, PhaseEvent};
use realmgm::magic_realm::day::search::SearchEvent;
use realmgm::magic_realm::state::MrState;
use report_support::{play, player, report, report_json, report_schema, schema_errors};

const SEEDS: &[u64] = &[3, 17, 2024];

/// Whether `name` occurs in `text` as a whole name (not inside a word).
fn names(text: &str, name: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric());
    text.match_indices(name).any(|(at, _)| {
        !word(text[..at].chars().next_back()) && !word(text[at + name.len()..].chars().next())
    })
}

/// The text between a `== Heading ==` line and the next heading.
fn section<'a>(text: &'a str, heading: &str) -> &'a str {
    let Some(start) = text.find(&format!("== {heading} ==")) else {
        return "";
    };
    let rest = &text[start + heading.len() + 6..];
    rest.find("\n== ").map_or(rest, |end| &rest[..end])
}

fn unescape(html: &str) -> String {
    html.replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[test]
fn no_report_leaks_what_its_reader_did_not_observe() {
    let data = data::get().unwrap();
    let characters: Vec<&str> = data.characters.iter().map(|c| c.name.as_str()).collect();
    let treasures: Vec<&str> = data.treasures.iter().map(|t| t.name.as_str()).collect();
    let sites: Vec<&str> = data.chits.site.iter().map(|s| s.name.as_str()).collect();
    let mut player_days = 0;
    // How much secret knowledge the games produced, so the test is known
    // to check something: sites found, routes found, items looted.
    let mut found = [0_usize; 3];
    let mut leaks: Vec<String> = Vec::new();
    let schema = report_schema();
    for &seed in SEEDS {
        let days = play(seed, &characters, 28);
        // Player → the JSON of every event he observed so far.
        let mut observed: BTreeMap<String, String> = BTreeMap::new();
        for day in &days {
            let state: MrState = serde_json::from_value(day.state.json().clone()).unwrap();
            let face_up: BTreeSet<&str> = state
                .map_chits
                .values()
                .flatten()
                .filter(|c| c.face_up)
                .map(|c| c.name.as_str())
                .collect();
            let face_down: BTreeSet<&str> = state
                .map_chits
                .values()
                .flatten()
                .filter(|c| !c.face_up)
                .map(|c| c.name.as_str())
                .chain(state.lost.values().flatten().map(String::as_str))
                .collect();
            let everything = observed_by::<Happening>(&day.events, Reader::Gm).unwrap();
            for (_, happening) in &everything {
                if let Happening::Search(e) = &**happening {
                    match e {
                        SearchEvent::DiscoveredSites { .. } => found[0] += 1,
                        SearchEvent::FoundRoutes { routes, .. } if !routes.is_empty() => {
                            found[1] += 1;
                        }
                        SearchEvent::Looted { .. } => found[2] += 1,
                        _ => {}
                    }
                }
            }
            for (i, me) in state.characters.iter().enumerate() {
                assert_eq!(me.player, player(i));
                let seen = observed.entry(me.player.clone()).or_default();
                for event in day
                    .events
                    .iter()
                    .filter(|e| e.observers.includes(&Reader::Player(&me.player)))
                {
                    seen.push_str(event.body.canonical_text());
                }
                let mine = serde_json::to_string(me).unwrap();
                let knows = |name: &str| names(seen, name) || names(&mine, name);
                let report = report(day, Reader::Player(&me.player));
                let html = unescape(report.html.as_deref().unwrap());
                let svg = String::from_utf8(report.attachments[0].2.clone()).unwrap();
                let document = report_json(&report);
                let json = serde_json::to_string_pretty(&document).unwrap();
                let whole = format!("{}\n{html}\n{svg}\n{json}", report.text);
                let part = &document["magic_realm"];
                let events = part["events"].as_array().unwrap();
                let mut leak = |what: String| {
                    leaks.push(format!(
                        "seed {seed} day {} {} ({}): {what}",
                        state.day, me.player, me.name
                    ));
                };
                let errors = schema_errors(&schema, &document);
                if !errors.is_empty() {
                    leak(format!("its JSON breaks the schema:\n{errors}"));
                }
                for event in events {
                    let text = event["text"].as_str().unwrap_or_default();
                    for line in text.lines().filter(|l| !l.trim().is_empty()) {
                        if !report.text.contains(line.trim()) {
                            leak(format!("its JSON has a line the text lacks: {line}"));
                        }
                    }
                }
                for name in &treasures {
                    if names(&whole, name) && !knows(name) {
                        leak(format!("names the treasure {name}"));
                    }
                }
                for name in &sites {
                    if names(&whole, name) && !knows(name) && !face_up.contains(name) {
                        leak(format!("names the site {name}"));
                    }
                }
                for name in &face_down {
                    if names(&whole, name) && !knows(name) && !face_up.contains(name) {
                        leak(format!("names the face-down chit {name}"));
                    }
                }
                for route in svg.split("data-route=\"").skip(1) {
                    let route = route.split('"').next().unwrap_or_default();
                    let known =
                        me.discoveries.routes.iter().any(|(a, b)| {
                            route == format!("{a}-{b}") || route == format!("{b}-{a}")
                        });
                    if !known {
                        leak(format!("draws the undiscovered route {route}"));
                    }
                }
                for other in state.characters.iter().filter(|c| c.player != me.player) {
                    for heading in ["Your clearing", "Combat"] {
                        // "Witch" is not named by "Witch King".
                        let mut text = section(&report.text, heading).to_string();
                        for longer in characters.iter().filter(|n| {
                            n.len() > other.name.len() && n.contains(other.name.as_str())
                        }) {
                            text = text.replace(longer, "");
                        }
                        if other.hidden && names(&text, &other.name) {
                            leak(format!("shows the hidden {} in {heading}", other.name));
                        }
                    }
                    let in_json = part["clearing"]["characters"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|c| c == other.name.as_str());
                    if other.hidden && in_json {
                        leak(format!("shows the hidden {} in its JSON", other.name));
                    }
                }
                for (observers, happening) in &everything {
                    let Happening::Phase(PhaseEvent::TurnStarts {
                        character,
                        clearing,
                        ..
                    }) = &**happening
                    else {
                        continue;
                    };
                    let saw = observers.includes(&Reader::Player(&me.player));
                    let recorded = format!("{character} in {clearing} (");
                    let in_json = events.iter().any(|e| {
                        e["text"]
                            .as_str()
                            .is_some_and(|t| t.trim_start().starts_with(&recorded))
                    });
                    if *character != me.name
                        && !saw
                        && (report.text.contains(&format!("\n{recorded}")) || in_json)
                    {
                        leak(format!("shows the recorded day of the {character}"));
                    }
                    assert!(!matches!(observers, Observers::Gm) || !saw);
                }
                player_days += 1;
            }
        }
    }
    assert!(player_days >= 1000, "only {player_days} player-days");
    eprintln!(
        "sites found {}, routes found {}, items looted {}",
        found[0], found[1], found[2]
    );
    // Bots rarely stand on a site or beside a hidden path, so looting and
    // finding routes are rare; the known map's routes are unit-tested in
    // `magic_realm::report::map`.
    assert!(
        found[0] > 0,
        "the bot games found no site to test: {found:?}"
    );
    assert!(
        leaks.is_empty(),
        "{} leaks in {player_days} player-days, e.g.:\n{}",
        leaks.len(),
        leaks
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    eprintln!("checked {player_days} player-days: no leaks");
}
