//! The FLY activity (play summary II.C.9): a character with an active
//! belonging that flies (TreasureEffect::Flies, the Flying Carpet) uses a
//! phase to fly to an adjacent tile or to stay over the tile he is in; when
//! his flying ends he lands in a random clearing of the tile below him.
//! Followers are left behind (play summary II.C.8).
//!
//! Rulings:
//! - The item needs its colour of magic in the clearing he takes off from,
//!   from any source (`magic::colour`: the day, the tile side face up,
//!   dwellings, colour sources carried there, his own colour chits).
//!   Once aloft he keeps flying until he lands.
//! - His flying ends before the first phase of his turn that is not a Fly
//!   phase, or at the end of his turn (3.1 7.3.3b); under Flying Activities
//!   (10.A.3) an Alert or an enhanced Peer (`Search: peer <clearing>`) is
//!   done aloft. While aloft nobody blocks him.
//! - Landing rolls one die (`daylight/land/<character>`), unmodified, and
//!   again until it names a clearing of the tile; he lands there, even in a
//!   cave (3.1 7.3.3b.1).
//! - Taking off (3.1 7.3.3a.3) he becomes unhidden and abandons his horses,
//!   his pack horses with their loads (7.3.1i.3), and every item heavier
//!   than the flying strength, in the clearing's abandoned pile. The flying
//!   strength must be at least his own weight (his vulnerability), or he
//!   cannot take off (7.3.3a.2).
//! - A Broomstick spell in effect on him flies him like an item of Light
//!   strength that needs no colour; it expires when he lands.
//! - One who flew away in combat with a Fly chit starts his next turn
//!   aloft, and its first phase brings him down (3.1 8.3.8e.2,
//!   [`land_after_flying_away`]). Aloft so, both tiles supply him colour
//!   magic ([`tiles_next_below`], `magic::colour::aloft_sources`).

use super::Day;

/// The optional rule under which a flyer may Alert and Peer without
/// landing (3.1 10.A.3, Flying Activities).
pub const FLYING_ACTIVITIES: &str = "flying_activities";
use super::events::{Happening, PhaseEvent, PhaseResult};
use crate::abilities;
use crate::board::ClearingId;
use crate::data::terms::{Colour, Strength};
use crate::data::treasures::TreasureEffect;
use crate::orders::DayOrders;
use crate::orders::activity::Activity;
use crate::state::{Belonging, Item, ItemKind, abandoned_pile};
use realmgm_core::dice::DiceCount;
use std::collections::BTreeMap;

/// The active belonging of `who` that flies, its strength and the colour
/// it needs.
fn flying_item(day: &Day<'_>, who: usize) -> Option<(String, Strength, Option<Colour>)> {
    abilities::active_treasure_effects(day.data, &day.state.characters[who])
        .into_iter()
        .find_map(|(name, e)| match e {
            TreasureEffect::Flies {
                needs, strength, ..
            } => Some((name.to_string(), *strength, *needs)),
            _ => None,
        })
        .or_else(|| {
            let me = crate::state::magic::Aim::Character {
                name: day.state.characters[who].name.clone(),
            };
            crate::magic::cast::active_on(&day.state, &me, "Broomstick")
                .map(|_| ("Broomstick spell".to_string(), Strength::Light, None))
        })
}

/// His own weight: the character's vulnerability.
fn own_weight(day: &Day<'_>, who: usize) -> Strength {
    let name = &day.state.characters[who].name;
    day.data
        .characters
        .iter()
        .find(|c| &c.name == name)
        .map_or(Strength::Negligible, |c| c.vulnerability)
}

/// Whether `colour` magic is present for `who` today (every source:
/// the day, the tile, dwellings, treasures, his own colour chits).
fn colour_present(day: &Day<'_>, who: usize, colour: Colour) -> bool {
    crate::magic::colour::colours_present(&day.state, day.data, day.rules, day.state.day + 1, who)
        .contains(&colour)
}

/// The tiles next to tile `code` on the map.
fn adjacent_tiles(day: &Day<'_>, code: &str) -> Vec<String> {
    let board = &day.state.board;
    let Some(placement) = board.placement_of(code) else {
        return Vec::new();
    };
    crate::data::tiles::Edge::ALL
        .iter()
        .filter_map(|&edge| board.placement_at(placement.at.neighbour(edge)))
        .map(|p| p.tile.clone())
        .collect()
}

/// A Fly phase toward `tile`; `aloft` is the tile he is flying over, if he
/// already took off this turn. On success he is over the tile named.
pub fn fly(day: &mut Day<'_>, who: usize, tile: &str, aloft: &mut Option<String>) -> PhaseResult {
    let Some(code) = day.data.tiles.resolve(tile).map(|t| t.code.clone()) else {
        return PhaseResult::Lost {
            reason: format!("there is no tile {tile}"),
        };
    };
    let Some((item, strength, needs)) = flying_item(day, who) else {
        return PhaseResult::Lost {
            reason: "no active item that flies and no Broomstick spell in effect".into(),
        };
    };
    if aloft.is_none()
        && let Some(colour) = needs
        && !colour_present(day, who, colour)
    {
        return PhaseResult::Lost {
            reason: format!(
                "the {item} flies only where {colour} magic is present, and there is none \
                 in {} today",
                day.state.characters[who].position
            ),
        };
    }
    let over = aloft
        .clone()
        .unwrap_or_else(|| day.state.characters[who].position.tile.clone());
    if code != over && !adjacent_tiles(day, &over).contains(&code) {
        return PhaseResult::Lost {
            reason: format!("the tile {code} is not next to {over}, where the flight starts"),
        };
    }
    let mut left_behind = Vec::new();
    if aloft.is_none() {
        let weight = own_weight(day, who);
        if weight > strength {
            return PhaseResult::Lost {
                reason: format!(
                    "the {item} carries {} weight at most and the {} weighs {}",
                    strength, day.state.characters[who].name, weight
                ),
            };
        }
        left_behind = super::movement::drop_items_heavier_than(day, who, strength);
        left_behind.extend(leave_horses(day, who));
        day.state.characters[who].hidden = false;
    }
    *aloft = Some(code.clone());
    // The turn fills in the followers he leaves behind.
    PhaseResult::Flew {
        over: code,
        item,
        followers_left: Vec::new(),
        left_behind,
    }
}

/// His horses, and the pack horses' loads, left in the clearing he flies
/// from (3.1 7.3.3a.3, 7.3.1i.3); their names.
fn leave_horses(day: &mut Day<'_>, who: usize) -> Vec<String> {
    let character = &mut day.state.characters[who];
    let (horses, kept): (Vec<Belonging>, Vec<Belonging>) = character
        .belongings
        .drain(..)
        .partition(|b| b.item.kind == ItemKind::Horse);
    character.belongings = kept;
    let mut left: Vec<Item> = horses.into_iter().map(|b| b.item).collect();
    left.extend(std::mem::take(&mut character.pack).into_values().flatten());
    let names = left.iter().map(|i| i.name.clone()).collect();
    let pile = abandoned_pile(&character.position);
    day.state.holdings.entry(pile).or_default().extend(left);
    names
}

/// The first phase of one who flew away in combat (3.1 8.3.8e.2): aloft
/// half over the tile he flew out of and half over one next to it, he
/// starts his turn with a Fly phase into either and lands there, even with
/// no flying values left. Ruling: the tile next to his is the one his Fly
/// phase names (any next to the tile he left), asked of him by mail then
/// rather than in the middle of a combat round. A first phase that is not
/// such a Fly takes him down into the tile he left, and is lost.
/// `None` for one not aloft so.
pub fn land_after_flying_away(
    day: &mut Day<'_>,
    who: usize,
    activity: &Activity,
) -> Option<PhaseResult> {
    let from = day.state.characters[who].flown_away.take()?;
    let named = tile_flown_down_into(day, &from, activity);
    let tile = named.clone().unwrap_or_else(|| from.tile.clone());
    land(day, who, &tile);
    Some(match named {
        Some(over) => PhaseResult::Flew {
            over,
            item: "flight after flying away".into(),
            followers_left: Vec::new(),
            left_behind: Vec::new(),
        },
        None => PhaseResult::Lost {
            reason: format!(
                "flown away from {from}, a turn must start with a Fly phase down into {} or a \
                 tile next to it (3.1 rule 8.3.8e.2); this one came down into {} instead",
                from.tile, from.tile
            ),
        },
    })
}

/// The tile a Fly phase `activity` brings one who flew away from `from`
/// down into: the tile it names, when that is his or one next to it.
fn tile_flown_down_into(day: &Day<'_>, from: &ClearingId, activity: &Activity) -> Option<String> {
    let Activity::Fly { tile } = activity else {
        return None;
    };
    day.data
        .tiles
        .resolve(tile)
        .map(|t| t.code.clone())
        .filter(|code| code == &from.tile || adjacent_tiles(day, &from.tile).contains(code))
}

/// For each character aloft after flying away whose recorded turn starts
/// with a Fly into the tile next to his, that tile: the second one he is
/// over, which supplies him colour magic from the start of the day (3.1
/// 8.3.8e.2; `magic::colour::aloft_sources`).
pub fn tiles_next_below(
    day: &Day<'_>,
    orders: &BTreeMap<String, DayOrders>,
) -> BTreeMap<String, String> {
    day.state
        .characters
        .iter()
        .filter_map(|c| {
            let from = c.flown_away.as_ref()?;
            let first = orders.get(&c.player)?.activities.phases.first()?;
            let tile = tile_flown_down_into(day, from, &first.activity)?;
            (tile != from.tile).then(|| (c.name.clone(), tile))
        })
        .collect()
}

/// End his flying over `tile`: roll one die until it names a clearing of
/// the tile, and land there (3.1 7.3.3b.1).
pub fn land(day: &mut Day<'_>, who: usize, tile: &str) -> ClearingId {
    let name = day.state.characters[who].name.clone();
    let numbers: Vec<u8> = day
        .state
        .board
        .clearings()
        .into_iter()
        .filter(|c| c.tile == tile)
        .map(|c| c.clearing)
        .collect();
    let die = loop {
        let observers = day.only(who);
        let die = day
            .roll(&format!("daylight/land/{name}"), DiceCount::One, observers)
            .result;
        // Every tile has a clearing numbered 1 to 6; the check only keeps a
        // broken board from rolling for ever.
        if numbers.contains(&die) || !numbers.iter().any(|n| (1..=6).contains(n)) {
            break die;
        }
    };
    let number = if numbers.contains(&die) {
        die
    } else {
        numbers.iter().copied().min().unwrap_or(die)
    };
    let to = ClearingId::new(tile, number);
    let character = &mut day.state.characters[who];
    character.position = to.clone();
    character.discoveries.tiles_visited.insert(tile.to_string());
    day.emit(
        day.clearing_of(who),
        Happening::Phase(PhaseEvent::Landed {
            character: name,
            clearing: to.clone(),
            die,
        }),
    );
    for event in crate::magic::expiry::landed(&mut day.state, who) {
        day.emit(day.only(who), Happening::Magic(event));
    }
    to
}
