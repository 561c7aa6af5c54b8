//! Monsters that do not attack a character:
//! - an advantage such as the Pilgrim's Heavenly Protection: the Demon, the
//!   Winged Demon and the Imp never attack him (play summary character cards,
//!   `data/characters.toml`), not even when he attacks them;
//! - goblins he dealt with (Deal with Goblins, the magic summary: the group turns
//!   Neutral): as under Peace, each stays out of the fight against him
//!   until someone attacks it in this combat.
//!
//! Such a monster is never assigned to him or lured by him, and makes no
//! attack on him, spell or blow.

use crate::data::base_name;
use crate::data::characters::{Advantage, Character};
use crate::magic::spells::deal_with_goblins;

use super::Battle;
use super::model::FighterId;

/// The monsters (by name, without copy numbers) that can never attack the
/// character of `card`.
pub fn immune_to(card: &Character) -> Vec<String> {
    card.abilities_in_force(|_| false)
        .into_iter()
        .flat_map(|a| a.effects.iter())
        .filter_map(|e| match e {
            Advantage::ImmuneToAttacksOf { monsters } => Some(monsters.iter().cloned()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// Whether the monster `denizen` does not attack `target`.
pub fn spared(battle: &Battle, denizen: FighterId, target: FighterId) -> bool {
    let Some(hero) = battle.hero(target) else {
        return false;
    };
    // Asked for every monster and character every round; nearly always
    // nobody is protected, so the names are read only when someone is.
    if hero.immune_to.is_empty() && battle.magic.is_none() {
        return false;
    }
    if !battle.denizen(denizen).is_some_and(|d| d.monster) {
        return false;
    }
    let name = base_name(battle.name(denizen));
    hero.immune_to.iter().any(|m| m == name) || dealt_with(battle, denizen, target)
}

/// Whether `target` cast Deal with Goblins on the group of `denizen`,
/// and nobody has attacked it since.
fn dealt_with(battle: &Battle, denizen: FighterId, target: FighterId) -> bool {
    let Some(magic) = &battle.magic else {
        return false;
    };
    if magic.attacked.contains(&denizen) {
        return false;
    }
    let Some(&seat) = magic.seats.get(&target) else {
        return false;
    };
    let Some(here) = magic.state.characters.get(seat).map(|c| &c.position) else {
        return false;
    };
    deal_with_goblins::dealing(&magic.state, seat, here)
        .is_some_and(|(_, members)| members.iter().any(|m| m == battle.name(denizen)))
}
