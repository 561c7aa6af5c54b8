//! The small interface every game implements, so campaigns, the store, mail
//! and scheduling never depend on which game is played.
//!
//! Magic Realm ([`crate::magic_realm`]) is the first implementation and
//! Fantasy Realms the second. The plumbing sees a game only through
//! [`Game`]: its rule toggles, and a new game state built from a seed. State
//! crosses the boundary as JSON ([`GameState`]) so the store can keep one
//! snapshot per day and hash it without knowing its shape. Later issues extend
//! the interface with parsing orders, resolving a turn and projecting events
//! for a reader.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::dice::Dice;

/// Whether the engine applies a toggle yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ToggleStatus {
    Built,
    /// Accepted by name in a campaign file and listed as not yet implemented
    /// by `realmgm campaign show`, never silently ignored.
    NotYetImplemented,
}

/// An optional or house rule that a campaign file can switch on by name.
#[derive(Clone, Copy, Debug)]
pub struct RuleToggle {
    /// The name used in campaign files, in snake case.
    pub name: &'static str,
    /// One line saying what the rule changes.
    pub summary: &'static str,
    /// Where the rule is written down (seed file and section).
    pub source: &'static str,
    pub status: ToggleStatus,
    /// Toggles that cannot be on together with this one.
    pub excludes: &'static [&'static str],
}

/// The set of toggles a campaign has switched on, already checked against
/// the game's list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    enabled: BTreeSet<String>,
}

impl Rules {
    /// Check `names` against `known` and build the set.
    ///
    /// # Errors
    /// An unknown name (with the nearest known names) or two toggles that
    /// exclude each other.
    pub fn new<'a>(
        names: impl IntoIterator<Item = &'a str>,
        known: &[RuleToggle],
    ) -> Result<Rules, String> {
        let mut enabled = BTreeSet::new();
        for name in names {
            let Some(toggle) = known.iter().find(|t| t.name == name) else {
                let hint = crate::suggest::did_you_mean(name, known.iter().map(|t| t.name));
                return Err(format!("unknown rule toggle '{name}'{hint}"));
            };
            enabled.insert(toggle.name.to_string());
        }
        for toggle in known.iter().filter(|t| enabled.contains(t.name)) {
            if let Some(other) = toggle.excludes.iter().find(|o| enabled.contains(**o)) {
                return Err(format!(
                    "the rule toggles '{}' and '{other}' cannot both be on; remove one of them",
                    toggle.name
                ));
            }
        }
        Ok(Rules { enabled })
    }

    pub fn is_on(&self, name: &str) -> bool {
        self.enabled.contains(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.enabled.iter().map(String::as_str)
    }
}

/// A seat at the table as the game needs it when a game starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub player: String,
    /// The character (Magic Realm) once chosen; games without characters
    /// leave it empty.
    pub character: Option<String>,
}

/// A game's whole state as JSON, as the store keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameState(pub serde_json::Value);

impl GameState {
    /// The canonical bytes of the state: JSON with object keys in a fixed
    /// order, so equal states give equal bytes on every machine.
    pub fn canonical_bytes(&self) -> Vec<u8> {
        // serde_json's Map is a BTreeMap (the preserve_order feature is off),
        // so keys are always sorted.
        serde_json::to_vec(&self.0).expect("a JSON value always serializes")
    }

    /// SHA-256 of the canonical bytes, in hex: what determinism tests and the
    /// daemon's re-run check compare.
    pub fn hash(&self) -> String {
        hex(&Sha256::digest(self.canonical_bytes()))
    }
}

/// Lower-case hex of a byte string.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One game the plumbing can run.
pub trait Game: Sync {
    /// The name campaign files use (`game = "magic-realm"`).
    fn id(&self) -> &'static str;
    /// Every rule toggle the game knows.
    fn toggles(&self) -> &'static [RuleToggle];
    /// A new game from the campaign's seats and rules; all randomness comes
    /// from `dice` (day 0).
    ///
    /// # Errors
    /// A setup the rules do not allow (too many players, an unknown
    /// character, an illegal board), worded for the GM.
    fn new_game(&self, seats: &[Seat], rules: &Rules, dice: &mut Dice)
    -> anyhow::Result<GameState>;
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[RuleToggle] = &[
        RuleToggle {
            name: "optional_missile_table",
            summary: "",
            source: "",
            status: ToggleStatus::Built,
            excludes: &["revised_missile_table"],
        },
        RuleToggle {
            name: "revised_missile_table",
            summary: "",
            source: "",
            status: ToggleStatus::NotYetImplemented,
            excludes: &["optional_missile_table"],
        },
    ];

    #[test]
    fn rules_accept_known_names_and_refuse_unknown_or_exclusive_ones() {
        let rules = Rules::new(["revised_missile_table"], KNOWN).unwrap();
        assert!(rules.is_on("revised_missile_table"));
        assert!(!rules.is_on("optional_missile_table"));
        let err = Rules::new(["optional_misile_table"], KNOWN).unwrap_err();
        assert!(err.contains("did you mean optional_missile_table"), "{err}");
        let err =
            Rules::new(["optional_missile_table", "revised_missile_table"], KNOWN).unwrap_err();
        assert!(err.contains("cannot both be on"), "{err}");
    }

    #[test]
    fn state_hash_ignores_key_insertion_order() {
        let a = GameState(serde_json::json!({"b": 1, "a": [1, 2]}));
        let b = GameState(serde_json::from_str(r#"{"a":[1,2],"b":1}"#).unwrap());
        assert_eq!(a.hash(), b.hash());
        assert_eq!(a.canonical_bytes(), br#"{"a":[1,2],"b":1}"#);
    }
}
