//! One Meeting-table deal for the Trade and Hire activities (3.1 7.6.5,
//! 7.7.1; `tables/meeting.rs`, `data/characters.toml`): the group's relationship to the
//! character (Knight's Adjustment when the campaign uses it), drinks when
//! the `Drinks:` line allows them, the roll chain with Trouble and
//! Opportunity, and what a result that is not a price does (block, insult,
//! challenge).
//!
//! The orders answer the table's questions: a Boon is paid at price ×1
//! unless the `Boon: free` line takes it free, which makes the group a
//! level colder until a Trade phase buys the level back (3.1 7.6.5e); an
//! Insult or a Challenge is answered by the player's `Insult:` and
//! `Challenge:` lines (default: give up the 5 points; `fight`: he is
//! blocked as by a Block/Battle result). Ruling: under the BIMR3 house
//! rule an Opportunity is declined when the column's "2" result is a price
//! the player would pay.
//!
//! A group's relationship is read only through [`level_of`]: the card, the
//! levels moved for good (`CharacterState::relationship_shift`), a
//! campaign and a Persuade spell.

use serde::{Deserialize, Serialize};

use super::events::Happening;
use super::{Day, modifiers};
use crate::data::GameData;
use crate::data::characters::Relationship;
use crate::data::realms::printed;
use crate::data::terms::Roll;
use crate::orders::{BoonChoice, Settle};
use crate::state::{BoonOwed, CharacterState, MrState};
use crate::tables::magic::CurseKind;
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
    /// His relationship with the group moved for good by `levels`
    /// (negative colder), now `now` on the Meeting table.
    Moved {
        character: String,
        group: String,
        levels: i8,
        now: Relationship,
        cause: Cause,
    },
}

/// Why a relationship moved for good.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "cause", rename_all = "snake_case")]
pub enum Cause {
    /// He took a boon free (3.1 7.6.5e).
    BoonTaken { price: u32 },
    /// He bought the lost level back (3.1 7.6.5e.1).
    BoonRepaid,
    /// He or his hireling killed a member of the group (3.1 10.B.6.1,
    /// 10.B.7.1).
    Killed { native: String },
    /// He committed treachery against the group (3.1 10.B.6.1).
    Treachery,
    /// He sold the group the card that names it for a Fame reward (3.1
    /// 10.B.6.3).
    SoldRewardCard { card: String },
    /// He bought or took as a boon the card naming the group (3.1
    /// 10.B.6.3).
    BoughtRewardCard { card: String },
}

impl Cause {
    /// Why, in words, after a colon, for `character`'s line.
    pub fn words(&self, character: &str) -> String {
        match self {
            Cause::BoonTaken { price } => {
                format!("the {character} took a boon worth {price} gold free")
            }
            Cause::BoonRepaid => format!("the {character} bought back the level a boon cost"),
            Cause::Killed { native } => {
                format!("the {character} or a hireling killed {native}")
            }
            Cause::Treachery => format!("the {character} turned on hirelings of the group"),
            Cause::SoldRewardCard { card } => format!("the {character} sold them the {card}"),
            Cause::BoughtRewardCard { card } => {
                format!("the {character} took the {card} from them")
            }
        }
    }
}

/// Who deals for character `who`: himself, or for a hired leader taking
/// his turn his employer, whose relationships, fame and notoriety his
/// deals change (3.1 7.6.1c, 7.7.2b).
pub fn principal(day: &Day<'_>, who: usize) -> usize {
    let name = &day.state.characters[who].name;
    day.state.employer_of(name).unwrap_or(who)
}

/// Move the relationship of `who`'s principal with `group` by `levels`
/// for good, and tell him alone (it is his own record, 3.1 7.6.5e.2).
pub fn move_relationship(day: &mut Day<'_>, who: usize, group: &str, levels: i8, cause: Cause) {
    if levels == 0 {
        return;
    }
    let owner = principal(day, who);
    // Relationships are with a group in every game (3.1 10.E.7.4.2).
    day.state.characters[owner].shift_relationship(&printed(group), levels);
    let now = relationship(day, owner, group);
    let step = DealStep::Moved {
        character: day.state.characters[owner].name.clone(),
        group: group.to_string(),
        levels,
        now,
        cause,
    };
    day.emit(
        day.only(owner),
        Happening::Trade(super::trade::TradeEvent::Deal(step)),
    );
}

/// What is being dealt for.
pub struct Deal<'a> {
    /// Relationship name: the native group or visitor.
    pub group: &'a str,
    /// Members of the group in the clearing, hired and unhired (drinks
    /// cost 1 each, 3.1 7.6.5b); 0 for a visitor, who takes no drinks.
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
    /// What he does with a Boon (`Boon:`); always `Pay` where no boon may
    /// be taken (monsters, 3.1 7.7.5b; buying a boon back).
    pub boon: BoonChoice,
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
/// `state`, as the Meeting table reads it: [`level_of`] with the levels
/// past Ally and past Enemy standing for those columns.
pub fn relationship_of(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    me: &CharacterState,
    group: &str,
) -> Relationship {
    Relationship::at_level(level_of(data, rules, state, me, group))
}

/// The step of a group's or visitor's relationship to `me` (0 Enemy to 4
/// Ally, more or less when levels past either end are kept): a Persuade
/// spell's; else Enemy for a foe of the campaign he wages (3.1 7.2.4h);
/// else his card's (with the Knights' Adjustment when it is on; none for a
/// character who started below 3rd level under Development), moved by
/// the levels he has won or lost for good and by two for a partner of his
/// campaign (3.1 7.2.4h.1, 7.6.5e, 10.B.6). A hired leader deals with his
/// employer's relationships (3.1 7.6.5a). With two Realms combined his
/// relationships are the same with a group in every game (10.E.7.4.2);
/// his campaign names only its own game's groups (7.7.4).
pub fn level_of(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    me: &CharacterState,
    marked_group: &str,
) -> i16 {
    let printed_group = printed(marked_group);
    let group = printed_group.as_str();
    let me = state
        .employer_of(&me.name)
        .and_then(|boss| state.characters.get(boss))
        .unwrap_or(me);
    let name = &me.name;
    if let Some(spelled) = crate::magic::influence::relationship(state, data, name, group) {
        return spelled.level();
    }
    let campaign = super::missions::campaign_side(data, me, marked_group);
    if campaign == CampaignSide::Foe {
        return Relationship::Enemy.level();
    }
    // Under Development only a character who started at 3rd or 4th level
    // has his card's relationships (3.1 10.E.5.2.2).
    let base = data
        .characters
        .iter()
        .find(|c| &c.name == name)
        .filter(|_| crate::development::has_card_relationships(me))
        .map_or(Relationship::Neutral, |c| c.relationship(group));
    let adjusted = matches!(
        (name.as_str(), group),
        ("White Knight", "Order") | ("Black Knight", "Company")
    );
    let card = if adjusted && base == Relationship::Ally && rules.is_on("knights_adjustment") {
        Relationship::Friendly
    } else {
        base
    };
    let partner = if campaign == CampaignSide::Partner {
        2
    } else {
        0
    };
    card.level() + i16::from(me.relationship_shift(group)) + partner
}

/// Whether `group` is a foe of the campaign `who`'s principal wages: he
/// cannot buy them drinks (3.1 7.2.4h).
pub fn is_campaign_foe(day: &Day<'_>, who: usize, group: &str) -> bool {
    let owner = &day.state.characters[principal(day, who)];
    super::missions::campaign_side(day.data, owner, group) == CampaignSide::Foe
}

/// How the campaign a character wages names a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CampaignSide {
    Partner,
    Foe,
    Neither,
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
        let bought = if is_campaign_foe(day, who, deal.group) {
            Err(format!(
                "the {group} are foes of the campaign the {} carries and take no drinks",
                day.state.characters[who].name
            ))
        } else if cost > limit {
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
        MeetingResult::Boon if deal.boon == BoonChoice::Free => {
            take_boon(day, who, &group, deal.price);
            return Some(0);
        }
        MeetingResult::Boon => 1,
        MeetingResult::NoDeal | MeetingResult::Trouble | MeetingResult::Opportunity => {
            day.emit(observers, wrap(no_deal("the table says no deal".into())));
            return None;
        }
        MeetingResult::Insult | MeetingResult::Challenge => {
            let me = &day.state.characters[who];
            if answer_to(outcome.result, deal.insult, deal.challenge, me) == Some(Settle::Fight) {
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
        let why = if let Some(cap) = deal.max_gold.filter(|cap| asked > *cap) {
            let line = match deal.activity {
                MeetingUse::Hire => "Hire:",
                _ => "Buy:",
            };
            format!("the price of {asked} gold is above the cap of {cap} gold on the {line} line")
        } else {
            format!("the price {asked} is more gold than is carried")
        };
        day.emit(observers, wrap(no_deal(why)));
        return None;
    }
    Some(asked)
}

/// Character `who` takes a boon worth `price` free from `group`: the group
/// grows a level colder to his principal until he buys the level back
/// (3.1 7.6.5e); under Persuade it is the lasting relationship that drops.
fn take_boon(day: &mut Day<'_>, who: usize, group: &str, price: u32) {
    let owner = principal(day, who);
    day.state.characters[owner].boons_owed.push(BoonOwed {
        group: group.to_string(),
        price,
    });
    move_relationship(day, who, group, -1, Cause::BoonTaken { price });
}

/// His answer to an Insult or a Challenge (`Insult:`, `Challenge:`); `None`
/// for any other result. Under the Disgust curse his fame cannot pay a
/// Challenge, so he is blocked or battled as if he refused (3.1 Meeting
/// table, Challenge; 4.6.8a.4).
pub fn answer_to(
    result: MeetingResult,
    insult: Settle,
    challenge: Settle,
    me: &CharacterState,
) -> Option<Settle> {
    match result {
        MeetingResult::Insult => Some(insult),
        MeetingResult::Challenge if crate::magic::curses::has(me, CurseKind::Disgust) => {
            Some(Settle::Fight)
        }
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
