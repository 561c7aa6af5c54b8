//! The Meeting table (`tables/meeting.rs`; play summary II.C.6–7 "TRADE", "HIRE" and
//! III "Combat" battling check), buying drinks (§2.1) and the BIMR3 house
//! rule "Expanded Meeting Table Opportunities" (§0.1; BIMR3 rules).
//!
//! The column is the group's relationship to the character. Trouble and
//! Opportunity are not final: they send the roll to another column, so
//! [`meet`] follows them and returns every roll it made. The price, the
//! boon, the fame/notoriety payment and the battle are the engine's to
//! apply.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{DieTable, Modifiers, TableError, TableRoll, roll_on, six_row_index};
use crate::data::characters::Relationship;
use realmgm_core::dice::Dice;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MeetingResult {
    /// Price ×1, or take it free; taking it free makes the group one step
    /// less friendly until the boon is repaid.
    Boon,
    /// Basic price times this.
    Price(u8),
    NoDeal,
    /// Blocks the character by day; battles him when rolled in the Evening.
    BlockBattle,
    /// Lose 5 recorded notoriety for no deal, else block/battle.
    Insult,
    /// Lose 5 recorded fame for no deal, else block/battle.
    Challenge,
    /// Roll again on the unfriendly column.
    Trouble,
    /// Roll again one column friendlier.
    Opportunity,
}

impl fmt::Display for MeetingResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeetingResult::Boon => {
                f.write_str("boon: price ×1, or free and the group turns one step colder")
            }
            MeetingResult::Price(n) => write!(f, "price ×{n}"),
            MeetingResult::NoDeal => f.write_str("no deal"),
            MeetingResult::BlockBattle => f.write_str("block/battle"),
            MeetingResult::Insult => {
                f.write_str("insult: give up 5 notoriety for no deal, or block/battle")
            }
            MeetingResult::Challenge => {
                f.write_str("challenge: give up 5 fame for no deal, or block/battle")
            }
            MeetingResult::Trouble => f.write_str("trouble: roll again on the unfriendly column"),
            MeetingResult::Opportunity => {
                f.write_str("opportunity: roll again one column friendlier")
            }
        }
    }
}

use MeetingResult::{BlockBattle, Boon, Challenge, Insult, NoDeal, Opportunity, Price, Trouble};

const ENEMY: [MeetingResult; 6] = [
    Insult,
    Challenge,
    BlockBattle,
    BlockBattle,
    BlockBattle,
    BlockBattle,
];
const UNFRIENDLY: [MeetingResult; 6] = [Price(4), NoDeal, NoDeal, Insult, Challenge, BlockBattle];
const NEUTRAL: [MeetingResult; 6] = [Opportunity, Price(3), Price(4), NoDeal, NoDeal, Trouble];
const FRIENDLY: [MeetingResult; 6] = [Opportunity, Price(2), Price(2), Price(3), Price(4), NoDeal];
const ALLY: [MeetingResult; 6] = [Boon, Price(1), Price(2), Price(3), Price(4), Price(4)];

/// The six rows of one relationship column.
pub fn column(relationship: Relationship) -> &'static [MeetingResult; 6] {
    match relationship {
        Relationship::Enemy => &ENEMY,
        Relationship::Unfriendly => &UNFRIENDLY,
        Relationship::Neutral => &NEUTRAL,
        Relationship::Friendly => &FRIENDLY,
        Relationship::Ally => &ALLY,
    }
}

/// One column of the Meeting table.
#[derive(Clone, Copy, Debug)]
pub struct MeetingTable {
    pub column: Relationship,
}

impl DieTable for MeetingTable {
    type Outcome = MeetingResult;

    fn rule(&self) -> &'static str {
        "7.6.5, 7.7.1"
    }

    fn name(&self) -> Cow<'static, str> {
        format!("Meeting ({})", self.column.label()).into()
    }

    fn outcome(&self, row: i8) -> MeetingResult {
        column(self.column)[six_row_index(row)]
    }
}

/// Why the Meeting table is rolled; it decides the drinks limit and what a
/// result means (a price means nothing in the Evening).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MeetingUse {
    Trade,
    Hire,
    /// Sunset/Evening: does an unhired group battle the character?
    BattlingCheck,
}

/// The column after buying drinks: one step friendlier, for this roll only
/// (`tables/meeting.rs`). The price is 1 gold per group member present
/// ([`drinks_price`]). Who may buy (native groups only, not under Ashes or
/// Dazzle, present in the clearing) is the engine's check.
///
/// # Errors
/// Drinks cannot raise an Ally for Trade or Hire, nor a Friendly or Ally
/// group for the Evening battling check.
pub fn column_after_drinks(
    relationship: Relationship,
    activity: MeetingUse,
) -> Result<Relationship, TableError> {
    match activity {
        MeetingUse::Trade | MeetingUse::Hire if relationship == Relationship::Ally => Err(
            TableError::DrinksRefused("the group is already an ally".into()),
        ),
        MeetingUse::BattlingCheck if relationship >= Relationship::Friendly => {
            Err(TableError::DrinksRefused(
                "before the battling check drinks only help a group colder than friendly".into(),
            ))
        }
        _ => Ok(relationship.shifted(1)),
    }
}

/// Gold for one round of drinks: one per member of the group present.
pub fn drinks_price(members_present: u32) -> u32 {
    members_present
}

/// What the character brings to one Meeting roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeetingRequest {
    /// The group's current relationship to the character.
    pub relationship: Relationship,
    pub activity: MeetingUse,
    /// Drinks bought before the roll.
    pub drinks: bool,
    /// The player takes the "2" result of the column instead of an
    /// Opportunity (needs the BIMR3 house rule).
    pub decline_opportunity: bool,
}

/// Campaign rules that change the Meeting table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeetingRules {
    /// BIMR3 house rule "Expanded Meeting Table Opportunities".
    pub expanded_opportunities: bool,
}

/// A resolved Meeting: the column first rolled on, every roll made
/// (Trouble and Opportunity add one each) and the final result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeetingOutcome {
    /// The column of the first roll, after drinks.
    pub column: Relationship,
    pub rolls: Vec<TableRoll<MeetingResult>>,
    /// True when an Opportunity was declined for the column's "2" result.
    pub declined_opportunity: bool,
    pub result: MeetingResult,
}

/// Roll on the Meeting table, following Trouble and Opportunity. The
/// character's modifiers apply to every roll of the chain.
///
/// # Errors
/// Drinks the group will not take ([`column_after_drinks`]), or a declined
/// Opportunity without the house rule.
pub fn meet(
    dice: &mut Dice,
    purpose: &str,
    request: &MeetingRequest,
    rules: MeetingRules,
    modifiers: &Modifiers,
) -> Result<MeetingOutcome, TableError> {
    if request.decline_opportunity && !rules.expanded_opportunities {
        return Err(TableError::DeclineNeedsHouseRule);
    }
    let start = if request.drinks {
        column_after_drinks(request.relationship, request.activity)?
    } else {
        request.relationship
    };
    let mut rolls = Vec::new();
    let mut current = start;
    // Each step moves to a column without that result (Trouble → Unfriendly,
    // Opportunity → friendlier), so the chain ends within five rolls.
    loop {
        let roll = roll_on(&MeetingTable { column: current }, dice, purpose, modifiers);
        let result = roll.result;
        rolls.push(roll);
        let next = match result {
            MeetingResult::Trouble => Relationship::Unfriendly,
            MeetingResult::Opportunity if request.decline_opportunity => {
                return Ok(MeetingOutcome {
                    column: start,
                    rolls,
                    declined_opportunity: true,
                    result: column(current)[1],
                });
            }
            MeetingResult::Opportunity => current.shifted(1),
            final_result => {
                return Ok(MeetingOutcome {
                    column: start,
                    rolls,
                    declined_opportunity: false,
                    result: final_result,
                });
            }
        };
        current = next;
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_dice::{PURPOSE, forced};
    use super::*;

    fn one_roll(relationship: Relationship, die: u8) -> MeetingResult {
        let mut dice = forced(&[&[die]]);
        let table = MeetingTable {
            column: relationship,
        };
        roll_on(&table, &mut dice, PURPOSE, &Modifiers::none()).result
    }

    fn rows(relationship: Relationship) -> Vec<MeetingResult> {
        (1..=6).map(|die| one_roll(relationship, die)).collect()
    }

    #[test]
    fn enemy_column() {
        assert_eq!(
            rows(Relationship::Enemy),
            vec![
                Insult,
                Challenge,
                BlockBattle,
                BlockBattle,
                BlockBattle,
                BlockBattle
            ]
        );
    }

    #[test]
    fn unfriendly_column() {
        assert_eq!(
            rows(Relationship::Unfriendly),
            vec![Price(4), NoDeal, NoDeal, Insult, Challenge, BlockBattle]
        );
    }

    #[test]
    fn neutral_column() {
        assert_eq!(
            rows(Relationship::Neutral),
            vec![Opportunity, Price(3), Price(4), NoDeal, NoDeal, Trouble]
        );
    }

    #[test]
    fn friendly_column() {
        assert_eq!(
            rows(Relationship::Friendly),
            vec![Opportunity, Price(2), Price(2), Price(3), Price(4), NoDeal]
        );
    }

    #[test]
    fn ally_column() {
        assert_eq!(
            rows(Relationship::Ally),
            vec![Boon, Price(1), Price(2), Price(3), Price(4), Price(4)]
        );
    }

    fn request(relationship: Relationship) -> MeetingRequest {
        MeetingRequest {
            relationship,
            activity: MeetingUse::Trade,
            drinks: false,
            decline_opportunity: false,
        }
    }

    #[test]
    fn trouble_rolls_again_on_the_unfriendly_column() {
        let mut dice = forced(&[&[6, 2], &[1, 1]]);
        let outcome = meet(
            &mut dice,
            PURPOSE,
            &request(Relationship::Neutral),
            MeetingRules::default(),
            &Modifiers::none(),
        )
        .unwrap();
        assert_eq!(outcome.rolls.len(), 2);
        assert_eq!(outcome.rolls[1].table, "Meeting (unfriendly)");
        assert_eq!(outcome.result, Price(4));
    }

    #[test]
    fn opportunity_climbs_columns_until_a_final_result() {
        // Neutral 1 → Friendly 1 → Ally 1 = Boon.
        let mut dice = forced(&[&[1], &[1], &[1]]);
        let outcome = meet(
            &mut dice,
            PURPOSE,
            &request(Relationship::Neutral),
            MeetingRules::default(),
            &Modifiers::none(),
        )
        .unwrap();
        let tables: Vec<&str> = outcome.rolls.iter().map(|r| &*r.table).collect();
        assert_eq!(
            tables,
            vec!["Meeting (neutral)", "Meeting (friendly)", "Meeting (ally)"]
        );
        assert_eq!(outcome.result, Boon);
    }

    #[test]
    fn declined_opportunity_takes_the_columns_two_result() {
        let rules = MeetingRules {
            expanded_opportunities: true,
        };
        for (relationship, expected) in [
            (Relationship::Neutral, Price(3)),
            (Relationship::Friendly, Price(2)),
        ] {
            let mut dice = forced(&[&[1]]);
            let req = MeetingRequest {
                decline_opportunity: true,
                ..request(relationship)
            };
            let outcome = meet(&mut dice, PURPOSE, &req, rules, &Modifiers::none()).unwrap();
            assert!(outcome.declined_opportunity);
            assert_eq!(outcome.rolls.len(), 1);
            assert_eq!(outcome.result, expected);
        }
    }

    #[test]
    fn declining_without_the_house_rule_is_refused() {
        let mut dice = forced(&[&[1]]);
        let req = MeetingRequest {
            decline_opportunity: true,
            ..request(Relationship::Neutral)
        };
        let err = meet(
            &mut dice,
            PURPOSE,
            &req,
            MeetingRules::default(),
            &Modifiers::none(),
        )
        .unwrap_err();
        assert_eq!(err, TableError::DeclineNeedsHouseRule);
    }

    #[test]
    fn drinks_shift_the_column_one_step_friendlier() {
        let mut dice = forced(&[&[4]]);
        let req = MeetingRequest {
            drinks: true,
            ..request(Relationship::Unfriendly)
        };
        let outcome = meet(
            &mut dice,
            PURPOSE,
            &req,
            MeetingRules::default(),
            &Modifiers::none(),
        )
        .unwrap();
        assert_eq!(outcome.column, Relationship::Neutral);
        assert_eq!(outcome.result, NoDeal);
        assert_eq!(drinks_price(3), 3);
    }

    #[test]
    fn drinks_limits() {
        assert!(column_after_drinks(Relationship::Ally, MeetingUse::Hire).is_err());
        assert_eq!(
            column_after_drinks(Relationship::Friendly, MeetingUse::Trade),
            Ok(Relationship::Ally)
        );
        assert!(column_after_drinks(Relationship::Friendly, MeetingUse::BattlingCheck).is_err());
        assert_eq!(
            column_after_drinks(Relationship::Enemy, MeetingUse::BattlingCheck),
            Ok(Relationship::Unfriendly)
        );
    }

    #[test]
    fn white_knights_honor_lowers_every_roll_of_the_chain() {
        // Neutral: 2 - 1 = row 1 Opportunity; Friendly: 3 - 1 = row 2 Price ×2.
        let mut dice = forced(&[&[2], &[3]]);
        let mods = Modifiers::none().with("Honor (White Knight)", -1);
        let outcome = meet(
            &mut dice,
            PURPOSE,
            &request(Relationship::Neutral),
            MeetingRules::default(),
            &mods,
        )
        .unwrap();
        assert_eq!(outcome.rolls[0].row, 1);
        assert_eq!(outcome.result, Price(2));
        assert!(outcome.rolls.iter().all(|r| r.modifiers.len() == 1));
    }
}
