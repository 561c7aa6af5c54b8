//! The weekly weather roll (optional Seasons and Weather rule D.1; `data/seasons.toml`;
//! the play summary has no weather, the campaign rules of the BIMR3 rules switch it
//! on): at the end of days 7, 14, 21 and 28 one die is rolled, and the
//! higher of the die and the secret weather chit gives next week's weather:
//! 6 clear, 5 showers, 4 storm, 1–3 special. Never modified. What each
//! weather does in each season is `data::seasons`.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{DieTable, Modifiers, TableError, TableRoll, roll_on};
use crate::data::seasons::WeatherKind;
use realmgm_core::dice::{Dice, DiceCount};

/// The weather for the higher of die and chit.
pub fn weather_for(high: u8) -> WeatherKind {
    match high {
        6.. => WeatherKind::Clear,
        5 => WeatherKind::Showers,
        4 => WeatherKind::Storm,
        _ => WeatherKind::Special,
    }
}

/// Next week's weather and how it came about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeatherResult {
    pub chit: u8,
    /// The higher of die and chit.
    pub high: u8,
    pub weather: WeatherKind,
}

impl fmt::Display for WeatherResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (higher of die and chit {} is {})",
            self.weather, self.chit, self.high
        )
    }
}

/// The weather table for one secret chit.
#[derive(Clone, Copy, Debug)]
pub struct WeatherTable {
    pub chit: u8,
}

impl DieTable for WeatherTable {
    type Outcome = WeatherResult;

    fn rule(&self) -> &'static str {
        "10.D.1"
    }
    fn name(&self) -> Cow<'static, str> {
        "Weather".into()
    }
    fn outcome(&self, row: i8) -> WeatherResult {
        let die = u8::try_from(row.clamp(1, 6)).unwrap_or(1);
        let high = die.max(self.chit);
        WeatherResult {
            chit: self.chit,
            high,
            weather: weather_for(high),
        }
    }
    fn fixed_dice(&self) -> Option<DiceCount> {
        Some(DiceCount::One)
    }
}

/// Draw a new secret weather chit (1–6; `tables/weather.rs` step 1 and §16:
/// RealmSpeak draws a random number, the physical chit set is unknown).
pub fn draw_chit(dice: &mut Dice, purpose: &str) -> u8 {
    dice.roll(purpose, DiceCount::One).result
}

/// Roll next week's weather against the secret `chit`.
///
/// # Errors
/// A chit outside 1..6.
pub fn roll_weather(
    dice: &mut Dice,
    purpose: &str,
    chit: u8,
) -> Result<TableRoll<WeatherResult>, TableError> {
    if !(1..=6).contains(&chit) {
        return Err(TableError::BadWeatherChit(chit));
    }
    Ok(roll_on(
        &WeatherTable { chit },
        dice,
        purpose,
        &Modifiers::none(),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::test_dice::{PURPOSE, forced};
    use super::*;

    #[test]
    fn the_higher_of_die_and_chit_decides() {
        let cases = [
            (6, 1, WeatherKind::Clear),
            (1, 6, WeatherKind::Clear),
            (5, 2, WeatherKind::Showers),
            (3, 4, WeatherKind::Storm),
            (3, 2, WeatherKind::Special),
            (1, 1, WeatherKind::Special),
        ];
        for (die, chit, expected) in cases {
            let mut dice = forced(&[&[die]]);
            let roll = roll_weather(&mut dice, PURPOSE, chit).unwrap();
            assert_eq!(roll.result.weather, expected, "die {die} chit {chit}");
            assert_eq!(roll.row, i8::try_from(die).unwrap());
        }
    }

    #[test]
    fn agrees_with_the_seasons_data() {
        let seasons = crate::data::seasons::load().unwrap();
        for die in 1..=6 {
            for chit in 1..=6 {
                assert_eq!(
                    Some(weather_for(die.max(chit))),
                    seasons.weather_for(die, chit)
                );
            }
        }
    }

    #[test]
    fn a_bad_chit_is_refused() {
        let mut dice = Dice::new(1, 7);
        assert_eq!(
            roll_weather(&mut dice, "weather", 0).unwrap_err(),
            TableError::BadWeatherChit(0)
        );
        let chit = draw_chit(&mut dice, "weather/chit");
        assert!((1..=6).contains(&chit));
    }
}
