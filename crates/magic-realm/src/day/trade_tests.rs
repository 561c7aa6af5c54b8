//! Tests of the Trade activity (play summary II.C.6): buying through the
//! Meeting table with drinks and price limits, Trouble and Opportunity,
//! selling, on forced dice.

use super::PhaseOutcome;
use super::events::{DayEvent, Happening};
use super::trade::{TradeEvent, base_price, trade};
use crate::data::terms::Dwelling;
use crate::orders::{DayOrders, Purchase};
use crate::rules::TOGGLES;
use crate::state::{Belonging, Item, ItemKind, MrState};
use crate::test_support::{data, run_on_day as run, test_game as game};
use realmgm_core::game::Rules;

/// The Amazon (neutral to the Rogues) at the Inn with 100 gold, and the
/// first horse the Rogues sell, with its price.
pub(super) fn at_inn() -> (MrState, String, u32) {
    let mut state = game(&["Amazon"]);
    state.characters[0].position = state.dwellings[&Dwelling::Inn].clone();
    state.characters[0].gold = 100;
    let horse = state.holdings["Rogues"]
        .iter()
        .find(|i| i.kind == ItemKind::Horse)
        .cloned()
        .expect("the Rogues keep horses");
    let price = base_price(data(), &horse).expect("horses have prices");
    (state, horse.name, price)
}

fn buying(what: &str, max_gold: Option<u32>) -> DayOrders {
    DayOrders {
        buy: vec![Purchase {
            what: what.to_string(),
            max_gold,
        }],
        ..DayOrders::default()
    }
}

fn is_blocked(event: &DayEvent) -> bool {
    matches!(
        &event.happening,
        Happening::Trade(TradeEvent::Deal(
            crate::day::meeting::DealStep::Blocked { .. }
        ))
    )
}

fn trading(
    state: &mut MrState,
    rules: &Rules,
    faces: &[&[u8]],
    orders: &DayOrders,
) -> Vec<DayEvent> {
    let forced: Vec<(&str, &[u8])> = faces.iter().map(|f| ("meeting", *f)).collect();
    let (outcome, events) = run(state, rules, &forced, |day| trade(day, 0, orders));
    assert_eq!(outcome, PhaseOutcome::Done);
    events
}

#[test]
fn buying_pays_the_price_times_the_multiplier() {
    let (mut state, horse, price) = at_inn();
    let events = trading(
        &mut state,
        &Rules::default(),
        &[&[2]],
        &buying(&horse, None),
    );
    assert_eq!(u32::from(state.characters[0].gold), 100 - 3 * price);
    assert_eq!(state.characters[0].belongings[0].item.name, horse);
    assert!(state.holdings["Rogues"].iter().all(|i| i.name != horse));
    assert!(events.iter().any(|e| matches!(&e.happening, Happening::Trade(TradeEvent::Bought { gold, .. }) if *gold == 3 * price)));
}

#[test]
fn no_deal_above_the_buy_limit() {
    let (mut state, horse, price) = at_inn();
    trading(
        &mut state,
        &Rules::default(),
        &[&[2]],
        &buying(&horse, Some(3 * price - 1)),
    );
    assert_eq!(state.characters[0].gold, 100);
    assert!(state.characters[0].belongings.is_empty());
}

#[test]
fn trouble_then_block_battle_and_insult() {
    let (mut state, horse, _) = at_inn();
    state.characters[0].hidden = true;
    let events = trading(
        &mut state,
        &Rules::default(),
        &[&[6], &[6]],
        &buying(&horse, None),
    );
    assert!(events.iter().any(is_blocked));
    assert!(!state.characters[0].hidden);

    let (mut state, horse, _) = at_inn();
    let events = trading(
        &mut state,
        &Rules::default(),
        &[&[6], &[4]],
        &buying(&horse, None),
    );
    assert_eq!(state.characters[0].notoriety, -5);
    assert!(!events.iter().any(is_blocked));
    assert!(state.characters[0].belongings.is_empty());
}

#[test]
fn opportunity_with_and_without_the_bimr3_rule() {
    let (mut state, horse, price) = at_inn();
    trading(
        &mut state,
        &Rules::default(),
        &[&[1], &[2]],
        &buying(&horse, None),
    );
    assert_eq!(
        u32::from(state.characters[0].gold),
        100 - 2 * price,
        "friendly ×2"
    );

    let rules = Rules::new(["expanded_meeting_table_opportunities"], TOGGLES).unwrap();
    let (mut state, horse, price) = at_inn();
    let events = trading(&mut state, &rules, &[&[1], &[2]], &buying(&horse, None));
    assert_eq!(
        u32::from(state.characters[0].gold),
        100 - 3 * price,
        "declined: neutral ×3"
    );
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Trade(TradeEvent::Deal(super::meeting::DealStep::Met {
            declined_opportunity: true,
            ..
        }))
    )));
}

#[test]
fn drinks_make_the_group_friendlier_for_one_roll() {
    let (mut state, horse, price) = at_inn();
    let orders = DayOrders {
        drinks_up_to: Some(20),
        ..buying(&horse, None)
    };
    trading(&mut state, &Rules::default(), &[&[2]], &orders);
    // 8 Rogues at the Inn drink 8 gold; friendly row 2 is ×2.
    assert_eq!(u32::from(state.characters[0].gold), 100 - 8 - 2 * price);
}

/// The first treasure worth some gold.
fn priced_treasure() -> Item {
    let treasure = data()
        .treasures
        .iter()
        .find(|t| t.price.is_some_and(|p| p > 0))
        .expect("treasures have prices");
    Item {
        kind: ItemKind::Treasure,
        name: treasure.name.clone(),
    }
}

#[test]
fn a_trade_phase_sells_the_sell_line_at_the_base_price_then_buys_next_time() {
    let (mut state, horse, horse_price) = at_inn();
    let sold = priced_treasure();
    state.characters[0].belongings.push(Belonging {
        item: sold.clone(),
        active: true,
    });
    let price = base_price(data(), &sold).expect("priced");
    let orders = DayOrders {
        sell: vec![sold.name.to_uppercase(), "Crystal Ball".into()],
        ..buying(&horse, None)
    };
    // No Meeting roll is forced: selling at the base price rolls nothing.
    let events = trading(&mut state, &Rules::default(), &[], &orders);
    assert_eq!(u32::from(state.characters[0].gold), 100 + price);
    assert!(
        state.characters[0]
            .belongings
            .iter()
            .all(|b| b.item != sold)
    );
    assert!(state.holdings["Rogues"].contains(&sold));
    assert!(events.iter().any(|e| matches!(&e.happening,
        Happening::Trade(TradeEvent::Sold { group, gold, .. }) if group == "Rogues" && *gold == price)));
    assert!(
        !events
            .iter()
            .any(|e| matches!(&e.happening, Happening::Trade(TradeEvent::Bought { .. }))),
        "a phase that sold does not also buy"
    );
    // Nothing left to sell: the next Trade phase buys.
    trading(&mut state, &Rules::default(), &[&[2]], &orders);
    assert_eq!(
        u32::from(state.characters[0].gold),
        100 + price - 3 * horse_price
    );
    assert!(
        state.characters[0]
            .belongings
            .iter()
            .any(|b| b.item.name == horse)
    );
}

#[test]
fn selling_needs_a_native_leader_and_trading_needs_a_line() {
    let mut state = game(&["Amazon"]);
    let away = state
        .board
        .clearings()
        .into_iter()
        .find(|c| !state.dwellings.values().any(|d| d == c))
        .expect("a clearing without a dwelling");
    state.characters[0].position = away;
    let sold = priced_treasure();
    state.characters[0].belongings.push(Belonging {
        item: sold.clone(),
        active: false,
    });
    let orders = DayOrders {
        sell: vec![sold.name],
        ..DayOrders::default()
    };
    let (outcome, _) = run(&mut state, &Rules::default(), &[], |day| {
        trade(day, 0, &orders)
    });
    assert!(
        matches!(&outcome, PhaseOutcome::Lost { reason } if reason.contains("no unhired native leader")),
        "{outcome:?}"
    );
    let (outcome, _) = run(&mut state, &Rules::default(), &[], |day| {
        trade(day, 0, &DayOrders::default())
    });
    assert!(
        matches!(&outcome, PhaseOutcome::Lost { reason } if reason.contains("'Sell:'")),
        "{outcome:?}"
    );
}

/// An Insult (Trouble, then row 4 of the Unfriendly column) is answered by
/// the `Insult:` line: give up 5 notoriety (the default), or refuse and be
/// blocked.
#[test]
fn an_insult_is_paid_or_refused_as_the_orders_say() {
    use crate::day::meeting::DealStep;
    use crate::orders::Settle;
    let insulted = |answer: Settle| {
        let (mut state, horse, _) = at_inn();
        state.characters[0].notoriety = 12;
        let orders = DayOrders {
            insult: answer,
            ..buying(&horse, None)
        };
        let events = trading(&mut state, &Rules::default(), &[&[6], &[4]], &orders);
        (state.characters[0].notoriety, events)
    };
    let (notoriety, events) = insulted(Settle::Pay);
    assert_eq!(notoriety, 7);
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Trade(TradeEvent::Deal(DealStep::GaveUp { points, .. })) if points == "5 notoriety"
    )));
    assert!(!events.iter().any(is_blocked));
    let (notoriety, events) = insulted(Settle::Fight);
    assert_eq!(notoriety, 12, "he keeps his notoriety");
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Trade(TradeEvent::Deal(DealStep::Refused { .. }))
    )));
}

/// 3.1 7.6.5b: drinks cost a gold for every member of the group in the
/// clearing, hired and unhired.
#[test]
fn drinks_are_bought_for_hired_members_too() {
    let (mut state, horse, price) = at_inn();
    state.characters[0].hirelings.push(crate::state::Hireling {
        native: "Rogue 7".into(),
        days_left: 14,
    });
    let orders = DayOrders {
        drinks_up_to: Some(20),
        ..buying(&horse, None)
    };
    trading(&mut state, &Rules::default(), &[&[2]], &orders);
    // 7 unhired Rogues and her own Rogue 7: 8 gold.
    assert_eq!(u32::from(state.characters[0].gold), 100 - 8 - 2 * price);
}

/// 3.1 Meeting table, Challenge: he cannot pay under the Disgust curse, so
/// the group blocks him as if he refused.
#[test]
fn a_challenge_cannot_be_paid_under_disgust() {
    use crate::day::meeting::DealStep;
    use crate::orders::Settle;
    let challenged = |disgusted: bool| {
        let (mut state, horse, _) = at_inn();
        state.characters[0].fame = 12;
        if disgusted {
            crate::magic::curses::inflict(
                &mut state,
                data(),
                &Rules::default(),
                0,
                crate::tables::magic::CurseKind::Disgust,
                "test",
            );
        }
        let orders = DayOrders {
            challenge: Settle::Pay,
            ..buying(&horse, None)
        };
        // Trouble, then Challenge on the Unfriendly column.
        let events = trading(&mut state, &Rules::default(), &[&[6], &[5]], &orders);
        let refused = events.iter().any(|e| {
            matches!(
                &e.happening,
                Happening::Trade(TradeEvent::Deal(DealStep::Refused { .. }))
            )
        });
        (state.characters[0].fame, refused)
    };
    assert_eq!(challenged(false), (7, false));
    assert_eq!(challenged(true), (12, true));
}

/// 3.1 7.6.4: a sold item goes into the buyer's box by counter size, under
/// the items of its own kind: weapons on top, then armour, horses, cards.
#[test]
fn a_sold_item_goes_under_its_own_kind_by_counter_size() {
    let (mut state, _, _) = at_inn();
    let weapon = |name: &str| Item {
        kind: ItemKind::Weapon,
        name: name.into(),
    };
    let horse = |name: &str| Item {
        kind: ItemKind::Horse,
        name: name.into(),
    };
    let card = priced_treasure();
    state.holdings.insert(
        "Rogues".into(),
        vec![weapon("Mace"), horse("Pony"), card.clone()],
    );
    for item in [horse("Warhorse"), weapon("Axe")] {
        state.characters[0].belongings.push(Belonging {
            item,
            active: false,
        });
    }
    let orders = DayOrders {
        sell: vec!["Warhorse".into(), "Axe".into()],
        ..DayOrders::default()
    };
    trading(&mut state, &Rules::default(), &[], &orders);
    assert_eq!(
        state.holdings["Rogues"],
        vec![
            weapon("Mace"),
            weapon("Axe"),
            horse("Pony"),
            horse("Warhorse"),
            card
        ]
    );
}

/// 3.1 7.6.5e: a Boon taken free costs no gold and makes the group a
/// level colder until repaid; one Trade roll buys the level back at the
/// boon's price (e.1), and a failed roll leaves it lost for good.
#[test]
fn a_boon_taken_free_is_bought_back_once() {
    use crate::orders::BoonChoice;
    let (mut state, horse, price) = at_inn();
    // Two levels won: the Rogues are her Allies, whose row 1 is a Boon.
    state.characters[0].shift_relationship("Rogues", 2);
    let paid = {
        let mut state = state.clone();
        trading(
            &mut state,
            &Rules::default(),
            &[&[1]],
            &buying(&horse, None),
        );
        state.characters[0].gold
    };
    assert_eq!(u32::from(paid), 100 - price, "Boon: pay is Price x1");
    let free = DayOrders {
        boon: BoonChoice::Free,
        ..buying(&horse, None)
    };
    trading(&mut state, &Rules::default(), &[&[1]], &free);
    let amazon = &state.characters[0];
    assert_eq!(amazon.gold, 100);
    assert!(amazon.belongings.iter().any(|b| b.item.name == horse));
    assert_eq!(amazon.relationship_shift("Rogues"), 1);
    assert_eq!(amazon.boons_owed.len(), 1);

    // A failed try (Friendly row 6, No Deal) loses the level for good.
    let mut failed = state.clone();
    trading(
        &mut failed,
        &Rules::default(),
        &[&[6]],
        &buying("boon", None),
    );
    assert!(failed.characters[0].boons_owed.is_empty());
    assert_eq!(failed.characters[0].relationship_shift("Rogues"), 1);
    assert_eq!(failed.characters[0].gold, 100);

    // Friendly row 2 is Price x2: she pays and the level comes back.
    trading(
        &mut state,
        &Rules::default(),
        &[&[2]],
        &buying("boon", None),
    );
    let amazon = &state.characters[0];
    assert!(amazon.boons_owed.is_empty());
    assert_eq!(amazon.relationship_shift("Rogues"), 2);
    assert_eq!(u32::from(amazon.gold), 100 - 2 * price);
}

/// 3.1 Meeting table, Boon: the `Boon:` line chooses to pay Price x1 or
/// take it free; it is read and written back, and a wrong word is told.
#[test]
fn the_boon_line_is_read_and_written_back() {
    use crate::orders::{BoonChoice, parse_day_orders};
    let orders = parse_day_orders("T\nBuy: boon\nBoon: free", 1, data()).expect("parses");
    assert_eq!(orders.boon, BoonChoice::Free);
    assert!(orders.to_string().contains("Boon: free"));
    let default = parse_day_orders("T\nBuy: boon", 1, data()).expect("parses");
    assert_eq!(default.boon, BoonChoice::Pay);
    assert!(!default.to_string().contains("Boon:"));
    let errors = parse_day_orders("T\nBoon: maybe", 1, data()).expect_err("unknown word");
    assert!(errors[0].message.contains("expected pay"), "{errors:?}");
}

/// 3.1 7.2.4h: a campaign's foes are always Enemy to him and take no
/// drinks from him.
#[test]
fn a_campaigns_foes_take_no_drinks() {
    use crate::day::meeting::DealStep;
    let (mut state, horse, _) = at_inn();
    state.characters[0]
        .gold_specials
        .push(crate::state::TakenChit {
            chit: "Raid".into(),
            taken_on: 1,
            deliver_to: None,
        });
    let orders = DayOrders {
        drinks_up_to: Some(20),
        ..buying(&horse, None)
    };
    let events = trading(&mut state, &Rules::default(), &[&[3]], &orders);
    assert_eq!(state.characters[0].gold, 100, "no drinks, and blocked");
    assert!(events.iter().any(|e| matches!(&e.happening,
        Happening::Trade(TradeEvent::Deal(DealStep::NoDrinks { reason, .. })) if reason.contains("foes"))));
    assert!(events.iter().any(is_blocked));
}

/// 3.1 6.2.4d: a treasure an extra phase still to come relies on is not
/// sold; the Trade phase is lost with the reason.
#[test]
fn a_belonging_kept_for_an_extra_phase_is_not_sold_3_1_6_2_4d() {
    let (mut state, _, _) = at_inn();
    let sold = priced_treasure();
    state.characters[0].belongings.push(Belonging {
        item: sold.clone(),
        active: true,
    });
    let orders = DayOrders {
        sell: vec![sold.name.clone()],
        ..DayOrders::default()
    };
    let (outcome, _) = run(&mut state, &Rules::default(), &[], |day| {
        day.today.committed.insert(0, vec![sold.name.clone()]);
        trade(day, 0, &orders)
    });
    assert!(
        matches!(&outcome, PhaseOutcome::Lost { reason } if reason.contains("6.2.4d")),
        "{outcome:?}"
    );
    assert!(
        state.characters[0]
            .belongings
            .iter()
            .any(|b| b.item == sold)
    );
}
