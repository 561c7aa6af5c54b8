//! Checks between the character, monster, native and horse files: names one
//! file uses must exist in the other (a rider is a real native and rides that
//! horse, a relationship names a real group or visitor, the Pilgrim's
//! protection names real monsters).

use super::GameData;
use super::characters::{self, Advantage};
use super::horses::{self, HorseStart};
use super::{chits, monsters, natives};
use realmgm_core::embedded::DataError;

/// Check every reference between the denizen files.
///
/// # Errors
/// The first name that does not resolve, naming the file, entry and field.
pub fn check_denizens(data: &GameData) -> Result<(), DataError> {
    check_horses(data)?;
    check_characters(data)
}

fn check_horses(data: &GameData) -> Result<(), DataError> {
    for group in &data.natives {
        for (index, member) in group.members.iter().enumerate() {
            let Some(horse_name) = &member.horse else {
                continue;
            };
            let rides = data.horses.iter().find(|h| &h.name == horse_name);
            let agrees = rides.is_some_and(
                |h| matches!(&h.start, HorseStart::Rider { native } if *native == member.name),
            );
            if !agrees {
                return Err(DataError::entry(
                    natives::FILE,
                    format!("native group \"{}\"", group.name),
                    format!("members[{index}].horse"),
                    format!(
                        "{horse_name} is not a horse in {} ridden by {}",
                        horses::FILE,
                        member.name
                    ),
                ));
            }
        }
    }
    for horse in &data.horses {
        let entry = format!("horse \"{}\"", horse.name);
        match &horse.start {
            HorseStart::Rider { native } => {
                let rider = natives::find_member(&data.natives, native).map(|(_, m)| m);
                if rider.and_then(|m| m.horse.as_deref()) != Some(horse.name.as_str()) {
                    return Err(DataError::entry(
                        horses::FILE,
                        entry,
                        "start.native",
                        format!(
                            "{native} is not a native in {} who rides this horse",
                            natives::FILE
                        ),
                    ));
                }
            }
            HorseStart::Stock { group } => {
                if !data.natives.iter().any(|g| &g.name == group) {
                    return Err(DataError::entry(
                        horses::FILE,
                        entry,
                        "start.group",
                        format!("{group} is not a native group in {}", natives::FILE),
                    ));
                }
            }
            HorseStart::Site { .. } => {}
        }
    }
    Ok(())
}

fn check_characters(data: &GameData) -> Result<(), DataError> {
    for character in &data.characters {
        let entry = format!("character \"{}\"", character.name);
        for group in character.relationships.keys() {
            let known = data.natives.iter().any(|g| &g.name == group)
                || data.chits.visitor(group).is_some();
            if !known {
                let groups = data.natives.iter().map(|g| g.name.as_str());
                let visitors = data.chits.visitor.iter().map(|v| v.name.as_str());
                let hint = realmgm_core::suggest::did_you_mean(group, groups.chain(visitors));
                return Err(DataError::entry(
                    characters::FILE,
                    entry,
                    format!("relationships.{group}"),
                    format!(
                        "not a native group in {} or a visitor in {}{hint}",
                        natives::FILE,
                        chits::FILE
                    ),
                ));
            }
        }
        for (a, ability) in character.abilities.iter().enumerate() {
            for (e, effect) in ability.effects.iter().enumerate() {
                let Advantage::ImmuneToAttacksOf { monsters: names } = effect else {
                    continue;
                };
                if let Some(missing) = names
                    .iter()
                    .find(|n| !data.monsters.iter().any(|m| &&m.name == n))
                {
                    return Err(DataError::entry(
                        characters::FILE,
                        entry,
                        format!("abilities[{a}].effects[{e}]"),
                        format!("{missing} is not a monster in {}", monsters::FILE),
                    ));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::load;

    #[test]
    fn the_embedded_files_agree() {
        load().unwrap();
    }

    #[test]
    fn an_unknown_relationship_group_is_named() {
        let mut data = load().unwrap();
        let amazon = &mut data.characters[0];
        let level = amazon.relationships.remove("Patrol").unwrap();
        amazon.relationships.insert("Patrols".into(), level);
        let err = check_denizens(&data).unwrap_err();
        assert_eq!(err.file, "characters.toml");
        assert_eq!(err.entry.as_deref(), Some("character \"Amazon\""));
        assert_eq!(err.field.as_deref(), Some("relationships.Patrols"));
        assert!(err.message.contains("Patrol"), "{err}");
    }

    #[test]
    fn a_horse_whose_rider_disagrees_is_named() {
        let mut data = load().unwrap();
        data.horses[0].start = HorseStart::Rider {
            native: "Bashkar 2".into(),
        };
        let err = check_denizens(&data).unwrap_err();
        assert_eq!(err.file, "natives.toml");
        assert_eq!(err.field.as_deref(), Some("members[0].horse"));
    }

    #[test]
    fn an_unknown_protected_monster_is_named() {
        let mut data = load().unwrap();
        let pilgrim = data
            .characters
            .iter_mut()
            .find(|c| c.name == "Pilgrim")
            .unwrap();
        pilgrim.abilities[0].effects = vec![Advantage::ImmuneToAttacksOf {
            monsters: vec!["Daemon".into()],
        }];
        let err = check_denizens(&data).unwrap_err();
        assert_eq!(err.entry.as_deref(), Some("character \"Pilgrim\""));
        assert_eq!(err.field.as_deref(), Some("abilities[0].effects[0]"));
    }
}
