//! The embedded characters against the reference facts: every chit, the
//! equipment at each level, start places, relationships and the advantages'
//! structured effects. Skips (printing SKIPPED) without the reference folder.

use crate::common;

use realmgm::magic_realm::data::characters::{
    Advantage, Character, ChitAction, Relationship, StartLocation,
};
use realmgm::magic_realm::data::terms::{Activity, MagicType, Roll, Strength};
use realmgm::magic_realm::data::{self};
use serde_json::Value;

fn characters() -> Vec<Character> {
    data::load().expect("embedded data loads").characters
}

fn group_name(reference_key: &str) -> &'static str {
    match reference_key {
        "order" => "Order",
        "soldiers" => "Soldiers",
        "rogues" => "Rogues",
        "guard" => "Guard",
        "company" => "Company",
        "woodfolk" => "Woodfolk",
        "patrol" => "Patrol",
        "lancers" => "Lancers",
        "bashkars" => "Bashkars",
        "scholar" => "Scholar",
        "shaman" => "Shaman",
        "warlock" => "Warlock",
        "crone" => "Crone",
        other => panic!("unknown group key {other} in the reference"),
    }
}

fn armor_name(reference: &Value) -> String {
    reference.as_str().unwrap().to_string()
}

fn strength(letter: &Value) -> Option<Strength> {
    letter.as_str().and_then(Strength::from_letter)
}

#[test]
fn sixteen_characters_with_twelve_chits_each() {
    let all = characters();
    assert_eq!(all.len(), 16);
    for c in &all {
        assert_eq!(c.chits.len(), 12, "{}", c.name);
        assert_eq!(c.development.len(), 3, "{}", c.name);
    }
}

#[test]
fn knights_adjustment_can_be_applied_to_the_data() {
    let all = characters();
    let white = all.iter().find(|c| c.name == "White Knight").unwrap();
    assert_eq!(white.relationship("Order"), Relationship::Ally);
    assert_eq!(
        white.relationship("Order").shifted(-1),
        Relationship::Friendly
    );
    let black = all.iter().find(|c| c.name == "Black Knight").unwrap();
    assert_eq!(
        black.relationship("Company").shifted(-1),
        Relationship::Friendly
    );
    assert_eq!(black.relationship("Woodfolk"), Relationship::Neutral);
}

#[test]
fn characters_match_the_reference() {
    let Some(reference) = common::reference_json("magic-realm/characters.json") else {
        return;
    };
    let all = characters();
    let reference = reference.as_array().unwrap();
    assert_eq!(reference.len(), all.len());
    for r in reference {
        let name = r["name"].as_str().unwrap();
        let c = all
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(
            Some(c.vulnerability),
            strength(&r["vulnerability"]),
            "{name}"
        );
        let starts: Vec<StartLocation> = r["start_locations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| match s.as_str().unwrap() {
                "Inn" => StartLocation::Inn,
                "House" => StartLocation::House,
                "Chapel" => StartLocation::Chapel,
                "Guard" => StartLocation::GuardHouse,
                "Ghost" => StartLocation::Ghosts,
                other => panic!("unknown start {other}"),
            })
            .collect();
        assert_eq!(c.start, starts, "{name} start");
        check_relationships(c, &r["relationships"]);
        check_levels(c, r["levels"].as_array().unwrap());
        check_chits(c, r["chits"].as_array().unwrap());
        check_advantages(c, r);
    }
}

fn check_relationships(c: &Character, reference: &Value) {
    let reference = reference.as_object().unwrap();
    assert_eq!(
        c.relationships.len(),
        reference.len(),
        "{} relationships",
        c.name
    );
    for (key, level) in reference {
        let expected = match level.as_i64().unwrap() {
            -2 => Relationship::Enemy,
            -1 => Relationship::Unfriendly,
            1 => Relationship::Friendly,
            2 => Relationship::Ally,
            other => panic!("level {other}"),
        };
        assert_eq!(
            c.relationship(group_name(key)),
            expected,
            "{} with {key}",
            c.name
        );
    }
}

fn check_levels(c: &Character, levels: &[Value]) {
    assert_eq!(levels.len(), 4);
    for (index, level) in levels.iter().enumerate() {
        let weapon = level["weapon"].as_str().map(str::to_string);
        let armor: Vec<String> = level["armor"]
            .as_array()
            .unwrap()
            .iter()
            .map(armor_name)
            .collect();
        let spells = level["spellcount"].as_u64().unwrap_or(0) as u8;
        if index == 3 {
            assert_eq!(level["name"].as_str(), Some(c.name.as_str()));
            assert_eq!(c.weapon, weapon, "{} weapon", c.name);
            assert_eq!(c.armor, armor, "{} armor", c.name);
            assert_eq!(c.spells, spells, "{} spells", c.name);
            let types: Vec<MagicType> = level["spelltypes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| MagicType::from_numeral(t.as_str().unwrap()).unwrap())
                .collect();
            let mut types = types;
            types.sort();
            assert_eq!(c.spell_types(), types, "{} spell types", c.name);
        } else {
            let d = &c.development[index];
            assert_eq!(Some(d.title.as_str()), level["name"].as_str(), "{}", c.name);
            assert_eq!(d.weapon, weapon, "{} level {} weapon", c.name, index + 1);
            assert_eq!(d.armor, armor, "{} level {} armor", c.name, index + 1);
            assert_eq!(d.spells, spells, "{} level {} spells", c.name, index + 1);
        }
    }
}

fn chit_matches(chit: &realmgm::magic_realm::data::characters::ActionChit, r: &Value) -> bool {
    let action = match r["action"].as_str().unwrap() {
        "move" => ChitAction::Move,
        "fight" => ChitAction::Fight,
        "magic" => ChitAction::Magic,
        "duck" => ChitAction::Duck,
        "berserk" => ChitAction::Berserk,
        other => panic!("unknown chit action {other}"),
    };
    chit.action == action
        && chit.strength == strength(&r["strength"])
        && chit.magic == r["magic_type"].as_str().and_then(MagicType::from_numeral)
        && u64::from(chit.time) == r["speed"].as_u64().unwrap()
        && u64::from(chit.effort) == r["effort"].as_u64().unwrap()
}

fn check_chits(c: &Character, reference: &[Value]) {
    for stage in 1..=12u64 {
        let at_stage: Vec<&Value> = reference
            .iter()
            .filter(|r| r["stage"].as_u64() == Some(stage))
            .collect();
        let mine = &c.chits[stage as usize - 1];
        assert_eq!(
            Character::level_of_stage(stage as u8),
            at_stage[0]["level"].as_u64().unwrap() as u8
        );
        match at_stage.as_slice() {
            [only] => assert!(chit_matches(mine, only), "{} stage {stage}: {mine}", c.name),
            [first, second] => {
                // One standard chit and the optional ability's replacement.
                let replacement = c
                    .abilities
                    .iter()
                    .flat_map(|a| &a.effects)
                    .find_map(|e| match e {
                        Advantage::ReplaceChit { stage: s, chit } if u64::from(*s) == stage => {
                            Some(*chit)
                        }
                        _ => None,
                    })
                    .unwrap_or_else(|| panic!("{} stage {stage} has no replacement", c.name));
                let standard_first =
                    chit_matches(mine, first) && chit_matches(&replacement, second);
                let standard_second =
                    chit_matches(mine, second) && chit_matches(&replacement, first);
                assert!(
                    standard_first || standard_second,
                    "{} stage {stage}",
                    c.name
                );
            }
            other => panic!(
                "{} stage {stage}: {} chits in the reference",
                c.name,
                other.len()
            ),
        }
    }
}

/// The reference lists die-roll changes and extra phases per level; each
/// must appear among the structured effects of that level's ability.
fn check_advantages(c: &Character, r: &Value) {
    let mut standard = 0;
    for level in r["levels"].as_array().unwrap() {
        let number = level["level"].as_u64().unwrap() as u8;
        let advantages = level["advantages"].as_array().unwrap();
        standard += advantages.len();
        let effects: Vec<&Advantage> = c
            .abilities
            .iter()
            .filter(|a| a.level == Some(number))
            .flat_map(|a| &a.effects)
            .collect();
        for name in advantages {
            let name = name
                .as_str()
                .unwrap()
                .split(':')
                .next()
                .unwrap()
                .to_lowercase();
            assert!(
                c.abilities
                    .iter()
                    .any(|a| a.level == Some(number) && a.name.to_lowercase() == name),
                "{} lacks {name} at level {number}",
                c.name
            );
        }
        for diemod in level["diemod"].as_array().unwrap() {
            let diemod = diemod.as_str().unwrap();
            let (change, rest) = diemod.split_once(':').unwrap();
            let first_roll = match rest.split([',', ':']).next().unwrap() {
                "hide" => Roll::Hide,
                "readrunes" => Roll::ReadRunes,
                "meeting" => Roll::Meeting,
                "trade" => Roll::Trade,
                "hire" => Roll::Hire,
                "missile" => Roll::Missile,
                other => panic!("unexpected roll {other}"),
            };
            let found = effects.iter().any(|e| match (change, e) {
                ("1d", Advantage::RollOneDie { rolls, .. }) => {
                    rolls.iter().any(|r| r.covers(first_roll))
                }
                (
                    "-1",
                    Advantage::RollModifier {
                        rolls,
                        modifier: -1,
                        ..
                    },
                ) => rolls.iter().any(|r| r.covers(first_roll)),
                _ => false,
            });
            assert!(found, "{} level {number}: no effect for {diemod}", c.name);
        }
        for extra in level["extra_actions"].as_array().unwrap() {
            let activity = match extra.as_str().unwrap() {
                "M" => Activity::Move,
                "R" => Activity::Rest,
                "H" => Activity::Hide,
                "A" => Activity::Alert,
                "SP" => Activity::Spell,
                other => panic!("unexpected extra phase {other}"),
            };
            assert!(
                effects.contains(&&Advantage::ExtraPhase { activity }),
                "{} level {number}: no extra {activity:?} phase",
                c.name
            );
        }
    }
    let mine = c.abilities.iter().filter(|a| !a.optional).count();
    assert_eq!(mine, standard, "{} standard abilities", c.name);
    let optional: usize = r["optional_rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["changes"]["advantages"].as_array().map_or(0, Vec::len))
        .sum();
    let elf_form = usize::from(c.name == "Elf");
    assert_eq!(
        c.abilities.iter().filter(|a| a.optional).count(),
        optional + elf_form,
        "{} optional abilities",
        c.name
    );
}
