//! `realmgm board show`: print a map built from a seed or from a players'
//! placement file, and draw it as SVG.

use std::path::PathBuf;

use anyhow::{Context, bail};
use serde::Deserialize;

use crate::dice::Dice;
use crate::embedded::parse_toml;
use crate::magic_realm::board::generate::{generate, generate_double};
use crate::magic_realm::board::{Board, Hex, Placement, svg};
use crate::magic_realm::data::{
    self,
    realms::MOST_REALMS,
    tiles::{Side, Tiles},
};

#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// Build the random board of this campaign seed (setup dice, day 0).
    #[arg(
        long,
        conflicts_with = "placements",
        required_unless_present = "placements"
    )]
    seed: Option<u64>,
    /// Check and show a board built by players: a TOML file of
    /// `[[placements]]` with `tile` (code or name), `at = [q, r]`,
    /// `rotation` (0-5, sixths of a turn clockwise) and optional `side`.
    #[arg(long, value_name = "FILE")]
    placements: Option<PathBuf>,
    /// Also write the map as an SVG picture to this file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Print the board as JSON (as stored in the game state) instead of text.
    #[arg(long)]
    json: bool,
    /// How many Realms' tiles make the board: 2 deals both sets' forty tiles
    /// together on a double board (3.1 10.E.7.4), second-realm tiles marked
    /// II (`AVII`, `Awful Valley II`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=i64::from(MOST_REALMS)))]
    realms: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlacementsFile {
    placements: Vec<PlacementEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlacementEntry {
    tile: String,
    at: (i32, i32),
    rotation: u8,
    #[serde(default)]
    side: Side,
}

pub fn show(args: &ShowArgs) -> anyhow::Result<()> {
    let tiles = if args.realms > 1 {
        data::double_board_tiles()?
    } else {
        &data::get()?.tiles
    };
    let (board, origin) = match (&args.placements, args.seed) {
        (Some(path), _) => (
            read_placements(path, tiles)?,
            format!("from {}", path.display()),
        ),
        (None, Some(seed)) if args.realms > 1 => (
            generate_double(tiles, &mut Dice::new(seed, 0)),
            format!("seed {seed}, two Realms"),
        ),
        (None, Some(seed)) => (
            generate(tiles, &mut Dice::new(seed, 0)),
            format!("seed {seed}"),
        ),
        (None, None) => {
            bail!("give --seed N for a random board or --placements FILE for a built one")
        }
    };
    if let Some(path) = &args.svg {
        std::fs::write(path, svg::render(&board))
            .with_context(|| format!("cannot write the SVG map to {}", path.display()))?;
    }
    if args.json {
        super::emit(
            serde_json::to_string_pretty(&board).context("cannot write the board as JSON")?,
        )?;
    } else {
        super::emit(describe(&board, &origin))?;
    }
    if args.placements.is_some() && board.len() == data::tiles::TILE_COUNT * board.realms() {
        board
            .check_finished()
            .map_err(|e| anyhow::anyhow!("{e}; move tiles so every clearing can be reached"))?;
    }
    Ok(())
}

fn read_placements(path: &PathBuf, tiles: &Tiles) -> anyhow::Result<Board> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the placement file {}", path.display()))?;
    let file_name = path.display().to_string();
    let file: PlacementsFile = parse_toml(&file_name, &text)?;
    let mut placements = Vec::new();
    for (index, entry) in file.placements.into_iter().enumerate() {
        let tile = tiles
            .resolve_or_explain(&entry.tile)
            .map_err(|e| anyhow::anyhow!("{file_name}: placements[{index}].tile: {e}"))?;
        placements.push(Placement {
            side: entry.side,
            ..Placement::new(&tile.code, Hex::from(entry.at), entry.rotation)
        });
    }
    Board::from_placements(tiles, placements).map_err(|e| {
        anyhow::anyhow!("{file_name}: {e}; fix that placement and run the check again")
    })
}

/// The board as text: each tile's place, then roads across tile edges,
/// dead ends and connectedness.
fn describe(board: &Board, origin: &str) -> String {
    let mut out = format!("Board {origin}: {} tiles\n\n", board.len());
    out.push_str("Tile            Code  At        Rotation  Side\n");
    for p in board.placements() {
        let name = board
            .tile(&p.tile)
            .map_or(p.tile.as_str(), |t| t.name.as_str());
        out.push_str(&format!(
            "{name:<15} {:<5} {:<9} {:<9} {}\n",
            p.tile,
            p.at.to_string(),
            p.rotation,
            p.side
        ));
    }
    out.push_str("\nRoads across tile edges:\n");
    for (from, to, kind, direction) in board.edge_joins() {
        out.push_str(&format!("  {from} -{direction}- {to} ({kind})\n"));
    }
    let ends = board.dead_ends();
    if !ends.is_empty() {
        out.push_str("\nDead ends (roads that stop at a tile edge):\n");
        for end in ends {
            let why = if end.blocked_by_tile {
                "no road on the next tile"
            } else {
                "edge of the map"
            };
            out.push_str(&format!("  {} toward {}: {why}\n", end.from, end.toward));
        }
    }
    let unreachable = board.unreachable();
    if unreachable.is_empty() {
        out.push_str(
            "\nConnected: every clearing can be reached from every other (hidden paths and secret passages count).",
        );
    } else {
        let names: Vec<String> = unreachable.iter().map(ToString::to_string).collect();
        out.push_str(&format!(
            "\nNot reachable from the starting Borderland: {}",
            names.join(", ")
        ));
    }
    out
}
