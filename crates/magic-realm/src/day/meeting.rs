//! One Meeting-table deal for the Trade and Hire activities (play summary
//! II.C.6–7; `tables/meeting.rs`, `data/characters.toml`): the group's relationship to the
//! character (Knight's Adjustment when the campaign uses it), drinks when
//! the `Drinks:` line allows them, the roll chain with Trouble and
//! Opportunity, and what a result that is not a price does (block, insult,
//! challenge).
//!
//! Rulings, because the orders cannot answer the table's questions: a
//! Boon is taken at price ×1 (taking it free would turn the group colder);
//! an Insult or a Challenge is answered by the player's `Insult:` and
//! `Challenge:` lines (default: give up the 5 points; `fight`: he is
//! blocked as by a Block/Battle result); under the BIMR3 house rule an Opportunity is declined
//! when the column's "2" result is a price the player would pay.

use serde::{Deserialize, Serialize};

use super::events::Happening;
use super::{Day, modifiers};
use crate::data::GameData;
use crate::data::characters::Relationship;
use crate::data::terms::Roll;
use crate::orders::Settle;
use crate::state::{CharacterState, MrState};
use crate::tables::meeting::{
    MeetingRequest, MeetingResult, MeetingRules, MeetingUse, column, column_after_drinks,
    drinks_price, meet,
};
use realmgm_core::game::Rules;

/// The steps of a deal that Trade and Hire share.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum DealStep {
    DrinksBought {
        character: String,
        group: String,
        gold: u32,
    },
    /// His `Drinks:` line bought none, and why.
    NoDrinks {
        character: String,
        group: String,
        reason: String,
    },
    /// The Meeting rolls read, one line each, and the final result.
    Met {
        character: String,
        group: String,
        lines: Vec<String>,
        result: MeetingResult,
        declined_opportunity: bool,
    },
    NoDeal {
        character: String,
        group: String,
        reason: String,
    },
    /// The group blocks him: his turn ends and he is unhidden.
    Blocked { character: String, group: String },
    /// He refused an Insult or a Challenge (`Insult: fight`): the group
    /// blocks him.
    Refused { character: String, group: String },
    /// He gave up recorded notoriety (Insult) or fame (Challenge) to avoid
    /// being blocked.
    GaveUp {
        character: String,
        group: String,
        points: String,
    },
}

/// What is being dealt for.
pub struct Deal<'a> {
    /// Relationship name: the native group or visitor.
    pub group: &'a str,
    /// Unhired members of the group in the clearing (drinks cost 1 each);
    /// 0 for a visitor, who takes no drinks.
    pub members_present: u32,
    pub activity: MeetingUse,
    /// The basic price (of the item, or the wages of those hired).
    pub price: u32,
    /// The most the player will pay (`Buy:`/`Hire:` line).
    pub max_gold: Option<u32>,
    pub drinks_up_to: Option<u32>,
    /// His answers to an Insult and a Challenge (`Insult:`, `Challenge:`).
    pub insult: Settle,
    pub challenge: Settle,
}

/// The relationship of a group or visitor to character `who`.
pub fn relationship(day: &Day<'_>, who: usize, group: &str) -> Relationship {
    relationship_of(
        day.data,
        day.rules,
        &day.state,
        &day.state.characters[who],
        group,
    )
}

/// The relationship of a group or visitor to `me`, a character of
/// `state`: a Persuade spell's, else his campaign's, else his card's (with
/// the Knights' Adjustment when it is on).
pub fn relationship_of(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    me: &CharacterState,
    group: &str,
) -> Relationship {
    let name = &me.name;
    if let Some(spelled) = crate::magic::influence::relationship(state, data, name, group) {
        return spelled;
    }
    if let Some(campaign) = super::missions::campaign_relationship(data, me, group) {
        return campaign;
    }
    let base = data
        .characters
        .iter()
        .find(|c| &c.name == name)
        .map_or(Relationship::Neutral, |c| c.relationship(group));
    let adjusted = matches!(
        (name.as_str(), group),
        ("White Knight", "Order") | ("Black Knight", "Company")
    );
    if adjusted && base == Relationship::Ally && rules.is_on("knights_adjustment") {
        Relationship::Friendly
    } else {
        base
    }
}

/// Make the deal: drinks, the Meeting rolls (each a day event seen by the
/// clearing) and the result. Returns the gold to pay when the deal is made
/// and affordable; everything else is applied and reported here.
pub fn negotiate(
    day: &mut Day<'_>,
    who: usize,
    deal: &Deal<'_>,
    wrap: fn(DealStep) -> Happening,
) -> Option<u32> {
    let name = day.state.characters[who].name.clone();
    let observers = day.seen_acting(who);
    let group = deal.group.to_string();
    let mut start = relationship(day, who, deal.group);
    let cost = drinks_price(deal.members_present);
    if let Some(limit) = deal.drinks_up_to
        && deal.members_present > 0
    {
        let spendable = u32::from(crate::magic::curses::spendable_gold(
            &day.state.characters[who],
        ));
        // Drinks cost a gold for each member of the group present.
        let bought = if cost > limit {
            Err(format!(
                "drinks for the {} present cost {cost} gold, more than the {limit} of the \
                 Drinks: line",
                realmgm_core::words::counted(deal.members_present, "member", "members")
            ))
        } else if cost > spendable {
            Err(format!(
                "drinks cost {cost} gold and the {name} has {spendable}"
            ))
        } else {
            column_after_drinks(start, deal.activity).map_err(|refused| match refused {
                crate::tables::TableError::DrinksRefused(why) => why,
                other => other.to_string(),
            })
        };
        match bought {
            Ok(better) => {
                pay(day, who, cost);
                day.emit(
                    observers.clone(),
                    wrap(DealStep::DrinksBought {
                        character: name.clone(),
                        group: group.clone(),
                        gold: cost,
                    }),
                );
                start = better;
            }
            // Told in a Trade or Hire phase he spent on this group; the
            // evening's checks of every group pass over a standing line.
            Err(reason) if deal.activity != MeetingUse::BattlingCheck => day.emit(
                observers.clone(),
                wrap(DealStep::NoDrinks {
                    character: name.clone(),
                    group: group.clone(),
                    reason,
                }),
            ),
            Err(_) => {}
        }
    }
    let limit =
        deal.max_gold
            .unwrap_or(u32::MAX)
            .min(u32::from(crate::magic::curses::spendable_gold(
                &day.state.characters[who],
            )));
    let expanded = day.rules.is_on("expanded_meeting_table_opportunities");
    let decline_opportunity = expanded
        && matches!(column(start)[1], MeetingResult::Price(n) if deal.price * u32::from(n) <= limit);
    let kind = match deal.activity {
        MeetingUse::Hire => Roll::Hire,
        _ => Roll::Trade,
    };
    let mods = modifiers::for_roll(day, who, kind);
    let request = MeetingRequest {
        // `start` already holds the drinks' step.
        relationship: start,
        activity: deal.activity,
        drinks: false,
        decline_opportunity,
    };
    let purpose = format!("meeting/{name}/{group}");
    let rules = MeetingRules {
        expanded_opportunities: expanded,
    };
    let outcome = match meet(day.dice, &purpose, &request, rules, &mods) {
        Ok(outcome) => outcome,
        Err(error) => {
            day.emit(
                observers,
                wrap(DealStep::NoDeal {
                    character: name,
                    group,
                    reason: error.to_string(),
                }),
            );
            return None;
        }
    };
    let mut lines = Vec::new();
    for roll in &outcome.rolls {
        day.emit(observers.clone(), Happening::Roll(roll.record.clone()));
        lines.push(roll.describe());
    }
    day.emit(
        observers.clone(),
        wrap(DealStep::Met {
            character: name.clone(),
            group: group.clone(),
            lines,
            result: outcome.result,
            declined_opportunity: outcome.declined_opportunity,
        }),
    );
    let no_deal = |reason: String| DealStep::NoDeal {
        character: name.clone(),
        group: group.clone(),
        reason,
    };
    let multiplier = match outcome.result {
        MeetingResult::Price(n) => u32::from(n),
        MeetingResult::Boon => 1,
        MeetingResult::NoDeal | MeetingResult::Trouble | MeetingResult::Opportunity => {
            day.emit(observers, wrap(no_deal("the table says no deal".into())));
            return None;
        }
        MeetingResult::Insult | MeetingResult::Challenge => {
            if answer_to(outcome.result, deal.insult, deal.challenge) == Some(Settle::Fight) {
                blocked(day, who);
                day.emit(
                    observers,
                    wrap(DealStep::Refused {
                        character: name,
                        group,
                    }),
                );
            } else {
                let c = &mut day.state.characters[who];
                let points = give_up(outcome.result, &mut c.fame, &mut c.notoriety);
                day.emit(
                    observers,
                    wrap(DealStep::GaveUp {
                        character: name,
                        group,
                        points: points.into(),
                    }),
                );
            }
            return None;
        }
        MeetingResult::BlockBattle => {
            blocked(day, who);
            day.emit(
                observers,
                wrap(DealStep::Blocked {
                    character: name,
                    group,
                }),
            );
            return None;
        }
    };
    let asked = deal.price * multiplier;
    if asked > limit {
        let why = if deal.max_gold.is_some_and(|m| asked > m) {
            format!("the price {asked} is above the limit")
        } else {
            format!("the price {asked} is more gold than is carried")
        };
        day.emit(observers, wrap(no_deal(why)));
        return None;
    }
    Some(asked)
}

/// His answer to an Insult or a Challenge (`Insult:`, `Challenge:`); `None`
/// for any other result.
pub fn answer_to(result: MeetingResult, insult: Settle, challenge: Settle) -> Option<Settle> {
    match result {
        MeetingResult::Insult => Some(insult),
        MeetingResult::Challenge => Some(challenge),
        _ => None,
    }
}

/// Give up 5 notoriety for an Insult or 5 fame for a Challenge, from the
/// record at hand (his sheet, or his sheet in a battle); what was given up,
/// in words.
pub fn give_up(result: MeetingResult, fame: &mut i32, notoriety: &mut i32) -> &'static str {
    if result == MeetingResult::Insult {
        *notoriety -= 5;
        "5 notoriety"
    } else {
        *fame -= 5;
        "5 fame"
    }
}

/// The group blocks character `who`: his turn ends and he is unhidden.
fn blocked(day: &mut Day<'_>, who: usize) {
    day.today.blocked.insert(who);
    day.state.characters[who].hidden = false;
}

/// Take `gold` from character `who` (callers checked he has it).
pub fn pay(day: &mut Day<'_>, who: usize, gold: u32) {
    let character = &mut day.state.characters[who];
    let gold = u16::try_from(gold).unwrap_or(u16::MAX);
    character.gold = character.gold.saturating_sub(gold);
}
