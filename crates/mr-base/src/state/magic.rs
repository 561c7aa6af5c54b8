//! What the magic rules keep in the game state (magic summary "Types of Spells";
//! the play summary II.C.10, III.A.4.c, IV.B–C): a character's spells and curses,
//! the spells in effect with the chit or item tied to each, and the spells
//! awakened in sites, artifacts and spell books.
//!
//! Every field is a default-empty addition to an older state, so games
//! saved before the magic rules load unchanged.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::board::ClearingId;
use crate::data::realms;
use crate::data::spells::Duration;
use crate::tables::magic::CurseKind;

/// A character's own magic.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterMagic {
    /// Spells recorded at the start or learned since, in the order gained.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spells: Vec<String>,
    /// How many of `spells`, the first ones, he recorded at the start: they
    /// never count toward his victory (3.1 9.3.2b). None in a state saved
    /// before this was kept: his character card's allowance then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starting_spells: Option<u8>,
    /// Curses on him (`tables/magic.rs`).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub curses: BTreeSet<CurseKind>,
    /// Artifacts and spell books that cast a spell today (once a day each).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub artifacts_used_today: BTreeSet<String>,
    /// His artifacts and spell books enchanted into colour magic under
    /// Enhanced Artifacts (3.1 10.C.3.3), with their colours; an item he no
    /// longer carries has none ([`crate::magic::item_chit`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub coloured_items: BTreeMap<String, crate::data::terms::Colour>,
    /// Spells he recorded through an artifact or book, no MAGIC chit of his
    /// having their type (3.1 10.C.3.1): spell → item. Such a spell counts
    /// toward victory only if he has the item at the end.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub recorded_through: BTreeMap<String, String>,
    /// A Wish for Strength: his next Fight chit (or Gloves) is Tremendous.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub next_fight_tremendous: bool,
    /// What he had as the transmorphizing spell holding him took hold,
    /// frozen with him while it holds (3.1 4.6.9b.1; `magic::transmorph`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transmorphized_with: Option<TransmorphizedWith>,
}

/// The gold and items (weapon, armour, belongings and pack loads, by name)
/// a character had as spell `spell` transmorphized him (3.1 4.6.9b.1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TransmorphizedWith {
    pub spell: u32,
    pub gold: u16,
    pub items: Vec<String>,
}

impl CharacterMagic {
    pub fn is_empty(&self) -> bool {
        *self == CharacterMagic::default()
    }
}

/// Magic on the board as a whole.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MagicWorld {
    /// Spells in effect, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub in_effect: Vec<SpellInEffect>,
    /// Holder (site, artifact or spell book) → its awakened spells.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub awakened: BTreeMap<String, BTreeSet<String>>,
    /// The season number (1–13) of this month under the Seasons and
    /// Weather rule; `None` plays without seasons.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub season: Option<u8>,
    /// The id the next spell put in effect gets.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub next_id: u32,
    /// Phantasm spell id → the clearing its phantasm stands in
    /// ([`crate::magic::spells::phantasm`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub phantasms: BTreeMap<u32, ClearingId>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl MagicWorld {
    pub fn is_empty(&self) -> bool {
        *self == MagicWorld::default()
    }

    /// Whether the Spell card `spell` is awakened in `holder`. A second
    /// game's card is kept under its marked name (`Fiery Blast II`) and is
    /// the printed spell (3.1 10.E.7.2.1), so printed names are compared.
    pub fn is_awakened(&self, holder: &str, spell: &str) -> bool {
        let printed = realms::printed(spell);
        self.awakened
            .get(holder)
            .is_some_and(|cards| cards.iter().any(|card| realms::printed(card) == printed))
    }
}

/// What a spell was cast with; it stays tied up until the spell expires,
/// unless Enhanced Magic (3.1 10.C.1) released it ([`SpellInEffect::untied`]).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "with", rename_all = "snake_case", deny_unknown_fields)]
pub enum CastWith {
    /// One of the caster's MAGIC chits, by its index in his chit list.
    Chit { index: usize },
    /// An artifact or spell book holding the awakened spell.
    Treasure { name: String },
}

/// What a spell is aimed at.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "aim", rename_all = "snake_case", deny_unknown_fields)]
pub enum Aim {
    /// A character, by name.
    Character {
        name: String,
    },
    /// A monster or native counter, by id.
    Denizen {
        id: String,
    },
    Clearing {
        clearing: ClearingId,
    },
    Tile {
        code: String,
    },
    /// An item (weapon, artifact, spell book) and who holds it.
    Item {
        holder: String,
        item: String,
    },
    /// A spell in effect, by id.
    Spell {
        id: u32,
    },
    /// A curse on a character.
    Curse {
        character: String,
        curse: CurseKind,
    },
    /// The caster's own MAGIC chits.
    OwnChits {
        character: String,
    },
    /// The weather chit.
    Weather,
    /// A spell the caster knows, by name: what Enchant Artifact adds to a
    /// treasure ([`crate::magic::spells::enchant_artifact`]).
    KnownSpell {
        name: String,
    },
    /// The weather chit, to be replaced by a new one (See/Change Weather).
    NewWeather,
}

impl std::fmt::Display for Aim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Aim::Character { name } => write!(f, "the {name}"),
            Aim::Denizen { id } => write!(f, "{id}"),
            Aim::Clearing { clearing } => write!(f, "clearing {clearing}"),
            Aim::Tile { code } => write!(f, "tile {code}"),
            Aim::Item { holder, item } => write!(f, "the {item} of {holder}"),
            Aim::Spell { id } => write!(f, "spell #{id}"),
            Aim::Curse { character, curse } => {
                write!(f, "the {} curse on the {character}", curse.name())
            }
            Aim::OwnChits { character } => write!(f, "the MAGIC chits of the {character}"),
            Aim::Weather => f.write_str("the weather"),
            Aim::KnownSpell { name } => write!(f, "the spell {name}"),
            Aim::NewWeather => f.write_str("the weather (to change it)"),
        }
    }
}

/// A spell that took effect and has not expired.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpellInEffect {
    pub id: u32,
    pub spell: String,
    /// The caster's character name.
    pub caster: String,
    pub with: CastWith,
    pub targets: Vec<Aim>,
    pub duration: Duration,
    /// The day it was cast.
    pub cast_on: u32,
    /// A permanent spell after Midnight, until colour energizes it again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inert: bool,
    /// A Phase spell's chit held with its target's inactive items until he
    /// activates it (3.1 rule 4.6.7f): until then it has no effect.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub held: bool,
    /// What the spell made of its target, when it says (a Transform form,
    /// an absorbed monster).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Cast under Enhanced Magic (3.1 10.C.1): it holds neither the MAGIC
    /// chit, which fatigued when it was cast, nor the artifact or book, so
    /// its ending gives nothing back and the spell may be cast again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub untied: bool,
}
