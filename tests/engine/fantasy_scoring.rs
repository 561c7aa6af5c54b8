//! Fantasy Realms scoring: the rulebook's examples (Fantasy Realms rulebook), one hand for
//! every card's bonus, penalty, clear or blank, and properties checked over
//! many random hands.

use realmgm::dice::Dice;
use realmgm::fantasy_realms::best::best;
use realmgm::fantasy_realms::cards::{CardId, Deck, Suit, deck};
use realmgm::fantasy_realms::scoring::{Choices, Scored, score};

fn cards() -> &'static Deck {
    deck().expect("the embedded deck loads")
}

fn id(name: &str) -> CardId {
    cards().find(name).expect("a card of the deck")
}

fn ids(list: &str) -> Vec<CardId> {
    cards().parse_list(list).expect("known card names")
}

/// Choices written by card name.
#[derive(Default)]
struct Pick(Choices);

impl Pick {
    fn copy(mut self, wild: &str, target: &str) -> Self {
        self.0.copies.push((id(wild), id(target)));
        self
    }
    fn book(mut self, target: &str, suit: Suit) -> Self {
        self.0.book = Some((id(target), suit));
        self
    }
    fn island(mut self, target: &str) -> Self {
        self.0.island = Some(id(target));
        self
    }
    fn take(mut self, card: &str) -> Self {
        self.0.necromancer = Some(id(card));
        self
    }
}

fn scored(hand: &str, pick: Pick) -> Scored {
    score(cards(), &ids(hand), &pick.0).expect("a legal hand and choices")
}

fn total(hand: &str, pick: Pick) -> i32 {
    scored(hand, pick).total
}

/// The points of one card of the hand, and whether it is blanked.
fn card(hand: &str, pick: Pick, name: &str) -> (i32, bool) {
    let scored = scored(hand, pick);
    let line = scored
        .cards
        .iter()
        .find(|c| c.card == id(name))
        .expect("the card is in the hand");
    (line.points, line.blanked)
}

fn points(hand: &str, pick: Pick, name: &str) -> i32 {
    let (points, blanked) = card(hand, pick, name);
    assert!(!blanked, "{name} should not be blanked in {hand}");
    points
}

fn blanked(hand: &str, pick: Pick, name: &str) -> bool {
    card(hand, pick, name).1
}

fn none() -> Pick {
    Pick::default()
}

fn best_total(hand: &str, discard: &str) -> i32 {
    best(cards(), &ids(hand), &ids(discard))
        .expect("a legal hand")
        .scored
        .total
}

// ---- The rulebook's examples -------------------------------------------------

#[test]
fn rulebook_mirage_as_rainstorm_scores_260() {
    let hand = "Mountain, Great Flood, Wildfire, Smoke, Whirlwind, Air Elemental, Mirage";
    let pick = || none().copy("Mirage", "Rainstorm");
    assert_eq!(total(hand, pick()), 260);
    // The copy does not put out the Wildfire; the Mountain clears the Flood.
    assert_eq!(points(hand, pick(), "Wildfire"), 40);
    assert_eq!(points(hand, pick(), "Air Elemental"), 4 + 45);
    assert_eq!(points(hand, pick(), "Mountain"), 9 + 50);
    assert_eq!(best_total(hand, ""), 260);
}

#[test]
fn rulebook_highest_hand_scores_380_with_the_book_making_a_wizard() {
    let hand =
        "Bell Tower, Candle, Queen, Sword of Keth, Shield of Keth, Gem of Order, Book of Changes";
    assert_eq!(total(hand, none().book("Gem of Order", Suit::Wizard)), 380);
    // Changing a suit does not satisfy bonuses that name a card.
    assert_eq!(total(hand, none()), 380 - 100 - 15);
    assert_eq!(best_total(hand, ""), 380);
}

#[test]
fn rulebook_magic_wand_scores_its_wizard_bonus_once() {
    assert_eq!(
        points("Magic Wand, Collector, Necromancer", none(), "Magic Wand"),
        26
    );
}

#[test]
fn rulebook_chain_blizzard_great_flood_wildfire_cavern() {
    let hand = "Blizzard, Great Flood, Wildfire, Cavern";
    // The Cavern clears the Blizzard, so the Great Flood stands and blanks the
    // Wildfire and the Cavern; the Cavern's clear still counts.
    assert!(blanked(hand, none(), "Wildfire"));
    assert!(blanked(hand, none(), "Cavern"));
    assert_eq!(points(hand, none(), "Blizzard"), 30);
    assert_eq!(total(hand, none()), 30 + 32);
    // Without the Cavern the Blizzard blanks the Flood and the Wildfire burns.
    assert_eq!(
        total("Blizzard, Great Flood, Wildfire", none()),
        30 - 5 + 40
    );
}

#[test]
fn rulebook_doppelganger_copying_basilisk_blanks_both() {
    assert_eq!(
        total(
            "Basilisk, Doppelgänger",
            none().copy("Doppelgänger", "Basilisk")
        ),
        0
    );
}

#[test]
fn cycles_of_blanking_blank_every_card_in_them() {
    // Blizzard made a Beast: Wildfire blanks it, it blanks the Flood, the Flood
    // blanks the Wildfire.
    let hand = "Blizzard, Great Flood, Wildfire, Book of Changes";
    assert_eq!(total(hand, none().book("Blizzard", Suit::Beast)), 3);
}

#[test]
fn a_card_blanking_its_own_new_suit_blanks_itself() {
    let hand = "Wildfire, Book of Changes, Rainstorm, Blizzard";
    assert_eq!(total(hand, none().book("Blizzard", Suit::Flood)), 8 + 3);
}

#[test]
fn clears_follow_the_suit_the_book_gave() {
    // Warship strikes Army from the penalty of the Basilisk made a Flood.
    let hand = "Book of Changes, Warship, Basilisk, Knights";
    assert_eq!(
        total(hand, none().book("Basilisk", Suit::Flood)),
        3 + 23 + 35 + 12
    );
    // The Great Flood made a Wizard is no Flood: the Warship no longer helps.
    let hand = "Book of Changes, Warship, Fountain of Life, Great Flood, Elven Archers";
    assert_eq!(
        total(hand, none().book("Great Flood", Suit::Wizard)),
        3 + 23 + 24 + 32
    );
}

#[test]
fn self_blanking_waits_for_the_cards_it_looks_at() {
    // The War Dirigible is blanked by the Air Elemental, so the Warship has no Flood.
    let hand = "Book of Changes, Warship, War Dirigible, Light Cavalry, Air Elemental";
    let pick = || none().book("War Dirigible", Suit::Flood);
    assert!(blanked(hand, pick(), "War Dirigible"));
    assert!(blanked(hand, pick(), "Warship"));
    assert_eq!(total(hand, pick()), 3 + 17 + 4);
    // Smoke without a Flame is blanked, so it does not blank the Dirigible.
    assert_eq!(total("Knights, War Dirigible, Smoke", none()), 12 + 35);
    assert_eq!(total("Smoke, War Dirigible, Knights", none()), 12 + 35);
    // Smoke whose only Flame is blanked is blanked too.
    assert!(blanked("Smoke, Wildfire, Rainstorm", none(), "Smoke"));
}

#[test]
fn the_island_clears_even_when_blanked() {
    let hand = "Island, Blizzard, Wildfire, Basilisk";
    let pick = || none().island("Wildfire");
    assert!(blanked(hand, pick(), "Island"));
    assert_eq!(total(hand, pick()), 20 + 40 + 35);
}

#[test]
fn gem_of_order_scores_every_run_once() {
    let hand =
        "Elven Archers, King, Unicorn, Sword of Keth, Elven Longbow, Shield of Keth, Gem of Order";
    assert_eq!(points(hand, none(), "Gem of Order"), 5 + 10 + 30);
    // Equal strengths (Necromancer and Book, both 3) make no second run.
    let hand = "Bell Tower, Candle, Necromancer, Warhorse, Sword of Keth, Shield of Keth, Gem of Order, Book of Changes";
    assert_eq!(points(hand, none(), "Gem of Order"), 155);
    assert_eq!(total(hand, none().book("Bell Tower", Suit::Leader)), 397);
}

#[test]
fn the_worst_hand_with_explicit_choices() {
    let hand =
        "Necromancer, Warlock Lord, King, Queen, Warlord, Empress, Shapeshifter, Doppelgänger";
    let pick = none()
        .copy("Shapeshifter", "King")
        .copy("Doppelgänger", "Warlock Lord");
    assert_eq!(total(hand, pick), -74);
}

#[test]
fn illegal_choices_are_errors() {
    let deck = cards();
    let try_score = |hand: &str, pick: Pick| score(deck, &ids(hand), &pick.0);
    assert!(
        try_score(
            "Shapeshifter, Knights",
            none().copy("Shapeshifter", "Mountain")
        )
        .is_err()
    );
    assert!(try_score("Knights, Mountain", none().copy("Knights", "Mountain")).is_err());
    assert!(try_score("Doppelgänger, Knights", none().copy("Doppelgänger", "King")).is_err());
    assert!(
        try_score(
            "Book of Changes, Knights",
            none().book("Book of Changes", Suit::Army)
        )
        .is_err()
    );
    assert!(try_score("Island, Knights", none().island("Knights")).is_err());
    assert!(try_score("Necromancer, Knights", none().take("Mountain")).is_err());
    assert!(try_score("Knights", none().take("King")).is_err());
    let err = try_score("Island, Knights", none().island("Knights")).expect_err("not a flood");
    assert!(err.to_string().contains("Flood or a Flame"), "{err}");
}

// ---- One hand per card -------------------------------------------------------

#[test]
fn card_mountain() {
    assert_eq!(points("Mountain, Smoke, Wildfire", none(), "Mountain"), 59);
    assert_eq!(
        points("Mountain, Great Flood, Knights", none(), "Knights"),
        12
    );
}

#[test]
fn card_cavern() {
    assert_eq!(points("Cavern, Dragon, Blizzard", none(), "Cavern"), 31);
    assert_eq!(points("Cavern, Dragon, Blizzard", none(), "Blizzard"), 30);
}

#[test]
fn card_bell_tower() {
    assert_eq!(
        points("Bell Tower, Collector, Necromancer", none(), "Bell Tower"),
        23
    );
    assert_eq!(points("Bell Tower, Knights", none(), "Bell Tower"), 8);
}

#[test]
fn card_forest() {
    assert_eq!(
        points("Forest, Unicorn, Hydra, Elven Archers", none(), "Forest"),
        7 + 36
    );
}

#[test]
fn card_earth_elemental() {
    assert_eq!(
        points(
            "Earth Elemental, Mountain, Forest",
            none(),
            "Earth Elemental"
        ),
        34
    );
}

#[test]
fn card_fountain_of_life() {
    assert_eq!(
        points(
            "Fountain of Life, Swamp, Knights",
            none(),
            "Fountain of Life"
        ),
        19
    );
    assert_eq!(
        points("Fountain of Life, Knights", none(), "Fountain of Life"),
        2
    );
}

#[test]
fn card_swamp() {
    assert_eq!(points("Swamp, Knights, Candle", none(), "Swamp"), 12);
    assert_eq!(points("Swamp, Rangers, Candle", none(), "Swamp"), 15);
}

#[test]
fn card_great_flood() {
    // The real Mountain would clear the Flood; a Mirage named Mountain is spared.
    let hand = "Great Flood, Knights, Mirage, Forest, Lightning, Candle";
    let pick = || none().copy("Mirage", "Mountain");
    for name in ["Knights", "Forest", "Candle"] {
        assert!(blanked(hand, pick(), name), "{name}");
    }
    assert_eq!(points(hand, pick(), "Mirage"), 0);
    assert_eq!(points(hand, pick(), "Lightning"), 11);
    assert_eq!(total(hand, pick()), 32 + 11);
}

#[test]
fn card_island() {
    assert_eq!(
        points("Island, Swamp, Knights", none().island("Swamp"), "Swamp"),
        18
    );
    assert_eq!(points("Island, Swamp, Knights", none(), "Swamp"), 15);
}

#[test]
fn card_water_elemental() {
    assert_eq!(
        points("Water Elemental, Swamp, Island", none(), "Water Elemental"),
        34
    );
}

#[test]
fn card_rainstorm() {
    let hand = "Rainstorm, Swamp, Island, Candle, Lightning";
    assert_eq!(points(hand, none(), "Rainstorm"), 28);
    assert!(blanked(hand, none(), "Candle"));
    assert_eq!(points(hand, none(), "Lightning"), 41);
}

#[test]
fn card_blizzard() {
    let hand = "Blizzard, Swamp, Knights, King, Unicorn, Candle";
    assert!(blanked(hand, none(), "Swamp"));
    assert_eq!(points(hand, none(), "Blizzard"), 30 - 20);
}

#[test]
fn card_smoke() {
    assert!(blanked("Smoke, Knights", none(), "Smoke"));
    assert_eq!(points("Smoke, Candle", none(), "Smoke"), 27);
}

#[test]
fn card_whirlwind() {
    assert_eq!(
        points("Whirlwind, Rainstorm, Great Flood", none(), "Whirlwind"),
        53
    );
    assert_eq!(points("Whirlwind, Rainstorm", none(), "Whirlwind"), 13);
}

#[test]
fn card_air_elemental() {
    assert_eq!(
        points(
            "Air Elemental, Rainstorm, Whirlwind",
            none(),
            "Air Elemental"
        ),
        34
    );
}

#[test]
fn card_wildfire() {
    let hand = "Wildfire, Knights, Mountain, Unicorn, Forest, Collector";
    assert!(blanked(hand, none(), "Knights"));
    assert!(blanked(hand, none(), "Forest"));
    assert_eq!(points(hand, none(), "Unicorn"), 9);
    assert_eq!(points(hand, none(), "Wildfire"), 40);
}

#[test]
fn card_candle() {
    let hand = "Candle, Book of Changes, Bell Tower, Collector";
    assert_eq!(points(hand, none(), "Candle"), 102);
    assert_eq!(
        points("Candle, Book of Changes, Bell Tower", none(), "Candle"),
        2
    );
}

#[test]
fn card_forge() {
    let hand = "Forge, Sword of Keth, Shield of Keth, Gem of Order";
    assert_eq!(points(hand, none(), "Forge"), 36);
}

#[test]
fn card_lightning() {
    assert_eq!(points("Lightning, Rainstorm", none(), "Lightning"), 41);
}

#[test]
fn card_fire_elemental() {
    assert_eq!(
        points("Fire Elemental, Candle, Forge", none(), "Fire Elemental"),
        34
    );
}

#[test]
fn card_knights() {
    assert_eq!(points("Knights", none(), "Knights"), 12);
    assert_eq!(points("Knights, King", none(), "Knights"), 20);
}

#[test]
fn card_elven_archers() {
    assert_eq!(points("Elven Archers", none(), "Elven Archers"), 15);
    assert_eq!(
        points("Elven Archers, Rainstorm", none(), "Elven Archers"),
        10
    );
}

#[test]
fn card_light_cavalry() {
    assert_eq!(
        points("Light Cavalry, Mountain, Forest", none(), "Light Cavalry"),
        13
    );
}

#[test]
fn card_dwarvish_infantry() {
    assert_eq!(
        points(
            "Dwarvish Infantry, Knights, Light Cavalry",
            none(),
            "Dwarvish Infantry"
        ),
        11
    );
    assert_eq!(
        total(
            "Dwarvish Infantry, Doppelgänger",
            none().copy("Doppelgänger", "Dwarvish Infantry")
        ),
        26
    );
}

#[test]
fn card_rangers() {
    let hand = "Rangers, Mountain, Forest, Dwarvish Infantry, Knights";
    assert_eq!(points(hand, none(), "Rangers"), 25);
    assert_eq!(points(hand, none(), "Dwarvish Infantry"), 15);
    // The Rangers made a Land count themselves, and still strike Army.
    let hand = "Book of Changes, War Dirigible, Rangers";
    assert_eq!(total(hand, none().book("Rangers", Suit::Land)), 3 + 35 + 15);
}

#[test]
fn card_collector() {
    let hand = "Collector, Beastmaster, Enchantress, Unicorn, Warhorse, Dragon, Hydra";
    assert_eq!(points(hand, none(), "Collector"), 7 + 10 + 40);
    assert_eq!(total(hand, none()), 193);
    // Copies share a name, so they are not different cards.
    let hand = "Collector, Shield of Keth, Gem of Order, Shapeshifter, Doppelgänger";
    let pick = none()
        .copy("Shapeshifter", "Shield of Keth")
        .copy("Doppelgänger", "Shield of Keth");
    assert_eq!(total(hand, pick), 20);
}

#[test]
fn card_beastmaster() {
    let hand = "Beastmaster, Basilisk, Knights";
    assert_eq!(points(hand, none(), "Beastmaster"), 18);
    assert_eq!(points(hand, none(), "Knights"), 12);
}

#[test]
fn card_necromancer() {
    let pick = || none().take("Warhorse");
    assert_eq!(points("Necromancer, Knights", pick(), "Warhorse"), 20);
    assert_eq!(total("Necromancer, Knights", pick()), 3 + 12 + 20);
    assert_eq!(
        best_total("Necromancer, Knights", "Mountain, Warhorse, King"),
        36
    );
}

#[test]
fn card_warlock_lord() {
    assert_eq!(
        points(
            "Warlock Lord, King, Collector, Necromancer",
            none(),
            "Warlock Lord"
        ),
        -5
    );
}

#[test]
fn card_enchantress() {
    let hand = "Enchantress, Mountain, Rainstorm, Swamp, Lightning";
    assert_eq!(points(hand, none(), "Enchantress"), 25);
}

#[test]
fn card_king() {
    assert_eq!(points("King, Knights, Elven Archers", none(), "King"), 18);
    assert_eq!(
        points("King, Queen, Knights, Elven Archers", none(), "King"),
        48
    );
}

#[test]
fn card_queen() {
    assert_eq!(points("Queen, Knights", none(), "Queen"), 11);
    assert_eq!(points("Queen, King, Knights", none(), "Queen"), 26);
}

#[test]
fn card_princess() {
    assert_eq!(
        points("Princess, Knights, Collector, King", none(), "Princess"),
        26
    );
}

#[test]
fn card_warlord() {
    assert_eq!(
        points("Warlord, Knights, Light Cavalry", none(), "Warlord"),
        41
    );
}

#[test]
fn card_empress() {
    assert_eq!(
        points("Empress, Knights, King, Queen", none(), "Empress"),
        15
    );
}

#[test]
fn card_unicorn() {
    assert_eq!(points("Unicorn, Princess, Queen", none(), "Unicorn"), 39);
    assert_eq!(points("Unicorn, Queen", none(), "Unicorn"), 24);
}

#[test]
fn card_basilisk() {
    let hand = "Basilisk, Knights, King, Unicorn, Dragon";
    for name in ["Knights", "King", "Unicorn", "Dragon"] {
        assert!(blanked(hand, none(), name), "{name}");
    }
    assert_eq!(total(hand, none()), 35);
}

#[test]
fn card_warhorse() {
    assert_eq!(points("Warhorse, Collector", none(), "Warhorse"), 20);
    assert_eq!(points("Warhorse", none(), "Warhorse"), 6);
}

#[test]
fn card_dragon() {
    assert_eq!(points("Dragon", none(), "Dragon"), -10);
    assert_eq!(points("Dragon, Collector", none(), "Dragon"), 30);
}

#[test]
fn card_hydra() {
    assert_eq!(points("Hydra, Swamp", none(), "Hydra"), 40);
}

#[test]
fn card_warship() {
    assert_eq!(points("Warship, Swamp, Knights", none(), "Swamp"), 18);
    assert_eq!(points("Warship, Swamp, Knights", none(), "Warship"), 23);
    assert!(blanked("Warship, Knights", none(), "Warship"));
}

#[test]
fn card_magic_wand() {
    assert_eq!(points("Magic Wand, Knights", none(), "Magic Wand"), 1);
    assert_eq!(points("Magic Wand, Collector", none(), "Magic Wand"), 26);
}

#[test]
fn card_sword_of_keth() {
    assert_eq!(points("Sword of Keth, King", none(), "Sword of Keth"), 17);
    assert_eq!(
        points(
            "Sword of Keth, King, Shield of Keth",
            none(),
            "Sword of Keth"
        ),
        47
    );
}

#[test]
fn card_elven_longbow() {
    assert_eq!(
        points("Elven Longbow, Warlord", none(), "Elven Longbow"),
        33
    );
}

#[test]
fn card_war_dirigible() {
    assert_eq!(
        points("War Dirigible, Knights", none(), "War Dirigible"),
        35
    );
    assert!(blanked(
        "War Dirigible, Knights, Rainstorm",
        none(),
        "War Dirigible"
    ));
    assert!(blanked("War Dirigible, Mountain", none(), "War Dirigible"));
    // Struck Army: the Dirigible made a Flood no longer needs an Army.
    let hand = "Book of Changes, Warship, War Dirigible";
    assert_eq!(
        total(hand, none().book("War Dirigible", Suit::Flood)),
        3 + 23 + 35
    );
}

#[test]
fn card_shield_of_keth() {
    assert_eq!(
        points("Shield of Keth, Queen", none(), "Shield of Keth"),
        19
    );
    assert_eq!(
        points(
            "Shield of Keth, Queen, Sword of Keth",
            none(),
            "Shield of Keth"
        ),
        44
    );
}

#[test]
fn card_gem_of_order() {
    assert_eq!(
        points(
            "Gem of Order, Book of Changes, Shield of Keth",
            none(),
            "Gem of Order"
        ),
        15
    );
    assert_eq!(points("Gem of Order, Knights", none(), "Gem of Order"), 5);
}

#[test]
fn card_world_tree() {
    assert_eq!(
        points("World Tree, Knights, King, Collector", none(), "World Tree"),
        52
    );
    assert_eq!(
        points("World Tree, Knights, Rangers", none(), "World Tree"),
        2
    );
    // Blanked cards do not spoil it.
    let hand = "World Tree, Great Flood, Knights, Light Cavalry";
    assert_eq!(points(hand, none(), "World Tree"), 52);
}

#[test]
fn card_book_of_changes() {
    let hand = "Book of Changes, Bell Tower, Knights";
    assert_eq!(
        points(hand, none().book("Knights", Suit::Wizard), "Bell Tower"),
        23
    );
    assert_eq!(best_total(hand, ""), 3 + 23 + 12);
}

#[test]
fn card_protection_rune() {
    let hand = "Protection Rune, Dragon, Basilisk, Knights";
    assert_eq!(total(hand, none()), 1 + 30 + 35 + 20);
}

#[test]
fn card_shapeshifter() {
    let pick = || none().copy("Shapeshifter", "Collector");
    assert_eq!(points("Shapeshifter, Bell Tower", pick(), "Bell Tower"), 23);
    assert_eq!(
        points("Shapeshifter, Bell Tower", pick(), "Shapeshifter"),
        0
    );
    let line = scored("Shapeshifter, Bell Tower", pick()).cards[0].clone();
    assert_eq!(line.chosen.as_deref(), Some("Collector"));
}

#[test]
fn card_mirage() {
    let pick = || none().copy("Mirage", "Rainstorm");
    assert_eq!(points("Mirage, Lightning", pick(), "Lightning"), 41);
    // The copy takes no penalty: Candle is not blanked.
    assert_eq!(points("Mirage, Candle", pick(), "Candle"), 2);
}

#[test]
fn card_doppelganger() {
    let pick = || none().copy("Doppelgänger", "Water Elemental");
    assert_eq!(total("Doppelgänger, Water Elemental", pick()), 19 + 4);
    // It copies the penalty but not the bonus.
    let pick = || none().copy("Doppelgänger", "Empress");
    assert_eq!(
        points("Doppelgänger, Empress, Knights", pick(), "Doppelgänger"),
        15 - 5
    );
}

// ---- Properties over random hands --------------------------------------------

fn random_hand(dice: &mut Dice, round: u32, size: usize) -> Vec<CardId> {
    let mut all: Vec<CardId> = cards().ids().collect();
    dice.shuffle(&format!("fantasy/hand/{round}"), &mut all);
    all.truncate(size);
    all
}

#[test]
fn the_score_does_not_depend_on_card_order() {
    let deck = cards();
    let mut dice = Dice::new(20_261_122, 1);
    for round in 0..300 {
        let hand = random_hand(&mut dice, round, 7);
        let mut shuffled = hand.clone();
        dice.shuffle(&format!("fantasy/order/{round}"), &mut shuffled);
        let a = score(deck, &hand, &Choices::default()).expect("legal");
        let b = score(deck, &shuffled, &Choices::default()).expect("legal");
        assert_eq!(a.total, b.total, "{hand:?} vs {shuffled:?}");
        for line in &a.cards {
            let other = b
                .cards
                .iter()
                .find(|l| l.card == line.card)
                .expect("same cards");
            assert_eq!(
                (line.points, line.blanked),
                (other.points, other.blanked),
                "{}",
                line.name
            );
        }
        let best_a = best(deck, &hand, &[]).expect("legal").scored;
        let best_b = best(deck, &shuffled, &[]).expect("legal").scored;
        assert_eq!(
            (best_a.total, best_a.base_strength),
            (best_b.total, best_b.base_strength)
        );
    }
}

/// A random legal set of choices for `hand`.
fn random_choices(dice: &mut Dice, round: u32, hand: &[CardId]) -> Choices {
    let deck = cards();
    let name = |id: CardId| deck.card(id).name.as_str();
    let mut choices = Choices::default();
    let mut below =
        |what: &str, n: usize| dice.below(&format!("fantasy/{what}/{round}"), n as u32) as usize;
    for &card in hand {
        match name(card) {
            "Doppelgänger" => {
                let others: Vec<CardId> = hand.iter().copied().filter(|&c| c != card).collect();
                choices
                    .copies
                    .push((card, others[below("doppelganger", others.len())]));
            }
            "Mirage" | "Shapeshifter" => {
                let suits: &[Suit] = if name(card) == "Mirage" {
                    &[
                        Suit::Army,
                        Suit::Land,
                        Suit::Weather,
                        Suit::Flood,
                        Suit::Flame,
                    ]
                } else {
                    &[
                        Suit::Artifact,
                        Suit::Leader,
                        Suit::Wizard,
                        Suit::Weapon,
                        Suit::Beast,
                    ]
                };
                let options: Vec<CardId> = deck
                    .ids()
                    .filter(|&c| suits.contains(&deck.card(c).suit))
                    .collect();
                choices
                    .copies
                    .push((card, options[below("copy", options.len())]));
            }
            "Book of Changes" => {
                let others: Vec<CardId> = hand.iter().copied().filter(|&c| c != card).collect();
                let target = others[below("book", others.len())];
                choices.book = Some((target, Suit::TEN[below("suit", 10)]));
            }
            _ => {}
        }
    }
    choices
}

#[test]
fn the_best_score_beats_every_explicit_choice_tried() {
    let deck = cards();
    let mut dice = Dice::new(7_531, 1);
    let wild = ids("Doppelgänger, Mirage, Shapeshifter, Book of Changes, Island");
    for round in 0..150 {
        let mut hand = random_hand(&mut dice, round, 4);
        hand.retain(|c| !wild.contains(c));
        let extra = below_two(&mut dice, round);
        hand.extend(wild.iter().copied().skip(extra).take(3));
        let found = best(deck, &hand, &[]).expect("legal").scored;
        for attempt in 0..20 {
            let choices = random_choices(&mut dice, round * 100 + attempt, &hand);
            let Ok(tried) = score(deck, &hand, &choices) else {
                continue;
            };
            assert!(
                found.total >= tried.total,
                "best {} < {} with {choices:?} for {hand:?}",
                found.total,
                tried.total
            );
        }
        let rescored = score(deck, &hand, &found.choices).expect("the best choices are legal");
        assert_eq!(rescored.total, found.total);
    }
}

fn below_two(dice: &mut Dice, round: u32) -> usize {
    dice.below(&format!("fantasy/wild-set/{round}"), 3) as usize
}

#[test]
fn the_worst_hand_is_searched_with_few_evaluations() {
    let deck = cards();
    let wild = ids("Doppelgänger, Mirage, Shapeshifter, Book of Changes, Island");
    let mut most = (0, Vec::new());
    let others: Vec<CardId> = deck.ids().filter(|c| !wild.contains(c)).collect();
    for (i, &a) in others.iter().enumerate() {
        for &b in &others[i + 1..] {
            let mut hand = wild.clone();
            hand.extend([a, b]);
            let found = best(deck, &hand, &[]).expect("legal");
            if found.evaluated > most.0 {
                most = (found.evaluated, hand);
            }
        }
    }
    let names: Vec<&str> = most.1.iter().map(|&c| deck.card(c).name.as_str()).collect();
    eprintln!(
        "most combinations scored for one hand: {} ({names:?})",
        most.0
    );
    assert!(most.0 < 10_000, "{} evaluations for {names:?}", most.0);
}
