//! The daily monster roll (`tables/monster_roll.rs`; play summary I.D): one die at
//! Sunrise picks the setup-card row whose denizens prowl today; the ghosts
//! prowl every day. On days 7, 14, 21 and 28 the same row regenerates.
//! Never modified.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{DieTable, Modifiers, TableRoll, roll_on};
use realmgm_core::dice::{Dice, DiceCount};

/// The setup-card row that prowls today.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProwlingRow {
    pub row: u8,
}

impl fmt::Display for ProwlingRow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "row {} of the setup card prowls (and the ghosts)",
            self.row
        )
    }
}

/// The monster roll as a table: the die is the row.
#[derive(Clone, Copy, Debug, Default)]
pub struct MonsterRoll;

impl DieTable for MonsterRoll {
    type Outcome = ProwlingRow;

    fn rule(&self) -> &'static str {
        "6.3.3"
    }
    fn name(&self) -> Cow<'static, str> {
        "Monster roll".into()
    }
    fn outcome(&self, row: i8) -> ProwlingRow {
        ProwlingRow {
            row: u8::try_from(row.clamp(1, 6)).unwrap_or(1),
        }
    }
    fn fixed_dice(&self) -> Option<DiceCount> {
        Some(DiceCount::One)
    }
}

/// Make the day's monster roll.
pub fn roll_monsters(dice: &mut Dice, purpose: &str) -> TableRoll<ProwlingRow> {
    roll_on(&MonsterRoll, dice, purpose, &Modifiers::none())
}

#[cfg(test)]
mod tests {
    use super::super::test_dice::{PURPOSE, forced};
    use super::*;

    #[test]
    fn the_die_is_the_row() {
        for die in 1..=6 {
            let mut dice = forced(&[&[die]]);
            assert_eq!(roll_monsters(&mut dice, PURPOSE).result.row, die);
        }
    }

    #[test]
    fn one_die_and_no_modifiers() {
        let mut dice = Dice::new(11, 3);
        let roll = roll_monsters(&mut dice, "monster-roll");
        assert_eq!(roll.record.faces.len(), 1);
        assert!(roll.modifiers.is_empty());
    }
}
