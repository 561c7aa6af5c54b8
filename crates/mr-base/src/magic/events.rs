//! What the magic rules report during a day (play summary II.C.10, IV.B–C;
//! the magic summary): enchantments, curses, learning and awakening, and spells
//! expiring, falling inert or coming alive again. One line each in the GM
//! log and the player's report.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::board::ClearingId;
use crate::data::terms::Colour;
use crate::tables::magic::CurseKind;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum MagicEvent {
    /// An Alert phase prepared a MAGIC chit.
    ChitPrepared {
        character: String,
        chit: String,
    },
    /// An EM phase (formerly SPX): he prepares to enchant.
    Prepared {
        character: String,
    },
    /// A MAGIC chit turned to colour magic.
    ChitEnchanted {
        character: String,
        chit: String,
        colour: Colour,
    },
    /// An artifact or spell book enchanted into colour magic (3.1 10.C.3.1).
    ItemEnchanted {
        character: String,
        item: String,
        colour: Colour,
    },
    /// An item's colour magic expended at will: it is an artifact or book
    /// again (3.1 10.C.3.3).
    ItemColourExpended {
        character: String,
        item: String,
        colour: Colour,
    },
    /// At Midnight, its Enchant Artifact falling inert, an item's unused
    /// colour from the numeral that spell added is expended (3.1
    /// 10.C.3.4.2).
    ItemColourFaded {
        character: String,
        item: String,
        colour: Colour,
    },
    /// He fatigued a colour chit at will: it is a plain MAGIC chit again,
    /// fatigued (3.1 rule 4.6.4i).
    ColourChitFatigued {
        character: String,
        chit: String,
        colour: Colour,
    },
    /// A colour chit he ordered fatigued stays as it was; the reason says why.
    ColourChitKept {
        character: String,
        chit: String,
        reason: String,
    },
    /// A Combat, Day or Permanent spell met a target already bewitched by
    /// the same spell: the target is released from the new one (3.1 rule
    /// 4.6.10e); with no target left it is broken and its chit fatigues.
    Duplicate {
        spell: String,
        caster: String,
        released: Vec<String>,
        broken: bool,
    },
    /// A tile turned over.
    TileEnchanted {
        character: String,
        tile: String,
        chit: String,
        colour: Colour,
        /// The colour chit played for the colour, if one was.
        colour_chit: Option<String>,
        now_enchanted: bool,
    },
    /// The roadway a runaway stood on is gone, or is now a hidden path or
    /// secret passage he has not discovered: he is in the forest by the
    /// clearing he ran out of (3.1 rule 8.3.8d.3).
    RoadwayVanished {
        character: String,
        from: ClearingId,
        to: ClearingId,
    },
    Cursed {
        character: String,
        curse: CurseKind,
        source: String,
    },
    /// The curse rolled does not touch him (an advantage, or he has it).
    CurseMissed {
        character: String,
        curse: CurseKind,
        reason: String,
    },
    CurseLifted {
        character: String,
        curse: CurseKind,
        by: String,
    },
    /// Reading Runes: which spell he read and from where.
    Read {
        character: String,
        spell: String,
        holder: String,
    },
    Learned {
        character: String,
        spell: String,
    },
    /// He could not learn the spell he read; the reason says why.
    NotLearned {
        character: String,
        spell: String,
        reason: String,
    },
    Awakened {
        spell: String,
        holder: String,
        /// Why the artifact or book it awakened in cannot cast it: a Spell
        /// card of another type than its red numeral (3.1 4.6.6b).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        uncastable: Option<String>,
    },
    /// The Lost spell sent him to this clearing.
    Wandered {
        character: String,
        to: crate::board::ClearingId,
    },
    /// A Violent Storm cancelled this many of his phases.
    Storm {
        character: String,
        phases: u8,
    },
    /// Perceive Spell found no spell he could see.
    NothingPerceived {
        character: String,
    },
    Expired {
        spell: String,
        caster: String,
    },
    FellInert {
        spell: String,
        caster: String,
    },
    Energized {
        spell: String,
        caster: String,
        colour: Colour,
    },
    /// Phase `phase` of his recorded day lists alternatives, and he is
    /// not under Prophecy: only the first is done.
    AlternativesUnread {
        character: String,
        phase: usize,
    },
    /// His phantasm's turn starts in `clearing`.
    PhantasmTurn {
        character: String,
        clearing: crate::board::ClearingId,
        recorded: String,
    },
    /// One phase of his phantasm and how it went.
    PhantasmPhase {
        character: String,
        number: usize,
        recorded: String,
        result: String,
    },
    /// A `Phantasm:` line for a character with no phantasm in play.
    NoPhantasm {
        character: String,
    },
}

impl MagicEvent {
    /// The section of the rules of record (release 3.1) this event applies,
    /// e.g. "7.10.4", or the entry of its List of Spells for a spell's own
    /// effect: the GM's history cites it after the line.
    pub fn rule(&self) -> &'static str {
        match self {
            MagicEvent::ChitPrepared { .. } => "7.9.3",
            MagicEvent::Prepared { .. } => "7.10.1",
            MagicEvent::ChitEnchanted { .. } => "7.10.3",
            MagicEvent::ItemEnchanted { .. } => "10.C.3.1",
            MagicEvent::ItemColourExpended { .. } => "10.C.3.3",
            MagicEvent::ItemColourFaded { .. } => "10.C.3.4.2",
            MagicEvent::TileEnchanted { .. } => "7.10.4",
            MagicEvent::RoadwayVanished { .. } => "8.3.8d.3",
            MagicEvent::ColourChitFatigued { .. } | MagicEvent::ColourChitKept { .. } => "7.2.3c",
            MagicEvent::Duplicate { .. } => "4.6.10e",
            MagicEvent::Cursed { .. }
            | MagicEvent::CurseMissed { .. }
            | MagicEvent::CurseLifted { .. } => "4.6.8",
            MagicEvent::Read { .. }
            | MagicEvent::Learned { .. }
            | MagicEvent::NotLearned { .. } => "7.5.6",
            MagicEvent::Awakened { .. } => "4.6.6",
            MagicEvent::Wandered { .. } => "List of Spells: Lost",
            MagicEvent::Storm { .. } => "List of Spells: Violent Storm",
            MagicEvent::NothingPerceived { .. } => "7.5.7",
            MagicEvent::Expired { .. } => "4.6.7",
            MagicEvent::FellInert { .. } | MagicEvent::Energized { .. } => "4.6.7h",
            MagicEvent::AlternativesUnread { .. } => "List of Spells: Prophecy",
            MagicEvent::PhantasmTurn { .. }
            | MagicEvent::PhantasmPhase { .. }
            | MagicEvent::NoPhantasm { .. } => "List of Spells: Phantasm",
        }
    }
}

impl fmt::Display for MagicEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MagicEvent::ChitPrepared { character, chit } => {
                write!(f, "  {character} prepares {chit} to cast at speed 0")
            }
            MagicEvent::Prepared { character } => {
                write!(f, "  {character} prepares to enchant")
            }
            MagicEvent::ChitEnchanted {
                character,
                chit,
                colour,
            } => write!(f, "  {character} enchants {chit} into {colour} magic"),
            MagicEvent::ItemEnchanted {
                character,
                item,
                colour,
            } => write!(f, "  {character} enchants the {item} into {colour} magic"),
            MagicEvent::ItemColourExpended {
                character,
                item,
                colour,
            } => write!(
                f,
                "  {character} expends the {colour} magic of the {item}, which casts again"
            ),
            MagicEvent::ItemColourFaded {
                character,
                item,
                colour,
            } => write!(
                f,
                "  the {colour} magic of the {item} of {character} is expended at Midnight, \
                 unused: the numeral its Enchant Artifact gave it is gone while that spell \
                 is inert"
            ),
            MagicEvent::ColourChitFatigued {
                character,
                chit,
                colour,
            } => write!(
                f,
                "  {character} fatigues the colour chit {chit}: its {colour} magic is gone"
            ),
            MagicEvent::ColourChitKept {
                character,
                chit,
                reason,
            } => write!(f, "  {character} does not fatigue {chit}: {reason}"),
            MagicEvent::Duplicate {
                spell,
                caster,
                released,
                broken,
            } => {
                let end = if *broken {
                    ": the spell is broken and its chit fatigues"
                } else {
                    ""
                };
                write!(
                    f,
                    "  the {caster}'s {spell} has no hold on {}, already bewitched by {spell}{end}",
                    released.join(", ")
                )
            }
            MagicEvent::TileEnchanted {
                character,
                tile,
                chit,
                colour,
                colour_chit,
                now_enchanted,
            } => {
                let by = colour_chit
                    .as_ref()
                    .map(|c| format!(" (colour from {c})"))
                    .unwrap_or_default();
                let side = if *now_enchanted {
                    "enchanted"
                } else {
                    "normal"
                };
                write!(
                    f,
                    "  {character} turns {tile} to its {side} side with {chit} and {colour} magic{by}"
                )
            }
            MagicEvent::RoadwayVanished {
                character,
                from,
                to,
            } => write!(
                f,
                "  the roadway between {from} and {to} vanishes under the {character}: he is in \
                 the forest, and must start his next turn with a Move back to {from}"
            ),
            MagicEvent::Cursed {
                character,
                curse,
                source,
            } => write!(f, "  {character} is cursed ({source}): {curse}"),
            MagicEvent::CurseMissed {
                character,
                curse,
                reason,
            } => write!(
                f,
                "  the curse {} misses {character}: {reason}",
                curse.name()
            ),
            MagicEvent::CurseLifted {
                character,
                curse,
                by,
            } => write!(f, "  {character} is freed of {} by {by}", curse.name()),
            MagicEvent::Read {
                character,
                spell,
                holder,
            } => write!(f, "  {character} reads the runes of {spell} in {holder}"),
            MagicEvent::Learned { character, spell } => {
                write!(f, "  {character} learns {spell}")
            }
            MagicEvent::NotLearned {
                character,
                spell,
                reason,
            } => write!(f, "  {character} does not learn {spell}: {reason}"),
            MagicEvent::Wandered { character, to } => {
                write!(f, "  {character} is Lost and wanders to {to}")
            }
            MagicEvent::Storm { character, phases } => {
                write!(f, "  the storm cancels {phases} of {character}'s phases")
            }
            MagicEvent::NothingPerceived { character } => {
                write!(f, "  {character} perceives no spell here")
            }
            MagicEvent::Awakened {
                spell,
                holder,
                uncastable: None,
            } => write!(f, "  {spell} awakens in {holder}"),
            MagicEvent::Awakened {
                spell,
                holder,
                uncastable: Some(why),
            } => write!(
                f,
                "  {spell} awakens in {holder}, which cannot cast it: {why}"
            ),
            MagicEvent::Expired { spell, caster } => {
                write!(f, "  the {caster}'s {spell} expires")
            }
            MagicEvent::FellInert { spell, caster } => {
                write!(f, "  the {caster}'s {spell} falls inert")
            }
            MagicEvent::Energized {
                spell,
                caster,
                colour,
            } => write!(f, "  {colour} magic energizes the {caster}'s {spell}"),
            MagicEvent::AlternativesUnread { character, phase } => write!(
                f,
                "  {character} is not under Prophecy: phase {phase} does its first activity \
                 and its alternatives are not read"
            ),
            MagicEvent::PhantasmTurn {
                character,
                clearing,
                recorded,
            } => write!(
                f,
                "\nThe {character}'s phantasm in {clearing}:\n  Recorded: {recorded}"
            ),
            MagicEvent::PhantasmPhase {
                number,
                recorded,
                result,
                ..
            } => write!(f, "  {number}. {recorded}: {result}."),
            MagicEvent::NoPhantasm { character } => write!(
                f,
                "  the {character} has no phantasm in play: the Phantasm line is not done"
            ),
        }
    }
}
