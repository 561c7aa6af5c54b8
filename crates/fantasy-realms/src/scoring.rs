//! Scoring one Fantasy Realms hand with explicit choices (Fantasy Realms rulebook, "Scoring
//! hands", "Clears", "Blanks", and the order for chains of cards).
//!
//! The order is the rulebook's: the Necromancer's eighth card joins the hand;
//! the Doppelgänger copies, then the Mirage and the Shapeshifter take their
//! identities; the Book of Changes gives one card a new suit; every clear is
//! applied (whole penalties, the Island's chosen one, and words struck out of
//! penalties), even by cards that end up blanked; then blanking is settled,
//! beginning with the cards nothing else blanks; last every unblanked card
//! scores its base strength, bonus and uncleared penalty.
//!
//! Blanking is settled like this. A card is *threatened* while some other
//! undecided card's penalty would blank it. An unthreatened card whose own
//! "blanked unless / blanked with" conditions are already certain (the cards
//! they look at are settled) is decided: it stays, and its penalty blanks its
//! targets, or its condition blanks it. When nothing can be decided, every
//! threatened card is blanked at once (cards blanking each other, such as two
//! Basilisks or a Blizzard, Great Flood and Wildfire cycle); with no threats
//! left, waiting conditions are decided counting every undecided card as
//! present. This is the rulebook's Blizzard / Great Flood / Wildfire / Cavern
//! example: the Cavern clears the Blizzard, the Great Flood is then blanked by
//! nothing and blanks the Wildfire and the Cavern.

use std::fmt;

use super::cards::{Bonus, CardId, Deck, NameSet, Needs, Penalty, Suit, SuitSet};

/// The most cards a hand can hold: seven, plus the Necromancer's eighth.
pub const MAX_HAND: usize = 8;

/// What the player decides when scoring. Every field is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Choices {
    /// The discarded card the Necromancer adds to the hand.
    pub necromancer: Option<CardId>,
    /// What each wild card becomes: (the wild card, the card it copies).
    pub copies: Vec<(CardId, CardId)>,
    /// The Book of Changes: the card it changes and that card's new suit.
    pub book: Option<(CardId, Suit)>,
    /// The card whose penalty the Island clears.
    pub island: Option<CardId>,
}

/// A hand or a choice that breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreError(pub String);

impl fmt::Display for ScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScoreError {}

/// How one card scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardScore {
    pub card: CardId,
    /// The printed name.
    pub name: String,
    pub points: i32,
    pub blanked: bool,
    /// The identity a wild card took and/or the suit the Book gave it.
    pub chosen: Option<String>,
    /// Why it scored what it did, in a few words.
    pub why: String,
}

/// A scored hand: the cards in hand order (the Necromancer's card last).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scored {
    pub total: i32,
    /// The base strength of the unblanked cards: the tie-breaker, lower wins.
    pub base_strength: i32,
    pub cards: Vec<CardScore>,
    pub choices: Choices,
}

/// A card as it stands after the choices: the name, suit and strength it goes
/// by and whose bonus and penalty rules it carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Live {
    pub card: CardId,
    pub name: CardId,
    pub suit: Suit,
    pub strength: i32,
    pub bonus: Option<CardId>,
    pub penalty: Option<CardId>,
}

impl Live {
    pub(crate) fn printed(deck: &Deck, card: CardId) -> Live {
        let printed = deck.card(card);
        Live {
            card,
            name: card,
            suit: printed.suit,
            strength: printed.strength,
            bonus: Some(card),
            penalty: (!printed.penalty.is_empty()).then_some(card),
        }
    }
}

/// Why a card is blanked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Blank {
    /// Another card's (or its own) penalty blanks it.
    By(usize),
    /// Cards that blank one another were all blanked together.
    Cycle(usize),
    /// Its "blanked unless with" condition is not met.
    Lacking(usize),
    /// Its "blanked with" condition is met by this card.
    With(usize),
}

/// The result of settling clears and blanks, before points.
struct Settled {
    cleared: u16,
    struck: [SuitSet; MAX_HAND],
    blanked: u16,
    cause: [Option<Blank>; MAX_HAND],
}

/// The points of a hand, with or without explanations.
pub(crate) struct Outcome {
    pub total: i32,
    pub base_strength: i32,
    points: [i32; MAX_HAND],
    settled: Settled,
}

/// Score `hand` with `choices`.
///
/// # Errors
/// A repeated card, too many cards, or a choice the cards do not allow (a
/// copy by a card that is not wild, a Book target that is the Book, ...).
pub fn score(deck: &Deck, hand: &[CardId], choices: &Choices) -> Result<Scored, ScoreError> {
    let lives = apply_choices(deck, hand, choices)?;
    let island = island_index(deck, &lives, choices)?;
    let outcome = evaluate(deck, &lives, island);
    Ok(describe(deck, &lives, island, &outcome, choices))
}

/// Score `hand` taking no choices at all (wild cards stay wild).
///
/// # Errors
/// See [`score`].
pub fn score_plain(deck: &Deck, hand: &[CardId]) -> Result<Scored, ScoreError> {
    score(deck, hand, &Choices::default())
}

fn err<T>(message: String) -> Result<T, ScoreError> {
    Err(ScoreError(message))
}

/// Check the hand and the choices and build the cards as they stand.
fn apply_choices(deck: &Deck, hand: &[CardId], choices: &Choices) -> Result<Vec<Live>, ScoreError> {
    let name = |id: CardId| deck.card(id).name.as_str();
    let mut ids: Vec<CardId> = Vec::with_capacity(hand.len() + 1);
    for &id in hand {
        if usize::from(id) >= deck.cards.len() {
            return err(format!("card number {id} is not in the deck"));
        }
        if ids.contains(&id) {
            return err(format!(
                "{} is in the hand twice; every card is unique",
                name(id)
            ));
        }
        ids.push(id);
    }
    let has_rule = |id: CardId, test: fn(&Bonus) -> bool| deck.card(id).bonus.iter().any(test);
    if let Some(taken) = choices.necromancer {
        let Some(&necro) = ids
            .iter()
            .find(|&&id| has_rule(id, |b| matches!(b, Bonus::TakeFromDiscard { .. })))
        else {
            return err(format!(
                "{} cannot be taken from the discard area: the Necromancer is not in the hand",
                name(taken)
            ));
        };
        if ids.contains(&taken) {
            return err(format!("{} is already in the hand", name(taken)));
        }
        let allowed = deck.card(necro).bonus.iter().any(|b| {
            matches!(b, Bonus::TakeFromDiscard { suits } if suits.contains(&deck.card(taken).suit))
        });
        if !allowed {
            return err(format!(
                "the Necromancer can only take an Army, Leader, Wizard or Beast, not {}",
                name(taken)
            ));
        }
        ids.push(taken);
    }
    if ids.len() > MAX_HAND {
        return err(format!(
            "a hand holds at most {MAX_HAND} cards, this one has {}",
            ids.len()
        ));
    }
    let mut lives: Vec<Live> = ids.iter().map(|&id| Live::printed(deck, id)).collect();
    let position = |lives: &[Live], id: CardId| lives.iter().position(|l| l.card == id);

    // The Doppelgänger copies the hand as it is, so it goes before the others.
    let mut copies: Vec<&(CardId, CardId)> = choices.copies.iter().collect();
    copies.sort_by_key(|(wild, _)| !has_rule(*wild, |b| matches!(b, Bonus::CopyFromHand)));
    for (i, &&(wild, target)) in copies.iter().enumerate() {
        if copies[..i].iter().any(|(w, _)| *w == wild) {
            return err(format!("{} is given two identities", name(wild)));
        }
        let Some(at) = position(&lives, wild) else {
            return err(format!("{} is not in the hand", name(wild)));
        };
        let rule = deck.card(wild).bonus.iter().find_map(|b| match b {
            Bonus::CopyFromHand => Some(None),
            Bonus::CopyFromGame { suits } => Some(Some(suits)),
            _ => None,
        });
        lives[at] = match rule {
            None => {
                return err(format!(
                    "{} is not a wild card and copies nothing",
                    name(wild)
                ));
            }
            Some(None) => {
                let Some(from) = position(&lives, target).filter(|&p| p != at) else {
                    return err(format!(
                        "{} can only copy another card of the hand, and {} is not one",
                        name(wild),
                        name(target)
                    ));
                };
                let copied = lives[from];
                Live {
                    card: wild,
                    bonus: None,
                    ..copied
                }
            }
            Some(Some(suits)) => {
                if usize::from(target) >= deck.cards.len()
                    || !suits.contains(&deck.card(target).suit)
                {
                    let allowed: Vec<&str> = suits.iter().map(|s| s.title()).collect();
                    return err(format!(
                        "{} can only become a card of suit {}, not {}",
                        name(wild),
                        allowed.join(", "),
                        deck.cards
                            .get(usize::from(target))
                            .map_or("that card", |c| &c.name)
                    ));
                }
                Live {
                    card: wild,
                    name: target,
                    suit: deck.card(target).suit,
                    strength: 0,
                    bonus: None,
                    penalty: None,
                }
            }
        };
    }
    if let Some((target, suit)) = choices.book {
        let has_book = ids
            .iter()
            .any(|&id| id != target && has_rule(id, |b| matches!(b, Bonus::ChangeSuit)));
        if !has_book {
            return err(format!(
                "the Book of Changes must be in the hand to change {}, and cannot change itself",
                name(target)
            ));
        }
        let Some(at) = position(&lives, target) else {
            return err(format!(
                "the Book of Changes cannot change {}: it is not in the hand",
                name(target)
            ));
        };
        if suit == Suit::Wild {
            return err("the Book of Changes gives one of the ten suits, not Wild".to_string());
        }
        lives[at].suit = suit;
    }
    Ok(lives)
}

/// Where the Island's chosen card is, after checking it may be chosen.
fn island_index(
    deck: &Deck,
    lives: &[Live],
    choices: &Choices,
) -> Result<Option<usize>, ScoreError> {
    let Some(target) = choices.island else {
        return Ok(None);
    };
    let name = &deck.card(target).name;
    let suits = lives.iter().find_map(|l| {
        deck.card(l.card).bonus.iter().find_map(|b| match b {
            Bonus::ClearOnePenalty { suits } => Some(suits),
            _ => None,
        })
    });
    let Some(suits) = suits else {
        return err(format!(
            "the Island must be in the hand to clear the penalty of {name}"
        ));
    };
    let Some(at) = lives.iter().position(|l| l.card == target) else {
        return err(format!(
            "the Island cannot clear {name}: it is not in the hand"
        ));
    };
    if !suits.contains(&lives[at].suit) {
        return err(format!(
            "the Island clears a Flood or a Flame only, and {name} is neither"
        ));
    }
    Ok(Some(at))
}

fn bits(suits: &[Suit]) -> SuitSet {
    suits.iter().fold(0, |acc, s| acc | s.bit())
}

fn each(mask: u16) -> impl Iterator<Item = usize> {
    (0..MAX_HAND).filter(move |i| mask & (1 << i) != 0)
}

/// Whether card `j` matches `needs` (struck suits left out).
fn matches(lives: &[Live], j: usize, needs: &Needs, struck: SuitSet) -> bool {
    needs.matches(lives[j].suit, lives[j].name, struck)
}

/// The cards of `among` (other than `skip`) that match `needs`.
fn matching(lives: &[Live], among: u16, skip: usize, needs: &Needs, struck: SuitSet) -> u16 {
    each(among)
        .filter(|&j| j != skip && matches(lives, j, needs, struck))
        .fold(0, |m, j| m | 1 << j)
}

/// Clears: whole penalties and struck words, the Island's choice included.
fn clears(deck: &Deck, lives: &[Live], island: Option<usize>) -> (u16, [SuitSet; MAX_HAND]) {
    let mut cleared = island.map_or(0, |i| 1u16 << i);
    let mut struck = [0; MAX_HAND];
    for live in lives {
        let Some(bonus) = live.bonus else { continue };
        for rule in &deck.card(bonus).bonus {
            for (j, other) in lives.iter().enumerate() {
                match rule {
                    Bonus::ClearAllPenalties => cleared |= 1 << j,
                    Bonus::ClearPenalties { suits } if suits.contains(&other.suit) => {
                        cleared |= 1 << j;
                    }
                    Bonus::StrikeWord { word, suits }
                        if suits.as_ref().is_none_or(|s| s.contains(&other.suit)) =>
                    {
                        struck[j] |= word.bit();
                    }
                    _ => {}
                }
            }
        }
    }
    (cleared, struck)
}

/// A card's own blanking condition after struck words.
enum Condition<'a> {
    Unless(&'a Needs),
    With(&'a Needs),
}

/// Settle clears and blanking (see the module comment).
fn settle(deck: &Deck, lives: &[Live], island: Option<usize>) -> Settled {
    let n = lives.len();
    let (cleared, struck) = clears(deck, lives, island);
    let all: u16 = (1u16 << n) - 1;
    let mut targets = [0u16; MAX_HAND];
    let mut conditions: [Vec<Condition>; MAX_HAND] = Default::default();
    for (i, live) in lives.iter().enumerate() {
        let Some(penalty) = live.penalty.filter(|_| cleared & (1 << i) == 0) else {
            continue;
        };
        for rule in &deck.card(penalty).penalty {
            match rule {
                Penalty::Blanks {
                    suits,
                    except,
                    other,
                } => {
                    let hit = bits(suits) & !struck[i];
                    for (j, target) in lives.iter().enumerate() {
                        let spared = except.name_set & (1u64 << target.name) != 0;
                        if hit & target.suit.bit() != 0 && !spared && !(*other && i == j) {
                            targets[i] |= 1 << j;
                        }
                    }
                }
                Penalty::BlanksAllExcept { suits, names } => {
                    let spared = bits(suits);
                    for (j, target) in lives.iter().enumerate() {
                        let named = names.name_set & (1u64 << target.name) != 0;
                        if spared & target.suit.bit() == 0 && !named {
                            targets[i] |= 1 << j;
                        }
                    }
                }
                Penalty::BlankedUnless { needs } if !needs.is_empty_after(struck[i]) => {
                    conditions[i].push(Condition::Unless(needs));
                }
                Penalty::BlankedWith { any } if !any.is_empty_after(struck[i]) => {
                    conditions[i].push(Condition::With(any));
                }
                _ => {}
            }
        }
    }
    let mut cause = [None; MAX_HAND];
    if targets.iter().all(|&t| t == 0) && conditions.iter().all(Vec::is_empty) {
        return Settled {
            cleared,
            struck,
            blanked: 0,
            cause,
        };
    }
    let threateners = |j: usize, undecided: u16| {
        (0..n)
            .filter(|&i| i != j && undecided & (1 << i) != 0 && targets[i] & (1 << j) != 0)
            .fold(0u16, |m, i| m | 1 << i)
    };
    let (mut undecided, mut active, mut blanked) = (all, 0u16, 0u16);
    while undecided != 0 {
        let mut progress = false;
        for j in each(undecided) {
            if undecided & (1 << j) == 0 || threateners(j, undecided) != 0 {
                continue;
            }
            match decide(
                lives,
                j,
                &conditions[j],
                struck[j],
                active,
                undecided,
                false,
            ) {
                Decision::Wait => continue,
                Decision::Blank(why) => {
                    blanked |= 1 << j;
                    cause[j] = Some(why);
                }
                Decision::Keep => {
                    active |= 1 << j;
                    for k in each(targets[j] & (undecided | 1 << j)) {
                        blanked |= 1 << k;
                        cause[k] = Some(Blank::By(j));
                    }
                    active &= !blanked;
                }
            }
            undecided &= !(blanked | active);
            progress = true;
        }
        if progress {
            continue;
        }
        let threatened: Vec<(usize, u16)> = each(undecided)
            .map(|j| (j, threateners(j, undecided)))
            .filter(|&(_, by)| by != 0)
            .collect();
        if threatened.is_empty() {
            // Conditions waiting on one another: count every undecided card as present.
            let decisions: Vec<(usize, Decision)> = each(undecided)
                .map(|j| {
                    (
                        j,
                        decide(lives, j, &conditions[j], struck[j], active, undecided, true),
                    )
                })
                .collect();
            for (j, decision) in decisions {
                if let Decision::Blank(why) = decision {
                    blanked |= 1 << j;
                    cause[j] = Some(why);
                }
            }
            break;
        }
        for (j, by) in threatened {
            blanked |= 1 << j;
            cause[j] = Some(Blank::Cycle(by.trailing_zeros() as usize));
            undecided &= !(1 << j);
        }
    }
    Settled {
        cleared,
        struck,
        blanked,
        cause,
    }
}

enum Decision {
    Keep,
    Blank(Blank),
    Wait,
}

/// Decide card `j`'s own conditions, if the cards they look at are settled
/// (or, with `assume_present`, counting undecided cards as present).
fn decide(
    lives: &[Live],
    j: usize,
    conditions: &[Condition],
    struck: SuitSet,
    active: u16,
    undecided: u16,
    assume_present: bool,
) -> Decision {
    let mut wait = false;
    for condition in conditions {
        let (needs, blank_when_present) = match condition {
            Condition::Unless(needs) => (*needs, false),
            Condition::With(needs) => (*needs, true),
        };
        let present = matching(lives, active | undecided, j, needs, struck);
        let certain = present & active;
        let found = if assume_present { present } else { certain };
        match (blank_when_present, found != 0, present != 0) {
            (true, true, _) => {
                return Decision::Blank(Blank::With(found.trailing_zeros() as usize));
            }
            (false, false, false) => return Decision::Blank(Blank::Lacking(j)),
            (_, false, true) => wait = true,
            _ => {}
        }
    }
    if wait && !assume_present {
        Decision::Wait
    } else {
        Decision::Keep
    }
}

/// Score the cards as they stand: clears, blanks, then points.
pub(crate) fn evaluate(deck: &Deck, lives: &[Live], island: Option<usize>) -> Outcome {
    let settled = settle(deck, lives, island);
    let active = ((1u16 << lives.len()) - 1) & !settled.blanked;
    let mut points = [0; MAX_HAND];
    let (mut total, mut base_strength) = (0, 0);
    for i in each(active) {
        let live = &lives[i];
        let mut p = live.strength;
        if let Some(bonus) = live.bonus {
            p += deck
                .card(bonus)
                .bonus
                .iter()
                .map(|b| bonus_points(lives, active, i, b))
                .sum::<i32>();
        }
        if let Some(penalty) = live.penalty.filter(|_| settled.cleared & (1 << i) == 0) {
            let struck = settled.struck[i];
            p += deck
                .card(penalty)
                .penalty
                .iter()
                .map(|r| penalty_points(lives, active, i, r, struck))
                .sum::<i32>();
        }
        points[i] = p;
        total += p;
        base_strength += live.strength;
    }
    Outcome {
        total,
        base_strength,
        points,
        settled,
    }
}

fn all_met(lives: &[Live], active: u16, i: usize, groups: &[Needs], struck: SuitSet) -> bool {
    groups
        .iter()
        .all(|needs| matching(lives, active, i, needs, struck) != 0)
}

fn count(lives: &[Live], active: u16, i: usize, of: &Needs, other: bool, struck: SuitSet) -> i32 {
    let skip = if other { i } else { MAX_HAND };
    matching(lives, active, skip, of, struck).count_ones() as i32
}

fn bonus_points(lives: &[Live], active: u16, i: usize, rule: &Bonus) -> i32 {
    match rule {
        Bonus::With { points, needs } => {
            if all_met(lives, active, i, needs, 0) {
                *points
            } else {
                0
            }
        }
        Bonus::Without { points, absent } => {
            if matching(lives, active, i, absent, 0) == 0 {
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
            if all_met(lives, active, i, needs, 0) {
                points * count(lives, active, i, of, *other, 0)
            } else {
                0
            }
        }
        Bonus::BestOf { options } => options
            .iter()
            .map(|o| bonus_points(lives, active, i, o))
            .max()
            .unwrap_or(0),
        Bonus::Strongest { of } => each(active)
            .filter(|&j| matches(lives, j, of, 0))
            .map(|j| lives[j].strength)
            .max()
            .unwrap_or(0),
        Bonus::StrengthSum { of } => each(active)
            .filter(|&j| matches(lives, j, of, 0))
            .map(|j| lives[j].strength)
            .sum(),
        Bonus::Runs { table } => run_points(table, lives, active),
        Bonus::SuitSets { table } => Suit::ALL
            .iter()
            .map(|&suit| {
                let names: NameSet = each(active)
                    .filter(|&j| lives[j].suit == suit)
                    .fold(0, |set, j| set | 1u64 << lives[j].name);
                by_size(table, names.count_ones())
            })
            .sum(),
        Bonus::AllSuitsDiffer { points } => {
            let mut seen: SuitSet = 0;
            let distinct = each(active).all(|j| {
                let fresh = seen & lives[j].suit.bit() == 0;
                seen |= lives[j].suit.bit();
                fresh
            });
            if distinct { *points } else { 0 }
        }
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

fn penalty_points(lives: &[Live], active: u16, i: usize, rule: &Penalty, struck: SuitSet) -> i32 {
    match rule {
        Penalty::UnlessWith { points, needs } => {
            let struck_away = needs.iter().any(|n| n.is_empty_after(struck));
            if struck_away || all_met(lives, active, i, needs, struck) {
                0
            } else {
                *points
            }
        }
        Penalty::ForEach { points, of, other } => {
            points * count(lives, active, i, of, *other, struck)
        }
        Penalty::Blanks { .. }
        | Penalty::BlanksAllExcept { .. }
        | Penalty::BlankedUnless { .. }
        | Penalty::BlankedWith { .. } => 0,
    }
}

/// The lengths of the runs (3 or more consecutive base strengths) among the
/// unblanked cards; equal strengths make no second run.
/// What Gem of Order's `table` gives for the runs among the cards of `active`.
/// Taking a card away never scores more (a run cut in two is worth less than
/// the whole), so all the cards give a ceiling for any of them.
pub(crate) fn run_points(table: &[(u8, i32)], lives: &[Live], active: u16) -> i32 {
    runs(lives, active).map(|len| by_size(table, len)).sum()
}

fn runs(lives: &[Live], active: u16) -> impl Iterator<Item = u32> {
    let mut strengths: u64 =
        each(active).fold(0, |set, j| set | 1u64 << lives[j].strength.clamp(0, 63));
    std::iter::from_fn(move || {
        while strengths != 0 {
            let start = strengths.trailing_zeros();
            let len = (!(strengths >> start)).trailing_zeros();
            strengths &= !(((1u64 << len) - 1) << start);
            if len >= 3 {
                return Some(len);
            }
        }
        None
    })
}

/// The points for a group of `size`: the entry for the largest listed size
/// not above it (a run of 8 scores as the table's longest run).
pub(crate) fn by_size(table: &[(u8, i32)], size: u32) -> i32 {
    table
        .iter()
        .rev()
        .find(|(at_least, _)| u32::from(*at_least) <= size)
        .map_or(0, |(_, p)| *p)
}

/// Turn an outcome into per-card lines a person can check.
fn describe(
    deck: &Deck,
    lives: &[Live],
    island: Option<usize>,
    outcome: &Outcome,
    choices: &Choices,
) -> Scored {
    let settled = &outcome.settled;
    let active = ((1u16 << lives.len()) - 1) & !settled.blanked;
    let cards = lives
        .iter()
        .enumerate()
        .map(|(i, live)| {
            let printed = deck.card(live.card);
            let renamed = live.name != live.card;
            let resuited = live.suit != deck.card(live.name).suit;
            let chosen = match (renamed, resuited) {
                (true, true) => Some(format!(
                    "{} ({})",
                    deck.card(live.name).name,
                    live.suit.title()
                )),
                (true, false) => Some(deck.card(live.name).name.clone()),
                (false, true) => Some(live.suit.title().to_string()),
                (false, false) => None,
            };
            let why = match settled.cause[i] {
                Some(cause) => blank_reason(deck, lives, i, cause),
                None => explain(deck, lives, active, i, settled, island, choices),
            };
            CardScore {
                card: live.card,
                name: printed.name.clone(),
                points: outcome.points[i],
                blanked: settled.blanked & (1 << i) != 0,
                chosen,
                why,
            }
        })
        .collect();
    Scored {
        total: outcome.total,
        base_strength: outcome.base_strength,
        cards,
        choices: choices.clone(),
    }
}

fn blank_reason(deck: &Deck, lives: &[Live], i: usize, cause: Blank) -> String {
    let name = |j: usize| deck.card(lives[j].card).name.as_str();
    match cause {
        Blank::By(j) if j == i => "blanked by its own penalty".to_string(),
        Blank::By(j) => format!("blanked by {}", name(j)),
        Blank::Cycle(j) => format!("blanked: it and {} blank each other", name(j)),
        Blank::Lacking(_) => "blanked: the card it needs is missing or blanked".to_string(),
        Blank::With(j) => format!("blanked because {} is in the hand", name(j)),
    }
}

fn explain(
    deck: &Deck,
    lives: &[Live],
    active: u16,
    i: usize,
    settled: &Settled,
    island: Option<usize>,
    choices: &Choices,
) -> String {
    let live = &lives[i];
    let mut parts = vec![format!("base {}", live.strength)];
    if let Some(bonus) = live.bonus {
        let rules = &deck.card(bonus).bonus;
        let gained: i32 = rules
            .iter()
            .map(|b| bonus_points(lives, active, i, b))
            .sum();
        if gained != 0 {
            parts.push(format!("bonus {gained:+}"));
        }
        for rule in rules {
            match rule {
                Bonus::ChangeSuit => {
                    if let Some((target, suit)) = choices.book {
                        parts.push(format!(
                            "made {} a {}",
                            deck.card(target).name,
                            suit.title()
                        ));
                    }
                }
                Bonus::ClearOnePenalty { .. } => {
                    if let Some(at) = island {
                        parts.push(format!(
                            "cleared the penalty of {}",
                            deck.card(lives[at].card).name
                        ));
                    }
                }
                Bonus::TakeFromDiscard { .. } => {
                    if let Some(taken) = choices.necromancer {
                        parts.push(format!(
                            "took {} from the discard area",
                            deck.card(taken).name
                        ));
                    }
                }
                _ => {}
            }
        }
    } else if live.name != live.card {
        parts.push(format!("copy of {}, no bonus", deck.card(live.name).name));
    }
    if let Some(penalty) = live.penalty {
        if settled.cleared & (1 << i) != 0 {
            parts.push("penalty cleared".to_string());
        } else {
            let lost: i32 = deck
                .card(penalty)
                .penalty
                .iter()
                .map(|r| penalty_points(lives, active, i, r, settled.struck[i]))
                .sum();
            if lost != 0 {
                parts.push(format!("penalty {lost}"));
            }
            let named = penalty_suits(deck, penalty);
            for suit in Suit::ALL
                .iter()
                .filter(|s| settled.struck[i] & named & s.bit() != 0)
            {
                parts.push(format!("the word {} struck from its penalty", suit.title()));
            }
        }
    }
    parts.join(", ")
}

/// The suits named by the penalty of `card` (to report struck words).
fn penalty_suits(deck: &Deck, card: CardId) -> SuitSet {
    deck.card(card).penalty.iter().fold(0, |set, rule| {
        set | match rule {
            Penalty::UnlessWith { needs, .. } => needs.iter().fold(0, |m, n| m | n.suits),
            Penalty::ForEach { of, .. } => of.suits,
            Penalty::Blanks { suits, .. } => bits(suits),
            Penalty::BlanksAllExcept { .. } => 0,
            Penalty::BlankedUnless { needs } => needs.suits,
            Penalty::BlankedWith { any } => any.suits,
        }
    })
}
