//! The map chits and what hangs off them (`chits.toml`): sound chits,
//! warning chits per tile group, site chits, the Lost City and Lost Castle,
//! the six dwellings (who lives there, who may turn up), the ghosts, and the
//! row-6 visitor / mission / campaign chits.
//!
//! Rules: the play summary (map chits, dwellings, visitors), `data/setup_card.toml`, §7.2,
//! §7.3.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::terms::{Colour, Dwelling, MagicType, TileGroup, join};
use realmgm_core::embedded::{DataError, Source};

pub const FILE: &str = "chits.toml";
#[cfg(test)]
const TEXT: &str = include_str!("chits.toml");

pub const SOUNDS: usize = 10;
pub const WARNINGS: usize = 20;
pub const SITES: usize = 8;
pub const DWELLINGS: usize = 6;
pub const VISITORS: usize = 4;
pub const GOLD_SPECIALS: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sound {
    Flutter,
    Patter,
    Slither,
    Howl,
    Roar,
}

impl Sound {
    pub const ALL: [Sound; 5] = [
        Sound::Flutter,
        Sound::Patter,
        Sound::Slither,
        Sound::Howl,
        Sound::Roar,
    ];

    pub fn word(self) -> &'static str {
        match self {
            Sound::Flutter => "Flutter",
            Sound::Patter => "Patter",
            Sound::Slither => "Slither",
            Sound::Howl => "Howl",
            Sound::Roar => "Roar",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Warning {
    Bones,
    Dank,
    Ruins,
    Smoke,
    Stink,
}

impl Warning {
    pub const ALL: [Warning; 5] = [
        Warning::Bones,
        Warning::Dank,
        Warning::Ruins,
        Warning::Smoke,
        Warning::Stink,
    ];

    pub fn word(self) -> &'static str {
        match self {
            Warning::Bones => "Bones",
            Warning::Dank => "Dank",
            Warning::Ruins => "Ruins",
            Warning::Smoke => "Smoke",
            Warning::Stink => "Stink",
        }
    }
}

/// A sound chit: summons into the clearing printed on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoundChit {
    /// `Flutter 1` and so on.
    pub name: String,
    pub sound: Sound,
    pub clearing: u8,
}

/// A warning chit of one tile group.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WarningChit {
    /// `Bones V` and so on.
    pub name: String,
    pub warning: Warning,
    pub tiles: TileGroup,
    /// The dwelling revealed with it at setup (valley) or when it turns face
    /// up (woods campfires).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dwelling: Option<Dwelling>,
    /// Ghosts that start in its clearing.
    #[serde(default)]
    pub ghosts: u8,
}

/// How a site must be opened or paid for before looting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SiteAccess {
    /// Must first be opened with the Lost Keys or a T-strength effort.
    OpenWithKeyOrTremendousEffort,
    /// Each Loot costs one fatigued asterisk.
    FatiguePerLoot,
    /// Searching the site costs one fatigued asterisk.
    FatigueToSearch,
}

/// A site (treasure location) chit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteChit {
    pub name: String,
    pub clearing: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<SiteAccess>,
}

/// The Lost City or the Lost Castle: a red chit that becomes five hidden
/// chits when it turns face up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LostChit {
    pub name: String,
    pub clearing: u8,
    /// Site and sound chits hidden under it at setup.
    pub holds: u8,
    /// The tile group it is dealt into, together with four other chits.
    pub tiles: TileGroup,
}

/// A dwelling's chit: a fixed place natives live at or visit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DwellingChit {
    pub name: Dwelling,
    /// The warning chit that reveals it.
    pub warning: String,
    /// The native group that lives here from the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub garrison: Option<String>,
    /// Roving native groups that can appear here.
    pub visited_by: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour_source: Option<Colour>,
    /// Sheltered phases may be used here (campfires give none).
    pub shelter: bool,
    /// Small treasures dealt to it at setup.
    #[serde(default)]
    pub small_treasures: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A visitor chit (gold, row 6); its back is a mission or campaign.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Visitor {
    pub name: String,
    pub other_side: String,
    #[serde(default)]
    pub small_treasures: u8,
    /// Spells dealt to the visitor at setup, one of each type.
    #[serde(default)]
    pub spells: Vec<MagicType>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GoldSpecialKind {
    Mission,
    Campaign,
}

/// A mission or campaign chit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoldSpecial {
    pub name: String,
    pub kind: GoldSpecialKind,
    pub other_side: String,
    /// Days allowed to finish it once taken.
    pub days: u8,
    /// Notoriety printed on the chit, when it has one: what taking it
    /// costs (3.1 7.2.4c, e.1, f).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notoriety: Option<u16>,
    /// Fame taking it costs, when it costs any (the Raid and War, 3.1
    /// 7.2.4f.5, f.7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fame: Option<u16>,
    /// Native groups on the campaign's side.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allies: Vec<String>,
    /// Native groups it is waged against.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enemies: Vec<String>,
    /// Monsters it is waged against (the Quest's dragons).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enemy_monsters: Vec<String>,
}

/// Every map chit and dwelling.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapChits {
    pub sound: Vec<SoundChit>,
    pub warning: Vec<WarningChit>,
    pub site: Vec<SiteChit>,
    pub lost: Vec<LostChit>,
    pub dwelling: Vec<DwellingChit>,
    pub visitor: Vec<Visitor>,
    pub gold_special: Vec<GoldSpecial>,
}

/// One chit of any kind, for listing and lookup.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AnyChit<'a> {
    Sound(&'a SoundChit),
    Warning(&'a WarningChit),
    Site(&'a SiteChit),
    Lost(&'a LostChit),
    Dwelling(&'a DwellingChit),
    Visitor(&'a Visitor),
    GoldSpecial(&'a GoldSpecial),
}

impl<'a> AnyChit<'a> {
    pub fn name(&self) -> &'a str {
        match *self {
            AnyChit::Sound(c) => &c.name,
            AnyChit::Warning(c) => &c.name,
            AnyChit::Site(c) => &c.name,
            AnyChit::Lost(c) => &c.name,
            AnyChit::Dwelling(c) => c.name.label(),
            AnyChit::Visitor(c) => &c.name,
            AnyChit::GoldSpecial(c) => &c.name,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            AnyChit::Sound(c) => {
                format!(
                    "{}: sound chit, summons into clearing {}",
                    c.name, c.clearing
                )
            }
            AnyChit::Warning(c) => {
                let mut text = format!("{}: warning chit for {} tiles", c.name, c.tiles.word());
                if let Some(d) = &c.dwelling {
                    text.push_str(&format!("; reveals the {d}"));
                }
                if c.ghosts > 0 {
                    text.push_str(&format!("; {} ghosts start in its clearing", c.ghosts));
                }
                text
            }
            AnyChit::Site(c) => {
                let access = match c.access {
                    None => "",
                    Some(SiteAccess::OpenWithKeyOrTremendousEffort) => {
                        "; open it first with the Lost Keys or a T effort"
                    }
                    Some(SiteAccess::FatiguePerLoot) => "; fatigue one asterisk per Loot",
                    Some(SiteAccess::FatigueToSearch) => "; fatigue one asterisk to search it",
                };
                format!("{}: site chit, clearing {}{access}", c.name, c.clearing)
            }
            AnyChit::Lost(c) => format!(
                "{}: red chit in clearing {} of a {} tile; holds {} site/sound chits",
                c.name,
                c.clearing,
                c.tiles.word(),
                c.holds
            ),
            AnyChit::Dwelling(d) => {
                let mut text = format!("{}: dwelling revealed by {}", d.name, d.warning);
                if let Some(g) = &d.garrison {
                    text.push_str(&format!("; home of the {g}"));
                }
                text.push_str(&format!("; visited by {}", join(&d.visited_by)));
                if let Some(c) = d.colour_source {
                    text.push_str(&format!("; {c} magic source"));
                }
                if !d.shelter {
                    text.push_str("; no shelter");
                }
                if d.small_treasures > 0 {
                    text.push_str(&format!("; {} small treasures", d.small_treasures));
                }
                if let Some(note) = &d.note {
                    text.push_str(&format!("\n  {note}"));
                }
                text
            }
            AnyChit::Visitor(v) => {
                let mut text = format!("{}: visitor (back: {})", v.name, v.other_side);
                if v.small_treasures > 0 {
                    text.push_str(&format!("; {} small treasures", v.small_treasures));
                }
                if !v.spells.is_empty() {
                    text.push_str(&format!(
                        "; spells of type {}",
                        join(v.spells.iter().map(|t| t.numeral()))
                    ));
                }
                text
            }
            AnyChit::GoldSpecial(g) => {
                let kind = match g.kind {
                    GoldSpecialKind::Mission => "mission",
                    GoldSpecialKind::Campaign => "campaign",
                };
                let mut text = format!(
                    "{}: {kind} (back: {}), {} days",
                    g.name, g.other_side, g.days
                );
                if let Some(n) = g.notoriety {
                    text.push_str(&format!(", notoriety {n}"));
                }
                if !g.allies.is_empty() {
                    text.push_str(&format!("\n  allies: {}", join(&g.allies)));
                }
                let mut enemies = g.enemies.clone();
                enemies.extend(g.enemy_monsters.iter().cloned());
                if !enemies.is_empty() {
                    text.push_str(&format!("\n  against: {}", join(enemies)));
                }
                text
            }
        }
    }
}

impl MapChits {
    /// Every chit, in file order, sounds first.
    pub fn all(&self) -> Vec<AnyChit<'_>> {
        let mut all: Vec<AnyChit<'_>> = Vec::new();
        all.extend(self.sound.iter().map(AnyChit::Sound));
        all.extend(self.warning.iter().map(AnyChit::Warning));
        all.extend(self.site.iter().map(AnyChit::Site));
        all.extend(self.lost.iter().map(AnyChit::Lost));
        all.extend(self.dwelling.iter().map(AnyChit::Dwelling));
        all.extend(self.visitor.iter().map(AnyChit::Visitor));
        all.extend(self.gold_special.iter().map(AnyChit::GoldSpecial));
        all
    }

    pub fn dwelling(&self, name: Dwelling) -> Option<&DwellingChit> {
        self.dwelling.iter().find(|d| d.name == name)
    }

    /// A visitor chit of either game (`Crone II` is the second's Crone,
    /// 3.1 10.E.7.2.1).
    pub fn visitor(&self, name: &str) -> Option<&Visitor> {
        let printed = super::realms::printed(name);
        self.visitor.iter().find(|v| v.name == printed)
    }

    /// A site chit of either game (`Vault II` is the second's Vault, 3.1
    /// 10.E.7.2.1).
    pub fn site(&self, name: &str) -> Option<&SiteChit> {
        let printed = super::realms::printed(name);
        self.site.iter().find(|s| s.name == printed)
    }
}

/// Parse and check the embedded `chits.toml`.
///
/// # Errors
/// A problem naming the file, the chit and the field.
pub fn load() -> Result<MapChits, DataError> {
    parse(realmgm_core::compiled!("chits"))
}

/// Parse and check map-chit data given as text.
///
/// # Errors
/// A problem naming the file, the chit and the field.
pub fn parse(source: Source<'_>) -> Result<MapChits, DataError> {
    let chits: MapChits = source.parse(FILE)?;
    let mut names = BTreeSet::new();
    for chit in chits.all() {
        if !names.insert(chit.name()) {
            return Err(DataError::entry(
                FILE,
                format!("chit \"{}\"", chit.name()),
                "name",
                "two chits share this name",
            ));
        }
    }
    for s in &chits.sound {
        let entry = format!("sound \"{}\"", s.name);
        check_clearing(&entry, s.clearing)?;
        if s.name != format!("{} {}", s.sound.word(), s.clearing) {
            return Err(DataError::entry(
                FILE,
                entry,
                "name",
                "a sound chit is named by its sound and clearing, e.g. \"Roar 6\"",
            ));
        }
    }
    let mut warning_sets = BTreeSet::new();
    for w in &chits.warning {
        let entry = format!("warning \"{}\"", w.name);
        if w.name != format!("{} {}", w.warning.word(), w.tiles.letter()) {
            return Err(DataError::entry(
                FILE,
                entry,
                "name",
                "a warning chit is named by its word and tile letter, e.g. \"Bones V\"",
            ));
        }
        warning_sets.insert((w.warning, w.tiles));
        if let Some(d) = w.dwelling
            && chits.dwelling(d).is_none_or(|dw| dw.warning != w.name)
        {
            return Err(DataError::entry(
                FILE,
                entry,
                "dwelling",
                format!("no dwelling \"{d}\" revealed by this chit"),
            ));
        }
    }
    for d in &chits.dwelling {
        let entry = format!("dwelling \"{}\"", d.name);
        let revealed = chits
            .warning
            .iter()
            .any(|w| w.name == d.warning && w.dwelling == Some(d.name));
        if !revealed {
            return Err(DataError::entry(
                FILE,
                entry,
                "warning",
                format!("warning chit \"{}\" does not name this dwelling", d.warning),
            ));
        }
        if d.visited_by.is_empty() {
            return Err(DataError::entry(
                FILE,
                entry,
                "visited_by",
                "name the roving groups that can appear here",
            ));
        }
    }
    for s in &chits.site {
        check_clearing(&format!("site \"{}\"", s.name), s.clearing)?;
    }
    for l in &chits.lost {
        let entry = format!("lost \"{}\"", l.name);
        check_clearing(&entry, l.clearing)?;
        if !matches!(l.tiles, TileGroup::Mountain | TileGroup::Cave) {
            return Err(DataError::entry(
                FILE,
                entry,
                "tiles",
                "the Lost City and Castle go to cave or mountain tiles",
            ));
        }
    }
    for v in &chits.visitor {
        let back = chits.gold_special.iter().find(|g| g.name == v.other_side);
        if back.is_none_or(|g| g.other_side != v.name) {
            return Err(DataError::entry(
                FILE,
                format!("visitor \"{}\"", v.name),
                "other_side",
                format!(
                    "no mission or campaign \"{}\" with this visitor on its back",
                    v.other_side
                ),
            ));
        }
    }
    for g in &chits.gold_special {
        let entry = format!("gold_special \"{}\"", g.name);
        let back_is_visitor = chits
            .visitor(&g.other_side)
            .is_some_and(|v| v.other_side == g.name);
        let back_is_special = chits
            .gold_special
            .iter()
            .any(|o| o.name == g.other_side && o.other_side == g.name && o.name != g.name);
        if !back_is_visitor && !back_is_special {
            return Err(DataError::entry(
                FILE,
                entry,
                "other_side",
                format!("\"{}\" does not have this chit on its back", g.other_side),
            ));
        }
        if !(1..=28).contains(&g.days) {
            return Err(DataError::entry(
                FILE,
                entry,
                "days",
                "between 1 and 28 days",
            ));
        }
    }
    let counts = [
        ("sound", chits.sound.len(), SOUNDS),
        ("warning", chits.warning.len(), WARNINGS),
        ("site", chits.site.len(), SITES),
        ("lost", chits.lost.len(), 2),
        ("dwelling", chits.dwelling.len(), DWELLINGS),
        ("visitor", chits.visitor.len(), VISITORS),
        ("gold_special", chits.gold_special.len(), GOLD_SPECIALS),
        (
            "warning word and tile group pairs",
            warning_sets.len(),
            WARNINGS,
        ),
    ];
    for (what, found, expected) in counts {
        if found != expected {
            return Err(DataError::file(
                FILE,
                format!("expected {expected} {what} entries, found {found}"),
            ));
        }
    }
    Ok(chits)
}

fn check_clearing(entry: &str, clearing: u8) -> Result<(), DataError> {
    if (1..=6).contains(&clearing) {
        Ok(())
    } else {
        Err(DataError::entry(
            FILE,
            entry,
            "clearing",
            "clearings are numbered 1 to 6",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_file_loads() {
        let chits = load().unwrap();
        assert_eq!(
            chits.all().len(),
            SOUNDS + WARNINGS + SITES + 2 + DWELLINGS + VISITORS + GOLD_SPECIALS
        );
        assert_eq!(
            chits.dwelling(Dwelling::Chapel).unwrap().colour_source,
            Some(Colour::White)
        );
    }

    #[test]
    fn bad_clearing_names_file_entry_and_field() {
        let text = TEXT.replacen("clearing = 1", "clearing = 9", 1);
        let err = parse(Source::Toml(&text)).unwrap_err();
        assert_eq!(err.file, FILE);
        assert_eq!(err.entry.as_deref(), Some("sound \"Flutter 1\""), "{err}");
        assert_eq!(err.field.as_deref(), Some("clearing"));
    }

    #[test]
    fn broken_pair_names_the_field() {
        let text = TEXT.replacen("other_side = \"Pillage\"", "other_side = \"Plunder\"", 1);
        let err = parse(Source::Toml(&text)).unwrap_err();
        assert_eq!(err.entry.as_deref(), Some("visitor \"Scholar\""), "{err}");
        assert_eq!(err.field.as_deref(), Some("other_side"));
    }
}
