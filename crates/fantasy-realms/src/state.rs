//! A Fantasy Realms table and how a turn changes it (Fantasy Realms rulebook, "Game play",
//! "End of game", and the variants "Two-player Realms" and "Chaos Realms").
//!
//! The table is plain data kept as JSON between turns. Playing a turn returns
//! what happened as [`Happening`]s with who saw each, so reports never guess
//! at visibility: a card drawn from the deck is seen only by its drawer;
//! takes, discards and the final scores are public.

use serde::{Deserialize, Serialize};

use super::best::best;
use super::cards::{CardId, Deck};
use super::orders::{Action, Condition, Orders, Rule, Target, Trade};
use super::scoring::Scored;
use realmgm_core::dice::Dice;

/// Cards dealt to every player at the start.
pub const HAND: usize = 7;
/// Cards in the discard area that end the game.
pub const DISCARDS_TO_END: usize = 10;
/// The same for the two-player variant, once both hands are full.
pub const TWO_PLAYER_DISCARDS_TO_END: usize = 12;
/// Cards the Necromancer draws after trading in Chaos Realms.
pub const NECROMANCER_DRAWS: usize = 3;

/// Which way the game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    Standard,
    TwoPlayer,
    ChaosRealms,
}

/// Where the game stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// A player's turn (the seat index).
    Turn {
        seat: usize,
    },
    /// Chaos Realms: every player may offer trades.
    Trading,
    /// Chaos Realms: the Necromancer's holder picks one of the cards drawn.
    Necromancer {
        seat: usize,
        drawn: Vec<CardId>,
    },
    Finished,
}

/// One player at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub player: String,
    pub hand: Vec<CardId>,
    /// His standing orders, used on each of his turns until replaced.
    pub orders: Option<Orders>,
}

/// How one card of a final hand scored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardLine {
    pub card: String,
    pub points: i32,
    pub blanked: bool,
    /// The identity or suit chosen for it.
    pub chosen: Option<String>,
    pub why: String,
}

/// One player's final score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalScore {
    pub player: String,
    pub total: i32,
    pub base_strength: i32,
    pub cards: Vec<CardLine>,
    pub winner: bool,
}

/// The whole table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    pub variant: Variant,
    pub seats: Vec<Seat>,
    /// The draw pile; the top card is the last.
    pub deck: Vec<CardId>,
    /// The discard area in the order the cards were laid down.
    pub discard: Vec<CardId>,
    pub phase: Phase,
    /// Turns played so far.
    pub turns: u32,
    /// Filled when the game ends.
    pub scores: Vec<FinalScore>,
}

/// Who saw a happening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seen {
    Everyone,
    Only(Vec<String>),
}

/// Something that happened at the table, in the form events carry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Happening {
    /// Public: someone drew from the deck (how many, not which).
    Drew {
        player: String,
        count: usize,
    },
    /// Only the drawer: which cards he drew.
    DrewCards {
        player: String,
        cards: Vec<String>,
    },
    Took {
        player: String,
        card: String,
    },
    Discarded {
        player: String,
        card: String,
    },
    /// Only the player: which of his rules played the turn.
    RulePlayed {
        player: String,
        rule: String,
    },
    /// Only the player: none of his rules applied, the default was played.
    DefaultPlayed {
        player: String,
        reason: String,
    },
    /// Only the two traders: the cards.
    Traded {
        player: String,
        gave: String,
        other: String,
        got: String,
    },
    /// Public: two players traded a card (not which).
    TradeMade {
        player: String,
        other: String,
    },
    /// Only the player: an offer that found no match.
    TradeUnmatched {
        player: String,
        offer: String,
    },
    /// Only the Necromancer's holder.
    NecromancerKept {
        player: String,
        kept: String,
        returned: Vec<String>,
    },
    /// Public: the Necromancer added a card from the deck.
    NecromancerUsed {
        player: String,
    },
    GameEnded {
        reason: String,
    },
    FinalScores {
        scores: Vec<FinalScore>,
    },
}

/// Deal a new table: shuffle with "setup/deal", deal seven each (none in the
/// two-player variant), choose the first player with "setup/first player".
pub fn deal(deck: &Deck, players: &[String], variant: Variant, dice: &mut Dice) -> Table {
    let mut pile: Vec<CardId> = deck.ids().collect();
    dice.shuffle("setup/deal", &mut pile);
    let dealt = if variant == Variant::TwoPlayer {
        0
    } else {
        HAND
    };
    let mut seats: Vec<Seat> = players
        .iter()
        .map(|p| Seat {
            player: p.clone(),
            hand: Vec::new(),
            orders: None,
        })
        .collect();
    for _ in 0..dealt {
        for seat in &mut seats {
            seat.hand.extend(pile.pop());
        }
    }
    let phase = if variant == Variant::ChaosRealms {
        Phase::Trading
    } else {
        Phase::Turn {
            seat: dice.below("setup/first player", players.len() as u32) as usize,
        }
    };
    Table {
        variant,
        seats,
        deck: pile,
        discard: Vec::new(),
        phase,
        turns: 0,
        scores: Vec::new(),
    }
}

/// What a turn's play needs besides the table.
pub struct Play<'a> {
    pub deck: &'a Deck,
    pub happenings: Vec<(Seen, Happening)>,
}

impl Play<'_> {
    fn name(&self, id: CardId) -> String {
        self.deck.card(id).name.clone()
    }

    fn public(&mut self, happening: Happening) {
        self.happenings.push((Seen::Everyone, happening));
    }

    fn private(&mut self, player: &str, happening: Happening) {
        self.happenings
            .push((Seen::Only(vec![player.to_string()]), happening));
    }

    /// Whether `rule` can be carried out by `seat` now, and how.
    pub fn applies(&self, table: &Table, seat: usize, rule: &Rule) -> bool {
        let hand = &table.seats[seat].hand;
        let held = |id: CardId| hand.contains(&id);
        let discarded = |id: CardId| table.discard.contains(&id);
        let conditions = rule.conditions.iter().all(|c| match *c {
            Condition::Discarded(id) => discarded(id),
            Condition::NotDiscarded(id) => !discarded(id),
            Condition::Holding(id) => held(id),
            Condition::NotHolding(id) => !held(id),
        });
        let drafting = table.drafting(seat);
        conditions
            && match rule.action {
                Action::Draw { discard } => {
                    table.deck.len() >= table.draw_count(seat)
                        && match discard {
                            Target::Card(id) => held(id),
                            Target::Lowest => true,
                        }
                }
                Action::Take { card, discard } => {
                    discarded(card)
                        && match (discard, drafting) {
                            (None, true) => true,
                            (Some(Target::Card(id)), false) => held(id) || id == card,
                            (Some(Target::Lowest), false) => true,
                            _ => false,
                        }
                }
            }
    }

    /// Play one turn of `seat` with `action` (which [`Play::applies`]).
    pub fn turn(&mut self, table: &mut Table, seat: usize, action: Action) {
        let player = table.seats[seat].player.clone();
        let discard = match action {
            Action::Draw { discard } => {
                let count = table.draw_count(seat);
                let mut drawn = Vec::new();
                for _ in 0..count {
                    drawn.extend(table.deck.pop());
                }
                table.seats[seat].hand.extend(&drawn);
                self.public(Happening::Drew {
                    player: player.clone(),
                    count: drawn.len(),
                });
                let cards = drawn.iter().map(|&c| self.name(c)).collect();
                self.private(
                    &player,
                    Happening::DrewCards {
                        player: player.clone(),
                        cards,
                    },
                );
                Some(discard)
            }
            Action::Take { card, discard } => {
                table.discard.retain(|&c| c != card);
                table.seats[seat].hand.push(card);
                self.public(Happening::Took {
                    player: player.clone(),
                    card: self.name(card),
                });
                discard
            }
        };
        if let Some(target) = discard {
            let card = match target {
                Target::Card(id) => id,
                Target::Lowest => self.lowest(&table.seats[seat].hand, &table.discard),
            };
            table.seats[seat].hand.retain(|&c| c != card);
            table.discard.push(card);
            self.public(Happening::Discarded {
                player,
                card: self.name(card),
            });
        }
        table.turns += 1;
    }

    /// The card of `hand` whose loss costs least: the one leaving the best
    /// score (ties: lower base strength, then the first in the hand).
    pub fn lowest(&self, hand: &[CardId], discard: &[CardId]) -> CardId {
        let mut pick = (hand.first().copied().unwrap_or_default(), i32::MIN, 0);
        for &card in hand {
            let kept: Vec<CardId> = hand.iter().copied().filter(|&c| c != card).collect();
            let mut area = discard.to_vec();
            area.push(card);
            let Ok(found) = best(self.deck, &kept, &area) else {
                continue;
            };
            let value = (found.scored.total, -found.scored.base_strength);
            if value > (pick.1, pick.2) {
                pick = (card, value.0, value.1);
            }
        }
        pick.0
    }

    /// Chaos Realms: carry out every trade both sides offered, in seat order
    /// of the first offer; a card already traded away makes a later offer
    /// fail.
    pub fn trades(&mut self, table: &mut Table, offers: &[(String, Vec<Trade>)]) {
        let seat_of = |table: &Table, name: &str| table.seats.iter().position(|s| s.player == name);
        let mut done: Vec<(String, CardId)> = Vec::new();
        for (player, trades) in offers {
            for trade in trades {
                let matched = offers.iter().any(|(other, theirs)| {
                    *other == trade.with
                        && theirs.iter().any(|t| {
                            t.with == *player && t.give == trade.get && t.get == trade.give
                        })
                });
                let already = done.iter().any(|(p, c)| {
                    (p == player && *c == trade.give) || (*p == trade.with && *c == trade.get)
                });
                if already {
                    continue;
                }
                let (Some(a), Some(b)) = (seat_of(table, player), seat_of(table, &trade.with))
                else {
                    continue;
                };
                let possible = table.seats[a].hand.contains(&trade.give)
                    && table.seats[b].hand.contains(&trade.get);
                if !(matched && possible) {
                    let offer = format!(
                        "{} for {} with {}",
                        self.name(trade.give),
                        self.name(trade.get),
                        trade.with
                    );
                    self.private(
                        player,
                        Happening::TradeUnmatched {
                            player: player.clone(),
                            offer,
                        },
                    );
                    continue;
                }
                table.seats[a].hand.retain(|&c| c != trade.give);
                table.seats[b].hand.retain(|&c| c != trade.get);
                table.seats[a].hand.push(trade.get);
                table.seats[b].hand.push(trade.give);
                done.push((player.clone(), trade.give));
                done.push((trade.with.clone(), trade.get));
                let body = Happening::Traded {
                    player: player.clone(),
                    gave: self.name(trade.give),
                    other: trade.with.clone(),
                    got: self.name(trade.get),
                };
                self.happenings
                    .push((Seen::Only(vec![player.clone(), trade.with.clone()]), body));
                self.public(Happening::TradeMade {
                    player: player.clone(),
                    other: trade.with.clone(),
                });
            }
        }
    }

    /// Chaos Realms: the Necromancer's holder keeps one of the cards he drew;
    /// the others go back under the deck.
    pub fn necromancer_keeps(&mut self, table: &mut Table, seat: usize, keep: Target) {
        let Phase::Necromancer { drawn, .. } = &table.phase else {
            return;
        };
        let drawn = drawn.clone();
        let kept = match keep {
            Target::Card(id) if drawn.contains(&id) => id,
            _ => self.best_addition(&table.seats[seat].hand, &drawn),
        };
        let player = table.seats[seat].player.clone();
        table.seats[seat].hand.push(kept);
        let returned: Vec<CardId> = drawn.iter().copied().filter(|&c| c != kept).collect();
        for &card in &returned {
            table.deck.insert(0, card);
        }
        let returned = returned.iter().map(|&c| self.name(c)).collect();
        self.private(
            &player,
            Happening::NecromancerKept {
                player: player.clone(),
                kept: self.name(kept),
                returned,
            },
        );
        self.public(Happening::NecromancerUsed { player });
    }

    /// The card of `drawn` that scores best added to `hand`.
    fn best_addition(&self, hand: &[CardId], drawn: &[CardId]) -> CardId {
        let mut pick = (drawn.first().copied().unwrap_or_default(), i32::MIN, 0);
        for &card in drawn {
            let mut with = hand.to_vec();
            with.push(card);
            let Ok(found) = best(self.deck, &with, &[]) else {
                continue;
            };
            let value = (found.scored.total, -found.scored.base_strength);
            if value > (pick.1, pick.2) {
                pick = (card, value.0, value.1);
            }
        }
        pick.0
    }

    /// Score every hand with its best choices and mark the winners: the
    /// highest total, ties to the lower base strength (still tied: all win).
    pub fn final_scores(&mut self, table: &mut Table, reason: &str) {
        self.public(Happening::GameEnded {
            reason: reason.to_string(),
        });
        // In Chaos Realms the Necromancer's own text is replaced, and there
        // is no discard area to take from.
        let area: &[CardId] = if table.variant == Variant::ChaosRealms {
            &[]
        } else {
            &table.discard
        };
        let mut scores: Vec<FinalScore> = table
            .seats
            .iter()
            .map(|seat| match best(self.deck, &seat.hand, area) {
                Ok(found) => final_score(&seat.player, &found.scored),
                Err(e) => FinalScore {
                    player: seat.player.clone(),
                    total: 0,
                    base_strength: 0,
                    cards: vec![CardLine {
                        card: String::new(),
                        points: 0,
                        blanked: false,
                        chosen: None,
                        why: format!("the hand could not be scored: {e}"),
                    }],
                    winner: false,
                },
            })
            .collect();
        let top = scores
            .iter()
            .map(|s| (s.total, -s.base_strength))
            .max()
            .unwrap_or_default();
        for score in &mut scores {
            score.winner = (score.total, -score.base_strength) == top;
        }
        table.scores = scores.clone();
        table.phase = Phase::Finished;
        self.public(Happening::FinalScores { scores });
    }
}

fn final_score(player: &str, scored: &Scored) -> FinalScore {
    FinalScore {
        player: player.to_string(),
        total: scored.total,
        base_strength: scored.base_strength,
        cards: scored
            .cards
            .iter()
            .map(|c| CardLine {
                card: c.name.clone(),
                points: c.points,
                blanked: c.blanked,
                chosen: c.chosen.clone(),
                why: c.why.clone(),
            })
            .collect(),
        winner: false,
    }
}

impl Table {
    /// Whether `seat` is still filling his hand (two-player variant).
    pub fn drafting(&self, seat: usize) -> bool {
        self.variant == Variant::TwoPlayer && self.seats[seat].hand.len() < HAND
    }

    /// How many cards a draw takes from the deck.
    pub fn draw_count(&self, seat: usize) -> usize {
        if self.drafting(seat) { 2 } else { 1 }
    }

    /// Why the game ends after the last turn, if it does.
    pub fn end_reason(&self) -> Option<String> {
        let full = self.seats.iter().all(|s| s.hand.len() >= HAND);
        let needed = match self.variant {
            Variant::TwoPlayer if !full => return self.deck_empty_reason(),
            Variant::TwoPlayer => TWO_PLAYER_DISCARDS_TO_END,
            _ => DISCARDS_TO_END,
        };
        if self.discard.len() >= needed {
            return Some(format!("{needed} cards lie in the discard area"));
        }
        self.deck_empty_reason()
    }

    /// The deck running out ends the game too (ruling: the seed does not
    /// say, and no draw is possible after it).
    fn deck_empty_reason(&self) -> Option<String> {
        self.deck
            .is_empty()
            .then(|| "the deck has run out".to_string())
    }

    /// The seat of `player`.
    pub fn seat_of(&self, player: &str) -> Option<usize> {
        self.seats.iter().position(|s| s.player == player)
    }

    /// The seat to move, if the game is in turns.
    pub fn to_move(&self) -> Option<usize> {
        match self.phase {
            Phase::Turn { seat } => Some(seat),
            _ => None,
        }
    }
}
