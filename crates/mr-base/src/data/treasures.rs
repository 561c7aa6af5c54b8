//! The 74 treasure cards (`treasures.toml`): size, great, fame, notoriety,
//! price, weight, who pays fame or gold for them, the six treasures within
//! treasures and, as typed [`TreasureEffect`]s, what each one does.
//!
//! Rules: the play summary (treasures, scoring), the magic summary (artifacts, spell books),
//! `tables/mod.rs` (die modifiers), §3.1–3.2 (sites and treasures within
//! treasures), §12 (colour sources).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::chits::Warning;
use super::terms::{
    Activity, AttackDirection, Colour, MagicType, Place, Roll, Strength, TileGroup, join,
};
use realmgm_core::embedded::{DataError, Source};

pub const FILE: &str = "treasures.toml";
#[cfg(test)]
const TEXT: &str = include_str!("treasures.toml");

pub const TREASURES: usize = 74;
pub const LARGE: usize = 29;
pub const SMALL: usize = 45;
/// Treasures within treasures, numbered 1 to 6.
pub const WITHIN: usize = 6;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TreasureSize {
    Large,
    Small,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Treasure {
    pub name: String,
    pub size: TreasureSize,
    /// A Great Treasure (counts for the Great Treasures victory category).
    #[serde(default)]
    pub great: bool,
    #[serde(default)]
    pub fame: i16,
    #[serde(default)]
    pub notoriety: i16,
    /// Base price in gold; treasures within treasures have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<u16>,
    #[serde(default, skip_serializing_if = "Strength::is_negligible")]
    pub weight: Strength,
    /// The native group that pays its fame value as well as its price.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fame_buyer: Option<String>,
    /// Gold each visitor pays for it (base-game visitors only).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub visitor_prices: BTreeMap<String, u16>,
    /// Set on the six treasures within treasures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<Within>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<TreasureEffect>,
    /// What it does, in the project's own words.
    pub summary: String,
}

/// A treasure within a treasure: a card that holds other things.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Within {
    /// Its number on the setup card (1–6).
    pub number: u8,
    /// Weapons and armour inside it at setup (names in weapons/armor.toml).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<String>,
    /// A horse inside it at setup (name kept for the horses file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub horse: Option<String>,
    /// Random large treasures dealt into it at setup.
    #[serde(default)]
    pub large_treasures: u8,
    /// Gold the finder records.
    #[serde(default)]
    pub gold: u16,
    /// A site card that stays where it is found and is searched on its own
    /// table (die 1–6) instead of being looted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub table: Vec<SiteResult>,
}

/// One row of a treasure-within-treasure site table (`tables/twt.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SiteResult {
    TakeWeapon,
    TakeArmor,
    TakeHorse,
    TakeTreasure,
    /// Record one more gold (repeatable).
    Gold,
    Curse,
    /// Roll on the Wish table, the searcher being caster and target.
    Wish,
    /// Every fatigued and wounded chit becomes fresh.
    Heal,
    /// Move to any cave clearing.
    TeleportToCave,
    /// For the day, Peer and Enchant any clearing as if there.
    PeerAndEnchantAnywhere,
    PowerOfThePit,
    Nothing,
}

impl SiteResult {
    fn word(self) -> &'static str {
        match self {
            SiteResult::TakeWeapon => "take the weapon",
            SiteResult::TakeArmor => "take the armour",
            SiteResult::TakeHorse => "take the horse",
            SiteResult::TakeTreasure => "take the treasure card",
            SiteResult::Gold => "+1 gold",
            SiteResult::Curse => "curse",
            SiteResult::Wish => "wish",
            SiteResult::Heal => "heal all chits",
            SiteResult::TeleportToCave => "go to any cave clearing",
            SiteResult::PeerAndEnchantAnywhere => "peer/enchant anywhere today",
            SiteResult::PowerOfThePit => "Power of the Pit",
            SiteResult::Nothing => "nothing",
        }
    }
}

/// Who a die modifier touches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Affects {
    /// The character who owns (and has activated) it.
    #[default]
    Owner,
    /// Every character in the clearing where it is (not hirelings).
    EveryoneInItsClearing,
}

/// Spell books hold several spells; artifacts one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SpellHolder {
    Artifact,
    Book,
}

/// What a treasure does, where the rules make it mechanical.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "snake_case", deny_unknown_fields)]
pub enum TreasureEffect {
    /// Add `delta` to rolls on a table.
    DieModifier {
        delta: i8,
        table: Roll,
        #[serde(default)]
        place: Place,
        #[serde(default)]
        affects: Affects,
    },
    /// Roll one die instead of two on a table.
    OneDie {
        table: Roll,
    },
    /// One more phase of an activity each day.
    ExtraPhase {
        activity: Activity,
        #[serde(default)]
        place: Place,
    },
    /// Can be played as a Fight chit of this strength and time.
    FightChit {
        strength: Strength,
        speed: u8,
    },
    /// Can be played as a Move chit of this strength and time.
    MoveChit {
        strength: Strength,
        speed: u8,
    },
    /// Lets the owner fly (Fly phases, play summary II.C.9) with this strength
    /// and time, only where magic of `needs` is present.
    Flies {
        strength: Strength,
        speed: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        needs: Option<Colour>,
    },
    /// Supplies colour magic in its clearing.
    ColourSource {
        colour: Colour,
    },
    /// An artifact or spell book: usable as a Magic chit of its types and
    /// holding one spell of each listed type at setup.
    Spells {
        holder: SpellHolder,
        spells: Vec<MagicType>,
    },
    /// Carries one spell of its own, named in spells.toml.
    BuiltInSpell {
        spell: String,
    },
    /// Armour that stops these directions.
    Armor {
        protects: Vec<AttackDirection>,
        vulnerability: Strength,
        /// Gold it is worth when destroyed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        destroyed_price: Option<u16>,
    },
    /// Used once, then goes back to a visitor or dwelling (by name).
    Potion {
        returns_to: String,
    },
    /// One missile attack.
    MissileAttack {
        harm: Strength,
        stars: u8,
        length: u8,
    },
    /// The finder rolls on the Curse table.
    CurseOnFind,
    /// Opens only with the Lost Keys.
    NeedsKey,
    /// Opens the Chest, the Crypt of the Knight and the Vault.
    OpensLocks,
    /// Searching it needs the Lost Keys or a T-strength effort.
    KeyOrTremendousEffort,
    /// Its contents go on top of the pile it was found in.
    ContentsToPile,
    /// Summons monsters as if it were this warning chit of the tile.
    ActsAsWarning {
        warning: Warning,
        tiles: Vec<TileGroup>,
    },
    /// The effort asterisks of each of the owner's action chits, MAGIC
    /// chits included, set its time: two, one, none.
    ChitSpeedByStars {
        two: u8,
        one: u8,
        none: u8,
    },
    /// The effort asterisks of the owner's MOVE, FIGHT, DUCK and BERSERK
    /// chits set their strength: two, one, none.
    ChitStrengthByStars {
        two: Strength,
        one: Strength,
        none: Strength,
    },
    /// Effort limit per combat round becomes this many asterisks.
    EffortLimit {
        asterisks: u8,
    },
    NoEffortLimit,
    /// Replaces a Move chit in combat against attackers slower than this.
    ReplacesMove {
        enemy_time_above: u8,
    },
    /// Replaces a Fight chit in combat against targets slower than this.
    ReplacesFight {
        enemy_time_above: u8,
    },
    /// Roll on a table when used.
    RollOnTable {
        table: Roll,
    },
    AddSharpness {
        stars: u8,
    },
    WeaponStaysAlerted,
    WoundsToFatigue,
    HitsOnTiedTime,
    ArmorStopsWounds,
    IgnoresArmor,
    RestCountsDouble,
    CancelSpell,
    /// The owner need not record his phases ahead.
    NoAdvanceRecording,
    /// May search on the Magic Sight table.
    MagicSight,
    PeerAnyClearing,
    SpellAnyClearing,
    /// Chooses the red die on spell-driven table rolls.
    ChooseRedDie,
    /// Using it costs the turn but rests fatigue.
    LoseTurnToRest,
}

impl TreasureEffect {
    /// A short phrase for the text description.
    pub fn phrase(&self) -> String {
        use TreasureEffect as E;
        match self {
            E::DieModifier {
                delta,
                table,
                place,
                affects,
            } => {
                let who = match affects {
                    Affects::Owner => "",
                    Affects::EveryoneInItsClearing => " for every character in its clearing",
                };
                format!("{delta:+} to {} rolls{}{who}", table.word(), place.phrase())
            }
            E::OneDie { table } => format!("one die on {} rolls", table.word()),
            E::ExtraPhase { activity, place } => {
                format!("extra {} phase{}", activity.word(), place.phrase())
            }
            E::FightChit { strength, speed } => format!("Fight chit {strength}{speed}"),
            E::MoveChit { strength, speed } => format!("Move chit {strength}{speed}"),
            E::Flies {
                strength,
                speed,
                needs,
            } => match needs {
                Some(colour) => format!("flies {strength}{speed} where {colour} magic is present"),
                None => format!("flies {strength}{speed}"),
            },
            E::ColourSource { colour } => format!("{colour} magic source"),
            E::Spells { holder, spells } => format!(
                "{} holding spells of type {}",
                match holder {
                    SpellHolder::Artifact => "artifact",
                    SpellHolder::Book => "spell book",
                },
                join(spells.iter().map(|t| t.numeral()))
            ),
            E::BuiltInSpell { spell } => format!("carries the spell {spell}"),
            E::Armor {
                protects,
                vulnerability,
                destroyed_price,
            } => {
                let price = destroyed_price
                    .map(|p| format!(", {p} gold if destroyed"))
                    .unwrap_or_default();
                format!(
                    "{vulnerability} armour against {}{price}",
                    join(protects.iter().map(|d| d.word()))
                )
            }
            E::Potion { returns_to } => format!("used once, then back to {returns_to}"),
            E::MissileAttack {
                harm,
                stars,
                length,
            } => {
                format!(
                    "one missile attack {harm}{} length {length}",
                    "*".repeat(usize::from(*stars))
                )
            }
            E::CurseOnFind => "finder is cursed".to_string(),
            E::NeedsKey => "opens only with the Lost Keys".to_string(),
            E::OpensLocks => "opens Chest, Crypt and Vault".to_string(),
            E::KeyOrTremendousEffort => "needs the Lost Keys or a T effort to search".to_string(),
            E::ContentsToPile => "contents go on top of the pile".to_string(),
            E::ActsAsWarning { warning, tiles } => format!(
                "summons like a {} warning chit in {} tiles",
                warning.word(),
                join(tiles.iter().map(|t| t.word()))
            ),
            E::ChitSpeedByStars { two, one, none } => {
                format!("chit time by stars: ** {two}, * {one}, none {none}")
            }
            E::ChitStrengthByStars { two, one, none } => {
                format!(
                    "Move, Fight, Duck and Berserk strength by stars: ** {two}, * {one}, none {none}"
                )
            }
            E::EffortLimit { asterisks } => format!("effort limit {asterisks} asterisks a round"),
            E::NoEffortLimit => "no effort limit this combat".to_string(),
            E::ReplacesMove { enemy_time_above } => {
                format!("serves as Move against attack times above {enemy_time_above}")
            }
            E::ReplacesFight { enemy_time_above } => {
                format!("serves as Fight against move times above {enemy_time_above}")
            }
            E::RollOnTable { table } => format!("roll on the {} table", table.word()),
            E::AddSharpness { stars } => format!("+{stars} sharpness"),
            E::WeaponStaysAlerted => "weapon stays alerted".to_string(),
            E::WoundsToFatigue => "wounds become fatigue".to_string(),
            E::HitsOnTiedTime => "hits on tied times".to_string(),
            E::ArmorStopsWounds => "armour stops all wounds".to_string(),
            E::IgnoresArmor => "weapon ignores armour".to_string(),
            E::RestCountsDouble => "Rest counts double".to_string(),
            E::CancelSpell => "cancels a spell or curse".to_string(),
            E::NoAdvanceRecording => "phases need not be recorded ahead".to_string(),
            E::MagicSight => "may search on Magic Sight".to_string(),
            E::PeerAnyClearing => "peer into any clearing".to_string(),
            E::SpellAnyClearing => "cast spells into any clearing".to_string(),
            E::ChooseRedDie => "chooses the red die on spell tables".to_string(),
            E::LoseTurnToRest => "lose the turn, rest fatigue".to_string(),
        }
    }
}

impl Treasure {
    pub fn describe(&self) -> String {
        let size = match self.size {
            TreasureSize::Large => "large",
            TreasureSize::Small => "small",
        };
        let mut text = format!(
            "{} ({size}{}{}): fame {}, notoriety {}",
            self.name,
            if self.great { ", great" } else { "" },
            self.within
                .as_ref()
                .map(|w| format!(", treasure within treasure {}", w.number))
                .unwrap_or_default(),
            self.fame,
            self.notoriety
        );
        if let Some(price) = self.price {
            text.push_str(&format!(", price {price} gold"));
        }
        if !self.weight.is_negligible() {
            text.push_str(&format!(", weight {}", self.weight));
        }
        if let Some(group) = &self.fame_buyer {
            text.push_str(&format!("\n  {group} pay its fame too"));
        }
        if !self.visitor_prices.is_empty() {
            let prices = self.visitor_prices.iter().map(|(v, p)| format!("{v} {p}"));
            text.push_str(&format!("\n  visitors pay: {}", join(prices)));
        }
        if let Some(w) = &self.within {
            let mut inside: Vec<String> = w.items.clone();
            inside.extend(w.horse.clone());
            if w.large_treasures > 0 {
                inside.push(realmgm_core::words::counted(
                    w.large_treasures,
                    "large treasure",
                    "large treasures",
                ));
            }
            if w.gold > 0 {
                inside.push(format!("{} gold", w.gold));
            }
            if !inside.is_empty() {
                text.push_str(&format!("\n  holds: {}", join(inside)));
            }
            if !w.table.is_empty() {
                let rows = w
                    .table
                    .iter()
                    .enumerate()
                    .map(|(i, r)| format!("{} {}", i + 1, r.word()));
                text.push_str(&format!("\n  search table: {}", join(rows)));
            }
        }
        if !self.effects.is_empty() {
            text.push_str(&format!(
                "\n  effects: {}",
                join(self.effects.iter().map(TreasureEffect::phrase))
            ));
        }
        text.push_str(&format!("\n  {}", self.summary));
        text
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TreasuresFile {
    treasure: Vec<Treasure>,
}

/// Parse and check the embedded `treasures.toml`.
///
/// # Errors
/// A problem naming the file, the treasure and the field.
pub fn load() -> Result<Vec<Treasure>, DataError> {
    parse(realmgm_core::compiled!("treasures"))
}

/// Parse and check treasure data given as text.
///
/// # Errors
/// A problem naming the file, the treasure and the field.
pub fn parse(source: Source<'_>) -> Result<Vec<Treasure>, DataError> {
    let file: TreasuresFile = source.parse(FILE)?;
    let treasures = file.treasure;
    let mut numbers = std::collections::BTreeSet::new();
    realmgm_core::embedded::check_unique_names(FILE, "treasure", &treasures, |x| x.name.as_str())?;
    for t in &treasures {
        let entry = format!("treasure \"{}\"", t.name);
        if t.summary.trim().is_empty() {
            return Err(DataError::entry(
                FILE,
                entry,
                "summary",
                "write a short summary",
            ));
        }
        match &t.within {
            Some(w) => {
                if !(1..=6).contains(&w.number) || !numbers.insert(w.number) {
                    return Err(DataError::entry(
                        FILE,
                        entry,
                        "within.number",
                        "numbers 1 to 6, each once",
                    ));
                }
                if !w.table.is_empty() && w.table.len() != 6 {
                    return Err(DataError::entry(
                        FILE,
                        entry,
                        "within.table",
                        "a site table has six rows",
                    ));
                }
                if t.price.is_some() || t.size != TreasureSize::Large {
                    return Err(DataError::entry(
                        FILE,
                        entry,
                        "price",
                        "a treasure within a treasure is large and has no price",
                    ));
                }
            }
            None if t.price.is_none() => {
                return Err(DataError::entry(
                    FILE,
                    entry,
                    "price",
                    "every ordinary treasure has a price",
                ));
            }
            None => {}
        }
        for (i, effect) in t.effects.iter().enumerate() {
            check_effect(&entry, i, effect)?;
        }
        for (visitor, price) in &t.visitor_prices {
            if *price == 0 {
                return Err(DataError::entry(
                    FILE,
                    entry,
                    format!("visitor_prices.{visitor}"),
                    "a price must be above 0",
                ));
            }
        }
    }
    let large = treasures
        .iter()
        .filter(|t| t.size == TreasureSize::Large)
        .count();
    if treasures.len() != TREASURES || large != LARGE || numbers.len() != WITHIN {
        return Err(DataError::file(
            FILE,
            format!(
                "expected {TREASURES} treasures ({LARGE} large, {SMALL} small, {WITHIN} within treasures), found {} ({large} large, {} within)",
                treasures.len(),
                numbers.len()
            ),
        ));
    }
    Ok(treasures)
}

fn check_effect(entry: &str, index: usize, effect: &TreasureEffect) -> Result<(), DataError> {
    let field = format!("effects[{index}]");
    let bad = |msg: &str| Err(DataError::entry(FILE, entry, field.clone(), msg));
    match effect {
        TreasureEffect::DieModifier { delta, .. } if !matches!(delta, -1 | 1) => {
            bad("a die modifier is -1 or +1")
        }
        TreasureEffect::FightChit { speed, .. }
        | TreasureEffect::MoveChit { speed, .. }
        | TreasureEffect::Flies { speed, .. }
            if !(1..=6).contains(speed) =>
        {
            bad("chit times run from 1 to 6")
        }
        TreasureEffect::Spells { spells, .. } if spells.is_empty() => {
            bad("list the spell types it holds")
        }
        TreasureEffect::Armor { protects, .. } if protects.is_empty() => {
            bad("name what the armour stops")
        }
        TreasureEffect::MissileAttack { stars, length, .. } if *stars > 3 || *length > 20 => {
            bad("at most 3 stars and length 20")
        }
        TreasureEffect::ActsAsWarning { tiles, .. } if tiles.is_empty() => {
            bad("name the tile groups")
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_file_loads() {
        let treasures = load().unwrap();
        assert_eq!(treasures.len(), TREASURES);
        let charm = treasures.iter().find(|t| t.name == "Lucky Charm").unwrap();
        assert_eq!(
            charm.effects,
            vec![TreasureEffect::OneDie { table: Roll::All }]
        );
    }

    #[test]
    fn bad_modifier_names_file_entry_and_field() {
        let text = TEXT.replacen("delta = -1", "delta = -3", 1);
        let err = parse(Source::Toml(&text)).unwrap_err();
        assert_eq!(err.file, FILE);
        assert!(
            err.entry
                .as_deref()
                .unwrap()
                .starts_with("treasure \"Map of"),
            "{err}"
        );
        assert_eq!(err.field.as_deref(), Some("effects[0]"), "{err}");
    }

    #[test]
    fn unknown_effect_names_the_field() {
        let text = TEXT.replacen("effect = \"one_die\"", "effect = \"two_dice\"", 1);
        let err = parse(Source::Toml(&text)).unwrap_err();
        assert!(err.field.as_deref().unwrap().contains("effects"), "{err}");
    }
}
