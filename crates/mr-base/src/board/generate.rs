//! A seeded random map that follows every rule in [`super::layout`],
//! connectedness included.
//!
//! The Borderland goes first at `(0,0)`, turned at random; the other nineteen
//! tiles are shuffled and placed in that order. On a double board (3.1
//! 10.E.7.4) all forty are shuffled together and the first Borderland in the
//! deal starts the map. Each tile takes one of its
//! legal placements, chosen at random among those that leave the fewest
//! separate groups of clearings, so roads get joined up as the map grows. A
//! finished map that is still not connected is thrown away and built again
//! from the same dice streams, so the result depends only on the dice.
//!
//! Dice purposes: `setup/board/deal` (tile order) and `setup/board/place`
//! (rotations and choices).

use std::collections::BTreeMap;

use super::layout::is_borderland;
use super::{Board, ClearingId, Placement};
use crate::data::tiles::{Edge, PathEnd, Tile, Tiles};
use realmgm_core::dice::Dice;

/// How many maps to try before settling for the most connected one. One
/// try in two or three succeeds, so the limit is never reached in practice;
/// it only keeps the function total.
const ATTEMPTS: usize = 500;

/// A legal, connected map built from `dice`.
pub fn generate(tiles: &Tiles, dice: &mut Dice) -> Board {
    build(tiles, dice, deal_borderland_first)
}

/// A legal, connected double board (3.1 10.E.7.4) built from `dice`:
/// `tiles` are both Realms' ([`Tiles::double`]), mixed and dealt together;
/// the first Borderland dealt starts the map and the other is placed like
/// any tile, in the order dealt.
pub fn generate_double(tiles: &Tiles, dice: &mut Dice) -> Board {
    build(tiles, dice, deal_all_mixed)
}

/// The order tiles are placed in: the starting tile, then the rest.
type Deal = for<'t> fn(&'t Tiles, &mut Dice) -> Option<(&'t Tile, Vec<&'t Tile>)>;

/// One Realm: the Borderland first, the other nineteen shuffled.
fn deal_borderland_first<'t>(
    tiles: &'t Tiles,
    dice: &mut Dice,
) -> Option<(&'t Tile, Vec<&'t Tile>)> {
    let first = tiles.by_code(super::layout::FIRST_TILE)?;
    let mut rest: Vec<&Tile> = tiles
        .all()
        .iter()
        .filter(|t| t.code != first.code)
        .collect();
    dice.shuffle("setup/board/deal", &mut rest);
    Some((first, rest))
}

/// Combined Realms: every tile shuffled together; the first Borderland in
/// the deal comes out to start the map, the rest keep their order.
fn deal_all_mixed<'t>(tiles: &'t Tiles, dice: &mut Dice) -> Option<(&'t Tile, Vec<&'t Tile>)> {
    let mut dealt: Vec<&Tile> = tiles.all().iter().collect();
    dice.shuffle("setup/board/deal", &mut dealt);
    let first = dealt.iter().position(|t| is_borderland(t))?;
    let first = dealt.remove(first);
    Some((first, dealt))
}

fn build(tiles: &Tiles, dice: &mut Dice, deal: Deal) -> Board {
    let mut best: Option<(usize, Board)> = None;
    for _ in 0..ATTEMPTS {
        let Some(board) = attempt(tiles, dice, deal) else {
            continue;
        };
        let regions = board.regions().len();
        if regions == 1 {
            return board;
        }
        if best.as_ref().is_none_or(|(fewest, _)| regions < *fewest) {
            best = Some((regions, board));
        }
    }
    best.map(|(_, board)| board).unwrap_or_default()
}

/// One try: every tile placed legally, or `None` when some tile had
/// nowhere to go. The deal and the rotations draw on separate dice streams,
/// so dealing before turning the first tile leaves the one-Realm map as it
/// always was.
fn attempt(tiles: &Tiles, dice: &mut Dice, deal: Deal) -> Option<Board> {
    let mut board = Board::new();
    let (first, rest) = deal(tiles, dice)?;
    let rotation = dice.below("setup/board/place", 6) as u8;
    board
        .place(
            tiles,
            Placement::new(&first.code, super::Hex::ORIGIN, rotation),
        )
        .ok()?;
    for tile in rest {
        let best = joining_placements(&board, tile);
        if best.is_empty() {
            return None;
        }
        let pick = dice.below("setup/board/place", best.len() as u32) as usize;
        board.place(tiles, best[pick].clone()).ok()?;
    }
    Some(board)
}

/// The legal placements of `tile` that leave the fewest separate groups of
/// clearings, so roads join up as the map grows; empty when the tile has
/// nowhere to go. The random map picks among them; a player building the
/// map is shown one.
pub fn joining_placements(board: &Board, tile: &Tile) -> Vec<Placement> {
    fewest_groups(board, tile, board.legal_placements(tile))
}

/// Those of `choices` (placements of `tile`) that leave the fewest separate
/// groups of clearings; empty when `choices` is.
pub fn fewest_groups(board: &Board, tile: &Tile, choices: Vec<Placement>) -> Vec<Placement> {
    let groups = Groups::of(board);
    let scores: Vec<usize> = choices
        .iter()
        .map(|p| groups.after(board, tile, p))
        .collect();
    let Some(fewest) = scores.iter().copied().min() else {
        return Vec::new();
    };
    choices
        .into_iter()
        .zip(scores)
        .filter(|(_, s)| *s == fewest)
        .map(|(p, _)| p)
        .collect()
}

/// The groups of clearings of a board, to count cheaply how many there
/// would be after one more tile.
struct Groups {
    group_of: BTreeMap<ClearingId, usize>,
    count: usize,
}

impl Groups {
    fn of(board: &Board) -> Self {
        let regions = board.regions();
        let count = regions.len();
        let group_of = regions
            .into_iter()
            .enumerate()
            .flat_map(|(i, members)| members.into_iter().map(move |c| (c, i)))
            .collect();
        Groups { group_of, count }
    }

    /// How many groups the board would have with `tile` placed as `p`: its
    /// own groups are added, then each road joined across an edge merges two.
    fn after(&self, board: &Board, tile: &Tile, p: &Placement) -> usize {
        let side = tile.side(p.side);
        // Union-find over the board's groups followed by the new tile's
        // clearings (indexed by clearing number).
        let base = self.count;
        let mut parent: Vec<usize> = (0..base + 7).collect();
        fn root(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        let mut groups = base + side.clearings.len();
        let mut merge = |parent: &mut Vec<usize>, a: usize, b: usize| {
            let (a, b) = (root(parent, a), root(parent, b));
            if a != b {
                parent[a] = b;
                groups -= 1;
            }
        };
        for path in &side.paths {
            let from = base + usize::from(path.from);
            match path.to {
                PathEnd::Clearing(to) => merge(&mut parent, from, base + usize::from(to)),
                PathEnd::Edge(edge) => {
                    let direction: Edge = p.facing(edge);
                    if let Some((other, _)) =
                        board.road_toward(p.at.neighbour(direction), direction.opposite())
                        && let Some(&group) = self.group_of.get(&other)
                    {
                        merge(&mut parent, from, group);
                    }
                }
            }
        }
        groups
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::tests::tiles;

    #[test]
    fn every_generated_board_is_legal_connected_and_repeatable() {
        for seed in 0..200 {
            let board = generate(tiles(), &mut Dice::new(seed, 0));
            assert_eq!(board.len(), 20, "seed {seed}");
            board
                .check_finished()
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            // Replaying the placements through the rules accepts every one.
            let replay = Board::from_placements(tiles(), board.placements().cloned())
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert_eq!(replay, board);
            let again = generate(tiles(), &mut Dice::new(seed, 0));
            assert_eq!(
                serde_json::to_vec(&board).unwrap(),
                serde_json::to_vec(&again).unwrap(),
                "seed {seed}"
            );
        }
    }

    /// 3.1 10.E.7.4: both Realms' forty tiles make one connected map,
    /// started by whichever Borderland was dealt first, the other placed
    /// like any tile; the stored board reads back as it was.
    #[test]
    fn a_double_board_deals_forty_tiles_and_starts_with_the_first_borderland() {
        let double = crate::data::double_board_tiles().unwrap();
        let mut starts = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let board = generate_double(double, &mut Dice::new(seed, 0));
            assert_eq!(board.len(), 40, "seed {seed}");
            assert_eq!(board.realms(), 2, "seed {seed}");
            board
                .check_finished()
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let first = board.placements().next().unwrap();
            assert_eq!(first.at, crate::board::Hex::ORIGIN, "seed {seed}");
            starts.insert(first.tile.clone());
            let other = if first.tile == "BL" { "BLII" } else { "BL" };
            assert!(board.placement_of(other).is_some(), "seed {seed}");
            let replay = Board::from_placements(double, board.placements().cloned())
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert_eq!(replay, board);
            let stored: Board =
                serde_json::from_slice(&serde_json::to_vec(&board).unwrap()).unwrap();
            assert_eq!(stored, board, "seed {seed}");
        }
        let both: std::collections::BTreeSet<String> =
            ["BL".to_string(), "BLII".to_string()].into();
        assert_eq!(starts, both, "either Borderland may be dealt first");
    }

    #[test]
    fn different_seeds_give_different_boards() {
        let a = generate(tiles(), &mut Dice::new(1, 0));
        let b = generate(tiles(), &mut Dice::new(2, 0));
        assert_ne!(a, b);
    }

    #[test]
    fn group_count_after_a_placement_matches_the_board() {
        let mut board = generate(tiles(), &mut Dice::new(3, 0));
        // Take the board apart after 10 tiles and check the prediction for
        // every legal placement of the 11th.
        let placements: Vec<Placement> = board.placements().cloned().collect();
        board = Board::from_placements(tiles(), placements[..10].iter().cloned()).unwrap();
        let next = tiles().by_code(&placements[10].tile).unwrap();
        let groups = Groups::of(&board);
        for p in board.legal_placements(next) {
            let mut with = board.clone();
            with.place(tiles(), p.clone()).unwrap();
            assert_eq!(
                groups.after(&board, next, &p),
                with.regions().len(),
                "{p:?}"
            );
        }
    }
}
