//! Fantasy Realms reports (Fantasy Realms rulebook): what a player may know — his own hand,
//! the face-up discard area, the deck's size, whose turn it is, what he saw
//! happen, and at the end every hand's scoring — and the GM's whole picture.
//!
//! A report is built only from the table and the happenings the reader
//! observed; another player's hand is never read for a player's report
//! before the final scores, which are public.

use serde::Serialize;

use super::cards::{CardId, Deck};
use super::orders;
use super::state::{FinalScore, Happening, Phase, Table, Variant};
use realmgm_core::game::{Reader, Report};
use realmgm_core::report_document::{Addressed, attachment};

/// The game's id, the report document's discriminator.
const GAME: &str = "fantasy-realms";

fn card_names<'a>(deck: &'a Deck, cards: &[CardId]) -> Vec<&'a str> {
    cards.iter().map(|&c| deck.card(c).name.as_str()).collect()
}

fn names(deck: &Deck, cards: &[CardId]) -> String {
    if cards.is_empty() {
        return "(none)".to_string();
    }
    card_names(deck, cards).join(", ")
}

/// A player's report as a JSON document: its part under `fantasy_realms`,
/// holding what his text shows, from the same values.
#[derive(Serialize)]
struct Part<'a> {
    fantasy_realms: FantasyRealms<'a>,
}

#[derive(Serialize)]
struct FantasyRealms<'a> {
    /// Turns played so far.
    turns: u32,
    variant: Variant,
    /// What he saw since his last report, one line each.
    news: Vec<String>,
    hand: Vec<&'a str>,
    standing_orders: Vec<&'a str>,
    /// The face-up discard area; `None` in Chaos Realms, which has none.
    discard: Option<Vec<&'a str>>,
    deck: usize,
    /// Every player in turn order with the number of cards he holds.
    players: Vec<Holding<'a>>,
    /// Whose turn it is and what to send.
    now: String,
    /// Every hand's scoring, once the game is over.
    final_scores: &'a [FinalScore],
}

#[derive(Serialize)]
struct Holding<'a> {
    player: &'a str,
    cards: usize,
}

/// One line for a happening, from `me`'s point of view (`None`: the GM).
fn line(happening: &Happening, me: Option<&str>) -> String {
    let who = |player: &str| {
        if me == Some(player) {
            "You".to_string()
        } else {
            player.to_string()
        }
    };
    match happening {
        Happening::Drew { player, count } => {
            let cards = if *count == 1 {
                "a card".to_string()
            } else {
                format!("{count} cards")
            };
            format!("{} drew {cards} from the deck.", who(player))
        }
        Happening::DrewCards { player, cards } => {
            format!("{} drew {}.", who(player), cards.join(", "))
        }
        Happening::Took { player, card } => {
            format!("{} took {card} from the discard area.", who(player))
        }
        Happening::Discarded { player, card } => format!("{} discarded {card}.", who(player)),
        Happening::RulePlayed { player, rule } => {
            format!("{} played by standing orders: {rule}", who(player))
        }
        Happening::DefaultPlayed { player, reason } => format!(
            "{}: {reason}, so the default was played (draw, discard lowest).",
            who(player)
        ),
        Happening::Traded {
            player,
            gave,
            other,
            got,
        } => format!(
            "{} gave {gave} to {} for {got}.",
            who(player),
            if me == Some(other.as_str()) {
                "you"
            } else {
                other
            }
        ),
        Happening::TradeMade { player, other } => {
            format!("{} and {} traded a card.", who(player), who(other))
        }
        Happening::TradeUnmatched { player, offer } => format!(
            "{} offered {offer}, but no matching offer came back (or a card was gone).",
            who(player)
        ),
        Happening::NecromancerKept {
            player,
            kept,
            returned,
        } => format!(
            "{} kept {kept} with the Necromancer; {} went back under the deck.",
            who(player),
            returned.join(", ")
        ),
        Happening::NecromancerUsed { player } => {
            format!(
                "{} used the Necromancer to add a card from the deck.",
                who(player)
            )
        }
        Happening::GameEnded { reason } => format!("The game is over: {reason}."),
        Happening::FinalScores { .. } => "The final scores are below.".to_string(),
    }
}

fn scores_text(scores: &[FinalScore], out: &mut Vec<String>) {
    out.push(String::new());
    out.push("Final scores".to_string());
    let mut order: Vec<&FinalScore> = scores.iter().collect();
    order.sort_by_key(|s| (std::cmp::Reverse(s.total), s.base_strength));
    for score in order {
        out.push(format!(
            "{}: {} points (base strength {}){}",
            score.player,
            score.total,
            score.base_strength,
            if score.winner { " — WINNER" } else { "" }
        ));
        for card in &score.cards {
            let chosen = card
                .chosen
                .as_ref()
                .map(|c| format!(" as {c}"))
                .unwrap_or_default();
            let state = if card.blanked { " [blanked]" } else { "" };
            out.push(format!(
                "  {:>4}  {}{chosen}{state}: {}",
                card.points, card.card, card.why
            ));
        }
    }
}

fn phase_text(table: &Table, me: Option<&str>) -> String {
    match &table.phase {
        Phase::Turn { seat } => {
            let player = &table.seats[*seat].player;
            if me == Some(player.as_str()) {
                if table.drafting(*seat) {
                    "It is your turn: send `take <card>` or `draw, discard <card>` \
                     (you draw two)."
                        .to_string()
                } else {
                    "It is your turn: send `draw` or `take <card>`, then `discard <card>` \
                     (or `discard lowest`)."
                        .to_string()
                }
            } else {
                format!("It is {player}'s turn.")
            }
        }
        Phase::Trading => "The trading window is open: send `trade <your card> for <their card> \
                           with <player>` lines; a trade happens when both sides offer it."
            .to_string(),
        Phase::Necromancer { seat, .. } => {
            let player = &table.seats[*seat].player;
            if me == Some(player.as_str()) {
                "Choose the card the Necromancer keeps: send `keep <card>` (or `keep best` \
                 for the one scoring best)."
                    .to_string()
            } else {
                format!("{player} is choosing a card for the Necromancer.")
            }
        }
        Phase::Finished => "The game is over.".to_string(),
    }
}

/// The report for `reader` of the table after a turn in which `seen` are
/// the happenings he observed.
///
/// # Errors
/// A player reader who has no seat.
pub fn render(
    deck: &Deck,
    table: &Table,
    seen: &[Happening],
    reader: Reader<'_>,
    campaign: &str,
) -> anyhow::Result<Report> {
    let me = match reader {
        Reader::Player(name) => {
            if table.seat_of(name).is_none() {
                anyhow::bail!("{name} has no seat in this game, so there is no report for him");
            }
            Some(name)
        }
        Reader::Gm => None,
    };
    let mut out = Vec::new();
    out.push(match me {
        Some(name) => format!(
            "Fantasy Realms — report for {name}, after turn {}",
            table.turns
        ),
        None => format!("Fantasy Realms — GM report, after turn {}", table.turns),
    });
    if table.variant != Variant::Standard {
        out.push(match table.variant {
            Variant::TwoPlayer => "Variant: Two-player Realms".to_string(),
            _ => "Variant: Chaos Realms".to_string(),
        });
    }
    out.push(String::new());
    out.push("Since the last report:".to_string());
    let news: Vec<String> = seen
        .iter()
        .filter(|h| match h {
            Happening::FinalScores { .. } => false,
            // The drawer (and the GM) read which cards were drawn instead.
            Happening::Drew { player, .. } => me.is_some_and(|me| me != player),
            _ => true,
        })
        .map(|h| line(h, me))
        .collect();
    if news.is_empty() {
        out.push("- nothing you could see".to_string());
    } else {
        out.extend(news.iter().map(|n| format!("- {n}")));
    }
    out.push(String::new());
    // The reader's seat and standing orders: the GM has neither.
    let seat = me.and_then(|name| table.seat_of(name));
    let standing = seat
        .and_then(|s| table.seats[s].orders.as_ref())
        .map(|o| orders::canonical(deck, o))
        .unwrap_or_default();
    match seat {
        Some(seat) => {
            let hand = &table.seats[seat].hand;
            out.push(format!("Your hand ({}): {}", hand.len(), names(deck, hand)));
            if !standing.is_empty() {
                out.push("Your standing orders:".to_string());
                for rule in standing.lines() {
                    out.push(format!("  {rule}"));
                }
            }
        }
        None => {
            for seat in &table.seats {
                out.push(format!(
                    "{} holds ({}): {}",
                    seat.player,
                    seat.hand.len(),
                    names(deck, &seat.hand)
                ));
                if let Some(standing) = &seat.orders {
                    for rule in orders::canonical(deck, standing).lines() {
                        out.push(format!("  orders: {rule}"));
                    }
                }
            }
            let top: Vec<CardId> = table.deck.iter().rev().take(5).copied().collect();
            out.push(format!("Next cards of the deck: {}", names(deck, &top)));
        }
    }
    if table.variant != Variant::ChaosRealms {
        out.push(format!(
            "Discard area ({}): {}",
            table.discard.len(),
            names(deck, &table.discard)
        ));
    }
    out.push(format!("Deck: {} cards", table.deck.len()));
    let seats: Vec<String> = table
        .seats
        .iter()
        .map(|s| format!("{} ({} cards)", s.player, s.hand.len()))
        .collect();
    out.push(format!("Players in turn order: {}", seats.join(", ")));
    let now = phase_text(table, me);
    out.push(now.clone());
    if !table.scores.is_empty() {
        scores_text(&table.scores, &mut out);
    }
    let subject = if table.phase == Phase::Finished {
        "Fantasy Realms: final scores".to_string()
    } else {
        format!("Fantasy Realms: turn {}", table.turns + 1)
    };
    let mut text = out.join("\n");
    text.push('\n');
    let attachments = match me.zip(seat) {
        Some((player, seat)) => vec![attachment(
            Addressed {
                game: GAME,
                campaign,
                day: table.turns,
                player,
            },
            &Part {
                fantasy_realms: FantasyRealms {
                    turns: table.turns,
                    variant: table.variant,
                    news,
                    hand: card_names(deck, &table.seats[seat].hand),
                    standing_orders: standing.lines().collect(),
                    discard: (table.variant != Variant::ChaosRealms)
                        .then(|| card_names(deck, &table.discard)),
                    deck: table.deck.len(),
                    players: table
                        .seats
                        .iter()
                        .map(|s| Holding {
                            player: &s.player,
                            cards: s.hand.len(),
                        })
                        .collect(),
                    now,
                    final_scores: &table.scores,
                },
            },
        )?],
        None => Vec::new(),
    };
    Ok(Report {
        subject,
        text,
        html: None,
        attachments,
    })
}
