//! The calendar, the seasons and the weather (`seasons.toml`): 13 months of
//! 28 days, the colour magic of the 7th/14th/21st/28th days, each season's
//! VP requirement, mountain cost, seventh-day colour, mission destinations
//! and its four weathers, and the weekly weather roll.
//!
//! Rules: 2nd-edition optional rule D.1 (Seasons and Weather), and the colour
//! magic of `magic/colour.rs`.

use serde::{Deserialize, Serialize};

use super::terms::{Colour, Dwelling, join};
use realmgm_core::embedded::{DataError, Source};

pub const FILE: &str = "seasons.toml";
#[cfg(test)]
const TEXT: &str = include_str!("seasons.toml");

/// Seasons of the year, plus "No Seasons" (number 0).
pub const SEASONS: usize = 13;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Calendar {
    pub months: u8,
    pub days_per_month: u8,
    pub days_per_week: u8,
    /// Days of the month on which colour magic fills every clearing.
    pub colour_days: Vec<ColourDay>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColourDay {
    pub day: u8,
    /// Colours without the Seasons rule.
    pub colours: Vec<Colour>,
    /// With the Seasons rule this day takes the season's colours instead.
    #[serde(default)]
    pub seasonal: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WeatherKind {
    Clear,
    Showers,
    Storm,
    Special,
}

impl WeatherKind {
    /// Its key in the seasons file (`weather.special`).
    pub fn key(self) -> &'static str {
        match self {
            WeatherKind::Clear => "clear",
            WeatherKind::Showers => "showers",
            WeatherKind::Storm => "storm",
            WeatherKind::Special => "special",
        }
    }
}

/// The weather in words, as reports and tables print it.
impl std::fmt::Display for WeatherKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            WeatherKind::Special => "special weather",
            other => other.key(),
        })
    }
}

/// How the weekly weather roll is read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeatherProcedure {
    /// The secret weather chit is a number from 1 to this.
    pub chit_max: u8,
    /// Days of the month at whose end one die is rolled; the higher of die
    /// and chit sets the next week's weather.
    pub roll_days: Vec<u8>,
    /// Results by the higher number: 6 clear, 5 showers, 4 storm, 1–3 special.
    pub results: Vec<WeatherResult>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeatherResult {
    pub from: u8,
    pub to: u8,
    pub weather: WeatherKind,
}

/// Extra effect of a week's weather (`data/seasons.toml` notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeatherNote {
    /// Not in a cave or dwelling at Birdsong: fatigue one asterisk.
    FatigueOutsideAtBirdsong,
    /// Each phase ended outside a cave or dwelling: fatigue one asterisk.
    FatigueEachPhaseOutside,
    /// No one can use the Hide table.
    NoHideTable,
    /// Not in a cave, water or mountain clearing at Birdsong: fatigue one
    /// asterisk.
    FatigueInHeatAtBirdsong,
    /// Each phase ended in a mountain clearing: fatigue one asterisk.
    FatigueEachPhaseInMountain,
    /// No one can use the Peer table (enhanced peer still allowed).
    NoPeerTable,
    /// Ending a Move or Fly phase in an unfrozen water clearing costs one
    /// asterisk (RealmSpeak, for expansion water; no water on the base map).
    WaterFatigue,
}

impl WeatherNote {
    fn phrase(self) -> &'static str {
        match self {
            WeatherNote::FatigueOutsideAtBirdsong => "fatigue 1 if outside at Birdsong",
            WeatherNote::FatigueEachPhaseOutside => "fatigue 1 per phase ended outside",
            WeatherNote::NoHideTable => "no Hide table",
            WeatherNote::FatigueInHeatAtBirdsong => {
                "fatigue 1 at Birdsong unless in cave/water/mountain"
            }
            WeatherNote::FatigueEachPhaseInMountain => "fatigue 1 per phase ended in a mountain",
            WeatherNote::NoPeerTable => "no Peer table",
            WeatherNote::WaterFatigue => "water clearings tire movers",
        }
    }
}

/// One week's weather in one season.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeatherWeek {
    pub name: String,
    /// Days played in the week; the first 7 − days are skipped.
    pub days: u8,
    pub basic: u8,
    #[serde(default)]
    pub sunlight: u8,
    /// Phases usable only in a cave or dwelling.
    #[serde(default)]
    pub sheltered: u8,
    #[serde(default)]
    pub frozen_water: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<WeatherNote>,
}

impl WeatherWeek {
    fn describe(&self) -> String {
        let mut text = format!(
            "{}: {} days, {}B+{}S",
            self.name, self.days, self.basic, self.sunlight
        );
        if self.sheltered > 0 {
            text.push_str(&format!("+{}Sh", self.sheltered));
        }
        if let Some(note) = self.note {
            text.push_str(&format!(" ({})", note.phrase()));
        }
        text
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeasonWeather {
    pub clear: WeatherWeek,
    pub showers: WeatherWeek,
    pub storm: WeatherWeek,
    pub special: WeatherWeek,
}

impl SeasonWeather {
    pub fn get(&self, kind: WeatherKind) -> &WeatherWeek {
        match kind {
            WeatherKind::Clear => &self.clear,
            WeatherKind::Showers => &self.showers,
            WeatherKind::Storm => &self.storm,
            WeatherKind::Special => &self.special,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Season {
    /// 1–13 in calendar order; 0 is "No Seasons" (the rule not used).
    pub number: u8,
    pub name: String,
    /// Colour magic everywhere on the 7th day of the month.
    pub seventh_day: Vec<Colour>,
    /// Victory points a character needs per month of play.
    pub vp_per_month: u8,
    /// Move phases a mountain clearing costs to enter.
    pub mountain_cost: u8,
    /// Food and Ale mission destinations (dwellings).
    pub food_and_ale: Vec<Dwelling>,
    /// Escort Party mission destinations (dwellings).
    pub escort_party: Vec<Dwelling>,
    /// Gold per clearing of route for finishing a mission this month.
    pub reward: u8,
    pub weather: SeasonWeather,
}

impl Season {
    pub fn describe(&self) -> String {
        let w = &self.weather;
        format!(
            "{} ({}): 7th-day colour {}; {} VP a month; mountains cost {}; Food and Ale to {}; Escort to {}; reward {}\n  6 {}\n  5 {}\n  4 {}\n  1-3 {}",
            self.name,
            self.number,
            join(self.seventh_day.iter().map(|c| c.word())),
            self.vp_per_month,
            self.mountain_cost,
            join(self.food_and_ale.iter().map(|d| d.label())),
            join(self.escort_party.iter().map(|d| d.label())),
            self.reward,
            w.clear.describe(),
            w.showers.describe(),
            w.storm.describe(),
            w.special.describe()
        )
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seasons {
    pub calendar: Calendar,
    pub weather: WeatherProcedure,
    /// "No Seasons" first, then the 13 seasons in order.
    pub season: Vec<Season>,
}

impl Seasons {
    /// "No Seasons": what the game uses without the optional rule.
    pub fn no_seasons(&self) -> &Season {
        &self.season[0]
    }

    /// Season by its number 1–13.
    pub fn season(&self, number: u8) -> Option<&Season> {
        self.season
            .iter()
            .find(|s| s.number == number && number > 0)
    }

    /// The colours present in every clearing on `day_of_month` (1–28);
    /// `season` is `None` without the Seasons rule.
    pub fn colour_magic(&self, day_of_month: u8, season: Option<&Season>) -> Vec<Colour> {
        match self
            .calendar
            .colour_days
            .iter()
            .find(|c| c.day == day_of_month)
        {
            None => Vec::new(),
            Some(c) if c.seasonal => {
                season.map_or_else(|| c.colours.clone(), |s| s.seventh_day.clone())
            }
            Some(c) => c.colours.clone(),
        }
    }

    /// The weather for the higher of the die and the weather chit.
    pub fn weather_for(&self, die: u8, chit: u8) -> Option<WeatherKind> {
        let high = die.max(chit);
        self.weather
            .results
            .iter()
            .find(|r| (r.from..=r.to).contains(&high))
            .map(|r| r.weather)
    }
}

/// Parse and check the embedded `seasons.toml`.
///
/// # Errors
/// A problem naming the file, the season and the field.
pub fn load() -> Result<Seasons, DataError> {
    parse(realmgm_core::compiled!("seasons"))
}

/// Parse and check season data given as text.
///
/// # Errors
/// A problem naming the file, the season and the field.
pub fn parse(source: Source<'_>) -> Result<Seasons, DataError> {
    let data: Seasons = source.parse(FILE)?;
    let cal = &data.calendar;
    if cal.days_per_week == 0 || !cal.days_per_month.is_multiple_of(cal.days_per_week) {
        return Err(DataError::entry(
            FILE,
            "calendar",
            "days_per_month",
            "a month is a whole number of weeks",
        ));
    }
    for (i, c) in cal.colour_days.iter().enumerate() {
        if !(1..=cal.days_per_month).contains(&c.day) || c.colours.is_empty() {
            return Err(DataError::entry(
                FILE,
                "calendar",
                format!("colour_days[{i}]"),
                "a day of the month with at least one colour",
            ));
        }
    }
    let mut covered = [false; 7];
    for (i, r) in data.weather.results.iter().enumerate() {
        if r.from < 1 || r.from > r.to || r.to > data.weather.chit_max {
            return Err(DataError::entry(
                FILE,
                "weather",
                format!("results[{i}]"),
                format!("ranges lie within 1-{}", data.weather.chit_max),
            ));
        }
        for n in r.from..=r.to {
            if std::mem::replace(&mut covered[usize::from(n)], true) {
                return Err(DataError::entry(
                    FILE,
                    "weather",
                    format!("results[{i}]"),
                    format!("{n} is covered twice"),
                ));
            }
        }
    }
    if data.weather.chit_max != 6 || covered[1..].iter().any(|c| !c) {
        return Err(DataError::entry(
            FILE,
            "weather",
            "results",
            "every number 1-6 needs exactly one weather",
        ));
    }
    for (index, s) in data.season.iter().enumerate() {
        let entry = format!("season \"{}\"", s.name);
        if usize::from(s.number) != index {
            return Err(DataError::entry(
                FILE,
                entry,
                "number",
                format!("seasons are listed in order; expected number {index}"),
            ));
        }
        if s.seventh_day.is_empty() {
            return Err(DataError::entry(
                FILE,
                entry,
                "seventh_day",
                "name at least one colour",
            ));
        }
        if !(2..=4).contains(&s.mountain_cost) {
            return Err(DataError::entry(
                FILE,
                entry,
                "mountain_cost",
                "mountains cost 2 to 4 phases",
            ));
        }
        for kind in [
            WeatherKind::Clear,
            WeatherKind::Showers,
            WeatherKind::Storm,
            WeatherKind::Special,
        ] {
            let week = s.weather.get(kind);
            let field = format!("weather.{}", kind.key());
            if !(1..=cal.days_per_week).contains(&week.days) {
                return Err(DataError::entry(
                    FILE,
                    &entry,
                    format!("{field}.days"),
                    format!("1 to {} days", cal.days_per_week),
                ));
            }
            if week.basic == 0 || week.basic + week.sunlight + week.sheltered > 8 {
                return Err(DataError::entry(
                    FILE,
                    &entry,
                    format!("{field}.basic"),
                    "at least one basic phase and at most 8 phases in all",
                ));
            }
        }
    }
    if data.season.len() != SEASONS + 1 {
        return Err(DataError::file(
            FILE,
            format!(
                "expected \"No Seasons\" and {SEASONS} seasons, found {} entries",
                data.season.len()
            ),
        ));
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_days_follow_the_rule() {
        let data = load().unwrap();
        assert_eq!(
            data.colour_magic(7, None),
            vec![Colour::White, Colour::Black]
        );
        let autumn = data.season(11).unwrap();
        assert_eq!(autumn.name, "Autumn");
        assert_eq!(data.colour_magic(7, Some(autumn)), vec![Colour::Purple]);
        assert_eq!(data.colour_magic(14, Some(autumn)), vec![Colour::Grey]);
        assert_eq!(data.colour_magic(28, None), vec![Colour::Gold]);
        assert!(data.colour_magic(3, None).is_empty());
    }

    #[test]
    fn weather_is_the_higher_number() {
        let data = load().unwrap();
        assert_eq!(data.weather_for(2, 6), Some(WeatherKind::Clear));
        assert_eq!(data.weather_for(5, 1), Some(WeatherKind::Showers));
        assert_eq!(data.weather_for(4, 4), Some(WeatherKind::Storm));
        assert_eq!(data.weather_for(3, 1), Some(WeatherKind::Special));
    }

    #[test]
    fn bad_days_name_file_entry_and_field() {
        let text = TEXT.replacen("days = 7", "days = 9", 1);
        let err = parse(Source::Toml(&text)).unwrap_err();
        assert_eq!(err.file, FILE);
        assert_eq!(err.entry.as_deref(), Some("season \"No Seasons\""), "{err}");
        assert_eq!(err.field.as_deref(), Some("weather.clear.days"));
    }
}
