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
//! This module answers what a level gives; the level and progress are kept
//! in `state::development`, a character is started at his level or stage
//! by `setup::development`, and advancing (10.E.5.4) is worked out at
//! Midnight by `day::development`, which reads his points.
//!
//! Rulings: an optional ability (10.A.6) comes at the level of the
//! standard one it replaces; a character without a `Development` record
//! is at 4th level.

use thiserror::Error;

use crate::data::characters::{Ability, Character};
use crate::state::CharacterState;
use crate::state::development::Carried;
use realmgm_core::game::Rules;

/// The name of the toggle.
pub const DEVELOPMENT: &str = "development";

/// The toggle keeping a character's stage from campaign to campaign.
pub const EXTENDED_DEVELOPMENT: &str = "extended_development";

/// Extended Development's longer game: twice the victory points a stage
/// (3.1 10.E.6.2).
pub const DOUBLE_POINTS: &str = "extended_development_double_points";

/// Extended Development's longer game: three times the victory points a
/// stage (3.1 10.E.6.2).
pub const TRIPLE_POINTS: &str = "extended_development_triple_points";

/// The winner gains one extra chit instead of a whole stage (3.1
/// 10.E.6.3.4, option).
pub const WINNER_ONE_CHIT: &str = "extended_development_winner_one_chit";

/// The winner gains nothing for winning (3.1 10.E.6.3.4, option).
pub const WINNER_NO_JUMP: &str = "extended_development_winner_no_jump";

/// A killed character comes back as himself, three chits down (3.1
/// 10.E.6.4).
pub const REVIVAL: &str = "extended_development_revival";

/// Extended Development without victory requirements: points of any kind
/// earn chits, and the victor is who earned the most (3.1 10.E.6.10).
pub const WITHOUT_REQUIREMENTS: &str = "extended_development_without_requirements";

/// The game ends when a character has met his victory requirements, and
/// he wins (3.1 10.E.6.3; without it, its option: the calendar's length).
pub const ENDS_AT_VICTORY: &str = "extended_development_ends_at_victory";

/// The options of Extended Development, each meaningful only with it.
const EXTENDED_OPTIONS: &[&str] = &[
    ENDS_AT_VICTORY,
    DOUBLE_POINTS,
    TRIPLE_POINTS,
    WINNER_ONE_CHIT,
    WINNER_NO_JUMP,
    REVIVAL,
    WITHOUT_REQUIREMENTS,
];

/// The stage whose reward may be an extra spell instead of a counter
/// (3.1 10.E.6.7.6).
pub const SPELL_STAGE: u8 = 10;

/// The highest stage a campaign may start a character at: an 11th-stage
/// character is an "immortal", retired (3.1 10.E.6.7.7).
pub const HIGHEST_STAGE: u8 = 10;

pub use crate::state::development::{CHITS_PER_LEVEL, TOP_LEVEL};

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
        "[carry_over.development] gives the {character} stage {stage}: stages run from 1 to 10; \
         an 11th-stage character is an immortal and retires (3.1 10.E.6.7.7), so his player \
         starts over with another character"
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
    #[error(
        "the rule {0} is an option of Extended Development (3.1 10.E.6), which is off; add \
         \"extended_development\" to the campaign's rules or take {0} out"
    )]
    OptionWithoutExtended(&'static str),
    #[error(
        "[carry_over.development] gives the {character} an extra_spell at stage {stage}: only \
         a 10th-stage character records an extra spell, instead of taking a weapon or armour \
         counter (3.1 10.E.6.7.6); take extra_spell out"
    )]
    ExtraSpellBelowTenth { character: String, stage: u8 },
    #[error("[carry_over.development] gives the {character} the extra spell '{spell}': {why}")]
    ExtraSpell {
        character: String,
        spell: String,
        why: String,
    },
}

/// Refuse an option of Extended Development named without it.
///
/// # Errors
/// The first such option.
pub fn check_options(rules: &Rules) -> Result<(), DevelopmentError> {
    if rules.is_on(EXTENDED_DEVELOPMENT) {
        return Ok(());
    }
    match EXTENDED_OPTIONS.iter().find(|o| rules.is_on(o)) {
        Some(option) => Err(DevelopmentError::OptionWithoutExtended(option)),
        None => Ok(()),
    }
}

/// The victory points each stage asks under Extended Development: 1, or
/// 2 or 3 when the players lengthen the game (3.1 10.E.6.2).
pub fn points_per_stage(rules: &Rules) -> u8 {
    if rules.is_on(TRIPLE_POINTS) {
        3
    } else if rules.is_on(DOUBLE_POINTS) {
        2
    } else {
        1
    }
}

/// The victory points a character at `stage` records: his next stage's
/// number, times `per_stage` (3.1 10.E.6.2, 10.E.6.8).
pub fn next_stage_points(stage: u8, per_stage: u8) -> u32 {
    (u32::from(stage) + 1) * u32::from(per_stage)
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
        Some(d) if d.extended => next_stage_points(d.start_level, d.points_per_stage),
        Some(d) => victory_points(points, d.start_level),
        None => points,
    }
}

/// The victory points a killed `who` records as he starts over in a game
/// asking `points`: under Extended Development's revival his next stage's
/// once three chits are gone (3.1 10.E.6.4); else the game's.
pub fn restart_victory_points(who: &CharacterState, points: u32) -> u32 {
    revived(who).map_or(points, |r| next_stage_points(r.level, r.points_per_stage))
}

/// A killed `who`'s development as he is revived under Extended
/// Development's revival: three chits down, one revival more (3.1
/// 10.E.6.4); `None` when he is not dead or not revived.
pub fn revived(who: &CharacterState) -> Option<crate::state::development::Development> {
    let d = who.development.as_ref()?;
    (d.extended && d.revives && who.dead).then(|| {
        let mut revived = d.moved_by(-i32::from(CHITS_PER_LEVEL));
        revived.revived += 1;
        revived
    })
}

/// The card a killed `who` starts over with as `kind`: under Extended
/// Development's revival, as himself, his card at the stage he is revived
/// at, three chits down (3.1 10.E.6.4); else `kind` whole.
pub fn restart_card(who: &CharacterState, kind: &Character) -> Character {
    match revived(who).filter(|_| who.name == kind.name) {
        Some(revived) => card_at_level(kind, revived.level.min(TOP_LEVEL)),
        None => kind.clone(),
    }
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
