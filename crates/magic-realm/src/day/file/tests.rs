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

/// A rule set by name, less what `rules_off` takes away, plus `rules`.
#[test]
fn a_rule_set_by_name_with_rules_added_and_taken_away() {
    let text = "rules_profile = \"bimr4\"\nrules_off = [\"fumble\", \"player_built_board\"]\nrules = [\"caching\"]\n\
                [[character]]\nname = \"Amazon\"\n";
    let rules = load(data(), "t.toml", text)
        .unwrap_or_else(|e| panic!("{e}"))
        .rules;
    assert!(rules.is_on("stumble") && rules.is_on("caching"));
    assert!(!rules.is_on("fumble"));
}

/// A board the players built (3.1 3.2) replaces the seed's: here seed
/// 11's tiles placed by hand, with the seed changed so only the placements
/// can make the same board.
#[test]
fn placed_tiles_make_the_board() {
    let seed_board =
        crate::board::generate::generate(&data().tiles, &mut realmgm_core::dice::Dice::new(11, 0));
    let tiles: Vec<String> = seed_board
        .placements()
        .map(|p| {
            format!(
                "{{ tile = \"{}\", at = [{}, {}], rotation = {} }}",
                p.tile, p.at.q, p.at.r, p.rotation
            )
        })
        .collect();
    let text = format!(
        "seed = 12\nrules = [\"player_built_board\"]\ntiles = [{}]\n[[character]]\nname = \"Amazon\"\n",
        tiles.join(", ")
    );
    let state = load(data(), "t.toml", &text)
        .unwrap_or_else(|e| panic!("{e}"))
        .state;
    assert_eq!(state.board, seed_board);
    let refused = load(
        data(),
        "t.toml",
        &text.replace("rules = [\"player_built_board\"]\n", ""),
    )
    .expect_err("placements without the rule")
    .to_string();
    assert!(
        refused.contains("player_built_board rule is off"),
        "{refused}"
    );
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
            "[[character]]\nname = \"Amazon\"\norders = \"HR\\nHire: Rogers\"\n",
            "line 2: ",
        ),
        (
            "rules = [\"no_such_rule\"]\n[[character]]\nname = \"Amazon\"\n",
            "no_such_rule",
        ),
        (
            "[[character]]\nname = \"Amazon\"\nrelationships = { Pirates = 1 }\n",
            "no native group or visitor is called Pirates",
        ),
        (
            "[[character]]\nname = \"Amazon\"\nboons_owed = [{ group = \"Pirates\", price = 5 }]\n",
            "field `boons_owed`",
        ),
        (
            "[[character]]\nname = \"Amazon\"\ncurses = [\"Gloom\"]\n",
            "no curse is called Gloom; write one of Eyemist",
        ),
        (
            "[[character]]\nname = \"Amazon\"\nmissions = [{ chit = \"Food and Ale\" }]\n",
            "the mission Food and Ale needs deliver_to",
        ),
        (
            "[[character]]\nname = \"Amazon\"\nmissions = [{ chit = \"Raid\", deliver_to = { dwelling = \"Inn\", reward = 1 } }]\n",
            "Raid is a campaign chit and is not delivered",
        ),
        (
            "[[character]]\nname = \"Amazon\"\nmissions = [{ chit = \"Picnic\" }]\n",
            "no mission or campaign chit is called Picnic",
        ),
    ];
    for (text, wanted) in cases {
        let err = load(data(), "t.toml", text).expect_err(text).to_string();
        assert!(err.contains(wanted), "{text}: {err}");
    }
}

/// The world a file sets: a map chit moved, a holder's pile, awakened
/// spells, the weather (3.1 10.D.1), discoveries and victory requirements.
#[test]
fn the_world_fields_set_the_state() {
    let text = r#"
seed = 11
rules = ["seasons_and_weather"]
weather = { season = 3, weather = "storm", chit = 4 }
holdings = { Company = ["Broadsword", "Helmet 6"] }
awakened = { "Book of Lore" = ["Fog"] }
[[chit]]
name = "Howl 4"
tile = "CV"
face_up = true
[[character]]
name = "Amazon"
discoveries = { routes = ["AV5-AV4"], sites = ["Vault"] }
victory = { fame = 2, gold = 3 }
"#;
    let state = load(data(), "t.toml", text)
        .unwrap_or_else(|e| panic!("{e}"))
        .state;
    assert!(
        state.map_chits["CV"]
            .iter()
            .any(|c| c.name == "Howl 4" && c.face_up)
    );
    let company: Vec<&str> = state.holdings["Company"]
        .iter()
        .map(|i| i.name.as_str())
        .collect();
    assert_eq!(company, ["Broadsword", "Helmet 6"]);
    assert!(state.magic.awakened["Book of Lore"].contains("Fog"));
    assert_eq!(state.magic.season, Some(3));
    assert_eq!(state.weather.map(|w| w.chit), Some(4));
    let amazon = &state.characters[0];
    assert_eq!(amazon.discoveries.routes.len(), 1);
    assert!(amazon.discoveries.sites.contains("Vault"));
    assert_eq!(state.victory_requirements["Amazon"].total(), 5);
}

/// A character's relationships moved for good, boons owed (3.1 7.6.5e.1)
/// and curses, as a file sets them.
#[test]
fn relationships_boons_and_curses_set_the_character() {
    let text = r#"
seed = 11
[[character]]
name = "White Knight"
relationships = { Order = -1, Scholar = 2 }
boons_owed = [{ group = "Order", price = 10 }]
curses = ["Disgust", "ill health"]
"#;
    let state = load(data(), "t.toml", text)
        .unwrap_or_else(|e| panic!("{e}"))
        .state;
    let knight = &state.characters[0];
    assert_eq!(knight.relationship_shift("Order"), -1);
    assert_eq!(knight.relationship_shift("Scholar"), 2);
    assert_eq!(
        knight.boons_owed,
        [crate::state::BoonOwed {
            group: "Order".into(),
            price: 10
        }]
    );
    let curses: Vec<&str> = knight.magic.curses.iter().map(|c| c.name()).collect();
    assert_eq!(curses, ["Ill Health", "Disgust"]);
}
