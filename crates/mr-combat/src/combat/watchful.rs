//! Watchful Natives (the `watchful_natives` toggle, 3.1 10.B.4; the BIMR3
//! rules): unhired natives left off every sheet after random
//! assignment (or left behind by a character who ran) watch for a
//! surprise attack (10.B.4.1). A character who targets one in the Melee
//! step gets it and every other watchful member of its group on his own
//! sheet at once, light side up on galloping horses, and they attack him
//! that same round (10.B.4.2). A character who deploys a hired native
//! against one gets the rest of its group's watchful members on his sheet
//! once he has deployed them all; those with a hired native against them
//! fight that native (10.B.4.3). A hidden attacker (Ambush) leaves them
//! watchful; a hidden deployer's unhidden hired natives take them
//! instead, as in random assignment (10.B.4.4).
//!
//! realmgm's reading: a native is watchful exactly when the rule is on,
//! he is unhired and in play, random assignment has happened this round,
//! and he is on no sheet (neither attacking nor attacked) — which covers
//! both ways of becoming watchful and stopping being so. Monsters and
//! hired natives never are.

use realmgm_core::dice::{Dice, DiceCount};

use super::Battle;
use super::encounter::make_group_battle;
use super::log::{CombatLine, Seen};
use super::model::FighterId;
use crate::state::CounterSide;

/// Whether `id` is watchful now.
pub fn is_watchful(battle: &Battle, id: FighterId) -> bool {
    battle.rules.watchful_natives
        && battle.in_play(id)
        && battle
            .denizen(id)
            .is_some_and(|d| !d.monster && d.employer.is_none())
        && !battle.sheet.contains_key(&id)
        && !battle.sheet.values().any(|&owner| owner == id)
}

/// The group of a watchful native, if `id` is one.
pub fn watchful_group(battle: &Battle, id: FighterId) -> Option<String> {
    if !is_watchful(battle, id) {
        return None;
    }
    battle.denizen(id)?.group.clone()
}

/// The watchful members of `group`, in counter order.
fn watchful_members(battle: &Battle, group: &str) -> Vec<FighterId> {
    (0..battle.fighters.len())
        .filter(|&d| is_watchful(battle, d))
        .filter(|&d| battle.denizen(d).and_then(|x| x.group.as_deref()) == Some(group))
        .collect()
}

/// Where the watchful natives go when `who` strikes at their group: his
/// sheet if he is unhidden; else one of his unhidden hired natives by die
/// roll; nobody if all of them are hidden.
fn receivers(battle: &Battle, who: FighterId) -> Vec<FighterId> {
    if !battle.fighters[who].hidden {
        return vec![who];
    }
    (0..battle.fighters.len())
        .filter(|&h| battle.in_play(h) && !battle.fighters[h].hidden)
        .filter(|&h| battle.denizen(h).is_some_and(|d| d.employer == Some(who)))
        .collect()
}

/// Put every watchful member of `group` on a receiver's sheet.
fn rally(battle: &mut Battle, dice: &mut Dice, who: FighterId, group: &str) {
    let members = watchful_members(battle, group);
    let to = receivers(battle, who);
    if members.is_empty() || to.is_empty() {
        return;
    }
    for d in members {
        let owner = if to.len() == 1 {
            to[0]
        } else {
            let names: Vec<String> = to.iter().map(|&c| battle.name(c).to_string()).collect();
            let what = format!("watchful/{}", battle.name(d));
            let meaning = format!(
                "assigns the watchful {} counting round {}",
                battle.name(d),
                names.join(", ")
            );
            let record = battle.roll(dice, &what, "10.B.4", DiceCount::One, meaning);
            to[usize::from(record.result.max(1) - 1) % to.len()]
        };
        battle.sheet.insert(d, owner);
        battle.plays.fresh.remove(&d);
        // They come light side up on galloping horses (10.B.4.2).
        if let Some(den) = battle.denizen_mut(d) {
            den.side = CounterSide::Light;
            if let Some(mount) = den.horse.as_mut() {
                mount.galloping = true;
            }
        }
        let line = CombatLine::Watchful {
            native: battle.name(d).to_string(),
            to: battle.name(owner).to_string(),
        };
        battle.say(Seen::Clearing, line);
    }
    make_group_battle_of(battle, group, who);
}

/// Every unhired member of `group` battles `who`.
fn make_group_battle_of(battle: &mut Battle, group: &str, who: FighterId) {
    let member = (0..battle.fighters.len()).find(|&d| {
        battle
            .denizen(d)
            .is_some_and(|x| x.employer.is_none() && x.group.as_deref() == Some(group))
    });
    if let Some(member) = member {
        make_group_battle(battle, member, who);
    }
}

/// 10.B.4.2: `who` targets `target` in the Melee step (after his Ambush roll,
/// so a hidden attacker is one who stayed hidden).
pub fn on_target(battle: &mut Battle, dice: &mut Dice, who: FighterId, target: FighterId) {
    if let Some(group) = watchful_group(battle, target) {
        rally(battle, dice, who, &group);
    }
}

/// 10.B.4.3: the groups of the watchful natives `who` is about to deploy
/// against (call before each deployment).
pub fn deployed_against(battle: &Battle, target: FighterId, groups: &mut Vec<String>) {
    if let Some(group) = watchful_group(battle, target)
        && !groups.contains(&group)
    {
        groups.push(group);
    }
}

/// 10.B.4.3: once `who` has deployed, the rest of each group he deployed
/// against comes for him.
pub fn after_deploying(battle: &mut Battle, dice: &mut Dice, who: FighterId, groups: &[String]) {
    for group in groups {
        rally(battle, dice, who, group);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::script;
    use crate::test_support::data;

    fn battle(rules: &str, amazon_hidden: bool, hireling: bool) -> script::Scripted<'static> {
        let mut text = format!(
            "clearing = \"CV4\"\nrules = [{rules}]\n[[character]]\nname = \"Amazon\"\n\
             hidden = {amazon_hidden}\n[[denizen]]\nid = \"Company 1\"\n[[denizen]]\n\
             id = \"Company 2\"\n[[denizen]]\nid = \"Wolf A 1\"\n"
        );
        if hireling {
            text.push_str("[[denizen]]\nid = \"Rogue 1\"\nemployer = \"Amazon\"\n");
        }
        script::load(data(), "test.toml", &text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn only_unassigned_unhired_natives_with_the_rule_on_are_watchful() {
        let off = battle("", false, true);
        assert!(!is_watchful(&off.battle, 1));
        let mut on = battle("\"watchful_natives\"", false, true);
        assert!(is_watchful(&on.battle, 1));
        assert!(!is_watchful(&on.battle, 3), "a monster never is");
        assert!(!is_watchful(&on.battle, 4), "a hired native never is");
        on.battle.sheet.insert(2, 0);
        assert!(!is_watchful(&on.battle, 2), "assigned: no longer watchful");
    }

    #[test]
    fn targeting_one_brings_the_watchful_group_onto_the_attackers_sheet() {
        let mut s = battle("\"watchful_natives\"", false, false);
        on_target(&mut s.battle, &mut s.dice, 0, 1);
        assert_eq!(s.battle.attackers_of(0), vec![1, 2]);
        let company = s.battle.denizen(2).expect("Company 2");
        assert!(company.battling.contains(&0));
    }

    /// 3.1 10.B.4.2: the watchers come light side up, their horses
    /// galloping, whatever side they stood on.
    #[test]
    fn watchful_natives_join_light_side_up_with_horses_galloping() {
        let text = "clearing = \"CV4\"\nrules = [\"watchful_natives\"]\n\
                    [[character]]\nname = \"Amazon\"\n\
                    [[denizen]]\nid = \"Lancer 1\"\nside = \"dark\"\n\
                    [[denizen]]\nid = \"Lancer 2\"\nside = \"dark\"\n";
        let mut s = script::load(data(), "test.toml", text).unwrap_or_else(|e| panic!("{e}"));
        for d in [1, 2] {
            let mount = s.battle.denizen(d).and_then(|x| x.horse.as_ref());
            assert!(mount.is_some_and(|m| !m.galloping), "a Lancer rides");
        }
        on_target(&mut s.battle, &mut s.dice, 0, 1);
        for d in [1, 2] {
            let lancer = s.battle.denizen(d).expect("a Lancer");
            assert_eq!(lancer.side, CounterSide::Light);
            assert!(lancer.horse.as_ref().is_some_and(|m| m.galloping));
        }
    }

    #[test]
    fn a_hidden_attacker_leaves_them_watchful_unless_a_hireling_stands_in_view() {
        let mut alone = battle("\"watchful_natives\"", true, false);
        on_target(&mut alone.battle, &mut alone.dice, 0, 1);
        assert!(alone.battle.sheet.is_empty());
        assert!(is_watchful(&alone.battle, 1));
        let mut with = battle("\"watchful_natives\"", true, true);
        on_target(&mut with.battle, &mut with.dice, 0, 1);
        assert_eq!(with.battle.attackers_of(4), vec![1, 2]);
    }

    #[test]
    fn deploying_against_one_brings_the_rest_of_the_group_onto_the_deployer() {
        use crate::combat::{Answer, Stage, Step};
        let mut s = battle("\"watchful_natives\"", false, true);
        let (b, dice) = (&mut s.battle, &mut s.dice);
        let Step::Needs(lure) = b.step(dice) else {
            panic!("she is asked to lure")
        };
        assert_eq!(lure.stage, Stage::Lure);
        b.answer(
            0,
            Answer::Lure {
                denizens: vec![],
                hirelings: vec![],
            },
        )
        .expect("lure nobody");
        let Step::Needs(deploy) = b.step(dice) else {
            panic!("she is asked to deploy")
        };
        assert_eq!(deploy.stage, Stage::Deploy);
        let pairs = vec![("Rogue 1".to_string(), "Company 1".to_string())];
        b.answer(0, Answer::Deploy { pairs }).expect("deploy");
        let Step::Needs(_) = b.step(dice) else {
            panic!("she is asked for her action")
        };
        assert_eq!(b.sheet.get(&1), Some(&4), "Company 1 fights the Rogue");
        assert_eq!(b.sheet.get(&2), Some(&0), "Company 2 comes for her");
    }
}
