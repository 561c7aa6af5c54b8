//! Dealings between characters (play summary II.D.1.a, IV.A; issue 17 §4):
//! characters in the same clearing give, sell or trade weapons, armour,
//! treasures, horses and gold at any price they agree, and tell each other
//! the hidden paths, secret passages and treasure locations they know.
//!
//! Each player writes his side (`orders::dealings`). A deal happens when
//! both sides match (each gives what the other gets) and name the same time:
//! - `at phase N`: at the start of phase N of either party's turn, the
//!   first time the two then stand in the same clearing. If neither turn
//!   brings them together at that phase, it fails at the end of Daylight.
//! - at Midnight (the default), after the Evening, if both live and stand
//!   together; Midnight deals go in seat order.
//!
//! A deal whose sides do not match, or whose goods are no longer there
//! (sold, lost, abandoned, gold spent), does not happen at all, and both
//! players are told exactly why. Telling needs no answering line: the
//! listener loses nothing by it.
//!
//! Who sees what: the two parties see the whole deal. The characters in the
//! clearing who are not hidden see belongings and gold change hands; what
//! was told stays between the two (the leak test in `dealings_tests`).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::Day;
use super::events::Happening;
use crate::game::Observers;
use crate::magic_realm::board::ClearingId;
use crate::magic_realm::data::base_name;
use crate::magic_realm::data::tiles::PathKind;
use crate::magic_realm::orders::DayOrders;
use crate::magic_realm::orders::dealings::{DealLine, Goods, Secret, When, goods_list};
use crate::magic_realm::state::belongings;
use crate::magic_realm::state::{Belonging, Item};
use crate::suggest::same;

/// What a deal did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum DealEvent {
    /// Belongings and gold changed hands (secrets told are a `Told` event).
    Exchanged {
        at: When,
        first: String,
        second: String,
        /// Items and gold the first gave the second, and the other way.
        first_gave: Vec<Goods>,
        second_gave: Vec<Goods>,
    },
    /// One told the other what he knows; `learned` is what was new to the
    /// listener.
    Told {
        at: When,
        teller: String,
        listener: String,
        secrets: Vec<Secret>,
        learned: Vec<String>,
    },
    /// One side of a deal that did not happen, told to its own player.
    Failed {
        at: When,
        character: String,
        deal: String,
        reason: String,
    },
}

impl DealEvent {
    /// The report and GM log line.
    pub fn log_line(&self) -> String {
        let list = goods_list;
        match self {
            DealEvent::Exchanged {
                at,
                first,
                second,
                first_gave,
                second_gave,
            } => {
                let at = title(*at);
                match (first_gave.is_empty(), second_gave.is_empty()) {
                    (false, false) => format!(
                        "  {at}: the {first} gives the {second} {} for {}.",
                        list(first_gave),
                        list(second_gave)
                    ),
                    (false, true) => {
                        format!(
                            "  {at}: the {first} gives the {second} {}.",
                            list(first_gave)
                        )
                    }
                    _ => format!(
                        "  {at}: the {second} gives the {first} {}.",
                        list(second_gave)
                    ),
                }
            }
            DealEvent::Told {
                at,
                teller,
                listener,
                secrets,
                learned,
            } => {
                let what: Vec<String> = secrets.iter().map(ToString::to_string).collect();
                let news = if learned.is_empty() {
                    "nothing he did not know".to_string()
                } else {
                    learned.join(", ")
                };
                format!(
                    "  {}: the {teller} tells the {listener} his {}; the {listener} learns {news}.",
                    title(*at),
                    what.join(" and ")
                )
            }
            DealEvent::Failed {
                at,
                character,
                deal,
                reason,
            } => format!(
                "  {}: the {character}'s deal '{deal}' does not happen: {reason}.",
                title(*at)
            ),
        }
    }
}

fn title(at: When) -> String {
    match at {
        When::Phase(n) => format!("Deal before phase {n}"),
        When::Midnight => "Deal at Midnight".into(),
    }
}

/// Deals settled today, done or failed: (seat, index of his deal line).
pub type Settled = BTreeSet<(usize, usize)>;

/// The start of phase `phase` of the turn of `who`: his deals for that
/// phase with characters now in his clearing.
pub fn at_phase(day: &mut Day<'_>, who: usize, phase: u8, orders: &BTreeMap<String, DayOrders>) {
    settle(day, who, When::Phase(phase), orders);
}

/// The end of Daylight: deals for a phase that never found the two
/// together fail.
pub fn end_of_daylight(day: &mut Day<'_>, orders: &BTreeMap<String, DayOrders>) {
    for who in 0..day.state.characters.len() {
        for (index, deal) in deals_of(day, who, orders) {
            let When::Phase(n) = deal.at else {
                continue;
            };
            if day.today.deals_settled.contains(&(who, index)) {
                continue;
            }
            let reason = format!(
                "the two were not in the same clearing at the start of phase {n} of either's turn"
            );
            fail(day, who, index, &deal, reason);
        }
    }
}

/// Midnight: every living character's Midnight deals, in seat order.
pub fn at_midnight(day: &mut Day<'_>, orders: &BTreeMap<String, DayOrders>) {
    for who in 0..day.state.characters.len() {
        settle(day, who, When::Midnight, orders);
    }
}

/// His deal lines, with their index in his orders.
fn deals_of(
    day: &Day<'_>,
    who: usize,
    orders: &BTreeMap<String, DayOrders>,
) -> Vec<(usize, DealLine)> {
    orders
        .get(&day.state.characters[who].player)
        .map(|o| o.deals.iter().cloned().enumerate().collect())
        .unwrap_or_default()
}

/// Try each of his unsettled deals for `at`.
fn settle(day: &mut Day<'_>, who: usize, at: When, orders: &BTreeMap<String, DayOrders>) {
    for (index, deal) in deals_of(day, who, orders) {
        if deal.at != at || day.today.deals_settled.contains(&(who, index)) {
            continue;
        }
        if day.state.characters[who].dead {
            fail(day, who, index, &deal, "he was killed".into());
            continue;
        }
        let Some(other) = day
            .state
            .characters
            .iter()
            .position(|c| same(&c.name, &deal.with))
        else {
            let reason = format!("no character called '{}' is in the Realm", deal.with);
            fail(day, who, index, &deal, reason);
            continue;
        };
        if other == who {
            fail(day, who, index, &deal, "he cannot deal with himself".into());
            continue;
        }
        let other_name = day.state.characters[other].name.clone();
        if day.state.characters[other].dead {
            fail(
                day,
                who,
                index,
                &deal,
                format!("the {other_name} was killed"),
            );
            continue;
        }
        if day.state.characters[other].position != day.state.characters[who].position {
            // At a phase, the other's turn may still bring them together.
            if at == When::Midnight {
                let reason = format!("the {other_name} is not in his clearing at Midnight");
                fail(day, who, index, &deal, reason);
            }
            continue;
        }
        let answer = deals_of(day, other, orders)
            .into_iter()
            .filter(|(j, d)| {
                !day.today.deals_settled.contains(&(other, *j))
                    && d.at == at
                    && same(&d.with, &day.state.characters[who].name)
            })
            .collect::<Vec<_>>();
        let matching = answer
            .iter()
            .find(|(_, d)| sides_match(&deal.gives, &d.gets) && sides_match(&deal.gets, &d.gives));
        match matching {
            Some((j, theirs)) => {
                let (j, theirs) = (*j, theirs.clone());
                day.today.deals_settled.insert((other, j));
                day.today.deals_settled.insert((who, index));
                carry_out(day, (who, &deal), (other, &theirs), at);
            }
            None if deal.is_telling() => {
                day.today.deals_settled.insert((who, index));
                let empty = DealLine {
                    with: day.state.characters[who].name.clone(),
                    gives: Vec::new(),
                    gets: deal.gives.clone(),
                    at,
                };
                carry_out(day, (who, &deal), (other, &empty), at);
            }
            None => {
                let reason = match answer.first() {
                    Some((_, theirs)) => {
                        format!("the sides do not match: the {other_name} wrote '{theirs}'")
                    }
                    None => format!("the {other_name} wrote no matching line for {at}"),
                };
                fail(day, who, index, &deal, reason.clone());
                if let Some((j, theirs)) = answer.first() {
                    let mine = deal.to_string();
                    let name = day.state.characters[who].name.clone();
                    let reason = format!("the sides do not match: the {name} wrote '{mine}'");
                    fail(day, other, *j, theirs, reason);
                }
            }
        }
    }
}

/// Whether two lists of goods are the same, item names matched as orders
/// name them (`Spear` for `Spear 2`).
fn sides_match(a: &[Goods], b: &[Goods]) -> bool {
    let mut left: Vec<&Goods> = b.iter().collect();
    a.len() == b.len()
        && a.iter().all(|x| {
            let found = left.iter().position(|y| goods_match(x, y));
            found.map(|at| left.remove(at)).is_some()
        })
}

fn goods_match(a: &Goods, b: &Goods) -> bool {
    match (a, b) {
        (Goods::Item(x), Goods::Item(y)) => {
            same(x, y) || same(base_name(x), y) || same(x, base_name(y))
        }
        _ => a == b,
    }
}

/// Settle one side as failed and tell its player why.
fn fail(day: &mut Day<'_>, who: usize, index: usize, deal: &DealLine, reason: String) {
    day.today.deals_settled.insert((who, index));
    tell_failure(day, who, deal, reason);
}

fn tell_failure(day: &mut Day<'_>, who: usize, deal: &DealLine, reason: String) {
    let event = DealEvent::Failed {
        at: deal.at,
        character: day.state.characters[who].name.clone(),
        deal: deal.to_string(),
        reason,
    };
    day.emit(day.only(who), Happening::Dealing(event));
}

/// Both sides match: check the goods are there, then exchange them.
fn carry_out(day: &mut Day<'_>, mine: (usize, &DealLine), theirs: (usize, &DealLine), at: When) {
    let (a, a_deal) = mine;
    let (b, b_deal) = theirs;
    let missing = lacking(day, a, &a_deal.gives).or_else(|| lacking(day, b, &b_deal.gives));
    if let Some(reason) = missing {
        tell_failure(day, a, a_deal, reason.clone());
        if !a_deal.is_telling() {
            tell_failure(day, b, b_deal, reason);
        }
        return;
    }
    let first_gave = hand_over(day, a, b, &a_deal.gives);
    let second_gave = hand_over(day, b, a, &b_deal.gives);
    if !first_gave.is_empty() || !second_gave.is_empty() {
        let event = DealEvent::Exchanged {
            at,
            first: day.state.characters[a].name.clone(),
            second: day.state.characters[b].name.clone(),
            first_gave,
            second_gave,
        };
        let seen = onlookers(day, a, b);
        day.emit(seen, Happening::Dealing(event));
    }
    for (teller, listener, deal) in [(a, b, a_deal), (b, a, b_deal)] {
        let secrets: Vec<Secret> = deal
            .gives
            .iter()
            .filter_map(|g| match g {
                Goods::Secret(s) => Some(*s),
                _ => None,
            })
            .collect();
        if secrets.is_empty() {
            continue;
        }
        let learned = tell(day, teller, listener, &secrets);
        let event = DealEvent::Told {
            at,
            teller: day.state.characters[teller].name.clone(),
            listener: day.state.characters[listener].name.clone(),
            secrets,
            learned,
        };
        let parties = Observers::Players(
            [
                day.state.characters[teller].player.clone(),
                day.state.characters[listener].player.clone(),
            ]
            .into(),
        );
        day.emit(parties, Happening::Dealing(event));
    }
}

/// Why `who` cannot give `goods` now, if he cannot.
fn lacking(day: &Day<'_>, who: usize, goods: &[Goods]) -> Option<String> {
    let c = &day.state.characters[who];
    let gold: u32 = goods
        .iter()
        .map(|g| match g {
            Goods::Gold(n) => *n,
            _ => 0,
        })
        .sum();
    if gold > u32::from(c.gold) {
        return Some(format!(
            "the {} has only {} gold, not {gold}",
            c.name, c.gold
        ));
    }
    let mut taken: Vec<String> = Vec::new();
    for goods in goods {
        let Goods::Item(name) = goods else { continue };
        let carried = std::iter::once(c.weapon.iter().cloned().collect::<Vec<_>>())
            .flatten()
            .chain(c.armor.iter().cloned())
            .chain(c.belongings.iter().map(|b| b.item.name.clone()))
            .find(|item| belongings::names(name, item) && !taken.contains(item));
        match carried {
            Some(item) => taken.push(item),
            None => return Some(format!("the {} no longer carries the {name}", c.name)),
        }
    }
    None
}

/// Move the items and gold of `goods` from `from` to `to`; what moved.
fn hand_over(day: &mut Day<'_>, from: usize, to: usize, goods: &[Goods]) -> Vec<Goods> {
    let mut moved = Vec::new();
    for goods in goods {
        match goods {
            Goods::Gold(n) => {
                let n16 = u16::try_from(*n).unwrap_or(u16::MAX);
                let giver = &mut day.state.characters[from];
                giver.gold = giver.gold.saturating_sub(n16);
                let taker = &mut day.state.characters[to];
                taker.gold = taker.gold.saturating_add(n16);
                moved.push(goods.clone());
            }
            Goods::Item(name) => {
                let Some(item) = belongings::take_out(&mut day.state.characters[from], name) else {
                    continue;
                };
                moved.push(Goods::Item(item.name.clone()));
                receive(day, to, item);
            }
            Goods::Secret(_) => {}
        }
    }
    moved
}

/// A belonging received in a deal comes inactive.
fn receive(day: &mut Day<'_>, to: usize, item: Item) {
    day.state.characters[to].belongings.push(Belonging {
        item,
        active: false,
    });
}

/// The two parties, and the characters in their clearing who are not
/// hidden.
fn onlookers(day: &Day<'_>, a: usize, b: usize) -> Observers {
    let here = &day.state.characters[a].position;
    let mut players: BTreeSet<String> = day
        .state
        .characters
        .iter()
        .filter(|c| &c.position == here && !c.hidden && !c.dead)
        .map(|c| c.player.clone())
        .collect();
    players.insert(day.state.characters[a].player.clone());
    players.insert(day.state.characters[b].player.clone());
    Observers::Players(players)
}

/// The listener learns what the teller knows of `secrets`; the new
/// knowledge, in words.
fn tell(day: &mut Day<'_>, teller: usize, listener: usize, secrets: &[Secret]) -> Vec<String> {
    let known = day.state.characters[teller].discoveries.clone();
    let mut learned = Vec::new();
    for (a, b) in &known.routes {
        let kind = route_kind(day, a, b);
        let wanted = match kind {
            Some(PathKind::Hidden) => secrets.contains(&Secret::Paths),
            Some(PathKind::Secret) => secrets.contains(&Secret::Passages),
            _ => false,
        };
        if wanted
            && day.state.characters[listener]
                .discoveries
                .routes
                .insert((a.clone(), b.clone()))
        {
            let what = if kind == Some(PathKind::Hidden) {
                "the hidden path"
            } else {
                "the secret passage"
            };
            learned.push(format!("{what} {a}-{b}"));
        }
    }
    if secrets.contains(&Secret::Sites) {
        for site in &known.sites {
            if day.state.characters[listener]
                .discoveries
                .sites
                .insert(site.clone())
            {
                learned.push(format!("where the {site} lies"));
            }
        }
    }
    learned
}

/// Whether the route between two clearings is a hidden path or a secret
/// passage.
fn route_kind(day: &Day<'_>, a: &ClearingId, b: &ClearingId) -> Option<PathKind> {
    day.state
        .board
        .neighbours(a)
        .into_iter()
        .find(|l| &l.to == b)
        .map(|l| l.kind)
}
