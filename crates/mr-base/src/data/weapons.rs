//! The weapon counters of the original game (`weapons.toml`): weight,
//! length, both sides' harm, sharpness and attack time, price and where each
//! counter starts.
//!
//! Rules: the play summary (combat, weights), `combat/harm.rs`–15.2.

use serde::{Deserialize, Serialize};

use super::terms::{Strength, counted};
use realmgm_core::embedded::{DataError, Source};

pub const FILE: &str = "weapons.toml";
#[cfg(test)]
const TEXT: &str = include_str!("weapons.toml");

/// Weapon counters in the box (duplicates counted).
pub const COUNTERS: usize = 28;
/// Different weapons.
pub const KINDS: usize = 17;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub name: String,
    pub weight: Strength,
    pub length: u8,
    /// Bows and crossbows: attacks go on the Missile table.
    #[serde(default)]
    pub missile: bool,
    /// Spear and axe may also be thrown.
    #[serde(default)]
    pub throwable: bool,
    #[serde(default)]
    pub two_handed: bool,
    /// Base price in gold.
    pub price: u16,
    /// Fame and notoriety recorded for owning a treasure weapon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fame: Option<i16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notoriety: Option<i16>,
    /// One of the four weapons found in treasures within treasures.
    #[serde(default)]
    pub treasure: bool,
    pub unalerted: WeaponSide,
    pub alerted: WeaponSide,
    /// Where each counter starts in the standard game, one holder per counter
    /// (a dwelling, a native group or a treasure within a treasure).
    pub start: Vec<String>,
}

/// One printed side of a weapon counter.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponSide {
    /// The harm letter; negligible when no letter is printed (the unalerted
    /// Spear, which combat reads as its weight: `HeroWeapon::harm`).
    #[serde(default, skip_serializing_if = "Strength::is_negligible")]
    pub harm: Strength,
    /// Sharpness stars, each raising the harm one level.
    #[serde(default)]
    pub stars: u8,
    /// Attack time when printed; otherwise the Fight chit's time counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<u8>,
}

impl WeaponSide {
    /// The printed form, e.g. `H6*` or `(none) 6`.
    pub fn printed(&self) -> String {
        let harm = if self.harm.is_negligible() {
            "(none) ".to_string()
        } else {
            self.harm.to_string()
        };
        let speed = self.speed.map(|s| s.to_string()).unwrap_or_default();
        format!("{harm}{speed}{}", "*".repeat(usize::from(self.stars)))
            .trim()
            .to_string()
    }
}

impl Weapon {
    /// How many counters of this weapon are in the game.
    pub fn copies(&self) -> usize {
        self.start.len()
    }

    /// A short readable text form.
    pub fn describe(&self) -> String {
        let mut kind = vec![if self.missile { "missile" } else { "melee" }];
        if self.throwable {
            kind.push("throwable");
        }
        if self.two_handed {
            kind.push("two-handed");
        }
        if self.treasure {
            kind.push("treasure weapon");
        }
        let mut text = format!(
            "{} (x{}): {}, weight {}, length {}, price {} gold",
            self.name,
            self.copies(),
            kind.join(", "),
            self.weight,
            self.length,
            self.price
        );
        if let (Some(fame), Some(notoriety)) = (self.fame, self.notoriety) {
            text.push_str(&format!(", fame {fame}, notoriety {notoriety}"));
        }
        text.push_str(&format!(
            "\n  unalerted {}, alerted {}\n  starts at: {}",
            self.unalerted.printed(),
            self.alerted.printed(),
            counted(&self.start)
        ));
        text
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WeaponsFile {
    weapon: Vec<Weapon>,
}

/// Parse and check the embedded `weapons.toml`.
///
/// # Errors
/// A problem naming the file, the weapon and the field.
pub fn load() -> Result<Vec<Weapon>, DataError> {
    parse(realmgm_core::compiled!("weapons"))
}

/// Parse and check weapon data given as text (the embedded file in
/// production, broken variants in tests).
///
/// # Errors
/// A problem naming the file, the weapon and the field.
pub fn parse(source: Source<'_>) -> Result<Vec<Weapon>, DataError> {
    let file: WeaponsFile = source.parse(FILE)?;
    let weapons = file.weapon;
    realmgm_core::embedded::check_unique_names(FILE, "weapon", &weapons, |x| x.name.as_str())?;
    for w in &weapons {
        let entry = format!("weapon \"{}\"", w.name);
        if w.weight.is_negligible() {
            return Err(DataError::entry(
                FILE,
                entry,
                "weight",
                "every weapon has a weight letter",
            ));
        }
        if w.length > 20 {
            return Err(DataError::entry(
                FILE,
                entry,
                "length",
                "lengths run from 0 to 20",
            ));
        }
        if w.start.is_empty() {
            return Err(DataError::entry(
                FILE,
                entry,
                "start",
                "list one holder per counter",
            ));
        }
        for (field, side) in [("unalerted", &w.unalerted), ("alerted", &w.alerted)] {
            if side.stars > 3 {
                return Err(DataError::entry(
                    FILE,
                    &entry,
                    format!("{field}.stars"),
                    "at most 3 sharpness stars",
                ));
            }
            if side.speed.is_some_and(|s| !(0..=8).contains(&s)) {
                return Err(DataError::entry(
                    FILE,
                    &entry,
                    format!("{field}.speed"),
                    "attack times run from 0 to 8",
                ));
            }
        }
        if w.alerted.harm.is_negligible() {
            return Err(DataError::entry(
                FILE,
                entry,
                "alerted.harm",
                "an alerted weapon always shows a harm letter",
            ));
        }
        if w.treasure != (w.fame.is_some() && w.notoriety.is_some()) {
            return Err(DataError::entry(
                FILE,
                entry,
                "treasure",
                "treasure weapons (and only they) give fame and notoriety",
            ));
        }
    }
    let counters: usize = weapons.iter().map(Weapon::copies).sum();
    if weapons.len() != KINDS || counters != COUNTERS {
        return Err(DataError::file(
            FILE,
            format!(
                "expected {KINDS} weapons making {COUNTERS} counters, found {} making {counters}",
                weapons.len()
            ),
        ));
    }
    Ok(weapons)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_file_loads() {
        let weapons = load().unwrap();
        assert_eq!(weapons.len(), KINDS);
        let spear = weapons.iter().find(|w| w.name == "Spear").unwrap();
        assert_eq!(spear.unalerted.printed(), "(none) 6");
        assert_eq!(spear.copies(), 4);
    }

    #[test]
    fn bad_stars_name_file_entry_and_field() {
        let text = TEXT.replacen("stars = 2", "stars = 9", 1);
        let err = parse(Source::Toml(&text)).unwrap_err();
        assert_eq!(err.file, FILE);
        assert!(
            err.entry.as_deref().unwrap().starts_with("weapon \""),
            "{err}"
        );
        assert!(err.field.as_deref().unwrap().ends_with(".stars"), "{err}");
    }

    #[test]
    fn wrong_type_names_the_field() {
        let text = TEXT.replacen("length = 8", "length = \"long\"", 1);
        let err = parse(Source::Toml(&text)).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("weapon[0].length"), "{err}");
    }

    #[test]
    fn missing_counter_is_a_count_error() {
        let text = TEXT.replacen("start = [\"Lancers\", ", "start = [", 1);
        let err = parse(Source::Toml(&text)).unwrap_err();
        assert!(err.message.contains("28 counters"), "{err}");
    }
}
