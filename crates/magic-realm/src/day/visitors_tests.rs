//! Tests of row-6 visitors and missions coming to the map, turning over on
//! the card, trading at their own prices and teaching spells.

use super::PhaseOutcome;
use super::events::Happening;
use super::trade::{TradeEvent, base_price, trade};
use super::visitors::{VisitorEvent, end_of_turn, flip_on_card};
use crate::orders::{DayOrders, Purchase, Take};
use crate::state::{ItemKind, MrState, Whereabouts};
use crate::test_support::{
    data, give, item, place_site, quiet_game as game, run_with_prowling_row as run,
};

#[test]
fn a_row_6_visitor_comes_to_its_site_only_on_a_6() {
    let mut state = game(&["Amazon"]);
    let altar = place_site(&mut state, true, "Altar");
    state.characters[0].position = altar.clone();
    state
        .visitor_boxes
        .insert("Altar Meadow".into(), "Scholar".into());
    let (_, events) = run(&mut state, 5, &[], |day| end_of_turn(day, 0));
    assert!(events.is_empty());
    assert!(state.visitors_on_map.is_empty());
    let (_, events) = run(&mut state, 6, &[], |day| end_of_turn(day, 0));
    assert_eq!(state.visitors_on_map.get("Scholar"), Some(&altar));
    assert!(!state.visitor_boxes.contains_key("Altar Meadow"));
    assert!(matches!(
        &events[0].happening,
        Happening::Visitors(VisitorEvent::VisitorArrives { visitor, .. }) if visitor == "Scholar"
    ));
}

#[test]
fn a_mission_comes_to_its_groups_unhired_leader() {
    let mut state = game(&["Amazon"]);
    let here = state.characters[0].position.clone();
    state
        .visitor_boxes
        .insert("Company".into(), "Pillage".into());
    let (_, events) = run(&mut state, 6, &[], |day| end_of_turn(day, 0));
    assert!(events.is_empty(), "the Company's leader is not here");
    let leader = data()
        .natives
        .iter()
        .find(|g| g.name == "Company")
        .and_then(|g| g.members.iter().find(|m| m.is_leader()))
        .expect("the Company has a leader")
        .name
        .clone();
    if let Some(d) = state.denizens.get_mut(&leader) {
        d.at = Whereabouts::Clearing {
            clearing: here.clone(),
        };
    }
    let (_, events) = run(&mut state, 6, &[], |day| end_of_turn(day, 0));
    assert_eq!(state.visitors_on_map.get("Pillage"), Some(&here));
    assert!(matches!(
        &events[0].happening,
        Happening::Visitors(VisitorEvent::MissionArrives { note, .. }) if note.contains("Missions:")
    ));
}

#[test]
fn chits_on_the_card_turn_over_at_regeneration() {
    let mut state = game(&["Amazon"]);
    state.visitor_boxes.clear();
    state
        .visitor_boxes
        .insert("Company".into(), "Scholar".into());
    state.visitor_boxes.insert("Patrol".into(), "Raid".into());
    run(&mut state, 6, &[], flip_on_card);
    assert_eq!(state.visitor_boxes["Company"], "Pillage");
    assert_eq!(state.visitor_boxes["Patrol"], "Crone");
}

fn with_scholar() -> MrState {
    let mut state = game(&["Amazon"]);
    let here = state.characters[0].position.clone();
    state.visitors_on_map.insert("Scholar".into(), here);
    state.characters[0].gold = 100;
    state
}

#[test]
fn a_visitor_buys_at_its_own_price_or_the_basic_one() {
    let mut state = with_scholar();
    give(&mut state, 0, ItemKind::Treasure, "Good Book", false);
    give(&mut state, 0, ItemKind::Treasure, "Lost Keys", false);
    let orders = DayOrders {
        sell: vec!["Good Book".into(), "Lost Keys".into()],
        ..DayOrders::default()
    };
    let (outcome, events) = run(&mut state, 1, &[], |day| trade(day, 0, &orders));
    assert_eq!(outcome, PhaseOutcome::Done);
    let sold: Vec<(String, u32)> = events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Trade(TradeEvent::Sold {
                item, gold, group, ..
            }) => {
                assert_eq!(group, "Scholar");
                Some((item.name.clone(), *gold))
            }
            _ => None,
        })
        .collect();
    let keys = base_price(data(), &item(ItemKind::Treasure, "Lost Keys")).expect("a price");
    assert_eq!(
        sold,
        vec![("Good Book".into(), 50), ("Lost Keys".into(), keys)]
    );
    assert_eq!(u32::from(state.characters[0].gold), 150 + keys);
    assert!(state.holdings["Scholar"].contains(&item(ItemKind::Treasure, "Good Book")));
}

#[test]
fn buying_from_a_visitor_goes_through_the_meeting_table() {
    let mut state = with_scholar();
    let wanted = state.holdings["Scholar"]
        .iter()
        .find(|i| i.kind == ItemKind::Treasure && base_price(data(), i).is_some())
        .cloned()
        .expect("the Scholar holds a priced treasure");
    let orders = DayOrders {
        buy: vec![Purchase {
            what: wanted.name.clone(),
            max_gold: None,
        }],
        take: vec![Take {
            what: wanted.name.clone(),
            activate: true,
        }],
        ..DayOrders::default()
    };
    // Neutral column, 2 → price ×2 (`tables/meeting.rs`).
    let (_, events) = run(&mut state, 1, &[("meeting", &[2, 1])], |day| {
        trade(day, 0, &orders)
    });
    let bought = events.iter().find_map(|e| match &e.happening {
        Happening::Trade(TradeEvent::Bought { item, group, .. }) => {
            Some((item.clone(), group.clone()))
        }
        _ => None,
    });
    assert_eq!(
        bought,
        Some((wanted.clone(), "Scholar".to_string())),
        "{events:?}"
    );
    assert!(!state.holdings["Scholar"].contains(&wanted));
    assert!(
        state.characters[0]
            .belongings
            .iter()
            .any(|b| b.item == wanted && b.active)
    );

    // Away from the visitor nobody sells.
    let mut away = with_scholar();
    away.visitors_on_map.clear();
    let (outcome, _) = run(&mut away, 1, &[], |day| trade(day, 0, &orders));
    assert!(matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("visitor")));
}

#[test]
fn a_visitor_teaches_no_spell_to_who_cannot_learn_it() {
    let mut state = game(&["Amazon"]);
    let here = state.characters[0].position.clone();
    state.visitors_on_map.insert("Shaman".into(), here);
    let spell = state.holdings["Shaman"]
        .iter()
        .find(|i| i.kind == ItemKind::Spell)
        .cloned()
        .expect("the Shaman holds spells");
    let orders = DayOrders {
        buy: vec![Purchase {
            what: spell.name,
            max_gold: None,
        }],
        ..DayOrders::default()
    };
    let (outcome, _) = run(&mut state, 1, &[], |day| trade(day, 0, &orders));
    assert!(
        matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("Shaman cannot teach"))
    );
}

/// 3.1 7.6.7e: a visitor never buys a spell.
#[test]
fn a_visitor_buys_no_spell() {
    let mut state = with_scholar();
    give(&mut state, 0, ItemKind::Spell, "Peace", false);
    let orders = DayOrders {
        sell: vec!["Peace".into()],
        ..DayOrders::default()
    };
    let (outcome, _) = run(&mut state, 1, &[], |day| trade(day, 0, &orders));
    assert!(
        matches!(&outcome, PhaseOutcome::Lost { reason } if reason.contains("buys no spells")),
        "{outcome:?}"
    );
    assert!(
        state.characters[0]
            .belongings
            .iter()
            .any(|b| b.item.name == "Peace")
    );
}
