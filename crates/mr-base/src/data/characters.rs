//! The 16 original characters: vulnerability, the 12 action chits in
//! development order, starting equipment, gold, places to start, starting
//! spells, relationships with every native group and visitor, the titles and
//! kit of development levels 1–3, and each special advantage as structured
//! effects the engine can apply ([`Advantage`]).
//! Rule background: the play summary (characters, activities, tables), the BIMR3 rules
//! (BIMR3 uses Knight's Adjustment, which lowers one relationship per knight
//! at setup — a campaign rule applied on top of this data), `data/characters.toml`.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::terms::{Activity, Dwelling, MagicType, Place, Roll, Strength, stars};
use realmgm_core::embedded::{DataError, Source};

pub const FILE: &str = "characters.toml";
#[cfg(test)]
const TEXT: &str = include_str!("characters.toml");
/// How many characters the original game has.
pub const COUNT: usize = 16;
/// Action chits per character.
pub const CHIT_COUNT: usize = 12;
/// What an action chit is used for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum ChitAction {
    Move,
    Fight,
    Magic,
    /// The Dwarf's DUCK chit: maneuvers in combat only.
    Duck,
    /// The Berserker's BERSERK chit: a Fight chit whose alerting makes him
    /// Tremendous (see [`Advantage::Berserk`]).
    Berserk,
}

impl ChitAction {
    fn word(self) -> &'static str {
        match self {
            ChitAction::Move => "MOVE",
            ChitAction::Fight => "FIGHT",
            ChitAction::Magic => "MAGIC",
            ChitAction::Duck => "DUCK",
            ChitAction::Berserk => "BERSERK",
        }
    }
}

/// One action chit, written `MOVE M4*` or `MAGIC VII6**` in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String")]
pub struct ActionChit {
    pub action: ChitAction,
    /// Strength letter; `None` on MAGIC chits.
    pub strength: Option<Strength>,
    /// Magic type; only on MAGIC chits.
    pub magic: Option<MagicType>,
    /// Time number (speed): lower is faster.
    pub time: u8,
    /// Effort asterisks (fatigue cost).
    pub effort: u8,
}

impl TryFrom<String> for ActionChit {
    type Error = ChitLabelError;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        ActionChit::parse(&text)
    }
}

/// A chit label that does not read as a printed chit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "chit \"{label}\": {problem}; write ACTION STRENGTH TIME STARS (\"MOVE M4*\") or MAGIC TYPE TIME STARS (\"MAGIC VII6**\")"
)]
pub struct ChitLabelError {
    pub label: String,
    pub problem: ChitLabelProblem,
}

/// What is wrong with a chit label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChitLabelProblem {
    #[error("no space after the action")]
    NoSpace,
    #[error("the action must be MOVE, FIGHT, MAGIC, DUCK or BERSERK")]
    Action,
    #[error("the time number is missing")]
    NoTime,
    #[error("the time must be 1 to 8")]
    TimeRange,
    #[error("at most two effort asterisks")]
    Effort,
    #[error("a MAGIC chit needs a magic type I to VIII")]
    MagicType,
    #[error("the strength must be L, M, H or T")]
    Strength,
}

impl ActionChit {
    /// Parse the printed form, e.g. `FIGHT H4**`, `MAGIC III2*`.
    ///
    /// # Errors
    /// What is wrong with the text, and the expected form.
    pub fn parse(text: &str) -> Result<ActionChit, ChitLabelError> {
        let bad = |problem: ChitLabelProblem| ChitLabelError {
            label: text.to_string(),
            problem,
        };
        let (word, rest) = text
            .split_once(' ')
            .ok_or_else(|| bad(ChitLabelProblem::NoSpace))?;
        let action = [
            ChitAction::Move,
            ChitAction::Fight,
            ChitAction::Magic,
            ChitAction::Duck,
            ChitAction::Berserk,
        ]
        .into_iter()
        .find(|a| a.word() == word)
        .ok_or_else(|| bad(ChitLabelProblem::Action))?;
        let effort = rest.chars().rev().take_while(|&c| c == '*').count();
        let rest = &rest[..rest.len() - effort];
        let digits = rest.chars().rev().take_while(char::is_ascii_digit).count();
        let (letters, number) = rest.split_at(rest.len() - digits);
        let time: u8 = number.parse().map_err(|_| bad(ChitLabelProblem::NoTime))?;
        if !(1..=8).contains(&time) {
            return Err(bad(ChitLabelProblem::TimeRange));
        }
        if effort > 2 {
            return Err(bad(ChitLabelProblem::Effort));
        }
        let (strength, magic) = if action == ChitAction::Magic {
            let magic =
                MagicType::from_numeral(letters).ok_or_else(|| bad(ChitLabelProblem::MagicType))?;
            (None, Some(magic))
        } else {
            let strength = Strength::from_letter(letters)
                .filter(|s| !s.is_negligible())
                .ok_or_else(|| bad(ChitLabelProblem::Strength))?;
            (Some(strength), None)
        };
        Ok(ActionChit {
            action,
            strength,
            magic,
            time,
            effort: effort as u8,
        })
    }
}

impl fmt::Display for ActionChit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters = match (self.strength, self.magic) {
            (Some(strength), _) => strength.letter(),
            (None, Some(magic)) => magic.numeral(),
            (None, None) => "",
        };
        write!(
            f,
            "{} {letters}{}{}",
            self.action.word(),
            self.time,
            stars(self.effort)
        )
    }
}

/// A relationship on the standard five-step scale, ordered Enemy < Ally.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Relationship {
    Enemy,
    Unfriendly,
    Neutral,
    Friendly,
    Ally,
}

impl Relationship {
    const SCALE: [Relationship; 5] = [
        Relationship::Enemy,
        Relationship::Unfriendly,
        Relationship::Neutral,
        Relationship::Friendly,
        Relationship::Ally,
    ];

    /// Move `steps` along the scale (negative = worse), stopping at the ends.
    /// Knight's Adjustment is `Ally.shifted(-1)`.
    pub fn shifted(self, steps: i8) -> Relationship {
        let index = Relationship::SCALE
            .iter()
            .position(|&r| r == self)
            .unwrap_or(2);
        Relationship::at_level(index as i16 + i16::from(steps))
    }

    /// Its step on the scale: 0 for Enemy to 4 for Ally.
    pub fn level(self) -> i16 {
        Relationship::SCALE
            .iter()
            .position(|&r| r == self)
            .map_or(2, |i| i as i16)
    }

    /// The relationship at step `level`, the ends standing for every step
    /// beyond them.
    pub fn at_level(level: i16) -> Relationship {
        Relationship::SCALE[level.clamp(0, 4) as usize]
    }

    pub fn label(self) -> &'static str {
        match self {
            Relationship::Enemy => "enemy",
            Relationship::Unfriendly => "unfriendly",
            Relationship::Neutral => "neutral",
            Relationship::Friendly => "friendly",
            Relationship::Ally => "ally",
        }
    }
}

/// Where a character may start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StartLocation {
    Inn,
    House,
    Chapel,
    #[serde(rename = "Guard House")]
    GuardHouse,
    /// The clearing where the ghosts start (the Witch King).
    Ghosts,
}

impl StartLocation {
    /// The dwelling, when the start is one.
    pub fn dwelling(self) -> Option<Dwelling> {
        match self {
            StartLocation::Inn => Some(Dwelling::Inn),
            StartLocation::House => Some(Dwelling::House),
            StartLocation::Chapel => Some(Dwelling::Chapel),
            StartLocation::GuardHouse => Some(Dwelling::GuardHouse),
            StartLocation::Ghosts => None,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            StartLocation::Ghosts => "Ghosts",
            other => other.dwelling().map_or("?", Dwelling::label),
        }
    }
}

/// Map chits that summon monsters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SummonChit {
    Sound,
    Warning,
    Site,
}

/// One mechanical effect of a character's advantage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Advantage {
    /// One more phase every day, usable only for this activity.
    ExtraPhase { activity: Activity },
    /// One more phase on a day he is at a dwelling (at most one a day).
    ExtraPhaseAtDwelling,
    /// Roll one die instead of two for these rolls, in this place.
    RollOneDie {
        rolls: Vec<Roll>,
        #[serde(default)]
        place: Place,
    },
    /// Add this to the die result of these rolls.
    RollModifier {
        rolls: Vec<Roll>,
        modifier: i8,
        #[serde(default)]
        place: Place,
    },
    /// While the BERSERK chit is alerted his vulnerability is Tremendous.
    Berserk,
    /// May not record Sunlight phases.
    NoSunlightPhases,
    /// Each Rest counts as two.
    RestCountsDouble,
    /// At most this many Move activities a day.
    MoveLimit { per_day: u8 },
    /// These map chits do not summon monsters for him.
    NotSummonedBy { chits: Vec<SummonChit> },
    /// Curses do not affect him.
    CurseImmunity,
    /// These monsters (names in monsters.toml) cannot attack him.
    ImmuneToAttacksOf { monsters: Vec<String> },
    /// Searches only through Magic Sight.
    SearchesByMagicSight,
    /// A familiar that does these activities on its own.
    Familiar { activities: Vec<Activity> },
    /// Knows every secret passage and hidden path from the start.
    KnowsHiddenRoutes,
    /// Picks when to take his turn in Daylight.
    ChoosesTurnOrder,
    /// At Midnight prepared MAGIC chits return without fatigue.
    MagicReturnsWithoutFatigue,
    /// The chit of this development stage (1–12) is replaced by another.
    ReplaceChit { stage: u8, chit: ActionChit },
    /// Spell phases enchant without a spellcasting step.
    EnchantWithoutSpellcasting,
    /// The player chooses Light or Great Elf: the Light Elf may not use the
    /// chits of `great_only` stages, the Great Elf those of `light_only`.
    ElfForm {
        light_only: Vec<u8>,
        great_only: Vec<u8>,
    },
}

/// A named special advantage: its text and its effects.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ability {
    pub name: String,
    /// Development level (1–4) that brings it; `None` for optional abilities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// Used only under the Optional Abilities rule.
    #[serde(default)]
    pub optional: bool,
    /// The standard ability this optional one takes the place of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaces: Option<String>,
    /// An optional ability 3.1 10.A.6 does not list: the rule toggle that
    /// alone brings it in (Optional Abilities does not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toggle: Option<String>,
    /// Short description in the project's words.
    pub text: String,
    pub effects: Vec<Advantage>,
}

impl Ability {
    /// The Elf's "Light or Great Elf": his player chooses his form.
    pub fn is_form_choice(&self) -> bool {
        self.effects
            .iter()
            .any(|e| matches!(e, Advantage::ElfForm { .. }))
    }
}

/// Title and kit of a character at development levels 1–3.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DevelopmentLevel {
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub armor: Vec<String>,
    #[serde(default)]
    pub spells: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    pub name: String,
    pub vulnerability: Strength,
    pub start: Vec<StartLocation>,
    pub gold: u16,
    /// Starting weapon (a name in the weapons data); none means a dagger.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<String>,
    /// Starting armour pieces (names in the armour data).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub armor: Vec<String>,
    /// Spells recorded at the start.
    pub spells: u8,
    /// The 12 chits in development-stage order: stages 1–3 belong to level
    /// 1, 4–6 to level 2, and so on.
    pub chits: Vec<ActionChit>,
    /// Group or visitor name → relationship; a name not listed is neutral.
    #[serde(default)]
    pub relationships: BTreeMap<String, Relationship>,
    /// Levels 1–3 (level 4 is the full character above).
    pub development: Vec<DevelopmentLevel>,
    #[serde(default)]
    pub abilities: Vec<Ability>,
}

impl Character {
    /// Relationship with a native group or visitor (neutral when unlisted).
    pub fn relationship(&self, group: &str) -> Relationship {
        self.relationships
            .get(group)
            .copied()
            .unwrap_or(Relationship::Neutral)
    }

    /// The development level (1–4) that owns a stage.
    pub fn level_of_stage(stage: u8) -> u8 {
        stage.div_ceil(3)
    }

    /// Magic types of his MAGIC chits: the types of spells he may learn.
    pub fn spell_types(&self) -> Vec<MagicType> {
        let mut types: Vec<MagicType> = self.chits.iter().filter_map(|c| c.magic).collect();
        types.sort();
        types.dedup();
        types
    }

    /// The abilities in force: the standard ones, and the optional ones for
    /// which `take` says yes, each in place of the one it replaces.
    pub fn abilities_in_force(&self, take: impl Fn(&Ability) -> bool) -> Vec<&Ability> {
        let taken: Vec<&Ability> = self
            .abilities
            .iter()
            .filter(|a| a.optional && take(a))
            .collect();
        let replaced: Vec<&str> = taken.iter().filter_map(|a| a.replaces.as_deref()).collect();
        self.abilities
            .iter()
            .filter(|a| {
                if a.optional {
                    taken.iter().any(|t| t.name == a.name)
                } else {
                    !replaced.contains(&a.name.as_str())
                }
            })
            .collect()
    }

    /// Whether one of his optional abilities lets his player choose the
    /// Elf's form.
    pub fn has_form_choice(&self) -> bool {
        self.abilities.iter().any(Ability::is_form_choice)
    }
}

/// The Elf's form under his "Light or Great Elf" ability.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElfForm {
    Light,
    Great,
}

impl ElfForm {
    pub const ALL: [ElfForm; 2] = [ElfForm::Light, ElfForm::Great];

    pub fn label(self) -> &'static str {
        match self {
            ElfForm::Light => "Light",
            ElfForm::Great => "Great",
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CharactersFile {
    characters: Vec<Character>,
}

/// Parse and check `characters.toml` (names of groups, visitors, monsters
/// and items are checked against the other files by `data::load`).
///
/// # Errors
/// A broken file, a wrong count, a malformed chit, a value out of range.
pub fn load() -> Result<Vec<Character>, DataError> {
    parse(FILE, realmgm_core::compiled!("characters"))
}

/// Parse and check character data from `text` (named `file` in errors).
///
/// # Errors
/// As [`load`].
pub fn parse(file: &str, source: Source<'_>) -> Result<Vec<Character>, DataError> {
    let characters = source.parse::<CharactersFile>(file)?.characters;
    if characters.len() != COUNT {
        return Err(DataError::file(
            file,
            format!("expected {COUNT} characters, found {}", characters.len()),
        ));
    }
    for (index, character) in characters.iter().enumerate() {
        if characters[..index].iter().any(|c| c.name == character.name) {
            return Err(DataError::entry(
                file,
                format!("character \"{}\"", character.name),
                "name",
                "this name is used twice",
            ));
        }
        check_character(file, character)?;
    }
    Ok(characters)
}

/// An item name as another data file spells it: capitalised words (`of`
/// may stay small), single spaces (the items themselves are checked
/// across files).
fn check_item_name(name: &str) -> Result<(), NotAnItemName> {
    let capitalised = |word: &str| word.chars().next().is_some_and(char::is_uppercase);
    let well_formed = name
        .split(' ')
        .enumerate()
        .all(|(index, word)| capitalised(word) || (index > 0 && word == "of"));
    if well_formed {
        Ok(())
    } else {
        Err(NotAnItemName(name.to_string()))
    }
}

/// A name that cannot name an item in any data file.
#[derive(Debug, thiserror::Error)]
#[error("\"{0}\" is not an item name (capitalised words, single spaces)")]
struct NotAnItemName(String);

fn check_character(file: &str, c: &Character) -> Result<(), DataError> {
    let entry = format!("character \"{}\"", c.name);
    let fail = |field: String, message: String| Err(DataError::entry(file, &entry, field, message));
    if !c.start.contains(&StartLocation::Inn) {
        return fail(
            "start".into(),
            "every character may start at the Inn; list it".into(),
        );
    }
    if c.gold > 100 {
        return fail("gold".into(), "starting gold must be at most 100".into());
    }
    if c.chits.len() != CHIT_COUNT {
        return fail(
            "chits".into(),
            format!(
                "a character has {CHIT_COUNT} chits, found {}",
                c.chits.len()
            ),
        );
    }
    let magic_chits = c
        .chits
        .iter()
        .filter(|ch| ch.action == ChitAction::Magic)
        .count();
    if (c.spells > 0) != (magic_chits > 0) || usize::from(c.spells) > magic_chits {
        return fail(
            "spells".into(),
            format!(
                "{} starting spells do not fit {magic_chits} MAGIC chits",
                c.spells
            ),
        );
    }
    let items = c.weapon.iter().map(|w| ("weapon".to_string(), w)).chain(
        c.armor
            .iter()
            .enumerate()
            .map(|(i, a)| (format!("armor[{i}]"), a)),
    );
    for (field, name) in items {
        if let Err(e) = check_item_name(name) {
            return fail(field, e.to_string());
        }
    }
    if c.development.len() != 3 {
        return fail(
            "development".into(),
            "list levels 1, 2 and 3 (level 4 is the full character)".into(),
        );
    }
    for (index, level) in c.development.iter().enumerate() {
        let items = level.weapon.iter().chain(&level.armor);
        for name in items {
            if let Err(e) = check_item_name(name) {
                return fail(format!("development[{index}]"), e.to_string());
            }
        }
        if level.spells > c.spells {
            return fail(
                format!("development[{index}].spells"),
                "a lower level cannot have more spells than the full character".into(),
            );
        }
    }
    for (index, ability) in c.abilities.iter().enumerate() {
        check_ability(c, ability).map_err(|(field, message)| {
            DataError::entry(file, &entry, format!("abilities[{index}].{field}"), message)
        })?;
    }
    Ok(())
}

fn check_ability(c: &Character, ability: &Ability) -> Result<(), (String, String)> {
    let fail = |field: &str, message: &str| Err((field.to_string(), message.to_string()));
    match (ability.optional, ability.level) {
        (false, Some(1..=4)) | (true, None) => {}
        (false, _) => return fail("level", "a standard ability needs a level 1 to 4"),
        (true, Some(_)) => return fail("level", "an optional ability has no level"),
    }
    if ability.text.trim().is_empty() {
        return fail("text", "describe the ability");
    }
    if let Some(replaced) = &ability.replaces
        && !c
            .abilities
            .iter()
            .any(|a| &a.name == replaced && !a.optional)
    {
        return fail("replaces", "name a standard ability of the same character");
    }
    if ability.effects.is_empty() {
        return fail("effects", "an ability needs at least one effect");
    }
    for (index, effect) in ability.effects.iter().enumerate() {
        let field = format!("effects[{index}]");
        let problem = match effect {
            Advantage::RollOneDie { rolls, .. } | Advantage::RollModifier { rolls, .. }
                if rolls.is_empty() =>
            {
                Some("list the rolls it changes")
            }
            Advantage::RollModifier { modifier, .. } if *modifier == 0 || modifier.abs() > 2 => {
                Some("the modifier must be -2, -1, 1 or 2")
            }
            Advantage::ExtraPhase { activity }
                if !matches!(
                    activity,
                    Activity::Move
                        | Activity::Hide
                        | Activity::Rest
                        | Activity::Alert
                        | Activity::Spell
                ) =>
            {
                Some("an extra phase is for move, hide, rest, alert or spell")
            }
            Advantage::MoveLimit { per_day } if !(1..=4).contains(per_day) => {
                Some("the limit must be 1 to 4")
            }
            Advantage::NotSummonedBy { chits } if chits.is_empty() => Some("list the chits"),
            Advantage::ImmuneToAttacksOf { monsters } if monsters.is_empty() => {
                Some("list the monsters")
            }
            Advantage::Familiar { activities } if activities.is_empty() => {
                Some("list what the familiar does")
            }
            Advantage::ReplaceChit { stage, .. } if !(1..=12).contains(stage) => {
                Some("the stage must be 1 to 12")
            }
            Advantage::ElfForm {
                light_only,
                great_only,
            } if light_only
                .iter()
                .chain(great_only)
                .any(|s| !(1..=12).contains(s)) =>
            {
                Some("the stages must be 1 to 12")
            }
            _ => None,
        };
        if let Some(message) = problem {
            return fail(&field, message);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chits_parse_and_print() {
        let chit = ActionChit::parse("MAGIC VII6**").unwrap();
        assert_eq!(chit.magic, Some(MagicType::VII));
        assert_eq!((chit.time, chit.effort), (6, 2));
        assert_eq!(chit.to_string(), "MAGIC VII6**");
        let chit = ActionChit::parse("DUCK T3*").unwrap();
        assert_eq!(chit.strength, Some(Strength::Tremendous));
        for bad in [
            "MOVE",
            "WALK M4",
            "MOVE X4",
            "MAGIC IX3",
            "FIGHT M",
            "MOVE M4***",
            "MOVE M9",
            "MOVE -4",
        ] {
            assert!(ActionChit::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn relationships_shift_and_clamp() {
        assert_eq!(Relationship::Ally.shifted(-1), Relationship::Friendly);
        assert_eq!(Relationship::Enemy.shifted(-1), Relationship::Enemy);
        assert_eq!(Relationship::Neutral.shifted(3), Relationship::Ally);
    }

    #[test]
    fn embedded_characters_load() {
        let characters = load().unwrap();
        assert_eq!(characters.len(), COUNT);
        let dwarf = characters.iter().find(|c| c.name == "Dwarf").unwrap();
        let standard: Vec<&str> = dwarf
            .abilities_in_force(|_| false)
            .iter()
            .map(|a| a.name.as_str())
            .collect();
        let optional: Vec<&str> = dwarf
            .abilities_in_force(|_| true)
            .iter()
            .map(|a| a.name.as_str())
            .collect();
        assert_eq!(standard.len(), 2);
        assert_eq!(optional.len(), 2);
        assert_ne!(standard, optional);
    }

    #[test]
    fn a_bad_chit_names_the_line_and_field() {
        let text = TEXT.replacen("\"MOVE M4\"", "\"MOVE Q4\"", 1);
        let err = parse("characters.toml", Source::Toml(&text)).unwrap_err();
        assert_eq!(err.file, "characters.toml");
        assert_eq!(err.field.as_deref(), Some("characters[0].chits[0]"));
        assert!(err.line.is_some());
        assert!(err.message.contains("MOVE Q4"), "{err}");
    }

    #[test]
    fn a_wrong_chit_count_names_the_character() {
        let text = TEXT.replacen("\"MOVE M4\", ", "", 1);
        let err = parse("characters.toml", Source::Toml(&text)).unwrap_err();
        assert_eq!(err.entry.as_deref(), Some("character \"Amazon\""));
        assert_eq!(err.field.as_deref(), Some("chits"));
    }

    #[test]
    fn a_badly_spelled_item_names_the_field() {
        let text = TEXT.replacen("weapon = \"Short Sword\"", "weapon = \"short sword\"", 1);
        let err = parse("characters.toml", Source::Toml(&text)).unwrap_err();
        assert_eq!(err.entry.as_deref(), Some("character \"Amazon\""));
        assert_eq!(err.field.as_deref(), Some("weapon"));
    }

    #[test]
    fn a_zero_modifier_names_the_ability_effect() {
        let text = TEXT.replacen("modifier = -1", "modifier = 0", 1);
        let err = parse("characters.toml", Source::Toml(&text)).unwrap_err();
        assert_eq!(err.entry.as_deref(), Some("character \"Amazon\""));
        assert_eq!(err.field.as_deref(), Some("abilities[0].effects[0]"));
    }
}
