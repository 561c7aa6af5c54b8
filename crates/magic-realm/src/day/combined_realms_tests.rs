//! Two Realms combined played through days (3.1 10.E.7): a combined setup
//! plays a month of the bots' days on the double board without a refusal,
//! and the rules that keep the two games' pieces apart.

use std::collections::BTreeMap;

use super::bot;
use super::events::{ArrivalEvent, DayEvent, Happening};
use super::resolve_day;
use crate::data::GameData;
use crate::data::realms::Realm;
use crate::orders::DayOrders;
use crate::rules::COMBINED_REALMS;
use crate::setup::{SetupInputs, new_game};
use crate::state::MrState;
use realmgm_core::dice::Dice;
use realmgm_core::game::{Rules, Seat};

fn data() -> &'static GameData {
    crate::data::combined().unwrap_or_else(|e| panic!("{e}"))
}

/// The rules with `combined_realms` on, as a campaign switches it.
fn combined() -> Rules {
    Rules::new([COMBINED_REALMS], crate::rules::TOGGLES).unwrap_or_else(|e| panic!("{e}"))
}

fn set_up(seed: u64, roles: &[&str]) -> MrState {
    let seats: Vec<Seat> = roles
        .iter()
        .enumerate()
        .map(|(i, role)| Seat {
            player: format!("P{}", i + 1),
            role: Some((*role).to_string()),
        })
        .collect();
    new_game(
        data(),
        &seats,
        &combined(),
        &SetupInputs::default(),
        &mut Dice::new(seed, 0),
    )
    .unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

/// Play `days` days of the walking bots' orders; the day's events too.
fn bot_days(mut state: MrState, seed: u64, days: u32) -> (MrState, Vec<DayEvent>) {
    let rules = combined();
    let mut events = Vec::new();
    for _ in 0..days {
        let day = state.day + 1;
        let mut bot_dice = Dice::new(seed, 1000 + day);
        let orders: BTreeMap<String, DayOrders> = state
            .characters
            .iter()
            .filter_map(|c| {
                bot::orders_for(data(), &rules, &state, &c.player, &mut bot_dice)
                    .map(|o| (c.player.clone(), o))
            })
            .collect();
        let (next, today) = resolve_day(data(), &rules, state, &orders, &mut Dice::new(seed, day))
            .unwrap_or_else(|e| panic!("seed {seed}, day {day}: {e}"));
        events.extend(today);
        state = next;
    }
    (state, events)
}

/// The counters that arrived on the map by a cause starting `cause`, with
/// the rest of the cause (`summoned by Roar M II` → `Roar M II`).
fn arrivals<'a>(events: &'a [DayEvent], cause: &str) -> Vec<(&'a str, &'a [String])> {
    events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Arrival(ArrivalEvent::Arrived {
                counters, cause: c, ..
            }) => Some((c.strip_prefix(cause)?, counters.as_slice())),
            _ => None,
        })
        .collect()
}

/// 3.1 10.E.7.5–7.5.1: with one Monster Roll a day, the chits of both
/// games summon, each only its own game's monsters, and the guardians that
/// come to a site are its own game's.
#[test]
fn a_combined_month_summons_each_games_monsters_by_its_own_chits() {
    let mut summoned = BTreeMap::<Realm, usize>::new();
    for seed in 0..3 {
        let state = set_up(
            seed,
            &["Amazon II", "Black Knight", "Swordsman II", "Dwarf"],
        );
        let (state, events) = bot_days(state, seed, 28);
        assert_eq!(state.day, 28);
        for cause in ["summoned by ", "guardian of the "] {
            for (chit, counters) in arrivals(&events, cause) {
                let realm = Realm::of_name(chit);
                for id in counters {
                    assert_eq!(Realm::of_name(id), realm, "seed {seed}: {id} by {chit}");
                }
                *summoned.entry(realm).or_default() += counters.len();
            }
        }
    }
    assert!(
        summoned.contains_key(&Realm::First) && summoned.contains_key(&Realm::Second),
        "both games' chits summon: {summoned:?}"
    );
}

/// Every player's report and the GM's history of a combined day read, the
/// second game's tiles and pieces by their mark.
#[test]
fn a_combined_day_reports_to_every_player_and_the_gm() {
    let state = set_up(1, &["Amazon II", "Black Knight", "Swordsman II"]);
    let (state, _) = bot_days(state, 1, 6);
    let (state, last_day) = bot_days(state, 1, 1);
    let events = super::events::to_events(last_day);
    let context = realmgm_core::report::ReportContext::default();
    for c in &state.characters {
        let report = crate::report::player_report(data(), &state, &events, &c.player, &context)
            .unwrap_or_else(|e| panic!("{}'s report: {e}", c.name));
        assert!(report.text.contains(&c.name), "{}", report.text);
    }
    let gm = crate::report::gm_history(data(), &state, &events, &context).expect("the history");
    assert!(gm.text.contains(" II"), "{}", gm.text);
    let map = crate::board::svg::render(&state.board);
    assert!(
        map.contains("Awful Valley II") && map.contains("Awful Valley<"),
        "{map}"
    );
}

/// A combined game with no denizen on the map and the Amazon (of `realm`)
/// at the site chit `site`, face down, which she has discovered.
fn at_site(realm: Realm, site: &str) -> MrState {
    let mut state = crate::test_support::without_denizens(set_up(2, &[&realm.mark("Amazon")]));
    let at = crate::test_support::place_site(&mut state, false, site);
    let amazon = &mut state.characters[0];
    amazon.position = at;
    amazon.discoveries.sites.insert(site.to_string());
    state
}

/// Loot the site here, with the loot roll forced to the top of the pile.
fn loot(state: &mut MrState) -> (super::PhaseOutcome, Vec<DayEvent>) {
    let mut dice = Dice::with_script(5, 1, crate::test_support::script(&[("search", &[1, 1])]));
    let rules = combined();
    let mut day = super::Day::new(data(), &rules, state.clone(), &mut dice);
    let outcome = super::search::search(&mut day, 0, &crate::orders::SearchTable::Loot);
    *state = day.state;
    (outcome, day.events)
}

/// 3.1 10.E.7.6: each game's Lost Keys open only its own card's Vault, and
/// the loot comes off the site's own game's card.
#[test]
fn lost_keys_open_only_their_own_games_vault_and_loot_comes_from_its_card() {
    use crate::state::ItemKind;
    let give_keys = |state: &mut MrState, keys: &str| {
        crate::test_support::give(state, 0, ItemKind::Treasure, keys, true);
        for pile in state.holdings.values_mut() {
            pile.retain(|i| i.name != keys);
        }
    };
    let mut state = at_site(Realm::First, "Vault II");
    give_keys(&mut state, "Lost Keys");
    let (outcome, _) = loot(&mut state);
    assert!(
        matches!(&outcome, super::PhaseOutcome::Lost { reason } if reason.contains("Lost Keys II active")),
        "{outcome:?}"
    );

    let mut state = at_site(Realm::First, "Vault II");
    give_keys(&mut state, "Lost Keys II");
    let top = state.holdings["Vault II"][0].clone();
    let (outcome, _) = loot(&mut state);
    assert_eq!(outcome, super::PhaseOutcome::Done);
    let amazon = &state.characters[0];
    assert!(amazon.belongings.iter().any(|b| b.item == top), "{top:?}");

    let mut state = at_site(Realm::Second, "Vault");
    give_keys(&mut state, "Lost Keys II");
    let (outcome, _) = loot(&mut state);
    assert!(
        matches!(&outcome, super::PhaseOutcome::Lost { reason } if reason.contains("the Lost Keys active")),
        "{outcome:?}"
    );
}

/// 3.1 10.E.7.7.3: a mission chit of the second game, taken by a
/// character of the first, is delivered only at the second game's dwelling.
#[test]
fn a_mission_is_delivered_only_to_its_own_games_dwelling() {
    use super::missions::{MissionEvent, at_phase, on_entering};
    use super::visitors::VisitorEvent;
    let mut state = crate::test_support::without_denizens(set_up(4, &["Amazon"]));
    state.map_chits.values_mut().for_each(Vec::clear);
    state.characters[0].notoriety = 5;
    let here = state.characters[0].position.clone();
    state
        .visitors_on_map
        .insert("Escort Party II".into(), here.clone());
    let rules = combined();
    let act = |state: &mut MrState, act: &dyn Fn(&mut super::Day<'_>)| {
        let mut dice = Dice::new(5, 1);
        let mut day = super::Day::new(data(), &rules, state.clone(), &mut dice);
        act(&mut day);
        *state = day.state;
        day.events
            .into_iter()
            .filter_map(|e| match e.happening {
                Happening::Visitors(VisitorEvent::Mission { what }) => Some(what),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let taken = act(&mut state, &|day| {
        at_phase(day, 0, &["escort party II".to_string()]);
    });
    let to = match &taken[..] {
        [MissionEvent::MissionTaken { chit, to, .. }] => {
            assert_eq!(chit, "Escort Party II");
            *to
        }
        other => panic!("the mission is taken: {other:?}"),
    };
    let delivered = |events: &[MissionEvent]| {
        events
            .iter()
            .any(|e| matches!(e, MissionEvent::Delivered { .. }))
    };
    state.characters[0].position = state.dwellings[&to].clone();
    let at_first = act(&mut state, &|day| on_entering(day, 0));
    assert!(!delivered(&at_first), "not to the first game's {to}");
    state.characters[0].position = state.second_realm_dwellings[&to].clone();
    let at_second = act(&mut state, &|day| on_entering(day, 0));
    assert!(
        delivered(&at_second),
        "to the second game's {to}: {at_second:?}"
    );
}

/// 3.1 10.E.7.8: an expired potion goes back to its own game's visitor.
#[test]
fn a_potion_goes_back_to_its_own_games_visitor() {
    use crate::state::ItemKind;
    for (potion, owner) in [
        ("Potion of Energy II", "Warlock II"),
        ("Potion of Energy", "Warlock"),
    ] {
        let mut state = set_up(6, &["Amazon"]);
        for pile in state.holdings.values_mut() {
            pile.retain(|i| i.name != potion);
        }
        crate::test_support::give(&mut state, 0, ItemKind::Treasure, potion, true);
        let rules = combined();
        let mut dice = Dice::new(5, 1);
        let mut day = super::Day::new(data(), &rules, state, &mut dice);
        super::midnight::midnight(&mut day, 1, &BTreeMap::new());
        let back = day.state.holdings[owner].iter().any(|i| i.name == potion);
        assert!(back, "{potion} back to the {owner}");
    }
}

/// 3.1 10.E.7.7, 7.4.2: natives of the second game in a combat are their
/// own group, battling and taking drinks as such, while the character's
/// relationship with the group is the same in both games.
#[test]
fn the_second_games_natives_battle_as_their_own_group() {
    let mut state = crate::test_support::without_denizens(set_up(3, &["Amazon"]));
    let here = state.characters[0].position.clone();
    for id in ["Bashkar II 1", "Bashkar II 2", "Bashkar 1"] {
        state.denizens.get_mut(id).expect("a Bashkar").at = crate::state::Whereabouts::Clearing {
            clearing: here.clone(),
        };
    }
    let gold = state.characters[0].gold;
    let orders: BTreeMap<_, _> = [(
        "P1".to_string(),
        crate::orders::parse_day_orders("R\nDrinks: 5", 1, data()).expect("orders"),
    )]
    .into();
    let (after, events) = resolve_day(data(), &combined(), state, &orders, &mut Dice::new(3, 1))
        .expect("the day resolves");
    let battling: Vec<String> = crate::test_support::combat_lines(&events)
        .into_iter()
        .filter_map(|line| match line {
            crate::combat::log::CombatLine::Battling { group, result, .. } => {
                Some(format!("{group}: {result}"))
            }
            _ => None,
        })
        .collect();
    let rolled = |group: &str| battling.iter().any(|b| b.starts_with(&format!("{group}:")));
    assert!(rolled("Bashkars II") && rolled("Bashkars"), "{battling:#?}");
    assert!(
        battling
            .iter()
            .any(|b| b.starts_with("Bashkars II:") && b.contains("buys drinks for 2 gold")),
        "{battling:#?}"
    );
    assert!(after.characters[0].gold < gold, "drinks paid");
    let amazon = &after.characters[0];
    let level = |group: &str| super::meeting::level_of(data(), &combined(), &after, amazon, group);
    assert_eq!(level("Bashkars II"), level("Bashkars"));
}

/// A combined game with the Amazon (of the first game, 100 gold) at the
/// second game's Inn, where the second game's Rogues live.
fn at_second_inn() -> MrState {
    let mut state = set_up(7, &["Amazon"]);
    state.characters[0].position =
        state.second_realm_dwellings[&crate::data::terms::Dwelling::Inn].clone();
    state.characters[0].gold = 100;
    state
}

/// Run `act` on a combined day whose Meeting rolls are forced.
fn on_day<R>(
    state: &mut MrState,
    meeting: &[u8],
    act: impl FnOnce(&mut super::Day<'_>) -> R,
) -> (R, Vec<DayEvent>) {
    let forced: &[(&str, &[u8])] = &[("meeting", meeting)];
    let mut dice = Dice::with_script(5, 1, crate::test_support::script(forced));
    let rules = combined();
    let mut day = super::Day::new(data(), &rules, state.clone(), &mut dice);
    let result = act(&mut day);
    *state = day.state;
    (result, day.events)
}

/// 3.1 10.E.7.7–7.7.1: the second game's Rogues trade and are hired as a
/// group of their own, selling from their own card's box and taking on
/// their own game's counters.
#[test]
fn the_second_games_natives_trade_and_are_hired_apart() {
    use crate::orders::{DayOrders, Purchase};
    use crate::state::ItemKind;
    let mut state = at_second_inn();
    let horse = state.holdings["Rogues II"]
        .iter()
        .find(|i| i.kind == ItemKind::Horse)
        .cloned()
        .expect("the second game's Rogues keep horses");
    let buying = DayOrders {
        buy: vec![Purchase {
            what: horse.name.clone(),
            max_gold: None,
        }],
        ..DayOrders::default()
    };
    let (outcome, _) = on_day(&mut state, &[2], |day| super::trade::trade(day, 0, &buying));
    assert_eq!(outcome, super::PhaseOutcome::Done);
    assert!(
        state.characters[0]
            .belongings
            .iter()
            .any(|b| b.item == horse)
    );
    assert!(state.holdings["Rogues II"].iter().all(|i| *i != horse));

    let mut state = at_second_inn();
    let hiring = DayOrders {
        hire: vec![Purchase {
            what: "Rogues II".into(),
            max_gold: None,
        }],
        ..DayOrders::default()
    };
    let (outcome, _) = on_day(&mut state, &[2], |day| super::hire::hire(day, 0, &hiring));
    assert_eq!(outcome, super::PhaseOutcome::Done);
    let hired: Vec<&str> = state.characters[0]
        .hirelings
        .iter()
        .map(|h| h.native.as_str())
        .collect();
    assert!(
        !hired.is_empty() && hired.iter().all(|n| Realm::of_name(n) == Realm::Second),
        "{hired:?}"
    );
}

/// 3.1 10.E.7.7.2: a card is worth its Fame only to its own game's group.
#[test]
fn a_fame_price_is_paid_only_by_the_cards_own_games_natives() {
    use crate::state::{Item, ItemKind};
    let fame_after_selling = |card: &str, to: &str| {
        let mut state = at_second_inn();
        let statue = Item {
            kind: ItemKind::Treasure,
            name: card.into(),
        };
        on_day(&mut state, &[1], |day| {
            super::trade::reward_card(day, 0, to, &statue, true);
        });
        state.characters[0].fame
    };
    assert_eq!(fame_after_selling("Sacred Statue II", "Order II"), 10);
    assert_eq!(fame_after_selling("Sacred Statue II", "Order"), 0);
    assert_eq!(fame_after_selling("Sacred Statue", "Order II"), 0);
    assert_eq!(fame_after_selling("Sacred Statue", "Order"), 10);
}

/// 3.1 10.E.7.8 with 8.4.9k.3: a destroyed ordinary armour counter of the
/// second game reappears in its own game's natives' box.
#[test]
fn destroyed_armour_goes_back_to_its_own_games_box() {
    for (helmet, dwelling) in [("Helmet II 1", "House II"), ("Helmet 1", "House")] {
        let mut holdings = BTreeMap::new();
        super::evening::regenerate_armor(data(), &mut holdings, helmet);
        let back = holdings
            .get(dwelling)
            .is_some_and(|pile: &Vec<crate::state::Item>| pile.iter().any(|i| i.name == helmet));
        assert!(back, "{helmet} back at the {dwelling}: {holdings:?}");
    }
}

/// 3.1 10.E.7.2.1: a Spell card of the second game is the printed spell, so
/// a character who reads or casts it records the spell itself.
#[test]
fn a_second_game_spell_card_is_its_printed_spell() {
    let spell = crate::magic::spellbook::find_spell(data(), "Fiery Blast II").expect("a spell");
    assert_eq!(spell.name, "Fiery Blast");
}

/// 3.1 10.E.7.2.1: a second game's Treasure card works as its printed card,
/// under its own name (the spells read from a Book of Lore II are its own).
#[test]
fn a_second_game_treasure_works_as_its_printed_card() {
    let mut state = set_up(8, &["Amazon"]);
    crate::test_support::give(
        &mut state,
        0,
        crate::state::ItemKind::Treasure,
        "Book of Lore II",
        true,
    );
    let effects = crate::abilities::active_treasure_effects(data(), &state.characters[0]);
    assert!(
        effects.iter().any(|(name, e)| *name == "Book of Lore II"
            && matches!(e, crate::data::treasures::TreasureEffect::Spells { .. })),
        "{effects:?}"
    );
}

/// 3.1 10.E.7.4.2: a killed character of the second game comes back at his
/// own game's Inn, still of that game. Her starting weapon may come from either game's natives (the Short
/// Swords of the first game's are all gone here), and the line everyone
/// reads names the Inn II.
#[test]
fn a_second_game_character_restarts_at_his_own_games_inn() {
    let mut state = crate::test_support::without_denizens(set_up(9, &["Amazon II"]));
    state.characters[0].dead = true;
    let is_short_sword = |i: &crate::state::Item| crate::data::base_name(&i.name) == "Short Sword";
    let second_games: Vec<String> = state
        .holdings
        .iter()
        .filter(|(holder, pile)| holder.ends_with(" II") && pile.iter().any(is_short_sword))
        .map(|(holder, _)| holder.clone())
        .collect();
    let mut removed_from_first = 0;
    for (holder, pile) in &mut state.holdings {
        if !holder.ends_with(" II") {
            removed_from_first += pile.len();
            pile.retain(|i| !is_short_sword(i));
            removed_from_first -= pile.len();
        }
    }
    assert!(removed_from_first > 0 && !second_games.is_empty());
    let swords_before: usize = second_games
        .iter()
        .map(|h| {
            state.holdings[h]
                .iter()
                .filter(|i| is_short_sword(i))
                .count()
        })
        .sum();
    let (after, events) = bot_days(state, 9, 1);
    let amazon = &after.characters[0];
    assert!(!amazon.dead);
    assert_eq!(amazon.realm, Realm::Second);
    let inn = &after.second_realm_dwellings[&crate::data::terms::Dwelling::Inn];
    assert_eq!(amazon.position, *inn);
    assert_eq!(amazon.weapon.as_deref(), Some("Short Sword"));
    let swords_after: usize = second_games
        .iter()
        .filter_map(|h| after.holdings.get(h))
        .map(|pile| pile.iter().filter(|i| is_short_sword(i)).count())
        .sum();
    assert_eq!(
        swords_after + 1,
        swords_before,
        "taken from the second game's natives"
    );
    let told = events.iter().any(|e| match &e.happening {
        Happening::Restart(r) => r.log_line().contains("starts again at the Inn II"),
        _ => false,
    });
    assert!(told, "the restart line names the Inn II");
}

/// 3.1 10.E.7.4.2: a player joining late as `Amazon II` enters at the
/// second game's Inn, playing that game's Amazon; in a one-Realm game the
/// mark is refused by name.
#[test]
fn a_late_joiner_of_the_second_game_enters_at_its_inn() {
    use realmgm_core::game::{Game, GameState};
    let state = set_up(10, &["Dwarf"]);
    let seats = |first: &MrState, role: &str| {
        vec![
            Seat {
                player: first.characters[0].player.clone(),
                role: Some("Dwarf".into()),
            },
            Seat {
                player: "P2".into(),
                role: Some(role.into()),
            },
        ]
    };
    let game = crate::game::MagicRealm;
    let admitted = game
        .seats()
        .expect("Magic Realm takes late players")
        .admit(
            &GameState::from_typed(state.clone()),
            &combined(),
            &seats(&state, "Amazon II"),
        )
        .expect("admitted");
    let state: MrState = serde_json::from_value(admitted.json().clone()).expect("a state");
    assert_eq!(state.arrivals[0].realm, Realm::Second);
    let (after, events) = bot_days(state, 10, 1);
    let amazon = after
        .characters
        .iter()
        .find(|c| c.name == "Amazon")
        .expect("she entered");
    assert_eq!(amazon.realm, Realm::Second);
    let inn = &after.second_realm_dwellings[&crate::data::terms::Dwelling::Inn];
    let entered_at_inn = events.iter().any(|e| {
        matches!(&e.happening,
            Happening::Restart(super::restart::RestartEvent::Arrived { character, at, .. })
                if character == "Amazon" && at == inn)
    });
    assert!(entered_at_inn, "{events:#?}");

    let one_realm = crate::test_support::test_game(&["Dwarf"]);
    let refused = game
        .seats()
        .expect("late players")
        .admit(
            &GameState::from_typed(one_realm.clone()),
            &Rules::default(),
            &seats(&one_realm, "Amazon II"),
        )
        .expect_err("no second Realm");
    assert!(refused.to_string().contains("3.1 10.E.7.4.2"), "{refused}");
}

/// Through the game interface a campaign drives: off, a seat `Amazon II`
/// is refused naming the rule; on, the combined game starts on the double
/// board, reads both players' orders and plays a day (3.1 10.E.7).
#[test]
fn a_combined_campaign_starts_and_plays_a_day_through_the_game() {
    use realmgm_core::game::{AcceptedOrders, Game, Start, Turn};
    let seats = [("Ann", "Amazon II"), ("Ben", "Wizard")]
        .iter()
        .map(|(player, role)| Seat {
            player: (*player).into(),
            role: Some((*role).into()),
        })
        .collect::<Vec<_>>();
    let game = crate::game::MagicRealm;
    let start = |rules: &Rules| game.start(&Start::new(&seats, rules), &mut Dice::new(11, 0));
    let refused = start(&Rules::default()).unwrap_err();
    assert!(format!("{refused:#}").contains("10.E.7"), "{refused:#}");
    let rules = combined();
    let state = start(&rules).unwrap_or_else(|e| panic!("{e:#}"));
    let mr: MrState = serde_json::from_value(state.json().clone()).expect("a state");
    assert!(mr.combines_realms());
    assert_eq!(mr.characters[0].realm, Realm::Second);
    let orders: BTreeMap<String, AcceptedOrders> = ["Ann", "Ben"]
        .iter()
        .map(|player| {
            let read = game
                .read_orders(&state, &rules, player, "H")
                .unwrap_or_else(|e| panic!("{player}: {e:?}"));
            ((*player).to_string(), read)
        })
        .collect();
    let turn = game
        .resolve_turn(state, &Turn::new(&rules, &orders), &mut Dice::new(11, 1))
        .unwrap_or_else(|e| panic!("{e:#}"))
        .done()
        .expect("the day is resolved");
    let after: MrState = serde_json::from_value(turn.state.json().clone()).expect("a state");
    assert_eq!(after.day, 1);
}

/// Setup by mail with two Realms is refused by name, saying how to seat
/// the characters in the campaign file instead (3.1 10.E.7.4.2).
#[test]
fn setup_by_mail_is_refused_with_combined_realms() {
    use realmgm_core::game::{Game, SetupTable};
    let seats = [Seat {
        player: "Ann".into(),
        role: None,
    }];
    let rules = combined();
    let table = SetupTable {
        seats: &seats,
        rules: &rules,
        seed: 5,
        victory_points: None,
        carry_over: None,
    };
    let by_mail = crate::game::MagicRealm
        .setup_by_mail()
        .expect("Magic Realm sets up by mail");
    let Err(refused) = by_mail.setup(None, &table) else {
        panic!("setup by mail began with two Realms");
    };
    let text = format!("{refused:#}");
    assert!(
        text.contains("setup by mail is not implemented yet with Combining Realms"),
        "{text}"
    );
}

/// 3.1 10.E.7.4.3: the second game's dwellings stand on the map as the
/// first game's do. A character at the second game's Inn reads it in her
/// clearing, shelters in it (10.D.1.2.3b), and the second game's Chapel
/// supplies its colour (the dwellings' colour sources).
#[test]
fn the_second_games_dwellings_are_seen_shelter_and_supply_colour() {
    use crate::data::terms::Dwelling;
    let mut state = at_second_inn();
    let view =
        crate::report::clearing::clearing_view(data(), &combined(), &state, &state.characters[0]);
    assert!(
        view.dwellings.iter().any(|d| d == "Inn II"),
        "{:?}",
        view.dwellings
    );
    let inn = state.characters[0].position.clone();
    let (sheltered, _) = on_day(&mut state, &[1], |day| {
        super::weather::in_shelter(day, &inn)
    });
    assert!(sheltered, "the Inn II gives shelter");
    let chapel = state.second_realm_dwellings[&Dwelling::Chapel].clone();
    let supplied = crate::magic::colour::clearing_sources(&state, data(), &combined(), 1, &chapel);
    assert!(
        supplied.iter().any(|p| matches!(
            &p.source,
            crate::magic::colour::ColourSource::Dwelling { dwelling } if dwelling == "Chapel II"
        )),
        "{supplied:?}"
    );
}

/// 3.1 10.E.7.4.2: a GM's ruling gives a seat the second game's Dwarf, who
/// enters at that game's Inn and stays of that game; the first game's
/// Black Knight cannot come in beside the second game's.
#[test]
fn a_seat_given_the_second_games_character_enters_at_its_inn() {
    use crate::data::terms::Dwelling;
    use crate::orders::ruling::parse_ruling;
    use crate::state::ruling::QueuedRuling;
    let mut state = set_up(7, &["Amazon", "Black Knight II"]);
    let refused = parse_ruling("replace Amazon with Black Knight", data(), &state)
        .expect_err("one of each character either way");
    assert!(refused.to_string().contains("already in play"), "{refused}");
    let ruling = parse_ruling("replace Amazon with Dwarf II", data(), &state)
        .unwrap_or_else(|e| panic!("{e}"));
    state.rulings.push(QueuedRuling {
        ruling,
        why: String::new(),
    });
    let (after, events) = resolve_day(
        data(),
        &combined(),
        state,
        &BTreeMap::new(),
        &mut Dice::new(7, 1),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let dwarf = &after.characters[0];
    assert_eq!((dwarf.name.as_str(), dwarf.realm), ("Dwarf", Realm::Second));
    assert_eq!(dwarf.position, after.second_realm_dwellings[&Dwelling::Inn]);
    let told = events.iter().any(|e| match &e.happening {
        Happening::Ruling(r) => r
            .log_line()
            .contains("the Dwarf II enters it at the Inn II"),
        _ => false,
    });
    assert!(told, "the ruling's line names the second game's Inn");
}
