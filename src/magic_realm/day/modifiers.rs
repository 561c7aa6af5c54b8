//! The modifiers of one character's table roll (TABLES.md §0, §2 and §3
//! "Modifiers"): his advantages' one-die and +/- effects, the die effects
//! of the treasures he has active, and treasures that touch everyone in
//! their clearing (Cloven Hoof). Each modifier keeps its source so the
//! report says why the row moved.

use super::Day;
use crate::magic_realm::board::ClearingId;
use crate::magic_realm::data::characters::Advantage;
use crate::magic_realm::data::terms::{Place, Roll, TileGroup};
use crate::magic_realm::data::tiles::ClearingKind;
use crate::magic_realm::data::treasures::{Affects, TreasureEffect};
use crate::magic_realm::state::ItemKind;
use crate::magic_realm::tables::Modifiers;

/// Everything that changes a roll of kind `roll` made by character `who`.
pub fn for_roll(day: &Day<'_>, who: usize, roll: Roll) -> Modifiers {
    let character = &day.state.characters[who];
    let at = &character.position;
    let mut mods = Modifiers::none();
    let optional = day.rules.is_on("optional_abilities");
    if let Some(data) = day
        .data
        .characters
        .iter()
        .find(|c| c.name == character.name)
    {
        for ability in data.abilities_in_force(optional) {
            for effect in &ability.effects {
                match effect {
                    Advantage::RollOneDie { rolls, place }
                        if covers(rolls, roll) && holds(day, at, *place) =>
                    {
                        mods = mods.with_one_die(format!("{} ({})", ability.name, character.name));
                    }
                    Advantage::RollModifier {
                        rolls,
                        modifier,
                        place,
                    } if covers(rolls, roll) && holds(day, at, *place) => {
                        mods =
                            mods.with(format!("{} ({})", ability.name, character.name), *modifier);
                    }
                    _ => {}
                }
            }
        }
    }
    // Treasures: the roller's own active ones, and those of anyone in his
    // clearing that touch every character there.
    for (index, other) in day.state.characters.iter().enumerate() {
        if &other.position != at {
            continue;
        }
        for belonging in other.belongings.iter().filter(|b| b.active) {
            if belonging.item.kind != ItemKind::Treasure {
                continue;
            }
            let Some(treasure) = day
                .data
                .treasures
                .iter()
                .find(|t| t.name == belonging.item.name)
            else {
                continue;
            };
            for effect in &treasure.effects {
                match effect {
                    TreasureEffect::DieModifier {
                        delta,
                        table,
                        place,
                        affects,
                    } if table.covers(roll)
                        && holds(day, at, *place)
                        && (index == who || *affects == Affects::EveryoneInItsClearing) =>
                    {
                        mods = mods.with(treasure.name.clone(), *delta);
                    }
                    TreasureEffect::OneDie { table } if index == who && table.covers(roll) => {
                        mods = mods.with_one_die(treasure.name.clone());
                    }
                    _ => {}
                }
            }
        }
    }
    mods
}

fn covers(rolls: &[Roll], made: Roll) -> bool {
    rolls.iter().any(|r| r.covers(made))
}

/// Whether the clearing `at` is inside `place`.
fn holds(day: &Day<'_>, at: &ClearingId, place: Place) -> bool {
    let tile = day.state.board.tile(&at.tile);
    let kind = day.state.board.clearing(at).map(|c| c.kind);
    let chit_on_tile = |name: &str| {
        day.state
            .map_chits
            .get(&at.tile)
            .is_some_and(|chits| chits.iter().any(|c| c.name.starts_with(name)))
    };
    match place {
        Place::Anywhere | Place::ItsClearing => true,
        Place::WoodsTile => tile.is_some_and(|t| t.name.contains("Woods")),
        Place::WoodsClearing => {
            kind == Some(ClearingKind::Woods)
                && tile.is_some_and(|t| t.group != TileGroup::Valley && t.name != "Ruins")
        }
        Place::MountainClearing => kind == Some(ClearingKind::Mountain),
        Place::CaveClearing => kind == Some(ClearingKind::Cave),
        Place::LostCityTile => chit_on_tile("Lost City"),
        Place::LostCastleTile => chit_on_tile("Lost Castle"),
        Place::Ruins => tile.is_some_and(|t| t.name == "Ruins") || chit_on_tile("Ruins"),
    }
}
