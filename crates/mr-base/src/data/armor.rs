//! The armour counters (`armor.toml`): helmets, breastplates, shields and
//! suits, what each stops, its vulnerability and its intact, damaged and
//! destroyed prices, and where each counter starts.
//!
//! Rules: the play summary (armour in combat), `combat/harm.rs` and §15.3.

use serde::{Deserialize, Serialize};

use super::terms::{AttackDirection, Strength, counted};
use realmgm_core::embedded::{DataError, Source};

pub const FILE: &str = "armor.toml";
#[cfg(test)]
const TEXT: &str = include_str!("armor.toml");

/// Armour counters listed by the reference, duplicates and the three
/// RealmSpeak-only pieces counted.
pub const COUNTERS: usize = 22;
/// Counters the standard game places at setup.
pub const PLACED_COUNTERS: usize = 19;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ArmorKind {
    Helmet,
    Breastplate,
    Shield,
    Suit,
}

/// What a piece of armour stops.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Protection {
    /// Always these attack directions.
    Directions(Vec<AttackDirection>),
    /// A shield: the one direction of the box it is played in.
    ChosenDirection,
}

impl ArmorKind {
    pub fn protects(self) -> Protection {
        use AttackDirection::{Smash, Swing, Thrust};
        match self {
            ArmorKind::Helmet => Protection::Directions(vec![Smash]),
            ArmorKind::Breastplate => Protection::Directions(vec![Thrust, Swing]),
            ArmorKind::Suit => Protection::Directions(vec![Thrust, Swing, Smash]),
            ArmorKind::Shield => Protection::ChosenDirection,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            ArmorKind::Helmet => "helmet",
            ArmorKind::Breastplate => "breastplate",
            ArmorKind::Shield => "shield",
            ArmorKind::Suit => "suit of armour",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Armor {
    pub name: String,
    pub kind: ArmorKind,
    pub vulnerability: Strength,
    pub weight: Strength,
    pub price: ArmorPrice,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fame: Option<i16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notoriety: Option<i16>,
    /// Found in a treasure within a treasure (Crypt, Mouldy Skeleton).
    #[serde(default)]
    pub treasure: bool,
    /// Where each counter starts, one holder per counter; empty for pieces
    /// the standard setup does not use.
    #[serde(default)]
    pub start: Vec<String>,
    /// Counters in the set (equals `start.len()` for placed pieces).
    pub copies: u8,
    /// Listed by RealmSpeak as original but never placed by the standard
    /// setup (Cap, Buckler, Cuirass): kept for reference, not dealt out.
    #[serde(default)]
    pub not_in_standard_setup: bool,
}

/// Gold prices by condition; treasure armour is also worth gold when
/// destroyed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmorPrice {
    pub intact: u16,
    pub damaged: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destroyed: Option<u16>,
}

impl Armor {
    pub fn protects(&self) -> Protection {
        self.kind.protects()
    }

    pub fn describe(&self) -> String {
        let stops = match self.protects() {
            Protection::Directions(dirs) => {
                dirs.iter().map(|d| d.word()).collect::<Vec<_>>().join(", ")
            }
            Protection::ChosenDirection => "the direction it is played against".to_string(),
        };
        let mut text = format!(
            "{} (x{}): {}{}, stops {stops}; vulnerability {}, weight {}; price {} intact / {} damaged",
            self.name,
            self.copies,
            self.kind.word(),
            if self.treasure {
                " (treasure armour)"
            } else {
                ""
            },
            self.vulnerability,
            self.weight,
            self.price.intact,
            self.price.damaged
        );
        if let Some(destroyed) = self.price.destroyed {
            text.push_str(&format!(" / {destroyed} destroyed"));
        }
        if let (Some(fame), Some(notoriety)) = (self.fame, self.notoriety) {
            text.push_str(&format!("; fame {fame}, notoriety {notoriety}"));
        }
        if self.not_in_standard_setup {
            text.push_str("\n  not placed in the standard game (RealmSpeak extra)");
        } else {
            text.push_str(&format!("\n  starts at: {}", counted(&self.start)));
        }
        text
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmorFile {
    armor: Vec<Armor>,
}

/// Parse and check the embedded `armor.toml`.
///
/// # Errors
/// A problem naming the file, the piece and the field.
pub fn load() -> Result<Vec<Armor>, DataError> {
    parse(realmgm_core::compiled!("armor"))
}

/// Parse and check armour data given as text.
///
/// # Errors
/// A problem naming the file, the piece and the field.
pub fn parse(source: Source<'_>) -> Result<Vec<Armor>, DataError> {
    let file: ArmorFile = source.parse(FILE)?;
    let pieces = file.armor;
    realmgm_core::embedded::check_unique_names(FILE, "armor", &pieces, |x| x.name.as_str())?;
    for a in &pieces {
        let entry = format!("armor \"{}\"", a.name);
        if a.vulnerability.is_negligible() || a.weight.is_negligible() {
            return Err(DataError::entry(
                FILE,
                entry,
                "vulnerability",
                "armour needs a vulnerability and weight letter",
            ));
        }
        if a.price.damaged >= a.price.intact {
            return Err(DataError::entry(
                FILE,
                entry,
                "price.damaged",
                "a damaged piece must be cheaper than an intact one",
            ));
        }
        if a.price.destroyed.is_some_and(|d| d >= a.price.damaged) {
            return Err(DataError::entry(
                FILE,
                entry,
                "price.destroyed",
                "a destroyed piece must be worth less than a damaged one",
            ));
        }
        if a.treasure != a.price.destroyed.is_some() || a.treasure != a.fame.is_some() {
            return Err(DataError::entry(
                FILE,
                entry,
                "treasure",
                "treasure armour (and only it) has fame and a destroyed price",
            ));
        }
        let placed = a.start.len();
        if a.copies == 0 || (!a.not_in_standard_setup && placed != usize::from(a.copies)) {
            return Err(DataError::entry(
                FILE,
                entry,
                "start",
                format!("list one holder per counter ({} copies)", a.copies),
            ));
        }
        if a.not_in_standard_setup && placed != 0 {
            return Err(DataError::entry(
                FILE,
                entry,
                "start",
                "a piece not in the standard setup has no holder",
            ));
        }
    }
    let counters: usize = pieces.iter().map(|a| usize::from(a.copies)).sum();
    let placed: usize = pieces.iter().map(|a| a.start.len()).sum();
    if counters != COUNTERS || placed != PLACED_COUNTERS {
        return Err(DataError::file(
            FILE,
            format!(
                "expected {COUNTERS} armour counters ({PLACED_COUNTERS} placed), found {counters} ({placed} placed)"
            ),
        ));
    }
    Ok(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_file_loads() {
        let pieces = load().unwrap();
        let helmet = pieces.iter().find(|a| a.name == "Helmet").unwrap();
        assert_eq!(helmet.copies, 6);
        assert_eq!(
            helmet.protects(),
            Protection::Directions(vec![AttackDirection::Smash])
        );
    }

    #[test]
    fn bad_price_names_file_entry_and_field() {
        let text = TEXT.replacen("damaged = 12", "damaged = 40", 1);
        let err = parse(Source::Toml(&text)).unwrap_err();
        assert_eq!(err.file, FILE);
        assert_eq!(err.entry.as_deref(), Some("armor \"Armor\""), "{err}");
        assert_eq!(err.field.as_deref(), Some("price.damaged"), "{err}");
    }

    #[test]
    fn unknown_kind_names_the_field() {
        let text = TEXT.replacen("kind = \"helmet\"", "kind = \"hat\"", 1);
        let err = parse(Source::Toml(&text)).unwrap_err();
        assert!(err.field.as_deref().unwrap().ends_with(".kind"), "{err}");
    }
}
