//! `realmgm setup show`: the GM's setup sheet of a seed — the board, the
//! map chits on each tile, the dwellings and who is there, what every site
//! and other holder contains, the setup card's boxes and the visitors.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, anyhow};

use crate::dice::Dice;
use crate::game::{Rules, Seat};
use crate::magic_realm::board::svg;
use crate::magic_realm::data;
use crate::magic_realm::setup::{self, SetupInputs};
use crate::magic_realm::state::{Item, MrState, Whereabouts};

#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The campaign seed (setup dice, day 0).
    #[arg(long)]
    seed: u64,
    /// A character in play (repeat for several); each gets a seat.
    #[arg(long = "character", value_name = "NAME")]
    characters: Vec<String>,
    /// Print the whole state as JSON (as the store keeps it) instead of text.
    #[arg(long)]
    json: bool,
    /// Also write the map as an SVG picture to this file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

pub fn show(args: &ShowArgs) -> anyhow::Result<()> {
    let data = data::get()?;
    let seats: Vec<Seat> = args
        .characters
        .iter()
        .enumerate()
        .map(|(i, c)| Seat {
            player: format!("player {}", i + 1),
            role: Some(c.clone()),
        })
        .collect();
    let state = setup::new_game(
        data,
        &seats,
        &Rules::default(),
        &SetupInputs::default(),
        &mut Dice::new(args.seed, 0),
    )
    .map_err(|e| anyhow!("{e}; check the --character names"))?;
    if let Some(path) = &args.svg {
        std::fs::write(path, svg::render(&state.board))
            .with_context(|| format!("cannot write the SVG map to {}", path.display()))?;
    }
    if args.json {
        super::emit(serde_json::to_string_pretty(&state).context("cannot write the state")?)
    } else {
        super::emit(sheet(&state, args.seed))
    }
}

fn items(list: &[Item]) -> String {
    list.iter()
        .map(|i| format!("{} ({})", i.name, i.kind))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The setup sheet as text.
fn sheet(state: &MrState, seed: u64) -> String {
    let mut out = format!("Setup of seed {seed}\n\nTiles and map chits:\n");
    for p in state.board.placements() {
        let name = state.board.tile(&p.tile).map_or("?", |t| t.name.as_str());
        let chits: Vec<String> = state.map_chits.get(&p.tile).map_or(Vec::new(), |cs| {
            cs.iter()
                .map(|c| format!("{}{}", c.name, if c.face_up { " (up)" } else { "" }))
                .collect()
        });
        out.push_str(&format!(
            "  {:<3} {name:<15} at {:<8} turned {}  {}\n",
            p.tile,
            p.at.to_string(),
            p.rotation,
            chits.join(", ")
        ));
    }
    for (red, hidden) in &state.lost {
        out.push_str(&format!("  under {red}: {}\n", hidden.join(", ")));
    }
    let mut by_place: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for (id, d) in &state.denizens {
        let place = match &d.at {
            Whereabouts::Clearing { clearing } => clearing.to_string(),
            Whereabouts::SetupBox { name } => format!("box {name}"),
            Whereabouts::Guarding { site } => format!("guarding {site}"),
            Whereabouts::Dead => "dead".to_string(),
        };
        by_place.entry(place).or_default().push(id);
    }
    out.push_str("\nDwellings:\n");
    for (dwelling, clearing) in &state.dwellings {
        let here = by_place.remove(&clearing.to_string()).unwrap_or_default();
        out.push_str(&format!(
            "  {dwelling} in {clearing}: {}\n",
            here.join(", ")
        ));
    }
    out.push_str("\nOther denizens (ghosts, site guardians):\n");
    for (place, ids) in by_place.iter().filter(|(p, _)| !p.starts_with("box ")) {
        out.push_str(&format!("  {place}: {}\n", ids.join(", ")));
    }
    out.push_str("\nHolders:\n");
    for (holder, list) in &state.holdings {
        out.push_str(&format!("  {holder}: {}\n", items(list)));
    }
    out.push_str("\nSetup card boxes:\n");
    for (place, ids) in by_place.iter().filter(|(p, _)| p.starts_with("box ")) {
        out.push_str(&format!("  {}: {}\n", &place[4..], ids.join(", ")));
    }
    out.push_str("\nVisitor boxes (row 6):\n");
    for (name, chit) in &state.visitor_boxes {
        out.push_str(&format!("  {name}: {chit}\n"));
    }
    if !state.characters.is_empty() {
        out.push_str("\nCharacters:\n");
        for c in &state.characters {
            out.push_str(&format!(
                "  {} ({}): starts at the {} in {}, {} gold\n",
                c.name,
                c.player,
                c.start.label(),
                c.position,
                c.gold
            ));
            if !c.magic.spells.is_empty() {
                out.push_str(&format!("    spells: {}\n", c.magic.spells.join(", ")));
            }
        }
    }
    out
}
