//! A `Develop:` line checked as the daemon checks a mail (3.1 10.E.5.4).

use crate::development::DEVELOPMENT;
use crate::rules::TOGGLES;
use crate::setup::development::start_at;
use crate::test_support::{data, test_game};
use realmgm_core::game::Rules;

fn problems(text: &str, level: Option<u8>) -> Vec<String> {
    let mut state = test_game(&["Amazon"]);
    if let Some(level) = level {
        let rules = Rules::new([DEVELOPMENT], TOGGLES).expect("known toggle");
        start_at(data(), &rules, &mut state.characters[0], level).expect("starts");
    }
    let player = state.characters[0].player.clone();
    let orders = crate::orders::parse_day_orders(text, 1, data()).expect("parses");
    crate::orders::mail_check::problems(data(), Some(&state), &player, &orders, text)
        .0
        .into_iter()
        .map(|p| format!("{}: {}", p.line, p.message))
        .collect()
}

/// A `Develop:` line names chits of the levels still to come as printed;
/// another name, or the line from a character not developing, is refused
/// on its line with what to write (3.1 10.E.5.4).
#[test]
fn a_develop_line_names_chits_of_the_levels_to_come_3_1_10_e_5_4() {
    assert!(problems("R\nDevelop: fight m5; MOVE M4", Some(1)).is_empty());
    let wrong = problems("R\nDevelop: FIGHT L4", Some(1));
    assert!(
        wrong.len() == 1
            && wrong[0].starts_with("2: Develop: 'FIGHT L4' is not one of the Amazon's chits")
            && wrong[0].contains("MOVE M4, FIGHT M5"),
        "{wrong:?}"
    );
    let off = problems("R\nDevelop: FIGHT M5", None);
    assert!(
        off.len() == 1 && off[0].contains("is not developing"),
        "{off:?}"
    );
}

/// Under Extended Development a 4th-stage character's gains still count:
/// 4 points bring a chit of the 5th stage, kept on record, and no chit
/// comes into play (3.1 10.E.6.6, 10.E.5.4.1).
#[test]
fn at_4th_stage_chits_are_kept_on_record_3_1_10_e_6_6() {
    use crate::setup::{SetupInputs, new_game};
    use crate::state::development::Carried;
    use realmgm_core::dice::Dice;
    let seats = [realmgm_core::game::Seat {
        player: "P1".into(),
        role: Some("Amazon".into()),
    }];
    let inputs = SetupInputs {
        carried: [(
            "Amazon".to_string(),
            Carried {
                stage: 4,
                ..Carried::default()
            },
        )]
        .into(),
        ..SetupInputs::default()
    };
    let rules = Rules::new(["extended_development"], TOGGLES).expect("known toggle");
    let mut state = new_game(data(), &seats, &rules, &inputs, &mut Dice::new(2, 0)).unwrap();
    state.characters[0].gold = 35 + 120;
    let orders = [(
        "P1".to_string(),
        crate::orders::parse_day_orders("R", 1, data()).expect("orders read"),
    )]
    .into();
    let mut dice = Dice::with_script(1, 1, crate::test_support::script(&[]));
    let (after, events) =
        super::resolve_day(data(), &rules, state, &orders, &mut dice).expect("the day resolves");
    let lines: Vec<String> = events
        .iter()
        .filter(|e| matches!(e.happening, super::events::Happening::Development(_)))
        .map(|e| super::log::line(e).unwrap_or_default())
        .collect();
    assert_eq!(
        lines,
        [
            "The Amazon has 4 victory points toward the victory requirements and earns chit 1 of 3 \
          of the 5th stage, kept on record."
        ]
    );
    let amazon = &after.characters[0];
    assert_eq!(amazon.chits.len(), 12);
    assert_eq!(amazon.development.as_ref().map(|d| d.beyond), Some(1));
}

/// A Wizard carried at 4th stage, killed and revived under Extended
/// Development (3.1 10.E.6.4), comes back at 3rd stage, whose card records
/// one spell: a `Spells:` line naming his 4th level's two does not fit
/// him, so the mail check refuses it and, sent anyway, the dice record his
/// one; he records the victory points of his new next stage, 4.
#[test]
fn a_revived_wizard_records_his_revived_stages_spells_3_1_10_e_6_4() {
    use crate::setup::{SetupInputs, new_game};
    use crate::state::development::Carried;
    let rules = Rules::new(
        ["extended_development", "extended_development_revival"],
        TOGGLES,
    )
    .expect("known toggles");
    let seats = [realmgm_core::game::Seat {
        player: "P1".into(),
        role: Some("Wizard".into()),
    }];
    let inputs = SetupInputs {
        carried: [(
            "Wizard".to_string(),
            Carried {
                stage: 4,
                ..Carried::default()
            },
        )]
        .into(),
        ..SetupInputs::default()
    };
    let mut dice = realmgm_core::dice::Dice::new(2, 0);
    let mut state = new_game(data(), &seats, &rules, &inputs, &mut dice).expect("sets up");
    state.characters[0].dead = true;
    let wizard = &state.characters[0];
    assert_eq!(
        crate::development::restart_victory_points(wizard, 5),
        4,
        "3rd stage records 4th's points"
    );
    let card = data()
        .characters
        .iter()
        .find(|c| c.name == "Wizard")
        .expect("Wizard");
    let two: Vec<String> = data()
        .spells
        .iter()
        .filter(|s| s.learnable() && crate::magic::spellbook::type_allowed(card, s).is_ok())
        .map(|s| s.name.clone())
        .take(2)
        .collect();
    let text = format!("H\nSpells: {}", two.join("; "));
    let orders = crate::orders::parse_day_orders(&text, 1, data()).expect("parses");
    let (problems, _) =
        crate::orders::mail_check::problems(data(), Some(&state), "P1", &orders, &text);
    assert!(
        problems
            .iter()
            .any(|p| p.line == 2 && p.message.contains("records 1 spell; 2 named")),
        "{problems:?}"
    );
    let (after, _) =
        crate::test_support::play_day_under(&rules, state, &[("P1", text.as_str())], &[]);
    let wizard = &after.characters[0];
    assert!(!wizard.dead);
    assert_eq!(crate::development::level(wizard), 3);
    assert_eq!(wizard.magic.spells.len(), 1, "{:?}", wizard.magic.spells);
}
