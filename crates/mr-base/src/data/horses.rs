//! The 34 horses of the original game: the natives' own mounts and the
//! horses that natives and treasure sites hold for sale or as loot. Each has a
//! trot side and a gallop side (move time and strength). Rule background:
//! the play summary (horses in combat and movement), `data/natives.toml`.

use serde::{Deserialize, Serialize};

use super::terms::Strength;
use realmgm_core::embedded::{DataError, Source};

pub const FILE: &str = "horses.toml";
#[cfg(test)]
const TEXT: &str = include_str!("horses.toml");
/// How many horse counters the original game has.
pub const COUNT: usize = 34;

/// Pony, horse (the Rogues' and Patrol's kind) or warhorse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HorseKind {
    Pony,
    Horse,
    Warhorse,
}

impl HorseKind {
    pub fn label(self) -> &'static str {
        match self {
            HorseKind::Pony => "pony",
            HorseKind::Horse => "horse",
            HorseKind::Warhorse => "warhorse",
        }
    }
}

/// One side of a horse counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HorseSide {
    /// Move time (lower is faster).
    #[serde(rename = "move")]
    pub move_speed: u8,
    pub strength: Strength,
}

/// Where a horse is at the start of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "at", rename_all = "lowercase", deny_unknown_fields)]
pub enum HorseStart {
    /// The mount of one native (member name, e.g. `Bashkar 1`).
    Rider { native: String },
    /// Held for sale by a native group's leader.
    Stock { group: String },
    /// Lying at a treasure site (e.g. the Enchanted Meadow).
    Site { site: String },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Horse {
    /// Unique name; horses for sale are numbered within their kind.
    pub name: String,
    pub kind: HorseKind,
    pub vulnerability: Strength,
    #[serde(default)]
    pub armored: bool,
    pub trot: HorseSide,
    pub gallop: HorseSide,
    /// Base price in gold; natives' own mounts have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<u8>,
    pub start: HorseStart,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HorsesFile {
    horses: Vec<Horse>,
}

/// Parse and check `horses.toml`.
///
/// # Errors
/// A broken file, a wrong count, a duplicate name, a value out of range.
pub fn load() -> Result<Vec<Horse>, DataError> {
    parse(FILE, realmgm_core::compiled!("horses"))
}

/// Parse and check horse data from `text` (named `file` in errors).
///
/// # Errors
/// As [`load`].
pub fn parse(file: &str, source: Source<'_>) -> Result<Vec<Horse>, DataError> {
    let horses = source.parse::<HorsesFile>(file)?.horses;
    if horses.len() != COUNT {
        return Err(DataError::file(
            file,
            format!("expected {COUNT} horses, found {}", horses.len()),
        ));
    }
    for (index, horse) in horses.iter().enumerate() {
        let entry = format!("horse \"{}\"", horse.name);
        if horses[..index].iter().any(|h| h.name == horse.name) {
            return Err(DataError::entry(
                file,
                entry,
                "name",
                "this name is used twice",
            ));
        }
        for (field, side) in [("trot.move", horse.trot), ("gallop.move", horse.gallop)] {
            if !(1..=8).contains(&side.move_speed) {
                return Err(DataError::entry(
                    file,
                    &entry,
                    field,
                    "move time must be 1 to 8",
                ));
            }
        }
        match (&horse.start, horse.price) {
            (HorseStart::Rider { .. }, Some(_)) => {
                return Err(DataError::entry(
                    file,
                    entry,
                    "price",
                    "a native's own mount has no price; remove it",
                ));
            }
            (HorseStart::Stock { .. } | HorseStart::Site { .. }, None) => {
                return Err(DataError::entry(
                    file,
                    entry,
                    "price",
                    "a horse that can be bought or found needs a price",
                ));
            }
            _ => {}
        }
    }
    Ok(horses)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_horses_load() {
        let horses = load().unwrap();
        assert_eq!(horses.len(), COUNT);
    }

    #[test]
    fn a_stock_horse_without_price_names_the_entry_and_field() {
        let text = TEXT.replacen("price = 12\n", "", 1);
        let err = parse("horses.toml", Source::Toml(&text)).unwrap_err();
        assert_eq!(err.file, "horses.toml");
        assert_eq!(err.entry.as_deref(), Some("horse \"Pony 1\""));
        assert_eq!(err.field.as_deref(), Some("price"));
    }

    #[test]
    fn a_bad_strength_letter_names_the_line_and_field() {
        let text = TEXT.replacen("strength = \"M\"", "strength = \"Q\"", 1);
        let err = parse("horses.toml", Source::Toml(&text)).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("horses[0].trot.strength"));
        assert!(err.line.is_some());
    }

    #[test]
    fn a_missing_horse_is_a_count_error() {
        let cut = TEXT.find("[[horses]]\nname = \"Bashkar Pony 2\"").unwrap();
        let end = TEXT[cut..].find("\n\n").unwrap() + cut + 2;
        let text = format!("{}{}", &TEXT[..cut], &TEXT[end..]);
        let err = parse("horses.toml", Source::Toml(&text)).unwrap_err();
        assert!(err.message.contains("expected 34"), "{err}");
    }
}
