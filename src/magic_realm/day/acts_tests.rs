//! Search, Trade and Hire on a state from `setup::new_game`, with forced
//! dice: each table result on the state, each Meeting outcome, hiring
//! rules, terms of hire, and random sequences keeping the invariants.

use super::events::{DayEvent, Happening};
use super::hire::{HireEvent, count_down_hire_terms, hire};
use super::search::{SearchEvent, search, search_taking};
use super::trade::{TradeEvent, base_price, trade};
use super::{Day, PhaseOutcome};
use crate::dice::{Dice, DiceScript};
use crate::game::{Observers, Rules};
use crate::magic_realm::board::ClearingId;
use crate::magic_realm::data::terms::Dwelling;
use crate::magic_realm::data::tiles::{ClearingKind, Edge, PathKind};
use crate::magic_realm::magic::events::MagicEvent;
use crate::magic_realm::orders::{DayOrders, Purchase, SearchTable, Take};
use crate::magic_realm::rules::TOGGLES;
use crate::magic_realm::state::{Belonging, Item, ItemKind, MrState, abandoned_pile};
use crate::magic_realm::test_support::{data, game_played_by, place_site};

fn game(characters: &[&str]) -> MrState {
    game_played_by(characters, |i| format!("p{i}"))
}

/// Run `act` on a day whose rolls for each purpose prefix are forced.
fn run<R>(
    state: &mut MrState,
    rules: &Rules,
    forced: &[(&str, &[u8])],
    act: impl FnOnce(&mut Day<'_>) -> R,
) -> (R, Vec<DayEvent>) {
    let mut script = DiceScript::default();
    for (purpose, faces) in forced {
        script
            .force(purpose, faces)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let mut dice = Dice::with_script(5, 1, script);
    let mut day = Day::new(data(), rules, state.clone(), &mut dice);
    let result = act(&mut day);
    *state = day.state;
    (result, day.events)
}

fn searching(
    state: &mut MrState,
    faces: &[u8],
    table: SearchTable,
) -> (PhaseOutcome, Vec<DayEvent>) {
    run(state, &Rules::default(), &[("search", faces)], |day| {
        search(day, 0, &table)
    })
}

fn peer() -> SearchTable {
    SearchTable::Peer {
        tile: None,
        clearing: None,
    }
}

/// A clearing with a route of `kind` leaving it, and the route.
fn clearing_with(state: &MrState, kind: PathKind) -> (ClearingId, (ClearingId, ClearingId)) {
    for c in state.board.clearings() {
        if let Some(link) = state
            .board
            .neighbours(&c)
            .into_iter()
            .find(|l| l.kind == kind)
        {
            let pair = if c <= link.to {
                (c.clone(), link.to)
            } else {
                (link.to, c.clone())
            };
            return (c, pair);
        }
    }
    panic!("no {kind:?} route on the board");
}

fn search_events(events: &[DayEvent]) -> Vec<&SearchEvent> {
    events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Search(s) => Some(s),
            _ => None,
        })
        .collect()
}

fn only_p0(event: &DayEvent) -> bool {
    event.observers == Observers::Players(["p0".to_string()].into())
}

#[test]
fn peer_clues_show_every_map_chit_of_the_tile_to_him_alone() {
    let mut state = game(&["Amazon", "Dwarf"]);
    let tile = state.characters[0].position.tile.clone();
    let (outcome, events) = searching(&mut state, &[5], peer());
    assert_eq!(outcome, PhaseOutcome::Done);
    for chit in &state.map_chits[&tile] {
        assert!(
            state.characters[0]
                .discoveries
                .chits_seen
                .contains(&chit.name)
        );
    }
    assert!(events.iter().all(only_p0), "clues are secret");
    assert!(matches!(events[0].happening, Happening::Roll(_)));
}

#[test]
fn peer_paths_hidden_enemies_choice_and_nothing() {
    let mut state = game(&["Amazon"]);
    let (at, route) = clearing_with(&state, PathKind::Hidden);
    state.characters[0].position = at.clone();
    searching(&mut state, &[3], peer());
    let me = &state.characters[0];
    assert!(me.discoveries.routes.contains(&route));
    assert!(me.found_hidden_enemies);

    let mut state = game(&["Amazon"]);
    state.characters[0].position = at.clone();
    searching(&mut state, &[4], peer());
    assert!(state.characters[0].found_hidden_enemies);
    assert!(state.characters[0].discoveries.routes.is_empty());

    let mut state = game(&["Amazon"]);
    state.characters[0].position = at.clone();
    let (_, events) = searching(&mut state, &[1], peer());
    assert!(state.characters[0].discoveries.routes.contains(&route));
    assert!(
        search_events(&events)
            .iter()
            .any(|e| matches!(e, SearchEvent::Chose { .. }))
    );

    let mut state = game(&["Amazon"]);
    state.characters[0].position = at;
    let before = state.characters[0].clone();
    searching(&mut state, &[6], peer());
    assert_eq!(state.characters[0], before);
}

#[test]
fn peer_from_a_mountain_into_an_adjacent_tile_and_not_from_elsewhere() {
    let mut state = game(&["Amazon"]);
    let board = state.board.clone();
    let (from, target) = board
        .clearings()
        .into_iter()
        .filter(|c| board.clearing(c).map(|k| k.kind) == Some(ClearingKind::Mountain))
        .find_map(|c| {
            let at = board.placement_of(&c.tile)?.at;
            let target = Edge::ALL.iter().find_map(|&e| {
                let next = board.placement_at(at.neighbour(e))?;
                board.clearings().into_iter().find(|t| {
                    t.tile == next.tile
                        && board.clearing(t).map(|k| k.kind) != Some(ClearingKind::Cave)
                })
            })?;
            Some((c, target))
        })
        .expect("a mountain clearing with a neighbour tile");
    let table = SearchTable::Peer {
        tile: Some(
            data()
                .tiles
                .by_code(&target.tile)
                .map(|t| t.name.clone())
                .unwrap(),
        ),
        clearing: Some(target.clearing),
    };
    state.characters[0].position = from;
    let (outcome, _) = searching(&mut state, &[5], table.clone());
    assert_eq!(outcome, PhaseOutcome::Done);
    for chit in &state.map_chits[&target.tile] {
        assert!(
            state.characters[0]
                .discoveries
                .chits_seen
                .contains(&chit.name)
        );
    }
    let normal = board
        .clearings()
        .into_iter()
        .find(|c| {
            board.clearing(c).map(|k| k.kind) == Some(ClearingKind::Normal) && c.tile != target.tile
        })
        .unwrap();
    state.characters[0].position = normal;
    let (outcome, _) = searching(&mut state, &[5], table);
    assert!(matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("mountain")));
}

#[test]
fn locate_finds_passages_clues_and_site_chits() {
    let mut state = game(&["Amazon"]);
    let (at, route) = clearing_with(&state, PathKind::Secret);
    state.characters[0].position = at.clone();
    searching(&mut state, &[3], SearchTable::Locate);
    assert!(state.characters[0].discoveries.routes.contains(&route));
    assert!(state.characters[0].discoveries.chits_seen.is_empty());
    searching(&mut state, &[2], SearchTable::Locate);
    assert!(!state.characters[0].discoveries.chits_seen.is_empty());

    let site_at = place_site(&mut state, false, "Hoard");
    state.characters[0].position = site_at;
    searching(&mut state, &[5], SearchTable::Locate);
    assert!(state.characters[0].discoveries.sites.is_empty());
    searching(&mut state, &[4], SearchTable::Locate);
    assert!(state.characters[0].discoveries.sites.contains("Hoard"));
}

/// Amazon at a discovered Hoard whose pile holds only plain treasures.
fn at_hoard(characters: &[&str]) -> (MrState, ClearingId) {
    let mut state = game(characters);
    let at = place_site(&mut state, false, "Hoard");
    let plain: Vec<String> = data()
        .treasures
        .iter()
        .filter(|t| t.within.is_none())
        .map(|t| t.name.clone())
        .collect();
    if let Some(pile) = state.holdings.get_mut("Hoard") {
        pile.retain(|i| plain.contains(&i.name));
    }
    state.characters[0].position = at.clone();
    state.characters[0].discoveries.sites.insert("Hoard".into());
    (state, at)
}

#[test]
fn loot_takes_the_nth_item_and_nothing_from_a_short_pile() {
    let (mut state, _) = at_hoard(&["Amazon"]);
    let pile = state.holdings["Hoard"].clone();
    assert!(pile.len() >= 2, "the Hoard keeps plain treasures");
    let (outcome, _) = searching(&mut state, &[2], SearchTable::Loot);
    assert_eq!(outcome, PhaseOutcome::Done);
    assert_eq!(state.characters[0].belongings[0].item, pile[1]);
    assert!(!state.characters[0].belongings[0].active);
    assert_eq!(state.holdings["Hoard"].len(), pile.len() - 1);

    state.holdings.get_mut("Hoard").unwrap().truncate(2);
    let (_, events) = searching(&mut state, &[6], SearchTable::Loot);
    assert_eq!(state.holdings["Hoard"].len(), 2);
    assert!(search_events(&events).iter().any(|e| matches!(
        e,
        SearchEvent::FoundNothing {
            from_top: 6,
            pile: 2,
            ..
        }
    )));
}

#[test]
fn loot_needs_a_discovered_site_or_an_abandoned_pile_and_honours_take() {
    let (mut state, at) = at_hoard(&["Amazon"]);
    state.characters[0].discoveries.sites.clear();
    let (outcome, _) = searching(&mut state, &[1], SearchTable::Loot);
    assert!(matches!(outcome, PhaseOutcome::Lost { .. }));

    let item = state.holdings.get_mut("Hoard").unwrap().remove(0);
    state
        .holdings
        .insert(abandoned_pile(&at), vec![item.clone()]);
    let takes = [Take {
        what: item.name.clone(),
        activate: true,
    }];
    let (outcome, _) = run(&mut state, &Rules::default(), &[("search", &[1])], |day| {
        search_taking(day, 0, &SearchTable::Loot, &takes)
    });
    assert_eq!(outcome, PhaseOutcome::Done);
    assert_eq!(state.characters[0].belongings[0].item, item);
    assert!(state.characters[0].belongings[0].active);
    assert!(state.holdings[&abandoned_pile(&at)].is_empty());
}

#[test]
fn those_who_see_the_looter_learn_the_site() {
    let (mut state, at) = at_hoard(&["Amazon", "Dwarf"]);
    state.characters[1].position = at.clone();
    searching(&mut state, &[1], SearchTable::Loot);
    assert!(state.characters[1].discoveries.sites.contains("Hoard"));

    let (mut state, at) = at_hoard(&["Amazon", "Dwarf"]);
    state.characters[1].position = at;
    state.characters[0].hidden = true;
    searching(&mut state, &[1], SearchTable::Loot);
    assert!(!state.characters[1].discoveries.sites.contains("Hoard"));
}

#[test]
fn site_access_vault_needs_keys_pool_fatigues_a_chit() {
    let mut state = game(&["Amazon"]);
    let at = place_site(&mut state, false, "Vault");
    state.characters[0].position = at;
    state.characters[0].discoveries.sites.insert("Vault".into());
    let (outcome, _) = searching(&mut state, &[1], SearchTable::Loot);
    assert!(matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("Lost Keys")));

    let mut state = game(&["Amazon"]);
    let at = place_site(&mut state, false, "Pool");
    state.characters[0].position = at;
    state.characters[0].discoveries.sites.insert("Pool".into());
    let (outcome, _) = searching(&mut state, &[1], SearchTable::Loot);
    assert_eq!(outcome, PhaseOutcome::Done);
    let fatigued = state.characters[0]
        .chits
        .iter()
        .filter(|c| c.condition == crate::magic_realm::state::ChitCondition::Fatigued)
        .count();
    assert_eq!(fatigued, 1);
}

#[test]
fn mouldy_skeleton_puts_its_armour_on_the_pile_and_reports_the_curse() {
    let (mut state, _) = at_hoard(&["Amazon"]);
    let skeleton = crate::magic_realm::state::Item {
        kind: ItemKind::Treasure,
        name: "Mouldy Skeleton".into(),
    };
    for pile in state.holdings.values_mut() {
        pile.retain(|i| *i != skeleton);
    }
    state.holdings.get_mut("Hoard").unwrap().insert(0, skeleton);
    let (_, events) = searching(&mut state, &[1], SearchTable::Loot);
    let mut top: Vec<&str> = state.holdings["Hoard"][..3]
        .iter()
        .map(|i| i.name.as_str())
        .collect();
    top.sort_unstable();
    assert_eq!(top, ["Gold Helmet", "Jade Shield", "Silver Breastplate"]);
    assert!(
        events.iter().any(|e| matches!(&e.happening,
        Happening::Magic(MagicEvent::Cursed { source, .. }) if source.contains("Mouldy Skeleton")))
    );
}

#[test]
fn reading_runes_and_magic_sight_limits() {
    let mut state = game(&["Amazon", "Witch King"]);
    let (outcome, _) = searching(&mut state, &[1], SearchTable::ReadingRunes);
    assert!(
        matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("no runes to read"))
    );
    let (outcome, _) = searching(&mut state, &[1], SearchTable::MagicSight);
    assert!(matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("Phantom Glass")));

    let at = place_site(&mut state, false, "Lair");
    state.characters[1].position = at;
    let (outcome, _) = run(&mut state, &Rules::default(), &[("search", &[5])], |day| {
        search(day, 1, &SearchTable::Locate)
    });
    assert_eq!(outcome, PhaseOutcome::Done);
    assert!(
        state.characters[1].discoveries.sites.contains("Lair"),
        "Magic Sight 5 discovers chits"
    );
}

// ---- Trade ----

/// The Amazon (neutral to the Rogues) at the Inn with 100 gold, and the
/// first horse the Rogues sell, with its price.
fn at_inn() -> (MrState, String, u32) {
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
            crate::magic_realm::day::meeting::DealStep::Blocked { .. }
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

// ---- Hire ----

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

// ---- Random sequences ----

fn all_items(state: &MrState) -> Vec<crate::magic_realm::state::Item> {
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
