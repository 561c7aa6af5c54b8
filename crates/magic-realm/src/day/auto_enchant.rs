//! Automatic Enchanting (3.1 10.C.5, optional `automatic_enchanting`): at
//! the very start of each 7th day of the week, right after the Midnight
//! before, the colour magic that day supplies turns certain tiles over, as
//! an Enchant Tile would (3.1 7.10.4), whichever side is up: every tile
//! whose enchanted side shows that colour, and every tile holding a
//! Dwelling or an Enchanted card (or site) that supplies it. A tile turns
//! over once however many causes it has. Colour chits never count.
//!
//! A card is in a tile when a character there carries it, it lies in an
//! abandoned pile there, or it is a site card on the map; cards in the
//! setup card's boxes are off the map. The pairs of 3.1 10.C.5.4 (the
//! Chapel with the Sacred Grail, a card in a clearing of its own colour)
//! turn over tiles that 10.C.5.2 already turns over, so they need no rule
//! of their own here.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use realmgm_core::game::Observers;

use super::Day;
use super::events::Happening;
use crate::data::terms::Colour;
use crate::data::tiles::Side;
use crate::data::treasures::TreasureEffect;
use crate::magic::colour::{day_colours, day_of_month};
use crate::state::ItemKind;

/// The name of the toggle.
pub const AUTOMATIC_ENCHANTING: &str = "automatic_enchanting";

/// Tiles turned over by the week's colour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum AutoEnchantEvent {
    /// One tile, as days played before the tiles of a colour were told
    /// together stored it; kept so their reports still read.
    TileTurned {
        tile: String,
        colour: Colour,
        now_enchanted: bool,
    },
    /// Every tile one colour turned over, by the side it now shows.
    TilesTurned {
        colour: Colour,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        to_enchanted: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        to_green: Vec<String>,
    },
}

impl AutoEnchantEvent {
    /// The line every reader sees.
    pub fn log_line(&self) -> String {
        match self {
            AutoEnchantEvent::TileTurned {
                tile,
                colour,
                now_enchanted,
            } => {
                let side = if *now_enchanted {
                    "its enchanted side"
                } else {
                    "its green side"
                };
                format!("The 7th day's {colour} magic turns the {tile} tile over to {side}.")
            }
            AutoEnchantEvent::TilesTurned {
                colour,
                to_enchanted,
                to_green,
            } => {
                let told = |tiles: &[String], side: &str| match tiles {
                    [] => None,
                    [tile] => Some(format!("the {tile} tile over to its {side} side")),
                    _ => Some(format!(
                        "{} tiles over to their {side} side ({})",
                        tiles.len(),
                        tiles.join(", ")
                    )),
                };
                let parts: Vec<String> = [told(to_enchanted, "enchanted"), told(to_green, "green")]
                    .into_iter()
                    .flatten()
                    .collect();
                format!(
                    "The 7th day's {colour} magic turns {}.",
                    parts.join(", and ")
                )
            }
        }
    }
}

/// Turn the tiles over at the start of day `day_number`, when it is a 7th
/// day and the rule is on.
pub fn at_dawn(day: &mut Day<'_>, day_number: u32) {
    if !day.rules.is_on(AUTOMATIC_ENCHANTING) || !day_of_month(day_number).is_multiple_of(7) {
        return;
    }
    let mut turned = BTreeSet::new();
    for colour in day_colours(&day.state, day.data, day.rules, day_number) {
        let (mut to_enchanted, mut to_green) = (Vec::new(), Vec::new());
        for tile in tiles_turned_by(day, colour) {
            if !turned.insert(tile.clone()) {
                continue;
            }
            let Some(now) = day.state.board.placement_of(&tile).map(|p| p.side) else {
                continue;
            };
            let to = match now {
                Side::Normal => Side::Enchanted,
                Side::Enchanted => Side::Normal,
            };
            if day.state.board.set_side(&tile, to).is_err() {
                continue;
            }
            match to {
                Side::Enchanted => to_enchanted.push(tile),
                Side::Normal => to_green.push(tile),
            }
        }
        if !to_enchanted.is_empty() || !to_green.is_empty() {
            day.emit(
                Observers::Everyone,
                Happening::AutoEnchant(AutoEnchantEvent::TilesTurned {
                    colour,
                    to_enchanted,
                    to_green,
                }),
            );
        }
    }
}

/// The tiles on the map that `colour` turns over (3.1 10.C.5.2), by code.
fn tiles_turned_by(day: &Day<'_>, colour: Colour) -> BTreeSet<String> {
    let data = day.data;
    let state = &day.state;
    let supplies = |name: &str| {
        data.treasure(name)
            .into_iter()
            .flat_map(|t| &t.effects)
            .any(|e| matches!(e, TreasureEffect::ColourSource { colour: c } if *c == colour))
    };
    let mut tiles: BTreeSet<String> = state
        .board
        .placements()
        .filter(|p| {
            data.tiles.by_code(&p.tile).is_some_and(|t| {
                t.enchanted
                    .clearings
                    .iter()
                    .any(|c| c.magic.contains(&colour))
            })
        })
        .map(|p| p.tile.clone())
        .collect();
    for (_, dwelling, at) in state.every_dwelling() {
        if data.chits.dwelling(dwelling).and_then(|d| d.colour_source) == Some(colour) {
            tiles.insert(at.tile.clone());
        }
    }
    for (site, at) in &state.treasure_sites {
        if supplies(site) {
            tiles.insert(at.tile.clone());
        }
    }
    for c in &state.characters {
        if c.belongings
            .iter()
            .any(|b| b.item.kind == ItemKind::Treasure && supplies(&b.item.name))
        {
            tiles.insert(c.position.tile.clone());
        }
    }
    for (holder, items) in &state.holdings {
        // Abandoned or dropped, a treasure lying in a clearing supplies
        // colour there (3.1 10.A.5.2 puts dropped ones on the map).
        let Some(clearing) = crate::state::dropped::clearing_of_pile(holder) else {
            continue;
        };
        if items
            .iter()
            .any(|i| i.kind == ItemKind::Treasure && supplies(&i.name))
        {
            tiles.insert(
                clearing
                    .trim_end_matches(|c: char| c.is_ascii_digit())
                    .to_string(),
            );
        }
    }
    tiles.retain(|t| state.board.placement_of(t).is_some());
    tiles
}
