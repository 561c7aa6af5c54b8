//! The GM's day log in the style of the BIMR day pages (seed 003 history
//! pages; ORDER_FORMATS.md §2.1), built from the day's events only: the
//! monster roll and who prowls first, then per character his place, the
//! recorded line, one line per phase with dice in parentheses and what
//! arrived; then the clearings where combat would start, then Midnight.

use std::fmt::Write;

use super::events::{
    ArrivalEvent, BirdsongEvent, CombatEvent, DayEvent, Happening, MidnightEvent, PhaseEvent,
};

/// The GM log of one day.
pub fn gm_log(events: &[DayEvent]) -> String {
    let mut out = String::new();
    let mut evening = false;
    for event in events {
        let line = match &event.happening {
            Happening::Roll(_) => continue,
            Happening::Birdsong(b) => birdsong(b),
            Happening::Phase(p) => phase(p),
            Happening::Arrival(a) => arrival(a),
            Happening::Combat(c) => {
                let heading = if evening { "" } else { "\nEvening:\n" };
                evening = true;
                format!("{heading}{}", combat(c))
            }
            Happening::Midnight(m) => midnight(m),
        };
        let _ = writeln!(out, "{line}");
    }
    out
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
        ArrivalEvent::NothingArrives { .. } => "  Nothing arrives.".to_string(),
    }
}

fn combat(event: &CombatEvent) -> String {
    match event {
        CombatEvent::WouldStart {
            clearing,
            characters,
            monsters,
            natives,
            note,
        } => {
            let everyone: Vec<&str> = characters
                .iter()
                .chain(monsters)
                .chain(natives)
                .map(String::as_str)
                .collect();
            format!("  {clearing}: {} — {note}.", everyone.join(", "))
        }
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
