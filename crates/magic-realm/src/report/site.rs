//! Magic Realm's public day page: the day's events grouped as
//! the BIMR GMs published their days (Birdsong; each character's and hired
//! leader's record in the order they moved, his recorded line, one line per
//! phase with the dice; the evening's combats by clearing; Midnight), the
//! map at the end of the day, the standings and, once the campaign is over,
//! the final scoring worked out per category.
//!
//! What each [`Disclosure`] lets through (README "Public pages"):
//! - `Public`: only the events every player observed, and the bare board;
//! - `Record`: every event but those only the GM saw; the map with the
//!   characters where they ended the day, no sites, chits or denizens;
//! - `Everything`: the GM's view, and the scoring arithmetic.

use realmgm_core::game::{Event, Observers, Reader, Rules};
use realmgm_core::page::{
    Block, CategoryScore, Disclosure, FinalScore, Measure, Section, SiteDay, Standing,
};

use crate::board::svg::{MapView, render, render_view};
use crate::data::GameData;
use crate::day::events::{
    BirdsongEvent, CombatEvent, DayEvent, Happening, MidnightEvent, PhaseEvent, Score,
};
use crate::day::log;
use crate::day::victory;
use crate::state::MrState;

/// The measures the standings chart, in order.
pub const MEASURES: [&str; 5] = ["fame", "notoriety", "gold", "great treasures", "spells"];

/// The public page of the day that ended with `state`; `previous` is the
/// state it began with.
///
/// # Errors
/// An event is not a Magic Realm event.
pub fn site_day(
    data: &GameData,
    state: &MrState,
    previous: Option<&MrState>,
    events: &[Event],
    disclosure: Disclosure,
) -> anyhow::Result<SiteDay> {
    let shown: Vec<Event> = events
        .iter()
        .filter(|e| match disclosure {
            Disclosure::Public => e.observers == Observers::Everyone,
            Disclosure::Record => e.observers != Observers::Gm,
            Disclosure::Everything => true,
        })
        .cloned()
        .collect();
    let day_events = super::seen(&shown, Reader::Gm)?;
    Ok(SiteDay {
        weather: crate::day::weather::describe(data, state),
        sections: sections(&day_events),
        map_svg: Some(map(data, state, disclosure)),
        standings: standings(data, state, final_day_scores(&day_events)),
        deaths: state
            .characters
            .iter()
            .filter(|c| c.dead)
            .filter(|c| {
                previous.is_none_or(|p| !p.characters.iter().any(|b| b.name == c.name && b.dead))
            })
            .map(|c| c.name.clone())
            .collect(),
        final_scores: match final_day_scores(&day_events) {
            Some(scores) if disclosure == Disclosure::Everything => final_scores(state, scores),
            _ => Vec::new(),
        },
    })
}

/// Where an event's lines go on the page.
enum Part {
    Birdsong,
    Daylight,
    Evening,
    Midnight,
}

const TITLES: [&str; 4] = ["Birdsong", "Daylight", "Evening", "Midnight"];

/// The day's events in their parts, each character's record a block.
fn sections(events: &[DayEvent]) -> Vec<Section> {
    let mut parts: [Vec<Block>; 4] = Default::default();
    let mut in_daylight = false;
    for event in events {
        // The page's title already names the day.
        if matches!(
            event.happening,
            Happening::Birdsong(BirdsongEvent::DayBegins { .. })
        ) {
            continue;
        }
        let part = match &event.happening {
            Happening::Combat(_) => Part::Evening,
            Happening::Midnight(_) => Part::Midnight,
            Happening::Phase(PhaseEvent::TurnStarts { .. }) => {
                in_daylight = true;
                Part::Daylight
            }
            _ if in_daylight => Part::Daylight,
            _ => Part::Birdsong,
        };
        let blocks = &mut parts[part as usize];
        match &event.happening {
            Happening::Phase(PhaseEvent::TurnStarts { character, .. }) => {
                let mut lines = text_lines(event);
                let heading = (!lines.is_empty()).then(|| lines.remove(0));
                blocks.push(Block {
                    character: Some(character.clone()),
                    heading: heading.map(|h| h.trim_end_matches(':').to_string()),
                    lines,
                });
            }
            Happening::Combat(CombatEvent::Line {
                clearing,
                round,
                line,
            }) => {
                let heading = format!("In {clearing}");
                let text = if *round == 0 {
                    format!("Before combat: {line}.")
                } else {
                    format!("Round {round}: {line}.")
                };
                match blocks.last_mut() {
                    Some(block) if block.heading.as_deref() == Some(heading.as_str()) => {
                        block.lines.push(text);
                    }
                    _ => blocks.push(Block {
                        character: None,
                        heading: Some(heading),
                        lines: vec![text],
                    }),
                }
            }
            _ => {
                let lines = text_lines(event);
                if lines.is_empty() {
                    continue;
                }
                match blocks.last_mut() {
                    Some(block) => block.lines.extend(lines),
                    None => blocks.push(Block {
                        character: None,
                        heading: None,
                        lines,
                    }),
                }
            }
        }
    }
    parts
        .into_iter()
        .zip(TITLES)
        .filter(|(blocks, _)| !blocks.is_empty())
        .map(|(blocks, title)| Section {
            title: title.to_string(),
            blocks,
        })
        .collect()
}

/// An event's log text as trimmed, non-empty lines.
fn text_lines(event: &DayEvent) -> Vec<String> {
    log::line(event)
        .map(|text| {
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The map the disclosure allows.
fn map(data: &GameData, state: &MrState, disclosure: Disclosure) -> String {
    match disclosure {
        Disclosure::Public => render(&state.board),
        Disclosure::Record => render_view(
            &state.board,
            &MapView {
                explored: None,
                known_routes: None,
                marks: state
                    .characters
                    .iter()
                    .filter(|c| !c.dead)
                    .map(|c| (c.position.clone(), c.name.clone()))
                    .collect(),
                notes: Vec::new(),
            },
        ),
        Disclosure::Everything => super::map::full_map(data, state),
    }
}

/// Each character's points in the victory categories: on the day that
/// ended the game, those its Midnight scored; before, those the page can
/// count without the campaign's optional rules, which it is not told, so
/// the Spell cards that Enhanced Artifacts counts only at the end (3.1
/// 10.C.3.2) join the spells on that day.
fn standings(data: &GameData, state: &MrState, scored: Option<&[Score]>) -> Vec<Standing> {
    state
        .characters
        .iter()
        .map(|c| {
            let score = scored
                .and_then(|scores| scores.iter().find(|s| s.character == c.name))
                .cloned()
                .unwrap_or_else(|| victory::score(data, &Rules::default(), state, c, None));
            let values = [
                score.fame,
                score.notoriety,
                score.gold,
                score.great_treasures,
                score.spells,
            ];
            Standing {
                character: c.name.clone(),
                player: c.played_by().to_string(),
                dead: c.dead,
                values: MEASURES
                    .iter()
                    .zip(values)
                    .map(|(name, value)| Measure {
                        name: (*name).to_string(),
                        value: value.into(),
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The scores of the day's Midnight when it ended the game, worked out
/// under the campaign's rules.
fn final_day_scores(events: &[DayEvent]) -> Option<&[Score]> {
    events.iter().find_map(|e| match &e.happening {
        Happening::Midnight(MidnightEvent::VictoryPoints { scores, .. }) => Some(scores.as_slice()),
        _ => None,
    })
}

/// Each character's victory points of `scores` worked out per category.
fn final_scores(state: &MrState, scores: &[Score]) -> Vec<FinalScore> {
    state
        .characters
        .iter()
        .filter_map(|c| Some((c, scores.iter().find(|s| s.character == c.name)?)))
        .map(|(c, score)| {
            let requirements = state.victory_requirements.get(&c.name);
            let categories = requirements
                .map(|r| {
                    victory::workings(score, r)
                        .into_iter()
                        .map(|(name, w)| CategoryScore {
                            category: name.to_string(),
                            assigned: w.assigned.into(),
                            factor: w.factor.into(),
                            required: w.required.into(),
                            acquired: w.acquired.into(),
                            basic: w.basic.into(),
                            bonus: w.bonus.into(),
                        })
                        .collect()
                })
                .unwrap_or_default();
            let note = if c.dead {
                Some(format!(
                    "dead at the end: {} whatever he holds",
                    victory::DEAD_SCORE
                ))
            } else if requirements.is_none() {
                Some("no victory requirements recorded: each category scores its points ÷ its factor".to_string())
            } else {
                None
            };
            FinalScore {
                character: c.name.clone(),
                player: c.played_by().to_string(),
                categories,
                total: score.total.into(),
                note,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::log::CombatLine;
    use crate::day::weather::WeatherEvent;
    use crate::test_support::{data, test_game};

    fn event(observers: Observers, happening: Happening) -> Event {
        Event {
            observers,
            body: realmgm_core::game::GameValue::from_typed(happening),
        }
    }

    /// A day with public news, one character's turn (seen by his player),
    /// a combat line and a GM-only roll.
    fn day() -> (MrState, Vec<Event>) {
        let state = test_game(&["Amazon", "Wizard"]);
        let clearing = state.characters[0].position.clone();
        let ann = Observers::Players(["p0".to_string()].into());
        let events = vec![
            event(
                Observers::Everyone,
                Happening::Birdsong(BirdsongEvent::DayBegins { day: 1 }),
            ),
            event(
                Observers::Everyone,
                Happening::Birdsong(BirdsongEvent::TurnOrder {
                    order: vec!["Amazon".into(), "Wizard".into()],
                }),
            ),
            event(
                Observers::Gm,
                Happening::Weather(WeatherEvent::Rolled {
                    die: 3,
                    chit: 4,
                    high: 5,
                }),
            ),
            event(
                ann.clone(),
                Happening::Phase(PhaseEvent::TurnStarts {
                    character: "Amazon".into(),
                    clearing: clearing.clone(),
                    recorded: "H / H".into(),
                    no_orders: false,
                    phases: 2,
                    followers: Vec::new(),
                }),
            ),
            event(
                ann,
                Happening::Combat(CombatEvent::Line {
                    clearing: clearing.clone(),
                    round: 1,
                    line: CombatLine::RoundBegins,
                }),
            ),
        ];
        (state, events)
    }

    fn all_lines(page: &SiteDay) -> Vec<String> {
        page.sections
            .iter()
            .flat_map(|s| &s.blocks)
            .flat_map(|b| b.heading.iter().chain(&b.lines).cloned())
            .collect()
    }

    #[test]
    fn public_shows_the_news_alone_and_a_bare_board() {
        let (state, events) = day();
        let page = site_day(data(), &state, None, &events, Disclosure::Public).unwrap();
        let titles: Vec<&str> = page.sections.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["Birdsong"]);
        assert_eq!(all_lines(&page), ["Turn order: Amazon, Wizard."]);
        assert!(!page.map_svg.unwrap().contains(">Amazon<"));
        assert!(page.final_scores.is_empty());
    }

    #[test]
    fn a_record_groups_each_turn_and_each_clearings_combat_without_gm_only_events() {
        let (state, events) = day();
        let page = site_day(data(), &state, None, &events, Disclosure::Record).unwrap();
        let titles: Vec<&str> = page.sections.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["Birdsong", "Daylight", "Evening"]);
        let turn = &page.sections[1].blocks[0];
        assert_eq!(turn.character.as_deref(), Some("Amazon"));
        assert!(turn.heading.as_deref().unwrap().starts_with("Amazon in "));
        assert_eq!(turn.lines, ["Recorded: H / H"]);
        let combat = &page.sections[2].blocks[0];
        assert!(combat.heading.as_deref().unwrap().starts_with("In "));
        assert_eq!(combat.lines, ["Round 1: the round begins."]);
        let lines = all_lines(&page);
        assert!(!lines.iter().any(|l| l.contains("chit")), "{lines:?}");
        assert!(
            page.map_svg.unwrap().contains("Amazon"),
            "where each ended the day"
        );
        let everything = site_day(data(), &state, None, &events, Disclosure::Everything).unwrap();
        assert!(all_lines(&everything).iter().any(|l| l.contains("chit 4")));
    }

    #[test]
    fn a_death_is_news_on_the_day_it_happens_only() {
        let (mut state, events) = day();
        let before = state.clone();
        state.characters[1].dead = true;
        let page = site_day(data(), &state, Some(&before), &events, Disclosure::Public).unwrap();
        assert_eq!(page.deaths, ["Wizard"]);
        let next = site_day(data(), &state, Some(&state), &events, Disclosure::Public).unwrap();
        assert!(next.deaths.is_empty());
        assert_eq!(page.standings.len(), 2);
        assert!(page.standings[1].dead);
    }
}
