//! The choices that score a Fantasy Realms hand best (Fantasy Realms rulebook: the player
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

use super::cards::{Bonus, CardId, Deck, NameSet, Needs, Penalty, SizeTable, Suit, SuitSet};
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
    suit_bits: SuitSet,
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
                    Bonus::CopyFromGame { suits } => search.game_copies.push(GameCopy {
                        at,
                        suits,
                        suit_bits: suits.iter().fold(0, |m, s| m | s.bit()),
                    }),
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

    /// The choices still open below copy level `level` (the Book is still
    /// open at every copy level).
    fn free(&self, level: usize) -> Free {
        let open = &self.game_copies[level.min(self.game_copies.len())..];
        Free {
            level: level.min(self.game_copies.len()),
            copies: open.iter().fold(0, |m, c| m | 1 << c.at),
            names: open.len() as i32,
            suits: open.len() as i32 + i32::from(self.book.is_some()),
            book: self.book.is_some(),
        }
    }

    /// The choices left once the Book has chosen: none.
    fn settled(&self) -> Free {
        Free {
            level: self.game_copies.len(),
            copies: 0,
            names: 0,
            suits: 0,
            book: false,
        }
    }

    /// The highest total the cards as they stand could score whatever the
    /// `free` choices do: base strengths plus each bonus at its most.
    /// Penalties only take away and a blanked card scores 0, never less than
    /// this.
    fn ceiling(&self, free: Free) -> i32 {
        let blankable = self.blankable();
        let mut total = 0;
        for (i, live) in self.lives.iter().enumerate() {
            total += live.strength;
            if let Some(bonus) = live.bonus {
                for rule in &self.deck.card(bonus).bonus {
                    total += self.rule_ceiling(rule, i, free, blankable);
                }
            }
        }
        total
            + self
                .collector
                .map_or(0, |table| self.suit_sets_ceiling(table, free))
    }

    /// The cards some penalty of the cards as they stand could blank (its
    /// own "blanked unless / with" included), as bits of hand positions.
    /// Clears and struck words only spare cards, so they are left out.
    fn blankable(&self) -> u16 {
        let mut mask = 0u16;
        for (k, live) in self.lives.iter().enumerate() {
            let Some(penalty) = live.penalty else {
                continue;
            };
            for rule in &self.deck.card(penalty).penalty {
                for (j, target) in self.lives.iter().enumerate() {
                    let named = |needs: &Needs| needs.name_set & (1u64 << target.name) != 0;
                    let hit = match rule {
                        Penalty::Blanks {
                            suits,
                            except,
                            other,
                        } => suits.contains(&target.suit) && !named(except) && !(*other && j == k),
                        Penalty::BlanksAllExcept { suits, names } => {
                            !suits.contains(&target.suit) && !named(names)
                        }
                        Penalty::BlankedUnless { .. } | Penalty::BlankedWith { .. } => j == k,
                        Penalty::UnlessWith { .. } | Penalty::ForEach { .. } => false,
                    };
                    if hit {
                        mask |= 1 << j;
                    }
                }
            }
        }
        mask
    }

    /// The most `rule` of card `i` can add given the cards as they stand and
    /// the `free` choices still open (each can make one more card match; a
    /// wild card still to choose can also take a name). Blanking only takes
    /// cards away, so it is left out.
    fn rule_ceiling(&self, rule: &Bonus, i: usize, free: Free, blankable: u16) -> i32 {
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
            let (mut unmet, mut names_only) = (0, 0);
            for group in groups.iter().filter(|g| matching(g, true) == 0) {
                unmet += 1;
                names_only += i32::from(group.suits == 0);
            }
            names_only <= free.names && unmet <= free.names + free.suits
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
                .map(|o| self.rule_ceiling(o, i, free, blankable))
                .max()
                .unwrap_or(0),
            Bonus::Strongest { of } | Bonus::StrengthSum { of } => {
                // Wild cards still to choose have strength 0; the Book can
                // bring in one more card, the strongest left out.
                let (mut strongest, mut sum, mut outside) = (0, 0, 0);
                for (j, l) in self.lives.iter().enumerate() {
                    if free.copies & (1 << j) != 0 {
                        continue;
                    }
                    if of.matches(l.suit, l.name, 0) {
                        strongest = strongest.max(l.strength);
                        sum += l.strength;
                    } else {
                        outside = outside.max(l.strength);
                    }
                }
                let extra = if free.suits > free.names { outside } else { 0 };
                if matches!(rule, Bonus::Strongest { .. }) {
                    strongest.max(extra)
                } else {
                    sum + extra
                }
            }
            Bonus::Runs { table } => {
                scoring::run_points(table, &self.lives, (1u16 << self.lives.len()) - 1)
            }
            Bonus::AllSuitsDiffer { points } => {
                // Two cards that nothing can blank and that share a suit can
                // only be parted by the Book, once (wild cards still to
                // choose can take a free suit; the Book can also give a card
                // a suit that gets it blanked, which is the same one change).
                let mut seen: SuitSet = 0;
                let mut repeats = 0;
                for (j, l) in self.lives.iter().enumerate() {
                    if (free.copies | blankable) & (1 << j) == 0 {
                        repeats += i32::from(seen & l.suit.bit() != 0);
                        seen |= l.suit.bit();
                    }
                }
                if repeats <= i32::from(free.book) {
                    *points
                } else {
                    0
                }
            }
            Bonus::SuitSets { .. } => 0,
            _ => bonus_ceiling(rule, self.hand_size),
        }
    }

    /// The most Collector can score with the `free` choices still open: the
    /// different names each suit holds now, plus one name for every wild card
    /// still to choose (in the suits it may copy), and the Book moving one
    /// card from one suit to another (or giving a wild card still to choose
    /// any suit). Blanking only removes cards, so it cannot score more.
    fn suit_sets_ceiling(&self, table: &SizeTable, free: Free) -> i32 {
        let open = &self.game_copies[free.level..];
        let mut names = [0 as NameSet; Suit::ALL.len()];
        let mut cards = [0u32; Suit::ALL.len()];
        for (i, live) in self.lives.iter().enumerate() {
            if free.copies & (1 << i) == 0 {
                names[live.suit as usize] |= 1u64 << live.name;
                cards[live.suit as usize] += 1;
            }
        }
        let smallest = u32::from(table.first().map_or(1, |(size, _)| *size));
        // Bits of a placement: one per open wild card, then the Book's
        // arrival and the Book's departure.
        let copy_bits = open.len();
        let (arrive, depart) = (1usize << copy_bits, 1usize << (copy_bits + 1));
        let all = if free.book {
            (depart << 1) - 1
        } else {
            arrive - 1
        };
        // A departure costs nothing from a suit that cannot score anyway or
        // that holds a name twice.
        let mut free_departure = false;
        let mut best = vec![i32::MIN; all + 1];
        best[0] = 0;
        for suit in Suit::ALL {
            let held = names[suit as usize].count_ones();
            let mut reach = 0usize;
            for (k, copy) in open.iter().enumerate() {
                // A wild card may also stay as it is, in the Wild suit.
                if (copy.suit_bits | Suit::Wild.bit()) & suit.bit() != 0 {
                    reach |= 1 << k;
                }
            }
            if free.book && suit != Suit::Wild {
                reach |= arrive;
            }
            if held + reach.count_ones() < smallest {
                free_departure |= cards[suit as usize] > 0;
                continue;
            }
            if free.book && held > 0 {
                if cards[suit as usize] > held {
                    free_departure = true;
                } else {
                    reach |= depart;
                }
            }
            let before = best.clone();
            for (state, &points) in before.iter().enumerate() {
                if points == i32::MIN {
                    continue;
                }
                let open_here = reach & !state;
                // Every subset of the placements still open that can land here.
                let mut subset = open_here;
                loop {
                    let added = (subset & !depart).count_ones();
                    let removed = u32::from(subset & depart != 0);
                    let value = scoring::by_size(table, held + added - removed);
                    let next = state | subset;
                    best[next] = best[next].max(points + value);
                    if subset == 0 {
                        break;
                    }
                    subset = (subset - 1) & open_here;
                }
            }
        }
        let every_copy = arrive - 1;
        (0..=all)
            .filter(|&state| {
                // The Book's arrival needs a card leaving some suit, or a
                // wild card whose own placement it replaces.
                state & arrive == 0
                    || state & depart != 0
                    || free_departure
                    || state & every_copy != every_copy
            })
            .map(|state| best[state])
            .max()
            .unwrap_or(0)
            .max(0)
    }

    /// Whether a ceiling shows the cards as they stand cannot beat the best
    /// found (a tie on total at the ceiling means every card scores in full,
    /// so the base strength is the sum of all strengths, known in advance).
    fn beaten(&self, ceiling: i32) -> bool {
        let Some(best) = &self.best else { return false };
        let base: i32 = self.lives.iter().map(|l| l.strength).sum();
        ceiling < best.total || (ceiling == best.total && base >= best.base_strength)
    }

    /// Search everything under the cards as they stand, unless the ceiling
    /// shows it cannot beat the best found.
    fn search_under_ceiling(&mut self) {
        let ceiling = self.ceiling(self.free(0));
        if self.beaten(ceiling) {
            return;
        }
        self.ceiling = ceiling;
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
            option.2 = self.ceiling(self.free(0));
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
        if self.reached {
            return;
        }
        let Some(copy) = self.game_copies.get(level) else {
            return self.book_level();
        };
        let (at, suits) = (copy.at, copy.suits);
        let original = self.lives[at];
        // Every identity some rule can tell apart (the wild card left as it
        // is first), with the ceiling below it.
        let mut options: Vec<(i32, Option<CardId>)> = Vec::new();
        let below = self.free(level + 1);
        let ceiling = self.ceiling(below);
        if !self.beaten(ceiling) {
            options.push((ceiling, None));
        }
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
            self.lives[at] = game_copy(original.card, id, suit);
            let ceiling = self.ceiling(below);
            if !self.beaten(ceiling) {
                options.push((ceiling, Some(id)));
            }
        }
        // The most promising first: a good total found early cuts off the
        // rest, which are tried only while their ceiling can still beat it.
        options.sort_by_key(|&(ceiling, _)| std::cmp::Reverse(ceiling));
        for (ceiling, id) in options {
            if self.reached || self.beaten(ceiling) {
                break;
            }
            self.lives[at] = id.map_or(original, |id| {
                game_copy(original.card, id, self.deck.card(id).suit)
            });
            self.copies.extend(id.map(|id| (original.card, id)));
            self.game_copy_level(level + 1);
            if id.is_some() {
                self.copies.pop();
            }
        }
        self.lives[at] = original;
    }

    fn book_level(&mut self) {
        self.island_level(None);
        let Some(book) = self.book else { return };
        let settled = self.settled();
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
                if !self.beaten(self.ceiling(settled)) {
                    self.island_level(Some((original.card, suit)));
                }
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
    /// The first wild card still to choose, in `Search::game_copies`.
    level: usize,
    /// The wild cards still to choose, as bits of hand positions.
    copies: u16,
    /// How many of them (each can take a name).
    names: i32,
    /// How many cards can still be given a suit (them and the Book).
    suits: i32,
    /// Whether the Book of Changes is still to choose.
    book: bool,
}

/// A wild card that took the name and suit of deck card `name`.
fn game_copy(card: CardId, name: CardId, suit: Suit) -> Live {
    Live {
        card,
        name,
        suit,
        strength: 0,
        bonus: None,
        penalty: None,
    }
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
