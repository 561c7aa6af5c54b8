//! Map chits onto the tiles, and the dwellings and ghosts they reveal.
//!
//! `data/chits.toml`: the 8 site and 10 sound chits are shuffled; each red
//! chit (Lost Castle, Lost City) takes its `holds` of them; each red chit
//! and as many of the rest as its tile group has tiles, less one, are
//! shuffled and dealt one per tile of that group. Each warning set goes one
//! per tile of its group. §7.3: the valley warning chits are turned face up
//! at setup, showing their dwellings and the ghosts, which go in clearing 5
//! of their tile (ruling: the printed rule's clearing, which is also where
//! RealmSpeak puts them on the original tiles). The woods campfires wait
//! until their chits turn face up.
//!
//! Two Realms combined (3.1 10.E.7.4.1): both games' chits, each carrying
//! its game's mark, are mixed in the same piles and dealt over the double
//! board (its tile groups hold twice the tiles), the Lost City and Lost
//! Castle sections taking chits of either game; a warning chit reveals its
//! own game's dwelling and ghosts.

use std::collections::BTreeMap;

use super::SetupError;
use crate::board::{Board, ClearingId};
use crate::data::GameData;
use crate::data::realms::Realm;
use crate::data::terms::{Dwelling, TileGroup};
use crate::state::MapChit;
use realmgm_core::dice::Dice;

/// The clearing where revealed dwellings and the ghosts are put.
pub const DWELLING_CLEARING: u8 = 5;

/// What dealing the map chits produced.
pub struct Dealt {
    pub map_chits: BTreeMap<String, Vec<MapChit>>,
    pub lost: BTreeMap<String, Vec<String>>,
    /// Each game's revealed dwellings (3.1 10.E.7.4.3).
    pub dwellings: BTreeMap<Realm, BTreeMap<Dwelling, ClearingId>>,
    /// Where each game's ghosts are; none while the chit that shows them is
    /// face down (Solitaire Play).
    pub ghosts: BTreeMap<Realm, ClearingId>,
}

/// Tile codes of each group, in placing order.
fn tiles_by_group(board: &Board) -> BTreeMap<TileGroup, Vec<String>> {
    let mut groups: BTreeMap<TileGroup, Vec<String>> = BTreeMap::new();
    for p in board.placements() {
        if let Some(tile) = board.tile(&p.tile) {
            groups.entry(tile.group).or_default().push(p.tile.clone());
        }
    }
    groups
}

/// Deal every map chit of `realms` (one game, or two combined) and, when
/// `valley_face_up`, reveal the valley dwellings and the ghosts (a solitaire
/// player leaves them face down, 3.1 10.E.1.5).
///
/// # Errors
/// The board's tile groups do not match the chits (a board without the
/// twenty original tiles of each game), or a revealing tile has no
/// clearing 5.
pub fn deal(
    data: &GameData,
    board: &Board,
    valley_face_up: bool,
    realms: &[Realm],
    dice: &mut Dice,
) -> Result<Dealt, SetupError> {
    let groups = tiles_by_group(board);
    let tiles_of = |group: TileGroup| groups.get(&group).cloned().unwrap_or_default();
    let mut map_chits: BTreeMap<String, Vec<MapChit>> = BTreeMap::new();
    let mut put = |tile: &str, name: &str, face_up: bool| {
        map_chits
            .entry(tile.to_string())
            .or_default()
            .push(MapChit {
                name: name.to_string(),
                face_up,
            });
    };
    // Every game's copy of some chits, marked, first game's first.
    let of_every_game = |names: &mut dyn Iterator<Item = &str>| -> Vec<String> {
        let names: Vec<&str> = names.collect();
        realms
            .iter()
            .flat_map(|realm| names.iter().map(|name| realm.mark(name)))
            .collect()
    };

    for group in TileGroup::ALL {
        let tiles = tiles_of(group);
        let mut warnings = of_every_game(
            &mut data
                .chits
                .warning
                .iter()
                .filter(|w| w.tiles == group)
                .map(|w| w.name.as_str()),
        );
        if warnings.len() != tiles.len() {
            return Err(SetupError::Map(format!(
                "{} {group} tiles for {} {group} warning chits",
                tiles.len(),
                warnings.len()
            )));
        }
        dice.shuffle(&format!("setup/chits/warnings/{group}"), &mut warnings);
        for (tile, warning) in tiles.iter().zip(&warnings) {
            put(tile, warning, valley_face_up && group == TileGroup::Valley);
        }
    }

    let mut pool = of_every_game(
        &mut data
            .chits
            .site
            .iter()
            .map(|s| s.name.as_str())
            .chain(data.chits.sound.iter().map(|s| s.name.as_str())),
    );
    dice.shuffle("setup/chits/lost", &mut pool);
    let mut lost = BTreeMap::new();
    for realm in realms {
        for red in &data.chits.lost {
            let hidden: Vec<String> = take(&mut pool, usize::from(red.holds))?;
            lost.insert(realm.mark(&red.name), hidden);
        }
    }
    for red in &data.chits.lost {
        let tiles = tiles_of(red.tiles);
        let mut dealt: Vec<String> = realms.iter().map(|realm| realm.mark(&red.name)).collect();
        dealt.extend(take(&mut pool, tiles.len().saturating_sub(realms.len()))?);
        if dealt.len() != tiles.len() {
            return Err(SetupError::Map(format!(
                "the {} needs {} tiles",
                red.name, red.tiles
            )));
        }
        dice.shuffle(&format!("setup/chits/{}", red.tiles), &mut dealt);
        for (tile, chit) in tiles.iter().zip(&dealt) {
            put(tile, chit, false);
        }
    }
    if !pool.is_empty() {
        return Err(SetupError::Map(format!(
            "{} site and sound chits are left over",
            pool.len()
        )));
    }

    let revealed = |warning: &str| -> Result<Option<ClearingId>, SetupError> {
        let Some((tile, _)) = map_chits
            .iter()
            .find(|(_, chits)| chits.iter().any(|c| c.name == warning && c.face_up))
        else {
            return Ok(None);
        };
        let clearing = ClearingId::new(tile, DWELLING_CLEARING);
        if board.clearing(&clearing).is_none() {
            return Err(SetupError::Map(format!(
                "tile {tile} has no clearing {DWELLING_CLEARING} for what {warning} reveals"
            )));
        }
        Ok(Some(clearing))
    };
    let mut dwellings: BTreeMap<Realm, BTreeMap<Dwelling, ClearingId>> = BTreeMap::new();
    let mut ghosts = BTreeMap::new();
    for &realm in realms {
        for w in &data.chits.warning {
            let Some(clearing) = revealed(&realm.mark(&w.name))? else {
                continue;
            };
            if let Some(dwelling) = w.dwelling {
                dwellings
                    .entry(realm)
                    .or_default()
                    .insert(dwelling, clearing.clone());
            }
            if w.ghosts > 0 {
                ghosts.insert(realm, clearing);
            }
        }
        if valley_face_up && !ghosts.contains_key(&realm) {
            return Err(SetupError::Map(
                "no warning chit revealed the ghosts".to_string(),
            ));
        }
    }
    Ok(Dealt {
        map_chits,
        lost,
        dwellings,
        ghosts,
    })
}

/// Take `count` chits off the top of the pool.
fn take(pool: &mut Vec<String>, count: usize) -> Result<Vec<String>, SetupError> {
    if pool.len() < count {
        return Err(SetupError::Map(format!(
            "{count} site and sound chits needed but only {} left",
            pool.len()
        )));
    }
    Ok(pool.drain(..count).collect())
}
