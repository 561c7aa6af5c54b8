//! Monsters that can never attack a character (an advantage such as the
//! Pilgrim's Heavenly Protection: the Demon, the Winged Demon and the Imp
//! never attack him; seed 000 character cards, TABLES.md §10.1). Such a
//! monster is never assigned to him or lured by him, and if it ends on his
//! sheet anyway (he attacked it) it makes no attack on him, spell or blow.

use crate::magic_realm::data::characters::{Advantage, Character};

use super::Battle;
use super::build::base_name;
use super::model::FighterId;

/// The monsters (by name, without copy numbers) that can never attack the
/// character of `card`.
pub fn immune_to(card: &Character) -> Vec<String> {
    card.abilities_in_force(false)
        .into_iter()
        .flat_map(|a| a.effects.iter())
        .filter_map(|e| match e {
            Advantage::ImmuneToAttacksOf { monsters } => Some(monsters.iter().cloned()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// Whether the monster `denizen` can never attack `target`.
pub fn spared(battle: &Battle, denizen: FighterId, target: FighterId) -> bool {
    let Some(hero) = battle.hero(target) else {
        return false;
    };
    let monster = battle.denizen(denizen).is_some_and(|d| d.monster);
    let name = base_name(battle.name(denizen));
    monster && hero.immune_to.iter().any(|m| m == name)
}
