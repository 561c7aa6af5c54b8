//! Dropped belongings (3.1 10.A.5, Dropping and Losing Belongings). A
//! belonging dropped in plain sight lies in front of the one who dropped it
//! while he stays in the clearing, and in the open in the clearing once he
//! has left it (10.A.5.2); anyone there may pick it up at the times 10.A.5.4–6
//! allow. A lost belonging goes to the clearing's abandoned pile
//! ([`super::abandoned_pile`]), found only by looting, as every abandoned
//! belonging is under the basic rules.

use super::{Item, MrState};
use crate::board::ClearingId;

/// The toggle that lets a character drop a belonging instead of losing it.
pub const TOGGLE: &str = "dropping_belongings";

/// The holder of what `who` dropped in front of himself in `clearing`.
pub fn in_front_of(who: &str, clearing: &ClearingId) -> String {
    format!("Dropped by {who} in {clearing}")
}

/// The holder of dropped belongings lying in the open in `clearing`.
pub fn in_the_open(clearing: &ClearingId) -> String {
    format!("Dropped in {clearing}")
}

/// Whom a dropped-belongings holder lies in front of (none: in the open)
/// and the clearing it is in; `None` for any other holder.
fn read_holder(holder: &str) -> Option<(Option<&str>, &str)> {
    if let Some(clearing) = holder.strip_prefix("Dropped in ") {
        return Some((None, clearing));
    }
    let (who, clearing) = holder.strip_prefix("Dropped by ")?.rsplit_once(" in ")?;
    Some((Some(who), clearing))
}

/// The clearing (as written in holder names) a pile lying on the map is
/// in: the abandoned pile or dropped belongings; `None` for other holders.
pub fn clearing_of_pile(holder: &str) -> Option<&str> {
    holder
        .strip_prefix("Abandoned in ")
        .or_else(|| read_holder(holder).map(|(_, clearing)| clearing))
}

/// A dropped belonging taken up: the item, and whether it lay in front of
/// the one who took it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PickedUp {
    pub item: Item,
    pub in_front: bool,
}

impl MrState {
    /// Every belonging dropped in `clearing`, with whom it lies in front of
    /// (none: in the open).
    pub fn dropped_in(&self, clearing: &ClearingId) -> Vec<(Option<&str>, &Item)> {
        let here = clearing.to_string();
        self.holdings
            .iter()
            .filter_map(|(holder, items)| {
                let (who, at) = read_holder(holder)?;
                (at == here).then_some((who, items))
            })
            .flat_map(|(who, items)| items.iter().map(move |item| (who, item)))
            .collect()
    }

    /// What lies dropped in front of someone who no longer stands in that
    /// clearing (he moved, died or is between clearings) now lies in the
    /// open there (3.1 10.A.5.2).
    pub fn settle_dropped(&mut self) {
        let stale: Vec<(String, String)> = self
            .holdings
            .keys()
            .filter_map(|holder| {
                let (Some(who), at) = read_holder(holder)? else {
                    return None;
                };
                let there = self.characters.iter().any(|c| {
                    c.name == who && !c.dead && c.roadway.is_none() && c.position.to_string() == at
                });
                (!there).then(|| (holder.clone(), at.to_string()))
            })
            .collect();
        for (holder, at) in stale {
            let items = self.holdings.remove(&holder).unwrap_or_default();
            self.holdings
                .entry(format!("Dropped in {at}"))
                .or_default()
                .extend(items);
        }
    }

    /// Take the dropped belonging `name` up in `clearing` for `who`: one in
    /// front of him first, then (unless `in_front_only`) one elsewhere in the
    /// clearing. `None` when no such belonging lies there for him.
    pub fn take_dropped(
        &mut self,
        clearing: &ClearingId,
        who: &str,
        name: &str,
        in_front_only: bool,
    ) -> Option<PickedUp> {
        let mine = in_front_of(who, clearing);
        let here = clearing.to_string();
        let holders: Vec<String> = std::iter::once(mine.clone())
            .chain(
                self.holdings
                    .keys()
                    .filter(|h| **h != mine && read_holder(h).is_some_and(|(_, at)| at == here))
                    .cloned(),
            )
            .take(if in_front_only { 1 } else { usize::MAX })
            .collect();
        for holder in holders {
            let Some(pile) = self.holdings.get_mut(&holder) else {
                continue;
            };
            let Some(at) = pile
                .iter()
                .position(|i| super::belongings::names(name, &i.name))
            else {
                continue;
            };
            let item = pile.remove(at);
            if pile.is_empty() {
                self.holdings.remove(&holder);
            }
            return Some(PickedUp {
                item,
                in_front: holder == mine,
            });
        }
        None
    }

    /// What lies dropped in `clearing` as a combat there holds it: whom
    /// each belonging lies in front of (none: in the open), in the order
    /// [`MrState::lay_dropped`] puts them back.
    pub fn dropped_list(&self, clearing: &ClearingId) -> Vec<(Option<String>, Item)> {
        self.dropped_in(clearing)
            .into_iter()
            .map(|(who, item)| (who.map(str::to_string), item.clone()))
            .collect()
    }

    /// Replace what lies dropped in `clearing` by `lying`, as a combat
    /// there left it: some picked up, some dropped, the rest where it lay
    /// (3.1 10.A.5.2, 10.A.5.5).
    pub fn lay_dropped(&mut self, clearing: &ClearingId, lying: &[(Option<String>, Item)]) {
        let here = clearing.to_string();
        self.holdings
            .retain(|holder, _| read_holder(holder).is_none_or(|(_, at)| at != here));
        for (before, item) in lying {
            let holder = before
                .as_deref()
                .map_or_else(|| in_the_open(clearing), |who| in_front_of(who, clearing));
            self.holdings.entry(holder).or_default().push(item.clone());
        }
    }

    /// Put `item` down in front of `who` in `clearing` (3.1 10.A.5.2).
    pub fn drop_in_front(&mut self, who: &str, clearing: &ClearingId, item: Item) {
        self.holdings
            .entry(in_front_of(who, clearing))
            .or_default()
            .push(item);
    }
}
