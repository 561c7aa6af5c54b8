//! Fantasy Realms as a [`Game`] the campaign plumbing can run (Fantasy Realms rulebook): the
//! rule toggles, dealing, whose orders a turn waits for, reading orders,
//! playing turns until someone must be asked, and reports.
//!
//! A player's orders stand until he sends new ones, so a turn his orders
//! decide is played without asking him: [`Game::resolve_turn`] plays on from
//! player to player until it reaches one whose orders decide nothing (or a
//! whole round passes without a card drawn, so cards taken back and forth
//! cannot loop), and [`Game::awaiting`] names nobody while the player to move
//! has orders that decide his turn.

use std::collections::BTreeMap;
use std::sync::Arc;

use anyhow::{Context, bail};
use serde::Deserialize;

use realmgm_core::dice::Dice;
use realmgm_core::game::{
    AcceptedOrders, Event, Game, GameState, GameValue, Observers, OrdersProblem, Reader, Report,
    RuleToggle, Rules, RulesVersion, RulesVersions, Start, ToggleStatus, Turn, TurnResult,
    TurnStep,
};
use realmgm_core::report::ReportContext;

use super::cards;
use super::orders::{self, Orders};
use super::report;
use super::state::{self, Happening, Phase, Play, Seen, Table, Variant};

/// The two-player variant's toggle name.
pub const TWO_PLAYER: &str = "two_player";
/// The Chaos Realms toggle name.
pub const CHAOS_REALMS: &str = "chaos_realms";

/// The optional rules of the Fantasy Realms rulebook.
pub static TOGGLES: &[RuleToggle] = &[
    RuleToggle {
        name: TWO_PLAYER,
        summary: "Two players start with no cards and fill their hands by drafting; \
                  the game ends at twelve discards",
        source: "the Fantasy Realms rulebook, Variants 1: Two-player Realms",
        status: ToggleStatus::Built,
        excludes: &[CHAOS_REALMS],
    },
    RuleToggle {
        name: CHAOS_REALMS,
        summary: "No turns: one trading window by mail (one-for-one trades), then the \
                  Necromancer draws three and keeps one, then scoring",
        source: "the Fantasy Realms rulebook, Variants 2: Chaos Realms",
        status: ToggleStatus::Built,
        excludes: &[TWO_PLAYER],
    },
];

/// The game of Fantasy Realms.
#[derive(Clone, Copy, Debug)]
pub struct FantasyRealms;

/// The table a state holds, to change.
///
/// # Errors
/// The state is not a Fantasy Realms table.
pub fn table(state: &GameState) -> anyhow::Result<Table> {
    shared_table(state).map(Arc::unwrap_or_clone)
}

/// Why a state cannot be read as a table.
const NOT_A_TABLE: &str =
    "the stored state is not a Fantasy Realms table (was it written by another game?)";

/// The table in a state's JSON.
fn read_table(json: &serde_json::Value) -> serde_json::Result<Table> {
    Table::deserialize(json)
}

/// The table a state holds, read once and shared ([`GameState::typed`]).
fn shared_table(state: &GameState) -> anyhow::Result<Arc<Table>> {
    state.typed(read_table).context(NOT_A_TABLE)
}

/// A player's orders as the game reads them: as read, or read back from
/// the store once.
fn read_orders_of(orders: &AcceptedOrders) -> serde_json::Result<Arc<Orders>> {
    orders.parsed.typed(|json| Orders::deserialize(json))
}

/// Whether `orders` decide the turn of `seat` now (the rule that plays).
fn deciding_rule<'o>(
    play: &Play,
    table: &Table,
    seat: usize,
    orders: &'o Orders,
) -> Option<&'o orders::Rule> {
    orders
        .rules
        .iter()
        .find(|rule| play.applies(table, seat, rule))
}

fn problem(message: String) -> Vec<OrdersProblem> {
    vec![OrdersProblem {
        line: 1,
        column: 1,
        message,
    }]
}

impl Game for FantasyRealms {
    fn id(&self) -> &'static str {
        "fantasy-realms"
    }

    fn toggles(&self) -> &'static [RuleToggle] {
        TOGGLES
    }

    fn rules_versions(&self) -> RulesVersions {
        RulesVersions {
            earlier: &[],
            current: RulesVersion {
                number: 1,
                name: "the rulebook",
                changes: &[],
            },
        }
    }

    /// Fantasy Realms has neither a setup by mail nor a calendar: the
    /// seats and the rules deal the hands.
    fn start(&self, start: &Start<'_>, dice: &mut Dice) -> anyhow::Result<GameState> {
        let (seats, rules) = (start.seats, start.rules);
        let deck = cards::deck()?;
        let (variant, range) = if rules.is_on(TWO_PLAYER) {
            (Variant::TwoPlayer, 2..=2)
        } else if rules.is_on(CHAOS_REALMS) {
            (Variant::ChaosRealms, 3..=7)
        } else {
            (Variant::Standard, 3..=6)
        };
        if !range.contains(&seats.len()) {
            bail!(
                "Fantasy Realms {} is played by {} to {} players, and the campaign seats {}; \
                 change the players (or the rule toggles) in the campaign file",
                match variant {
                    Variant::Standard => "",
                    Variant::TwoPlayer => "(two-player variant)",
                    Variant::ChaosRealms => "(Chaos Realms)",
                },
                range.start(),
                range.end(),
                seats.len()
            );
        }
        let players: Vec<String> = seats.iter().map(|s| s.player.clone()).collect();
        Ok(GameState::from_typed(state::deal(
            deck, &players, variant, dice,
        )))
    }

    fn awaiting(&self, state: &GameState) -> anyhow::Result<Vec<String>> {
        let table = shared_table(state)?;
        let play = Play {
            deck: cards::deck()?,
            happenings: Vec::new(),
        };
        Ok(match &table.phase {
            Phase::Finished => Vec::new(),
            Phase::Trading => table.seats.iter().map(|s| s.player.clone()).collect(),
            Phase::Necromancer { seat, .. } => vec![table.seats[*seat].player.clone()],
            Phase::Turn { seat } => {
                let decided = table.seats[*seat]
                    .orders
                    .as_ref()
                    .is_some_and(|o| deciding_rule(&play, &table, *seat, o).is_some());
                if decided {
                    Vec::new()
                } else {
                    vec![table.seats[*seat].player.clone()]
                }
            }
        })
    }

    fn is_over(&self, state: &GameState) -> anyhow::Result<bool> {
        Ok(shared_table(state)?.phase == Phase::Finished)
    }

    fn read_orders(
        &self,
        state: &GameState,
        _rules: &Rules,
        player: &str,
        text: &str,
    ) -> Result<AcceptedOrders, Vec<OrdersProblem>> {
        let deck = cards::deck().map_err(|e| problem(e.to_string()))?;
        let table = shared_table(state).map_err(|e| problem(format!("{e:#}")))?;
        let Some(seat) = table.seat_of(player) else {
            return Err(problem(format!(
                "{player} has no seat in this game; only seated players send orders"
            )));
        };
        let others: Vec<String> = table
            .seats
            .iter()
            .filter(|s| s.player != player)
            .map(|s| s.player.clone())
            .collect();
        let read = orders::Reader {
            deck,
            player,
            others: &others,
        }
        .read(text)?;
        let chaos = table.variant == Variant::ChaosRealms;
        if chaos && !read.rules.is_empty() {
            return Err(problem(
                "Chaos Realms has no turns: send `trade <your card> for <their card> with \
                 <player>` lines (and `keep <card>` if you hold the Necromancer)"
                    .to_string(),
            ));
        }
        if !chaos && (!read.trades.is_empty() || read.keep.is_some()) {
            return Err(problem(
                "trades and `keep` exist only in Chaos Realms; send `draw` or `take <card>`, \
                 then `discard <card>`"
                    .to_string(),
            ));
        }
        let hand = &table.seats[seat].hand;
        let mut warnings = Vec::new();
        for trade in &read.trades {
            if !hand.contains(&trade.give) {
                warnings.push(format!(
                    "you do not hold {}, so that trade cannot happen",
                    deck.card(trade.give).name
                ));
            }
        }
        let play = Play {
            deck,
            happenings: Vec::new(),
        };
        if table.to_move() == Some(seat) && deciding_rule(&play, &table, seat, &read).is_none() {
            warnings.push(
                "none of these rules can be carried out on this turn, so the default \
                 (draw, discard lowest) will be played; add an `else:` rule to choose"
                    .to_string(),
            );
        }
        Ok(AcceptedOrders {
            canonical: orders::canonical(deck, &read),
            parsed: GameValue::from_typed(read),
            warnings,
        })
    }

    fn safe_orders(&self) -> &'static str {
        "draw, then discard the card whose loss costs least"
    }

    fn missing_orders(
        &self,
        state: &GameState,
        _rules: &Rules,
        player: &str,
    ) -> anyhow::Result<AcceptedOrders> {
        let deck = cards::deck()?;
        let table = shared_table(state)?;
        if table.seat_of(player).is_none() {
            bail!("{player} has no seat in this game");
        }
        let mut missing = orders::missing();
        if table.variant == Variant::ChaosRealms {
            missing.rules.clear();
            missing.keep = Some(orders::Target::Lowest);
        }
        Ok(AcceptedOrders {
            canonical: orders::canonical(deck, &missing),
            parsed: GameValue::from_typed(missing),
            warnings: Vec::new(),
        })
    }

    fn resolve_turn(
        &self,
        state: GameState,
        turn: &Turn<'_>,
        _dice: &mut Dice,
    ) -> anyhow::Result<TurnStep> {
        let orders = turn.orders;
        let deck = cards::deck()?;
        let mut table = state.into_typed(read_table).context(NOT_A_TABLE)?;
        let mut play = Play {
            deck,
            happenings: Vec::new(),
        };
        // Orders of any seated player replace his standing orders; the
        // game's orders for a missing player play one turn only.
        let mut once: BTreeMap<usize, Orders> = BTreeMap::new();
        for (player, accepted) in orders {
            let seat = table
                .seat_of(player)
                .with_context(|| format!("{player} has no seat in this game"))?;
            let read = read_orders_of(accepted)
                .with_context(|| format!("the orders of {player} are not Fantasy Realms orders"))?;
            let read = Arc::unwrap_or_clone(read);
            if read.standing {
                table.seats[seat].orders = Some(read.clone());
            }
            once.insert(seat, read);
        }
        match table.phase.clone() {
            Phase::Finished => bail!("the game is over; there is no turn to resolve"),
            Phase::Trading => {
                let offers: Vec<(String, Vec<orders::Trade>)> = table
                    .seats
                    .iter()
                    .enumerate()
                    .map(|(seat, s)| {
                        let trades = once.get(&seat).map(|o| o.trades.clone());
                        (s.player.clone(), trades.unwrap_or_default())
                    })
                    .collect();
                play.trades(&mut table, &offers);
                let necromancer = deck.find("Necromancer").ok();
                let holder = table
                    .seats
                    .iter()
                    .position(|s| necromancer.is_some_and(|n| s.hand.contains(&n)));
                match holder {
                    Some(seat) if table.deck.len() >= state::NECROMANCER_DRAWS => {
                        let mut drawn = Vec::new();
                        for _ in 0..state::NECROMANCER_DRAWS {
                            drawn.extend(table.deck.pop());
                        }
                        let player = table.seats[seat].player.clone();
                        let cards = drawn.iter().map(|&c| deck.card(c).name.clone()).collect();
                        play.happenings.push((
                            Seen::Only(vec![player.clone()]),
                            Happening::DrewCards {
                                player: player.clone(),
                                cards,
                            },
                        ));
                        play.happenings.push((
                            Seen::Everyone,
                            Happening::Drew {
                                player,
                                count: drawn.len(),
                            },
                        ));
                        table.phase = Phase::Necromancer { seat, drawn };
                    }
                    _ => play.final_scores(&mut table, "the trading window closed"),
                }
            }
            Phase::Necromancer { seat, .. } => {
                let keep = once
                    .get(&seat)
                    .and_then(|o| o.keep)
                    .unwrap_or(orders::Target::Lowest);
                play.necromancer_keeps(&mut table, seat, keep);
                play.final_scores(&mut table, "the trading window closed");
            }
            Phase::Turn { .. } => play_turns(&mut play, &mut table, &once)?,
        }
        let finished = table.phase == Phase::Finished;
        let events = play
            .happenings
            .into_iter()
            .map(|(seen, happening)| Event {
                observers: match seen {
                    Seen::Everyone => Observers::Everyone,
                    Seen::Only(names) => Observers::Players(names.into_iter().collect()),
                },
                body: GameValue::from_typed(happening),
            })
            .collect();
        Ok(TurnStep::Done(TurnResult {
            state: GameState::from_typed(table),
            events,
            finished,
        }))
    }

    fn report(
        &self,
        state: &GameState,
        events: &[Event],
        reader: Reader<'_>,
        context: &ReportContext,
    ) -> anyhow::Result<Report> {
        let table = shared_table(state)?;
        let seen: Vec<Happening> = realmgm_core::game::observed_by(events, reader)
            .context("an event is not a Fantasy Realms event")?
            .into_iter()
            .map(|(_, happening)| Arc::unwrap_or_clone(happening))
            .collect();
        report::render(cards::deck()?, &table, &seen, reader, &context.campaign)
    }
}

/// Play turns from the player to move until one must be asked or the game
/// ends. `once` holds the orders that came with this call.
fn play_turns(
    play: &mut Play,
    table: &mut Table,
    once: &BTreeMap<usize, Orders>,
) -> anyhow::Result<()> {
    let mut first = true;
    let mut turns_without_draw = 0;
    while let Some(seat) = table.to_move() {
        let player = table.seats[seat].player.clone();
        let given = once.get(&seat).filter(|_| first);
        let standing = table.seats[seat].orders.clone();
        let orders = given.or(standing.as_ref());
        let rule = orders
            .and_then(|o| deciding_rule(play, table, seat, o))
            .cloned();
        let action = match rule {
            Some(rule) => {
                if orders.is_some_and(|o| o.standing) {
                    let text = orders::canonical(
                        play.deck,
                        &Orders {
                            rules: vec![rule.clone()],
                            ..Orders::default()
                        },
                    );
                    play.happenings.push((
                        Seen::Only(vec![player.clone()]),
                        Happening::RulePlayed {
                            player: player.clone(),
                            rule: text,
                        },
                    ));
                }
                rule.action
            }
            None if first && given.is_some() => {
                play.happenings.push((
                    Seen::Only(vec![player.clone()]),
                    Happening::DefaultPlayed {
                        player: player.clone(),
                        reason: "none of your rules could be carried out".to_string(),
                    },
                ));
                orders::missing().rules[0].action
            }
            None if first => bail!(
                "it is {player}'s turn and there are no orders for him; pass his orders \
                 (or the game's orders for a missing player) to resolve the turn"
            ),
            None => break,
        };
        if !first && turns_without_draw >= table.seats.len() {
            // A whole round of takes: ask the next player instead of looping.
            break;
        }
        let drew = matches!(action, orders::Action::Draw { .. });
        turns_without_draw = if drew { 0 } else { turns_without_draw + 1 };
        play.turn(table, seat, action);
        first = false;
        if let Some(reason) = table.end_reason() {
            play.final_scores(table, &reason);
            break;
        }
        table.phase = Phase::Turn {
            seat: (seat + 1) % table.seats.len(),
        };
    }
    Ok(())
}
