//! Participants built from the game data: a character from his state
//! (chits, weapon, worn armour, active horse, what he carries), a monster
//! or native counter from its id and side (3.1 section 8; the components'
//! stats from `data/`, the armoured ones those of 8.4.9e.4–5).

use crate::data::characters::{ActionChit, Advantage, Character};
use crate::data::natives::find_member;
use crate::data::terms::Strength;
use crate::data::terms::{Place, Roll};
use crate::data::{GameData, base_name};
use crate::state::{CharacterState, ChitCondition, CounterSide, Item, ItemKind};
use crate::tables::Modifiers;

use super::error::CombatError;
use super::model::{
    Denizen, DenizenPart, FighterId, Hero, HeroArmor, HeroChit, HeroHorse, HeroWeapon,
};

/// The modifiers a character's own abilities give a kind of roll
/// anywhere; those that hold only in some places are left out (the day's
/// `modifiers::for_roll` knows where he stands).
pub fn ability_modifiers(card: &Character, roll: Roll) -> Modifiers {
    let mut mods = Modifiers::none();
    for ability in card.abilities_in_force(|_| false) {
        for effect in &ability.effects {
            match effect {
                Advantage::RollOneDie { rolls, place }
                    if *place == Place::Anywhere && rolls.iter().any(|r| r.covers(roll)) =>
                {
                    mods = mods.with_one_die(format!("{} ({})", ability.name, card.name));
                }
                Advantage::RollModifier {
                    rolls,
                    modifier,
                    place,
                } if *place == Place::Anywhere && rolls.iter().any(|r| r.covers(roll)) => {
                    mods = mods.with(format!("{} ({})", ability.name, card.name), *modifier);
                }
                _ => {}
            }
        }
    }
    mods
}

/// A weapon in combat, unalerted or alerted.
///
/// # Errors
/// The weapon is not in the game data.
pub fn weapon(data: &GameData, name: &str, alerted: bool) -> Result<HeroWeapon, CombatError> {
    let w = data
        .weapons
        .iter()
        .find(|w| w.name == name || w.name == base_name(name))
        .ok_or_else(|| CombatError::unknown("weapon", name))?;
    Ok(HeroWeapon {
        name: name.to_string(),
        weight: w.weight,
        length: w.length,
        missile: w.missile,
        unalerted: w.unalerted,
        alerted: w.alerted,
        is_alerted: alerted,
    })
}

/// A piece of armour in combat.
///
/// # Errors
/// The armour is not in the game data.
pub fn armor(data: &GameData, name: &str, damaged: bool) -> Result<HeroArmor, CombatError> {
    let a = data
        .armor
        .iter()
        .find(|a| a.name == name || a.name == base_name(name))
        .ok_or_else(|| CombatError::unknown("armour", name))?;
    Ok(HeroArmor {
        name: name.to_string(),
        kind: a.kind,
        toughness: a.vulnerability,
        damaged,
        destroyed: false,
    })
}

/// A horse in combat.
///
/// # Errors
/// The horse is not in the game data.
pub fn horse(data: &GameData, name: &str) -> Result<HeroHorse, CombatError> {
    let h = data
        .horses
        .iter()
        .find(|h| h.name == name || h.name == base_name(name))
        .ok_or_else(|| CombatError::unknown("horse", name))?;
    Ok(HeroHorse {
        name: name.to_string(),
        vulnerability: h.vulnerability,
        armored: h.armored,
        trot: h.trot,
        gallop: h.gallop,
        dead: false,
    })
}

/// The chits of a character from their printed labels.
///
/// # Errors
/// A label that is not a chit.
pub fn chits(labels: &[(String, ChitCondition)]) -> Result<Vec<HeroChit>, CombatError> {
    labels
        .iter()
        .map(|(label, condition)| {
            Ok(HeroChit {
                label: label.clone(),
                chit: ActionChit::parse(label)?,
                condition: *condition,
                unleashed: false,
            })
        })
        .collect()
}

/// A character as he enters combat.
///
/// # Errors
/// A chit, weapon, armour or horse the data does not know.
pub fn hero(data: &GameData, c: &CharacterState) -> Result<Hero, CombatError> {
    let card = data
        .characters
        .iter()
        .find(|x| x.name == c.name)
        .ok_or_else(|| CombatError::unknown("character", &c.name))?;
    // Straight from his chits: one copy of each label, not two.
    let chits = c
        .chits
        .iter()
        .map(|x| {
            Ok(HeroChit {
                label: x.chit.clone(),
                chit: ActionChit::parse(&x.chit)?,
                condition: x.condition,
                unleashed: false,
            })
        })
        .collect::<Result<Vec<_>, CombatError>>()?;
    let active = |kind: ItemKind| {
        c.belongings
            .iter()
            .filter(move |b| b.active && b.item.kind == kind)
            .map(|b| b.item.name.clone())
    };
    let weapon_name = c.weapon.clone().or_else(|| active(ItemKind::Weapon).next());
    let weapon = weapon_name
        .as_deref()
        .map(|w| weapon(data, w, c.weapon_alerted))
        .transpose()?;
    let mut worn = Vec::new();
    for name in c.armor.iter().cloned().chain(active(ItemKind::Armor)) {
        worn.push(armor(data, &name, c.damaged_armor.contains(&name))?);
    }
    let horse = active(ItemKind::Horse)
        .next()
        .map(|h| horse(data, &h))
        .transpose()?;
    let mut heaviest = weapon.as_ref().map_or(Strength::Negligible, |w| w.weight);
    for piece in &worn {
        let weight = data
            .armor
            .iter()
            .find(|a| a.name == base_name(&piece.name) || a.name == piece.name)
            .map_or(Strength::Negligible, |a| a.weight);
        heaviest = heaviest.max(weight);
    }
    for b in &c.belongings {
        if b.item.kind == ItemKind::Treasure
            && let Some(t) = data.treasure(&b.item.name)
        {
            heaviest = heaviest.max(t.weight);
        }
    }
    let mut belongings: Vec<Item> = Vec::new();
    if let Some(w) = &c.weapon {
        belongings.push(Item {
            kind: ItemKind::Weapon,
            name: w.clone(),
        });
    }
    belongings.extend(c.armor.iter().map(|a| Item {
        kind: ItemKind::Armor,
        name: a.clone(),
    }));
    belongings.extend(c.belongings.iter().map(|b| b.item.clone()));
    Ok(Hero {
        player: c.player.clone(),
        vulnerability: card.vulnerability,
        chits,
        weapon,
        armor: worn,
        horse,
        heaviest,
        gold: i32::from(c.gold),
        fame: c.fame,
        notoriety: c.notoriety,
        belongings,
        kills: 0,
        kept: c.points_kept,
        taken: Vec::new(),
        dead: false,
        missile: ability_modifiers(card, Roll::Missile),
        found_hidden_enemies: c.found_hidden_enemies,
        magic_sight: c.magic_sight.clone(),
        records_spells: !c.magic.spells.is_empty(),
        abandoned: Vec::new(),
        kit: Box::new(super::activation::kit(
            data,
            c.belongings.iter().map(|b| (&b.item, b.active)),
        )?),
        immune_to: super::protection::immune_to(card),
        wish_strength: c.magic.next_fight_tremendous,
        fly: None,
        flew_away: false,
    })
}

/// A monster or native counter by id (`Giant 1`, `Woodfolk 2`).
///
/// # Errors
/// No monster counter or native has that id.
pub fn denizen(
    data: &GameData,
    id: &str,
    side: CounterSide,
    employer: Option<FighterId>,
) -> Result<Denizen, CombatError> {
    if let Some(m) = data.monster_of(id) {
        return Ok(Denizen {
            monster: true,
            group: None,
            leader: false,
            tremendous: m.has_red_side(),
            side,
            light: m.light.clone(),
            dark: m.dark.clone(),
            parts: m
                .parts
                .iter()
                .map(|p| DenizenPart {
                    name: p.name.clone(),
                    length: p.length,
                    light: p.light,
                    dark: p.dark,
                    dark_up: false,
                    fire_length: p.fire_length,
                })
                .collect(),
            vulnerability: m.vulnerability,
            armored: m.armored,
            length: m.length,
            fame: i32::from(m.fame),
            notoriety: i32::from(m.notoriety),
            bounty: 0,
            employer,
            battling: Default::default(),
            horse: None,
            sees_hidden: false,
        });
    }
    let (group, native) = find_member(&data.natives, id)
        .ok_or_else(|| CombatError::unknown("monster counter or native", id))?;
    Ok(Denizen {
        monster: false,
        // Natives of two combined games battle as separate groups (3.1
        // 10.E.7.7); their spoils go to their own game's box.
        group: Some(crate::data::realms::Realm::of_name(id).mark(&group.name)),
        leader: native.is_leader(),
        tremendous: false,
        side,
        light: native.light.clone(),
        dark: native.dark.clone(),
        parts: Vec::new(),
        vulnerability: native.vulnerability,
        armored: native.armored,
        length: native.length,
        fame: i32::from(native.fame),
        notoriety: i32::from(native.notoriety),
        bounty: i32::from(native.wage),
        employer,
        battling: Default::default(),
        horse: native
            .horse
            .as_deref()
            .map(|h| {
                horse(data, h).map(|horse| super::native_horses::NativeHorse {
                    horse,
                    galloping: false,
                })
            })
            .transpose()?,
        sees_hidden: false,
    })
}

#[cfg(test)]
mod tests {
    use crate::data::horses::HorseKind;
    use crate::state::CounterSide;
    use crate::test_support::data;

    /// 3.1 8.4.9e.4–5 and 8.4.5k.3: the armoured denizens are the Dragons,
    /// Trolls and Serpents (the Viper among them), the Knights, Great
    /// Swordsmen, Pikemen, Short Swordsmen and Crossbowmen (3.1's Native
    /// Combat Statistics name each counter's type), and every warhorse.
    #[test]
    fn armoured_denizens_are_those_of_3_1_8_4_9e() {
        let armoured_natives = [
            "Company HQ",
            "Company 1",
            "Company 2",
            "Company 3",
            "Company 4",
            "Company 5",
            "Company 6",
            "Guard HQ",
            "Guard 1",
            "Guard 2",
            "Order HQ",
            "Order 1",
            "Order 2",
            "Order 3",
            "Patrol HQ",
            "Patrol 1",
            "Patrol 2",
            "Rogue 3",
            "Soldier HQ",
            "Soldier 1",
            "Soldier 2",
            "Soldier 3",
        ];
        let mut seen = Vec::new();
        for group in &data().natives {
            for member in &group.members {
                let id = format!("{} {}", group.member_name, member.rank);
                let den = super::denizen(data(), &id, CounterSide::Light, None).expect("a native");
                assert_eq!(den.armored, armoured_natives.contains(&id.as_str()), "{id}");
                seen.push(id);
            }
        }
        for id in armoured_natives {
            assert!(seen.iter().any(|s| s == id), "{id} is not a native");
        }
        for monster in &data().monsters {
            let armoured = ["Dragon", "Troll", "Serpent", "Viper"]
                .iter()
                .any(|kind| monster.name.ends_with(kind));
            assert_eq!(monster.armored, armoured, "{}", monster.name);
        }
        for horse in &data().horses {
            assert_eq!(
                horse.armored,
                horse.kind == HorseKind::Warhorse,
                "{}",
                horse.name
            );
        }
    }
}
