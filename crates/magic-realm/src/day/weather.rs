//! The optional Seasons and Weather rule in play (2nd-edition optional rule
//! D.1; `data/seasons.toml`; BIMR3 rules switches it on for BIMR3): the season of the
//! month (kept in `MrState::magic.season`, which also names the 7th-day
//! colour), the week's weather and the secret weather chit
//! ([`crate::state::WeatherState`], `MrState::weather`).
//!
//! - Setup ([`start`]): the campaign's starting season, a secret chit drawn
//!   with the dice, and the first week's weather (Clear, see the rulings).
//! - End of days 7, 14 and 21 ([`end_of_week`]): one die against the chit
//!   (the higher counts) gives next week's weather, then a new chit is
//!   drawn. A week of fewer than 7 days skips its first days at once: the
//!   game day jumps past them, and hirelings' terms count them.
//! - The week's weather sets each day's basic, sunlight and sheltered
//!   phases ([`budget`]; sheltered phases only for a turn spent wholly in
//!   caves and buildings, without flying, [`sheltered_phases`], 3.1
//!   10.D.1.2.3b), and its special note: no Hide table
//!   ([`forbids_hide`]), no Peer table ([`forbids_peer`]), or weather
//!   fatigue owed at Birdsong ([`at_birdsong`]) or at the end of phases
//!   ([`end_of_phase`]) and paid in the Evening ([`pay_fatigue`]).
//!
//! Rulings (for the README): the first week of the game is the season's
//! Clear weather (the rule rolls only at the end of 7th days); skipped days
//! are resolved inside the turn of the 7th day, so the next turn plays the
//! first day that is not skipped; weather fatigue is paid automatically
//! with the cheapest chit (one-asterisk chits first, slowest first; a
//! two-asterisk chit makes change), a character with no active asterisk
//! chit wounds his slowest active chit instead; the campfires count as
//! dwellings for shelter from weather fatigue (the Weather chits' notes say
//! "cave or Dwelling"), not for sheltered phases; no weather roll after the last
//! day of the game.

use serde::{Deserialize, Serialize};

use crate::board::ClearingId;
use crate::data::GameData;
use crate::data::characters::ActionChit;
use crate::data::seasons::{Season, WeatherKind, WeatherNote, WeatherWeek};
use crate::day::refusal::PhaseError;
use crate::orders::{Activity, DayOrders};
use crate::rules::{SEASONS, SEASONS_TOGGLE};
use crate::state::{ChitCondition, MrState, WeatherState};
use crate::tables::weather::{draw_chit, roll_weather};
use realmgm_core::dice::Dice;
use realmgm_core::game::Observers;

use super::events::Happening;
use super::{Day, movement};

/// What the weather did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum WeatherEvent {
    /// The weather of the week starting on `from_day`.
    Week {
        from_day: u32,
        season: String,
        description: String,
    },
    /// The roll behind it (GM only: it shows the secret chit).
    Rolled { die: u8, chit: u8, high: u8 },
    /// A new secret chit (GM only).
    ChitDrawn { chit: u8 },
    /// A day of a short week: nobody has a turn.
    DaySkipped { day: u32 },
    /// A new month: the season changes.
    SeasonBegins { season: String },
    /// Weather fatigue paid in the Evening.
    Fatigued {
        character: String,
        chit: String,
        wounded: bool,
        reason: String,
    },
    /// Weather fatigue owed by a character with no active chit left.
    NothingToFatigue { character: String, reason: String },
}

impl WeatherEvent {
    pub fn log_line(&self) -> String {
        match self {
            WeatherEvent::Week {
                from_day,
                season,
                description,
            } => format!("Weather from day {from_day} ({season}): {description}"),
            WeatherEvent::Rolled { die, chit, high } => {
                format!("Weather roll: die {die}, secret chit {chit}: {high} counts")
            }
            WeatherEvent::ChitDrawn { chit } => format!("New secret weather chit: {chit}"),
            WeatherEvent::DaySkipped { day } => {
                format!("Day {day} is skipped by the weather: nobody takes a turn")
            }
            WeatherEvent::SeasonBegins { season } => format!("The season is now {season}"),
            WeatherEvent::Fatigued {
                character,
                chit,
                wounded,
                reason,
            } => {
                let how = if *wounded { "wounds" } else { "fatigues" };
                format!("The {character} {how} {chit} ({reason})")
            }
            WeatherEvent::NothingToFatigue { character, reason } => {
                format!("The {character} has no active chit left to pay weather fatigue ({reason})")
            }
        }
    }
}

/// The basic, sunlight and sheltered phases of each day of the week.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhaseBudget {
    pub basic: usize,
    pub sunlight: usize,
    /// Usable only in a cave or dwelling clearing, after the others.
    pub sheltered: usize,
}

/// An ordinary day without the rule: two basic and two sunlight phases.
pub const ORDINARY_DAY: PhaseBudget = PhaseBudget {
    basic: 2,
    sunlight: 2,
    sheltered: 0,
};

/// The season number (1–13) of a season name as campaigns write it.
pub fn season_number(name: &str) -> Option<u8> {
    SEASONS
        .iter()
        .position(|s| s.eq_ignore_ascii_case(name))
        .and_then(|i| u8::try_from(i + 1).ok())
}

/// Start the seasons of a new game in `season` (its name): the season of
/// the month, the first week's weather and the secret chit drawn with the
/// setup dice.
///
/// # Errors
/// An unknown season.
pub fn start(state: &mut MrState, season: &str, dice: &mut Dice) -> Result<(), PhaseError> {
    let number = season_number(season).ok_or_else(|| {
        format!(
            "'{season}' is not a season; the seasons are {}",
            SEASONS.join(", ")
        )
    })?;
    state.magic.season = Some(number);
    state.weather = Some(WeatherState {
        weather: WeatherKind::Clear,
        chit: draw_chit(dice, "setup/weather-chit"),
    });
    Ok(())
}

/// The victory points a month of `season` asks (Seasons and Weather,
/// `data/seasons.toml`); 0 for a name that is not a season.
pub fn season_points(data: &GameData, season: &str) -> u32 {
    season_number(season)
        .and_then(|n| data.seasons.season(n))
        .map_or(0, |s| u32::from(s.vp_per_month))
}

/// The season and week's weather in play, when the rule is on.
pub fn current<'d>(
    data: &'d GameData,
    rules: &realmgm_core::game::Rules,
    state: &MrState,
) -> Option<(&'d Season, &'d WeatherWeek)> {
    if !rules.is_on(SEASONS_TOGGLE) {
        return None;
    }
    let weather = state.weather?;
    let season = data.seasons.season(state.magic.season?)?;
    Some((season, season.weather.get(weather.weather)))
}

/// A one-line description of the season and week's weather, for report
/// headers; `None` for a game without the rule.
pub fn describe(data: &GameData, state: &MrState) -> Option<String> {
    let weather = state.weather?;
    let season = data.seasons.season(state.magic.season?)?;
    let week = season.weather.get(weather.weather);
    Some(format!("{} ({})", season.name, week_text(week)))
}

fn week_text(week: &WeatherWeek) -> String {
    let mut text = format!(
        "{}: {} days a week, {} basic and {} sunlight phases",
        week.name, week.days, week.basic, week.sunlight
    );
    if week.sheltered > 0 {
        text.push_str(&format!(
            ", {} sheltered (cave or dwelling only)",
            week.sheltered
        ));
    }
    match week.note {
        Some(WeatherNote::NoHideTable) => text.push_str("; nobody may use the Hide table"),
        Some(WeatherNote::NoPeerTable) => text.push_str("; nobody may use the Peer table"),
        Some(WeatherNote::FatigueOutsideAtBirdsong) => {
            text.push_str("; fatigue 1 asterisk if outside a cave or dwelling at Birdsong");
        }
        Some(WeatherNote::FatigueEachPhaseOutside) => {
            text.push_str("; fatigue 1 asterisk per phase ended outside a cave or dwelling");
        }
        Some(WeatherNote::FatigueInHeatAtBirdsong) => text.push_str(
            "; fatigue 1 asterisk unless in a cave, water or mountain clearing at Birdsong",
        ),
        Some(WeatherNote::FatigueEachPhaseInMountain) => {
            text.push_str("; fatigue 1 asterisk per phase ended in a mountain clearing");
        }
        // Water clearings exist only on expansion tiles.
        Some(WeatherNote::WaterFatigue) | None => {}
    }
    text
}

/// The phases of each day this week.
pub fn budget(day: &Day<'_>) -> PhaseBudget {
    budget_of(day.data, day.rules, &day.state)
}

/// [`budget`] from the game's parts, for a report written between days.
pub fn budget_of(
    data: &GameData,
    rules: &realmgm_core::game::Rules,
    state: &MrState,
) -> PhaseBudget {
    match current(data, rules, state) {
        Some((_, week)) => PhaseBudget {
            basic: usize::from(week.basic),
            sunlight: usize::from(week.sunlight),
            sheltered: usize::from(week.sheltered),
        },
        None => ORDINARY_DAY,
    }
}

/// Move phases a mountain clearing costs this month (2 without the rule).
pub fn mountain_cost(day: &Day<'_>) -> usize {
    current(day.data, day.rules, &day.state)
        .map_or(2, |(season, _)| usize::from(season.mountain_cost))
}

/// The sheltered phases `who` may use in the turn `orders` record: the
/// week's, if he spends the whole turn in caves and buildings, else none
/// (3.1 10.D.1.2.3b). The turn is judged as recorded, at its start: he
/// starts in a cave or building clearing, every Move goes to one, and he
/// does not fly. The four buildings are the Inn, Chapel, House and Guard
/// house; a campfire is no building.
pub fn sheltered_phases(day: &Day<'_>, who: usize, orders: &DayOrders) -> usize {
    let c = &day.state.characters[who];
    let housed = |clearing: &ClearingId| {
        movement::is_cave(day, clearing)
            || day
                .state
                .every_dwelling()
                .any(|(_, d, at)| at == clearing && !d.is_campfire())
    };
    let stays = !c.between_clearings()
        && housed(&c.position)
        && orders.activities.phases.iter().all(|p| match &p.activity {
            Activity::Fly { .. } => false,
            Activity::Move { tile, clearing } => day
                .data
                .tiles
                .resolve(tile)
                .is_some_and(|t| housed(&ClearingId::new(&t.code, *clearing))),
            _ => true,
        });
    if stays { budget(day).sheltered } else { 0 }
}

/// Whether `clearing` gives shelter from the weather's fatigue: a cave, or a
/// dwelling (the campfires included) stands there.
pub fn in_shelter(day: &Day<'_>, clearing: &ClearingId) -> bool {
    movement::is_cave(day, clearing) || day.state.dwelling_stands_in(clearing)
}

fn note(day: &Day<'_>) -> Option<(WeatherNote, String)> {
    let (_, week) = current(day.data, day.rules, &day.state)?;
    Some((week.note?, week.name.clone()))
}

/// Why nobody may roll on the Hide table this week, if so.
pub fn forbids_hide(day: &Day<'_>) -> Option<String> {
    match note(day)? {
        (WeatherNote::NoHideTable, name) => {
            Some(format!("nobody may use the Hide table this week ({name})"))
        }
        _ => None,
    }
}

/// Why nobody may search on the Peer table this week, if so.
pub fn forbids_peer(day: &Day<'_>) -> Option<String> {
    match note(day)? {
        (WeatherNote::NoPeerTable, name) => {
            Some(format!("nobody may use the Peer table this week ({name})"))
        }
        _ => None,
    }
}

fn owe(day: &mut Day<'_>, who: usize) {
    *day.today.weather_fatigue.entry(who).or_default() += 1;
}

/// Birdsong: Icy Winds and Heat Wave tire those caught outside.
pub fn at_birdsong(day: &mut Day<'_>) {
    let Some((note, _)) = note(day) else {
        return;
    };
    for who in 0..day.state.characters.len() {
        let c = &day.state.characters[who];
        if c.dead {
            continue;
        }
        let here = c.position.clone();
        let tired = match note {
            WeatherNote::FatigueOutsideAtBirdsong => !in_shelter(day, &here),
            // The base map has no water clearings.
            WeatherNote::FatigueInHeatAtBirdsong => {
                !movement::is_cave(day, &here) && !movement::is_mountain(day, &here)
            }
            _ => false,
        };
        if tired {
            owe(day, who);
        }
    }
}

/// The end of one of his phases (he may be blocked): Frigid Air tires
/// those outside, Ball Lightning those in (or climbing into) a mountain
/// clearing; his followers pay as he does.
pub fn end_of_phase(day: &mut Day<'_>, who: usize, followers: &[usize], climbing: bool) {
    let Some((note, _)) = note(day) else {
        return;
    };
    let here = day.state.characters[who].position.clone();
    let tired = match note {
        WeatherNote::FatigueEachPhaseOutside => !in_shelter(day, &here),
        WeatherNote::FatigueEachPhaseInMountain => climbing || movement::is_mountain(day, &here),
        _ => false,
    };
    if tired {
        for i in std::iter::once(who).chain(followers.iter().copied()) {
            owe(day, i);
        }
    }
}

/// The Evening fatigue step: each character pays the weather fatigue he
/// owes, one asterisk at a time.
pub fn pay_fatigue(day: &mut Day<'_>) {
    let owed = std::mem::take(&mut day.today.weather_fatigue);
    let reason = note(day).map_or_else(String::new, |(_, name)| format!("weather: {name}"));
    for (who, asterisks) in owed {
        for _ in 0..asterisks {
            let event = fatigue_one(&mut day.state, who, &reason);
            let observers = day.only(who);
            day.emit(observers, Happening::Weather(event));
        }
    }
}

/// Fatigue one asterisk of character `who`: the cheapest active chit with
/// asterisks (a two-asterisk chit gets a fatigued one-asterisk chit of its
/// kind back as change), else a wound on his slowest active chit.
fn fatigue_one(state: &mut MrState, who: usize, reason: &str) -> WeatherEvent {
    let c = &mut state.characters[who];
    let parsed: Vec<Option<ActionChit>> = c
        .chits
        .iter()
        .map(|k| ActionChit::parse(&k.chit).ok())
        .collect();
    let active = |i: &usize| c.chits[*i].condition == ChitCondition::Active;
    let cheapest = (0..c.chits.len())
        .filter(active)
        .filter_map(|i| parsed[i].as_ref().map(|p| (i, p)))
        .filter(|(_, p)| p.effort > 0)
        .min_by_key(|(i, p)| (p.effort, std::cmp::Reverse(p.time), *i))
        .map(|(i, _)| i);
    if let Some(i) = cheapest {
        c.chits[i].condition = ChitCondition::Fatigued;
        if let Some(tired) = &parsed[i]
            && tired.effort == 2
            && let Some(change) = (0..c.chits.len()).find(|&j| {
                c.chits[j].condition == ChitCondition::Fatigued
                    && parsed[j]
                        .as_ref()
                        .is_some_and(|p| p.effort == 1 && p.action == tired.action)
            })
        {
            c.chits[change].condition = ChitCondition::Active;
        }
        return WeatherEvent::Fatigued {
            character: c.name.clone(),
            chit: c.chits[i].chit.clone(),
            wounded: false,
            reason: reason.to_string(),
        };
    }
    let slowest = (0..c.chits.len())
        .filter(active)
        .max_by_key(|&i| (parsed[i].as_ref().map_or(0, |p| p.time), i));
    match slowest {
        Some(i) => {
            c.chits[i].condition = ChitCondition::Wounded;
            WeatherEvent::Fatigued {
                character: c.name.clone(),
                chit: c.chits[i].chit.clone(),
                wounded: true,
                reason: format!("{reason}; no active chit with asterisks to fatigue"),
            }
        }
        None => WeatherEvent::NothingToFatigue {
            character: c.name.clone(),
            reason: reason.to_string(),
        },
    }
}

/// After Midnight of `day_number`: on days 7, 14 and 21 roll next week's
/// weather against the secret chit, draw a new chit, start a new month's
/// season, and skip the first days of a short week. Returns the number of
/// days skipped (the game day moves past them).
pub fn end_of_week(day: &mut Day<'_>, day_number: u32) -> u32 {
    if !day.rules.is_on(SEASONS_TOGGLE) || day_number >= day.state.last_day {
        return 0;
    }
    let Some(state) = day.state.weather else {
        return 0;
    };
    let seasons = &day.data.seasons;
    let roll_days = &seasons.weather.roll_days;
    let per_month = u32::from(seasons.calendar.days_per_month);
    let per_week = u32::from(seasons.calendar.days_per_week);
    let day_of_month = u8::try_from((day_number - 1) % per_month + 1).unwrap_or(0);
    if !roll_days.contains(&day_of_month) {
        return 0;
    }
    // The roll refuses only a chit outside 1–6, which `start` never draws.
    let Ok(roll) = roll_weather(day.dice, "midnight/weather", state.chit.clamp(1, 6)) else {
        return 0;
    };
    day.emit(Observers::Gm, Happening::Roll(roll.record.clone()));
    day.emit(
        Observers::Gm,
        Happening::Weather(WeatherEvent::Rolled {
            die: roll.record.result,
            chit: state.chit,
            high: roll.result.high,
        }),
    );
    let chit = draw_chit(day.dice, "midnight/weather-chit");
    day.emit(
        Observers::Gm,
        Happening::Weather(WeatherEvent::ChitDrawn { chit }),
    );
    if day_number.is_multiple_of(per_month) {
        let next = day.state.magic.season.map_or(1, |s| s % 13 + 1);
        day.state.magic.season = Some(next);
        if let Some(season) = seasons.season(next) {
            day.emit(
                Observers::Everyone,
                Happening::Weather(WeatherEvent::SeasonBegins {
                    season: season.name.clone(),
                }),
            );
        }
    }
    day.state.weather = Some(WeatherState {
        weather: roll.result.weather,
        chit,
    });
    let Some((season, week)) = current(day.data, day.rules, &day.state) else {
        return 0;
    };
    let skipped = per_week.saturating_sub(u32::from(week.days));
    day.emit(
        Observers::Everyone,
        Happening::Weather(WeatherEvent::Week {
            from_day: day_number + 1,
            season: season.name.clone(),
            description: week_text(week),
        }),
    );
    for skipped_day in day_number + 1..=day_number + skipped {
        day.emit(
            Observers::Everyone,
            Happening::Weather(WeatherEvent::DaySkipped { day: skipped_day }),
        );
        super::hire::count_down_hire_terms(day);
    }
    skipped
}

#[cfg(test)]
#[path = "weather_tests.rs"]
mod tests;
