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
    state.characters[0].gold = 95;
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
    // Gold: 95 − 35 (her starting worth) − 60 = 0 → 0. Fame: (25 − 30) × 3
    // = −15 → −2, bonus −6.
    assert_eq!(scores[0].total, -8);
    // No requirements: raw totals (10 gold − 40 starting worth → −1).
    assert_eq!(scores[1].total, -1);
}

#[test]
fn a_dead_character_scores_minus_100() {
    let mut state = game(&["Amazon"]);
    state.characters[0].dead = true;
    let score = basic_score(&state.characters[0], None);
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

/// The score of `c` with no optional rule in force, which reads nothing of
/// the world around him.
fn basic_score(
    c: &crate::state::CharacterState,
    required: Option<&crate::state::VictoryRequirements>,
) -> super::events::Score {
    super::victory::score(data(), &Rules::default(), &game(&["Amazon"]), c, required)
}

fn give(c: &mut crate::state::CharacterState, kind: crate::state::ItemKind, name: &str) {
    use crate::state::{Belonging, Item};
    c.belongings.push(Belonging {
        item: Item {
            kind,
            name: name.into(),
        },
        active: false,
    });
}

/// A final score worked by hand (3.1 9.3.2): per category basic =
/// (acquired − required) ÷ factor, a shortfall tripled first; bonus =
/// basic × the VPs recorded there. Fame values count, a Fame reward does
/// not; gold loses the starting worth.
#[test]
fn a_final_score_worked_by_hand_3_1_9_3_2() {
    use crate::state::{ItemKind, VictoryRequirements};
    let mut state = game(&["Amazon"]);
    let amazon = &mut state.characters[0];
    amazon.fame = 12;
    amazon.notoriety = 25;
    amazon.gold = 47;
    give(amazon, ItemKind::Treasure, "Dragon Essence");
    give(amazon, ItemKind::Treasure, "Sacred Statue");
    give(amazon, ItemKind::Weapon, "Bane Sword");
    // The Bane Sword is Tremendous: only an active T Move chit would carry it.
    amazon.chits.iter_mut().for_each(|c| {
        c.condition = crate::state::ChitCondition::Active;
    });
    let required = VictoryRequirements {
        great_treasures: 1,
        spells: 0,
        fame: 2,
        notoriety: 1,
        gold: 1,
    };
    let score = basic_score(&state.characters[0], Some(&required));
    // Great treasures: 2 (both treasures are great) − 1 = 1 → basic 1, bonus 1: 2.
    assert_eq!(score.great_treasures, 2);
    // Spells: none required, none learned: 0.
    assert_eq!(score.spells, 0);
    // Fame: 12 recorded − 10 (the Dragon Essence's Fame value); the
    // Statue's 10 is a reward from the Order and counts nothing; the Bane
    // Sword, too heavy for her strongest Move chit (M), is discarded.
    // 2 − 20 = −18 × 3 = −54 → basic −6, bonus −12: −18.
    assert_eq!(score.fame, 2);
    // Notoriety: 25 + 20 (Essence) − 5 (Statue) = 40; 40 − 20 = 20 → basic
    // 1, bonus 1: 2.
    assert_eq!(score.notoriety, 40);
    // Gold: 47 − 35 (10 + Short Sword 4, Helmet 5, Breastplate 9, Shield 7)
    // = 12; 12 − 30 = −18 × 3 = −54 → basic −2, bonus −2: −4.
    assert_eq!(score.gold, 12);
    // Total: 2 + 0 − 18 + 2 − 4.
    assert_eq!(score.total, -18);
}

/// The scoring example of 3.1 9.3.2: the Wizard, 1 Great Treasure (the
/// Scroll of Alchemy, Fame −10, Notoriety 15) and the Scroll of Nature
/// (Notoriety 5), 16 Fame, 11 Notoriety, 8 spells learned beyond his 2,
/// 43 gold under the Curse of Ashes, scores 0 and wins.
#[test]
fn the_wizard_of_the_3_1_scoring_example_scores_0_3_1_9_3_2() {
    use crate::state::{ItemKind, VictoryRequirements};
    use crate::tables::magic::CurseKind;
    let mut state = game(&["Wizard"]);
    let wizard = &mut state.characters[0];
    wizard.fame = 16;
    wizard.notoriety = 11;
    wizard.gold = 43;
    wizard.magic.curses.insert(CurseKind::Ashes);
    wizard.magic.spells = (0..10).map(|n| format!("spell {n}")).collect();
    wizard.magic.starting_spells = Some(2);
    give(wizard, ItemKind::Treasure, "Scroll of Alchemy");
    give(wizard, ItemKind::Treasure, "Scroll of Nature");
    let required = VictoryRequirements {
        great_treasures: 1,
        spells: 2,
        fame: 1,
        notoriety: 1,
        gold: 0,
    };
    let score = basic_score(&state.characters[0], Some(&required));
    assert_eq!(score.great_treasures, 1);
    assert_eq!(score.fame, 6);
    assert_eq!(score.notoriety, 31);
    assert_eq!(score.spells, 8);
    // −1 (Ashes) − 11 (10 gold and his Staff).
    assert_eq!(score.gold, -12);
    // Basic 0 − 2 + 0 + 2 − 2 = −2, bonus 0 − 2 + 0 + 4 + 0 = +2.
    assert_eq!(score.total, 0);
}

/// 3.1's table "Value of gold and starting equipment" is 10 gold plus the
/// price of each character's weapon and armour at the level he starts at,
/// 1st to 4th (3.1 9.3.2e, 3.3.6b.5); the Magician, with no row, is worth
/// 10 at every level.
#[test]
fn starting_worth_follows_the_3_1_table_by_level_3_1_9_3_2e_3_3_6b_5() {
    let table = [
        ("Amazon", [16, 37, 37, 35]),
        ("Berserker", [19, 26, 35, 23]),
        ("Black Knight", [30, 34, 37, 40]),
        ("Captain", [23, 35, 35, 35]),
        ("Druid", [10, 10, 10, 10]),
        ("Dwarf", [19, 19, 23, 23]),
        ("Elf", [10, 10, 16, 16]),
        ("Pilgrim", [10, 11, 11, 11]),
        ("Sorceror", [10, 10, 10, 10]),
        ("Swordsman", [10, 10, 16, 16]),
        ("White Knight", [39, 42, 42, 37]),
        ("Witch", [10, 10, 10, 10]),
        ("Witch King", [10, 10, 10, 10]),
        ("Wizard", [10, 10, 11, 11]),
        ("Woods Girl", [10, 10, 16, 16]),
        ("Magician", [10, 10, 10, 10]),
    ];
    for (name, worths) in table {
        assert!(data().characters.iter().any(|c| c.name == name), "{name}");
        for (level, worth) in (1u8..).zip(worths) {
            assert_eq!(
                super::victory::starting_worth(data(), name, level),
                worth,
                "{name} at level {level}"
            );
        }
    }
}

/// Only spells learned during the game count; the starting ones and a
/// Spell card held but not learned do not (3.1 9.3.2b).
#[test]
fn starting_spells_and_unlearned_spell_cards_do_not_count_3_1_9_3_2b() {
    use crate::state::ItemKind;
    let mut state = game(&["Wizard"]);
    let wizard = &mut state.characters[0];
    assert_eq!(wizard.magic.starting_spells, Some(2));
    assert_eq!(basic_score(wizard, None).spells, 0);
    wizard.magic.spells.push("Peace".into());
    give(wizard, ItemKind::Spell, "Exorcise");
    assert_eq!(basic_score(wizard, None).spells, 1);
}

/// At the end he discards what his strongest active Move chit, active
/// horse or active Boots card cannot carry, and it counts nothing (3.1
/// 9.3.1): the Amazon's Scroll of Alchemy (light) counts with an active
/// Move chit and not with every Move chit fatigued; active Seven League
/// Boots (T5) carry it again.
#[test]
fn what_he_cannot_carry_at_the_end_counts_nothing_3_1_9_3_1() {
    use crate::state::{ChitCondition, ItemKind};
    let mut state = game(&["Amazon"]);
    let amazon = &mut state.characters[0];
    give(amazon, ItemKind::Treasure, "Scroll of Alchemy");
    let fame = |c: &crate::state::CharacterState| basic_score(c, None).fame;
    assert_eq!(fame(amazon), -10);
    for chit in amazon
        .chits
        .iter_mut()
        .filter(|c| c.chit.starts_with("MOVE"))
    {
        chit.condition = ChitCondition::Fatigued;
    }
    assert_eq!(
        fame(amazon),
        0,
        "with no Move chit active she carries nothing"
    );
    give(amazon, ItemKind::Treasure, "Seven League Boots");
    amazon.belongings.last_mut().unwrap().active = true;
    assert_eq!(fame(amazon), -10, "active Boots carry it");
}

/// At the end a pack horse he still leads carries its load for him (3.1
/// 9.3.1 with 7.3.1i): with every Move chit fatigued the Amazon carries
/// nothing herself, yet the Scroll of Alchemy on her horse counts; once
/// the horse is gone its load counts nothing.
#[test]
fn a_pack_horse_load_counts_at_the_end_3_1_9_3_1() {
    use crate::state::{ChitCondition, Item, ItemKind};
    let mut state = game(&["Amazon"]);
    let amazon = &mut state.characters[0];
    for chit in amazon
        .chits
        .iter_mut()
        .filter(|c| c.chit.starts_with("MOVE"))
    {
        chit.condition = ChitCondition::Fatigued;
    }
    give(amazon, ItemKind::Horse, "Horse 1");
    amazon.pack.insert(
        "Horse 1".into(),
        vec![Item {
            kind: ItemKind::Treasure,
            name: "Scroll of Alchemy".into(),
        }],
    );
    let fame = |c: &crate::state::CharacterState| basic_score(c, None).fame;
    assert_eq!(fame(amazon), -10, "the pack horse carries the scroll");
    amazon.belongings.retain(|b| b.item.kind != ItemKind::Horse);
    assert_eq!(fame(amazon), 0, "a load without its horse is not carried");
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

/// 3.1 10.E.7.2.1: the second game's Great Treasure is its printed card and
/// scores as one, its Fame value with it.
#[test]
fn a_second_games_great_treasure_scores_as_the_printed_one() {
    use crate::state::ItemKind;
    let mut state = game(&["Amazon"]);
    give(
        &mut state.characters[0],
        ItemKind::Treasure,
        "Dragon Essence II",
    );
    let score = basic_score(&state.characters[0], None);
    let mut printed = game(&["Amazon"]);
    give(
        &mut printed.characters[0],
        ItemKind::Treasure,
        "Dragon Essence",
    );
    assert_eq!(score, basic_score(&printed.characters[0], None));
    assert_eq!(score.great_treasures, 1);
}
