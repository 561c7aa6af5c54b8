//! Tests of a killed character restarting at the Inn the next day (BIMR
//! play, the BIMR3 rules).

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
    let restarted = events.iter().find_map(|e| match &e.happening {
        Happening::Restart(event @ RestartEvent::Restarted { .. }) => Some(event.log_line()),
        _ => None,
    });
    assert_eq!(
        restarted.as_deref(),
        Some(format!("The Amazon, killed, comes back as the Swordsman at the Inn ({inn}). Lost Keys left in {fell_in}.").as_str())
    );
}
