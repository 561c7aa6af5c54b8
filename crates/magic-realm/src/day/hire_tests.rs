//! Tests of the Hire activity (play summary II.C.7): Rogues one at a time,
//! other groups whole, hire terms; and random sequences of searching,
//! trading and hiring that must keep every item in exactly one place.

use super::PhaseOutcome;
use super::events::{DayEvent, Happening};
use super::hire::{HireEvent, count_down_hire_terms, hire};
use super::search::search;
use super::search_tests::{only_p0, peer};
use super::trade::trade;
use super::trade_tests::at_inn;
use crate::data::terms::Dwelling;
use crate::orders::{DayOrders, Purchase, SearchTable};
use crate::state::MrState;
use crate::test_support::{data, run_on_day as run, test_game as game};
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;

fn hiring(state: &mut MrState, faces: &[u8], what: &str) -> (PhaseOutcome, Vec<DayEvent>) {
    let orders = DayOrders {
        hire: vec![Purchase {
            what: what.into(),
            max_gold: None,
        }],
        ..DayOrders::default()
    };
    run(state, &Rules::default(), &[("meeting", faces)], |day| {
        hire(day, 0, &orders)
    })
}

#[test]
fn rogues_are_hired_one_at_a_time_highest_first() {
    let (mut state, _, _) = at_inn();
    let (outcome, _) = hiring(&mut state, &[2], "Rogue 5");
    assert!(matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("Rogue 7")));
    let (outcome, _) = hiring(&mut state, &[2], "Rogues");
    assert_eq!(outcome, PhaseOutcome::Done);
    let hired = &state.characters[0].hirelings;
    assert_eq!(hired.len(), 1);
    assert_eq!(
        (hired[0].native.as_str(), hired[0].days_left),
        ("Rogue 7", 14)
    );
    assert_eq!(state.characters[0].gold, 97, "wage 1 × 3");
    hiring(&mut state, &[2], "Rogue");
    assert_eq!(state.characters[0].hirelings[1].native, "Rogue 6");
}

#[test]
fn other_groups_are_hired_whole_and_terms_run_out() {
    let mut state = game(&["Amazon"]);
    state.characters[0].position = state.dwellings[&Dwelling::House].clone();
    state.characters[0].gold = 100;
    let (outcome, _) = hiring(&mut state, &[2], "Soldiers");
    assert_eq!(outcome, PhaseOutcome::Done);
    let wages: u32 = data()
        .natives
        .iter()
        .find(|g| g.name == "Soldiers")
        .map(|g| g.members.iter().map(|m| u32::from(m.wage)).sum())
        .unwrap();
    assert_eq!(state.characters[0].hirelings.len(), 4);
    assert_eq!(u32::from(state.characters[0].gold), 100 - 3 * wages);

    for h in &mut state.characters[0].hirelings {
        h.days_left = 2;
    }
    state.characters[0].hirelings[0].days_left = 1;
    let (_, events) = run(&mut state, &Rules::default(), &[], count_down_hire_terms);
    assert_eq!(state.characters[0].hirelings.len(), 3);
    assert!(
        state.characters[0]
            .hirelings
            .iter()
            .all(|h| h.days_left == 1)
    );
    assert!(events.iter().any(
        |e| only_p0(e) && matches!(&e.happening, Happening::Hire(HireEvent::TermEnded { .. }))
    ));
}

fn all_items(state: &MrState) -> Vec<crate::state::Item> {
    let mut items: Vec<_> = state.holdings.values().flatten().cloned().collect();
    for c in &state.characters {
        items.extend(c.belongings.iter().map(|b| b.item.clone()));
    }
    items.sort();
    items
}

#[test]
fn random_search_trade_hire_sequences_keep_every_item_once() {
    let tables = [
        peer(),
        SearchTable::Locate,
        SearchTable::Loot,
        SearchTable::MagicSight,
        SearchTable::ReadingRunes,
    ];
    let wanted = [
        "Rogues", "Soldiers", "Order", "Guard", "Spear", "Shield", "Company",
    ];
    for seed in 0..12u64 {
        let mut state = game(&["Amazon", "Witch King", "Black Knight"]);
        let before = all_items(&state);
        let clearings = state.board.clearings();
        let mut chooser = Dice::new(seed, 1);
        for step in 0..40 {
            let who = chooser.below("who", 3) as usize;
            let pick = |d: &mut Dice, n: usize| d.below("pick", n as u32) as usize;
            match chooser.below("op", 6) {
                0 => {
                    let spot = pick(&mut chooser, clearings.len());
                    state.characters[who].position = clearings[spot].clone();
                }
                1 => {
                    let table = tables[pick(&mut chooser, tables.len())].clone();
                    run(&mut state, &Rules::default(), &[], |day| {
                        search(day, who, &table)
                    });
                }
                2 | 3 => {
                    let orders = DayOrders {
                        buy: vec![Purchase {
                            what: wanted[pick(&mut chooser, wanted.len())].into(),
                            max_gold: Some(pick(&mut chooser, 40) as u32),
                        }],
                        hire: vec![Purchase {
                            what: wanted[pick(&mut chooser, wanted.len())].into(),
                            max_gold: None,
                        }],
                        drinks_up_to: Some(pick(&mut chooser, 10) as u32),
                        ..DayOrders::default()
                    };
                    run(&mut state, &Rules::default(), &[], |day| {
                        trade(day, who, &orders);
                        hire(day, who, &orders)
                    });
                }
                4 => {
                    let dwelling = [
                        Dwelling::Inn,
                        Dwelling::House,
                        Dwelling::Chapel,
                        Dwelling::GuardHouse,
                    ][pick(&mut chooser, 4)];
                    if let Some(at) = state.dwellings.get(&dwelling) {
                        state.characters[who].position = at.clone();
                    }
                }
                _ => {
                    run(&mut state, &Rules::default(), &[], count_down_hire_terms);
                }
            }
            assert_eq!(all_items(&state), before, "seed {seed} step {step}");
            let hired: Vec<&String> = state
                .characters
                .iter()
                .flat_map(|c| c.hirelings.iter().map(|h| &h.native))
                .collect();
            let mut unique = hired.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), hired.len(), "a native hired twice");
        }
    }
}

#[test]
fn drinks_too_dear_for_the_drinks_line_are_told_and_not_bought() {
    let (mut state, _, _) = at_inn();
    let orders = DayOrders {
        hire: vec![Purchase {
            what: "Rogues".into(),
            max_gold: None,
        }],
        drinks_up_to: Some(2),
        ..DayOrders::default()
    };
    let gold = state.characters[0].gold;
    let (_, events) = run(&mut state, &Rules::default(), &[("meeting", &[2])], |day| {
        hire(day, 0, &orders)
    });
    let told: Vec<String> = events
        .iter()
        .filter_map(super::log::line)
        .filter(|line| line.contains("drinks"))
        .collect();
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(
        told[0].trim_start().starts_with("The Amazon buys")
            && told[0].contains("buys no drinks for the Rogues: drinks for the ")
            && told[0].contains("more than the 2 of the Drinks: line."),
        "{told:?}"
    );
    assert_eq!(state.characters[0].gold, gold - 3, "only Rogue 7's wage");
}

/// 3.1 7.7.1d: the employer rehires his own natives in his clearing with
/// the same procedure, and each rehiring adds 14 days to their term.
#[test]
fn rehiring_his_own_natives_adds_a_term() {
    let mut state = game(&["Amazon"]);
    state.characters[0].position = state.dwellings[&Dwelling::House].clone();
    state.characters[0].gold = 100;
    hiring(&mut state, &[2], "Soldiers");
    for h in &mut state.characters[0].hirelings {
        h.days_left = 3;
    }
    let gold = state.characters[0].gold;
    let (outcome, events) = hiring(&mut state, &[2], "Soldiers");
    assert_eq!(outcome, PhaseOutcome::Done, "{events:#?}");
    let hired = &state.characters[0].hirelings;
    assert_eq!(hired.len(), 4);
    assert!(hired.iter().all(|h| h.days_left == 3 + 14), "{hired:?}");
    assert!(state.characters[0].gold < gold, "the rehiring is paid");
    assert!(
        events
            .iter()
            .any(|e| matches!(&e.happening, Happening::Hire(HireEvent::Rehired { .. })))
    );
}

/// 3.1 7.7.1b.1: natives hired free as a boon cost no gold and make the
/// group a level colder until the boon is repaid.
#[test]
fn natives_hired_as_a_boon_cost_a_level() {
    let mut state = game(&["Amazon"]);
    state.characters[0].position = state.dwellings[&Dwelling::House].clone();
    state.characters[0].gold = 100;
    state.characters[0].shift_relationship("Soldiers", 2);
    let orders = DayOrders {
        hire: vec![Purchase {
            what: "Soldiers".into(),
            max_gold: None,
        }],
        boon: crate::orders::BoonChoice::Free,
        ..DayOrders::default()
    };
    let (outcome, _) = run(&mut state, &Rules::default(), &[("meeting", &[1])], |day| {
        hire(day, 0, &orders)
    });
    assert_eq!(outcome, PhaseOutcome::Done);
    let amazon = &state.characters[0];
    assert_eq!((amazon.gold, amazon.hirelings.len()), (100, 4));
    assert_eq!(amazon.relationship_shift("Soldiers"), 1);
    assert_eq!(amazon.boons_owed[0].group, "Soldiers");
}
