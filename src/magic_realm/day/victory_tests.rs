//! Tests of month-end scoring against the recorded victory requirements.

use super::events::Happening;
use crate::dice::Dice;
use crate::game::{Rules, Seat};
use crate::magic_realm::setup::{self, SetupInputs};
use crate::magic_realm::test_support::{data, play_day as play, quiet_game as game};

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
