//! The GM-only part of the history: where every character is
//! and whether he is hidden, what each one knows (tiles, hidden routes,
//! sites, chits seen), what every treasure site holds and where, and the
//! map chits still face down. Never part of a player's report.

use serde::Serialize;

use crate::state::MrState;

/// One character's secrets.
#[derive(Clone, Debug, Serialize)]
pub struct CharacterSecrets {
    pub character: String,
    pub player: String,
    pub position: String,
    pub hidden: bool,
    pub tiles_visited: Vec<String>,
    pub routes: Vec<String>,
    pub sites: Vec<String>,
    pub chits_seen: Vec<String>,
    pub belongings: Vec<String>,
}

/// A holder on the map (a site chit, a dwelling, an abandoned pile) with
/// what it holds.
#[derive(Clone, Debug, Serialize)]
pub struct HolderSecrets {
    pub holder: String,
    /// The tile whose map chits include it, for sites.
    pub tile: Option<String>,
    pub items: Vec<String>,
}

/// Face-down map chits of a tile.
#[derive(Clone, Debug, Serialize)]
pub struct TileChits {
    pub tile: String,
    pub face_down: Vec<String>,
}

/// Everything the GM's eyes only section shows.
#[derive(Clone, Debug, Serialize)]
pub struct Secrets {
    pub characters: Vec<CharacterSecrets>,
    pub holders: Vec<HolderSecrets>,
    pub chits: Vec<TileChits>,
    pub lost: Vec<TileChits>,
}

/// The secrets of `state`.
pub fn secrets(state: &MrState) -> Secrets {
    Secrets {
        characters: state
            .characters
            .iter()
            .map(|c| CharacterSecrets {
                character: c.name.clone(),
                player: c.played_by().to_string(),
                position: c.position.to_string(),
                hidden: c.hidden,
                tiles_visited: c.discoveries.tiles_visited.iter().cloned().collect(),
                routes: c
                    .discoveries
                    .routes
                    .iter()
                    .map(|(a, b)| format!("{a}-{b}"))
                    .collect(),
                sites: c.discoveries.sites.iter().cloned().collect(),
                chits_seen: c.discoveries.chits_seen.iter().cloned().collect(),
                belongings: c
                    .belongings
                    .iter()
                    .map(|b| {
                        let active = if b.active { " (active)" } else { "" };
                        format!("{}{active}", b.item.name)
                    })
                    .collect(),
            })
            .collect(),
        holders: state
            .holdings
            .iter()
            .filter(|(_, items)| !items.is_empty())
            .map(|(holder, items)| HolderSecrets {
                holder: holder.clone(),
                tile: state.tile_of_chit(holder).map(str::to_string),
                items: items.iter().map(|i| i.name.clone()).collect(),
            })
            .collect(),
        chits: state
            .map_chits
            .iter()
            .map(|(tile, chits)| TileChits {
                tile: tile.clone(),
                face_down: chits
                    .iter()
                    .filter(|c| !c.face_up)
                    .map(|c| c.name.clone())
                    .collect(),
            })
            .filter(|t| !t.face_down.is_empty())
            .collect(),
        lost: state
            .lost
            .iter()
            .map(|(name, chits)| TileChits {
                tile: name.clone(),
                face_down: chits.clone(),
            })
            .collect(),
    }
}
