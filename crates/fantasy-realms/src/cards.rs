//! The 53 Fantasy Realms cards as typed data (Fantasy Realms rulebook, "Overview" and the
//! card list), parsed from the embedded `cards.toml` and checked once.
//!
//! Every printed rule is a value of [`Bonus`] or [`Penalty`]: the common
//! shapes ("+N with X", "+N for each S", "blanks every S except X", "blanked
//! unless with S", clears) carry their parameters, and the cards whose rule is
//! unique (the wild cards, Book of Changes, Island, Necromancer, Gem of Order,
//! Collector, World Tree, ...) have a variant of their own that the scoring
//! code gives a small function.

use std::sync::OnceLock;

use serde::Deserialize;

use realmgm_core::embedded::{DataError, Source};

const FILE: &str = "fantasy_realms/cards.toml";
const CARD_COUNT: usize = 53;

/// A card's position in the deck (0-based, in `cards.toml` order).
pub type CardId = u8;

/// The ten suits, plus Wild for the three wild cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Suit {
    Army,
    Leader,
    Wizard,
    Weapon,
    Artifact,
    Beast,
    Land,
    Weather,
    Flood,
    Flame,
    Wild,
}

impl Suit {
    /// Every suit, Wild last.
    pub const ALL: [Suit; 11] = [
        Suit::Army,
        Suit::Leader,
        Suit::Wizard,
        Suit::Weapon,
        Suit::Artifact,
        Suit::Beast,
        Suit::Land,
        Suit::Weather,
        Suit::Flood,
        Suit::Flame,
        Suit::Wild,
    ];

    /// The ten suits a card can be given (Book of Changes).
    pub const TEN: [Suit; 10] = [
        Suit::Army,
        Suit::Leader,
        Suit::Wizard,
        Suit::Weapon,
        Suit::Artifact,
        Suit::Beast,
        Suit::Land,
        Suit::Weather,
        Suit::Flood,
        Suit::Flame,
    ];

    /// This suit as one bit of a suit set.
    pub fn bit(self) -> u16 {
        1 << self as u16
    }

    /// The word used in `cards.toml` and on the command line: `army`.
    pub fn word(self) -> &'static str {
        match self {
            Suit::Army => "army",
            Suit::Leader => "leader",
            Suit::Wizard => "wizard",
            Suit::Weapon => "weapon",
            Suit::Artifact => "artifact",
            Suit::Beast => "beast",
            Suit::Land => "land",
            Suit::Weather => "weather",
            Suit::Flood => "flood",
            Suit::Flame => "flame",
            Suit::Wild => "wild",
        }
    }

    /// The suit named by `word`, ignoring case (`Army`, `army`).
    pub fn from_word(word: &str) -> Option<Suit> {
        let word = word.trim().to_ascii_lowercase();
        Suit::ALL.into_iter().find(|suit| suit.word() == word)
    }

    /// The capitalised name for people: `Army`.
    pub fn title(self) -> &'static str {
        match self {
            Suit::Army => "Army",
            Suit::Leader => "Leader",
            Suit::Wizard => "Wizard",
            Suit::Weapon => "Weapon",
            Suit::Artifact => "Artifact",
            Suit::Beast => "Beast",
            Suit::Land => "Land",
            Suit::Weather => "Weather",
            Suit::Flood => "Flood",
            Suit::Flame => "Flame",
            Suit::Wild => "Wild",
        }
    }
}

/// A set of suits as bits (see [`Suit::bit`]).
pub type SuitSet = u16;

/// A set of card names as bits: bit `id` is the name of card `id`.
pub type NameSet = u64;

/// What a rule looks for: cards of some suits or with some names. In
/// `cards.toml` a list of words, where a lower-case suit word is a suit and
/// anything else is a card name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(try_from = "Vec<String>")]
pub struct Needs {
    pub suits: SuitSet,
    /// The card names as written; resolved into `name_set` when the deck loads.
    pub names: Vec<String>,
    pub name_set: NameSet,
}

/// A card name or a rule's suit word that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CardError {
    #[error("`{0}` is not a suit (card names start with a capital letter)")]
    NotASuit(String),
    #[error("there is no Fantasy Realms card named '{name}'{hint}")]
    Unknown { name: String, hint: String },
    #[error("{0} is listed twice; every card of the deck is unique")]
    Twice(String),
}

impl TryFrom<Vec<String>> for Needs {
    type Error = CardError;

    fn try_from(words: Vec<String>) -> Result<Self, CardError> {
        let mut needs = Needs::default();
        for word in words {
            if word.starts_with(|c: char| c.is_ascii_lowercase()) {
                let suit = Suit::from_word(&word).ok_or(CardError::NotASuit(word.clone()))?;
                needs.suits |= suit.bit();
            } else {
                needs.names.push(word);
            }
        }
        Ok(needs)
    }
}

impl Needs {
    /// Whether a card of `suit` named `name` is one of these, once the suits
    /// in `struck` have been struck out of the rule.
    pub fn matches(&self, suit: Suit, name: CardId, struck: SuitSet) -> bool {
        (self.suits & !struck) & suit.bit() != 0 || self.name_set & (1u64 << name) != 0
    }

    /// Whether striking `struck` leaves nothing to look for.
    pub fn is_empty_after(&self, struck: SuitSet) -> bool {
        self.suits & !struck == 0 && self.name_set == 0
    }
}

/// Every one of these groups must be matched by some other card ("with A and
/// with B or C" is `[[A], [B, C]]`).
pub type AllOf = Vec<Needs>;

/// Points by size: `[[3, 10], [4, 30]]` scores 10 for a group of 3, 30 for 4.
pub type SizeTable = Vec<(u8, i32)>;

/// A rule from a card's bonus text.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Bonus {
    /// `points` once when every group of `needs` is matched by another card.
    With { points: i32, needs: AllOf },
    /// `points` when no other card matches `absent`.
    Without { points: i32, absent: Needs },
    /// `points` for each card matching `of` (the card itself too, unless
    /// `other`), when `needs` (if any) holds.
    ForEach {
        points: i32,
        of: Needs,
        #[serde(default)]
        other: bool,
        #[serde(default)]
        needs: AllOf,
    },
    /// The best of several alternatives ("+5 ... OR +20 ...").
    BestOf { options: Vec<Bonus> },
    /// The highest base strength among the cards matching `of` (itself included).
    Strongest { of: Needs },
    /// The sum of the base strengths of the cards matching `of`.
    StrengthSum { of: Needs },
    /// Gem of Order: every run of consecutive base strengths scores by length.
    Runs { table: SizeTable },
    /// Collector: every suit scores by how many different names it holds.
    SuitSets { table: SizeTable },
    /// World Tree: `points` when no two unblanked cards share a suit.
    AllSuitsDiffer { points: i32 },
    /// Clears the whole penalty of every card of these suits.
    ClearPenalties { suits: Vec<Suit> },
    /// Protection Rune: clears every penalty.
    ClearAllPenalties,
    /// Strikes a suit word out of the penalties of every card (of `suits`, when given).
    StrikeWord {
        word: Suit,
        #[serde(default)]
        suits: Option<Vec<Suit>>,
    },
    /// Island: clears the penalty of one chosen card of these suits.
    ClearOnePenalty { suits: Vec<Suit> },
    /// Book of Changes: gives one other card a chosen suit.
    ChangeSuit,
    /// Doppelgänger: copies one other card of the hand, without its bonus.
    CopyFromHand,
    /// Mirage, Shapeshifter: takes the name and suit of a deck card of these suits.
    CopyFromGame { suits: Vec<Suit> },
    /// Necromancer: adds a discarded card of these suits as an eighth card.
    TakeFromDiscard { suits: Vec<Suit> },
}

/// A rule from a card's penalty text.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Penalty {
    /// `points` (negative) unless every group of `needs` is matched.
    UnlessWith { points: i32, needs: AllOf },
    /// `points` (negative) for each card matching `of`.
    ForEach {
        points: i32,
        of: Needs,
        #[serde(default)]
        other: bool,
    },
    /// Blanks every card of `suits` except the named ones (and itself, when `other`).
    Blanks {
        suits: Vec<Suit>,
        #[serde(default)]
        except: Needs,
        #[serde(default)]
        other: bool,
    },
    /// Wildfire: blanks every card that matches none of the exceptions.
    BlanksAllExcept { suits: Vec<Suit>, names: Needs },
    /// The card itself is blanked unless another card matches `needs`.
    BlankedUnless { needs: Needs },
    /// The card itself is blanked when another card matches `any`.
    BlankedWith { any: Needs },
}

/// One card as printed.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub name: String,
    pub suit: Suit,
    pub strength: i32,
    /// What the card does, in a sentence.
    pub text: String,
    #[serde(default)]
    pub bonus: Vec<Bonus>,
    #[serde(default)]
    pub penalty: Vec<Penalty>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CardsFile {
    card: Vec<Card>,
}

/// The whole deck, indexed by [`CardId`].
#[derive(Debug)]
pub struct Deck {
    pub cards: Vec<Card>,
}

impl Deck {
    pub fn card(&self, id: CardId) -> &Card {
        &self.cards[usize::from(id)]
    }

    /// Every card id in deck order.
    pub fn ids(&self) -> impl Iterator<Item = CardId> + '_ {
        (0..self.cards.len()).map(|i| i as CardId)
    }

    /// The id of the card with this exact name.
    pub fn id_of(&self, name: &str) -> Option<CardId> {
        self.cards
            .iter()
            .position(|c| c.name == name)
            .map(|i| i as CardId)
    }

    /// Find a card by name, ignoring case, accents and punctuation.
    ///
    /// # Errors
    /// No card has that name; the message suggests the closest names.
    pub fn find(&self, wanted: &str) -> Result<CardId, CardError> {
        let names = self.cards.iter().map(|c| c.name.as_str());
        match realmgm_core::suggest::find(wanted, names.clone()) {
            Some(name) => Ok(self.id_of(name).unwrap_or_default()),
            None => Err(CardError::Unknown {
                name: wanted.trim().to_string(),
                hint: realmgm_core::suggest::did_you_mean(wanted, names),
            }),
        }
    }

    /// Parse a comma-separated list of card names ("Mountain, Smoke").
    ///
    /// # Errors
    /// An unknown or repeated name.
    pub fn parse_list(&self, list: &str) -> Result<Vec<CardId>, CardError> {
        let mut ids = Vec::new();
        for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let id = self.find(part)?;
            if ids.contains(&id) {
                return Err(CardError::Twice(self.card(id).name.clone()));
            }
            ids.push(id);
        }
        Ok(ids)
    }

    /// The sets of card names the rules of `id` look at (its bonus and
    /// penalty), one set per rule part.
    pub fn rule_name_sets(&self, id: CardId) -> Vec<NameSet> {
        let card = self.card(id);
        let mut sets = Vec::new();
        for bonus in &card.bonus {
            visit_bonus_needs(bonus, &mut |needs| sets.push(needs.name_set));
        }
        for penalty in &card.penalty {
            visit_penalty_needs(penalty, &mut |needs| sets.push(needs.name_set));
        }
        sets.retain(|&set| set != 0);
        sets
    }

    /// The sets of suits the rules of `id` look at: suits to count, look for,
    /// clear, strike, blank or spare from blanking, one set per rule part.
    pub fn rule_suit_sets(&self, id: CardId) -> Vec<SuitSet> {
        let card = self.card(id);
        let mut sets = Vec::new();
        let bits = |suits: &[Suit]| suits.iter().fold(0, |acc, s| acc | s.bit());
        for bonus in &card.bonus {
            visit_bonus_needs(bonus, &mut |needs| sets.push(needs.suits));
            match bonus {
                Bonus::ClearPenalties { suits } | Bonus::ClearOnePenalty { suits } => {
                    sets.push(bits(suits));
                }
                Bonus::StrikeWord { word, suits } => {
                    sets.push(word.bit());
                    sets.extend(suits.as_deref().map(bits));
                }
                _ => {}
            }
        }
        for penalty in &card.penalty {
            visit_penalty_needs(penalty, &mut |needs| sets.push(needs.suits));
            if let Penalty::Blanks { suits, .. } | Penalty::BlanksAllExcept { suits, .. } = penalty
            {
                sets.push(bits(suits));
            }
        }
        sets.retain(|&set| set != 0);
        sets
    }
}

fn visit_bonus_needs(bonus: &Bonus, visit: &mut impl FnMut(&Needs)) {
    match bonus {
        Bonus::With { needs, .. } => needs.iter().for_each(&mut *visit),
        Bonus::Without { absent, .. } => visit(absent),
        Bonus::ForEach { of, needs, .. } => {
            visit(of);
            needs.iter().for_each(&mut *visit);
        }
        Bonus::BestOf { options } => options.iter().for_each(|o| visit_bonus_needs(o, visit)),
        Bonus::Strongest { of } | Bonus::StrengthSum { of } => visit(of),
        _ => {}
    }
}

fn visit_penalty_needs(penalty: &Penalty, visit: &mut impl FnMut(&Needs)) {
    match penalty {
        Penalty::UnlessWith { needs, .. } => needs.iter().for_each(&mut *visit),
        Penalty::ForEach { of, .. } => visit(of),
        Penalty::Blanks { except, .. } => visit(except),
        Penalty::BlanksAllExcept { names, .. } => visit(names),
        Penalty::BlankedUnless { needs } => visit(needs),
        Penalty::BlankedWith { any } => visit(any),
    }
}

fn visit_bonus_needs_mut(bonus: &mut Bonus, visit: &mut impl FnMut(&mut Needs)) {
    match bonus {
        Bonus::With { needs, .. } => needs.iter_mut().for_each(&mut *visit),
        Bonus::Without { absent, .. } => visit(absent),
        Bonus::ForEach { of, needs, .. } => {
            visit(of);
            needs.iter_mut().for_each(&mut *visit);
        }
        Bonus::BestOf { options } => {
            options
                .iter_mut()
                .for_each(|o| visit_bonus_needs_mut(o, visit));
        }
        Bonus::Strongest { of } | Bonus::StrengthSum { of } => visit(of),
        _ => {}
    }
}

fn visit_penalty_needs_mut(penalty: &mut Penalty, visit: &mut impl FnMut(&mut Needs)) {
    match penalty {
        Penalty::UnlessWith { needs, .. } => needs.iter_mut().for_each(&mut *visit),
        Penalty::ForEach { of, .. } => visit(of),
        Penalty::Blanks { except, .. } => visit(except),
        Penalty::BlanksAllExcept { names, .. } => visit(names),
        Penalty::BlankedUnless { needs } => visit(needs),
        Penalty::BlankedWith { any } => visit(any),
    }
}

/// Parse a cards file and check it.
///
/// # Errors
/// A syntax or shape error, a wrong card count, a repeated name, a rule naming
/// a card that does not exist, or a rule with impossible numbers.
pub fn parse(source: Source<'_>) -> Result<Deck, DataError> {
    let file: CardsFile = source.parse(FILE)?;
    let mut cards = file.card;
    if cards.len() != CARD_COUNT {
        return Err(DataError::file(
            FILE,
            format!(
                "the deck must have {CARD_COUNT} cards, found {}",
                cards.len()
            ),
        ));
    }
    let names: Vec<String> = cards.iter().map(|c| c.name.clone()).collect();
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(DataError::entry(
                FILE,
                format!("card \"{name}\""),
                "name",
                "is used twice",
            ));
        }
    }
    for card in &mut cards {
        let entry = format!("card \"{}\"", card.name);
        let mut problem = None;
        let mut resolve = |needs: &mut Needs| {
            for name in &needs.names {
                match names.iter().position(|n| n == name) {
                    Some(i) => needs.name_set |= 1u64 << i,
                    None if problem.is_none() => {
                        problem = Some(format!(
                            "names the card '{name}', which is not in the deck{}",
                            realmgm_core::suggest::did_you_mean(
                                name,
                                names.iter().map(String::as_str)
                            )
                        ));
                    }
                    None => {}
                }
            }
        };
        card.bonus
            .iter_mut()
            .for_each(|b| visit_bonus_needs_mut(b, &mut resolve));
        card.penalty
            .iter_mut()
            .for_each(|p| visit_penalty_needs_mut(p, &mut resolve));
        if let Some(problem) = problem {
            return Err(DataError::entry(FILE, entry, "bonus/penalty", problem));
        }
        check_card(card).map_err(|(field, msg)| DataError::entry(FILE, &entry, field, msg))?;
    }
    Ok(Deck { cards })
}

/// Checks serde cannot make: signs of points, strengths, where wild cards are.
fn check_card(card: &Card) -> Result<(), (&'static str, String)> {
    if !(0..=40).contains(&card.strength) {
        return Err(("strength", format!("{} is outside 0..=40", card.strength)));
    }
    if (card.suit == Suit::Wild) != card.bonus.iter().any(is_copy) {
        return Err((
            "suit",
            "only the cards that copy another card are wild".to_string(),
        ));
    }
    for penalty in &card.penalty {
        if let Penalty::UnlessWith { points, .. } | Penalty::ForEach { points, .. } = penalty
            && *points >= 0
        {
            return Err((
                "penalty",
                format!("a penalty of {points} points must be negative"),
            ));
        }
        if let Penalty::Blanks { suits, .. } | Penalty::BlanksAllExcept { suits, .. } = penalty
            && suits.is_empty()
        {
            return Err((
                "penalty",
                "a blanking rule must name at least one suit".to_string(),
            ));
        }
    }
    for bonus in &card.bonus {
        check_bonus(bonus)?;
    }
    Ok(())
}

fn is_copy(bonus: &Bonus) -> bool {
    matches!(bonus, Bonus::CopyFromHand | Bonus::CopyFromGame { .. })
}

fn check_bonus(bonus: &Bonus) -> Result<(), (&'static str, String)> {
    match bonus {
        Bonus::With { points, .. }
        | Bonus::Without { points, .. }
        | Bonus::ForEach { points, .. }
        | Bonus::AllSuitsDiffer { points }
            if *points <= 0 =>
        {
            Err((
                "bonus",
                format!("a bonus of {points} points must be positive"),
            ))
        }
        Bonus::BestOf { options } if options.is_empty() => {
            Err(("bonus", "`best_of` needs at least one option".to_string()))
        }
        Bonus::BestOf { options } => options.iter().try_for_each(check_bonus),
        Bonus::Runs { table } | Bonus::SuitSets { table }
            if table.is_empty() || table.windows(2).any(|w| w[0].0 >= w[1].0) =>
        {
            Err(("bonus", "a size table must list growing sizes".to_string()))
        }
        Bonus::CopyFromGame { suits } | Bonus::TakeFromDiscard { suits }
            if suits.contains(&Suit::Wild) =>
        {
            Err(("bonus", "wild cards cannot be copied or taken".to_string()))
        }
        _ => Ok(()),
    }
}

/// Parse and check the embedded deck.
///
/// # Errors
/// See [`parse`].
pub fn load() -> Result<Deck, DataError> {
    parse(realmgm_core::compiled!("cards"))
}

/// The embedded deck does not load: the one wording every caller shows, so
/// a broken build reads alike whichever command first needs the cards.
#[derive(Debug, thiserror::Error)]
#[error("the embedded Fantasy Realms cards are broken: {0}")]
pub struct DeckBroken(pub &'static DataError);

/// The embedded deck, loaded once.
///
/// # Errors
/// The embedded file is broken; only a bad build can do that, and the tests
/// load it, so a released binary never reports it.
pub fn deck() -> Result<&'static Deck, DeckBroken> {
    static DECK: OnceLock<Result<Deck, DataError>> = OnceLock::new();
    DECK.get_or_init(load).as_ref().map_err(DeckBroken)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deck() -> &'static Deck {
        super::deck().expect("the embedded deck loads")
    }

    /// The TOML as written passes every check and gives the very deck the
    /// program reads from the compiled form.
    #[test]
    fn the_toml_and_its_compiled_form_give_the_same_deck() {
        let from_toml = parse(Source::Toml(include_str!("cards.toml"))).expect("the TOML reads");
        assert_eq!(format!("{from_toml:?}"), format!("{:?}", deck()));
    }

    #[test]
    fn the_deck_has_53_unique_cards_and_resolved_names() {
        let deck = deck();
        assert_eq!(deck.cards.len(), 53);
        let mountain = deck.id_of("Mountain").expect("Mountain");
        let smoke = deck.id_of("Smoke").expect("Smoke");
        let wildfire = deck.id_of("Wildfire").expect("Wildfire");
        assert_eq!(
            deck.rule_name_sets(mountain),
            vec![1u64 << smoke, 1u64 << wildfire]
        );
        assert_eq!(
            deck.cards.iter().filter(|c| c.suit == Suit::Wild).count(),
            3
        );
    }

    #[test]
    fn lookup_ignores_accents_and_suggests_names() {
        let deck = deck();
        assert_eq!(deck.find("doppelganger").ok(), deck.id_of("Doppelgänger"));
        let err = deck.find("Wildfyre").expect_err("no such card");
        assert!(err.to_string().contains("did you mean Wildfire"), "{err}");
        let err = deck.parse_list("Smoke, smoke").expect_err("twice");
        assert!(err.to_string().contains("listed twice"), "{err}");
    }

    #[test]
    fn a_rule_naming_a_missing_card_is_reported() {
        let text = include_str!("cards.toml").replace("\"Wildfire\"]]", "\"Wildfyre\"]]");
        let err = parse(Source::Toml(&text))
            .expect_err("broken name")
            .to_string();
        assert!(
            err.contains("Mountain") && err.contains("did you mean Wildfire"),
            "{err}"
        );
    }

    #[test]
    fn unknown_fields_and_suits_are_reported_with_a_line() {
        let text = include_str!("cards.toml").replace("points = 50,", "points = 50, pionts = 1,");
        let err = parse(Source::Toml(&text))
            .expect_err("unknown field")
            .to_string();
        assert!(err.contains("line"), "{err}");
        let text = include_str!("cards.toml").replace("[\"flood\"] }", "[\"floods\"] }");
        assert!(parse(Source::Toml(&text)).is_err());
        let text = include_str!("cards.toml").replace("strength = 9\n", "strength = 90\n");
        assert!(
            parse(Source::Toml(&text))
                .expect_err("strength")
                .to_string()
                .contains("outside")
        );
    }

    #[test]
    fn rule_suit_sets_cover_rules_clears_and_blanks() {
        let deck = deck();
        let island = deck.id_of("Island").expect("Island");
        assert_eq!(
            deck.rule_suit_sets(island),
            vec![Suit::Flood.bit() | Suit::Flame.bit()]
        );
        let great_flood = deck.id_of("Great Flood").expect("Great Flood");
        assert_eq!(
            deck.rule_suit_sets(great_flood),
            vec![Suit::Army.bit(), Suit::Land.bit(), Suit::Flame.bit()]
        );
    }

    /// A broken file reads with the wording every command shows, naming
    /// the file's own problem after it.
    #[test]
    fn a_broken_deck_says_the_embedded_cards_are_broken() {
        let text = format!("{}\n[unclosed", include_str!("cards.toml"));
        let error = parse(Source::Toml(&text)).expect_err("mangled TOML");
        let detail = error.to_string();
        let message = DeckBroken(Box::leak(Box::new(error))).to_string();
        assert_eq!(
            message,
            format!("the embedded Fantasy Realms cards are broken: {detail}")
        );
    }
}
