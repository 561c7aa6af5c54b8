//! Tests of a killed character's fresh start at the Inn the next day (3.1
//! 9.1.2) and of a suicide (3.1 9.2.2a).

use super::events::Happening;
use super::restart::RestartEvent;
use crate::data::terms::Dwelling;
use crate::state::{ChitCondition, ItemKind, abandoned_pile};
use crate::test_support::{data, give, item, play_day as play, quiet_game as game};

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

#[test]
fn a_killed_character_may_come_back_as_another_nobody_plays() {
    let mut state = game(&["Amazon", "Elf"]);
    let player = state.characters[0].player.clone();
    state.characters[0].dead = true;
    give(&mut state, 0, ItemKind::Treasure, "Lost Keys", true);
    let fell_in = state.characters[0].position.clone();
    // The Elf is played: he comes back as the Amazon again.
    let (after, _) = play(state.clone(), &[(&player, "H\nCharacter: Elf")], &[]);
    assert_eq!(after.characters[0].name, "Amazon");
    // The Swordsman is free: he comes back as the Swordsman, at the Inn.
    let (after, events) = play(state, &[(&player, "H\nCharacter: swordsman")], &[]);
    let inn = after.dwellings[&Dwelling::Inn].clone();
    let back = &after.characters[0];
    assert_eq!(
        (back.name.as_str(), back.player.as_str()),
        ("Swordsman", player.as_str())
    );
    assert_eq!(back.position, inn);
    assert!(!after.characters.iter().any(|c| c.name == "Amazon"));
    assert!(
        after.holdings[&abandoned_pile(&fell_in)].contains(&item(ItemKind::Treasure, "Lost Keys"))
    );
    let line = |wanted: fn(&RestartEvent) -> bool| {
        events.iter().find_map(|e| match &e.happening {
            Happening::Restart(event) if wanted(event) => Some(event.log_line()),
            _ => None,
        })
    };
    assert_eq!(
        line(|e| matches!(e, RestartEvent::Restarted { .. })).as_deref(),
        Some(
            format!("The Amazon, killed, comes back as the Swordsman at the Inn ({inn}).").as_str()
        )
    );
    assert_eq!(
        line(|e| matches!(e, RestartEvent::LeftBehind { .. })).as_deref(),
        Some(
            format!(
                "What the Amazon carried lies in {fell_in}: Short Sword, Helmet, Breastplate, \
                 Shield, Lost Keys."
            )
            .as_str()
        )
    );
}

fn restarted(events: &[super::events::DayEvent]) -> bool {
    events.iter().any(|e| {
        matches!(
            e.happening,
            Happening::Restart(RestartEvent::Restarted { .. })
        )
    })
}

/// A player may decline a fresh start: with `Restart: no` his character
/// stays dead (3.1 9.1.2a "can start over").
#[test]
fn a_player_may_decline_to_start_over_3_1_9_1_2a() {
    let mut state = game(&["Amazon"]);
    state.characters[0].dead = true;
    let here = state.characters[0].position.clone();
    let (after, events) = play(state.clone(), &[("P1", "H\nRestart: no")], &[]);
    assert!(after.characters[0].dead);
    assert!(!restarted(&events));
    // What he still carried lies where he fell (9.1.1d).
    assert!(after.characters[0].weapon.is_none());
    assert!(
        after.holdings[&abandoned_pile(&here)].contains(&item(ItemKind::Weapon, "Short Sword"))
    );
    let (after, events) = play(state, &[("P1", "H\nRestart: yes")], &[]);
    assert!(!after.characters[0].dead);
    assert!(restarted(&events));
}

/// Starting over as the same character is a new individual (3.1 9.1.2a,
/// 9.1.1d): spells recorded afresh (the learned ones are lost), the
/// victory requirements of his `Victory:` line replace the old ones.
#[test]
fn the_same_character_starts_over_with_fresh_spells_and_requirements_3_1_9_1_2a() {
    use crate::state::VictoryRequirements;
    let mut state = game(&["Wizard"]);
    let wizard = &mut state.characters[0];
    wizard.dead = true;
    wizard.magic.spells.push("Peace".into());
    let learned = wizard.magic.spells.len();
    state.victory_requirements.insert(
        "Wizard".into(),
        VictoryRequirements {
            gold: 5,
            ..VictoryRequirements::default()
        },
    );
    let (after, _) = play(
        state,
        &[("P1", "H\nVictory: GT 1, SP 1, F 1, N 1, G 1")],
        &[],
    );
    let wizard = &after.characters[0];
    assert!(!wizard.dead);
    assert_eq!(wizard.magic.spells.len(), learned - 1);
    assert_eq!(wizard.magic.starting_spells, Some(2));
    assert_eq!(
        after.victory_requirements["Wizard"],
        VictoryRequirements {
            great_treasures: 1,
            spells: 1,
            fame: 1,
            notoriety: 1,
            gold: 1,
        }
    );
}

/// Starting over, he records his spells afresh as at the start (3.1
/// 9.1.2a): the orders' `Spells:` line names them, read as setup by mail
/// reads it, and the mail check refuses a line that does not fit the
/// character he comes back as.
#[test]
fn a_spells_line_records_the_restarted_characters_spells_3_1_9_1_2a() {
    let mut state = game(&["Wizard"]);
    state.characters[0].dead = true;
    let wizard = data()
        .characters
        .iter()
        .find(|c| c.name == "Wizard")
        .expect("Wizard");
    let mut chosen: Vec<String> = data()
        .spells
        .iter()
        .filter(|s| s.learnable() && crate::magic::spellbook::type_allowed(wizard, s).is_ok())
        .map(|s| s.name.clone())
        .rev()
        .take(usize::from(wizard.spells))
        .collect();
    let text = format!("H\nSpells: {}", chosen.join("; "));
    let (after, _) = play(state.clone(), &[("P1", &text)], &[]);
    let mut recorded = after.characters[0].magic.spells.clone();
    recorded.sort();
    chosen.sort();
    assert_eq!(recorded, chosen);
    let one = format!("H\nSpells: {}", chosen[0]);
    let orders = crate::orders::parse_day_orders(&one, 1, data()).expect("parses");
    let (problems, _) = crate::orders::mail_check::problems(
        data(),
        Some(&state),
        "P1",
        &orders,
        "H\nSpells: Peace",
    );
    assert!(
        problems
            .iter()
            .any(|p| p.line == 2 && p.message.contains("records 2 spells; 1 named")),
        "{problems:?}"
    );
}

/// His starting weapon and armour come out of the natives' stock, else an
/// abandoned pile, else he gets their gold price (3.1 9.1.2a).
#[test]
fn starting_gear_comes_from_the_natives_then_the_map_then_gold_3_1_9_1_2a() {
    let swords = |state: &crate::state::MrState| {
        state
            .holdings
            .values()
            .flatten()
            .filter(|i| crate::data::base_name(&i.name) == "Short Sword")
            .count()
    };
    let mut state = game(&["Amazon"]);
    state.characters[0].dead = true;
    // Killed in combat: the battle left his gear where he fell.
    state.characters[0].weapon = None;
    let before = swords(&state);
    assert!(before > 0, "the natives stock short swords");
    let (after, _) = play(state.clone(), &[], &[]);
    assert_eq!(after.characters[0].weapon.as_deref(), Some("Short Sword"));
    assert_eq!(swords(&after), before - 1, "one left the natives' stock");
    assert_eq!(after.characters[0].gold, 10);
    // No short sword anywhere in the Realm: he takes its price, 4 gold.
    for pile in state.holdings.values_mut() {
        pile.retain(|i| crate::data::base_name(&i.name) != "Short Sword");
    }
    let (after, events) = play(state, &[], &[]);
    assert_eq!(after.characters[0].weapon, None);
    assert_eq!(after.characters[0].gold, 14);
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Restart(RestartEvent::PaidInstead { item, gold: 4, .. }) if item == "Short Sword"
    )));
}

/// `Suicide: yes` kills him at Midnight, his belongings abandoned in his
/// clearing; he sits out the whole next day and may start over the day
/// after (3.1 9.2.2a).
#[test]
fn a_suicide_sits_out_a_whole_day_before_starting_over_3_1_9_2_2a() {
    let mut state = game(&["Amazon"]);
    let here = state.characters[0].position.clone();
    give(&mut state, 0, ItemKind::Treasure, "Lost Keys", false);
    let (after, events) = play(state, &[("P1", "H\nSuicide: yes")], &[]);
    assert!(after.characters[0].dead);
    let pile = &after.holdings[&abandoned_pile(&here)];
    assert!(pile.contains(&item(ItemKind::Treasure, "Lost Keys")));
    assert!(pile.contains(&item(ItemKind::Weapon, "Short Sword")));
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Midnight(super::events::MidnightEvent::Suicide { character, .. })
            if character == "Amazon"
    )));
    let (after, events) = play(after, &[("P1", "H")], &[]);
    assert!(after.characters[0].dead, "he sits out the next day");
    assert!(!restarted(&events));
    let (after, events) = play(after, &[("P1", "H")], &[]);
    assert!(!after.characters[0].dead);
    assert!(restarted(&events));
}

/// A suicide is news to every player, but what he left lies in his
/// clearing: only those there read the list (3.1 9.2.2a, 9.1.1d; what a
/// player sees).
#[test]
fn a_suicides_belongings_are_seen_only_in_his_clearing_3_1_9_2_2a() {
    use realmgm_core::game::Observers;
    let mut state = game(&["Amazon", "Black Knight"]);
    let elsewhere = state
        .dwellings
        .values()
        .find(|c| **c != state.characters[0].position)
        .expect("another dwelling")
        .clone();
    state.characters[1].position = elsewhere;
    give(&mut state, 0, ItemKind::Treasure, "Lost Keys", false);
    let (after, events) = play(state, &[("P1", "H\nSuicide: yes"), ("P2", "H")], &[]);
    assert!(after.characters[0].dead);
    let reads = |player: &str, o: &Observers| match o {
        Observers::Players(p) => p.contains(player),
        _ => true,
    };
    let news = |player: &str| {
        events.iter().any(|e| {
            reads(player, &e.observers)
                && matches!(
                    &e.happening,
                    Happening::Midnight(super::events::MidnightEvent::Suicide { .. })
                )
        })
    };
    let list = |player: &str| {
        events.iter().any(|e| {
            reads(player, &e.observers)
                && matches!(&e.happening, Happening::Restart(RestartEvent::LeftBehind { items, .. })
                    if items.contains(&"Lost Keys".to_string()))
        })
    };
    assert!(news("P1") && news("P2"));
    assert!(list("P1"));
    assert!(
        !list("P2"),
        "the Black Knight, elsewhere, reads no list of what she left"
    );
}

/// Under Multiple Characters a killed character's replacement takes his
/// seat: the same player plays him and records the killed one's victory
/// points (3.1 10.E.4.7).
#[test]
fn a_replacement_keeps_the_killed_characters_seat_and_points_3_1_10_e_4_7() {
    let mut state = game(&["Amazon", "Elf"]);
    for (n, c) in state.characters.iter_mut().enumerate() {
        c.player = format!("Ann/{}", n + 1);
        c.controller = Some("Ann".into());
    }
    state.characters[1].dead = true;
    let points = state.victory_points_for("Elf");
    assert_eq!(points, state.victory_points + 1);
    let (after, _) = play(state, &[("Ann/2", "H\nCharacter: Swordsman")], &[]);
    let back = &after.characters[1];
    assert_eq!(back.name, "Swordsman");
    assert_eq!(
        (back.player.as_str(), back.controller.as_deref()),
        ("Ann/2", Some("Ann"))
    );
    assert_eq!(after.victory_points_for("Swordsman"), points);
}

/// Under Solitaire Play a killed character starts again on the road from
/// the map's edge the first one entered by, off the map until his first
/// Move, not at the Inn (3.1 10.E.1.6).
#[test]
fn a_solitaire_character_restarts_on_the_road_he_first_entered_by_3_1_10_e_1_6() {
    use crate::setup::{SOLITAIRE, SetupInputs, new_game};
    use crate::test_support::play_day_under;
    use realmgm_core::dice::Dice;
    use realmgm_core::game::{Rules, Seat};
    let rules = Rules::new([SOLITAIRE], crate::rules::TOGGLES).expect("a built toggle");
    let seats = [Seat {
        player: "ann".into(),
        role: Some("Amazon".into()),
    }];
    let mut state = new_game(
        data(),
        &seats,
        &rules,
        &SetupInputs::default(),
        &mut Dice::new(11, 0),
    )
    .expect("a solitaire game sets up");
    // She entered by the last of the roads from the map's edge.
    let road = state.characters[0].roadway.clone().expect("at the edge");
    let entry = road.edge_entries.last().expect("a road in").clone();
    state.solitaire_entry = Some(entry.clone());
    // She entered, walked on and was killed elsewhere.
    let fell_in = state
        .board
        .clearings()
        .into_iter()
        .find(|c| c.tile != entry.tile)
        .expect("another tile");
    let c = &mut state.characters[0];
    c.roadway = None;
    c.position = fell_in.clone();
    c.dead = true;
    let (after, events) = play_day_under(&rules, state, &[], &[]);
    let amazon = &after.characters[0];
    assert!(!amazon.dead);
    assert_eq!(amazon.position, entry);
    assert!(
        amazon
            .roadway
            .as_ref()
            .is_some_and(|r| r.edge_entries == [entry.clone()])
    );
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Restart(RestartEvent::RestartedAtEdge { character, at, .. })
            if character == "Amazon" && *at == entry
    )));
    assert!(!events.iter().any(|e| matches!(
        &e.happening,
        Happening::Restart(RestartEvent::Restarted { .. })
    )));
}
