//! Abandoning belongings in combat (play summary III.A.4): a character who
//! takes no other Encounter action may leave any of his belongings in the
//! clearing — his weapon (he fights with a dagger from then on), a piece
//! of armour (it guards him no more), his horse, or anything he carries.
//! realmgm's ruling: the weight he carries, which his MOVE chits must
//! match, is settled when the combat begins; abandoning lightens him from
//! the next day. Activating or inactivating a belonging instead is
//! `activation.rs`.

use crate::state::{CharacterState, Item};

use super::Battle;
use super::error::CombatError;
use super::log::CombatLine;
use super::model::FighterId;

/// The belongings he may abandon, by name.
pub fn abandonable(battle: &Battle, who: FighterId) -> Vec<String> {
    battle.hero(who).map_or_else(Vec::new, |h| {
        let mut names: Vec<String> = h.belongings.iter().map(|i| i.name.clone()).collect();
        if let Some(horse) = h.horse.as_ref().filter(|h| !h.dead)
            && !names.contains(&horse.name)
        {
            names.push(horse.name.clone());
        }
        names
    })
}

/// Check he has `item` to abandon.
///
/// # Errors
/// What he carries instead.
pub fn check(battle: &Battle, who: FighterId, item: &str) -> Result<(), CombatError> {
    let names = abandonable(battle, who);
    if names.iter().any(|n| n.eq_ignore_ascii_case(item.trim())) {
        Ok(())
    } else {
        Err(format!(
            "no {item} to abandon; carried: {}",
            if names.is_empty() {
                "nothing".to_string()
            } else {
                names.join(", ")
            }
        )
        .into())
    }
}

/// Take what he abandoned in combat off his state: it lies in the clearing
/// (the battle's dropped belongings).
pub fn write_back(c: &mut CharacterState, abandoned: &[Item]) {
    for item in abandoned {
        c.belongings.retain(|b| b.item != *item);
        c.armor.retain(|a| a != &item.name);
        c.damaged_armor.retain(|a| a != &item.name);
        if c.weapon.as_ref() == Some(&item.name) {
            c.weapon = None;
            c.weapon_alerted = false;
        }
    }
}

/// Leave `item` in the clearing: lost to the pile, or with `drop` dropped
/// in plain sight in front of him (3.1 10.A.5.1.2).
pub fn abandon(battle: &mut Battle, who: FighterId, item: &str, drop: bool) {
    let name = battle.name(who).to_string();
    let Some(hero) = battle.hero_mut(who) else {
        return;
    };
    let item = item.trim();
    let mut left: Option<Item> = None;
    if let Some(pos) = hero
        .belongings
        .iter()
        .position(|i| i.name.eq_ignore_ascii_case(item))
    {
        left = Some(hero.belongings.remove(pos));
    }
    if hero
        .weapon
        .as_ref()
        .is_some_and(|w| w.name.eq_ignore_ascii_case(item))
    {
        hero.weapon = None;
    }
    hero.armor.retain(|a| !a.name.eq_ignore_ascii_case(item));
    if let Some(horse) = hero
        .horse
        .as_ref()
        .filter(|h| h.name.eq_ignore_ascii_case(item))
    {
        left.get_or_insert(Item {
            kind: crate::state::ItemKind::Horse,
            name: horse.name.clone(),
        });
        hero.horse = None;
    }
    let Some(left) = left else {
        return;
    };
    hero.abandoned.push(left.clone());
    let line = CombatLine::Abandoned {
        character: name.clone(),
        item: left.name.clone(),
        dropped: drop,
    };
    if drop {
        battle.dropped_in_sight.push((Some(name), left));
    } else {
        battle.dropped.push(left);
    }
    let seen = battle.seen_by(who);
    battle.say(seen, line);
}
