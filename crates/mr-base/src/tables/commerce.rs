//! The Commerce table (optional rule D.2, selling; `tables/commerce.rs`; play summary
//! II.C.6 "TRADE" is the base rule it replaces): the buyer offers or demands
//! the basic price adjusted by a few gold. Without the optional rule there
//! is no roll: natives pay the basic price.
//!
//! Trouble and Opportunity move to another column as on the Meeting table;
//! [`sell`] follows them. The BIMR3 decline-Opportunity house rule names the
//! Meeting table only, so it does not apply here.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{DieTable, Modifiers, TableRoll, roll_on, six_row_index};
use crate::data::characters::Relationship;
use realmgm_core::dice::Dice;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CommerceResult {
    /// The buyer offers the basic price plus this (sell or keep; below zero
    /// they will not buy).
    Offer(i8),
    /// The buyer demands to buy at the basic price plus this; refusing, or a
    /// price below zero, means he blocks the seller.
    Demand(i8),
    BlockBattle,
    /// Roll again on the unfriendly column.
    Trouble,
    /// Roll again one column friendlier.
    Opportunity,
}

impl fmt::Display for CommerceResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommerceResult::Offer(0) => f.write_str("offers the basic price"),
            CommerceResult::Offer(n) => write!(f, "offers the basic price {n:+}"),
            CommerceResult::Demand(n) => {
                write!(f, "demands the item at the basic price {n:+}, or blocks")
            }
            CommerceResult::BlockBattle => f.write_str("block/battle"),
            CommerceResult::Trouble => f.write_str("trouble: roll again on the unfriendly column"),
            CommerceResult::Opportunity => {
                f.write_str("opportunity: roll again one column friendlier")
            }
        }
    }
}

use CommerceResult::{BlockBattle, Demand, Offer, Opportunity, Trouble};

const ENEMY: [CommerceResult; 6] = [
    Demand(-10),
    Demand(-15),
    Demand(-20),
    Demand(-30),
    BlockBattle,
    BlockBattle,
];
const UNFRIENDLY: [CommerceResult; 6] = [
    Offer(-5),
    Offer(-10),
    Offer(-10),
    Demand(-5),
    Demand(-10),
    Demand(-20),
];
const NEUTRAL: [CommerceResult; 6] = [
    Opportunity,
    Offer(0),
    Offer(-5),
    Offer(-10),
    Offer(-15),
    Trouble,
];
const FRIENDLY: [CommerceResult; 6] = [
    Opportunity,
    Offer(5),
    Offer(0),
    Offer(0),
    Offer(-5),
    Offer(-10),
];
const ALLY: [CommerceResult; 6] = [Offer(10), Offer(5), Offer(5), Offer(0), Offer(0), Offer(-5)];

/// The six rows of one relationship column.
pub fn column(relationship: Relationship) -> &'static [CommerceResult; 6] {
    match relationship {
        Relationship::Enemy => &ENEMY,
        Relationship::Unfriendly => &UNFRIENDLY,
        Relationship::Neutral => &NEUTRAL,
        Relationship::Friendly => &FRIENDLY,
        Relationship::Ally => &ALLY,
    }
}

/// One column of the Commerce table.
#[derive(Clone, Copy, Debug)]
pub struct CommerceTable {
    pub column: Relationship,
}

impl DieTable for CommerceTable {
    type Outcome = CommerceResult;

    fn rule(&self) -> &'static str {
        "10.D.2.2"
    }

    fn name(&self) -> Cow<'static, str> {
        format!("Commerce ({})", self.column.label()).into()
    }

    fn outcome(&self, row: i8) -> CommerceResult {
        column(self.column)[six_row_index(row)]
    }
}

/// A resolved sale: every roll made and the final result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommerceOutcome {
    pub rolls: Vec<TableRoll<CommerceResult>>,
    pub result: CommerceResult,
}

/// Roll on the Commerce table for `relationship` (after drinks, if any),
/// following Trouble and Opportunity.
pub fn sell(
    dice: &mut Dice,
    purpose: &str,
    relationship: Relationship,
    modifiers: &Modifiers,
) -> CommerceOutcome {
    let mut rolls = Vec::new();
    let mut current = relationship;
    loop {
        let roll = roll_on(&CommerceTable { column: current }, dice, purpose, modifiers);
        let result = roll.result;
        rolls.push(roll);
        current = match result {
            CommerceResult::Trouble => Relationship::Unfriendly,
            CommerceResult::Opportunity => current.shifted(1),
            final_result => {
                return CommerceOutcome {
                    rolls,
                    result: final_result,
                };
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_dice::{PURPOSE, forced};
    use super::*;

    fn rows(relationship: Relationship) -> Vec<CommerceResult> {
        (1..=6)
            .map(|die| {
                let mut dice = forced(&[&[die]]);
                let table = CommerceTable {
                    column: relationship,
                };
                roll_on(&table, &mut dice, PURPOSE, &Modifiers::none()).result
            })
            .collect()
    }

    #[test]
    fn every_column_row_by_row() {
        assert_eq!(rows(Relationship::Enemy), ENEMY.to_vec());
        assert_eq!(
            rows(Relationship::Unfriendly),
            vec![
                Offer(-5),
                Offer(-10),
                Offer(-10),
                Demand(-5),
                Demand(-10),
                Demand(-20)
            ]
        );
        assert_eq!(
            rows(Relationship::Neutral),
            vec![
                Opportunity,
                Offer(0),
                Offer(-5),
                Offer(-10),
                Offer(-15),
                Trouble
            ]
        );
        assert_eq!(
            rows(Relationship::Friendly),
            vec![
                Opportunity,
                Offer(5),
                Offer(0),
                Offer(0),
                Offer(-5),
                Offer(-10)
            ]
        );
        assert_eq!(
            rows(Relationship::Ally),
            vec![Offer(10), Offer(5), Offer(5), Offer(0), Offer(0), Offer(-5)]
        );
        assert_eq!(
            rows(Relationship::Enemy)[3..],
            [Demand(-30), BlockBattle, BlockBattle]
        );
    }

    #[test]
    fn trouble_and_opportunity_roll_again() {
        let mut dice = forced(&[&[6], &[5]]);
        let outcome = sell(
            &mut dice,
            PURPOSE,
            Relationship::Neutral,
            &Modifiers::none(),
        );
        assert_eq!(outcome.result, Demand(-10));
        let mut dice = forced(&[&[1], &[2]]);
        let outcome = sell(
            &mut dice,
            PURPOSE,
            Relationship::Friendly,
            &Modifiers::none(),
        );
        assert_eq!(outcome.rolls.len(), 2);
        assert_eq!(outcome.result, Offer(5));
    }
}
