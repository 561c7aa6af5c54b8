//! The Missile table (`tables/missile.rs`; play summary III "Harm" 9a) rolled for
//! every missile, thrown or attack-spell hit, and Hamblen's revised missile
//! table (`tables/missile.rs`; 2nd-edition optional combat rules "revised missile table"). Both change
//! the harm by whole levels; harm pushed above Tremendous ignores armour,
//! which the combat engine decides.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::DieTable;

/// Raise (positive) or lower (negative) the harm by this many levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HarmChange {
    pub levels: i8,
}

impl fmt::Display for HarmChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_levels(f, self.levels)
    }
}

/// "no change", "+1 level", "−2 levels": shared by the combat tables.
pub(super) fn write_levels(f: &mut fmt::Formatter<'_>, levels: i8) -> fmt::Result {
    match levels {
        0 => f.write_str("harm unchanged"),
        1 | -1 => write!(f, "harm {levels:+} level"),
        _ => write!(f, "harm {levels:+} levels"),
    }
}

/// The standard Missile table: row 1 is +2 levels down to row 6 at −3.
#[derive(Clone, Copy, Debug, Default)]
pub struct Missile;

impl DieTable for Missile {
    type Outcome = HarmChange;

    fn rule(&self) -> &'static str {
        "8.4.9f.1"
    }
    fn name(&self) -> Cow<'static, str> {
        "Missile".into()
    }
    fn outcome(&self, row: i8) -> HarmChange {
        HarmChange {
            levels: 3 - row.clamp(1, 6),
        }
    }
}

/// The revised missile table. Its rows run from "−2 or less" to "8 or
/// more", so clamping into −2..8 reads the open-ended rows exactly.
#[derive(Clone, Copy, Debug, Default)]
pub struct RevisedMissile;

impl DieTable for RevisedMissile {
    type Outcome = HarmChange;

    fn rule(&self) -> &'static str {
        "10.D.3.4"
    }
    fn name(&self) -> Cow<'static, str> {
        "Revised missile".into()
    }
    fn rows(&self) -> std::ops::RangeInclusive<i8> {
        -2..=8
    }
    fn outcome(&self, row: i8) -> HarmChange {
        let levels = match row {
            ..=-2 => 3,
            -1 => 2,
            0..=1 => 1,
            2..=4 => 0,
            5..=6 => -1,
            7 => -2,
            _ => -3,
        };
        HarmChange { levels }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_dice::{PURPOSE, forced};
    use super::super::{Modifiers, roll_on};
    use super::*;

    fn levels<T: DieTable<Outcome = HarmChange>>(table: &T, die: u8, modifier: i8) -> i8 {
        let mut dice = forced(&[&[die]]);
        let mods = Modifiers::none().with("test", modifier);
        roll_on(table, &mut dice, PURPOSE, &mods).result.levels
    }

    #[test]
    fn standard_missile_rows() {
        let got: Vec<i8> = (1..=6).map(|die| levels(&Missile, die, 0)).collect();
        assert_eq!(got, vec![2, 1, 0, -1, -2, -3]);
    }

    #[test]
    fn aim_lowers_the_roll_and_clamps_at_row_one() {
        assert_eq!(levels(&Missile, 1, -1), 2);
        assert_eq!(levels(&Missile, 4, -1), 0);
    }

    #[test]
    fn revised_missile_rows_without_clamping_to_one() {
        assert_eq!(levels(&RevisedMissile, 1, -4), 3);
        assert_eq!(levels(&RevisedMissile, 1, -3), 3);
        assert_eq!(levels(&RevisedMissile, 1, -2), 2);
        assert_eq!(levels(&RevisedMissile, 1, -1), 1);
        assert_eq!(levels(&RevisedMissile, 1, 0), 1);
        for die in 2..=4 {
            assert_eq!(levels(&RevisedMissile, die, 0), 0);
        }
        assert_eq!(levels(&RevisedMissile, 5, 0), -1);
        assert_eq!(levels(&RevisedMissile, 6, 0), -1);
        assert_eq!(levels(&RevisedMissile, 6, 1), -2);
        assert_eq!(levels(&RevisedMissile, 6, 2), -3);
        assert_eq!(levels(&RevisedMissile, 6, 7), -3);
    }
}
