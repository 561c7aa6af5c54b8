//! The Missile table (3.1 8.4.9g and its Missile Table) rolled for every
//! missile, thrown or attack-spell hit without the optional combat rules
//! (the optional one is in `optional_combat.rs`). It changes the harm by
//! whole levels; missile harm pushed above Tremendous ignores armour
//! (8.4.9j.2), which the combat engine decides.

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
}
