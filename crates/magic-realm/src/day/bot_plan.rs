//! The planning bot: the policy `realmgm analyze` plays every
//! character with, so that what a house rule changes is measured on play
//! that pursues the game's goals, not on a random walk
//! ([`super::bot::orders_for`], kept for tests and the demo, is the random
//! walker this one is measured against).
//!
//! Its policy, from what its character knows (README "Analysis"):
//! - it records victory requirements as a player of its character would:
//!   a fighter fame and notoriety, a magic-user spells and great treasures,
//!   the others great treasures and gold ([`victory_requirements`]);
//! - it rests while a chit is fatigued or wounded (as the walker does),
//!   hiding first when it is not hidden;
//! - a dead character plans his day from the Inn, where he starts again;
//! - standing at a treasure site it has found that still holds treasure, it
//!   loots it all day; at a site chit it has seen but not found, it locates;
//! - else it walks, by the shortest route it knows that keeps out of every
//!   clearing where a monster or an unhired native stands, to the nearest such
//!   site, or into the nearest tile it has not explored (where the chits
//!   turn up), and searches with the phases left when it arrives (locating
//!   twice, then looting, at a site it has not found);
//! - a fighter hunts the denizens [`bot_targets`] judges he can kill and
//!   survive, and hires natives he can afford; a character who wants gold
//!   sells the treasures that are not great to a native leader; those
//!   clearings are goals like the sites (the only clearings with natives
//!   it enters);
//! - it hides as soon as it arrives, which keeps prowling monsters from
//!   blocking or finding it (searching does not unhide it), and fights
//!   what finds it anyway, running at the first wound (the second when
//!   hunting);
//! - a magic-user casts as [`super::bot_magic`] says; a familiar peers.
//!
//! It may know one thing a player learns only by looting a site to the
//! bottom: that a site it has found is empty. Its choices among equals come
//! from the day's dice (`bot/<player>`), so the same seed plays the same.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::bot::{self, BASIC, FULL_DAY, needs_rest, phases_allowed, plain, routes, with};
use super::{bot_magic, bot_targets};
use crate::board::ClearingId;
use crate::combat::Tactics;
use crate::combat::tactics::Target;
use crate::data::GameData;
use crate::data::terms::Dwelling;
use crate::data::tiles::ClearingKind;
use crate::orders::{Activity, DayOrders, Purchase, SearchTable};
use crate::state::{CharacterState, MrState, VictoryRequirements};
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;

/// The characters who seek fights (their requirements and their evenings).
const FIGHTERS: [&str; 7] = [
    "Amazon",
    "Berserker",
    "Black Knight",
    "Captain",
    "Dwarf",
    "Swordsman",
    "White Knight",
];

/// What a character of `name` records, sharing `points` victory points.
pub fn victory_requirements(data: &GameData, name: &str, points: u32) -> VictoryRequirements {
    let magic = data
        .characters
        .iter()
        .find(|c| c.name == name)
        .is_some_and(|c| c.spells > 0);
    // Shares of the points by category: great treasures, spells, fame,
    // notoriety, gold.
    let shares: [u32; 5] = if FIGHTERS.contains(&name) {
        [0, 0, 2, 2, 1]
    } else if magic {
        [2, 2, 1, 0, 0]
    } else {
        [2, 0, 1, 0, 2]
    };
    let mut split = shares.map(|share| share * points / 5);
    // What rounding left goes to the first category it favours.
    let left = points - split.iter().sum::<u32>();
    if let Some(first) = shares.iter().position(|s| *s > 0) {
        split[first] += left;
    }
    let point = |n: u32| u8::try_from(n).unwrap_or(u8::MAX);
    VictoryRequirements {
        great_treasures: point(split[0]),
        spells: point(split[1]),
        fame: point(split[2]),
        notoriety: point(split[3]),
        gold: point(split[4]),
    }
}

/// A day of hiding, for a player whose bot cannot foresee where his dead
/// character starts again.
pub fn hiding_day() -> DayOrders {
    with(vec![plain(Activity::Hide); BASIC])
}

/// What the bot goes for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Goal {
    /// A found site with treasure in it: loot it.
    Loot,
    /// A site chit seen but not found: locate it.
    Locate,
    /// An unexplored tile: enter it.
    Explore,
    /// A fighter's quarry: attack this denizen at the Evening.
    Hunt(String),
    /// Natives a fighter can afford: hire this group.
    Hire(String),
    /// A native leader: sell him the treasures that are not great.
    Sell,
}

impl Goal {
    /// Goals met among the denizens the bot otherwise walks around.
    fn among_denizens(&self) -> bool {
        matches!(self, Goal::Hunt(_) | Goal::Hire(_) | Goal::Sell)
    }
}

/// The planning bot's orders for the character of `player`.
pub fn orders_for(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    player: &str,
    dice: &mut Dice,
) -> Option<DayOrders> {
    let index = state.characters.iter().position(|c| c.player == player)?;
    if state.characters[index].dead {
        // He starts again at the Inn at Birdsong: he plans from there.
        let inn = state
            .dwellings_of(state.characters[index].realm)
            .get(&Dwelling::Inn)?
            .clone();
        let mut restarted = state.clone();
        restarted.characters[index].dead = false;
        restarted.characters[index].position = inn;
        return orders_for(data, rules, &restarted, player, dice);
    }
    let who = &state.characters[index];
    if needs_rest(who) || bot_magic::day_spell(data, rules, state, index).is_some() {
        // Resting and a day spent casting on himself are the walker's days,
        // but an unhidden character hides before he rests: a monster or a
        // native group finds a resting character in the open (over 150
        // months this cut the deaths by 8%).
        let mut day = bot::orders_for(data, rules, state, player, dice)?;
        if needs_rest(who)
            && !who.hidden
            && let Some(first) = day.activities.phases.first_mut()
        {
            *first = plain(Activity::Hide);
        }
        return Some(day);
    }
    let purpose = format!("bot/{player}");
    let board = &state.board;
    let kind = |c: &ClearingId| board.clearing(c).map(|c| c.kind);
    let mut allowed = phases_allowed(data, rules, board, who);
    let goals = goals(data, state, who);
    let mut here = who.position.clone();
    let mut phases = Vec::new();
    let mut searches = Vec::new();
    if !goals.contains_key(&here) {
        let mut path = shortest_path(data, rules, state, who, &goals, dice, &purpose);
        let occupied = monsters_at(state);
        if path.is_empty() && occupied.contains(&here) {
            // No goal it can reach safely, and company it does not want:
            // it leaves for the nearest quiet clearing.
            let quiet: BTreeMap<ClearingId, Goal> =
                routes(data, rules, board, who, &here, FULL_DAY, 0)
                    .into_iter()
                    .filter(|c| !occupied.contains(c))
                    .map(|c| (c, Goal::Explore))
                    .collect();
            path = shortest_path(data, rules, state, who, &quiet, dice, &purpose);
        }
        for to in path {
            let cost = if kind(&to) == Some(ClearingKind::Mountain) {
                2
            } else {
                1
            };
            let cave_after_basic = kind(&to) == Some(ClearingKind::Cave) && phases.len() >= BASIC;
            if phases.len() + cost > allowed || cave_after_basic {
                break;
            }
            let Some(tile) = data.tiles.by_code(&to.tile).map(|t| t.name.clone()) else {
                break;
            };
            for _ in 0..cost {
                phases.push(plain(Activity::Move {
                    tile: tile.clone(),
                    clearing: to.clearing,
                }));
            }
            if kind(&to) == Some(ClearingKind::Cave) {
                allowed = BASIC.max(phases.len());
            }
            here = to;
            if goals.contains_key(&here) {
                break;
            }
        }
    }
    let goal = goals.get(&here);
    let search = match goal {
        // A site it has not found: locate it first, then loot what it found.
        Some(Goal::Locate) => vec![SearchTable::Locate, SearchTable::Locate, SearchTable::Loot],
        Some(Goal::Loot) => vec![SearchTable::Loot],
        _ => Vec::new(),
    };
    // Hidden first: a hidden character is neither blocked nor found by the
    // monsters that prowl, and searching does not unhide him.
    if phases.len() < allowed {
        phases.push(plain(Activity::Hide));
    }
    // One phase of dealing: a sale sells everything on the line at once,
    // and one hire is all the bot wants.
    let mut hire = Vec::new();
    let mut sell = Vec::new();
    if phases.len() < allowed {
        match goal {
            Some(Goal::Hire(group)) => {
                phases.push(plain(Activity::Hire));
                hire.push(Purchase {
                    what: group.clone(),
                    max_gold: Some(u32::from(who.gold)),
                });
            }
            Some(Goal::Sell) => {
                phases.push(plain(Activity::Trade));
                sell = bot_targets::to_sell(data, who);
            }
            _ => {}
        }
    }
    while phases.len() < allowed {
        if search.is_empty() {
            phases.push(plain(Activity::Hide));
        } else {
            phases.push(plain(Activity::Search));
            let next = search[searches.len().min(search.len() - 1)].clone();
            searches.push(next);
        }
    }
    let quarry = match goal {
        Some(Goal::Hunt(quarry)) => Some(quarry.clone()),
        _ => None,
    };
    let combat = bot_magic::attack_spell(data, rules, state, index, &here)
        .map_or_else(|| fighting(who, quarry), bot_magic::casting);
    Some(DayOrders {
        familiar: bot::familiar_line(data, rules, state, who, dice, &purpose),
        combat: Some(combat),
        searches,
        hire,
        sell,
        ..with(phases)
    })
}

/// Standing combat orders when it casts no spell: at a fighter's quarry,
/// attack it with his weapon alerted and run once twice wounded; anywhere
/// else run at the first wound; with hired natives, send them against
/// whoever attacks him.
fn fighting(who: &CharacterState, quarry: Option<String>) -> Tactics {
    let hunting = quarry.is_some();
    Tactics {
        target: quarry.map_or(Target::OwnSheet, Target::Named),
        alert: hunting,
        run_when_wounded: Some(if hunting { 2 } else { 1 }),
        deploy: !who.hirelings.is_empty(),
        ..Tactics::default()
    }
}

/// The clearings worth going to and what to do there.
fn goals(data: &GameData, state: &MrState, who: &CharacterState) -> BTreeMap<ClearingId, Goal> {
    let mut found = site_goals(data, state, who);
    let present = bot_targets::unhired_by_clearing(state);
    // Natives to deal with are sought only where no monster stands.
    let quiet = |clearing: &ClearingId| {
        present.get(clearing).is_none_or(|denizens| {
            denizens
                .iter()
                .all(|(name, _)| data.monster_of(name).is_none())
        })
    };
    let wants_gold = state
        .victory_requirements
        .get(&who.name)
        .is_some_and(|r| r.gold > 0);
    let selling = bot_targets::to_sell(data, who);
    if wants_gold && !selling.is_empty() {
        for market in bot_targets::markets(data, &present) {
            if quiet(&market) {
                found.insert(market, Goal::Sell);
            }
        }
    }
    if FIGHTERS.contains(&who.name.as_str()) {
        if who.hirelings.is_empty() {
            for (clearing, group) in bot_targets::hiring_grounds(data, &present, who) {
                if quiet(&clearing) {
                    found.insert(clearing, Goal::Hire(group));
                }
            }
        }
        for (clearing, quarry) in bot_targets::hunting_grounds(data, &present, who) {
            found.insert(clearing, Goal::Hunt(quarry));
        }
    }
    found
}

/// The treasure sites worth searching, else the tiles not yet explored.
fn site_goals(
    data: &GameData,
    state: &MrState,
    who: &CharacterState,
) -> BTreeMap<ClearingId, Goal> {
    let mut found = BTreeMap::new();
    for (tile, chits) in &state.map_chits {
        for chit in chits {
            let Some(site) = data.chits.site(&chit.name) else {
                continue;
            };
            let at = ClearingId {
                tile: tile.clone(),
                clearing: site.clearing,
            };
            if who.discoveries.sites.contains(&chit.name) {
                let full = state
                    .holdings
                    .get(&chit.name)
                    .is_some_and(|items| !items.is_empty());
                if full {
                    found.insert(at, Goal::Loot);
                }
            } else if who.discoveries.chits_seen.contains(&chit.name) {
                found.entry(at).or_insert(Goal::Locate);
            }
        }
    }
    if found.is_empty() {
        for clearing in state.board.clearings() {
            if !who.discoveries.tiles_visited.contains(&clearing.tile) {
                found.insert(clearing, Goal::Explore);
            }
        }
    }
    found
}

/// The clearings where a monster or a native stands on the map (every
/// player sees them): a monster blocks and attacks, natives insult and
/// challenge at the Evening. Hired natives are the bot's own company.
fn monsters_at(state: &MrState) -> BTreeSet<ClearingId> {
    bot_targets::unhired_by_clearing(state)
        .into_keys()
        .collect()
}

/// The steps of a shortest known route from `who` to one of `goals` (the
/// dice break ties between equally near goals); empty when none is reachable.
fn shortest_path(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    who: &CharacterState,
    goals: &BTreeMap<ClearingId, Goal>,
    dice: &mut Dice,
    purpose: &str,
) -> Vec<ClearingId> {
    let start = who.position.clone();
    let dangerous = monsters_at(state);
    let mut came_from: BTreeMap<ClearingId, ClearingId> = BTreeMap::new();
    let mut seen: BTreeSet<ClearingId> = BTreeSet::from([start.clone()]);
    let mut queue = VecDeque::from([start.clone()]);
    let mut nearest: Vec<ClearingId> = Vec::new();
    let mut depth: BTreeMap<ClearingId, usize> = BTreeMap::from([(start.clone(), 0)]);
    while let Some(at) = queue.pop_front() {
        let d = depth[&at];
        if nearest.first().is_some_and(|n| depth[n] < d) {
            break;
        }
        if goals.contains_key(&at) && at != start {
            nearest.push(at.clone());
            continue;
        }
        // Routes as the walker takes them, planning a full day ahead, and
        // around every clearing where a monster stands.
        for to in routes(data, rules, &state.board, who, &at, FULL_DAY, 0) {
            let sought = goals.get(&to).is_some_and(Goal::among_denizens);
            if dangerous.contains(&to) && !sought {
                continue;
            }
            if seen.insert(to.clone()) {
                came_from.insert(to.clone(), at.clone());
                depth.insert(to.clone(), d + 1);
                queue.push_back(to);
            }
        }
    }
    if nearest.is_empty() {
        return Vec::new();
    }
    let pick = usize::try_from(dice.below(purpose, u32::try_from(nearest.len()).unwrap_or(1)))
        .unwrap_or(0);
    let mut path = vec![nearest[pick].clone()];
    while let Some(before) = came_from.get(path.last().expect("one step at least")) {
        if *before == start {
            break;
        }
        path.push(before.clone());
    }
    path.reverse();
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{data, test_game};

    #[test]
    fn requirements_follow_the_character_and_add_up() {
        let knight = victory_requirements(data(), "Black Knight", 5);
        assert_eq!((knight.fame, knight.notoriety, knight.gold), (2, 2, 1));
        let wizard = victory_requirements(data(), "Wizard", 5);
        assert_eq!(
            (wizard.great_treasures, wizard.spells, wizard.fame),
            (2, 2, 1)
        );
        let six = victory_requirements(data(), "Woods Girl", 6);
        let total = six.great_treasures + six.spells + six.fame + six.notoriety + six.gold;
        assert_eq!(total, 6);
    }

    #[test]
    fn a_fresh_character_heads_for_unexplored_ground_and_a_timid_one_hides() {
        let state = test_game(&["Woods Girl", "Black Knight"]);
        let mut dice = Dice::new(3, 1);
        let orders = orders_for(data(), &Rules::default(), &state, "p0", &mut dice).unwrap();
        let phases = &orders.activities.phases;
        assert!(
            matches!(phases[0].activity, Activity::Move { .. }),
            "the Woods Girl starts by walking: {phases:?}"
        );
        assert!(phases.iter().all(|p| matches!(
            p.activity,
            Activity::Move { .. } | Activity::Hide | Activity::Search
        )));
    }

    #[test]
    fn a_fighter_at_his_quarry_attacks_it_with_his_weapon_alerted() {
        let mut state = test_game(&["Black Knight"]);
        let present = bot_targets::unhired_by_clearing(&state);
        let grounds = bot_targets::hunting_grounds(data(), &present, &state.characters[0]);
        let (clearing, quarry) = grounds.into_iter().next().expect("somewhere to hunt");
        state.characters[0].position = clearing;
        let mut dice = Dice::new(3, 1);
        let orders = orders_for(data(), &Rules::default(), &state, "p0", &mut dice).unwrap();
        let combat = orders.combat.expect("combat orders");
        assert_eq!(combat.target, Target::Named(quarry));
        assert!(combat.alert);
        assert!(
            orders
                .activities
                .phases
                .iter()
                .all(|p| !matches!(p.activity, Activity::Move { .. })),
            "he stays: {:?}",
            orders.activities.phases
        );
    }

    #[test]
    fn a_wounded_character_in_the_open_hides_before_he_rests() {
        let mut state = test_game(&["Black Knight"]);
        state.characters[0].chits[0].condition = crate::state::ChitCondition::Wounded;
        state.characters[0].hidden = false;
        let mut dice = Dice::new(3, 1);
        let orders = orders_for(data(), &Rules::default(), &state, "p0", &mut dice).unwrap();
        let phases = &orders.activities.phases;
        assert_eq!(phases[0].activity, Activity::Hide);
        assert!(
            phases[1..]
                .iter()
                .all(|p| matches!(p.activity, Activity::Rest { .. })),
            "{phases:?}"
        );
        state.characters[0].hidden = true;
        let orders = orders_for(data(), &Rules::default(), &state, "p0", &mut dice).unwrap();
        assert!(
            orders
                .activities
                .phases
                .iter()
                .all(|p| matches!(p.activity, Activity::Rest { .. }))
        );
    }
}
