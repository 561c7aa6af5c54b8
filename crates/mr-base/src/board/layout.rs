//! The rules for building the map one tile at a time, used both by the
//! seeded random board and by players who build it themselves (BIMR3, seed
//! 003 "BOARD BUILDING": each player places his dealt tiles in turn).
//!
//! The play summary says nothing about building the map, so realmgm follows the
//! second-edition construction rule, as ruled here:
//!
//! 1. The Borderland is placed first, at `(0,0)`, turned any way; on a
//!    double board, either Borderland (3.1 10.E.7.4: the first one dealt).
//! 2. Every tile is placed with the side it starts with face up (the normal
//!    side for all twenty), on an empty hex next to at least one placed tile,
//!    turned any of the six ways.
//! 3. At least one of its roads must meet a road of a placed tile across a
//!    shared edge.
//! 4. It must touch at least two placed tiles whenever any placement of that
//!    tile allowed by rules 2 and 3 does.
//! 5. The finished map (all twenty tiles, forty on a double board) must be
//!    connected: every clearing reachable from every other by paths of any
//!    kind, hidden paths and secret passages included, with the tiles normal
//!    side up. A road that
//!    meets a roadless edge or the map's outside is a dead end and is
//!    allowed. Rule 5 can only be judged at the end, so
//!    [`Board::check_finished`] checks it rather than [`Board::place`]. A map
//!    the players build keeps it unless no legal place for the last tile
//!    joins the map ([`Board::check_players_finished`]).

use std::collections::BTreeSet;

use thiserror::Error;

use super::{Board, Hex, Placed, Placement};
use crate::data::tiles::{Edge, Side, TILE_COUNT, Tile, Tiles};

/// The code of the tile placed first.
pub const FIRST_TILE: &str = "BL";

/// Whether `tile` is a Borderland of either realm: on a double board the
/// first Borderland dealt starts the map (3.1 10.E.7.4).
pub fn is_borderland(tile: &Tile) -> bool {
    crate::data::realms::base_code(&tile.code) == FIRST_TILE
}

/// Why a board as a whole is not a legal map, or cannot be rebuilt.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    #[error("only {placed} of the {expected} tiles are placed")]
    Unfinished { placed: usize, expected: usize },
    #[error(
        "the map is not connected: {clearings} cannot be reached from the Borderland by any path"
    )]
    Disconnected { clearings: String },
    #[error("the saved board names an unknown tile '{0}'")]
    UnknownSavedTile(String),
    #[error("the saved board is not a legal shape: {0}")]
    Shape(#[from] PlacementError),
    #[error("tile {0} is not on the map")]
    NotOnMap(String),
    #[error("the game data do not load: {0}")]
    Data(String),
}

/// Why a tile cannot go where a player put it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlacementError {
    #[error("there is no tile with code '{0}'")]
    UnknownTile(String),
    #[error("rotation {rotation} for {tile} is not 0 to 5 (sixths of a turn clockwise)")]
    BadRotation { tile: String, rotation: u8 },
    #[error("{tile} is already on the map at {at}")]
    AlreadyPlaced { tile: String, at: Hex },
    #[error("{at} already holds {other}; choose an empty hex")]
    Occupied { at: Hex, other: String },
    #[error(
        "{tile} must be placed {expected} side up; tiles are only turned over by enchantment during play"
    )]
    WrongSide { tile: String, expected: Side },
    #[error("the Borderland is placed first; {tile} has to wait until it is on the map")]
    BorderlandFirst { tile: String },
    #[error("the Borderland goes at (0,0), not {at}; every other position counts from it")]
    BorderlandAwayFromCentre { at: Hex },
    #[error("{tile} at {at} touches no placed tile; place it next to the map")]
    NotAdjacent { tile: String, at: Hex },
    #[error(
        "{tile} at {at} rotation {rotation}: none of its roads meets a road of a placed tile; turn or move it so one does"
    )]
    NoRoadJoins { tile: String, at: Hex, rotation: u8 },
    #[error(
        "{tile} at {at} rotation {rotation} touches only one placed tile; it must touch at least two while that is possible (for example at {example_at} rotation {example_rotation})"
    )]
    TouchesOnlyOne {
        tile: String,
        at: Hex,
        rotation: u8,
        example_at: Hex,
        example_rotation: u8,
    },
}

/// A placement in a list that broke the rules.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("placement {number} ({tile}): {error}")]
pub struct BuildError {
    /// 1-based position in the list.
    pub number: usize,
    pub tile: String,
    pub error: PlacementError,
}

/// A spot where a tile may go: rules 2 and 3 hold there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Spot {
    pub at: Hex,
    pub rotation: u8,
    /// How many placed tiles it touches.
    pub touching: usize,
}

/// The checks every saved or new placement must pass: a valid rotation, a
/// tile not yet placed, an empty hex.
pub(super) fn check_shape(board: &Board, tile: &Tile, p: &Placement) -> Result<(), PlacementError> {
    if p.rotation > 5 {
        return Err(PlacementError::BadRotation {
            tile: tile.name.clone(),
            rotation: p.rotation,
        });
    }
    if let Some(already) = board.placement_of(&tile.code) {
        return Err(PlacementError::AlreadyPlaced {
            tile: tile.name.clone(),
            at: already.at,
        });
    }
    if let Some(other) = board.placed_at(p.at) {
        return Err(PlacementError::Occupied {
            at: p.at,
            other: other.tile.name.clone(),
        });
    }
    Ok(())
}

impl Board {
    /// Place one tile, checking rules 1–4 of this module.
    ///
    /// # Errors
    /// The first rule the placement breaks, worded for the player.
    pub fn place(&mut self, tiles: &Tiles, placement: Placement) -> Result<(), PlacementError> {
        let tile = tiles
            .by_code(&placement.tile)
            .ok_or_else(|| PlacementError::UnknownTile(placement.tile.clone()))?;
        check_shape(self, tile, &placement)?;
        if placement.side != tile.starts {
            return Err(PlacementError::WrongSide {
                tile: tile.name.clone(),
                expected: tile.starts,
            });
        }
        if self.is_empty() {
            if !is_borderland(tile) {
                return Err(PlacementError::BorderlandFirst {
                    tile: tile.name.clone(),
                });
            }
            if placement.at != Hex::ORIGIN {
                return Err(PlacementError::BorderlandAwayFromCentre { at: placement.at });
            }
        } else {
            self.check_spot(tile, &placement)?;
        }
        self.placed.push(Placed {
            placement,
            tile: tile.clone(),
        });
        Ok(())
    }

    /// Rules 2–4 for a tile going onto a map that is not empty.
    fn check_spot(&self, tile: &Tile, p: &Placement) -> Result<(), PlacementError> {
        let name = || tile.name.clone();
        let touching = self.touching(p.at);
        if touching == 0 {
            return Err(PlacementError::NotAdjacent {
                tile: name(),
                at: p.at,
            });
        }
        if !self.joins_a_road(tile, p.at, p.rotation) {
            return Err(PlacementError::NoRoadJoins {
                tile: name(),
                at: p.at,
                rotation: p.rotation,
            });
        }
        if touching < 2
            && let Some(better) = self.spots(tile).into_iter().find(|s| s.touching >= 2)
        {
            return Err(PlacementError::TouchesOnlyOne {
                tile: name(),
                at: p.at,
                rotation: p.rotation,
                example_at: better.at,
                example_rotation: better.rotation,
            });
        }
        Ok(())
    }

    /// Build a board from placements in order, checking every one.
    ///
    /// # Errors
    /// The first placement that breaks a rule, with its number in the list.
    pub fn from_placements(
        tiles: &Tiles,
        placements: impl IntoIterator<Item = Placement>,
    ) -> Result<Board, BuildError> {
        let mut board = Board::new();
        for (index, placement) in placements.into_iter().enumerate() {
            let tile = tiles
                .by_code(&placement.tile)
                .map_or_else(|| placement.tile.clone(), |t| t.name.clone());
            board.place(tiles, placement).map_err(|error| BuildError {
                number: index + 1,
                tile,
                error,
            })?;
        }
        Ok(board)
    }

    /// Every placement of `tile` that rules 1–4 allow now, in a fixed
    /// order (by hex, then rotation).
    pub fn legal_placements(&self, tile: &Tile) -> Vec<Placement> {
        if self.placement_of(&tile.code).is_some() {
            return Vec::new();
        }
        if self.is_empty() {
            return if is_borderland(tile) {
                (0..6)
                    .map(|rotation| Placement::new(&tile.code, Hex::ORIGIN, rotation))
                    .collect()
            } else {
                Vec::new()
            };
        }
        let spots = self.spots(tile);
        let most = if spots.iter().any(|s| s.touching >= 2) {
            2
        } else {
            1
        };
        spots
            .into_iter()
            .filter(|s| s.touching >= most)
            .map(|s| Placement {
                side: tile.starts,
                ..Placement::new(&tile.code, s.at, s.rotation)
            })
            .collect()
    }

    /// Every empty hex next to the map and rotation where rules 2 and 3
    /// hold for `tile`.
    pub fn spots(&self, tile: &Tile) -> Vec<Spot> {
        let empty: BTreeSet<Hex> = self
            .placements()
            .flat_map(|p| Edge::ALL.map(|d| p.at.neighbour(d)))
            .filter(|&at| self.placed_at(at).is_none())
            .collect();
        let mut spots = Vec::new();
        for at in empty {
            let touching = self.touching(at);
            for rotation in 0..6 {
                if self.joins_a_road(tile, at, rotation) {
                    spots.push(Spot {
                        at,
                        rotation,
                        touching,
                    });
                }
            }
        }
        spots
    }

    /// How many placed tiles touch the hex `at`.
    pub fn touching(&self, at: Hex) -> usize {
        Edge::ALL
            .into_iter()
            .filter(|&d| self.placed_at(at.neighbour(d)).is_some())
            .count()
    }

    /// True when `tile` at `at` turned `rotation` has a road meeting a road
    /// of a placed tile (rule 3).
    fn joins_a_road(&self, tile: &Tile, at: Hex, rotation: u8) -> bool {
        tile.side(tile.starts).road_edges().into_iter().any(|edge| {
            let direction = edge.turned(rotation);
            self.road_toward(at.neighbour(direction), direction.opposite())
                .is_some()
        })
    }

    /// Rule 5 for a map the players built, tile by tile in `placements`
    /// order: it must be connected, unless no legal place for the last tile
    /// would have joined it up (ruling: the players cannot be held at a map
    /// no placement can finish; the map then stays as they built it).
    ///
    /// # Errors
    /// As [`Board::check_finished`], when a connecting place was there.
    pub fn check_players_finished(&self, tiles: &Tiles) -> Result<(), BoardError> {
        let Err(error) = self.check_finished() else {
            return Ok(());
        };
        if !matches!(error, BoardError::Disconnected { .. }) {
            return Err(error);
        }
        let placements: Vec<Placement> = self.placements().cloned().collect();
        let Some((last, before)) = placements.split_last() else {
            return Err(error);
        };
        let earlier = Board::from_placements(tiles, before.iter().cloned())
            .map_err(|e| BoardError::Data(e.to_string()))?;
        let Some(tile) = tiles.by_code(&last.tile) else {
            return Err(error);
        };
        let could_join = earlier.legal_placements(tile).into_iter().any(|p| {
            let mut tried = earlier.clone();
            tried.place(tiles, p).is_ok() && tried.unreachable().is_empty()
        });
        if could_join { Err(error) } else { Ok(()) }
    }

    /// Rule 5, for a board that should be finished.
    ///
    /// # Errors
    /// Tiles are missing, or some clearings cannot be reached.
    pub fn check_finished(&self) -> Result<(), BoardError> {
        let expected = TILE_COUNT * self.realms();
        if self.len() != expected {
            return Err(BoardError::Unfinished {
                placed: self.len(),
                expected,
            });
        }
        let unreachable = self.unreachable();
        if unreachable.is_empty() {
            return Ok(());
        }
        Err(BoardError::Disconnected {
            clearings: unreachable
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::tests::tiles;

    fn board(placements: &[(&str, i32, i32, u8)]) -> Board {
        Board::from_placements(
            tiles(),
            placements
                .iter()
                .map(|&(code, q, r, rot)| Placement::new(code, Hex::new(q, r), rot)),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    fn refused(board: &mut Board, code: &str, q: i32, r: i32, rotation: u8) -> String {
        board
            .place(tiles(), Placement::new(code, Hex::new(q, r), rotation))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn borderland_comes_first_at_the_centre() {
        let mut empty = Board::new();
        let err = refused(&mut empty, "AV", 0, 0, 0);
        assert!(err.contains("Borderland is placed first"), "{err}");
        let err = refused(&mut empty, "BL", 1, 0, 0);
        assert!(err.contains("goes at (0,0), not (1,0)"), "{err}");
        assert_eq!(
            empty.legal_placements(tiles().by_code("BL").unwrap()).len(),
            6
        );
    }

    #[test]
    fn shape_errors() {
        let mut b = board(&[("BL", 0, 0, 0)]);
        let err = refused(&mut b, "BL", 0, 1, 0);
        assert!(
            err.contains("Borderland is already on the map at (0,0)"),
            "{err}"
        );
        let err = refused(&mut b, "AV", 0, 0, 0);
        assert!(err.contains("(0,0) already holds Borderland"), "{err}");
        let err = refused(&mut b, "AV", 0, 1, 6);
        assert!(err.contains("rotation 6"), "{err}");
        let err = refused(&mut b, "XX", 0, 1, 0);
        assert!(err.contains("no tile with code 'XX'"), "{err}");
        let mut enchanted = Placement::new("AV", Hex::new(0, 1), 0);
        enchanted.side = Side::Enchanted;
        let err = b.place(tiles(), enchanted).unwrap_err().to_string();
        assert!(err.contains("normal side up"), "{err}");
    }

    #[test]
    fn a_tile_must_touch_the_map() {
        let mut b = board(&[("BL", 0, 0, 0)]);
        let err = refused(&mut b, "AV", 3, 0, 0);
        assert!(
            err.contains("Awful Valley at (3,0) touches no placed tile"),
            "{err}"
        );
    }

    #[test]
    fn a_tile_must_join_a_road() {
        // Crag has a single road, on its printed N edge. South of the
        // Borderland, unturned, that road meets the Borderland's S road;
        // turned one sixth it faces NE, into nothing.
        let mut b = board(&[("BL", 0, 0, 0)]);
        let err = refused(&mut b, "CG", 0, 1, 1);
        assert!(
            err.contains("Crag at (0,1) rotation 1: none of its roads meets a road"),
            "{err}"
        );
        b.place(tiles(), Placement::new("CG", Hex::new(0, 1), 0))
            .unwrap();
    }

    #[test]
    fn a_tile_must_touch_two_while_it_can() {
        let mut b = board(&[("BL", 0, 0, 0), ("AV", 0, 1, 0)]);
        // (0,-1), north of the Borderland, touches only the Borderland,
        // while (1,0) touches both placed tiles.
        let err = refused(&mut b, "CL", 0, -1, 1);
        assert!(
            err.contains("Cliff at (0,-1) rotation 1 touches only one placed tile; it must touch at least two"),
            "{err}"
        );
        let legal = b.legal_placements(tiles().by_code("CL").unwrap());
        assert!(!legal.is_empty());
        assert!(legal.iter().all(|p| b.touching(p.at) >= 2));
        let first = legal[0].clone();
        b.place(tiles(), first).unwrap();
    }

    #[test]
    fn list_errors_name_the_placement() {
        let err = Board::from_placements(
            tiles(),
            [
                Placement::new("BL", Hex::ORIGIN, 0),
                Placement::new("AV", Hex::new(5, 5), 0),
            ],
        )
        .unwrap_err();
        assert_eq!(err.number, 2);
        assert!(
            err.to_string().starts_with("placement 2 (Awful Valley): "),
            "{err}"
        );
    }

    #[test]
    fn an_unfinished_board_is_not_finished() {
        let b = board(&[("BL", 0, 0, 0), ("AV", 0, 1, 0)]);
        let err = b.check_finished().unwrap_err();
        assert_eq!(
            err,
            BoardError::Unfinished {
                placed: 2,
                expected: 20
            }
        );
        assert!(err.to_string().contains("only 2 of the 20"), "{err}");
    }

    /// A map the players built: disconnected maps that no place for the
    /// last tile could have joined stay as built (random builds give many),
    /// and a last tile placed apart when a joining place was there is
    /// refused (a connected seeded map with its last tile moved).
    #[test]
    fn a_players_map_that_no_last_tile_can_join_stays_as_built() {
        let mut kept = 0;
        for seed in 0..10 {
            let mut dice = realmgm_core::dice::Dice::new(seed, 0);
            let mut order: Vec<&Tile> = tiles()
                .all()
                .iter()
                .filter(|t| t.code != FIRST_TILE)
                .collect();
            dice.shuffle("order", &mut order);
            let mut map = Board::new();
            map.place(tiles(), Placement::new(FIRST_TILE, Hex::ORIGIN, 0))
                .unwrap();
            for tile in order {
                let choices = map.legal_placements(tile);
                let pick = dice.below("pick", choices.len() as u32) as usize;
                map.place(tiles(), choices[pick].clone()).unwrap();
            }
            if map.check_finished().is_err() && map.check_players_finished(tiles()).is_ok() {
                kept += 1;
                break;
            }
        }
        assert!(kept > 0, "no random build was kept as built");
        let mut refused = 0;
        for seed in 0..20 {
            let map = super::super::generate::generate(
                tiles(),
                &mut realmgm_core::dice::Dice::new(seed, 0),
            );
            let placements: Vec<Placement> = map.placements().cloned().collect();
            let (last, before) = placements.split_last().unwrap();
            let earlier = Board::from_placements(tiles(), before.iter().cloned()).unwrap();
            let tile = tiles().by_code(&last.tile).unwrap();
            for elsewhere in earlier.legal_placements(tile) {
                let mut apart = earlier.clone();
                apart.place(tiles(), elsewhere).unwrap();
                if apart.check_finished().is_err() {
                    let err = apart.check_players_finished(tiles()).unwrap_err();
                    assert!(matches!(err, BoardError::Disconnected { .. }), "{err}");
                    refused += 1;
                    break;
                }
            }
            if refused > 0 {
                break;
            }
        }
        assert!(refused > 0, "no last tile could be placed apart");
    }
}
