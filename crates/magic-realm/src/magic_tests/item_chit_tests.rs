//! Tests of Enhanced Artifacts and Spell Books (3.1 10.C.3): an item
//! enchanted into colour pays a cast's colour and is an artifact or book
//! again, casts nothing while it is colour, is expended at will, and loses
//! its colour when it leaves its owner.

use crate::rules::TOGGLES;
use crate::state::magic::{Aim, CastWith};
use crate::state::{Belonging, Item, ItemKind};
use crate::test_support::{data, test_game as game};
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;

use crate::data::terms::Colour;
use crate::day::victory;
use crate::magic::cast::{CastRequest, cast, check};
use crate::magic::effect::SpellEffect;
use crate::magic::{item_chit, spellbook};

use super::test_fixtures::{caster, request};

fn enhanced() -> Rules {
    Rules::new(["enhanced_artifacts"], TOGGLES).expect("a built toggle")
}

fn carry(state: &mut crate::state::MrState, who: usize, item: &str) {
    state.characters[who].belongings.push(Belonging {
        item: Item {
            kind: ItemKind::Treasure,
            name: item.into(),
        },
        active: true,
    });
}

/// 3.1 10.C.3.3-10.C.3.4: the Scroll of Nature (red numeral II) enchanted
/// into grey pays for Fog on a day without grey, and is a book again.
#[test]
fn a_coloured_book_pays_a_casts_colour_and_is_a_book_again_3_1_10_c_3_3() {
    let rules = enhanced();
    let mut state = game(&["Wizard"]);
    caster(&mut state, 0, "II", "Fog");
    carry(&mut state, 0, "Scroll of Nature");
    let tile = state.characters[0].position.tile.clone();
    let fog = request(0, "Fog", vec![Aim::Tile { code: tile }], 1);
    let err = check(&state, data(), &rules, &fog).expect_err("no grey on day 1");
    assert!(err.to_string().contains("needs grey magic"), "{err}");
    item_chit::enchant_item(&mut state, data(), &rules, 0, "scroll of nature", None)
        .expect("enchant");
    assert_eq!(
        item_chit::colour_of(&state, 0, "Scroll of Nature"),
        Some(Colour::Grey)
    );
    let effects = cast(&mut state, data(), &rules, &fog, &mut Dice::new(1, 1)).expect("cast");
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, SpellEffect::ColourItemPlayed { item, .. } if item == "Scroll of Nature")),
        "{effects:?}"
    );
    assert_eq!(item_chit::colour_of(&state, 0, "Scroll of Nature"), None);
}

/// 3.1 10.C.3.3: an item that is colour magic casts nothing until its
/// colour is expended, which its owner may do at will.
#[test]
fn a_coloured_artifact_casts_nothing_until_expended_3_1_10_c_3_3() {
    let rules = enhanced();
    let mut state = game(&["Amazon"]);
    carry(&mut state, 0, "Enchanter's Skull");
    state.characters[0].magic.spells.push("Fiery Blast".into());
    item_chit::enchant_item(&mut state, data(), &rules, 0, "Enchanter's Skull", None)
        .expect("enchant");
    let me = Aim::Character {
        name: "Amazon".into(),
    };
    let blast = CastRequest {
        with: CastWith::Treasure {
            name: "Enchanter's Skull".into(),
        },
        ..request(0, "Fiery Blast", vec![me], 21)
    };
    let err = check(&state, data(), &rules, &blast).expect_err("it is colour");
    assert!(err.to_string().contains("purple magic now"), "{err}");
    let event = item_chit::expend_at_will(&mut state, 0, "enchanter's skull").expect("expended");
    assert!(
        event.to_string().contains("expends the purple magic"),
        "{event}"
    );
    check(&state, data(), &rules, &blast).expect("an artifact again, it casts");
}

/// 3.1 10.C.3.3: the colour disappears when the item leaves its owner, and
/// does not come back when he takes it again.
#[test]
fn an_items_colour_is_gone_once_it_leaves_him_3_1_10_c_3_3() {
    let rules = enhanced();
    let mut state = game(&["Wizard"]);
    carry(&mut state, 0, "Good Book");
    item_chit::enchant_item(&mut state, data(), &rules, 0, "Good Book", None).expect("enchant");
    let book = state.characters[0].belongings.pop().expect("the book");
    item_chit::forget_departed(&mut state);
    state.characters[0].belongings.push(book);
    assert_eq!(item_chit::colour_of(&state, 0, "Good Book"), None);
}

/// 3.1 10.C.3.1: an artifact or book lets its owner record spells of its
/// red numeral's type though he has no MAGIC chit of it; such a spell
/// counts toward victory only while he has the item at the end.
#[test]
fn a_book_records_spells_of_its_numeral_that_count_only_with_it_3_1_10_c_3_1() {
    let mut state = game(&["Amazon"]);
    carry(&mut state, 0, "Book of Lore");
    let amazon = &mut state.characters[0];
    let err = spellbook::learn(data(), &Rules::default(), amazon, "Fiery Blast")
        .expect_err("the Amazon has no MAGIC chit");
    assert!(err.to_string().contains("type none"), "{err}");
    spellbook::learn(data(), &enhanced(), amazon, "Fiery Blast").expect("through the book");
    assert_eq!(
        amazon
            .magic
            .recorded_through
            .get("Fiery Blast")
            .map(String::as_str),
        Some("Book of Lore")
    );
    let spells = |state: &crate::state::MrState| {
        victory::score(data(), &enhanced(), state, &state.characters[0], None).spells
    };
    let with_book = spells(&state);
    state.characters[0]
        .belongings
        .retain(|b| b.item.name != "Book of Lore");
    assert_eq!((with_book, spells(&state)), (1, 0));
}

/// 3.1 10.C.3.2: the Spell cards awakened in an artifact or book he has at
/// the end count toward his victory when a MAGIC chit of his has their
/// type: the Wizard (MAGIC II, III, IV) counts Fog (II) in the Scroll of
/// Nature but not Make Whole (I) in the Good Book, nothing without the
/// rule (9.3.2b) or without the scroll, and a card whose spell he learned
/// too once.
#[test]
fn awakened_spell_cards_he_could_cast_count_for_victory_3_1_10_c_3_2() {
    let mut state = game(&["Wizard"]);
    carry(&mut state, 0, "Scroll of Nature");
    carry(&mut state, 0, "Good Book");
    let awakened = [("Scroll of Nature", "Fog"), ("Good Book", "Make Whole")];
    for (item, spell) in awakened {
        state
            .magic
            .awakened
            .insert(item.into(), [spell.to_string()].into());
    }
    let spells = |state: &crate::state::MrState, rules: &Rules| {
        victory::score(data(), rules, state, &state.characters[0], None).spells
    };
    assert_eq!(
        spells(&state, &Rules::default()),
        0,
        "a card is no spell learned"
    );
    assert_eq!(
        spells(&state, &enhanced()),
        1,
        "Fog counts, Make Whole does not"
    );
    state.characters[0].magic.spells.push("Fog".into());
    assert_eq!(
        spells(&state, &enhanced()),
        1,
        "Fog learned and awakened is one spell"
    );
    state.characters[0]
        .belongings
        .retain(|b| b.item.name != "Scroll of Nature");
    assert_eq!(spells(&state, &enhanced()), 1, "Fog learned still counts");
    state.characters[0].magic.spells.pop();
    assert_eq!(
        spells(&state, &enhanced()),
        0,
        "without the scroll its card is not his"
    );
}

/// An Enchant Artifact the Magician cast with his MAGIC VI4* has put
/// `spell` in his `item`, awake unless `inert`.
fn enchant_artifact(state: &mut crate::state::MrState, item: &str, spell: &str, inert: bool) {
    let index = state.characters[0]
        .chits
        .iter()
        .position(|c| c.chit == "MAGIC VI4*")
        .expect("the Magician's VI chit");
    let id = state.magic.next_id;
    state.magic.next_id += 1;
    state
        .magic
        .in_effect
        .push(crate::state::magic::SpellInEffect {
            id,
            spell: "Enchant Artifact".into(),
            caster: "Magician".into(),
            with: CastWith::Chit { index },
            targets: vec![
                Aim::Item {
                    holder: "Magician".into(),
                    item: item.into(),
                },
                Aim::KnownSpell { name: spell.into() },
            ],
            duration: crate::data::spells::Duration::Permanent,
            cast_on: 1,
            inert,
            held: false,
            detail: Some(spell.into()),
            untied: false,
        });
}

/// 3.1 10.C.3.4.1: an Enchant Artifact that put Fiery Blast (IV) in the
/// Good Book (printed I) adds a IV numeral while energized, so the book
/// can become purple as well as white; inert, it adds none.
#[test]
fn an_energized_enchant_artifact_adds_its_spells_colour_3_1_10_c_3_4_1() {
    let rules = enhanced();
    let mut state = game(&["Magician"]);
    carry(&mut state, 0, "Good Book");
    enchant_artifact(&mut state, "Good Book", "Fiery Blast", true);
    let err = item_chit::enchant_item(&mut state, data(), &rules, 0, "Good Book", Some("purple"))
        .expect_err("an inert Enchant Artifact adds no numeral");
    assert!(
        err.to_string()
            .contains("red numeral is I (printed, white)"),
        "{err}"
    );
    state.magic.in_effect[0].inert = false;
    let err = item_chit::enchant_item(&mut state, data(), &rules, 0, "Good Book", Some("mauve"))
        .expect_err("no colour");
    assert!(
        err.to_string().contains("'mauve' is no colour of magic"),
        "{err}"
    );
    let event = item_chit::enchant_item(&mut state, data(), &rules, 0, "Good Book", Some("Purple"))
        .expect("the added IV numeral");
    assert!(event.to_string().contains("into purple magic"), "{event}");
    let err = item_chit::enchant_item(&mut state, data(), &rules, 0, "Good Book", Some("white"))
        .expect_err("one colour at a time");
    assert!(err.to_string().contains("purple magic now"), "{err}");
    item_chit::expend_at_will(&mut state, 0, "Good Book").expect("expended");
    item_chit::enchant_item(&mut state, data(), &rules, 0, "Good Book", None).expect("enchant");
    assert_eq!(
        item_chit::colour_of(&state, 0, "Good Book"),
        Some(Colour::White)
    );
}

/// 3.1 10.C.3.4.2: at Midnight the colour an item took from an Enchant
/// Artifact numeral is expended; that of its printed numeral stays.
#[test]
fn colour_from_an_enchant_artifact_numeral_is_expended_at_midnight_3_1_10_c_3_4_2() {
    let rules = enhanced();
    let mut state = game(&["Magician"]);
    carry(&mut state, 0, "Good Book");
    carry(&mut state, 0, "Scroll of Nature");
    enchant_artifact(&mut state, "Good Book", "Fiery Blast", false);
    enchant_artifact(&mut state, "Scroll of Nature", "Fiery Blast", false);
    item_chit::enchant_item(&mut state, data(), &rules, 0, "Good Book", Some("purple"))
        .expect("the added numeral's purple");
    item_chit::enchant_item(&mut state, data(), &rules, 0, "Scroll of Nature", None)
        .expect("the printed numeral's grey");
    let faded = item_chit::expend_added_colours(&mut state, data());
    assert_eq!(faded.len(), 1, "{faded:?}");
    assert!(
        faded[0]
            .1
            .to_string()
            .contains("purple magic of the Good Book"),
        "{}",
        faded[0].1
    );
    assert_eq!(item_chit::colour_of(&state, 0, "Good Book"), None);
    assert_eq!(
        item_chit::colour_of(&state, 0, "Scroll of Nature"),
        Some(Colour::Grey)
    );
}
