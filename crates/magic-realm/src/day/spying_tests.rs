//! Spying on a character who walks a hidden path (3.1 4.5.6a, b.1): the
//! unhidden walker is spied on by everyone at both ends.

use super::tests::{game, hidden_way, place, play};
use crate::data::tiles::PathKind;
use crate::state::MrState;
use crate::test_support::move_to;
use realmgm_core::dice::DiceScript;

#[test]
fn those_at_the_far_end_spy_on_an_unhidden_walker_4_5_6b1() {
    let mut state: MrState = game(&["Amazon", "Elf"]);
    let (from, to) = hidden_way(&state, &[PathKind::Hidden]);
    place(&mut state, 0, &from);
    place(&mut state, 1, &to);
    for d in state.denizens.values_mut() {
        d.at = crate::state::Whereabouts::Dead;
    }
    let route = if from < to {
        (from.clone(), to.clone())
    } else {
        (to.clone(), from.clone())
    };
    state.characters[0].discoveries.routes.insert(route.clone());
    // The Amazon walks the path from her clearing to the Elf's; the Elf
    // rests there, whenever his turn comes.
    let (after, _) = play(
        state,
        &[("P1", &move_to(&to)), ("P2", "R")],
        DiceScript::default(),
    );
    assert_eq!(after.characters[0].position, to, "she walked the path");
    assert!(after.characters[1].discoveries.routes.contains(&route));
}

/// A hidden walker is spied on only by those who found hidden enemies that
/// day, a hired leader standing at the far end outside his own turn as
/// much as a character (3.1 4.5.6a, 4.5.6b.1); what the leader learns his
/// employer knows.
fn hidden_walk_seen_by_a_leader(found_hidden_enemies: bool) -> bool {
    let mut state: MrState = game(&["Amazon", "Captain"]);
    let (from, to) = hidden_way(&state, &[PathKind::Hidden]);
    for d in state.denizens.values_mut() {
        d.at = crate::state::Whereabouts::Dead;
    }
    place(&mut state, 0, &from);
    place(&mut state, 1, &from);
    state.denizens.get_mut("Soldier HQ").expect("HQ").at = crate::state::Whereabouts::Clearing {
        clearing: to.clone(),
    };
    state.characters[1].hirelings.push(crate::state::Hireling {
        native: "Soldier HQ".into(),
        days_left: 9,
    });
    state.leaders.insert(
        "Soldier HQ".into(),
        crate::state::LeaderRecord {
            found_hidden_enemies,
            ..Default::default()
        },
    );
    let route = if from < to {
        (from.clone(), to.clone())
    } else {
        (to.clone(), from.clone())
    };
    state.characters[0].discoveries.routes.insert(route.clone());
    // She hides at the start of her turn (forced), then walks.
    let walk = format!("H / {}", move_to(&to));
    let (after, _) = play(
        state,
        &[("P1", &walk), ("P2", "R\nSoldier HQ: H")],
        crate::test_support::script(&[("daylight/hide/Amazon", &[1, 1])]),
    );
    assert_eq!(after.characters[0].position, to, "she walked the path");
    assert!(after.characters[0].hidden, "she walked hidden");
    after.characters[1].discoveries.routes.contains(&route)
}

#[test]
fn a_hired_leader_who_found_hidden_enemies_spies_on_a_hidden_walker_4_5_6a() {
    assert!(hidden_walk_seen_by_a_leader(true));
    assert!(!hidden_walk_seen_by_a_leader(false));
}
