//! Who may name a hidden fighter in combat: as the target of a charge (3.1
//! 8.3.6c), of his attack (8.4.2b.5) or of a spell (8.4.2d.6). A character
//! may when he found hidden enemies today (7.5.4g), or when Magic Sight
//! showed him those hidden enemies that own what this one owns (7.5.7c):
//! recorded spells, a weapon, armour or horse counter (every native owns
//! one, and so do the Goblins, Ogres and Giants, who carry their weapons),
//! or Treasure cards. The sight Magic Sight gives lasts the day, so it
//! holds in the Evening's combat, and it follows what the hidden one owns
//! now: one who abandons the last belonging of that kind in combat goes out
//! of that character's sight (7.5.7c). A hired leader sees hidden enemies
//! when he found them himself (8.3.6c).

use crate::data::GameData;
use crate::state::{ItemKind, SightOf};

use super::Battle;
use super::model::{FighterId, FighterKind};

/// Whether `who` may name `target` as a target now: `target` is not
/// hidden, or `who` sees him though he is.
pub fn sees(battle: &Battle, who: FighterId, target: FighterId) -> bool {
    if !battle.fighters[target].hidden {
        return true;
    }
    match &battle.fighters[who].kind {
        FighterKind::Denizen(d) => d.sees_hidden,
        FighterKind::Character(hero) => {
            hero.found_hidden_enemies
                || hero
                    .magic_sight
                    .iter()
                    .any(|&sight| owns(battle, target, sight))
        }
    }
}

/// Whether `fighter` owns what Magic Sight's `sight` shows (3.1 7.5.7c).
fn owns(battle: &Battle, fighter: FighterId, sight: SightOf) -> bool {
    match (&battle.fighters[fighter].kind, sight) {
        (FighterKind::Character(hero), SightOf::Spells) => hero.records_spells,
        (FighterKind::Character(hero), SightOf::Counters) => {
            hero.weapon.is_some()
                || !hero.armor.is_empty()
                || hero.horse.is_some()
                || hero.belongings.iter().any(|item| {
                    matches!(
                        item.kind,
                        ItemKind::Weapon | ItemKind::Armor | ItemKind::Horse
                    )
                })
        }
        (FighterKind::Character(hero), SightOf::TreasureCards) => hero
            .belongings
            .iter()
            .any(|item| item.kind == ItemKind::Treasure),
        (FighterKind::Denizen(d), SightOf::Counters) => {
            !d.monster || carries_weapon(battle.data, battle.name(fighter))
        }
        (FighterKind::Denizen(_), SightOf::Spells | SightOf::TreasureCards) => false,
    }
}

/// The monsters 3.1 7.5.7c counts among those owning weapon counters.
fn carries_weapon(data: &GameData, id: &str) -> bool {
    data.monster_of(id)
        .is_some_and(|m| m.name == "Giant" || m.name == "Ogre" || m.name.ends_with(" Goblin"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::script;
    use crate::test_support::data;

    /// The Amazon with Magic Sight's `sight`, then the hidden Elf (spells
    /// recorded), Swordsman (none), a native, a Giant and a Giant Bat.
    fn amazon_seeing(sight: &str) -> Battle<'static> {
        let text = format!(
            "clearing = \"CV4\"\n\
             [[character]]\nname = \"Amazon\"\nmagic_sight = [{sight}]\n\
             [[character]]\nname = \"Elf\"\nhidden = true\n\
             [[character]]\nname = \"Swordsman\"\nhidden = true\nweapon = \"none\"\n\
             [[denizen]]\nid = \"Woodfolk 1\"\nemployer = \"Elf\"\n\
             [[denizen]]\nid = \"Giant 1\"\nemployer = \"Elf\"\n\
             [[denizen]]\nid = \"Giant Bat 1\"\nemployer = \"Elf\"\n"
        );
        let mut battle = script::load(data(), "test.toml", &text)
            .unwrap_or_else(|e| panic!("{e}"))
            .battle;
        for f in &mut battle.fighters[1..] {
            f.hidden = true;
        }
        battle
    }

    fn seen<'b>(battle: &'b Battle<'_>) -> Vec<&'b str> {
        (1..battle.fighters.len())
            .filter(|&t| sees(battle, 0, t))
            .map(|t| battle.name(t))
            .collect()
    }

    /// 3.1 7.5.7c: each result shows the hidden enemies owning its kind of
    /// thing: spells recorded, weapon, armour or horse counters (every
    /// native, the Giants, not a Giant Bat), Treasure cards.
    #[test]
    fn each_magic_sight_result_shows_its_own_hidden_enemies() {
        assert_eq!(seen(&amazon_seeing("\"spells\"")), ["Elf"]);
        assert_eq!(
            seen(&amazon_seeing("\"counters\"")),
            ["Elf", "Woodfolk 1", "Giant 1"]
        );
        assert!(seen(&amazon_seeing("\"treasure_cards\"")).is_empty());
        assert!(seen(&amazon_seeing("")).is_empty());
    }

    /// 3.1 7.5.7c's note: Hidden Enemies found without Magic Sight still
    /// show every hidden enemy.
    #[test]
    fn found_hidden_enemies_show_them_all() {
        let mut battle = amazon_seeing("\"spells\"");
        if let Some(hero) = battle.hero_mut(0) {
            hero.found_hidden_enemies = true;
        }
        assert_eq!(seen(&battle).len(), 5);
    }
}
