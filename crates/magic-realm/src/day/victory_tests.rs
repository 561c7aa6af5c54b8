//! Tests of month-end scoring against the recorded victory requirements.

use super::events::Happening;
use crate::setup::{self, SetupInputs};
use crate::test_support::{data, play_day as play, quiet_game as game};
use realmgm_core::dice::Dice;
use realmgm_core::game::{Rules, Seat};

#[test]
fn day_28_scores_against_the_recorded_requirements() {
    use crate::state::VictoryRequirements;
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
    use crate::state::VictoryRequirements;
    let seats = [Seat {
        player: "P1".into(),
        role: Some("Amazon".into()),
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

/// A final score worked by hand as the BIMR4 GM published his: per
/// category basic = (acquired − required) ÷ unit, a shortfall tripled
/// first; bonus = basic × the VPs recorded there.
#[test]
fn a_final_score_worked_by_hand_as_bimr4_scored() {
    use crate::state::{Belonging, Item, ItemKind, VictoryRequirements};
    let mut state = game(&["Amazon"]);
    let amazon = &mut state.characters[0];
    amazon.fame = 12;
    amazon.notoriety = 25;
    amazon.gold = 47;
    for (kind, name) in [
        (ItemKind::Treasure, "Dragon Essence"),
        (ItemKind::Treasure, "Sacred Statue"),
        (ItemKind::Weapon, "Bane Sword"),
    ] {
        amazon.belongings.push(Belonging {
            item: Item {
                kind,
                name: name.into(),
            },
            active: false,
        });
    }
    let required = VictoryRequirements {
        great_treasures: 1,
        spells: 0,
        fame: 2,
        notoriety: 1,
        gold: 1,
    };
    let score = super::victory::score(data(), &state.characters[0], Some(&required));
    // Great treasures: 2 (both treasures are great) − 1 = 1 → basic 1, bonus 1: 2.
    assert_eq!(score.great_treasures, 2);
    // Spells: none required, none held: 0.
    assert_eq!(score.spells, 0);
    // Fame: 12 recorded − 10 (the Dragon Essence's negative fame; the
    // Statue's and the Bane Sword's positive fame do not count) = 2;
    // (2 − 20) × 3 = −54 → basic −6, bonus −12: −18.
    assert_eq!(score.fame, 2);
    // Notoriety: 25 + 20 (Essence) − 5 (Statue) + 3 (Bane Sword) = 43;
    // 43 − 20 = 23 → basic 1, bonus 1: 2.
    assert_eq!(score.notoriety, 43);
    // Gold: 47 − 30 = 17 → basic 0: 0.
    assert_eq!(score.gold, 47);
    // Total: 2 + 0 − 18 + 2 + 0.
    assert_eq!(score.total, -14);
}

/// A campaign of two months plays past day 28 and is scored only after
/// day 56.
#[test]
fn a_two_month_game_goes_on_after_day_28_and_scores_at_its_end() {
    let scored = |events: &[super::events::DayEvent]| {
        events.iter().any(|e| {
            matches!(
                &e.happening,
                Happening::Midnight(super::events::MidnightEvent::VictoryPoints { .. })
            )
        })
    };
    let mut state = game(&["Amazon"]);
    state.last_day = 56;
    state.day = 27;
    let (state, events) = play(state, &[], &[]);
    assert_eq!(state.day, 28);
    assert!(!scored(&events), "day 28 is not the end of this game");
    let (mut state, _) = play(state, &[], &[]);
    assert_eq!(state.day, 29);
    state.day = 55;
    let (state, events) = play(state, &[], &[]);
    assert!(scored(&events), "day 56 ends the game");
    let err = crate::day::resolve_day(
        data(),
        &Rules::default(),
        state,
        &Default::default(),
        &mut Dice::new(1, 57),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the game ended after day 56; start a new game to play on"
    );
}
