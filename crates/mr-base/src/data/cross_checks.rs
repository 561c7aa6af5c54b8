//! Checks that the files agree with each other on the names the setup
//! needs: characters' equipment exists, every monster the setup card names
//! exists with exactly the counters its boxes hold, every native group named
//! anywhere is a group of natives.toml (the one spelling every file uses),
//! the natives, dwellings and setup card agree on who lives and appears
//! where, and horses that start inside a treasure within a treasure are the
//! ones that treasure holds.
//!
//! Rules: `data/chits.toml` (site contents), §6.2 (setup card), §7.3
//! (dwellings), §8.2 (native groups), §10.1 (starting equipment).

use std::collections::BTreeMap;

use super::GameData;
use super::characters;
use super::chits;
use super::horses::{self, HorseStart};
use super::monsters::{self, CounterStart};
use super::natives;
use super::setup_card;
use super::treasures;
use realmgm_core::embedded::DataError;

/// Run every cross-file check.
///
/// # Errors
/// The first dangling name or disagreement, naming file, entry and field.
pub fn check(data: &GameData) -> Result<(), DataError> {
    check_character_equipment(data)?;
    check_monster_starts(data)?;
    check_card_monsters(data)?;
    check_native_group_names(data)?;
    check_dwellings_agree(data)?;
    check_horse_sites(data)?;
    Ok(())
}

fn is_group(data: &GameData, name: &str) -> bool {
    data.natives.iter().any(|g| g.name == name)
}

fn is_monster(data: &GameData, name: &str) -> bool {
    data.monsters.iter().any(|m| m.name == name)
}

/// The first `(field, name)` that `known` refuses.
fn first_unknown<'a>(
    names: impl IntoIterator<Item = (String, &'a str)>,
    known: impl Fn(&str) -> bool,
) -> Option<(String, &'a str)> {
    names.into_iter().find(|(_, name)| !known(name))
}

/// Fields `prefix[i]` for the names of a list.
fn listed<'a>(prefix: &'a str, names: &'a [String]) -> impl Iterator<Item = (String, &'a str)> {
    names
        .iter()
        .enumerate()
        .map(move |(i, n)| (format!("{prefix}[{i}]"), n.as_str()))
}

fn check_character_equipment(data: &GameData) -> Result<(), DataError> {
    let is_weapon = |n: &str| data.weapons.iter().any(|w| w.name == n);
    let is_armor = |n: &str| data.armor.iter().any(|a| a.name == n);
    for c in &data.characters {
        let entry = format!("character \"{}\"", c.name);
        let mut weapons: Vec<(String, &str)> = c
            .weapon
            .iter()
            .map(|w| ("weapon".to_string(), w.as_str()))
            .collect();
        let mut armor: Vec<(String, &str)> = listed("armor", &c.armor).collect();
        for (i, level) in c.development.iter().enumerate() {
            weapons.extend(
                level
                    .weapon
                    .iter()
                    .map(|w| (format!("development[{i}].weapon"), w.as_str())),
            );
            armor.extend(
                level
                    .armor
                    .iter()
                    .enumerate()
                    .map(|(j, a)| (format!("development[{i}].armor[{j}]"), a.as_str())),
            );
        }
        if let Some((field, name)) = first_unknown(weapons, is_weapon) {
            return Err(DataError::entry(
                characters::FILE,
                entry,
                field,
                format!("\"{name}\" is not a weapon in weapons.toml"),
            ));
        }
        if let Some((field, name)) = first_unknown(armor, is_armor) {
            return Err(DataError::entry(
                characters::FILE,
                entry,
                field,
                format!("\"{name}\" is not armour in armor.toml"),
            ));
        }
    }
    Ok(())
}

/// Every monster the setup card names exists, and each monster box holds
/// exactly the counters monsters.toml starts in it.
fn check_card_monsters(data: &GameData) -> Result<(), DataError> {
    let card = &data.setup_card;
    let unknown = |entry: String, field: String, name: &str| {
        DataError::entry(
            setup_card::FILE,
            entry,
            field,
            format!("\"{name}\" is not a monster in {}", monsters::FILE),
        )
    };
    for b in &card.site_box {
        if !is_monster(data, &b.guardian) {
            return Err(unknown(
                format!("site_box \"{}\"", b.site),
                "guardian".into(),
                &b.guardian,
            ));
        }
    }
    if let Some((field, name)) =
        first_unknown(listed("prowl_every_day", &card.prowl_every_day), |n| {
            is_monster(data, n)
        })
    {
        return Err(unknown("prowl_every_day".into(), field, name));
    }
    for b in &card.monster_box {
        let entry = format!("monster_box \"{}\"", b.name);
        if let Some((field, name)) =
            first_unknown(listed("monsters", &b.monsters), |n| is_monster(data, n))
        {
            return Err(unknown(entry, field, name));
        }
        let mut on_card: BTreeMap<&str, usize> = BTreeMap::new();
        for name in &b.monsters {
            *on_card.entry(name.as_str()).or_default() += 1;
        }
        for m in &data.monsters {
            let counters = m
                .counters
                .iter()
                .filter(|c| matches!(c, CounterStart::Box { name } if *name == b.name))
                .count();
            let listed = on_card.get(m.name.as_str()).copied().unwrap_or(0);
            if counters != listed {
                return Err(DataError::entry(
                    setup_card::FILE,
                    entry,
                    "monsters",
                    format!(
                        "the box lists {listed} {} but {} starts {counters} of its counters here",
                        m.name,
                        monsters::FILE
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Each monster counter starts somewhere the setup card and map chits know.
fn check_monster_starts(data: &GameData) -> Result<(), DataError> {
    let card = &data.setup_card;
    let ghost_places: usize = data
        .chits
        .warning
        .iter()
        .map(|w| usize::from(w.ghosts))
        .sum();
    let mut ghosts = 0;
    for m in &data.monsters {
        let entry = format!("monster \"{}\"", m.name);
        for (i, counter) in m.counters.iter().enumerate() {
            let problem = match counter {
                CounterStart::Box { name } if !card.monster_box.iter().any(|b| &b.name == name) => {
                    Some((
                        format!("counters[{i}].name"),
                        format!("\"{name}\" is not a monster box in {}", setup_card::FILE),
                    ))
                }
                CounterStart::Site { site }
                    if !card
                        .site_box
                        .iter()
                        .any(|b| &b.site == site && b.guardian == m.name) =>
                {
                    Some((
                        format!("counters[{i}].site"),
                        format!(
                            "{} has no site box \"{site}\" guarded by this monster",
                            setup_card::FILE
                        ),
                    ))
                }
                CounterStart::Ghosts if !card.prowl_every_day.contains(&m.name) => Some((
                    format!("counters[{i}]"),
                    format!(
                        "a counter in the ghosts' clearing must prowl every day on {}",
                        setup_card::FILE
                    ),
                )),
                CounterStart::Ghosts => {
                    ghosts += 1;
                    None
                }
                _ => None,
            };
            if let Some((field, message)) = problem {
                return Err(DataError::entry(monsters::FILE, entry, field, message));
            }
        }
    }
    if ghosts != ghost_places {
        return Err(DataError::file(
            monsters::FILE,
            format!(
                "{ghosts} counters start in the ghosts' clearing but the warning chits of {} place {ghost_places}",
                chits::FILE
            ),
        ));
    }
    for g in &data.chits.gold_special {
        if let Some((field, name)) =
            first_unknown(listed("enemy_monsters", &g.enemy_monsters), |n| {
                is_monster(data, n)
            })
        {
            return Err(DataError::entry(
                chits::FILE,
                format!("gold_special \"{}\"", g.name),
                field,
                format!("\"{name}\" is not a monster in {}", monsters::FILE),
            ));
        }
    }
    Ok(())
}

/// Every native group named by the setup card, the map chits and the
/// treasures is a group of natives.toml (weapons' and armour's holders are
/// checked with the other holders in `item_links`, relationships in
/// `links`).
fn check_native_group_names(data: &GameData) -> Result<(), DataError> {
    let known = |n: &str| is_group(data, n);
    let message = |name: &str| format!("\"{name}\" is not a native group in {}", natives::FILE);
    let card = &data.setup_card;
    let card_names = card
        .native_box
        .iter()
        .map(|b| {
            (
                format!("native_box \"{}\"", b.group),
                "group",
                b.group.as_str(),
            )
        })
        .chain(card.garrison.iter().map(|g| {
            (
                format!("garrison \"{}\"", g.group),
                "group",
                g.group.as_str(),
            )
        }))
        .chain(card.visitor_box.iter().filter_map(|v| {
            v.leader_of
                .as_deref()
                .map(|g| (format!("visitor_box \"{}\"", v.name), "leader_of", g))
        }));
    for (entry, field, name) in card_names {
        if !known(name) {
            return Err(DataError::entry(
                setup_card::FILE,
                entry,
                field,
                message(name),
            ));
        }
    }
    for d in &data.chits.dwelling {
        let names = d
            .garrison
            .iter()
            .map(|g| ("garrison".to_string(), g.as_str()))
            .chain(listed("visited_by", &d.visited_by));
        if let Some((field, name)) = first_unknown(names, known) {
            return Err(DataError::entry(
                chits::FILE,
                format!("dwelling \"{}\"", d.name),
                field,
                message(name),
            ));
        }
    }
    for g in &data.chits.gold_special {
        let names = listed("allies", &g.allies).chain(listed("enemies", &g.enemies));
        if let Some((field, name)) = first_unknown(names, known) {
            return Err(DataError::entry(
                chits::FILE,
                format!("gold_special \"{}\"", g.name),
                field,
                message(name),
            ));
        }
    }
    for t in &data.treasures {
        if let Some(group) = t.fame_buyer.as_deref().filter(|g| !known(g)) {
            return Err(DataError::entry(
                treasures::FILE,
                format!("treasure \"{}\"", t.name),
                "fame_buyer",
                message(group),
            ));
        }
    }
    Ok(())
}

/// natives.toml (garrison, appears_at), the dwelling chits (garrison,
/// visited_by) and the setup card's garrisons say the same thing.
fn check_dwellings_agree(data: &GameData) -> Result<(), DataError> {
    for group in &data.natives {
        let entry = format!("native group \"{}\"", group.name);
        let disagree = |field: &str, message: String| {
            Err(DataError::entry(natives::FILE, &entry, field, message))
        };
        if let Some(home) = group.garrison {
            let chit = data.chits.dwelling(home);
            if chit.is_none_or(|d| d.garrison.as_deref() != Some(group.name.as_str())) {
                return disagree(
                    "garrison",
                    format!(
                        "{} does not list this group as the {home}'s garrison",
                        chits::FILE
                    ),
                );
            }
            let on_card = data
                .setup_card
                .garrison
                .iter()
                .find(|g| g.group == group.name);
            if on_card.is_none_or(|g| g.dwelling != home) {
                return disagree(
                    "garrison",
                    format!(
                        "{} has no garrison of this group at the {home}",
                        setup_card::FILE
                    ),
                );
            }
        }
        let mut visits: Vec<_> = data
            .chits
            .dwelling
            .iter()
            .filter(|d| d.visited_by.contains(&group.name))
            .map(|d| d.name)
            .collect();
        visits.sort();
        let mut appears = group.appears_at.clone();
        appears.sort();
        if group.garrison.is_none() && visits != appears {
            return disagree(
                "appears_at",
                format!(
                    "{} lets this group appear at {}",
                    chits::FILE,
                    super::terms::join(visits.iter().map(|d| d.label()))
                ),
            );
        }
    }
    Ok(())
}

/// A horse that starts inside a treasure within a treasure is the horse
/// that treasure holds, and the other way round.
fn check_horse_sites(data: &GameData) -> Result<(), DataError> {
    for horse in &data.horses {
        let HorseStart::Site { site } = &horse.start else {
            continue;
        };
        let holder = data.treasures.iter().find(|t| &t.name == site);
        let holds = holder
            .and_then(|t| t.within.as_ref())
            .is_some_and(|w| w.horse.as_deref() == Some(horse.name.as_str()));
        if !holds {
            return Err(DataError::entry(
                horses::FILE,
                format!("horse \"{}\"", horse.name),
                "start.site",
                format!(
                    "\"{site}\" is not a treasure within a treasure in {} that holds this horse",
                    treasures::FILE
                ),
            ));
        }
    }
    for t in &data.treasures {
        let Some(name) = t.within.as_ref().and_then(|w| w.horse.as_deref()) else {
            continue;
        };
        let starts_here = data.horses.iter().any(|h| {
            h.name == name && matches!(&h.start, HorseStart::Site { site } if *site == t.name)
        });
        if !starts_here {
            return Err(DataError::entry(
                treasures::FILE,
                format!("treasure \"{}\"", t.name),
                "within.horse",
                format!("{} has no horse \"{name}\" that starts here", horses::FILE),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::load;
    use crate::data::terms::Dwelling;

    fn loaded() -> GameData {
        load().unwrap_or_else(|e| panic!("{e}"))
    }

    fn where_(err: &DataError) -> (&str, Option<&str>, Option<&str>) {
        (
            err.file.as_str(),
            err.entry.as_deref(),
            err.field.as_deref(),
        )
    }

    #[test]
    fn the_embedded_files_agree() {
        check(&loaded()).unwrap();
    }

    #[test]
    fn an_unknown_starting_weapon_or_armour_is_named() {
        let mut data = loaded();
        data.characters[0].development[1].armor[0] = "Helm".into();
        let err = check(&data).unwrap_err();
        assert_eq!(
            where_(&err),
            (
                "characters.toml",
                Some("character \"Amazon\""),
                Some("development[1].armor[0]")
            )
        );
        let mut data = loaded();
        data.characters[0].weapon = Some("Short Swort".into());
        let err = check(&data).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("weapon"), "{err}");
    }

    #[test]
    fn an_unknown_monster_on_the_setup_card_is_named() {
        let mut data = loaded();
        let ogres = data
            .setup_card
            .monster_box
            .iter_mut()
            .find(|b| b.name == "Ogres")
            .unwrap();
        ogres.monsters[1] = "Orc".into();
        let err = check(&data).unwrap_err();
        assert_eq!(
            where_(&err),
            (
                "setup_card.toml",
                Some("monster_box \"Ogres\""),
                Some("monsters[1]")
            )
        );
        let mut data = loaded();
        data.setup_card.prowl_every_day.push("Wraith".into());
        let err = check(&data).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("prowl_every_day[1]"), "{err}");
    }

    #[test]
    fn a_box_with_more_monsters_than_counters_is_named() {
        let mut data = loaded();
        let wolves = data
            .setup_card
            .monster_box
            .iter_mut()
            .find(|b| b.name == "Wolves")
            .unwrap();
        wolves.monsters.push("Wolf A".into());
        let err = check(&data).unwrap_err();
        assert_eq!(
            where_(&err),
            (
                "setup_card.toml",
                Some("monster_box \"Wolves\""),
                Some("monsters")
            )
        );
        assert!(err.message.contains("lists 4 Wolf A"), "{err}");
    }

    #[test]
    fn a_monster_start_missing_from_the_card_is_named() {
        let mut data = loaded();
        let giant = data
            .monsters
            .iter_mut()
            .find(|m| m.name == "Giant")
            .unwrap();
        giant.counters[0] = CounterStart::Box {
            name: "Giant 3".into(),
        };
        let err = check(&data).unwrap_err();
        assert_eq!(
            where_(&err),
            (
                "monsters.toml",
                Some("monster \"Giant\""),
                Some("counters[0].name")
            )
        );
        let mut data = loaded();
        let imp = data.monsters.iter_mut().find(|m| m.name == "Imp").unwrap();
        imp.counters[0] = CounterStart::Site {
            site: "Hord".into(),
        };
        let err = check(&data).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("counters[0].site"), "{err}");
    }

    #[test]
    fn an_unknown_native_group_is_named_wherever_it_is() {
        let mut data = loaded();
        data.setup_card.native_box[0].group = "Companies".into();
        let err = check(&data).unwrap_err();
        assert_eq!(err.file, "setup_card.toml");
        assert!(err.message.contains("natives.toml"), "{err}");

        let mut data = loaded();
        data.chits.dwelling[0].visited_by[1] = "Patrols".into();
        let err = check(&data).unwrap_err();
        assert_eq!(
            (err.file.as_str(), err.field.as_deref()),
            ("chits.toml", Some("visited_by[1]"))
        );

        let mut data = loaded();
        let raid = data
            .chits
            .gold_special
            .iter_mut()
            .find(|g| g.name == "Raid")
            .unwrap();
        raid.enemies[0] = "bashkar".into();
        let err = check(&data).unwrap_err();
        assert_eq!(err.entry.as_deref(), Some("gold_special \"Raid\""), "{err}");
        assert_eq!(err.field.as_deref(), Some("enemies[0]"));

        let mut data = loaded();
        let statue = data
            .treasures
            .iter_mut()
            .find(|t| t.name == "Sacred Statue")
            .unwrap();
        statue.fame_buyer = Some("The Order".into());
        let err = check(&data).unwrap_err();
        assert_eq!(
            where_(&err),
            (
                "treasures.toml",
                Some("treasure \"Sacred Statue\""),
                Some("fame_buyer")
            )
        );
    }

    #[test]
    fn natives_and_dwellings_must_agree() {
        let mut data = loaded();
        let order = data.natives.iter_mut().find(|g| g.name == "Order").unwrap();
        order.garrison = Some(Dwelling::Inn);
        let err = check(&data).unwrap_err();
        assert_eq!(
            where_(&err),
            (
                "natives.toml",
                Some("native group \"Order\""),
                Some("garrison")
            )
        );
        let mut data = loaded();
        let lancers = data
            .natives
            .iter_mut()
            .find(|g| g.name == "Lancers")
            .unwrap();
        lancers.appears_at.retain(|d| *d != Dwelling::Chapel);
        let err = check(&data).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("appears_at"), "{err}");
    }

    #[test]
    fn a_horse_in_a_treasure_must_be_held_there() {
        let mut data = loaded();
        let horse = data
            .horses
            .iter_mut()
            .find(|h| matches!(&h.start, HorseStart::Site { .. }))
            .unwrap();
        horse.start = HorseStart::Site {
            site: "Chest".into(),
        };
        let err = check(&data).unwrap_err();
        assert_eq!(err.file, "horses.toml", "{err}");
        assert_eq!(err.field.as_deref(), Some("start.site"));
    }

    #[test]
    fn an_unknown_quest_monster_is_named() {
        let mut data = loaded();
        let quest = data
            .chits
            .gold_special
            .iter_mut()
            .find(|g| g.name == "Quest")
            .unwrap();
        quest.enemy_monsters[0] = "Red Dragon".into();
        let err = check(&data).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("enemy_monsters[0]"), "{err}");
    }
}
