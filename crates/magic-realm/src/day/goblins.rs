//! Hiring goblins made Neutral by Deal with Goblins (the ruling is in
//! [`crate::magic::spells::deal_with_goblins`]): a `Hire:`
//! entry naming goblins (`Goblins`, `Spear Goblins`, `Spear Goblin`) hires
//! the whole group his spell made Neutral in his clearing, through the
//! Meeting table like a native group, for the usual term of hire.

use crate::day::refusal::PhaseError;
use crate::magic::spells::deal_with_goblins::{KINDS, dealing, kind_of};
use crate::orders::Purchase;
use crate::state::Whereabouts;
use crate::tables::meeting::MeetingUse;
use realmgm_core::suggest::fold;

use super::events::Happening;
use super::hire::HireEvent;
use super::meeting::{Deal, DealStep, negotiate};
use super::{Day, PhaseOutcome};
use crate::orders::BoonChoice;

/// Whether a `Hire:` entry names goblins.
fn names_goblins(what: &str) -> bool {
    let what = fold(what);
    what == "goblins"
        || what == "goblin"
        || KINDS
            .iter()
            .any(|k| what == fold(k) || what == fold(&format!("{k}s")))
}

/// A Hire phase's entry `wanted` for character `who`: `None` when it does
/// not name goblins; otherwise the phase's outcome, or why these goblins
/// cannot be hired (the next entry is tried then).
pub fn hire(
    day: &mut Day<'_>,
    who: usize,
    wanted: &Purchase,
    orders: &crate::orders::DayOrders,
) -> Option<Result<PhaseOutcome, PhaseError>> {
    if !names_goblins(&wanted.what) {
        return None;
    }
    let here = day.state.characters[who].position.clone();
    let Some((group, members)) = dealing(&day.state, who, &here) else {
        return Some(Err(format!(
            "goblins are monsters: only the character's own Deal with Goblins, awake, makes a goblin group \
             in {here} Neutral to hire"
        )
        .into()));
    };
    let kind = group.trim_end_matches('s');
    if fold(&wanted.what) != "goblins"
        && fold(&wanted.what) != "goblin"
        && !fold(&wanted.what).starts_with(&fold(kind))
    {
        return Some(Err(format!(
            "the goblins the spell made Neutral here are {group}, not {}",
            wanted.what
        )
        .into()));
    }
    let price: u32 = day
        .data
        .monsters
        .iter()
        .find(|m| m.name == kind)
        .map_or(0, |m| u32::from(m.price))
        * u32::try_from(members.len()).unwrap_or(u32::MAX);
    // Drinks are for every goblin of the kind here, hired or not (3.1
    // 7.7.5a, 7.7.1b).
    let standing_here = Whereabouts::Clearing {
        clearing: here.clone(),
    };
    let present = day
        .state
        .denizens
        .iter()
        .filter(|(id, d)| kind_of(id) == Some(kind) && d.at == standing_here)
        .count();
    let deal = Deal {
        group: &group,
        members_present: u32::try_from(present).unwrap_or(u32::MAX),
        activity: MeetingUse::Hire,
        price,
        max_gold: wanted.max_gold,
        drinks_up_to: orders.drinks_up_to,
        insult: orders.insult,
        challenge: orders.challenge,
        boon: BoonChoice::Pay,
    };
    let wrap = |step: DealStep| Happening::Hire(HireEvent::Deal(step));
    if let Some(gold) = negotiate(day, who, &deal, wrap) {
        super::hire::take_on(day, who, members, gold);
    }
    Some(Ok(PhaseOutcome::Done))
}
