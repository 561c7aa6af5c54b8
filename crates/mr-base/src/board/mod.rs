//! The map: which tile lies where, turned how, and which clearings that
//! joins, inside tiles and across tile edges.
//!
//! Geometry. Tiles are flat-topped hexes on axial coordinates `(q, r)`: the
//! neighbour through edge `N` is `(q, r-1)`, then clockwise `NE (q+1, r-1)`,
//! `SE (q+1, r)`, `S (q, r+1)`, `SW (q-1, r+1)`, `NW (q-1, r)`. The Borderland
//! sits at `(0, 0)`. A tile's rotation `k` (0–5) turns it `k` sixths of a turn
//! clockwise, so its printed edge `e` faces the map direction `e + k`.
//!
//! Roads across edges. Each tile edge has at most one road, at its middle, so
//! two tiles that touch along an edge with a road on both sides join those two
//! roads: the two clearings become neighbours. A road that meets a tile edge
//! with no road, or the outside of the map, is a dead end: it leads nowhere
//! and nobody can leave the map by it (ruling; play summary "MOVE" only moves
//! along paths between clearings). A joined road takes the stricter kind of
//! its two halves (in the original tiles every edge road is a normal road).
//!
//! The placement rules are in [`layout`], the seeded random board in
//! [`generate`], the solitaire player's map in [`solitaire`], the picture in
//! [`svg`]. Everything here is pure.

pub mod generate;
pub mod layout;
pub mod solitaire;
pub mod svg;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::data::realms::Realm;
use crate::data::tiles::{Clearing, Edge, PathEnd, PathKind, Side, Tile, Tiles};

pub use layout::{BoardError, BuildError, PlacementError};

/// A hex position on axial coordinates; written `(q,r)`. Serialized as
/// `[q, r]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(from = "(i32, i32)", into = "(i32, i32)")]
pub struct Hex {
    pub q: i32,
    pub r: i32,
}

impl Hex {
    pub const ORIGIN: Hex = Hex { q: 0, r: 0 };

    pub fn new(q: i32, r: i32) -> Self {
        Hex { q, r }
    }

    /// The hex across the edge facing `direction`.
    pub fn neighbour(self, direction: Edge) -> Hex {
        let (dq, dr) = match direction {
            Edge::N => (0, -1),
            Edge::NE => (1, -1),
            Edge::SE => (1, 0),
            Edge::S => (0, 1),
            Edge::SW => (-1, 1),
            Edge::NW => (-1, 0),
        };
        Hex::new(self.q + dq, self.r + dr)
    }
}

impl From<(i32, i32)> for Hex {
    fn from((q, r): (i32, i32)) -> Self {
        Hex { q, r }
    }
}

impl From<Hex> for (i32, i32) {
    fn from(hex: Hex) -> Self {
        (hex.q, hex.r)
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.q, self.r)
    }
}

/// One tile on the map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// The tile's code, e.g. `"BL"`.
    pub tile: String,
    pub at: Hex,
    /// Sixths of a turn clockwise, 0–5.
    pub rotation: u8,
    #[serde(default)]
    pub side: Side,
}

impl Placement {
    pub fn new(tile: &str, at: Hex, rotation: u8) -> Self {
        Placement {
            tile: tile.to_string(),
            at,
            rotation,
            side: Side::Normal,
        }
    }

    /// The map direction the printed edge `edge` faces.
    pub fn facing(&self, edge: Edge) -> Edge {
        edge.turned(self.rotation)
    }

    /// The printed edge that faces the map direction `direction`.
    pub fn edge_facing(&self, direction: Edge) -> Edge {
        direction.turned(6 - self.rotation % 6)
    }
}

/// A clearing on the map: tile code and clearing number, written `AV5`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ClearingId {
    pub tile: String,
    pub clearing: u8,
}

impl ClearingId {
    pub fn new(tile: &str, clearing: u8) -> Self {
        ClearingId {
            tile: tile.to_string(),
            clearing,
        }
    }
}

impl fmt::Display for ClearingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.tile, self.clearing)
    }
}

/// A way from one clearing to a neighbouring one.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Link {
    pub to: ClearingId,
    pub kind: PathKind,
    /// The map direction of the tile edge crossed, when the link leaves the
    /// tile.
    pub across: Option<Edge>,
}

/// A road that reaches a tile edge and goes no further.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct DeadEnd {
    pub from: ClearingId,
    /// The map direction of the edge it runs into.
    pub toward: Edge,
    /// True when a tile lies beyond (with no road on its edge); false when
    /// the map ends there.
    pub blocked_by_tile: bool,
}

/// A tile placed on the map, with its definition kept beside it so the
/// board answers questions without the data files.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Placed {
    placement: Placement,
    tile: Tile,
}

/// The map. Serialized as `{"placements": [...]}` in placing order; the
/// tile definitions come back from the embedded data when it is read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "BoardRecord", into = "BoardRecord")]
pub struct Board {
    placed: Vec<Placed>,
}

/// The stored form of a [`Board`].
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardRecord {
    placements: Vec<Placement>,
}

impl From<Board> for BoardRecord {
    fn from(board: Board) -> Self {
        BoardRecord {
            placements: board.placed.into_iter().map(|p| p.placement).collect(),
        }
    }
}

impl TryFrom<BoardRecord> for Board {
    type Error = BoardError;
    fn try_from(record: BoardRecord) -> Result<Self, Self::Error> {
        let tiles =
            crate::data::double_board_tiles().map_err(|e| BoardError::Data(e.0.to_string()))?;
        Board::restore(tiles, record.placements)
    }
}

impl Board {
    /// An empty map.
    pub fn new() -> Self {
        Board::default()
    }

    /// Rebuild a saved board without replaying the placing rules (the board
    /// was checked when it was built, and tiles may have been turned over
    /// since). Only the shape is checked: known tiles, each once, one per
    /// hex, rotations 0–5.
    ///
    /// # Errors
    /// The first placement that breaks the shape.
    pub fn restore(tiles: &Tiles, placements: Vec<Placement>) -> Result<Board, BoardError> {
        let mut board = Board::new();
        for placement in placements {
            let tile = tiles
                .by_code(&placement.tile)
                .ok_or_else(|| BoardError::UnknownSavedTile(placement.tile.clone()))?;
            layout::check_shape(&board, tile, &placement)?;
            board.placed.push(Placed {
                placement,
                tile: tile.clone(),
            });
        }
        Ok(board)
    }

    /// The placements in placing order.
    pub fn placements(&self) -> impl Iterator<Item = &Placement> {
        self.placed.iter().map(|p| &p.placement)
    }

    pub fn len(&self) -> usize {
        self.placed.len()
    }

    /// How many Realms' tiles make up the map: 2 once a second-realm tile
    /// lies on it (3.1 10.E.7.4), else 1.
    pub fn realms(&self) -> usize {
        let second = self
            .placed
            .iter()
            .any(|p| Realm::of_code(&p.placement.tile) == Realm::Second);
        if second { 2 } else { 1 }
    }

    pub fn is_empty(&self) -> bool {
        self.placed.is_empty()
    }

    /// The placement of the tile with this code.
    pub fn placement_of(&self, code: &str) -> Option<&Placement> {
        self.placed_tile(code).map(|p| &p.placement)
    }

    /// The placement at a hex.
    pub fn placement_at(&self, at: Hex) -> Option<&Placement> {
        self.placed
            .iter()
            .find(|p| p.placement.at == at)
            .map(|p| &p.placement)
    }

    fn placed_tile(&self, code: &str) -> Option<&Placed> {
        self.placed.iter().find(|p| p.placement.tile == code)
    }

    fn placed_at(&self, at: Hex) -> Option<&Placed> {
        self.placed.iter().find(|p| p.placement.at == at)
    }

    /// The tile definition of a placed tile.
    pub fn tile(&self, code: &str) -> Option<&Tile> {
        self.placed_tile(code).map(|p| &p.tile)
    }

    /// Turn a placed tile to `side` (an enchantment does this); its paths
    /// and magic change, its place and rotation do not.
    ///
    /// # Errors
    /// The tile is not on the map.
    pub fn set_side(&mut self, code: &str, side: Side) -> Result<(), BoardError> {
        let placed = self
            .placed
            .iter_mut()
            .find(|p| p.placement.tile == code)
            .ok_or_else(|| BoardError::NotOnMap(code.to_string()))?;
        placed.placement.side = side;
        Ok(())
    }

    /// Every clearing on the map, tile by tile in placing order.
    pub fn clearings(&self) -> Vec<ClearingId> {
        self.placed
            .iter()
            .flat_map(|p| {
                p.tile
                    .side(p.placement.side)
                    .clearings
                    .iter()
                    .map(|c| ClearingId::new(&p.placement.tile, c.number))
            })
            .collect()
    }

    /// A clearing's type and magic on the side now face up.
    pub fn clearing(&self, id: &ClearingId) -> Option<&Clearing> {
        let placed = self.placed_tile(&id.tile)?;
        placed
            .tile
            .side(placed.placement.side)
            .clearing(id.clearing)
    }

    /// The clearing whose road leaves `at` toward the map direction
    /// `direction`, if there is a tile there with a road on that edge.
    fn road_toward(&self, at: Hex, direction: Edge) -> Option<(ClearingId, PathKind)> {
        let placed = self.placed_at(at)?;
        let side = placed.tile.side(placed.placement.side);
        let edge = placed.placement.edge_facing(direction);
        let path = side.paths.iter().find(|p| p.to == PathEnd::Edge(edge))?;
        Some((
            ClearingId::new(&placed.placement.tile, path.from),
            path.kind,
        ))
    }

    /// Every neighbour of a clearing, by paths of every kind, inside its
    /// tile and across tile edges; sorted.
    pub fn neighbours(&self, id: &ClearingId) -> Vec<Link> {
        let Some(placed) = self.placed_tile(&id.tile) else {
            return Vec::new();
        };
        let side = placed.tile.side(placed.placement.side);
        let mut links = Vec::new();
        for path in &side.paths {
            match path.to {
                PathEnd::Clearing(to) if path.from == id.clearing || to == id.clearing => {
                    let other = if path.from == id.clearing {
                        to
                    } else {
                        path.from
                    };
                    links.push(Link {
                        to: ClearingId::new(&id.tile, other),
                        kind: path.kind,
                        across: None,
                    });
                }
                PathEnd::Edge(edge) if path.from == id.clearing => {
                    let direction = placed.placement.facing(edge);
                    let beyond = placed.placement.at.neighbour(direction);
                    if let Some((to, kind)) = self.road_toward(beyond, direction.opposite()) {
                        links.push(Link {
                            to,
                            kind: kind.max(path.kind),
                            across: Some(direction),
                        });
                    }
                }
                _ => {}
            }
        }
        links.sort();
        links
    }

    /// Roads joined across tile edges, each once: (clearing, clearing,
    /// kind, direction from the first), in placing order.
    pub fn edge_joins(&self) -> Vec<(ClearingId, ClearingId, PathKind, Edge)> {
        let mut joins = Vec::new();
        for (index, placed) in self.placed.iter().enumerate() {
            for id in self.clearings_of(placed) {
                for link in self.neighbours(&id) {
                    let Some(direction) = link.across else {
                        continue;
                    };
                    // Report each join from the tile placed first.
                    let other = self
                        .placed
                        .iter()
                        .position(|p| p.placement.tile == link.to.tile);
                    if other.is_some_and(|other| other > index) {
                        joins.push((id.clone(), link.to, link.kind, direction));
                    }
                }
            }
        }
        joins
    }

    fn clearings_of(&self, placed: &Placed) -> Vec<ClearingId> {
        placed
            .tile
            .side(placed.placement.side)
            .clearings
            .iter()
            .map(|c| ClearingId::new(&placed.placement.tile, c.number))
            .collect()
    }

    /// Roads that reach a tile edge and find no road beyond it.
    pub fn dead_ends(&self) -> Vec<DeadEnd> {
        let mut ends = Vec::new();
        for placed in &self.placed {
            let side = placed.tile.side(placed.placement.side);
            for path in &side.paths {
                let PathEnd::Edge(edge) = path.to else {
                    continue;
                };
                let direction = placed.placement.facing(edge);
                let beyond = placed.placement.at.neighbour(direction);
                if self.road_toward(beyond, direction.opposite()).is_none() {
                    ends.push(DeadEnd {
                        from: ClearingId::new(&placed.placement.tile, path.from),
                        toward: direction,
                        blocked_by_tile: self.placed_at(beyond).is_some(),
                    });
                }
            }
        }
        ends
    }

    /// Groups of clearings that reach each other by paths of any kind
    /// (hidden paths and secret passages count: they are there even before
    /// anyone finds them). The group holding the first placed tile comes
    /// first; clearings keep placing order inside a group.
    pub fn regions(&self) -> Vec<Vec<ClearingId>> {
        let all = self.clearings();
        let mut region_of: BTreeMap<ClearingId, usize> = BTreeMap::new();
        let mut regions: Vec<Vec<ClearingId>> = Vec::new();
        for start in &all {
            if region_of.contains_key(start) {
                continue;
            }
            let index = regions.len();
            let mut members = vec![start.clone()];
            region_of.insert(start.clone(), index);
            let mut next = 0;
            while let Some(at) = members.get(next).cloned() {
                next += 1;
                for link in self.neighbours(&at) {
                    if !region_of.contains_key(&link.to) {
                        region_of.insert(link.to.clone(), index);
                        members.push(link.to);
                    }
                }
            }
            regions.push(members);
        }
        let order: BTreeMap<&ClearingId, usize> =
            all.iter().enumerate().map(|(i, c)| (c, i)).collect();
        for region in &mut regions {
            region.sort_by_key(|c| order.get(c).copied().unwrap_or(usize::MAX));
        }
        regions
    }

    /// Whether `from` reaches a clearing of `tile` along paths whose kind
    /// `open` lets through (the campfire rule asks for roads anyone may
    /// walk, 3.1 7.13.2c).
    pub fn reaches_tile(
        &self,
        from: &ClearingId,
        tile: &str,
        open: impl Fn(PathKind) -> bool,
    ) -> bool {
        let mut seen: BTreeSet<ClearingId> = [from.clone()].into();
        let mut queue = vec![from.clone()];
        while let Some(at) = queue.pop() {
            if at.tile == tile {
                return true;
            }
            for link in self.neighbours(&at) {
                if open(link.kind) && seen.insert(link.to.clone()) {
                    queue.push(link.to);
                }
            }
        }
        false
    }

    /// Clearings that cannot be reached from the first placed tile.
    pub fn unreachable(&self) -> Vec<ClearingId> {
        self.regions().into_iter().skip(1).flatten().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data;

    pub(crate) fn tiles() -> &'static Tiles {
        &data::get().unwrap_or_else(|e| panic!("{e}")).tiles
    }

    #[test]
    fn hex_neighbours_go_round_and_back() {
        let start = Hex::new(2, -1);
        for edge in Edge::ALL {
            assert_eq!(start.neighbour(edge).neighbour(edge.opposite()), start);
        }
        assert_eq!(Hex::ORIGIN.neighbour(Edge::SE), Hex::new(1, 0));
    }

    #[test]
    fn rotation_turns_edges_clockwise() {
        let p = Placement::new("AV", Hex::ORIGIN, 2);
        assert_eq!(p.facing(Edge::N), Edge::SE);
        assert_eq!(p.edge_facing(Edge::SE), Edge::N);
        for edge in Edge::ALL {
            assert_eq!(p.edge_facing(p.facing(edge)), edge);
        }
    }

    #[test]
    fn roads_join_across_a_shared_edge() {
        // The unturned Borderland has a road from clearing 2 to its S edge;
        // Awful Valley unturned, just south of it, has a road from clearing 5
        // to its N edge.
        let mut board = Board::new();
        board
            .place(tiles(), Placement::new("BL", Hex::ORIGIN, 0))
            .unwrap();
        board
            .place(tiles(), Placement::new("AV", Hex::new(0, 1), 0))
            .unwrap();
        let links = board.neighbours(&ClearingId::new("BL", 2));
        assert!(
            links.contains(&Link {
                to: ClearingId::new("AV", 5),
                kind: PathKind::Normal,
                across: Some(Edge::S)
            }),
            "{links:?}"
        );
        let back = board.neighbours(&ClearingId::new("AV", 5));
        assert!(
            back.iter()
                .any(|l| l.to == ClearingId::new("BL", 2) && l.across == Some(Edge::N))
        );
        assert_eq!(board.edge_joins().len(), 1);
        // Everything else that reaches an edge is a dead end for now.
        let ends = board.dead_ends();
        assert!(
            ends.iter()
                .all(|e| e.from != ClearingId::new("BL", 2) || e.toward != Edge::S)
        );
        assert!(
            ends.iter()
                .any(|e| e.from == ClearingId::new("AV", 2) && !e.blocked_by_tile)
        );
    }

    #[test]
    fn turning_a_tile_over_changes_its_paths_and_magic() {
        let mut board = Board::new();
        board
            .place(tiles(), Placement::new("BL", Hex::ORIGIN, 0))
            .unwrap();
        let one = ClearingId::new("BL", 1);
        assert!(board.clearing(&one).unwrap().magic.is_empty());
        board.set_side("BL", Side::Enchanted).unwrap();
        assert!(!board.clearing(&one).unwrap().magic.is_empty());
        assert!(board.set_side("AV", Side::Enchanted).is_err());
    }

    #[test]
    fn board_json_round_trips() {
        let mut board = Board::new();
        board
            .place(tiles(), Placement::new("BL", Hex::ORIGIN, 4))
            .unwrap();
        board
            .place(tiles(), Placement::new("AV", Hex::new(0, 1), 0))
            .unwrap();
        let json = serde_json::to_string(&board).unwrap();
        assert_eq!(
            json,
            r#"{"placements":[{"tile":"BL","at":[0,0],"rotation":4,"side":"normal"},{"tile":"AV","at":[0,1],"rotation":0,"side":"normal"}]}"#
        );
        let back: Board = serde_json::from_str(&json).unwrap();
        assert_eq!(back, board);
        let bad = json.replace("\"AV\"", "\"XX\"");
        let err = serde_json::from_str::<Board>(&bad).unwrap_err().to_string();
        assert!(err.contains("unknown tile 'XX'"), "{err}");
    }
}
