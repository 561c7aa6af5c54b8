//! Map chits, the setup card and the seasons cross-checked against the
//! reference JSON (skipped when the reference folder is absent).

use crate::common;

use realmgm::magic_realm::data::chits::{self, GoldSpecialKind, SiteAccess};
use realmgm::magic_realm::data::seasons::{self, WeatherKind};
use realmgm::magic_realm::data::setup_card;
use realmgm::magic_realm::data::terms::Dwelling;
use serde_json::Value;

fn int(value: &Value) -> i64 {
    value
        .as_i64()
        .unwrap_or_else(|| panic!("not a number: {value}"))
}

fn capitalised(word: &str) -> String {
    let mut letters = word.chars();
    letters
        .next()
        .map(|c| c.to_uppercase().chain(letters).collect())
        .unwrap_or_default()
}

#[test]
fn map_chits_match_the_reference() {
    let Some(reference) = common::reference_json("magic-realm/mapchits.json") else {
        return;
    };
    let ours = chits::load().unwrap();
    let list = |key: &str| reference[key].as_array().unwrap().clone();
    assert_eq!(ours.sound.len(), list("sound").len());
    for r in list("sound") {
        let s = ours
            .sound
            .iter()
            .find(|s| s.name == r["name"].as_str().unwrap())
            .unwrap();
        assert_eq!(i64::from(s.clearing), int(&r["clearing"]));
        assert_eq!(serde_json::to_value(s.sound).unwrap(), r["sound"]);
    }
    assert_eq!(ours.warning.len(), list("warning").len());
    for r in list("warning") {
        let w = ours
            .warning
            .iter()
            .find(|w| w.name == r["name"].as_str().unwrap())
            .unwrap();
        assert_eq!(serde_json::to_value(w.warning).unwrap(), r["warning"]);
        assert_eq!(w.tiles.letter(), r["tile_type"].as_str().unwrap());
        let reveals: Vec<&str> = r["reveals"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let ghosts = reveals.iter().filter(|n| **n == "Ghost").count();
        assert_eq!(usize::from(w.ghosts), ghosts, "{}", w.name);
        let dwelling = reveals
            .iter()
            .find(|n| **n != "Ghost")
            .map(|n| common::reference_dwelling(n));
        assert_eq!(w.dwelling, dwelling, "{}", w.name);
    }
    let ghosts = list("ghosts");
    assert_eq!(
        ours.warning
            .iter()
            .map(|w| usize::from(w.ghosts))
            .sum::<usize>(),
        ghosts.len()
    );
    assert!(ghosts.iter().all(|g| g["setup_start"] == "Bones V"));
    assert_eq!(ours.site.len(), list("site").len());
    for r in list("site") {
        let s = ours.site(r["name"].as_str().unwrap()).unwrap();
        assert_eq!(i64::from(s.clearing), int(&r["clearing"]));
        let access = if r["needs_open"].is_string() {
            Some(SiteAccess::OpenWithKeyOrTremendousEffort)
        } else if r["draw_cost"].is_string() {
            Some(SiteAccess::FatiguePerLoot)
        } else if r["search_cost"].is_string() {
            Some(SiteAccess::FatigueToSearch)
        } else {
            None
        };
        assert_eq!(s.access, access, "{}", s.name);
    }
    for r in list("red_special") {
        let l = ours
            .lost
            .iter()
            .find(|l| l.name == r["name"].as_str().unwrap())
            .unwrap();
        assert_eq!(i64::from(l.clearing), int(&r["clearing"]));
    }
    assert_eq!(ours.lost.len(), list("red_special").len());
    assert_eq!(ours.dwelling.len(), list("dwelling").len());
    for r in list("dwelling") {
        let d = ours
            .dwelling(common::reference_dwelling(r["name"].as_str().unwrap()))
            .unwrap();
        let warning = format!(
            "{} {}",
            capitalised(r["paired_warning"].as_str().unwrap()),
            r["tile_type"].as_str().unwrap()
        );
        assert_eq!(d.warning, warning, "{}", d.name);
        assert_eq!(Value::Bool(!d.shelter), r["no_shelter"], "{}", d.name);
        assert_eq!(
            d.colour_source.map(|c| c.word()),
            r["color_source"].as_str(),
            "{}",
            d.name
        );
        // Each garrison's members (e.g. "Order 1") start in its dwelling.
        let members: Vec<&str> = r["initial_contents"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        if let Some(group) = &d.garrison {
            let stem = group.trim_end_matches('s');
            assert!(
                members.iter().any(|m| m.starts_with(stem)),
                "{} garrison {group}",
                d.name
            );
        } else {
            assert!(members.is_empty(), "{}", d.name);
        }
    }
    assert_eq!(ours.visitor.len(), list("visitor").len());
    let gold = list("gold_special");
    assert_eq!(ours.gold_special.len(), gold.len());
    for r in &gold {
        let name = match r["name"].as_str().unwrap() {
            "Food Ale" => "Food and Ale",
            other => other,
        };
        let g = ours.gold_special.iter().find(|g| g.name == name).unwrap();
        assert_eq!(i64::from(g.days), int(&r["time_limit_days"]), "{name}");
        assert_eq!(
            g.notoriety.map(i64::from),
            r["notoriety_cost"].as_i64(),
            "{name}"
        );
        let kind = if r["campaign"].is_string() {
            GoldSpecialKind::Campaign
        } else {
            GoldSpecialKind::Mission
        };
        assert_eq!(g.kind, kind, "{name}");
        let allies: Vec<String> = r["partner"]
            .as_str()
            .map_or(Vec::new(), |p| p.split(',').map(capitalised).collect());
        assert_eq!(g.allies, allies, "{name}");
        let foes: Vec<&str> = r["foe"]
            .as_str()
            .map_or(Vec::new(), |p| p.split(',').collect());
        let groups: Vec<String> = foes
            .iter()
            .filter(|f| !f.contains("dragon") && !["wyrm", "firedrake"].contains(f))
            .map(|f| capitalised(f))
            .collect();
        assert_eq!(g.enemies, groups, "{name}");
        assert_eq!(
            g.enemy_monsters.is_empty(),
            !foes.contains(&"dragon"),
            "{name}"
        );
        // Both sides of a chit share its pair key.
        let pair = r["pair"].as_str().unwrap();
        let visitor = list("visitor").into_iter().find(|v| v["pair"] == pair);
        match visitor {
            Some(v) => assert_eq!(g.other_side, v["name"].as_str().unwrap(), "{name}"),
            None => {
                let other = gold
                    .iter()
                    .find(|o| o["pair"] == pair && o["name"] != r["name"])
                    .unwrap();
                assert_eq!(g.other_side, other["name"].as_str().unwrap(), "{name}");
            }
        }
    }
}

#[test]
fn setup_card_matches_the_reference() {
    let Some(setup) = common::reference_json("magic-realm/setup.json") else {
        return;
    };
    let Some(mapchits) = common::reference_json("magic-realm/mapchits.json") else {
        return;
    };
    let card = setup_card::load().unwrap();
    let boxes = setup["setup_card_boxes"].as_array().unwrap();
    let monster_boxes: Vec<&Value> = boxes
        .iter()
        .filter(|b| b["setup_card_section"] != "natives")
        .collect();
    assert_eq!(card.monster_box.len(), monster_boxes.len());
    // Same order, row, section, summoners and contents.
    for (ours, theirs) in card.monster_box.iter().zip(&monster_boxes) {
        assert!(
            theirs["name"]
                .as_str()
                .unwrap()
                .starts_with(ours.name.trim_end_matches(char::is_numeric).trim()),
            "{}",
            ours.name
        );
        assert_eq!(
            i64::from(ours.row),
            int(&theirs["monster_die_row"]),
            "{}",
            ours.name
        );
        assert_eq!(
            serde_json::to_value(ours.section).unwrap(),
            theirs["setup_card_section"]
                .as_str()
                .unwrap()
                .replace(' ', "_")
        );
        let summoners: Vec<String> = ours
            .summoned_by
            .iter()
            .map(|m| m.to_string().to_lowercase())
            .collect();
        let theirs_summoners: Vec<String> = theirs["summoned_by"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_lowercase())
            .collect();
        assert_eq!(summoners, theirs_summoners, "{}", ours.name);
        // The two printings of the wolf are `Wolf A` and `Wolf B` here.
        let kinds: Vec<&str> = ours
            .monsters
            .iter()
            .map(|m| m.trim_end_matches(" A").trim_end_matches(" B"))
            .collect();
        assert_eq!(
            serde_json::to_value(kinds).unwrap(),
            theirs["initial_contents"],
            "{}",
            ours.name
        );
    }
    let visitor_boxes: Vec<&Value> = boxes
        .iter()
        .filter(|b| b["setup_card_section"] == "natives")
        .collect();
    assert_eq!(card.visitor_box.len(), visitor_boxes.len());
    for (ours, theirs) in card.visitor_box.iter().zip(&visitor_boxes) {
        assert_eq!(
            format!("{} Box", ours.name),
            theirs["name"].as_str().unwrap()
        );
        assert_eq!(
            ours.leader_of.as_ref().map(|g| g.to_lowercase()),
            theirs["summon_native"].as_str().map(str::to_string)
        );
        if theirs["summon_native"].is_null() {
            assert_eq!(
                ours.places,
                vec![
                    theirs["summon_treasure_location"].clone(),
                    theirs["summon_treasure"].clone()
                ]
            );
        }
    }
    // Site boxes: row from the map chits, treasure piles and spells from the
    // standard allocation.
    let allocation = &setup["standard_game_allocation"];
    for site in mapchits["site"].as_array().unwrap() {
        let name = site["name"].as_str().unwrap();
        let b = card.site_box.iter().find(|b| b.site == name).unwrap();
        assert_eq!(i64::from(b.row), int(&site["monster_die_row"]), "{name}");
        let a = &allocation[name];
        assert_eq!(
            i64::from(b.large),
            a["LARGE_TREASURES"].as_i64().unwrap_or(0),
            "{name}"
        );
        assert_eq!(
            i64::from(b.small),
            a["SMALL_TREASURES"].as_i64().unwrap_or(0),
            "{name}"
        );
        let spells: i64 = a
            .as_object()
            .unwrap()
            .iter()
            .filter(|(k, _)| k.starts_with("SPELL_"))
            .map(|(_, v)| int(v))
            .sum();
        assert_eq!(b.spells.len() as i64, spells, "{name}");
    }
    assert_eq!(
        card.site_box.len(),
        mapchits["site"].as_array().unwrap().len()
    );
    // Monster-roll rows: every box of each reference row is on our row.
    for (row, entries) in setup["monster_roll_rows"].as_object().unwrap() {
        let roll: u8 = row.parse().unwrap();
        let ours = card.row(roll);
        let sites = entries
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "site_chit")
            .count();
        assert_eq!(ours.sites.len(), sites, "row {roll} sites");
        let natives = entries
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "native_dwelling")
            .count();
        assert_eq!(ours.natives.len(), natives, "row {roll} natives");
        let setup_boxes = entries
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "setup_box")
            .count();
        assert_eq!(
            ours.monster_boxes.len() + ours.visitor_boxes.len(),
            setup_boxes,
            "row {roll} boxes"
        );
    }
    // Dwelling and visitor treasure allocations.
    let dwellings = chits::load().unwrap();
    for d in &dwellings.dwelling {
        let small = allocation
            .get(if d.name == Dwelling::GuardHouse {
                "Guard"
            } else {
                d.name.label()
            })
            .and_then(|a| a["SMALL_TREASURES"].as_i64())
            .unwrap_or(0);
        assert_eq!(i64::from(d.small_treasures), small, "{}", d.name);
    }
    for n in &card.native_box {
        let key = match n.group.as_str() {
            "Lancers" => "Lancer Dwelling".to_string(),
            "Bashkars" => "Bashkar Dwelling".to_string(),
            other => format!("{other} Dwelling"),
        };
        assert_eq!(
            i64::from(n.small_treasures),
            int(&allocation[key.as_str()]["SMALL_TREASURES"]),
            "{}",
            n.group
        );
    }
    for v in &dwellings.visitor {
        let a = &allocation[v.name.as_str()];
        assert_eq!(
            i64::from(v.small_treasures),
            a["SMALL_TREASURES"].as_i64().unwrap_or(0),
            "{}",
            v.name
        );
        let spells: i64 = a
            .as_object()
            .unwrap()
            .iter()
            .filter(|(k, _)| k.starts_with("SPELL_"))
            .map(|(_, v)| int(v))
            .sum();
        assert_eq!(v.spells.len() as i64, spells, "{}", v.name);
        for t in &v.spells {
            assert!(
                a.get(format!("SPELL_{}", t.numeral()).as_str()).is_some(),
                "{} type {t}",
                v.name
            );
        }
    }
}

#[test]
fn seasons_match_the_reference() {
    let Some(setup) = common::reference_json("magic-realm/setup.json") else {
        return;
    };
    let data = seasons::load().unwrap();
    let reference = setup["calendar_seasons"].as_array().unwrap();
    assert_eq!(data.season.len(), reference.len());
    for (s, r) in data.season.iter().zip(reference) {
        let name = &s.name;
        assert_eq!(name, r["name"].as_str().unwrap());
        assert_eq!(i64::from(s.number), int(&r["season_index"]));
        let a = &r["attributes"];
        assert_eq!(i64::from(s.vp_per_month), int(&a["vps"]), "{name}");
        assert_eq!(
            i64::from(s.mountain_cost),
            int(&a["mountain_cost"]),
            "{name}"
        );
        assert_eq!(i64::from(s.reward), int(&a["reward"]), "{name}");
        let colours: Vec<String> = s
            .seventh_day
            .iter()
            .map(|c| c.word().to_uppercase())
            .collect();
        assert_eq!(
            colours.join(","),
            a["magic"].as_str().unwrap().replace("GRAY", "GREY"),
            "{name}"
        );
        let dwellings = |key: &str| -> Vec<Dwelling> {
            a[key]
                .as_str()
                .unwrap()
                .split(',')
                .map(common::reference_dwelling)
                .collect()
        };
        assert_eq!(s.food_and_ale, dwellings("food_ale"), "{name}");
        assert_eq!(s.escort_party, dwellings("escort_party"), "{name}");
        for kind in [
            WeatherKind::Clear,
            WeatherKind::Showers,
            WeatherKind::Storm,
            WeatherKind::Special,
        ] {
            let key = serde_json::to_value(kind).unwrap();
            let theirs = &r["weather"][key.as_str().unwrap()];
            let w = s.weather.get(kind);
            assert_eq!(w.name, theirs["name"].as_str().unwrap(), "{name} {key}");
            assert_eq!(i64::from(w.days), int(&theirs["days"]), "{name} {key}");
            assert_eq!(i64::from(w.basic), int(&theirs["basic"]), "{name} {key}");
            assert_eq!(
                i64::from(w.sunlight),
                theirs["sunlight"].as_i64().unwrap_or(0),
                "{name} {key}"
            );
            assert_eq!(
                i64::from(w.sheltered),
                theirs["sheltered"].as_i64().unwrap_or(0),
                "{name} {key}"
            );
            assert_eq!(
                w.frozen_water,
                theirs["frozen_water"] == true,
                "{name} {key}"
            );
            assert_eq!(
                w.note.is_some(),
                theirs["special"].is_string(),
                "{name} {key}"
            );
        }
    }
}
