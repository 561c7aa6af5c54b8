//! The shared vocabulary of the data files: the strength scale (weights,
//! vulnerabilities, harm letters, with RED for a Tremendous monster's red
//! side), the eight magic types, the five colours, the tile groups, the
//! dwellings, attack directions, activities, kinds of die roll, places where
//! an effect works, and a denizen counter's side. Each concept exists once
//! here; every data module uses these.
//!
//! Rule background: the play summary (weights, harm, combat, activities, colour
//! magic), `tables/mod.rs`, `data/tiles.toml`, `combat/harm.rs`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One step of the Negligible < L < M < H < T scale: a weight, a
/// vulnerability, a chit's or horse's strength, a weapon's harm. Ordered, so
/// `Heavy > Medium`. Negligible is printed as no letter (`-` in the files).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum Strength {
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
    pub const ALL: [Strength; 5] = [
        Strength::Negligible,
        Strength::Light,
        Strength::Medium,
        Strength::Heavy,
        Strength::Tremendous,
    ];

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

    /// Parse a printed letter (`-`, `L`, `M`, `H`, `T`).
    pub fn from_letter(letter: &str) -> Option<Strength> {
        Strength::ALL.into_iter().find(|s| s.letter() == letter)
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

/// The eight types of magic (I–VIII) that spells, MAGIC chits, enchanted
/// chits, artifacts and spell books carry.
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

/// The five colours of magic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    White,
    Grey,
    Gold,
    Purple,
    Black,
}

impl Colour {
    pub const ALL: [Colour; 5] = [
        Colour::White,
        Colour::Grey,
        Colour::Gold,
        Colour::Purple,
        Colour::Black,
    ];

    /// The colour a player names, in any case (`grey` or `gray`).
    pub fn named(word: &str) -> Option<Colour> {
        let word = word.trim();
        Colour::ALL
            .into_iter()
            .find(|c| c.word().eq_ignore_ascii_case(word))
            .or_else(|| word.eq_ignore_ascii_case("gray").then_some(Colour::Grey))
    }

    pub fn word(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Grey => "grey",
            Colour::Gold => "gold",
            Colour::Purple => "purple",
            Colour::Black => "black",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// The four groups of map tiles; each takes its own set of warning chits.
/// Deep Woods belongs to the mountain group. Written as a word in the data
/// files (`"valley"`); the compact chit names use the letter (`Smoke M`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TileGroup {
    Valley,
    Woods,
    /// Cliff, Crag, Deep Woods, Ledges, Mountain.
    Mountain,
    /// Borderland, Cavern, Caves, High Pass, Ruins.
    Cave,
}

impl TileGroup {
    pub const ALL: [TileGroup; 4] = [
        TileGroup::Valley,
        TileGroup::Woods,
        TileGroup::Mountain,
        TileGroup::Cave,
    ];

    /// The letter on the warning chits: V, W, M or C.
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

impl fmt::Display for TileGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// The dwellings: where natives live or appear and where characters start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Dwelling {
    Inn,
    House,
    Chapel,
    #[serde(rename = "Guard House")]
    GuardHouse,
    #[serde(rename = "Large Campfire")]
    LargeCampfire,
    #[serde(rename = "Small Campfire")]
    SmallCampfire,
}

impl Dwelling {
    pub const ALL: [Dwelling; 6] = [
        Dwelling::Inn,
        Dwelling::House,
        Dwelling::Chapel,
        Dwelling::GuardHouse,
        Dwelling::LargeCampfire,
        Dwelling::SmallCampfire,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Dwelling::Inn => "Inn",
            Dwelling::House => "House",
            Dwelling::Chapel => "Chapel",
            Dwelling::GuardHouse => "Guard House",
            Dwelling::LargeCampfire => "Large Campfire",
            Dwelling::SmallCampfire => "Small Campfire",
        }
    }

    /// A campfire: a dwelling, but no building (3.1 10.D.1.2.3b).
    pub fn is_campfire(self) -> bool {
        matches!(self, Dwelling::LargeCampfire | Dwelling::SmallCampfire)
    }

    /// The dwelling with this label, ignoring case.
    pub fn from_label(label: &str) -> Option<Dwelling> {
        Dwelling::ALL
            .into_iter()
            .find(|d| d.label().eq_ignore_ascii_case(label))
    }
}

impl fmt::Display for Dwelling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
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

/// A daytime activity, as advantages, treasures and familiars name it
/// (play summary, activities). The orders' own parsed activities live in
/// `orders::activity`.
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
    /// Spell (enchant) activity.
    Spell,
    Follow,
    /// A Search activity rolled on the Peer table.
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
            Activity::Follow => "Follow",
            Activity::Peer => "Peer",
            Activity::Any => "any",
        }
    }
}

/// A kind of die roll that an advantage, treasure or spell changes
/// (`tables/mod.rs`, `tables/magic.rs`). Some kinds cover others: see [`Roll::covers`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Roll {
    /// Every roll the character makes.
    All,
    Hide,
    /// Every search table (Peer, Locate, Loot, Reading Runes, Magic Sight).
    Search,
    Peer,
    Locate,
    Loot,
    ReadRunes,
    MagicSight,
    /// Every Meeting table roll, including those made to trade or hire.
    Meeting,
    /// Meeting rolls made to trade (buy).
    Trade,
    /// Meeting rolls made to hire.
    Hire,
    /// Missile table rolls (bows, crossbows, thrown weapons).
    Missile,
    Wish,
    Curse,
    PowerOfThePit,
    Transform,
    ViolentStorm,
    Lost,
}

impl Roll {
    /// Whether a change to rolls of kind `self` touches a roll of kind
    /// `made`. The engine names the most precise kind (`Trade`, `Loot`).
    pub fn covers(self, made: Roll) -> bool {
        self == made
            || self == Roll::All
            || (self == Roll::Search
                && matches!(
                    made,
                    Roll::Peer | Roll::Locate | Roll::Loot | Roll::ReadRunes | Roll::MagicSight
                ))
            || (self == Roll::Meeting && matches!(made, Roll::Trade | Roll::Hire))
    }

    pub fn word(self) -> &'static str {
        match self {
            Roll::All => "all",
            Roll::Hide => "Hide",
            Roll::Search => "Search",
            Roll::Peer => "Peer",
            Roll::Locate => "Locate",
            Roll::Loot => "Loot",
            Roll::ReadRunes => "Reading Runes",
            Roll::MagicSight => "Magic Sight",
            Roll::Meeting => "Meeting",
            Roll::Trade => "Trade",
            Roll::Hire => "Hire",
            Roll::Missile => "Missile",
            Roll::Wish => "Wish",
            Roll::Curse => "Curse",
            Roll::PowerOfThePit => "Power of the Pit",
            Roll::Transform => "Transform",
            Roll::ViolentStorm => "Violent Storm",
            Roll::Lost => "Lost",
        }
    }
}

/// Where an advantage or a treasure's effect works.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    #[default]
    Anywhere,
    /// Any clearing of a tile named Woods.
    WoodsTile,
    /// A woods clearing, except on the Ruins and the valley tiles.
    WoodsClearing,
    MountainClearing,
    CaveClearing,
    /// The tile holding the Lost City.
    LostCityTile,
    /// The tile holding the Lost Castle.
    LostCastleTile,
    /// The Ruins tile or a tile with a Ruins warning chit.
    Ruins,
    /// The clearing where the item lies (a site card).
    ItsClearing,
}

impl Place {
    /// ` in ...` for descriptions; empty for anywhere.
    pub fn phrase(self) -> &'static str {
        match self {
            Place::Anywhere => "",
            Place::WoodsTile => " in Woods tiles",
            Place::WoodsClearing => " in woods clearings",
            Place::MountainClearing => " in mountain clearings",
            Place::CaveClearing => " in cave clearings",
            Place::LostCityTile => " in the Lost City's tile",
            Place::LostCastleTile => " in the Lost Castle's tile",
            Place::Ruins => " in Ruins tiles",
            Place::ItsClearing => " in its clearing",
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
        assert!(Strength::Light > Strength::Negligible);
        for s in Strength::ALL {
            assert_eq!(Strength::from_letter(s.letter()), Some(s));
        }
        assert_eq!(Strength::from_letter("X"), None);
    }

    #[test]
    fn tile_letters_and_dwelling_labels_round_trip() {
        for g in TileGroup::ALL {
            assert_eq!(TileGroup::from_letter(g.letter()), Some(g));
        }
        assert_eq!(TileGroup::from_letter("X"), None);
        for d in Dwelling::ALL {
            assert_eq!(Dwelling::from_label(d.label()), Some(d));
        }
        assert_eq!(
            Dwelling::from_label("guard house"),
            Some(Dwelling::GuardHouse)
        );
    }

    #[test]
    fn roll_kinds_cover_their_parts() {
        assert!(Roll::Meeting.covers(Roll::Trade));
        assert!(Roll::Search.covers(Roll::ReadRunes));
        assert!(Roll::All.covers(Roll::Missile));
        assert!(!Roll::Trade.covers(Roll::Meeting));
        assert!(!Roll::Search.covers(Roll::Hide));
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
