//! Every optional rule the day engine or the daemon applies, switched on and
//! off over the same state and dice, showing that the switch changes the
//! outcome (engineering principle 5). Optional combat rules prove the same
//! with `_on`/`_off` battle-file pairs (`tests/engine/battles.rs`).
//!
//! [`ON_OFF_TESTS`] names where each built toggle's on/off test lives, and
//! [`every_built_toggle_has_an_on_off_test`] fails when a toggle is marked
//! built in `rules.rs` without one.

use std::collections::BTreeSet;

use super::Day;
use super::events::{DayEvent, Happening};
use super::meeting;
use super::summoning;
use super::trade;
use crate::data::characters::Relationship;
use crate::data::terms::Dwelling;
use crate::magic::curses;
use crate::magic::events::MagicEvent;
use crate::rules::TOGGLES;
use crate::state::{Belonging, Item, ItemKind, MapChit};
use crate::tables::commerce::{self, CommerceResult};
use crate::tables::magic::CurseKind;
use crate::test_support::{data, script, test_game as game};
use realmgm_core::dice::Dice;
use realmgm_core::game::{Rules, ToggleStatus};

/// Where the on/off test of each built toggle is, for toggles not proven by
/// a battle-file pair.
const ON_OFF_TESTS: &[(&str, &str)] = &[
    (
        "dropping_belongings",
        "day::pick_up_tests::dropping_belongings_on_drops_in_plain_sight_and_off_abandons",
    ),
    (
        "multiple_characters",
        "game::several_tests::multiple_characters_seat_each_of_a_players_characters_3_1_10_e_4",
    ),
    (
        "extended_development",
        "day::toggle_tests::extended_development_carries_stages_from_campaign_to_campaign_3_1_10_e_6",
    ),
    (
        "development",
        "day::toggle_tests::development_turns_victory_points_into_next_level_chits_3_1_10_e_5_4",
    ),
    (
        "extended_development_double_points",
        "day::toggle_tests::extended_development_double_and_triple_points_lengthen_the_game_3_1_10_e_6_2",
    ),
    (
        "extended_development_triple_points",
        "day::toggle_tests::extended_development_double_and_triple_points_lengthen_the_game_3_1_10_e_6_2",
    ),
    (
        "extended_development_winner_one_chit",
        "day::toggle_tests::extended_development_winner_jumps_a_stage_a_chit_or_nothing_3_1_10_e_6_3_4",
    ),
    (
        "extended_development_winner_no_jump",
        "day::toggle_tests::extended_development_winner_jumps_a_stage_a_chit_or_nothing_3_1_10_e_6_3_4",
    ),
    (
        "extended_development_without_requirements",
        "day::toggle_tests::extended_development_without_requirements_crowns_the_most_chits_3_1_10_e_6_10",
    ),
    (
        "extended_development_ends_at_victory",
        "day::toggle_tests::extended_development_ends_at_victory_when_requirements_are_met_3_1_10_e_6_3",
    ),
    (
        "extended_development_revival",
        "day::toggle_tests::extended_development_revival_brings_him_back_three_chits_down_3_1_10_e_6_4",
    ),
    (
        "knights_adjustment",
        "day::toggle_tests::knights_adjustment_makes_the_white_knight_only_friendly",
    ),
    (
        "quiet_monsters",
        "day::toggle_tests::quiet_monsters_keep_a_hidden_characters_tile_face_down",
    ),
    (
        "commerce",
        "day::toggle_tests::commerce_rolls_for_the_price_of_a_sale",
    ),
    (
        "optional_abilities",
        "day::toggle_tests::the_druids_optional_ability_turns_a_curse_away",
    ),
    (
        "chosen_optional_abilities",
        "day::toggle_tests::chosen_optional_abilities_are_only_those_the_player_took; \
         day::toggle_tests::the_elfs_form_leaves_out_the_other_forms_chits",
    ),
    (
        "caching",
        "day::cache_tests::without_the_rule_a_cache_phase_is_lost; \
         day::cache_tests::a_cache_holds_what_its_owner_left_and_only_he_sees_it",
    ),
    (
        "expanded_meeting_table_opportunities",
        "day::trade_tests::opportunity_with_and_without_the_bimr3_rule",
    ),
    (
        "player_built_board",
        "setup::tests::a_player_built_board_is_required_by_its_rule; \
         tests/mail/daemon_maildir.rs the_shipped_bimr3_campaign_is_set_up_by_its_five_players_by_mail",
    ),
    (
        "unlimited_communication",
        "tests/mail/daemon_maildir.rs players_ask_for_help_orders_report_rules_and_write_privately (off); \
         tests/mail/report_mail.rs (on)",
    ),
    (
        "seasons_and_weather",
        "day::weather_tests::the_toggle_changes_the_phases_of_a_storm_week",
    ),
    (
        "flying_activities",
        "day::travel_tests::flying_activities_peer_and_alert_without_landing_3_1_10_a_3",
    ),
    (
        "grudges_and_gratitude",
        "day::grudges_tests::grudges_and_gratitude_makes_a_friendly_group_colder_for_a_kill; \
         day::grudges_tests::treachery_costs_five_levels_kept_past_enemy; \
         day::grudges_tests::selling_a_fame_reward_card_to_its_group_wins_fame_and_a_level",
    ),
    (
        "grudges_and_gratitudes",
        "day::grudges_tests::grudges_and_gratitude_makes_a_friendly_group_colder_for_a_kill",
    ),
    (
        "extended_grudges",
        "day::grudges_tests::extended_grudges_costs_a_level_for_a_group_that_is_no_friend",
    ),
    (
        "automatic_enchanting",
        "day::toggle_tests::automatic_enchanting_turns_the_grey_tiles_over_on_day_14_3_1_10_c_5",
    ),
    (
        "sudden_death",
        "day::toggle_tests::sudden_death_ends_the_game_when_every_requirement_is_met_3_1_10_e_3",
    ),
    (
        "sudden_death_at_start",
        "day::toggle_tests::sudden_death_at_start_ends_the_game_only_where_he_started_3_1_10_e_3_3",
    ),
    (
        "round_by_round_combat",
        "round_prompts::tests::without_the_rule_the_day_never_waits_for_a_round",
    ),
    (
        "solitaire",
        "day::toggle_tests::solitaire_sets_out_a_lone_game_and_rolls_twice_3_1_10_e_1",
    ),
    (
        "combined_realms",
        "day::combined_realms_tests::a_combined_campaign_starts_and_plays_a_day_through_the_game",
    ),
    (
        "dwarf_short_legs_optional",
        "abilities::tests::the_dwarfs_optional_short_legs_come_only_with_their_own_toggle",
    ),
];

fn rules(on: &[&str]) -> Rules {
    Rules::new(on.iter().copied(), TOGGLES).expect("known toggles")
}

#[test]
fn every_built_toggle_has_an_on_off_test() {
    let battle_pairs: BTreeSet<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/battles"))
            .expect("tests/battles exists")
            .filter_map(|entry| {
                let path = entry.ok()?.path();
                let text = std::fs::read_to_string(&path).ok()?;
                let line = text.lines().find(|l| l.starts_with("rules = "))?;
                Some(
                    line.split('"')
                        .skip(1)
                        .step_by(2)
                        .map(str::to_string)
                        .collect::<Vec<_>>(),
                )
            })
            .flatten()
            .collect();
    let listed: BTreeSet<&str> = ON_OFF_TESTS.iter().map(|(name, _)| *name).collect();
    let missing: Vec<&str> = TOGGLES
        .iter()
        .filter(|t| t.status == ToggleStatus::Built)
        .map(|t| t.name)
        .filter(|name| !listed.contains(name) && !battle_pairs.contains(*name))
        .collect();
    assert!(
        missing.is_empty(),
        "built toggles without an on/off test (add one and list it in ON_OFF_TESTS, \
         or add an _on/_off battle-file pair): {missing:?}"
    );
    let not_built: Vec<&str> = listed
        .iter()
        .copied()
        .filter(|name| {
            TOGGLES
                .iter()
                .any(|t| t.name == *name && t.status != ToggleStatus::Built)
        })
        .collect();
    assert!(
        not_built.is_empty(),
        "toggles with an on/off test still marked not built in rules.rs: {not_built:?}"
    );
}

#[test]
fn knights_adjustment_makes_the_white_knight_only_friendly() {
    let relation = |on: &[&str]| {
        let rules = rules(on);
        let mut dice = Dice::new(1, 1);
        let day = Day::new(data(), &rules, game(&["White Knight"]), &mut dice);
        meeting::relationship(&day, 0, "Order")
    };
    assert_eq!(relation(&[]), Relationship::Ally);
    assert_eq!(relation(&["knights_adjustment"]), Relationship::Friendly);
}

/// A hidden Amazon ends her turn in a tile holding one face-down chit;
/// returns whether it is face up afterwards.
fn chit_face_up_after_turn(on: &[&str]) -> bool {
    let mut state = game(&["Amazon"]);
    let tile = state.characters[0].position.tile.clone();
    state.characters[0].hidden = true;
    state.map_chits.insert(
        tile.clone(),
        vec![MapChit {
            name: "Roar 6".into(),
            face_up: false,
        }],
    );
    let rules = rules(on);
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    summoning::end_of_turn(&mut day, 0, &[]);
    day.state
        .face_up_chits(&tile)
        .contains(&"Roar 6".to_string())
}

#[test]
fn quiet_monsters_keep_a_hidden_characters_tile_face_down() {
    assert!(chit_face_up_after_turn(&[]));
    assert!(!chit_face_up_after_turn(&["quiet_monsters"]));
}

/// The Amazon at the Inn sells a priced treasure to the Rogues; returns her
/// gold afterwards and the events.
fn sale(on: &[&str], forced_commerce_roll: u8) -> (u16, u32, Vec<DayEvent>) {
    let mut state = game(&["Amazon"]);
    state.characters[0].position = state.dwellings[&Dwelling::Inn].clone();
    state.characters[0].gold = 100;
    let treasure = data()
        .treasures
        .iter()
        .find(|t| t.price.is_some_and(|p| p >= 20))
        .expect("some treasure is worth 20 gold or more");
    state.characters[0].belongings.push(Belonging {
        item: Item {
            kind: ItemKind::Treasure,
            name: treasure.name.clone(),
        },
        active: false,
    });
    let rules = rules(on);
    let mut dice = Dice::with_script(1, 1, script(&[("commerce", &[forced_commerce_roll][..])]));
    let mut day = Day::new(data(), &rules, state, &mut dice);
    let price = trade::base_price(day.data, &day.state.characters[0].belongings[0].item)
        .expect("treasures have prices");
    let outcome = trade::sell(&mut day, 0, &treasure.name);
    assert_eq!(outcome, super::PhaseOutcome::Done);
    (day.state.characters[0].gold, price, day.events)
}

#[test]
fn commerce_rolls_for_the_price_of_a_sale() {
    let relation = {
        let rules = Rules::default();
        let mut dice = Dice::new(1, 1);
        let mut state = game(&["Amazon"]);
        state.characters[0].position = state.dwellings[&Dwelling::Inn].clone();
        let day = Day::new(data(), &rules, state, &mut dice);
        meeting::relationship(&day, 0, "Rogues")
    };
    // A row whose offer differs from the basic price.
    let (row, adjust) = (1u8..=6)
        .find_map(
            |row| match commerce::column(relation)[usize::from(row - 1)] {
                CommerceResult::Offer(n) if n != 0 => Some((row, n)),
                _ => None,
            },
        )
        .expect("every column has an offer other than the basic price");

    let (gold, price, events) = sale(&[], row);
    assert_eq!(
        u32::from(gold),
        100 + price,
        "without the rule: the basic price"
    );
    let rolled = |events: &[DayEvent]| {
        events.iter().any(
            |e| matches!(&e.happening, Happening::Roll(r) if r.purpose.starts_with("commerce")),
        )
    };
    assert!(!rolled(&events));

    let (gold, price, events) = sale(&["commerce"], row);
    let expected = i64::from(price) + i64::from(adjust) + 100;
    assert_eq!(
        i64::from(gold),
        expected,
        "with the rule: the table's offer"
    );
    assert!(rolled(&events));
    // The seller reads the roll that set his price on the sale's line.
    let told = events.iter().any(|e| {
        matches!(
            &e.happening,
            Happening::Trade(super::trade::TradeEvent::Sold { .. })
        ) && super::log::line(e).is_some_and(|l| l.contains("gold (Commerce"))
    });
    assert!(told, "{events:?}");
}

#[test]
fn the_druids_optional_ability_turns_a_curse_away() {
    let cursed = |on: &[&str]| {
        let mut state = game(&["Druid"]);
        let event = curses::inflict(&mut state, data(), &rules(on), 0, CurseKind::Ashes, "test");
        matches!(event, MagicEvent::Cursed { .. })
    };
    assert!(cursed(&[]));
    assert!(!cursed(&["optional_abilities"]));
}

#[test]
fn chosen_optional_abilities_are_only_those_the_player_took() {
    let cursed = |on: &[&str], chosen: &[&str]| {
        let mut state = game(&["Druid"]);
        state.characters[0].optional_abilities = chosen.iter().map(|a| a.to_string()).collect();
        let event = curses::inflict(&mut state, data(), &rules(on), 0, CurseKind::Ashes, "test");
        matches!(event, MagicEvent::Cursed { .. })
    };
    assert!(
        cursed(&[], &["Earth Absorbs"]),
        "no rule: no optional ability"
    );
    assert!(
        cursed(&["chosen_optional_abilities"], &["Lull"]),
        "he took another"
    );
    assert!(!cursed(&["chosen_optional_abilities"], &["Earth Absorbs"]));
}

#[test]
fn the_elfs_form_leaves_out_the_other_forms_chits() {
    use crate::data::characters::ElfForm;
    use crate::setup::{SetupInputs, new_game};
    let chits = |on: &[&str], form: Option<ElfForm>| {
        let seats = [realmgm_core::game::Seat {
            player: "P1".into(),
            role: Some("Elf".into()),
        }];
        let inputs = SetupInputs {
            forms: form.map(|f| ("Elf".to_string(), f)).into_iter().collect(),
            ..SetupInputs::default()
        };
        let state = new_game(data(), &seats, &rules(on), &inputs, &mut Dice::new(2, 0)).unwrap();
        let elf = &state.characters[0];
        (
            elf.elf_form,
            elf.chits.iter().map(|c| c.chit.clone()).collect::<Vec<_>>(),
        )
    };
    let (form, all) = chits(&[], Some(ElfForm::Light));
    assert_eq!((form, all.len()), (None, 12), "no rule: the whole Elf");
    let (form, light) = chits(&["chosen_optional_abilities"], Some(ElfForm::Light));
    assert_eq!(form, Some(ElfForm::Light));
    assert_eq!(light, all[..9], "the Light Elf leaves out stages 10-12");
    let (_, great) = chits(&["chosen_optional_abilities"], Some(ElfForm::Great));
    assert_eq!(great[..6], all[..6]);
    assert_eq!(great[6..], all[9..], "the Great Elf leaves out stages 7-9");
    let (form, _) = chits(&["optional_abilities"], None);
    assert!(form.is_some(), "unchosen, the dice pick a form");
}

#[test]
fn the_wizards_elvish_studies_replaces_his_fifth_chit() {
    use crate::setup::{SetupInputs, new_game};
    let fifth = |on: &[&str]| {
        let seats = [realmgm_core::game::Seat {
            player: "P1".into(),
            role: Some("Wizard".into()),
        }];
        let state = new_game(
            data(),
            &seats,
            &rules(on),
            &SetupInputs::default(),
            &mut Dice::new(2, 0),
        )
        .unwrap();
        state.characters[0].chits[4].chit.clone()
    };
    assert_eq!(fifth(&[]), "MOVE M5");
    assert_eq!(fifth(&["optional_abilities"]), "MAGIC III2*");
}

/// The sides of every tile on the map after the start of day `day_number`
/// under the rules `on`, with the Amazon carrying `carried`.
fn sides_at_dawn(
    on: &[&str],
    day_number: u32,
    carried: Option<&str>,
) -> (Vec<(String, crate::data::tiles::Side)>, Vec<DayEvent>) {
    let mut state = game(&["Amazon"]);
    if let Some(name) = carried {
        state.characters[0].belongings.push(Belonging {
            item: Item {
                kind: ItemKind::Treasure,
                name: name.into(),
            },
            active: false,
        });
    }
    let rules = rules(on);
    let mut dice = Dice::new(1, day_number);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    super::auto_enchant::at_dawn(&mut day, day_number);
    let sides = day
        .state
        .board
        .placements()
        .map(|p| (p.tile.clone(), p.side))
        .collect();
    (sides, day.events)
}

/// Day 14's Grey magic turns over every tile whose enchanted side shows
/// Grey (the five Valleys, Ruins, Crag, Borderland), once; off, or on a day
/// that is not a 7th day, nothing turns (3.1 10.C.5.1, 10.C.5.3.1).
#[test]
fn automatic_enchanting_turns_the_grey_tiles_over_on_day_14_3_1_10_c_5() {
    use crate::data::tiles::Side;
    let (before, _) = sides_at_dawn(&[], 13, None);
    let (off, _) = sides_at_dawn(&[], 14, None);
    assert_eq!(off, before);
    let (not_seventh, _) = sides_at_dawn(&["automatic_enchanting"], 13, None);
    assert_eq!(not_seventh, before);
    let (on, events) = sides_at_dawn(&["automatic_enchanting"], 14, None);
    let turned: Vec<&str> = on
        .iter()
        .zip(&before)
        .filter(|(a, b)| a.1 != b.1)
        .map(|(a, _)| a.0.as_str())
        .collect();
    let grey: Vec<&str> = before
        .iter()
        .map(|(code, _)| code.as_str())
        .filter(|code| {
            data().tiles.by_code(code).is_some_and(|t| {
                t.enchanted
                    .clearings
                    .iter()
                    .any(|c| c.magic.contains(&crate::data::terms::Colour::Grey))
            })
        })
        .collect();
    assert!(grey.len() >= 8, "{grey:?}");
    assert_eq!(turned, grey);
    assert!(
        on.iter()
            .filter(|(t, _)| grey.contains(&t.as_str()))
            .all(|(_, s)| *s == Side::Enchanted)
    );
    // One line tells the whole colour's tiles, by code.
    let mut codes = grey.clone();
    codes.sort_unstable();
    let lines: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::AutoEnchant(a) => Some(a.log_line()),
            _ => None,
        })
        .collect();
    assert_eq!(
        lines,
        [format!(
            "The 7th day's grey magic turns {} tiles over to their enchanted side ({}).",
            codes.len(),
            codes.join(", ")
        )]
    );
}

/// On day 7 White magic turns over the tile of whoever carries the Sacred
/// Grail, an Enchanted card supplying White (3.1 10.C.5.2-3).
#[test]
fn automatic_enchanting_turns_over_the_tile_holding_the_sacred_grail_3_1_10_c_5_3() {
    let (before, _) = sides_at_dawn(&["automatic_enchanting"], 7, None);
    let (with_grail, _) = sides_at_dawn(&["automatic_enchanting"], 7, Some("Sacred Grail"));
    let here = game(&["Amazon"]).characters[0].position.tile.clone();
    let side = |sides: &[(String, crate::data::tiles::Side)]| {
        sides.iter().find(|(t, _)| *t == here).map(|(_, s)| *s)
    };
    assert_ne!(side(&before), side(&with_grail));
}

/// The Amazon, meeting her requirements (1 VP on gold: 30 beyond her
/// starting worth of 35) or not, asks to end the game on day 5.
fn end_game_on_day_5(on: &[&str], gold: u16) -> (crate::state::MrState, Vec<DayEvent>) {
    end_game_on_day_5_after(on, gold, |_| {})
}

/// As [`end_game_on_day_5`], with `arrange` changing the position first.
fn end_game_on_day_5_after(
    on: &[&str],
    gold: u16,
    arrange: impl FnOnce(&mut crate::state::MrState),
) -> (crate::state::MrState, Vec<DayEvent>) {
    use crate::state::VictoryRequirements;
    let mut state = game(&["Amazon"]);
    state.day = 4;
    state.characters[0].gold = gold;
    arrange(&mut state);
    state.victory_requirements.insert(
        "Amazon".into(),
        VictoryRequirements {
            gold: 1,
            ..VictoryRequirements::default()
        },
    );
    let orders = [(
        state.characters[0].player.clone(),
        crate::orders::parse_day_orders("H\nEnd game: yes", 1, data()).expect("orders read"),
    )]
    .into();
    let mut dice = Dice::new(1, 5);
    super::resolve_day(data(), &rules(on), state, &orders, &mut dice).expect("day 5 resolves")
}

/// Under Sudden Death a character meeting every requirement ends the game
/// at Midnight when he asks; short in a category he cannot; without the
/// rule the game goes on (3.1 10.E.3.2).
#[test]
fn sudden_death_ends_the_game_when_every_requirement_is_met_3_1_10_e_3() {
    use super::events::MidnightEvent;
    let scored = |events: &[DayEvent]| {
        events.iter().any(|e| {
            matches!(
                e.happening,
                Happening::Midnight(MidnightEvent::VictoryPoints { .. })
            )
        })
    };
    let (after, events) = end_game_on_day_5(&["sudden_death"], 65);
    assert_eq!(after.last_day, 5);
    assert!(scored(&events));
    let (after, events) = end_game_on_day_5(&[], 65);
    assert_eq!(after.last_day, 28);
    assert!(!scored(&events));
    let (after, events) = end_game_on_day_5(&["sudden_death"], 64);
    assert_eq!(after.last_day, 28);
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Midnight(MidnightEvent::CannotEndGame { short, .. }) if short == &["gold"]
    )));
}

/// With the recommended limit the Amazon, meeting every requirement, ends
/// the game only in the clearing of the dwelling where she started; away
/// from it she is told where; without the limit she ends it anywhere (3.1
/// 10.E.3.3).
#[test]
fn sudden_death_at_start_ends_the_game_only_where_he_started_3_1_10_e_3_3() {
    use super::events::MidnightEvent;
    let (after, _) = end_game_on_day_5(&["sudden_death", "sudden_death_at_start"], 65);
    assert_eq!(after.last_day, 5, "at her starting dwelling she ends it");
    let away = |on: &[&str]| {
        let mut start = None;
        let (after, events) = end_game_on_day_5_after(on, 65, |state| {
            let from = state.characters[0].position.clone();
            let elsewhere = state
                .dwellings
                .values()
                .find(|c| **c != from)
                .expect("another dwelling")
                .clone();
            state.characters[0].position = elsewhere;
            start = Some(from);
        });
        (after, events, start.expect("arranged"))
    };
    let (after, events, start) = away(&["sudden_death", "sudden_death_at_start"]);
    assert_eq!(after.last_day, 28);
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Midnight(MidnightEvent::NotWhereHeStarted { start: s, .. }) if *s == start
    )));
    let (after, _, _) = away(&["sudden_death"]);
    assert_eq!(after.last_day, 5, "without the limit she ends it anywhere");
    // Named alone, the limit brings Sudden Death in with it.
    let (alone, _) = end_game_on_day_5(&["sudden_death_at_start"], 65);
    assert_eq!(alone.last_day, 5, "the limit alone plays Sudden Death");
}

/// The Amazon with 3 victory points of gold beyond her 1st-level starting
/// worth (16), 2 of them recorded: under Development, started at 1st level,
/// each of the 2 points that count brings a 2nd-level chit at Midnight,
/// her `Develop:` line's first; without the rule she is the whole Amazon
/// and earns nothing (3.1 10.E.5.4, 10.E.5.4.2).
#[test]
fn development_turns_victory_points_into_next_level_chits_3_1_10_e_5_4() {
    use crate::setup::{SetupInputs, new_game};
    use crate::state::VictoryRequirements;
    let play = |on: &[&str]| {
        let seats = [realmgm_core::game::Seat {
            player: "P1".into(),
            role: Some("Amazon".into()),
        }];
        let inputs = SetupInputs {
            levels: if on.is_empty() {
                Default::default()
            } else {
                [("Amazon".to_string(), 1)].into()
            },
            ..SetupInputs::default()
        };
        let mut state =
            new_game(data(), &seats, &rules(on), &inputs, &mut Dice::new(2, 0)).unwrap();
        state.characters[0].gold = 16 + 90;
        state.victory_requirements.insert(
            "Amazon".into(),
            VictoryRequirements {
                gold: 2,
                ..VictoryRequirements::default()
            },
        );
        let orders = [(
            "P1".to_string(),
            crate::orders::parse_day_orders("R\nDevelop: FIGHT M4*", 1, data())
                .expect("orders read"),
        )]
        .into();
        let mut dice = Dice::with_script(1, 1, script(&[]));
        let (after, events) = super::resolve_day(data(), &rules(on), state, &orders, &mut dice)
            .expect("the day resolves");
        let gained: Vec<String> = events
            .iter()
            .filter_map(|e| match &e.happening {
                Happening::Development(super::development::DevelopmentEvent::ChitGained {
                    chit,
                    ..
                }) => Some(chit.clone()),
                _ => None,
            })
            .collect();
        let chits: Vec<String> = after.characters[0]
            .chits
            .iter()
            .map(|c| c.chit.clone())
            .collect();
        (gained, chits)
    };
    let (gained, chits) = play(&["development"]);
    assert_eq!(gained, ["FIGHT M4*", "MOVE M4"]);
    assert_eq!(
        chits,
        ["MOVE M4", "MOVE M3*", "FIGHT L4", "MOVE M4", "FIGHT M4*"]
    );
    let (gained, chits) = play(&[]);
    assert!(gained.is_empty());
    assert_eq!(chits.len(), 12);
}

/// The Amazon (none carried: 1st stage) and the Berserker (2nd stage with
/// an extra 3rd-stage chit) set up under Extended Development and `on`.
fn extended_game(on: &[&str]) -> Result<crate::state::MrState, crate::setup::SetupError> {
    use crate::setup::{SetupInputs, new_game};
    use crate::state::development::Carried;
    let seats = [("P1", "Amazon"), ("P2", "Berserker")].map(|(p, c)| realmgm_core::game::Seat {
        player: p.into(),
        role: Some(c.into()),
    });
    let inputs = SetupInputs {
        carried: [(
            "Berserker".to_string(),
            Carried {
                stage: 2,
                extra_chits: vec!["FIGHT T6*".into()],
                ..Carried::default()
            },
        )]
        .into(),
        ..SetupInputs::default()
    };
    new_game(data(), &seats, &rules(on), &inputs, &mut Dice::new(2, 0))
}

/// The game's last day played from `state` with both resting: its events
/// and the lines the GM reads for the next campaign file.
fn last_day(
    on: &[&str],
    mut state: crate::state::MrState,
) -> (crate::state::MrState, Vec<DayEvent>, Vec<String>) {
    state.last_day = state.day + 1;
    let orders = [("P1", "R"), ("P2", "R")]
        .map(|(p, text)| {
            (
                p.to_string(),
                crate::orders::parse_day_orders(text, 1, data()).expect("orders read"),
            )
        })
        .into();
    let mut dice = Dice::with_script(1, 1, script(&[]));
    let (after, events) = super::resolve_day(data(), &rules(on), state, &orders, &mut dice)
        .expect("the day resolves");
    let carried = events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Development(super::development::DevelopmentEvent::CarryOver { lines }) => {
                Some(lines.clone())
            }
            _ => None,
        })
        .flatten()
        .collect();
    (after, events, carried)
}

/// Under Extended Development the campaign file's carry-over sets each
/// stage: the Amazon (none carried) starts at 1st stage and records 2
/// points, the Berserker at 2nd with an extra 3rd-stage chit records 3
/// (3.1 10.E.6.1-6.2); on the game's last day the GM reads what each
/// carries into the next campaign: a chit more for surviving, a stage more
/// for the victor (3.1 10.E.6.3); the Berserker's 2 points of gold also
/// brought him a chit that day (10.E.5.4), so he reaches 4th stage.
/// Without the rule a carry-over is refused.
#[test]
fn extended_development_carries_stages_from_campaign_to_campaign_3_1_10_e_6() {
    use crate::development::victory_points_of;
    let off = extended_game(&[]);
    assert!(
        off.is_err_and(|e| e.to_string().contains("extended_development rule is off")),
        "without the rule the carry-over is refused"
    );
    let on = ["extended_development"];
    let mut state = extended_game(&on).unwrap();
    let chits = |i: usize, state: &crate::state::MrState| state.characters[i].chits.len();
    assert_eq!((chits(0, &state), chits(1, &state)), (3, 7));
    assert_eq!(victory_points_of(&state.characters[0], 5), 2);
    assert_eq!(victory_points_of(&state.characters[1], 5), 3);
    state.characters[1].gold = 26 + 60;
    let (_, _, carried) = last_day(&on, state);
    assert_eq!(
        carried,
        [
            "\"Amazon\" = { stage = 1, extra_chits = [\"MOVE M4\"] }   # survived: a chit",
            "\"Berserker\" = { stage = 4 }   # survived: a chit; won: a stage for winning",
        ]
    );
}

/// A line carrying a character to 10th stage reminds the GM of its extra
/// spell (3.1 10.E.6.7.6), one carrying him past it of his retirement as an
/// immortal (10.E.6.7.7).
#[test]
fn the_carry_over_line_names_the_tenth_stages_spell_and_the_immortal_3_1_10_e_6_7() {
    use crate::state::development::Development;
    let state = game(&["Amazon"]);
    let line = |stage: u8, won: bool| {
        let mut development = Development::starting_at(stage);
        development.extended = true;
        development.beyond = 2;
        let on = rules(&["extended_development"]);
        super::development::carried_line(data(), &on, &state.characters[0], &development, won)
    };
    let tenth = line(9, false);
    assert!(
        tenth.starts_with("\"Amazon\" = { stage = 10 }")
            && tenth.ends_with(
                "add extra_spell = \"SPELL\" to record a spell instead of a counter (10.E.6.7.6)"
            ),
        "{tenth}"
    );
    let immortal = line(10, false);
    assert!(
        immortal.starts_with("\"Amazon\" = { stage = 11 }")
            && immortal.contains("an immortal: retired"),
        "{immortal}"
    );
    assert!(!line(5, false).contains("extra_spell"));
}

/// The game ends the Midnight a character has met his victory requirements,
/// and he wins (3.1 10.E.6.3): the Berserker, with the 3 points of gold he
/// recorded, ends a game with days to run and jumps a stage; the Amazon,
/// short of her gold, does not win. Without the rule (10.E.6.3's option)
/// the game runs on.
#[test]
fn extended_development_ends_at_victory_when_requirements_are_met_3_1_10_e_6_3() {
    use super::development::DevelopmentEvent;
    use crate::state::VictoryRequirements;
    let play = |on: &[&str]| {
        let mut state = extended_game(on).unwrap();
        state.last_day = 28;
        state.characters[1].gold = 26 + 90;
        for (character, gold) in [("Amazon", 2), ("Berserker", 3)] {
            state.victory_requirements.insert(
                character.into(),
                VictoryRequirements {
                    gold,
                    ..VictoryRequirements::default()
                },
            );
        }
        let orders = [("P1", "R"), ("P2", "R")]
            .map(|(p, text)| {
                (
                    p.to_string(),
                    crate::orders::parse_day_orders(text, 1, data()).expect("orders read"),
                )
            })
            .into();
        let mut dice = Dice::with_script(1, 1, script(&[]));
        let (after, events) = super::resolve_day(data(), &rules(on), state, &orders, &mut dice)
            .expect("the day resolves");
        let met: Vec<String> = events
            .iter()
            .filter_map(|e| match &e.happening {
                Happening::Development(DevelopmentEvent::RequirementsMet { characters }) => {
                    Some(characters.clone())
                }
                _ => None,
            })
            .flatten()
            .collect();
        let carried: Vec<String> = events
            .iter()
            .filter_map(|e| match &e.happening {
                Happening::Development(DevelopmentEvent::CarryOver { lines }) => {
                    Some(lines.clone())
                }
                _ => None,
            })
            .flatten()
            .collect();
        (after.last_day, met, carried)
    };
    let (last_day, met, carried) = play(&[
        "extended_development",
        "extended_development_ends_at_victory",
    ]);
    assert_eq!(last_day, 1);
    assert_eq!(met, ["Berserker"]);
    assert!(
        carried[1].ends_with("won: a stage for winning"),
        "{carried:?}"
    );
    let (last_day, met, carried) = play(&["extended_development"]);
    assert_eq!(last_day, 28);
    assert!(met.is_empty() && carried.is_empty());
}

/// Players wanting a longer game double or triple the victory points each
/// stage asks (3.1 10.E.6.2): the 1st-stage Amazon records 2, 4 or 6, the
/// 2nd-stage Berserker 3, 6 or 9. Either option without Extended
/// Development is refused by name.
#[test]
fn extended_development_double_and_triple_points_lengthen_the_game_3_1_10_e_6_2() {
    use crate::development::victory_points_of;
    let points = |on: &[&str]| {
        let state = extended_game(on).unwrap();
        [0, 1].map(|i| victory_points_of(&state.characters[i], 5))
    };
    assert_eq!(points(&["extended_development"]), [2, 3]);
    let doubled = ["extended_development", "extended_development_double_points"];
    assert_eq!(points(&doubled), [4, 6]);
    let tripled = ["extended_development", "extended_development_triple_points"];
    assert_eq!(points(&tripled), [6, 9]);
    let alone = extended_game(&["extended_development_double_points"]).unwrap_err();
    assert!(
        alone
            .to_string()
            .contains("extended_development_double_points is an option of Extended Development"),
        "{alone}"
    );
}

/// The victor jumps a whole stage (3.1 10.E.6.3.4); under its option he
/// gains one chit more, or nothing, beside his survivor's chit. The
/// Berserker ends the game with 8 chits (2nd stage, two toward 3rd).
#[test]
fn extended_development_winner_jumps_a_stage_a_chit_or_nothing_3_1_10_e_6_3_4() {
    let berserker = |option: Option<&str>| {
        let on: Vec<&str> = ["extended_development"].into_iter().chain(option).collect();
        let mut state = extended_game(&on).unwrap();
        state.characters[1].gold = 26 + 60;
        let (_, _, carried) = last_day(&on, state);
        carried[1].clone()
    };
    assert!(berserker(None).starts_with("\"Berserker\" = { stage = 4 }"));
    let one_chit = berserker(Some("extended_development_winner_one_chit"));
    assert!(
        one_chit.starts_with("\"Berserker\" = { stage = 3, extra_chits = [\"BERSERK T4**\"] }"),
        "{one_chit}"
    );
    assert!(one_chit.ends_with("won: a chit for winning (10.E.6.3.4 option)"));
    let nothing = berserker(Some("extended_development_winner_no_jump"));
    assert!(
        nothing.starts_with("\"Berserker\" = { stage = 3 }   # survived: a chit; won: nothing"),
        "{nothing}"
    );
}

/// Under the revival option the Berserker, killed at 2nd stage with one
/// chit toward 3rd, comes back at the Inn as himself three chits down: 1st
/// stage with one chit toward 2nd (its first in his card's order, MOVE
/// T6*), recording 2nd stage's 2 victory points,
/// told so, and carrying no survivor's chit at the end (3.1 10.E.6.4).
/// Without it he starts over as a new individual with his whole card, and
/// the one who fell carries his stage, a stage down, into the next
/// campaign (10.E.6.3.5).
#[test]
fn extended_development_revival_brings_him_back_three_chits_down_3_1_10_e_6_4() {
    use crate::development::{restart_victory_points, victory_points_of};
    let play = |on: &[&str]| {
        let mut state = extended_game(on).unwrap();
        state.characters[1].dead = true;
        let asked = restart_victory_points(&state.characters[1], 5);
        let (after, events, carried) = last_day(on, state);
        let revived = events.iter().any(|e| {
            matches!(
                &e.happening,
                Happening::Development(super::development::DevelopmentEvent::Revived {
                    character,
                    stage: 1,
                }) if character == "Berserker"
            )
        });
        (asked, after, revived, carried)
    };
    let on = ["extended_development", "extended_development_revival"];
    let (asked, after, revived, carried) = play(&on);
    let berserker = &after.characters[1];
    assert!(revived && !berserker.dead);
    assert_eq!(asked, 2);
    assert_eq!(victory_points_of(berserker, 5), 2);
    assert_eq!(berserker.chits.len(), 4);
    assert_eq!(berserker.development.as_ref().map(|d| d.revived), Some(1));
    assert_eq!(
        carried[1],
        "\"Berserker\" = { stage = 1, extra_chits = [\"MOVE T6*\"] }   # revived, a stage down \
         already: no chit for surviving"
    );
    let (asked, after, revived, carried) = play(&["extended_development"]);
    let berserker = &after.characters[1];
    assert!(!revived && !berserker.dead);
    assert_eq!(asked, 5);
    assert_eq!(berserker.chits.len(), 12);
    assert!(berserker.development.is_none());
    assert_eq!(
        carried[0],
        "\"Berserker\" = { stage = 1, extra_chits = [\"MOVE T6*\"] }   # killed: a stage less"
    );
    assert_eq!(carried.len(), 2, "{carried:?}");
}

/// Without victory requirements (3.1 10.E.6.10) points of any kind earn
/// chits, negative Fame rounded down and subtracting: the 1st-stage
/// Amazon's 3 points of gold less 2 for her -15 Fame bring her one chit,
/// the 2nd-stage Berserker's 4 points of gold two, so he earned the most
/// and is the victor, his stage jumping; the scores name no victor.
/// Without the option her Fame counts for nothing, her gold brings three
/// chits, and the victor is the best score's.
#[test]
fn extended_development_without_requirements_crowns_the_most_chits_3_1_10_e_6_10() {
    use super::development::DevelopmentEvent;
    let play = |on: &[&str]| {
        let mut state = extended_game(on).unwrap();
        state.characters[0].gold = 16 + 90;
        state.characters[0].fame = -15;
        state.characters[1].gold = 26 + 120;
        let (after, events, carried) = last_day(on, state);
        let earned: Vec<u8> = after
            .characters
            .iter()
            .map(|c| c.development.as_ref().map_or(0, |d| d.earned))
            .collect();
        let told: Vec<String> = events
            .iter()
            .filter(|e| {
                matches!(
                    e.happening,
                    Happening::Development(DevelopmentEvent::VictorByChits { .. })
                        | Happening::Midnight(super::events::MidnightEvent::VictoryPoints { .. })
                )
            })
            .filter_map(super::log::line)
            .collect();
        (earned, told, carried)
    };
    let on = [
        "extended_development",
        "extended_development_without_requirements",
    ];
    let (earned, told, carried) = play(&on);
    assert_eq!(earned, [1, 2]);
    assert!(!told[0].contains("is the victor"), "{}", told[0]);
    assert!(
        told[1]
            .ends_with("the Amazon 1 chit and the Berserker 2 chits; the Berserker is the victor."),
        "{}",
        told[1]
    );
    assert!(
        carried[1].contains("won: a stage for winning"),
        "{carried:?}"
    );
    let (earned, told, carried) = play(&["extended_development"]);
    assert_eq!(earned, [3, 2]);
    assert_eq!(told.len(), 1);
    assert!(
        told[0].ends_with("the Berserker is the victor with 4."),
        "{}",
        told[0]
    );
    assert!(
        carried[1].contains("won: a stage for winning"),
        "{carried:?}"
    );
}

/// A lone player's game under Solitaire Play against the standard one: the
/// Valley chits stay face down with the ghosts off the map (3.1 10.E.1.5),
/// the character waits on a road from the map's edge that reaches the
/// Borderland (10.E.1.6), and each Sunrise has a second Monster Roll whose
/// row prowls too (10.E.1.7); without the rule none of it.
#[test]
fn solitaire_sets_out_a_lone_game_and_rolls_twice_3_1_10_e_1() {
    use crate::data::terms::TileGroup;
    use crate::setup::{GHOSTS_BOX, SetupInputs, new_game};
    use crate::state::Whereabouts;
    use realmgm_core::game::Seat;
    let set_up = |on: &[&str]| {
        let seats = [Seat {
            player: "ann".into(),
            role: Some("Amazon".into()),
        }];
        new_game(
            data(),
            &seats,
            &rules(on),
            &SetupInputs::default(),
            &mut Dice::new(11, 0),
        )
        .expect("a one-player game sets up")
    };
    let valley_face_up = |state: &crate::state::MrState| {
        state
            .map_chits
            .iter()
            .filter(|(tile, _)| state.board.tile(tile).map(|t| t.group) == Some(TileGroup::Valley))
            .flat_map(|(_, chits)| chits)
            .filter(|c| data().chits.warning.iter().any(|w| w.name == c.name))
            .all(|c| c.face_up)
    };
    let ghosts_in_box = |state: &crate::state::MrState| {
        state
            .denizens
            .iter()
            .filter(|(id, _)| id.starts_with("Ghost"))
            .all(|(_, d)| {
                d.at == Whereabouts::SetupBox {
                    name: GHOSTS_BOX.into(),
                }
            })
    };
    let lone = set_up(&["solitaire"]);
    let standard = set_up(&[]);
    assert!(!valley_face_up(&lone) && valley_face_up(&standard));
    assert!(ghosts_in_box(&lone) && !ghosts_in_box(&standard));
    assert!(lone.dwellings.keys().all(|d| d.is_campfire()));
    let road = lone.characters[0].roadway.clone().expect("on the road in");
    assert!(road.is_from_edge() && road.ends_at(&road.to));
    assert_eq!(lone.characters[0].position, road.to);
    assert!(standard.characters[0].roadway.is_none());
    assert!(standard.solitaire_entry.is_none());

    let second_roll = |state: crate::state::MrState, on: &[&str]| {
        let mut dice = Dice::with_script(
            3,
            1,
            script(&[
                ("birdsong/monster-roll", &[2]),
                ("birdsong/second-monster-roll", &[5]),
            ]),
        );
        let (_, events) =
            super::resolve_day(data(), &rules(on), state, &Default::default(), &mut dice)
                .expect("the day resolves");
        events.iter().find_map(|e| match &e.happening {
            Happening::Birdsong(super::events::BirdsongEvent::SecondMonsterRoll {
                die,
                doubles,
                ..
            }) => Some((*die, *doubles)),
            _ => None,
        })
    };
    assert_eq!(second_roll(lone, &["solitaire"]), Some((5, false)));
    assert_eq!(second_roll(standard, &[]), None);
}
