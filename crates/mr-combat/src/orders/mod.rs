//! The orders language: what players write in their daily mail.
//!
//! `activity` is the canonical form of a recorded day; `parse` reads the
//! notations real PBEM GMs accepted (README "Orders") into it.

pub mod activity;
pub mod combat_names;
pub mod dealing_names;
pub mod dealings;
pub mod error;
pub mod mail_check;
pub mod names;
pub mod parse;
pub mod ruling;
pub mod sheet;
pub mod starting_info;

pub use crate::setup::sections;
pub use activity::{Activities, Activity, Phase};
pub use names::{NameCheck, check_names};
pub use parse::{
    Alternatives, OrderNames, ParseError, TileNames, parse_activities, parse_chit, parse_recorded,
};
pub use sheet::{
    Blocking, BoonChoice, DayOrders, Purchase, SearchTable, Settle, Take, TurnChoice,
    WhenImpossible, parse_day_orders, peer_table,
};

use crate::data::GameData;
use crate::data::tiles::Tiles;

/// Orders name tiles the way the embedded tile data knows them.
impl TileNames for Tiles {
    fn resolve(&self, text: &str) -> Option<&str> {
        Tiles::resolve(self, text).map(|tile| tile.name.as_str())
    }

    fn known(&self) -> Vec<&str> {
        self.all().iter().flat_map(|tile| tile.names()).collect()
    }

    fn clearings(&self, tile: &str) -> Option<Vec<u8>> {
        let tile = Tiles::resolve(self, tile)?;
        Some(tile.normal.clearings.iter().map(|c| c.number).collect())
    }
}

/// The game data name tiles through their tile data.
impl TileNames for GameData {
    fn resolve(&self, text: &str) -> Option<&str> {
        TileNames::resolve(&self.tiles, text)
    }

    fn known(&self) -> Vec<&str> {
        TileNames::known(&self.tiles)
    }

    fn clearings(&self, tile: &str) -> Option<Vec<u8>> {
        TileNames::clearings(&self.tiles, tile)
    }
}
