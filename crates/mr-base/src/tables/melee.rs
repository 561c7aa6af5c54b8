//! The two combat rolls that are never modified (`tables/mod.rs`, `combat/encounter.rs`,
//! §15.6; play summary III.A.6 "Randomizing"): one die repositions the
//! denizens of a sheet, then two dice per box decide whether its denizens
//! change tactics (a 6 on either die). Tremendous monsters, max-weight
//! monsters and native horses never flip, and Bewilder skips the step:
//! the engine's checks.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{DieTable, Modifiers, TableRoll, roll_on};
use realmgm_core::dice::{Dice, DiceCount};

/// Where the contents of boxes 1, 2 and 3 go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reposition {
    /// `to[0]` is the new box of what was in box 1, and so on.
    pub to: [u8; 3],
}

impl Reposition {
    /// The new box of what was in `from` (1..3), `None` for another number.
    pub fn destination(&self, from: u8) -> Option<u8> {
        let index = usize::from(from.checked_sub(1)?);
        self.to.get(index).copied()
    }

    /// Reorder three boxes' contents: the result's box n holds what moved
    /// into box n.
    pub fn apply<T: Clone>(&self, boxes: &[T; 3]) -> [T; 3] {
        let mut moved = boxes.clone();
        for (from, contents) in boxes.iter().enumerate() {
            let to = usize::from(self.to[from].clamp(1, 3) - 1);
            moved[to] = contents.clone();
        }
        moved
    }
}

impl fmt::Display for Reposition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Whole lines, one per row of the chart: every sheet's roll in
        // every round is written out twice.
        f.write_str(match self.to {
            [1, 3, 2] => "box 1→1, 2→3, 3→2: boxes 2 and 3 switch",
            [3, 2, 1] => "box 1→3, 2→2, 3→1: boxes 1 and 3 switch",
            [2, 1, 3] => "box 1→2, 2→1, 3→3: boxes 1 and 2 switch",
            [1, 2, 3] => "box 1→1, 2→2, 3→3: no change",
            [2, 3, 1] => "box 1→2, 2→3, 3→1: every box moves down one (3 to 1)",
            _ => "box 1→3, 2→1, 3→2: every box moves up one (1 to 3)",
        })
    }
}

const REPOSITION: [[u8; 3]; 6] = [
    [1, 3, 2],
    [3, 2, 1],
    [2, 1, 3],
    [1, 2, 3],
    [2, 3, 1],
    [3, 1, 2],
];

/// The Repositioning Denizens chart: one die per sheet or group.
#[derive(Clone, Copy, Debug, Default)]
pub struct RepositionTable;

impl DieTable for RepositionTable {
    type Outcome = Reposition;

    fn rule(&self) -> &'static str {
        "8.4.6"
    }
    fn name(&self) -> Cow<'static, str> {
        "Reposition".into()
    }
    fn outcome(&self, row: i8) -> Reposition {
        Reposition {
            to: REPOSITION[super::six_row_index(row)],
        }
    }
    fn fixed_dice(&self) -> Option<DiceCount> {
        Some(DiceCount::One)
    }
}

/// Roll to reposition one group: one die, never modified.
pub fn roll_reposition(dice: &mut Dice, purpose: &str) -> TableRoll<Reposition> {
    roll_on(&RepositionTable, dice, purpose, &Modifiers::none())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tactics {
    /// Every denizen in the box that can change tactics turns over.
    Flip,
    Keep,
}

impl fmt::Display for Tactics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Tactics::Flip => "change tactics: the box's denizens turn over",
            Tactics::Keep => "no change of tactics",
        })
    }
}

/// The change-tactics roll for one box: a 6 flips.
#[derive(Clone, Copy, Debug, Default)]
pub struct ChangeTactics;

impl DieTable for ChangeTactics {
    type Outcome = Tactics;

    fn rule(&self) -> &'static str {
        "8.4.6"
    }
    fn name(&self) -> Cow<'static, str> {
        "Change tactics".into()
    }
    fn outcome(&self, row: i8) -> Tactics {
        if row >= 6 {
            Tactics::Flip
        } else {
            Tactics::Keep
        }
    }
    fn fixed_dice(&self) -> Option<DiceCount> {
        Some(DiceCount::Two)
    }
}

/// Roll change tactics for one box: two dice, never modified.
pub fn roll_change_tactics(dice: &mut Dice, purpose: &str) -> TableRoll<Tactics> {
    roll_on(&ChangeTactics, dice, purpose, &Modifiers::none())
}

#[cfg(test)]
mod tests {
    use super::super::test_dice::{PURPOSE, forced};
    use super::*;

    #[test]
    fn each_reposition_row_says_its_own_moves() {
        for to in REPOSITION {
            let text = Reposition { to }.to_string();
            let moves = format!("box 1→{}, 2→{}, 3→{}: ", to[0], to[1], to[2]);
            assert!(text.starts_with(&moves), "{text} for {to:?}");
        }
    }

    #[test]
    fn reposition_rows() {
        let got: Vec<[u8; 3]> = (1..=6)
            .map(|die| {
                let mut dice = forced(&[&[die]]);
                roll_reposition(&mut dice, PURPOSE).result.to
            })
            .collect();
        assert_eq!(got, REPOSITION.to_vec());
    }

    #[test]
    fn five_and_six_rotate_the_boxes() {
        let five = Reposition { to: REPOSITION[4] };
        assert_eq!(five.apply(&["a", "b", "c"]), ["c", "a", "b"]);
        let six = Reposition { to: REPOSITION[5] };
        assert_eq!(six.apply(&["a", "b", "c"]), ["b", "c", "a"]);
        assert_eq!(six.destination(1), Some(3));
        assert_eq!(six.destination(4), None);
        assert_eq!(six.destination(0), None);
    }

    #[test]
    fn a_six_on_either_die_changes_tactics() {
        let mut dice = forced(&[&[2, 6], &[5, 5]]);
        assert_eq!(
            roll_change_tactics(&mut dice, PURPOSE).result,
            Tactics::Flip
        );
        assert_eq!(
            roll_change_tactics(&mut dice, PURPOSE).result,
            Tactics::Keep
        );
    }

    #[test]
    fn unmodified_rolls_use_their_fixed_dice() {
        let mut dice = Dice::new(8, 2);
        assert_eq!(roll_reposition(&mut dice, "r").record.faces.len(), 1);
        assert_eq!(roll_change_tactics(&mut dice, "c").record.faces.len(), 2);
    }
}
