//! Tests of the Seasons and Weather rule in play: the weekly roll from
//! forced dice, skipped days, phases per day, shelter, the special weather
//! notes, the season's mountain cost, setup and the report header.

use std::collections::BTreeMap;

use super::*;
use crate::data::tiles::{ClearingKind, PathKind};
use crate::day::events::{DayEvent, PhaseResult};
use crate::day::resolve_day;
use crate::orders::{DayOrders, parse_day_orders};
use crate::rules::TOGGLES;
use crate::state::{ChitCondition, Hireling};
use crate::test_support::{data, game_played_by, results, script, without_denizens};
use realmgm_core::dice::{Dice, DiceScript};
use realmgm_core::game::{Game, Rules};

fn seasons_on() -> Rules {
    Rules::new(["seasons_and_weather"], TOGGLES).unwrap()
}

/// The Amazon alone, with nothing on the map to meet, in season `season`
/// under `weather` with the secret chit `chit`.
fn game(season: u8, weather: WeatherKind, chit: u8) -> MrState {
    let mut state = without_denizens(game_played_by(&["Amazon"], |_| "P1".into()));
    state.magic.season = Some(season);
    state.weather = Some(WeatherState { weather, chit });
    state
}

fn play(state: MrState, rules: &Rules, text: &str, script: DiceScript) -> (MrState, Vec<DayEvent>) {
    let mut orders: BTreeMap<String, DayOrders> = BTreeMap::new();
    if !text.is_empty() {
        let parsed = parse_day_orders(text, 1, data()).expect("test orders parse");
        orders.insert("P1".into(), parsed);
    }
    let mut dice = Dice::with_script(5, state.day + 1, script);
    resolve_day(data(), rules, state, &orders, &mut dice).expect("the day resolves")
}

fn weather_events(events: &[DayEvent]) -> Vec<WeatherEvent> {
    events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Weather(w) => Some(w.clone()),
            _ => None,
        })
        .collect()
}

fn lost(results: &[PhaseResult]) -> Vec<String> {
    results
        .iter()
        .filter_map(|r| match r {
            PhaseResult::Lost { reason } => Some(reason.clone()),
            _ => None,
        })
        .collect()
}

/// A clearing without cave or dwelling, where the weather reaches him.
fn outside(state: &MrState) -> ClearingId {
    state
        .board
        .clearings()
        .into_iter()
        .find(|c| {
            state.board.clearing(c).map(|k| k.kind) == Some(ClearingKind::Normal)
                && !state.dwellings.values().any(|d| d == c)
        })
        .expect("a plain clearing")
}

fn inn(state: &MrState) -> ClearingId {
    state
        .dwellings
        .iter()
        .find(|(d, _)| d.label() == "Inn")
        .map(|(_, c)| c.clone())
        .expect("the Inn")
}

#[test]
fn the_weekly_roll_takes_the_higher_of_die_and_chit_and_draws_a_new_chit() {
    // Autumn, chit 2, die 3: special weather (Autumn Summer, 7 days).
    let mut state = game(11, WeatherKind::Clear, 2);
    state.day = 6;
    let forced = script(&[("midnight/weather", &[3]), ("midnight/weather-chit", &[5])]);
    let (after, events) = play(state, &seasons_on(), "", forced);
    assert_eq!(
        after.weather,
        Some(WeatherState {
            weather: WeatherKind::Special,
            chit: 5
        })
    );
    assert_eq!(after.day, 7, "a 7-day week skips nothing");
    let weather = weather_events(&events);
    assert!(weather.contains(&WeatherEvent::Rolled {
        die: 3,
        chit: 2,
        high: 3
    }));
    assert!(weather.contains(&WeatherEvent::ChitDrawn { chit: 5 }));
    let week = weather
        .iter()
        .find_map(|w| match w {
            WeatherEvent::Week { description, .. } => Some(description.clone()),
            _ => None,
        })
        .unwrap();
    assert!(week.starts_with("Autumn Summer: 7 days"), "{week}");
    // The secret parts are the GM's only.
    for e in &events {
        if let Happening::Weather(WeatherEvent::Rolled { .. } | WeatherEvent::ChitDrawn { .. }) =
            &e.happening
        {
            assert_eq!(e.observers, Observers::Gm);
        }
    }
}

#[test]
fn no_weather_roll_on_other_days_or_without_the_rule() {
    let mut state = game(11, WeatherKind::Clear, 2);
    state.day = 2;
    let (after, events) = play(state.clone(), &seasons_on(), "", DiceScript::default());
    assert!(weather_events(&events).is_empty());
    assert_eq!(after.weather, state.weather);
    state.day = 6;
    let (after, events) = play(state.clone(), &Rules::default(), "", DiceScript::default());
    assert!(weather_events(&events).is_empty());
    assert_eq!((after.day, after.weather), (7, state.weather));
}

#[test]
fn a_storm_week_skips_its_first_days_and_hirelings_count_them() {
    // Freshet, chit 4, die 1: Storm (Rain: 4 days, 2 basic + 4 sunlight).
    let mut state = game(5, WeatherKind::Clear, 4);
    state.day = 6;
    state.characters[0].hirelings.push(Hireling {
        native: "Rogue 7".into(),
        days_left: 14,
    });
    let forced = script(&[("midnight/weather", &[1]), ("midnight/weather-chit", &[6])]);
    let (after, events) = play(state, &seasons_on(), "", forced);
    assert_eq!(after.weather.unwrap().weather, WeatherKind::Storm);
    assert_eq!(after.day, 10, "days 8 to 10 are skipped");
    let skipped: Vec<u32> = weather_events(&events)
        .iter()
        .filter_map(|w| match w {
            WeatherEvent::DaySkipped { day } => Some(*day),
            _ => None,
        })
        .collect();
    assert_eq!(skipped, vec![8, 9, 10]);
    assert_eq!(
        after.characters[0].hirelings[0].days_left, 10,
        "day 7 and the three skipped days count"
    );
}

#[test]
fn the_toggle_changes_the_phases_of_a_storm_week() {
    // Freshet storm: 2 basic + 4 sunlight phases.
    let mut state = game(5, WeatherKind::Storm, 3);
    let here = outside(&state);
    state.characters[0].position = here;
    let six = "H / H / H / H / H / H";
    let (_, with) = play(state.clone(), &seasons_on(), six, DiceScript::default());
    assert!(lost(&results(&with, "Amazon")).is_empty());
    let (_, without) = play(state, &Rules::default(), six, DiceScript::default());
    let reasons = lost(&results(&without, "Amazon"));
    assert_eq!(reasons.len(), 2, "{reasons:?}");
    assert!(reasons[0].contains("only 4 phases"), "{reasons:?}");
}

#[test]
fn sheltered_phases_need_a_cave_or_dwelling() {
    // Christmas snowstorm: 3 basic + 1 sheltered phase.
    let mut state = game(1, WeatherKind::Storm, 3);
    let four = "H / H / H / H";
    state.characters[0].position = inn(&state);
    let (_, sheltered) = play(state.clone(), &seasons_on(), four, DiceScript::default());
    assert!(lost(&results(&sheltered, "Amazon")).is_empty());
    state.characters[0].position = outside(&state);
    let (_, outdoors) = play(state, &seasons_on(), four, DiceScript::default());
    let reasons = lost(&results(&outdoors, "Amazon"));
    assert_eq!(reasons.len(), 1, "{reasons:?}");
    assert!(reasons[0].contains("only 3 phases"), "{reasons:?}");
}

/// 3.1 10.D.1.2.3b: sheltered phases need a whole turn in caves and the
/// four buildings; a campfire is no building.
#[test]
fn no_sheltered_phase_at_a_campfire_10_d_1_2_3b() {
    let mut state = game(1, WeatherKind::Storm, 3);
    let fire = outside(&state);
    state
        .dwellings
        .insert(crate::data::terms::Dwelling::SmallCampfire, fire.clone());
    state.characters[0].position = fire;
    let (_, events) = play(state, &seasons_on(), "H / H / H / H", DiceScript::default());
    let reasons = lost(&results(&events, "Amazon"));
    assert_eq!(reasons.len(), 1, "{reasons:?}");
}

/// 3.1 10.D.1.2.3b: one who leaves the buildings during his turn has no
/// sheltered phase, even back inside when it comes.
#[test]
fn leaving_shelter_during_the_turn_costs_the_sheltered_phase_10_d_1_2_3b() {
    let mut state = game(1, WeatherKind::Storm, 3);
    let home = inn(&state);
    let out = state
        .board
        .neighbours(&home)
        .into_iter()
        .find(|l| {
            l.kind == PathKind::Normal
                && state.board.clearing(&l.to).map(|k| k.kind) == Some(ClearingKind::Normal)
                && !state.dwellings.values().any(|d| *d == l.to)
        })
        .map(|l| l.to)
        .expect("a plain clearing beside the Inn");
    state.characters[0].position = home.clone();
    let text = format!(
        "{} / {} / H / H",
        crate::test_support::move_to(&out),
        crate::test_support::move_to(&home)
    );
    let (after, events) = play(state, &seasons_on(), &text, DiceScript::default());
    assert_eq!(after.characters[0].position, home);
    let reasons = lost(&results(&events, "Amazon"));
    assert_eq!(reasons.len(), 1, "{reasons:?}");
}

#[test]
fn soft_ground_forbids_the_hide_table() {
    let mut state = game(4, WeatherKind::Special, 3);
    state.characters[0].position = outside(&state);
    let (after, events) = play(state, &seasons_on(), "H", DiceScript::default());
    let reasons = lost(&results(&events, "Amazon"));
    assert!(
        reasons[0].contains("nobody may use the Hide table this week (Soft Ground)"),
        "{reasons:?}"
    );
    assert!(!after.characters[0].hidden);
}

#[test]
fn blowing_leaves_forbid_the_peer_table() {
    let mut state = game(12, WeatherKind::Special, 3);
    state.characters[0].position = outside(&state);
    let (_, events) = play(
        state,
        &seasons_on(),
        "S\nSearch: peer",
        DiceScript::default(),
    );
    let reasons = lost(&results(&events, "Amazon"));
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("Peer table this week (Blowing Leaves)")),
        "{reasons:?}"
    );
}

fn fatigued(events: &[DayEvent]) -> usize {
    weather_events(events)
        .iter()
        .filter(|w| matches!(w, WeatherEvent::Fatigued { wounded: false, .. }))
        .count()
}

#[test]
fn icy_winds_tire_whoever_is_outside_at_birdsong() {
    let mut state = game(1, WeatherKind::Special, 3);
    state.characters[0].position = outside(&state);
    let (after, events) = play(state.clone(), &seasons_on(), "", DiceScript::default());
    assert_eq!(fatigued(&events), 1);
    let tired = after.characters[0]
        .chits
        .iter()
        .filter(|c| c.condition == ChitCondition::Fatigued)
        .count();
    assert_eq!(tired, 1);
    state.characters[0].position = inn(&state);
    let (_, events) = play(state, &seasons_on(), "", DiceScript::default());
    assert_eq!(fatigued(&events), 0, "the Inn shelters him");
}

#[test]
fn frigid_air_tires_each_phase_ended_outside() {
    let mut state = game(2, WeatherKind::Special, 3);
    state.characters[0].position = outside(&state);
    let (_, events) = play(state, &seasons_on(), "H / H", DiceScript::default());
    assert_eq!(fatigued(&events), 2);
}

#[test]
fn with_no_asterisk_chit_active_weather_fatigue_wounds() {
    let mut state = game(1, WeatherKind::Special, 3);
    state.characters[0].position = outside(&state);
    for chit in &mut state.characters[0].chits {
        let effort = crate::data::characters::ActionChit::parse(&chit.chit).map_or(0, |p| p.effort);
        if effort > 0 {
            chit.condition = ChitCondition::Fatigued;
        }
    }
    let (after, events) = play(state, &seasons_on(), "", DiceScript::default());
    assert!(
        weather_events(&events)
            .iter()
            .any(|w| matches!(w, WeatherEvent::Fatigued { wounded: true, .. }))
    );
    assert!(
        after.characters[0]
            .chits
            .iter()
            .any(|c| c.condition == ChitCondition::Wounded)
    );
}

/// A mountain clearing and a plain neighbour joined by a normal path.
fn mountain_and_neighbour(state: &MrState) -> (ClearingId, ClearingId) {
    let board = &state.board;
    board
        .clearings()
        .into_iter()
        .find_map(|c| {
            if board.clearing(&c)?.kind != ClearingKind::Mountain {
                return None;
            }
            board
                .neighbours(&c)
                .into_iter()
                .find(|l| {
                    l.kind == PathKind::Normal
                        && board
                            .clearing(&l.to)
                            .is_some_and(|o| o.kind == ClearingKind::Normal)
                })
                .map(|l| (c.clone(), l.to))
        })
        .expect("a mountain next to a plain clearing")
}

#[test]
fn the_season_sets_what_a_mountain_costs() {
    // Ice: mountains cost 4 move phases; Frigid Air gives 6 phases.
    let mut state = game(2, WeatherKind::Special, 3);
    let (mountain, below) = mountain_and_neighbour(&state);
    state.characters[0].position = below;
    let name = &data().tiles.by_code(&mountain.tile).unwrap().name;
    let step = format!("M {name} {}", mountain.clearing);
    let four = [step.as_str(); 4].join(" / ");
    let (after, _) = play(state.clone(), &seasons_on(), &four, DiceScript::default());
    assert_eq!(after.characters[0].position, mountain);
    let two = [step.as_str(); 2].join(" / ");
    let (after, events) = play(state, &seasons_on(), &two, DiceScript::default());
    assert_ne!(after.characters[0].position, mountain);
    let reasons = lost(&results(&events, "Amazon"));
    assert!(
        reasons.iter().any(|r| r.contains("takes four move phases")),
        "{reasons:?}"
    );
}

#[test]
fn setup_draws_the_secret_chit_in_the_starting_season() {
    let mut state = without_denizens(game_played_by(&["Amazon"], |_| "P1".into()));
    let mut dice = Dice::with_script(1, 0, script(&[("setup/weather-chit", &[4])]));
    start(&mut state, "autumn", &mut dice).unwrap();
    assert_eq!(state.magic.season, Some(11));
    assert_eq!(
        state.weather,
        Some(WeatherState {
            weather: WeatherKind::Clear,
            chit: 4
        })
    );
    let err = start(&mut state, "Monsoon", &mut dice).unwrap_err();
    assert!(
        err.to_string().contains("the seasons are Christmas"),
        "{err}"
    );
}

/// A new game of the Amazon, before its calendar starts.
fn amazon_set_up() -> crate::state::MrState {
    let seats = [realmgm_core::game::Seat {
        player: "P1".into(),
        role: Some("Amazon".into()),
    }];
    let rules = seasons_on();
    let start = realmgm_core::game::Start::new(&seats, &rules);
    let new = crate::game::MagicRealm
        .start(&start, &mut Dice::new(3, 0))
        .unwrap();
    serde_json::from_value(new.json().clone()).unwrap()
}

#[test]
fn recorded_victory_points_must_match_the_campaign() {
    use crate::game::start_calendar;
    let mut mr = amazon_set_up();
    mr.victory_requirements.insert(
        "Amazon".into(),
        crate::state::VictoryRequirements {
            fame: 5,
            ..Default::default()
        },
    );
    let calendar = |victory_points| realmgm_core::game::CalendarStart {
        months: 1,
        season: Some("Autumn"),
        victory_points,
    };
    start_calendar(
        &mut mr.clone(),
        &seasons_on(),
        calendar(5),
        &mut Dice::new(1, 0),
    )
    .unwrap();
    let err =
        start_calendar(&mut mr, &seasons_on(), calendar(4), &mut Dice::new(1, 0)).unwrap_err();
    assert!(
        err.to_string()
            .contains("recorded 5 victory points, but this campaign asks 4"),
        "{err}"
    );
}

#[test]
fn the_seasons_say_what_a_month_asks() {
    assert_eq!(season_points(data(), "Autumn"), 5);
    assert_eq!(season_points(data(), "Midsummer"), 6);
    assert_eq!(season_points(data(), "Snow"), 3);
}

#[test]
fn the_game_starts_its_calendar_only_with_the_rule() {
    use crate::game::start_calendar;
    let new = amazon_set_up();
    let calendar = realmgm_core::game::CalendarStart {
        months: 1,
        season: Some("Autumn"),
        victory_points: 5,
    };
    let started = |rules: &Rules, calendar| {
        let mut mr = new.clone();
        start_calendar(&mut mr, rules, calendar, &mut Dice::new(3, 0)).unwrap();
        serde_json::to_value(&mr).unwrap()
    };
    let seasons = started(&seasons_on(), calendar);
    assert_eq!(seasons["magic"]["season"], 11);
    assert!(seasons["weather"]["chit"].is_u64());
    let plain = started(&Rules::default(), calendar);
    assert_eq!(plain, serde_json::to_value(&new).unwrap());
    let two_months = realmgm_core::game::CalendarStart {
        months: 2,
        season: None,
        victory_points: 10,
    };
    let long = started(&Rules::default(), two_months);
    assert_eq!(long["last_day"], 56);
    assert_eq!(long["victory_points"], 10);
}

#[test]
fn reports_show_the_season_and_weather_and_the_gm_the_chit() {
    use realmgm_core::report::ReportContext;
    let state = game(11, WeatherKind::Storm, 5);
    let context = ReportContext {
        season: Some("Autumn".into()),
        ..ReportContext::default()
    };
    let player = crate::report::player_report(data(), &state, &[], "P1", &context).unwrap();
    assert!(
        player.text.contains(
            "Season and weather: Autumn (Cold Rain: 7 days a week, 2 basic and 1 sunlight phases)"
        ),
        "{}",
        player.text
    );
    assert!(!player.text.contains("Secret weather chit"));
    assert!(
        !player.text.contains("\nSeason: "),
        "the state's season replaces it"
    );
    let gm = crate::report::gm_history(data(), &state, &[], &context).unwrap();
    assert!(gm.text.contains("Secret weather chit: 5"), "{}", gm.text);
    assert!(gm.html.unwrap().contains("Secret weather chit: 5"));
}

#[test]
fn a_new_month_brings_the_next_season() {
    // Only a game longer than a month reaches day 28 with days to come.
    let mut state = game(13, WeatherKind::Clear, 6);
    state.last_day = 56;
    let rules = seasons_on();
    let mut dice = Dice::new(2, 28);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    let skipped = end_of_week(&mut day, 28);
    assert_eq!(
        day.state.magic.season,
        Some(1),
        "Desolate is followed by Christmas"
    );
    assert!(
        weather_events(&day.events).contains(&WeatherEvent::SeasonBegins {
            season: "Christmas".into()
        })
    );
    let (_, week) = current(day.data, day.rules, &day.state).unwrap();
    assert_eq!(skipped, 7 - u32::from(week.days));
    day.state.last_day = 28;
    assert_eq!(end_of_week(&mut day, 28), 0, "no roll after the last day");
}

#[test]
fn a_heat_wave_spares_only_caves_and_mountains_at_birdsong() {
    let mut state = game(8, WeatherKind::Special, 3);
    let (mountain, below) = mountain_and_neighbour(&state);
    state.characters[0].position = below;
    let (_, events) = play(state.clone(), &seasons_on(), "", DiceScript::default());
    assert_eq!(fatigued(&events), 1);
    state.characters[0].position = mountain;
    let (_, events) = play(state, &seasons_on(), "", DiceScript::default());
    assert_eq!(fatigued(&events), 0);
}

#[test]
fn ball_lightning_strikes_each_phase_ended_in_a_mountain() {
    let mut state = game(9, WeatherKind::Special, 3);
    let (mountain, below) = mountain_and_neighbour(&state);
    state.characters[0].position = below.clone();
    let (_, events) = play(state.clone(), &seasons_on(), "H / H", DiceScript::default());
    assert_eq!(fatigued(&events), 0, "not in a mountain");
    state.characters[0].position = mountain;
    let (_, events) = play(state, &seasons_on(), "H / H / H", DiceScript::default());
    assert_eq!(fatigued(&events), 3);
}

#[test]
fn followers_pay_the_weather_fatigue_of_their_guide() {
    let mut state = without_denizens(game_played_by(&["Amazon", "Black Knight"], |i| {
        format!("P{}", i + 1)
    }));
    state.magic.season = Some(2);
    state.weather = Some(WeatherState {
        weather: WeatherKind::Special,
        chit: 3,
    });
    let here = outside(&state);
    for c in &mut state.characters {
        c.position = here.clone();
    }
    let orders: BTreeMap<String, DayOrders> = [("P1", "H / H"), ("P2", "F Amazon")]
        .into_iter()
        .map(|(p, t)| (p.to_string(), parse_day_orders(t, 1, data()).unwrap()))
        .collect();
    let mut dice = Dice::new(5, 1);
    let (_, events) = resolve_day(data(), &seasons_on(), state, &orders, &mut dice).unwrap();
    let knight = weather_events(&events)
        .iter()
        .filter(|w| matches!(w, WeatherEvent::Fatigued { character, .. } if character == "Black Knight"))
        .count();
    assert_eq!(knight, 2, "two phases of his guide ended outside");
}
