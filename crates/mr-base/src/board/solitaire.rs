//! The map a solitaire player builds (3.1 10.E.1.3): the Borderland first,
//! then the other nineteen tiles shuffled into a pile and drawn from the top,
//! each placed by the rules of [`super::layout`] if it can be.
//!
//! A Woods or Valley tile goes next to no other Woods or Valley tile while any
//! other placement of it is possible (10.E.1.3.1). A tile with no legal place
//! goes to the bottom of the pile (10.E.1.3.2); when the tiles left in the
//! pile have all been drawn once without one being placed, the last cannot be
//! placed either and the map is picked up and begun again (10.E.1.3.3), from
//! the same dice streams, so the result depends only on the dice. Ruling: a
//! finished map that is not connected (layout rule 5) is begun again too.
//! Where a tile may go several ways, the player's choice is the dice's, among
//! the placements that join the most roads up, as for the random map.
//!
//! Dice purposes: `setup/board/pile` (the shuffle) and `setup/board/place`
//! (rotations and choices).

use std::collections::VecDeque;

use super::generate::fewest_groups;
use super::layout::FIRST_TILE;
use super::{Board, Hex, Placement};
use crate::data::terms::TileGroup;
use crate::data::tiles::{Edge, Tile, Tiles};
use realmgm_core::dice::Dice;

/// How many maps to build before settling for the most connected one; a
/// finished, connected map comes within a few tries, so the limit only keeps
/// the function total.
const ATTEMPTS: usize = 500;

/// The solitaire player's map, built from `dice`.
pub fn generate(tiles: &Tiles, dice: &mut Dice) -> Board {
    let mut best: Option<(usize, Board)> = None;
    for _ in 0..ATTEMPTS {
        let Some(board) = attempt(tiles, dice) else {
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

/// Whether a tile of `group` is kept apart from its kind (10.E.1.3.1).
fn kept_apart(group: TileGroup) -> bool {
    matches!(group, TileGroup::Woods | TileGroup::Valley)
}

/// Whether `at` touches a placed Woods or Valley tile.
fn next_to_woods_or_valley(board: &Board, at: Hex) -> bool {
    Edge::ALL.into_iter().any(|d| {
        board
            .placement_at(at.neighbour(d))
            .and_then(|p| board.tile(&p.tile))
            .is_some_and(|t| kept_apart(t.group))
    })
}

/// Where the player may put `tile` now: its legal placements, and for a
/// Woods or Valley tile only those away from the others of that kind when
/// there are any (10.E.1.3.1).
pub fn solitaire_placements(board: &Board, tile: &Tile) -> Vec<Placement> {
    let legal = board.legal_placements(tile);
    if !kept_apart(tile.group) {
        return legal;
    }
    let apart: Vec<Placement> = legal
        .iter()
        .filter(|p| !next_to_woods_or_valley(board, p.at))
        .cloned()
        .collect();
    if apart.is_empty() { legal } else { apart }
}

/// One map, or `None` when it had to be picked up (10.E.1.3.3).
fn attempt(tiles: &Tiles, dice: &mut Dice) -> Option<Board> {
    let mut board = Board::new();
    let first = tiles.by_code(FIRST_TILE)?;
    let rotation = dice.below("setup/board/place", 6) as u8;
    board
        .place(tiles, Placement::new(&first.code, Hex::ORIGIN, rotation))
        .ok()?;
    let mut rest: Vec<&Tile> = tiles
        .all()
        .iter()
        .filter(|t| t.code != first.code)
        .collect();
    dice.shuffle("setup/board/pile", &mut rest);
    let mut pile: VecDeque<&Tile> = rest.into();
    // Tiles drawn and put back since the last one was placed.
    let mut put_back = 0;
    while let Some(tile) = pile.pop_front() {
        let choices = fewest_groups(&board, tile, solitaire_placements(&board, tile));
        if choices.is_empty() {
            pile.push_back(tile);
            put_back += 1;
            if put_back > pile.len() {
                return None;
            }
            continue;
        }
        put_back = 0;
        let pick = dice.below("setup/board/place", choices.len() as u32) as usize;
        board.place(tiles, choices[pick].clone()).ok()?;
    }
    Some(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::tests::tiles;

    /// 3.1 10.E.1.3: over many seeds the map is finished, legal, connected,
    /// the same from the same seed, begun with the Borderland, and every
    /// Woods or Valley tile that touches another of its kind had, when it
    /// was placed, no place away from them.
    #[test]
    fn solitaire_maps_keep_woods_and_valleys_apart_whenever_they_can_10_e_1_3() {
        for seed in 0..120 {
            let board = generate(tiles(), &mut Dice::new(seed, 0));
            assert_eq!(board.len(), 20, "seed {seed}");
            board
                .check_finished()
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let order: Vec<Placement> = board.placements().cloned().collect();
            assert_eq!(order[0].tile, FIRST_TILE, "seed {seed}");
            let again = generate(tiles(), &mut Dice::new(seed, 0));
            assert_eq!(board, again, "seed {seed}");
            // Rebuild tile by tile: each placement was one the rule allowed.
            let mut partial = Board::new();
            for p in order {
                let tile = tiles().by_code(&p.tile).unwrap();
                if !partial.is_empty() {
                    let allowed = solitaire_placements(&partial, tile);
                    assert!(allowed.contains(&p), "seed {seed}: {} at {}", p.tile, p.at);
                    if kept_apart(tile.group) && next_to_woods_or_valley(&partial, p.at) {
                        assert!(
                            partial
                                .legal_placements(tile)
                                .iter()
                                .all(|q| next_to_woods_or_valley(&partial, q.at)),
                            "seed {seed}: {} was put by its kind with another place free",
                            p.tile
                        );
                    }
                }
                partial.place(tiles(), p).unwrap();
            }
        }
    }

    /// 3.1 10.E.1.3.1: on part-built maps, a Woods or Valley tile with
    /// legal places both by and away from its kind may go only away; one
    /// with every legal place by its kind may go to any of them.
    #[test]
    fn a_woods_or_valley_tile_goes_apart_when_it_can_else_anywhere_legal_10_e_1_3_1() {
        let mut apart_cases = 0;
        let mut forced_cases = 0;
        for seed in 0..20 {
            let full = crate::board::generate::generate(tiles(), &mut Dice::new(seed, 0));
            let order: Vec<Placement> = full.placements().cloned().collect();
            for k in 2..order.len() {
                let partial = Board::from_placements(tiles(), order[..k].iter().cloned()).unwrap();
                for tile in tiles().all().iter().filter(|t| kept_apart(t.group)) {
                    let legal = partial.legal_placements(tile);
                    let (by, away): (Vec<_>, Vec<_>) = legal
                        .iter()
                        .cloned()
                        .partition(|p| next_to_woods_or_valley(&partial, p.at));
                    let allowed = solitaire_placements(&partial, tile);
                    if !by.is_empty() && !away.is_empty() {
                        apart_cases += 1;
                        assert_eq!(allowed, away, "seed {seed}, {} tiles, {}", k, tile.code);
                    } else {
                        if away.is_empty() && !by.is_empty() {
                            forced_cases += 1;
                        }
                        assert_eq!(allowed, legal, "seed {seed}, {} tiles, {}", k, tile.code);
                    }
                }
            }
        }
        assert!(
            apart_cases > 0 && forced_cases > 0,
            "{apart_cases} {forced_cases}"
        );
    }
}
