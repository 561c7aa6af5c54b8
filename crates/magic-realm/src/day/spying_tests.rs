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
