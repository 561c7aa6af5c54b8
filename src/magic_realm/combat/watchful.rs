//! Watchful Natives (the `watchful_natives` toggle, seed 003 "Watchful
//! Natives"): unhired natives left off every sheet after random
//! assignment (or left behind by a character who ran) watch for a
//! surprise attack. A character who targets one in the Melee step gets
//! it and every other watchful member of its group on his own sheet at
//! once, and they attack him that same round (§1.1). A character who
//! deploys a hired native against one gets the rest of its group's
//! watchful members on his sheet once he has deployed them all; those
//! with a hired native against them fight that native (§1.2). A hidden
//! attacker (Ambush) leaves them watchful; a hidden deployer's unhidden
//! hired natives take them instead, as in random assignment (§1.3).
//!
//! realmgm's reading: a native is watchful exactly when the rule is on,
//! he is unhired and in play, random assignment has happened this round,
//! and he is on no sheet (neither attacking nor attacked) — which covers
//! both ways of becoming watchful and stopping being so. Monsters and
//! hired natives never are.

use crate::dice::{Dice, DiceCount};

use super::Battle;
use super::encounter::make_group_battle;
use super::log::{CombatLine, Seen};
use super::model::FighterId;

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
            let record = battle.roll(dice, &what, DiceCount::One, meaning);
            to[usize::from(record.result.max(1) - 1) % to.len()]
        };
        battle.sheet.insert(d, owner);
        battle.plays.fresh.remove(&d);
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

/// §1.1: `who` targets `target` in the Melee step (after his Ambush roll,
/// so a hidden attacker is one who stayed hidden).
pub fn on_target(battle: &mut Battle, dice: &mut Dice, who: FighterId, target: FighterId) {
    if let Some(group) = watchful_group(battle, target) {
        rally(battle, dice, who, &group);
    }
}

/// §1.2: the groups of the watchful natives `who` is about to deploy
/// against (call before each deployment).
pub fn deployed_against(battle: &Battle, target: FighterId, groups: &mut Vec<String>) {
    if let Some(group) = watchful_group(battle, target)
        && !groups.contains(&group)
    {
        groups.push(group);
    }
}

/// §1.2: once `who` has deployed, the rest of each group he deployed
/// against comes for him.
pub fn after_deploying(battle: &mut Battle, dice: &mut Dice, who: FighterId, groups: &[String]) {
    for group in groups {
        rally(battle, dice, who, group);
    }
}
