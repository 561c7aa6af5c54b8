//! Sunset and Evening (seed 000 III): combat may start in every clearing
//! holding a character and any other character, monster or native. Combat
//! has rules of its own, not built yet, so each such clearing is named in a
//! [`CombatEvent`] that says nothing was fought — never skipped silently.

use std::collections::BTreeMap;

use crate::game::Observers;

use super::super::board::ClearingId;
use super::super::state::{DenizenKind, Whereabouts};
use super::Day;
use super::events::{CombatEvent, Happening};

/// Who stands in a clearing at Sunset.
#[derive(Default)]
struct Crowd {
    characters: Vec<String>,
    monsters: Vec<String>,
    natives: Vec<String>,
}

/// Name every clearing where combat would start.
pub fn evening(day: &mut Day<'_>) {
    let mut clearings: BTreeMap<ClearingId, Crowd> = BTreeMap::new();
    // Hidden characters are counted but not named: the event is seen by
    // everyone in the clearing, and a hidden character is not seen.
    let mut hidden: BTreeMap<ClearingId, usize> = BTreeMap::new();
    for c in &day.state.characters {
        let crowd = clearings.entry(c.position.clone()).or_default();
        if c.hidden {
            *hidden.entry(c.position.clone()).or_default() += 1;
        } else {
            crowd.characters.push(c.name.clone());
        }
    }
    for (id, d) in &day.state.denizens {
        if let Whereabouts::Clearing { clearing } = &d.at
            && let Some(crowd) = clearings.get_mut(clearing)
        {
            match d.kind {
                DenizenKind::Monster => crowd.monsters.push(id.clone()),
                DenizenKind::Native => crowd.natives.push(id.clone()),
            }
        }
    }
    for (clearing, crowd) in clearings {
        let present = crowd.characters.len() + hidden.get(&clearing).copied().unwrap_or(0);
        let others = present - 1 + crowd.monsters.len() + crowd.natives.len();
        if others == 0 {
            continue;
        }
        let observers = Observers::Players(day.players_in(&clearing));
        day.emit(
            observers,
            Happening::Combat(CombatEvent::WouldStart {
                clearing,
                characters: crowd.characters,
                monsters: crowd.monsters,
                natives: crowd.natives,
                note: "combat is not implemented yet: nothing was fought".into(),
            }),
        );
    }
}
