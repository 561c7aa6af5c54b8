//! The section of the rules of record (the third edition, release 3.1)
//! each Daylight, trade, hire, Birdsong, arrival, Midnight, restart,
//! visitor, site, weather, dealing, cache, rearranging and ruling event
//! applied, so the GM's history names it after the event's line as it
//! does after combat and magic lines (`day/log.rs`).
//!
//! Every match is exhaustive, without a catch-all arm: an event variant
//! added later fails to compile here until its section is named (or it is
//! said why it applies none). Sections were read in the 3.1 text and its
//! index; a section is cited at the depth that names the rule applied.

use super::cache::CacheEvent;
use super::dealings::DealEvent;
use super::development::DevelopmentEvent;
use super::events::{
    ArrivalEvent, BirdsongEvent, Happening, MidnightEvent, PhaseEvent, PhaseResult,
};
use super::familiar::FamiliarEvent;
use super::hire::HireEvent;
use super::meeting::{Cause, DealStep};
use super::missions::MissionEvent;
use super::rearrange::RearrangeEvent;
use super::restart::RestartEvent;
use super::rulings::RulingEvent;
use super::search::SearchEvent;
use super::trade::TradeEvent;
use super::treasure_sites::SiteEvent;
use super::visitors::VisitorEvent;
use super::weather::WeatherEvent;
use crate::orders::dealings::{Arrange, When};

/// The 3.1 section a day event applied (`7.3.1`, `10.D.1.6`); `None` for
/// combat and magic events, which name their own, and for events that
/// apply no rule.
pub fn section(happening: &Happening) -> Option<&'static str> {
    match happening {
        // A roll is cited on the line that reads it (a table row, a
        // search result); combat and magic events carry their own section.
        Happening::Roll(_) | Happening::Combat(_) | Happening::Magic(_) => None,
        Happening::Search(e) => search(e),
        Happening::Trade(e) => trade(e),
        Happening::Hire(e) => hire(e),
        Happening::Birdsong(e) => birdsong(e),
        Happening::Phase(e) => phase(e),
        Happening::Arrival(e) => arrival(e),
        Happening::Midnight(e) => Some(midnight(e)),
        Happening::Restart(e) => restart(e),
        Happening::Visitors(e) => Some(visitors(e)),
        Happening::TreasureSite(e) => site(e),
        Happening::Familiar(e) => familiar(e),
        Happening::Weather(e) => Some(weather(e)),
        Happening::Ruling(e) => ruling(e),
        Happening::Rearranged(e) => Some(rearranged(e)),
        Happening::Cache(e) => Some(cache(e)),
        Happening::Dealing(e) => Some(dealing(e)),
        Happening::AutoEnchant(_) => Some("10.C.5"),
        Happening::Development(e) => Some(development(e)),
    }
}

fn development(e: &DevelopmentEvent) -> &'static str {
    match e {
        DevelopmentEvent::ChitGained { .. } => "10.E.5.4",
        DevelopmentEvent::LevelReached { .. } => "10.E.5.4.3",
        DevelopmentEvent::ChitOnRecord { .. } => "10.E.6.6",
        DevelopmentEvent::Revived { .. } => "10.E.6.4",
        DevelopmentEvent::VictorByChits { .. } => "10.E.6.10",
        DevelopmentEvent::RequirementsMet { .. } => "10.E.6.3",
        DevelopmentEvent::CarryOver { .. } => "10.E.6.3",
    }
}

fn search(e: &SearchEvent) -> Option<&'static str> {
    Some(match e {
        SearchEvent::Rolled { .. } | SearchEvent::Chose { .. } => "7.5.1",
        SearchEvent::SawChits { .. } => "7.5.4c",
        SearchEvent::FoundHiddenEnemies { .. } => "7.5.4g",
        SearchEvent::SeesHiddenOwning { .. } => "7.5.7c",
        SearchEvent::FoundRoutes { .. } | SearchEvent::DiscoveredSites { .. } => "7.5.4a",
        SearchEvent::Paid { .. } => "7.5.5d",
        SearchEvent::Looted { .. }
        | SearchEvent::FoundNothing { .. }
        | SearchEvent::GoldFound { .. }
        | SearchEvent::ContentsToPile { .. } => "7.5.5",
        // A result the engine says plainly it does not apply.
        SearchEvent::NotApplied { .. } => return None,
    })
}

fn trade(e: &TradeEvent) -> Option<&'static str> {
    Some(match e {
        TradeEvent::Deal(step) => return deal_step(step, "7.6.5a"),
        TradeEvent::Bought { .. } => "7.6.5",
        TradeEvent::Sold { .. } => "7.6.4",
        TradeEvent::Taught { .. } => "7.6.7",
        TradeEvent::FameReward { .. } => "7.6.6",
    })
}

fn hire(e: &HireEvent) -> Option<&'static str> {
    Some(match e {
        HireEvent::Deal(step) => return deal_step(step, "7.7.1"),
        HireEvent::Hired { .. } => "7.7.1b",
        HireEvent::TermEnded { .. } => "8.9.3",
        HireEvent::Rehired { .. } => "7.7.1d",
    })
}

/// A step of a trade or a hire: the Meeting Table roll is the
/// activity's own (`meeting`: 7.6.5a to buy, 7.7.1 to hire).
fn deal_step(step: &DealStep, meeting: &'static str) -> Option<&'static str> {
    Some(match step {
        DealStep::DrinksBought { .. } | DealStep::NoDrinks { .. } => "7.6.5b",
        DealStep::Met { .. } | DealStep::GaveUp { .. } => meeting,
        DealStep::NoDeal { .. } | DealStep::Blocked { .. } | DealStep::Refused { .. } => "7.6.5d",
        DealStep::Moved { cause, levels, .. } => match cause {
            Cause::BoonTaken { .. } => "7.6.5e",
            Cause::BoonRepaid => "7.6.5e.1",
            // Extended Grudges costs one level where Grudges and Gratitude
            // costs two or four.
            Cause::Killed { .. } if *levels == -1 => "10.B.7.1",
            Cause::Killed { .. } | Cause::Treachery => "10.B.6.1",
            Cause::SoldRewardCard { .. } | Cause::BoughtRewardCard { .. } => "10.B.6.3",
        },
    })
}

fn birdsong(e: &BirdsongEvent) -> Option<&'static str> {
    Some(match e {
        BirdsongEvent::DayBegins { .. } => "6.1.1",
        BirdsongEvent::Follows { .. } | BirdsongEvent::CannotFollow { .. } => "7.11.3",
        BirdsongEvent::MonsterRoll { .. } => "6.3.3",
        BirdsongEvent::SecondMonsterRoll { .. } => "10.E.1.7",
        BirdsongEvent::Regenerated { .. } => "6.3.4",
        BirdsongEvent::TurnChosen { .. } | BirdsongEvent::TurnOrder { .. } => "7.1.1",
        // A part of the rules the day does not apply, said out loud.
        BirdsongEvent::NotApplied { .. } => return None,
    })
}

fn phase(e: &PhaseEvent) -> Option<&'static str> {
    Some(match e {
        PhaseEvent::HandedOver { .. } => "7.2.1",
        PhaseEvent::KeptFromHandOver { .. } => "4.6.9b",
        // The turn's heading: where he is and what he recorded.
        PhaseEvent::TurnStarts { .. } => return None,
        PhaseEvent::PhaseDone { result, .. } => return phase_result(result),
        PhaseEvent::Blocked { .. } => "7.12.2",
        PhaseEvent::Landed { .. } => "7.3.3b",
        PhaseEvent::HorsesInactive { .. } => "7.3.2a.1",
        PhaseEvent::FollowersLeft { .. } => "7.11.5",
        PhaseEvent::PhasesLeft { .. } => "7.12.4",
        PhaseEvent::StruckForLeader { .. } => "6.2.5",
    })
}

fn phase_result(result: &PhaseResult) -> Option<&'static str> {
    Some(match result {
        PhaseResult::Moved { .. } | PhaseResult::Climbing { .. } => "7.3.1",
        PhaseResult::Flew { .. } => "7.3.3",
        PhaseResult::Hid { .. } | PhaseResult::AlreadyHidden => "7.4.1",
        PhaseResult::Alerted { .. } => "7.9.1",
        PhaseResult::Rested { .. } => "7.8.2",
        PhaseResult::Followed { .. } => "7.11.2",
        // The activity's own events name its rule; a phase lost or
        // replaced reports why in words, under no rule of its own.
        PhaseResult::Done { .. } | PhaseResult::Lost { .. } | PhaseResult::Instead { .. } => {
            return None;
        }
    })
}

fn arrival(e: &ArrivalEvent) -> Option<&'static str> {
    Some(match e {
        ArrivalEvent::TurnEnds { .. }
        | ArrivalEvent::ChitsRevealed { .. }
        | ArrivalEvent::NothingArrives { .. } => "7.13.2",
        ArrivalEvent::DwellingAppears {
            in_valley: true, ..
        } => "10.E.1.5",
        ArrivalEvent::DwellingAppears { .. } => "7.13.2c",
        ArrivalEvent::Arrived { .. } => "7.13.3",
    })
}

fn midnight(e: &MidnightEvent) -> &'static str {
    match e {
        MidnightEvent::WeaponUnalerted { .. } => "8.9.2b",
        MidnightEvent::ChitsTurnedDown { .. } => "8.9.5",
        MidnightEvent::VictoryPoints { .. } => "9.3.2",
        MidnightEvent::PotionReturned { .. } => "8.9.2a",
        MidnightEvent::Suicide { .. } => "9.2.2a",
        MidnightEvent::GameEnded { .. } | MidnightEvent::CannotEndGame { .. } => "10.E.3.2",
        MidnightEvent::NotWhereHeStarted { .. } => "10.E.3.3",
    }
}

fn restart(e: &RestartEvent) -> Option<&'static str> {
    Some(match e {
        RestartEvent::Restarted { .. } | RestartEvent::NoInn { .. } => "9.1.2",
        RestartEvent::RestartedAtEdge { .. } => "10.E.1.6",
        RestartEvent::Taken { .. } => "9.1.2b",
        RestartEvent::LeftBehind { .. } => "9.1.1d",
        RestartEvent::PaidInstead { .. } => "9.1.2a",
        // Joining a running game is this tool's campaign play, not a
        // rule of 3.1.
        RestartEvent::CannotEnter { .. } | RestartEvent::Arrived { .. } => return None,
    })
}

fn visitors(e: &VisitorEvent) -> &'static str {
    match e {
        VisitorEvent::VisitorArrives { .. } | VisitorEvent::MissionArrives { .. } => "7.13.5",
        VisitorEvent::Flipped { .. } => "6.3.4",
        VisitorEvent::Mission { what } => match what {
            MissionEvent::MissionTaken { .. } => "7.2.4c",
            MissionEvent::CampaignTaken { .. } => "7.2.4f",
            MissionEvent::NotTaken { .. } => "7.2.4",
            MissionEvent::Dropped { .. } => "7.2.4b",
            MissionEvent::Delivered { .. } => "7.2.4e.4",
            MissionEvent::TimeUp { .. } => "7.2.4d",
            MissionEvent::CampaignWon { .. } => "7.2.4i",
            MissionEvent::Abandoned { .. } | MissionEvent::NotAbandoned { .. } => "7.2.4j",
        },
    }
}

fn site(e: &SiteEvent) -> Option<&'static str> {
    Some(match e {
        SiteEvent::Found { .. } => "7.5.4f",
        SiteEvent::RowRead { .. }
        | SiteEvent::Took { .. }
        | SiteEvent::Gone { .. }
        | SiteEvent::GoldRecorded { .. }
        | SiteEvent::Teleported { .. }
        | SiteEvent::Rested { .. }
        | SiteEvent::MagicWorked { .. }
        | SiteEvent::Granted { .. } => "7.5.2",
        // A row the engine says plainly it does not apply.
        SiteEvent::NotApplied { .. } => return None,
    })
}

/// The Witch's familiar follows her character card, which 3.1's
/// numbered rules do not cover.
fn familiar(e: &FamiliarEvent) -> Option<&'static str> {
    match e {
        FamiliarEvent::TurnStarts { .. }
        | FamiliarEvent::PhaseDone { .. }
        | FamiliarEvent::Rejoined { .. } => None,
    }
}

fn weather(e: &WeatherEvent) -> &'static str {
    match e {
        WeatherEvent::Week { .. } => "10.D.1.4.2",
        WeatherEvent::Rolled { .. } | WeatherEvent::ChitDrawn { .. } => "10.D.1.6",
        WeatherEvent::DaySkipped { .. } => "10.D.1.2.2",
        WeatherEvent::SeasonBegins { .. } => "10.D.1.1",
        WeatherEvent::Fatigued { .. } | WeatherEvent::NothingToFatigue { .. } => "10.D.1.4",
    }
}

/// A GM's ruling is his decision, not a rule of 3.1.
fn ruling(e: &RulingEvent) -> Option<&'static str> {
    match e {
        RulingEvent::Carried { .. } | RulingEvent::Void { .. } => None,
    }
}

fn rearranged(e: &RearrangeEvent) -> &'static str {
    match e {
        RearrangeEvent::Done {
            how: Arrange::Drop, ..
        }
        | RearrangeEvent::NotDone {
            how: Arrange::Drop, ..
        } => "10.A.5.2",
        RearrangeEvent::Done {
            how: Arrange::PickUp,
            at: When::Midnight,
            ..
        }
        | RearrangeEvent::NotDone {
            how: Arrange::PickUp,
            at: When::Midnight,
            ..
        } => "10.A.5.6",
        RearrangeEvent::Done {
            how: Arrange::PickUp,
            ..
        }
        | RearrangeEvent::NotDone {
            how: Arrange::PickUp,
            ..
        } => "10.A.5.4",
        RearrangeEvent::Done { .. } | RearrangeEvent::NotDone { .. } => "7.2.2",
        RearrangeEvent::LoadFell { .. } => "7.3.1i",
    }
}

fn cache(e: &CacheEvent) -> &'static str {
    match e {
        CacheEvent::Put { .. } | CacheEvent::Took { .. } | CacheEvent::NotDone { .. } => "10.A.4.2",
    }
}

fn dealing(e: &DealEvent) -> &'static str {
    match e {
        DealEvent::Exchanged { .. } | DealEvent::Failed { .. } => "7.2.1",
        DealEvent::Told { .. } => "4.5.5",
        DealEvent::SiteShown { .. } => "4.5.5d",
        DealEvent::Spied { .. } => "4.5.6b.3",
    }
}
