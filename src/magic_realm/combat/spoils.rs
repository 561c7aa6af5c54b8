//! Spoils of a kill (play summary III.B.9.d): fame and notoriety for a monster,
//! notoriety and the gold bounty for a native, a character's notoriety,
//! gold and belongings for killing him; values multiplied by the order of
//! each kill a character makes himself that day; a hired native's death
//! costs his employer the native's notoriety. The belongings of a dead
//! character go to the character or unhired native group who killed him,
//! otherwise they are left in the clearing.

use crate::magic_realm::state::Item;

use super::Battle;
use super::log::{CombatLine, Seen};
use super::model::FighterId;

/// Give the killer (or his employer) what the kill is worth.
pub fn award(battle: &mut Battle, killer: FighterId, victim: FighterId) {
    hireling_lost(battle, victim);
    let items = take_belongings(battle, victim);
    let killer_group = battle
        .denizen(killer)
        .filter(|d| d.employer.is_none())
        .and_then(|d| d.group.clone());
    let credited = if battle.hero(killer).is_some() {
        Some((killer, true))
    } else {
        battle
            .denizen(killer)
            .and_then(|d| d.employer)
            .map(|e| (e, false))
    };
    let Some((winner, himself)) = credited else {
        match killer_group {
            Some(group) => battle
                .to_groups
                .extend(items.into_iter().map(|i| (group.clone(), i))),
            None => battle.dropped.extend(items),
        }
        return;
    };
    let multiplier = if himself {
        let hero = battle.hero_mut(winner).map(|h| {
            h.kills += 1;
            h.kills
        });
        i32::try_from(hero.unwrap_or(1)).unwrap_or(1)
    } else {
        1
    };
    let (mut fame, mut notoriety, mut gold) = (0, 0, 0);
    if let Some(d) = battle.denizen(victim) {
        notoriety = d.notoriety * multiplier;
        if d.monster {
            fame = d.fame * multiplier;
        } else {
            gold = d.bounty;
        }
    } else if let Some(h) = battle.hero(victim) {
        notoriety = h.notoriety.max(0) * multiplier;
        gold = h.gold.max(0);
    }
    if let Some(h) = battle.hero_mut(victim) {
        h.gold = 0;
    }
    let names: Vec<String> = items.iter().map(|i| i.name.clone()).collect();
    if himself {
        if let Some(h) = battle.hero_mut(winner) {
            h.taken.extend(items);
        }
    } else {
        battle.dropped.extend(items);
    }
    let character = battle.name(winner).to_string();
    if let Some(h) = battle.hero_mut(winner) {
        h.fame += fame;
        h.notoriety += notoriety;
        h.gold += gold;
    }
    battle.say(
        Seen::Clearing,
        CombatLine::Spoils {
            character,
            fame,
            notoriety,
            gold,
            items: if himself { names } else { Vec::new() },
        },
    );
}

/// A hired native's death costs his employer the native's notoriety.
fn hireling_lost(battle: &mut Battle, victim: FighterId) {
    let Some((employer, notoriety)) = battle
        .denizen(victim)
        .and_then(|d| d.employer.map(|e| (e, d.notoriety)))
    else {
        return;
    };
    let character = battle.name(employer).to_string();
    if let Some(h) = battle.hero_mut(employer) {
        h.notoriety -= notoriety;
    }
    battle.say(
        Seen::Clearing,
        CombatLine::Spoils {
            character,
            fame: 0,
            notoriety: -notoriety,
            gold: 0,
            items: Vec::new(),
        },
    );
}

/// Everything a dead character carried, off him.
pub fn take_belongings(battle: &mut Battle, victim: FighterId) -> Vec<Item> {
    let Some(h) = battle.hero_mut(victim) else {
        return Vec::new();
    };
    h.weapon = None;
    h.armor.clear();
    h.horse = None;
    let mut items = std::mem::take(&mut h.belongings);
    items.append(&mut h.taken);
    items
}
