//! Reading a Fantasy Realms player's orders (Fantasy Realms rulebook, "Game play": draw the
//! top card or take a face-up card, then discard; the Chaos Realms variant's
//! one-for-one trades and the Necromancer's choice).
//!
//! Orders are a short list of rules, one a line, tried top to bottom; the
//! first that applies plays the turn, and they stand until replaced:
//!
//! ```text
//! if Dragon is discarded: take Dragon, discard Candle
//! if Unicorn is discarded and I hold Princess: take Unicorn, discard lowest
//! else: draw, discard lowest
//! ```
//!
//! A rule without `if` applies whenever it can be carried out (the card to
//! take lies in the discard area, the card to discard is in the hand).
//! `discard lowest` discards the card whose loss costs least by exact
//! scoring. Card names ignore case and accents. Chaos Realms adds
//! `trade Candle for Dragon with Bob` and `keep Dragon` or `keep best` (the
//! Necromancer).

use serde::{Deserialize, Serialize};

use super::cards::{CardId, Deck};
use realmgm_core::game::OrdersProblem;

/// Which card to discard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    Card(CardId),
    /// The card whose loss costs least by exact scoring.
    Lowest,
}

/// What a turn does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Draw the top card of the deck (two while drafting in the two-player
    /// variant), then discard.
    Draw { discard: Target },
    /// Take a face-up card from the discard area, then discard (no discard
    /// while drafting in the two-player variant).
    Take {
        card: CardId,
        discard: Option<Target>,
    },
}

/// A test on what the player can see.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// The card lies face up in the discard area.
    Discarded(CardId),
    NotDiscarded(CardId),
    /// The card is in the player's hand.
    Holding(CardId),
    NotHolding(CardId),
}

/// One line: every condition must hold (none: `else` or a plain action).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rule {
    pub conditions: Vec<Condition>,
    pub action: Action,
    /// Written with `else:`.
    pub otherwise: bool,
}

/// A one-for-one trade offer (Chaos Realms): it happens when the other
/// player offers the same two cards back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trade {
    pub give: CardId,
    pub get: CardId,
    pub with: String,
}

/// A player's orders as the engine keeps them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Orders {
    pub rules: Vec<Rule>,
    pub trades: Vec<Trade>,
    /// The card the Necromancer keeps of the three he drew (Chaos Realms).
    pub keep: Option<Target>,
    /// False for the game's orders for a missing player: they play one turn
    /// and do not replace the player's standing orders.
    pub standing: bool,
}

/// The orders given to a player who sent none: draw, then discard the card
/// whose loss costs least (in Chaos Realms: no trades, and the Necromancer
/// keeps the card that scores best).
pub fn missing() -> Orders {
    Orders {
        rules: vec![Rule {
            conditions: Vec::new(),
            action: Action::Draw {
                discard: Target::Lowest,
            },
            otherwise: true,
        }],
        trades: Vec::new(),
        keep: None,
        standing: false,
    }
}

/// A piece of a line with its 1-based column.
#[derive(Clone, Copy)]
struct Piece<'a> {
    text: &'a str,
    column: usize,
}

impl<'a> Piece<'a> {
    fn trimmed(self) -> Piece<'a> {
        let start = self.text.len() - self.text.trim_start().len();
        Piece {
            text: self.text.trim(),
            column: self.column + self.text[..start].chars().count(),
        }
    }

    /// Split at the first `sep`, keeping columns.
    fn split_once(self, sep: &str) -> Option<(Piece<'a>, Piece<'a>)> {
        let at = self.text.find(sep)?;
        let rest = &self.text[at + sep.len()..];
        Some((
            Piece {
                text: &self.text[..at],
                column: self.column,
            },
            Piece {
                text: rest,
                column: self.column + self.text[..at + sep.len()].chars().count(),
            },
        ))
    }

    /// Split at every `sep`.
    fn split_all(self, sep: &str) -> Vec<Piece<'a>> {
        let mut parts = Vec::new();
        let mut rest = self;
        while let Some((head, tail)) = rest.split_once(sep) {
            parts.push(head);
            rest = tail;
        }
        parts.push(rest);
        parts
    }

    /// The rest after a leading keyword (any case), if the piece starts with it
    /// followed by a space or the end.
    fn after_word(self, word: &str) -> Option<Piece<'a>> {
        let text = self.text;
        let head = text.get(..word.len())?;
        let rest = &text[word.len()..];
        if !head.eq_ignore_ascii_case(word) || !(rest.is_empty() || rest.starts_with(' ')) {
            return None;
        }
        Some(
            Piece {
                text: rest,
                column: self.column + word.len(),
            }
            .trimmed(),
        )
    }

    /// The rest before a trailing phrase (any case).
    fn before_phrase(self, phrase: &str) -> Option<Piece<'a>> {
        let text = self.text;
        let cut = text.len().checked_sub(phrase.len())?;
        let tail = text.get(cut..)?;
        tail.eq_ignore_ascii_case(phrase).then(|| {
            Piece {
                text: &text[..cut],
                column: self.column,
            }
            .trimmed()
        })
    }
}

/// Reads orders against the deck and, for trades, the other players' names.
pub struct Reader<'a> {
    pub deck: &'a Deck,
    pub player: &'a str,
    pub others: &'a [String],
}

/// One problem at a line and column.
fn problem(line: usize, column: usize, message: impl Into<String>) -> OrdersProblem {
    OrdersProblem {
        line,
        column,
        message: message.into(),
    }
}

impl Reader<'_> {
    /// Read every line of `text`; all problems are reported, not just the
    /// first.
    ///
    /// # Errors
    /// Every line that could not be read, with its line and column.
    pub fn read(&self, text: &str) -> Result<Orders, Vec<OrdersProblem>> {
        let mut orders = Orders {
            standing: true,
            ..Orders::default()
        };
        let mut problems = Vec::new();
        let lines: Vec<(usize, Piece)> = text
            .lines()
            .enumerate()
            .map(|(i, line)| {
                let line = line.split('#').next().unwrap_or_default();
                (
                    i + 1,
                    Piece {
                        text: line,
                        column: 1,
                    }
                    .trimmed(),
                )
            })
            .filter(|(_, piece)| !piece.text.is_empty())
            .collect();
        let mut index = 0;
        while index < lines.len() {
            let (number, piece) = lines[index];
            index += 1;
            let result = if let Some(rest) = piece.after_word("trade") {
                self.trade(number, rest).map(|t| orders.trades.push(t))
            } else if let Some(rest) = piece.after_word("keep") {
                // `keep best`: the drawn card that scores best.
                if rest.text.eq_ignore_ascii_case("best") {
                    orders.keep = Some(Target::Lowest);
                    Ok(())
                } else {
                    self.card(number, rest)
                        .map(|id| orders.keep = Some(Target::Card(id)))
                }
            } else {
                // A bare `draw` or `take X` may have its discard on the next line.
                let mut joined = None;
                if let Some((next_number, next)) = lines.get(index)
                    && next.after_word("discard").is_some()
                    && !piece.text.contains(',')
                    && !piece.text.contains(':')
                {
                    joined = Some((*next_number, *next));
                    index += 1;
                }
                self.rule(number, piece, joined)
                    .map(|r| orders.rules.push(r))
            };
            if let Err(p) = result {
                problems.push(p);
            }
        }
        let nothing = orders.rules.is_empty() && orders.trades.is_empty() && orders.keep.is_none();
        if nothing && problems.is_empty() {
            problems.push(problem(
                1,
                1,
                "no orders found; write for example `draw, discard lowest` or \
                 `if Dragon is discarded: take Dragon, discard Candle`",
            ));
        }
        if problems.is_empty() {
            Ok(orders)
        } else {
            Err(problems)
        }
    }

    fn card(&self, line: usize, piece: Piece) -> Result<CardId, OrdersProblem> {
        let piece = piece.trimmed();
        if piece.text.is_empty() {
            return Err(problem(line, piece.column, "a card name is missing here"));
        }
        self.deck
            .find(piece.text)
            .map_err(|message| problem(line, piece.column, message.to_string()))
    }

    fn target(&self, line: usize, piece: Piece) -> Result<Target, OrdersProblem> {
        if piece.text.eq_ignore_ascii_case("lowest") {
            Ok(Target::Lowest)
        } else {
            self.card(line, piece).map(Target::Card)
        }
    }

    fn trade(&self, line: usize, rest: Piece) -> Result<Trade, OrdersProblem> {
        let shape = "write a trade as `trade <your card> for <their card> with <player>`";
        let (give, rest) = rest
            .split_once(" for ")
            .ok_or_else(|| problem(line, rest.column, shape))?;
        let (get, with) = rest
            .split_once(" with ")
            .ok_or_else(|| problem(line, rest.column, shape))?;
        let (give, get) = (self.card(line, give)?, self.card(line, get)?);
        let with = with.trimmed();
        let names = self.others.iter().map(String::as_str);
        let Some(found) = realmgm_core::suggest::find(with.text, names.clone()) else {
            let hint = realmgm_core::suggest::did_you_mean(with.text, names);
            let message = if realmgm_core::suggest::find(with.text, [self.player]).is_some() {
                "you cannot trade with yourself".to_string()
            } else {
                format!("there is no other player named '{}'{hint}", with.text)
            };
            return Err(problem(line, with.column, message));
        };
        Ok(Trade {
            give,
            get,
            with: found.to_string(),
        })
    }

    fn rule(
        &self,
        line: usize,
        piece: Piece,
        joined: Option<(usize, Piece)>,
    ) -> Result<Rule, OrdersProblem> {
        let (conditions, action, otherwise) = if let Some(rest) = piece.after_word("if") {
            let (tests, action) = rest.split_once(":").ok_or_else(|| {
                problem(
                    line,
                    rest.column,
                    "a rule with `if` needs a colon before its action, as in \
                     `if Dragon is discarded: take Dragon, discard Candle`",
                )
            })?;
            let mut conditions = Vec::new();
            for test in tests.split_all(" and ") {
                conditions.push(self.condition(line, test.trimmed())?);
            }
            (conditions, action.trimmed(), false)
        } else if let Some(rest) = piece.after_word("else").or_else(|| {
            piece
                .text
                .to_ascii_lowercase()
                .starts_with("else:")
                .then(|| {
                    Piece {
                        text: &piece.text[4..],
                        column: piece.column + 4,
                    }
                    .trimmed()
                })
        }) {
            let action = rest.text.strip_prefix(':').map_or(rest, |after| {
                Piece {
                    text: after,
                    column: rest.column + 1,
                }
                .trimmed()
            });
            (Vec::new(), action, true)
        } else {
            (Vec::new(), piece, false)
        };
        let action = self.action(line, action, joined)?;
        Ok(Rule {
            conditions,
            action,
            otherwise,
        })
    }

    fn condition(&self, line: usize, test: Piece) -> Result<Condition, OrdersProblem> {
        if let Some(card) = test.before_phrase(" is not discarded") {
            return self.card(line, card).map(Condition::NotDiscarded);
        }
        if let Some(card) = test.before_phrase(" is discarded") {
            return self.card(line, card).map(Condition::Discarded);
        }
        if let Some(rest) = test.after_word("I") {
            if let Some(card) = rest.after_word("hold") {
                return self.card(line, card).map(Condition::Holding);
            }
            if let Some(card) = rest
                .after_word("do")
                .and_then(|r| r.after_word("not"))
                .and_then(|r| r.after_word("hold"))
            {
                return self.card(line, card).map(Condition::NotHolding);
            }
        }
        Err(problem(
            line,
            test.column,
            format!(
                "'{}' is not a condition; write `<card> is discarded`, `<card> is not \
                 discarded`, `I hold <card>` or `I do not hold <card>`",
                test.text
            ),
        ))
    }

    fn action(
        &self,
        line: usize,
        piece: Piece,
        joined: Option<(usize, Piece)>,
    ) -> Result<Action, OrdersProblem> {
        let mut parts = piece.split_all(",");
        if parts.len() > 2 {
            return Err(problem(
                line,
                parts[2].column,
                "a turn is one draw or take, then one discard; put other rules on their own lines",
            ));
        }
        let first = parts.remove(0).trimmed();
        let discard = match (parts.pop(), joined) {
            (Some(part), _) => Some((line, part.trimmed())),
            (None, Some(next)) => Some(next),
            (None, None) => None,
        };
        let discard = match discard {
            Some((at, part)) => {
                let Some(rest) = part.after_word("discard") else {
                    return Err(problem(
                        at,
                        part.column,
                        format!(
                            "expected `discard <card>` or `discard lowest`, found '{}'",
                            part.text
                        ),
                    ));
                };
                Some(self.target(at, rest)?)
            }
            None => None,
        };
        if first.text.eq_ignore_ascii_case("draw") {
            let Some(discard) = discard else {
                return Err(problem(
                    line,
                    first.column + first.text.len(),
                    "after `draw` say what to discard, as in `draw, discard lowest`",
                ));
            };
            return Ok(Action::Draw { discard });
        }
        if let Some(card) = first.after_word("take") {
            let card = self.card(line, card)?;
            return Ok(Action::Take { card, discard });
        }
        Err(problem(
            line,
            first.column,
            format!(
                "'{}' is not an order; a turn is `draw` or `take <card>`, then `discard <card>` \
                 or `discard lowest`",
                first.text
            ),
        ))
    }
}

/// The orders written back in the form they were read, one rule a line.
pub fn canonical(deck: &Deck, orders: &Orders) -> String {
    let name = |id: CardId| deck.card(id).name.clone();
    let target = |t: Target| match t {
        Target::Card(id) => name(id),
        Target::Lowest => "lowest".to_string(),
    };
    let mut lines = Vec::new();
    for rule in &orders.rules {
        let action = match rule.action {
            Action::Draw { discard } => format!("draw, discard {}", target(discard)),
            Action::Take { card, discard } => match discard {
                Some(d) => format!("take {}, discard {}", name(card), target(d)),
                None => format!("take {}", name(card)),
            },
        };
        let tests: Vec<String> = rule
            .conditions
            .iter()
            .map(|c| match *c {
                Condition::Discarded(id) => format!("{} is discarded", name(id)),
                Condition::NotDiscarded(id) => format!("{} is not discarded", name(id)),
                Condition::Holding(id) => format!("I hold {}", name(id)),
                Condition::NotHolding(id) => format!("I do not hold {}", name(id)),
            })
            .collect();
        lines.push(if rule.otherwise {
            format!("else: {action}")
        } else if tests.is_empty() {
            action
        } else {
            format!("if {}: {action}", tests.join(" and "))
        });
    }
    for trade in &orders.trades {
        lines.push(format!(
            "trade {} for {} with {}",
            name(trade.give),
            name(trade.get),
            trade.with
        ));
    }
    match orders.keep {
        Some(Target::Card(id)) => lines.push(format!("keep {}", name(id))),
        Some(Target::Lowest) => lines.push("keep best".to_string()),
        None => {}
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::deck;

    fn read(text: &str) -> Result<Orders, Vec<OrdersProblem>> {
        let deck = deck().expect("deck");
        let others = vec!["Bob".to_string(), "Cat".to_string()];
        Reader {
            deck,
            player: "Ann",
            others: &others,
        }
        .read(text)
    }

    fn id(name: &str) -> CardId {
        deck().expect("deck").find(name).expect("card")
    }

    #[test]
    fn conditional_rules_read_and_write_back() {
        let text = "IF dragon is discarded and I hold candle: Take DRAGON, discard Candle\n\
                    if Unicorn is not discarded and I do not hold Princess: draw, discard lowest\n\
                    Else: draw, discard lowest";
        let orders = read(text).expect("reads");
        assert_eq!(orders.rules.len(), 3);
        assert_eq!(
            orders.rules[0].conditions,
            vec![
                Condition::Discarded(id("Dragon")),
                Condition::Holding(id("Candle"))
            ]
        );
        assert!(orders.rules[2].otherwise);
        let written = canonical(deck().expect("deck"), &orders);
        assert_eq!(
            written,
            "if Dragon is discarded and I hold Candle: take Dragon, discard Candle\n\
             if Unicorn is not discarded and I do not hold Princess: draw, discard lowest\n\
             else: draw, discard lowest"
        );
        assert_eq!(read(&written).expect("reads again"), orders);
    }

    #[test]
    fn a_discard_may_follow_on_the_next_line_and_accents_are_optional() {
        let orders = read("draw\ndiscard doppelganger  # the weakest").expect("reads");
        assert_eq!(
            orders.rules[0].action,
            Action::Draw {
                discard: Target::Card(id("Doppelgänger"))
            }
        );
        let orders = read("take Candle").expect("a draft take");
        assert_eq!(
            orders.rules[0].action,
            Action::Take {
                card: id("Candle"),
                discard: None
            }
        );
    }

    #[test]
    fn mistakes_name_their_line_and_column() {
        let problems = read("draw, discard lowest\nif Dragn is discarded: draw, discard lowest")
            .expect_err("typo");
        assert_eq!((problems[0].line, problems[0].column), (2, 4));
        assert!(
            problems[0].message.contains("did you mean Dragon"),
            "{}",
            problems[0].message
        );
        let problems = read("take Candle, discard Wildfyre\nfly away").expect_err("two");
        assert_eq!(problems.len(), 2);
        assert_eq!((problems[0].line, problems[0].column), (1, 22));
        assert_eq!((problems[1].line, problems[1].column), (2, 1));
        let problems = read("draw").expect_err("no discard");
        assert!(problems[0].message.contains("what to discard"));
        let problems = read("if Dragon is discarded take Dragon").expect_err("no colon");
        assert!(problems[0].message.contains("colon"));
        let problems = read("if Dragon is gone: draw, discard lowest").expect_err("condition");
        assert_eq!(problems[0].column, 4);
        assert!(read("# nothing\n\n").is_err());
    }

    #[test]
    fn trades_name_another_player() {
        let orders = read("trade Candle for Dragon with bob\nkeep best").expect("reads");
        assert_eq!(orders.keep, Some(Target::Lowest));
        assert_eq!(
            orders.trades[0],
            Trade {
                give: id("Candle"),
                get: id("Dragon"),
                with: "Bob".to_string()
            }
        );
        let problems = read("trade Candle for Dragon with Ann").expect_err("self");
        assert!(problems[0].message.contains("yourself"));
        let problems = read("trade Candle for Dragon with Bobb").expect_err("typo");
        assert!(problems[0].message.contains("did you mean Bob"));
        assert_eq!(problems[0].column, 30);
    }
}
