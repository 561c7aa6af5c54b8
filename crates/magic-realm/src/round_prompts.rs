//! The mail side of round-by-round combat (the
//! `round_by_round_combat` toggle): the prompt a player gets when a battle
//! stops at a round of his, and reading his answer, a `Combat:` line for
//! that round (clauses as in the orders mail, [`combat::orders`]).

use std::collections::BTreeMap;

use realmgm_core::game::{OrdersProblem, Reader};

use crate::combat::by_rounds::RoundAnswers;
use crate::combat::log::CombatLine;
use crate::combat::orders::ChitCards;
use crate::combat::{self, Decision};
use crate::day::events::{CombatEvent, DayEvent, Happening};

/// Each asked player's prompt for the decisions a day stopped at, with
/// the lines of the stopped battle he has seen.
pub fn prompts(decisions: &[Decision], events: &[DayEvent]) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    for d in decisions {
        let seen: Vec<String> = events
            .iter()
            .filter(|e| e.observers.includes(&Reader::Player(&d.player)))
            .filter_map(|e| match &e.happening {
                Happening::Combat(CombatEvent::Line { clearing, line, .. })
                    if format!("{}{}", clearing.tile, clearing.clearing) == d.clearing
                        && !matches!(line, CombatLine::Roll { .. }) =>
                {
                    Some(format!("  {line}"))
                }
                _ => None,
            })
            .collect();
        let text = out.entry(d.player.clone()).or_default();
        text.push_str(&format!(
            "Combat in {}, round {}: the {} is asked for {}.\n\nYour sheet:\n{}\n\nWhat you have seen of this combat:\n{}\n\nThe choices of this step:\n{}\n\n",
            d.clearing,
            d.round,
            d.character,
            d.stage.word(),
            d.sheet
                .iter()
                .map(|l| format!("  {l}"))
                .collect::<Vec<_>>()
                .join("\n"),
            seen.join("\n"),
            if d.options.is_empty() {
                "  (nothing to choose at this step; your line decides the rest of the round)".to_string()
            } else {
                d.options
                    .iter()
                    .map(|o| format!("  - {o}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            },
        ));
    }
    for text in out.values_mut() {
        text.push_str(
            "Answer with one line `Combat: ...` (e.g. `Combat: attack with FIGHT H5, \
             maneuver with MOVE M4, target weakest`): it decides all your plays this round. \
             Without an answer by the round deadline, default standing orders decide.\n",
        );
    }
    out
}

/// Add `player`'s answer (`text`, a mail body) to `answers` for every
/// decision of his in `waiting`; `cards` names the Boots and Gloves cards
/// a `Combat:` line may play as chits.
///
/// # Errors
/// Nothing of his is waited for, the mail has no `Combat:` line, or the
/// line cannot be read (its line and column).
pub fn read_answer(
    waiting: &[Decision],
    answers: &RoundAnswers,
    player: &str,
    text: &str,
    cards: &dyn ChitCards,
) -> Result<RoundAnswers, Vec<OrdersProblem>> {
    let problem = |line: usize, column: usize, message: String| {
        vec![OrdersProblem {
            line,
            column,
            message,
        }]
    };
    let mine: Vec<&Decision> = waiting.iter().filter(|d| d.player == player).collect();
    if mine.is_empty() {
        return Err(problem(
            1,
            1,
            "no combat round waits for your answer; send orders for the next day instead".into(),
        ));
    }
    let Some((number, value)) = text.lines().enumerate().find_map(|(i, l)| {
        let l = l.trim_start();
        let head = l.get(..7)?;
        head.eq_ignore_ascii_case("combat:")
            .then(|| (i + 1, &l[7..]))
    }) else {
        return Err(problem(
            1,
            1,
            "no `Combat:` line found; answer the round with one, e.g. `Combat: target weakest`"
                .into(),
        ));
    };
    let tactics = combat::orders::parse_tactics(value, cards)
        .map_err(|(column, message)| problem(number, column + 8, message.to_string()))?;
    let mut answers = answers.clone();
    for d in mine {
        answers.answer(d, tactics.clone());
    }
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use crate::data::terms::Dwelling;
    use crate::game::MagicRealm;
    use crate::rules;
    use crate::state::{MrState, Whereabouts};
    use crate::test_support::{game_played_by, without_denizens};
    use realmgm_core::dice::Dice;
    use realmgm_core::game::{
        AcceptedOrders, Game, GameState, RoundsByMail, Rules, Turn, TurnStep,
    };

    /// The seeded game of `characters` (played by P1, P2, ...) with no
    /// denizens but one Ogre in each character's clearing, after `arrange`
    /// has placed them, as a stored state.
    fn with_an_ogre_each(characters: &[&str], arrange: impl FnOnce(&mut MrState)) -> GameState {
        let mut state = without_denizens(game_played_by(characters, |i| format!("P{}", i + 1)));
        arrange(&mut state);
        for (who, ogre) in ["Ogre 1", "Ogre 2"]
            .iter()
            .enumerate()
            .take(characters.len())
        {
            let here = state.characters[who].position.clone();
            state.denizens.get_mut(*ogre).expect("an ogre").at =
                Whereabouts::Clearing { clearing: here };
        }
        GameState::from_typed(state)
    }

    /// The Amazon alone with an Ogre in her clearing.
    fn amazon_with_an_ogre() -> GameState {
        with_an_ogre_each(&["Amazon"], |_| {})
    }

    fn orders(state: &GameState, rules: &Rules, text: &str) -> BTreeMap<String, AcceptedOrders> {
        [(
            "P1".to_string(),
            MagicRealm
                .read_orders(state, rules, "P1", text)
                .expect("orders"),
        )]
        .into()
    }

    fn by_rounds() -> Rules {
        Rules::new([rules::ROUND_BY_ROUND_COMBAT], rules::TOGGLES).expect("toggle")
    }

    #[test]
    fn answering_round_prompts_gives_the_day_the_same_answers_up_front_give() {
        let state = amazon_with_an_ogre();
        let rules = by_rounds();
        let orders = orders(&state, &rules, "R");
        let resolve = |answers: &realmgm_core::game::GameValue| {
            MagicRealm
                .resolve_turn(
                    state.clone(),
                    &Turn {
                        answers: Some(answers),
                        deadline_passed: false,
                        ..Turn::new(&rules, &orders)
                    },
                    &mut Dice::new(3, 1),
                )
                .expect("resolves")
        };
        let mut answers = realmgm_core::game::GameValue::default();
        let mut pauses = 0;
        let by_mail = loop {
            match resolve(&answers) {
                TurnStep::Done(result) => break result,
                TurnStep::Paused(pause) => {
                    pauses += 1;
                    assert!(pauses < 60, "the battle never ends");
                    let prompt = &pause.prompts["P1"];
                    assert!(prompt.contains("the Amazon is asked for"), "{prompt}");
                    assert!(prompt.contains("Combat: "), "{prompt}");
                    assert!(prompt.contains("Your sheet:\n  active chits: "), "{prompt}");
                    assert!(prompt.contains("on your sheet: "), "{prompt}");
                    // Once the Ogre is dead she still does two rounds
                    // (3.1 8.8.3), with nobody left to target.
                    if pauses == 1 {
                        assert!(prompt.contains("possible targets: Ogre 1"), "{prompt}");
                    }
                    let problems = MagicRealm
                        .read_answer(&pause.waiting, &answers, "P2", "Combat: alert")
                        .unwrap_err();
                    assert!(problems[0].message.contains("no combat round waits"));
                    answers = MagicRealm
                        .read_answer(&pause.waiting, &answers, "P1", "Combat: target weakest")
                        .expect("answer");
                }
            }
        };
        assert!(pauses >= 1, "the Amazon was never asked");
        let TurnStep::Done(up_front) = resolve(&answers) else {
            panic!("every round was answered up front");
        };
        assert_eq!(by_mail.state.hash(), up_front.state.hash());
        assert_eq!(by_mail.events, up_front.events);
        // Answering every round alike is the same as a standing order.
        let standing = MagicRealm
            .resolve_turn(
                state.clone(),
                &Turn::new(
                    &Rules::default(),
                    &self::orders(&state, &rules, "R\nCombat: target weakest"),
                ),
                &mut Dice::new(3, 1),
            )
            .expect("resolves")
            .done()
            .expect("the turn is resolved to its end");
        assert_eq!(by_mail.state.hash(), standing.state.hash());
    }

    #[test]
    fn players_fighting_in_different_clearings_are_asked_at_once() {
        let state = with_an_ogre_each(&["Amazon", "Black Knight"], |state| {
            let chapel = state.dwellings[&Dwelling::Chapel].clone();
            assert_ne!(chapel, state.characters[0].position);
            state.characters[1].position = chapel;
        });
        let rules = by_rounds();
        let mut orders = orders(&state, &rules, "R");
        orders.insert(
            "P2".into(),
            MagicRealm
                .read_orders(&state, &rules, "P2", "R")
                .expect("orders"),
        );
        let step = MagicRealm
            .resolve_turn(
                state.clone(),
                &Turn {
                    answers: Some(&realmgm_core::game::GameValue::default()),
                    deadline_passed: false,
                    ..Turn::new(&rules, &orders)
                },
                &mut Dice::new(3, 1),
            )
            .expect("resolves");
        let TurnStep::Paused(pause) = step else {
            panic!("both battles wait for their first round");
        };
        assert_eq!(
            pause.prompts.keys().map(String::as_str).collect::<Vec<_>>(),
            ["P1", "P2"]
        );
    }

    #[test]
    fn without_the_rule_the_day_never_waits_for_a_round() {
        let state = amazon_with_an_ogre();
        let step = |rules: &Rules| {
            MagicRealm
                .resolve_turn(
                    state.clone(),
                    &Turn {
                        answers: Some(&realmgm_core::game::GameValue::default()),
                        deadline_passed: false,
                        ..Turn::new(rules, &orders(&state, rules, "R"))
                    },
                    &mut Dice::new(3, 1),
                )
                .expect("resolves")
        };
        assert!(matches!(step(&by_rounds()), TurnStep::Paused(_)));
        assert!(matches!(step(&Rules::default()), TurnStep::Done(_)));
    }

    #[test]
    fn after_the_round_deadline_default_standing_orders_decide() {
        let state = amazon_with_an_ogre();
        let rules = by_rounds();
        let orders = orders(&state, &rules, "R");
        let TurnStep::Done(late) = MagicRealm
            .resolve_turn(
                state.clone(),
                &Turn {
                    answers: Some(&realmgm_core::game::GameValue::default()),
                    deadline_passed: true,
                    ..Turn::new(&rules, &orders)
                },
                &mut Dice::new(3, 1),
            )
            .expect("resolves")
        else {
            panic!("past the deadline nothing waits");
        };
        let plain = MagicRealm
            .resolve_turn(
                state.clone(),
                &Turn::new(&Rules::default(), &orders),
                &mut Dice::new(3, 1),
            )
            .expect("resolves")
            .done()
            .expect("the turn is resolved to its end");
        assert_eq!(late.state.hash(), plain.state.hash());
        let problems = MagicRealm
            .read_answer(
                &serde_json::json!([]).into(),
                &realmgm_core::game::GameValue::default(),
                "P1",
                "no line",
            )
            .unwrap_err();
        assert!(problems[0].message.contains("no combat round waits"));
    }
}
