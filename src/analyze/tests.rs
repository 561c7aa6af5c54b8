use std::sync::atomic::AtomicBool;

use super::month::{Policy, play as play_month};
use super::*;
use crate::magic_realm::data;
use crate::magic_realm::day::events::DayEvent;
use crate::magic_realm::state::{Belonging, Hireling, ItemKind, Whereabouts};
use crate::magic_realm::test_support::test_game;

fn characters() -> Vec<String> {
    ["Amazon", "Black Knight", "Swordsman", "Wizard"]
        .iter()
        .map(|c| (*c).to_string())
        .collect()
}

/// Per month, all characters together: `measure` summed.
fn per_month(policy: Policy, measure: &str, seeds: std::ops::Range<u64>) -> Vec<f64> {
    let data = data::get().unwrap();
    seeds
        .map(|seed| {
            let month = play_month(
                data,
                &Side::standard("standard", Rules::default()),
                &characters(),
                seed,
                policy,
            )
            .unwrap();
            month
                .characters
                .values()
                .filter_map(|c| c.get(measure))
                .sum()
        })
        .collect()
}

#[test]
fn the_planning_bot_scores_better_than_the_random_walker_on_the_same_seeds() {
    let planned = per_month(Policy::Planned, "victory points", 1..13);
    let walker = per_month(Policy::Walker, "victory points", 1..13);
    let pairs: Vec<(f64, f64)> = walker
        .iter()
        .copied()
        .zip(planned.iter().copied())
        .collect();
    let better = stats::paired_difference(&pairs);
    assert!(better.mean > 0.0, "planned − walker per month: {better:?}");
    let deaths = |p| per_month(p, "deaths", 1..13).iter().sum::<f64>();
    assert!(deaths(Policy::Planned) < deaths(Policy::Walker));
}

fn plan(months: usize, b: bool) -> Plan {
    let side = |file: &str, rules: &[&str]| {
        Side::standard(
            file,
            Rules::new(rules.iter().copied(), crate::magic_realm::rules::TOGGLES).unwrap(),
        )
    };
    Plan {
        a: side("standard.toml", &[]),
        b: b.then(|| side("watchful.toml", &["watchful_natives"])),
        months,
        characters: vec!["Amazon".into(), "Wizard".into()],
        seed: 40,
    }
}

#[test]
fn the_same_analysis_twice_on_one_or_two_threads_gives_identical_json() {
    let data = data::get().unwrap();
    let plan = plan(3, true);
    let stop = AtomicBool::new(false);
    let json = |threads| {
        let played = play(data, &plan, threads, &stop, &|_| {});
        serde_json::to_string(&Analysis::of(&plan, &played)).unwrap()
    };
    let one = json(1);
    assert_eq!(one, json(2));
    assert_eq!(one, json(2));
    assert!(one.contains("\"months\":3"), "{one}");
}

#[test]
fn a_stop_keeps_the_months_done_and_says_so() {
    let data = data::get().unwrap();
    let plan = plan(5, false);
    let stop = AtomicBool::new(true);
    let played = play(data, &plan, 2, &stop, &|_| {});
    let analysis = Analysis::of(&plan, &played);
    assert_eq!(analysis.months, 0);
    assert!(analysis.text().contains("stopped after 0 of 5 months"));
}

fn no_events() -> Vec<DayEvent> {
    Vec::new()
}

#[test]
fn a_deliberately_broken_state_is_caught() {
    let data = data::get().unwrap();
    let before = test_game(&["Amazon", "Wizard"]);
    assert_eq!(
        invariants::check(data, &before, &before, &no_events()),
        Ok(())
    );
    // A treasure copied out of its site into a character's belongings.
    let mut copied = before.clone();
    let (site, item) = copied
        .holdings
        .iter()
        .find_map(|(h, items)| {
            items
                .iter()
                .find(|i| i.kind == ItemKind::Treasure)
                .map(|i| (h.clone(), i.clone()))
        })
        .unwrap();
    copied.characters[0].belongings.push(Belonging {
        item: item.clone(),
        active: false,
    });
    let error = invariants::check(data, &before, &copied, &no_events()).unwrap_err();
    assert!(
        error.contains(&item.name) && error.contains(&site),
        "{error}"
    );
    // A hireling who is dead.
    let mut hired_dead = before.clone();
    let native = hired_dead
        .denizens
        .iter()
        .find(|(_, d)| d.kind == crate::magic_realm::state::DenizenKind::Native)
        .map(|(n, _)| n.clone())
        .unwrap();
    hired_dead.denizens.get_mut(&native).unwrap().at = Whereabouts::Dead;
    hired_dead.characters[1].hirelings.push(Hireling {
        native: native.clone(),
        days_left: 14,
    });
    let error = invariants::check(data, &before, &hired_dead, &no_events()).unwrap_err();
    assert!(error.contains("who is dead"), "{error}");
}

#[test]
fn a_campaign_with_seasons_plays_its_weather_as_the_daemon_starts_it() {
    let data = data::get().unwrap();
    let rules = Rules::new(["seasons_and_weather"], crate::magic_realm::rules::TOGGLES).unwrap();
    let mut side = Side::standard("autumn", rules);
    side.season = Some("Autumn".into());
    let month = play_month(data, &side, &characters(), 9, Policy::Planned).unwrap();
    assert!(
        month.events.get("weather weeks").copied().unwrap_or(0.0) >= 3.0,
        "{:?}",
        month.events
    );
    let plain = play_month(
        data,
        &Side::standard("plain", Rules::default()),
        &characters(),
        9,
        Policy::Planned,
    )
    .unwrap();
    assert_eq!(plain.events.get("weather weeks"), None);
}
