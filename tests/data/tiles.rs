//! Cross-check every tile, both sides, against the reference tiles.json:
//! clearings (number, type, magic) and paths (ends, kind).

use crate::common;

use realmgm::magic_realm::data::tiles::{self, PathEnd, Tile, TileSide};
use serde_json::Value;

#[test]
fn there_are_twenty_tiles() {
    let tiles = tiles::load().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(tiles.all().len(), 20);
}

/// The reference's word for a clearing or path type, in the project's words.
fn our_word(reference: &str) -> String {
    match reference {
        "caves" => "cave".to_string(),
        other => other.to_string(),
    }
}

/// Clearings as (number, type, sorted colours).
fn reference_clearings(side: &Value) -> Vec<(u64, String, Vec<String>)> {
    let mut list: Vec<_> = side["clearings"]
        .as_array()
        .expect("clearings")
        .iter()
        .map(|c| {
            let mut magic: Vec<String> = c["magic"]
                .as_array()
                .expect("magic")
                .iter()
                .map(|m| m.as_str().expect("colour").to_lowercase())
                .collect();
            magic.sort();
            (
                c["num"].as_u64().expect("num"),
                our_word(c["type"].as_str().expect("type")),
                magic,
            )
        })
        .collect();
    list.sort();
    list
}

fn our_clearings(side: &TileSide) -> Vec<(u64, String, Vec<String>)> {
    let mut list: Vec<_> = side
        .clearings
        .iter()
        .map(|c| {
            let mut magic: Vec<String> = c.magic.iter().map(|m| m.to_string()).collect();
            magic.sort();
            (u64::from(c.number), c.kind.to_string(), magic)
        })
        .collect();
    list.sort();
    list
}

/// A path as (lower end, higher end or edge, kind); clearing-to-clearing
/// paths have no direction.
fn key(from: String, to: String, kind: String) -> (String, String, String) {
    if to.parse::<u8>().is_ok() && to < from {
        (to, from, kind)
    } else {
        (from, to, kind)
    }
}

fn reference_paths(side: &Value) -> Vec<(String, String, String)> {
    let mut list: Vec<_> = side["paths"]
        .as_array()
        .expect("paths")
        .iter()
        .map(|p| {
            let from = p["from"]["clearing"]
                .as_u64()
                .expect("from clearing")
                .to_string();
            let to = match (&p["to"]["clearing"], &p["to"]["edge"]) {
                (Value::Number(n), _) => n.to_string(),
                (_, Value::String(edge)) => edge.clone(),
                other => panic!("unexpected path end {other:?}"),
            };
            key(from, to, our_word(p["type"].as_str().expect("type")))
        })
        .collect();
    list.sort();
    list
}

fn our_paths(side: &TileSide) -> Vec<(String, String, String)> {
    let mut list: Vec<_> = side
        .paths
        .iter()
        .map(|p| {
            let to = match p.to {
                PathEnd::Clearing(n) => n.to_string(),
                PathEnd::Edge(edge) => edge.to_string(),
            };
            let kind = match p.kind {
                tiles::PathKind::Normal => "normal",
                tiles::PathKind::Cave => "cave",
                tiles::PathKind::Hidden => "hidden",
                tiles::PathKind::Secret => "secret",
            };
            key(p.from.to_string(), to, kind.to_string())
        })
        .collect();
    list.sort();
    list
}

#[test]
fn every_tile_matches_the_reference_on_both_sides() {
    let Some(reference) = common::reference_json("magic-realm/tiles.json") else {
        return;
    };
    let tiles = tiles::load().unwrap_or_else(|e| panic!("{e}"));
    let reference = reference.as_array().expect("a list of tiles");
    assert_eq!(reference.len(), tiles.all().len());
    for entry in reference {
        let name = entry["name"].as_str().expect("name");
        let tile: &Tile = tiles
            .resolve(name)
            .unwrap_or_else(|| panic!("the reference tile {name} is missing"));
        assert_eq!(tile.name, name);
        // The reference uses RealmSpeak codes; each must still find the tile.
        let code = entry["code"].as_str().expect("code");
        assert_eq!(
            tiles.resolve(code).map(|t| &t.name),
            Some(&tile.name),
            "code {code}"
        );
        let starts = match entry["initial_facing"].as_str() {
            Some("light") => "normal",
            Some("dark") => "enchanted",
            other => panic!("{name}: unexpected initial facing {other:?}"),
        };
        assert_eq!(tile.starts.to_string(), starts, "{name}");
        for (side_name, side) in [("normal", &tile.normal), ("enchanted", &tile.enchanted)] {
            let theirs = &entry["sides"][side_name];
            assert_eq!(
                our_clearings(side),
                reference_clearings(theirs),
                "{name}, {side_name} side: clearings"
            );
            assert_eq!(
                our_paths(side),
                reference_paths(theirs),
                "{name}, {side_name} side: paths"
            );
        }
    }
}
