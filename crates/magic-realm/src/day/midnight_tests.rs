//! Tests of Midnight (3.1 8.9): potions back to their boxes, every face-up
//! map chit turned down.

use super::events::{Happening, MidnightEvent};
use crate::state::{ItemKind, MapChit};
use crate::test_support::{give, item, play_day as play, quiet_game as game};

/// A potion activated today goes back to the box named on its card, to
/// be bought again; one not activated stays with him (3.1 8.9.2a).
#[test]
fn an_activated_potion_goes_back_to_its_box_at_midnight_3_1_8_9_2a() {
    let mut state = game(&["Amazon"]);
    give(&mut state, 0, ItemKind::Treasure, "Potion of Energy", true);
    give(&mut state, 0, ItemKind::Treasure, "Draught of Speed", false);
    let (after, events) = play(state, &[("P1", "H")], &[]);
    let carried: Vec<&str> = after.characters[0]
        .belongings
        .iter()
        .map(|b| b.item.name.as_str())
        .collect();
    assert_eq!(carried, ["Draught of Speed"]);
    assert!(
        after.holdings["Warlock"].contains(&item(ItemKind::Treasure, "Potion of Energy")),
        "back with the Warlock"
    );
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Midnight(MidnightEvent::PotionReturned { potion, to, .. })
            if potion == "Potion of Energy" && to == "Warlock"
    )));
}

/// Every face-up map chit turns face down at Midnight, in a tile with a
/// character as in one without (3.1 8.9.5).
#[test]
fn face_up_chits_turn_down_even_where_a_character_stands_3_1_8_9_5() {
    let mut state = game(&["Amazon"]);
    let tile = state.characters[0].position.tile.clone();
    state.map_chits.insert(
        tile.clone(),
        vec![MapChit {
            name: "Roar 6".into(),
            face_up: true,
        }],
    );
    let (after, _) = play(state, &[("P1", "H")], &[]);
    assert!(after.map_chits[&tile].iter().all(|c| !c.face_up));
}
