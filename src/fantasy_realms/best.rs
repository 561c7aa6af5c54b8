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

use super::cards::{Bonus, CardId, Deck, NameSet, Needs, SizeTable, Suit, SuitSet};
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
    if let Some(&unknown) = discard
        .iter()
        .find(|&&id| usize::from(id) >= deck.cards.len())
    {
        return Err(ScoreError(format!(
            "card number {unknown} is not in the deck"
        )));
    }
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
        let mut search = Search::new(deck, &cards, pick, found.take());
        search.run();
        evaluated += search.evaluated;
        found = search.best;
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

/// How the rules of a hand see a suit or a name: which rule sets hold it, and
/// (when Collector or World Tree count them) which one it is.
type Key = (u64, u8);

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
    /// Every set of names and of suits some rule of the hand looks at.
    name_sets: Vec<NameSet>,
    suit_sets: Vec<SuitSet>,
    names_count: bool,
    suits_count: bool,
    /// What the static bonus ceilings need (see [`bonus_ceiling`]).
    hand_size: HandSize,
    /// Collector's table, when it is in the hand (its ceiling is worked out
    /// from the cards as they stand, see [`Search::suit_sets_ceiling`]).
    collector: Option<&'a SizeTable>,
    /// The highest total the current Doppelgänger choice could reach.
    ceiling: i32,
    /// That total has been reached: nothing under this choice can do better.
    reached: bool,
    best: Option<Found>,
    evaluated: usize,
    copies: Vec<(CardId, CardId)>,
}

impl<'a> Search<'a> {
    fn new(deck: &'a Deck, cards: &[CardId], pick: Option<CardId>, best: Option<Found>) -> Self {
        let mut search = Search {
            deck,
            lives: cards.iter().map(|&id| Live::printed(deck, id)).collect(),
            pick,
            doppelganger: None,
            game_copies: Vec::new(),
            book: None,
            island_suits: 0,
            name_sets: Vec::new(),
            suit_sets: Vec::new(),
            names_count: false,
            suits_count: false,
            hand_size: HandSize {
                cards: cards.len() as i32,
                strongest: 0,
                all_strength: 0,
            },
            collector: None,
            ceiling: i32::MAX,
            reached: false,
            best,
            evaluated: 0,
            copies: Vec::new(),
        };
        for (at, &id) in cards.iter().enumerate() {
            search.name_sets.extend(deck.rule_name_sets(id));
            search.suit_sets.extend(deck.rule_suit_sets(id));
            for rule in &deck.card(id).bonus {
                match rule {
                    Bonus::CopyFromHand => search.doppelganger = Some(at),
                    Bonus::CopyFromGame { suits } => {
                        search.game_copies.push(GameCopy { at, suits })
                    }
                    Bonus::ChangeSuit => search.book = Some(at),
                    Bonus::ClearOnePenalty { suits } => {
                        search.island_suits = suits.iter().fold(0, |m, s| m | s.bit());
                    }
                    Bonus::SuitSets { table } => {
                        search.collector = Some(table);
                        search.names_count = true;
                        search.suits_count = true;
                    }
                    Bonus::AllSuitsDiffer { .. } => search.suits_count = true,
                    _ => {}
                }
            }
        }
        let strengths = cards.iter().map(|&id| deck.card(id).strength);
        search.hand_size.strongest = strengths.clone().max().unwrap_or(0);
        search.hand_size.all_strength = strengths.sum();
        search
    }

    /// The highest total the cards as they stand could score whatever the
    /// later choices: base strengths plus each bonus at its most. Penalties
    /// only take away and a blanked card scores 0, never less than this.
    fn ceiling(&self, level: usize) -> i32 {
        let free_copies: Vec<usize> = self.game_copies[level.min(self.game_copies.len())..]
            .iter()
            .map(|c| c.at)
            .collect();
        let free = Free {
            copies: free_copies.iter().fold(0, |m, &at| m | 1 << at),
            names: free_copies.len() as i32,
            suits: free_copies.len() as i32 + i32::from(self.book.is_some()),
        };
        let cards: i32 = self
            .lives
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let bonus = l.bonus.map_or(0, |b| {
                    self.deck
                        .card(b)
                        .bonus
                        .iter()
                        .map(|r| self.rule_ceiling(r, i, free))
                        .sum()
                });
                l.strength + bonus
            })
            .sum();
        cards
            + self
                .collector
                .map_or(0, |table| self.suit_sets_ceiling(table, level))
    }

    /// The most `rule` of card `i` can add given the cards as they stand and
    /// the `free` choices still open (each can make one more card match; a
    /// wild card still to choose can also take a name). Blanking only takes
    /// cards away, so it is left out.
    fn rule_ceiling(&self, rule: &Bonus, i: usize, free: Free) -> i32 {
        let matching = |needs: &Needs, skip_self: bool| {
            self.lives
                .iter()
                .enumerate()
                .filter(|&(j, l)| {
                    !(skip_self && j == i)
                        && free.copies & (1 << j) == 0
                        && needs.matches(l.suit, l.name, 0)
                })
                .count() as i32
        };
        let reachable = |groups: &[Needs]| {
            let unmet: Vec<&Needs> = groups.iter().filter(|g| matching(g, true) == 0).collect();
            let names_only = unmet.iter().filter(|g| g.suits == 0).count() as i32;
            names_only <= free.names && unmet.len() as i32 <= free.names + free.suits
        };
        match rule {
            Bonus::With { points, needs } => {
                if reachable(needs) {
                    *points
                } else {
                    0
                }
            }
            Bonus::ForEach {
                points,
                of,
                other,
                needs,
            } => {
                if !reachable(needs) {
                    return 0;
                }
                let most = self.lives.len() as i32 - i32::from(*other);
                points * (matching(of, *other) + free.suits).min(most)
            }
            Bonus::BestOf { options } => options
                .iter()
                .map(|o| self.rule_ceiling(o, i, free))
                .max()
                .unwrap_or(0),
            Bonus::Strongest { of } | Bonus::StrengthSum { of } => {
                // Wild cards still to choose have strength 0; the Book can
                // bring in one more card, the strongest left out.
                let (mut inside, mut outside) = (Vec::new(), 0);
                for (j, l) in self.lives.iter().enumerate() {
                    if free.copies & (1 << j) != 0 {
                        continue;
                    }
                    if of.matches(l.suit, l.name, 0) {
                        inside.push(l.strength);
                    } else {
                        outside = outside.max(l.strength);
                    }
                }
                let extra = if free.suits > free.names { outside } else { 0 };
                if matches!(rule, Bonus::Strongest { .. }) {
                    inside.into_iter().max().unwrap_or(0).max(extra)
                } else {
                    inside.into_iter().sum::<i32>() + extra
                }
            }
            Bonus::Runs { table } => {
                scoring::run_points(table, &self.lives, (1u16 << self.lives.len()) - 1)
            }
            Bonus::SuitSets { .. } => 0,
            _ => bonus_ceiling(rule, self.hand_size),
        }
    }

    /// The most Collector can score once the wild cards before `level` have
    /// their identities: the different names each suit holds now, plus one
    /// for every wild card still to choose and one for the Book of Changes
    /// (which can move a card into a suit), placed where they gain most.
    /// Blanking only removes cards, so it cannot score more.
    fn suit_sets_ceiling(&self, table: &SizeTable, level: usize) -> i32 {
        let free: Vec<usize> = self.game_copies[level.min(self.game_copies.len())..]
            .iter()
            .map(|c| c.at)
            .collect();
        let mut names = [0 as NameSet; Suit::ALL.len()];
        for (i, live) in self.lives.iter().enumerate() {
            if !free.contains(&i) {
                names[live.suit as usize] |= 1u64 << live.name;
            }
        }
        let extra = free.len() + usize::from(self.book.is_some());
        let value = |size: u32| {
            table
                .iter()
                .rev()
                .find(|(at_least, _)| u32::from(*at_least) <= size)
                .map_or(0, |(_, p)| *p)
        };
        // most[k]: the best score of the suits seen so far with k extra cards.
        let mut most = vec![0; extra + 1];
        for held in names.map(NameSet::count_ones) {
            let before = most.clone();
            for k in 0..=extra {
                most[k] = (0..=k)
                    .map(|add| before[k - add] + value(held + add as u32))
                    .max()
                    .unwrap_or(0);
            }
        }
        most[extra]
    }

    /// Whether nothing under the cards as they stand can beat the best found.
    fn hopeless(&self, level: usize) -> bool {
        let Some(best) = &self.best else { return false };
        let ceiling = self.ceiling(level);
        let base: i32 = self.lives.iter().map(|l| l.strength).sum();
        ceiling < best.total || (ceiling == best.total && base >= best.base_strength)
    }

    /// Search everything under the cards as they stand, unless the ceiling
    /// shows it cannot beat the best found (a tie on total at the ceiling
    /// means every card scores in full, so the base strength is the sum of
    /// all strengths, known in advance).
    fn search_under_ceiling(&mut self) {
        if self.hopeless(0) {
            return;
        }
        self.ceiling = self.ceiling(0);
        self.reached = false;
        self.game_copy_level(0);
    }

    fn run(&mut self) {
        let Some(doppelganger) = self.doppelganger else {
            return self.search_under_ceiling();
        };
        let original = self.lives[doppelganger];
        let mut options: Vec<(Live, Option<CardId>, i32)> = vec![(original, None, 0)];
        for from in 0..self.lives.len() {
            if from == doppelganger {
                continue;
            }
            let copy = Live {
                card: original.card,
                bonus: None,
                ..self.lives[from]
            };
            let key = self.doppelganger_key(copy);
            if options
                .iter()
                .all(|(tried, _, _)| self.doppelganger_key(*tried) != key)
            {
                options.push((copy, Some(self.lives[from].card), 0));
            }
        }
        for option in &mut options {
            self.lives[doppelganger] = option.0;
            option.2 = self.ceiling(0);
        }
        // The most promising first, so the ceiling cuts the others off sooner.
        options.sort_by_key(|option| std::cmp::Reverse(option.2));
        for (copy, from, _) in options {
            self.lives[doppelganger] = copy;
            self.copies.extend(from.map(|from| (original.card, from)));
            self.search_under_ceiling();
            self.copies.retain(|(wild, _)| *wild != original.card);
        }
        self.lives[doppelganger] = original;
    }

    /// What of a Doppelgänger copy any rule of the hand can see.
    fn doppelganger_key(&self, live: Live) -> (Key, i32, Option<CardId>, Key) {
        let held_suits = self.held_suits();
        let held_names = self.held_names();
        (
            self.suit_key(live.suit, held_suits),
            live.strength,
            live.penalty,
            self.name_key(live.name, held_names),
        )
    }

    fn held_suits(&self) -> SuitSet {
        self.lives.iter().fold(0, |m, l| m | l.suit.bit())
    }

    fn held_names(&self) -> NameSet {
        self.lives.iter().fold(0, |m, l| m | 1u64 << l.name)
    }

    /// Which rule sets hold `suit`; two suits with the same key can be
    /// swapped without any rule noticing. When suits are counted (Collector,
    /// World Tree) a suit already held is also told apart from the others.
    fn suit_key(&self, suit: Suit, held: SuitSet) -> Key {
        let signature = self
            .suit_sets
            .iter()
            .enumerate()
            .filter(|(_, set)| *set & suit.bit() != 0)
            .fold(0u64, |m, (k, _)| m | 1 << (k % 64));
        let own = self.suits_count && held & suit.bit() != 0;
        (signature, if own { suit as u8 + 1 } else { 0 })
    }

    /// The same for a card name (Collector tells held names apart).
    fn name_key(&self, name: CardId, held: NameSet) -> Key {
        let signature = self
            .name_sets
            .iter()
            .enumerate()
            .filter(|(_, set)| *set & (1u64 << name) != 0)
            .fold(0u64, |m, (k, _)| m | 1 << (k % 64));
        let own = self.names_count && held & (1u64 << name) != 0;
        (signature, if own { name + 1 } else { 0 })
    }

    fn game_copy_level(&mut self, level: usize) {
        if self.reached || (level > 0 && self.hopeless(level)) {
            return;
        }
        let Some(copy) = self.game_copies.get(level) else {
            return self.book_level();
        };
        let (at, suits) = (copy.at, copy.suits);
        let original = self.lives[at];
        self.game_copy_level(level + 1);
        let (held_suits, held_names) = (self.held_suits(), self.held_names());
        let mut tried: Vec<(Key, Key)> = Vec::new();
        for id in self.deck.ids() {
            let suit = self.deck.card(id).suit;
            if !suits.contains(&suit) {
                continue;
            }
            let key = (
                self.suit_key(suit, held_suits),
                self.name_key(id, held_names),
            );
            if tried.contains(&key) {
                continue;
            }
            tried.push(key);
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
            if self.reached {
                break;
            }
        }
        self.lives[at] = original;
    }

    fn book_level(&mut self) {
        if self.hopeless(self.game_copies.len()) {
            return;
        }
        self.island_level(None);
        let Some(book) = self.book else { return };
        for target in 0..self.lives.len() {
            if target == book {
                continue;
            }
            let original = self.lives[target];
            let held = self.held_suits();
            let mut tried = vec![self.suit_key(original.suit, held)];
            for suit in Suit::TEN {
                let key = self.suit_key(suit, held);
                if tried.contains(&key) {
                    continue;
                }
                tried.push(key);
                if self.reached {
                    break;
                }
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
            if self.reached {
                break;
            }
            if self.island_suits & live.suit.bit() != 0 && live.penalty.is_some() {
                self.evaluate(book, Some(target));
            }
        }
    }

    fn evaluate(&mut self, book: Option<(CardId, Suit)>, island: Option<usize>) {
        if self.reached {
            return;
        }
        self.evaluated += 1;
        let outcome = scoring::evaluate(self.deck, &self.lives, island);
        let better = self
            .best
            .as_ref()
            .is_none_or(|b| (outcome.total, -outcome.base_strength) > (b.total, -b.base_strength));
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
            self.reached = outcome.total >= self.ceiling;
        }
    }
}

/// The choices still open below a level of the search.
#[derive(Clone, Copy)]
struct Free {
    /// The wild cards still to choose, as bits of hand positions.
    copies: u16,
    /// How many of them (each can take a name).
    names: i32,
    /// How many cards can still be given a suit (them and the Book).
    suits: i32,
}

/// What a bonus ceiling needs to know of the hand.
#[derive(Clone, Copy)]
struct HandSize {
    cards: i32,
    strongest: i32,
    all_strength: i32,
}

/// The most `rule` can add in a hand like `hand`, whatever the choices (a
/// Doppelgänger may copy the strongest card, so strength sums allow one more).
fn bonus_ceiling(rule: &Bonus, hand: HandSize) -> i32 {
    match rule {
        Bonus::With { points, .. } | Bonus::Without { points, .. } => *points,
        Bonus::AllSuitsDiffer { points } => *points,
        Bonus::ForEach { points, other, .. } => points * (hand.cards - i32::from(*other)),
        Bonus::BestOf { options } => options
            .iter()
            .map(|o| bonus_ceiling(o, hand))
            .max()
            .unwrap_or(0),
        Bonus::Strongest { .. } => hand.strongest,
        Bonus::StrengthSum { .. } => hand.all_strength + hand.strongest,
        Bonus::Runs { table } | Bonus::SuitSets { table } => best_split(table, hand.cards),
        Bonus::ClearPenalties { .. }
        | Bonus::ClearAllPenalties
        | Bonus::StrikeWord { .. }
        | Bonus::ClearOnePenalty { .. }
        | Bonus::ChangeSuit
        | Bonus::CopyFromHand
        | Bonus::CopyFromGame { .. }
        | Bonus::TakeFromDiscard { .. } => 0,
    }
}

/// The most a size table can give when `cards` cards are split into groups.
fn best_split(table: &[(u8, i32)], cards: i32) -> i32 {
    let size_points = |size: i32| {
        table
            .iter()
            .rev()
            .find(|(at_least, _)| i32::from(*at_least) <= size)
            .map_or(0, |(_, p)| *p)
    };
    let mut most = vec![0; cards.max(0) as usize + 1];
    for n in 1..most.len() {
        most[n] = most[n - 1];
        for size in 1..=n {
            most[n] = most[n].max(size_points(size as i32) + most[n - size]);
        }
    }
    most[cards.max(0) as usize]
}
