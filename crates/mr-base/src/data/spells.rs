//! The spells (`spells.toml`): the 47 learnable spells of the original game
//! plus the three spells that live only inside a treasure (Flying Carpet,
//! Dragonfang Necklace, Eye of the Moon), with type, colour, targets,
//! duration, attack values and a short summary.
//!
//! Rules: the magic summary (magic), `tables/search.rs` (spells at sites), §12 (colour).

use serde::{Deserialize, Serialize};

use super::terms::{Colour, MagicType, Strength, TileGroup};
use realmgm_core::embedded::{DataError, Source};

pub const FILE: &str = "spells.toml";
#[cfg(test)]
const TEXT: &str = include_str!("spells.toml");

/// Spells a character can learn and record.
pub const LEARNABLE: usize = 47;
/// Spells bound to one treasure, never learned.
pub const TREASURE_BOUND: usize = 3;

/// The colour of magic a spell needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SpellColour {
    Colour(Colour),
    Any(AnyColour),
}

/// Marker for spells castable with any colour (`"any"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AnyColour {
    Any,
}

impl SpellColour {
    pub fn word(self) -> &'static str {
        match self {
            SpellColour::Colour(c) => c.word(),
            SpellColour::Any(_) => "any colour",
        }
    }
}

/// What a spell may be cast on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpellTarget {
    Character,
    /// One individual (character, hireling or denizen).
    Individual,
    /// One individual attacking or attacked in combat.
    Attacker,
    /// Several individuals, each attacked separately.
    Multiple,
    /// The leader of a group (a character or hired leader).
    Leader,
    Clearing,
    Tile,
    Artifact,
    Weapon,
    Spell,
    Curse,
    /// The caster's own Magic chits.
    MagicChits,
    Demon,
    Monster,
    Bats,
    Goblins,
    Spider,
    Octopus,
    Dragon,
    /// A group of human natives (also giants and ogres).
    HumanGroup,
    SoundChit,
    Weather,
    /// The treasure that carries the spell.
    ItsTreasure,
}

impl SpellTarget {
    /// The target in words ("human group").
    pub fn word(self) -> &'static str {
        match self {
            SpellTarget::Character => "character",
            SpellTarget::Individual => "individual",
            SpellTarget::Attacker => "attacker",
            SpellTarget::Multiple => "several individuals",
            SpellTarget::Leader => "leader",
            SpellTarget::Clearing => "clearing",
            SpellTarget::Tile => "tile",
            SpellTarget::Artifact => "artifact",
            SpellTarget::Weapon => "weapon",
            SpellTarget::Spell => "spell",
            SpellTarget::Curse => "curse",
            SpellTarget::MagicChits => "own Magic chits",
            SpellTarget::Demon => "demon",
            SpellTarget::Monster => "monster",
            SpellTarget::Bats => "bats",
            SpellTarget::Goblins => "goblins",
            SpellTarget::Spider => "spider",
            SpellTarget::Octopus => "octopus",
            SpellTarget::Dragon => "dragon",
            SpellTarget::HumanGroup => "human group",
            SpellTarget::SoundChit => "sound chit",
            SpellTarget::Weather => "weather",
            SpellTarget::ItsTreasure => "its treasure",
        }
    }
}

/// How long a spell's effect lasts, by the seven durations of 3.1 rule
/// 4.6.7: Instant, Attack, Fly and Phase spells have one effect and expire
/// (4.6.7b), Combat spells at Midnight (4.6.7g.1), Day spells at Sunset of
/// the next day (4.6.7g.2), Permanent spells never (4.6.7h).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Duration {
    Instant,
    Attack,
    Combat,
    /// A Fly spell (the seeds' "move" spell): it makes a Fly chit that ends
    /// when it is used (4.6.7e). Stored games and data files saying "move"
    /// still read.
    #[serde(alias = "move")]
    Fly,
    Phase,
    Day,
    Permanent,
}

impl Duration {
    pub fn word(self) -> &'static str {
        match self {
            Duration::Instant => "instant",
            Duration::Attack => "attack",
            Duration::Combat => "combat",
            Duration::Fly => "fly",
            Duration::Phase => "phase",
            Duration::Day => "day",
            Duration::Permanent => "permanent",
        }
    }
}

/// The attack a combat spell makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpellAttack {
    pub harm: Strength,
    #[serde(default)]
    pub stars: u8,
    pub length: u8,
    /// Printed attack time, when the spell has its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<u8>,
    /// Rolled on the Missile table.
    #[serde(default)]
    pub missile: bool,
}

/// One Magic-chit type a spell changes into another for the day.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeChange {
    pub from: MagicType,
    pub to: MagicType,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spell {
    pub name: String,
    /// I–VIII; `None` only for the treasure-bound spells.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub spell_type: Option<MagicType>,
    pub colour: SpellColour,
    pub targets: Vec<SpellTarget>,
    pub duration: Duration,
    /// The treasure that carries this spell when it is not learnable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub treasure: Option<String>,
    /// Can only be cast in clearings of this kind (mountain or cave).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_in: Option<TileGroup>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<SpellAttack>,
    /// Magic-chit types the spell transmutes for the day.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<TypeChange>,
    /// The die table the spell rolls on, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<super::terms::Roll>,
    /// What the spell does, in the project's own words.
    pub summary: String,
}

impl Spell {
    pub fn learnable(&self) -> bool {
        self.spell_type.is_some()
    }

    /// Benevolent under 3.1 10.C.2.2: every Day and Combat spell, and
    /// Peace with Nature, the one Permanent spell that harms nobody.
    pub fn benevolent(&self) -> bool {
        matches!(self.duration, Duration::Day | Duration::Combat)
            || self.name == "Peace with Nature"
    }

    pub fn describe(&self) -> String {
        let kind = match self.spell_type {
            Some(t) => format!("type {t}"),
            None => format!(
                "built into {}",
                self.treasure.as_deref().unwrap_or("a treasure")
            ),
        };
        let targets: Vec<&str> = self.targets.iter().map(|t| t.word()).collect();
        let mut text = format!(
            "{} ({kind}, {}): target {}; lasts {}",
            self.name,
            self.colour.word(),
            targets.join(" or "),
            self.duration.word()
        );
        if let Some(group) = self.only_in {
            text.push_str(&format!("; {} clearings only", group.word()));
        }
        if let Some(a) = &self.attack {
            let speed = a.speed.map(|s| format!(" time {s}")).unwrap_or_default();
            text.push_str(&format!(
                "\n  attack {}{}{speed}, length {}{}",
                a.harm,
                "*".repeat(usize::from(a.stars)),
                a.length,
                if a.missile { ", missile" } else { "" }
            ));
        }
        text.push_str(&format!("\n  {}", self.summary));
        text
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SpellsFile {
    spell: Vec<Spell>,
}

/// Parse and check the embedded `spells.toml`.
///
/// # Errors
/// A problem naming the file, the spell and the field.
pub fn load() -> Result<Vec<Spell>, DataError> {
    parse(realmgm_core::compiled!("spells"))
}

/// Parse and check spell data given as text.
///
/// # Errors
/// A problem naming the file, the spell and the field.
pub fn parse(source: Source<'_>) -> Result<Vec<Spell>, DataError> {
    let file: SpellsFile = source.parse(FILE)?;
    let spells = file.spell;
    realmgm_core::embedded::check_unique_names(FILE, "spell", &spells, |x| x.name.as_str())?;
    for s in &spells {
        let entry = format!("spell \"{}\"", s.name);
        if s.learnable() == s.treasure.is_some() {
            return Err(DataError::entry(
                FILE,
                entry,
                "treasure",
                "give a type (I-VIII) to a learnable spell, or the treasure that carries it, not both",
            ));
        }
        if s.targets.is_empty() {
            return Err(DataError::entry(
                FILE,
                entry,
                "targets",
                "name at least one target",
            ));
        }
        if s.summary.trim().is_empty() {
            return Err(DataError::entry(
                FILE,
                entry,
                "summary",
                "write a short summary",
            ));
        }
        if s.only_in
            .is_some_and(|g| !matches!(g, TileGroup::Mountain | TileGroup::Cave))
        {
            return Err(DataError::entry(
                FILE,
                entry,
                "only_in",
                "spells are limited to mountain (M) or cave (C) clearings",
            ));
        }
        if let Some(a) = &s.attack
            && (a.stars > 3 || a.length > 20 || a.speed.is_some_and(|t| t > 8))
        {
            return Err(DataError::entry(
                FILE,
                entry,
                "attack",
                "stars 0-3, length 0-20, time 0-8",
            ));
        }
    }
    let learnable = spells.iter().filter(|s| s.learnable()).count();
    if learnable != LEARNABLE || spells.len() != LEARNABLE + TREASURE_BOUND {
        return Err(DataError::file(
            FILE,
            format!(
                "expected {LEARNABLE} learnable and {TREASURE_BOUND} treasure-bound spells, found {learnable} and {}",
                spells.len() - learnable
            ),
        ));
    }
    Ok(spells)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_file_loads() {
        let spells = load().unwrap();
        assert_eq!(spells.iter().filter(|s| s.learnable()).count(), LEARNABLE);
        for t in MagicType::ALL {
            assert!(
                spells.iter().any(|s| s.spell_type == Some(t)),
                "no spell of type {t}"
            );
        }
    }

    #[test]
    fn type_and_treasure_together_is_refused() {
        let text = TEXT.replacen(
            "name = \"Make Whole\"",
            "name = \"Make Whole\"\ntreasure = \"Lucky Charm\"",
            1,
        );
        let err = parse(Source::Toml(&text)).unwrap_err();
        assert_eq!(err.file, FILE);
        assert_eq!(err.entry.as_deref(), Some("spell \"Make Whole\""));
        assert_eq!(err.field.as_deref(), Some("treasure"));
    }

    /// 3.1 rule 4.6.7: the seven durations; the seeds' "move" spells are
    /// Fly spells, and a stored "move" still reads.
    #[test]
    fn fly_spells_are_named_as_3_1_names_them() {
        let spells = load().unwrap();
        let broomstick = spells.iter().find(|s| s.name == "Broomstick").unwrap();
        assert_eq!(broomstick.duration, Duration::Fly);
        assert_eq!(broomstick.duration.word(), "fly");
        let stored: Duration = serde_json::from_str("\"move\"").unwrap();
        assert_eq!(stored, Duration::Fly);
        assert_eq!(serde_json::to_string(&Duration::Fly).unwrap(), "\"fly\"");
    }

    #[test]
    fn unknown_duration_names_the_field() {
        let text = TEXT.replacen("duration = \"instant\"", "duration = \"week\"", 1);
        let err = parse(Source::Toml(&text)).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("spell[0].duration"), "{err}");
    }
}
