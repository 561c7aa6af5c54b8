//! A bot that records legal orders for any character from the state alone:
//! it rests while it has chits to heal, otherwise wanders along the routes
//! it knows (never wasting a phase on a cave or half a mountain climb) and
//! hides with what is left; a familiar steps along a road and peers; a
//! magic-user casts as [`super::bot_magic`] says (staying put on a day it
//! casts a spell on itself). Its choices come from the day's dice (purpose
//! `bot/<player>`), so the same seed gives the same orders. Used by tests,
//! benchmarks and for players without orders when a GM wants it.

use realmgm_core::dice::Dice;

use super::bot_magic;
use crate::abilities;
use crate::board::{Board, ClearingId};
use crate::data::GameData;
use crate::data::characters::Advantage;
use crate::data::tiles::{ClearingKind, PathKind};
use crate::orders::{Activities, Activity, DayOrders, Phase};
use crate::state::{CharacterState, ChitCondition, MrState};
use realmgm_core::game::Rules;

pub(super) const FULL_DAY: usize = 4;
pub(super) const BASIC: usize = 2;

/// Orders for the character of `player` (None if he has no character).
pub fn orders_for(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    player: &str,
    dice: &mut Dice,
) -> Option<DayOrders> {
    let index = state.characters.iter().position(|c| c.player == player)?;
    let who = &state.characters[index];
    let purpose = format!("bot/{player}");
    let board = &state.board;
    let kind = |c: &ClearingId| board.clearing(c).map(|c| c.kind);
    let mut allowed = phases_allowed(data, rules, board, who);
    let move_limit = abilities::advantages(data, rules, who)
        .into_iter()
        .find_map(|a| match a {
            Advantage::MoveLimit { per_day } => Some(usize::from(per_day)),
            _ => None,
        })
        .unwrap_or(FULL_DAY);
    let familiar = familiar_line(data, rules, state, who, dice, &purpose);
    // A spell to cast on itself tonight keeps it where the cast was checked.
    // Named at itself: in a battle an unnamed target would be someone else.
    let day_spell = bot_magic::day_spell(data, rules, state, index)
        .map(|spell| format!("{spell} on {}", state.characters[index].name));
    let casting = |tonight: &ClearingId| {
        day_spell
            .clone()
            .or_else(|| bot_magic::attack_spell(data, rules, state, index, tonight))
            .map(bot_magic::casting)
    };
    let mut phases = Vec::new();
    let mut here = who.position.clone();
    // A runaway on a roadway first moves off it, on to its far end (3.1
    // rule 8.3.8d.1), or back where he ran from when it vanished (d.3).
    if let Some(road) = &who.roadway {
        let end = if road.vanished { &road.from } else { &road.to };
        if let Some(tile) = data.tiles.by_code(&end.tile).map(|t| t.name.clone()) {
            let step = Activity::Move {
                tile,
                clearing: end.clearing,
            };
            if kind(end) == Some(ClearingKind::Mountain) {
                phases.push(plain(step.clone()));
            }
            phases.push(plain(step));
            here = end.clone();
        }
    }
    if needs_rest(who) {
        for _ in phases.len()..allowed {
            phases.push(plain(Activity::Rest { chit: None }));
        }
        return Some(DayOrders {
            familiar,
            combat: casting(&here),
            ..with(phases)
        });
    }
    let stays = day_spell.is_some();
    let mut moves = 0;
    while !stays && phases.len() + 1 < allowed && moves < move_limit {
        let options = routes(
            data,
            rules,
            board,
            who,
            &here,
            allowed - phases.len() - 1,
            phases.len(),
        );
        if options.is_empty() || dice.below(&purpose, 3) == 0 {
            break;
        }
        let pick = usize::try_from(dice.below(&purpose, u32::try_from(options.len()).unwrap_or(1)))
            .unwrap_or(0);
        let to = options[pick].clone();
        let Some(tile) = data.tiles.by_code(&to.tile).map(|t| t.name.clone()) else {
            break;
        };
        let step = Activity::Move {
            tile,
            clearing: to.clearing,
        };
        if kind(&to) == Some(ClearingKind::Mountain) {
            phases.push(plain(step.clone()));
        }
        phases.push(plain(step));
        moves += 1;
        if kind(&to) == Some(ClearingKind::Cave) {
            allowed = BASIC.max(phases.len());
        }
        here = to;
    }
    while phases.len() < allowed {
        phases.push(plain(Activity::Hide));
    }
    Some(DayOrders {
        familiar,
        combat: casting(&here),
        ..with(phases)
    })
}

/// A familiar's line for a character who has one: a step to an open
/// neighbouring clearing along a road, then a peer there.
pub(super) fn familiar_line(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    who: &CharacterState,
    dice: &mut Dice,
    purpose: &str,
) -> Option<Activities> {
    let has_one = abilities::advantages(data, rules, who)
        .iter()
        .any(|a| matches!(a, Advantage::Familiar { .. }));
    if !has_one {
        return None;
    }
    let board = &state.board;
    let at = state.familiars.get(&who.name).unwrap_or(&who.position);
    let options: Vec<ClearingId> = board
        .neighbours(at)
        .into_iter()
        .filter(|l| l.kind == PathKind::Normal)
        .map(|l| l.to)
        .filter(|to| {
            matches!(
                board.clearing(to).map(|c| c.kind),
                Some(ClearingKind::Woods | ClearingKind::Normal)
            )
        })
        .collect();
    let mut phases = Vec::new();
    if !options.is_empty() {
        let pick = usize::try_from(dice.below(purpose, u32::try_from(options.len()).unwrap_or(1)))
            .unwrap_or(0);
        let to = &options[pick];
        if let Some(tile) = data.tiles.by_code(&to.tile).map(|t| t.name.clone()) {
            phases.push(plain(Activity::Move {
                tile,
                clearing: to.clearing,
            }));
        }
    }
    phases.push(plain(Activity::Search));
    Some(Activities { phases })
}

/// The phases `who` may record today: the basic two in a cave or without
/// sunlight phases, else the full four.
pub(super) fn phases_allowed(
    data: &GameData,
    rules: &Rules,
    board: &Board,
    who: &CharacterState,
) -> usize {
    let no_sunlight = abilities::has(data, rules, who, &Advantage::NoSunlightPhases);
    let in_cave = board.clearing(&who.position).map(|c| c.kind) == Some(ClearingKind::Cave);
    if no_sunlight || in_cave {
        BASIC
    } else {
        FULL_DAY
    }
}

pub(super) fn needs_rest(who: &CharacterState) -> bool {
    who.chits
        .iter()
        .any(|c| c.condition != ChitCondition::Active)
}

pub(super) fn plain(activity: Activity) -> Phase {
    Phase {
        activity,
        bonus: false,
        note: None,
    }
}

pub(super) fn with(phases: Vec<Phase>) -> DayOrders {
    DayOrders {
        activities: Activities { phases },
        ..DayOrders::default()
    }
}

/// Neighbours the bot may move to with `spare` phases after this one and
/// `used` phases already recorded: known routes only, no mountain it cannot
/// finish climbing, no cave once a sunlight phase is used.
pub(super) fn routes(
    data: &GameData,
    rules: &Rules,
    board: &Board,
    who: &CharacterState,
    here: &ClearingId,
    spare: usize,
    used: usize,
) -> Vec<ClearingId> {
    board
        .neighbours(here)
        .into_iter()
        .filter(|l| super::movement::may_take(data, rules, who, here, l))
        .map(|l| l.to)
        .filter(|to| match board.clearing(to).map(|c| c.kind) {
            Some(ClearingKind::Mountain) => spare >= 1,
            Some(ClearingKind::Cave) => used < BASIC,
            Some(_) => true,
            None => false,
        })
        .collect()
}
