//! The choices that score a Fantasy Realms hand best (seed 004: the player
//! decides the wild cards, the Book of Changes, the Island and the
//! Necromancer's card; "in case of a tie, the hand with the lowest total base
//! strength wins").
//!
//! Enumerating blindly is slow: a hand with the Doppelgänger, Mirage,
//! Shapeshifter, Book of Changes and Island has about two million
//! combinations. Most of them cannot differ, so the search only tries
//! choices that some rule of the hand can tell apart:
//!
//! - a suit that no rule of the hand names is as good as any other such suit;
//!   only when Collector or World Tree is in the hand do suits already held
//!   count apart from fresh ones;
//! - a card name that no rule of the hand names is as good as any other such
//!   name of the same suit; only Collector (different names) tells a name
//!   already held apart from a fresh one;
//! - Doppelgänger copies that give the same suit, strength, penalty and (where
//!   it matters) name are tried once;
//! - the Island only tries cards that have a penalty to clear.
//!
//! Ties go to the lower base strength, then to the first choice tried (no
//! choice before any choice), so the answer is deterministic.

use super::cards::{Bonus, CardId, Deck, NameSet, Suit, SuitSet};
use super::scoring::{self, Choices, Live, MAX_HAND, ScoreError, Scored};

/// The best score of a hand and how many choice combinations were scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Best {
    pub scored: Scored,
    pub evaluated: usize,
}

/// Find the choices that give `hand` its highest total; `discard` is the
/// discard area the Necromancer may take an eighth card from.
///
/// # Errors
/// The hand itself breaks the rules (a repeated card, too many cards), or the
/// discard area holds a card of the hand.
pub fn best(deck: &Deck, hand: &[CardId], discard: &[CardId]) -> Result<Best, ScoreError> {
    scoring::score_plain(deck, hand)?;
    if let Some(&both) = discard.iter().find(|id| hand.contains(id)) {
        return Err(ScoreError(format!(
            "{} cannot be both in the hand and in the discard area",
            deck.card(both).name
        )));
    }
    let mut picks: Vec<Option<CardId>> = vec![None];
    let necromancer = hand.iter().find_map(|&id| {
        deck.card(id).bonus.iter().find_map(|b| match b {
            Bonus::TakeFromDiscard { suits } => Some(suits),
            _ => None,
        })
    });
    if let Some(suits) = necromancer.filter(|_| hand.len() < MAX_HAND) {
        let mut seen = Vec::new();
        for &id in discard {
            if suits.contains(&deck.card(id).suit) && !seen.contains(&id) {
                seen.push(id);
                picks.push(Some(id));
            }
        }
    }
    let mut found: Option<Found> = None;
    let mut evaluated = 0;
    for pick in picks {
        let mut cards = hand.to_vec();
        cards.extend(pick);
        let mut search = Search::new(deck, &cards, pick);
        search.run();
        evaluated += search.evaluated;
        if let Some(candidate) = search.best
            && found.as_ref().is_none_or(|f| candidate.beats(f))
        {
            found = Some(candidate);
        }
    }
    let Some(found) = found else {
        return Err(ScoreError("the hand could not be scored".to_string()));
    };
    let scored = scoring::score(deck, hand, &found.choices)?;
    Ok(Best { scored, evaluated })
}

#[derive(Clone, Debug)]
struct Found {
    total: i32,
    base_strength: i32,
    choices: Choices,
}

impl Found {
    fn beats(&self, other: &Found) -> bool {
        (self.total, -self.base_strength) > (other.total, -other.base_strength)
    }
}

/// A wild card that takes an identity from the deck, and the suits it may copy.
struct GameCopy<'a> {
    at: usize,
    suits: &'a [Suit],
}

struct Search<'a> {
    deck: &'a Deck,
    lives: Vec<Live>,
    pick: Option<CardId>,
    doppelganger: Option<usize>,
    game_copies: Vec<GameCopy<'a>>,
    book: Option<usize>,
    island_suits: SuitSet,
    referenced: NameSet,
    mentioned: SuitSet,
    names_count: bool,
    suits_count: bool,
    best: Option<Found>,
    evaluated: usize,
    copies: Vec<(CardId, CardId)>,
}

impl<'a> Search<'a> {
    fn new(deck: &'a Deck, cards: &[CardId], pick: Option<CardId>) -> Self {
        let mut search = Search {
            deck,
            lives: cards.iter().map(|&id| Live::printed(deck, id)).collect(),
            pick,
            doppelganger: None,
            game_copies: Vec::new(),
            book: None,
            island_suits: 0,
            referenced: 0,
            mentioned: 0,
            names_count: false,
            suits_count: false,
            best: None,
            evaluated: 0,
            copies: Vec::new(),
        };
        for (at, &id) in cards.iter().enumerate() {
            search.referenced |= deck.referenced_names(id);
            search.mentioned |= deck.mentioned_suits(id);
            for rule in &deck.card(id).bonus {
                match rule {
                    Bonus::CopyFromHand => search.doppelganger = Some(at),
                    Bonus::CopyFromGame { suits } => search.game_copies.push(GameCopy { at, suits }),
                    Bonus::ChangeSuit => search.book = Some(at),
                    Bonus::ClearOnePenalty { suits } => {
                        search.island_suits = suits.iter().fold(0, |m, s| m | s.bit());
                    }
                    Bonus::SuitSets { .. } => {
                        search.names_count = true;
                        search.suits_count = true;
                    }
                    Bonus::AllSuitsDiffer { .. } => search.suits_count = true,
                    _ => {}
                }
            }
        }
        search
    }

    fn run(&mut self) {
        let Some(doppelganger) = self.doppelganger else {
            return self.game_copy_level(0);
        };
        let original = self.lives[doppelganger];
        let mut tried: Vec<Live> = vec![original];
        self.game_copy_level(0);
        for from in 0..self.lives.len() {
            if from == doppelganger {
                continue;
            }
            let copy = Live { card: original.card, bonus: None, ..self.lives[from] };
            let key = self.doppelganger_key(copy);
            if tried.iter().any(|t| self.doppelganger_key(*t) == key) {
                continue;
            }
            tried.push(copy);
            self.lives[doppelganger] = copy;
            self.copies.push((original.card, self.lives[from].card));
            self.game_copy_level(0);
            self.copies.pop();
        }
        self.lives[doppelganger] = original;
    }

    /// What of a Doppelgänger copy any rule of the hand can see.
    fn doppelganger_key(&self, live: Live) -> (Suit, i32, Option<CardId>, Option<CardId>) {
        (live.suit, live.strength, live.penalty, self.name_matters(live.name).then_some(live.name))
    }

    fn name_matters(&self, name: CardId) -> bool {
        let bit = 1u64 << name;
        self.referenced & bit != 0
            || (self.names_count && self.lives.iter().any(|l| l.name == name))
    }

    fn held_suits(&self) -> SuitSet {
        self.lives.iter().fold(0, |m, l| m | l.suit.bit())
    }

    /// Whether some rule of the hand can tell `suit` from another suit no
    /// rule names: it is named, or suits are counted and it is already held.
    fn suit_distinct(&self, suit: Suit, held: SuitSet) -> bool {
        self.mentioned & suit.bit() != 0 || (self.suits_count && held & suit.bit() != 0)
    }

    /// Suits worth trying from `suits`: the distinct ones and one of the rest.
    fn suits_to_try(&self, suits: &[Suit], skip: Option<Suit>) -> Vec<Suit> {
        let held = self.held_suits();
        let mut spare_taken = false;
        let mut out = Vec::new();
        for &suit in suits {
            if Some(suit) == skip {
                continue;
            }
            if !self.suit_distinct(suit, held) {
                if spare_taken {
                    continue;
                }
                spare_taken = true;
            }
            out.push(suit);
        }
        out
    }

    fn game_copy_level(&mut self, level: usize) {
        let Some(copy) = self.game_copies.get(level) else {
            return self.book_level();
        };
        let (at, suits) = (copy.at, copy.suits);
        let original = self.lives[at];
        self.game_copy_level(level + 1);
        let held = self.held_suits();
        let mut spare_suit_taken = false;
        for &suit in suits {
            let suit_distinct = self.suit_distinct(suit, held);
            let mut spare_name_taken = false;
            for id in self.deck.ids() {
                if self.deck.card(id).suit != suit {
                    continue;
                }
                // A name some rule looks at is worth trying in any suit; other
                // names only once per suit, and once in all the suits no
                // rule tells apart.
                if !self.name_matters(id) {
                    if spare_name_taken || (!suit_distinct && spare_suit_taken) {
                        continue;
                    }
                    spare_name_taken = true;
                    spare_suit_taken |= !suit_distinct;
                }
                self.lives[at] = Live {
                    card: original.card,
                    name: id,
                    suit,
                    strength: 0,
                    bonus: None,
                    penalty: None,
                };
                self.copies.push((original.card, id));
                self.game_copy_level(level + 1);
                self.copies.pop();
            }
        }
        self.lives[at] = original;
    }

    fn book_level(&mut self) {
        self.island_level(None);
        let Some(book) = self.book else { return };
        for target in 0..self.lives.len() {
            if target == book {
                continue;
            }
            let original = self.lives[target];
            for suit in self.suits_to_try(&Suit::TEN, Some(original.suit)) {
                self.lives[target].suit = suit;
                self.island_level(Some((original.card, suit)));
            }
            self.lives[target] = original;
        }
    }

    fn island_level(&mut self, book: Option<(CardId, Suit)>) {
        self.evaluate(book, None);
        if self.island_suits == 0 {
            return;
        }
        for target in 0..self.lives.len() {
            let live = self.lives[target];
            if self.island_suits & live.suit.bit() != 0 && live.penalty.is_some() {
                self.evaluate(book, Some(target));
            }
        }
    }

    fn evaluate(&mut self, book: Option<(CardId, Suit)>, island: Option<usize>) {
        self.evaluated += 1;
        let outcome = scoring::evaluate(self.deck, &self.lives, island);
        let better = self.best.as_ref().is_none_or(|b| {
            (outcome.total, -outcome.base_strength) > (b.total, -b.base_strength)
        });
        if better {
            self.best = Some(Found {
                total: outcome.total,
                base_strength: outcome.base_strength,
                choices: Choices {
                    necromancer: self.pick,
                    copies: self.copies.clone(),
                    book,
                    island: island.map(|i| self.lives[i].card),
                },
            });
        }
    }
}
