//! Evening combat through the whole day (play summary III): a death is written
//! into the state, and the dead character's belongings lie in the clearing.

use std::collections::BTreeMap;

use crate::combat::log::CombatLine;
use crate::data;
use crate::orders::parse_day_orders;
use crate::state::{ChitCondition, MrState, Whereabouts, abandoned_pile};
use realmgm_core::dice::{Dice, DiceScript};
use realmgm_core::game::{Observers, Rules};

use super::events::{CombatEvent, Happening};
use super::resolve_day;
use crate::test_support::{game_played_by, without_denizens};

fn amazon_with_an_ogre() -> MrState {
    let mut state = without_denizens(game_played_by(&["Amazon"], |_| "P1".into()));
    let here = state.characters[0].position.clone();
    state.denizens.get_mut("Ogre 1").expect("an ogre").at =
        Whereabouts::Clearing { clearing: here };
    let amazon = &mut state.characters[0];
    amazon.armor.clear();
    for chit in &mut amazon.chits {
        if chit.chit != "MOVE M4" {
            chit.condition = ChitCondition::Wounded;
        }
    }
    state
}

/// Play day 1 with the Amazon resting and these combat orders; the Ogre is
/// repositioned from box 1 to box 2, where her dodge meets its swing.
fn evening_with(
    combat: &str,
) -> (
    MrState,
    Vec<super::events::DayEvent>,
    crate::board::ClearingId,
) {
    let state = amazon_with_an_ogre();
    let here = state.characters[0].position.clone();
    let label = format!("{}{}", here.tile, here.clearing);
    let mut script = DiceScript::default();
    script
        .force(&format!("combat/{label}/round1/reposition/Amazon"), &[3])
        .expect("die");
    script
        .force(&format!("combat/{label}/round1/tactics"), &[1, 1])
        .expect("dice");
    let orders: BTreeMap<_, _> = [(
        "P1".to_string(),
        parse_day_orders(
            &format!("R\nCombat: {combat}"),
            1,
            data::get().expect("data"),
        )
        .expect("orders"),
    )]
    .into();
    let mut dice = Dice::with_script(3, 1, script);
    let (after, events) = resolve_day(
        data::get().expect("data"),
        &Rules::default(),
        state,
        &orders,
        &mut dice,
    )
    .expect("the day resolves");
    (after, events, here)
}

#[test]
fn a_character_killed_in_the_evening_is_dead_and_leaves_his_belongings() {
    // She does not attack: the Ogre's Tremendous swing kills her.
    let (after, events, here) = evening_with("target nobody, maneuver dodge");
    let amazon = &after.characters[0];
    assert!(amazon.dead, "{events:#?}");
    assert_eq!(amazon.weapon, None);
    let pile = &after.holdings[&abandoned_pile(&here)];
    assert!(pile.iter().any(|i| i.name == "Short Sword"), "{pile:?}");
    let seen = events
        .iter()
        .find(|e| {
            matches!(&e.happening, Happening::Combat(CombatEvent::Line { line: CombatLine::Killed { victim, .. }, .. }) if victim == "Amazon")
        })
        .expect("her death is an event");
    assert_eq!(
        seen.observers,
        Observers::Players(["P1".to_string()].into())
    );
}

#[test]
fn a_monster_killed_in_the_evening_is_dead_and_pays_its_killer() {
    // Rest healed her FIGHT L4; her Short Sword (length 3) strikes before
    // the Ogre (length 0): Light + 1 star = Medium kills it.
    let (after, _, _) = evening_with("maneuver dodge");
    assert!(!after.characters[0].dead);
    assert_eq!(after.denizens["Ogre 1"].at, Whereabouts::Dead);
    assert_eq!(after.characters[0].notoriety, 2);
}

/// The Amazon, the Ogre dead, and two Bashkars in her clearing.
fn amazon_with_two_bashkars() -> MrState {
    let mut state = amazon_with_an_ogre();
    let here = state.characters[0].position.clone();
    state.denizens.get_mut("Ogre 1").expect("ogre").at = Whereabouts::Dead;
    for id in ["Bashkar 1", "Bashkar 2"] {
        state.denizens.get_mut(id).expect("a Bashkar").at = Whereabouts::Clearing {
            clearing: here.clone(),
        };
    }
    state
}

#[test]
fn drinks_are_bought_before_the_battling_roll() {
    let data = data::get().expect("data");
    let state = amazon_with_two_bashkars();
    let gold = state.characters[0].gold;
    let orders: BTreeMap<_, _> = [(
        "P1".to_string(),
        parse_day_orders("R\nDrinks: 5", 1, data).expect("orders"),
    )]
    .into();
    let mut dice = Dice::new(3, 1);
    let (after, events) =
        resolve_day(data, &Rules::default(), state, &orders, &mut dice).expect("the day");
    assert_eq!(after.characters[0].gold, gold - 2, "{events:#?}");
    assert!(events.iter().any(|e| matches!(&e.happening,
        Happening::Combat(CombatEvent::Line { line: CombatLine::Battling { result, .. }, .. })
            if result.contains("the Amazon buys drinks for 2 gold"))));
}

#[test]
fn a_spell_cast_in_the_evening_kills_and_its_chit_fatigues_at_the_end_of_combat() {
    let data = data::get().expect("data");
    let mut state = without_denizens(game_played_by(&["Sorceror"], |_| "P1".into()));
    let here = state.characters[0].position.clone();
    state.denizens.get_mut("Giant 1").expect("a giant").at = Whereabouts::Clearing {
        clearing: here.clone(),
    };
    state.characters[0].magic.spells = vec!["Fiery Blast".into()];
    // Day 21, a purple day, is resolved next.
    state.day = 20;
    let label = format!("{}{}", here.tile, here.clearing);
    let mut script = DiceScript::default();
    script
        .force(&format!("combat/{label}/round1/reposition/Sorceror"), &[1])
        .expect("die");
    script
        .force(
            &format!("combat/{label}/round1/harm/Fiery Blast (Sorceror)"),
            &[1],
        )
        .expect("die");
    let orders: BTreeMap<_, _> = [(
        "P1".to_string(),
        parse_day_orders("R\nCombat: cast Fiery Blast on Giant 1", 21, data).expect("orders"),
    )]
    .into();
    let mut dice = Dice::with_script(3, 21, script);
    let (after, events) =
        resolve_day(data, &Rules::default(), state, &orders, &mut dice).expect("the day resolves");
    let lines = crate::test_support::combat_text(&events);
    assert_eq!(
        after.denizens["Giant 1"].at,
        Whereabouts::Dead,
        "{lines:#?}"
    );
    assert!(after.magic.in_effect.is_empty(), "the attack spell expired");
    let chit = after.characters[0]
        .chits
        .iter()
        .find(|c| c.chit == "MAGIC IV3*")
        .expect("the chit");
    assert_eq!(chit.condition, ChitCondition::Fatigued, "{lines:#?}");
}

/// The Bashkars, unfriendly to the Amazon, roll an Insult at the battling
/// check: by her `Insult:` line she gives up 5 notoriety, or they battle.
#[test]
fn an_insult_at_the_battling_check_is_paid_or_fought() {
    let data = data::get().expect("data");
    let evening = |line: &str| {
        let mut state = amazon_with_two_bashkars();
        let here = state.characters[0].position.clone();
        state.characters[0].notoriety = 9;
        let orders: BTreeMap<_, _> = [(
            "P1".to_string(),
            parse_day_orders(&format!("R\n{line}"), 1, data).expect("orders"),
        )]
        .into();
        let label = format!("{}{}", here.tile, here.clearing);
        let mut script = DiceScript::default();
        script
            .force(&format!("combat/{label}/battling/Amazon/Bashkars"), &[4])
            .expect("die");
        let mut dice = Dice::with_script(3, 1, script);
        let (after, events) =
            resolve_day(data, &Rules::default(), state, &orders, &mut dice).expect("the day");
        let result = events
            .iter()
            .find_map(|e| match &e.happening {
                Happening::Combat(CombatEvent::Line {
                    line: CombatLine::Battling { result, .. },
                    ..
                }) => Some(result.clone()),
                _ => None,
            })
            .unwrap_or_default();
        (after.characters[0].notoriety, result, events)
    };
    let (notoriety, result, events) = evening("Insult: pay");
    assert!(
        result.contains("no battle; the Amazon gives up 5 notoriety"),
        "{events:#?}"
    );
    assert_eq!(notoriety, 4);
    let (notoriety, _, events) = evening("Insult: fight");
    assert_eq!(notoriety, 9);
    assert!(
        events
            .iter()
            .any(|e| format!("{e:?}").contains("they battle")),
        "{events:#?}"
    );
}

/// The lines of combat rounds anyone was told (the battling checks apart).
fn rounds_told(events: &[super::events::DayEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.happening {
            Happening::Combat(CombatEvent::Line { round, line, .. }) if *round > 0 => {
                Some(line.to_string())
            }
            _ => None,
        })
        .collect()
}

/// The Amazon (P1) in her starting clearing, alone but for `denizens`.
fn amazon_beside(denizens: &[&str]) -> MrState {
    let mut state = without_denizens(game_played_by(&["Amazon"], |_| "P1".into()));
    let here = state.characters[0].position.clone();
    for id in denizens {
        state.denizens.get_mut(*id).expect("a denizen").at = Whereabouts::Clearing {
            clearing: here.clone(),
        };
    }
    state
}

fn evening_of(state: MrState, orders: &str) -> (MrState, Vec<super::events::DayEvent>) {
    let data = data::get().expect("data");
    let orders: BTreeMap<_, _> = [(
        "P1".to_string(),
        parse_day_orders(orders, 1, data).expect("orders"),
    )]
    .into();
    // Hiding succeeds.
    let script = crate::test_support::script(&[("daylight/hide", &[1, 1])]);
    let mut dice = Dice::with_script(3, 1, script);
    resolve_day(data, &Rules::default(), state, &orders, &mut dice).expect("the day")
}

#[test]
fn a_hidden_character_beside_natives_who_cannot_reach_him_reads_no_combat() {
    let state = amazon_beside(&["Rogue 1", "Rogue 2", "Rogue HQ"]);
    let (after, events) = evening_of(state, "H");
    assert!(after.characters[0].hidden, "{events:#?}");
    let told = rounds_told(&events);
    assert!(told.is_empty(), "{told:#?}");
}

#[test]
fn a_character_with_only_his_own_hirelings_reads_no_combat() {
    let here = amazon_beside(&[]).characters[0].position.clone();
    let state = super::retinue_tests::with_soldiers("Amazon", &here);
    let (_, events) = evening_of(state, "R");
    let told = rounds_told(&events);
    assert!(told.is_empty(), "{told:#?}");
}

#[test]
fn a_combat_with_blows_is_still_told_in_full() {
    let (_, events) = evening_of(amazon_beside(&["Wolf A 1"]), "R\nCombat: target nobody");
    let told = rounds_told(&events);
    assert!(
        told.first()
            .is_some_and(|l| l == "combat begins; in sight: the Amazon and Wolf A 1"),
        "{told:#?}"
    );
    assert!(
        told.iter().any(|l| l == "Wolf A 1 attacks the Amazon"),
        "{told:#?}"
    );
}

/// Her `run when wounded 1` has come, but none of her MOVE chits is faster
/// than the Wolf on her sheet (move time 3): the log says why she stays.
#[test]
fn a_run_when_wounded_that_does_not_run_says_why() {
    let mut state = amazon_beside(&["Wolf A 1"]);
    // Resting heals one of the two; one stays wounded.
    for chit in state.characters[0]
        .chits
        .iter_mut()
        .filter(|c| c.chit == "FIGHT L4" || c.chit == "FIGHT M5")
    {
        chit.condition = ChitCondition::Wounded;
    }
    let (_, events) = evening_of(state, "R\nCombat: target nobody, run when wounded 1");
    let told = rounds_told(&events);
    assert!(
        told.iter().any(|l| l
            == "the Amazon cannot run away: no MOVE chit is faster than the attackers' move \
                time 3 (run when wounded 1; 1 wounded chit)"),
        "{told:#?}"
    );
}

/// The report of the day the Ogre killed her opens with her death: who,
/// where, which round, and what her player does next; tomorrow's form no
/// longer aims her `Combat:` line at the Ogre.
#[test]
fn a_killed_characters_report_opens_with_his_death_and_what_comes_next() {
    let (after, events, here) = evening_with("target nobody, maneuver dodge");
    assert!(after.characters[0].dead);
    let events: Vec<realmgm_core::game::Event> = events
        .into_iter()
        .map(|e| realmgm_core::game::Event {
            observers: e.observers,
            body: realmgm_core::game::GameValue::from_typed(e.happening),
        })
        .collect();
    let context = realmgm_core::report::ReportContext {
        standing_orders: [(
            "P1".to_string(),
            "R\nHire: Bashkars up to 10\nCombat: target Ogre 1, maneuver dodge, run when wounded 2"
                .to_string(),
        )]
        .into(),
        ..realmgm_core::report::ReportContext::default()
    };
    let report =
        crate::report::player_report(data::get().expect("data"), &after, &events, "P1", &context)
            .expect("the report");
    assert_eq!(
        report.subject,
        "Day 1 report for the Amazon: you were killed"
    );
    let label = format!("{}{}", here.tile, here.clearing);
    let opening = format!(
        "== Your character is dead ==\nYou were killed by Ogre 1 in {label}'s combat, round 1.\n\
         Tomorrow at Birdsong you start again at the Inn ("
    );
    assert!(report.text.contains(&opening), "{}", report.text);
    assert!(
        report.text.find("== Your character is dead ==") < report.text.find("== Your day =="),
        "{}",
        report.text
    );
    assert!(
        report
            .text
            .contains("add the line `Character: NAME` to tomorrow's orders"),
        "{}",
        report.text
    );
    assert!(
        report.text.contains(
            "Victory points now: -100 (the score of a character dead when the game ends)\nRequirements:"
        ),
        "{}",
        report.text
    );
    assert!(
        report
            .text
            .contains("An abandoned pile of 1 thing lies here."),
        "{}",
        report.text
    );
    let html = report.html.expect("an HTML report");
    assert!(
        html.contains(&format!(
            "<p><strong>You were killed by Ogre 1 in {label}&#x27;s combat, round 1.</strong></p>"
        )),
        "{html}"
    );
    let form = &report.text[report.text.find("# Orders of the").expect("the form")..];
    assert!(
        form.contains(
            "# Taken out of your standing orders: Combat: target Ogre 1 (you were killed)."
        ),
        "{form}"
    );
    assert!(
        form.contains(
            "# Taken out of your standing orders: Hire: Bashkars up to 10 (you were killed)."
        ),
        "{form}"
    );
    assert!(!form.contains("\nHire:"), "{form}");
    let combat = form
        .lines()
        .find(|l| l.starts_with("Combat:"))
        .expect("her Combat: line");
    assert!(!combat.contains("Ogre"), "{combat}");
    assert!(combat.contains("run when wounded 2"), "{combat}");
    parse_day_orders(form, 2, data::get().expect("data")).expect("the form parses");
}

/// 3.1 8.1.2-8.1.3: the clearings fight in the order their Attention chits
/// are drawn at random, not in a fixed order of the board.
#[test]
fn clearings_fight_in_the_order_their_attention_chits_are_drawn() {
    let data = data::get().expect("data");
    let mut state = without_denizens(game_played_by(&["Amazon", "Swordsman"], |i| {
        format!("P{}", i + 1)
    }));
    let elsewhere = state
        .board
        .neighbours(&state.characters[0].position)
        .first()
        .expect("a neighbour")
        .to
        .clone();
    state.characters[1].position = elsewhere;
    for (wolf, seat) in [("Wolf A 1", 0), ("Wolf A 2", 1)] {
        state.denizens.get_mut(wolf).expect("a wolf").at = Whereabouts::Clearing {
            clearing: state.characters[seat].position.clone(),
        };
    }
    let mut sorted = vec![
        state.characters[0].position.clone(),
        state.characters[1].position.clone(),
    ];
    sorted.sort();
    let mut reordered = false;
    for seed in 1..12 {
        let orders: BTreeMap<_, _> = state
            .characters
            .iter()
            .map(|c| {
                let day = parse_day_orders("R\nCombat: target nobody", 1, data).expect("orders");
                (c.player.clone(), day)
            })
            .collect();
        let mut dice = Dice::new(seed, 1);
        let (_, events) =
            resolve_day(data, &Rules::default(), state.clone(), &orders, &mut dice).expect("day");
        let mut fought = Vec::new();
        for e in &events {
            if let Happening::Combat(CombatEvent::Line { clearing, .. }) = &e.happening
                && !fought.contains(clearing)
            {
                fought.push(clearing.clone());
            }
        }
        let mut drawn = sorted.clone();
        Dice::new(seed, 1).shuffle("evening/attention-chits", &mut drawn);
        assert_eq!(fought, drawn, "seed {seed}");
        reordered |= fought != sorted;
    }
    assert!(reordered, "some draw puts the later clearing first");
}

/// 3.1 8.4.2g: treachery rebels every member of the group he hired, wherever
/// it is on the map, and each costs him Fame equal to its Notoriety bounty.
#[test]
fn treachery_rebels_his_hired_members_of_the_group_elsewhere_too() {
    let mut state = amazon_beside(&["Bashkar 1"]);
    let here = state.characters[0].position.clone();
    // On another tile, so no prowling of his group's tile brings him to her.
    let elsewhere = state
        .dwellings
        .values()
        .find(|c| c.tile != here.tile)
        .expect("a dwelling on another tile")
        .clone();
    state.denizens.get_mut("Bashkar HQ").expect("a Bashkar").at = Whereabouts::Clearing {
        clearing: elsewhere,
    };
    for native in ["Bashkar 1", "Bashkar HQ"] {
        state.characters[0].hirelings.push(crate::state::Hireling {
            native: native.to_string(),
            days_left: 14,
        });
    }
    state.characters[0].fame = 20;
    let (after, events) = evening_of(state, "R\nCombat: target Bashkar 1");
    let amazon = &after.characters[0];
    assert!(amazon.hirelings.is_empty(), "{:?}", amazon.hirelings);
    let told = rounds_told(&events);
    assert!(
        told.iter()
            .any(|l| l == "treachery: the Amazon loses 4 Fame, the Notoriety bounty of Bashkar HQ"),
        "{told:#?}"
    );
    assert_eq!(amazon.fame, 20 - 4 - 4, "{told:#?}");
}

/// Under Multiple Characters a player's characters lure and act together,
/// in the turn of his who went first today (3.1 10.E.4.5): Ann's Amazon
/// went first and her Berserker third, so the Berserker comes before Ben's
/// Wizard; with one character a player the day's order stands.
#[test]
fn a_players_characters_take_their_combat_turns_together_3_1_10_e_4_5() {
    let players = ["Ann", "Ben", "Ann", "Cid"];
    let grouped = super::evening::together_by_player(&[0, 1, 2, 3], |f| players[f]);
    assert_eq!(grouped, vec![0, 2, 1, 3]);
    let one_each = ["Ann", "Ben", "Cid"];
    let same = super::evening::together_by_player(&[2, 0, 1], |f| one_each[f]);
    assert_eq!(same, vec![2, 0, 1]);
}
