//! Tests of the GM's rulings: read against the state, carried out at
//! Birdsong, reported to those they concern.

use realmgm_core::game::Observers;

use super::events::{DayEvent, Happening};
use super::rulings::RulingEvent;
use crate::data::terms::Dwelling;
use crate::orders::ruling::{RulingError, parse_ruling};
use crate::state::ruling::{GM_BOX, QueuedRuling};
use crate::state::{ChitCondition, ItemKind, MrState, Whereabouts, abandoned_pile};
use crate::test_support::{data, give, item, play_day as play, quiet_game as game};

/// `state` with the rulings queued as the daemon queues them.
fn ruled(mut state: MrState, rulings: &[(&str, &str)]) -> MrState {
    for (text, why) in rulings {
        let ruling = parse_ruling(text, data(), &state).unwrap_or_else(|e| panic!("{text}: {e}"));
        state.rulings.push(QueuedRuling {
            ruling,
            why: (*why).to_string(),
        });
    }
    state
}

/// Character `who` carries the treasure `name`, taken from where setup
/// put it (so it exists once).
fn carry(state: &mut MrState, who: usize, name: &str) {
    for pile in state.holdings.values_mut() {
        pile.retain(|i| i.name != name);
    }
    give(state, who, ItemKind::Treasure, name, true);
}

fn ruling_events(events: &[DayEvent]) -> Vec<(&Observers, String)> {
    events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Ruling(r) => Some((&e.observers, r.log_line())),
            _ => None,
        })
        .collect()
}

#[test]
fn an_item_given_leaves_its_holder_and_both_players_read_why() {
    let mut state = game(&["Amazon", "Elf", "Dwarf"]);
    carry(&mut state, 1, "Lost Keys");
    let state = ruled(
        state,
        &[("give lost keys to amazon", "a search misread on day 11")],
    );
    let (after, events) = play(state, &[], &[]);
    assert!(
        after.characters[0]
            .belongings
            .iter()
            .any(|b| b.item.name == "Lost Keys" && !b.active)
    );
    assert!(after.characters[1].belongings.is_empty());
    let seen = ruling_events(&events);
    assert_eq!(seen.len(), 1);
    assert_eq!(
        seen[0].1,
        "GM ruling: the Amazon is given the Lost Keys (a search misread on day 11)."
    );
    assert_eq!(
        seen[0].0,
        &Observers::Players(["P1".to_string(), "P2".to_string()].into()),
        "the Dwarf's player does not see it"
    );
}

#[test]
fn a_taken_item_waits_in_the_gm_box_and_can_be_given_from_there() {
    let mut state = game(&["Amazon", "Elf"]);
    carry(&mut state, 0, "Lost Keys");
    let (after, _) = play(
        ruled(state, &[("take Lost Keys from Amazon", "")]),
        &[],
        &[],
    );
    assert!(after.characters[0].belongings.is_empty());
    assert_eq!(
        after.holdings[GM_BOX],
        vec![item(ItemKind::Treasure, "Lost Keys")]
    );
    let (after, _) = play(ruled(after, &[("give Lost Keys to Elf", "")]), &[], &[]);
    assert!(after.holdings[GM_BOX].is_empty());
    assert_eq!(after.characters[1].belongings[0].item.name, "Lost Keys");
}

#[test]
fn gold_fame_and_notoriety_change_by_the_number_and_gold_stops_at_zero() {
    let state = game(&["Amazon"]);
    let gold = state.characters[0].gold;
    let state = ruled(
        state,
        &[
            ("fame Amazon +5", ""),
            ("notoriety Amazon -3", ""),
            ("gold Amazon -1000", ""),
        ],
    );
    let (after, events) = play(state, &[], &[]);
    let amazon = &after.characters[0];
    assert_eq!((amazon.fame, amazon.notoriety, amazon.gold), (5, -3, 0));
    assert!(gold > 0);
    let lines: Vec<String> = ruling_events(&events).into_iter().map(|(_, l)| l).collect();
    assert_eq!(lines[0], "GM ruling: the Amazon gains 5 fame.");
    assert_eq!(lines[1], "GM ruling: the Amazon loses 3 notoriety.");
}

#[test]
fn characters_and_denizens_are_moved_and_the_clearings_concerned_see_it() {
    let state = crate::test_support::game_played_by(&["Amazon", "Elf"], |i| format!("P{}", i + 1));
    let inn = state.dwellings[&Dwelling::Inn].clone();
    let denizen = state
        .denizens
        .iter()
        .find(|(_, d)| matches!(d.at, Whereabouts::SetupBox { .. }))
        .map(|(id, _)| id.clone())
        .expect("a denizen in a box");
    let state = ruled(
        state,
        &[
            (&format!("move Amazon to {inn}"), ""),
            (&format!("move {denizen} to {inn}"), "it strayed"),
        ],
    );
    let (after, events) = play(state, &[("P1", "H"), ("P2", "H")], &[]);
    assert_eq!(after.characters[0].position, inn);
    assert!(
        matches!(&after.denizens[&denizen].at, Whereabouts::Clearing { .. })
            || after.denizens[&denizen].at == Whereabouts::Dead
    );
    let seen = ruling_events(&events);
    assert!(
        seen[1]
            .1
            .contains(&format!("the {denizen} is moved to {inn}")),
        "{seen:?}"
    );
    let at_the_inn = after
        .characters
        .iter()
        .filter(|c| c.position == inn)
        .map(|c| c.player.clone())
        .collect();
    assert_eq!(seen[1].0, &Observers::Players(at_the_inn));
}

#[test]
fn chits_are_set_and_healed() {
    let mut state = game(&["Amazon"]);
    state.characters[0].chits[1].condition = ChitCondition::Fatigued;
    let chit = state.characters[0].chits[0].chit.clone();
    let code = chit
        .split_once(' ')
        .map_or(chit.as_str(), |(_, c)| c)
        .to_string();
    let (after, _) = play(
        ruled(state, &[(&format!("chit Amazon {code} wounded"), "")]),
        &[],
        &[],
    );
    assert_eq!(
        after.characters[0].chits[0].condition,
        ChitCondition::Wounded
    );
    let (after, _) = play(ruled(after, &[("heal Amazon", "")]), &[], &[]);
    assert!(
        after.characters[0]
            .chits
            .iter()
            .all(|c| c.condition == ChitCondition::Active)
    );
}

#[test]
fn a_site_or_a_hidden_way_is_learnt() {
    let state = game(&["Amazon"]);
    let (after, _) = play(ruled(state, &[("discover hoard for Amazon", "")]), &[], &[]);
    assert!(after.characters[0].discoveries.sites.contains("Hoard"));

    use crate::data::tiles::PathKind;
    let state = game(&["Amazon"]);
    let (a, b) = state
        .board
        .clearings()
        .into_iter()
        .find_map(|c| {
            let hidden = state
                .board
                .neighbours(&c)
                .into_iter()
                .find(|l| matches!(l.kind, PathKind::Hidden | PathKind::Secret))?;
            Some((c, hidden.to))
        })
        .expect("the board has a hidden way");
    let text = format!("discover {a}-{b} for Amazon");
    let (after, _) = play(ruled(state.clone(), &[(&text, "")]), &[], &[]);
    let route = (a.clone().min(b.clone()), a.clone().max(b.clone()));
    assert!(after.characters[0].discoveries.routes.contains(&route));
    // Two clearings with no hidden way between them are refused.
    let normal = state
        .board
        .neighbours(&a)
        .into_iter()
        .find(|l| l.kind == PathKind::Normal)
        .map_or_else(|| a.clone(), |l| l.to);
    let refused = parse_ruling(&format!("discover {a}-{normal} for Amazon"), data(), &state);
    assert!(
        matches!(&refused, Err(RulingError::Impossible(m)) if m.contains("no hidden path or secret passage")),
        "{refused:?}"
    );
}

#[test]
fn a_replaced_character_leaves_his_things_and_the_new_one_enters_at_the_inn() {
    let mut state = game(&["Amazon", "Elf"]);
    carry(&mut state, 0, "Lost Keys");
    let was_at = state.characters[0].position.clone();
    let state = ruled(
        state,
        &[("replace Amazon with Wizard", "the seat passed to Erin")],
    );
    let (after, events) = play(state, &[], &[]);
    let inn = after.dwellings[&Dwelling::Inn].clone();
    assert_eq!(after.characters[0].name, "Wizard");
    assert_eq!(after.characters[0].player, "P1");
    assert_eq!(after.characters[0].position, inn);
    assert!(
        after.holdings[&abandoned_pile(&was_at)].contains(&item(ItemKind::Treasure, "Lost Keys"))
    );
    let seen = ruling_events(&events);
    assert_eq!(seen[0].0, &Observers::Everyone);
    assert!(
        seen[0]
            .1
            .contains("the Amazon leaves the Realm and the Wizard enters it at the Inn")
    );
}

#[test]
fn a_character_killed_by_ruling_comes_back_at_once_as_his_player_names() {
    let state = ruled(
        game(&["Amazon", "Elf"]),
        &[("kill Amazon", "a fall the rules missed")],
    );
    let (after, events) = play(state, &[("P1", "H\nCharacter: Wizard"), ("P2", "H")], &[]);
    assert_eq!(after.characters[0].name, "Wizard");
    assert!(!after.characters[0].dead);
    assert_eq!(
        after.characters[0].position,
        after.dwellings[&Dwelling::Inn]
    );
    let seen = ruling_events(&events);
    assert_eq!(seen[0].0, &Observers::Everyone);
    assert_eq!(
        seen[0].1,
        "GM ruling: the Amazon is killed (a fall the rules missed)."
    );
}

#[test]
fn a_ruling_that_no_longer_fits_is_void_and_only_the_gm_reads_it() {
    let mut state = game(&["Amazon", "Elf"]);
    carry(&mut state, 0, "Lost Keys");
    let mut state = ruled(state, &[("take Lost Keys from Amazon", "")]);
    // The state changed under the ruling (as after a rollback).
    state.characters[0].belongings.clear();
    let (_, events) = play(state, &[], &[]);
    let seen = ruling_events(&events);
    assert_eq!(seen[0].0, &Observers::Gm);
    assert!(
        seen[0]
            .1
            .starts_with("GM ruling not carried out (the Amazon does not carry the Lost Keys)")
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(&e.happening, Happening::Ruling(RulingEvent::Void { .. })))
    );
}

#[test]
fn bad_rulings_are_refused_with_what_was_expected_or_the_nearest_names() {
    let mut state = game(&["Amazon", "Elf"]);
    carry(&mut state, 0, "Lost Keys");
    let refused = |text: &str| parse_ruling(text, data(), &state).unwrap_err();
    assert!(
        matches!(refused("give Lost Keys to Amazn"), RulingError::Unknown { ref hint, .. } if hint.contains("Amazon"))
    );
    assert!(
        refused("give Lost Kes to Elf")
            .to_string()
            .contains("did you mean Lost Keys")
    );
    assert!(
        refused("take Lost Keys from Elf")
            .to_string()
            .contains("no item carried by that character")
    );
    assert!(
        refused("move Amazon to CV9")
            .to_string()
            .contains("no clearing CV9 on the map")
    );
    assert!(
        refused("fame Amazon lots")
            .to_string()
            .contains("expected fame CHARACTER +N or -N")
    );
    assert!(
        refused("replace Amazon with Elf")
            .to_string()
            .contains("the Elf is already in play")
    );
    assert!(
        refused("replace Amazon with Dwarf II")
            .to_string()
            .contains("names the second game's Dwarf, and this game plays one Realm")
    );
    assert!(
        refused("dance Amazon")
            .to_string()
            .contains("give ITEM to CHARACTER")
    );
    assert!(
        refused("chit Amazon M9 wounded")
            .to_string()
            .contains("has no chit")
    );
}

/// A player joining part way records the basic point and one for each
/// week left, the week he enters in counted whole (3.1 10.E.2.5); a
/// two-month game's points a week stay one; a Season's six over four weeks
/// prorate rounding up (10.E.2.4.1).
#[test]
fn a_late_joiner_records_victory_points_by_the_weeks_left_3_1_10_e_2_5() {
    use crate::state::Arrival;
    let mut state = game(&["Amazon"]);
    state.arrivals.push(Arrival {
        player: "Erin".into(),
        character: "Black Knight".into(),
        spells: Vec::new(),
        realm: Default::default(),
    });
    let points = |state: &crate::state::MrState| state.joiner_victory_points();
    assert_eq!(points(&state), 5, "before day 1: the whole game");
    state.day = 7;
    assert_eq!(points(&state), 4, "entering on day 8: three weeks left");
    state.day = 10;
    assert_eq!(points(&state), 4, "day 11 is part of the second week");
    state.day = 27;
    assert_eq!(points(&state), 2, "the last day counts its whole week");
    state.day = 14;
    let refused = parse_ruling("starting Black Knight victory F 5", data(), &state)
        .unwrap_err()
        .to_string();
    assert!(refused.contains("they must add up to 3"), "{refused}");
    assert!(parse_ruling("starting Black Knight victory F 2, G 1", data(), &state).is_ok());
    state.last_day = 56;
    state.victory_points = 9;
    state.day = 27;
    assert_eq!(points(&state), 6, "five weeks of eight left");
    state.last_day = 28;
    state.victory_points = 6;
    state.day = 14;
    assert_eq!(points(&state), 4, "1 + 5 × 2 ÷ 4 rounded up");
}

#[test]
fn a_starting_ruling_is_for_a_character_about_to_enter_and_reads_as_at_setup() {
    use crate::state::Arrival;
    let mut state = game(&["Amazon"]);
    state.arrivals.push(Arrival {
        player: "Erin".into(),
        character: "Wizard".into(),
        spells: Vec::new(),
        realm: Default::default(),
    });
    let refused = |text: &str| parse_ruling(text, data(), &state).unwrap_err().to_string();
    assert!(refused("starting Amazon victory F 5").contains("in the Realm already"));
    assert!(refused("starting Wizrd victory F 5").contains("did you mean Wizard"));
    assert!(refused("starting Wizard victory F 4").contains("they must add up to 5"));
    assert!(refused("starting Wizard F 5").contains("expected starting CHARACTER victory"));
    let wizard = data()
        .characters
        .iter()
        .find(|c| c.name == "Wizard")
        .unwrap();
    let spells: Vec<&str> = data()
        .spells
        .iter()
        .filter(|s| s.learnable() && crate::magic::spellbook::type_allowed(wizard, s).is_ok())
        .take(usize::from(wizard.spells))
        .map(|s| s.name.as_str())
        .collect();
    assert!(refused("starting Wizard victory F 5").contains("records 2 spells; 0 named"));
    let first = spells[0];
    assert!(
        refused(&format!(
            "starting Wizard victory F 5 spells {first}; {first}"
        ))
        .contains("is named twice")
    );
    let ruled = ruled(
        state,
        &[(
            &format!(
                "starting Wizard victory F 3, G 2 spells {}",
                spells.join("; ")
            ),
            "",
        )],
    );
    assert_eq!(ruled.rulings.len(), 1);
}
