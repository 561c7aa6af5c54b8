//! Cross-check of the Fantasy Realms deck (`cards.toml`) against the
//! reference card list: every name, suit and base strength. Skipped (with a
//! SKIPPED line) when the reference folder is not there.

use crate::common;

use realmgm::fantasy_realms::cards::deck;

#[test]
fn cards_match_the_reference_names_suits_and_strengths() {
    let Some(reference) = common::reference_json("fantasy-realms/cards.json") else {
        return;
    };
    let deck = deck().expect("the embedded deck loads");
    let cards = reference["cards"].as_array().expect("a cards array");
    assert_eq!(cards.len(), deck.cards.len(), "card count");
    for (number, entry) in cards.iter().enumerate() {
        let name = entry["name"].as_str().expect("a name");
        let ours = &deck.cards[number];
        assert_eq!(ours.name, name, "card number {}", number + 1);
        assert_eq!(
            Some(ours.suit.word()),
            entry["suit"].as_str(),
            "suit of {name}"
        );
        assert_eq!(
            Some(i64::from(ours.strength)),
            entry["base_strength"].as_i64(),
            "base strength of {name}"
        );
    }
}
