//! Tests of the spells a character knows: recorded at setup, the 14-spell
//! limit, learning from books, Reading Runes and Perceive Spell.

use crate::day::events::Happening;
use crate::day::{Day, PhaseOutcome};
use crate::setup::{SetupInputs, new_game};
use crate::tables::magic::CurseKind;
use crate::test_support::{data, test_game as game};
use realmgm_core::dice::Dice;
use realmgm_core::game::{Rules, Seat};

use crate::magic::events::MagicEvent;
use crate::magic::{curses, spellbook};

use super::test_fixtures::{read, with_book};

#[test]
fn setup_records_each_allowance_of_the_right_types() {
    let state = game(&["Wizard", "Witch King", "Amazon"]);
    for c in &state.characters {
        let card = data().characters.iter().find(|d| d.name == c.name).unwrap();
        assert_eq!(c.magic.spells.len(), usize::from(card.spells), "{}", c.name);
        for s in &c.magic.spells {
            let spell = spellbook::find_spell(data(), s).unwrap();
            assert!(card.spell_types().contains(&spell.spell_type.unwrap()));
        }
    }
}

#[test]
fn recording_too_many_or_the_wrong_type_is_refused() {
    let mut state = game(&["Wizard"]);
    let c = &mut state.characters[0];
    c.magic.spells.clear();
    let three: Vec<String> = ["Fog", "Fiery Blast", "Elven Grace"]
        .map(String::from)
        .into();
    let err = spellbook::record_starting(data(), c, &three).unwrap_err();
    assert!(
        err.to_string()
            .contains("may record 2 spells at the start, and 3 were given"),
        "{err}"
    );
    let err = spellbook::record_starting(data(), c, &["Curse".to_string()]).unwrap_err();
    assert!(err.to_string().contains("type V spell"), "{err}");
    let err = spellbook::record_starting(data(), c, &["Fogg".to_string()]).unwrap_err();
    assert!(err.to_string().contains("Fog"), "{err}");
    spellbook::record_starting(data(), c, &["Fog".to_string(), "Fiery Blast".to_string()]).unwrap();
    assert_eq!(c.magic.spells, ["Fog", "Fiery Blast"]);
    // A character of one spell is told so in the singular.
    let mut state = game(&["Pilgrim"]);
    let c = &mut state.characters[0];
    c.magic.spells.clear();
    let two = ["Fog".to_string(), "Prayer".to_string()];
    let err = spellbook::record_starting(data(), c, &two).unwrap_err();
    assert!(
        err.to_string()
            .contains("may record 1 spell at the start, and 2 were given"),
        "{err}"
    );
}

#[test]
fn the_player_choice_at_setup_is_kept() {
    let inputs = SetupInputs {
        spells: [("Wizard".to_string(), vec!["Fog".to_string()])].into(),
        ..SetupInputs::default()
    };
    let seats = [Seat {
        player: "p".into(),
        role: Some("Wizard".into()),
    }];
    let state = new_game(
        data(),
        &seats,
        &Rules::default(),
        &inputs,
        &mut Dice::new(1, 0),
    )
    .unwrap();
    assert_eq!(state.characters[0].magic.spells, ["Fog"]);
    let bad = SetupInputs {
        spells: [("Amazon".to_string(), vec!["Fog".to_string()])].into(),
        ..SetupInputs::default()
    };
    assert!(
        new_game(
            data(),
            &seats,
            &Rules::default(),
            &bad,
            &mut Dice::new(1, 0)
        )
        .is_err()
    );
}

#[test]
fn no_more_than_fourteen_spells() {
    let mut state = game(&["Magician"]);
    let c = &mut state.characters[0];
    c.magic.spells = (0..14).map(|i| format!("spell {i}")).collect();
    let err = spellbook::learn(data(), &Rules::default(), c, "Fog").unwrap_err();
    assert!(err.to_string().contains("14"), "{err}");
}

#[test]
fn reading_runes_learns_awakens_or_curses() {
    let mut state = game(&["Wizard"]);
    state.characters[0].magic.spells.clear();
    with_book(&mut state, 0, "Book of Lore", "Fiery Blast");
    let (outcome, _) = read(&mut state, &[&[1]]);
    assert_eq!(outcome, PhaseOutcome::Done);
    assert_eq!(state.characters[0].magic.spells, ["Fiery Blast"]);
    assert!(state.magic.awakened["Book of Lore"].contains("Fiery Blast"));

    let mut state = game(&["Wizard"]);
    state.characters[0].magic.spells.clear();
    with_book(&mut state, 0, "Book of Lore", "Fiery Blast");
    read(&mut state, &[&[4]]);
    assert!(state.characters[0].magic.spells.is_empty());
    assert!(state.magic.awakened["Book of Lore"].contains("Fiery Blast"));

    let mut state = game(&["Wizard"]);
    state.characters[0].magic.spells.clear();
    with_book(&mut state, 0, "Book of Lore", "Fiery Blast");
    let (_, events) = read(&mut state, &[&[5], &[1]]);
    assert!(
        events.iter().any(|e| matches!(
            e,
            Happening::Magic(MagicEvent::Cursed {
                curse: CurseKind::Eyemist,
                ..
            })
        )),
        "{events:?}"
    );
    assert!(curses::has(&state.characters[0], CurseKind::Eyemist));
}

/// 3.1 4.6.6b: a type VII Spell card in the Good Book (type I) awakens
/// when its runes are read, and the reader is told the book cannot cast
/// it; its type I cards awaken with no such word.
#[test]
fn reading_runes_awakens_a_card_its_book_cannot_cast_and_says_so() {
    let awakened = |spell: &str| {
        let mut state = game(&["Wizard"]);
        state.characters[0].magic.spells.clear();
        with_book(&mut state, 0, "Good Book", spell);
        let (_, events) = read(&mut state, &[&[4]]);
        assert!(state.magic.awakened["Good Book"].contains(spell));
        events
            .iter()
            .find_map(|e| match e {
                Happening::Magic(e @ MagicEvent::Awakened { .. }) => Some(e.to_string()),
                _ => None,
            })
            .expect("an awakening")
    };
    assert_eq!(
        awakened("Control Bats").trim(),
        "Control Bats awakens in Good Book, which cannot cast it: Control Bats is type VII and \
         the Good Book casts only type I spells (the red numeral on its card, 3.1 4.6.6b)"
    );
    assert_eq!(awakened("Peace").trim(), "Peace awakens in Good Book");
}

#[test]
fn reading_runes_without_runes_is_lost() {
    let mut state = game(&["Wizard"]);
    let (outcome, _) = read(&mut state, &[&[1]]);
    assert!(matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("no runes")));
}

#[test]
fn perceive_spell_learns_without_awakening() {
    let mut state = game(&["Wizard"]);
    state.characters[0].magic.spells.clear();
    with_book(&mut state, 0, "Book of Lore", "Fiery Blast");
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    crate::day::runes::perceive(&mut day, 0);
    assert_eq!(day.state.characters[0].magic.spells, ["Fiery Blast"]);
    assert!(day.state.magic.awakened.is_empty());
}

/// 3.1 7.5.6: anyone may read the runes at a discovered site in his
/// clearing, MAGIC chit or not; he reads the top Spell card, which goes to
/// the bottom of the pile only when awakened, and a "learn" result records
/// it only with a MAGIC chit of its type.
#[test]
fn reading_runes_at_a_site_needs_no_chit_and_reads_the_top_card_3_1_7_5_6() {
    use crate::state::{Item, ItemKind};
    let mut state = game(&["Amazon"]);
    let site = crate::test_support::place_site(&mut state, true, "Shrine");
    state.characters[0].position = site;
    state.characters[0]
        .discoveries
        .sites
        .insert("Shrine".to_string());
    let spell = |name: &str| Item {
        kind: ItemKind::Spell,
        name: name.into(),
    };
    state
        .holdings
        .insert("Shrine".into(), vec![spell("Fog"), spell("Peace")]);
    let read_card = |events: &[Happening]| {
        events.iter().find_map(|e| match e {
            Happening::Magic(MagicEvent::Read { spell, .. }) => Some(spell.clone()),
            _ => None,
        })
    };
    let (outcome, events) = read(&mut state, &[&[6]]);
    assert_eq!(outcome, PhaseOutcome::Done, "{events:?}");
    assert_eq!(read_card(&events).as_deref(), Some("Fog"));
    assert_eq!(
        state.holdings["Shrine"][0],
        spell("Fog"),
        "not awakened, it stays on top"
    );
    let (_, events) = read(&mut state, &[&[1]]);
    assert_eq!(read_card(&events).as_deref(), Some("Fog"));
    assert!(
        state.characters[0].magic.spells.is_empty(),
        "no MAGIC chit of its type"
    );
    assert_eq!(
        state.holdings["Shrine"],
        [spell("Peace"), spell("Fog")],
        "awakened, it goes to the bottom"
    );
}
