//! Spying (3.1 4.5.6): those who can see a character in his clearing
//! learn each discovery he uses there. Everyone in his clearing spies on
//! him when he is unhidden; when he is hidden, only those who found hidden
//! enemies that day (`Day::seen_acting`). What a spy learns:
//! - a hidden path or secret passage he walks, in the clearing he leaves
//!   and in the one he enters (4.5.6b.1), unless he goes as Mist, who uses
//!   such roads without knowing them;
//! - a discovery he sells or tells (4.5.6b.3), as its buyer learns it
//!   (`dealings`);
//! - a treasure site he loots (4.5.6b.2) is learned in `search` and
//!   `treasure_sites`, by the same observers.

use super::Day;
use super::events::Happening;
use super::search::SearchEvent;
use crate::board::ClearingId;
use crate::data::tiles::PathKind;
use crate::state::magic::Aim;

/// Character `who` is about to move from his clearing to `to`: if the road
/// is a hidden path or secret passage, those spying on him at either end
/// discover it.
pub fn moving(day: &mut Day<'_>, who: usize, to: &ClearingId) {
    let from = day.state.characters[who].position.clone();
    let Some(kind) = day
        .state
        .board
        .neighbours(&from)
        .into_iter()
        .find(|l| &l.to == to)
        .map(|l| l.kind)
        .filter(|k| matches!(k, PathKind::Hidden | PathKind::Secret))
    else {
        return;
    };
    let me = Aim::Character {
        name: day.state.characters[who].name.clone(),
    };
    if crate::magic::cast::active_on(&day.state, &me, "Melt Into Mist").is_some() {
        return;
    }
    let route = if from < *to {
        (from.clone(), to.clone())
    } else {
        (to.clone(), from.clone())
    };
    for spy in spies(day, who, &[&from, to]) {
        if day.state.characters[spy]
            .discoveries
            .routes
            .insert(route.clone())
        {
            let event = SearchEvent::FoundRoutes {
                character: day.state.characters[spy].name.clone(),
                kind,
                routes: vec![route.clone()],
            };
            day.emit(day.only(spy), Happening::Search(event));
        }
    }
}

/// The characters spying on `who` now, standing in any of `clearings`:
/// everyone there if he is unhidden, those who found hidden enemies if he
/// is hidden (3.1 4.5.6a).
pub fn spies(day: &Day<'_>, who: usize, clearings: &[&ClearingId]) -> Vec<usize> {
    let me = &day.state.characters[who];
    day.state
        .characters
        .iter()
        .enumerate()
        .filter(|(i, c)| {
            *i != who
                && !c.dead
                && c.player != me.player
                && clearings.contains(&&c.position)
                && (!me.hidden || c.found_hidden_enemies)
        })
        .map(|(i, _)| i)
        .collect()
}
