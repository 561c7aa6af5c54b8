//! What a cast did (`SpellEffect`): the record that the cast, the spells
//! and combat share, below all three so that the spells name it without
//! going through the cast that calls them.

use serde::{Deserialize, Serialize};

use crate::board::ClearingId;
use crate::data::spells::Duration;
use crate::data::terms::{Colour, Strength};
use crate::state::magic::Aim;
use realmgm_core::dice::Faces;

use super::events::MagicEvent;

/// What a cast did, for combat to apply further and for the reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "snake_case")]
pub enum SpellEffect {
    /// The spell stays in effect with this id until it expires.
    InEffect {
        id: u32,
        spell: String,
        duration: Duration,
    },
    /// Targeting an individual made the caster unhidden.
    Unhidden {
        character: String,
    },
    /// A colour chit was played (and fatigued) for the colour.
    ColourChitPlayed {
        character: String,
        chit: String,
    },
    /// An artifact or book's colour magic was spent for the colour: it is
    /// an artifact or book again (3.1 10.C.3.3).
    ColourItemPlayed {
        character: String,
        item: String,
        colour: Colour,
    },
    /// A die roll made for the spell, read on its table.
    Rolled {
        purpose: String,
        faces: Faces,
        result: String,
    },
    /// A missile-like attack for combat to aim and resolve on each target
    /// (magic summary "Attack Spells": hits by direction or by undercutting;
    /// the Missile table when `missile`).
    Attack {
        spell: String,
        harm: Strength,
        stars: u8,
        length: u8,
        /// Attack time: the chit's time, the spell's own, or 0.
        speed: u8,
        missile: bool,
        targets: Vec<Aim>,
    },
    Healed {
        character: String,
    },
    /// A denizen killed (its counter is now dead), or a character whose
    /// death the combat engine must carry out.
    Killed {
        target: Aim,
    },
    ChitsWounded {
        character: String,
        chits: Vec<String>,
    },
    ChitsFatigued {
        character: String,
        chits: Vec<String>,
    },
    Moved {
        target: Aim,
        to: ClearingId,
    },
    Transformed {
        target: Aim,
        form: String,
    },
    SpellBroken {
        id: u32,
        spell: String,
    },
    Magic(MagicEvent),
    /// Combat in the clearing ends for the day.
    CombatEnds {
        clearing: ClearingId,
    },
    NextFightTremendous {
        character: String,
    },
    /// A result that someone must look at or decide (a Vision).
    ForGm {
        text: String,
    },
    /// A part of a result the engine does not apply yet, said plainly.
    NotApplied {
        what: String,
        reason: String,
    },
}

impl std::fmt::Display for SpellEffect {
    /// One effect as a log phrase, the same in combat, alone at Evening and
    /// at a treasure site.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let chits = |chits: &[String]| {
            if chits.is_empty() {
                "no chit".to_string()
            } else {
                chits.join(", ")
            }
        };
        match self {
            SpellEffect::InEffect {
                id,
                spell,
                duration: crate::data::spells::Duration::Phase,
            } => write!(
                f,
                "{spell} waits as a chit with its target, who activates it like an item for a \
                 phase or a round (spell #{id})"
            ),
            SpellEffect::InEffect { id, spell, .. } => {
                write!(f, "{spell} is in effect (spell #{id})")
            }
            SpellEffect::Unhidden { character } => write!(f, "the {character} is no longer hidden"),
            SpellEffect::ColourChitPlayed { character, chit } => {
                write!(f, "the {character} plays the colour chit {chit}")
            }
            SpellEffect::ColourItemPlayed {
                character,
                item,
                colour,
            } => write!(f, "the {character} spends the {colour} magic of the {item}"),
            SpellEffect::Rolled {
                purpose, result, ..
            } => write!(f, "the spell's roll ({purpose}): {result}"),
            SpellEffect::Attack { spell, targets, .. } => {
                let on: Vec<String> = targets.iter().map(ToString::to_string).collect();
                write!(f, "{spell} attacks {}", on.join(", "))
            }
            SpellEffect::Healed { character } => write!(f, "the {character} is healed"),
            SpellEffect::Killed { target } => write!(f, "{target} is killed"),
            SpellEffect::ChitsWounded {
                character,
                chits: c,
            } => {
                write!(f, "the {character} has wounded {}", chits(c))
            }
            SpellEffect::ChitsFatigued {
                character,
                chits: c,
            } => {
                write!(f, "the {character} has fatigued {}", chits(c))
            }
            SpellEffect::Moved { target, to } => write!(f, "{target} is moved to {to}"),
            SpellEffect::Transformed { target, form } => {
                write!(f, "{target} is transformed into {form}")
            }
            SpellEffect::SpellBroken { spell, .. } => write!(f, "{spell} is broken"),
            SpellEffect::Magic(event) => f.write_str(event.to_string().trim()),
            SpellEffect::CombatEnds { clearing } => {
                write!(f, "combat in {clearing} ends for the day")
            }
            SpellEffect::NextFightTremendous { character } => {
                write!(f, "the {character}'s next FIGHT chit is Tremendous")
            }
            SpellEffect::ForGm { text } => write!(f, "for the GM: {text}"),
            SpellEffect::NotApplied { what, reason } => {
                write!(f, "{what} is not applied: {reason}")
            }
        }
    }
}
