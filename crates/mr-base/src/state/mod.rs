//! The whole state of a Magic Realm game, as the store keeps it: the map,
//! the map chits on each tile, the dwellings, where every denizen counter is
//! and which side is up, what every holder (site, dwelling, native group,
//! visitor, treasure within a treasure, artifact) contains, the row-6 boxes
//! of the setup card, and the characters.
//!
//! Only `BTreeMap` and `Vec`, so the JSON of a state is always the same
//! bytes for the same game. Built by [`crate::setup::new_game`] (day 0);
//! the day engine will change it. Rules: the play summary (setup), `data/chits.toml`,
//! §6.2, §7.2, §7.3, §8.

pub mod belongings;
pub mod development;
pub mod dropped;
pub mod hiring;
pub mod magic;
pub mod points;
pub mod ruling;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::board::{Board, ClearingId};
use crate::data::characters::StartLocation;
use crate::data::realms::Realm;
use crate::data::seasons::WeatherKind;
use crate::data::terms::Dwelling;

/// A game of Magic Realm.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MrState {
    /// 0 after setup; day N after the N-th day is resolved.
    pub day: u32,
    pub board: Board,
    /// Tile code → the map chits on that tile, face down or up.
    pub map_chits: BTreeMap<String, Vec<MapChit>>,
    /// `Lost City` / `Lost Castle` → the five chits hidden under it, which
    /// come out when it turns face up.
    pub lost: BTreeMap<String, Vec<String>>,
    /// Dwellings on the map and their clearings. The campfires are added
    /// when their warning chits turn face up.
    pub dwellings: BTreeMap<Dwelling, ClearingId>,
    /// The second game's dwellings when two Realms are combined (3.1
    /// 10.E.7.4.3); empty, and left out of the stored state, in a one-Realm
    /// game. [`MrState::dwellings_of`] reads either game's.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub second_realm_dwellings: BTreeMap<Dwelling, ClearingId>,
    /// Counter id (see [`crate::setup::counter_ids`]) → where it is.
    pub denizens: BTreeMap<String, DenizenState>,
    /// Holder name → what it holds, top of the pile first. Holders are site
    /// chits, dwellings, native groups, single natives (their mounts),
    /// visitors, treasures within treasures and artifacts or spell books.
    pub holdings: BTreeMap<String, Vec<Item>>,
    /// Row-6 box of the setup card → the visitor/mission/campaign chit in
    /// it, named by the side face up. A box may be empty.
    pub visitor_boxes: BTreeMap<String, String>,
    /// One per seat, in seat order.
    pub characters: Vec<CharacterState>,
    /// Row-6 chits that came off the setup card onto the map (play summary I.D,
    /// `data/setup_card.toml`): chit name → the clearing it stands in.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub visitors_on_map: BTreeMap<String, ClearingId>,
    /// Treasures within treasures that are sites (Toadstool Circle, Crypt of
    /// the Knight, Enchanted Meadow) once found: card name → the clearing
    /// where the card now lies, searched on its own table (`tables/twt.rs`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub treasure_sites: BTreeMap<String, ClearingId>,
    /// The victory requirements each player recorded for his character
    /// before play, by character name (`day/victory.rs`); a character without
    /// an entry is scored on raw points.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub victory_requirements: BTreeMap<String, VictoryRequirements>,
    /// Where the Witch's familiar is, by its mistress's name (`data/characters.toml`); none listed: it is with her.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub familiars: BTreeMap<String, ClearingId>,
    /// Spells in effect and awakened spells (magic summary).
    #[serde(
        default,
        skip_serializing_if = "crate::state::magic::MagicWorld::is_empty"
    )]
    pub magic: crate::state::magic::MagicWorld,
    /// The battling rolls each character made today, one per native group,
    /// until Midnight (`day/battling_today.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub battling_today: Vec<Grudge>,
    /// The week's weather and the secret weather chit under the Seasons and
    /// Weather rule (the season is `magic.season`); `None` without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weather: Option<WeatherState>,
    /// Players seated after the game began: their characters enter the
    /// Realm at the Inn at the next Birdsong (`day/restart.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arrivals: Vec<Arrival>,
    /// The GM's rulings for the next Birdsong (`day/rulings.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rulings: Vec<ruling::QueuedRuling>,
    /// What hired leaders keep of their own (`day/leader_turn.rs`), by
    /// native; a hired leader with nothing to keep has no entry.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub leaders: BTreeMap<String, LeaderRecord>,
    /// The characters' caches (advanced rule A.4, `day/cache.rs`): each
    /// known to its owner alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub caches: Vec<Cache>,
    /// The day after whose Midnight the game ends and is scored: 28 a month
    /// (`day/midnight.rs`); a one-month game does not write it.
    #[serde(default = "one_month", skip_serializing_if = "is_one_month")]
    pub last_day: u32,
    /// The victory points each character divides among the categories for
    /// the whole game (the campaign's `[calendar]`); the standard 5 is not
    /// written.
    #[serde(
        default = "standard_victory_points",
        skip_serializing_if = "is_standard_victory_points"
    )]
    pub victory_points: u32,
    /// Under Solitaire Play, the clearing where the road from the map's edge
    /// that the character entered by comes onto the map, once he has: a
    /// character who starts over enters by it again (3.1 10.E.1.6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solitaire_entry: Option<ClearingId>,
    /// Under Extended Development, the next campaign's line of each
    /// character killed and started over as a new individual, a stage
    /// down (3.1 10.E.6.3.5), for the GM's lines at the game's end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fallen: Vec<String>,
}

/// A character's cache in a clearing: what he left there and only he knows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cache {
    pub owner: String,
    pub at: ClearingId,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub gold: u16,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<Item>,
}

fn is_zero(gold: &u16) -> bool {
    *gold == 0
}

/// The days of a month (play summary: the game lasts 28 days).
pub const DAYS_PER_MONTH: u32 = 28;

/// The victory points a one-month game without seasons asks (the standard
/// game): one basic point and one a week (3.1 10.E.2.2).
pub const VICTORY_POINTS_PER_MONTH: u32 = VICTORY_POINTS_PER_GAME + WEEKS_PER_MONTH;

/// The basic victory point every game asks (3.1 10.E.2.2).
pub const VICTORY_POINTS_PER_GAME: u32 = 1;

/// The days of a week (3.1 10.E.2.1: a game starts and ends with a week).
pub const DAYS_PER_WEEK: u32 = 7;

/// The weeks of a month, each asking one victory point (3.1 10.E.2.2).
pub const WEEKS_PER_MONTH: u32 = 4;

fn one_month() -> u32 {
    DAYS_PER_MONTH
}

fn is_one_month(day: &u32) -> bool {
    *day == DAYS_PER_MONTH
}

fn standard_victory_points() -> u32 {
    VICTORY_POINTS_PER_MONTH
}

fn is_standard_victory_points(points: &u32) -> bool {
    *points == VICTORY_POINTS_PER_MONTH
}

/// A hired leader's own record: he hides, finds Hidden Enemies and carries
/// what he finds, buys or loots (play summary I.B, II.A–D).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderRecord {
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    /// Today only: he found Hidden Enemies; cleared at Midnight.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub found_hidden_enemies: bool,
    /// What he carries for his employer; hired natives never activate
    /// belongings (play summary II.C.5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carries: Vec<Item>,
    /// What he carried as the transmorphizing spell holding him took hold,
    /// frozen with him while it holds (3.1 4.6.9b.1; `magic::transmorph`).
    /// Absent in states saved before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transmorphized_with: Option<magic::TransmorphizedWith>,
}

impl LeaderRecord {
    pub fn is_empty(&self) -> bool {
        self == &LeaderRecord::default()
    }
}

/// A player who joined a running game, and the character he plays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arrival {
    pub player: String,
    pub character: String,
    /// The spells his player chose to record as he enters (his starting
    /// info); none chosen: the dice choose, as for a player who joined
    /// where no starting info is recorded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spells: Vec<String>,
    /// The game whose character he plays when two Realms are combined (3.1
    /// 10.E.7.4.2): he enters at that game's Inn.
    #[serde(default, skip_serializing_if = "Realm::is_first")]
    pub realm: Realm,
}

/// The victory points a player assigned to each category before play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryRequirements {
    #[serde(default)]
    pub great_treasures: u8,
    #[serde(default)]
    pub spells: u8,
    #[serde(default)]
    pub fame: u8,
    #[serde(default)]
    pub notoriety: u8,
    #[serde(default)]
    pub gold: u8,
}

/// As a `Victory:` line reads them: `GT 1, SP 0, F 2, N 1, G 1`.
impl std::fmt::Display for VictoryRequirements {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "GT {}, SP {}, F {}, N {}, G {}",
            self.great_treasures, self.spells, self.fame, self.notoriety, self.gold
        )
    }
}

impl VictoryRequirements {
    /// The victory points recorded in all five categories.
    pub fn total(&self) -> u32 {
        [
            self.great_treasures,
            self.spells,
            self.fame,
            self.notoriety,
            self.gold,
        ]
        .into_iter()
        .map(u32::from)
        .sum()
    }
}

/// A map chit on a tile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapChit {
    /// The chit's name in chits.toml (`Roar 6`, `Smoke W`, `Lost City`).
    pub name: String,
    pub face_up: bool,
}

/// Where a monster or native counter is and which side is up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DenizenState {
    pub kind: DenizenKind,
    pub at: Whereabouts,
    pub side: CounterSide,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DenizenKind {
    Monster,
    Native,
}

/// The side of a two-sided counter that is face up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CounterSide {
    Light,
    Dark,
}

/// Where a denizen counter is.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "at", rename_all = "snake_case", deny_unknown_fields)]
pub enum Whereabouts {
    /// In a box of the setup card: a monster box, or a roving native
    /// group's box (named by the group).
    SetupBox {
        name: String,
    },
    /// On the site box of the setup card, guarding that site.
    Guarding {
        site: String,
    },
    /// On the map.
    Clearing {
        clearing: ClearingId,
    },
    Dead,
}

/// Where a counter is, as a report says it: `in CV4`.
impl std::fmt::Display for Whereabouts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Whereabouts::SetupBox { name } => write!(f, "in the {name} box of the setup card"),
            Whereabouts::Guarding { site } => write!(f, "guarding the {site}"),
            Whereabouts::Clearing { clearing } => write!(f, "in {clearing}"),
            Whereabouts::Dead => f.write_str("dead"),
        }
    }
}

/// One thing a holder holds.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    pub kind: ItemKind,
    /// The item's id: a treasure or spell name, a horse name, or a weapon or
    /// armour name with its copy number when there are several (`Spear 2`).
    pub name: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ItemKind {
    Treasure,
    Spell,
    Horse,
    Weapon,
    Armor,
}

impl std::fmt::Display for ItemKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ItemKind::Treasure => "treasure",
            ItemKind::Spell => "spell",
            ItemKind::Horse => "horse",
            ItemKind::Weapon => "weapon",
            ItemKind::Armor => "armor",
        })
    }
}

/// A character in play. The day engine extends this.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterState {
    pub name: String,
    /// His seat: the player who plays him, or under Multiple Characters
    /// (3.1 10.E.4) a seat of his own (`controller` plays it), which his
    /// orders, his turn and what he sees go by.
    pub player: String,
    /// The player who plays him when that player plays several characters
    /// (3.1 10.E.4); `None` when `player` is the player himself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<String>,
    /// The start the player chose among the character's allowed ones.
    pub start: StartLocation,
    /// The game whose pieces he plays and at whose dwelling he starts when
    /// two Realms are combined (3.1 10.E.7.4.2).
    #[serde(default, skip_serializing_if = "Realm::is_first")]
    pub realm: Realm,
    pub position: ClearingId,
    pub gold: u16,
    pub weapon: Option<String>,
    pub armor: Vec<String>,
    /// The 12 action chits in development order, with their condition.
    pub chits: Vec<CharacterChit>,
    pub hidden: bool,
    pub fame: i32,
    pub notoriety: i32,
    /// Parts of Fame and Notoriety points from shared kills, kept until
    /// they make whole ones (3.1 8.7.1b).
    #[serde(default, skip_serializing_if = "points::Kept::is_zero")]
    pub points_kept: points::Kept,
    /// What the character carries besides his starting weapon and armour:
    /// treasures, horses, bought or looted weapons and armour, each active
    /// or not (play summary II.D.1.b).
    pub belongings: Vec<Belonging>,
    /// What the character has found and keeps knowing (play summary II.C.5).
    pub discoveries: Discoveries,
    /// Today only: he found Hidden Enemies, so he may block hidden
    /// characters (play summary II.C.2); cleared at Midnight.
    pub found_hidden_enemies: bool,
    /// Today only: the hidden enemies Magic Sight let him see, by what
    /// they own (3.1 7.5.7c); cleared at Midnight.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub magic_sight: Vec<SightOf>,
    /// Natives he has hired, each with the days left of its term (play summary
    /// II.C.7).
    #[serde(default)]
    pub hirelings: Vec<Hireling>,
    /// His weapon is alerted (ready side up) since an Alert phase or a
    /// combat; unalerted at Midnight (play summary II.C.3, IV.B).
    #[serde(default)]
    pub weapon_alerted: bool,
    /// He was killed (3.1 9.1.1); he may start over at the Inn the next
    /// day (3.1 9.1.2, `day::restart`).
    #[serde(default)]
    pub dead: bool,
    /// Dead by his own hand, he sits out a whole day and may start over
    /// no sooner than this day (3.1 9.2.2a).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejoins_on: Option<u32>,
    /// His spells and curses (magic summary; `tables/magic.rs`).
    #[serde(
        default,
        skip_serializing_if = "crate::state::magic::CharacterMagic::is_empty"
    )]
    pub magic: crate::state::magic::CharacterMagic,
    /// Worn armour damaged in combat (play summary III.B.9.c): damaged again,
    /// it is destroyed.
    #[serde(default)]
    pub damaged_armor: Vec<String>,
    /// Mission and campaign chits he holds (`data/setup_card.toml`; `day::missions`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gold_specials: Vec<TakenChit>,
    /// The optional abilities his player chose at setup, under the
    /// `chosen_optional_abilities` rule (BIMR5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub optional_abilities: Vec<String>,
    /// What his pack horses carry, by horse (the Pack Horses rule,
    /// `state::belongings::load`): loaded belongings are not his to carry.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pack: BTreeMap<String, Vec<Item>>,
    /// The Elf's form, chosen at setup when his "Light or Great Elf"
    /// ability is in force (`abilities::shape_chits`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elf_form: Option<crate::data::characters::ElfForm>,
    /// Between clearings on the roadway he ran away onto (3.1 rule
    /// 8.3.8d): `position` is still the clearing he ran out of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roadway: Option<Roadway>,
    /// Aloft after flying away from this clearing in combat (3.1 rule
    /// 8.3.8e.2): half over its tile and half over one next to it, his
    /// next turn starting with a Fly phase down into either; `position` is
    /// still that clearing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flown_away: Option<ClearingId>,
    /// Levels his trading relationship with each native group or visitor
    /// has moved for good, warmer positive (boons taken and repaid, 3.1
    /// 7.6.5e; Grudges and Gratitude, 10.B.6). Kept past Ally and past
    /// Enemy: the Meeting table stops at its end columns, the count does
    /// not (10.B.6). Read through `day::meeting::relationship`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub relationship_shift: BTreeMap<String, i8>,
    /// Boons he took free and has not yet tried to repay, oldest first
    /// (3.1 7.6.5e.1): each made its group a level colder.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boons_owed: Vec<BoonOwed>,
    /// His level and progress under the development rule (3.1 10.E.5);
    /// `None`: 4th level, the character as his card shows him.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub development: Option<development::Development>,
}

/// What a hidden enemy must own to be seen by Magic Sight's result (3.1
/// 7.5.7c): recorded spells, a weapon, armour or horse counter, or a
/// Treasure card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SightOf {
    Spells,
    Counters,
    TreasureCards,
}

impl std::fmt::Display for SightOf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SightOf::Spells => "spells recorded",
            SightOf::Counters => "a weapon, armour or horse counter",
            SightOf::TreasureCards => "Treasure cards",
        })
    }
}

impl CharacterState {
    /// Whether he can see `target` when `target` is hidden: he found
    /// hidden enemies today, or Magic Sight showed him those owning what
    /// `target` owns (3.1 7.5.4g, 7.5.7c).
    pub fn sees_hidden(&self, target: &CharacterState) -> bool {
        self.found_hidden_enemies || self.magic_sight.iter().any(|s| target.owns(*s))
    }

    /// Whether he can see a hidden native, a hired leader among them: every
    /// native owns weapon counters, so Magic Sight's Counters result shows
    /// them all (3.1 7.5.7c).
    pub fn sees_hidden_native(&self) -> bool {
        self.found_hidden_enemies || self.magic_sight.contains(&SightOf::Counters)
    }

    /// Whether he owns what Magic Sight's `sight` shows (3.1 7.5.7c).
    pub fn owns(&self, sight: SightOf) -> bool {
        let carries =
            |kinds: &[ItemKind]| self.belongings.iter().any(|b| kinds.contains(&b.item.kind));
        match sight {
            SightOf::Spells => !self.magic.spells.is_empty(),
            SightOf::Counters => {
                self.weapon.is_some()
                    || !self.armor.is_empty()
                    || carries(&[ItemKind::Weapon, ItemKind::Armor, ItemKind::Horse])
            }
            SightOf::TreasureCards => carries(&[ItemKind::Treasure]),
        }
    }
}

/// A boon taken free: the group it came from and the gold price a Trade
/// phase must meet, on one Meeting roll, to win the lost level back (3.1
/// 7.6.5e.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoonOwed {
    pub group: String,
    pub price: u32,
}

impl CharacterState {
    /// The player who plays him (3.1 10.E.4: his controller, when he is one
    /// of several characters of one player).
    pub fn played_by(&self) -> &str {
        self.controller.as_deref().unwrap_or(&self.player)
    }

    /// Everything he carries, taken off him: his weapon (unalerted), armour
    /// (its damage forgotten), belongings and his pack horses' loads, for a
    /// character who leaves it all where he stands (a death, a suicide).
    pub fn give_up_everything(&mut self) -> Vec<Item> {
        let mut all: Vec<Item> = self
            .weapon
            .take()
            .map(|name| Item {
                kind: ItemKind::Weapon,
                name,
            })
            .into_iter()
            .collect();
        all.extend(self.armor.drain(..).map(|name| Item {
            kind: ItemKind::Armor,
            name,
        }));
        all.extend(self.belongings.drain(..).map(|b| b.item));
        all.extend(std::mem::take(&mut self.pack).into_values().flatten());
        self.damaged_armor.clear();
        self.weapon_alerted = false;
        all
    }

    /// Whether he is between clearings, on the roadway he ran onto or aloft
    /// after flying away: he neither blocks nor is blocked, trades,
    /// rearranges or fights there (3.1 rules 8.3.8d, 8.3.8e.2).
    pub fn between_clearings(&self) -> bool {
        self.roadway.is_some() || self.flown_away.is_some()
    }

    /// Move his relationship with `group` by `levels` for good (negative
    /// colder), keeping the levels past either end of the scale.
    pub fn shift_relationship(&mut self, group: &str, levels: i8) {
        let entry = self
            .relationship_shift
            .entry(group.to_string())
            .or_insert(0);
        *entry = entry.saturating_add(levels);
        if *entry == 0 {
            self.relationship_shift.remove(group);
        }
    }

    /// The levels his relationship with `group` has moved for good.
    pub fn relationship_shift(&self, group: &str) -> i8 {
        self.relationship_shift.get(group).copied().unwrap_or(0)
    }
}

/// The roadway a runaway ends the day on (3.1 rule 8.3.8b, d): he cannot
/// block or be blocked, rearrange, abandon or trade, and must start his
/// next turn with a Move to one of its ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roadway {
    /// The clearing he ran out of.
    pub from: ClearingId,
    /// The clearing at its other end.
    pub to: ClearingId,
    /// The roadway vanished under him (the tile turned over): he is in
    /// the forest, and his only way off is back to `from` (3.1 rule
    /// 8.3.8d.3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub vanished: bool,
    /// A solitaire character off the map, at its edge (3.1 10.E.1.6): the
    /// clearings the roads from the edge to the Borderland come to, one of
    /// which his first Move must reach; `from` and `to` are the first.
    /// Empty for a runaway.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edge_entries: Vec<ClearingId>,
}

impl Roadway {
    /// Whether `other` is the same roadway, walked either way.
    pub fn same_road(&self, other: &Roadway) -> bool {
        (self.from == other.from && self.to == other.to)
            || (self.from == other.to && self.to == other.from)
    }

    /// A solitaire character waiting at the map's edge to come onto it by
    /// one of the roads into `entries` with his first Move (3.1 10.E.1.6);
    /// `None` when there is none.
    pub fn from_edge(entries: Vec<ClearingId>) -> Option<Roadway> {
        let first = entries.first()?.clone();
        Some(Roadway {
            from: first.clone(),
            to: first,
            vanished: false,
            edge_entries: entries,
        })
    }

    /// Whether he waits at the map's edge rather than between clearings.
    pub fn is_from_edge(&self) -> bool {
        !self.edge_entries.is_empty()
    }

    /// Whether his first Move may go to `clearing`: either end, or only
    /// back to `from` once the roadway vanished; from the map's edge, the
    /// clearing of one of its roads.
    pub fn ends_at(&self, clearing: &ClearingId) -> bool {
        if self.is_from_edge() {
            return self.edge_entries.contains(clearing);
        }
        clearing == &self.from || (!self.vanished && clearing == &self.to)
    }

    /// Where his first Move may go, as a sentence names it.
    pub fn ways_off(&self) -> String {
        if let [rest @ .., last] = self.edge_entries.as_slice() {
            let rest: Vec<String> = rest.iter().map(ToString::to_string).collect();
            return if rest.is_empty() {
                last.to_string()
            } else {
                format!("{} or {last}", rest.join(", "))
            };
        }
        if self.vanished {
            self.from.to_string()
        } else {
            format!("{} or {}", self.from, self.to)
        }
    }
}

impl std::fmt::Display for Roadway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let [only] = self.edge_entries.as_slice() {
            write!(f, "the road from the map's edge into {only}")
        } else if self.is_from_edge() {
            write!(f, "the map's edge, by the roads into {}", self.ways_off())
        } else if self.vanished {
            write!(
                f,
                "the roadway between {} and {}, which vanished (he is in the forest by {})",
                self.from, self.to, self.from
            )
        } else {
            write!(f, "the roadway between {} and {}", self.from, self.to)
        }
    }
}

impl CharacterState {
    /// A character as he enters the game at `position`: his card's gold,
    /// weapon, armour and fresh chits, unhidden, knowing only the tile he
    /// starts in.
    pub fn entering(
        card: &crate::data::characters::Character,
        player: String,
        start: StartLocation,
        position: ClearingId,
    ) -> CharacterState {
        CharacterState {
            name: card.name.clone(),
            player,
            controller: None,
            start,
            realm: Realm::First,
            gold: card.gold,
            weapon: card.weapon.clone(),
            armor: card.armor.clone(),
            chits: CharacterChit::fresh_set(card),
            hidden: false,
            fame: 0,
            notoriety: 0,
            points_kept: Default::default(),
            belongings: Vec::new(),
            discoveries: Discoveries {
                tiles_visited: [position.tile.clone()].into(),
                ..Discoveries::default()
            },
            position,
            found_hidden_enemies: false,
            magic_sight: Vec::new(),
            hirelings: Vec::new(),
            weapon_alerted: false,
            dead: false,
            rejoins_on: None,
            magic: Default::default(),
            damaged_armor: Vec::new(),
            gold_specials: Vec::new(),
            optional_abilities: Vec::new(),
            pack: BTreeMap::new(),
            elf_form: None,
            roadway: None,
            flown_away: None,
            relationship_shift: BTreeMap::new(),
            boons_owed: Vec::new(),
            development: None,
        }
    }
}

/// A hired native and the days left of its term of hire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hireling {
    /// The native's counter id, e.g. `Rogue 7` or `Company HQ`.
    pub native: String,
    pub days_left: u8,
}

/// An item a character carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Belonging {
    pub item: Item,
    pub active: bool,
}

/// Knowledge that lasts: a hidden path or secret passage can be used only
/// once discovered; a treasure site can be looted only once found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Discoveries {
    /// Hidden paths and secret passages, each as the two clearings it joins
    /// (the lower first).
    pub routes: std::collections::BTreeSet<(ClearingId, ClearingId)>,
    /// Site chits whose treasure location he has found.
    pub sites: std::collections::BTreeSet<String>,
    /// Map chits he has seen face up, by name.
    pub chits_seen: std::collections::BTreeSet<String>,
    /// Tiles he has been in.
    pub tiles_visited: std::collections::BTreeSet<String>,
}

impl Discoveries {
    /// How [`Discoveries::routes`] keeps the route between `a` and `b`
    /// whichever end it is walked from: the lower clearing first.
    pub fn route_key(a: &ClearingId, b: &ClearingId) -> (ClearingId, ClearingId) {
        if a <= b {
            (a.clone(), b.clone())
        } else {
            (b.clone(), a.clone())
        }
    }

    /// Whether he has discovered the route between `a` and `b`.
    pub fn knows_route(&self, a: &ClearingId, b: &ClearingId) -> bool {
        self.routes.contains(&Self::route_key(a, b))
    }

    /// He has discovered the route between `a` and `b`.
    pub fn learn_route(&mut self, a: &ClearingId, b: &ClearingId) {
        self.routes.insert(Self::route_key(a, b));
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterChit {
    /// The printed chit, e.g. `MOVE M4*`.
    pub chit: String,
    pub condition: ChitCondition,
    /// A MAGIC chit turned to its colour by an enchantment (play summary
    /// II.C.10.a): a colour chit until it is played.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub enchanted: bool,
    /// A MAGIC chit prepared (alerted) in an Alert phase (3.1 rule 7.9.3): it
    /// casts at speed 0 and fatigues at Midnight, used or not (8.9.2c).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prepared: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChitCondition {
    Active,
    Fatigued,
    Wounded,
}

impl CharacterChit {
    /// A printed chit as it starts the game: active, not enchanted, not
    /// prepared.
    pub fn fresh(chit: String) -> Self {
        CharacterChit {
            chit,
            condition: ChitCondition::Active,
            enchanted: false,
            prepared: false,
        }
    }

    /// The card's 12 chits as they start the game.
    pub fn fresh_set(card: &crate::data::characters::Character) -> Vec<CharacterChit> {
        card.chits
            .iter()
            .map(|c| CharacterChit::fresh(c.to_string()))
            .collect()
    }
}

/// The holder name of the items abandoned in a clearing (play summary II.C.5:
/// they can be looted like a site).
pub fn abandoned_pile(clearing: &ClearingId) -> String {
    format!("Abandoned in {clearing}")
}

impl MrState {
    /// Whether two Realms are combined (3.1 10.E.7): the map holds the
    /// second game's tiles.
    pub fn combines_realms(&self) -> bool {
        self.board
            .placements()
            .any(|p| Realm::of_code(&p.tile) == Realm::Second)
    }

    /// The dwellings on the map of one game (3.1 10.E.7.4.3).
    pub fn dwellings_of(&self, realm: Realm) -> &BTreeMap<Dwelling, ClearingId> {
        match realm {
            Realm::First => &self.dwellings,
            Realm::Second => &self.second_realm_dwellings,
        }
    }

    /// Every dwelling on the map with its game: the first game's, then
    /// the second's when two Realms are combined (3.1 10.E.7.4.3). A rule
    /// about dwellings in general (shelter, colour, what a clearing shows)
    /// reads both games'; one about a game's own Inn reads [`Self::dwellings_of`].
    pub fn every_dwelling(&self) -> impl Iterator<Item = (Realm, Dwelling, &ClearingId)> {
        Realm::ALL.into_iter().flat_map(move |realm| {
            self.dwellings_of(realm)
                .iter()
                .map(move |(d, at)| (realm, *d, at))
        })
    }

    /// Whether a dwelling of either game, a campfire included, stands in
    /// `clearing`.
    pub fn dwelling_stands_in(&self, clearing: &ClearingId) -> bool {
        self.every_dwelling().any(|(_, _, at)| at == clearing)
    }

    /// The dwellings of one game, to add one as its chit turns face up.
    pub fn dwellings_of_mut(&mut self, realm: Realm) -> &mut BTreeMap<Dwelling, ClearingId> {
        match realm {
            Realm::First => &mut self.dwellings,
            Realm::Second => &mut self.second_realm_dwellings,
        }
    }

    /// Put `item` in `holder`'s box as a sale puts it (3.1 7.6.4): the
    /// pile runs from the smallest counters on top (weapons, then armour,
    /// then horses) to the cards below, and the item goes under those of
    /// its own kind already there.
    pub fn put_in_box(&mut self, holder: &str, item: Item) {
        fn depth(kind: ItemKind) -> u8 {
            match kind {
                ItemKind::Weapon => 0,
                ItemKind::Armor => 1,
                ItemKind::Horse => 2,
                ItemKind::Spell => 3,
                ItemKind::Treasure => 4,
            }
        }
        let pile = self.holdings.entry(holder.to_string()).or_default();
        let at = pile
            .iter()
            .position(|held| depth(held.kind) > depth(item.kind))
            .unwrap_or(pile.len());
        pile.insert(at, item);
    }

    /// Put the map chit `chit` on `tile`, taking it from wherever it lay
    /// (another tile, or under a Lost City or Lost Castle).
    pub fn move_map_chit(&mut self, tile: &str, chit: MapChit) {
        for chits in self.map_chits.values_mut() {
            chits.retain(|c| c.name != chit.name);
        }
        for chits in self.lost.values_mut() {
            chits.retain(|c| *c != chit.name);
        }
        self.map_chits
            .entry(tile.to_string())
            .or_default()
            .push(chit);
    }

    /// Take every monster and native off the map (they are dead to the
    /// game), so nothing blocks or fights unless put there again: the start
    /// of a test or a day file that places its own.
    pub fn clear_denizens_from_map(&mut self) {
        for d in self.denizens.values_mut() {
            if matches!(d.at, Whereabouts::Clearing { .. }) {
                d.at = Whereabouts::Dead;
            }
        }
    }

    /// A hired leader leaves his employer's service (his term ends, his
    /// employer dies or leaves, treachery, a spell kills him): what he
    /// carries lies where he stands; his record is gone.
    pub fn release_leader(&mut self, native: &str) {
        let Some(record) = self.leaders.remove(native) else {
            return;
        };
        if record.carries.is_empty() {
            return;
        }
        if let Some(Whereabouts::Clearing { clearing }) = self.denizens.get(native).map(|d| &d.at) {
            let pile = abandoned_pile(clearing);
            self.holdings
                .entry(pile)
                .or_default()
                .extend(record.carries);
        }
    }

    /// Every hireling of the character `who` leaves his service (he died,
    /// restarts or leaves the Realm): the leaders among them are released.
    pub fn release_hired_leaders(&mut self, who: usize) {
        let natives: Vec<String> = self.characters[who]
            .hirelings
            .iter()
            .map(|h| h.native.clone())
            .collect();
        for native in natives {
            self.release_leader(&native);
        }
    }

    /// The hired leader `native` was killed by `killer`: a character who
    /// killed him takes what he carried (inactive); otherwise it lies in the
    /// clearing (play summary III.B.9.d.ii).
    pub fn hired_leader_killed(&mut self, native: &str, killer: &str) {
        let Some(record) = self.leaders.remove(native) else {
            return;
        };
        if let Some(c) = self
            .characters
            .iter_mut()
            .find(|c| c.name == killer && !c.dead)
        {
            c.belongings
                .extend(record.carries.into_iter().map(|item| Belonging {
                    item,
                    active: false,
                }));
        } else {
            self.leaders.insert(native.to_string(), record);
            self.release_leader(native);
        }
    }

    /// The native `native` is nobody's hireling any more (killed, or
    /// turned by treachery).
    pub fn dismiss(&mut self, native: &str) {
        for c in &mut self.characters {
            c.hirelings.retain(|h| h.native != native);
        }
    }

    /// The characters in the game: those on the board (the dead
    /// included, who come back) and those entering at the next Birdsong.
    pub fn characters_in_play(&self) -> impl Iterator<Item = &str> {
        self.characters
            .iter()
            .map(|c| c.name.as_str())
            .chain(self.arrivals.iter().map(|a| a.character.as_str()))
    }

    /// The victory points a player joining the game in progress records
    /// for a character entering at the next Birdsong (3.1 10.E.2.5): the
    /// weeks left, the one he enters in counted whole, define them as the
    /// game's length does at the start (10.E.2.2): the basic point, plus
    /// the game's points a week for each week left, a fraction rounded up
    /// as 10.E.2.4.1 rounds a part of a Season. Before day 1 it is the
    /// game's full total.
    pub fn joiner_victory_points(&self) -> u32 {
        let weeks = self.last_day.div_ceil(DAYS_PER_WEEK).max(1);
        let left = weeks.saturating_sub(self.day / DAYS_PER_WEEK).max(1);
        let weekly = self.victory_points.saturating_sub(VICTORY_POINTS_PER_GAME);
        VICTORY_POINTS_PER_GAME + (weekly * left).div_ceil(weeks)
    }

    /// The characters `player` plays, in seat order: one, or under Multiple
    /// Characters (3.1 10.E.4) several.
    pub fn characters_of<'a>(
        &'a self,
        player: &'a str,
    ) -> impl Iterator<Item = &'a CharacterState> + 'a {
        self.characters
            .iter()
            .filter(move |c| c.played_by() == player)
    }

    /// Whether `player` plays several characters (3.1 10.E.4).
    pub fn plays_several(&self, player: &str) -> bool {
        self.characters_of(player).nth(1).is_some()
    }

    /// The victory points the character `name` records (3.1 10.E.4.3): the
    /// game's, and one more for each character his player took before him;
    /// a character who replaces a killed one takes his seat and so his
    /// points (10.E.4.7).
    pub fn victory_points_for(&self, name: &str) -> u32 {
        let Some(me) = self.characters.iter().find(|c| c.name == name) else {
            return self.victory_points;
        };
        let before = self
            .characters_of(me.played_by())
            .take_while(|c| c.name != name)
            .count();
        self.victory_points + u32::try_from(before).unwrap_or(u32::MAX)
    }

    /// The characters of the game data nobody plays, in data order.
    pub fn unplayed_characters(&self, data: &crate::data::GameData) -> Vec<String> {
        data.characters
            .iter()
            .map(|c| c.name.clone())
            .filter(|name| !self.characters_in_play().any(|taken| taken == name))
            .collect()
    }

    /// Whether the character `name` leaves the Realm as the next turn
    /// begins (a queued `Retire` ruling).
    pub fn leaving(&self, name: &str) -> bool {
        self.rulings
            .iter()
            .any(|r| matches!(&r.ruling, ruling::Ruling::Retire { character } if character == name))
    }

    /// The character who has hired the native `native`, if any.
    pub fn employer_of(&self, native: &str) -> Option<usize> {
        self.characters
            .iter()
            .position(|c| c.hirelings.iter().any(|h| h.native == native))
    }

    /// The names of the map chits lying face up on `tile`.
    pub fn face_up_chits(&self, tile: &str) -> Vec<String> {
        self.map_chits
            .get(tile)
            .map(|chits| {
                chits
                    .iter()
                    .filter(|c| c.face_up)
                    .map(|c| c.name.clone())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The tile whose map chits include `chit`.
    pub fn tile_of_chit(&self, chit: &str) -> Option<&str> {
        self.map_chits
            .iter()
            .find(|(_, chits)| chits.iter().any(|c| c.name == chit))
            .map(|(tile, _)| tile.as_str())
    }
}

// Records the day engine keeps from one day to the next.

/// The weather the game keeps between days (Seasons and Weather,
/// `day::weather`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeatherState {
    /// This week's weather, read in the season of the month.
    pub weather: WeatherKind,
    /// The secret weather chit (1–6) the next weather roll is made against.
    pub chit: u8,
}

/// A character's Meeting-table roll for a battling group today, kept until
/// Midnight (`day::battling_today`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grudge {
    pub group: String,
    pub character: String,
}

/// A mission or campaign chit a character holds (`day::missions`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakenChit {
    pub chit: String,
    /// The game day he took it (the first of its days).
    pub taken_on: u32,
    /// A mission's destination and the gold it pays there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deliver_to: Option<Delivery>,
}

/// Where a mission is delivered, and the gold it pays there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Delivery {
    pub dwelling: Dwelling,
    pub reward: u16,
}

#[cfg(test)]
mod discoveries_tests {
    use super::*;

    #[test]
    fn a_route_learned_from_either_end_is_known_from_both() {
        let (a, b) = (ClearingId::new("CV", 4), ClearingId::new("AV", 2));
        let mut known = Discoveries::default();
        assert!(!known.knows_route(&a, &b));
        known.learn_route(&a, &b);
        assert!(known.knows_route(&b, &a) && known.knows_route(&a, &b));
        assert_eq!(known.routes.iter().next(), Some(&(b.clone(), a.clone())));
    }
}
