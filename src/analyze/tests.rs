use std::sync::atomic::AtomicBool;

use super::month::{Policy, play as play_month};
use super::*;
use crate::game::Observers;
use crate::magic_realm::combat::log::CombatLine;
use crate::magic_realm::data;
use crate::magic_realm::day::events::{CombatEvent, DayEvent, Happening};
use crate::magic_realm::state::{Belonging, Hireling, ItemKind, MrState, Whereabouts};
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
    let better = stats::paired_difference(&pairs, 1);
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
    let error = invariants::check(data, &before, &copied, &no_events())
        .unwrap_err()
        .to_string();
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
    let error = invariants::check(data, &before, &hired_dead, &no_events())
        .unwrap_err()
        .to_string();
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

/// A combat line in the Amazon's clearing, shown to `observers`.
fn combat_line(state: &MrState, line: CombatLine, observers: Observers) -> DayEvent {
    DayEvent {
        observers,
        happening: Happening::Combat(CombatEvent::Line {
            clearing: state.characters[0].position.clone(),
            round: 1,
            line,
        }),
    }
}

#[test]
fn gold_or_fame_that_changes_without_an_event_telling_of_it_is_caught() {
    let data = data::get().unwrap();
    let before = test_game(&["Amazon", "Wizard"]);
    let mut richer = before.clone();
    richer.characters[0].gold += 10;
    richer.characters[0].fame += 3;
    let error = invariants::check(data, &before, &richer, &no_events())
        .unwrap_err()
        .to_string();
    assert!(error.contains("Amazon's gold went from"), "{error}");
    // The same change told by the evening's spoils is the game's own.
    let spoils = combat_line(
        &before,
        CombatLine::Spoils {
            character: "Amazon".into(),
            fame: 3,
            notoriety: 0,
            gold: 10,
            items: Vec::new(),
        },
        Observers::Everyone,
    );
    assert_eq!(
        invariants::check(data, &before, &richer, std::slice::from_ref(&spoils)),
        Ok(())
    );
    // Spoils told of someone else explain nothing of hers.
    let mut wizards = spoils;
    if let Happening::Combat(CombatEvent::Line {
        line: CombatLine::Spoils { character, .. },
        ..
    }) = &mut wizards.happening
    {
        *character = "Wizard".into();
    }
    let error = invariants::check(data, &before, &richer, &[wizards])
        .unwrap_err()
        .to_string();
    assert!(error.contains("Amazon's"), "{error}");
    // A character killed today loses everything with no more said.
    let mut killed = richer;
    killed.characters[0].gold = 0;
    killed.characters[0].fame = 0;
    killed.characters[0].dead = true;
    let line = CombatLine::Killed {
        victim: "Amazon".into(),
        by: "Giant 1".into(),
    };
    let event = combat_line(&before, line, Observers::Everyone);
    assert_eq!(invariants::check(data, &before, &killed, &[event]), Ok(()));
}

#[test]
fn a_player_told_of_a_treasure_still_face_down_in_a_site_is_caught() {
    let data = data::get().unwrap();
    let state = test_game(&["Amazon", "Wizard"]);
    let (site, treasure) = state
        .holdings
        .iter()
        .filter(|(holder, _)| data.chits.site(holder).is_some())
        .find_map(|(h, items)| {
            items
                .iter()
                .find(|i| i.kind == ItemKind::Treasure)
                .map(|i| (h.clone(), i.name.clone()))
        })
        .unwrap();
    let telling = |observers| {
        combat_line(
            &state,
            CombatLine::Spoils {
                character: "Amazon".into(),
                fame: 0,
                notoriety: 0,
                gold: 0,
                items: vec![treasure.clone()],
            },
            observers,
        )
    };
    let to_ann = telling(Observers::Players(["p0".to_string()].into()));
    let error = invariants::check(data, &state, &state, &[to_ann])
        .unwrap_err()
        .to_string();
    assert!(
        error.contains(&treasure) && error.contains(&site) && error.starts_with("p0 read"),
        "{error}"
    );
    // The GM's history may say it.
    assert_eq!(
        invariants::check(data, &state, &state, &[telling(Observers::Gm)]),
        Ok(())
    );
}

#[test]
fn a_character_killed_in_combat_counts_as_a_death() {
    let data = data::get().unwrap();
    let state = test_game(&["Amazon", "Wizard"]);
    let killed = combat_line(
        &state,
        CombatLine::Killed {
            victim: "Amazon".into(),
            by: "Giant 1".into(),
        },
        Observers::Everyone,
    );
    let mut tally: BTreeMap<String, super::month::Tally> = ["Amazon", "Wizard"]
        .iter()
        .map(|c| ((*c).to_string(), Default::default()))
        .collect();
    let mut rule_events = BTreeMap::new();
    super::month::measure_day(data, 6, &[killed], &mut tally, &mut rule_events);
    assert_eq!(tally["Amazon"].deaths, 1);
    assert_eq!(tally["Amazon"].first_death, Some(6));
    assert_eq!(tally["Wizard"].deaths, 0);
}

#[test]
fn hunting_fighters_meet_watchful_natives_when_the_rule_is_on() {
    let data = data::get().unwrap();
    let fighters: Vec<String> = ["Amazon", "Black Knight"]
        .iter()
        .map(|c| (*c).to_string())
        .collect();
    let watchful = Rules::new(["watchful_natives"], crate::magic_realm::rules::TOGGLES).unwrap();
    let joined = |rules: &Rules| -> f64 {
        (1..7)
            .map(|seed| {
                let side = Side::standard("hunt", rules.clone());
                let month = play_month(data, &side, &fighters, seed, Policy::Planned).unwrap();
                month
                    .events
                    .get("watchful natives join")
                    .copied()
                    .unwrap_or(0.0)
            })
            .sum()
    };
    assert_eq!(joined(&Rules::default()), 0.0);
    assert!(joined(&watchful) > 0.0);
}

/// Month 1723 (found by a sweep of seeded months with hunting bots): the Toadstool
/// Circle's terror killed the Swordsman's hired Rogue in Daylight, and the
/// Rogue stayed on his list of hirelings, dead.
#[test]
fn a_hireling_killed_by_a_sites_magic_leaves_his_employers_service() {
    let data = data::get().unwrap();
    let side = Side::standard("demo", Rules::default());
    assert!(play_month(data, &side, &characters(), 1723, Policy::Planned).is_ok());
}

#[test]
fn a_death_no_event_tells_of_is_caught() {
    let data = data::get().unwrap();
    let before = test_game(&["Amazon", "Wizard"]);
    let mut after = before.clone();
    after.characters[1].dead = true;
    let error = invariants::check(data, &before, &after, &no_events())
        .unwrap_err()
        .to_string();
    assert!(error.contains("the Wizard is dead"), "{error}");
    let killed = combat_line(
        &before,
        CombatLine::Killed {
            victim: "Wizard".into(),
            by: "Giant 1".into(),
        },
        Observers::Everyone,
    );
    assert_eq!(invariants::check(data, &before, &after, &[killed]), Ok(()));
}

/// `months` made-up months of the Amazon and the Wizard: `amazon(k)` and
/// `wizard(k)` give month k's measures of each (a measure left out is one
/// the month lacks).
fn made_up(
    months: usize,
    amazon: impl Fn(usize) -> Vec<(&'static str, f64)>,
    wizard: impl Fn(usize) -> Vec<(&'static str, f64)>,
) -> Vec<MonthRecord> {
    let of = |pairs: Vec<(&str, f64)>| {
        pairs
            .into_iter()
            .map(|(name, value)| (name.to_string(), value))
            .collect()
    };
    (0..months)
        .map(|k| MonthRecord {
            characters: [
                ("Amazon".to_string(), of(amazon(k))),
                ("Wizard".to_string(), of(wizard(k))),
            ]
            .into(),
            events: BTreeMap::new(),
        })
        .collect()
}

fn measure_row<'a>(analysis: &'a Analysis, scope: &str, measure: &str) -> &'a Row {
    analysis
        .measures
        .iter()
        .find(|r| r.scope == scope && r.measure == measure)
        .unwrap()
}

/// Two deaths and two great treasures of the Amazon in 200 months, none
/// of the Wizard's.
fn rare_months() -> Analysis {
    let rare = |k: usize| f64::from(u8::from(k % 100 == 7));
    let played = Played {
        a: made_up(
            200,
            |k| vec![("deaths", rare(k)), ("great treasures", rare(k))],
            |_| vec![("deaths", 0.0), ("great treasures", 0.0)],
        ),
        ..Played::default()
    };
    Analysis::of(&plan(200, false), &played)
}

#[test]
fn a_count_that_is_mostly_zero_has_no_interval_below_zero() {
    // Student's t put both intervals at [-0.004, 0.024].
    let analysis = rare_months();
    for scope in ["Amazon", ALL] {
        for measure in ["deaths", "great treasures"] {
            let a = &measure_row(&analysis, scope, measure).a;
            assert_eq!(a.mean, 0.01);
            assert!(
                a.low.is_some_and(|low| low >= 0.0),
                "{scope} {measure}: {a:?}"
            );
        }
    }
    let text = analysis.text();
    assert!(!text.contains("[-"), "{text}");
}

#[test]
fn the_chart_of_a_count_starts_at_zero() {
    // The scale followed the whiskers below zero: it began at "-0.00".
    let page = page::html(&rare_months());
    let deaths_chart = page
        .split("<svg")
        .find(|chart| chart.contains("aria-label=\"Deaths\""))
        .unwrap();
    let scale: Vec<&str> = deaths_chart
        .split("fill=\"#555\">")
        .skip(1)
        .map(|label| label.split('<').next().unwrap())
        .collect();
    assert_eq!(scale.first(), Some(&"0"), "{deaths_chart}");
}

#[test]
fn no_zero_is_printed_with_a_minus_sign() {
    // A tiny gain in one month of four under A: B − A is -0.0001, which
    // printed as "-0.000", and so did A's lower bound.
    let played = Played {
        a: made_up(
            4,
            |k| vec![("gold", if k == 3 { 0.0004 } else { 0.0 })],
            |_| vec![],
        ),
        b: made_up(4, |_| vec![("gold", 0.0)], |_| vec![]),
        ..Played::default()
    };
    let analysis = Analysis::of(&plan(4, true), &played);
    let text = analysis.text();
    assert!(!text.contains("-0.000"), "{text}");
    assert!(!page::html(&analysis).contains("-0.000"));
}

#[test]
fn a_first_death_day_missing_in_some_months_says_over_how_many_months_it_is() {
    // The Amazon dies on day 5 in the first 10 of 20 months under A, and
    // under B on day 5 in those and on day 20 in the other 10: the means
    // differ (5 and 12.5) while B − A, over the months both have, is 0.
    // The text showed "5.000 [5.000, 5.000]" and "B-A 0.000 [0.000,
    // 0.000]" without saying that half the months were left out.
    let death = |day: f64| vec![("deaths", 1.0), ("first death day", day)];
    let played = Played {
        a: made_up(
            20,
            |k| {
                if k < 10 {
                    death(5.0)
                } else {
                    vec![("deaths", 0.0)]
                }
            },
            |_| vec![("deaths", 0.0)],
        ),
        b: made_up(
            20,
            |k| death(if k < 10 { 5.0 } else { 20.0 }),
            |_| vec![("deaths", 0.0)],
        ),
        ..Played::default()
    };
    let analysis = Analysis::of(&plan(20, true), &played);
    for scope in ["Amazon", ALL] {
        let row = measure_row(&analysis, scope, "first death day");
        assert_eq!((row.a.n, row.a.mean), (10, 5.0));
        assert_eq!(
            (row.b.as_ref().unwrap().n, row.b.as_ref().unwrap().mean),
            (20, 12.5)
        );
        let difference = row.difference.as_ref().unwrap();
        assert_eq!((difference.n, difference.mean), (10, 0.0));
    }
    let wizard = measure_row(&analysis, "Wizard", "first death day");
    assert_eq!((wizard.a.n, wizard.difference.as_ref().unwrap().n), (0, 0));
    let text = analysis.text();
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("first death day"))
        .unwrap();
    assert!(
        line.contains("5.000 [5.000, 5.000] (10 of 20 months)")
            && line.contains("B   12.500 [")
            && line.contains("B-A    0.000 [0.000, 0.000] (10 of 20 months)"),
        "{line}"
    );
    assert!(page::html(&analysis).contains("5.000 – 5.000 (10 of 20 months)"));
}
