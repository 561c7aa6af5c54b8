//! The map pictures of the reports (issue 7 §2, §3), drawn by
//! [`crate::magic_realm::board::svg`]: a player's known map (the tiles he
//! has explored, the routes he knows, his position ringed) and the GM's
//! full map with every character ringed.

use crate::magic_realm::board::svg::{MapView, render_view};
use crate::magic_realm::state::{CharacterState, MrState};

/// The known map of `me`.
pub fn known_map(state: &MrState, me: &CharacterState) -> String {
    let mut explored = me.discoveries.tiles_visited.clone();
    explored.insert(me.position.tile.clone());
    render_view(
        &state.board,
        &MapView {
            explored: Some(&explored),
            known_routes: Some(&me.discoveries.routes),
            marks: vec![(me.position.clone(), me.name.clone())],
        },
    )
}

/// The GM's map: everything, every character marked (hidden ones in
/// brackets).
pub fn full_map(state: &MrState) -> String {
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
    render_view(
        &state.board,
        &MapView {
            explored: None,
            known_routes: None,
            marks,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;
    use crate::game::Seat;
    use crate::magic_realm::board::ClearingId;
    use crate::magic_realm::data::tiles::{PathEnd, PathKind};
    use crate::magic_realm::setup::{SetupInputs, new_game};

    fn game() -> MrState {
        let data = crate::magic_realm::data::get().unwrap();
        let seats = [Seat {
            player: "Ann".into(),
            character: Some("Amazon".into()),
        }];
        new_game(
            data,
            &seats,
            &crate::game::Rules::default(),
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
    fn the_known_map_draws_only_explored_tiles_and_discovered_routes() {
        let mut state = game();
        let (a, b) = a_hidden_path(&state);
        let route = format!(r#"data-route="{a}-{b}""#);
        let me = &mut state.characters[0];
        me.discoveries.tiles_visited.insert(a.tile.clone());
        let me = state.characters[0].clone();
        let unknown = known_map(&state, &me);
        assert!(!unknown.contains(&route), "undiscovered path drawn");
        assert!(unknown.contains(&format!(r#"data-mark="{}""#, me.position)));
        let circles = |svg: &str| svg.matches("<circle").count();
        assert!(circles(&unknown) < circles(&full_map(&state)));
        let mut knowing = me.clone();
        knowing.discoveries.routes.insert((a.clone(), b.clone()));
        assert!(known_map(&state, &knowing).contains(&route));
        assert!(full_map(&state).contains(&route));
    }
}
