//! A developing character's level and progress (3.1 10.E.5, 10.E.6), as
//! the state keeps it; the rules that read and move it are in
//! `development` (above the state), `setup::development` and
//! `day::development`.

use serde::{Deserialize, Serialize};

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
    /// Under Extended Development, the victory points each stage asks of
    /// him: 1, or 2 or 3 in a campaign the players agreed to lengthen (3.1
    /// 10.E.6.2, `extended_development_double_points`, `_triple_points`).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub points_per_stage: u8,
    /// Under Extended Development's revival option a killed character
    /// comes back as himself, three chits down (3.1 10.E.6.4,
    /// `extended_development_revival`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub revives: bool,
    /// How often he was killed and revived this game: a revived character
    /// did not survive unkilled, so earns no survivor's chit (3.1 10.E.6.3.1).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub revived: u8,
    /// Chits he earned this game, those lost to a death since included:
    /// without victory requirements the most of them wins (3.1 10.E.6.10).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub earned: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn one() -> u8 {
    1
}

fn is_one(n: &u8) -> bool {
    *n == 1
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
            points_per_stage: 1,
            revives: false,
            revived: 0,
            earned: 0,
        }
    }

    /// Every chit he has: three for each stage reached and those earned
    /// toward the next (3.1 10.E.6.3.2, 10.E.6.6).
    pub fn chits(&self) -> u8 {
        let toward = if self.level >= TOP_LEVEL {
            self.beyond
        } else {
            u8::try_from(self.gained.len()).unwrap_or(0)
        };
        self.level * CHITS_PER_LEVEL + toward
    }

    /// His stage and chits after `change` chits more or fewer, never below
    /// 1st stage's three (3.1 10.E.6.3, 10.E.6.5), with no points banked.
    /// Toward a stage below 4th the chits he had toward it stay his first,
    /// then come the next in his card's order.
    pub fn moved_by(&self, change: i32) -> Development {
        let per = i32::from(CHITS_PER_LEVEL);
        let after = (i32::from(self.chits()) + change).max(per);
        let level = u8::try_from(after / per).unwrap_or(u8::MAX);
        let toward = u8::try_from(after % per).unwrap_or(0);
        let mut moved = Development {
            start_level: level,
            level,
            gained: Vec::new(),
            best_points: 0,
            banked: 0,
            beyond: 0,
            ..self.clone()
        };
        if level >= TOP_LEVEL {
            moved.beyond = toward;
        } else {
            let mut stages = if level == self.level {
                self.gained.clone()
            } else {
                Vec::new()
            };
            for next in moved.next_stages() {
                if !stages.contains(&next) {
                    stages.push(next);
                }
            }
            stages.truncate(usize::from(toward));
            moved.gained = stages;
        }
        moved
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
    /// At 10th stage, the spell of any type he records instead of taking a
    /// weapon or armour counter from the natives (3.1 10.E.6.7.6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra_spell: Option<String>,
}
