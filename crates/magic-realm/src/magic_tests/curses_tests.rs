//! Tests of curses: their effects in the day, who is immune, and lifting
//! them (the Chapel, Remedy).

use crate::data::terms::Dwelling;
use crate::day::{Day, PhaseOutcome, activities, events::PhaseResult};
use crate::rules::TOGGLES;
use crate::state::ChitCondition;
use crate::tables::magic::CurseKind;
use crate::test_support::{data, test_game as game};
use realmgm_core::dice::{Dice, DiceScript};
use realmgm_core::game::Rules;

use crate::magic::curses;
use crate::magic::events::MagicEvent;
use crate::state::magic::Aim;

use super::test_fixtures::{cast_ok, caster, read, request};

#[test]
fn each_curse_has_its_effect_in_the_day() {
    let rules = Rules::default();
    let mut state = game(&["Wizard"]);
    curses::inflict(&mut state, data(), &rules, 0, CurseKind::Eyemist, "test");
    let (outcome, _) = read(&mut state, &[&[1]]);
    assert!(matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("Eyemist")));

    curses::inflict(&mut state, data(), &rules, 0, CurseKind::IllHealth, "test");
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state.clone(), &mut dice);
    assert!(
        matches!(activities::rest(&mut day, 0, None), PhaseResult::Lost { reason } if reason.contains("Ill Health"))
    );

    curses::inflict(&mut state, data(), &rules, 0, CurseKind::Squeak, "test");
    let mut script = DiceScript::default();
    script.force("daylight/hide", &[1]).unwrap();
    let mut dice = Dice::with_script(1, 1, script);
    let mut day = Day::new(data(), &rules, state.clone(), &mut dice);
    assert!(matches!(
        activities::hide(&mut day, 0),
        PhaseResult::Hid { hidden: false, .. }
    ));
    assert!(!day.state.characters[0].hidden);

    state.characters[0].gold = 40;
    curses::inflict(&mut state, data(), &rules, 0, CurseKind::Ashes, "test");
    assert_eq!(curses::spendable_gold(&state.characters[0]), 0);
    assert_eq!(curses::gold_for_points(&state.characters[0]), -1);
    state.characters[0].fame = 12;
    curses::inflict(&mut state, data(), &rules, 0, CurseKind::Disgust, "test");
    assert_eq!(curses::spendable_fame(&state.characters[0]), 0);
    assert_eq!(curses::fame_for_points(&state.characters[0]), -1);

    curses::inflict(&mut state, data(), &rules, 0, CurseKind::Wither, "test");
    assert!(state.characters[0].chits.iter().all(|c| {
        c.condition != ChitCondition::Active
            || crate::data::characters::ActionChit::parse(&c.chit)
                .unwrap()
                .effort
                == 0
    }));
}

#[test]
fn the_druid_is_never_cursed_and_the_chapel_lifts_curses_at_midnight() {
    let rules = Rules::new(["optional_abilities"], TOGGLES).unwrap();
    let mut state = game(&["Druid", "Wizard"]);
    let event = curses::inflict(&mut state, data(), &rules, 0, CurseKind::Ashes, "test");
    assert!(matches!(event, MagicEvent::CurseMissed { .. }));
    curses::inflict(&mut state, data(), &rules, 1, CurseKind::Ashes, "test");
    state.characters[1].position = state.dwellings[&Dwelling::Chapel].clone();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    crate::day::spell_clock::midnight(&mut day);
    assert!(day.state.characters[1].magic.curses.is_empty());
}

#[test]
fn remedy_lifts_a_curse() {
    let mut state = game(&["Witch"]);
    curses::inflict(
        &mut state,
        data(),
        &Rules::default(),
        0,
        CurseKind::Squeak,
        "test",
    );
    caster(&mut state, 0, "VIII", "Remedy");
    let aim = Aim::Curse {
        character: "Witch".into(),
        curse: CurseKind::Squeak,
    };
    cast_ok(
        &mut state,
        &request(0, "Remedy", vec![aim], 14),
        &mut Dice::new(1, 1),
    );
    assert!(state.characters[0].magic.curses.is_empty());
    assert_eq!(
        state.characters[0].chits[0].condition,
        ChitCondition::Fatigued,
        "instant: chit fatigued at once"
    );
}
