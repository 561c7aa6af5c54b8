//! The secrets invariant ("hidden things stay hidden in every
//! player's projection"): what lies in a treasure site is face down until a
//! character takes it, so no event a player reads may name a treasure that
//! still lies in a site when the day ends (the GM's history may). A player
//! reads an event when it is public or names him among its observers.
//!
//! The events are read as their stored JSON; a treasure is named when its
//! name stands there as whole words. A phase that could not be done is
//! not read: its reason cites the rules ("the Vault opens only with the
//! Lost Keys active"), not where a treasure lies.

use crate::game::Observers;
use crate::magic_realm::data::GameData;
use crate::magic_realm::day::events::{DayEvent, Happening, PhaseEvent, PhaseResult};
use crate::magic_realm::state::{ItemKind, MrState};

/// A player read of a treasure that lies face down in a site.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reader} read of the {treasure}, which lies face down in the {site}: {text}")]
pub struct SecretRead {
    /// Who read it: "every player", or the players by name.
    pub reader: String,
    pub treasure: String,
    pub site: String,
    /// The event's JSON.
    pub text: String,
}

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
) -> Result<(), SecretRead> {
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
        if let Some((treasure, site)) = named(text, &face_down) {
            return Err(SecretRead {
                reader,
                treasure: treasure.to_string(),
                site: site.to_string(),
                text: text.clone(),
            });
        }
    }
    Ok(())
}

/// The first of `treasures` (name, site) whose name stands in `text` as
/// whole words. Every treasure's name begins with a capital, so only the
/// words of `text` that do are tried: one pass over the text, not one
/// search per treasure, which kept the check from doubling an analysis's
/// time.
fn named<'a>(text: &str, treasures: &[(&'a str, &'a str)]) -> Option<(&'a str, &'a str)> {
    let mut previous: Option<char> = None;
    for (at, c) in text.char_indices() {
        let starts_word = c.is_uppercase() && !previous.is_some_and(char::is_alphanumeric);
        previous = Some(c);
        if !starts_word {
            continue;
        }
        let rest = &text[at..];
        let found = treasures.iter().find(|(name, _)| {
            rest.starts_with(name)
                && !rest[name.len()..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphanumeric)
        });
        if found.is_some() {
            return found.copied();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::named;
    use crate::magic_realm::data;

    #[test]
    fn a_treasure_is_named_only_as_whole_words() {
        let keys = [("Lost Keys", "Vault")];
        assert_eq!(
            named(r#"{"items":["Lost Keys"]}"#, &keys),
            Some(("Lost Keys", "Vault"))
        );
        assert_eq!(named("takes the Lost Keys.", &keys), Some(keys[0]));
        assert_eq!(named("the Lost Keysmith", &keys), None);
        assert_eq!(named("theLost Keys", &keys), None);
        assert_eq!(named("lost keys", &keys), None);
    }

    #[test]
    fn every_treasure_name_begins_with_a_capital_as_the_check_assumes() {
        for treasure in &data::get().unwrap().treasures {
            assert!(
                treasure.name.starts_with(char::is_uppercase),
                "{}",
                treasure.name
            );
        }
    }
}
