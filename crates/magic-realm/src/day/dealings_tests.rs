//! Tests of dealings between characters and of rearranging
//! belongings by order: matching sides happen, others fail with the
//! reason told to both players, goods must still be there, a phase deal
//! waits for the two to meet, and only the parties learn what was told.

use super::dealings::DealEvent;
use super::events::{DayEvent, Happening, PhaseEvent, PhaseResult};
use super::rearrange::RearrangeEvent;
use super::tests::{border, game, hidden_way, place, play};
use crate::board::ClearingId;
use crate::data::tiles::{ClearingKind, PathKind};
use crate::orders::dealings::Goods;
use crate::state::{Belonging, Item, ItemKind, MrState, abandoned_pile};
use crate::test_support::move_to;
use realmgm_core::dice::DiceScript;
use realmgm_core::game::Observers;

const TELESCOPE: &str = "Ancient Telescope";

/// The Amazon (P1) and the Elf (P2) together in `here`, the Amazon carrying
/// the Ancient Telescope, and the Black Knight (P3) standing by.
fn three_together(here: &ClearingId) -> MrState {
    let mut state = game(&["Amazon", "Elf", "Black Knight"]);
    for who in 0..3 {
        place(&mut state, who, here);
    }
    state.characters[0].belongings.push(Belonging {
        item: Item {
            kind: ItemKind::Treasure,
            name: TELESCOPE.into(),
        },
        active: true,
    });
    state
}

fn carries(state: &MrState, who: usize, item: &str) -> bool {
    state.characters[who]
        .belongings
        .iter()
        .any(|b| b.item.name == item)
}

fn deal_events(events: &[DayEvent]) -> Vec<(&Observers, &DealEvent)> {
    events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Dealing(d) => Some((&e.observers, d)),
            _ => None,
        })
        .collect()
}

fn seen_by(observers: &Observers, player: &str) -> bool {
    match observers {
        Observers::Players(players) => players.contains(player),
        Observers::Everyone => true,
        Observers::Gm => false,
    }
}

fn here() -> ClearingId {
    border(&game(&["Amazon"]), ClearingKind::Woods).0
}

#[test]
fn a_gift_with_its_answer_happens_at_midnight_before_unhidden_onlookers() {
    for knight_hides in [false, true] {
        let state = three_together(&here());
        let knight = if knight_hides { "H" } else { "R" };
        let hide = crate::test_support::script(&[("daylight/hide", &[1])]);
        let (after, events) = play(
            state,
            &[
                ("P1", "R\nGive: Ancient Telescope to Elf"),
                ("P2", "R\nReceive: ancient telescope from Amazon"),
                ("P3", knight),
            ],
            hide,
        );
        assert_eq!(after.characters[2].hidden, knight_hides);
        assert!(!carries(&after, 0, TELESCOPE) && carries(&after, 1, TELESCOPE));
        assert!(
            after.characters[1].belongings.iter().all(|b| !b.active),
            "a belonging received comes inactive"
        );
        let deals = deal_events(&events);
        let [(seen, DealEvent::Exchanged { first_gave, .. })] = deals[..] else {
            panic!("one exchange: {deals:?}")
        };
        assert_eq!(first_gave, &[Goods::Item(TELESCOPE.into())]);
        assert!(seen_by(seen, "P1") && seen_by(seen, "P2"));
        assert_eq!(
            seen_by(seen, "P3"),
            !knight_hides,
            "an onlooker sees goods change hands only when not hidden"
        );
    }
}

#[test]
fn a_trade_at_a_phase_moves_goods_and_gold_both_ways() {
    let state = three_together(&here());
    let elf_gold = state.characters[1].gold;
    let (after, events) = play(
        state,
        &[
            (
                "P1",
                "R / R\nTrade: Ancient Telescope to Elf for 10 gold at phase 2",
            ),
            (
                "P2",
                "R / R\nTrade: 10 gold to Amazon for Ancient Telescope at phase 2",
            ),
        ],
        DiceScript::default(),
    );
    assert!(carries(&after, 1, TELESCOPE));
    assert_eq!(after.characters[1].gold, elf_gold - 10);
    let trades = deal_events(&events);
    assert!(
        matches!(trades[..], [(_, DealEvent::Exchanged { second_gave, .. })] if second_gave.len() == 1)
    );
}

#[test]
fn sides_that_do_not_match_fail_for_both_with_the_other_line() {
    let state = three_together(&here());
    let (after, events) = play(
        state,
        &[
            ("P1", "R\nTrade: Ancient Telescope to Elf for 10 gold"),
            ("P2", "R\nTrade: 5 gold to Amazon for Ancient Telescope"),
        ],
        DiceScript::default(),
    );
    assert!(carries(&after, 0, TELESCOPE), "nothing changed hands");
    let failures: Vec<(&Observers, &String)> = deal_events(&events)
        .into_iter()
        .filter_map(|(seen, d)| match d {
            DealEvent::Failed { reason, .. } => Some((seen, reason)),
            _ => None,
        })
        .collect();
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(seen_by(failures[0].0, "P1") && !seen_by(failures[0].0, "P2"));
    assert!(
        failures[0]
            .1
            .contains("'Trade: 5 gold to Amazon for Ancient Telescope'")
    );
    assert!(seen_by(failures[1].0, "P2") && failures[1].1.contains("for 10 gold"));
}

#[test]
fn goods_no_longer_carried_or_partners_apart_make_a_deal_fail() {
    let (here, next) = border(&game(&["Amazon"]), ClearingKind::Woods);
    let mut state = three_together(&here);
    state.characters[0].belongings.clear();
    let (_, events) = play(
        state.clone(),
        &[
            ("P1", "R\nGive: Ancient Telescope to Elf"),
            ("P2", "R\nReceive: Ancient Telescope from Amazon"),
        ],
        DiceScript::default(),
    );
    let reasons: Vec<String> = deal_events(&events)
        .iter()
        .filter_map(|(_, d)| match d {
            DealEvent::Failed { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(reasons.len(), 2);
    assert!(
        reasons
            .iter()
            .all(|r| r.contains("does not carry the Ancient Telescope"))
    );

    // The Elf comes to the Amazon in phase 1: at phase 2 of either turn
    // they stand together, whoever goes first.
    let mut apart = three_together(&here);
    place(&mut apart, 1, &next);
    let give = "R / R\nGive: Ancient Telescope to Elf at phase 2";
    let receive = "Receive: Ancient Telescope from Amazon at phase 2";
    let (after, _) = play(
        apart.clone(),
        &[
            ("P1", give),
            ("P2", &format!("{} / R\n{receive}", move_to(&here))),
        ],
        DiceScript::default(),
    );
    assert!(carries(&after, 1, TELESCOPE), "they met at phase 2");
    // If he stays away, the deal fails at the end of Daylight, and says so.
    let (after, events) = play(
        apart,
        &[("P1", give), ("P2", &format!("R / R\n{receive}"))],
        DiceScript::default(),
    );
    assert!(carries(&after, 0, TELESCOPE));
    assert!(deal_events(&events).iter().any(|(_, d)| matches!(d,
        DealEvent::Failed { reason, .. } if reason.contains("not in the same clearing at the start of phase 2"))));
}

#[test]
fn a_told_path_is_learned_by_the_listener_alone_and_can_be_used() {
    let mut state = game(&["Amazon", "Elf", "Black Knight"]);
    let (from, to) = hidden_way(&state, &[PathKind::Hidden]);
    for who in 0..3 {
        place(&mut state, who, &from);
    }
    // No monster comes to the clearing at Sunset: nothing but the telling
    // decides what they know.
    for d in state.denizens.values_mut() {
        d.at = crate::state::Whereabouts::Dead;
    }
    let route = if from < to {
        (from.clone(), to.clone())
    } else {
        (to.clone(), from.clone())
    };
    state.characters[0].discoveries.routes.insert(route.clone());
    // She tells hidden, so the Black Knight, who found no hidden enemies,
    // cannot spy on her (3.1 4.5.6a).
    let (after, events) = play(
        state,
        &[("P1", "H\nTell: Elf my paths and passages"), ("P2", "R")],
        crate::test_support::script(&[("daylight/hide/Amazon", &[1])]),
    );
    assert!(after.characters[0].hidden);
    assert!(after.characters[1].discoveries.routes.contains(&route));
    assert!(!after.characters[2].discoveries.routes.contains(&route));
    let told = deal_events(&events);
    let [(seen, DealEvent::Told { learned, .. })] = told[..] else {
        panic!("one telling: {told:?}")
    };
    assert_eq!(learned.len(), 1, "{learned:?}");
    assert!(seen_by(seen, "P1") && seen_by(seen, "P2"));
    assert!(
        !seen_by(seen, "P3"),
        "the onlooker does not learn what was told"
    );
    let leaked = events.iter().any(|e| {
        seen_by(&e.observers, "P3") && format!("{:?}", e.happening).contains(&to.to_string())
    });
    assert!(
        !leaked,
        "nothing the Black Knight sees names the path's end"
    );

    // The next day the Elf takes the path.
    let (after, _) = play(after, &[("P2", &move_to(&to))], DiceScript::default());
    assert_eq!(after.characters[1].position, to);
}

#[test]
fn belongings_are_rearranged_before_a_phase_and_at_midnight() {
    let mut state = game(&["Black Knight"]);
    let at = here();
    place(&mut state, 0, &at);
    let mace = state.characters[0].weapon.clone().expect("a mace");
    state.characters[0].belongings.push(Belonging {
        item: Item {
            kind: ItemKind::Weapon,
            name: "Spear 2".into(),
        },
        active: false,
    });
    let (after, events) = play(
        state,
        &[(
            "P1",
            "R / R\nPhase 2: activate Spear; activate Power Boots\nMidnight: abandon Mace",
        )],
        DiceScript::default(),
    );
    let knight = &after.characters[0];
    assert!(
        knight
            .belongings
            .iter()
            .any(|b| b.item.name == "Spear 2" && b.active)
    );
    assert!(knight.weapon.is_none() && !carries(&after, 0, &mace));
    let pile = &after.holdings[&abandoned_pile(&at)];
    assert!(
        pile.iter().any(|i| i.name == mace),
        "the mace lies in the clearing"
    );
    let lines: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Rearranged(r) => Some(r.log_line()),
            _ => None,
        })
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[0].contains("Before phase 2")
            && lines[0].contains(&format!("putting the {mace} inactive"))
    );
    assert!(
        matches!(lines[1].as_str(), l if l.contains("cannot activate the Power Boots") && l.contains("carries no Power Boots"))
    );
    assert!(lines[2].contains("Midnight") && lines[2].contains("abandons"));
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Rearranged(RearrangeEvent::NotDone { .. })
    )));
}

#[test]
fn a_hired_leader_deals_for_his_employer_where_he_stands() {
    let (here, next) = border(&game(&["Amazon"]), ClearingKind::Woods);
    let mut state = game(&["Captain", "Elf"]);
    place(&mut state, 0, &next);
    place(&mut state, 1, &here);
    state.denizens.get_mut("Soldier HQ").expect("HQ").at = crate::state::Whereabouts::Clearing {
        clearing: here.clone(),
    };
    state.characters[0].hirelings.push(crate::state::Hireling {
        native: "Soldier HQ".into(),
        days_left: 9,
    });
    state.leaders.insert(
        "Soldier HQ".into(),
        crate::state::LeaderRecord {
            carries: vec![Item {
                kind: ItemKind::Treasure,
                name: TELESCOPE.into(),
            }],
            ..Default::default()
        },
    );
    let (captain_gold, elf_gold) = (state.characters[0].gold, state.characters[1].gold);
    let (after, events) = play(
        state,
        &[
            (
                "P1",
                "R\nSoldier HQ: H\nTrade: Ancient Telescope to Elf for 10 gold by Soldier HQ\n\
                 Give: 5 gold to Elf by Soldier HQ at phase 1",
            ),
            (
                "P2",
                "R\nTrade: 10 gold to Soldier HQ for Ancient Telescope\n\
                 Receive: 5 gold from Soldier HQ at phase 1",
            ),
        ],
        DiceScript::default(),
    );
    let log = super::log::gm_log(&events);
    assert!(carries(&after, 1, TELESCOPE), "{log}");
    assert!(
        after
            .leaders
            .get("Soldier HQ")
            .is_none_or(|l| l.carries.is_empty()),
        "he carries nothing now"
    );
    assert_eq!(after.characters[0].gold, captain_gold + 10 - 5, "{log}");
    assert_eq!(after.characters[1].gold, elf_gold - 10 + 5);
    assert!(log.contains("the Soldier HQ gives the Elf 5 gold"), "{log}");
}

#[test]
fn telling_names_the_teller_and_says_when_nothing_was_new() {
    use crate::orders::dealings::{Secret, When};
    let told = DealEvent::Told {
        at: When::Midnight,
        teller: "Amazon".into(),
        listener: "Captain".into(),
        secrets: vec![Secret::Paths, Secret::Passages],
        learned: Vec::new(),
    };
    let line = told.log_line();
    assert!(
        line.contains("the Amazon shares paths and passages with the Captain")
            && line.ends_with("the Captain learns nothing new."),
        "{line}"
    );
}

/// The Amazon's and the Elf's sides of a phase-2 sale of the Telescope.
fn telescope_sale() -> std::collections::BTreeMap<String, crate::orders::DayOrders> {
    [
        (
            "P1",
            "R / R\nTrade: Ancient Telescope to Elf for 10 gold at phase 2",
        ),
        (
            "P2",
            "R / R\nTrade: 10 gold to Amazon for Ancient Telescope at phase 2",
        ),
    ]
    .into_iter()
    .map(|(p, text)| (p.to_string(), super::tests::orders(text)))
    .collect()
}

/// The Amazon's phase 2 starts, after `before` has set the day up.
fn amazon_phase_two(before: impl FnOnce(&mut super::Day<'_>)) -> (MrState, Vec<DayEvent>) {
    let mut state = three_together(&here());
    let orders = telescope_sale();
    let rules = realmgm_core::game::Rules::default();
    let (_, events) = crate::test_support::run_on_day(&mut state, &rules, &[], |day| {
        before(day);
        super::dealings::at_phase(day, 0, 2, &orders);
    });
    (state, events)
}

/// 3.1 7.2.1d: nobody trades while blocked, so a deal with a blocked
/// partner fails and says why.
#[test]
fn a_deal_with_a_blocked_partner_fails_7_2_1d() {
    let (after, events) = amazon_phase_two(|day| {
        day.today.blocked.insert(1);
    });
    assert!(carries(&after, 0, TELESCOPE));
    let failed = deal_events(&events).into_iter().any(
        |(_, d)| matches!(d, DealEvent::Failed { reason, .. } if reason.contains("Elf is blocked")),
    );
    assert!(failed, "{events:?}");
    let (after, _) = amazon_phase_two(|_| {});
    assert!(carries(&after, 1, TELESCOPE), "unblocked, the sale happens");
}

/// 3.1 7.2.1d: nobody trades while flying: at the start of a phase he
/// begins in the air, his deals wait.
#[test]
fn no_deal_while_aloft_7_2_1d() {
    let (after, events) = amazon_phase_two(|day| {
        let flew = PhaseEvent::PhaseDone {
            character: "Amazon".into(),
            number: 1,
            recorded: "FL".into(),
            result: PhaseResult::Flew {
                over: here().tile,
                item: "Flying Carpet".into(),
                followers_left: Vec::new(),
                left_behind: Vec::new(),
            },
        };
        day.emit(Observers::Everyone, Happening::Phase(flew));
    });
    assert!(carries(&after, 0, TELESCOPE));
    assert!(
        deal_events(&events).is_empty(),
        "the deal waits: {events:?}"
    );
}

/// 3.1 4.5.5a and d: only what lies in the clearing where they meet is
/// told, and a face-down site chit told is shown to everyone.
#[test]
fn discoveries_are_told_only_where_they_lie_and_a_face_down_site_is_shown_4_5_5() {
    let mut state = game(&["Amazon", "Elf", "Black Knight"]);
    let vault = crate::test_support::place_site(&mut state, false, "Vault");
    let (from, to) = hidden_way(&state, &[PathKind::Hidden]);
    assert!(from != vault && to != vault);
    for who in 0..2 {
        place(&mut state, who, &vault);
    }
    for d in state.denizens.values_mut() {
        d.at = crate::state::Whereabouts::Dead;
    }
    let far = if from < to { (from, to) } else { (to, from) };
    let known = &mut state.characters[0].discoveries;
    known.routes.insert(far.clone());
    known.sites.insert("Vault".into());
    let (after, events) = play(
        state,
        &[
            ("P1", "R\nTell: Elf my paths and sites at phase 1"),
            ("P2", "R"),
        ],
        DiceScript::default(),
    );
    let elf = &after.characters[1].discoveries;
    assert!(elf.sites.contains("Vault"));
    assert!(!elf.routes.contains(&far), "the path lies elsewhere");
    let shown = deal_events(&events)
        .into_iter()
        .find(|(_, d)| matches!(d, DealEvent::SiteShown { site, .. } if site == "Vault"));
    let (seen, _) = shown.expect("the Vault chit is shown");
    assert!(seen_by(seen, "P3"));
    assert!(after.characters[2].discoveries.chits_seen.contains("Vault"));
}

/// 3.1 4.5.6b.3: those spying on an unhidden teller learn what he tells.
#[test]
fn a_spy_learns_what_an_unhidden_teller_tells_4_5_6() {
    let mut state = game(&["Amazon", "Elf", "Black Knight"]);
    let (from, to) = hidden_way(&state, &[PathKind::Hidden]);
    for who in 0..3 {
        place(&mut state, who, &from);
    }
    for d in state.denizens.values_mut() {
        d.at = crate::state::Whereabouts::Dead;
    }
    let route = if from < to { (from, to) } else { (to, from) };
    state.characters[0].discoveries.routes.insert(route.clone());
    let (after, events) = play(
        state,
        &[("P1", "R\nTell: Elf my paths"), ("P2", "R"), ("P3", "R")],
        DiceScript::default(),
    );
    assert!(after.characters[2].discoveries.routes.contains(&route));
    let spied = deal_events(&events).into_iter().any(|(seen, d)| {
        matches!(d, DealEvent::Spied { spy, .. } if spy == "Black Knight") && seen_by(seen, "P3")
    });
    assert!(spied, "{events:?}");
}

/// 3.1 4.6.9b.2: while a Transform spell holds him, his belongings and
/// gold are frozen: he neither abandons nor gives them.
#[test]
fn transmorphized_belongings_are_frozen_4_6_9b() {
    use crate::data::spells::Duration;
    use crate::state::magic::{Aim, CastWith, SpellInEffect};
    let mut state = three_together(&here());
    state.magic.in_effect.push(SpellInEffect {
        id: 7,
        spell: "Transform".into(),
        caster: "Black Knight".into(),
        with: CastWith::Treasure {
            name: "Black Book".into(),
        },
        targets: vec![Aim::Character {
            name: "Amazon".into(),
        }],
        duration: Duration::Permanent,
        cast_on: 1,
        inert: false,
        held: false,
        detail: Some("Squirrel".into()),
        untied: false,
    });
    let (after, events) = play(
        state,
        &[
            (
                "P1",
                "R / R\nPhase 1: abandon Ancient Telescope\nTrade: Ancient Telescope to Elf for 10 gold at phase 2",
            ),
            (
                "P2",
                "R / R\nTrade: 10 gold to Amazon for Ancient Telescope at phase 2",
            ),
        ],
        DiceScript::default(),
    );
    assert!(carries(&after, 0, TELESCOPE), "kept, frozen");
    let frozen = |text: &str| text.contains("frozen");
    let refused = events.iter().any(|e| match &e.happening {
        Happening::Rearranged(r) => frozen(&r.log_line()),
        _ => false,
    });
    assert!(refused, "the abandon step is refused");
    let failed = deal_events(&events)
        .into_iter()
        .any(|(_, d)| matches!(d, DealEvent::Failed { reason, .. } if frozen(reason)));
    assert!(failed, "the sale fails");
}
