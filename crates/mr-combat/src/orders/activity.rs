//! The canonical form of a recorded day: one [`Phase`] per activity, as the
//! engine executes it and as confirmations echo it back.
//!
//! The canonical text follows the BIMR GMs' record lines (BIMR3 rules and
//! the recorded notation in README "Orders"): phases joined by ` / `, moves as `M-CV4`, a bonus
//! phase starred after its code, notes in parentheses; the codes are the
//! third edition's (3.1 7.7.1 and the Activities Table: `HR`, `FL`, `EM`,
//! `E`, `RE`), though players may still write the older `Fly`, `SPX` and
//! `SP`, and `E (tile CV5)` for `RE (CV5)`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What a phase does (play summary, II.C: the daylight activities).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "activity", rename_all = "snake_case")]
pub enum Activity {
    /// Move to a clearing.
    Move {
        tile: String,
        clearing: u8,
    },
    Hide,
    Alert,
    /// Rest, optionally naming the chit to heal.
    Rest {
        #[serde(skip_serializing_if = "Option::is_none")]
        chit: Option<String>,
    },
    Search,
    Trade,
    Hire,
    /// Follow another character (or a hired leader) for the whole day.
    Follow {
        leader: String,
    },
    /// Fly to a tile, where an item or spell allows flying.
    Fly {
        tile: String,
    },
    /// The day's first Enchant phase, which prepares the later ones (`EM`,
    /// formerly `SPX`; 3.1 7.10.1).
    SpellPrep,
    /// Enchant a chit or a tile (`E`, formerly `SP`), optionally naming the
    /// chit.
    Spell {
        #[serde(skip_serializing_if = "Option::is_none")]
        chit: Option<String>,
    },
    /// Put belongings and gold into his cache here, or take them back, as
    /// the `Cache:` line says (`C`; advanced rule A.4, `day/cache.rs`).
    Cache,
}

/// One recorded phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Phase {
    #[serde(flatten)]
    pub activity: Activity,
    /// A bonus phase from an advantage, a horse or an active item (`H*`, `*M DV5`).
    pub bonus: bool,
    /// The player's parenthesised remark, kept for the GM and the echo.
    pub note: Option<String>,
}

/// A whole recorded day.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activities {
    pub phases: Vec<Phase>,
}

impl Activity {
    /// The short code used in record lines.
    pub fn code(&self) -> &'static str {
        match self {
            Activity::Move { .. } => "M",
            Activity::Hide => "H",
            Activity::Alert => "A",
            Activity::Rest { .. } => "R",
            Activity::Search => "S",
            Activity::Trade => "T",
            Activity::Hire => "HR",
            Activity::Follow { .. } => "F",
            Activity::Fly { .. } => "FL",
            Activity::SpellPrep => "EM",
            Activity::Spell { .. } => "E",
            Activity::Cache => "C",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let star = if self.bonus { "*" } else { "" };
        match &self.activity {
            Activity::Move { tile, clearing } => write!(f, "M-{tile} {clearing}{star}")?,
            Activity::Fly { tile } => write!(f, "FL-{tile}{star}")?,
            Activity::Follow { leader } => write!(f, "F {leader}{star}")?,
            Activity::Rest { chit: Some(chit) } => write!(f, "R{star}-{chit}")?,
            Activity::Spell { chit: Some(chit) } => write!(f, "E{star}-{chit}")?,
            Activity::Spell { chit: None } if self.remote_clearing().is_some() => {
                write!(f, "RE{star}")?;
            }
            Activity::Search if self.peer_clearing().is_some() => write!(f, "P{star}")?,
            other => write!(f, "{}{star}", other.code())?,
        }
        match (self.remote_clearing().or(self.peer_clearing()), &self.note) {
            // 3.1 7.10.1 writes a remote enchant `RE (clearing)`: the
            // clearing is the first note, with no `tile` before it.
            (Some(clearing), Some(note)) => {
                if !clearing.is_empty() {
                    write!(f, " ({clearing})")?;
                }
                if let Some((_, rest)) = note.split_once("; ") {
                    write!(f, " ({rest})")?;
                }
            }
            (_, Some(note)) => write!(f, " ({note})")?,
            (_, None) => {}
        }
        Ok(())
    }
}

/// The first note of a Search phase recorded as 3.1's `P` (7.5.4i): a Peer,
/// followed by the clearing of an enhanced Peer (`peer Curst Valley 5`).
pub const PEER_NOTE: &str = "peer";

impl Phase {
    /// The clearing a Peer recorded as `P` names (3.1 7.5.4i, kept as a
    /// first note `peer CV 5`), empty for a Peer in his own clearing.
    pub fn peer_clearing(&self) -> Option<&str> {
        if self.activity != Activity::Search {
            return None;
        }
        let first = self.note.as_deref()?.split("; ").next()?;
        let target = first.strip_prefix(PEER_NOTE)?;
        if target.is_empty() {
            Some("")
        } else {
            target.strip_prefix(' ').filter(|c| !c.trim().is_empty())
        }
    }

    /// The clearing a remote Enchant names (`RE (CV5)`, kept as a first
    /// note `tile CV5`, how the day reads it).
    fn remote_clearing(&self) -> Option<&str> {
        if self.activity != (Activity::Spell { chit: None }) {
            return None;
        }
        let first = self.note.as_deref()?.split("; ").next()?;
        first.strip_prefix("tile ").filter(|c| !c.trim().is_empty())
    }
}

impl fmt::Display for Activities {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, phase) in self.phases.iter().enumerate() {
            if i > 0 {
                f.write_str(" / ")?;
            }
            write!(f, "{phase}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_text_reads_like_a_bimr_record_line() {
        let day = Activities {
            phases: vec![
                Phase {
                    activity: Activity::Move {
                        tile: "Curst Valley".into(),
                        clearing: 4,
                    },
                    bonus: false,
                    note: None,
                },
                Phase {
                    activity: Activity::Rest {
                        chit: Some("MAGIC V3*".into()),
                    },
                    bonus: false,
                    note: None,
                },
                Phase {
                    activity: Activity::Search,
                    bonus: true,
                    note: Some("Magic Spectacles".into()),
                },
            ],
        };
        assert_eq!(
            day.to_string(),
            "M-Curst Valley 4 / R-MAGIC V3* / S* (Magic Spectacles)"
        );
    }

    #[test]
    fn json_has_one_object_per_phase_with_the_documented_keys() {
        let phase = Phase {
            activity: Activity::Move {
                tile: "Ruins".into(),
                clearing: 2,
            },
            bonus: true,
            note: None,
        };
        let json = serde_json::to_value(&phase).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"activity": "move", "tile": "Ruins", "clearing": 2, "bonus": true, "note": null})
        );
        let rest = serde_json::to_value(Phase {
            activity: Activity::Rest { chit: None },
            bonus: false,
            note: None,
        })
        .unwrap();
        assert_eq!(
            rest,
            serde_json::json!({"activity": "rest", "bonus": false, "note": null})
        );
    }
}
