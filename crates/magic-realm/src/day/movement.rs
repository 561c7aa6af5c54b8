//! The MOVE activity (play summary II.C.1; `day/daylight.rs` "Mountains", "Hidden
//! paths"): a move goes to a neighbouring clearing along a route the
//! character knows — normal roads and cave tunnels always, hidden paths and
//! secret passages once discovered (or with an advantage that knows them);
//! items heavier than his strongest active MOVE chit, Boots card or horse
//! are left behind (3.1 7.3.1e).

use super::Day;
use crate::abilities;
use crate::board::{ClearingId, Link};
use crate::data::GameData;
use crate::data::characters::Advantage;
use crate::data::terms::Strength;
use crate::data::tiles::{ClearingKind, PathKind};
use crate::day::refusal::PhaseError;
use crate::magic::events::MagicEvent;
use crate::state::MrState;
use crate::state::{Belonging, CharacterState, Item, ItemKind};
use realmgm_core::game::Rules;

/// Why a move cannot be made.
pub fn check_move(day: &Day<'_>, who: usize, to: &ClearingId) -> Result<(), PhaseError> {
    let from = &day.state.characters[who].position;
    check_move_from(day.data, day.rules, &day.state, who, from, to)
}

/// Why a move from `from` to `to` cannot be made, wherever the character
/// stands now: the day's check, and the orders preview's for a phase after
/// earlier moves (`day::preview`), which need not copy the state to try.
pub fn check_move_from(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    who: usize,
    from: &ClearingId,
    to: &ClearingId,
) -> Result<(), PhaseError> {
    let character = &state.characters[who];
    if state.board.clearing(to).is_none() {
        return Err(format!("there is no clearing {to} on the map").into());
    }
    if from == to {
        return Err(format!("already in {to}").into());
    }
    let open = state
        .board
        .neighbours(from)
        .iter()
        .any(|l| &l.to == to && may_take(data, rules, character, from, l));
    if open {
        Ok(())
    } else {
        Err(PhaseError::Refused(no_known_path(from, to)))
    }
}

/// Whether `who` may take the path `link` out of `from`: a road or a
/// tunnel always, a hidden path or secret passage once he knows it (3.1
/// 7.3.1). Moves, the bots' plans and a report's ways out all ask this.
pub fn may_take(
    data: &GameData,
    rules: &Rules,
    who: &CharacterState,
    from: &ClearingId,
    link: &Link,
) -> bool {
    match link.kind {
        PathKind::Normal | PathKind::Cave => true,
        PathKind::Hidden | PathKind::Secret => knows_route(data, rules, who, from, &link.to),
    }
}

/// After a tile turned over: each runaway whose roadway is gone, or is now
/// a hidden path or secret passage he has not discovered, is put in the
/// forest by the clearing he ran out of (3.1 rule 8.3.8d.3). Each such
/// runaway, with what he is told.
pub fn roadways_vanish(
    data: &GameData,
    rules: &Rules,
    state: &mut MrState,
) -> Vec<(usize, MagicEvent)> {
    let mut gone = Vec::new();
    for who in 0..state.characters.len() {
        let Some(road) = state.characters[who]
            .roadway
            .as_ref()
            // Ruling: the road from the map's edge a solitaire character
            // waits on stays, whichever side its tile shows.
            .filter(|r| !r.vanished && !r.is_from_edge())
        else {
            continue;
        };
        if check_move_from(data, rules, state, who, &road.from, &road.to).is_ok() {
            continue;
        }
        let event = MagicEvent::RoadwayVanished {
            character: state.characters[who].name.clone(),
            from: road.from.clone(),
            to: road.to.clone(),
        };
        if let Some(road) = state.characters[who].roadway.as_mut() {
            road.vanished = true;
        }
        gone.push((who, event));
    }
    gone
}

/// The reason a move fails for want of a route: the same words whether
/// there is no path at all or one he has not discovered, so that the
/// player's report tells him nothing about paths he does not know.
fn no_known_path(from: &ClearingId, to: &ClearingId) -> String {
    format!("no known path from {from} to {to}")
}

/// Whether he knows the hidden path or secret passage between two clearings.
fn knows_route(
    data: &GameData,
    rules: &Rules,
    who: &CharacterState,
    a: &ClearingId,
    b: &ClearingId,
) -> bool {
    who.discoveries.knows_route(a, b)
        || abilities::has(data, rules, who, &Advantage::KnowsHiddenRoutes)
}

/// Whether `clearing` is a mountain clearing (two move phases to enter).
pub fn is_mountain(day: &Day<'_>, clearing: &ClearingId) -> bool {
    day.state.board.clearing(clearing).map(|c| c.kind) == Some(ClearingKind::Mountain)
}

/// Whether `clearing` is a cave clearing (no sunlight phases).
pub fn is_cave(day: &Day<'_>, clearing: &ClearingId) -> bool {
    is_cave_in(&day.state, clearing)
}

/// [`is_cave`] for a state between days.
pub fn is_cave_in(state: &MrState, clearing: &ClearingId) -> bool {
    state.board.clearing(clearing).map(|c| c.kind) == Some(ClearingKind::Cave)
}

/// Move him (the move is legal), leaving behind what is too heavy; the
/// abandoned items lie in the clearing he left, in the holder
/// `Abandoned in <clearing>`. Returns what was left behind.
pub fn make_move(day: &mut Day<'_>, who: usize, to: &ClearingId) -> Vec<String> {
    super::spying::moving(day, who, to);
    let left_behind = drop_heavy_items(day, who);
    let character = &mut day.state.characters[who];
    day.today
        .entered_by
        .insert(who, (character.position.clone(), to.clone()));
    character.position = to.clone();
    character.discoveries.tiles_visited.insert(to.tile.clone());
    super::missions::on_entering(day, who);
    left_behind
}

/// The holder of items abandoned in a clearing.
pub fn abandoned_pile(clearing: &ClearingId) -> String {
    format!("Abandoned in {clearing}")
}

/// Leave behind what is too heavy for what carries him: his active MOVE
/// chit, Boots card or horse; transmorphized, the creature's move strength
/// carries what he took on since (nothing for mist), and what was frozen
/// with him weighs nothing (3.1 4.6.9b.2, 4.6.9b.4).
fn drop_heavy_items(day: &mut Day<'_>, who: usize) -> Vec<String> {
    let character = &day.state.characters[who];
    if crate::magic::conflicts::holding(&day.state, &character.name).is_some() {
        let loose = crate::magic::transmorph::carried_as_creature(&day.state, character);
        let strength = crate::magic::transmorph::creature_strength(day.data, &day.state, character)
            .unwrap_or(Strength::Negligible);
        return drop_heavier_than(day, who, strength, |name| loose.iter().any(|l| l == name));
    }
    let strength = abilities::carrying_strength(day.data, character);
    drop_items_heavier_than(day, who, strength)
}

/// Leave every item heavier than `strength` in the clearing's abandoned
/// pile (horses carry themselves); the names of those left.
pub fn drop_items_heavier_than(day: &mut Day<'_>, who: usize, strength: Strength) -> Vec<String> {
    drop_heavier_than(day, who, strength, |_| true)
}

/// [`drop_items_heavier_than`] for the items `weighed` names only.
fn drop_heavier_than(
    day: &mut Day<'_>,
    who: usize,
    strength: Strength,
    weighed: impl Fn(&str) -> bool,
) -> Vec<String> {
    let data = day.data;
    let too_heavy =
        |kind, name: &str| weighed(name) && abilities::weight(data, kind, name) > strength;
    let mut dropped: Vec<Item> = Vec::new();
    let character = &mut day.state.characters[who];
    if let Some(weapon) = character.weapon.clone()
        && too_heavy(ItemKind::Weapon, &weapon)
    {
        character.weapon = None;
        character.weapon_alerted = false;
        dropped.push(Item {
            kind: ItemKind::Weapon,
            name: weapon,
        });
    }
    let (heavy, kept): (Vec<String>, Vec<String>) = character
        .armor
        .drain(..)
        .partition(|a| too_heavy(ItemKind::Armor, a));
    character.armor = kept;
    dropped.extend(heavy.into_iter().map(|name| Item {
        kind: ItemKind::Armor,
        name,
    }));
    let (heavy, kept): (Vec<Belonging>, Vec<Belonging>) = character
        .belongings
        .drain(..)
        .partition(|b| too_heavy(b.item.kind, &b.item.name));
    character.belongings = kept;
    dropped.extend(heavy.into_iter().map(|b| b.item));
    if dropped.is_empty() {
        return Vec::new();
    }
    let names = dropped.iter().map(|i| i.name.clone()).collect();
    let pile = abandoned_pile(&character.position);
    day.state.holdings.entry(pile).or_default().extend(dropped);
    names
}
