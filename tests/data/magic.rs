//! Spells and the colour-magic calendar cross-checked against the reference
//! JSON (skipped when the reference folder is absent).

use crate::common;

use realmgm::magic_realm::data::seasons;
use realmgm::magic_realm::data::spells::{self, SpellColour, SpellTarget};
use realmgm::magic_realm::data::terms::{Colour, TileGroup};
use serde_json::Value;

/// Our target list for each reference target text.
fn targets(reference: &str) -> Vec<SpellTarget> {
    use SpellTarget as T;
    match reference {
        "character" => vec![T::Character],
        "attacker" => vec![T::Attacker],
        "clearing" => vec![T::Clearing],
        "tile" => vec![T::Tile],
        "artifact" => vec![T::Artifact],
        "individual" => vec![T::Individual],
        "character, tile" => vec![T::Character, T::Tile],
        "multiple" => vec![T::Multiple],
        "ask demon" => vec![T::Demon],
        "bats" => vec![T::Bats],
        "monster" => vec![T::Monster],
        "weapon" => vec![T::Weapon],
        "spell,curse" => vec![T::Spell, T::Curse],
        "human group" => vec![T::HumanGroup],
        "goblins" => vec![T::Goblins],
        "spell" => vec![T::Spell],
        "leader" => vec![T::Leader],
        "spider, octopus" => vec![T::Spider, T::Octopus],
        "sound" => vec![T::SoundChit],
        "individual + hex" => vec![T::Individual, T::Tile],
        "Flying Carpet" => vec![T::ItsTreasure],
        "dragon" => vec![T::Dragon],
        "weather" => vec![T::Weather],
        magic if magic.starts_with("magic(") => vec![T::MagicChits],
        other => panic!("unmapped target {other}"),
    }
}

#[test]
fn spells_match_the_reference() {
    let Some(reference) = common::reference_json("magic-realm/spells.json") else {
        return;
    };
    let reference = reference.as_array().unwrap();
    let ours = spells::load().unwrap();
    assert_eq!(ours.len(), reference.len());
    let learnable = reference.iter().filter(|r| r["learnable"] == true).count();
    assert_eq!(learnable, spells::LEARNABLE);
    for r in reference {
        let name = r["name"].as_str().unwrap();
        let s = ours
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(Value::Bool(s.learnable()), r["learnable"], "{name}");
        let numeral = s.spell_type.map(|t| t.numeral().to_string());
        let their_type = r["type"]
            .as_str()
            .filter(|t| !t.is_empty() && *t != "*")
            .map(str::to_string);
        assert_eq!(numeral, their_type, "{name} type");
        let colour = match s.colour {
            SpellColour::Colour(c) => c.word(),
            SpellColour::Any(_) => "any",
        };
        assert_eq!(
            colour,
            common::project_colour(r["color"].as_str().unwrap()),
            "{name} colour"
        );
        assert_eq!(
            s.targets,
            targets(r["target"].as_str().unwrap()),
            "{name} targets"
        );
        // The reference keeps the seeds' "move"; 3.1 rule 4.6.7 calls
        // these Fly spells.
        let their_duration = match r["duration"].as_str() {
            Some("move") => "fly",
            other => other.unwrap_or_default(),
        };
        assert_eq!(s.duration.word(), their_duration, "{name} duration");
        let attrs = &r["attributes"];
        let only_in = attrs["clearing_req"]
            .as_str()
            .map(|l| TileGroup::from_letter(l).unwrap());
        assert_eq!(s.only_in, only_in, "{name} clearing");
        match &s.attack {
            Some(a) => {
                assert_eq!(
                    serde_json::to_value(a.harm).unwrap(),
                    attrs["strength"],
                    "{name} harm"
                );
                assert_eq!(
                    i64::from(a.stars),
                    attrs["sharpness"].as_i64().unwrap_or(0),
                    "{name} stars"
                );
                assert_eq!(
                    Some(i64::from(a.length)),
                    attrs["length"].as_i64(),
                    "{name} length"
                );
                assert_eq!(
                    a.speed.map(i64::from),
                    attrs["attack_speed"].as_i64(),
                    "{name} speed"
                );
                assert_eq!(a.missile, attrs["missile"].is_string(), "{name} missile");
            }
            None => {
                assert!(
                    attrs["strength"].is_null() || attrs["length"].is_null(),
                    "{name} attack"
                )
            }
        }
        let their_changes = ["ii", "iii", "iv", "v", "vi", "vii", "viii"]
            .iter()
            .filter(|k| attrs[**k].is_string() && attrs["magic_change"] == true)
            .count();
        assert_eq!(s.changes.len(), their_changes, "{name} changes");
        for c in &s.changes {
            let key = c.from.numeral().to_lowercase();
            assert_eq!(attrs[key.as_str()], c.to.numeral(), "{name} change");
        }
        if let Some(table) = attrs["table"].as_str() {
            let ours = serde_json::to_value(s.table.expect("table")).unwrap();
            let expected = match table {
                "magicmissil" => "missile",
                "powerofthepit" => "power_of_the_pit",
                other => other,
            };
            assert_eq!(ours, expected, "{name} table");
        }
    }
}

#[test]
fn base_game_colour_days_match_the_tables() {
    let data = seasons::load().unwrap();
    assert_eq!(
        data.colour_magic(7, None),
        vec![Colour::White, Colour::Black]
    );
    assert_eq!(data.colour_magic(14, None), vec![Colour::Grey]);
    assert_eq!(data.colour_magic(21, None), vec![Colour::Purple]);
    assert_eq!(data.colour_magic(28, None), vec![Colour::Gold]);
    let coloured: Vec<u8> = (1..=28)
        .filter(|d| !data.colour_magic(*d, None).is_empty())
        .collect();
    assert_eq!(coloured, vec![7, 14, 21, 28]);
    let halloween = data.season(12).unwrap();
    assert_eq!(data.colour_magic(7, Some(halloween)).len(), 5);
    assert_eq!(data.colour_magic(21, Some(halloween)), vec![Colour::Purple]);
}
