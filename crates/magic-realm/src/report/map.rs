//! The map pictures of the reports, drawn by
//! [`crate::board::svg`]: a player's known map (the tiles he
//! has explored with their dwellings, the sites he has found, the routes he
//! knows, what stands in his clearing, his position ringed) and the GM's
//! full map with every character ringed and every dwelling, site and
//! denizen noted. Labels in one clearing are stacked, never overlapped.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::board::ClearingId;
use crate::board::svg::{MapView, render_view};
use crate::data::tiles::PathKind;
use crate::data::{GameData, base_name};
use crate::state::{CharacterState, MrState, Whereabouts};

/// The most denizen names written under one clearing; more are counted.
const MAX_DENIZEN_NOTES: usize = 3;

/// What a player's known map shows, as data: the report's JSON carries it
/// and [`known_map`] draws it, so the two never differ.
#[derive(Clone, Debug, Serialize)]
pub struct KnownMap {
    /// His clearing, ringed on the picture.
    pub position: String,
    /// The tiles he has explored (visited, and the one he stands in), with
    /// their clearings.
    pub tiles: Vec<KnownTile>,
    /// The paths drawn between clearings of those tiles: roads and cave
    /// tunnels, and the hidden paths and secret passages he has found.
    pub paths: Vec<KnownPath>,
    /// The notes written under clearings: dwellings of explored tiles, the
    /// sites he has found, the monsters and natives in his own clearing.
    pub notes: Vec<MapNote>,
}

/// An explored tile.
#[derive(Clone, Debug, Serialize)]
pub struct KnownTile {
    pub code: String,
    pub name: String,
    pub clearings: Vec<KnownClearing>,
}

/// A clearing of an explored tile.
#[derive(Clone, Debug, Serialize)]
pub struct KnownClearing {
    pub clearing: String,
    pub kind: String,
}

/// A path he knows, once, from the lower clearing to the higher.
#[derive(Clone, Debug, Serialize)]
pub struct KnownPath {
    pub from: String,
    pub to: String,
    /// `road`, `cave`, `hidden path` or `secret passage`.
    pub kind: &'static str,
}

/// A note written under a clearing.
#[derive(Clone, Debug, Serialize)]
pub struct MapNote {
    pub clearing: String,
    pub note: String,
}

/// The tiles `me` has explored and the notes of his map.
fn known(data: &GameData, state: &MrState, me: &CharacterState) -> (BTreeSet<String>, Notes) {
    let mut explored = me.discoveries.tiles_visited.clone();
    explored.insert(me.position.tile.clone());
    let mut notes = dwellings(state, |tile| explored.contains(tile));
    notes.extend(sites(
        data,
        state,
        me.discoveries.sites.iter().map(String::as_str),
    ));
    notes.extend(denizens(state, |clearing| clearing == &me.position));
    (explored, notes)
}

type Notes = Vec<(ClearingId, String)>;

/// The known map of `me`: the tiles he has explored with their dwellings,
/// the sites he has found, the routes he knows, the monsters and natives
/// he sees in his own clearing, his position ringed.
pub fn known_map(data: &GameData, state: &MrState, me: &CharacterState) -> String {
    let (explored, notes) = known(data, state, me);
    render_view(
        &state.board,
        &MapView {
            explored: Some(&explored),
            known_routes: Some(&me.discoveries.routes),
            marks: vec![(me.position.clone(), me.name.clone())],
            notes,
        },
    )
}

/// [`known_map`] as data. A path is listed when both its clearings lie on
/// explored tiles, as the picture draws it whole.
pub fn known_map_data(data: &GameData, state: &MrState, me: &CharacterState) -> KnownMap {
    let (explored, notes) = known(data, state, me);
    let view = MapView {
        explored: Some(&explored),
        known_routes: Some(&me.discoveries.routes),
        marks: Vec::new(),
        notes: Vec::new(),
    };
    let clearings: Vec<ClearingId> = state
        .board
        .clearings()
        .into_iter()
        .filter(|c| explored.contains(&c.tile))
        .collect();
    let tiles = explored
        .iter()
        .map(|code| KnownTile {
            code: code.clone(),
            name: data
                .tiles
                .by_code(code)
                .map_or_else(|| code.clone(), |t| t.name.clone()),
            clearings: clearings
                .iter()
                .filter(|c| &c.tile == code)
                .map(|c| KnownClearing {
                    clearing: c.to_string(),
                    kind: state
                        .board
                        .clearing(c)
                        .map(|found| found.kind.to_string())
                        .unwrap_or_default(),
                })
                .collect(),
        })
        .collect();
    let mut paths = BTreeSet::new();
    for from in &clearings {
        for link in state.board.neighbours(from) {
            let secret = matches!(link.kind, PathKind::Hidden | PathKind::Secret);
            if from < &link.to
                && explored.contains(&link.to.tile)
                && (!secret || view.knows(from, Some(&link.to)))
            {
                paths.insert((from.clone(), link.to, link.kind));
            }
        }
    }
    KnownMap {
        position: me.position.to_string(),
        tiles,
        paths: paths
            .into_iter()
            .map(|(from, to, kind)| KnownPath {
                from: from.to_string(),
                to: to.to_string(),
                kind: match kind {
                    PathKind::Normal => "road",
                    PathKind::Cave => "cave",
                    PathKind::Hidden => "hidden path",
                    PathKind::Secret => "secret passage",
                },
            })
            .collect(),
        notes: notes
            .into_iter()
            .map(|(clearing, note)| MapNote {
                clearing: clearing.to_string(),
                note,
            })
            .collect(),
    }
}

/// The GM's map: everything, every character marked (hidden ones in
/// brackets), every dwelling, site and denizen on the map noted.
pub fn full_map(data: &GameData, state: &MrState) -> String {
    let marks = state
        .characters
        .iter()
        .map(|c| {
            let label = if c.hidden {
                format!("({})", c.name)
            } else {
                c.name.clone()
            };
            (c.position.clone(), label)
        })
        .collect();
    let mut notes = dwellings(state, |_| true);
    let all_sites = state.map_chits.values().flatten().map(|c| c.name.as_str());
    notes.extend(sites(data, state, all_sites));
    notes.extend(denizens(state, |_| true));
    render_view(
        &state.board,
        &MapView {
            explored: None,
            known_routes: None,
            marks,
            notes,
        },
    )
}

/// The dwellings on the tiles `shown` accepts.
fn dwellings(state: &MrState, shown: impl Fn(&str) -> bool) -> Notes {
    state
        .every_dwelling()
        .filter(|(_, _, at)| shown(&at.tile))
        .map(|(realm, dwelling, at)| (at.clone(), realm.mark(&dwelling.to_string())))
        .collect()
}

/// Each of `names` that is a site chit on the map, at its clearing.
fn sites<'a>(
    data: &GameData,
    state: &MrState,
    names: impl Iterator<Item = &'a str>,
) -> Vec<(ClearingId, String)> {
    names
        .filter_map(|name| {
            let site = data.chits.site(name)?;
            let tile = state.tile_of_chit(name)?;
            Some((ClearingId::new(tile, site.clearing), name.to_string()))
        })
        .collect()
}

/// The monsters and natives standing in the clearings `shown` accepts,
/// by kind with their numbers, a few names per clearing and the rest
/// counted.
fn denizens(state: &MrState, shown: impl Fn(&ClearingId) -> bool) -> Vec<(ClearingId, String)> {
    let mut by_clearing: BTreeMap<&ClearingId, Vec<&str>> = BTreeMap::new();
    for (id, denizen) in &state.denizens {
        if let Whereabouts::Clearing { clearing } = &denizen.at
            && shown(clearing)
        {
            by_clearing.entry(clearing).or_default().push(id);
        }
    }
    let mut notes = Vec::new();
    for (clearing, ids) in by_clearing {
        let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
        for id in &ids {
            *kinds.entry(base_name(id)).or_default() += 1;
        }
        let named: Vec<String> = kinds
            .iter()
            .map(|(kind, n)| {
                if *n > 1 {
                    format!("{kind} ×{n}")
                } else {
                    (*kind).to_string()
                }
            })
            .collect();
        for note in named.iter().take(MAX_DENIZEN_NOTES) {
            notes.push((clearing.clone(), note.clone()));
        }
        if named.len() > MAX_DENIZEN_NOTES {
            notes.push((
                clearing.clone(),
                format!("and {} more kinds", named.len() - MAX_DENIZEN_NOTES),
            ));
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::ClearingId;
    use crate::data::tiles::{PathEnd, PathKind};
    use crate::setup::{SetupInputs, new_game};
    use realmgm_core::dice::Dice;
    use realmgm_core::game::Seat;

    fn data() -> &'static GameData {
        crate::data::get().unwrap()
    }

    fn game() -> MrState {
        let data = data();
        let seats = [Seat {
            player: "Ann".into(),
            role: Some("Amazon".into()),
        }];
        new_game(
            data,
            &seats,
            &realmgm_core::game::Rules::default(),
            &SetupInputs::default(),
            &mut Dice::new(4, 0),
        )
        .unwrap()
    }

    /// A hidden path inside a tile of the board, as (lower, higher).
    fn a_hidden_path(state: &MrState) -> (ClearingId, ClearingId) {
        state
            .board
            .placements()
            .find_map(|p| {
                let side = state.board.tile(&p.tile)?.side(p.side);
                side.paths.iter().find_map(|path| match path.to {
                    PathEnd::Clearing(to) if path.kind == PathKind::Hidden => Some((
                        ClearingId::new(&p.tile, path.from.min(to)),
                        ClearingId::new(&p.tile, path.from.max(to)),
                    )),
                    _ => None,
                })
            })
            .expect("the board has a hidden path")
    }

    #[test]
    fn the_known_map_as_data_lists_explored_tiles_and_a_hidden_path_once_found() {
        let mut state = game();
        let (a, b) = a_hidden_path(&state);
        state.characters[0]
            .discoveries
            .tiles_visited
            .insert(a.tile.clone());
        let me = state.characters[0].clone();
        let hidden = |map: &KnownMap| {
            map.paths.iter().any(|p| {
                p.kind == "hidden path" && p.from == a.to_string() && p.to == b.to_string()
            })
        };
        let unknown = known_map_data(data(), &state, &me);
        assert!(!hidden(&unknown), "undiscovered path listed");
        assert!(unknown.paths.iter().any(|p| p.kind == "road"));
        let codes: Vec<&str> = unknown.tiles.iter().map(|t| t.code.as_str()).collect();
        assert_eq!(codes.len(), if a.tile == me.position.tile { 1 } else { 2 });
        assert!(codes.contains(&a.tile.as_str()) && codes.contains(&me.position.tile.as_str()));
        assert!(unknown.tiles.iter().all(|t| !t.clearings.is_empty()));
        let mut knowing = me.clone();
        knowing.discoveries.routes.insert((a.clone(), b.clone()));
        assert!(hidden(&known_map_data(data(), &state, &knowing)));
    }

    #[test]
    fn the_known_map_draws_only_explored_tiles_and_discovered_routes() {
        let mut state = game();
        let (a, b) = a_hidden_path(&state);
        let route = format!(r#"data-route="{a}-{b}""#);
        let me = &mut state.characters[0];
        me.discoveries.tiles_visited.insert(a.tile.clone());
        let me = state.characters[0].clone();
        let unknown = known_map(data(), &state, &me);
        assert!(!unknown.contains(&route), "undiscovered path drawn");
        assert!(unknown.contains(&format!(r#"data-mark="{}""#, me.position)));
        let circles = |svg: &str| svg.matches("<circle").count();
        assert!(circles(&unknown) < circles(&full_map(data(), &state)));
        let mut knowing = me.clone();
        knowing.discoveries.routes.insert((a.clone(), b.clone()));
        assert!(known_map(data(), &state, &knowing).contains(&route));
        assert!(full_map(data(), &state).contains(&route));
    }

    #[test]
    fn labels_in_one_clearing_are_stacked_and_the_known_map_notes_only_what_he_knows() {
        let mut state = game();
        let inn = state.dwellings[&crate::data::terms::Dwelling::Inn].clone();
        let mut second = state.characters[0].clone();
        second.name = "Elf".into();
        second.position = state.characters[0].position.clone();
        state.characters.push(second);
        let gm = full_map(data(), &state);
        let label_y = |svg: &str, name: &str| -> String {
            let at = svg
                .find(&format!(">{name}</text>"))
                .expect("the label is drawn");
            let start = svg[..at].rfind(" y=\"").expect("a y") + 4;
            svg[start..start + 6].to_string()
        };
        assert_ne!(
            label_y(&gm, "Amazon"),
            label_y(&gm, "Elf"),
            "stacked, not overlapping"
        );
        assert!(
            gm.contains(r#"data-note="Inn""#),
            "the GM sees every dwelling"
        );
        // The Amazon has seen only her own tile: dwellings elsewhere are not
        // noted, nor denizens outside her clearing.
        let me = &mut state.characters[0];
        me.position = inn.clone();
        me.discoveries.tiles_visited = [inn.tile.clone()].into();
        let me = state.characters[0].clone();
        let known = known_map(data(), &state, &me);
        assert!(known.contains(r#"data-note="Inn""#));
        let elsewhere: Vec<String> = state
            .dwellings
            .iter()
            .filter(|(_, at)| at.tile != inn.tile)
            .map(|(d, _)| format!(r#"data-note="{d}""#))
            .collect();
        assert!(!elsewhere.is_empty());
        assert!(
            elsewhere.iter().all(|note| !known.contains(note)),
            "{known}"
        );
        let far_denizen = state.denizens.iter().find_map(|(id, d)| match &d.at {
            Whereabouts::Clearing { clearing } if clearing != &inn => {
                Some(base_name(id).to_string())
            }
            _ => None,
        });
        if let Some(kind) = far_denizen {
            assert!(gm.contains(&format!(r#"data-note="{kind}"#)));
        }
    }
}
