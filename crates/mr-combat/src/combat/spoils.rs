//! Spoils of a kill (3.1 8.7): fame and notoriety for a monster,
//! notoriety and the gold bounty for a native, a character's recorded
//! notoriety (never multiplied, negative inherited), gold and belongings
//! for killing him; a monster's or native's points multiplied by the count
//! of the kills the character made himself that day (8.7.1-8.7.2). His
//! hirelings' kills earn him the basic points and are not his kills; gold
//! goes only to a hired leader that kills (8.7.3).
//! A hired native's death costs his employer the native's notoriety
//! (8.7.7). The belongings of a dead
//! character go to the character, unhired native group or hired leader who
//! killed him, otherwise they are left in the clearing.

use crate::state::Item;

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
    // Gold, a native's bounty or a character's purse, goes only to a
    // character who kills himself or to a hired leader (8.7.2a, 8.7.3b); an
    // underling's or hired monster's victim pays nobody.
    let takes_gold = himself
        || battle
            .denizen(killer)
            .is_some_and(|d| d.employer.is_some() && d.leader);
    let (mut fame, mut notoriety, mut gold) = (0, 0, 0);
    if let Some(d) = battle.denizen(victim) {
        notoriety = d.notoriety * multiplier;
        if d.monster {
            fame = d.fame * multiplier;
        } else if takes_gold {
            gold = d.bounty;
        }
    } else if let Some(h) = battle.hero(victim) {
        // His recorded Notoriety, never multiplied, and lost when it is
        // negative (8.7.2b); his Fame vanishes.
        notoriety = h.notoriety;
        if takes_gold {
            gold = h.gold.max(0);
        }
    }
    if let Some(h) = battle.hero_mut(victim) {
        h.gold = 0;
    }
    let names: Vec<String> = items.iter().map(|i| i.name.clone()).collect();
    let hired_leader = battle
        .denizen(killer)
        .is_some_and(|d| d.leader && d.employer.is_some());
    if himself {
        if let Some(h) = battle.hero_mut(winner) {
            h.taken.extend(items);
        }
    } else if hired_leader {
        let leader = battle.name(killer).to_string();
        battle
            .to_leaders
            .extend(items.into_iter().map(|i| (leader.clone(), i)));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::script;
    use crate::test_support::data;

    fn battle() -> Battle<'static> {
        let text = "clearing = \"CV4\"\n[[character]]\nname = \"Amazon\"\n\
                    [[character]]\nname = \"Black Knight\"\n\
                    [[denizen]]\nid = \"Soldier HQ\"\nemployer = \"Amazon\"\n\
                    [[denizen]]\nid = \"Soldier 1\"\nemployer = \"Amazon\"\n";
        script::load(data(), "test.toml", text)
            .unwrap_or_else(|e| panic!("{e}"))
            .battle
    }

    /// 3.1 8.7.2b: a killed character's recorded Notoriety passes
    /// unmultiplied, even as his killer's second kill, and negative
    /// Notoriety is inherited too.
    #[test]
    fn a_killed_characters_notoriety_is_not_multiplied_and_negative_is_inherited() {
        let (amazon, knight) = (0, 1);
        let mut b = battle();
        b.hero_mut(amazon).expect("the Amazon").kills = 1;
        b.hero_mut(knight).expect("the Knight").notoriety = 10;
        award(&mut b, amazon, knight);
        assert_eq!(
            b.hero(amazon).map(|h| (h.notoriety, h.kills)),
            Some((10, 2))
        );
        let mut b = battle();
        b.hero_mut(knight).expect("the Knight").notoriety = -3;
        award(&mut b, amazon, knight);
        assert_eq!(b.hero(amazon).map(|h| h.notoriety), Some(-3));
    }

    /// 3.1 8.7.3: a hired underling's kill earns his employer the native's
    /// basic Notoriety, no Gold bounty, and is not the employer's kill; a
    /// hired leader's kill brings the Gold bounty as well.
    #[test]
    fn an_underlings_kill_brings_no_gold_and_is_not_his_employers_kill() {
        let text = "clearing = \"CV4\"\n[[character]]\nname = \"Amazon\"\n\
                    [[denizen]]\nid = \"Soldier HQ\"\nemployer = \"Amazon\"\n\
                    [[denizen]]\nid = \"Soldier 1\"\nemployer = \"Amazon\"\n\
                    [[denizen]]\nid = \"Rogue 1\"\n";
        let load = || {
            script::load(data(), "test.toml", text)
                .unwrap_or_else(|e| panic!("{e}"))
                .battle
        };
        let mut b = load();
        let (soldier, rogue) = (
            b.find("Soldier 1").expect("1"),
            b.find("Rogue 1").expect("r"),
        );
        let bounty = b
            .denizen(rogue)
            .map(|d| (d.notoriety, d.bounty))
            .expect("r");
        assert!(bounty.1 > 0, "a Rogue has a gold bounty");
        award(&mut b, soldier, rogue);
        let amazon = b.hero(0).expect("the Amazon");
        assert_eq!(
            (amazon.notoriety, amazon.gold, amazon.kills),
            (bounty.0, 0, 0)
        );
        let mut b = load();
        let leader = b.find("Soldier HQ").expect("HQ");
        award(&mut b, leader, rogue);
        assert_eq!(b.hero(0).map(|h| h.gold), Some(bounty.1));
    }

    #[test]
    fn a_hired_leader_takes_what_his_victim_carried_and_a_hired_soldier_leaves_it() {
        let knight = 1;
        let mut by_leader = battle();
        let leader = by_leader.find("Soldier HQ").expect("the HQ");
        award(&mut by_leader, leader, knight);
        assert!(
            !by_leader.to_leaders.is_empty(),
            "the HQ takes the belongings"
        );
        assert!(
            by_leader
                .to_leaders
                .iter()
                .all(|(who, _)| who == "Soldier HQ")
        );
        assert!(by_leader.dropped.is_empty());
        let mut by_soldier = battle();
        let soldier = by_soldier.find("Soldier 1").expect("a soldier");
        award(&mut by_soldier, soldier, knight);
        assert!(by_soldier.to_leaders.is_empty());
        assert!(!by_soldier.dropped.is_empty(), "left in the clearing");
    }
}
