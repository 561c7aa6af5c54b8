//! The purse invariant ("gold and fame change only through
//! recorded events"): a character's gold, fame or notoriety may change on
//! a day only when one of that day's events names him and speaks of that
//! record (a sale, a hire, drinks, spoils, a find, a mission, a ruling...),
//! or he was killed or started again, which resets everything. A change
//! that no event tells of is one his player's report would never explain.
//!
//! The events are read as their stored JSON: an event names him when his
//! name is one of its strings, and speaks of a record when the record's
//! word appears in it (a field such as `gold` or `notoriety_lost`, or the
//! words of a line such as "drinks bought for 2 gold").

use crate::magic_realm::combat::log::CombatLine;
use crate::magic_realm::day::events::{CombatEvent, DayEvent, Happening};
use crate::magic_realm::state::MrState;

/// A record of a character changed and no event of his tells of it.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the {character}'s {record} went from {was} to {is}, and no event of his tells of {record}"
)]
pub struct UntoldChange {
    pub character: String,
    /// The record, as the events' JSON names it: gold, fame or notoriety.
    pub record: &'static str,
    pub was: i64,
    pub is: i64,
}

/// Check the records of every character who was in the game all day.
/// `texts` are the events' JSON, in order.
///
/// # Errors
/// The first change no event tells of, in words.
pub fn check(
    before: &MrState,
    after: &MrState,
    events: &[DayEvent],
    texts: &[String],
) -> Result<(), UntoldChange> {
    for now in &after.characters {
        let Some(then) = before.characters.iter().find(|c| c.name == now.name) else {
            continue;
        };
        let quoted = format!("\"{}\"", now.name);
        let his: Vec<(&DayEvent, &String)> = events
            .iter()
            .zip(texts)
            .filter(|(_, text)| text.contains(&quoted))
            .collect();
        let reset = now.dead
            || his.iter().any(|(event, _)| match &event.happening {
                Happening::Restart(_) => true,
                Happening::Combat(CombatEvent::Line { line, .. }) => match line {
                    CombatLine::Died { character, .. } => *character == now.name,
                    CombatLine::Killed { victim, .. } => *victim == now.name,
                    _ => false,
                },
                _ => false,
            });
        if reset {
            continue;
        }
        let records = [
            ("gold", i64::from(then.gold), i64::from(now.gold)),
            ("fame", i64::from(then.fame), i64::from(now.fame)),
            (
                "notoriety",
                i64::from(then.notoriety),
                i64::from(now.notoriety),
            ),
        ];
        for (word, was, is) in records {
            if was != is && !his.iter().any(|(_, text)| text.contains(word)) {
                return Err(UntoldChange {
                    character: now.name.clone(),
                    record: word,
                    was,
                    is,
                });
            }
        }
    }
    Ok(())
}
