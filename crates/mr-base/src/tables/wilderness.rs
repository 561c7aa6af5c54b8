//! Violent Storm and Lost (`tables/wilderness.rs`): how many phases a storm costs a
//! character who first enters its tile, and which clearing a lost
//! individual must move to. (The play summary II.C.9 "FLY" lands by one die the
//! same way Lost does.)
//!
//! Rulings (the printed tables give no dice count): Violent Storm is an ordinary
//! table roll (two dice, higher counts, the roller's modifiers apply);
//! Lost reads a clearing number, so it is one unmodified die, every
//! clearing equally likely.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{DieTable, Modifiers, TableRoll, roll_on};
use realmgm_core::dice::{Dice, DiceCount};

/// Phases the storm cancels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StormLoss {
    pub phases: u8,
}

impl fmt::Display for StormLoss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.phases == 1 { "" } else { "s" };
        write!(f, "the storm cancels {} phase{s}", self.phases)
    }
}

/// The Violent Storm table: 1 → 4 phases, 2–3 → 3, 4–5 → 2, 6 → 1.
#[derive(Clone, Copy, Debug, Default)]
pub struct ViolentStorm;

impl DieTable for ViolentStorm {
    type Outcome = StormLoss;

    fn rule(&self) -> &'static str {
        "List of Spells: Violent Storm"
    }
    fn name(&self) -> Cow<'static, str> {
        "Violent Storm".into()
    }
    fn outcome(&self, row: i8) -> StormLoss {
        let phases = match row {
            ..=1 => 4,
            2..=3 => 3,
            4..=5 => 2,
            _ => 1,
        };
        StormLoss { phases }
    }
}

/// The clearing a lost individual must move to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LostResult {
    pub clearing: u8,
}

impl fmt::Display for LostResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "must move to clearing {}", self.clearing)
    }
}

/// The Lost table: the die is the clearing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lost;

impl DieTable for Lost {
    type Outcome = LostResult;

    fn rule(&self) -> &'static str {
        "List of Spells: Lost"
    }
    fn name(&self) -> Cow<'static, str> {
        "Lost".into()
    }
    fn outcome(&self, row: i8) -> LostResult {
        LostResult {
            clearing: u8::try_from(row.clamp(1, 6)).unwrap_or(1),
        }
    }
    fn fixed_dice(&self) -> Option<DiceCount> {
        Some(DiceCount::One)
    }
}

/// Roll on Lost: one die, never modified.
pub fn roll_lost(dice: &mut Dice, purpose: &str) -> TableRoll<LostResult> {
    roll_on(&Lost, dice, purpose, &Modifiers::none())
}

#[cfg(test)]
mod tests {
    use super::super::test_dice::{PURPOSE, forced};
    use super::*;

    #[test]
    fn violent_storm_rows() {
        let got: Vec<u8> = (1..=6)
            .map(|die| {
                let mut dice = forced(&[&[die]]);
                roll_on(&ViolentStorm, &mut dice, PURPOSE, &Modifiers::none())
                    .result
                    .phases
            })
            .collect();
        assert_eq!(got, vec![4, 3, 3, 2, 2, 1]);
    }

    #[test]
    fn lost_is_one_die_naming_the_clearing() {
        let mut dice = forced(&[&[5]]);
        assert_eq!(roll_lost(&mut dice, PURPOSE).result.clearing, 5);
        let mut dice = Dice::new(4, 2);
        let roll = roll_lost(&mut dice, "lost");
        assert_eq!(roll.record.faces.len(), 1);
        assert!((1..=6).contains(&roll.result.clearing));
    }
}
