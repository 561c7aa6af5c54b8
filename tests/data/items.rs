//! Weapons, armour and treasures cross-checked entry by entry against the
//! reference JSON (skipped when the reference folder is absent).

use crate::common;

use std::collections::BTreeMap;

use realmgm::magic_realm::data::armor::{self, Protection};
use realmgm::magic_realm::data::terms::{AttackDirection, MagicType, Strength};
use realmgm::magic_realm::data::treasures::{self, TreasureEffect, TreasureSize};
use realmgm::magic_realm::data::weapons::{self, WeaponSide};
use serde_json::Value;

fn letter(value: Option<&Value>) -> Strength {
    match value.and_then(Value::as_str) {
        None => Strength::Negligible,
        Some("L") => Strength::Light,
        Some("M") => Strength::Medium,
        Some("H") => Strength::Heavy,
        Some("T") => Strength::Tremendous,
        Some(other) => panic!("unknown letter {other}"),
    }
}

fn int(value: &Value) -> i64 {
    value
        .as_i64()
        .unwrap_or_else(|| panic!("not a number: {value}"))
}

/// Our holder names for the reference's native dwellings.
fn holder(name: &str) -> String {
    match name {
        "Woodfolk Dwelling" => "Woodfolk",
        "Lancer Dwelling" => "Lancers",
        "Patrol Dwelling" => "Patrol",
        "Company Dwelling" => "Company",
        "Guard" => "Guard House",
        other => other,
    }
    .to_string()
}

fn check_side(name: &str, ours: &WeaponSide, theirs: &Value) {
    assert_eq!(ours.harm, letter(theirs.get("strength")), "{name} harm");
    assert_eq!(
        i64::from(ours.stars),
        theirs.get("sharpness").map_or(0, int),
        "{name} stars"
    );
    assert_eq!(
        ours.speed.map(i64::from),
        theirs.get("attack_speed").map(int),
        "{name} speed"
    );
}

#[test]
fn weapons_match_the_reference() {
    let Some(reference) = common::reference_json("magic-realm/weapons.json") else {
        return;
    };
    let reference = reference.as_array().unwrap();
    let ours = weapons::load().unwrap();
    assert_eq!(reference.len(), weapons::COUNTERS);
    assert_eq!(
        ours.iter().map(|w| w.copies()).sum::<usize>(),
        reference.len()
    );
    for w in &ours {
        let theirs: Vec<&Value> = reference
            .iter()
            .filter(|r| r["name"] == w.name.as_str())
            .collect();
        assert_eq!(theirs.len(), w.copies(), "{} copies", w.name);
        let mut holders: Vec<String> = theirs
            .iter()
            .map(|r| holder(r["initial_holder"].as_str().unwrap()))
            .collect();
        let mut start = w.start.clone();
        holders.sort();
        start.sort();
        assert_eq!(start, holders, "{} holders", w.name);
        let r = theirs[0];
        assert_eq!(w.weight, letter(r.get("weight")), "{}", w.name);
        assert_eq!(i64::from(w.length), int(&r["length"]), "{}", w.name);
        assert_eq!(Value::Bool(w.missile), r["missile"], "{}", w.name);
        assert_eq!(Value::Bool(w.two_handed), r["two_handed"], "{}", w.name);
        assert_eq!(Value::Bool(w.treasure), r["treasure_weapon"], "{}", w.name);
        let flags: Vec<&str> = r["flags"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(w.throwable, flags.contains(&"throwable"), "{}", w.name);
        assert_eq!(i64::from(w.price), int(&r["base_price"]), "{}", w.name);
        assert_eq!(w.fame.map(i64::from), r["fame"].as_i64(), "{}", w.name);
        assert_eq!(
            w.notoriety.map(i64::from),
            r["notoriety"].as_i64(),
            "{}",
            w.name
        );
        check_side(&w.name, &w.unalerted, &r["unalerted"]);
        check_side(&w.name, &w.alerted, &r["alerted"]);
    }
}

#[test]
fn armor_matches_the_reference() {
    let Some(reference) = common::reference_json("magic-realm/armor.json") else {
        return;
    };
    let reference = reference.as_array().unwrap();
    let ours = armor::load().unwrap();
    assert_eq!(reference.len(), armor::COUNTERS);
    assert_eq!(
        ours.iter().map(|a| usize::from(a.copies)).sum::<usize>(),
        reference.len()
    );
    for a in &ours {
        // The Tremendous suit is "Armor" in the reference too.
        let (their_name, treasure) = if a.name == "T Armor" {
            ("Armor", true)
        } else {
            (a.name.as_str(), a.treasure)
        };
        let theirs: Vec<&Value> = reference
            .iter()
            .filter(|r| r["name"] == their_name && r["treasure_armor"] == treasure)
            .collect();
        assert_eq!(theirs.len(), usize::from(a.copies), "{} copies", a.name);
        let mut holders: Vec<String> = theirs
            .iter()
            .filter_map(|r| r["initial_holder"].as_str())
            .map(holder)
            .collect();
        let mut start = a.start.clone();
        holders.sort();
        start.sort();
        assert_eq!(start, holders, "{} holders", a.name);
        assert_eq!(
            a.not_in_standard_setup,
            theirs[0]["initial_holder"].is_null(),
            "{}",
            a.name
        );
        let r = theirs[0];
        assert_eq!(
            a.kind,
            serde_json::from_value(r["kind"].clone()).unwrap(),
            "{}",
            a.name
        );
        assert_eq!(
            a.vulnerability,
            letter(r.get("vulnerability")),
            "{}",
            a.name
        );
        assert_eq!(a.weight, letter(r.get("weight")), "{}", a.name);
        let protects: Vec<AttackDirection> = serde_json::from_value(r["protects"].clone()).unwrap();
        match a.protects() {
            Protection::Directions(dirs) => assert_eq!(dirs, protects, "{}", a.name),
            Protection::ChosenDirection => assert!(protects.is_empty(), "{}", a.name),
        }
        assert_eq!(
            i64::from(a.price.intact),
            int(&r["prices"]["intact"]),
            "{}",
            a.name
        );
        assert_eq!(
            i64::from(a.price.damaged),
            int(&r["prices"]["damaged"]),
            "{}",
            a.name
        );
        assert_eq!(
            a.price.destroyed.map(i64::from),
            r["prices"]["destroyed"].as_i64(),
            "{}",
            a.name
        );
        assert_eq!(a.fame.map(i64::from), r["fame"].as_i64(), "{}", a.name);
        assert_eq!(
            a.notoriety.map(i64::from),
            r["notoriety"].as_i64(),
            "{}",
            a.name
        );
    }
}

fn spell_type(numeral: &str) -> MagicType {
    serde_json::from_value(Value::String(numeral.to_string())).unwrap()
}

#[test]
fn treasures_match_the_reference() {
    let Some(reference) = common::reference_json("magic-realm/treasures.json") else {
        return;
    };
    let Some(setup) = common::reference_json("magic-realm/setup.json") else {
        return;
    };
    let reference = reference.as_array().unwrap();
    let allocation = &setup["standard_game_allocation"];
    let ours = treasures::load().unwrap();
    assert_eq!(ours.len(), reference.len());
    assert_eq!(ours.len(), treasures::TREASURES);
    for r in reference {
        let name = r["name"].as_str().unwrap();
        let t = ours
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} missing"));
        let size = if r["size"] == "large" {
            TreasureSize::Large
        } else {
            TreasureSize::Small
        };
        assert_eq!(t.size, size, "{name}");
        assert_eq!(Value::Bool(t.great), r["great"], "{name}");
        assert_eq!(i64::from(t.fame), int(&r["fame"]), "{name}");
        assert_eq!(i64::from(t.notoriety), int(&r["notoriety"]), "{name}");
        assert_eq!(
            t.price.map(i64::from),
            r["base_price_gold"].as_i64(),
            "{name}"
        );
        assert_eq!(t.weight, letter(r.get("weight")), "{name}");
        assert_eq!(
            t.fame_buyer.as_deref(),
            r["fame_price_native_group"].as_str(),
            "{name}"
        );
        // Base-game visitors only: merchant and priest are expansion visitors.
        let visitors: BTreeMap<String, u16> = r["visitor_prices"]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(k, _)| ["scholar", "shaman", "warlock", "crone"].contains(&k.as_str()))
            .map(|(k, v)| {
                (
                    format!("{}{}", k[..1].to_uppercase(), &k[1..]),
                    int(v) as u16,
                )
            })
            .collect();
        assert_eq!(t.visitor_prices, visitors, "{name}");
        assert_eq!(
            t.within.as_ref().map(|w| i64::from(w.number)),
            r["treasure_within_treasure"].as_i64(),
            "{name}"
        );
        if let Some(w) = &t.within {
            let mut inside: Vec<String> = w.items.clone();
            // The reference names the horse by kind; ours are numbered.
            let horse_kind = |h: &String| {
                h.trim_end_matches([' ', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'])
                    .to_string()
            };
            inside.extend(w.horse.iter().map(horse_kind));
            let mut theirs: Vec<String> = r["initial_contents"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| {
                    if v == "Armor" {
                        "T Armor".to_string()
                    } else {
                        v.as_str().unwrap().to_string()
                    }
                })
                .collect();
            inside.sort();
            theirs.sort();
            assert_eq!(inside, theirs, "{name} contents");
            let large = allocation
                .get(name)
                .and_then(|a| a["LARGE_TREASURES"].as_i64())
                .unwrap_or(0);
            assert_eq!(
                i64::from(w.large_treasures),
                large,
                "{name} large treasures"
            );
            let gold = r["attributes"]["gold_reward"].as_i64().unwrap_or(0);
            assert_eq!(i64::from(w.gold), gold, "{name} gold");
            let table: Vec<String> = w
                .table
                .iter()
                .map(|res| {
                    serde_json::to_value(res)
                        .unwrap()
                        .as_str()
                        .unwrap()
                        .to_string()
                })
                .collect();
            let expected: Vec<String> = match r["table"].as_object() {
                None => Vec::new(),
                Some(rows) => (1..=6)
                    .map(|i| match rows[&format!("roll_{i}")].as_str().unwrap() {
                        "horse" => "take_horse",
                        "armor" => "take_armor",
                        "weapon" => "take_weapon",
                        "treasure" => "take_treasure",
                        "teleport_cave" => "teleport_to_cave",
                        "peer_any" => "peer_and_enchant_anywhere",
                        "power_pit" => "power_of_the_pit",
                        other => other,
                    })
                    .map(str::to_string)
                    .collect(),
            };
            assert_eq!(table, expected, "{name} table");
        }
        check_effects(t, r, allocation.get(name));
    }
}

/// The parts of each treasure's effects the reference states as data.
fn check_effects(t: &treasures::Treasure, r: &Value, allocation: Option<&Value>) {
    let name = &t.name;
    let attrs = &r["attributes"];
    let colour_sources: Vec<String> = t
        .effects
        .iter()
        .filter_map(|e| match e {
            TreasureEffect::ColourSource { colour } => Some(colour.word().to_string()),
            _ => None,
        })
        .collect();
    let theirs: Vec<String> = attrs["color_source"]
        .as_str()
        .map(common::project_colour)
        .into_iter()
        .collect();
    assert_eq!(colour_sources, theirs, "{name} colour source");

    let held: Vec<MagicType> = t
        .effects
        .iter()
        .flat_map(|e| match e {
            TreasureEffect::Spells { spells, .. } => spells.clone(),
            _ => Vec::new(),
        })
        .collect();
    let mut expected_types: Vec<MagicType> = Vec::new();
    if let Some(a) = allocation {
        for (pool, count) in a.as_object().unwrap() {
            if let Some(numeral) = pool.strip_prefix("SPELL_") {
                expected_types.extend(std::iter::repeat_n(
                    spell_type(numeral),
                    int(count) as usize,
                ));
            }
        }
    }
    let mut sorted = held.clone();
    sorted.sort();
    expected_types.sort();
    assert_eq!(sorted, expected_types, "{name} spells held");
    let magic: Vec<MagicType> = [&r["color_magic"], &r["color_magic_other"]]
        .into_iter()
        .filter_map(Value::as_str)
        .filter(|m| *m != "*")
        .map(spell_type)
        .collect();
    let mut distinct = sorted.clone();
    distinct.dedup();
    let mut magic_sorted = magic.clone();
    magic_sorted.sort();
    assert_eq!(distinct, magic_sorted, "{name} magic types");

    let one_die: Vec<String> = t
        .effects
        .iter()
        .filter_map(|e| match e {
            TreasureEffect::OneDie { table } => Some(
                serde_json::to_value(table)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_string(),
            ),
            _ => None,
        })
        .collect();
    let their_one_die: Vec<String> = attrs["diemod"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter_map(|d| d.strip_prefix("1d:"))
        .map(|d| d.split(':').next().unwrap().to_string())
        .collect();
    assert_eq!(one_die, their_one_die, "{name} one-die tables");

    let chits: Vec<(&str, Strength, i64)> = t
        .effects
        .iter()
        .filter_map(|e| match e {
            TreasureEffect::FightChit { strength, speed } => {
                Some(("attack_speed", *strength, i64::from(*speed)))
            }
            TreasureEffect::MoveChit { strength, speed } => {
                Some(("move_speed", *strength, i64::from(*speed)))
            }
            _ => None,
        })
        .collect();
    let mut their_chits = Vec::new();
    for key in ["attack_speed", "move_speed"] {
        if let Some(speed) = attrs[key].as_i64() {
            their_chits.push((key, letter(attrs.get("strength")), speed));
        }
    }
    assert_eq!(chits, their_chits, "{name} fight/move chit");

    let potion = t.effects.iter().find_map(|e| match e {
        TreasureEffect::Potion { returns_to } => Some(returns_to.to_lowercase()),
        _ => None,
    });
    assert_eq!(
        potion.as_deref(),
        attrs["discard"].as_str(),
        "{name} potion"
    );

    let armour = t.effects.iter().find_map(|e| match e {
        TreasureEffect::Armor {
            vulnerability,
            destroyed_price,
            ..
        } => Some((*vulnerability, destroyed_price.map(i64::from))),
        _ => None,
    });
    let their_armour = (attrs["armor"] == "special").then(|| {
        (
            letter(attrs.get("vulnerability")),
            r["other_blocks"]["destroyed"]["base_price"].as_i64(),
        )
    });
    assert_eq!(armour, their_armour, "{name} armour");

    let extra = t
        .effects
        .iter()
        .filter(|e| matches!(e, TreasureEffect::ExtraPhase { .. }))
        .count();
    let their_extra = attrs["extra_actions"].as_array().map_or(0, Vec::len)
        + usize::from(attrs["extra_cave_phase"] == true)
        + usize::from(attrs["extra_actions_clearing"].is_string());
    assert_eq!(extra, their_extra, "{name} extra phases");
}
