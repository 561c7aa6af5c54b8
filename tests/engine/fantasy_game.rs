//! Fantasy Realms played through the `Game` interface (Fantasy Realms rulebook): a whole
//! seeded game to its exact final scores, conditional and standing orders,
//! the default for a missing player, hidden draws, determinism, orders
//! errors, the variants and the shipped campaign file.

use realmgm::game::Start;
use realmgm::game::Turn;
use realmgm::report::ReportContext;
use std::collections::BTreeMap;

use realmgm::campaign::Campaign;
use realmgm::dice::Dice;
use realmgm::fantasy_realms::cards::{CardId, Deck, deck};
use realmgm::fantasy_realms::game::{FantasyRealms, table};
use realmgm::fantasy_realms::state::{Happening, Phase, Table};
use realmgm::game::{AcceptedOrders, Event, Game, GameState, Reader, Rules, Seat, TurnResult};

use crate::report_support::{report_json, report_schema, schema_errors};

const CAMPAIGN: &str = include_str!("../../campaigns/fantasy-realms.toml");

fn cards() -> &'static Deck {
    deck().expect("the embedded deck loads")
}

fn name(id: CardId) -> &'static str {
    &cards().card(id).name
}

fn seats(names: &[&str]) -> Vec<Seat> {
    names
        .iter()
        .map(|n| Seat {
            player: n.to_string(),
            role: None,
        })
        .collect()
}

fn rules(on: &[&str]) -> Rules {
    Rules::new(on.iter().copied(), FantasyRealms.toggles()).expect("known toggles")
}

fn start(seed: u64, names: &[&str], on: &[&str]) -> GameState {
    FantasyRealms
        .start(
            &Start::new(&seats(names), &rules(on)),
            &mut Dice::new(seed, 0),
        )
        .expect("a legal setup")
}

fn read(state: &GameState, player: &str, text: &str) -> AcceptedOrders {
    FantasyRealms
        .read_orders(state, &Rules::default(), player, text)
        .unwrap_or_else(|p| panic!("orders of {player} refused: {p:?}"))
}

fn resolve(state: &GameState, orders: BTreeMap<String, AcceptedOrders>) -> TurnResult {
    FantasyRealms
        .resolve_turn(
            state.clone(),
            &Turn::new(&Rules::default(), &orders),
            &mut Dice::new(1, 1),
        )
        .expect("the turn resolves")
        .done()
        .expect("Fantasy Realms never pauses a turn")
}

fn one(player: &str, orders: AcceptedOrders) -> BTreeMap<String, AcceptedOrders> {
    BTreeMap::from([(player.to_string(), orders)])
}

fn bodies(result: &TurnResult) -> Vec<Happening> {
    result
        .events
        .iter()
        .map(|e| serde_json::from_value(e.body.json().clone()).expect("a Fantasy Realms event"))
        .collect()
}

/// Play the game to the end: whoever is awaited sends `script(table, player)`.
fn play_out(
    mut state: GameState,
    mut script: impl FnMut(&Table, &str) -> String,
    mut after: impl FnMut(&GameState, &[Event]),
) -> GameState {
    for _ in 0..200 {
        let awaited = FantasyRealms.awaiting(&state).expect("awaiting");
        let mut orders = BTreeMap::new();
        let now = table(&state).expect("table");
        if now.phase == Phase::Finished {
            return state;
        }
        for player in awaited {
            let text = script(&now, &player);
            orders.insert(player.clone(), read(&state, &player, &text));
        }
        let result = resolve(&state, orders);
        after(&result.state, &result.events);
        state = result.state;
    }
    panic!("the game did not end in 200 calls");
}

const FOUR: [&str; 4] = ["Ann", "Ben", "Cat", "Dan"];

#[test]
fn a_whole_seeded_game_ends_with_exact_scores() {
    let state = start(2024, &FOUR, &[]);
    let dealt = table(&state).expect("table");
    assert_eq!(dealt.deck.len(), 53 - 28);
    assert!(dealt.seats.iter().all(|s| s.hand.len() == 7));
    let mut turns = 0;
    let end = play_out(
        state,
        |table, player| {
            turns += 1;
            // Ann and Ben discard their first card for two turns, then let
            // their standing orders play; Cat and Dan stand from the start.
            let seat = table.seat_of(player).expect("seated");
            if turns <= 4 && (player == "Ann" || player == "Ben") {
                format!("draw, discard {}", name(table.seats[seat].hand[0]))
            } else {
                "if Dragon is discarded: take Dragon, discard lowest\nelse: draw, discard lowest"
                    .to_string()
            }
        },
        |_, _| {},
    );
    let end = table(&end).expect("table");
    assert_eq!(end.phase, Phase::Finished);
    assert_eq!(end.discard.len(), 10);
    for score in &end.scores {
        let sum: i32 = score.cards.iter().map(|c| c.points).sum();
        assert_eq!(sum, score.total, "{score:?}");
        assert!(score.cards.len() >= 7);
    }
    let scores: Vec<(String, i32, bool)> = end
        .scores
        .iter()
        .map(|s| (s.player.clone(), s.total, s.winner))
        .collect();
    assert_eq!(
        scores,
        [
            ("Ann".to_string(), 205, true),
            ("Ben".to_string(), 129, false),
            ("Cat".to_string(), 158, false),
            ("Dan".to_string(), 136, false),
        ]
    );
}

/// A table built by hand: Ann to move, holding Candle and six others.
fn table_with(discard: &[&str], ann: &str) -> GameState {
    let mut state = table(&start(7, &FOUR, &[])).expect("table");
    let wanted = cards().parse_list(ann).expect("names");
    let area = cards().parse_list(&discard.join(", ")).expect("names");
    for seat in &mut state.seats {
        seat.hand
            .retain(|c| !wanted.contains(c) && !area.contains(c));
    }
    state
        .deck
        .retain(|c| !wanted.contains(c) && !area.contains(c));
    // Keep every hand at seven, refilled from the deck.
    for seat in 1..4 {
        while state.seats[seat].hand.len() < 7 {
            let card = state.deck.pop().expect("cards left");
            state.seats[seat].hand.push(card);
        }
    }
    state.seats[0].hand = wanted;
    state.discard = area;
    state.phase = Phase::Turn { seat: 0 };
    GameState::new(serde_json::to_value(&state).expect("json"))
}

const ANN: &str = "Candle, King, Queen, Knights, Mountain, Forest, Unicorn";
const CONDITIONAL: &str = "if Dragon is discarded and I hold Candle: take Dragon, discard Candle\nelse: draw, discard lowest";

#[test]
fn a_conditional_rule_fires_when_its_card_is_discarded() {
    let state = table_with(&["Dragon", "Smoke"], ANN);
    let result = resolve(&state, one("Ann", read(&state, "Ann", CONDITIONAL)));
    let happened = bodies(&result);
    assert!(happened.contains(&Happening::Took {
        player: "Ann".into(),
        card: "Dragon".into()
    }));
    assert!(happened.contains(&Happening::Discarded {
        player: "Ann".into(),
        card: "Candle".into()
    }));
    let after = table(&result.state).expect("table");
    assert!(
        after.seats[0]
            .hand
            .contains(&cards().find("Dragon").unwrap())
    );
    assert_eq!(after.to_move(), Some(1), "Ben is asked next");
}

#[test]
fn a_conditional_rule_does_not_fire_without_its_card_and_else_plays() {
    let state = table_with(&["Smoke"], ANN);
    let result = resolve(&state, one("Ann", read(&state, "Ann", CONDITIONAL)));
    let happened = bodies(&result);
    assert!(
        happened
            .iter()
            .any(|h| matches!(h, Happening::Drew { player, count: 1 } if player == "Ann"))
    );
    assert!(!happened.iter().any(|h| matches!(h, Happening::Took { .. })));
    assert!(happened.contains(&Happening::RulePlayed {
        player: "Ann".into(),
        rule: "else: draw, discard lowest".into()
    }));
}

#[test]
fn standing_orders_play_later_turns_without_asking() {
    let state = start(11, &FOUR, &[]);
    let mut state = state;
    // Everyone sends standing orders once; afterwards nobody is asked again.
    for _ in 0..4 {
        let awaited = FantasyRealms.awaiting(&state).expect("awaiting");
        if awaited.is_empty() {
            break;
        }
        let player = awaited[0].clone();
        let orders = read(&state, &player, "draw, discard lowest");
        state = resolve(&state, one(&player, orders)).state;
    }
    let end = table(&state).expect("table");
    assert_eq!(
        end.phase,
        Phase::Finished,
        "standing orders play to the end"
    );
    assert_eq!(
        FantasyRealms.awaiting(&state).expect("awaiting"),
        Vec::<String>::new()
    );
}

#[test]
fn a_missing_player_draws_and_discards_the_cheapest_card_once() {
    let state = table_with(&["Smoke"], ANN);
    let nmr = FantasyRealms
        .missing_orders(&state, &Rules::default(), "Ann")
        .expect("default orders");
    assert_eq!(nmr.canonical, "else: draw, discard lowest");
    let result = resolve(&state, one("Ann", nmr));
    let after = table(&result.state).expect("table");
    assert_eq!(after.seats[0].hand.len(), 7);
    assert_eq!(after.discard.len(), 2);
    assert!(
        after.seats[0].orders.is_none(),
        "the default does not stand"
    );
    assert_eq!(
        FantasyRealms.awaiting(&result.state).expect("awaiting"),
        ["Ben"]
    );
}

#[test]
fn hidden_draws_never_reach_another_players_report() {
    let state = start(99, &FOUR, &[]);
    let schema = report_schema();
    let mut public: Vec<CardId> = Vec::new();
    let mut reports = 0;
    play_out(
        state,
        |_, _| "draw, discard lowest".to_string(),
        |state, events| {
            let now = table(state).expect("table");
            public.extend(now.discard.iter().copied());
            if now.phase == Phase::Finished {
                return;
            }
            for (seat, reader) in now.seats.iter().enumerate() {
                let report = FantasyRealms
                    .report(
                        state,
                        events,
                        Reader::Player(&reader.player),
                        &ReportContext::default(),
                    )
                    .expect("report");
                reports += 1;
                // The JSON document is checked as the text is.
                let document = report_json(&report);
                assert_eq!(schema_errors(&schema, &document), "", "{document}");
                let whole = format!("{}\n{document}", report.text);
                for (other, them) in now.seats.iter().enumerate() {
                    if other == seat {
                        continue;
                    }
                    for &card in &them.hand {
                        if public.contains(&card) {
                            continue;
                        }
                        assert!(
                            !whole.contains(name(card)),
                            "{}'s report names {} held by {}:\n{whole}",
                            reader.player,
                            name(card),
                            them.player,
                        );
                    }
                }
            }
        },
    );
    assert!(reports > 0);
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let run = || {
        let mut hashes = Vec::new();
        play_out(
            start(5, &FOUR, &[]),
            |_, _| "draw, discard lowest".to_string(),
            |state, _| hashes.push(state.hash()),
        );
        hashes
    };
    let first = run();
    assert!(!first.is_empty());
    assert_eq!(first, run());
    let other = start(6, &FOUR, &[]);
    assert_ne!(start(5, &FOUR, &[]).hash(), other.hash());
}

#[test]
fn bad_orders_name_their_line_and_column() {
    let state = start(3, &FOUR, &[]);
    let problems = FantasyRealms
        .read_orders(
            &state,
            &Rules::default(),
            "Ann",
            "if Dragon is discarded: take Dragon, discard Candle\nelse: draw, discard Wildfyre",
        )
        .expect_err("typo");
    assert_eq!((problems[0].line, problems[0].column), (2, 21));
    assert!(problems[0].message.contains("did you mean Wildfire"));
    let problems = FantasyRealms
        .read_orders(
            &state,
            &Rules::default(),
            "Ann",
            "trade Candle for Dragon with Ben",
        )
        .expect_err("no trades in the base game");
    assert!(problems[0].message.contains("Chaos Realms"));
}

#[test]
fn the_final_report_shows_every_hand_and_why() {
    let end = play_out(
        start(77, &FOUR, &[]),
        |_, _| "draw, discard lowest".to_string(),
        |_, _| {},
    );
    let report = FantasyRealms
        .report(&end, &[], Reader::Player("Cat"), &ReportContext::default())
        .expect("report");
    assert!(report.subject.contains("final scores"));
    for player in FOUR {
        assert!(
            report.text.contains(&format!("{player}: ")),
            "{}",
            report.text
        );
    }
    assert!(report.text.contains("base "), "{}", report.text);
    let document = report_json(&report);
    assert_eq!(schema_errors(&report_schema(), &document), "");
    assert_eq!(document["game"], "fantasy-realms");
    let scores = document["fantasy_realms"]["final_scores"]
        .as_array()
        .unwrap();
    assert_eq!(scores.len(), FOUR.len());
    let gm = FantasyRealms
        .report(&end, &[], Reader::Gm, &ReportContext::default())
        .expect("gm");
    assert!(gm.text.contains("Ann holds"));
}

#[test]
fn two_players_draft_their_hands_first() {
    let state = start(12, &["Ann", "Ben"], &["two_player"]);
    let now = table(&state).expect("table");
    assert!(now.seats.iter().all(|s| s.hand.is_empty()));
    let end = play_out(state, |_, _| "draw, discard lowest".to_string(), |_, _| {});
    let end = table(&end).expect("table");
    assert!(end.seats.iter().all(|s| s.hand.len() == 7));
    assert!(end.discard.len() >= 12);
    let err = FantasyRealms
        .start(
            &Start::new(&seats(&FOUR), &rules(&["two_player"])),
            &mut Dice::new(1, 0),
        )
        .expect_err("two only");
    assert!(err.to_string().contains("2 to 2 players"), "{err}");
}

#[test]
fn chaos_realms_trades_one_for_one_and_the_necromancer_keeps_one_of_three() {
    let mut state = table(&start(21, &["Ann", "Ben", "Cat"], &["chaos_realms"])).expect("table");
    assert_eq!(state.phase, Phase::Trading);
    let necromancer = cards().find("Necromancer").unwrap();
    for seat in &mut state.seats {
        seat.hand.retain(|&c| c != necromancer);
    }
    state.deck.retain(|&c| c != necromancer);
    let swapped = state.seats[2].hand[0];
    state.seats[2].hand[0] = necromancer;
    state.deck.push(swapped);
    let state = GameState::new(serde_json::to_value(&state).unwrap());
    let now = table(&state).unwrap();
    let (a, b) = (now.seats[0].hand[0], now.seats[1].hand[0]);
    let offer_a = format!("trade {} for {} with Ben", name(a), name(b));
    let offer_b = format!("trade {} for {} with ann", name(b), name(a));
    let orders = BTreeMap::from([
        ("Ann".to_string(), read(&state, "Ann", &offer_a)),
        ("Ben".to_string(), read(&state, "Ben", &offer_b)),
        (
            "Cat".to_string(),
            FantasyRealms
                .missing_orders(&state, &Rules::default(), "Cat")
                .unwrap(),
        ),
    ]);
    let result = resolve(&state, orders);
    let after = table(&result.state).unwrap();
    assert!(after.seats[0].hand.contains(&b) && after.seats[1].hand.contains(&a));
    let Phase::Necromancer { seat: 2, drawn } = &after.phase else {
        panic!("Cat chooses for the Necromancer: {:?}", after.phase);
    };
    assert_eq!(FantasyRealms.awaiting(&result.state).unwrap(), ["Cat"]);
    // What Cat drew is hers alone; Ann sees only that two players traded.
    let ann = FantasyRealms
        .report(
            &result.state,
            &result.events,
            Reader::Player("Ann"),
            &ReportContext::default(),
        )
        .unwrap();
    let cat_drew = name(drawn[0]);
    assert!(!ann.text.contains(cat_drew), "{}", ann.text);
    let keep = format!("keep {}", name(drawn[1]));
    let result = resolve(&result.state, one("Cat", read(&result.state, "Cat", &keep)));
    let end = table(&result.state).unwrap();
    assert_eq!(end.phase, Phase::Finished);
    assert!(end.seats[2].hand.contains(&drawn[1]));
    assert_eq!(end.seats[2].hand.len(), 8);
}

#[test]
fn the_shipped_campaign_loads_and_deals() {
    let campaign = Campaign::parse(
        "campaigns/fantasy-realms.toml",
        CAMPAIGN,
        realmgm::games::GAMES,
    )
    .expect("the file loads");
    assert_eq!(campaign.game, "fantasy-realms");
    assert_eq!(campaign.players.len(), 4);
    assert!(
        campaign
            .players
            .iter()
            .all(|p| p.email.as_str().ends_with("@example.org"))
    );
    let game = campaign.game(realmgm::games::GAMES).expect("registered");
    let state = game
        .start(
            &Start::new(&campaign.seats(), &campaign.rules),
            &mut Dice::new(campaign.seed, 0),
        )
        .expect("deals");
    assert_eq!(game.awaiting(&state).expect("awaiting").len(), 1);
}
