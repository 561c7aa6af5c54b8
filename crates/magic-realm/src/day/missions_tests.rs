//! Tests of taking and finishing mission and campaign chits (`missions`).

use std::collections::BTreeMap;

use super::events::{DayEvent, Happening};
use super::meeting::relationship;
use super::missions::{Cost, MissionEvent, at_phase, midnight, on_entering, route_length};
use super::visitors::VisitorEvent;
use super::{Day, resolve_day};
use crate::board::ClearingId;
use crate::data::characters::Relationship;
use crate::data::terms::Dwelling;
use crate::orders::{DayOrders, parse_day_orders};
use crate::report::sheet::sheet;
use crate::state::MrState;
use crate::test_support::{data, game_played_by, script, without_denizens};
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;

/// The Amazon, with 5 notoriety to pay for a mission.
fn game() -> MrState {
    let mut state = without_denizens(game_played_by(&["Amazon"], |i| format!("P{}", i + 1)));
    state.map_chits.values_mut().for_each(Vec::clear);
    state.characters[0].notoriety = 5;
    state
}

fn run<R>(state: &mut MrState, act: impl FnOnce(&mut Day<'_>) -> R) -> (R, Vec<MissionEvent>) {
    let rules = Rules::default();
    let mut dice = Dice::with_script(5, 1, script(&[]));
    let mut day = Day::new(data(), &rules, state.clone(), &mut dice);
    let result = act(&mut day);
    *state = day.state;
    (result, missions(&day.events))
}

fn missions(events: &[DayEvent]) -> Vec<MissionEvent> {
    events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Visitors(VisitorEvent::Mission { what }) => Some(what.clone()),
            _ => None,
        })
        .collect()
}

fn take(state: &mut MrState, names: &[&str]) -> Vec<MissionEvent> {
    let wanted: Vec<String> = names.iter().map(|n| (*n).to_string()).collect();
    run(state, |day| at_phase(day, 0, &wanted)).1
}

/// The chit `chit` lying in the Amazon's clearing.
fn chit_here(state: &mut MrState, chit: &str) -> ClearingId {
    let here = state.characters[0].position.clone();
    state.visitors_on_map.insert(chit.into(), here.clone());
    here
}

// --- Missions ------------------------------------------------------------------

/// 3.1 7.2.4c-e: a mission costs 5 notoriety when taken, pays 2 gold a
/// clearing of the shortest route and gives the notoriety back when
/// delivered, the moment he enters the dwelling's clearing.
#[test]
fn a_mission_is_taken_and_delivered_for_its_reward() {
    let mut state = game();
    let here = chit_here(&mut state, "Escort Party");
    // Without seasons: Chapel first, Guard House second, 2 gold a clearing.
    let chapel = state.dwellings[&Dwelling::Chapel].clone();
    let (to, at) = if chapel == here {
        (
            Dwelling::GuardHouse,
            state.dwellings[&Dwelling::GuardHouse].clone(),
        )
    } else {
        (Dwelling::Chapel, chapel)
    };
    let events = take(&mut state, &["escort party"]);
    let (route, reward) = match &events[..] {
        [
            MissionEvent::MissionTaken {
                to: went,
                route,
                reward,
                last_day,
                ..
            },
        ] => {
            assert_eq!(*went, to);
            assert_eq!(*last_day, state.day + 14);
            (*route, *reward)
        }
        other => panic!("one mission taken: {other:?}"),
    };
    let expected = run(&mut state, |day| route_length(day, &here, &at)).0;
    assert_eq!(route, expected);
    assert_eq!(Some(reward), route.map(|n| 2 * n));
    assert_eq!(state.characters[0].notoriety, 0, "5 notoriety paid");
    assert!(!state.visitors_on_map.contains_key("Escort Party"));
    assert_eq!(state.characters[0].gold_specials.len(), 1);
    // His sheet tells him where to go, for how much, and by when.
    let shown = sheet(
        data(),
        &realmgm_core::game::Rules::default(),
        &state,
        &state.characters[0],
    )
    .missions;
    assert_eq!(
        shown,
        vec![format!(
            "Escort Party to the {} for {reward} gold, last day {}",
            to.label(),
            state.day + 14
        )]
    );

    // Entering the destination delivers it.
    let gold = state.characters[0].gold;
    state.characters[0].position = at.clone();
    let events = run(&mut state, |day| on_entering(day, 0)).1;
    assert!(
        matches!(&events[..], [MissionEvent::Delivered { gold: g, .. }] if *g == reward),
        "{events:?}"
    );
    assert_eq!(state.characters[0].gold, gold + reward);
    assert_eq!(state.characters[0].notoriety, 5, "its cost back");
    assert!(state.characters[0].gold_specials.is_empty());
    assert_eq!(state.visitors_on_map.get("Escort Party"), Some(&at));
}

#[test]
/// 3.1 7.2.4d: a mission not done in time costs its 5 notoriety again.
fn a_mission_not_delivered_in_time_costs_its_notoriety() {
    let mut state = game();
    chit_here(&mut state, "Food and Ale");
    state.characters[0].notoriety = 7;
    take(&mut state, &["Food and Ale"]);
    let taken_on = state.characters[0].gold_specials[0].taken_on;
    // The day before the last: still his.
    let (_, events) = run(&mut state, |day| midnight(day, taken_on + 12));
    assert!(events.is_empty());
    let (_, events) = run(&mut state, |day| midnight(day, taken_on + 13));
    assert!(
        matches!(
            &events[..],
            [MissionEvent::TimeUp {
                penalty: Cost {
                    notoriety: 5,
                    fame: 0
                },
                ..
            }]
        ),
        "{events:?}"
    );
    assert_eq!(state.characters[0].notoriety, 7 - 5 - 5);
    assert!(state.characters[0].gold_specials.is_empty());
    assert_eq!(
        state.visitors_on_map.get("Food and Ale"),
        Some(&state.characters[0].position)
    );
}

#[test]
fn only_a_chit_in_his_clearing_is_taken_and_unknown_names_are_told() {
    let mut state = game();
    let elsewhere = state
        .board
        .clearings()
        .into_iter()
        .find(|c| *c != state.characters[0].position)
        .expect("another clearing");
    state
        .visitors_on_map
        .insert("Escort Party".into(), elsewhere);
    assert!(take(&mut state, &["Escort Party"]).is_empty());
    assert!(state.characters[0].gold_specials.is_empty());
    let events = take(&mut state, &["Escort Partie"]);
    assert!(
        matches!(&events[..], [MissionEvent::NotTaken { reason, .. }] if reason.contains("Escort Party")),
        "{events:?}"
    );
}

#[test]
fn a_dead_characters_chits_drop_where_he_fell() {
    let mut state = game();
    let here = chit_here(&mut state, "Escort Party");
    take(&mut state, &["Escort Party"]);
    state.characters[0].dead = true;
    let today = state.day + 1;
    let (_, events) = run(&mut state, |day| midnight(day, today));
    assert!(matches!(&events[..], [MissionEvent::Dropped { .. }]));
    assert_eq!(state.visitors_on_map.get("Escort Party"), Some(&here));
    assert_eq!(
        state.characters[0].notoriety, 0,
        "the cost paid, no penalty"
    );
}

// --- Campaigns -----------------------------------------------------------------

/// 3.1 7.2.4f-h, d: a campaign costs its notoriety, needs a foe on the
/// map, makes partners two levels warmer and foes Enemy while held, and
/// undone in time costs its notoriety again.
#[test]
fn a_campaign_costs_its_notoriety_and_sets_the_relationships_while_it_lasts() {
    let mut state = game();
    let here = chit_here(&mut state, "Pillage");
    state.characters[0].notoriety = 12;
    let events = take(&mut state, &["Pillage"]);
    assert!(
        matches!(&events[..], [MissionEvent::NotTaken { reason, .. }] if reason.contains("none of its foes")),
        "{events:?}"
    );
    state.denizens.get_mut("Patrol 1").expect("a Patrol").at =
        crate::state::Whereabouts::Clearing { clearing: here };
    state.characters[0].notoriety = 4;
    let events = take(&mut state, &["Pillage"]);
    assert!(
        matches!(&events[..], [MissionEvent::NotTaken { reason, .. }] if reason.contains("10 notoriety")),
        "{events:?}"
    );
    state.characters[0].notoriety = 12;
    let events = take(&mut state, &["Pillage"]);
    assert!(
        matches!(&events[..], [MissionEvent::CampaignTaken { cost, .. }] if cost.notoriety == 10),
        "{events:?}"
    );
    assert_eq!(state.characters[0].notoriety, 2);
    let (seen, _) = run(&mut state, |day| {
        (
            relationship(day, 0, "Bashkars"),
            relationship(day, 0, "Patrol"),
            relationship(day, 0, "Soldiers"),
        )
    });
    // Partners two levels warmer (the Amazon's Unfriendly Bashkars become
    // Friendly), foes Enemy (3.1 7.2.4h).
    assert_eq!(
        seen,
        (
            Relationship::Friendly,
            Relationship::Enemy,
            Relationship::Enemy
        )
    );

    // A second campaign waits for the first to end.
    chit_here(&mut state, "Raid");
    let events = take(&mut state, &["Raid"]);
    assert!(
        matches!(&events[..], [MissionEvent::NotTaken { reason, .. }] if reason.contains("one campaign")),
        "{events:?}"
    );

    // At Midnight of its 14th day it ends undone: its cost again.
    let taken_on = state.characters[0].gold_specials[0].taken_on;
    let (_, events) = run(&mut state, |day| midnight(day, taken_on + 13));
    assert!(
        matches!(&events[..], [MissionEvent::TimeUp { penalty, .. }] if penalty.notoriety == 10),
        "{events:?}"
    );
    assert_eq!(state.characters[0].notoriety, 2 - 10);
    let (after, _) = run(&mut state, |day| relationship(day, 0, "Bashkars"));
    let card = data()
        .characters
        .iter()
        .find(|c| c.name == "Amazon")
        .expect("the Amazon")
        .relationship("Bashkars");
    assert_eq!(after, card);
}

// --- Orders --------------------------------------------------------------------

#[test]
fn the_missions_line_is_read_and_written_back() {
    let orders = parse_day_orders("H\nMissions: Escort Party; Conquer", 1, data())
        .expect("the orders parse");
    assert_eq!(orders.missions, vec!["Escort Party", "Conquer"]);
    assert!(
        orders
            .to_string()
            .contains("Missions: Escort Party; Conquer")
    );
    let none = parse_day_orders("H\nMissions: none", 1, data()).expect("parses");
    assert!(none.missions.is_empty());
    let errors = parse_day_orders("H\nMissions:", 1, data()).expect_err("empty");
    assert!(
        errors[0].message.contains("Missions: Escort Party"),
        "{errors:?}"
    );
}

#[test]
fn a_day_with_a_missions_line_takes_the_chit_at_the_start_of_a_phase() {
    let mut state = game();
    chit_here(&mut state, "Escort Party");
    let orders: BTreeMap<String, DayOrders> = [(
        "P1".to_string(),
        parse_day_orders("H\nMissions: Escort Party", 1, data()).expect("parses"),
    )]
    .into();
    let mut dice = Dice::with_script(3, state.day + 1, script(&[("hide", &[6])]));
    let (after, events) = resolve_day(data(), &Rules::default(), state, &orders, &mut dice)
        .expect("the day resolves");
    assert!(
        missions(&events)
            .iter()
            .any(|e| matches!(e, MissionEvent::MissionTaken { .. })),
        "{events:?}"
    );
    assert_eq!(after.characters[0].gold_specials.len(), 1);
    assert!(after.characters[0].gold_specials[0].deliver_to.is_some());
}

/// 3.1 7.2.4i, d: a campaign whose foes are all dead at once is won at
/// Midnight and its cost (Fame for the Raid, 7.2.4f.5) comes back.
#[test]
fn a_campaign_is_won_when_every_foe_is_dead() {
    let mut state = game();
    let here = chit_here(&mut state, "Raid");
    state.characters[0].fame = 8;
    state.denizens.get_mut("Rogue 1").expect("a Rogue").at =
        crate::state::Whereabouts::Clearing { clearing: here };
    let events = take(&mut state, &["Raid"]);
    assert!(
        matches!(&events[..], [MissionEvent::CampaignTaken { cost, .. }] if cost.fame == 8),
        "{events:?}"
    );
    assert_eq!(state.characters[0].fame, 0);
    let today = state.day + 1;
    let (_, events) = run(&mut state, |day| midnight(day, today));
    assert!(events.is_empty(), "foes still stand: {events:?}");
    for (id, counter) in &mut state.denizens {
        if id.starts_with("Rogue") || id.starts_with("Bashkar") {
            counter.at = crate::state::Whereabouts::Dead;
        }
    }
    let (_, events) = run(&mut state, |day| midnight(day, today));
    assert!(
        matches!(&events[..], [MissionEvent::CampaignWon { refund, .. }] if refund.fame == 8),
        "{events:?}"
    );
    assert_eq!(state.characters[0].fame, 8);
    assert!(state.characters[0].gold_specials.is_empty());
}

/// 3.1 7.2.4e.1: with no route to the dwelling when he takes the mission,
/// the reward is 30 gold.
#[test]
fn a_mission_with_no_route_pays_thirty_gold() {
    let mut state = game();
    chit_here(&mut state, "Food and Ale");
    let inn = state.dwellings[&Dwelling::Inn].clone();
    if inn == state.characters[0].position {
        state.dwellings.remove(&Dwelling::House);
    } else {
        state.dwellings.remove(&Dwelling::Inn);
    }
    let events = take(&mut state, &["Food and Ale"]);
    assert!(
        matches!(
            &events[..],
            [MissionEvent::MissionTaken {
                route: None,
                reward: 30,
                ..
            }]
        ),
        "{events:?}"
    );
}

/// 3.1 7.2.4j: a campaign may be abandoned only while none of its foes is
/// on the map; no cost comes back and none is paid again.
#[test]
fn a_campaign_is_abandoned_only_with_no_foe_on_the_map() {
    let mut state = game();
    let here = chit_here(&mut state, "Raid");
    state.characters[0].fame = 8;
    state.denizens.get_mut("Rogue 1").expect("a Rogue").at = crate::state::Whereabouts::Clearing {
        clearing: here.clone(),
    };
    take(&mut state, &["Raid"]);
    let events = take(&mut state, &["abandon Raid"]);
    assert!(
        matches!(&events[..], [MissionEvent::NotAbandoned { .. }]),
        "{events:?}"
    );
    assert_eq!(state.characters[0].gold_specials.len(), 1);
    state.denizens.get_mut("Rogue 1").expect("a Rogue").at = crate::state::Whereabouts::SetupBox {
        name: "Rogues".into(),
    };
    let events = take(&mut state, &["abandon raid"]);
    assert!(
        matches!(&events[..], [MissionEvent::Abandoned { .. }]),
        "{events:?}"
    );
    assert!(state.characters[0].gold_specials.is_empty());
    assert_eq!(state.characters[0].fame, 0, "no cost back");
    assert_eq!(state.visitors_on_map.get("Raid"), Some(&here));
}

/// 3.1 7.2.4d: a chit still undone when the game ends fails, even with
/// days left.
#[test]
fn the_games_end_fails_an_undone_mission() {
    let mut state = game();
    chit_here(&mut state, "Escort Party");
    take(&mut state, &["Escort Party"]);
    let taken_on = state.characters[0].gold_specials[0].taken_on;
    state.last_day = taken_on + 2;
    let (_, events) = run(&mut state, |day| midnight(day, taken_on + 1));
    assert!(events.is_empty(), "{events:?}");
    let (_, events) = run(&mut state, |day| midnight(day, taken_on + 2));
    assert!(
        matches!(&events[..], [MissionEvent::TimeUp { .. }]),
        "{events:?}"
    );
    assert_eq!(state.characters[0].notoriety, 5 - 5 - 5);
}
