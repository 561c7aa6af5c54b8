//! The planning bot's business with the denizens on the map ("hire
//! and trade when they can afford it, fight those they can"): what
//! its fighters hunt, whom they hire, and where a character with treasure
//! to spare sells it. Everything here reads only what every player sees:
//! the counters on the map, the printed counters and the character's own
//! sheet.
//!
//! Its judgement of a fight is a player's rule of thumb, not a simulation:
//! he can kill a denizen when his alerted weapon, with its sharpness stars
//! (one fewer against armour), reaches the denizen's vulnerability; he
//! survives one when neither side of its counter would kill him at a blow:
//! it strikes below his vulnerability, or he wears armour to take a blow
//! short of Tremendous. A denizen that casts spells or has heads and clubs
//! of its own he never takes on. Horses, the armour's toughness and the
//! Fight chit's strength are left out.

use std::collections::{BTreeMap, BTreeSet};

use crate::board::ClearingId;
use crate::combat::build;
use crate::combat::harm::level;
use crate::combat::melee::denizen_blow;
use crate::combat::model::{Denizen, Hero};
use crate::data::GameData;
use crate::data::natives::{Hire, find_member};
use crate::data::terms::{DenizenSide, Strength};
use crate::state::{CharacterState, DenizenState, ItemKind, MrState, Whereabouts};

/// The unhired denizens in each clearing: (counter id, counter) by clearing.
pub type Present<'s> = BTreeMap<ClearingId, Vec<(&'s str, &'s DenizenState)>>;

/// The unhired denizens standing in each clearing of the map (hired
/// natives are their employers' company).
pub fn unhired_by_clearing(state: &MrState) -> Present<'_> {
    let hired: BTreeSet<&str> = state
        .characters
        .iter()
        .flat_map(|c| c.hirelings.iter().map(|h| h.native.as_str()))
        .collect();
    let mut present = Present::new();
    for (name, denizen) in &state.denizens {
        if hired.contains(name.as_str()) {
            continue;
        }
        if let Whereabouts::Clearing { clearing } = &denizen.at {
            present
                .entry(clearing.clone())
                .or_default()
                .push((name.as_str(), denizen));
        }
    }
    present
}

/// Where `who` would hunt tonight, each clearing with the denizen he would
/// attack there: the one worth the most fame and notoriety that he can
/// kill, in a clearing where no denizen could kill him (natives battle as
/// a group, and a whole watchful group may join the fight).
pub fn hunting_grounds(
    data: &GameData,
    present: &Present<'_>,
    who: &CharacterState,
) -> BTreeMap<ClearingId, String> {
    let Ok(hero) = build::hero(data, who) else {
        return BTreeMap::new();
    };
    let mut grounds = BTreeMap::new();
    for (clearing, here) in present {
        let mut all_survivable = true;
        let mut best: Option<(i32, &str)> = None;
        for &(name, counter) in here {
            let Ok(denizen) = build::denizen(data, name, counter.side, None) else {
                all_survivable = false;
                continue;
            };
            all_survivable &= survivable(&hero, &denizen);
            let worth = denizen.fame + denizen.notoriety;
            if kills(&hero, &denizen) && best.is_none_or(|(most, _)| worth > most) {
                best = Some((worth, name));
            }
        }
        if all_survivable && let Some((_, target)) = best {
            grounds.insert(clearing.clone(), target.to_string());
        }
    }
    grounds
}

/// Whether one blow of `hero`'s alerted weapon kills `denizen`.
fn kills(hero: &Hero, denizen: &Denizen) -> bool {
    let Some(weapon) = &hero.weapon else {
        return false;
    };
    let side = &weapon.alerted;
    let harm = if side.harm.is_negligible() {
        weapon.weight
    } else {
        side.harm
    };
    let stars = side.stars.saturating_sub(u8::from(denizen.armored));
    level(harm) + i8::try_from(stars).unwrap_or(0) >= level(denizen.vulnerability)
}

/// Whether no blow of `denizen` kills `hero` outright: each side of its
/// counter strikes below his vulnerability, or short of Tremendous on a
/// character wearing armour; one that casts spells or has heads and clubs
/// of its own is never survivable.
fn survivable(hero: &Hero, denizen: &Denizen) -> bool {
    let armoured = !hero.armor.is_empty();
    let survives = |s: &DenizenSide| match s.harm {
        _ if s.spell.is_some() => false,
        None => true,
        Some(harm) => {
            let blow = denizen_blow(harm, s.stars, s.missile);
            let strikes = blow.level + i8::try_from(blow.stars).unwrap_or(0);
            strikes < level(hero.vulnerability)
                || (armoured && !blow.red && blow.level < level(Strength::Tremendous))
        }
    };
    denizen.parts.is_empty() && survives(&denizen.light) && survives(&denizen.dark)
}

/// Where `who` could hire a native group (or, of a group hired one at a
/// time, its next member), with the group's name: unhired members in a
/// clearing whose wages add up to no more than half his gold, so that the
/// Meeting table's price is likely within his purse.
pub fn hiring_grounds(
    data: &GameData,
    present: &Present<'_>,
    who: &CharacterState,
) -> BTreeMap<ClearingId, String> {
    let mut grounds = BTreeMap::new();
    for (clearing, here) in present {
        // Group → what hiring it here costs at the table's lowest price:
        // every member's wage, or the dearest one for a group hired one at
        // a time.
        let mut costs: BTreeMap<&str, u32> = BTreeMap::new();
        for &(name, _) in here {
            if let Some((group, member)) = find_member(&data.natives, name) {
                let cost = costs.entry(group.name.as_str()).or_default();
                let wage = u32::from(member.wage);
                *cost = match group.hire {
                    Hire::Group => *cost + wage,
                    Hire::Single => (*cost).max(wage),
                };
            }
        }
        let affordable = costs
            .into_iter()
            .filter(|(_, cost)| *cost > 0 && cost * 2 <= u32::from(who.gold))
            .max_by_key(|(_, cost)| *cost);
        if let Some((group, _)) = affordable {
            grounds.insert(clearing.clone(), group.to_string());
        }
    }
    grounds
}

/// The treasures `who` would sell for gold: those that are not Great
/// Treasures (which count for victory themselves).
pub fn to_sell(data: &GameData, who: &CharacterState) -> Vec<String> {
    who.belongings
        .iter()
        .filter(|b| b.item.kind == ItemKind::Treasure)
        .filter(|b| data.treasure(&b.item.name).is_some_and(|t| !t.great))
        .map(|b| b.item.name.clone())
        .collect()
}

/// The clearings where an unhired native leader stands, who buys what a
/// character sells.
pub fn markets(data: &GameData, present: &Present<'_>) -> BTreeSet<ClearingId> {
    present
        .iter()
        .filter(|(_, here)| {
            here.iter().any(|(name, _)| {
                find_member(&data.natives, name).is_some_and(|(_, member)| member.is_leader())
            })
        })
        .map(|(clearing, _)| clearing.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::DenizenKind;
    use crate::test_support::{data, test_game};

    /// Where the character of seat `seat` would hunt in `state`.
    fn hunting(state: &MrState, seat: usize) -> BTreeMap<ClearingId, String> {
        hunting_grounds(data(), &unhired_by_clearing(state), &state.characters[seat])
    }

    /// Where the character of seat `seat` would hire in `state`.
    fn hiring(state: &MrState, seat: usize) -> BTreeMap<ClearingId, String> {
        hiring_grounds(data(), &unhired_by_clearing(state), &state.characters[seat])
    }

    #[test]
    fn a_knight_in_armour_hunts_natives_and_a_deadly_monster_beside_them_calls_it_off() {
        let mut state = test_game(&["Black Knight", "Swordsman"]);
        let grounds = hunting(&state, 0);
        let (clearing, quarry) = grounds.iter().next().expect("somewhere to hunt");
        let present = unhired_by_clearing(&state);
        assert!(present[clearing].iter().any(|(name, _)| name == quarry));
        // The Swordsman wears no armour: every native strikes him dead.
        let swordsman = hunting(&state, 1);
        assert!(
            swordsman.keys().all(|c| present[c]
                .iter()
                .all(|(name, _)| data().monster_of(name).is_some())),
            "{swordsman:?}"
        );
        // A Tremendous monster in that clearing makes it no place to hunt.
        let (troll, _) = state
            .denizens
            .iter()
            .find(|(name, d)| d.kind == DenizenKind::Monster && name.starts_with("T Troll"))
            .expect("a Tremendous troll");
        let troll = troll.clone();
        state.denizens.get_mut(&troll).unwrap().at = Whereabouts::Clearing {
            clearing: clearing.clone(),
        };
        let clearing = clearing.clone();
        assert!(!hunting(&state, 0).contains_key(&clearing));
    }

    #[test]
    fn natives_are_hired_only_by_a_purse_twice_their_wages() {
        let mut state = test_game(&["Black Knight"]);
        state.characters[0].gold = 0;
        assert!(hiring(&state, 0).is_empty());
        state.characters[0].gold = 200;
        let grounds = hiring(&state, 0);
        assert!(!grounds.is_empty());
        assert!(
            grounds
                .values()
                .all(|group| data().natives.iter().any(|g| &g.name == group))
        );
    }

    #[test]
    fn only_treasures_that_are_not_great_are_for_sale() {
        let mut state = test_game(&["Black Knight"]);
        let treasure = |great: bool| {
            data()
                .treasures
                .iter()
                .find(|t| t.great == great)
                .map(|t| t.name.clone())
                .unwrap()
        };
        for name in [treasure(true), treasure(false)] {
            state.characters[0]
                .belongings
                .push(crate::state::Belonging {
                    item: crate::state::Item {
                        kind: ItemKind::Treasure,
                        name,
                    },
                    active: false,
                });
        }
        assert_eq!(to_sell(data(), &state.characters[0]), vec![treasure(false)]);
        assert!(!markets(data(), &unhired_by_clearing(&state)).is_empty());
    }
}
