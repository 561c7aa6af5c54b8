//! The mail side of round-by-round combat (the
//! `round_by_round_combat` toggle): the prompt a player gets when a battle
//! stops at a round of his, and reading his answer, a `Combat:` line for
//! that round (clauses as in the orders mail, [`combat::orders`]). A
//! player of several characters (3.1 10.E.4) gets one prompt for all of
//! his asked, and answers each one's round with a `Combat:` line under his
//! `Orders for:` line, as in his orders.

use std::collections::BTreeMap;

use realmgm_core::game::{OrdersProblem, Reader};

use crate::combat::by_rounds::RoundAnswers;
use crate::combat::log::CombatLine;
use crate::combat::orders::ChitCards;
use crate::combat::tactics::Tactics;
use crate::combat::{self, Decision};
use crate::day::events::{CombatEvent, DayEvent, Happening};
use crate::orders::sections::{self, HEADER};

/// The characters whose decisions `player` answers, in the order asked.
fn characters_asked<'d>(decisions: &'d [Decision], player: &str) -> Vec<&'d str> {
    let mut names: Vec<&str> = Vec::new();
    for d in decisions.iter().filter(|d| d.answered_by() == player) {
        if !names.contains(&d.character.as_str()) {
            names.push(&d.character);
        }
    }
    names
}

/// Each asked player's prompt for the decisions a day stopped at, with
/// the lines of the stopped battle each of his characters has seen.
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
        let text = out.entry(d.answered_by().to_string()).or_default();
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
    for (player, text) in &mut out {
        let characters = characters_asked(decisions, player);
        if characters.len() > 1 {
            let lines: Vec<String> = characters
                .iter()
                .map(|name| format!("{HEADER} {name}\nCombat: ..."))
                .collect();
            text.push_str(&format!(
                "Answer for each of your characters, the `Combat: ...` line below the line \
                 naming that character (e.g. `Combat: attack with FIGHT H5, maneuver with MOVE M4, \
                 target weakest`), as in your orders:\n{}\nEach line decides all that \
                 character's plays this round. Without an answer by the round deadline, default standing orders \
                 decide.\n",
                lines.join("\n")
            ));
        } else {
            text.push_str(
                "Answer with one line `Combat: ...` (e.g. `Combat: attack with FIGHT H5, \
                 maneuver with MOVE M4, target weakest`): it decides all your plays this round. \
                 Without an answer by the round deadline, default standing orders decide.\n",
            );
        }
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
    let characters = characters_asked(waiting, player);
    let mut answers = answers.clone();
    match characters.as_slice() {
        [] => Err(problem(
            1,
            1,
            "no combat round waits for your answer; send orders for the next day instead".into(),
        )),
        [_] => {
            let tactics = read_combat_line(text, cards, 1, "answer the round with one")?;
            for d in waiting.iter().filter(|d| d.answered_by() == player) {
                answers.answer(d, tactics.clone());
            }
            Ok(answers)
        }
        several => {
            let each = read_each(text, several, cards)?;
            for d in waiting.iter().filter(|d| d.answered_by() == player) {
                if let Some(tactics) = each.get(d.character.as_str()) {
                    answers.answer(d, tactics.clone());
                }
            }
            Ok(answers)
        }
    }
}

/// The tactics of the first `Combat:` line of `text`.
///
/// # Errors
/// No such line (named at `line`, with `ask` saying what to write), or it
/// cannot be read (its line and column).
fn read_combat_line(
    text: &str,
    cards: &dyn ChitCards,
    line: usize,
    ask: &str,
) -> Result<Tactics, Vec<OrdersProblem>> {
    let Some((number, value)) = text.lines().enumerate().find_map(|(i, l)| {
        let l = l.trim_start();
        let head = l.get(..7)?;
        head.eq_ignore_ascii_case("combat:")
            .then(|| (i + 1, &l[7..]))
    }) else {
        return Err(vec![OrdersProblem {
            line,
            column: 1,
            message: format!("no `Combat:` line found; {ask}, e.g. `Combat: target weakest`"),
        }]);
    };
    combat::orders::parse_tactics(value, cards).map_err(|(column, message)| {
        vec![OrdersProblem {
            line: number,
            column: column + 8,
            message: message.to_string(),
        }]
    })
}

/// The answer of a player asked for several of his characters: each one's
/// `Combat:` line below his `Orders for:` line (3.1 10.E.4.4), by
/// character.
///
/// # Errors
/// A mail without such lines, a part for a character not asked or for one
/// twice, a character asked left without a part, and every problem of
/// each part.
fn read_each<'c>(
    text: &str,
    asked: &[&'c str],
    cards: &dyn ChitCards,
) -> Result<BTreeMap<&'c str, Tactics>, Vec<OrdersProblem>> {
    let problem = |line: usize, message: String| OrdersProblem {
        line,
        column: 1,
        message,
    };
    let headers: Vec<String> = asked.iter().map(|n| format!("'{HEADER} {n}'")).collect();
    let split = sections::split(text);
    if split.sections.is_empty() {
        return Err(vec![problem(
            1,
            format!(
                "this round asks for {} characters of yours, so give each one's `Combat:` line \
                 below the line naming that character ({})",
                asked.len(),
                realmgm_core::words::listed(&headers)
            ),
        )]);
    }
    let assigned = split.assign(asked, |name| name);
    let mut problems: Vec<OrdersProblem> = assigned
        .unknown
        .iter()
        .map(|section| {
            problem(
                section.line,
                format!(
                    "{HEADER} '{}' is not a character this round asks of you; it asks {}",
                    section.name,
                    realmgm_core::words::listed(&headers)
                ),
            )
        })
        .collect();
    problems.extend(assigned.again.iter().map(|(name, section)| {
        problem(
            section.line,
            format!("a second part for the {name}; give each character one '{HEADER}' part"),
        )
    }));
    problems.extend(assigned.missing.iter().map(|name| {
        problem(
            1,
            format!(
                "no answer for the {name}; add a line '{HEADER} {name}' with the {name}'s \
                 `Combat:` line below it"
            ),
        )
    }));
    let mut each = BTreeMap::new();
    for (name, section) in &assigned.parts {
        let ask = format!("give the {name}'s below the line '{HEADER} {name}'");
        match read_combat_line(&section.text, cards, section.line, &ask) {
            Ok(tactics) => {
                each.insert(**name, tactics);
            }
            Err(more) => problems.extend(more),
        }
    }
    if problems.is_empty() {
        Ok(each)
    } else {
        problems.sort_by_key(|p| p.line);
        Err(problems)
    }
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

    /// P1 plays the Amazon and the Black Knight, with an Ogre each, in one
    /// combat (3.1 10.E.4.5) or in two clearings.
    #[test]
    fn a_player_of_two_characters_answers_each_ones_round_under_his_line_3_1_10_e_4() {
        two_characters_answer_each_ones_round(true);
        two_characters_answer_each_ones_round(false);
    }

    /// One prompt asks P1 for both of his characters, and his answer gives
    /// each one's `Combat:` line under his `Orders for:` line (3.1
    /// 10.E.4.4), which plays the day as those lines given up front do.
    fn two_characters_answer_each_ones_round(together: bool) {
        let state = with_an_ogre_each(&["Amazon", "Black Knight"], |state| {
            let chapel = state.dwellings[&Dwelling::Chapel].clone();
            state.characters[1].position = if together {
                state.characters[0].position.clone()
            } else {
                chapel
            };
            for (n, c) in state.characters.iter_mut().enumerate() {
                c.player = format!("P1/{}", n + 1);
                c.controller = Some("P1".into());
            }
        });
        let rules = Rules::new(
            [rules::ROUND_BY_ROUND_COMBAT, rules::MULTIPLE_CHARACTERS],
            rules::TOGGLES,
        )
        .expect("toggles");
        let orders = orders(
            &state,
            &rules,
            "Orders for: Amazon\nR\nOrders for: Black Knight\nR",
        );
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
            let pause = match resolve(&answers) {
                TurnStep::Done(result) => break result,
                TurnStep::Paused(pause) => pause,
            };
            pauses += 1;
            assert!(pauses < 60, "the battles never end");
            assert_eq!(pause.prompts.keys().collect::<Vec<_>>(), ["P1"]);
            let prompt = &pause.prompts["P1"];
            let asked: Vec<&str> = ["Amazon", "Black Knight"]
                .into_iter()
                .filter(|name| prompt.contains(&format!("the {name} is asked for")))
                .collect();
            if pauses == 1 {
                assert_eq!(asked, ["Amazon", "Black Knight"], "{prompt}");
                let battles = prompt.matches("Combat in ").count();
                assert_eq!(battles, 2, "{prompt}");
                assert_eq!(
                    prompt
                        .lines()
                        .filter(|l| l.starts_with("Combat in "))
                        .filter_map(|l| l.split(", round").next())
                        .collect::<std::collections::BTreeSet<_>>()
                        .len(),
                    if together { 1 } else { 2 },
                    "{prompt}"
                );
                assert!(
                    prompt.contains("Orders for: Amazon\nCombat: ...\n")
                        && prompt.contains("Orders for: Black Knight\nCombat: ...\n"),
                    "{prompt}"
                );
                let read = |text: &str| {
                    MagicRealm
                        .read_answer(&pause.waiting, &answers, "P1", text)
                        .unwrap_err()
                        .into_iter()
                        .map(|p| p.message)
                        .collect::<Vec<_>>()
                };
                let bare = read("Combat: target weakest");
                assert!(
                    bare[0].contains("give each one's `Combat:` line"),
                    "{bare:?}"
                );
                let half = read("Orders for: Amazon\nCombat: target weakest");
                assert!(
                    half[0].contains("no answer for the Black Knight"),
                    "{half:?}"
                );
                let stranger = read(
                    "Orders for: Amazon\nCombat: target weakest\nOrders for: Black Knight\n\
                     Combat: target weakest\nOrders for: Dwarf\nCombat: alert",
                );
                assert!(
                    stranger[0].contains("'Dwarf' is not a character this round asks of you"),
                    "{stranger:?}"
                );
            }
            let text: String = asked
                .iter()
                .map(|name| format!("Orders for: {name}\nCombat: target weakest\n"))
                .collect();
            answers = MagicRealm
                .read_answer(&pause.waiting, &answers, "P1", &text)
                .expect("answer");
        };
        assert!(pauses >= 1, "P1 was never asked");
        let standing = MagicRealm
            .resolve_turn(
                state.clone(),
                &Turn::new(
                    &Rules::new([rules::MULTIPLE_CHARACTERS], rules::TOGGLES).expect("toggle"),
                    &self::orders(
                        &state,
                        &rules,
                        "Orders for: Amazon\nR\nCombat: target weakest\nOrders for: Black \
                         Knight\nR\nCombat: target weakest",
                    ),
                ),
                &mut Dice::new(3, 1),
            )
            .expect("resolves")
            .done()
            .expect("the turn is resolved to its end");
        assert_eq!(by_mail.state.hash(), standing.state.hash());
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
