//! The GM's day log in the style of the BIMR day pages (BIMR3 rules history
//! pages; the recorded notation in README "Orders"), built from the day's events only: the
//! monster roll and who prowls first, then per character his place, the
//! recorded line, one line per phase with dice in parentheses and what
//! arrived; then the clearings where combat would start, then Midnight.

use std::fmt::Write;

use super::events::{
    ArrivalEvent, BirdsongEvent, CombatEvent, DayEvent, Happening, MidnightEvent, PhaseEvent,
};
use super::hire::HireEvent;
use super::meeting::DealStep;
use super::search::SearchEvent;
use super::trade::TradeEvent;

/// The GM log of one day.
pub fn gm_log(events: &[DayEvent]) -> String {
    let mut out = String::new();
    let mut evening = false;
    for event in events {
        let Some(line) = line(event) else { continue };
        if matches!(event.happening, Happening::Combat(_)) && !evening {
            evening = true;
            out.push_str("\nEvening:\n");
        }
        let _ = writeln!(out, "{line}");
    }
    out
}

/// The log text of one event (it may span lines); `None` for a die roll,
/// which the lines of what it decided already show.
pub fn line(event: &DayEvent) -> Option<String> {
    Some(match &event.happening {
        Happening::Roll(_) => return None,
        Happening::Birdsong(b) => birdsong(b),
        Happening::Phase(p) => phase(p),
        Happening::Arrival(a) => arrival(a),
        Happening::Combat(c) => combat(c),
        Happening::Midnight(m) => midnight(m),
        Happening::Search(e) => search(e),
        Happening::Trade(e) => trade(e),
        Happening::Hire(e) => hire(e),
        Happening::Restart(e) => e.log_line(),
        Happening::Visitors(e) => e.log_line(),
        Happening::TreasureSite(e) => e.log_line(),
        Happening::Familiar(e) => e.log_line(),
        Happening::Magic(e) => e.to_string(),
        Happening::Weather(e) => e.log_line(),
        Happening::Ruling(e) => e.log_line(),
        Happening::Rearranged(e) => e.log_line(),
        Happening::Cache(e) => e.log_line(),
        Happening::Dealing(e) => e.log_line(),
    })
}

fn birdsong(event: &BirdsongEvent) -> String {
    match event {
        BirdsongEvent::DayBegins { day } => format!("Day {day}"),
        BirdsongEvent::Follows { follower, leader } => {
            format!("The {follower} follows the {leader}.")
        }
        BirdsongEvent::CannotFollow {
            follower,
            leader,
            reason,
        } => format!("The {follower} cannot follow the {leader}: {reason}."),
        BirdsongEvent::MonsterRoll { die, prowling } => {
            format!("Monster roll = {die}: {} prowling.", prowling.join(", "))
        }
        BirdsongEvent::Regenerated { row, returned } => {
            if returned.is_empty() {
                format!("Regeneration of row {row}: nothing returns.")
            } else {
                format!(
                    "Regeneration of row {row}: {} return to the setup card.",
                    returned.join(", ")
                )
            }
        }
        BirdsongEvent::NotApplied { what } => format!("Note: {what}."),
        BirdsongEvent::TurnChosen { character, place } => {
            format!("The {character} chooses to take the turn {place}.")
        }
        BirdsongEvent::TurnOrder { order } => format!("Turn order: {}.", order.join(", ")),
    }
}

fn phase(event: &PhaseEvent) -> String {
    match event {
        PhaseEvent::TurnStarts {
            character,
            clearing,
            recorded,
            phases,
            followers,
        } => {
            let mut text = format!("\n{character} in {clearing} ({phases} phases)");
            if !followers.is_empty() {
                let _ = write!(text, ", followed by {}", followers.join(", "));
            }
            let recorded = if recorded.is_empty() {
                "(nothing)"
            } else {
                recorded
            };
            let _ = write!(text, ":\n  Recorded: {recorded}");
            text
        }
        PhaseEvent::HandedOver {
            leader,
            character,
            items,
        } => format!(
            "  {leader} hands the {character} what he carried: {}.",
            items.join(", ")
        ),
        PhaseEvent::PhaseDone {
            number,
            recorded,
            result,
            ..
        } => format!("  {number}. {recorded}: {result}"),
        PhaseEvent::Blocked {
            blocker,
            blocked,
            clearing,
        } => format!("  The {blocker} blocks the {blocked} in {clearing}."),
        PhaseEvent::Landed {
            character,
            clearing,
            die,
        } => format!("  The {character} lands in {clearing} (die {die})."),
        PhaseEvent::HorsesInactive { character, horses } => format!(
            "  In the cave the {character}'s {} become inactive.",
            horses.join(", ")
        ),
        PhaseEvent::FollowersLeft {
            followers, reason, ..
        } => format!("  {} stay behind: {reason}.", followers.join(", ")),
        PhaseEvent::PhasesLeft { count, reason, .. } => {
            format!("  {count} phase(s) not done: {reason}.")
        }
    }
}

fn arrival(event: &ArrivalEvent) -> String {
    match event {
        ArrivalEvent::TurnEnds {
            character,
            clearing,
            hidden,
        } => {
            let how = if *hidden { "hidden" } else { "unhidden" };
            format!("  The {character} ends in {clearing}, {how}.")
        }
        ArrivalEvent::ChitsRevealed { tile, chits } => {
            format!("  Chits turn up in {tile}: {}.", chits.join(", "))
        }
        ArrivalEvent::DwellingAppears { dwelling, clearing } => {
            format!("  The {dwelling} appears in {clearing}.")
        }
        ArrivalEvent::Arrived {
            clearing,
            counters,
            cause,
        } => format!("  {} arrive in {clearing} ({cause}).", counters.join(", ")),
        // Monsters may have come elsewhere on the tile: say where nothing did.
        ArrivalEvent::NothingArrives { character } => {
            format!("  Nothing arrives in the {character}'s clearing.")
        }
    }
}

fn combat(event: &CombatEvent) -> String {
    match event {
        CombatEvent::Line {
            clearing,
            round,
            line,
        } if *round == 0 => format!("  {clearing} before combat: {line}."),
        CombatEvent::Line {
            clearing,
            round,
            line,
        } => format!("  {clearing} round {round}: {line}."),
    }
}

fn midnight(event: &MidnightEvent) -> String {
    match event {
        MidnightEvent::WeaponUnalerted { character } => {
            format!("Midnight: the {character}'s weapon is unalerted.")
        }
        MidnightEvent::ChitsTurnedDown { tile } => {
            format!("Midnight: the chits of {tile} turn face down.")
        }
        MidnightEvent::VictoryPoints { scores, note } => {
            let mut text = format!("Victory points ({note}):");
            for s in scores {
                let _ = write!(
                    text,
                    "\n  {}: {} VP (great treasures {}, spells {}, fame {}, notoriety {}, gold {})",
                    s.character, s.total, s.great_treasures, s.spells, s.fame, s.notoriety, s.gold
                );
            }
            text
        }
    }
}

/// Search results, indented under the phase that made them.
fn search(event: &SearchEvent) -> String {
    let text = match event {
        SearchEvent::Rolled { line, .. } => line.clone(),
        SearchEvent::Chose { choice, .. } => format!("Chooses {choice}."),
        SearchEvent::SawChits { tile, chits, .. } => {
            format!("Sees the chits of {tile}: {}.", chits.join(", "))
        }
        SearchEvent::FoundHiddenEnemies { .. } => "Finds hidden enemies.".to_string(),
        SearchEvent::FoundRoutes { kind, routes, .. } => {
            let routes: Vec<String> = routes.iter().map(|(a, b)| format!("{a}-{b}")).collect();
            if routes.is_empty() {
                format!("Finds no {kind}.")
            } else {
                format!("Finds {kind}s: {}.", routes.join(", "))
            }
        }
        SearchEvent::DiscoveredSites { character, sites } if sites.is_empty() => {
            format!("The {character} finds no site.")
        }
        SearchEvent::DiscoveredSites { character, sites } => {
            format!("The {character} finds {}.", sites.join(", "))
        }
        SearchEvent::Paid { what, .. } => format!("Pays: {what}."),
        SearchEvent::Looted {
            from, item, active, ..
        } => {
            let active = if *active { " and activates it" } else { "" };
            format!("Loots {from}: takes {}{active}.", item.name)
        }
        SearchEvent::FoundNothing {
            from,
            from_top,
            pile,
            ..
        } => {
            format!(
                "Loots {from}: item {from_top} from the top, but the pile holds {pile}; takes nothing."
            )
        }
        SearchEvent::GoldFound { source, gold, .. } => format!("Finds {gold} gold in {source}."),
        SearchEvent::ContentsToPile { from, items } => {
            let names: Vec<&str> = items.iter().map(|i| i.name.as_str()).collect();
            format!("{from} spills {} onto the pile.", names.join(", "))
        }
        SearchEvent::NotApplied { what, reason, .. } => format!("{what}: {reason}."),
    };
    format!("    {text}")
}

/// A Meeting-table deal, shared by Trade and Hire.
fn deal(step: &DealStep) -> String {
    let text = match step {
        DealStep::DrinksBought { group, gold, .. } => {
            format!("Buys drinks for the {group} ({gold} gold).")
        }
        DealStep::Met {
            group,
            lines,
            result,
            declined_opportunity,
            ..
        } => {
            let declined = if *declined_opportunity {
                ", Opportunity declined"
            } else {
                ""
            };
            format!(
                "Meets the {group}: {}{declined} = {result}.",
                lines.join("; ")
            )
        }
        DealStep::NoDeal { group, reason, .. } => format!("No deal with the {group}: {reason}."),
        DealStep::Blocked { character, group } => format!("The {group} block the {character}."),
        DealStep::Refused { character, group } => {
            format!("The {character} refuses to give way; the {group} block him.")
        }
        DealStep::GaveUp { group, points, .. } => format!("Gives up {points} to the {group}."),
    };
    format!("    {text}")
}

fn trade(event: &TradeEvent) -> String {
    match event {
        TradeEvent::Deal(step) => deal(step),
        TradeEvent::Bought {
            group,
            item,
            gold,
            active,
            ..
        } => {
            let active = if *active { ", active" } else { "" };
            format!(
                "    Buys {} from the {group} for {gold} gold{active}.",
                item.name
            )
        }
        TradeEvent::Sold {
            group, item, gold, ..
        } => {
            format!("    Sells {} to the {group} for {gold} gold.", item.name)
        }
        TradeEvent::Taught {
            visitor,
            spell,
            gold,
            ..
        } => format!("    The {visitor} teaches {spell} for {gold} gold."),
    }
}

fn hire(event: &HireEvent) -> String {
    match event {
        HireEvent::Deal(step) => deal(step),
        HireEvent::Hired {
            natives,
            gold,
            days,
            ..
        } => {
            format!(
                "    Hires {} for {gold} gold, {days} days.",
                natives.join(", ")
            )
        }
        HireEvent::TermEnded {
            character,
            native,
            now_at,
        } => {
            format!("The term of {native} with the {character} ends; he is now {now_at}.")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::magic_realm::data::tiles::PathKind;
    use crate::magic_realm::tables::search::SearchChoice;

    #[test]
    fn search_lines_read_as_words_not_identifiers() {
        let line = |event: SearchEvent| search(&event).trim().to_string();
        let none = SearchEvent::FoundRoutes {
            character: "Elf".into(),
            kind: PathKind::Secret,
            routes: Vec::new(),
        };
        assert_eq!(line(none), "Finds no secret passage.");
        let chose = SearchEvent::Chose {
            character: "Elf".into(),
            choice: SearchChoice::DiscoverChits,
        };
        assert_eq!(line(chose), "Chooses discover chits.");
        let sites = SearchEvent::DiscoveredSites {
            character: "Elf".into(),
            sites: Vec::new(),
        };
        assert_eq!(line(sites), "The Elf finds no site.");
        let nothing = ArrivalEvent::NothingArrives {
            character: "Elf".into(),
        };
        assert_eq!(
            arrival(&nothing).trim(),
            "Nothing arrives in the Elf's clearing."
        );
    }
}
