//! The setup (appearance) card of the standard game (`setup_card.toml`):
//! every box by monster-roll row — site boxes with their guardian and
//! treasure piles, monster boxes and the map chits that summon them, roving
//! native groups, garrisons, and the row-6 visitor/mission boxes.
//! [`SetupCard::row`] answers "what does a monster roll of N bring out?".
//!
//! Monsters and natives are named as strings here; the monsters and natives
//! files own them (the cross-file check lives in `data::load`).
//!
//! Rules: the play summary (monster roll, prowling, summoning), `data/chits.toml`,
//! §6.1–6.4.

use super::notation::NotationError;
use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::chits::{Sound, Warning};
use super::terms::{Dwelling, MagicType, TileGroup, join};
use realmgm_core::embedded::{DataError, Source};

pub const FILE: &str = "setup_card.toml";
#[cfg(test)]
const TEXT: &str = include_str!("setup_card.toml");

pub const SITE_BOXES: usize = 8;
pub const MONSTER_BOXES: usize = 21;
pub const NATIVE_BOXES: usize = 5;
pub const GARRISONS: usize = 4;
pub const VISITOR_BOXES: usize = 7;

/// A sound or warning word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ChitWord {
    Sound(Sound),
    Warning(Warning),
}

/// A map chit that summons a box: `Flutter` (any tile) or `Smoke M` (only in
/// that tile group).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ChitMatch {
    pub chit: ChitWord,
    /// `None`: matches in any tile.
    pub tiles: Option<TileGroup>,
}

impl ChitMatch {
    /// Does a chit of this word in a tile of this group match?
    pub fn matches(&self, chit: ChitWord, tile: TileGroup) -> bool {
        self.chit == chit && self.tiles.is_none_or(|t| t == tile)
    }
}

impl TryFrom<String> for ChitMatch {
    type Error = NotationError;

    fn try_from(text: String) -> Result<Self, NotationError> {
        let mut words = text.split_whitespace();
        let word = words.next().unwrap_or_default();
        let letter = words.next();
        if words.next().is_some() {
            return Err(format!(
                "'{text}': write a chit word and at most one tile letter, e.g. \"Smoke M\""
            )
            .into());
        }
        let folded = word.to_lowercase();
        let chit = Sound::ALL
            .into_iter()
            .find(|s| s.word().to_lowercase() == folded)
            .map(ChitWord::Sound)
            .or_else(|| Warning::ALL.into_iter().find(|w| w.word().to_lowercase() == folded).map(ChitWord::Warning))
            .ok_or_else(|| format!("'{word}' is not a sound or warning chit (Flutter, Patter, Slither, Howl, Roar, Bones, Dank, Ruins, Smoke, Stink)"))?;
        let tiles = match letter {
            None => None,
            Some(l) => Some(
                TileGroup::from_letter(l)
                    .ok_or_else(|| format!("'{l}' is not a tile letter (V, W, M or C)"))?,
            ),
        };
        Ok(ChitMatch { chit, tiles })
    }
}

impl From<ChitMatch> for String {
    fn from(m: ChitMatch) -> String {
        m.to_string()
    }
}

impl fmt::Display for ChitMatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self.chit {
            ChitWord::Sound(s) => s.word(),
            ChitWord::Warning(w) => w.word(),
        };
        match self.tiles {
            Some(t) => write!(f, "{word} {}", t.letter()),
            None => f.write_str(word),
        }
    }
}

/// Which half of the card a monster box is printed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Section {
    LostCastle,
    LostCity,
}

/// The box of a site chit: its guardian and the treasure pile dealt to it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteBox {
    /// The site chit (chits.toml).
    pub site: String,
    pub row: u8,
    /// The monster that appears in the site's clearing when the chit is face
    /// up and the row is rolled.
    pub guardian: String,
    #[serde(default)]
    pub large: u8,
    #[serde(default)]
    pub small: u8,
    /// Spells dealt to the site, one per entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spells: Vec<MagicType>,
}

/// A box of monsters summoned by map chits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonsterBox {
    pub name: String,
    pub row: u8,
    pub section: Section,
    /// Boxes sharing this list are emptied one at a time, in file order.
    pub summoned_by: Vec<ChitMatch>,
    pub monsters: Vec<String>,
}

/// A roving native group: appears at a dwelling it visits on its row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeBox {
    pub group: String,
    pub row: u8,
    pub small_treasures: u8,
}

/// A native group that starts at its dwelling and regenerates there on a
/// seventh day when its row is rolled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Garrison {
    pub group: String,
    pub dwelling: Dwelling,
    pub row: u8,
}

/// A row-6 box that takes one visitor/mission chit at setup. The chit comes
/// out where the named group's unhired leader, or the named site or
/// treasure within a treasure, is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VisitorBox {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader_of: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub places: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupCard {
    pub site_box: Vec<SiteBox>,
    pub monster_box: Vec<MonsterBox>,
    pub native_box: Vec<NativeBox>,
    pub garrison: Vec<Garrison>,
    pub visitor_box: Vec<VisitorBox>,
    /// Monsters that prowl every day whatever the roll.
    pub prowl_every_day: Vec<String>,
}

/// Everything one monster roll touches.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row<'a> {
    pub roll: u8,
    pub sites: Vec<&'a SiteBox>,
    pub monster_boxes: Vec<&'a MonsterBox>,
    pub natives: Vec<&'a NativeBox>,
    pub garrisons: Vec<&'a Garrison>,
    /// Only on row 6.
    pub visitor_boxes: Vec<&'a VisitorBox>,
}

impl SetupCard {
    /// What a monster roll of `roll` (1–6) brings out.
    pub fn row(&self, roll: u8) -> Row<'_> {
        Row {
            roll,
            sites: self.site_box.iter().filter(|b| b.row == roll).collect(),
            monster_boxes: self.monster_box.iter().filter(|b| b.row == roll).collect(),
            natives: self.native_box.iter().filter(|b| b.row == roll).collect(),
            garrisons: self.garrison.iter().filter(|b| b.row == roll).collect(),
            visitor_boxes: if roll == 6 {
                self.visitor_box.iter().collect()
            } else {
                Vec::new()
            },
        }
    }

    /// Every native group on the card, roving and garrisons.
    pub fn native_groups(&self) -> BTreeSet<&str> {
        let mut groups: BTreeSet<&str> = self.native_box.iter().map(|b| b.group.as_str()).collect();
        groups.extend(self.garrison.iter().map(|g| g.group.as_str()));
        groups
    }
}

impl Row<'_> {
    pub fn describe(&self) -> String {
        let mut lines = vec![format!("Monster roll {}:", self.roll)];
        for s in &self.sites {
            lines.push(format!("  site {}: guardian {}", s.site, s.guardian));
        }
        for b in &self.monster_boxes {
            lines.push(format!(
                "  {}: {} <- {}",
                b.name,
                join(&b.monsters),
                join(b.summoned_by.iter().map(ToString::to_string))
            ));
        }
        for n in &self.natives {
            lines.push(format!("  natives: {}", n.group));
        }
        for g in &self.garrisons {
            lines.push(format!(
                "  garrison {} regenerates at the {} on a 7th day",
                g.group, g.dwelling
            ));
        }
        for v in &self.visitor_boxes {
            let mut at: Vec<String> = v.leader_of.iter().map(|g| format!("{g} leader")).collect();
            at.extend(v.places.iter().cloned());
            lines.push(format!(
                "  visitor box {}: comes out at {}",
                v.name,
                at.join(" or ")
            ));
        }
        lines.join("\n")
    }
}

/// Parse and check the embedded `setup_card.toml`.
///
/// # Errors
/// A problem naming the file, the box and the field.
pub fn load() -> Result<SetupCard, DataError> {
    parse(realmgm_core::compiled!("setup_card"))
}

/// Parse and check setup-card data given as text.
///
/// # Errors
/// A problem naming the file, the box and the field.
pub fn parse(source: Source<'_>) -> Result<SetupCard, DataError> {
    let card: SetupCard = source.parse(FILE)?;
    let mut sites = BTreeSet::new();
    for b in &card.site_box {
        let entry = format!("site_box \"{}\"", b.site);
        check_row(&entry, b.row)?;
        if !sites.insert(b.site.as_str()) {
            return Err(DataError::entry(
                FILE,
                entry,
                "site",
                "each site has one box",
            ));
        }
        if b.large == 0 && b.small == 0 {
            return Err(DataError::entry(
                FILE,
                entry,
                "large",
                "every site gets treasures",
            ));
        }
    }
    let mut names = BTreeSet::new();
    for b in &card.monster_box {
        let entry = format!("monster_box \"{}\"", b.name);
        check_row(&entry, b.row)?;
        if !names.insert(b.name.as_str()) {
            return Err(DataError::entry(
                FILE,
                entry,
                "name",
                "two boxes share this name",
            ));
        }
        if b.summoned_by.is_empty() {
            return Err(DataError::entry(
                FILE,
                entry,
                "summoned_by",
                "name the chits that summon it",
            ));
        }
        if b.monsters.is_empty() {
            return Err(DataError::entry(
                FILE,
                entry,
                "monsters",
                "a monster box starts with monsters",
            ));
        }
    }
    let mut groups = BTreeSet::new();
    for n in &card.native_box {
        let entry = format!("native_box \"{}\"", n.group);
        check_row(&entry, n.row)?;
        if !groups.insert(n.group.as_str()) {
            return Err(DataError::entry(
                FILE,
                entry,
                "group",
                "each group appears once on the card",
            ));
        }
    }
    for g in &card.garrison {
        let entry = format!("garrison \"{}\"", g.group);
        check_row(&entry, g.row)?;
        if !groups.insert(g.group.as_str()) {
            return Err(DataError::entry(
                FILE,
                entry,
                "group",
                "each group appears once on the card",
            ));
        }
    }
    for v in &card.visitor_box {
        let entry = format!("visitor_box \"{}\"", v.name);
        if v.leader_of.is_none() == v.places.is_empty() {
            return Err(DataError::entry(
                FILE,
                entry,
                "leader_of",
                "give either a native group or the places, not both",
            ));
        }
        if let Some(group) = &v.leader_of
            && !card.native_box.iter().any(|n| &n.group == group)
        {
            return Err(DataError::entry(
                FILE,
                entry,
                "leader_of",
                format!("\"{group}\" is not a roving group on the card"),
            ));
        }
    }
    let counts = [
        ("site_box", card.site_box.len(), SITE_BOXES),
        ("monster_box", card.monster_box.len(), MONSTER_BOXES),
        ("native_box", card.native_box.len(), NATIVE_BOXES),
        ("garrison", card.garrison.len(), GARRISONS),
        ("visitor_box", card.visitor_box.len(), VISITOR_BOXES),
    ];
    for (what, found, expected) in counts {
        if found != expected {
            return Err(DataError::file(
                FILE,
                format!("expected {expected} {what} entries, found {found}"),
            ));
        }
    }
    Ok(card)
}

fn check_row(entry: &str, row: u8) -> Result<(), DataError> {
    if (1..=6).contains(&row) {
        Ok(())
    } else {
        Err(DataError::entry(
            FILE,
            entry,
            "row",
            "rows are monster rolls 1 to 6",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_file_loads() {
        let card = load().unwrap();
        let three = card.row(3);
        assert_eq!(three.sites.len(), 1);
        assert_eq!(three.monster_boxes.len(), 5);
        assert!(card.row(6).describe().contains("visitor box"));
    }

    #[test]
    fn chit_match_reads_and_matches() {
        let m = ChitMatch::try_from("Smoke M".to_string()).unwrap();
        assert!(m.matches(ChitWord::Warning(Warning::Smoke), TileGroup::Mountain));
        assert!(!m.matches(ChitWord::Warning(Warning::Smoke), TileGroup::Cave));
        assert_eq!(m.to_string(), "Smoke M");
        let any = ChitMatch::try_from("flutter".to_string()).unwrap();
        assert!(any.matches(ChitWord::Sound(Sound::Flutter), TileGroup::Woods));
        assert!(ChitMatch::try_from("Smoke X".to_string()).is_err());
        assert!(ChitMatch::try_from("Whisper".to_string()).is_err());
    }

    #[test]
    fn bad_row_names_file_entry_and_field() {
        let text = TEXT.replacen("row = 1", "row = 7", 1);
        let err = parse(Source::Toml(&text)).unwrap_err();
        assert_eq!(err.file, FILE);
        assert_eq!(err.entry.as_deref(), Some("site_box \"Hoard\""), "{err}");
        assert_eq!(err.field.as_deref(), Some("row"));
    }

    #[test]
    fn bad_chit_word_names_the_field() {
        let text = TEXT.replacen("\"Flutter\"", "\"Whisper\"", 1);
        let err = parse(Source::Toml(&text)).unwrap_err();
        assert!(
            err.field.as_deref().unwrap().contains("summoned_by"),
            "{err}"
        );
        assert!(err.message.contains("Whisper"), "{err}");
    }
}
