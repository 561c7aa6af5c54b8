//! The Trade activity (play summary II.C.6; `tables/meeting.rs`, `tables/commerce.rs`, `data/treasures.toml`):
//! buying one item per phase from an unhired native leader in the clearing
//! through the Meeting table, and selling a belonging to him for its basic
//! price (or on the Commerce table under the optional `commerce` rule).
//!
//! The rules let a Trade phase either sell (any number of belongings) or
//! buy. Ruling: a Trade phase first sells every belonging on the `Sell:`
//! line that he still carries and, if it sold anything, that is the whole
//! phase; a later Trade phase, with nothing left to sell, buys.
//!
//! A native leader sells what his group holds and, when the group is the
//! garrison of a dwelling in the clearing, what the dwelling holds. The
//! first `Buy:` entry on sale here is bid for; a bought item arrives
//! inactive unless a `Take:` line names it with `activate`.
//!
//! A `Buy: boon` entry buys back the level a boon taken free cost him, at
//! the boon's price, on one Meeting roll (3.1 7.6.5e.1); a card naming the
//! group for a Fame reward earns or costs its Fame when it changes hands
//! (7.6.6), and a level under Grudges and Gratitude (10.B.6.3).
//!
//! A visitor on the map (see `visitors`) trades the same way in its
//! clearing: it sells what it holds through the Meeting table (no drinks:
//! it has no group), and buys a belonging at its own price when the
//! treasure names one for it, else at the basic price. Ruling: native leaders are
//! dealt with before visitors in the same clearing; a spell a visitor
//! holds is taught, not sold: a `Buy:` entry naming it is a lesson
//! (`visitor_spells`), tried when no item on the line is for sale here.

use serde::{Deserialize, Serialize};

use super::events::Happening;
use super::meeting::{Cause, Deal, DealStep, move_relationship, negotiate, pay, relationship};
use super::search::wants_active;
use super::visitor_spells::{SpellWanted, learn_from_visitor};
use super::visitors::visitors_in;
use super::{Day, PhaseOutcome, modifiers};
use crate::data::GameData;
use crate::data::base_name;
use crate::data::natives::NativeGroup;
use crate::data::realms::{Realm, printed};
use crate::data::terms::Roll;
use crate::orders::{BoonChoice, DayOrders};
use crate::state::hiring::{members_in, unhired_in};
use crate::state::{Belonging, Item, ItemKind};
use crate::tables::commerce::{CommerceResult, sell as commerce_roll};
use crate::tables::meeting::MeetingUse;
use realmgm_core::suggest::same;

/// What a Trade phase did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TradeEvent {
    Deal(DealStep),
    Bought {
        character: String,
        group: String,
        item: Item,
        gold: u32,
        active: bool,
    },
    Sold {
        character: String,
        group: String,
        item: Item,
        gold: u32,
        /// The Commerce table's rolls that set the price, in words, under
        /// the `commerce` rule (3.1 10.D.2); none at the basic price.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        rolls: Vec<String>,
    },
    /// The card names the group for a Fame reward: selling it to them
    /// earned `fame`, buying it from them cost it (negative; 3.1 7.6.6).
    FameReward {
        character: String,
        group: String,
        card: String,
        fame: i32,
    },
    /// A visitor taught him a spell for `gold` (`visitor_spells`).
    Taught {
        character: String,
        visitor: String,
        spell: String,
        gold: u32,
    },
}

fn wrap(step: DealStep) -> Happening {
    Happening::Trade(TradeEvent::Deal(step))
}

/// The basic price of an item (`data/treasures.toml`): a treasure's price, a
/// weapon's, intact armour's, a horse's. `None` for what is not for sale.
pub fn base_price(data: &GameData, item: &Item) -> Option<u32> {
    let base = base_name(&item.name);
    let named = |name: &str| name == item.name || name == base;
    match item.kind {
        ItemKind::Treasure => data
            .treasure(&item.name)
            .and_then(|t| t.price)
            .map(u32::from),
        ItemKind::Weapon => data
            .weapons
            .iter()
            .find(|w| named(&w.name))
            .map(|w| u32::from(w.price)),
        ItemKind::Armor => data
            .armor
            .iter()
            .find(|a| named(&a.name))
            .map(|a| u32::from(a.price.intact)),
        ItemKind::Horse => data
            .horses
            .iter()
            .find(|h| h.name == item.name)
            .and_then(|h| h.price)
            .map(u32::from),
        ItemKind::Spell => None,
    }
}

/// Someone in the clearing who trades: a native group with its leader
/// there unhired, or a visitor.
struct Trader {
    /// The group's or the visitor's name (its relationship name too).
    name: String,
    /// Members there, hired or not (drinks); 0 for a visitor.
    members_present: u32,
    /// The holders whose items it sells.
    holders: Vec<String>,
    /// A visitor, who never buys spells (3.1 7.6.7e).
    visitor: bool,
}

/// Everyone who trades in the character's clearing: native groups whose
/// leader stands there unhired, then visitors. With two Realms combined
/// each game's group trades apart, its leader selling only what his own
/// card's box and dwelling hold (3.1 10.E.7.7, 7.7.1).
fn traders(day: &Day<'_>, who: usize) -> Vec<Trader> {
    let here = day.state.characters[who].position.clone();
    let groups = Realm::ALL
        .into_iter()
        .flat_map(|realm| day.data.natives.iter().map(move |g| (realm, g)))
        .filter(|(realm, g)| {
            unhired_in(&day.state, *realm, g, &here)
                .iter()
                .any(|m| m.is_leader())
        })
        .map(|(realm, g): (Realm, &NativeGroup)| {
            let mut holders = vec![realm.mark(&g.name)];
            if let Some(home) = g.garrison
                && day.state.dwellings_of(realm).get(&home) == Some(&here)
            {
                holders.push(realm.mark(home.label()));
            }
            Trader {
                name: realm.mark(&g.name),
                members_present: members_in(&day.state, realm, g, &here),
                holders,
                visitor: false,
            }
        });
    let visitors = visitors_in(day, &here).into_iter().map(|v| Trader {
        name: v.clone(),
        members_present: 0,
        holders: vec![v],
        visitor: true,
    });
    // Goblins made Neutral by his own Deal with Goblins trade as a group.
    let goblins = crate::magic::spells::deal_with_goblins::dealing(&day.state, who, &here).map(
        |(name, members)| Trader {
            members_present: count(members.len()),
            holders: vec![name.clone()],
            visitor: false,
            name,
        },
    );
    groups.chain(visitors).chain(goblins).collect()
}

/// What `buyer` pays for `item`: a visitor's own price for the treasures
/// it wants (`visitor_prices` in treasures.toml), else the basic price.
fn offered_price(data: &GameData, buyer: &str, item: &Item) -> u32 {
    // Gold prices are the same in every game (3.1 10.E.7.7.2).
    let visitor_price = (item.kind == ItemKind::Treasure)
        .then(|| data.treasure(&item.name))
        .flatten()
        .and_then(|t| t.visitor_prices.get(&printed(buyer)))
        .map(|&gold| u32::from(gold));
    visitor_price
        .or_else(|| base_price(data, item))
        .unwrap_or(0)
}

/// Sell what the `Sell:` line names and he still carries; else buy the
/// first item of the `Buy:` line that a native leader here sells.
pub fn trade(day: &mut Day<'_>, who: usize, orders: &DayOrders) -> PhaseOutcome {
    let Some(character) = day.state.characters.get(who) else {
        return PhaseOutcome::Lost {
            reason: format!("there is no character number {who} in this game"),
        };
    };
    let here = character.position.clone();
    let to_sell: Vec<String> = orders
        .sell
        .iter()
        .filter(|wanted| {
            character
                .belongings
                .iter()
                .any(|b| same(&b.item.name, wanted))
        })
        .cloned()
        .collect();
    if !to_sell.is_empty() {
        return sell_all(day, who, &to_sell);
    }
    if orders.buy.is_empty() {
        let reason = if orders.sell.is_empty() {
            "a Trade phase needs a 'Buy:' or 'Sell:' line naming what to buy or sell".into()
        } else {
            format!(
                "nothing on the Sell line ({}) is carried, and there is no 'Buy:' line",
                orders.sell.join(", ")
            )
        };
        return PhaseOutcome::Lost { reason };
    }
    let sellers = traders(day, who);
    if let Some(outcome) = buy_back_boon(day, who, orders, &sellers) {
        return outcome;
    }
    let found = orders.buy.iter().find_map(|wanted| {
        sellers.iter().find_map(|seller| {
            seller.holders.iter().find_map(|holder| {
                let items = day.state.holdings.get(holder)?;
                let index = items.iter().position(|i| {
                    i.kind != ItemKind::Spell
                        && (same(&i.name, &wanted.what) || same(base_name(&i.name), &wanted.what))
                })?;
                Some((seller, holder.clone(), index, wanted.max_gold))
            })
        })
    });
    let Some((group, holder, index, max_gold)) = found else {
        let names: Vec<&str> = orders.buy.iter().map(|p| p.what.as_str()).collect();
        let taught = orders.buy.iter().find_map(|wanted| {
            sellers.iter().find_map(|seller| {
                let holds = day.state.holdings.get(&seller.name)?;
                let spell = holds
                    .iter()
                    .find(|i| i.kind == ItemKind::Spell && same(&i.name, &wanted.what))?;
                Some(SpellWanted {
                    visitor: &seller.name,
                    spell: &spell.name,
                    max_gold: wanted.max_gold,
                })
            })
        });
        if let Some(wanted) = taught {
            let (visitor, spell) = (wanted.visitor.to_string(), wanted.spell.to_string());
            let wanted = SpellWanted {
                visitor: &visitor,
                spell: &spell,
                max_gold: wanted.max_gold,
            };
            return learn_from_visitor(day, who, &wanted);
        }
        return PhaseOutcome::Lost {
            reason: format!(
                "no unhired native leader or visitor in {here} sells anything on the Buy line ({})",
                names.join(", ")
            ),
        };
    };
    let item = day.state.holdings[&holder][index].clone();
    let Some(price) = base_price(day.data, &item) else {
        return PhaseOutcome::Lost {
            reason: format!("the {} has no price, so it cannot be bought", item.name),
        };
    };
    let deal = Deal {
        group: &group.name,
        members_present: group.members_present,
        activity: MeetingUse::Trade,
        price,
        max_gold,
        drinks_up_to: orders.drinks_up_to,
        insult: orders.insult,
        challenge: orders.challenge,
        boon: orders.boon,
    };
    if let Some(gold) = negotiate(day, who, &deal, wrap) {
        pay(day, who, gold);
        if let Some(items) = day.state.holdings.get_mut(&holder) {
            items.remove(index);
        }
        let active = wants_active(&orders.take, &item.name);
        let character = &mut day.state.characters[who];
        character.belongings.push(Belonging {
            item: item.clone(),
            active,
        });
        let event = TradeEvent::Bought {
            character: character.name.clone(),
            group: group.name.clone(),
            item: item.clone(),
            gold,
            active,
        };
        day.emit(day.seen_acting(who), Happening::Trade(event));
        reward_card(day, who, &group.name, &item, false);
    }
    PhaseOutcome::Done
}

/// A `Buy: boon` entry: one try to buy back, at the boon's price, the
/// level the oldest boon owed to a group trading here cost (3.1 7.6.5e.1).
/// The try is the Meeting roll: once rolled the debt is settled either
/// way, and a roll that does not buy (No Deal, or a price above the
/// `Buy:` line's cap or the gold carried) leaves the level lost for good.
/// Ruling: the table never asks less than the boon's price (Price x1), so
/// when the cap or the gold carried is below it no roll could buy: none is
/// made and the try waits for a later Trade phase. `None` when no entry
/// asks it or no such group trades here.
fn buy_back_boon(
    day: &mut Day<'_>,
    who: usize,
    orders: &DayOrders,
    sellers: &[Trader],
) -> Option<PhaseOutcome> {
    let wanted = orders.buy.iter().find(|p| same(&p.what, "boon"))?;
    let owner = super::meeting::principal(day, who);
    let index = day.state.characters[owner]
        .boons_owed
        .iter()
        .position(|b| sellers.iter().any(|s| s.name == b.group))?;
    let owed = day.state.characters[owner].boons_owed[index].clone();
    let seller = sellers.iter().find(|s| s.name == owed.group)?;
    if let Some(reason) = cannot_pay_the_least(day, who, wanted.max_gold, &owed) {
        return Some(PhaseOutcome::Lost { reason });
    }
    day.state.characters[owner].boons_owed.remove(index);
    let deal = Deal {
        group: &seller.name,
        members_present: seller.members_present,
        activity: MeetingUse::Trade,
        price: owed.price,
        max_gold: wanted.max_gold,
        drinks_up_to: orders.drinks_up_to,
        insult: orders.insult,
        challenge: orders.challenge,
        boon: BoonChoice::Pay,
    };
    match negotiate(day, who, &deal, wrap) {
        Some(gold) => {
            pay(day, who, gold);
            move_relationship(day, who, &seller.name, 1, Cause::BoonRepaid);
        }
        None => {
            let character = day.state.characters[owner].name.clone();
            let step = DealStep::NoDeal {
                reason: format!(
                    "that roll was the {character}'s one try to buy back the level the boon \
                     cost, so the level is lost for good (3.1 7.6.5e.1)"
                ),
                character,
                group: seller.name.clone(),
            };
            day.emit(day.only(owner), wrap(step));
        }
    }
    Some(PhaseOutcome::Done)
}

/// Why character `who` makes no roll to buy back `owed`, if he makes none:
/// the least the Meeting table asks, the boon's price, is above the cap
/// of his `Buy: boon` entry or the gold he may spend (3.1 7.6.5c).
fn cannot_pay_the_least(
    day: &Day<'_>,
    who: usize,
    cap: Option<u32>,
    owed: &crate::state::BoonOwed,
) -> Option<String> {
    let character = &day.state.characters[who];
    let gold = u32::from(crate::magic::curses::spendable_gold(character));
    let stop = match cap {
        Some(cap) if cap < owed.price => format!("the Buy: line caps the boon at {cap} gold"),
        _ if gold < owed.price => format!("the {} has only {gold} gold", character.name),
        _ => return None,
    };
    Some(format!(
        "{stop}, below its price of {} gold, the least the Meeting table asks: no roll is made, \
         and the one try to buy back the level owed to the {} waits for a later Trade phase \
         (3.1 7.6.5e.1)",
        owed.price, owed.group
    ))
}

/// `card` went between `who` and `group`, sold to them or bought (or
/// taken as a boon) from them: when it names the group for a Fame reward,
/// his principal gains or loses the Fame (3.1 7.6.6) and, under Grudges
/// and Gratitude, a level with them (10.B.6.3). With two Realms combined a
/// card is worth its Fame only to its own game's group (10.E.7.7.2).
pub(super) fn reward_card(day: &mut Day<'_>, who: usize, group: &str, card: &Item, sold: bool) {
    let same_game = Realm::of_name(&card.name) == Realm::of_name(group);
    let Some(treasure) = day
        .data
        .treasure(&card.name)
        .filter(|t| same_game && t.fame_buyer.as_deref() == Some(printed(group).as_str()))
    else {
        return;
    };
    let fame = if sold {
        i32::from(treasure.fame)
    } else {
        -i32::from(treasure.fame)
    };
    let owner = super::meeting::principal(day, who);
    let c = &mut day.state.characters[owner];
    c.fame += fame;
    let event = TradeEvent::FameReward {
        character: c.name.clone(),
        group: group.to_string(),
        card: card.name.clone(),
        fame,
    };
    day.emit(day.seen_acting(who), Happening::Trade(event));
    if crate::rules::grudges_and_gratitude(day.rules) {
        let cause = if sold {
            Cause::SoldRewardCard {
                card: card.name.clone(),
            }
        } else {
            Cause::BoughtRewardCard {
                card: card.name.clone(),
            }
        };
        move_relationship(day, who, group, if sold { 1 } else { -1 }, cause);
    }
}

/// Sell each of `items` in turn. The first fails only when nobody here
/// buys; a later one when it was named twice and is already sold, which
/// ends the selling, as being blocked does.
fn sell_all(day: &mut Day<'_>, who: usize, items: &[String]) -> PhaseOutcome {
    for (index, item) in items.iter().enumerate() {
        if let lost @ PhaseOutcome::Lost { .. } = sell(day, who, item) {
            return if index == 0 { lost } else { PhaseOutcome::Done };
        }
        if day.today.blocked.contains(&who) {
            break;
        }
    }
    PhaseOutcome::Done
}

/// Sell the belonging named `item` to an unhired native leader here: the
/// basic price, or the Commerce table under the `commerce` rule. Under
/// that rule an offer below the price is still taken, and a Demand is met
/// (ruling: the orders cannot refuse).
pub fn sell(day: &mut Day<'_>, who: usize, item: &str) -> PhaseOutcome {
    let Some(character) = day.state.characters.get(who) else {
        return PhaseOutcome::Lost {
            reason: format!("there is no character number {who} in this game"),
        };
    };
    let name = character.name.clone();
    let Some(position) = character
        .belongings
        .iter()
        .position(|b| same(&b.item.name, item))
    else {
        return PhaseOutcome::Lost {
            reason: format!("the {name} carries no '{item}' to sell"),
        };
    };
    if crate::data::natives::is_native_horse(
        &day.data.natives,
        &character.belongings[position].item.name,
    ) {
        return PhaseOutcome::Lost {
            reason: format!(
                "the {item} is the {name}'s own native horse, which never changes hands (3.1 \
                 2.3.3)"
            ),
        };
    }
    let Some(group) = traders(day, who).into_iter().next() else {
        return PhaseOutcome::Lost {
            reason: format!(
                "nobody in {} buys: no unhired native leader or visitor is there",
                character.position
            ),
        };
    };
    let sold = character.belongings[position].item.clone();
    // An item enchanted into colour cannot be sold (3.1 10.C.3.3).
    if let Some(reason) = crate::magic::item_chit::is_colour(&day.state, who, &sold.name) {
        return PhaseOutcome::Lost { reason };
    }
    if let Some(reason) =
        super::dealings::kept_for_its_phase(day, who, &sold.name, "sell it at a later Trade phase")
    {
        return PhaseOutcome::Lost { reason };
    }
    if sold.kind == ItemKind::Spell && group.visitor {
        return PhaseOutcome::Lost {
            reason: format!(
                "the {} buys no spells (3.1 7.6.7e): visitors teach spells, they never buy them",
                group.name
            ),
        };
    }
    let price = offered_price(day.data, &group.name, &sold);
    let mut rolled = Vec::new();
    let gold = if day.rules.is_on("commerce") {
        let mods = modifiers::for_roll(day, who, Roll::Trade);
        let column = relationship(day, who, &group.name);
        let outcome = commerce_roll(day.dice, &format!("commerce/{name}"), column, &mods);
        let observers = day.seen_acting(who);
        let mut lines = Vec::new();
        for roll in &outcome.rolls {
            day.emit(observers.clone(), Happening::Roll(roll.record.clone()));
            lines.push(roll.describe());
        }
        let adjust = match outcome.result {
            CommerceResult::Offer(n) | CommerceResult::Demand(n) => Some(n),
            _ => None,
        };
        let offered = adjust.map(|n| i64::from(price) + i64::from(n));
        match offered {
            Some(gold) if gold >= 0 => {
                rolled = lines;
                u32::try_from(gold).unwrap_or(0)
            }
            _ => {
                let blocked = matches!(
                    outcome.result,
                    CommerceResult::BlockBattle | CommerceResult::Demand(_)
                );
                let step = if blocked {
                    day.today.blocked.insert(who);
                    day.state.characters[who].hidden = false;
                    DealStep::Blocked {
                        character: name,
                        group: group.name.clone(),
                    }
                } else {
                    DealStep::NoDeal {
                        character: name,
                        group: group.name.clone(),
                        reason: format!("{}: they will not buy", lines.join("; ")),
                    }
                };
                day.emit(observers, wrap(step));
                return PhaseOutcome::Done;
            }
        }
    } else {
        price
    };
    let character = &mut day.state.characters[who];
    character.belongings.remove(position);
    character.gold = character
        .gold
        .saturating_add(u16::try_from(gold).unwrap_or(u16::MAX));
    day.state.put_in_box(&group.name, sold.clone());
    let event = TradeEvent::Sold {
        character: day.state.characters[who].name.clone(),
        group: group.name.clone(),
        item: sold.clone(),
        gold,
        rolls: rolled,
    };
    day.emit(day.seen_acting(who), Happening::Trade(event));
    reward_card(day, who, &group.name, &sold, true);
    PhaseOutcome::Done
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
