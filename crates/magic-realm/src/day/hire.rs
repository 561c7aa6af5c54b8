//! The Hire activity and terms of hire (play summary II.C.7; `tables/meeting.rs`, `data/natives.toml`):
//! one Meeting roll to hire natives in the clearing for 14 days. Groups
//! are hired whole (every unhired member in the clearing); the Rogues and
//! the Order one at a time, the highest number first and the leader last.
//! The price is the sum of the wages times the table's multiplier, paid
//! only up to the `Hire:` line's limit.
//!
//! At Midnight [`count_down_hire_terms`] shortens every term by a day; an
//! expired hireling rejoins the unhired members of his group where they
//! stand, else goes home to his garrison's dwelling, else to his group's
//! box on the setup card (ruling).
//!
//! With two Realms combined each game's group is hired apart (3.1
//! 10.E.7.7): `Hire: Rogues II` names the second game's Rogues, whose
//! counters carry the mark (`Rogue II 3`).

use serde::{Deserialize, Serialize};

use super::Day;
use super::PhaseOutcome;
use super::events::Happening;
use super::meeting::{Deal, DealStep, negotiate, pay};
use crate::data::natives::{Hire, Native, NativeGroup, find_member};
use crate::data::realms::{Realm, printed};
use crate::orders::DayOrders;
use crate::state::hiring::members_in;
use crate::state::hiring::{next_among, next_to_hire};
use crate::state::{Hireling, Whereabouts};
use crate::tables::meeting::MeetingUse;
use realmgm_core::suggest::same;

/// Days a native serves once hired.
pub const TERM_OF_HIRE: u8 = 14;

/// What a Hire phase or the term countdown did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum HireEvent {
    Deal(DealStep),
    Hired {
        character: String,
        natives: Vec<String>,
        gold: u32,
        days: u8,
    },
    /// He hired his own natives again: `days` more on each term (3.1
    /// 7.7.1d).
    Rehired {
        character: String,
        natives: Vec<String>,
        gold: u32,
        days: u8,
    },
    /// A term ran out: the native is no longer his.
    TermEnded {
        character: String,
        native: String,
        now_at: Whereabouts,
    },
}

fn wrap(step: DealStep) -> Happening {
    Happening::Hire(HireEvent::Deal(step))
}

/// Hire by the first entry of the `Hire:` line that has natives to hire
/// here. An entry names a group (`Rogues`, `Company`), its member word
/// (`Rogue`) or one member (`Rogue 7`, only when he is next in turn).
pub fn hire(day: &mut Day<'_>, who: usize, orders: &DayOrders) -> PhaseOutcome {
    let Some(character) = day.state.characters.get(who) else {
        return PhaseOutcome::Lost {
            reason: format!("there is no character number {who} in this game"),
        };
    };
    let here = character.position.clone();
    if orders.hire.is_empty() {
        return PhaseOutcome::Lost {
            reason: "a Hire phase needs a 'Hire:' line naming the natives to hire".into(),
        };
    }
    let mut refusals = Vec::new();
    let mut chosen = None;
    for wanted in &orders.hire {
        match super::goblins::hire(day, who, wanted, orders) {
            Some(Ok(outcome)) => return outcome,
            Some(Err(reason)) => {
                refusals.push(reason.to_string());
                continue;
            }
            None => {}
        }
        let realm = Realm::of_name(&wanted.what);
        let printed_what = printed(&wanted.what);
        let what = printed_what.as_str();
        let group = day
            .data
            .natives
            .iter()
            .find(|g| same(&g.name, what) || same(&g.member_name, what))
            .or_else(|| find_member(&day.data.natives, &wanted.what).map(|(g, _)| g))
            .or_else(|| {
                day.data
                    .natives
                    .iter()
                    .find(|g| g.members.iter().any(|m| same(&m.name, what)))
            });
        let Some(group) = group else {
            refusals.push(format!("there are no natives called '{}'", wanted.what));
            continue;
        };
        let group_name = realm.mark(&group.name);
        let named_member = group.members.iter().find(|m| same(&m.name, what));
        let own = his_own_here(day, who, realm, group, named_member);
        let next = next_to_hire(&day.state, realm, group, &here);
        // A member of his own named, or none unhired here: he rehires.
        if !own.is_empty() && (next.is_empty() || named_member.is_some_and(|m| own.contains(&m))) {
            chosen = Some((realm, group, own, wanted.max_gold, true));
            break;
        }
        if next.is_empty() {
            refusals.push(format!("no unhired {group_name} are in {here}"));
            continue;
        }
        let single = next.len() == 1 && group.hire == Hire::Single;
        if let Some(member) = named_member
            && single
            && member.name != next[0].name
        {
            refusals.push(format!(
                "the {group_name} are hired one at a time, highest number first and leader \
                 last: {} comes before {}",
                realm.mark(&next[0].name),
                realm.mark(&member.name)
            ));
            continue;
        }
        chosen = Some((realm, group, next, wanted.max_gold, false));
        break;
    }
    let Some((realm, group, natives, max_gold, rehire)) = chosen else {
        return PhaseOutcome::Lost {
            reason: refusals.join("; "),
        };
    };
    let wages: u32 = natives.iter().map(|m| u32::from(m.wage)).sum();
    let group_name = realm.mark(&group.name);
    let deal = Deal {
        group: &group_name,
        members_present: members_in(&day.state, realm, group, &here),
        activity: MeetingUse::Hire,
        price: wages,
        max_gold,
        drinks_up_to: orders.drinks_up_to,
        insult: orders.insult,
        challenge: orders.challenge,
        boon: orders.boon,
    };
    if let Some(gold) = negotiate(day, who, &deal, wrap) {
        let names: Vec<String> = natives.iter().map(|m| realm.mark(&m.name)).collect();
        if rehire {
            extend_terms(day, who, names, gold);
        } else {
            take_on(day, who, names, gold);
        }
    }
    PhaseOutcome::Done
}

/// The natives of `group` hired by `who` and standing with him, whom a
/// Hire phase may rehire (3.1 7.7.1d): all of them, or for a
/// one-at-a-time group the member the `Hire:` entry names, else the
/// highest-numbered one.
fn his_own_here<'g>(
    day: &Day<'_>,
    who: usize,
    realm: Realm,
    group: &'g NativeGroup,
    named: Option<&'g Native>,
) -> Vec<&'g Native> {
    let c = &day.state.characters[who];
    let here = Whereabouts::Clearing {
        clearing: c.position.clone(),
    };
    let present: Vec<&Native> = group
        .members
        .iter()
        .filter(|m| {
            let id = realm.mark(&m.name);
            c.hirelings.iter().any(|h| h.native == id)
                && day.state.denizens.get(&id).is_some_and(|d| d.at == here)
        })
        .collect();
    match (group.hire, named) {
        (Hire::Single, Some(m)) if present.contains(&m) => vec![m],
        _ => next_among(group, present),
    }
}

/// Pay `gold` and add a term of hire to each of `natives`, his already
/// (3.1 7.7.1d).
fn extend_terms(day: &mut Day<'_>, who: usize, natives: Vec<String>, gold: u32) {
    pay(day, who, gold);
    let character = &mut day.state.characters[who];
    for hireling in &mut character.hirelings {
        if natives.contains(&hireling.native) {
            hireling.days_left = hireling.days_left.saturating_add(TERM_OF_HIRE);
        }
    }
    let event = HireEvent::Rehired {
        character: character.name.clone(),
        natives,
        gold,
        days: TERM_OF_HIRE,
    };
    day.emit(day.seen_acting(who), Happening::Hire(event));
}

/// Pay `gold` and take `natives` on for the term of hire; seen by those
/// who can see him ([`Day::seen_acting`]).
pub(super) fn take_on(day: &mut Day<'_>, who: usize, natives: Vec<String>, gold: u32) {
    pay(day, who, gold);
    let character = &mut day.state.characters[who];
    character
        .hirelings
        .extend(natives.iter().map(|native| Hireling {
            native: native.clone(),
            days_left: TERM_OF_HIRE,
        }));
    let event = HireEvent::Hired {
        character: character.name.clone(),
        natives,
        gold,
        days: TERM_OF_HIRE,
    };
    day.emit(day.seen_acting(who), Happening::Hire(event));
}

/// Midnight: one day off every term of hire; expired hirelings leave.
pub fn count_down_hire_terms(day: &mut Day<'_>) {
    for who in 0..day.state.characters.len() {
        let character = &mut day.state.characters[who];
        for hireling in &mut character.hirelings {
            hireling.days_left = hireling.days_left.saturating_sub(1);
        }
        let (ended, kept): (Vec<Hireling>, Vec<Hireling>) = character
            .hirelings
            .drain(..)
            .partition(|h| h.days_left == 0);
        character.hirelings = kept;
        let employer = character.name.clone();
        for hireling in ended {
            day.state.release_leader(&hireling.native);
            let now_at = home_of(day, &hireling.native);
            if let Some(denizen) = day.state.denizens.get_mut(&hireling.native) {
                denizen.at = now_at.clone();
            }
            let event = HireEvent::TermEnded {
                character: employer.clone(),
                native: hireling.native,
                now_at,
            };
            day.emit(day.only(who), Happening::Hire(event));
        }
    }
}

/// Where a native whose term ended goes (see the module ruling): all
/// within his own game (3.1 10.E.7.5.1).
fn home_of(day: &Day<'_>, native: &str) -> Whereabouts {
    let realm = Realm::of_name(native);
    let Some((group, _)) = find_member(&day.data.natives, native) else {
        return day
            .state
            .denizens
            .get(native)
            .map(|d| d.at.clone())
            .unwrap_or(Whereabouts::Dead);
    };
    let with_group = group.members.iter().find_map(|m| {
        let id = realm.mark(&m.name);
        let state = day.state.denizens.get(&id)?;
        let unhired = id != native && day.state.employer_of(&id).is_none();
        (unhired && state.at != Whereabouts::Dead).then(|| state.at.clone())
    });
    if let Some(at) = with_group {
        return at;
    }
    let home = group
        .garrison
        .and_then(|d| day.state.dwellings_of(realm).get(&d));
    if let Some(clearing) = home {
        return Whereabouts::Clearing {
            clearing: clearing.clone(),
        };
    }
    Whereabouts::SetupBox {
        name: realm.mark(&group.name),
    }
}
