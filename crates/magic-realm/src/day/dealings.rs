//! Dealings between characters (play summary II.D.1.a, IV.A):
//! characters and hired leaders in the same clearing give, sell or trade
//! weapons, armour, treasures, horses and gold at any price they agree, and
//! tell each other the hidden paths, secret passages and treasure locations
//! they know. A hired leader's side is written by his employer (`... by
//! Soldier HQ`); he deals where he stands, with his employer's gold and
//! knowledge, and carries what he gets (during his own turn, on his
//! stand-in, `day::leader_turn`).
//!
//! Nobody trades while flying or on a roadway, nor while blocked; hidden
//! parties trade without being seen and stay hidden (3.1 7.2.1b, 7.2.1d,
//! 7.12.4b).
//!
//! Discoveries are told only in the clearing of the site, hidden path or
//! secret passage: what the teller knows elsewhere stays his (3.1 4.5.5a).
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
//! was told is learned also by those spying on the teller (3.1 4.5.6b.3,
//! `day::spying`), and by nobody else (the leak test in `dealings_tests`).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::Day;
use super::events::{Happening, PhaseEvent, PhaseResult};
use crate::board::ClearingId;
use crate::data::base_name;
use crate::data::tiles::PathKind;
use crate::orders::DayOrders;
use crate::orders::dealings::{DealLine, Goods, Secret, When, goods_list};
use crate::state::belongings;
use crate::state::{Item, Whereabouts};
use realmgm_core::game::Observers;
use realmgm_core::suggest::same;
use realmgm_core::words::listed;

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
    /// A spy learned what the teller told someone else (3.1 4.5.6b.3).
    Spied {
        at: When,
        teller: String,
        spy: String,
        learned: Vec<String>,
    },
    /// A face-down site chit whose location was told, shown to everyone
    /// and put back face down (3.1 4.5.5d).
    SiteShown {
        at: When,
        teller: String,
        site: String,
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
                    "nothing new".to_string()
                } else {
                    listed(learned)
                };
                // The character data has no pronouns, and "shares" says whose
                // knowledge it is without one.
                format!(
                    "  {}: the {teller} shares {} with the {listener}; the {listener} \
                     learns {news}.",
                    title(*at),
                    listed(&what)
                )
            }
            DealEvent::Spied {
                at,
                teller,
                spy,
                learned,
            } => format!(
                "  {}: the {spy}, spying on what the {teller} tells, learns {}.",
                title(*at),
                listed(learned)
            ),
            DealEvent::SiteShown { at, teller, site } => format!(
                "  {}: the {teller} turns up the {site} chit for all to see, then lays it \
                 face down again.",
                title(*at)
            ),
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
        When::AfterPhase(n) => format!("Deal after phase {n}"),
        When::Midnight => "Deal at Midnight".into(),
    }
}

/// Deals settled today, done or failed: (seat, index of his deal line).
pub type Settled = BTreeSet<(usize, usize)>;

/// One side of a deal as it stands in the Realm: a character, or a hired
/// leader dealing for his employer where he stands (`... by Soldier HQ`).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Party {
    Seat(usize),
    Leader { native: String, employer: usize },
}

/// Where a party's belongings are kept.
enum Holder {
    Seat(usize),
    Record(String),
}

impl Party {
    /// The party a deal line of `who` acts as.
    fn acting(who: usize, deal: &DealLine) -> Party {
        match &deal.by {
            Some(native) => Party::Leader {
                native: native.clone(),
                employer: who,
            },
            None => Party::Seat(who),
        }
    }

    /// The character or hired leader called `name`.
    fn named(day: &Day<'_>, name: &str) -> Option<Party> {
        if let Some(seat) = day.state.characters.iter().position(|c| {
            same(&c.name, name) && super::hired_leaders::stand_in_of(day, &c.name).is_none()
        }) {
            return Some(Party::Seat(seat));
        }
        let native = day.state.denizens.keys().find(|id| same(id, name))?;
        let employer = day.state.employer_of(native)?;
        super::hired_leaders::is_leader(day.data, native).then(|| Party::Leader {
            native: native.clone(),
            employer,
        })
    }

    /// Blocked today: a character, or a hired leader blocked outside or
    /// during his own turn.
    fn blocked(&self, day: &Day<'_>) -> bool {
        match self {
            Party::Seat(s) => day.today.blocked.contains(s),
            Party::Leader { native, .. } => {
                day.today.blocked_leaders.contains(native)
                    || super::hired_leaders::stand_in_of(day, native)
                        .is_some_and(|s| day.today.blocked.contains(&s))
            }
        }
    }

    /// Whose deal lines speak for this party.
    fn seat(&self) -> usize {
        match self {
            Party::Seat(s) => *s,
            Party::Leader { employer, .. } => *employer,
        }
    }

    fn name(&self, day: &Day<'_>) -> String {
        match self {
            Party::Seat(s) => day.state.characters[*s].name.clone(),
            Party::Leader { native, .. } => native.clone(),
        }
    }

    /// The seat whose record holds this party's gold, knowledge and (for a
    /// character, or a leader during his own turn) belongings.
    fn record_seat(&self, day: &Day<'_>) -> usize {
        match self {
            Party::Seat(s) => *s,
            Party::Leader { native, employer } => {
                super::hired_leaders::stand_in_of(day, native).unwrap_or(*employer)
            }
        }
    }

    fn holder(&self, day: &Day<'_>) -> Holder {
        match self {
            Party::Seat(s) => Holder::Seat(*s),
            Party::Leader { native, .. } => match super::hired_leaders::stand_in_of(day, native) {
                Some(s) => Holder::Seat(s),
                None => Holder::Record(native.clone()),
            },
        }
    }

    /// Whether he is hidden now: a hired leader outside his own turn keeps
    /// it in his record.
    fn hidden(&self, day: &Day<'_>) -> bool {
        match self.holder(day) {
            Holder::Seat(s) => day.state.characters[s].hidden,
            Holder::Record(native) => day.state.leaders.get(&native).is_some_and(|r| r.hidden),
        }
    }

    fn position(&self, day: &Day<'_>) -> Option<ClearingId> {
        match self {
            Party::Seat(s) => Some(day.state.characters[*s].position.clone()),
            Party::Leader { native, .. } => match super::hired_leaders::stand_in_of(day, native) {
                Some(s) => Some(day.state.characters[s].position.clone()),
                None => match day.state.denizens.get(native).map(|d| &d.at) {
                    Some(Whereabouts::Clearing { clearing }) => Some(clearing.clone()),
                    _ => None,
                },
            },
        }
    }

    /// Killed, or no longer in his employer's service.
    fn gone(&self, day: &Day<'_>) -> bool {
        match self {
            Party::Seat(s) => day.state.characters[*s].dead,
            Party::Leader { native, employer } => {
                day.state.employer_of(native) != Some(*employer) || self.position(day).is_none()
            }
        }
    }
}

/// The start of phase `phase` of the turn of `who`: his deals for that
/// phase; in a hired leader's turn, the deals made by him or with him.
pub fn at_phase(day: &mut Day<'_>, who: usize, phase: u8, orders: &BTreeMap<String, DayOrders>) {
    // Nobody trades while flying (3.1 7.2.1d): a deal for this phase
    // waits for the other's turn.
    if aloft(day, who) {
        return;
    }
    let at = When::Phase(phase);
    let name = day.state.characters[who].name.clone();
    if super::hired_leaders::stand_in_of(day, &name) == Some(who) {
        if let Some(employer) = day.state.employer_of(&name) {
            settle(day, employer, at, orders, |d| {
                d.by.as_deref().is_some_and(|l| same(l, &name))
            });
        }
        for seat in 0..day.state.characters.len() {
            if seat != who {
                settle(day, seat, at, orders, |d| same(&d.with, &name));
            }
        }
        return;
    }
    settle(day, who, at, orders, |d| d.by.is_none());
}

/// Whether `who` starts this phase in the air: his last phase flew him and
/// he has not landed since (his flying lasts through his Fly phases,
/// `day::fly`).
fn aloft(day: &Day<'_>, who: usize) -> bool {
    let name = &day.state.characters[who].name;
    day.events
        .iter()
        .rev()
        .find_map(|e| match &e.happening {
            Happening::Phase(
                PhaseEvent::Landed { character, .. } | PhaseEvent::TurnStarts { character, .. },
            ) if character == name => Some(false),
            Happening::Phase(PhaseEvent::PhaseDone {
                character, result, ..
            }) if character == name => Some(matches!(result, PhaseResult::Flew { .. })),
            _ => None,
        })
        .unwrap_or(false)
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
        settle(day, who, When::Midnight, orders, |_| true);
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

/// Try each of the unsettled deal lines of `who` for `at` that `which`
/// picks.
fn settle(
    day: &mut Day<'_>,
    who: usize,
    at: When,
    orders: &BTreeMap<String, DayOrders>,
    which: impl Fn(&DealLine) -> bool,
) {
    for (index, deal) in deals_of(day, who, orders) {
        if deal.at != at || day.today.deals_settled.contains(&(who, index)) || !which(&deal) {
            continue;
        }
        let mine = Party::acting(who, &deal);
        if let Party::Leader { native, .. } = &mine
            && Party::named(day, native) != Some(mine.clone())
        {
            let reason = format!("the {native} is not a hired leader of his");
            fail(day, who, index, &deal, reason);
            continue;
        }
        if mine.gone(day) {
            let reason = format!("the {} was killed or is gone", mine.name(day));
            fail(day, who, index, &deal, reason);
            continue;
        }
        let Some(other) = Party::named(day, &deal.with) else {
            let reason = format!(
                "no character or hired leader called '{}' is in the Realm",
                deal.with
            );
            fail(day, who, index, &deal, reason);
            continue;
        };
        if other.seat() == who {
            fail(
                day,
                who,
                index,
                &deal,
                "one cannot deal with oneself".into(),
            );
            continue;
        }
        let other_name = other.name(day);
        if other.gone(day) {
            let reason = format!("the {other_name} was killed or is gone");
            fail(day, who, index, &deal, reason);
            continue;
        }
        // Nobody trades or tells anything while blocked (3.1 7.2.1d).
        if at != When::Midnight
            && let Some(stuck) = [&mine, &other].into_iter().find(|p| p.blocked(day))
        {
            let reason = format!(
                "the {} is blocked today, and nobody trades while blocked",
                stuck.name(day)
            );
            fail(day, who, index, &deal, reason);
            continue;
        }
        // Between clearings nobody trades (3.1 rule 8.3.8d); at a phase,
        // his Move off the roadway may still bring them together.
        if let Some(on_road) = [who, other.seat()]
            .into_iter()
            .find(|&s| day.state.characters[s].between_clearings())
        {
            if at == When::Midnight {
                let reason = format!(
                    "the {} is between clearings, on a roadway or aloft, where nobody trades",
                    day.state.characters[on_road].name
                );
                fail(day, who, index, &deal, reason);
            }
            continue;
        }
        if other.position(day) != mine.position(day) {
            // At a phase, the other's turn may still bring them together.
            if at == When::Midnight {
                let reason = format!("the {other_name} is not in the same clearing at Midnight");
                fail(day, who, index, &deal, reason);
            }
            continue;
        }
        let my_name = mine.name(day);
        let speaks_for_other = |d: &DealLine| match &other {
            Party::Seat(_) => d.by.is_none(),
            Party::Leader { native, .. } => d.by.as_deref().is_some_and(|l| same(l, native)),
        };
        let answer = deals_of(day, other.seat(), orders)
            .into_iter()
            .filter(|(j, d)| {
                !day.today.deals_settled.contains(&(other.seat(), *j))
                    && d.at == at
                    && same(&d.with, &my_name)
                    && speaks_for_other(d)
            })
            .collect::<Vec<_>>();
        let matching = answer
            .iter()
            .find(|(_, d)| sides_match(&deal.gives, &d.gets) && sides_match(&deal.gets, &d.gives));
        match matching {
            Some((j, theirs)) => {
                let (j, theirs) = (*j, theirs.clone());
                day.today.deals_settled.insert((other.seat(), j));
                day.today.deals_settled.insert((who, index));
                carry_out(day, (&mine, &deal), (&other, &theirs), at);
            }
            None if deal.is_telling() => {
                day.today.deals_settled.insert((who, index));
                let empty = DealLine {
                    with: my_name,
                    gives: Vec::new(),
                    gets: deal.gives.clone(),
                    at,
                    by: None,
                };
                carry_out(day, (&mine, &deal), (&other, &empty), at);
            }
            None => {
                let reason = match answer.first() {
                    Some((_, theirs)) => {
                        format!("the sides do not match: the {other_name} wrote '{theirs}'")
                    }
                    None => format!("the {other_name} wrote no matching line for {at}"),
                };
                fail(day, who, index, &deal, reason);
                if let Some((j, theirs)) = answer.first() {
                    let reason = format!("the sides do not match: the {my_name} wrote '{deal}'");
                    fail(day, other.seat(), *j, theirs, reason);
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
fn carry_out(day: &mut Day<'_>, mine: (&Party, &DealLine), theirs: (&Party, &DealLine), at: When) {
    let (a, a_deal) = mine;
    let (b, b_deal) = theirs;
    let missing = lacking(day, a, &a_deal.gives)
        .or_else(|| lacking(day, b, &b_deal.gives))
        .or_else(|| mist_takes(day, a, &b_deal.gives))
        .or_else(|| mist_takes(day, b, &a_deal.gives));
    if let Some(reason) = missing {
        tell_failure(day, a.seat(), a_deal, reason.clone());
        if !a_deal.is_telling() {
            tell_failure(day, b.seat(), b_deal, reason);
        }
        return;
    }
    let first_gave = hand_over(day, a, b, &a_deal.gives);
    let second_gave = hand_over(day, b, a, &b_deal.gives);
    if !first_gave.is_empty() || !second_gave.is_empty() {
        let event = DealEvent::Exchanged {
            at,
            first: a.name(day),
            second: b.name(day),
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
        let (teller_seat, listener_seat) = (teller.record_seat(day), listener.record_seat(day));
        let Some(here) = teller.position(day) else {
            continue;
        };
        let (learned, shown) = tell(day, &here, teller_seat, listener_seat, &secrets);
        // Those spying on the teller learn what he tells (3.1 4.5.6b.3), a
        // hired leader telling outside his own turn too.
        let player = day.state.characters[teller.seat()].player.clone();
        let target = match teller.holder(day) {
            Holder::Seat(s) => Some(&day.state.characters[s]),
            Holder::Record(_) => None,
        };
        let spies = super::spying::spies_on(day, &player, teller.hidden(day), target, &[&here]);
        for spy in spies {
            if spy.learner == listener_seat {
                continue;
            }
            let (learned, _) = tell(day, &here, teller_seat, spy.learner, &secrets);
            if !learned.is_empty() {
                let event = DealEvent::Spied {
                    at,
                    teller: teller.name(day),
                    spy: spy.name(day),
                    learned,
                };
                day.emit(day.only(spy.learner), Happening::Dealing(event));
            }
        }
        // A face-down site chit told is turned up for all to see, then
        // put back face down (3.1 4.5.5d).
        for site in shown {
            for c in &mut day.state.characters {
                c.discoveries.chits_seen.insert(site.clone());
            }
            let event = DealEvent::SiteShown {
                at,
                teller: teller.name(day),
                site,
            };
            day.emit(Observers::Everyone, Happening::Dealing(event));
        }
        let event = DealEvent::Told {
            at,
            teller: teller.name(day),
            listener: listener.name(day),
            secrets,
            learned,
        };
        let parties = Observers::Players(
            [teller.seat(), listener.seat()]
                .map(|s| day.state.characters[s].player.clone())
                .into(),
        );
        day.emit(parties, Happening::Dealing(event));
    }
}

/// The names of the items a party carries.
fn carried(day: &Day<'_>, party: &Party) -> Vec<String> {
    match party.holder(day) {
        Holder::Seat(s) => {
            let c = &day.state.characters[s];
            // A hired leader rides his native horse in his turn, but it is
            // his own and never changes hands (3.1 2.3.3).
            let natives_own =
                |name: &str| crate::data::natives::is_native_horse(&day.data.natives, name);
            c.weapon
                .iter()
                .cloned()
                .chain(c.armor.iter().cloned())
                .chain(
                    c.belongings
                        .iter()
                        .filter(|b| !natives_own(&b.item.name))
                        .map(|b| b.item.name.clone()),
                )
                .collect()
        }
        Holder::Record(native) => day
            .state
            .leaders
            .get(&native)
            .map(|r| r.carries.iter().map(|i| i.name.clone()).collect())
            .unwrap_or_default(),
    }
}

/// Why character `seat` keeps `item` now, if he does: an extra phase he
/// recorded today relies on it until that phase is done (3.1 6.2.4d);
/// `instead` tells him when he may part with it. Ruling: a hired leader's
/// gives, trades and sales are never held back so: 3.1 6.2.5 gives him
/// extra phases only from his own native horse, which never changes hands
/// (2.3.3a-b: the natives' square horses are theirs alone, and [`carried`]
/// never offers one).
pub(super) fn kept_for_its_phase(
    day: &Day<'_>,
    seat: usize,
    item: &str,
    instead: &str,
) -> Option<String> {
    let name = &day.state.characters[seat].name;
    day.today.keeps(seat, item).then(|| {
        format!(
            "the {item} gives the {name} an extra phase recorded today, kept until that phase \
             is done (3.1 6.2.4d); {instead}"
        )
    })
}

/// Why `party` cannot give `goods` now, if he cannot. A hired leader pays
/// with his employer's gold.
fn lacking(day: &Day<'_>, party: &Party, goods: &[Goods]) -> Option<String> {
    let name = party.name(day);
    let purse = day.state.characters[party.record_seat(day)].gold;
    let gold: u32 = goods
        .iter()
        .map(|g| match g {
            Goods::Gold(n) => *n,
            _ => 0,
        })
        .sum();
    if gold > u32::from(purse) {
        return Some(format!("the {name} has only {purse} gold, not {gold}"));
    }
    // Transmorphized, he trades only what he took on as a creature; what
    // he had as the spell took hold is frozen (3.1 4.6.9b.2, 4.6.9b.4).
    if let Holder::Seat(seat) = party.holder(day)
        && let Some(spell) = crate::magic::conflicts::transmorphized(&day.state, &name)
    {
        let me = &day.state.characters[seat];
        let loose = crate::magic::transmorph::gold_as_creature(&day.state, me);
        if gold > u32::from(loose) {
            return Some(format!(
                "the {name}'s gold is frozen while the {spell} spell lasts, but for the {loose} \
                 gained since (3.1 4.6.9b.2), not {gold}"
            ));
        }
    }
    let mut left = carried(day, party);
    for goods in goods {
        let Goods::Item(wanted) = goods else { continue };
        if let Party::Seat(seat) = party
            && let Some(why) = kept_for_its_phase(
                day,
                *seat,
                wanted,
                "give it at a later phase or at Midnight",
            )
        {
            return Some(why);
        }
        match left.iter().position(|item| belongings::names(wanted, item)) {
            Some(at) => {
                let item = left.remove(at);
                if let Holder::Seat(s) = party.holder(day)
                    && let Some(why) = crate::magic::transmorph::frozen(
                        &day.state,
                        &day.state.characters[s],
                        &item,
                    )
                {
                    return Some(why);
                }
                // A hired leader or controlled monster outside his turn
                // keeps his note on his record (3.1 4.6.9b.2, 4.6.9b.4).
                if let Holder::Record(native) = party.holder(day)
                    && let Some(why) =
                        crate::magic::transmorph::frozen_with_leader(&day.state, &native, &item)
                {
                    return Some(why);
                }
                // An item enchanted into colour is not given away (3.1
                // 10.C.3.3).
                if let Holder::Seat(s) = party.holder(day)
                    && let Some(why) = crate::magic::item_chit::is_colour(&day.state, s, &item)
                {
                    return Some(why);
                }
            }
            None => return Some(format!("the {name} does not carry the {wanted}")),
        }
    }
    None
}

/// Why `party`, turned into mist, cannot take `goods` (gold or items),
/// if he is: mist carries nothing that was not transmorphized with it
/// (3.1 4.6.9b.4). A hired leader in mist takes no gold either, though
/// his deals are paid from his employer's purse: the rule lets mist carry
/// no untransmorphized gold, and realmgm rules it so for him too.
fn mist_takes(day: &Day<'_>, party: &Party, goods: &[Goods]) -> Option<String> {
    let name = party.name(day);
    let takes = goods.iter().any(|g| !matches!(g, Goods::Secret(_)));
    (takes && crate::magic::transmorph::is_mist(&day.state, &name)).then(|| {
        format!(
            "the {name} is mist under Melt Into Mist and can take on no gold or belongings \
             (3.1 4.6.9b.4)"
        )
    })
}

/// Move the items and gold of `goods` from `from` to `to`; what moved.
fn hand_over(day: &mut Day<'_>, from: &Party, to: &Party, goods: &[Goods]) -> Vec<Goods> {
    let mut moved = Vec::new();
    for goods in goods {
        match goods {
            Goods::Gold(n) => {
                let n16 = u16::try_from(*n).unwrap_or(u16::MAX);
                let giver = from.record_seat(day);
                let taker = to.record_seat(day);
                let purse = &mut day.state.characters[giver].gold;
                *purse = purse.saturating_sub(n16);
                let purse = &mut day.state.characters[taker].gold;
                *purse = purse.saturating_add(n16);
                moved.push(goods.clone());
            }
            Goods::Item(name) => {
                let Some(item) = take(day, from, name) else {
                    continue;
                };
                moved.push(Goods::Item(item.name.clone()));
                match to.holder(day) {
                    // A belonging received in a deal comes inactive.
                    Holder::Seat(s) => belongings::carry(&mut day.state.characters[s], item),
                    Holder::Record(native) => {
                        day.state
                            .leaders
                            .entry(native)
                            .or_default()
                            .carries
                            .push(item);
                    }
                }
            }
            Goods::Secret(_) => {}
        }
    }
    moved
}

/// Take the item `name` from what `party` carries.
fn take(day: &mut Day<'_>, party: &Party, name: &str) -> Option<Item> {
    match party.holder(day) {
        Holder::Seat(s) => belongings::take_out(&mut day.state.characters[s], name),
        Holder::Record(native) => {
            let carries = &mut day.state.leaders.get_mut(&native)?.carries;
            let at = carries
                .iter()
                .position(|i| belongings::names(name, &i.name))?;
            Some(carries.remove(at))
        }
    }
}

/// The two parties' players, and those of the characters in their clearing
/// who are not hidden.
fn onlookers(day: &Day<'_>, a: &Party, b: &Party) -> Observers {
    let here = a.position(day);
    let mut players: BTreeSet<String> = day
        .state
        .characters
        .iter()
        .filter(|c| Some(&c.position) == here.as_ref() && !c.hidden && !c.dead)
        .map(|c| c.player.clone())
        .collect();
    players.insert(day.state.characters[a.seat()].player.clone());
    players.insert(day.state.characters[b.seat()].player.clone());
    Observers::Players(players)
}

/// The listener learns what the teller knows of `secrets` that lies in the
/// clearing where they meet (3.1 4.5.5a): a hidden path or secret passage
/// with an end there, a treasure site there. A Treasures Within Treasures
/// site goes with the site chit of its clearing the teller knows, told by
/// the same rule (4.5.5c). Returns the new knowledge, in words, and the
/// face-down site chits told, which are shown to all (4.5.5d).
fn tell(
    day: &mut Day<'_>,
    here: &ClearingId,
    teller: usize,
    listener: usize,
    secrets: &[Secret],
) -> (Vec<String>, Vec<String>) {
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
            && (a == here || b == here)
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
    let mut shown = Vec::new();
    if secrets.contains(&Secret::Sites) {
        for site in &known.sites {
            if site_clearing(day, site).as_ref() != Some(here) {
                continue;
            }
            if day.state.characters[listener]
                .discoveries
                .sites
                .insert(site.clone())
            {
                learned.push(format!("where the {site} lies"));
            }
            let face_down = day
                .state
                .map_chits
                .get(&here.tile)
                .is_some_and(|chits| chits.iter().any(|c| &c.name == site && !c.face_up));
            if face_down {
                shown.push(site.clone());
            }
        }
    }
    (learned, shown)
}

/// The clearing a discovered treasure location lies in: a site chit's
/// numbered clearing of its tile, or where a treasure-site card lies.
fn site_clearing(day: &Day<'_>, site: &str) -> Option<ClearingId> {
    if let Some(at) = day.state.treasure_sites.get(site) {
        return Some(at.clone());
    }
    let tile = day.state.tile_of_chit(site)?;
    let number = day.data.chits.site(site)?.clearing;
    Some(ClearingId::new(tile, number))
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
