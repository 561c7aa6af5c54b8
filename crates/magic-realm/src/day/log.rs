//! The GM's day log in the style of the BIMR day pages (BIMR3 rules history
//! pages; the recorded notation in README "Orders"), built from the day's events only: the
//! monster roll and who prowls first, then per character his place, the
//! recorded line, one line per phase with dice in parentheses and what
//! arrived; then the clearings where combat would start, then Midnight.

use std::fmt::Write;

use realmgm_core::words::{agreeing, counted, listed};

use super::events::{
    ArrivalEvent, BirdsongEvent, CombatEvent, DayEvent, Happening, MidnightEvent, PhaseEvent,
};
use super::familiar::FamiliarEvent;
use super::hire::HireEvent;
use super::meeting::DealStep;
use super::search::SearchEvent;
use super::trade::TradeEvent;
use crate::magic::events::MagicEvent;

/// The GM log of one day.
///
/// A phase's details (its rolls, table rows, meetings, hires, what it set
/// off) follow its numbered line one step deeper, down to the next phase
/// or the end of the turn; the engine puts each phase's line before the
/// events the phase caused. A detail seen without its phase (something a
/// reader watched another character do) stands at the turn's depth.
pub fn gm_log(events: &[DayEvent]) -> String {
    day_log(events, Citations::Shown)
}

/// Whether a log names, after each combat and magic line, the section of
/// the rules of record (release 3.1) it applied: always in the GM's
/// history, in players' reports when the campaign asks for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Citations {
    Shown,
    Hidden,
}

/// The log of one day as [`gm_log`] lays it out, with or without the
/// rules' citations.
pub fn day_log(events: &[DayEvent], citations: Citations) -> String {
    let mut out = String::new();
    let mut evening = false;
    let mut in_phase = false;
    // A turn has just ended: something seen after it that is not part of
    // it starts a paragraph of its own.
    let mut turn_ended = false;
    for event in events {
        let Some(mut text) = line(event) else {
            continue;
        };
        if citations == Citations::Shown
            && let Some(rule) = rule_applied(&event.happening)
        {
            text.push_str(" [3.1 ");
            text.push_str(rule);
            text.push(']');
        }
        if matches!(event.happening, Happening::Combat(_)) && !evening {
            evening = true;
            out.push_str("\nEvening:\n");
        }
        let text = match place(&event.happening) {
            Place::PhaseLine => {
                in_phase = true;
                text
            }
            Place::Frame => {
                in_phase = false;
                turn_ended = matches!(event.happening, Happening::Arrival(_));
                text
            }
            Place::Detail if in_phase => indented(&text, PHASE_DETAIL),
            Place::Detail => {
                let depth = depth_of(&text).min(TURN_DETAIL);
                let text = indented(&text, depth);
                if std::mem::take(&mut turn_ended) {
                    format!("\n{text}")
                } else {
                    text
                }
            }
        };
        let _ = writeln!(out, "{text}");
    }
    out
}

/// The section of the rules an event applied: a combat or magic event
/// names its own, a day event's is [`super::citations::section`]'s;
/// `None` for events that apply no rule and for rolls stored before they
/// named their section.
pub fn rule_applied(happening: &Happening) -> Option<&str> {
    let rule = match happening {
        Happening::Combat(CombatEvent::Line { line, .. }) => line.rule(),
        Happening::Magic(event) => event.rule(),
        day => return super::citations::section(day),
    };
    (!rule.is_empty()).then_some(rule)
}

/// Where an event's text stands in the log.
enum Place {
    /// A phase's numbered line: what follows is its detail.
    PhaseLine,
    /// The day's and the turn's own lines, which close any phase.
    Frame,
    /// Something a phase set off, or something seen happen.
    Detail,
}

/// Spaces before a turn's lines (`Recorded:`, numbered phases).
const TURN_DETAIL: usize = 2;
/// Spaces before a phase's details: one step deeper than its line.
const PHASE_DETAIL: usize = 4;

/// Where the text of `happening` stands.
fn place(happening: &Happening) -> Place {
    match happening {
        Happening::Phase(PhaseEvent::PhaseDone { .. })
        | Happening::Familiar(FamiliarEvent::PhaseDone { .. })
        | Happening::Magic(MagicEvent::PhantasmPhase { .. }) => Place::PhaseLine,
        Happening::Phase(
            PhaseEvent::TurnStarts { .. }
            | PhaseEvent::PhasesLeft { .. }
            | PhaseEvent::StruckForLeader { .. }
            | PhaseEvent::HandedOver { .. }
            | PhaseEvent::KeptFromHandOver { .. },
        )
        | Happening::Familiar(FamiliarEvent::TurnStarts { .. } | FamiliarEvent::Rejoined { .. })
        | Happening::Magic(MagicEvent::PhantasmTurn { .. })
        | Happening::Birdsong(_)
        | Happening::Arrival(_)
        | Happening::Combat(_)
        | Happening::Midnight(_) => Place::Frame,
        _ => Place::Detail,
    }
}

/// The fewest spaces any non-blank line of `text` starts with.
fn depth_of(text: &str) -> usize {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0)
}

/// `text` moved so its shallowest line starts `depth` spaces in; deeper
/// lines keep their depth relative to it.
pub fn indented(text: &str, depth: usize) -> String {
    let shift = depth_of(text);
    text.lines()
        .map(|l| {
            if l.trim().is_empty() {
                String::new()
            } else {
                format!("{}{}", " ".repeat(depth), &l[shift..])
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
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
        Happening::AutoEnchant(e) => e.log_line(),
        Happening::Development(e) => e.log_line(),
    })
}

/// The kind of a happening, as the report's JSON names it.
pub fn kind(happening: &Happening) -> &'static str {
    match happening {
        Happening::Roll(_) => "roll",
        Happening::Birdsong(_) => "birdsong",
        Happening::Phase(_) => "phase",
        Happening::Arrival(_) => "arrival",
        Happening::Combat(_) => "combat",
        Happening::Midnight(_) => "midnight",
        Happening::Search(_) => "search",
        Happening::Trade(_) => "trade",
        Happening::Hire(_) => "hire",
        Happening::Restart(_) => "restart",
        Happening::Visitors(_) => "visitors",
        Happening::TreasureSite(_) => "treasure_site",
        Happening::Familiar(_) => "familiar",
        Happening::Magic(_) => "magic",
        Happening::Weather(_) => "weather",
        Happening::Ruling(_) => "ruling",
        Happening::Rearranged(_) => "rearranged",
        Happening::Cache(_) => "cache",
        Happening::Dealing(_) => "dealing",
        Happening::AutoEnchant(_) => "auto_enchant",
        Happening::Development(_) => "development",
    }
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
        BirdsongEvent::SecondMonsterRoll {
            die, doubles: true, ..
        } => format!("Second monster roll = {die}: doubles, so that row alone prowls."),
        BirdsongEvent::SecondMonsterRoll { die, prowling, .. } => {
            format!(
                "Second monster roll = {die}: {} prowling too.",
                prowling.join(", ")
            )
        }
        BirdsongEvent::Regenerated { row, returned } => {
            if returned.is_empty() {
                format!("Regeneration of row {row}: nothing returns.")
            } else {
                format!(
                    "Regeneration of row {row}: {} {} to the setup card.",
                    listed(returned),
                    agreeing(returned.len(), "returns", "return")
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
            no_orders,
            phases,
            followers,
        } => {
            let mut text = format!("\n{character} in {clearing} ({phases} phases)");
            if !followers.is_empty() {
                let _ = write!(text, ", followed by {}", listed(followers));
            }
            text.push(':');
            if *no_orders {
                text.push_str("\n  No orders received: the day is spent hiding.");
            }
            let recorded = if recorded.is_empty() {
                "(nothing)"
            } else {
                recorded
            };
            let _ = write!(text, "\n  Recorded: {recorded}");
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
        PhaseEvent::KeptFromHandOver {
            leader,
            character,
            items,
            reason,
        } => format!(
            "  {leader} keeps what the {character} would be handed ({}): {reason}.",
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
            "  In the cave the {character}'s {} {} inactive.",
            listed(horses),
            agreeing(horses.len(), "becomes", "become")
        ),
        PhaseEvent::FollowersLeft {
            followers, reason, ..
        } => format!(
            "  {} {} behind: {reason}.",
            listed(followers),
            agreeing(followers.len(), "stays", "stay")
        ),
        PhaseEvent::StruckForLeader {
            leader,
            phases,
            monster,
            transmorphized,
        } => format!(
            "  The {leader}'s recorded {} {} struck: {}{}.",
            phases.join(", "),
            agreeing(phases.len(), "is", "are"),
            if *monster {
                "a controlled monster does not Alert, Rest, Enchant, Trade or Hire, and has no \
                 extra phases"
            } else {
                "a hired leader does not Alert, Rest or Enchant for himself, and his only extra \
                 phases are his native horse's Moves"
            },
            if *transmorphized {
                "; transmorphized, he does not Trade or Hire either, nor Search as mist (3.1 4.6.9c)"
            } else {
                ""
            }
        ),
        PhaseEvent::PhasesLeft {
            character,
            count,
            reason,
        } => {
            let phases = if *count == 1 {
                "phase is".to_string()
            } else {
                format!("{count} phases are")
            };
            format!("  The {character}'s last {phases} not done: {reason}.")
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
        ArrivalEvent::DwellingAppears {
            dwelling, clearing, ..
        } => {
            format!("  The {dwelling} appears in {clearing}.")
        }
        ArrivalEvent::Arrived {
            clearing,
            counters,
            cause,
        } => format!(
            "  {} {} in {clearing} ({cause}).",
            listed(counters),
            agreeing(counters.len(), "arrives", "arrive")
        ),
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
        MidnightEvent::PotionReturned {
            character,
            potion,
            to,
        } => format!("Midnight: the {character}'s {potion} expires and goes back to the {to}."),
        MidnightEvent::Suicide {
            character,
            rejoins_on,
        } => {
            format!(
                "Midnight: the {character} dies by suicide. The player may start over on day \
                 {rejoins_on} at the earliest."
            )
        }
        MidnightEvent::GameEnded { character } => format!(
            "Midnight: the {character} meets every victory requirement and ends the game \
             (Sudden Death)."
        ),
        MidnightEvent::NotWhereHeStarted { character, start } => format!(
            "Midnight: the {character} cannot end the game here, only in {start}, the starting \
             place."
        ),
        MidnightEvent::CannotEndGame { character, short } => format!(
            "Midnight: the {character} cannot end the game yet, falling short in {}.",
            realmgm_core::words::listed(short)
        ),
        MidnightEvent::VictoryPoints {
            scores,
            note,
            players,
            victor_by_chits,
        } => {
            let mut text = format!("Victory points ({note}):");
            for s in scores {
                let _ = write!(
                    text,
                    "\n  {}: {} VP (great treasures {}, spells {}, fame {}, notoriety {}, gold {})",
                    s.character, s.total, s.great_treasures, s.spells, s.fame, s.notoriety, s.gold
                );
            }
            if *victor_by_chits {
                // The chits earned name the victor, in their own line.
            } else if players.is_empty() {
                text.push_str(&super::victory::outcome(scores));
            } else {
                text.push_str(&super::victory::players_outcome(players));
            }
            text
        }
    }
}

/// Search results, indented under the phase that made them.
fn search(event: &SearchEvent) -> String {
    let text = match event {
        SearchEvent::Rolled { line, .. } => line.clone(),
        SearchEvent::Chose { character, choice } => format!("The {character} chooses {choice}."),
        SearchEvent::SawChits {
            character,
            tile,
            chits,
        } => {
            format!(
                "The {character} sees the chits of {tile}: {}.",
                chits.join(", ")
            )
        }
        SearchEvent::SeesHiddenOwning { character, sight } => {
            format!(
                "The {character} sees, for the rest of the day, the hidden enemies who own {sight}."
            )
        }
        SearchEvent::FoundHiddenEnemies { character } => {
            format!("The {character} finds hidden enemies.")
        }
        SearchEvent::FoundRoutes {
            character,
            kind,
            routes,
        } => {
            let routes: Vec<String> = routes.iter().map(|(a, b)| format!("{a}-{b}")).collect();
            if routes.is_empty() {
                format!("The {character} finds no {kind}.")
            } else {
                format!("The {character} finds {kind}s: {}.", routes.join(", "))
            }
        }
        SearchEvent::DiscoveredSites { character, sites } if sites.is_empty() => {
            format!("The {character} finds no site.")
        }
        SearchEvent::DiscoveredSites { character, sites } => {
            format!("The {character} finds {}.", sites.join(", "))
        }
        SearchEvent::Paid { character, what } => format!("The {character} pays: {what}."),
        SearchEvent::Looted {
            character,
            from,
            item,
            active,
        } => {
            let active = if *active { " and activates it" } else { "" };
            format!(
                "The {character} loots {}: takes the {}{active}.",
                pile(from),
                item.name
            )
        }
        SearchEvent::FoundNothing {
            character,
            from,
            from_top,
            pile: held,
        } => {
            format!(
                "The {character} loots {}: item {from_top} from the top, but the pile holds \
                 {}; takes nothing.",
                pile(from),
                counted(*held, "item", "items")
            )
        }
        SearchEvent::GoldFound {
            character,
            source,
            gold,
        } => format!("The {character} finds {gold} gold in {source}."),
        SearchEvent::ContentsToPile { from, items } => {
            let names: Vec<&str> = items.iter().map(|i| i.name.as_str()).collect();
            format!("The {from} spills {} onto the pile.", listed(&names))
        }
        SearchEvent::NotApplied { what, reason, .. } => format!("{what}: {reason}."),
    };
    format!("    {text}")
}

/// A treasure pile as a sentence names it: a site, or what was abandoned
/// in a clearing (`state::abandoned_pile`).
fn pile(name: &str) -> String {
    match name.strip_prefix("Abandoned in ") {
        Some(clearing) => format!("the pile abandoned in {clearing}"),
        None => format!("the {name}"),
    }
}

/// A Meeting-table deal, shared by Trade and Hire.
fn deal(step: &DealStep) -> String {
    let text = match step {
        DealStep::DrinksBought {
            character,
            group,
            gold,
        } => {
            format!("The {character} buys drinks for the {group} ({gold} gold).")
        }
        DealStep::NoDrinks {
            character,
            group,
            reason,
        } => format!("The {character} buys no drinks for the {group}: {reason}."),
        DealStep::Met {
            character,
            group,
            lines,
            result,
            declined_opportunity,
            ..
        } => {
            // The last roll's row is the result, unless an Opportunity was
            // declined: then the result is the column's own.
            let declined = if *declined_opportunity {
                format!(", Opportunity declined = {result}")
            } else {
                String::new()
            };
            format!(
                "The {character} meets the {group}: {}{declined}.",
                lines.join("; ")
            )
        }
        DealStep::NoDeal {
            character,
            group,
            reason,
        } => format!("No deal between the {character} and the {group}: {reason}."),
        DealStep::Blocked { character, group } => format!("The {group} block the {character}."),
        DealStep::Refused { character, group } => {
            format!("The {character} refuses to give way and is blocked by the {group}.")
        }
        DealStep::GaveUp {
            character,
            group,
            points,
        } => format!("The {character} gives up {points} to the {group}."),
        DealStep::Moved {
            character,
            group,
            levels,
            now,
            cause,
        } => {
            let way = if *levels < 0 { "colder" } else { "warmer" };
            format!(
                "The {group} grow {} {way} to the {character}, now {}: {}.",
                realmgm_core::words::counted(u32::from(levels.unsigned_abs()), "level", "levels"),
                now.label(),
                cause.words(character)
            )
        }
    };
    format!("    {text}")
}

fn trade(event: &TradeEvent) -> String {
    match event {
        TradeEvent::Deal(step) => deal(step),
        TradeEvent::Bought {
            character,
            group,
            item,
            gold,
            active,
        } => {
            let active = if *active { ", active" } else { "" };
            format!(
                "    The {character} buys {} from the {group} for {gold} gold{active}.",
                item.name
            )
        }
        TradeEvent::Sold {
            character,
            group,
            item,
            gold,
            rolls,
        } => {
            let rolls = if rolls.is_empty() {
                String::new()
            } else {
                format!(" ({})", rolls.join("; "))
            };
            format!(
                "    The {character} sells {} to the {group} for {gold} gold{rolls}.",
                item.name
            )
        }
        TradeEvent::FameReward {
            character,
            group,
            card,
            fame,
        } => {
            if *fame >= 0 {
                format!("    The {character} earns {fame} fame for the {card} from the {group}.")
            } else {
                format!(
                    "    The {character} loses {} fame for taking the {card} from the {group}.",
                    -fame
                )
            }
        }
        TradeEvent::Taught {
            character,
            visitor,
            spell,
            gold,
        } => format!("    The {visitor} teaches the {character} {spell} for {gold} gold."),
    }
}

fn hire(event: &HireEvent) -> String {
    match event {
        HireEvent::Deal(step) => deal(step),
        HireEvent::Hired {
            character,
            natives,
            gold,
            days,
        } => {
            format!(
                "    The {character} hires {} for {gold} gold, {days} days.",
                listed(natives)
            )
        }
        HireEvent::Rehired {
            character,
            natives,
            gold,
            days,
        } => {
            format!(
                "    The {character} hires {} again for {gold} gold, {days} more days.",
                listed(natives)
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
    use crate::data::tiles::PathKind;
    use crate::tables::search::SearchChoice;

    #[test]
    fn search_lines_read_as_words_not_identifiers() {
        let line = |event: SearchEvent| search(&event).trim().to_string();
        let none = SearchEvent::FoundRoutes {
            character: "Elf".into(),
            kind: PathKind::Secret,
            routes: Vec::new(),
        };
        assert_eq!(line(none), "The Elf finds no secret passage.");
        let chose = SearchEvent::Chose {
            character: "Elf".into(),
            choice: SearchChoice::DiscoverChits,
        };
        assert_eq!(line(chose), "The Elf chooses discover chits.");
        let sites = SearchEvent::DiscoveredSites {
            character: "Elf".into(),
            sites: Vec::new(),
        };
        assert_eq!(line(sites), "The Elf finds no site.");
        let looted = SearchEvent::Looted {
            character: "Wizard".into(),
            from: crate::state::abandoned_pile(&crate::board::ClearingId {
                tile: "BV".into(),
                clearing: 5,
            }),
            item: crate::state::Item {
                kind: crate::state::ItemKind::Armor,
                name: "Helmet".into(),
            },
            active: false,
        };
        assert_eq!(
            line(looted),
            "The Wizard loots the pile abandoned in BV5: takes the Helmet."
        );
        let nothing = ArrivalEvent::NothingArrives {
            character: "Elf".into(),
        };
        assert_eq!(
            arrival(&nothing).trim(),
            "Nothing arrives in the Elf's clearing."
        );
    }

    #[test]
    fn verbs_agree_with_how_many_are_named() {
        let names = |list: &[&str]| list.iter().map(ToString::to_string).collect::<Vec<_>>();
        let left = |followers: &[&str]| {
            phase(&PhaseEvent::FollowersLeft {
                character: "Swordsman".into(),
                followers: names(followers),
                reason: "left where they stand, as ordered".into(),
            })
        };
        assert_eq!(
            left(&["Rogue 7"]).trim(),
            "Rogue 7 stays behind: left where they stand, as ordered."
        );
        assert_eq!(
            left(&["Rogue 5", "Rogue 6"]).trim(),
            "Rogue 5 and Rogue 6 stay behind: left where they stand, as ordered."
        );
        let regenerated = |returned: &[&str]| {
            birdsong(&BirdsongEvent::Regenerated {
                row: 2,
                returned: names(returned),
            })
        };
        assert_eq!(
            regenerated(&["Rogue 5"]),
            "Regeneration of row 2: Rogue 5 returns to the setup card."
        );
        assert_eq!(
            regenerated(&["Rogue 5", "Rogue 6", "Rogue HQ"]),
            "Regeneration of row 2: Rogue 5, Rogue 6 and Rogue HQ return to the setup card."
        );
        let phases_left = |count| {
            phase(&PhaseEvent::PhasesLeft {
                character: "Swordsman".into(),
                count,
                reason: "blocked".into(),
            })
        };
        let horses = phase(&PhaseEvent::HorsesInactive {
            character: "Amazon".into(),
            horses: names(&["Pony 1"]),
        });
        assert_eq!(
            horses.trim(),
            "In the cave the Amazon's Pony 1 becomes inactive."
        );
        assert_eq!(
            phases_left(1).trim(),
            "The Swordsman's last phase is not done: blocked."
        );
        assert_eq!(
            phases_left(3).trim(),
            "The Swordsman's last 3 phases are not done: blocked."
        );
    }
}
