//! Every Magic Realm die table as a pure function: dice and modifiers in, the
//! row and what it means out. The day engine (Birdsong, Daylight, Midnight)
//! and the combat engine call these; they never change game state
//! themselves, they say what happens ("take the 3rd treasure from the top")
//! and the engine applies it.
//!
//! Conventions (`tables/mod.rs`, play summary II.C.2 "Note"): two dice are rolled
//! and the higher counts, unless an advantage or item says one die; named
//! +/- modifiers add to that die; the total is clamped into the table's rows
//! (1..6 for the six-row tables, 1..10 for the optional combat tables,
//! -2..8 for the revised missile table, whose end rows are "or less" and "or
//! more"). Low is good on every table.
//!
//! The rows live in each family's module as Rust `const` arrays of typed
//! results rather than TOML: a row's meaning is an enum variant with a
//! payload (`Price(4)`, `Harm(-2)`, `from_top: 3`), so the compiler checks
//! that every row exists and means something, and a TOML copy would only add
//! a parser and a second place for the same facts. The wording shown to GMs
//! comes from each result's `Display`.

pub mod catalog;
pub mod commerce;
pub mod hide;
pub mod magic;
pub mod meeting;
pub mod melee;
pub mod missile;
pub mod monster_roll;
pub mod optional_combat;
pub mod search;
pub mod twt;
pub mod weather;
pub mod wilderness;

use std::borrow::Cow;
use std::fmt;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use realmgm_core::dice::{Dice, DiceCount, RollRecord};

/// One named adjustment to a table roll, e.g. `("Cloven Hoof", +1)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    pub source: String,
    pub amount: i8,
}

/// Everything that changes one table roll: +/- adjustments and the sources
/// that let the roller use one die. Each keeps its source so the GM report
/// can say why the row moved.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifiers {
    pub adjustments: Vec<Modifier>,
    /// Sources granting one die (Lucky Charm, Shoes of Stealth, ...). Any
    /// one of them is enough; they do not stack.
    pub one_die: Vec<String>,
}

impl Modifiers {
    /// No modifiers: two dice, nothing added.
    pub fn none() -> Modifiers {
        Modifiers::default()
    }

    /// Add `amount` from `source` (negative is better for the roller).
    pub fn with(mut self, source: impl Into<String>, amount: i8) -> Modifiers {
        self.adjustments.push(Modifier {
            source: source.into(),
            amount,
        });
        self
    }

    /// Roll one die instead of two because of `source`.
    pub fn with_one_die(mut self, source: impl Into<String>) -> Modifiers {
        self.one_die.push(source.into());
        self
    }

    /// Add every adjustment and one-die source of `other`.
    pub fn merged(mut self, other: Modifiers) -> Modifiers {
        self.adjustments.extend(other.adjustments);
        self.one_die.extend(other.one_die);
        self
    }

    /// The sum of the adjustments.
    pub fn total(&self) -> i16 {
        self.adjustments.iter().map(|m| i16::from(m.amount)).sum()
    }

    /// One die when any source grants it, else two.
    pub fn dice_count(&self) -> DiceCount {
        if self.one_die.is_empty() {
            DiceCount::Two
        } else {
            DiceCount::One
        }
    }
}

/// A die table: its rows and what each row means.
pub trait DieTable {
    type Outcome;

    /// The name shown to GMs, e.g. "Meeting (neutral)"; most tables' names
    /// are fixed text and cost no allocation per roll.
    fn name(&self) -> Cow<'static, str>;

    /// The section of the rules of record (release 3.1) whose rule calls
    /// for a roll on this table, e.g. "8.4.6": a GM asked why a roll was
    /// made points at it.
    fn rule(&self) -> &'static str;

    /// The lowest and highest row; adjusted rolls outside are clamped in.
    fn rows(&self) -> RangeInclusive<i8> {
        1..=6
    }

    /// What `row` means. Called only with rows inside [`DieTable::rows`].
    fn outcome(&self, row: i8) -> Self::Outcome;

    /// `Some(count)` for a roll that is never modified and always uses
    /// that many dice (monster roll, repositioning, change tactics, Lost,
    /// weather); `None` for a table that follows the roller's modifiers.
    fn fixed_dice(&self) -> Option<DiceCount> {
        None
    }
}

/// One roll on one table: the dice as rolled, the modifiers applied, the
/// adjusted total, the row it landed on and what that row means.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableRoll<R> {
    pub table: Cow<'static, str>,
    pub record: RollRecord,
    pub modifiers: Vec<Modifier>,
    pub one_die: Vec<String>,
    /// The counting die plus the modifiers, before clamping.
    pub adjusted: i16,
    /// The row used: `adjusted` clamped into the table's rows.
    pub row: i8,
    pub result: R,
}

impl<R: fmt::Display> TableRoll<R> {
    /// One line for a GM report, e.g.
    /// `Hide: dice 3,6 → 6; +1 Cloven Hoof → 7; row 6: failed`.
    pub fn describe(&self) -> String {
        let mut text = String::with_capacity(96);
        // Writing into a String cannot fail.
        let _ = self.write_description(&mut text);
        text
    }

    /// [`TableRoll::describe`] written into `out` piece by piece: one buffer
    /// for the whole line, since every combat roll is described.
    fn write_description(&self, out: &mut String) -> fmt::Result {
        use fmt::Write;
        out.push_str(&self.table);
        out.push_str(": dice ");
        for (i, &face) in self.record.faces.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            push_number(out, i16::from(face));
        }
        out.push_str(" → ");
        push_number(out, i16::from(self.record.result));
        if !self.one_die.is_empty() {
            out.push_str(" (one die: ");
            for (i, source) in self.one_die.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(source);
            }
            out.push(')');
        }
        if !self.modifiers.is_empty() {
            out.push_str("; ");
            for (i, m) in self.modifiers.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if m.amount >= 0 {
                    out.push('+');
                }
                push_number(out, i16::from(m.amount));
                out.push(' ');
                out.push_str(&m.source);
            }
            out.push_str(" → ");
            push_number(out, self.adjusted);
        }
        if i16::from(self.row) != self.adjusted {
            out.push_str(" (clamped)");
        }
        out.push_str("; row ");
        push_number(out, i16::from(self.row));
        write!(out, ": {}", self.result)
    }
}

/// Write a small whole number (a face, a total, a row) without the
/// formatting machinery: every combat roll's line has several.
pub fn push_number(out: &mut String, n: i16) {
    if n < 0 {
        out.push('-');
    }
    let n = n.unsigned_abs();
    let mut digits = [0u8; 5];
    let mut len = 0;
    let mut rest = n;
    loop {
        // A remainder below 10 always fits a digit.
        digits[len] = b'0' + u8::try_from(rest % 10).unwrap_or(0);
        len += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &d in digits[..len].iter().rev() {
        out.push(char::from(d));
    }
}

/// Roll on `table` for `purpose` with `modifiers`, clamp into its rows and
/// look the row up.
pub fn roll_on<T: DieTable>(
    table: &T,
    dice: &mut Dice,
    purpose: &str,
    modifiers: &Modifiers,
) -> TableRoll<T::Outcome> {
    let count = table.fixed_dice().unwrap_or_else(|| modifiers.dice_count());
    let record = dice.roll(purpose, count);
    read_roll(table, record, modifiers)
}

/// Read an already made roll on `table` (the GM rolled real dice, or the
/// roll was made for another purpose and is reused by a rule). A table
/// with fixed dice ignores `modifiers`: those rolls are never modified.
pub fn read_roll<T: DieTable>(
    table: &T,
    record: RollRecord,
    modifiers: &Modifiers,
) -> TableRoll<T::Outcome> {
    let unmodified = Modifiers::none();
    let modifiers = if table.fixed_dice().is_some() {
        &unmodified
    } else {
        modifiers
    };
    let adjusted = i16::from(record.result) + modifiers.total();
    let row = clamp_row(adjusted, table.rows());
    TableRoll {
        table: table.name(),
        record,
        modifiers: modifiers.adjustments.clone(),
        one_die: modifiers.one_die.clone(),
        adjusted,
        row,
        result: table.outcome(row),
    }
}

/// Clamp an adjusted total into a table's rows (`tables/mod.rs`, the 2nd-edition optional combat rules
/// "Explanation of the optional combat tables").
pub fn clamp_row(adjusted: i16, rows: RangeInclusive<i8>) -> i8 {
    let (low, high) = (i16::from(*rows.start()), i16::from(*rows.end()));
    // The clamped value lies inside an i8 range, so the conversion holds.
    i8::try_from(adjusted.clamp(low, high)).unwrap_or(*rows.start())
}

/// Index of a 1-based six-row table for a row already clamped to 1..6.
fn six_row_index(row: i8) -> usize {
    usize::try_from(row.clamp(1, 6) - 1).unwrap_or(0)
}

/// A request a table function refuses, worded for the GM.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("drinks cannot be bought: {0}")]
    DrinksRefused(String),
    #[error(
        "the player declined an Opportunity, but the campaign does not use the house rule \
         \"Expanded Meeting Table Opportunities\"; switch it on or roll the Opportunity"
    )]
    DeclineNeedsHouseRule,
    #[error("the weather chit must be 1 to 6, got {0}")]
    BadWeatherChit(u8),
    #[error(
        "the {0} table is read in a relationship column: give enemy, unfriendly, neutral, \
         friendly or ally"
    )]
    NeedsColumn(String),
    #[error("the {0} roll is never modified; leave out the modifiers and one-die sources")]
    NeverModified(String),
    #[error("the weather roll needs the secret weather chit (1 to 6)")]
    NeedsChit,
}

#[cfg(test)]
pub(crate) mod test_dice {
    //! Forced dice for exact table tests.
    use realmgm_core::dice::{Dice, DiceScript};

    /// The purpose every test roll uses.
    pub const PURPOSE: &str = "test";

    /// Dice whose next rolls for [`PURPOSE`] show `rolls` in order.
    pub fn forced(rolls: &[&[u8]]) -> Dice {
        let mut script = DiceScript::default();
        for faces in rolls {
            script.force(PURPOSE, faces).expect("test faces are 1..6");
        }
        Dice::with_script(1, 1, script)
    }

    /// The results of rolling 1 to 6 on a six-row table, unmodified.
    pub fn rows<T: super::DieTable>(table: &T) -> Vec<T::Outcome> {
        (1..=6)
            .map(|die| {
                let mut dice = forced(&[&[die]]);
                super::roll_on(table, &mut dice, PURPOSE, &super::Modifiers::none()).result
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::test_dice::{PURPOSE, forced};
    use super::*;

    struct Plain;
    impl DieTable for Plain {
        type Outcome = i8;

        fn rule(&self) -> &'static str {
            "4.1"
        }
        fn name(&self) -> Cow<'static, str> {
            "Plain".into()
        }
        fn outcome(&self, row: i8) -> i8 {
            row
        }
    }

    #[test]
    fn the_higher_die_counts_and_modifiers_add_with_their_sources() {
        let mut dice = forced(&[&[2, 4]]);
        let mods = Modifiers::none().with("Cloven Hoof", 1).with("Honor", -1);
        let roll = roll_on(&Plain, &mut dice, PURPOSE, &mods);
        assert_eq!(roll.record.faces, vec![2, 4]);
        assert_eq!((roll.adjusted, roll.row), (4, 4));
        assert_eq!(roll.modifiers.len(), 2);
        assert_eq!(roll.modifiers[0].source, "Cloven Hoof");
        assert_eq!(roll.modifiers[1].amount, -1);
    }

    #[test]
    fn rows_clamp_at_both_ends() {
        let mut dice = forced(&[&[6, 6], &[1, 1]]);
        let up = roll_on(&Plain, &mut dice, PURPOSE, &Modifiers::none().with("a", 2));
        assert_eq!((up.adjusted, up.row), (8, 6));
        let down = roll_on(&Plain, &mut dice, PURPOSE, &Modifiers::none().with("b", -3));
        assert_eq!((down.adjusted, down.row), (-2, 1));
        assert!(down.describe().contains("(clamped)"));
    }

    #[test]
    fn one_die_sources_roll_one_die() {
        let mut dice = Dice::new(3, 1);
        let mods = Modifiers::none().with_one_die("Lucky Charm");
        let roll = roll_on(&Plain, &mut dice, "x", &mods);
        assert_eq!(roll.record.faces.len(), 1);
        assert_eq!(roll.one_die, vec!["Lucky Charm".to_string()]);
        let two = roll_on(&Plain, &mut dice, "x", &Modifiers::none());
        assert_eq!(two.record.faces.len(), 2);
    }

    #[test]
    fn describe_names_dice_modifiers_and_row() {
        let mut dice = forced(&[&[3, 5]]);
        let roll = roll_on(
            &Plain,
            &mut dice,
            PURPOSE,
            &Modifiers::none().with("Illusion", 1),
        );
        assert_eq!(
            roll.describe(),
            "Plain: dice 3,5 → 5; +1 Illusion → 6; row 6: 6"
        );
    }

    #[test]
    fn numbers_are_written_as_format_would() {
        for n in [-300, -12, -1, 0, 7, 10, 99, 1234, i16::MIN, i16::MAX] {
            let mut out = String::new();
            push_number(&mut out, n);
            assert_eq!(out, n.to_string());
        }
        let mut dice = forced(&[&[2, 1]]);
        let roll = roll_on(
            &Plain,
            &mut dice,
            PURPOSE,
            &Modifiers::none().with("Lucky", -3),
        );
        assert_eq!(
            roll.describe(),
            "Plain: dice 2,1 → 2; -3 Lucky → -1 (clamped); row 1: 1"
        );
    }
}
