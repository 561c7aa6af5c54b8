//! The Magic Realm day engine end to end: a whole day played by bots gives
//! exactly the GM log checked in under `tests/golden/` (set
//! `REALMGM_UPDATE_GOLDEN=1` to rewrite it after a deliberate change), and 16 bots
//! play 28 days without breaking the game's invariants.

use std::collections::BTreeMap;

use realmgm::dice::Dice;
use realmgm::game::{Rules, Seat};
use realmgm::magic_realm::data::{self, GameData};
use realmgm::magic_realm::day::{bot, events::DayEvent, log, resolve_day};
use realmgm::magic_realm::orders::DayOrders;
use realmgm::magic_realm::setup::{self, SetupInputs};
use realmgm::magic_realm::state::{MrState, Whereabouts};

fn data() -> &'static GameData {
    data::get().expect("the embedded data loads")
}

fn new_game(characters: &[&str], seed: u64) -> MrState {
    let seats: Vec<Seat> = characters
        .iter()
        .enumerate()
        .map(|(i, c)| Seat {
            player: format!("P{:02}", i + 1),
            role: Some((*c).to_string()),
        })
        .collect();
    setup::new_game(
        data(),
        &seats,
        &Rules::default(),
        &SetupInputs::default(),
        &mut Dice::new(seed, 0),
    )
    .expect("setup works")
}

/// Play one day with bot orders for everyone.
fn bot_day(state: MrState, seed: u64) -> (MrState, Vec<DayEvent>) {
    let rules = Rules::default();
    let mut dice = Dice::new(seed, state.day + 1);
    let orders: BTreeMap<String, DayOrders> = state
        .characters
        .iter()
        .filter_map(|c| {
            bot::orders_for(data(), &rules, &state, &c.player, &mut dice)
                .map(|o| (c.player.clone(), o))
        })
        .collect();
    resolve_day(data(), &rules, state, &orders, &mut dice).expect("a bot day resolves")
}

#[test]
fn a_whole_day_gives_the_golden_gm_log() {
    let state = new_game(&["Amazon", "Dwarf", "Wizard", "White Knight"], 20);
    let (_, events) = bot_day(state, 20);
    let text = log::gm_log(&events);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/day_1.txt");
    if std::env::var_os("REALMGM_UPDATE_GOLDEN").is_some() {
        std::fs::write(path, &text).expect("write the golden log");
    }
    let golden = std::fs::read_to_string(path).expect("the golden log is checked in");
    assert_eq!(
        text, golden,
        "the day log changed; if deliberately, rerun with REALMGM_UPDATE_GOLDEN=1"
    );
    let again = bot_day(
        new_game(&["Amazon", "Dwarf", "Wizard", "White Knight"], 20),
        20,
    );
    assert_eq!(log::gm_log(&again.1), text, "same seed, same day");
}

fn check_invariants(state: &MrState, counters: usize, row6_chits: usize) {
    let clearings = state.board.clearings();
    assert_eq!(
        state.visitor_boxes.len() + state.visitors_on_map.len(),
        row6_chits,
        "each row-6 chit is in its box or on the map, once"
    );
    for (chit, at) in &state.visitors_on_map {
        assert!(clearings.contains(at), "{chit} is in {at}, off the map");
    }
    for (site, at) in &state.treasure_sites {
        assert!(clearings.contains(at), "{site} lies in {at}, off the map");
        assert!(
            state.holdings.values().flatten().all(|i| &i.name != site),
            "the {site} lies on the map and in a pile"
        );
    }
    for c in &state.characters {
        assert!(
            clearings.contains(&c.position),
            "{} stands in {} which is not on the map",
            c.name,
            c.position
        );
        assert_eq!(c.chits.len(), 12, "{} keeps 12 chits", c.name);
        assert!(c.discoveries.tiles_visited.contains(&c.position.tile));
    }
    assert_eq!(
        state.denizens.len(),
        counters,
        "no counter appears or vanishes"
    );
    for (id, d) in &state.denizens {
        if let Whereabouts::Clearing { clearing } = &d.at {
            assert!(
                clearings.contains(clearing),
                "{id} is in {clearing}, off the map"
            );
        }
    }
}

/// Gold won in combat (bounties and victims' purses).
fn combat_gold(events: &[DayEvent]) -> i64 {
    use realmgm::magic_realm::combat::log::CombatLine;
    use realmgm::magic_realm::day::events::{CombatEvent, Happening};
    events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Combat(CombatEvent::Line {
                line: CombatLine::Spoils { gold, .. },
                ..
            }) => Some(i64::from(*gold)),
            _ => None,
        })
        .sum()
}

#[test]
fn sixteen_bots_play_a_month_without_breaking_the_game() {
    let all: Vec<&str> = data().characters.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(all.len(), 16);
    for seed in [1, 2] {
        let mut state = new_game(&all, seed);
        let counters = state.denizens.len();
        let row6_chits = state.visitor_boxes.len();
        let gold: u32 = state.characters.iter().map(|c| u32::from(c.gold)).sum();
        let mut last = Vec::new();
        let mut won = 0i64;
        for day in 1..=28 {
            let (next, events) = bot_day(state, seed * 100 + day);
            assert_eq!(next.day, u32::try_from(day).unwrap());
            check_invariants(&next, counters, row6_chits);
            won += combat_gold(&events);
            state = next;
            last = events;
        }
        assert!(
            state.familiars.contains_key("Witch"),
            "the Witch's familiar took its turns"
        );
        let after: u32 = state.characters.iter().map(|c| u32::from(c.gold)).sum();
        assert!(
            i64::from(after) <= i64::from(gold) + won,
            "gold comes only from combat spoils: {gold} + {won} < {after}"
        );
        let log = log::gm_log(&last);
        assert!(log.contains("Victory points"), "{log}");
        let err = resolve_day(
            data(),
            &Rules::default(),
            state,
            &BTreeMap::new(),
            &mut Dice::new(seed, 29),
        )
        .unwrap_err();
        assert!(err.to_string().contains("ended after day 28"));
    }
}
