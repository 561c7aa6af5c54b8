//! The secrets invariant (issue 21 §3: "hidden things stay hidden in every
//! player's projection"): what lies in a treasure site is face down until a
//! character takes it, so no event a player reads may name a treasure that
//! still lies in a site when the day ends (the GM's history may). A player
//! reads an event when it is public or names him among its observers.
//!
//! The events are read as their stored JSON; a treasure is named when its
//! name stands there as a whole word. A phase that could not be done is
//! not read: its reason cites the rules ("the Vault opens only with the
//! Lost Keys active"), not where a treasure lies.

use crate::game::Observers;
use crate::magic_realm::data::GameData;
use crate::magic_realm::day::events::{DayEvent, Happening, PhaseEvent, PhaseResult};
use crate::magic_realm::state::{ItemKind, MrState};

/// Check what the players read of the day that ended in `after`. `texts`
/// are the events' JSON, in order.
///
/// # Errors
/// The first treasure a player was told of while it lies face down.
pub fn check(
    data: &GameData,
    after: &MrState,
    events: &[DayEvent],
    texts: &[String],
) -> Result<(), String> {
    let face_down: Vec<(&str, &str)> = after
        .holdings
        .iter()
        .filter(|(holder, _)| data.chits.site(holder).is_some())
        .flat_map(|(site, items)| {
            items
                .iter()
                .filter(|item| item.kind == ItemKind::Treasure)
                .map(move |item| (item.name.as_str(), site.as_str()))
        })
        .collect();
    for (event, text) in events.iter().zip(texts) {
        if matches!(
            event.happening,
            Happening::Phase(PhaseEvent::PhaseDone {
                result: PhaseResult::Lost { .. },
                ..
            })
        ) {
            continue;
        }
        let reader = match &event.observers {
            Observers::Gm => continue,
            Observers::Everyone => "every player".to_string(),
            Observers::Players(names) => match names.iter().next() {
                Some(_) => names.iter().cloned().collect::<Vec<_>>().join(", "),
                None => continue,
            },
        };
        if let Some((treasure, site)) = face_down
            .iter()
            .find(|(treasure, _)| names_word(text, treasure))
        {
            return Err(format!(
                "{reader} read of the {treasure}, which lies face down in the {site}: {text}"
            ));
        }
    }
    Ok(())
}

/// Whether `word` stands in `text` with no letter or digit either side.
fn names_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}
