//! Curses (`tables/magic.rs`; play summary IV.B): rolling one, its effects in the
//! day, and lifting it.
//!
//! Effects: Eyemist — no Search activity; Squeak — he may Hide but never
//! becomes hidden; Wither — no active chit with effort asterisks (those
//! active when he is cursed fatigue, colour chits included, and Rest cannot
//! bring one back to active); Ill Health — no Rest activity; Ashes — his
//! gold cannot be spent and counts as −1 for victory points; Disgust — his
//! fame cannot be spent and counts as −1 for victory points.
//!
//! Lifting: at Midnight in the Chapel's clearing every curse ends (play summary
//! IV.B); Remedy and Exorcise lift curses; Make Whole and a Wish for Health
//! lift Wither; a Wish for Health lifts Ill Health. A character with the
//! curse immunity advantage is never cursed. Rolling a curse he already has
//! does nothing more (ruling).

use crate::abilities;
use crate::data::GameData;
use crate::data::characters::{ActionChit, Advantage};
use crate::state::{CharacterState, ChitCondition, MrState};
use crate::tables::magic::CurseKind;
use realmgm_core::game::Rules;

use super::events::MagicEvent;

pub fn has(c: &CharacterState, curse: CurseKind) -> bool {
    c.magic.curses.contains(&curse)
}

/// Put `curse` on character `who`, from `source` (a table roll, a spell).
pub fn inflict(
    state: &mut MrState,
    data: &GameData,
    rules: &Rules,
    who: usize,
    curse: CurseKind,
    source: &str,
) -> MagicEvent {
    let c = &mut state.characters[who];
    let character = c.name.clone();
    if abilities::has(data, rules, c, &Advantage::CurseImmunity) {
        return MagicEvent::CurseMissed {
            character,
            curse,
            reason: "curses have no effect here".into(),
        };
    }
    if !c.magic.curses.insert(curse) {
        return MagicEvent::CurseMissed {
            character,
            curse,
            reason: "already borne".into(),
        };
    }
    if curse == CurseKind::Wither {
        wither(c);
    }
    MagicEvent::Cursed {
        character,
        curse,
        source: source.to_string(),
    }
}

/// Wither: every active chit with effort asterisks becomes fatigued.
pub fn wither(c: &mut CharacterState) {
    for chit in &mut c.chits {
        let effort = ActionChit::parse(&chit.chit).map(|a| a.effort).unwrap_or(0);
        if effort > 0 && chit.condition == ChitCondition::Active {
            chit.condition = ChitCondition::Fatigued;
            chit.enchanted = false;
        }
    }
}

/// Lift `curse` from `who`; `None` when he did not have it.
pub fn lift(state: &mut MrState, who: usize, curse: CurseKind, by: &str) -> Option<MagicEvent> {
    let c = state.characters.get_mut(who)?;
    c.magic
        .curses
        .remove(&curse)
        .then(|| MagicEvent::CurseLifted {
            character: c.name.clone(),
            curse,
            by: by.to_string(),
        })
}

/// Lift every curse from `who`.
pub fn lift_all(state: &mut MrState, who: usize, by: &str) -> Vec<MagicEvent> {
    let curses: Vec<CurseKind> = state
        .characters
        .get(who)
        .map(|c| c.magic.curses.iter().copied().collect())
        .unwrap_or_default();
    curses
        .into_iter()
        .filter_map(|k| lift(state, who, k, by))
        .collect()
}

/// Why `c` may not Search today, if he may not.
pub fn forbids_search(c: &CharacterState) -> Option<String> {
    has(c, CurseKind::Eyemist).then(|| {
        format!(
            "the {} bears the Eyemist curse and cannot search until it is lifted",
            c.name
        )
    })
}

/// Why `c` may not Rest, if he may not.
pub fn forbids_rest(c: &CharacterState) -> Option<String> {
    has(c, CurseKind::IllHealth).then(|| {
        format!(
            "the {} bears the Ill Health curse and cannot rest until it is lifted",
            c.name
        )
    })
}

/// Squeak: he never becomes hidden.
pub fn keeps_unhidden(c: &CharacterState) -> bool {
    has(c, CurseKind::Squeak)
}

/// Gold he may spend or give (Ashes makes it worthless).
pub fn spendable_gold(c: &CharacterState) -> u16 {
    if has(c, CurseKind::Ashes) { 0 } else { c.gold }
}

/// Gold counted for victory points (Ashes: −1).
pub fn gold_for_points(c: &CharacterState) -> i32 {
    if has(c, CurseKind::Ashes) {
        -1
    } else {
        i32::from(c.gold)
    }
}

/// Fame counted for victory points (Disgust: −1).
pub fn fame_for_points(c: &CharacterState) -> i32 {
    if has(c, CurseKind::Disgust) {
        -1
    } else {
        c.fame
    }
}

/// Fame he may spend (Disgust makes it worthless).
pub fn spendable_fame(c: &CharacterState) -> i32 {
    if has(c, CurseKind::Disgust) {
        0
    } else {
        c.fame
    }
}

/// Curses that a spell lifts by name, for Make Whole and the Wish.
pub fn lifted_by_health() -> [CurseKind; 2] {
    [CurseKind::Wither, CurseKind::IllHealth]
}
