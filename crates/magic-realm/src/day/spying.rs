//! Spying (3.1 4.5.6): those who can see a character or hired leader in
//! his clearing learn each discovery he uses there. Everyone in his
//! clearing spies on him when he is unhidden; when he is hidden, only those
//! who found hidden enemies that day (`Day::seen_acting`). Spies are the
//! characters and the hired leaders standing there, a leader spying also
//! outside his own turn; what a hired leader learns his employer knows, as
//! with everything a leader discovers (`leader_turn`). What a spy learns:
//! - a hidden path or secret passage he walks, in the clearing he leaves
//!   and in the one he enters (4.5.6b.1), unless he goes as Mist, who uses
//!   such roads without knowing them;
//! - a discovery he sells or tells (4.5.6b.3), as its buyer learns it
//!   (`dealings`);
//! - a treasure site he loots (4.5.6b.2) is learned in `search` and
//!   `treasure_sites`, by the same observers.

use super::Day;
use super::events::Happening;
use super::hired_leaders::hired_leaders_in;
use super::search::SearchEvent;
use crate::board::ClearingId;
use crate::data::tiles::PathKind;
use crate::state::CharacterState;
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
        if day.state.characters[spy.learner]
            .discoveries
            .routes
            .insert(route.clone())
        {
            let event = SearchEvent::FoundRoutes {
                character: spy.name(day),
                kind,
                routes: vec![route.clone()],
            };
            day.emit(day.only(spy.learner), Happening::Search(event));
        }
    }
}

/// One spying: a character, or a hired leader learning for his employer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spy {
    /// The seat whose discoveries grow: the character, or the leader's
    /// employer.
    pub learner: usize,
    /// The hired leader who spied, when it was one.
    pub leader: Option<String>,
}

impl Spy {
    /// The spy's name as his employer's report reads it.
    pub fn name(&self, day: &Day<'_>) -> String {
        self.leader
            .clone()
            .unwrap_or_else(|| day.state.characters[self.learner].name.clone())
    }
}

/// Those spying on character `who` now (a hired leader in his own turn
/// included), standing in any of `clearings`.
pub fn spies(day: &Day<'_>, who: usize, clearings: &[&ClearingId]) -> Vec<Spy> {
    let me = &day.state.characters[who];
    // A hired leader in his own turn is a native, seen as natives are.
    let target = super::hired_leaders::stand_in_of(day, &me.name)
        .is_none_or(|seat| seat != who)
        .then_some(me);
    spies_on(day, &me.player, me.hidden, target, clearings)
}

/// The characters and hired leaders spying now on someone of `player`'s
/// who is `hidden` or not, standing in any of `clearings`: everyone there
/// if he is unhidden, those who found hidden enemies if he is hidden (3.1
/// 4.5.6a), or whom Magic Sight lets see what `target` owns (7.5.7c);
/// no `target` is a hired leader, a native, whom its Counters show.
/// Nobody spies on his own player's people: they share what they know.
pub fn spies_on(
    day: &Day<'_>,
    player: &str,
    hidden: bool,
    target: Option<&CharacterState>,
    clearings: &[&ClearingId],
) -> Vec<Spy> {
    let mut found: Vec<Spy> = day
        .state
        .characters
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            !c.dead
                && c.player != player
                && clearings.contains(&&c.position)
                && (!hidden || target.map_or(c.sees_hidden_native(), |t| c.sees_hidden(t)))
        })
        .map(|(learner, _)| Spy {
            learner,
            leader: None,
        })
        .collect();
    for clearing in clearings {
        for (native, employer) in hired_leaders_in(day, clearing) {
            let boss = &day.state.characters[employer];
            let sees_hidden = day
                .state
                .leaders
                .get(&native)
                .is_some_and(|r| r.found_hidden_enemies);
            if !boss.dead && boss.player != player && (!hidden || sees_hidden) {
                found.push(Spy {
                    learner: employer,
                    leader: Some(native),
                });
            }
        }
    }
    found
}
