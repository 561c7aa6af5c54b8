//! A dry run of a character's recorded moves for the confirmation of his
//! orders (issue 6 §3): each Move is checked against the routes he knows,
//! from where he stands, so a player hears at once that a phase would be
//! lost. Only his own knowledge is read, and the reasons are the day's own
//! (`movement::check_move_from`), which never tell of paths he has not found.

use crate::game::Rules;

use super::movement;
use crate::magic_realm::board::ClearingId;
use crate::magic_realm::data::GameData;
use crate::magic_realm::orders::{Activity, DayOrders};
use crate::magic_realm::state::MrState;

/// Warnings for the moves of `player`'s character in `orders`, in phase
/// order. The dry run stops at the first move that would be lost, and at a
/// Follow or Fly, after which his position is not his own to plan.
pub fn move_warnings(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    player: &str,
    orders: &DayOrders,
) -> Vec<String> {
    let Some(who) = state.characters.iter().position(|c| c.player == player) else {
        return Vec::new();
    };
    let mut at = state.characters[who].position.clone();
    for (n, phase) in orders.activities.phases.iter().enumerate() {
        match &phase.activity {
            Activity::Move { tile, clearing } => {
                let Some(code) = data.tiles.resolve(tile).map(|t| t.code.clone()) else {
                    return vec![format!("phase {}: there is no tile {tile}", n + 1)];
                };
                let to = ClearingId::new(&code, *clearing);
                if let Err(reason) = movement::check_move_from(data, rules, state, who, &at, &to) {
                    return vec![format!(
                        "phase {} (M {to}): {reason}; as things stand the phase would be lost",
                        n + 1
                    )];
                }
                at = to;
            }
            Activity::Follow { .. } | Activity::Fly { .. } => break,
            _ => {}
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::magic_realm::data::tiles::PathKind;
    use crate::magic_realm::orders::parse_day_orders;
    use crate::magic_realm::test_support::{data, game_played_by};

    #[test]
    fn a_move_along_an_unknown_route_is_warned_without_naming_it() {
        let mut state = game_played_by(&["Black Knight"], |_| "Ann".into());
        let board = &state.board;
        let (from, hidden_to, normal_to) = board
            .clearings()
            .into_iter()
            .find_map(|c| {
                let links = board.neighbours(&c);
                let hidden = links
                    .iter()
                    .find(|l| matches!(l.kind, PathKind::Hidden | PathKind::Secret))?;
                let normal = links.iter().find(|l| l.kind == PathKind::Normal)?;
                Some((c.clone(), hidden.to.clone(), normal.to.clone()))
            })
            .expect("the board has a clearing with both kinds of path");
        state.characters[0].position = from.clone();
        let line = |to: &ClearingId| format!("M {}{}, H", to.tile, to.clearing);
        let orders = parse_day_orders(&line(&normal_to), 1, data()).unwrap();
        let rules = Rules::default();
        assert!(move_warnings(data(), &rules, &state, "Ann", &orders).is_empty());
        let orders = parse_day_orders(&line(&hidden_to), 1, data()).unwrap();
        let warnings = move_warnings(data(), &rules, &state, "Ann", &orders);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("no known path"), "{warnings:?}");
        assert!(!warnings[0].contains("hidden") && !warnings[0].contains("secret"));
        let key = if from <= hidden_to {
            (from.clone(), hidden_to.clone())
        } else {
            (hidden_to.clone(), from.clone())
        };
        state.characters[0].discoveries.routes.insert(key);
        assert!(move_warnings(data(), &rules, &state, "Ann", &orders).is_empty());
    }
}
