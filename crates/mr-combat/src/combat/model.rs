//! The battle model of one clearing's combat (3.1 section 8): every
//! participant with what combat needs to know about it — a character's
//! chits and their condition, his weapon (alerted or not), his armour
//! (intact, damaged), his horse, whether he is hidden; a monster's sides
//! and parts (heads, clubs), whether it is Tremendous and which side is up;
//! a native's side, group and employer. Stats are copied from the game data
//! when the battle is built, so a battle is plain data that can be stored
//! between the rounds of a combat played by mail.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::data::armor::ArmorKind;
use crate::data::characters::{ActionChit, ChitAction};
use crate::data::horses::HorseSide;
use crate::data::monsters::PartSide;
use crate::data::terms::{DenizenSide, Strength};
use crate::data::weapons::WeaponSide;
use crate::state::{ChitCondition, CounterSide, Item};

/// Index of a fighter in [`super::Battle::fighters`].
pub type FighterId = usize;

/// The three lines of a melee sheet: an attack direction and the maneuver
/// it intercepts share a line (Thrust–Charge, Swing–Dodge, Smash–Duck), as
/// do the red boxes where denizens stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Thrust,
    Swing,
    Smash,
}

impl Direction {
    pub const ALL: [Direction; 3] = [Direction::Thrust, Direction::Swing, Direction::Smash];

    /// The box number, 1 to 3.
    pub fn number(self) -> u8 {
        match self {
            Direction::Thrust => 1,
            Direction::Swing => 2,
            Direction::Smash => 3,
        }
    }

    /// The direction of box `number` (1 to 3).
    pub fn from_number(number: u8) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.number() == number)
    }

    pub fn attack_word(self) -> &'static str {
        match self {
            Direction::Thrust => "thrust",
            Direction::Swing => "swing",
            Direction::Smash => "smash",
        }
    }

    pub fn maneuver_word(self) -> &'static str {
        match self {
            Direction::Thrust => "charge",
            Direction::Swing => "dodge",
            Direction::Smash => "duck",
        }
    }

    /// Read an attack or a maneuver word (`thrust` or `charge` are line 1).
    pub fn parse(word: &str) -> Option<Direction> {
        let word = word.trim().to_ascii_lowercase();
        Direction::ALL
            .into_iter()
            .find(|d| d.attack_word() == word || d.maneuver_word() == word)
    }
}

/// The side a character's horse is played on (3.1 8.4.5k.2): walking in
/// both steps if he likes, galloping once a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Gait {
    Walk,
    Gallop,
}

/// One participant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fighter {
    /// A character's name or a counter id (`Giant 1`, `Woodfolk 2`).
    pub name: String,
    pub kind: FighterKind,
    pub hidden: bool,
    /// Killed or ran away: out of this combat.
    pub out: Option<Out>,
}

/// Why a fighter left the combat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum Out {
    Killed {
        by: String,
    },
    Ran,
    /// A spell moved him out of the clearing (`spell_effects.rs`).
    Moved {
        to: String,
    },
    /// Never in this clearing: an employer whose hired natives fight here
    /// without him (`day::evening`).
    Absent,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FighterKind {
    Character(Hero),
    Denizen(Denizen),
}

/// A character in combat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hero {
    pub player: String,
    pub vulnerability: Strength,
    pub chits: Vec<HeroChit>,
    pub weapon: Option<HeroWeapon>,
    /// Worn armour, outermost first.
    pub armor: Vec<HeroArmor>,
    pub horse: Option<HeroHorse>,
    /// The heaviest thing he carries: his MOVE chit must match it.
    pub heaviest: Strength,
    pub gold: i32,
    pub fame: i32,
    pub notoriety: i32,
    /// What goes to whoever kills him (his weapon and armour included).
    pub belongings: Vec<Item>,
    /// Kills he made this combat, for the multiplied values (play summary
    /// III.B.9.d).
    pub kills: u32,
    /// Parts of points from shared kills, not yet whole (3.1 8.7.1b).
    #[serde(default, skip_serializing_if = "crate::state::points::Kept::is_zero")]
    pub kept: crate::state::points::Kept,
    /// Items taken from characters he killed.
    pub taken: Vec<Item>,
    /// He died: killed by a hit, or out of chits to wound.
    pub dead: bool,
    /// His modifiers to Missile table rolls (the Amazon's Aim, ...).
    #[serde(default)]
    pub missile: crate::tables::Modifiers,
    /// He found Hidden Enemies today: he may charge, attack and cast at a
    /// hidden fighter (`hidden_enemies.rs`).
    #[serde(default)]
    pub found_hidden_enemies: bool,
    /// The hidden enemies Magic Sight showed him today, by what they own
    /// (3.1 7.5.7c): those he may name though they are hidden.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub magic_sight: Vec<crate::state::SightOf>,
    /// He has spells recorded: Magic Sight's Spells result shows him when
    /// he hides (3.1 7.5.7c).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub records_spells: bool,
    /// Belongings he abandoned in the clearing this combat.
    #[serde(default)]
    pub abandoned: Vec<Item>,
    /// What he may activate or inactivate, and what he switched
    /// (`activation.rs`). Boxed to keep a fighter small.
    #[serde(default)]
    pub kit: Box<super::activation::Kit>,
    /// Monsters that can never attack him (`protection.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub immune_to: Vec<String>,
    /// A Wish for Strength waits for his next Fight chit or Gloves card
    /// (3.1 4.6.8b.3): that attack inflicts Tremendous harm if it hits.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub wish_strength: bool,
    /// The Fly chit a Fly spell on him gives (3.1 4.6.7e): played like a
    /// MOVE chit when named, never fatigued or wounded (`fly_chit.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fly: Option<HeroChit>,
    /// He ran away with his Fly chit: he flew away, and ends the day aloft
    /// half over his tile and half over one next to it (3.1 8.3.8e.2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flew_away: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeroChit {
    /// The printed chit (`FIGHT H5*`).
    pub label: String,
    pub chit: ActionChit,
    pub condition: ChitCondition,
    /// A MAGIC chit that Unleash Power lets him play as a MOVE or FIGHT
    /// chit (`spell_effects.rs`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unleashed: bool,
}

impl Hero {
    /// What he may play as a chit: his own chits, then his active Boots and
    /// Gloves cards (`activation.rs`), then a Fly chit (`fly_chit.rs`).
    /// Fatigue and wounds take his own chits only.
    pub fn playable_chits(&self) -> impl Iterator<Item = &HeroChit> {
        self.chits
            .iter()
            .chain(
                self.kit
                    .treasures
                    .iter()
                    .filter(|t| t.active)
                    .filter_map(|t| t.card.as_ref()),
            )
            .chain(self.fly.iter())
    }
}

impl HeroChit {
    pub fn is_active(&self) -> bool {
        self.condition == ChitCondition::Active
    }

    pub fn can_fight(&self) -> bool {
        self.unleashed || matches!(self.chit.action, ChitAction::Fight | ChitAction::Berserk)
    }

    pub fn can_move(&self) -> bool {
        self.unleashed || matches!(self.chit.action, ChitAction::Move | ChitAction::Duck)
    }

    pub fn strength(&self) -> Strength {
        self.chit.strength.unwrap_or_default()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeroWeapon {
    /// The item name (`Spear 2`).
    pub name: String,
    pub weight: Strength,
    pub length: u8,
    pub missile: bool,
    pub unalerted: WeaponSide,
    pub alerted: WeaponSide,
    pub is_alerted: bool,
}

impl HeroWeapon {
    pub fn side(&self) -> &WeaponSide {
        if self.is_alerted {
            &self.alerted
        } else {
            &self.unalerted
        }
    }

    /// The harm of a blow before stars and bonuses: the letter printed on
    /// the side up (3.1 8.4.9e). A side that prints none (the unalerted
    /// Spear) is Negligible though the weapon still weighs Medium
    /// (3.1 2.3.4b.2); the weight only decides the Fight-strength bonus.
    pub fn harm(&self) -> Strength {
        self.side().harm
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeroArmor {
    pub name: String,
    pub kind: ArmorKind,
    /// The harm that damages it; more destroys it.
    pub toughness: Strength,
    pub damaged: bool,
    pub destroyed: bool,
}

impl HeroArmor {
    /// Whether this piece is in the way of an attack in `direction`; a
    /// shield guards the line its wearer chose this round.
    pub fn guards(&self, direction: Direction, shield: Option<Direction>) -> bool {
        !self.destroyed && self.covers(direction, shield)
    }

    /// Whether this piece, destroyed or not, stands in the line of an
    /// attack in `direction` (attacks of one instant all meet a piece
    /// destroyed in that instant, 3.1 8.4.9m).
    pub fn covers(&self, direction: Direction, shield: Option<Direction>) -> bool {
        match self.kind {
            ArmorKind::Suit => true,
            ArmorKind::Breastplate => direction != Direction::Smash,
            ArmorKind::Helmet => direction == Direction::Smash,
            ArmorKind::Shield => shield == Some(direction),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeroHorse {
    pub name: String,
    pub vulnerability: Strength,
    pub armored: bool,
    pub trot: HorseSide,
    pub gallop: HorseSide,
    pub dead: bool,
}

/// A monster or native counter in combat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Denizen {
    pub monster: bool,
    /// The native group (natives only).
    pub group: Option<String>,
    pub leader: bool,
    /// Tremendous monster with a red side (its dark side).
    pub tremendous: bool,
    pub side: CounterSide,
    pub light: DenizenSide,
    pub dark: DenizenSide,
    pub parts: Vec<DenizenPart>,
    pub vulnerability: Strength,
    pub armored: bool,
    pub length: u8,
    pub fame: i32,
    pub notoriety: i32,
    /// Gold paid to whoever kills a native (his wage).
    pub bounty: i32,
    /// The character who hired him.
    pub employer: Option<FighterId>,
    /// Characters an unhired native battles (monsters battle everyone).
    pub battling: BTreeSet<FighterId>,
    /// The horse a native rides (`native_horses.rs`).
    #[serde(default)]
    pub horse: Option<super::native_horses::NativeHorse>,
    /// A hired leader who found Hidden Enemies today: he may be deployed
    /// against a hidden target (3.1 rule 8.3.6).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sees_hidden: bool,
}

impl Denizen {
    pub fn current(&self) -> &DenizenSide {
        match self.side {
            CounterSide::Light => &self.light,
            CounterSide::Dark => &self.dark,
        }
    }

    /// Red side up (a Tremendous monster's dark side).
    pub fn red_side_up(&self) -> bool {
        self.tremendous && self.side == CounterSide::Dark
    }

    /// Medium and Heavy counters change tactics by die (play summary III.B.6).
    pub fn changes_tactics(&self) -> bool {
        !self.tremendous && matches!(self.vulnerability, Strength::Medium | Strength::Heavy)
    }

    pub fn flip(&mut self) {
        self.side = match self.side {
            CounterSide::Light => CounterSide::Dark,
            CounterSide::Dark => CounterSide::Light,
        };
    }
}

/// A head or club that attacks on its own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DenizenPart {
    pub name: String,
    pub length: u8,
    pub light: PartSide,
    pub dark: PartSide,
    /// Turned dark side up while its owner stays light side up: a
    /// Tremendous monster's head or club under Alerted Monsters (3.1
    /// 10.B.2, `alerted.rs`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dark_up: bool,
    /// The length of its fire under Dragon Heads (3.1 10.B.3), for a
    /// Tremendous Dragon's head.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fire_length: Option<u8>,
}

impl DenizenPart {
    /// The side it attacks with while its owner is on `owner`.
    pub fn side(&self, owner: CounterSide) -> PartSide {
        if owner == CounterSide::Dark || self.dark_up {
            self.dark
        } else {
            self.light
        }
    }
}

/// What one round has seen so far: the plays made and what changed, for
/// the Fatigue step and for disengagement.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RoundPlays {
    /// Effort stars each character played this round, by action.
    pub fight_stars: BTreeMap<FighterId, u8>,
    pub move_stars: BTreeMap<FighterId, u8>,
    /// Chits played this round (by label), so none is played twice.
    pub chits_played: BTreeMap<FighterId, Vec<String>>,
    /// Characters who alerted, ran or cast in the Encounter step.
    pub acted: BTreeSet<FighterId>,
    /// Wounds each character must take in the Fatigue step.
    pub wounds: BTreeMap<FighterId, u8>,
    /// Denizens put on a sheet this round in the Melee step (targeted
    /// while unassigned): they do not attack until the next round.
    pub fresh: BTreeSet<FighterId>,
    /// Something happened that keeps the combat going.
    pub eventful: bool,
    /// Charges this round: the charger → whom he charged and the move
    /// time of the MOVE chit or horse he put on that sheet (3.1 rule 8.3.6).
    #[serde(default)]
    pub charges: BTreeMap<FighterId, (FighterId, u8)>,
    /// Characters whose attack this round is a Wish for Strength's: it
    /// inflicts Tremendous harm with no table roll (3.1 4.6.8b.3,
    /// 10.D.3.4).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub wished: BTreeSet<FighterId>,
    /// Characters who played their horse galloping side up in this round's
    /// Encounter step: it turns over and walks in the Melee step (3.1 5.3
    /// step 2, 8.4.5k.2).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub galloped: BTreeSet<FighterId>,
    /// The `run when wounded` of characters answering this round alone
    /// (round by round, or a battle file's round orders), so the log can
    /// say why one did not run.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub run_when_wounded: BTreeMap<FighterId, u8>,
    /// The colour chits characters answering this round alone fatigue in
    /// its Encounter step (`colour_fatigue.rs`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub colour_fatigue: BTreeMap<FighterId, Vec<String>>,
    /// The spells they energize with colour chits, (spell, chit).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub colour_energize: BTreeMap<FighterId, Vec<(String, String)>>,
    /// Demons whose Power of the Pit a faster spell cancelled this round
    /// (3.1 10.C.4.2, `pit_attack.rs`).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub pit_silenced: BTreeSet<FighterId>,
}
