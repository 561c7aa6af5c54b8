//! A GM's ruling as the game keeps it between the moment the GM makes it and
//! the next Birdsong, when the day engine carries it out
//! (`day::rulings`). The ruling is a change the rules did not make: the GM
//! mends a mistake or settles what the rules leave open.
//!
//! Rulings are inputs of a day like orders: the daemon stores them with the
//! day they apply to and queues them on the state before the day runs, so a
//! rollback and re-run carries out the same rulings in the same order.

use serde::{Deserialize, Serialize};

use super::{ChitCondition, Item};
use crate::board::ClearingId;

/// What the GM rules, with names already checked against the state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "ruling", rename_all = "snake_case")]
pub enum Ruling {
    /// The item leaves whoever holds it (a character, a site, a dwelling,
    /// the GM's box) and the character carries it, inactive.
    Give { item: Item, to: String },
    /// The item leaves the character for the GM's box, from which a later
    /// `give` may hand it out again.
    Take { item: Item, from: String },
    /// Gold, fame or notoriety changed by `change` (gold never below 0).
    Change {
        character: String,
        record: Record,
        change: i32,
    },
    /// The character is put in another clearing.
    MoveCharacter { character: String, to: ClearingId },
    /// A monster or native counter is put in a clearing.
    MoveDenizen { denizen: String, to: ClearingId },
    /// One of the character's chits is set active, fatigued or wounded.
    Chit {
        character: String,
        chit: String,
        condition: ChitCondition,
    },
    /// Every chit of the character is active again.
    Heal { character: String },
    /// The character learns where a site's treasure lies, or a hidden path
    /// or secret passage.
    Discover {
        character: String,
        discovery: Discovery,
    },
    /// The character is killed, as in combat. Rulings are carried out at
    /// Birdsong, just before the dead come back, so he starts again at the
    /// Inn at once, as one killed the evening before does (as another
    /// character when his day's orders have a `Character:` line).
    Kill { character: String },
    /// The character leaves the Realm (his player left the campaign): what
    /// he carried stays in his clearing, his hirelings are free.
    Retire { character: String },
    /// The seat plays another character from now on: the old one leaves
    /// the Realm as in `Retire`, the new one enters at the Inn as at setup.
    Replace { character: String, with: String },
    /// The starting info of a character about to enter the Realm (a late
    /// joiner's): his victory requirements, and the spells he records as
    /// he enters (none for a character who records none).
    StartingInfo {
        character: String,
        victory: super::VictoryRequirements,
        #[serde(default)]
        spells: Vec<String>,
    },
}

/// A character's record a ruling may change by a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Record {
    Gold,
    Fame,
    Notoriety,
}

impl Record {
    pub fn name(self) -> &'static str {
        match self {
            Record::Gold => "gold",
            Record::Fame => "fame",
            Record::Notoriety => "notoriety",
        }
    }
}

/// Knowledge a ruling can give.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Discovery {
    /// A site chit's treasure location.
    Site(String),
    /// A hidden path or secret passage, as the two clearings it joins.
    Route(ClearingId, ClearingId),
}

/// A ruling waiting for the next Birdsong, with the GM's reason as the
/// players will read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueuedRuling {
    pub ruling: Ruling,
    pub why: String,
}

/// The holder name of the GM's box: what a ruling took out of play.
pub const GM_BOX: &str = "Set aside by the GM";
