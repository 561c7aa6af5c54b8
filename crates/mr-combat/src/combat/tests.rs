//! The decision API, casting, speed order and random battles (play summary III).

use std::collections::BTreeMap;

use crate::data::{self, GameData};
use crate::state::{ChitCondition, CounterSide};
use realmgm_core::dice::Dice;

use super::decisions::{Action, AttackPlay, FatiguePlay, ManeuverPlay, MeleePlay};
use super::model::{Direction, Fighter, FighterKind, Out};
use super::script::{self, Scripted};
use super::{Answer, Battle, CombatRules, Stage, Step, build};

fn data() -> &'static GameData {
    data::get().expect("the embedded data loads")
}

fn scripted(text: &str) -> Scripted<'static> {
    script::load(data(), "test.toml", text).unwrap_or_else(|e| panic!("{e}"))
}

const AMAZON_AND_OGRE: &str = r#"
clearing = "CV4"
[[character]]
name = "Amazon"
[[denizen]]
id = "Ogre 1"
[dice]
"combat/CV4/round1/reposition" = [[4]]
"combat/CV4/round1/tactics" = [[1, 1]]
"#;

#[test]
fn the_engine_stops_at_each_decision_and_resumes_with_an_answer() {
    let mut s = scripted(AMAZON_AND_OGRE);
    let (battle, dice) = (&mut s.battle, &mut s.dice);
    let Step::Needs(lure) = battle.step(dice) else {
        panic!("the Amazon has no standing orders: she is asked")
    };
    assert_eq!(
        (lure.stage, lure.character.as_str()),
        (Stage::Lure, "Amazon")
    );
    let err = battle
        .answer(0, Answer::Action(Action::Nothing))
        .unwrap_err();
    assert!(err.to_string().contains("waits for luring"), "{err}");
    battle
        .answer(
            0,
            Answer::Lure {
                denizens: vec![],
                hirelings: vec![],
            },
        )
        .expect("lure nobody");
    let Step::Needs(action) = battle.step(dice) else {
        panic!("the action is asked next")
    };
    assert_eq!(action.stage, Stage::Action);
    let options = battle.options(action.fighter);
    assert!(
        options.iter().any(|o| o == "run with MOVE M3*"),
        "{options:?}"
    );
    let err = battle
        .answer(
            0,
            Answer::Action(Action::Alert {
                chit: "FIGHT M5".into(),
            }),
        )
        .unwrap_err();
    assert!(
        err.to_string().contains("cannot alert with FIGHT M5"),
        "{err}"
    );
    battle
        .answer(0, Answer::Action(Action::Nothing))
        .expect("nothing");
    let Step::Needs(melee) = battle.step(dice) else {
        panic!("the melee plays are asked next")
    };
    assert_eq!(melee.stage, Stage::Melee);
    let too_many = MeleePlay {
        target: Some("Ogre 1".into()),
        attack: Some(AttackPlay {
            chit: "FIGHT M3**".into(),
            direction: Direction::Smash,
        }),
        maneuver: Some(ManeuverPlay {
            with: "MOVE M3*".into(),
            direction: Direction::Smash,
        }),
        ..MeleePlay::default()
    };
    let err = battle
        .answer(0, Answer::Melee(too_many.clone()))
        .unwrap_err();
    assert!(err.to_string().contains("effort stars"), "{err}");
    let legal = MeleePlay {
        maneuver: Some(ManeuverPlay {
            with: "MOVE M4".into(),
            direction: Direction::Smash,
        }),
        ..too_many
    };
    battle
        .answer(0, Answer::Melee(legal))
        .expect("a legal play");
    // Speed 3 undercuts the Ogre's move 5 and Heavy harm kills it; the two
    // stars must be paid in the Fatigue step.
    let Step::Needs(tired) = battle.step(dice) else {
        panic!("fatigue is asked")
    };
    assert_eq!(tired.stage, Stage::Fatigue);
    let err = battle
        .answer(0, Answer::Fatigue(FatiguePlay::default()))
        .unwrap_err();
    assert!(err.to_string().contains("must fatigue"), "{err}");
    battle
        .answer(
            0,
            Answer::Fatigue(FatiguePlay {
                fatigue: vec!["FIGHT M4*".into()],
                wounds: vec![],
            }),
        )
        .expect("fatigue a one-star FIGHT chit");
    // Alone, she still does two rounds in which nothing happens (3.1 8.8.3).
    let Step::Needs(next) = battle.step(dice) else {
        panic!("round 2 is played")
    };
    assert_eq!((next.round, next.stage), (2, Stage::Lure));
    battle.run_with_defaults(dice);
    assert_eq!(battle.round, 3);
    let outcome = script::outcome(battle);
    assert_eq!(outcome.killed, vec!["Ogre 1".to_string()]);
    assert_eq!(outcome.fatigued["Amazon"], 1);
    assert!(
        battle
            .answer(
                0,
                Answer::Lure {
                    denizens: vec![],
                    hirelings: vec![]
                }
            )
            .is_err()
    );
}

#[test]
fn casting_without_a_game_state_is_refused_with_the_reason() {
    let mut s = scripted(&AMAZON_AND_OGRE.replace(
        "name = \"Amazon\"",
        "name = \"Amazon\"\ntactics = \"cast Fiery Blast\"",
    ));
    s.run().expect("runs");
    let log = script::log_text(&s.battle);
    let want = format!("cannot cast Fiery Blast: {}", super::casting::NOT_BUILT);
    assert!(log.iter().any(|l| l.contains(&want)), "{log:#?}");
}

const SORCEROR_AND_GIANT: &str = r#"
clearing = "CV4"
day = 21
[[character]]
name = "Sorceror"
spells = ["Fiery Blast"]
[[denizen]]
id = "Giant 1"
"#;

#[test]
fn the_action_decision_lists_the_legal_casts() {
    let mut s = scripted(SORCEROR_AND_GIANT);
    let (battle, dice) = (&mut s.battle, &mut s.dice);
    let Step::Needs(_) = battle.step(dice) else {
        panic!("the Sorceror is asked to lure")
    };
    battle
        .answer(
            0,
            Answer::Lure {
                denizens: vec![],
                hirelings: vec![],
            },
        )
        .expect("lure nobody");
    let Step::Needs(action) = battle.step(dice) else {
        panic!("the action is asked next")
    };
    let options = battle.options(action.fighter);
    assert!(
        options.iter().any(|o| o == "cast Fiery Blast on Giant 1"),
        "{options:?}"
    );
}

/// 3.1 4.6.7b: an attack spell expires after its one effect and its MAGIC
/// chit fatigues then, not at the end of combat.
#[test]
fn an_attack_spell_expires_after_its_attack_and_its_chit_fatigues_then() {
    let mut s = scripted(&SORCEROR_AND_GIANT.replace(
        "spells = [\"Fiery Blast\"]",
        "spells = [\"Fiery Blast\"]\ntactics = \"cast Fiery Blast with MAGIC IV3* on Giant 1, \
         target nobody\"",
    ));
    s.run().expect("runs");
    let magic = s.battle.magic.clone().expect("the battle file has a day");
    assert!(
        magic.state.magic.in_effect.is_empty(),
        "{:?}",
        magic.state.magic.in_effect
    );
    let chit = magic.state.characters[0]
        .chits
        .iter()
        .find(|c| c.chit == "MAGIC IV3*")
        .expect("the Sorceror has MAGIC IV3*");
    assert_eq!(chit.condition, ChitCondition::Fatigued);
}

/// The `cast` order (3.1 8.3.9b-c, 8.4.2d.2, 8.4.5l): the chit, several
/// targets and the attack direction; a spell whose name holds ` with `.
#[test]
fn cast_orders_name_the_chit_the_targets_and_the_direction() {
    let read = |order: &str| {
        let (spell, target) = super::casting::split_order(order);
        super::casting::read_order(data(), &spell, target.as_deref())
    };
    let blast = read("Fiery Blast with MAGIC IV3* on Giant 1 and Giant 2 smash");
    assert_eq!(blast.spell, "Fiery Blast");
    assert_eq!(blast.with.as_deref(), Some("MAGIC IV3*"));
    assert_eq!(blast.target.as_deref(), Some("Giant 1 and Giant 2"));
    assert_eq!(blast.direction, Some(Direction::Smash));
    let deal = read("Deal with Goblins on Spear Goblin 1");
    assert_eq!(
        (deal.spell.as_str(), deal.with),
        ("Deal with Goblins", None)
    );
    let dealt = read("Deal with Goblins with MAGIC II2* on Spear Goblin 1");
    assert_eq!(dealt.spell, "Deal with Goblins");
    assert_eq!(dealt.with.as_deref(), Some("MAGIC II2*"));
    let bare = read("Fiery Blast swing");
    assert_eq!(
        (bare.spell.as_str(), bare.target, bare.direction),
        ("Fiery Blast", None, Some(Direction::Swing))
    );
}

#[test]
fn cast_orders_name_the_spell_and_the_target() {
    assert_eq!(
        super::casting::split_order("Fiery Blast on Giant 1"),
        ("Fiery Blast".to_string(), Some("Giant 1".to_string()))
    );
    assert_eq!(
        super::casting::split_order("Peace"),
        ("Peace".to_string(), None)
    );
}

#[test]
fn after_the_first_round_the_fastest_attack_lands_first() {
    // Round 2: the Swordsman's FIGHT L2** (speed 2, length 4) beats the
    // Spear Goblin (speed 5, length 10), which dies before it strikes.
    let text = r#"
clearing = "CV4"
[[character]]
name = "Swordsman"
tactics = "target nobody, maneuver with MOVE L4, maneuver duck"
rounds = [{ round = 2, tactics = "attack with FIGHT L2**, attack thrust, maneuver with MOVE L4, maneuver charge" }]
[[denizen]]
id = "Spear Goblin 1"
side = "dark"
[dice]
"combat/CV4/round1/reposition" = [[4]]
"combat/CV4/round1/tactics" = [[1, 1]]
"combat/CV4/round2/reposition" = [[4]]
"combat/CV4/round2/tactics" = [[1, 1]]
"#;
    let mut s = scripted(text);
    let outcome = s.run().expect("runs");
    let log = script::log_text(&s.battle);
    assert_eq!(
        outcome.killed,
        vec!["Spear Goblin 1".to_string()],
        "{log:#?}"
    );
    assert!(outcome.dead.is_empty(), "{log:#?}");
    let kill = log
        .iter()
        .position(|l| l.contains("Spear Goblin 1 is killed"))
        .unwrap();
    assert!(log[kill].starts_with("round 2"), "{log:#?}");
    assert!(
        !log[kill..]
            .iter()
            .any(|l| l.contains("Spear Goblin 1 on Swordsman"))
    );
}

/// A small deterministic generator for the random battles.
fn pick(seed: &mut u64, n: usize) -> usize {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    usize::try_from(*seed >> 33).unwrap_or(0) % n.max(1)
}

fn random_battle(seed: u64) -> Battle<'static> {
    let data = data();
    let mut s = seed;
    let mut fighters = Vec::new();
    for _ in 0..(1 + pick(&mut s, 3)) {
        let card = &data.characters[pick(&mut s, data.characters.len())];
        if fighters.iter().any(|f: &Fighter| f.name == card.name) {
            continue;
        }
        let labels: Vec<(String, ChitCondition)> = card
            .chits
            .iter()
            .map(|c| {
                let condition = [
                    ChitCondition::Active,
                    ChitCondition::Active,
                    ChitCondition::Fatigued,
                    ChitCondition::Wounded,
                ][pick(&mut s, 4)];
                (c.to_string(), condition)
            })
            .collect();
        let weapon = card
            .weapon
            .as_deref()
            .map(|w| build::weapon(data, w, pick(&mut s, 2) == 0).unwrap());
        let armor = card
            .armor
            .iter()
            .map(|a| build::armor(data, a, false).unwrap())
            .collect();
        let mut belongings: Vec<crate::state::Item> = Vec::new();
        if let Some(w) = &card.weapon {
            belongings.push(crate::state::Item {
                kind: crate::state::ItemKind::Weapon,
                name: w.clone(),
            });
        }
        fighters.push(Fighter {
            name: card.name.clone(),
            kind: FighterKind::Character(super::model::Hero {
                player: format!("P{}", fighters.len()),
                vulnerability: card.vulnerability,
                chits: build::chits(&labels).unwrap(),
                weapon,
                armor,
                horse: None,
                heaviest: Default::default(),
                gold: 10,
                fame: 0,
                notoriety: 0,
                belongings,
                kills: 0,
                kept: Default::default(),
                taken: Vec::new(),
                dead: false,
                missile: build::ability_modifiers(card, crate::data::terms::Roll::Missile),
                found_hidden_enemies: pick(&mut s, 2) == 0,
                magic_sight: Vec::new(),
                records_spells: false,
                abandoned: Vec::new(),
                kit: Default::default(),
                immune_to: Vec::new(),
                wish_strength: false,
                fly: None,
                flew_away: false,
            }),
            hidden: pick(&mut s, 4) == 0,
            out: None,
        });
    }
    let ids: Vec<String> = data
        .monsters
        .iter()
        .flat_map(crate::setup::counter_ids)
        .chain(
            data.natives
                .iter()
                .flat_map(|g| g.members.iter().map(|m| m.name.clone())),
        )
        .collect();
    let characters = fighters.len();
    for _ in 0..(1 + pick(&mut s, 6)) {
        let id = &ids[pick(&mut s, ids.len())];
        if fighters.iter().any(|f| &f.name == id) {
            continue;
        }
        let side = if pick(&mut s, 2) == 0 {
            CounterSide::Light
        } else {
            CounterSide::Dark
        };
        let employer = (pick(&mut s, 5) == 0).then(|| pick(&mut s, characters));
        let mut denizen = build::denizen(data, id, side, employer).unwrap();
        if pick(&mut s, 2) == 0 {
            denizen.battling.insert(pick(&mut s, characters));
        }
        fighters.push(Fighter {
            name: id.clone(),
            kind: FighterKind::Denizen(denizen),
            hidden: false,
            out: None,
        });
    }
    let rules = CombatRules {
        stumble: pick(&mut s, 2) == 0,
        fumble: pick(&mut s, 2) == 0,
        optional_missile_table: pick(&mut s, 2) == 0,
        penetrating_armor: pick(&mut s, 2) == 0,
        ambush: pick(&mut s, 2) == 0,
        riding_horses: pick(&mut s, 2) == 0,
        serious_wounds: pick(&mut s, 2) == 0,
        watchful_natives: pick(&mut s, 2) == 0,
        extended_treachery: pick(&mut s, 2) == 0,
        alerted_monsters: pick(&mut s, 2) == 0,
        benevolent_spells: pick(&mut s, 2) == 0,
        dragon_heads: pick(&mut s, 2) == 0,
        advanced_power_of_the_pit: pick(&mut s, 2) == 0,
        alerted_monsters_variant: pick(&mut s, 2) == 0,
        semi_restricted_ambush: pick(&mut s, 2) == 0,
        dropping_belongings: pick(&mut s, 2) == 0,
    };
    let mut battle = Battle::new(data, "CV4", fighters, rules);
    for c in 0..characters {
        let tactics = super::orders::parse_tactics(
            [
                "",
                "lure everyone",
                "run when wounded 1",
                "target weakest, alert",
                "lure weakest, target strongest",
                "berserk, abandon Shield",
                "target weakest, charge Amazon, attack horses",
            ][pick(&mut s, 7)],
            data,
        )
        .unwrap();
        battle.tactics.insert(c, tactics);
    }
    battle
}

#[test]
fn random_battles_end_keep_their_chits_and_place_every_belonging() {
    for seed in 0..300u64 {
        let mut battle = random_battle(seed);
        let before: BTreeMap<String, (usize, Vec<String>)> = battle
            .fighters
            .iter()
            .filter_map(|f| match &f.kind {
                FighterKind::Character(h) => Some((
                    f.name.clone(),
                    (
                        h.chits.len(),
                        h.belongings.iter().map(|i| i.name.clone()).collect(),
                    ),
                )),
                FighterKind::Denizen(_) => None,
            })
            .collect();
        let mut dice = Dice::new(seed, 1);
        if seed % 2 == 0 {
            battle.run_with_defaults(&mut dice);
        } else {
            // Through the decision API: every default play must be legal.
            let orders = std::mem::take(&mut battle.tactics);
            while let Step::Needs(decision) = battle.step(&mut dice) {
                let who = decision.fighter;
                battle.tactics.insert(who, orders[&who].clone());
                let answer = super::tactics::standing_answer(&battle, who);
                battle.tactics.clear();
                if let Err(e) = battle.answer(who, answer) {
                    panic!("seed {seed}: {decision:?}: {e}");
                }
            }
        }
        assert!(battle.finished, "seed {seed}");
        let mut placed: Vec<String> = battle.dropped.iter().map(|i| i.name.clone()).collect();
        placed.extend(battle.to_groups.iter().map(|(_, i)| i.name.clone()));
        for f in &battle.fighters {
            if let FighterKind::Character(h) = &f.kind {
                assert_eq!(
                    h.chits.len(),
                    before[&f.name].0,
                    "seed {seed}: chits conserved"
                );
                placed.extend(h.belongings.iter().map(|i| i.name.clone()));
                placed.extend(h.taken.iter().map(|i| i.name.clone()));
                if h.dead {
                    assert!(
                        h.belongings.is_empty(),
                        "seed {seed}: the dead keep nothing"
                    );
                }
            }
        }
        let mut want: Vec<String> = before.values().flat_map(|(_, b)| b.clone()).collect();
        want.sort();
        placed.sort();
        // Destroyed armour leaves play; every other belonging is somewhere.
        for item in &want {
            let destroyed = battle.log.iter().any(|l| matches!(&l.line,
                super::log::CombatLine::ArmorDamaged { armor, destroyed: true, .. } if armor == item));
            assert!(
                destroyed || placed.contains(item),
                "seed {seed}: {item} vanished"
            );
        }
    }
}

#[test]
fn a_hidden_characters_plays_are_seen_only_by_him() {
    let mut s = scripted(
        r#"
clearing = "CV4"
[[character]]
name = "Amazon"
[[character]]
name = "Black Knight"
hidden = true
tactics = "target nobody"
[[denizen]]
id = "Wolf A 1"
"#,
    );
    s.run().expect("runs");
    let log = &s.battle.log;
    let begins = log
        .iter()
        .find_map(|l| match &l.line {
            super::log::CombatLine::Begins { fighters } => Some(fighters.clone()),
            _ => None,
        })
        .expect("a first line");
    assert!(!begins.contains(&"Black Knight".to_string()), "{begins:?}");
    for line in log {
        if let super::log::CombatLine::Plays { fighter, .. }
        | super::log::CombatLine::Maneuvers { fighter, .. } = &line.line
        {
            let want = if fighter == "Black Knight" {
                super::log::Seen::Only { fighter: 1 }
            } else {
                super::log::Seen::Clearing
            };
            assert_eq!(line.seen, want, "{fighter}");
        }
    }
}

#[test]
fn a_cast_is_held_to_the_fastest_move_time_on_his_sheet_equal_allowed() {
    let text = |fatigued: &str| {
        format!(
            r#"
clearing = "CV4"
day = 21
[[character]]
name = "Sorceror"
spells = ["Fiery Blast"]
fatigued = [{fatigued}]
tactics = "cast Fiery Blast on Wolf A 1"
[[denizen]]
id = "Wolf A 1"
"#
        )
    };
    let mut slow = scripted(&text(r#""MAGIC IV3*", "MAGIC IV3*""#));
    slow.run().expect("runs");
    let log = script::log_text(&slow.battle);
    assert!(
        log.iter().any(|l| l.contains(
            "cannot cast Fiery Blast: its speed 4 is slower than the move time 3 of an attacker"
        )),
        "{log:#?}"
    );
    let mut equal = scripted(&text(""));
    equal.run().expect("runs");
    let log = script::log_text(&equal.battle);
    assert!(
        log.iter()
            .any(|l| l.contains("casts Fiery Blast on Wolf A 1 with MAGIC IV3* (speed 3)")),
        "{log:#?}"
    );
}

#[test]
fn the_blow_is_told_before_what_it_did_to_the_armour() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/battles/armor_destroyed.toml"
    ))
    .expect("the battle file");
    let mut s = scripted(&text);
    s.run().expect("runs");
    let lines: Vec<String> = s.battle.log.iter().map(|l| l.line.to_string()).collect();
    let at = |wanted: &str| {
        lines
            .iter()
            .position(|l| l.starts_with(wanted))
            .unwrap_or_else(|| panic!("no line {wanted}: {lines:#?}"))
    };
    assert!(
        at("Spear Goblin 1 on the Amazon:") < at("the Amazon's Helmet is destroyed"),
        "{lines:#?}"
    );
}

/// 3.1 8.3.6b.4 and 8.3.8e: the Witch's Fly chit (Broomstick) is offered
/// to charge and to run with; run with, she flies away, and the chit is
/// used up (4.6.7e.1).
#[test]
fn a_fly_chit_charges_or_flies_her_away_8_3_8e() {
    let mut s = scripted(
        r#"
clearing = "CV4"
day = 7
in_effect = [{ spell = "Broomstick", caster = "Witch", on = ["Witch"], with = "MAGIC V4*" }]
[[character]]
name = "Witch"
[[character]]
name = "Amazon"
tactics = "target nobody"
"#,
    );
    let (battle, dice) = (&mut s.battle, &mut s.dice);
    let action = loop {
        let Step::Needs(decision) = battle.step(dice) else {
            panic!("the Witch has no standing orders: she is asked")
        };
        if decision.stage == Stage::Action {
            break decision;
        }
        let nothing = Answer::Lure {
            denizens: vec![],
            hirelings: vec![],
        };
        battle
            .answer(decision.fighter, nothing)
            .expect("lure nobody");
    };
    let options = battle.options(action.fighter);
    assert!(
        options.iter().any(|o| o == "charge Amazon with Fly chit"),
        "{options:?}"
    );
    assert!(
        options.iter().any(|o| o == "run with Fly chit"),
        "{options:?}"
    );
    let witch = action.fighter;
    battle
        .answer(
            witch,
            Answer::Action(Action::Run {
                chit: "Fly chit".into(),
            }),
        )
        .expect("she may fly away");
    while let Step::Needs(decision) = battle.step(dice) {
        let answer = match decision.stage {
            Stage::Lure => Answer::Lure {
                denizens: vec![],
                hirelings: vec![],
            },
            Stage::Action => Answer::Action(Action::Nothing),
            _ => Answer::Melee(MeleePlay::default()),
        };
        battle.answer(decision.fighter, answer).expect("legal");
    }
    assert_eq!(battle.fighters[witch].out, Some(Out::Ran));
    assert!(battle.hero(witch).is_some_and(|h| h.flew_away));
    let log = script::log_text(battle);
    assert!(
        log.iter()
            .any(|l| l.contains("the Witch's Fly chit is used up: the Broomstick expires")),
        "{log:#?}"
    );
}

/// 3.1 4.6.7e.1: a Fly chit played to charge is used up at the end of the
/// Encounter step, before the Melee step asks for her plays.
#[test]
fn a_fly_chit_that_charged_is_used_up_before_the_melee_step() {
    let mut s = scripted(
        r#"
clearing = "CV4"
day = 7
in_effect = [{ spell = "Broomstick", caster = "Witch", on = ["Witch"], with = "MAGIC V4*" }]
[[character]]
name = "Witch"
[[character]]
name = "Amazon"
tactics = "target nobody"
"#,
    );
    let (battle, dice) = (&mut s.battle, &mut s.dice);
    let melee = loop {
        let Step::Needs(decision) = battle.step(dice) else {
            panic!("the Witch has no standing orders: she is asked")
        };
        let answer = match decision.stage {
            Stage::Lure => Answer::Lure {
                denizens: vec![],
                hirelings: vec![],
            },
            Stage::Action if decision.character == "Witch" => Answer::Action(Action::Charge {
                target: "Amazon".into(),
                with: "Fly chit".into(),
            }),
            Stage::Action => Answer::Action(Action::Nothing),
            _ if decision.character == "Witch" => break decision,
            _ => Answer::Melee(MeleePlay::default()),
        };
        battle.answer(decision.fighter, answer).expect("legal");
    };
    assert_eq!(melee.stage, Stage::Melee);
    let log = script::log_text(battle);
    assert!(
        log.iter()
            .any(|l| l.contains("the Witch's Fly chit is used up: the Broomstick expires")),
        "{log:#?}"
    );
}
