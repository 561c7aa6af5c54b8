//! Letters and numerals shared by characters, monsters, natives and horses:
//! weight/strength/vulnerability (L, M, H, T), harm (which adds a Tremendous
//! monster's RED side) and the eight magic types (I–VIII). Rule background:
//! seed 000 (combat), TABLES.md §15.1.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A size on the L < M < H < T scale: a vulnerability, a chit's strength, a
/// horse's strength or a weight. Ordered, so `Heavy > Medium`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Strength {
    #[serde(rename = "L")]
    Light,
    #[serde(rename = "M")]
    Medium,
    #[serde(rename = "H")]
    Heavy,
    #[serde(rename = "T")]
    Tremendous,
}

impl Strength {
    /// The letter printed on the counters.
    pub fn letter(self) -> &'static str {
        match self {
            Strength::Light => "L",
            Strength::Medium => "M",
            Strength::Heavy => "H",
            Strength::Tremendous => "T",
        }
    }

    /// Parse a printed letter (`L`, `M`, `H`, `T`).
    pub fn from_letter(letter: &str) -> Option<Strength> {
        match letter {
            "L" => Some(Strength::Light),
            "M" => Some(Strength::Medium),
            "H" => Some(Strength::Heavy),
            "T" => Some(Strength::Tremendous),
            _ => None,
        }
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

/// The harm an attack inflicts: a strength, or the RED side of a Tremendous
/// monster, which kills the character it hits whatever his armour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Harm {
    #[serde(rename = "L")]
    Light,
    #[serde(rename = "M")]
    Medium,
    #[serde(rename = "H")]
    Heavy,
    #[serde(rename = "T")]
    Tremendous,
    #[serde(rename = "RED")]
    Red,
}

impl Harm {
    /// The letter printed on the counters.
    pub fn letter(self) -> &'static str {
        match self {
            Harm::Light => "L",
            Harm::Medium => "M",
            Harm::Heavy => "H",
            Harm::Tremendous => "T",
            Harm::Red => "RED",
        }
    }
}

impl fmt::Display for Harm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

/// The eight types of magic (spells, MAGIC chits, enchanted chits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum MagicType {
    I,
    II,
    III,
    IV,
    V,
    VI,
    VII,
    VIII,
}

impl MagicType {
    pub const ALL: [MagicType; 8] = [
        MagicType::I,
        MagicType::II,
        MagicType::III,
        MagicType::IV,
        MagicType::V,
        MagicType::VI,
        MagicType::VII,
        MagicType::VIII,
    ];

    /// The Roman numeral.
    pub fn numeral(self) -> &'static str {
        match self {
            MagicType::I => "I",
            MagicType::II => "II",
            MagicType::III => "III",
            MagicType::IV => "IV",
            MagicType::V => "V",
            MagicType::VI => "VI",
            MagicType::VII => "VII",
            MagicType::VIII => "VIII",
        }
    }

    /// Parse a Roman numeral I–VIII.
    pub fn from_numeral(numeral: &str) -> Option<MagicType> {
        MagicType::ALL.into_iter().find(|t| t.numeral() == numeral)
    }
}

impl fmt::Display for MagicType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.numeral())
    }
}

/// `"*"` repeated once per sharpness star or effort asterisk.
pub fn stars(count: u8) -> String {
    "*".repeat(usize::from(count))
}

/// One side of a monster or native counter: its move time and, unless the
/// side only moves, its attack (harm letter, sharpness stars, attack time;
/// a missile attack; or a spell cast instead of a blow).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DenizenSide {
    /// Move time (lower is faster).
    #[serde(rename = "move")]
    pub move_speed: u8,
    /// Harm of a physical attack; `None` for a side that casts a spell or
    /// does not attack at all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harm: Option<Harm>,
    /// Sharpness stars of the attack.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub stars: u8,
    /// Attack time; `None` when the side does not attack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<u8>,
    /// The attack is a missile (rolled on the Missile table).
    #[serde(default, skip_serializing_if = "is_false")]
    pub missile: bool,
    /// A spell cast as this side's attack (the demons' and the Imp's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spell: Option<String>,
    /// The magic type of that spell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub magic: Option<MagicType>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl DenizenSide {
    /// Whether this side makes any attack.
    pub fn attacks(&self) -> bool {
        self.speed.is_some()
    }

    /// Check the fields agree with each other; on failure returns the field
    /// (relative to the side) and what is wrong.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        let strikes = self.harm.is_some();
        let casts = self.spell.is_some();
        if !(1..=8).contains(&self.move_speed) {
            return Err(("move", "move time must be 1 to 8".into()));
        }
        if self.speed.is_some_and(|speed| speed > 8) {
            return Err(("speed", "attack time must be 0 to 8".into()));
        }
        if self.stars > 3 {
            return Err(("stars", "at most 3 sharpness stars".into()));
        }
        if strikes && casts {
            return Err((
                "spell",
                "a side either strikes (harm) or casts a spell, not both".into(),
            ));
        }
        if (strikes || casts) && self.speed.is_none() {
            return Err(("speed", "an attacking side needs an attack time".into()));
        }
        if !strikes && !casts && (self.speed.is_some() || self.stars > 0 || self.missile) {
            return Err((
                "harm",
                "a side without harm or spell does not attack; remove speed, stars and missile"
                    .into(),
            ));
        }
        if casts != self.magic.is_some() {
            return Err((
                "magic",
                "a spell attack needs a magic type, and only a spell has one".into(),
            ));
        }
        if casts && (self.missile || self.stars > 0) {
            return Err((
                "spell",
                "a spell attack has no stars and is not a missile".into(),
            ));
        }
        Ok(())
    }

    /// Short printed form, e.g. `H5* / move 4`, `casts Curse (VIII) 2 / move 2`.
    pub fn summary(&self) -> String {
        let attack = match (&self.harm, &self.spell, self.speed) {
            (Some(harm), _, Some(speed)) => format!(
                "{harm}{speed}{}{}",
                stars(self.stars),
                if self.missile { " missile" } else { "" }
            ),
            (None, Some(spell), Some(speed)) => format!(
                "casts {spell} ({}) {speed}",
                self.magic.map_or("?", MagicType::numeral)
            ),
            _ => "no attack".to_string(),
        };
        format!("{attack} / move {}", self.move_speed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strengths_are_ordered_and_round_trip() {
        assert!(Strength::Tremendous > Strength::Heavy);
        assert!(Strength::Medium > Strength::Light);
        for s in [
            Strength::Light,
            Strength::Medium,
            Strength::Heavy,
            Strength::Tremendous,
        ] {
            assert_eq!(Strength::from_letter(s.letter()), Some(s));
        }
        assert_eq!(Strength::from_letter("X"), None);
    }

    #[test]
    fn magic_numerals_round_trip() {
        for t in MagicType::ALL {
            assert_eq!(MagicType::from_numeral(t.numeral()), Some(t));
        }
        assert_eq!(MagicType::from_numeral("IX"), None);
        assert_eq!(stars(2), "**");
    }
}
