//! Tests of the individual spells' effects, one or two a test.

use crate::data::spells::Duration;
use crate::data::tiles::ClearingKind;
use crate::day::events::Happening;
use crate::day::{Day, PhaseOutcome, search};
use crate::orders::SearchTable;
use crate::state::{ChitCondition, DenizenKind, MrState, Whereabouts};
use crate::tables::magic::CurseKind;
use crate::test_support::{data, test_game as game};
use realmgm_core::dice::{Dice, DiceScript};
use realmgm_core::game::Rules;

use crate::magic::cast::{CastRequest, cast, check};
use crate::magic::curses;
use crate::magic::effect::SpellEffect;
use crate::state::magic::{Aim, CastWith};

use super::test_fixtures::{cast_ok, caster, forced, me, request, together, who};

#[test]
fn attack_spells_describe_a_missile_attack_for_combat() {
    let mut state = game(&["Wizard", "Amazon", "Captain"]);
    together(&mut state);
    caster(&mut state, 0, "IV", "Fiery Blast");
    let targets = vec![me(&state, 1), me(&state, 2)];
    let effects = cast_ok(
        &mut state,
        &request(0, "Fiery Blast", targets.clone(), 21),
        &mut Dice::new(1, 1),
    );
    let attack = effects.iter().find_map(|e| match e {
        SpellEffect::Attack {
            harm,
            stars,
            missile,
            speed,
            targets: t,
            ..
        } => Some((*harm, *stars, *missile, *speed, t.clone())),
        _ => None,
    });
    let (harm, stars, missile, speed, t) = attack.unwrap();
    assert_eq!(
        (harm.letter(), stars, missile, speed, t),
        ("L", 3, true, 2, targets)
    );
    // An attack spell expires after its one effect, its chit fatiguing at
    // once (3.1 4.6.7b): nothing is left for the end of combat.
    assert!(state.magic.in_effect.is_empty());
    assert_eq!(
        state.characters[0].chits[0].condition,
        ChitCondition::Fatigued
    );
}

#[test]
fn make_whole_and_small_blessing_heal() {
    let mut state = game(&["Pilgrim"]);
    state.characters[0].chits[3].condition = ChitCondition::Wounded;
    curses::inflict(
        &mut state,
        data(),
        &Rules::default(),
        0,
        CurseKind::Wither,
        "test",
    );
    caster(&mut state, 0, "I", "Make Whole");
    cast_ok(
        &mut state,
        &request(0, "Make Whole", vec![who("Pilgrim")], 7),
        &mut Dice::new(1, 1),
    );
    assert!(
        state.characters[0].chits[1..]
            .iter()
            .all(|c| c.condition == ChitCondition::Active)
    );
    assert!(state.characters[0].magic.curses.is_empty());

    let mut state = game(&["Pilgrim"]);
    caster(&mut state, 0, "I", "Small Blessing");
    let mut dice = forced("magic/Small Blessing/Pilgrim", &[6]);
    let effects = cast_ok(
        &mut state,
        &request(0, "Small Blessing", vec![who("Pilgrim")], 7),
        &mut dice,
    );
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, SpellEffect::NextFightTremendous { .. }))
    );
    assert!(state.characters[0].magic.next_fight_tremendous);
}

fn monster_here(state: &mut MrState, name: &str) -> String {
    let here = state.characters[0].position.clone();
    let id = state
        .denizens
        .iter()
        .find(|(id, d)| {
            d.kind == DenizenKind::Monster
                && (id.as_str() == name || id.starts_with(&format!("{name} ")))
        })
        .map(|(id, _)| id.clone())
        .unwrap();
    state.denizens.get_mut(&id).unwrap().at = Whereabouts::Clearing { clearing: here };
    id
}

#[test]
fn exorcise_kills_imps_and_breaks_spells_here() {
    let mut state = game(&["Pilgrim", "Amazon"]);
    together(&mut state);
    let imp = monster_here(&mut state, "Imp");
    state
        .magic
        .in_effect
        .push(crate::state::magic::SpellInEffect {
            id: 9,
            spell: "Peace".into(),
            caster: "Pilgrim".into(),
            with: CastWith::Chit { index: 5 },
            targets: vec![me(&state, 1)],
            duration: Duration::Combat,
            cast_on: 7,
            inert: false,
            held: false,
            detail: None,
            untied: false,
        });
    caster(&mut state, 0, "I", "Exorcise");
    let here = state.characters[0].position.clone();
    cast_ok(
        &mut state,
        &request(0, "Exorcise", vec![Aim::Clearing { clearing: here }], 7),
        &mut Dice::new(1, 1),
    );
    assert_eq!(state.denizens[&imp].at, Whereabouts::Dead);
    assert!(state.magic.in_effect.is_empty());
}

#[test]
fn curse_and_power_of_the_pit_roll_their_tables() {
    let mut state = game(&["Witch", "Amazon"]);
    together(&mut state);
    caster(&mut state, 0, "V", "Curse");
    let mut dice = forced("magic/Curse/Witch", &[4]);
    cast_ok(
        &mut state,
        &request(0, "Curse", vec![who("Amazon")], 14),
        &mut dice,
    );
    assert!(curses::has(&state.characters[1], CurseKind::IllHealth));

    caster(&mut state, 0, "V", "Power of the Pit");
    let mut dice = forced("magic/Power of the Pit/Witch", &[5]);
    let effects = cast_ok(
        &mut state,
        &request(0, "Power of the Pit", vec![who("Amazon")], 7),
        &mut dice,
    );
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, SpellEffect::ChitsFatigued { .. }))
    );

    let wolf = monster_here(&mut state, "Wolf A");
    state.characters[0].chits[0].condition = ChitCondition::Active;
    let mut dice = forced("magic/Power of the Pit/Witch", &[2]);
    cast_ok(
        &mut state,
        &request(
            0,
            "Power of the Pit",
            vec![Aim::Denizen { id: wolf.clone() }],
            7,
        ),
        &mut dice,
    );
    assert_eq!(state.denizens[&wolf].at, Whereabouts::Dead);
}

#[test]
fn absorb_essence_kills_the_monster_and_keeps_its_form() {
    let mut state = game(&["Witch King"]);
    let wolf = monster_here(&mut state, "Wolf B");
    caster(&mut state, 0, "V", "Absorb Essence");
    cast_ok(
        &mut state,
        &request(
            0,
            "Absorb Essence",
            vec![Aim::Denizen { id: wolf.clone() }],
            7,
        ),
        &mut Dice::new(1, 1),
    );
    assert_eq!(state.denizens[&wolf].at, Whereabouts::Dead);
    assert_eq!(state.magic.in_effect[0].detail.as_deref(), Some("Wolf B"));
    assert_eq!(state.magic.in_effect[0].duration, Duration::Permanent);
}

#[test]
fn dissolve_spell_breaks_a_spell_and_protection_from_magic_shields() {
    let mut state = game(&["Magician", "Amazon"]);
    together(&mut state);
    caster(&mut state, 0, "VII", "Protection from Magic");
    cast_ok(
        &mut state,
        &request(0, "Protection from Magic", vec![who("Amazon")], 28),
        &mut Dice::new(1, 1),
    );
    let id = state.magic.in_effect[0].id;
    crate::magic::phase_chit::activate(&mut state, 1, "Protection from Magic").expect("held");
    state.characters[0].chits[1].chit = "MAGIC VI3*".into();
    state.characters[0].chits[1].condition = ChitCondition::Active;
    state.characters[0].magic.spells.push("Transform".into());
    let transform = CastRequest {
        with: CastWith::Chit { index: 1 },
        ..request(0, "Transform", vec![me(&state, 1)], 21)
    };
    let err = check(&state, data(), &Rules::default(), &transform).unwrap_err();
    assert!(err.to_string().contains("Protection from Magic"), "{err}");
    state.characters[0]
        .magic
        .spells
        .push("Dissolve Spell".into());
    let dissolve = CastRequest {
        with: CastWith::Chit { index: 1 },
        ..request(0, "Dissolve Spell", vec![Aim::Spell { id }], 21)
    };
    let effects = cast_ok(&mut state, &dissolve, &mut Dice::new(1, 1));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, SpellEffect::SpellBroken { .. }))
    );
    assert!(state.magic.in_effect.is_empty());
}

#[test]
fn fog_stops_the_peer_table_in_its_tile() {
    let mut state = game(&["Wizard"]);
    caster(&mut state, 0, "II", "Fog");
    let tile = state.characters[0].position.tile.clone();
    cast_ok(
        &mut state,
        &request(0, "Fog", vec![Aim::Tile { code: tile }], 14),
        &mut Dice::new(1, 1),
    );
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    let peer = SearchTable::Peer {
        tile: None,
        clearing: None,
    };
    let outcome = search::search(&mut day, 0, &peer);
    assert!(matches!(outcome, PhaseOutcome::Lost { reason } if reason.contains("Fog")));
}

#[test]
fn hurricane_winds_blows_the_target_to_the_next_tile() {
    let mut state = game(&["Wizard", "Amazon"]);
    // Find a mountain clearing with a neighbouring tile.
    let mountain = state
        .board
        .clearings()
        .into_iter()
        .find(|c| {
            state.board.clearing(c).unwrap().kind == ClearingKind::Mountain
                && state
                    .board
                    .neighbours(c)
                    .iter()
                    .any(|l| l.to.tile != c.tile)
        })
        .unwrap();
    for c in &mut state.characters {
        c.position = mountain.clone();
    }
    let next = state
        .board
        .neighbours(&mountain)
        .into_iter()
        .find(|l| l.to.tile != mountain.tile)
        .map(|l| l.to.tile)
        .unwrap();
    caster(&mut state, 0, "IV", "Hurricane Winds");
    let req = request(
        0,
        "Hurricane Winds",
        vec![me(&state, 1), Aim::Tile { code: next.clone() }],
        21,
    );
    let effects = cast_ok(&mut state, &req, &mut Dice::new(1, 1));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, SpellEffect::Moved { .. }))
    );
    assert_eq!(state.characters[1].position.tile, next);
}

#[test]
fn bad_luck_and_illusion_change_the_targets_rolls() {
    use crate::data::terms::Roll;
    let mut state = game(&["Magician", "Amazon"]);
    together(&mut state);
    caster(&mut state, 0, "VIII", "Bad Luck");
    let req = request(0, "Bad Luck", vec![who("Amazon")], 14);
    cast_ok(&mut state, &req, &mut Dice::new(1, 1));
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let day = Day::new(data(), &rules, state.clone(), &mut dice);
    let hide = crate::day::modifiers::for_roll(&day, 1, Roll::Hide);
    assert_eq!(hide.total(), 1);
    // Inert after Midnight: no more effect until energized.
    state.magic.in_effect[0].inert = true;
    let day = Day::new(data(), &rules, state.clone(), &mut dice);
    assert_eq!(
        crate::day::modifiers::for_roll(&day, 1, Roll::Hide).total(),
        0
    );

    let mut state = game(&["Magician", "Amazon"]);
    together(&mut state);
    caster(&mut state, 0, "III", "Illusion");
    let tile = state.characters[0].position.tile.clone();
    cast_ok(
        &mut state,
        &request(0, "Illusion", vec![Aim::Tile { code: tile }], 28),
        &mut Dice::new(1, 1),
    );
    let day = Day::new(data(), &rules, state, &mut dice);
    assert_eq!(
        crate::day::modifiers::for_roll(&day, 1, Roll::Locate).total(),
        1
    );
    assert_eq!(
        crate::day::modifiers::for_roll(&day, 1, Roll::Hide).total(),
        0
    );
}

#[test]
fn persuade_makes_a_native_group_friendly_for_the_day() {
    use crate::data::characters::Relationship;
    let mut state = game(&["Magician"]);
    let here = state.characters[0].position.clone();
    let group = data()
        .natives
        .iter()
        .find(|g| g.name == "Bashkars")
        .unwrap();
    let member = group.members[0].name.clone();
    state.denizens.get_mut(&member).unwrap().at = Whereabouts::Clearing { clearing: here };
    caster(&mut state, 0, "III", "Persuade");
    cast_ok(
        &mut state,
        &request(0, "Persuade", vec![Aim::Denizen { id: member }], 28),
        &mut Dice::new(1, 1),
    );
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    assert_eq!(
        crate::day::meeting::relationship(&day, 0, "Bashkars"),
        Relationship::Friendly
    );
    crate::day::spell_clock::sunset(&mut day, 29);
    assert_ne!(
        crate::day::meeting::relationship(&day, 0, "Bashkars"),
        Relationship::Friendly
    );
}

#[test]
fn see_hidden_signs_and_blazing_light_give_bonus_phases() {
    use crate::data::terms::Activity as Kind;
    let mut state = game(&["Wizard"]);
    caster(&mut state, 0, "III", "See Hidden Signs");
    cast_ok(
        &mut state,
        &request(0, "See Hidden Signs", vec![who("Wizard")], 28),
        &mut Dice::new(1, 1),
    );
    let c = state.characters[0].clone();
    let search = crate::magic::influence::bonus_phases(&state, &c, Kind::Search);
    assert!(
        search.iter().any(|s| s.contains("See Hidden Signs")),
        "{search:?}"
    );
    let hide = crate::magic::influence::bonus_phases(&state, &c, Kind::Hide);
    assert!(!hide.iter().any(|s| s.contains("See Hidden Signs")));
}

#[test]
fn whistle_for_monsters_brings_a_sound_chit_and_peace_with_nature_quiets_them() {
    let mut state = game(&["Magician"]);
    let here = state.characters[0].position.tile.clone();
    let (tile, chit) = state
        .map_chits
        .iter()
        .filter(|(t, _)| **t != here)
        .find_map(|(t, chits)| {
            chits
                .iter()
                .find(|c| data().chits.sound.iter().any(|s| s.name == c.name))
                .map(|c| (t.clone(), c.name.clone()))
        })
        .unwrap();
    caster(&mut state, 0, "VIII", "Whistle for Monsters");
    let aim = Aim::Item {
        holder: tile.clone(),
        item: chit.clone(),
    };
    cast_ok(
        &mut state,
        &request(0, "Whistle for Monsters", vec![aim], 21),
        &mut Dice::new(1, 1),
    );
    assert!(state.map_chits[&here].iter().any(|c| c.name == chit));
    assert!(!state.map_chits[&tile].iter().any(|c| c.name == chit));

    caster(&mut state, 0, "VII", "Peace with Nature");
    assert!(!crate::magic::influence::peace_with_nature(&state, 0));
    cast_ok(
        &mut state,
        &request(0, "Peace with Nature", vec![who("Magician")], 28),
        &mut Dice::new(1, 1),
    );
    assert!(crate::magic::influence::peace_with_nature(&state, 0));
}

#[test]
fn talk_to_wise_bird_peers_into_any_clearing() {
    let mut state = game(&["Wizard"]);
    caster(&mut state, 0, "II", "Talk to Wise Bird");
    let far = state.board.clearings().into_iter().last().unwrap();
    let req = request(
        0,
        "Talk to Wise Bird",
        vec![
            who("Wizard"),
            Aim::Clearing {
                clearing: far.clone(),
            },
        ],
        28,
    );
    let mut dice = forced("magic/Talk to Wise Bird/Wizard", &[5]);
    cast_ok(&mut state, &req, &mut dice);
    let seen = &state.characters[0].discoveries.chits_seen;
    for chit in &state.map_chits[&far.tile] {
        assert!(seen.contains(&chit.name), "{} not seen", chit.name);
    }
    assert!(!state.characters[0].found_hidden_enemies);
    let req = request(0, "Talk to Wise Bird", vec![who("Wizard")], 28);
    state.characters[0].chits[0].condition = ChitCondition::Active;
    assert!(
        cast(
            &mut state,
            data(),
            &Rules::default(),
            &req,
            &mut Dice::new(1, 1)
        )
        .is_err()
    );
}

#[test]
fn ask_demon_sends_the_question_to_the_gm() {
    let mut state = game(&["Witch King"]);
    let demon = monster_here(&mut state, "Demon");
    caster(&mut state, 0, "V", "Ask Demon");
    let effects = cast_ok(
        &mut state,
        &request(0, "Ask Demon", vec![Aim::Denizen { id: demon }], 7),
        &mut Dice::new(1, 1),
    );
    assert!(
        effects.iter().any(
            |e| matches!(e, SpellEffect::ForGm { text } if text.contains("yes, no or a number"))
        )
    );
}

#[test]
fn broomstick_flies_its_target_and_ends_when_he_lands() {
    let mut state = game(&["Witch King"]);
    caster(&mut state, 0, "V", "Broomstick");
    cast_ok(
        &mut state,
        &request(0, "Broomstick", vec![who("Witch King")], 7),
        &mut Dice::new(1, 1),
    );
    let (here, next) = state
        .board
        .clearings()
        .into_iter()
        .find_map(|c| {
            let next = state
                .board
                .neighbours(&c)
                .into_iter()
                .find(|l| l.to.tile != c.tile)?;
            Some((c, next.to.tile))
        })
        .unwrap();
    state.characters[0].position = here;
    let orders: std::collections::BTreeMap<String, crate::orders::DayOrders> = [(
        "p0".to_string(),
        crate::orders::parse_day_orders(&format!("FL {next}"), 1, data()).unwrap(),
    )]
    .into();
    let (after, _) = crate::day::resolve_day(
        data(),
        &Rules::default(),
        state,
        &orders,
        &mut Dice::new(5, 1),
    )
    .unwrap();
    assert_eq!(after.characters[0].position.tile, next);
    assert!(
        after.magic.in_effect.is_empty(),
        "the Broomstick ends on landing"
    );
    assert_eq!(
        after.characters[0].chits[0].condition,
        ChitCondition::Fatigued
    );
}

#[test]
fn a_lost_traveller_wanders_and_a_storm_cancels_phases() {
    let mut state = game(&["Magician"]);
    // A clearing with a neighbour in another tile.
    let (here, link) = state
        .board
        .clearings()
        .into_iter()
        .find_map(|c| {
            let l =
                state.board.neighbours(&c).into_iter().find(|l| {
                    l.to.tile != c.tile && l.kind == crate::data::tiles::PathKind::Normal
                })?;
            Some((c, l))
        })
        .unwrap();
    state.characters[0].position = here.clone();
    caster(&mut state, 0, "III", "Lost");
    cast_ok(
        &mut state,
        &request(0, "Lost", vec![who("Magician")], 28),
        &mut Dice::new(1, 1),
    );
    state.characters[0].chits[1].chit = "MAGIC IV3*".into();
    state.characters[0].chits[1].condition = ChitCondition::Active;
    state.characters[0]
        .magic
        .spells
        .push("Violent Storm".into());
    let storm = CastRequest {
        with: CastWith::Chit { index: 1 },
        ..request(
            0,
            "Violent Storm",
            vec![Aim::Tile {
                code: link.to.tile.clone(),
            }],
            21,
        )
    };
    // The storm is cast from inside its tile; then he goes back.
    state.characters[0].position = link.to.clone();
    cast_ok(&mut state, &storm, &mut Dice::new(1, 1));
    state.characters[0].position = here.clone();
    let rules = Rules::default();
    let mut script = DiceScript::default();
    let other = state
        .board
        .clearings()
        .into_iter()
        .find(|c| c.tile == link.to.tile && c.clearing != link.to.clearing)
        .unwrap();
    script.force("daylight/lost", &[other.clearing]).unwrap();
    script.force("daylight/storm", &[1]).unwrap();
    let mut dice = Dice::with_script(1, 1, script);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    let to = crate::day::wilderness::lost_destination(&mut day, 0, link.to.clone());
    assert_eq!(to, other);
    day.state.characters[0].position = to;
    assert_eq!(
        crate::day::wilderness::storm_phases(&mut day, 0, &here.tile),
        4
    );
    assert_eq!(
        crate::day::wilderness::storm_phases(&mut day, 0, &link.to.tile),
        0,
        "no storm without entering"
    );
}

#[test]
fn premonition_lets_its_target_choose_his_turn() {
    let mut state = game(&["Amazon", "Black Knight", "Dwarf", "Magician"]);
    caster(&mut state, 3, "VII", "Premonition");
    let req = request(3, "Premonition", vec![who("Magician")], 14);
    assert!(!crate::magic::influence::premonition(&state, 3));
    cast_ok(&mut state, &req, &mut Dice::new(1, 1));
    assert!(crate::magic::influence::premonition(&state, 3));
    let orders: std::collections::BTreeMap<String, crate::orders::DayOrders> =
        ["p0", "p1", "p2", "p3"]
            .iter()
            .map(|p| {
                let text = if *p == "p3" { "H\nTurn: first" } else { "H" };
                (
                    p.to_string(),
                    crate::orders::parse_day_orders(text, 1, data()).unwrap(),
                )
            })
            .collect();
    let (_, events) = crate::day::resolve_day(
        data(),
        &Rules::default(),
        state,
        &orders,
        &mut Dice::new(9, 1),
    )
    .unwrap();
    assert!(events.iter().any(|e| matches!(&e.happening,
        Happening::Birdsong(crate::day::events::BirdsongEvent::TurnChosen { character, .. })
            if character == "Magician")));
}

#[test]
fn world_fades_opens_the_magic_sight_table() {
    let mut state = game(&["Witch King", "Amazon"]);
    together(&mut state);
    caster(&mut state, 0, "VI", "World Fades");
    cast_ok(
        &mut state,
        &request(0, "World Fades", vec![who("Amazon")], 7),
        &mut Dice::new(1, 1),
    );
    let rules = Rules::default();
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    let outcome = search::search(&mut day, 1, &SearchTable::MagicSight);
    assert_eq!(outcome, PhaseOutcome::Done);
}
