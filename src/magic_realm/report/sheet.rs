//! A character's sheet as his report shows it (issue 7 §2; seed 000 II.D,
//! IV; TABLES.md §14): his action chits with their condition, weapons,
//! armour, treasures and horses active or not, spells, gold, fame,
//! notoriety, hirelings with the days left of their terms, and the victory
//! points he would score now. Everything here is his own.

use serde::Serialize;

use super::super::data::GameData;
use super::super::day::events::condition_word;
use super::super::day::victory;
use super::super::state::{CharacterState, ItemKind, VictoryRequirements};

/// One line of the sheet's item list.
#[derive(Clone, Debug, Serialize)]
pub struct ItemLine {
    pub name: String,
    pub kind: &'static str,
    pub active: bool,
}

/// An action chit and its condition.
#[derive(Clone, Debug, Serialize)]
pub struct ChitLine {
    pub chit: String,
    pub condition: &'static str,
}

/// A hired native.
#[derive(Clone, Debug, Serialize)]
pub struct HirelingLine {
    pub native: String,
    pub days_left: u8,
}

/// The victory points he would score if the game ended now.
#[derive(Clone, Debug, Serialize)]
pub struct VictoryLine {
    pub great_treasures: i32,
    pub spells: i32,
    pub fame: i32,
    pub notoriety: i32,
    pub gold: i32,
    pub total: i32,
    /// His requirements, when the campaign has recorded them.
    pub requirements: Option<String>,
}

/// The whole sheet.
#[derive(Clone, Debug, Serialize)]
pub struct Sheet {
    pub character: String,
    pub position: String,
    pub hidden: bool,
    pub gold: u16,
    pub fame: i32,
    pub notoriety: i32,
    pub chits: Vec<ChitLine>,
    pub weapon: Option<String>,
    pub weapon_alerted: bool,
    pub armor: Vec<String>,
    /// Treasures, horses and bought or looted arms, active or not.
    pub items: Vec<ItemLine>,
    pub spells: Vec<String>,
    pub hirelings: Vec<HirelingLine>,
    pub victory: VictoryLine,
}

fn kind_word(kind: ItemKind) -> &'static str {
    match kind {
        ItemKind::Treasure => "treasure",
        ItemKind::Spell => "spell",
        ItemKind::Horse => "horse",
        ItemKind::Weapon => "weapon",
        ItemKind::Armor => "armour",
    }
}

/// The sheet of `me`.
pub fn sheet(
    data: &GameData,
    me: &CharacterState,
    requirements: Option<&VictoryRequirements>,
) -> Sheet {
    let score = victory::score(data, me, requirements);
    Sheet {
        character: me.name.clone(),
        position: me.position.to_string(),
        hidden: me.hidden,
        gold: me.gold,
        fame: me.fame,
        notoriety: me.notoriety,
        chits: me
            .chits
            .iter()
            .map(|c| ChitLine {
                chit: c.chit.clone(),
                condition: condition_word(c.condition),
            })
            .collect(),
        weapon: me.weapon.clone(),
        weapon_alerted: me.weapon_alerted,
        armor: me.armor.clone(),
        items: me
            .belongings
            .iter()
            .filter(|b| b.item.kind != ItemKind::Spell)
            .map(|b| ItemLine {
                name: b.item.name.clone(),
                kind: kind_word(b.item.kind),
                active: b.active,
            })
            .collect(),
        spells: me
            .belongings
            .iter()
            .filter(|b| b.item.kind == ItemKind::Spell)
            .map(|b| b.item.name.clone())
            .collect(),
        hirelings: me
            .hirelings
            .iter()
            .map(|h| HirelingLine {
                native: h.native.clone(),
                days_left: h.days_left,
            })
            .collect(),
        victory: VictoryLine {
            great_treasures: score.great_treasures,
            spells: score.spells,
            fame: score.fame,
            notoriety: score.notoriety,
            gold: score.gold,
            total: score.total,
            requirements: requirements.map(|r| {
                format!(
                    "{} great treasures, {} spells, {} fame, {} notoriety, {} gold (victory points per category)",
                    r.great_treasures, r.spells, r.fame, r.notoriety, r.gold
                )
            }),
        },
    }
}
