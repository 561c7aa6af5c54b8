//! Development (3.1 10.E.5, optional `development`): a character may start
//! below his 4th level and grow during the game.
//!
//! Starting at a level (10.E.5.2) he has that level's weapon, armour and
//! spell allowance (the `development` block of `data/characters.toml`), and
//! the action chits of that level and every level before it; the chits of
//! later levels are out of play. His Special Advantage no. 1 comes at 2nd
//! level and no. 2 at 4th (10.E.5.2.1); he has his card's trading
//! relationships only if he starts at 3rd or 4th (10.E.5.2.2); he records
//! one victory point fewer for each level below 4th, never fewer than two
//! (10.E.5.3), and his gold is counted against that level's column of
//! "Value of gold and starting equipment" (3.3.6b.5).
//!
//! Advancing (10.E.5.4) is worked out at Midnight by `day::development`,
//! which reads his points; this module keeps the state it advances.
//!
//! Rulings: an optional ability (10.A.6) comes at the level of the
//! standard one it replaces; a character without a `Development` record
//! is at 4th level.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::data::GameData;
use crate::data::characters::{Ability, Character};
use crate::state::CharacterState;
use realmgm_core::game::Rules;

/// The name of the toggle.
pub const DEVELOPMENT: &str = "development";

/// The toggle keeping a character's stage from campaign to campaign.
pub const EXTENDED_DEVELOPMENT: &str = "extended_development";

/// The highest stage a campaign may start a character at: the rewards of
/// the 6th stage and above (3.1 10.E.6.7.2-10.E.6.7.7) are not built.
pub const HIGHEST_STAGE_BUILT: u8 = 5;

/// The highest level: the character as his card shows him.
pub const TOP_LEVEL: u8 = 4;

/// Chits a level brings (3.1 10.E.5.1).
pub const CHITS_PER_LEVEL: u8 = 3;

/// A developing character's level and his progress toward the next.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Development {
    /// The level he started the game at: it decides his trading
    /// relationships and his gold column for good.
    pub start_level: u8,
    /// His level now (1-4).
    pub level: u8,
    /// The development stages (1-12) of his next level he has gained.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gained: Vec<u8>,
    /// The highest total of victory points toward his requirements he has
    /// reached: points lost must be regained before they count again
    /// (3.1 10.E.5.4.2).
    #[serde(default)]
    pub best_points: i32,
    /// Points gained at this level not yet worth a chit.
    #[serde(default)]
    pub banked: i32,
    /// Under Extended Development: his stage may pass 4th (`level` counts
    /// it), his victory points are the next stage's (3.1 10.E.6.2), and
    /// chits earned at 4th stage and above are kept on record only.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub extended: bool,
    /// Chits earned toward his next stage above 4th, on record (3.1
    /// 10.E.6.6).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub beyond: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// A character's stage and extra chits, as a campaign file carries them
/// from the campaign before (3.1 10.E.6): `[carry_over.development]`
/// `Amazon = { stage = 2, extra_chits = ["MOVE M4"] }`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Carried {
    pub stage: u8,
    /// Chits of his next stage he has already (below 4th stage), as printed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra_chits: Vec<String>,
    /// Chits toward his next stage, at 4th stage and above (on record).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub extra: u8,
}

/// The stages a campaign file's `[carry_over]` table carries, by character
/// (its `development` table).
///
/// # Errors
/// The table does not read as `Name = { stage = N, extra_chits = [...] }`.
pub fn carried(
    carry_over: Option<&serde_json::Value>,
) -> Result<std::collections::BTreeMap<String, Carried>, DevelopmentError> {
    let Some(table) = carry_over.and_then(|v| v.get("development")) else {
        return Ok(Default::default());
    };
    serde_json::from_value(table.clone()).map_err(|e| DevelopmentError::CarryOver(e.to_string()))
}

impl Development {
    /// A character starting at `level`.
    pub fn starting_at(level: u8) -> Development {
        Development {
            start_level: level,
            level,
            gained: Vec::new(),
            best_points: 0,
            banked: 0,
            extended: false,
            beyond: 0,
        }
    }

    /// Victory points each chit of the next level costs at this level
    /// (3.1 10.E.5.4.1: one at 1st level, two at 2nd, and so on).
    pub fn points_per_chit(&self) -> i32 {
        i32::from(self.level)
    }

    /// The stages (1-12) of his next level; none at 4th level.
    pub fn next_stages(&self) -> Vec<u8> {
        if self.level >= TOP_LEVEL {
            return Vec::new();
        }
        let first = self.level * CHITS_PER_LEVEL + 1;
        (first..first + CHITS_PER_LEVEL).collect()
    }
}

/// Why a starting level cannot be set; worded for the GM or player.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum DevelopmentError {
    #[error("the level must be 1, 2, 3 or 4, not {0}; write e.g. `Level: 2`")]
    BadLevel(String),
    #[error(
        "a starting level was given for the {0}, but the development rule is off; add \
         \"development\" to the campaign's rules or leave the level out"
    )]
    RuleOff(String),
    #[error(
        "[carry_over.development] does not read: {0}; write one line a character, e.g. \
         Amazon = {{ stage = 2, extra_chits = [\"MOVE M4\"] }}"
    )]
    CarryOver(String),
    #[error(
        "[carry_over.development] gives the {character} stage {stage}: stages run from 1, and \
         the rewards of the 6th stage and above (a Treasure card, a horse, a weapon, armour \
         or spell taken from the natives, retiring as an immortal; 3.1 10.E.6.7.2-7) are not \
         built, so give stage 1 to 5"
    )]
    BadStage { character: String, stage: u8 },
    #[error(
        "[carry_over.development] gives the {character} the extra chit '{chit}', which is not \
         a chit of his next stage; name them as printed: {allowed}"
    )]
    BadExtraChit {
        character: String,
        chit: String,
        allowed: String,
    },
    #[error(
        "[carry_over.development] gives the {character} {count} extra chits; a stage has 3, so \
         give at most 2 (the third makes the next stage)"
    )]
    TooManyExtra { character: String, count: usize },
    #[error(
        "[carry_over.development] is given but the extended_development rule is off; add it \
         to the campaign's rules or remove the table"
    )]
    ExtendedOff,
}

/// Whether Development is in force: by its name, or brought in by
/// Extended Development, which builds on it.
pub fn in_force(rules: &Rules) -> bool {
    rules.is_on(DEVELOPMENT) || rules.is_on(EXTENDED_DEVELOPMENT)
}

/// Read a starting level (`2`, or `2nd`), 1-4.
///
/// # Errors
/// Anything but a level from 1 to 4.
pub fn read_level(text: &str) -> Result<u8, DevelopmentError> {
    let trimmed = text.trim().to_lowercase();
    let digits = trimmed
        .trim_end_matches("st")
        .trim_end_matches("nd")
        .trim_end_matches("rd")
        .trim_end_matches("th");
    digits
        .parse::<u8>()
        .ok()
        .filter(|l| (1..=TOP_LEVEL).contains(l))
        .ok_or_else(|| DevelopmentError::BadLevel(text.trim().to_string()))
}

/// His level now: 4th without Development.
pub fn level(who: &CharacterState) -> u8 {
    who.development.as_ref().map_or(TOP_LEVEL, |d| d.level)
}

/// Whether the chit of development stage `stage` (1-12) is his to play:
/// those of his level and the levels before it, and those of the next
/// level he has gained (3.1 10.E.5.2, 10.E.5.4.3).
pub fn in_play(who: &CharacterState, stage: u8) -> bool {
    who.development
        .as_ref()
        .is_none_or(|d| Character::level_of_stage(stage) <= d.level || d.gained.contains(&stage))
}

/// Whether `ability` of `card` is his at his level (3.1 10.E.5.2.1):
/// advantage no. 1 (listed for 2nd level) from 2nd level, no. 2 at 4th;
/// an optional ability at the level of the one it replaces (ruling).
pub fn has_ability(card: &Character, who: &CharacterState, ability: &Ability) -> bool {
    let at = ability.level.or_else(|| {
        let replaced = ability.replaces.as_deref()?;
        card.abilities
            .iter()
            .find(|a| a.name == replaced)
            .and_then(|a| a.level)
    });
    at.is_none_or(|at| at <= level(who))
}

/// Whether his card's trading relationships hold for him: only when he
/// started at 3rd or 4th level; otherwise every native group and visitor
/// is Neutral to him (3.1 10.E.5.2.2).
pub fn has_card_relationships(who: &CharacterState) -> bool {
    who.development.as_ref().is_none_or(|d| d.start_level >= 3)
}

/// The victory points a character starting at `level` records in a game
/// asking `points`: one fewer per level below 4th, never fewer than two
/// (3.1 10.E.5.3).
pub fn victory_points(points: u32, level: u8) -> u32 {
    points
        .saturating_sub(u32::from(TOP_LEVEL.saturating_sub(level)))
        .max(2)
}

/// The victory points `who` records in a game asking `points`: under
/// Extended Development those of his next stage (3.1 10.E.6.2, 10.E.6.8).
pub fn victory_points_of(who: &CharacterState, points: u32) -> u32 {
    match &who.development {
        Some(d) if d.extended => u32::from(d.start_level) + 1,
        Some(d) => victory_points(points, d.start_level),
        None => points,
    }
}

/// Start `who` at the stage the campaign carries for him under Extended
/// Development (1st stage when none, 3.1 10.E.6.1): the level of his stage
/// (4th above it), his extra chits in play, and for a stage above 4th its
/// rewards, taken as he enters (3.1 10.E.6.7): 15 gold at 5th.
///
/// # Errors
/// A stage not built, or extra chits that are not his next stage's.
pub fn start_extended(
    data: &GameData,
    rules: &Rules,
    who: &mut CharacterState,
    carried: Option<&Carried>,
) -> Result<(), DevelopmentError> {
    let carried = carried.cloned().unwrap_or(Carried {
        stage: 1,
        ..Carried::default()
    });
    let stage = carried.stage;
    if !(1..=HIGHEST_STAGE_BUILT).contains(&stage) {
        return Err(DevelopmentError::BadStage {
            character: who.name.clone(),
            stage,
        });
    }
    let extra = carried.extra_chits.len().max(usize::from(carried.extra));
    if extra >= usize::from(CHITS_PER_LEVEL) {
        return Err(DevelopmentError::TooManyExtra {
            character: who.name.clone(),
            count: extra,
        });
    }
    start_at(data, rules, who, stage.min(TOP_LEVEL))?;
    let mut development = Development::starting_at(stage);
    development.extended = true;
    let card = data.characters.iter().find(|c| c.name == who.name);
    if stage < TOP_LEVEL {
        let next: Vec<(u8, String)> = card
            .map(|c| {
                (stage * CHITS_PER_LEVEL + 1..=(stage + 1) * CHITS_PER_LEVEL)
                    .filter_map(|s| Some((s, c.chits.get(usize::from(s) - 1)?.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        for chit in &carried.extra_chits {
            let Some((s, _)) = next
                .iter()
                .find(|(s, c)| c.eq_ignore_ascii_case(chit) && !development.gained.contains(s))
            else {
                return Err(DevelopmentError::BadExtraChit {
                    character: who.name.clone(),
                    chit: chit.clone(),
                    allowed: next
                        .iter()
                        .map(|(_, c)| c.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            };
            development.gained.push(*s);
        }
    } else {
        development.beyond = carried.extra;
    }
    who.development = Some(development);
    crate::abilities::shape_chits(data, rules, who);
    if stage >= 5 {
        who.gold += 15;
    }
    Ok(())
}

/// His card as it reads at `level`: that level's weapon, armour and spell
/// allowance, and only the chits of that level and before (3.1 10.E.5.2).
pub fn card_at_level(card: &Character, level: u8) -> Character {
    let mut at = card.clone();
    if let Some(kit) = level
        .checked_sub(1)
        .and_then(|i| card.development.get(usize::from(i)))
    {
        at.weapon = kit.weapon.clone();
        at.armor = kit.armor.clone();
        at.spells = kit.spells;
        at.chits.truncate(usize::from(level * CHITS_PER_LEVEL));
    }
    at
}

/// Start `who` at `level` under the development rule: his level's weapon
/// and armour, and his chits as the level and his abilities shape them.
/// His spells are recorded afterwards, by his level's allowance.
///
/// # Errors
/// The rule is off, or the level is not 1-4.
pub fn start_at(
    data: &GameData,
    rules: &Rules,
    who: &mut CharacterState,
    level: u8,
) -> Result<(), DevelopmentError> {
    if !in_force(rules) {
        return Err(DevelopmentError::RuleOff(who.name.clone()));
    }
    if !(1..=TOP_LEVEL).contains(&level) {
        return Err(DevelopmentError::BadLevel(level.to_string()));
    }
    let Some(card) = data.characters.iter().find(|c| c.name == who.name) else {
        return Ok(());
    };
    let kit = card_at_level(card, level);
    who.weapon = kit.weapon;
    who.armor = kit.armor;
    who.development = Some(Development::starting_at(level));
    crate::abilities::shape_chits(data, rules, who);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::TOGGLES;
    use crate::test_support::{data, test_game};

    fn rules() -> Rules {
        Rules::new([DEVELOPMENT], TOGGLES).expect("known toggle")
    }

    /// 3.1 10.E.5.2: a 1st-level Amazon is a Scout with a Light Bow and
    /// no armour, and has only her three 1st-level chits.
    #[test]
    fn a_first_level_amazon_has_her_first_three_chits_and_a_light_bow_3_1_10_e_5_2() {
        let mut state = test_game(&["Amazon"]);
        let amazon = &mut state.characters[0];
        start_at(data(), &rules(), amazon, 1).unwrap();
        let chits: Vec<&str> = amazon.chits.iter().map(|c| c.chit.as_str()).collect();
        assert_eq!(chits, ["MOVE M4", "MOVE M3*", "FIGHT L4"]);
        assert_eq!(amazon.weapon.as_deref(), Some("Light Bow"));
        assert!(amazon.armor.is_empty());
    }

    /// 3.1 10.E.5.2.1: no advantage at 1st level (the Dwarf's example),
    /// the first at 2nd and 3rd, both at 4th.
    #[test]
    fn advantages_come_at_2nd_and_4th_level_3_1_10_e_5_2_1() {
        let names = |level: u8| {
            let mut state = test_game(&["Dwarf"]);
            start_at(data(), &rules(), &mut state.characters[0], level).unwrap();
            crate::abilities::in_force(data(), &rules(), &state.characters[0])
                .into_iter()
                .map(|a| a.name.clone())
                .collect::<Vec<_>>()
        };
        assert!(names(1).is_empty());
        assert_eq!(names(2), names(3));
        assert_eq!(names(2).len(), 1);
        assert_eq!(names(4).len(), 2);
    }

    /// 3.1 10.E.5.3: one point fewer a level below 4th, never under two.
    #[test]
    fn victory_points_drop_a_point_a_level_but_not_under_two_3_1_10_e_5_3() {
        assert_eq!(victory_points(5, 4), 5);
        assert_eq!(victory_points(5, 2), 3);
        assert_eq!(victory_points(5, 1), 2);
        assert_eq!(victory_points(3, 1), 2);
    }

    #[test]
    fn a_level_reads_as_a_number_or_an_ordinal() {
        assert_eq!(read_level("2"), Ok(2));
        assert_eq!(read_level(" 3rd"), Ok(3));
        assert!(read_level("5").is_err());
        assert!(read_level("first").is_err());
    }
}
