//! Tests of the later day rules: restarting at the Inn, bonus moves from
//! horses, row-6 visitors coming to the map and trading, treasure sites
//! searched on their own tables, and what the Flying Carpet carries.

use std::collections::BTreeMap;

use super::events::{DayEvent, Happening, PhaseEvent, PhaseResult};
use super::restart::RestartEvent;
use super::search::search_taking;
use super::trade::{TradeEvent, base_price, trade};
use super::treasure_sites::SiteEvent;
use super::visitors::{VisitorEvent, end_of_turn, flip_on_card};
use super::{Day, PhaseOutcome, resolve_day};
use crate::dice::Dice;
use crate::game::{Rules, Seat};
use crate::magic_realm::board::ClearingId;
use crate::magic_realm::data::terms::Dwelling;
use crate::magic_realm::data::tiles::{ClearingKind, PathKind};
use crate::magic_realm::orders::{DayOrders, Purchase, SearchTable, Take, parse_day_orders};
use crate::magic_realm::setup::{self, SetupInputs};
use crate::magic_realm::state::{
    Belonging, ChitCondition, Item, ItemKind, MrState, Whereabouts, abandoned_pile,
};
use crate::magic_realm::test_support::{
    data, game_played_by, place_site, results, script, without_denizens,
};

/// A game with these characters (players P1, P2...), no denizen and no
/// map chit on the map, so nothing arrives unless a test puts it there.
fn game(characters: &[&str]) -> MrState {
    let mut state = without_denizens(game_played_by(characters, |i| format!("P{}", i + 1)));
    state.map_chits.values_mut().for_each(Vec::clear);
    state
}

fn play(
    state: MrState,
    given: &[(&str, &str)],
    forced: &[(&str, &[u8])],
) -> (MrState, Vec<DayEvent>) {
    let all: BTreeMap<String, DayOrders> = given
        .iter()
        .map(|(p, text)| {
            let orders = parse_day_orders(text, 1, &data().tiles).expect("test orders parse");
            ((*p).to_string(), orders)
        })
        .collect();
    let mut dice = Dice::with_script(3, state.day + 1, script(forced));
    resolve_day(data(), &Rules::default(), state, &all, &mut dice).expect("the day resolves")
}

/// Run `act` on a day with forced rolls and the monster roll `row`.
fn run<R>(
    state: &mut MrState,
    row: u8,
    forced: &[(&str, &[u8])],
    act: impl FnOnce(&mut Day<'_>) -> R,
) -> (R, Vec<DayEvent>) {
    let rules = Rules::default();
    let mut dice = Dice::with_script(5, 1, script(forced));
    let mut day = Day::new(data(), &rules, state.clone(), &mut dice);
    day.today.prowling_row = row;
    let result = act(&mut day);
    *state = day.state;
    (result, day.events)
}

fn item(kind: ItemKind, name: &str) -> Item {
    Item {
        kind,
        name: name.to_string(),
    }
}

fn give(state: &mut MrState, who: usize, kind: ItemKind, name: &str, active: bool) {
    state.characters[who].belongings.push(Belonging {
        item: item(kind, name),
        active,
    });
}

fn move_to(c: &ClearingId) -> String {
    let name = &data().tiles.by_code(&c.tile).expect("tile").name;
    format!("M {name} {}", c.clearing)
}

// --- Restart at the Inn ---------------------------------------------------

#[test]
fn a_dead_character_restarts_at_the_inn_as_new() {
    let mut state = game(&["Amazon"]);
    let fell_in = state.characters[0].position.clone();
    let c = &mut state.characters[0];
    c.dead = true;
    c.gold = 77;
    c.fame = 12;
    c.notoriety = 30;
    c.hidden = true;
    c.chits[0].condition = ChitCondition::Wounded;
    c.discoveries.sites.insert("Hoard".into());
    give(&mut state, 0, ItemKind::Treasure, "Lost Keys", true);
    let (after, events) = play(state, &[], &[]);
    let inn = after.dwellings[&Dwelling::Inn].clone();
    let amazon = &after.characters[0];
    let kind = data()
        .characters
        .iter()
        .find(|c| c.name == "Amazon")
        .expect("Amazon");
    assert!(!amazon.dead);
    assert_eq!(amazon.position, inn);
    assert_eq!(amazon.gold, kind.gold);
    assert_eq!((amazon.fame, amazon.notoriety), (0, 0));
    assert_eq!(amazon.weapon, kind.weapon);
    assert!(amazon.belongings.is_empty());
    assert!(amazon.discoveries.sites.is_empty());
    assert!(
        amazon
            .chits
            .iter()
            .all(|c| c.condition == ChitCondition::Active)
    );
    assert!(
        after.holdings[&abandoned_pile(&fell_in)].contains(&item(ItemKind::Treasure, "Lost Keys"))
    );
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Restart(RestartEvent::Restarted { character, at, .. })
            if character == "Amazon" && *at == inn
    )));
}

#[test]
fn the_living_do_not_restart() {
    let state = game(&["Amazon"]);
    let (after, events) = play(state.clone(), &[], &[]);
    assert_eq!(after.characters[0].position, state.characters[0].position);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e.happening, Happening::Restart(_)))
    );
}

// --- Horses ----------------------------------------------------------------

/// Three clearings a → b → c joined by normal paths, none a cave or a
/// mountain.
fn open_walk(state: &MrState) -> (ClearingId, ClearingId, ClearingId) {
    let board = &state.board;
    let open = |c: &ClearingId| {
        board
            .clearing(c)
            .is_some_and(|k| k.kind != ClearingKind::Cave && k.kind != ClearingKind::Mountain)
    };
    let step = |from: &ClearingId, not: &ClearingId| {
        board
            .neighbours(from)
            .into_iter()
            .find(|l| l.kind == PathKind::Normal && open(&l.to) && &l.to != not)
            .map(|l| l.to)
    };
    board
        .clearings()
        .into_iter()
        .filter(|c| open(c))
        .find_map(|a| {
            let b = step(&a, &a)?;
            let c = step(&b, &a)?;
            Some((a, b, c))
        })
        .expect("an open walk of two steps")
}

#[test]
fn a_pony_doubles_each_move_and_leaves_followers_without_one() {
    let mut state = game(&["Black Knight", "Amazon"]);
    let (a, b, c) = open_walk(&state);
    state.characters[0].position = a.clone();
    state.characters[1].position = a.clone();
    give(&mut state, 0, ItemKind::Horse, "Pony 7", true);
    let line = format!("{}, *{}", move_to(&b), move_to(&c));
    let (after, events) = play(
        state.clone(),
        &[("P1", &line), ("P2", "F Black Knight")],
        &[],
    );
    assert_eq!(after.characters[0].position, c);
    assert_eq!(
        after.characters[1].position, b,
        "left behind at the pony's move"
    );
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Phase(PhaseEvent::FollowersLeft { followers, .. })
            if followers == &["Amazon".to_string()]
    )));

    // A follower on a pony keeps up.
    let mut both = state.clone();
    give(&mut both, 1, ItemKind::Horse, "Pony 6", true);
    let (after, _) = play(both, &[("P1", &line), ("P2", "F Black Knight")], &[]);
    assert_eq!(after.characters[1].position, c);

    // The pony's bonus follows a move only, and an inactive pony gives none.
    let hide_first = format!("H, *{}", move_to(&b));
    let (_, events) = play(state.clone(), &[("P1", &hide_first)], &[("hide", &[6])]);
    assert!(matches!(
        &results(&events, "Black Knight")[1],
        PhaseResult::Lost { .. }
    ));
    let mut idle = state;
    idle.characters[0].belongings[0].active = false;
    let (after, _) = play(idle, &[("P1", &line)], &[]);
    assert_eq!(after.characters[0].position, b);
}

#[test]
fn a_workhorse_gives_one_bonus_move_a_day() {
    let mut state = game(&["Black Knight"]);
    let (a, b, c) = open_walk(&state);
    state.characters[0].position = a.clone();
    let horse = data()
        .horses
        .iter()
        .find(|h| h.kind == crate::magic_realm::data::horses::HorseKind::Horse)
        .expect("a workhorse");
    give(&mut state, 0, ItemKind::Horse, &horse.name, true);
    let line = format!("H, *{}, *{}", move_to(&b), move_to(&c));
    let (after, events) = play(state, &[("P1", &line)], &[("hide", &[6])]);
    assert_eq!(after.characters[0].position, b);
    let phases = results(&events, "Black Knight");
    assert!(
        matches!(&phases[1], PhaseResult::Moved { .. }),
        "{phases:?}"
    );
    assert!(matches!(&phases[2], PhaseResult::Lost { .. }), "{phases:?}");
}

#[test]
fn horses_give_nothing_in_a_cave() {
    let mut state = game(&["Black Knight"]);
    let cave = state
        .board
        .clearings()
        .into_iter()
        .find(|c| {
            state
                .board
                .clearing(c)
                .is_some_and(|k| k.kind == ClearingKind::Cave)
                && !state.board.neighbours(c).is_empty()
        })
        .expect("a cave clearing");
    let next = state.board.neighbours(&cave)[0].to.clone();
    state.characters[0].position = cave;
    let pony = "Pony 7";
    give(&mut state, 0, ItemKind::Horse, pony, true);
    let line = format!("H, *{}", move_to(&next));
    let (_, events) = play(state, &[("P1", &line)], &[("hide", &[6])]);
    let phases = results(&events, "Black Knight");
    assert!(matches!(&phases[1], PhaseResult::Lost { .. }), "{phases:?}");
}

// --- Row-6 visitors ----------------------------------------------------------

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

// --- Trading with visitors -----------------------------------------------------

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
    // Neutral column, 2 → price ×2 (TABLES.md §2).
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

// --- Treasure sites ------------------------------------------------------------

/// The Amazon at a discovered Hoard whose pile is only `card`.
fn hoard_with(card: &str) -> (MrState, ClearingId) {
    let mut state = game(&["Amazon"]);
    let at = place_site(&mut state, true, "Hoard");
    for pile in state.holdings.values_mut() {
        pile.retain(|i| i.name != card);
    }
    state
        .holdings
        .insert("Hoard".into(), vec![item(ItemKind::Treasure, card)]);
    state.characters[0].position = at.clone();
    state.characters[0].discoveries.sites.insert("Hoard".into());
    (state, at)
}

fn loot(state: &mut MrState, faces: &[u8]) -> (PhaseOutcome, Vec<SiteEvent>) {
    let takes = [Take {
        what: "Truesteel Sword".into(),
        activate: true,
    }];
    let (outcome, events) = run(state, 1, &[("search", faces)], |day| {
        search_taking(day, 0, &SearchTable::Loot, &takes)
    });
    let site = events
        .into_iter()
        .filter_map(|e| match e.happening {
            Happening::TreasureSite(s) => Some(s),
            _ => None,
        })
        .collect();
    (outcome, site)
}

#[test]
fn a_site_card_found_lies_in_the_clearing_and_is_searched_on_its_table() {
    let (mut state, at) = hoard_with("Enchanted Meadow");
    let (_, events) = loot(&mut state, &[1]);
    assert!(matches!(&events[0], SiteEvent::Found { site, .. } if site == "Enchanted Meadow"));
    assert_eq!(state.treasure_sites.get("Enchanted Meadow"), Some(&at));
    assert!(state.holdings["Hoard"].is_empty());
    assert!(
        state.characters[0]
            .discoveries
            .sites
            .contains("Enchanted Meadow")
    );
    let contents = state.holdings["Enchanted Meadow"].clone();
    assert!(
        contents.iter().any(|i| i.kind == ItemKind::Horse),
        "{contents:?}"
    );

    // 1: the pony; 1 again: gone.
    let (_, events) = loot(&mut state, &[1]);
    assert!(matches!(&events[1], SiteEvent::Took { item, .. } if item.kind == ItemKind::Horse));
    let (_, events) = loot(&mut state, &[1]);
    assert!(matches!(&events[1], SiteEvent::Gone { .. }), "{events:?}");
    // 2: the Truesteel Sword, activated by the Take line.
    let (_, events) = loot(&mut state, &[2]);
    assert!(
        matches!(&events[1], SiteEvent::Took { item, active: true, .. } if item.name == "Truesteel Sword")
    );
    // 3: a wish, worked by the spell engine (`site_magic`).
    let (_, events) = loot(&mut state, &[3]);
    assert!(
        matches!(&events[1], SiteEvent::MagicWorked { .. }),
        "{events:?}"
    );
    // 5: a curse, rolled on the Curse table.
    assert!(state.characters[0].magic.curses.is_empty());
    let (_, events) = loot(&mut state, &[5]);
    assert_eq!(events.len(), 1, "only the row read: {events:?}");
    assert_eq!(state.characters[0].magic.curses.len(), 1);
    state.characters[0].magic.curses.clear();
    // 4: every chit rested.
    state.characters[0].chits[0].condition = ChitCondition::Wounded;
    state.characters[0].chits[1].condition = ChitCondition::Fatigued;
    let (_, events) = loot(&mut state, &[4]);
    assert!(matches!(&events[1], SiteEvent::Rested { chits, .. } if chits.len() == 2));
    assert!(
        state.characters[0]
            .chits
            .iter()
            .all(|c| c.condition == ChitCondition::Active)
    );
    // 6: nothing.
    let (outcome, events) = loot(&mut state, &[6]);
    assert_eq!(outcome, PhaseOutcome::Done);
    assert_eq!(events.len(), 1, "only the row read: {events:?}");
}

#[test]
fn the_crypt_needs_the_lost_keys_and_pays_a_gold() {
    let (mut state, _) = hoard_with("Crypt of the Knight");
    loot(&mut state, &[1]);
    assert!(state.treasure_sites.contains_key("Crypt of the Knight"));
    let (outcome, _) = loot(&mut state, &[5]);
    assert!(matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("Lost Keys")));
    give(&mut state, 0, ItemKind::Treasure, "Lost Keys", true);
    let gold = state.characters[0].gold;
    let (_, events) = loot(&mut state, &[5]);
    assert!(matches!(
        &events[1],
        SiteEvent::GoldRecorded { gold: 1, .. }
    ));
    assert_eq!(state.characters[0].gold, gold + 1);
    let (_, events) = loot(&mut state, &[2]);
    assert!(matches!(&events[1], SiteEvent::Took { item, .. } if item.kind == ItemKind::Armor));
}

#[test]
fn toadstool_rows_needing_choices_or_magic_apply_or_say_so() {
    let (mut state, _) = hoard_with("Toadstool Circle");
    loot(&mut state, &[1]);
    // 5: Power of the Pit against himself; 6 on it: rust, which the state
    // cannot show yet.
    let forced: &[(&str, &[u8])] = &[("search", &[5]), ("magic", &[6, 6])];
    let (_, events) = run(&mut state, 1, forced, |day| {
        search_taking(day, 0, &SearchTable::Loot, &[])
    });
    assert!(
        events.iter().any(|e| matches!(
            &e.happening,
            Happening::TreasureSite(SiteEvent::MagicWorked { .. })
        )),
        "{events:?}"
    );
    let (_, events) = loot(&mut state, &[6]);
    assert_eq!(
        events.len(),
        1,
        "the curse is rolled, not a site event: {events:?}"
    );
    assert_eq!(state.characters[0].magic.curses.len(), 1);
    // Lifted again, so that Eyemist cannot stop the next searches.
    state.characters[0].magic.curses.clear();
    let (_, events) = loot(&mut state, &[3]);
    assert!(
        matches!(&events[1], SiteEvent::NotApplied { reason, .. } if reason.contains("Teleport:")),
        "{events:?}"
    );
    let (_, events) = loot(&mut state, &[1]);
    assert!(matches!(&events[1], SiteEvent::Took { item, .. } if item.name == "Devil Sword"));
}

#[test]
fn the_site_pile_is_looted_before_the_treasure_site() {
    let (mut state, _) = hoard_with("Enchanted Meadow");
    loot(&mut state, &[1]);
    state
        .holdings
        .insert("Hoard".into(), vec![item(ItemKind::Treasure, "Lost Keys")]);
    let (_, events) = loot(&mut state, &[1]);
    assert!(events.is_empty(), "the Hoard is looted: {events:?}");
    assert!(
        state.characters[0]
            .belongings
            .iter()
            .any(|b| b.item.name == "Lost Keys")
    );
}

// --- The Flying Carpet's load ------------------------------------------------------

#[test]
fn the_carpet_leaves_heavy_items_and_cannot_lift_a_heavy_flyer() {
    let mut state = game(&["Amazon", "Berserker"]);
    let here = state.characters[0].position.clone();
    // Give the Amazon purple magic where she stands and a Great Axe (H).
    let purple = crate::magic_realm::data::terms::Colour::Purple;
    let source = data()
        .treasures
        .iter()
        .find(|t| {
            t.effects.contains(
                &crate::magic_realm::data::treasures::TreasureEffect::ColourSource {
                    colour: purple,
                },
            )
        })
        .expect("a purple source")
        .name
        .clone();
    for who in [0, 1] {
        state.characters[who].position = here.clone();
        give(&mut state, who, ItemKind::Treasure, "Flying Carpet", true);
        give(&mut state, who, ItemKind::Treasure, &source, true);
    }
    give(&mut state, 0, ItemKind::Weapon, "Great Axe", false);
    let line = format!("FL {}", here.tile);
    let (after, events) = play(state, &[("P1", &line), ("P2", &line)], &[]);
    let amazon = results(&events, "Amazon");
    assert!(
        matches!(&amazon[0], PhaseResult::Flew { left_behind, .. } if left_behind == &["Great Axe".to_string()]),
        "{amazon:?}"
    );
    assert!(after.holdings[&abandoned_pile(&here)].contains(&item(ItemKind::Weapon, "Great Axe")));
    let berserker = results(&events, "Berserker");
    assert!(
        matches!(&berserker[0], PhaseResult::Lost { reason } if reason.contains("weighs H")),
        "{berserker:?}"
    );
}

// --- Victory points ------------------------------------------------------------

#[test]
fn day_28_scores_against_the_recorded_requirements() {
    use crate::magic_realm::state::VictoryRequirements;
    let mut state = game(&["Amazon", "Black Knight"]);
    state.day = 27;
    state.characters[0].gold = 65;
    state.characters[0].fame = 25;
    state.victory_requirements.insert(
        "Amazon".into(),
        VictoryRequirements {
            gold: 2,
            fame: 3,
            ..VictoryRequirements::default()
        },
    );
    let (_, events) = play(state, &[], &[]);
    let scores = events
        .iter()
        .find_map(|e| match &e.happening {
            Happening::Midnight(super::events::MidnightEvent::VictoryPoints { scores, .. }) => {
                Some(scores.clone())
            }
            _ => None,
        })
        .expect("day 28 is scored");
    // Gold: 65 − 60 = 5 → 0. Fame: (25 − 30) × 3 = −15 → −2, bonus −6.
    assert_eq!(scores[0].total, -8);
    // No requirements: raw totals (10 gold → 0).
    assert_eq!(scores[1].total, 0);
}

#[test]
fn a_dead_character_scores_minus_100() {
    let mut state = game(&["Amazon"]);
    state.characters[0].dead = true;
    let score = super::victory::score(data(), &state.characters[0], None);
    assert_eq!(score.total, super::victory::DEAD_SCORE);
}

#[test]
fn requirements_for_an_absent_character_are_refused() {
    use crate::magic_realm::state::VictoryRequirements;
    let seats = [Seat {
        player: "P1".into(),
        character: Some("Amazon".into()),
    }];
    let inputs = SetupInputs {
        victory_requirements: [("Wizard".to_string(), VictoryRequirements::default())].into(),
        ..SetupInputs::default()
    };
    let err = setup::new_game(
        data(),
        &seats,
        &Rules::default(),
        &inputs,
        &mut Dice::new(1, 0),
    )
    .unwrap_err();
    assert!(err.to_string().contains("Wizard"), "{err}");
}

// --- The Witch's familiar ----------------------------------------------------------

fn familiar_lines(events: &[DayEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Familiar(super::familiar::FamiliarEvent::PhaseDone { result, .. }) => {
                Some(result.clone())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_familiar_moves_and_peers_on_its_own_unseen() {
    let mut state = game(&["Witch", "Amazon"]);
    let (a, b, c) = open_walk(&state);
    state.characters[0].position = a.clone();
    state.characters[1].position = b.clone();
    let text = format!("H\nFamiliar: {}, {}, S, H", move_to(&b), move_to(&c));
    let (after, events) = play(state, &[("P1", &text)], &[("hide", &[6]), ("search", &[5])]);
    assert_eq!(after.characters[0].position, a, "she stays");
    assert_eq!(after.familiars.get("Witch"), Some(&c));
    let lines = familiar_lines(&events);
    assert!(lines[0].starts_with("moves to"), "{lines:?}");
    assert!(lines[2].contains("peers"), "{lines:?}");
    assert!(lines[3].contains("cannot do H"), "{lines:?}");
    // Peer 5 is Clues: she sees the chits of the familiar's tile.
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Search(super::search::SearchEvent::SawChits { character, tile, .. })
            if character == "Witch" && *tile == c.tile
    )));
    // Only her player hears of it; the Amazon standing in b sees nothing.
    for e in events
        .iter()
        .filter(|e| matches!(e.happening, Happening::Familiar(_)))
    {
        assert_eq!(
            e.observers,
            crate::game::Observers::Players(["P1".to_string()].into())
        );
    }
    assert!(
        !events
            .iter()
            .any(|e| matches!(&e.happening, Happening::Phase(PhaseEvent::Blocked { .. })))
    );
}

#[test]
fn the_familiar_follows_and_only_the_witch_has_one() {
    let mut state = game(&["Witch", "Swordsman"]);
    let (a, b, _) = open_walk(&state);
    state.characters[0].position = a.clone();
    state.characters[1].position = a.clone();
    let text = "H\nFamiliar: F Swordsman".to_string();
    let walk = format!("{}\nTurn: last", move_to(&b));
    let (after, events) = play(state.clone(), &[("P1", &text), ("P2", &walk)], &[]);
    assert_eq!(
        after.familiars.get("Witch"),
        Some(&b),
        "put with the Swordsman"
    );
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Familiar(super::familiar::FamiliarEvent::Rejoined { leader, .. }) if leader == "Swordsman"
    )));

    let swordsman = format!("H\nFamiliar: {}", move_to(&b));
    let (after, events) = play(state, &[("P2", &swordsman)], &[]);
    assert!(after.familiars.is_empty());
    assert!(familiar_lines(&events)[0].contains("no familiar"));
}

#[test]
fn the_familiar_line_round_trips() {
    let text = "Activities: H\nFamiliar: M Curst Valley 4, S\nTeleport: CV-3\n";
    let orders = parse_day_orders(text, 1, &data().tiles).expect("parses");
    assert_eq!(orders.teleport, Some(("Curst Valley".to_string(), 3)));
    let bad = parse_day_orders("H\nTeleport: CV9", 1, &data().tiles).unwrap_err();
    assert!(bad[0].message.contains("cave clearing"), "{}", bad[0]);
    let familiar = orders.familiar.as_ref().expect("a familiar line");
    assert_eq!(familiar.phases.len(), 2);
    let again = parse_day_orders(&orders.to_string(), 1, &data().tiles).expect("parses back");
    assert_eq!(again, orders);
}

// --- Other bonus-phase sources ---------------------------------------------------

#[test]
fn the_telescope_gives_a_bonus_peer_in_a_mountain_clearing() {
    let mut state = game(&["Black Knight"]);
    let mountain = state
        .board
        .clearings()
        .into_iter()
        .find(|c| {
            state
                .board
                .clearing(c)
                .is_some_and(|k| k.kind == ClearingKind::Mountain)
        })
        .expect("a mountain clearing");
    state.characters[0].position = mountain;
    give(&mut state, 0, ItemKind::Treasure, "Ancient Telescope", true);
    let (_, events) = play(
        state.clone(),
        &[("P1", "S*\nSearch: peer")],
        &[("search", &[6])],
    );
    let phases = results(&events, "Black Knight");
    assert!(matches!(&phases[0], PhaseResult::Done { .. }), "{phases:?}");
    let (_, events) = play(state, &[("P1", "S*\nSearch: locate")], &[("search", &[6])]);
    let phases = results(&events, "Black Knight");
    assert!(
        matches!(&phases[0], PhaseResult::Lost { reason } if reason.contains("bonus")),
        "{phases:?}"
    );
}

#[test]
fn a_toadstool_circle_lying_here_gives_a_bonus_spell_phase() {
    let mut state = game(&["Black Knight"]);
    let here = state.characters[0].position.clone();
    let (_, events) = play(state.clone(), &[("P1", "SP*")], &[]);
    let reason = match &results(&events, "Black Knight")[0] {
        PhaseResult::Lost { reason } => reason.clone(),
        other => panic!("{other:?}"),
    };
    assert!(reason.contains("bonus"), "{reason}");
    state.treasure_sites.insert("Toadstool Circle".into(), here);
    let (_, events) = play(state, &[("P1", "SP*")], &[]);
    let reason = match &results(&events, "Black Knight")[0] {
        PhaseResult::Lost { reason } => reason.clone(),
        other => panic!("{other:?}"),
    };
    assert!(
        !reason.contains("bonus") && reason.contains("MAGIC chit"),
        "the phase exists, and is tried: {reason}"
    );
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

#[test]
fn the_toadstool_circle_sends_him_to_the_cave_his_orders_name() {
    let mut state = game(&["Black Knight", "Amazon"]);
    let here = state.characters[0].position.clone();
    state.characters[1].position = here.clone();
    state
        .treasure_sites
        .insert("Toadstool Circle".into(), here.clone());
    state.characters[0]
        .discoveries
        .sites
        .insert("Toadstool Circle".into());
    let cave = state
        .board
        .clearings()
        .into_iter()
        .find(|c| {
            state
                .board
                .clearing(c)
                .is_some_and(|k| k.kind == ClearingKind::Cave)
        })
        .expect("a cave clearing");
    let name = &data().tiles.by_code(&cave.tile).expect("tile").name;
    let text = format!("S\nSearch: loot\nTeleport: {name} {}", cave.clearing);
    let (after, events) = play(
        state,
        &[("P1", &text), ("P2", "F Black Knight")],
        &[("search", &[3])],
    );
    assert_eq!(after.characters[0].position, cave);
    assert_eq!(after.characters[1].position, here, "the follower stays");
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::TreasureSite(SiteEvent::Teleported { to, .. }) if *to == cave
    )));
}

#[test]
fn entering_a_cave_makes_horses_inactive() {
    let mut state = game(&["Black Knight", "Amazon"]);
    let board = &state.board;
    let (outside, cave) = board
        .clearings()
        .into_iter()
        .filter(|c| {
            board
                .clearing(c)
                .is_some_and(|k| k.kind == ClearingKind::Cave)
        })
        .find_map(|cave| {
            board
                .neighbours(&cave)
                .into_iter()
                .find(|l| {
                    matches!(l.kind, PathKind::Normal | PathKind::Cave)
                        && board.clearing(&l.to).is_some_and(|k| {
                            k.kind != ClearingKind::Cave && k.kind != ClearingKind::Mountain
                        })
                })
                .map(|l| (l.to, cave.clone()))
        })
        .expect("a way into a cave");
    state.characters[0].position = outside.clone();
    state.characters[1].position = outside;
    give(&mut state, 0, ItemKind::Horse, "Pony 7", true);
    give(&mut state, 1, ItemKind::Horse, "Pony 6", true);
    let line = move_to(&cave);
    let (after, events) = play(state, &[("P1", &line), ("P2", "F Black Knight")], &[]);
    assert_eq!(after.characters[0].position, cave);
    assert!(!after.characters[0].belongings[0].active);
    assert!(
        !after.characters[1].belongings[0].active,
        "the follower's too"
    );
    let told = events
        .iter()
        .filter(|e| {
            matches!(
                &e.happening,
                Happening::Phase(PhaseEvent::HorsesInactive { .. })
            )
        })
        .count();
    assert_eq!(told, 2);
}

#[test]
fn a_tremendous_effort_opens_the_crypt() {
    let mut state = game(&["Berserker"]);
    let at = place_site(&mut state, true, "Hoard");
    state.holdings.insert(
        "Hoard".into(),
        vec![item(ItemKind::Treasure, "Crypt of the Knight")],
    );
    state.characters[0].position = at.clone();
    state.characters[0].discoveries.sites.insert("Hoard".into());
    loot(&mut state, &[1]);
    assert_eq!(state.treasure_sites.get("Crypt of the Knight"), Some(&at));
    let gold = state.characters[0].gold;
    let (outcome, events) = loot(&mut state, &[5]);
    assert_eq!(outcome, PhaseOutcome::Done);
    assert!(
        matches!(&events[1], SiteEvent::GoldRecorded { .. }),
        "{events:?}"
    );
    assert_eq!(state.characters[0].gold, gold + 1);
    let tired: Vec<&str> = state.characters[0]
        .chits
        .iter()
        .filter(|c| c.condition == ChitCondition::Fatigued)
        .map(|c| c.chit.as_str())
        .collect();
    assert_eq!(tired.len(), 1);
    assert!(tired[0].contains('T'), "{tired:?}");
}

#[test]
fn the_toadstool_circle_row_4_lets_him_peer_anywhere_today() {
    let mut state = game(&["Black Knight"]);
    let here = state.characters[0].position.clone();
    state
        .treasure_sites
        .insert("Toadstool Circle".into(), here.clone());
    state.characters[0]
        .discoveries
        .sites
        .insert("Toadstool Circle".into());
    let far = state
        .board
        .clearings()
        .into_iter()
        .find(|c| c.tile != here.tile)
        .expect("another tile");
    let name = &data().tiles.by_code(&far.tile).expect("tile").name;
    let text = format!("S, S\nSearch: loot; peer {name} {}", far.clearing);
    let forced: &[(&str, &[u8])] = &[("search", &[4]), ("search", &[5])];
    let (_, events) = play(state.clone(), &[("P1", &text)], forced);
    let phases = results(&events, "Black Knight");
    assert!(matches!(&phases[1], PhaseResult::Done { .. }), "{phases:?}");
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::TreasureSite(SiteEvent::Granted { what, .. }) if what.contains("any clearing")
    )));
    // Without the gift the far peer is lost.
    let text = format!("S\nSearch: peer {name} {}", far.clearing);
    let (_, events) = play(state, &[("P1", &text)], &[("search", &[5])]);
    assert!(matches!(
        &results(&events, "Black Knight")[0],
        PhaseResult::Lost { .. }
    ));
}
