//! Who of a native group can be hired in a clearing as the state stands:
//! the day's Hire phase and the orders' checks ask the same question.
//! With two Realms combined each game's group is a group of its own (3.1
//! 10.E.7.7): `realm` says which game's counters (`Rogue II 3`) are meant.

use crate::board::ClearingId;
use crate::data::natives::{Hire, Native, NativeGroup};
use crate::data::realms::Realm;

use super::{MrState, Whereabouts};

/// The members of `realm`'s `group` standing unhired in `clearing`, in the
/// group's order (leader first as the data lists them).
pub fn unhired_in<'g>(
    state: &MrState,
    realm: Realm,
    group: &'g NativeGroup,
    clearing: &ClearingId,
) -> Vec<&'g Native> {
    group
        .members
        .iter()
        .filter(|m| {
            let id = realm.mark(&m.name);
            state.denizens.get(&id).is_some_and(|d| {
                d.at == Whereabouts::Clearing {
                    clearing: clearing.clone(),
                }
            }) && state.employer_of(&id).is_none()
        })
        .collect()
}

/// How many members of `realm`'s `group` stand in `clearing`, hired or not:
/// what drinks for the group cost there, a gold each (3.1 7.6.5b, 7.7.1b).
pub fn members_in(
    state: &MrState,
    realm: Realm,
    group: &NativeGroup,
    clearing: &ClearingId,
) -> u32 {
    let here = Whereabouts::Clearing {
        clearing: clearing.clone(),
    };
    let count = group
        .members
        .iter()
        .filter(|m| {
            state
                .denizens
                .get(&realm.mark(&m.name))
                .is_some_and(|d| d.at == here)
        })
        .count();
    u32::try_from(count).unwrap_or(u32::MAX)
}

/// Who of `group` is hired next in `clearing`: all unhired members
/// present, or for a one-at-a-time group the highest-numbered one present
/// (the leader only when no other member is left; 3.1 rule 7.7.1 a.1).
pub fn next_to_hire<'g>(
    state: &MrState,
    realm: Realm,
    group: &'g NativeGroup,
    clearing: &ClearingId,
) -> Vec<&'g Native> {
    next_among(group, unhired_in(state, realm, group, clearing))
}

/// Who of `group` is hired next from the members `present` (unhired, in
/// one clearing): all of them, or for a one-at-a-time group the
/// highest-numbered one, the leader only when no other is left.
pub fn next_among<'g>(group: &NativeGroup, present: Vec<&'g Native>) -> Vec<&'g Native> {
    match group.hire {
        Hire::Group => present,
        Hire::Single => {
            let rank = |m: &Native| m.rank.parse::<u8>().ok();
            let highest = present
                .iter()
                .filter(|m| !m.is_leader())
                .max_by_key(|m| rank(m));
            let next = highest.or_else(|| present.iter().find(|m| m.is_leader()));
            next.map(|m| vec![*m]).unwrap_or_default()
        }
    }
}
