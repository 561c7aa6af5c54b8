//! Day files read as their doc says: the turn order forced, and every bad
//! field refused with its name and what to write instead.

use super::{DayScript, load};
use crate::day::events::{BirdsongEvent, Happening};
use crate::test_support::data;

fn played_order(text: &str) -> Vec<String> {
    let script: DayScript = load(data(), "t.toml", text).unwrap_or_else(|e| panic!("{e}"));
    let played = script.play(data()).expect("the day plays");
    played
        .events
        .iter()
        .find_map(|e| match &e.happening {
            Happening::Birdsong(BirdsongEvent::TurnOrder { order }) => Some(order.clone()),
            _ => None,
        })
        .expect("a turn order")
}

fn three(turn_order: &str) -> String {
    format!(
        "seed = 11\nclear_denizens = true\nturn_order = {turn_order}\n\
         [[character]]\nname = \"Amazon\"\n\
         [[character]]\nname = \"Dwarf\"\n\
         [[character]]\nname = \"Black Knight\"\n"
    )
}

/// The attention chits' draw at Birdsong (3.1 7.1.1) comes out as the
/// file's `turn_order` says, whichever order it names.
#[test]
fn the_turn_order_is_the_files_7_1_1() {
    for order in [
        ["Amazon", "Dwarf", "Black Knight"],
        ["Black Knight", "Amazon", "Dwarf"],
        ["Dwarf", "Black Knight", "Amazon"],
    ] {
        let list = format!("{order:?}");
        assert_eq!(played_order(&three(&list)), order, "{list}");
    }
}

#[test]
fn bad_fields_are_named_with_what_to_write() {
    let cases = [
        (
            "[[character]]\nname = \"Amazon\"\nat = \"CV9\"\n",
            "the board has no clearing CV9",
        ),
        (
            "[[character]]\nname = \"Amazon\"\nchits = { fatigued = [\"MAGIC X9\"] }\n",
            "no unmarked chit MAGIC X9",
        ),
        (
            "[[character]]\nname = \"Amazon\"\nhorse = \"Short Sword\"\n",
            "no horse is called Short Sword",
        ),
        (
            "[[character]]\nname = \"Amazon\"\n[[denizen]]\nid = \"Giant 9\"\nat = \"CV1\"\n",
            "no monster or native is called Giant 9",
        ),
        (
            "[[character]]\nname = \"Amazon\"\n[[denizen]]\nid = \"Giant 1\"\n",
            "give exactly one of at",
        ),
        (
            "[[character]]\nname = \"Amazon\"\n[[denizen]]\nid = \"Giant 1\"\nbox = \"Giants\"\n",
            "the setup card has no box Giants",
        ),
        (
            "turn_order = [\"Dwarf\"]\n[[character]]\nname = \"Amazon\"\n",
            "no character of the file",
        ),
        (
            "[[character]]\nname = \"Amazon\"\norders = \"M Nowhere 3\"\n",
            "field `orders`",
        ),
        (
            "rules = [\"no_such_rule\"]\n[[character]]\nname = \"Amazon\"\n",
            "no_such_rule",
        ),
    ];
    for (text, wanted) in cases {
        let err = load(data(), "t.toml", text).expect_err(text).to_string();
        assert!(err.contains(wanted), "{text}: {err}");
    }
}
