//! Checks between the item, magic, map-chit and setup-card files:
//! every holder, spell, dwelling, visitor and native-group name one file
//! uses must exist in another, and the setup card must deal out exactly the
//! treasures and no more spells of a type than exist.
//!
//! Names of monsters, natives, horses and the native groups named by map
//! chits and the setup card are checked in `cross_checks`.
//!
//! Rules: `data/chits.toml` (what each holder gets at setup), §6.2, §7.3.

use std::collections::{BTreeMap, BTreeSet};

use super::GameData;
use super::armor;
use super::setup_card;
use super::spells;
use super::terms::{Dwelling, MagicType};
use super::treasures::{self, TreasureEffect, TreasureSize};
use super::weapons;
use realmgm_core::embedded::DataError;

/// Check every reference between the files.
///
/// # Errors
/// The first dangling name or wrong total, naming file, entry and field.
pub fn check(items: &GameData) -> Result<(), DataError> {
    check_holders(items)?;
    check_treasures(items)?;
    check_spells(items)?;
    check_setup_card(items)?;
    check_dealing(items)
}

/// The native groups' names as natives.toml spells them: the one spelling
/// every other file uses.
fn native_groups(items: &GameData) -> BTreeSet<&str> {
    items.natives.iter().map(|g| g.name.as_str()).collect()
}

fn check_holders(items: &GameData) -> Result<(), DataError> {
    let groups = native_groups(items);
    let dwellings: BTreeSet<&str> = items
        .chits
        .dwelling
        .iter()
        .map(|d| d.name.label())
        .collect();
    let within: BTreeSet<&str> = items
        .treasures
        .iter()
        .filter(|t| t.within.is_some())
        .map(|t| t.name.as_str())
        .collect();
    let known = |h: &str| groups.contains(h) || dwellings.contains(h) || within.contains(h);
    let message = |h: &str| {
        format!(
            "\"{h}\" is not a dwelling (chits.toml), a native group (natives.toml) or a treasure within a treasure"
        )
    };
    for w in &items.weapons {
        if let Some((i, h)) = w.start.iter().enumerate().find(|(_, h)| !known(h)) {
            return Err(DataError::entry(
                weapons::FILE,
                format!("weapon \"{}\"", w.name),
                format!("start[{i}]"),
                message(h),
            ));
        }
    }
    for a in &items.armor {
        if let Some((i, h)) = a.start.iter().enumerate().find(|(_, h)| !known(h)) {
            return Err(DataError::entry(
                armor::FILE,
                format!("armor \"{}\"", a.name),
                format!("start[{i}]"),
                message(h),
            ));
        }
    }
    Ok(())
}

fn check_treasures(items: &GameData) -> Result<(), DataError> {
    let groups = native_groups(items);
    for t in &items.treasures {
        let entry = format!("treasure \"{}\"", t.name);
        let err =
            |field: String, msg: String| Err(DataError::entry(treasures::FILE, &entry, field, msg));
        if let Some(group) = &t.fame_buyer
            && !groups.contains(group.as_str())
        {
            return err(
                "fame_buyer".into(),
                format!("\"{group}\" is not a native group in natives.toml"),
            );
        }
        for visitor in t.visitor_prices.keys() {
            if items.chits.visitor(visitor).is_none() {
                return err(
                    format!("visitor_prices.{visitor}"),
                    format!("\"{visitor}\" is not a visitor in chits.toml"),
                );
            }
        }
        if let Some(w) = &t.within {
            for (i, item) in w.items.iter().enumerate() {
                let starts_here = items
                    .weapons
                    .iter()
                    .find(|x| &x.name == item)
                    .map(|x| &x.start)
                    .or_else(|| {
                        items
                            .armor
                            .iter()
                            .find(|x| &x.name == item)
                            .map(|x| &x.start)
                    });
                match starts_here {
                    None => {
                        return err(
                            format!("within.items[{i}]"),
                            format!("\"{item}\" is not in weapons.toml or armor.toml"),
                        );
                    }
                    Some(start) if !start.contains(&t.name) => {
                        return err(
                            format!("within.items[{i}]"),
                            format!("\"{item}\" does not list \"{}\" as where it starts", t.name),
                        );
                    }
                    Some(_) => {}
                }
            }
        }
        for (i, effect) in t.effects.iter().enumerate() {
            let field = format!("effects[{i}]");
            match effect {
                TreasureEffect::BuiltInSpell { spell } => {
                    let bound = items.spells.iter().find(|s| &s.name == spell);
                    if bound.is_none_or(|s| s.treasure.as_deref() != Some(t.name.as_str())) {
                        return err(
                            field,
                            format!("spells.toml has no spell \"{spell}\" bound to this treasure"),
                        );
                    }
                }
                TreasureEffect::Potion { returns_to }
                    if items.chits.visitor(returns_to).is_none()
                        && Dwelling::from_label(returns_to).is_none() =>
                {
                    return err(
                        field,
                        format!("\"{returns_to}\" is not a visitor or dwelling"),
                    );
                }
                _ => {}
            }
        }
    }
    Ok(())
}

fn check_spells(items: &GameData) -> Result<(), DataError> {
    for s in &items.spells {
        if let Some(treasure) = &s.treasure {
            let carries = items.treasures.iter().any(|t| {
                &t.name == treasure
                    && t.effects.iter().any(
                        |e| matches!(e, TreasureEffect::BuiltInSpell { spell } if spell == &s.name),
                    )
            });
            if !carries {
                return Err(DataError::entry(
                    spells::FILE,
                    format!("spell \"{}\"", s.name),
                    "treasure",
                    format!("treasure \"{treasure}\" does not carry this spell"),
                ));
            }
        }
    }
    Ok(())
}

fn check_setup_card(items: &GameData) -> Result<(), DataError> {
    let card = &items.setup_card;
    let file = setup_card::FILE;
    for b in &card.site_box {
        if items.chits.site(&b.site).is_none() {
            return Err(DataError::entry(
                file,
                format!("site_box \"{}\"", b.site),
                "site",
                "not a site chit in chits.toml",
            ));
        }
    }
    for g in &card.garrison {
        let home = items.chits.dwelling(g.dwelling);
        if home.is_none_or(|d| d.garrison.as_deref() != Some(g.group.as_str())) {
            return Err(DataError::entry(
                file,
                format!("garrison \"{}\"", g.group),
                "dwelling",
                format!(
                    "chits.toml has no dwelling \"{}\" with this garrison",
                    g.dwelling
                ),
            ));
        }
    }
    for n in &card.native_box {
        if !items
            .chits
            .dwelling
            .iter()
            .any(|d| d.visited_by.contains(&n.group))
        {
            return Err(DataError::entry(
                file,
                format!("native_box \"{}\"", n.group),
                "group",
                "no dwelling in chits.toml lists this group as a visitor",
            ));
        }
    }
    for v in &card.visitor_box {
        for (i, place) in v.places.iter().enumerate() {
            let is_site = items.chits.site(place).is_some();
            let is_within = items
                .treasures
                .iter()
                .any(|t| &t.name == place && t.within.is_some());
            if !is_site && !is_within {
                return Err(DataError::entry(
                    file,
                    format!("visitor_box \"{}\"", v.name),
                    format!("places[{i}]"),
                    format!("\"{place}\" is not a site chit or a treasure within a treasure"),
                ));
            }
        }
    }
    Ok(())
}

/// The standard setup deals every ordinary treasure exactly once and never
/// more spells of a type than exist.
fn check_dealing(items: &GameData) -> Result<(), DataError> {
    let card = &items.setup_card;
    let ordinary = |size| {
        items
            .treasures
            .iter()
            .filter(|t| t.size == size && t.within.is_none())
            .count()
    };
    let within: Vec<_> = items
        .treasures
        .iter()
        .filter_map(|t| t.within.as_ref())
        .collect();
    let into_within: usize = within.iter().map(|w| usize::from(w.large_treasures)).sum();
    let large_to_sites: usize = card.site_box.iter().map(|b| usize::from(b.large)).sum();
    if large_to_sites + into_within != ordinary(TreasureSize::Large) + within.len() {
        return Err(DataError::file(
            setup_card::FILE,
            format!(
                "sites take {large_to_sites} large treasures and treasures within treasures {into_within}, but there are {} ordinary large treasures plus {} within treasures to deal",
                ordinary(TreasureSize::Large),
                within.len()
            ),
        ));
    }
    let small_dealt: usize = card
        .site_box
        .iter()
        .map(|b| usize::from(b.small))
        .sum::<usize>()
        + card
            .native_box
            .iter()
            .map(|b| usize::from(b.small_treasures))
            .sum::<usize>()
        + items
            .chits
            .dwelling
            .iter()
            .map(|d| usize::from(d.small_treasures))
            .sum::<usize>()
        + items
            .chits
            .visitor
            .iter()
            .map(|v| usize::from(v.small_treasures))
            .sum::<usize>();
    if small_dealt != ordinary(TreasureSize::Small) {
        return Err(DataError::file(
            setup_card::FILE,
            format!(
                "setup deals {small_dealt} small treasures but there are {}",
                ordinary(TreasureSize::Small)
            ),
        ));
    }
    let mut dealt: BTreeMap<MagicType, usize> = BTreeMap::new();
    let site_spells = card.site_box.iter().flat_map(|b| b.spells.iter());
    let visitor_spells = items.chits.visitor.iter().flat_map(|v| v.spells.iter());
    let treasure_spells = items
        .treasures
        .iter()
        .flat_map(|t| t.effects.iter())
        .flat_map(|e| match e {
            TreasureEffect::Spells { spells, .. } => spells.as_slice(),
            _ => &[],
        });
    for t in site_spells.chain(visitor_spells).chain(treasure_spells) {
        *dealt.entry(*t).or_default() += 1;
    }
    for (spell_type, count) in dealt {
        let available = items
            .spells
            .iter()
            .filter(|s| s.spell_type == Some(spell_type))
            .count();
        if count > available {
            return Err(DataError::file(
                setup_card::FILE,
                format!(
                    "setup deals {count} spells of type {} but spells.toml has only {available}",
                    spell_type.numeral()
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole embedded data, owned so a test can break one entry.
    fn loaded() -> GameData {
        super::super::load().unwrap()
    }

    #[test]
    fn embedded_files_agree() {
        check(&loaded()).unwrap();
    }

    #[test]
    fn unknown_holder_names_file_entry_and_field() {
        let mut data = loaded();
        data.weapons[0].start[0] = "Tavern".to_string();
        let err = check(&data).unwrap_err();
        assert_eq!(err.file, weapons::FILE);
        assert_eq!(err.entry.as_deref(), Some("weapon \"Bane Sword\""));
        assert_eq!(err.field.as_deref(), Some("start[0]"));
    }

    #[test]
    fn a_treasure_dealt_twice_breaks_the_totals() {
        let mut data = loaded();
        data.setup_card.site_box[0].small += 1;
        let err = check(&data).unwrap_err();
        assert_eq!(err.file, setup_card::FILE);
        assert!(err.message.contains("small treasures"), "{err}");
    }

    #[test]
    fn unbound_treasure_spell_is_refused() {
        let mut data = loaded();
        let carpet = data
            .spells
            .iter_mut()
            .find(|s| s.name == "Flying Carpet Spell")
            .unwrap();
        carpet.treasure = Some("Lucky Charm".to_string());
        let err = check(&data).unwrap_err();
        assert_eq!(err.file, treasures::FILE);
        assert_eq!(err.entry.as_deref(), Some("treasure \"Flying Carpet\""));
    }
}
