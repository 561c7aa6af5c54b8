//! When a campaign's turns fall due: the first deadline, the interval, early
//! processing, reminders and what happens to a player who sends no orders.
//!
//! All times are UTC and counted in whole seconds since 1970 (Unix time), so
//! the daemon, the store and tests agree without a time-zone library. The
//! caller always supplies "now"; nothing here reads the clock.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What the GM does for a player whose orders did not arrive by the deadline
/// (NMR, "no move received").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NmrPolicy {
    /// The game's own safe orders ([`crate::game::Game::missing_orders`]):
    /// in Magic Realm the character hides in every phase (the BIMR3 GM's
    /// practice, the recorded notation in README "Orders"), hence the name; `default` is
    /// accepted too, and reads better for other games.
    #[default]
    #[serde(alias = "default")]
    Hide,
    /// The player's previous day's orders are used again.
    Repeat,
}

impl NmrPolicy {
    /// How players and the GM read the policy; `game_default` is what the
    /// game plays for a silent player ([`crate::game::Game::safe_orders`]).
    pub fn describe(self, game_default: &str) -> String {
        match self {
            NmrPolicy::Hide => format!("the game's safe orders ({game_default})"),
            NmrPolicy::Repeat => "repeat the previous day's orders".to_string(),
        }
    }
}

/// The turn schedule of a campaign, as written in its `[schedule]` table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schedule {
    /// The date of the first deadline (`"2025-03-01"`).
    pub first_deadline: Date,
    /// The time of day of the first deadline, UTC (`"20:00"`).
    pub at: TimeOfDay,
    /// Hours between deadlines.
    pub every_hours: u32,
    /// When every player's orders are in, process the turn this many minutes
    /// after the last one arrived instead of waiting for the deadline; `None`
    /// always waits for the deadline.
    #[serde(default)]
    pub process_early_after_minutes: Option<u32>,
    /// Remind players without orders this many hours before a deadline;
    /// `None` sends no reminders.
    #[serde(default)]
    pub reminder_hours: Option<u32>,
    /// What a player who sent nothing does.
    #[serde(default)]
    pub nmr: NmrPolicy,
    /// Tell the GM when a player has sent no orders this many days in a
    /// row [default 2; 0 never].
    #[serde(default = "default_nmr_tell_gm_after")]
    pub nmr_tell_gm_after: u32,
    /// ... and again, offering his seat for a replacement, after this many
    /// [default 4; 0 never]. Nothing changes without the GM's word.
    #[serde(default = "default_nmr_offer_seat_after")]
    pub nmr_offer_seat_after: u32,
}

fn default_nmr_tell_gm_after() -> u32 {
    2
}

fn default_nmr_offer_seat_after() -> u32 {
    4
}

/// The longest interval between deadlines a schedule may set (30 days).
pub const MAX_EVERY_HOURS: u32 = 30 * 24;

impl Schedule {
    /// Problems serde cannot see, as (field, message) pairs.
    pub(crate) fn problems(&self) -> Vec<(&'static str, String)> {
        let mut problems = Vec::new();
        if !(1..=MAX_EVERY_HOURS).contains(&self.every_hours) {
            problems.push((
                "every_hours",
                format!(
                    "{} hours between deadlines is not possible; write a number from 1 to \
                     {MAX_EVERY_HOURS} (48 is two days)",
                    self.every_hours
                ),
            ));
        }
        if let Some(hours) = self.reminder_hours
            && (hours == 0 || hours >= self.every_hours)
        {
            problems.push((
                "reminder_hours",
                format!(
                    "a reminder {hours} hours before the deadline must be at least 1 hour and \
                     less than the {} hours between deadlines; lower it or remove the line",
                    self.every_hours
                ),
            ));
        }
        if self.nmr_tell_gm_after > 0
            && self.nmr_offer_seat_after > 0
            && self.nmr_offer_seat_after <= self.nmr_tell_gm_after
        {
            problems.push((
                "nmr_offer_seat_after",
                format!(
                    "the seat is offered after more missed days than the GM is first told of \
                     ({}); raise it above that, or write 0 for never",
                    self.nmr_tell_gm_after
                ),
            ));
        }
        problems
    }

    /// The first deadline in Unix seconds.
    pub fn first_deadline_unix(&self) -> i64 {
        self.first_deadline.days_since_epoch() * 86_400 + self.at.seconds_of_day()
    }

    /// The deadline of game day `day` (day 1 falls due at the first deadline),
    /// in Unix seconds.
    pub fn deadline(&self, day: u32) -> i64 {
        let intervals = i64::from(day.saturating_sub(1));
        self.first_deadline_unix() + intervals * i64::from(self.every_hours) * 3600
    }

    /// One line each for `campaign show` and `rules?`; `game_default` as in
    /// [`NmrPolicy::describe`].
    pub fn describe(&self, game_default: &str) -> Vec<String> {
        let mut lines = vec![format!(
            "first deadline {} {} UTC, then every {} hours",
            self.first_deadline, self.at, self.every_hours
        )];
        lines.push(match self.process_early_after_minutes {
            Some(minutes) => {
                format!("early processing: {minutes} minutes after the last orders arrive")
            }
            None => "early processing: off (always waits for the deadline)".to_string(),
        });
        lines.push(match self.reminder_hours {
            Some(hours) => format!("reminders: {hours} hours before the deadline"),
            None => "reminders: off".to_string(),
        });
        lines.push(format!(
            "no orders received: {}",
            self.nmr.describe(game_default)
        ));
        lines
    }
}

/// A calendar date, written `YYYY-MM-DD`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Date {
    pub year: i32,
    pub month: u8,
    pub day: u8,
}

impl Date {
    /// Days from 1970-01-01 (negative before it), by the proleptic Gregorian
    /// calendar.
    pub fn days_since_epoch(self) -> i64 {
        // Count from 1 March so the leap day is the last day of the year.
        let (year, month) = if self.month <= 2 {
            (i64::from(self.year) - 1, i64::from(self.month) + 9)
        } else {
            (i64::from(self.year), i64::from(self.month) - 3)
        };
        let era = year.div_euclid(400);
        let year_of_era = year.rem_euclid(400);
        let day_of_year = (153 * month + 2) / 5 + i64::from(self.day) - 1;
        let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
        era * 146_097 + day_of_era - 719_468
    }

    /// The date `days` days after 1970-01-01.
    pub fn from_days_since_epoch(days: i64) -> Date {
        let days = days + 719_468;
        let era = days.div_euclid(146_097);
        let day_of_era = days.rem_euclid(146_097);
        let year_of_era =
            (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let month_index = (5 * day_of_year + 2) / 153;
        let day = day_of_year - (153 * month_index + 2) / 5 + 1;
        let month = if month_index < 10 {
            month_index + 3
        } else {
            month_index - 9
        };
        let year = era * 400 + year_of_era + i64::from(month <= 2);
        Date {
            year: i32::try_from(year).unwrap_or(i32::MAX),
            month: u8::try_from(month).unwrap_or(1),
            day: u8::try_from(day).unwrap_or(1),
        }
    }
}

fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Why a text is not a date or a time of day of the schedule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WhenError {
    #[error("'{0}' is not a date; write YYYY-MM-DD, e.g. \"2025-03-01\"")]
    NotADate(String),
    #[error("{0} is not a day of the calendar")]
    NoSuchDay(String),
    #[error("'{0}' is not a time of day; write HH:MM in UTC, e.g. \"20:00\"")]
    NotATime(String),
}

impl TryFrom<String> for Date {
    type Error = WhenError;

    fn try_from(text: String) -> Result<Date, WhenError> {
        let wrong = || WhenError::NotADate(text.clone());
        let mut parts = text.splitn(3, '-');
        let (Some(year), Some(month), Some(day)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(wrong());
        };
        if year.len() != 4 || month.len() != 2 || day.len() != 2 {
            return Err(wrong());
        }
        let (Ok(year), Ok(month), Ok(day)) = (year.parse(), month.parse(), day.parse()) else {
            return Err(wrong());
        };
        if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
            return Err(WhenError::NoSuchDay(text));
        }
        Ok(Date { year, month, day })
    }
}

impl From<Date> for String {
    fn from(date: Date) -> String {
        date.to_string()
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// A time of day in UTC, written `HH:MM`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TimeOfDay {
    pub hour: u8,
    pub minute: u8,
}

impl TimeOfDay {
    pub fn seconds_of_day(self) -> i64 {
        i64::from(self.hour) * 3600 + i64::from(self.minute) * 60
    }
}

impl TryFrom<String> for TimeOfDay {
    type Error = WhenError;

    fn try_from(text: String) -> Result<TimeOfDay, WhenError> {
        let wrong = || WhenError::NotATime(text.clone());
        let Some((hour, minute)) = text.split_once(':') else {
            return Err(wrong());
        };
        if hour.len() != 2 || minute.len() != 2 {
            return Err(wrong());
        }
        match (hour.parse::<u8>(), minute.parse::<u8>()) {
            (Ok(hour), Ok(minute)) if hour < 24 && minute < 60 => Ok(TimeOfDay { hour, minute }),
            _ => Err(wrong()),
        }
    }
}

impl From<TimeOfDay> for String {
    fn from(time: TimeOfDay) -> String {
        time.to_string()
    }
}

impl fmt::Display for TimeOfDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}:{:02}", self.hour, self.minute)
    }
}

/// Unix seconds as `YYYY-MM-DD HH:MM UTC`, for messages and listings.
pub fn format_utc(unix: i64) -> String {
    let date = Date::from_days_since_epoch(unix.div_euclid(86_400));
    let seconds = unix.rem_euclid(86_400);
    format!(
        "{date} {:02}:{:02} UTC",
        seconds / 3600,
        seconds % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule() -> Schedule {
        Schedule {
            first_deadline: Date::try_from("2025-03-01".to_string()).unwrap(),
            at: TimeOfDay::try_from("20:00".to_string()).unwrap(),
            every_hours: 48,
            process_early_after_minutes: None,
            reminder_hours: Some(12),
            nmr: NmrPolicy::Hide,
            nmr_tell_gm_after: 2,
            nmr_offer_seat_after: 4,
        }
    }

    #[test]
    fn deadlines_follow_the_first_one_at_the_interval() {
        let s = schedule();
        // 2025-03-01 20:00 UTC
        assert_eq!(s.first_deadline_unix(), 1_740_859_200);
        assert_eq!(s.deadline(1), s.first_deadline_unix());
        assert_eq!(s.deadline(3), s.first_deadline_unix() + 4 * 86_400);
        assert_eq!(format_utc(s.deadline(2)), "2025-03-03 20:00 UTC");
        assert!(s.problems().is_empty());
    }

    #[test]
    fn dates_round_trip_through_day_numbers() {
        for text in [
            "1970-01-01",
            "2000-02-29",
            "2024-12-31",
            "1969-07-20",
            "2100-03-01",
        ] {
            let date = Date::try_from(text.to_string()).unwrap();
            assert_eq!(
                Date::from_days_since_epoch(date.days_since_epoch()),
                date,
                "{text}"
            );
            assert_eq!(date.to_string(), text);
        }
        assert_eq!(
            Date::try_from("1970-01-02".to_string())
                .unwrap()
                .days_since_epoch(),
            1
        );
    }

    #[test]
    fn bad_dates_times_and_intervals_are_refused() {
        assert!(
            Date::try_from("2025-02-29".to_string())
                .unwrap_err()
                .to_string()
                .contains("not a day")
        );
        assert!(
            Date::try_from("1/3/2025".to_string())
                .unwrap_err()
                .to_string()
                .contains("YYYY-MM-DD")
        );
        assert!(TimeOfDay::try_from("24:00".to_string()).is_err());
        assert!(
            TimeOfDay::try_from("8pm".to_string())
                .unwrap_err()
                .to_string()
                .contains("HH:MM")
        );
        let mut s = schedule();
        s.every_hours = 0;
        s.reminder_hours = Some(0);
        let fields: Vec<&str> = s.problems().into_iter().map(|(field, _)| field).collect();
        assert_eq!(fields, ["every_hours", "reminder_hours"]);
    }

    #[test]
    fn the_seat_is_offered_only_after_the_gm_was_told() {
        let mut s = schedule();
        assert!(s.problems().is_empty());
        s.nmr_offer_seat_after = 2;
        let problems = s.problems();
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].0, "nmr_offer_seat_after");
        s.nmr_offer_seat_after = 0;
        assert!(s.problems().is_empty(), "0 is never");
    }
}
