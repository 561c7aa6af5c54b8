//! What a character carries, as the day changes it outside combat:
//! activating, inactivating, abandoning (play summary II.D.1.b, IV.A) and
//! handing a belonging over in a deal (`day::dealings`), and what the
//! orders check reads of them.
//!
//! A character's active weapon and worn armour may sit in his `weapon` and
//! `armor` records (what he started with) or among his belongings marked
//! active; every function here reads both. Rulings:
//! - One weapon, one horse, one piece of armour of each kind, one Boots and
//!   one Gloves card may be active: activating another puts the old one
//!   inactive, as the Encounter's activation does (`combat::activation`).
//! - No horse is made active in a cave clearing (play summary II.C).
//! - A weapon changing state is unalerted; armour keeps its damage while
//!   carried, and a piece given away or abandoned is passed on as a counter
//!   without its damage mark, as the abandoned piles hold only counters.
//! - Spells carried as items are not activated.

use super::{Belonging, CharacterState, Item, ItemKind};
use crate::data::GameData;
use crate::data::armor::ArmorKind;
use crate::data::base_name;
use crate::data::terms::Strength;
use crate::data::treasures::TreasureEffect;
use realmgm_core::suggest::same;

/// Why a belonging cannot be handled as the orders ask, in the player's
/// words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BelongingRefused {
    #[error("he carries no {name} (he carries {carried})")]
    NotCarried { name: String, carried: String },
    #[error("the {horse} is ridden; only a horse he leads inactive carries a load")]
    HorseRidden { horse: String },
    #[error("he leads no horse called {horse}")]
    NoSuchHorse { horse: String },
    #[error("he leads no inactive horse to load")]
    NoHorseToLoad,
    #[error("the {item} is a horse; horses are led, not loaded")]
    HorseAsLoad { item: String },
    #[error("the {item} (weight {weight}) is too heavy for the {horse} (strength {strength})")]
    TooHeavy {
        item: String,
        weight: Strength,
        horse: String,
        strength: Strength,
    },
    #[error("no pack horse of his carries {name}")]
    NotLoaded { name: String },
    #[error("the {item} is active already")]
    ActiveAlready { item: String },
    #[error("the {item} carries a load; unload it before riding it")]
    CarriesALoad { item: String },
    #[error("the {item} is a spell, not a belonging to activate")]
    Spell { item: String },
    #[error("the {item} cannot be made active: no horse is active in a cave clearing")]
    HorseInCave { item: String },
    #[error("the {item} is inactive already")]
    InactiveAlready { item: String },
}

/// Whether `item` is the belonging a player named as `name` (`Spear`
/// names `Spear 2`).
pub fn names(name: &str, item: &str) -> bool {
    same(name, item) || same(name, base_name(item))
}

/// The carried item `name` names, and whether it is active.
pub fn find(c: &CharacterState, name: &str) -> Option<(Item, bool)> {
    if let Some(weapon) = c.weapon.as_ref().filter(|w| names(name, w)) {
        return Some((
            Item {
                kind: ItemKind::Weapon,
                name: weapon.clone(),
            },
            true,
        ));
    }
    if let Some(piece) = c.armor.iter().find(|a| names(name, a)) {
        return Some((
            Item {
                kind: ItemKind::Armor,
                name: piece.clone(),
            },
            true,
        ));
    }
    c.belongings
        .iter()
        .find(|b| names(name, &b.item.name))
        .map(|b| (b.item.clone(), b.active))
}

/// Why `name` cannot be handled: he does not carry it, and what he carries.
pub fn not_carried(c: &CharacterState, name: &str) -> BelongingRefused {
    BelongingRefused::NotCarried {
        name: name.to_string(),
        carried: listing(c),
    }
}

/// Everything he carries, by name, for an error that lists it.
pub fn listing(c: &CharacterState) -> String {
    let all: Vec<&str> = c
        .weapon
        .iter()
        .chain(&c.armor)
        .map(String::as_str)
        .chain(c.belongings.iter().map(|b| b.item.name.as_str()))
        .collect();
    if all.is_empty() {
        "nothing".into()
    } else {
        all.join(", ")
    }
}

/// Take the carried item `name` off him, active or not.
pub fn take_out(c: &mut CharacterState, name: &str) -> Option<Item> {
    let (item, _) = find(c, name)?;
    if c.weapon.as_ref() == Some(&item.name) {
        c.weapon = None;
        c.weapon_alerted = false;
    } else if let Some(at) = c.armor.iter().position(|a| a == &item.name) {
        c.armor.remove(at);
    } else if let Some(at) = c.belongings.iter().position(|b| b.item == item) {
        let was_active_weapon = item.kind == ItemKind::Weapon && c.belongings[at].active;
        c.belongings.remove(at);
        if was_active_weapon {
            c.weapon_alerted = false;
        }
    }
    c.damaged_armor.retain(|a| a != &item.name);
    Some(item)
}

/// Give him `item` to carry, inactive (received in a deal, taken from his
/// cache).
pub fn carry(c: &mut CharacterState, item: Item) {
    c.belongings.push(Belonging {
        item,
        active: false,
    });
}

/// Load the carried belonging `name` on his inactive horse `horse` (the
/// first he leads when `None`), under the Pack Horses rule: the horse
/// carries what its trot strength can; a loaded belonging weighs nothing
/// for his MOVE chits (`weight` weighs an item). Returns the item's and the
/// horse's names.
///
/// # Errors
/// No such belonging or horse, a ridden horse, or a load too heavy.
pub fn load(
    data: &GameData,
    c: &mut CharacterState,
    name: &str,
    horse: Option<&str>,
    weight: impl Fn(&Item) -> Strength,
) -> Result<(String, String), BelongingRefused> {
    let led: Vec<&Belonging> = c
        .belongings
        .iter()
        .filter(|b| b.item.kind == ItemKind::Horse && !b.active)
        .collect();
    let chosen = match horse {
        Some(wanted) => led
            .iter()
            .find(|b| names(wanted, &b.item.name))
            .ok_or_else(|| {
                let ridden = c
                    .belongings
                    .iter()
                    .any(|b| b.active && names(wanted, &b.item.name));
                let horse = wanted.to_string();
                if ridden {
                    BelongingRefused::HorseRidden { horse }
                } else {
                    BelongingRefused::NoSuchHorse { horse }
                }
            })?,
        None => led.first().ok_or(BelongingRefused::NoHorseToLoad)?,
    };
    let horse = chosen.item.name.clone();
    let strength = data.pack_strength(&horse);
    let (item, _) = find(c, name).ok_or_else(|| not_carried(c, name))?;
    if item.kind == ItemKind::Horse {
        return Err(BelongingRefused::HorseAsLoad { item: item.name });
    }
    let weight = weight(&item);
    if weight > strength {
        return Err(BelongingRefused::TooHeavy {
            item: item.name,
            weight,
            horse,
            strength,
        });
    }
    let item = take_out(c, name).ok_or_else(|| not_carried(c, name))?;
    let said = item.name.clone();
    c.pack.entry(horse.clone()).or_default().push(item);
    Ok((said, horse))
}

/// Take `name` (or `all`) off his pack horses into his belongings,
/// inactive. Returns what came off and from which horse.
///
/// # Errors
/// Nothing of that name is loaded.
pub fn unload(c: &mut CharacterState, name: &str) -> Result<(String, String), BelongingRefused> {
    let mut taken: Vec<(Item, String)> = Vec::new();
    for (horse, load) in &mut c.pack {
        let all = name.eq_ignore_ascii_case("all");
        while let Some(at) = load.iter().position(|i| all || names(name, &i.name)) {
            taken.push((load.remove(at), horse.clone()));
            if !all {
                break;
            }
        }
        if !all && !taken.is_empty() {
            break;
        }
    }
    c.pack.retain(|_, load| !load.is_empty());
    if taken.is_empty() {
        return Err(BelongingRefused::NotLoaded {
            name: name.to_string(),
        });
    }
    let items: Vec<String> = taken.iter().map(|(i, _)| i.name.clone()).collect();
    let horses: Vec<String> = taken.iter().map(|(_, h)| h.clone()).collect();
    for (item, _) in taken {
        carry(c, item);
    }
    let mut horses = horses;
    horses.dedup();
    Ok((items.join(", "), horses.join(", ")))
}

/// The slot an item fills while active, of which one may be active.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Weapon,
    Horse,
    Armor(ArmorKind),
    Boots,
    Gloves,
}

fn slot_of(data: &GameData, item: &Item) -> Option<Slot> {
    match item.kind {
        ItemKind::Weapon => Some(Slot::Weapon),
        ItemKind::Horse => Some(Slot::Horse),
        ItemKind::Armor => data
            .armor
            .iter()
            .find(|a| a.name == item.name || a.name == base_name(&item.name))
            .map(|a| Slot::Armor(a.kind)),
        ItemKind::Treasure => data
            .treasure(&item.name)?
            .effects
            .iter()
            .find_map(|e| match e {
                TreasureEffect::MoveChit { .. } => Some(Slot::Boots),
                TreasureEffect::FightChit { .. } => Some(Slot::Gloves),
                _ => None,
            }),
        ItemKind::Spell => None,
    }
}

/// Make the carried, inactive `name` active. Returns the item and the one
/// it put inactive, if any.
///
/// # Errors
/// Why it cannot be made active, in the player's words.
pub fn activate(
    data: &GameData,
    c: &mut CharacterState,
    name: &str,
    in_cave: bool,
) -> Result<(Item, Option<Item>), BelongingRefused> {
    let (item, active) = find(c, name).ok_or_else(|| not_carried(c, name))?;
    if active {
        return Err(BelongingRefused::ActiveAlready { item: item.name });
    }
    if c.pack.get(&item.name).is_some_and(|load| !load.is_empty()) {
        return Err(BelongingRefused::CarriesALoad { item: item.name });
    }
    if item.kind == ItemKind::Spell {
        return Err(BelongingRefused::Spell { item: item.name });
    }
    if item.kind == ItemKind::Horse && in_cave {
        return Err(BelongingRefused::HorseInCave { item: item.name });
    }
    let slot = slot_of(data, &item);
    let displaced = slot.and_then(|slot| {
        let in_records = c
            .weapon
            .iter()
            .map(|w| Item {
                kind: ItemKind::Weapon,
                name: w.clone(),
            })
            .chain(c.armor.iter().map(|a| Item {
                kind: ItemKind::Armor,
                name: a.clone(),
            }));
        let active_belongings = c
            .belongings
            .iter()
            .filter(|b| b.active)
            .map(|b| b.item.clone());
        in_records
            .chain(active_belongings)
            .find(|other| slot_of(data, other) == Some(slot))
    });
    if let Some(old) = &displaced {
        put_inactive(c, old);
    }
    if let Some(b) = c.belongings.iter_mut().find(|b| b.item == item) {
        b.active = true;
    }
    if item.kind == ItemKind::Weapon {
        c.weapon_alerted = false;
    }
    Ok((item, displaced))
}

/// Make the carried, active `name` inactive.
///
/// # Errors
/// Why it cannot be made inactive.
pub fn inactivate(c: &mut CharacterState, name: &str) -> Result<Item, BelongingRefused> {
    let (item, active) = find(c, name).ok_or_else(|| not_carried(c, name))?;
    if !active {
        return Err(BelongingRefused::InactiveAlready { item: item.name });
    }
    put_inactive(c, &item);
    Ok(item)
}

/// Move an active item to his inactive belongings.
fn put_inactive(c: &mut CharacterState, item: &Item) {
    if c.weapon.as_ref() == Some(&item.name) {
        c.weapon = None;
        c.belongings.push(Belonging {
            item: item.clone(),
            active: false,
        });
    } else if let Some(at) = c.armor.iter().position(|a| a == &item.name) {
        c.armor.remove(at);
        c.belongings.push(Belonging {
            item: item.clone(),
            active: false,
        });
    } else if let Some(b) = c.belongings.iter_mut().find(|b| &b.item == item) {
        b.active = false;
    }
    if item.kind == ItemKind::Weapon {
        c.weapon_alerted = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{data, game_played_by};

    fn knight() -> CharacterState {
        game_played_by(&["Black Knight"], |_| "Ann".into()).characters[0].clone()
    }

    fn carry(c: &mut CharacterState, kind: ItemKind, name: &str) {
        c.belongings.push(Belonging {
            item: Item {
                kind,
                name: name.into(),
            },
            active: false,
        });
    }

    #[test]
    fn activating_a_second_weapon_or_shield_puts_the_first_inactive() {
        let mut c = knight();
        let mace = c
            .weapon
            .clone()
            .expect("the Black Knight starts with a mace");
        carry(&mut c, ItemKind::Weapon, "Spear 2");
        c.weapon_alerted = true;
        let (item, old) = activate(data(), &mut c, "spear", false).expect("activates");
        assert_eq!(item.name, "Spear 2");
        assert_eq!(old.map(|o| o.name), Some(mace.clone()));
        assert_eq!(c.weapon, None);
        assert!(!c.weapon_alerted, "a weapon changing hands is unalerted");
        assert_eq!(
            find(&c, &mace),
            Some((
                Item {
                    kind: ItemKind::Weapon,
                    name: mace.clone()
                },
                false
            ))
        );
        assert!(
            activate(data(), &mut c, "Spear", false)
                .unwrap_err()
                .to_string()
                .contains("active already")
        );

        carry(&mut c, ItemKind::Armor, "Shield 2");
        let (_, old) = activate(data(), &mut c, "Shield 2", false).expect("activates");
        assert_eq!(
            old.map(|o| o.name).as_deref(),
            Some("Shield"),
            "one shield at a time"
        );
        assert!(!c.armor.contains(&"Shield".to_string()));
    }

    #[test]
    fn no_horse_is_made_active_in_a_cave_and_unknown_items_are_named() {
        let mut c = knight();
        carry(&mut c, ItemKind::Horse, "Pony 1");
        assert!(
            activate(data(), &mut c, "Pony 1", true)
                .unwrap_err()
                .to_string()
                .contains("cave")
        );
        activate(data(), &mut c, "Pony 1", false).expect("outside a cave it may");
        let error = inactivate(&mut c, "Lantern").unwrap_err().to_string();
        assert!(
            error.contains("no Lantern") && error.contains("Pony 1"),
            "{error}"
        );
    }

    #[test]
    fn taking_out_clears_the_records_it_came_from() {
        let mut c = knight();
        let mace = c.weapon.clone().expect("a mace");
        c.weapon_alerted = true;
        c.damaged_armor.push("Shield".into());
        assert_eq!(
            take_out(&mut c, &mace).map(|i| i.kind),
            Some(ItemKind::Weapon)
        );
        assert!(c.weapon.is_none() && !c.weapon_alerted);
        assert_eq!(
            take_out(&mut c, "shield").map(|i| i.name).as_deref(),
            Some("Shield")
        );
        assert!(c.damaged_armor.is_empty());
        assert!(take_out(&mut c, "Shield").is_none());
    }

    #[test]
    fn a_load_too_heavy_names_weight_and_strength_as_the_counters_print_them() {
        use crate::data::terms::Strength;
        let mut c = knight();
        carry(&mut c, ItemKind::Horse, "Bashkar Pony 1");
        carry(&mut c, ItemKind::Treasure, "Lost Keys");
        let refused = load(data(), &mut c, "Lost Keys", None, |_| Strength::Heavy).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "the Lost Keys (weight H) is too heavy for the Bashkar Pony 1 (strength M)"
        );
    }
}
