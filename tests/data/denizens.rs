//! The embedded monsters, natives and horses against the reference facts:
//! every count and every printed value. Skips (printing SKIPPED) without the
//! reference folder.

use crate::common;

use realmgm::magic_realm::data::horses::{Horse, HorseKind, HorseStart};
use realmgm::magic_realm::data::monsters::{CounterStart, Monster, MonsterTrait};
use realmgm::magic_realm::data::natives::Hire;
use realmgm::magic_realm::data::terms::{DenizenSide, Dwelling, Harm, MagicType, Strength};
use realmgm::magic_realm::data::{self, GameData};
use serde_json::Value;

fn game() -> GameData {
    data::load().expect("embedded data loads")
}

fn strength(value: &Value) -> Strength {
    Strength::from_letter(value.as_str().unwrap()).unwrap()
}

fn harm(value: &Value) -> Option<Harm> {
    value.as_str().map(|letter| match letter {
        "RED" => Harm::Red,
        "L" => Harm::Light,
        "M" => Harm::Medium,
        "H" => Harm::Heavy,
        "T" => Harm::Tremendous,
        other => panic!("harm {other}"),
    })
}

fn u8_of(value: &Value) -> Option<u8> {
    value.as_u64().map(|n| u8::try_from(n).unwrap())
}

/// Whether a monster's or native's side has the reference values.
fn side_matches(side: &DenizenSide, r: &Value) -> bool {
    let spell = r["attack_spell"].as_str().map(|s| match s {
        "powerofthepit" => "Power of the Pit",
        "curse" => "Curse",
        other => panic!("spell {other}"),
    });
    side.move_speed == u8_of(&r["move_speed"]).unwrap()
        && side.speed == u8_of(&r["attack_speed"])
        && side.harm == harm(&r["strength"])
        && side.stars == u8_of(&r["sharpness"]).unwrap_or(0)
        && side.missile == r["missile"].as_bool().unwrap_or(false)
        && side.spell.as_deref() == spell
        && side.magic == r["magic_type"].as_str().and_then(MagicType::from_numeral)
}

#[test]
fn counts_match_the_original_game() {
    let game = game();
    assert_eq!(
        game.monsters
            .iter()
            .map(|m| m.counters.len())
            .sum::<usize>(),
        59
    );
    assert_eq!(game.natives.len(), 9);
    assert_eq!(
        game.natives.iter().map(|g| g.members.len()).sum::<usize>(),
        42
    );
    assert_eq!(game.horses.len(), 34);
}

#[test]
fn tremendous_monsters_have_red_sides() {
    for monster in &game().monsters {
        let red = monster.has_red_side();
        assert_eq!(
            red,
            monster.vulnerability == Strength::Tremendous,
            "{}",
            monster.name
        );
    }
}

fn monster_for<'a>(monsters: &'a [Monster], r: &Value) -> &'a Monster {
    let name = r["name"].as_str().unwrap();
    let candidates: Vec<&Monster> = monsters
        .iter()
        .filter(|m| {
            m.name == name || m.name.strip_suffix(" A").or(m.name.strip_suffix(" B")) == Some(name)
        })
        .collect();
    let matching: Vec<&&Monster> = candidates
        .iter()
        .filter(|m| side_matches(&m.light, &r["light"]))
        .collect();
    assert_eq!(
        matching.len(),
        1,
        "{name}: {} kinds match its light side",
        matching.len()
    );
    matching[0]
}

fn counter_start(r: &Value) -> CounterStart {
    let start = r["setup_start"].as_str().unwrap();
    if let Some(name) = start.strip_suffix(" Box") {
        let name = match u8_of(&r["setup_box_num"]) {
            Some(number) => format!("{name} {number}"),
            None => name.to_string(),
        };
        CounterStart::Box { name }
    } else if start == "Bones V" {
        CounterStart::Ghosts
    } else {
        CounterStart::Site {
            site: start.to_string(),
        }
    }
}

#[test]
fn monsters_match_the_reference() {
    let Some(reference) = common::reference_json("magic-realm/monsters.json") else {
        return;
    };
    let game = game();
    let reference = reference.as_array().unwrap();
    assert_eq!(reference.len(), 59);
    let mut starts_seen: Vec<(String, CounterStart)> = Vec::new();
    for r in reference {
        let m = monster_for(&game.monsters, r);
        let name = &m.name;
        assert_eq!(m.vulnerability, strength(&r["vulnerability"]), "{name}");
        assert_eq!(m.armored, r["armored"].as_bool().unwrap(), "{name} armored");
        assert_eq!(m.flying, r["flying"].as_bool().unwrap(), "{name} flying");
        assert_eq!(Some(m.fame), u8_of(&r["fame"]), "{name} fame");
        assert_eq!(
            Some(m.notoriety),
            u8_of(&r["notoriety"]),
            "{name} notoriety"
        );
        assert_eq!(Some(m.price), u8_of(&r["base_price"]), "{name} price");
        match r["monster_die_row"].as_u64().unwrap() {
            99 => assert!(m.prowls_daily && m.row.is_none(), "{name} prowls daily"),
            row => assert_eq!(m.row, Some(row as u8), "{name} row"),
        }
        assert!(side_matches(&m.dark, &r["dark"]), "{name} dark side");
        let length = u8_of(&r["dark"]["length"])
            .or(u8_of(&r["light"]["length"]))
            .unwrap_or(0);
        assert_eq!(m.length, length, "{name} length");
        let flags: Vec<&str> = r["flags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap())
            .collect();
        assert_eq!(
            m.has_trait(MonsterTrait::Demon),
            flags.contains(&"demon"),
            "{name} demon"
        );
        assert_eq!(
            m.has_trait(MonsterTrait::Undead),
            flags.contains(&"undead"),
            "{name} undead"
        );
        let parts = r["parts"].as_array().unwrap();
        assert_eq!(m.parts.len(), parts.len(), "{name} parts");
        for (part, rp) in m.parts.iter().zip(parts) {
            assert_eq!(Some(part.name.as_str()), rp["name"].as_str());
            assert_eq!(
                Some(part.length),
                u8_of(&rp["light"]["length"]),
                "{} length",
                part.name
            );
            for (side, rs) in [(part.light, &rp["light"]), (part.dark, &rp["dark"])] {
                assert_eq!(Some(side.harm), harm(&rs["strength"]), "{} harm", part.name);
                assert_eq!(
                    Some(side.speed),
                    u8_of(&rs["attack_speed"]),
                    "{} speed",
                    part.name
                );
                assert_eq!(
                    side.stars,
                    u8_of(&rs["sharpness"]).unwrap_or(0),
                    "{} stars",
                    part.name
                );
            }
        }
        starts_seen.push((name.clone(), counter_start(r)));
    }
    // Every counter's start, as a multiset, per kind.
    for m in &game.monsters {
        let mut mine = m.counters.clone();
        let mut theirs: Vec<CounterStart> = starts_seen
            .iter()
            .filter(|(n, _)| n == &m.name)
            .map(|(_, s)| s.clone())
            .collect();
        let key = |s: &CounterStart| format!("{s:?}");
        mine.sort_by_key(key);
        theirs.sort_by_key(key);
        assert_eq!(mine, theirs, "{} counters", m.name);
    }
}

#[test]
fn natives_match_the_reference() {
    let Some(reference) = common::reference_json("magic-realm/natives.json") else {
        return;
    };
    let game = game();
    let reference = reference.as_array().unwrap();
    assert_eq!(reference.len(), game.natives.len());
    for rg in reference {
        let leader = rg["leader"].as_str().unwrap();
        let prefix = leader.strip_suffix(" HQ").unwrap();
        let group = game
            .natives
            .iter()
            .find(|g| g.leader().name == leader || (prefix == "Woodsfolk" && g.name == "Woodfolk"))
            .unwrap_or_else(|| panic!("no group led by {leader}"));
        let members = rg["members"].as_array().unwrap();
        assert_eq!(group.members.len(), members.len(), "{}", group.name);
        let garrison = members[0]["garrison"].as_bool().unwrap();
        assert_eq!(
            group.garrison.is_some(),
            garrison,
            "{} garrison",
            group.name
        );
        let hire = if members[0]["hire_type"] == "single" {
            Hire::Single
        } else {
            Hire::Group
        };
        assert_eq!(group.hire, hire, "{} hire", group.name);
        if !garrison {
            let appears: Vec<Dwelling> = rg["dwelling"]["appears_at_dwellings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| match d.as_str().unwrap() {
                    "inn" => Dwelling::Inn,
                    "house" => Dwelling::House,
                    "chapel" => Dwelling::Chapel,
                    "guard" => Dwelling::GuardHouse,
                    "l_fire" => Dwelling::LargeCampfire,
                    "s_fire" => Dwelling::SmallCampfire,
                    other => panic!("dwelling {other}"),
                })
                .collect();
            assert_eq!(group.appears_at, appears, "{} appears at", group.name);
        }
        for r in members {
            let rank = r["rank"].as_str().unwrap();
            let m = group
                .members
                .iter()
                .find(|m| m.rank == rank)
                .unwrap_or_else(|| panic!("{} has no rank {rank}", group.name));
            let name = &m.name;
            assert_eq!(
                Some(u8_of(&r["monster_die_row"]).unwrap()),
                Some(group.row),
                "{name} row"
            );
            assert_eq!(m.vulnerability, strength(&r["vulnerability"]), "{name}");
            assert_eq!(m.armored, r["armored"].as_bool().unwrap(), "{name} armored");
            assert_eq!(
                Some(m.wage),
                u8_of(&r["wage_and_gold_bounty"]),
                "{name} wage"
            );
            assert_eq!(Some(m.fame), u8_of(&r["fame_bounty"]), "{name} fame");
            assert_eq!(
                Some(m.notoriety),
                u8_of(&r["notoriety_bounty"]),
                "{name} notoriety"
            );
            assert_eq!(m.horse.as_deref(), r["horse"].as_str(), "{name} horse");
            assert!(side_matches(&m.light, &r["light"]), "{name} light side");
            assert!(side_matches(&m.dark, &r["dark"]), "{name} dark side");
            let length = u8_of(&r["dark"]["length"])
                .or(u8_of(&r["light"]["length"]))
                .unwrap();
            assert_eq!(m.length, length, "{name} length");
        }
    }
}

fn horse_kind(value: &Value) -> HorseKind {
    match value.as_str().unwrap() {
        "pony" => HorseKind::Pony,
        "horse" => HorseKind::Horse,
        "warhorse" => HorseKind::Warhorse,
        other => panic!("horse type {other}"),
    }
}

fn horse_matches(h: &Horse, r: &Value) -> bool {
    h.kind == horse_kind(&r["horse_type"])
        && h.vulnerability == strength(&r["vulnerability"])
        && h.armored == r["armored"].as_bool().unwrap()
        && h.price == u8_of(&r["base_price"])
        && Some(h.trot.move_speed) == u8_of(&r["trot"]["move_speed"])
        && h.trot.strength == strength(&r["trot"]["strength"])
        && Some(h.gallop.move_speed) == u8_of(&r["gallop"]["move_speed"])
        && h.gallop.strength == strength(&r["gallop"]["strength"])
}

#[test]
fn horses_match_the_reference() {
    let Some(reference) = common::reference_json("magic-realm/horses.json") else {
        return;
    };
    let game = game();
    let reference = reference.as_array().unwrap();
    assert_eq!(reference.len(), game.horses.len());
    let mut used = vec![false; game.horses.len()];
    for r in reference {
        let name = r["name"].as_str().unwrap();
        let found = game.horses.iter().enumerate().position(|(i, h)| {
            !used[i] && horse_matches(h, r) && (r["native_group"].is_null() || h.name == name)
        });
        let index = found.unwrap_or_else(|| panic!("no horse matches the reference {name} {r}"));
        used[index] = true;
        let horse = &game.horses[index];
        match (&horse.start, r["initial_holder"].as_str().unwrap()) {
            (HorseStart::Rider { native }, holder) => assert_eq!(native, holder, "{name}"),
            (HorseStart::Stock { group }, "Bashkar Dwelling") => assert_eq!(group, "Bashkars"),
            (HorseStart::Stock { group }, "Chapel") => assert_eq!(group, "Order"),
            (HorseStart::Stock { group }, "Inn") => assert_eq!(group, "Rogues"),
            (HorseStart::Site { site }, holder) => assert_eq!(site, holder, "{name}"),
            (start, holder) => panic!("{name}: {start:?} does not match {holder}"),
        }
    }
}
