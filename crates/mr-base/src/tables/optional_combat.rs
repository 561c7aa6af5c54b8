//! The optional combat tables of the 2nd-edition Optional Combat rules
//! (2nd-edition optional combat rules rules 5.1 and 5.4, "Explanation of the optional combat
//! tables"; `tables/optional_combat.rs`): the optional Missile table, Fumble (striking
//! attacks that hit) and Stumble (running away or picking up with a MOVE
//! chit, Boots or horse). Adjusted rolls run from 1 to 10: lower is 1,
//! higher is 10.
//!
//! The time-based modifiers of rules 5.1.1 and 5.4.1–5.4.4 are built by
//! [`stumble_modifiers`] and [`attack_time_modifiers`], each part named, to
//! be merged with the roller's own modifiers.

use std::borrow::Cow;
use std::fmt;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use super::missile::write_levels;
use super::{DieTable, Modifiers};

const OPTIONAL_ROWS: RangeInclusive<i8> = 1..=10;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OptionalMissileResult {
    /// Raise (positive) or lower the harm by this many levels.
    Harm(i8),
    /// One wound if the hit reaches a character without armour; no effect
    /// on armour or denizens.
    Wound,
    /// Negligible harm, but it still counts as a hit.
    Negligible,
}

impl fmt::Display for OptionalMissileResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionalMissileResult::Harm(levels) => write_levels(f, *levels),
            OptionalMissileResult::Wound => {
                f.write_str("wound: one wound to an unarmoured character, else no effect")
            }
            OptionalMissileResult::Negligible => {
                f.write_str("negligible harm, but it counts as a hit")
            }
        }
    }
}

/// The optional Missile table, used instead of the standard one.
/// Ruling: row 10 is Negligible as printed (RealmSpeak applies nothing;
/// `tables/optional_combat.rs` marks it [uncertain]).
#[derive(Clone, Copy, Debug, Default)]
pub struct OptionalMissile;

impl DieTable for OptionalMissile {
    type Outcome = OptionalMissileResult;

    fn rule(&self) -> &'static str {
        "10.D.3.4"
    }
    fn name(&self) -> Cow<'static, str> {
        "Optional missile".into()
    }
    fn rows(&self) -> RangeInclusive<i8> {
        OPTIONAL_ROWS
    }
    fn outcome(&self, row: i8) -> OptionalMissileResult {
        match row {
            ..=7 => OptionalMissileResult::Harm(4 - row.max(1)),
            8..=9 => OptionalMissileResult::Wound,
            _ => OptionalMissileResult::Negligible,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FumbleResult {
    Harm(i8),
    /// Negligible harm, but it still counts as a hit.
    Negligible,
}

impl fmt::Display for FumbleResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FumbleResult::Harm(levels) => write_levels(f, *levels),
            FumbleResult::Negligible => f.write_str("negligible harm, but it counts as a hit"),
        }
    }
}

/// The Fumble table, for striking attacks that hit (not magic, not a red
/// side's attack).
#[derive(Clone, Copy, Debug, Default)]
pub struct Fumble;

impl DieTable for Fumble {
    type Outcome = FumbleResult;

    fn rule(&self) -> &'static str {
        "10.D.3.4"
    }
    fn name(&self) -> Cow<'static, str> {
        "Fumble".into()
    }
    fn rows(&self) -> RangeInclusive<i8> {
        OPTIONAL_ROWS
    }
    fn outcome(&self, row: i8) -> FumbleResult {
        match row {
            ..=1 => FumbleResult::Harm(2),
            2..=3 => FumbleResult::Harm(1),
            4..=6 => FumbleResult::Harm(0),
            7..=8 => FumbleResult::Harm(-1),
            9 => FumbleResult::Harm(-2),
            _ => FumbleResult::Negligible,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StumbleResult {
    Completed,
    Cancelled,
}

impl fmt::Display for StumbleResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StumbleResult::Completed => "completed: the move works",
            StumbleResult::Cancelled => "cancelled: the move fails",
        })
    }
}

/// The Stumble table: 1–6 completes the move, 7–10 cancels it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stumble;

impl DieTable for Stumble {
    type Outcome = StumbleResult;

    fn rule(&self) -> &'static str {
        "10.D.3.1.3"
    }
    fn name(&self) -> Cow<'static, str> {
        "Stumble".into()
    }
    fn rows(&self) -> RangeInclusive<i8> {
        OPTIONAL_ROWS
    }
    fn outcome(&self, row: i8) -> StumbleResult {
        if row <= 6 {
            StumbleResult::Completed
        } else {
            StumbleResult::Cancelled
        }
    }
}

fn small(value: i32) -> i8 {
    i8::try_from(value.clamp(i32::from(i8::MIN), i32::from(i8::MAX))).unwrap_or(0)
}

/// Stumble modifiers (rule 5.1.1): + the number of attackers on his sheet,
/// − his time advantage over the fastest attacker (their move time minus
/// his). When flying, pass only the flying attackers (5.1.3).
pub fn stumble_modifiers(own_move_time: u8, attacker_move_times: &[u8]) -> Modifiers {
    let mut mods = Modifiers::none();
    let count = attacker_move_times.len();
    if count > 0 {
        let amount = small(i32::try_from(count).unwrap_or(i32::MAX));
        mods = mods.with(format!("{count} attackers on the sheet"), amount);
    }
    if let Some(&fastest) = attacker_move_times.iter().min() {
        let advantage = i32::from(fastest) - i32::from(own_move_time);
        if advantage != 0 {
            mods = mods.with(
                format!("time: own move {own_move_time} against the fastest attacker's {fastest}"),
                small(-advantage),
            );
        }
    }
    mods
}

/// One maneuver an attack was resolved against: the target's own, or his
/// horse's (rule 5.4.2 counts both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManeuverFaced {
    /// The maneuver's move time; `None` when the target played no maneuver,
    /// which counts as a move time of 8 (rule 5.4.4).
    pub move_time: Option<u8>,
    /// Did the attack's direction intercept this maneuver?
    pub intercepted: bool,
}

impl ManeuverFaced {
    /// A target who played no maneuver. Ruling: with no direction to miss,
    /// no +4 applies.
    pub const NONE_PLAYED: ManeuverFaced = ManeuverFaced {
        move_time: None,
        intercepted: true,
    };
}

/// The move time a missing maneuver counts as (rule 5.4.4).
pub const NO_MANEUVER_TIME: u8 = 8;

/// Fumble and optional-missile modifiers (rules 5.4.1–5.4.4): for each
/// maneuver, − the attack's time advantage (maneuver time minus attack
/// time), and +4 when the attack did not intercept it. No maneuvers at all
/// counts as [`ManeuverFaced::NONE_PLAYED`].
pub fn attack_time_modifiers(attack_time: u8, maneuvers: &[ManeuverFaced]) -> Modifiers {
    let faced: &[ManeuverFaced] = if maneuvers.is_empty() {
        &[ManeuverFaced::NONE_PLAYED]
    } else {
        maneuvers
    };
    let mut mods = Modifiers::none();
    for maneuver in faced {
        let time = maneuver.move_time.unwrap_or(NO_MANEUVER_TIME);
        let advantage = i32::from(time) - i32::from(attack_time);
        if advantage != 0 {
            let what = match maneuver.move_time {
                Some(t) => format!("maneuver {t}"),
                None => format!("no maneuver (counts {NO_MANEUVER_TIME})"),
            };
            mods = mods.with(
                format!("time: attack {attack_time} against {what}"),
                small(-advantage),
            );
        }
        if !maneuver.intercepted {
            mods = mods.with(format!("did not intercept maneuver {time}"), 4);
        }
    }
    mods
}

#[cfg(test)]
mod tests {
    use super::super::roll_on;
    use super::super::test_dice::{PURPOSE, forced};
    use super::*;

    fn outcome<T: DieTable>(table: &T, die: u8, mods: &Modifiers) -> (i8, T::Outcome) {
        let mut dice = forced(&[&[die]]);
        let roll = roll_on(table, &mut dice, PURPOSE, mods);
        (roll.row, roll.result)
    }

    fn at_row<T: DieTable>(table: &T, row: i8) -> T::Outcome {
        // Reach rows 7..10 with a 6 and a modifier.
        let (die, extra) = if row > 6 {
            (6, row - 6)
        } else {
            (row as u8, 0)
        };
        outcome(table, die, &Modifiers::none().with("test", extra)).1
    }

    #[test]
    fn optional_missile_rows() {
        use OptionalMissileResult::*;
        let got: Vec<_> = (1..=10).map(|r| at_row(&OptionalMissile, r)).collect();
        assert_eq!(
            got,
            vec![
                Harm(3),
                Harm(2),
                Harm(1),
                Harm(0),
                Harm(-1),
                Harm(-2),
                Harm(-3),
                Wound,
                Wound,
                Negligible
            ]
        );
    }

    #[test]
    fn fumble_rows() {
        use FumbleResult::*;
        let got: Vec<_> = (1..=10).map(|r| at_row(&Fumble, r)).collect();
        assert_eq!(
            got,
            vec![
                Harm(2),
                Harm(1),
                Harm(1),
                Harm(0),
                Harm(0),
                Harm(0),
                Harm(-1),
                Harm(-1),
                Harm(-2),
                Negligible
            ]
        );
    }

    #[test]
    fn stumble_rows() {
        for row in 1..=6 {
            assert_eq!(at_row(&Stumble, row), StumbleResult::Completed, "row {row}");
        }
        for row in 7..=10 {
            assert_eq!(at_row(&Stumble, row), StumbleResult::Cancelled, "row {row}");
        }
    }

    #[test]
    fn optional_tables_clamp_to_one_and_ten() {
        let (row, result) = outcome(&Fumble, 6, &Modifiers::none().with("x", 9));
        assert_eq!((row, result), (10, FumbleResult::Negligible));
        let (row, result) = outcome(&OptionalMissile, 2, &Modifiers::none().with("x", -5));
        assert_eq!((row, result), (1, OptionalMissileResult::Harm(3)));
    }

    #[test]
    fn seed_002_stumble_example_nets_plus_one_and_a_six_becomes_seven() {
        // Move time 2, three attackers, the fastest with move time 4.
        let mods = stumble_modifiers(2, &[4, 5, 6]);
        assert_eq!(mods.total(), 1);
        assert_eq!(mods.adjustments.len(), 2);
        assert_eq!(mods.adjustments[0].amount, 3);
        assert_eq!(mods.adjustments[1].amount, -2);
        let (row, result) = outcome(&Stumble, 6, &mods);
        assert_eq!((row, result), (7, StumbleResult::Cancelled));
    }

    #[test]
    fn seed_002_fumble_example_attack_two_against_three_missed() {
        let hit = ManeuverFaced {
            move_time: Some(3),
            intercepted: true,
        };
        assert_eq!(attack_time_modifiers(2, &[hit]).total(), -1);
        let missed = ManeuverFaced {
            intercepted: false,
            ..hit
        };
        let mods = attack_time_modifiers(2, &[missed]);
        assert_eq!(mods.total(), 3);
        let (row, result) = outcome(&Fumble, 6, &mods);
        assert_eq!((row, result), (9, FumbleResult::Harm(-2)));
    }

    #[test]
    fn seed_002_horse_and_rider_example() {
        let horse = |intercepted| ManeuverFaced {
            move_time: Some(5),
            intercepted,
        };
        let rider = |intercepted| ManeuverFaced {
            move_time: Some(2),
            intercepted,
        };
        assert_eq!(
            attack_time_modifiers(3, &[horse(true), rider(true)]).total(),
            -1
        );
        assert_eq!(
            attack_time_modifiers(3, &[horse(false), rider(true)]).total(),
            3
        );
        assert_eq!(
            attack_time_modifiers(3, &[horse(false), rider(false)]).total(),
            7
        );
    }

    #[test]
    fn seed_002_no_maneuver_counts_as_eight() {
        assert_eq!(
            attack_time_modifiers(1, &[ManeuverFaced::NONE_PLAYED]).total(),
            -7
        );
        assert_eq!(attack_time_modifiers(1, &[]).total(), -7);
    }
}
