//! Every choice a player makes in a round of combat, as an explicit
//! decision point with its answer (play summary III.A.1, A.4, B.3, B.5, C):
//! whom to lure, where to deploy hired natives, the Encounter action, the melee plays (target, attack,
//! maneuver, shield, where the attackers on his sheet stand) and which
//! chits take his fatigue and wounds. Standing orders ([`super::Tactics`])
//! answer them; a game played round by round asks the player instead.

use serde::{Deserialize, Serialize};

use super::model::{Direction, FighterId};

/// The four points in a round where a character decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Lure,
    Deploy,
    Action,
    Melee,
    Fatigue,
}

impl Stage {
    pub fn word(self) -> &'static str {
        match self {
            Stage::Lure => "luring",
            Stage::Deploy => "deploying hired natives",
            Stage::Action => "encounter action",
            Stage::Melee => "melee plays",
            Stage::Fatigue => "fatigue and wounds",
        }
    }
}

/// A decision the engine waits for. What he may choose from is built
/// only when asked ([`super::Battle::options`]): standing orders answer
/// most decisions without anyone reading the options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    pub fighter: FighterId,
    pub character: String,
    pub player: String,
    pub round: u32,
    pub stage: Stage,
    /// The battle's clearing label (`CV4`).
    #[serde(default)]
    pub clearing: String,
    /// What he may choose from, in words, for a round prompt: built only
    /// when a battle stops for him ([`super::by_rounds`]), never on the
    /// standing-orders path, where it would only cost time.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// His combat sheet in words, for a round prompt (filled when a battle
    /// stops for him, [`super::by_rounds`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sheet: Vec<String>,
    /// The player who answers for him by mail when that is not his seat's
    /// name: under Multiple Characters the player of several (3.1
    /// 10.E.4), set by the game as the day stops for the round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<String>,
}

impl Decision {
    /// The player whose mail answers this decision.
    pub fn answered_by(&self) -> &str {
        self.controller.as_deref().unwrap_or(&self.player)
    }
}

/// The Encounter action (play summary III.A.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    Nothing,
    /// Alert his weapon with this FIGHT chit.
    Alert {
        chit: String,
    },
    /// Run out of the clearing with this MOVE chit, or `horse` to gallop.
    Run {
        chit: String,
    },
    /// Cast a spell (the magic rules), at a fighter named in the combat
    /// or at the default target (`casting.rs`).
    Cast {
        spell: String,
        #[serde(default)]
        target: Option<String>,
    },
    /// Charge this character (III.A.3): put a MOVE chit, or `horse`, on
    /// his sheet. Charges take effect before every other action.
    Charge {
        target: String,
        with: String,
    },
    /// Abandon this belonging in the clearing (III.A.4, when he takes no
    /// other action).
    Abandon {
        item: String,
        /// Dropped in plain sight in front of him rather than lost (3.1
        /// 10.A.5.1.2, with Dropping and Losing Belongings).
        #[serde(default)]
        drop: bool,
    },
    /// Pick up a dropped belonging (3.1 10.A.5.5, with Dropping and Losing
    /// Belongings): one lying in front of him needs no chit; any other
    /// needs a MOVE chit, `with` when he named one (`pick_up.rs`).
    PickUp {
        item: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        with: Option<String>,
    },
    /// Make one belonging active and/or one inactive (III.A.4, when he
    /// takes no other action; `activation.rs`).
    Switch {
        #[serde(default)]
        activate: Option<String>,
        #[serde(default)]
        inactivate: Option<String>,
    },
}

/// How a character maneuvers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManeuverPlay {
    /// A MOVE or DUCK chit label, or `horse` for his active horse.
    pub with: String,
    pub direction: Direction,
}

/// How a character attacks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackPlay {
    /// The FIGHT chit played with his weapon (or the dagger).
    pub chit: String,
    pub direction: Direction,
}

/// A character's melee plays for one round.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleePlay {
    /// Whom he attacks (a character's name or a counter id).
    pub target: Option<String>,
    pub attack: Option<AttackPlay>,
    pub maneuver: Option<ManeuverPlay>,
    /// With riding horses: his own maneuver besides the horse's.
    pub own_maneuver: Option<ManeuverPlay>,
    /// The line his shield guards.
    pub shield: Option<Direction>,
    /// The box of each attacker on his sheet, in sheet order; missing ones
    /// fill the boxes in turn.
    pub placements: Vec<(String, Direction)>,
    /// The side he turns up each hireling defending on its own sheet
    /// (3.1 8.4.5n.1); unnamed ones keep theirs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<(String, crate::state::CounterSide)>,
    /// With riding horses: he attacks his target's horse, not the rider.
    #[serde(default)]
    pub at_horse: bool,
    /// The side his horse maneuvers on; unsaid, galloping when it may.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gait: Option<super::model::Gait>,
}

/// Which chits take his fatigue and wounds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FatiguePlay {
    /// The chits that pay his fatigue: one, or more when he played more
    /// than two asterisks (3.1 8.5.1c).
    pub fatigue: Vec<String>,
    pub wounds: Vec<String>,
}

/// The answer to a [`Decision`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum Answer {
    Lure {
        denizens: Vec<String>,
        /// Hired natives each luring one denizen: (hired native, denizen).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        hirelings: Vec<(String, String)>,
    },
    /// Hired natives sent against denizens: (hired native, target).
    Deploy {
        pairs: Vec<(String, String)>,
    },
    Action(Action),
    Melee(MeleePlay),
    Fatigue(FatiguePlay),
}

impl Answer {
    pub fn stage(&self) -> Stage {
        match self {
            Answer::Lure { .. } => Stage::Lure,
            Answer::Deploy { .. } => Stage::Deploy,
            Answer::Action(_) => Stage::Action,
            Answer::Melee(_) => Stage::Melee,
            Answer::Fatigue(_) => Stage::Fatigue,
        }
    }
}
