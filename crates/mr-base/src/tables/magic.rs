//! The magic tables (`tables/magic.rs`–5.4; magic summary covers casting in
//! general): Power of the Pit, Curses, Wish and Transform. Each says what
//! befalls the target; killing, wounding, teleporting and recording a curse
//! are the engine's to apply (Druid's Earth Absorbs, the Chapel and Remedy
//! remove or prevent curses there).

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{DieTable, six_row_index};
use crate::data::characters::{ActionChit, ChitAction};
use crate::data::terms::Strength;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PitEvent {
    /// Every unhidden character, native and monster in the clearing dies
    /// (not visitors, not hidden individuals).
    FieryChasm,
    /// The target dies.
    CarriedAway,
    /// Characters here wound their L and M Move and Fight chits; L and M
    /// monsters, natives and horses here die.
    Terror,
    /// The target's active chits with effort asterisks become wounded.
    Blight,
    /// The target's active Magic chits become fatigued.
    Forget,
    /// The target's active armour counters are damaged (damaged ones
    /// destroyed).
    Rust,
}

impl fmt::Display for PitEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PitEvent::FieryChasm => {
                "fiery chasm: every unhidden character, native and monster in the clearing dies"
            }
            PitEvent::CarriedAway => "carried away: the target dies",
            PitEvent::Terror => {
                "terror: characters here wound their L/M Move and Fight chits; L/M denizens and horses here die"
            }
            PitEvent::Blight => "blight: the target's active asterisked chits are wounded",
            PitEvent::Forget => "forget: the target's active Magic chits are fatigued",
            PitEvent::Rust => "rust: the target's active armour counters take damage",
        })
    }
}

impl PitEvent {
    /// Whether this result acts on an action chit printed as `chit` (3.1
    /// Spell Tables, Power of the Pit): Terror on every Light or Medium MOVE
    /// or FIGHT chit, Blight on chits with effort asterisks, Forget on MAGIC
    /// chits. Blight and Forget change only the active ones.
    pub fn touches(self, chit: &ActionChit) -> bool {
        match self {
            PitEvent::Terror => {
                matches!(chit.action, ChitAction::Move | ChitAction::Fight)
                    && matches!(chit.strength, Some(Strength::Light | Strength::Medium))
            }
            PitEvent::Blight => chit.effort > 0,
            PitEvent::Forget => chit.action == ChitAction::Magic,
            PitEvent::FieryChasm | PitEvent::CarriedAway | PitEvent::Rust => false,
        }
    }
}

const PIT: [PitEvent; 6] = [
    PitEvent::FieryChasm,
    PitEvent::CarriedAway,
    PitEvent::Terror,
    PitEvent::Blight,
    PitEvent::Forget,
    PitEvent::Rust,
];

/// The Power of the Pit table (the spell, and the Demons' light side).
#[derive(Clone, Copy, Debug, Default)]
pub struct PowerOfThePit;

impl DieTable for PowerOfThePit {
    type Outcome = PitEvent;

    fn rule(&self) -> &'static str {
        "4.6.8"
    }
    fn name(&self) -> Cow<'static, str> {
        "Power of the Pit".into()
    }
    fn outcome(&self, row: i8) -> PitEvent {
        PIT[six_row_index(row)]
    }
}

/// The six curses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CurseKind {
    /// No Search activity (Enhanced Peer still allowed).
    Eyemist,
    /// Can never be hidden.
    Squeak,
    /// No active effort asterisks.
    Wither,
    /// No Rest activity.
    IllHealth,
    /// Recorded gold is worthless; counts as −1 for victory points.
    Ashes,
    /// Recorded fame is worthless; counts as −1 for victory points.
    Disgust,
}

impl CurseKind {
    /// The curse's name as the rules print it ("Ill Health").
    pub fn name(self) -> &'static str {
        match self {
            CurseKind::Eyemist => "Eyemist",
            CurseKind::Squeak => "Squeak",
            CurseKind::Wither => "Wither",
            CurseKind::IllHealth => "Ill Health",
            CurseKind::Ashes => "Ashes",
            CurseKind::Disgust => "Disgust",
        }
    }
}

/// The name with what the curse does.
impl fmt::Display for CurseKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let effect = match self {
            CurseKind::Eyemist => "cannot Search (Enhanced Peer allowed)",
            CurseKind::Squeak => "can never be hidden",
            CurseKind::Wither => "no active effort asterisks; active ones fatigue",
            CurseKind::IllHealth => "cannot Rest",
            CurseKind::Ashes => "recorded gold is worthless and cannot be spent",
            CurseKind::Disgust => "recorded fame is worthless and cannot be spent",
        };
        write!(f, "{}: {effect}", self.name())
    }
}

/// The six curses, in the Curse table's order.
pub const CURSES: [CurseKind; 6] = [
    CurseKind::Eyemist,
    CurseKind::Squeak,
    CurseKind::Wither,
    CurseKind::IllHealth,
    CurseKind::Ashes,
    CurseKind::Disgust,
];

/// The Curse table: which curse strikes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Curse;

impl DieTable for Curse {
    type Outcome = CurseKind;

    fn rule(&self) -> &'static str {
        "4.6.8"
    }
    fn name(&self) -> Cow<'static, str> {
        "Curse".into()
    }
    fn outcome(&self, row: i8) -> CurseKind {
        CURSES[six_row_index(row)]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WishResult {
    /// The caster moves to any clearing he chooses.
    SelfElsewhere,
    /// One other individual in the clearing is sent away (denizens to the
    /// setup card) and its spells end.
    OtherElsewhere,
    /// Look into any one box of the setup card.
    Vision,
    /// Combat in the clearing ends for the day.
    Peace,
    /// Every fatigued and wounded chit heals.
    Health,
    /// The next Fight chit (or Gloves) used has T strength.
    Strength,
}

impl fmt::Display for WishResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WishResult::SelfElsewhere => "elsewhere: the caster moves to any clearing",
            WishResult::OtherElsewhere => {
                "you elsewhere: one other individual here is sent away and its spells end"
            }
            WishResult::Vision => "vision: look into one box of the setup card",
            WishResult::Peace => "peace: combat here ends for the day",
            WishResult::Health => "health: every fatigued and wounded chit heals",
            WishResult::Strength => "strength: the next Fight chit or Gloves used has T strength",
        })
    }
}

const WISHES: [WishResult; 6] = [
    WishResult::SelfElsewhere,
    WishResult::OtherElsewhere,
    WishResult::Vision,
    WishResult::Peace,
    WishResult::Health,
    WishResult::Strength,
];

/// The Wish table.
#[derive(Clone, Copy, Debug, Default)]
pub struct Wish;

impl DieTable for Wish {
    type Outcome = WishResult;

    fn rule(&self) -> &'static str {
        "4.6.8"
    }
    fn name(&self) -> Cow<'static, str> {
        "Wish".into()
    }
    fn outcome(&self, row: i8) -> WishResult {
        WISHES[six_row_index(row)]
    }
}

/// An animal attack: harm and attack time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormAttack {
    pub harm: Strength,
    pub time: u8,
}

/// What Transform turns the target into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TransformForm {
    pub name: &'static str,
    /// `None`: the form cannot attack.
    pub attack: Option<FormAttack>,
    pub move_strength: Strength,
    pub move_time: u8,
    /// Flies, and must fly to move.
    pub flies: bool,
    pub vulnerability: Strength,
    pub armoured: bool,
}

impl fmt::Display for TransformForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.name)?;
        match self.attack {
            Some(a) => write!(f, "attack {}{}", a.harm, a.time)?,
            None => f.write_str("cannot attack")?,
        }
        let how = if self.flies { "fly" } else { "move" };
        write!(
            f,
            ", {how} {}{}, vulnerability {}{}",
            self.move_strength,
            self.move_time,
            self.vulnerability,
            if self.armoured { " armoured" } else { "" }
        )
    }
}

const fn form(
    name: &'static str,
    attack: Option<(Strength, u8)>,
    moves: (Strength, u8, bool),
    vulnerability: Strength,
    armoured: bool,
) -> TransformForm {
    TransformForm {
        name,
        attack: match attack {
            Some((harm, time)) => Some(FormAttack { harm, time }),
            None => None,
        },
        move_strength: moves.0,
        move_time: moves.1,
        flies: moves.2,
        vulnerability,
        armoured,
    }
}

use Strength::{Heavy, Light, Medium, Tremendous};

const FORMS: [TransformForm; 6] = [
    form(
        "Dragon",
        Some((Tremendous, 4)),
        (Tremendous, 4, true),
        Tremendous,
        true,
    ),
    form("Lion", Some((Heavy, 3)), (Heavy, 4, false), Heavy, false),
    form("Eagle", Some((Medium, 2)), (Medium, 2, true), Medium, false),
    form("Bird", None, (Light, 1, true), Light, false),
    form("Squirrel", None, (Light, 2, false), Light, false),
    form("Frog", None, (Light, 3, false), Light, false),
];

/// Every Transform form, row 1 first (for cross-checks and display).
pub fn transform_forms() -> &'static [TransformForm; 6] {
    &FORMS
}

/// The Transform table.
#[derive(Clone, Copy, Debug, Default)]
pub struct Transform;

impl DieTable for Transform {
    type Outcome = TransformForm;

    fn rule(&self) -> &'static str {
        "4.6.9"
    }
    fn name(&self) -> Cow<'static, str> {
        "Transform".into()
    }
    fn outcome(&self, row: i8) -> TransformForm {
        FORMS[six_row_index(row)]
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_dice::rows;
    use super::*;

    #[test]
    fn power_of_the_pit_rows() {
        use PitEvent::*;
        assert_eq!(
            rows(&PowerOfThePit),
            vec![FieryChasm, CarriedAway, Terror, Blight, Forget, Rust]
        );
    }

    #[test]
    fn a_curse_is_named_as_the_rules_print_it_wherever_it_is_read() {
        use crate::magic::events::MagicEvent;
        use crate::state::magic::Aim;
        assert_eq!(CurseKind::IllHealth.to_string(), "Ill Health: cannot Rest");
        let aim = Aim::Curse {
            character: "Amazon".into(),
            curse: CurseKind::IllHealth,
        };
        assert_eq!(aim.to_string(), "the Ill Health curse on the Amazon");
        let missed = MagicEvent::CurseMissed {
            character: "Amazon".into(),
            curse: CurseKind::IllHealth,
            reason: "she has it".into(),
        };
        assert_eq!(
            missed.to_string(),
            "  the curse Ill Health misses Amazon: she has it"
        );
        let lifted = MagicEvent::CurseLifted {
            character: "Amazon".into(),
            curse: CurseKind::IllHealth,
            by: "the Chapel".into(),
        };
        assert_eq!(
            lifted.to_string(),
            "  Amazon is freed of Ill Health by the Chapel"
        );
    }

    #[test]
    fn curse_rows() {
        use CurseKind::*;
        assert_eq!(
            rows(&Curse),
            vec![Eyemist, Squeak, Wither, IllHealth, Ashes, Disgust]
        );
    }

    #[test]
    fn wish_rows() {
        use WishResult::*;
        assert_eq!(
            rows(&Wish),
            vec![
                SelfElsewhere,
                OtherElsewhere,
                Vision,
                Peace,
                Health,
                Strength
            ]
        );
    }

    #[test]
    fn transform_rows() {
        let names: Vec<&str> = rows(&Transform).iter().map(|f| f.name).collect();
        assert_eq!(
            names,
            vec!["Dragon", "Lion", "Eagle", "Bird", "Squirrel", "Frog"]
        );
        let dragon = FORMS[0];
        assert!(dragon.armoured && dragon.flies);
        assert_eq!(dragon.attack.map(|a| a.harm), Some(Tremendous));
        assert!(FORMS[3..].iter().all(|f| f.attack.is_none()));
        assert_eq!(
            FORMS[1].to_string(),
            "Lion: attack H3, move H4, vulnerability H"
        );
    }
}
