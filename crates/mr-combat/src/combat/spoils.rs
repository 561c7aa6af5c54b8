//! Spoils of a kill (3.1 8.7): fame and notoriety for a monster,
//! notoriety and the gold bounty for a native, a character's recorded
//! notoriety (never multiplied, negative inherited), gold and belongings
//! for killing him; a monster's or native's points multiplied by the count
//! of the kills the character made himself that day (8.7.1-8.7.2). His
//! hirelings' kills earn him the basic points and are not his kills; gold
//! goes only to a hired leader or a controlled monster that kills (8.7.3).
//! A hired native's death costs his employer the native's notoriety
//! (8.7.7). The belongings of a dead
//! character go to the character, unhired native group or hired leader who
//! killed him, otherwise they are left in the clearing.
//!
//! The Melee step holds the kills of each instant ([`hold`], [`settle`]):
//! characters whose attacks of one instant kill the same denizen share it,
//! each counting it as a kill and taking his share of its points times his
//! count, fractions kept (8.7.1b–c); one attacker's several kills of one
//! instant (a spell's) count from the one worth most (8.7.2c).
//!
//! realmgm's rulings: a monster fighting for a character is controlled
//! (its Control spell is the only way one does), so it takes a Gold bounty
//! and a victim's gold and belongings for him (8.7.3b); with no box of its
//! own it hands them to him. A shared denizen's Gold bounty (not "points")
//! is split equally, each share rounded down. Only characters share: a
//! hireling's kill of the same instant as a character's goes to whichever
//! struck first. Fractions of points are kept on his record until they
//! make whole ones (`state/points.rs`).

use crate::state::Item;
use crate::state::points::{Fraction, Kept};

use super::Battle;
use super::log::{CombatLine, Seen};
use super::model::FighterId;

/// From now on kills wait for [`settle`] (the Melee step, an instant at a
/// time).
pub fn hold(battle: &mut Battle) {
    battle.held_kills.get_or_insert_with(Vec::new);
}

/// Give out the spoils of the kills held so far; with `done`, stop holding.
pub fn settle(battle: &mut Battle, done: bool) {
    let held = if done {
        battle.held_kills.take().unwrap_or_default()
    } else {
        battle
            .held_kills
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    };
    // Each victim with who killed it, in the order of the kills.
    let mut kills: Vec<(FighterId, Vec<FighterId>)> = Vec::new();
    for (killer, victim) in held {
        match kills.iter_mut().find(|(v, _)| *v == victim) {
            Some((_, killers)) if !killers.contains(&killer) => killers.push(killer),
            Some(_) => {}
            None => kills.push((victim, vec![killer])),
        }
    }
    // 8.7.2c: several kills at once count from the most valuable.
    kills.sort_by_key(|(victim, _)| std::cmp::Reverse(worth(battle, *victim)));
    for (victim, killers) in kills {
        let sharing: Vec<FighterId> = killers
            .iter()
            .copied()
            .filter(|&k| battle.hero(k).is_some())
            .collect();
        if sharing.len() > 1 && battle.hero(killers[0]).is_some() {
            share(battle, &sharing, victim);
        } else {
            give(battle, killers[0], victim);
        }
    }
}

/// What a victim is worth before multiplication: a denizen's fame and
/// notoriety, a character's recorded notoriety.
fn worth(battle: &Battle, victim: FighterId) -> i32 {
    if let Some(d) = battle.denizen(victim) {
        d.fame + d.notoriety
    } else {
        battle.hero(victim).map_or(0, |h| h.notoriety)
    }
}

/// Give the killer (or his employer) what the kill is worth, or hold it
/// for [`settle`].
pub fn award(battle: &mut Battle, killer: FighterId, victim: FighterId) {
    if let Some(held) = battle.held_kills.as_mut() {
        held.push((killer, victim));
        return;
    }
    give(battle, killer, victim);
}

/// A denizen killed by several characters in one instant: each counts
/// it as a kill and gains his share of its points times his count of kills
/// (8.7.1b); its Gold bounty is split.
fn share(battle: &mut Battle, killers: &[FighterId], victim: FighterId) {
    hireling_lost(battle, victim);
    let Some((fame, notoriety, gold)) = battle
        .denizen(victim)
        .map(|d| (d.fame, d.notoriety, if d.monster { 0 } else { d.bounty }))
    else {
        return;
    };
    let n = i64::try_from(killers.len()).unwrap_or(1);
    let names: Vec<String> = killers
        .iter()
        .map(|&k| battle.name(k).to_string())
        .collect();
    let gold_share = gold / i32::try_from(n).unwrap_or(1);
    for (i, &killer) in killers.iter().enumerate() {
        let Some(hero) = battle.hero_mut(killer) else {
            continue;
        };
        hero.kills += 1;
        let count = i64::from(hero.kills);
        let fame_share = Fraction::new(i64::from(fame) * count, n);
        let notoriety_share = Fraction::new(i64::from(notoriety) * count, n);
        let (whole_fame, left_fame) = hero.kept.fame.plus(fame_share).split();
        let (whole_notoriety, left_notoriety) = hero.kept.notoriety.plus(notoriety_share).split();
        hero.kept = Kept {
            fame: left_fame,
            notoriety: left_notoriety,
        };
        hero.fame += whole_fame;
        hero.notoriety += whole_notoriety;
        hero.gold += gold_share;
        let with = names
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, n)| n.clone())
            .collect();
        battle.say(
            Seen::Clearing,
            CombatLine::SharedKill {
                character: names[i].clone(),
                victim: battle.name(victim).to_string(),
                with,
                fame: fame_share.to_string(),
                notoriety: notoriety_share.to_string(),
                gold: gold_share,
            },
        );
    }
}

/// Give the killer (or his employer) what the kill is worth.
fn give(battle: &mut Battle, killer: FighterId, victim: FighterId) {
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
    // character who kills himself, a hired leader or a controlled monster
    // (8.7.2a, 8.7.3b); an underling's victim pays nobody.
    let hired_leader = battle
        .denizen(killer)
        .is_some_and(|d| d.leader && d.employer.is_some());
    let controlled = battle
        .denizen(killer)
        .is_some_and(|d| d.monster && d.employer.is_some());
    let takes_gold = himself || hired_leader || controlled;
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
    let keeps = himself || controlled;
    if keeps {
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
            items: if keeps { names } else { Vec::new() },
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

    /// 3.1 8.7.1b, its own example: the Elf (three kills today already)
    /// and the Druid kill a Wolf (1 notoriety) in one instant. The Elf
    /// gains half a point times four, 2; the Druid half a point, kept as a
    /// fraction; both count the kill. When they share a second Wolf the
    /// Druid's half and his 1 (half of 1 times 2) make 1 1/2: one whole
    /// point recorded, a half kept.
    #[test]
    fn a_shared_kill_splits_the_points_and_keeps_fractions_3_1_8_7_1b() {
        let text = "clearing = \"CV4\"\n[[character]]\nname = \"Elf\"\n\
                    [[character]]\nname = \"Druid\"\n\
                    [[denizen]]\nid = \"Wolf A 1\"\n[[denizen]]\nid = \"Wolf A 2\"\n";
        let mut b = script::load(data(), "test.toml", text)
            .unwrap_or_else(|e| panic!("{e}"))
            .battle;
        let (elf, druid) = (0, 1);
        let (wolf, second) = (
            b.find("Wolf A 1").expect("w"),
            b.find("Wolf A 2").expect("w"),
        );
        b.hero_mut(elf).expect("the Elf").kills = 3;
        hold(&mut b);
        award(&mut b, elf, wolf);
        award(&mut b, druid, wolf);
        settle(&mut b, false);
        let got = |b: &Battle, who| {
            b.hero(who)
                .map(|h| (h.notoriety, h.kills, h.kept.notoriety.to_string()))
        };
        assert_eq!(got(&b, elf), Some((2, 4, "0".to_string())));
        assert_eq!(got(&b, druid), Some((0, 1, "1/2".to_string())));
        award(&mut b, druid, second);
        award(&mut b, elf, second);
        settle(&mut b, true);
        assert_eq!(got(&b, druid), Some((1, 2, "1/2".to_string())));
        assert_eq!(got(&b, elf), Some((4, 5, "1/2".to_string())));
        let log = script::log_text(&b);
        assert!(
            log.iter().any(|l| l.ends_with(
                "the Druid shares the kill of Wolf A 1 with the Elf and gains 1/2 notoriety"
            )),
            "{log:#?}"
        );
        assert!(b.held_kills.is_none());
    }

    /// 3.1 8.7.3b: a controlled monster (a Giant Bat under the Amazon's
    /// Control Bats) that kills a native takes its Gold bounty for her, and
    /// one that kills a character takes his gold and belongings for her; the
    /// kills are not hers and earn the basic points.
    #[test]
    fn a_controlled_monsters_kill_brings_gold_and_belongings_3_1_8_7_3b() {
        let text = "clearing = \"CV4\"\n[[character]]\nname = \"Amazon\"\n\
                    [[character]]\nname = \"Black Knight\"\ngold = 7\n\
                    [[denizen]]\nid = \"Giant Bat 1\"\nemployer = \"Amazon\"\n\
                    [[denizen]]\nid = \"Rogue 1\"\n";
        let mut b = script::load(data(), "test.toml", text)
            .unwrap_or_else(|e| panic!("{e}"))
            .battle;
        let (bat, rogue, knight) = (
            b.find("Giant Bat 1").expect("bat"),
            b.find("Rogue 1").expect("rogue"),
            b.find("Black Knight").expect("knight"),
        );
        let bounty = b.denizen(rogue).map(|d| d.bounty).expect("r");
        award(&mut b, bat, rogue);
        award(&mut b, bat, knight);
        let amazon = b.hero(0).expect("the Amazon");
        assert_eq!((amazon.gold, amazon.kills), (bounty + 7, 0));
        assert!(
            amazon.taken.iter().any(|i| i.name == "Mace"),
            "{:?}",
            amazon.taken
        );
        assert!(b.dropped.is_empty());
    }
}
