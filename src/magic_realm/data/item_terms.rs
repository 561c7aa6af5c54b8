//! Small vocabularies shared by the item, magic and setup data files:
//! strength letters, magic colours, spell types, tile groups, attack
//! directions, activities and the die tables a treasure can change.
//!
//! Rules: seed 000 (weights, harm, colour magic), TABLES.md §0, §7.1, §15.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One step of the Negligible < L < M < H < T scale. The game uses the same
/// letters for an item's weight, a weapon's harm and an armour's
/// vulnerability.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum Strength {
    /// No letter printed (`-` in the data files).
    #[default]
    #[serde(rename = "-")]
    Negligible,
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
    /// The printed letter (`-` for negligible).
    pub fn letter(self) -> &'static str {
        match self {
            Strength::Negligible => "-",
            Strength::Light => "L",
            Strength::Medium => "M",
            Strength::Heavy => "H",
            Strength::Tremendous => "T",
        }
    }

    pub fn is_negligible(&self) -> bool {
        *self == Strength::Negligible
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

/// The five colours of magic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MagicColour {
    White,
    Gray,
    Gold,
    Purple,
    Black,
}

impl MagicColour {
    pub const ALL: [MagicColour; 5] = [
        MagicColour::White,
        MagicColour::Gray,
        MagicColour::Gold,
        MagicColour::Purple,
        MagicColour::Black,
    ];

    pub fn word(self) -> &'static str {
        match self {
            MagicColour::White => "white",
            MagicColour::Gray => "gray",
            MagicColour::Gold => "gold",
            MagicColour::Purple => "purple",
            MagicColour::Black => "black",
        }
    }
}

impl fmt::Display for MagicColour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// The eight types of magic (I–VIII) that spells, Magic chits, artifacts and
/// spell books carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum SpellType {
    I,
    II,
    III,
    IV,
    V,
    VI,
    VII,
    VIII,
}

impl SpellType {
    pub const ALL: [SpellType; 8] = [
        SpellType::I,
        SpellType::II,
        SpellType::III,
        SpellType::IV,
        SpellType::V,
        SpellType::VI,
        SpellType::VII,
        SpellType::VIII,
    ];

    pub fn numeral(self) -> &'static str {
        match self {
            SpellType::I => "I",
            SpellType::II => "II",
            SpellType::III => "III",
            SpellType::IV => "IV",
            SpellType::V => "V",
            SpellType::VI => "VI",
            SpellType::VII => "VII",
            SpellType::VIII => "VIII",
        }
    }
}

impl fmt::Display for SpellType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.numeral())
    }
}

/// The four groups of map tiles; each has its own set of warning chits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TileGroup {
    /// Valley tiles (letter V).
    #[serde(rename = "V")]
    Valley,
    /// Woods tiles (letter W).
    #[serde(rename = "W")]
    Woods,
    /// Mountain group: Cliff, Crag, Deep Woods, Ledges, Mountain (letter M).
    #[serde(rename = "M")]
    Mountain,
    /// Cave group: Borderland, Cavern, Caves, High Pass, Ruins (letter C).
    #[serde(rename = "C")]
    Cave,
}

impl TileGroup {
    pub const ALL: [TileGroup; 4] = [
        TileGroup::Valley,
        TileGroup::Woods,
        TileGroup::Mountain,
        TileGroup::Cave,
    ];

    pub fn letter(self) -> &'static str {
        match self {
            TileGroup::Valley => "V",
            TileGroup::Woods => "W",
            TileGroup::Mountain => "M",
            TileGroup::Cave => "C",
        }
    }

    pub fn from_letter(letter: &str) -> Option<TileGroup> {
        TileGroup::ALL.into_iter().find(|g| g.letter() == letter)
    }

    pub fn word(self) -> &'static str {
        match self {
            TileGroup::Valley => "valley",
            TileGroup::Woods => "woods",
            TileGroup::Mountain => "mountain",
            TileGroup::Cave => "cave",
        }
    }
}

/// The three directions of a melee attack (and of the armour that stops it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AttackDirection {
    Thrust,
    Swing,
    Smash,
}

impl AttackDirection {
    pub fn word(self) -> &'static str {
        match self {
            AttackDirection::Thrust => "thrust",
            AttackDirection::Swing => "swing",
            AttackDirection::Smash => "smash",
        }
    }
}

/// A daytime activity a character records (seed 000, activities).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Activity {
    Move,
    Hide,
    Alert,
    Rest,
    Search,
    Trade,
    Hire,
    Spell,
    Peer,
    /// Any activity the character chooses.
    Any,
}

impl Activity {
    pub fn word(self) -> &'static str {
        match self {
            Activity::Move => "Move",
            Activity::Hide => "Hide",
            Activity::Alert => "Alert",
            Activity::Rest => "Rest",
            Activity::Search => "Search",
            Activity::Trade => "Trade",
            Activity::Hire => "Hire",
            Activity::Spell => "Spell",
            Activity::Peer => "Peer",
            Activity::Any => "any",
        }
    }
}

/// A die table whose rolls an item or spell can change (TABLES.md §0–§5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RollTable {
    /// Every roll the character makes.
    All,
    Hide,
    Peer,
    Locate,
    Loot,
    ReadRunes,
    MagicSight,
    Meeting,
    Missile,
    Wish,
    Curse,
    PowerOfThePit,
    Transform,
    ViolentStorm,
    Lost,
}

impl RollTable {
    pub fn word(self) -> &'static str {
        match self {
            RollTable::All => "all",
            RollTable::Hide => "Hide",
            RollTable::Peer => "Peer",
            RollTable::Locate => "Locate",
            RollTable::Loot => "Loot",
            RollTable::ReadRunes => "Reading Runes",
            RollTable::MagicSight => "Magic Sight",
            RollTable::Meeting => "Meeting",
            RollTable::Missile => "Missile",
            RollTable::Wish => "Wish",
            RollTable::Curse => "Curse",
            RollTable::PowerOfThePit => "Power of the Pit",
            RollTable::Transform => "Transform",
            RollTable::ViolentStorm => "Violent Storm",
            RollTable::Lost => "Lost",
        }
    }
}

/// Join words with commas, for the text descriptions.
pub(crate) fn join<I, S>(items: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    items
        .into_iter()
        .map(|s| s.as_ref().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Names with repeats counted, in first-seen order: `House x3, Guard`.
pub(crate) fn counted(names: &[String]) -> String {
    let mut groups: Vec<(&str, usize)> = Vec::new();
    for name in names {
        match groups.iter_mut().find(|(n, _)| n == name) {
            Some((_, count)) => *count += 1,
            None => groups.push((name, 1)),
        }
    }
    join(groups.iter().map(|(n, c)| {
        if *c > 1 {
            format!("{n} x{c}")
        } else {
            (*n).to_string()
        }
    }))
}
