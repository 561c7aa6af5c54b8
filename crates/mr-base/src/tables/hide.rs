//! The Hide table (`tables/hide.rs`; play summary II.C.2 "HIDE"): 1–5 hides the
//! character and his followers, 6 fails. Who may roll at all (already
//! hidden, Squeak curse, Soft Ground / Early Snow weather) is the engine's
//! call; the Ambush rule's "hide roll to stay hidden" uses this table too.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::DieTable;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HideResult {
    Hidden,
    Failed,
}

impl fmt::Display for HideResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HideResult::Hidden => "hidden (followers hide too)",
            HideResult::Failed => "failed: stays unhidden",
        })
    }
}

/// The Hide table.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hide;

impl DieTable for Hide {
    type Outcome = HideResult;

    fn rule(&self) -> &'static str {
        "7.4.1"
    }

    fn name(&self) -> Cow<'static, str> {
        "Hide".into()
    }

    fn outcome(&self, row: i8) -> HideResult {
        if row >= 6 {
            HideResult::Failed
        } else {
            HideResult::Hidden
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_dice::{PURPOSE, forced};
    use super::super::{Modifiers, roll_on};
    use super::*;

    #[test]
    fn one_to_five_hides() {
        for die in 1..=5 {
            let mut dice = forced(&[&[die]]);
            let roll = roll_on(&Hide, &mut dice, PURPOSE, &Modifiers::none());
            assert_eq!(roll.result, HideResult::Hidden, "die {die}");
        }
    }

    #[test]
    fn six_fails() {
        let mut dice = forced(&[&[6, 1]]);
        let roll = roll_on(&Hide, &mut dice, PURPOSE, &Modifiers::none());
        assert_eq!((roll.row, roll.result), (6, HideResult::Failed));
    }

    #[test]
    fn cloven_hoof_turns_a_five_into_a_failure() {
        let mut dice = forced(&[&[5, 2]]);
        let mods = Modifiers::none().with("Cloven Hoof", 1);
        let roll = roll_on(&Hide, &mut dice, PURPOSE, &mods);
        assert_eq!(
            (roll.adjusted, roll.row, roll.result),
            (6, 6, HideResult::Failed)
        );
    }

    #[test]
    fn shoes_of_stealth_roll_one_die() {
        let mut dice = forced(&[&[4]]);
        let mods = Modifiers::none().with_one_die("Shoes of Stealth");
        let roll = roll_on(&Hide, &mut dice, PURPOSE, &mods);
        assert_eq!(roll.result, HideResult::Hidden);
        assert_eq!(roll.one_die, vec!["Shoes of Stealth".to_string()]);
    }
}
