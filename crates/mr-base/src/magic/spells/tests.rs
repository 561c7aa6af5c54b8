//! Tests of the four spells built last (magic summary "Spell Effects";
//! `spells.toml`): Enchant Artifact, Phantasm, Deal with Goblins and
//! Prophecy as the magic rules see them; their days are in
//! `day/spell_day_tests.rs`.

use crate::state::{Belonging, ChitCondition, Item, ItemKind, MrState, Whereabouts};
use crate::test_support::{data, game_played_by};
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;

use super::{deal_with_goblins, enchant_artifact, phantasm, prophecy};
use crate::magic::MagicError;
use crate::magic::cast::{CastRequest, cast, check};
use crate::magic::expiry;
use crate::state::magic::{Aim, CastWith};

/// Characters all in the first one's clearing; character 0 has a MAGIC
/// chit of type `kind` (chit 0) and knows `spells`.
fn casters(names: &[&str], kind: &str, spells: &[&str]) -> MrState {
    let mut state = game_played_by(names, |i| format!("p{i}"));
    let here = state.characters[0].position.clone();
    for c in &mut state.characters {
        c.position = here.clone();
    }
    let c = &mut state.characters[0];
    c.chits[0].chit = format!("MAGIC {kind}2*");
    c.chits[0].condition = ChitCondition::Active;
    c.chits[0].enchanted = false;
    c.magic.spells = spells.iter().map(ToString::to_string).collect();
    state
}

fn me(state: &MrState, who: usize) -> Aim {
    Aim::Character {
        name: state.characters[who].name.clone(),
    }
}

/// The first character carrying an Enchanter's Skull awakened to Fiery
/// Blast, a Giant in his clearing: the skull, and its blast at the Giant.
fn skull_blasting_a_giant(state: &mut MrState) -> (CastWith, CastRequest) {
    carry(state, "Enchanter's Skull");
    state
        .magic
        .awakened
        .entry("Enchanter's Skull".into())
        .or_default()
        .insert("Fiery Blast".into());
    let skull = CastWith::Treasure {
        name: "Enchanter's Skull".into(),
    };
    let giant = Aim::Denizen {
        id: "Giant 1".into(),
    };
    let here = state.characters[0].position.clone();
    if let Some(d) = state.denizens.get_mut("Giant 1") {
        d.at = Whereabouts::Clearing { clearing: here };
    }
    let blast = request("Fiery Blast", skull.clone(), vec![giant], PURPLE_DAY);
    (skull, blast)
}

fn request(spell: &str, with: CastWith, targets: Vec<Aim>, day: u32) -> CastRequest {
    CastRequest {
        caster: 0,
        spell: spell.to_string(),
        with,
        targets,
        colour_chit: None,
        day,
    }
}

const PURPLE_DAY: u32 = 21;
const BLACK_DAY: u32 = 7;

fn chit0() -> CastWith {
    CastWith::Chit { index: 0 }
}

fn carry(state: &mut MrState, treasure: &str) {
    state.characters[0].belongings.push(Belonging {
        item: Item {
            name: treasure.into(),
            kind: ItemKind::Treasure,
        },
        active: true,
    });
}

#[test]
fn enchant_artifact_puts_a_known_spell_in_a_treasure_that_then_casts_it() {
    let mut state = casters(
        &["Wizard", "Amazon"],
        "VI",
        &["Enchant Artifact", "Fiery Blast"],
    );
    carry(&mut state, "Ancient Telescope");
    let telescope = Aim::Item {
        holder: "Wizard".into(),
        item: "Ancient Telescope".into(),
    };
    let blast_from_it = request(
        "Fiery Blast",
        CastWith::Treasure {
            name: "Ancient Telescope".into(),
        },
        vec![me(&state, 1)],
        PURPLE_DAY,
    );
    let before = check(&state, data(), &Rules::default(), &blast_from_it).unwrap_err();
    assert!(before.to_string().contains("casts no spells"), "{before}");
    let enchant = request(
        "Enchant Artifact",
        chit0(),
        vec![
            telescope.clone(),
            Aim::KnownSpell {
                name: "fiery blast".into(),
            },
        ],
        PURPLE_DAY,
    );
    cast(
        &mut state,
        data(),
        &Rules::default(),
        &enchant,
        &mut Dice::new(1, 1),
    )
    .unwrap();
    assert!(enchant_artifact::holds(
        &state,
        "Ancient Telescope",
        "Fiery Blast"
    ));
    // The chit that cast it went into the treasure with the spell.
    assert!(crate::magic::enchant::tied_up(&state, 0, 0));
    check(&state, data(), &Rules::default(), &blast_from_it).expect("the treasure casts it");
    // Broken, the treasure loses the spell and the chit fatigues.
    let id = state.magic.in_effect[0].id;
    expiry::expire(&mut state, id);
    assert!(check(&state, data(), &Rules::default(), &blast_from_it).is_err());
    assert_eq!(
        state.characters[0].chits[0].condition,
        ChitCondition::Fatigued
    );
}

/// An Enchant Artifact adding a type VII spell to the Good Book (type I)
/// lets the book cast its own awakened type VII Spell cards too (List of
/// Spells, Enchant Artifact 2; 3.1 4.6.6b refuses them before).
#[test]
fn enchant_artifact_adding_type_vii_lets_the_good_book_cast_its_type_vii_cards() {
    let mut state = casters(&["Wizard"], "VI", &["Enchant Artifact", "Premonition"]);
    carry(&mut state, "Good Book");
    state
        .magic
        .awakened
        .entry("Good Book".into())
        .or_default()
        .insert("Control Bats".into());
    let here = state.characters[0].position.clone();
    if let Some(d) = state.denizens.get_mut("Giant Bat 1") {
        d.at = Whereabouts::Clearing { clearing: here };
    }
    let bats_from_book = request(
        "Control Bats",
        CastWith::Treasure {
            name: "Good Book".into(),
        },
        vec![Aim::Denizen {
            id: "Giant Bat 1".into(),
        }],
        PURPLE_DAY,
    );
    let rules = Rules::default();
    let before = check(&state, data(), &rules, &bats_from_book).unwrap_err();
    assert!(
        before
            .to_string()
            .contains("Control Bats is type VII and the Good Book casts only type I spells"),
        "{before}"
    );
    let enchant = request(
        "Enchant Artifact",
        chit0(),
        vec![
            Aim::Item {
                holder: "Wizard".into(),
                item: "Good Book".into(),
            },
            Aim::KnownSpell {
                name: "Premonition".into(),
            },
        ],
        PURPLE_DAY,
    );
    cast(&mut state, data(), &rules, &enchant, &mut Dice::new(1, 1)).unwrap();
    check(&state, data(), &rules, &bats_from_book).expect("type VII added: the book casts it");
}

#[test]
fn enchant_artifact_needs_his_own_treasure_and_a_spell_he_knows() {
    let mut state = casters(&["Wizard"], "VI", &["Enchant Artifact"]);
    carry(&mut state, "Ancient Telescope");
    let on = |item: &str, spell: Option<&str>| {
        let mut targets = vec![Aim::Item {
            holder: "Wizard".into(),
            item: item.into(),
        }];
        targets.extend(spell.map(|s| Aim::KnownSpell { name: s.into() }));
        request("Enchant Artifact", chit0(), targets, PURPLE_DAY)
    };
    let rules = Rules::default();
    for (req, expected) in [
        (on("Ancient Telescope", Some("Fiery Blast")), "knows"),
        (
            on("Ancient Telescope", Some("Enchant Artifact")),
            "other than",
        ),
        (on("Ancient Telescope", None), "with SPELL"),
        (on("Lost Keys", Some("Enchant Artifact")), "carries"),
    ] {
        let before = state.clone();
        let err = cast(&mut state, data(), &rules, &req, &mut Dice::new(1, 1)).unwrap_err();
        assert!(
            matches!(&err, MagicError::BadTarget { reason, .. } if reason.contains(expected)),
            "{err}"
        );
        assert_eq!(state, before, "a refused cast changes nothing");
    }
}

#[test]
fn phantasm_appears_with_its_owner_and_vanishes_when_the_spell_ends() {
    let mut state = casters(&["Wizard", "Amazon"], "VI", &["Phantasm"]);
    let here = state.characters[1].position.clone();
    let req = request("Phantasm", chit0(), vec![me(&state, 1)], PURPLE_DAY);
    cast(
        &mut state,
        data(),
        &Rules::default(),
        &req,
        &mut Dice::new(1, 1),
    )
    .unwrap();
    let (id, at) = phantasm::of(&state, 1).expect("the Amazon's phantasm");
    assert_eq!(at, here);
    assert_eq!(state.magic.in_effect[0].id, id);
    assert!(phantasm::of(&state, 0).is_none(), "it is the target's");
    expiry::expire(&mut state, id);
    assert!(phantasm::of(&state, 1).is_none());
    assert!(state.magic.phantasms.is_empty());
}

#[test]
fn deal_with_goblins_makes_the_goblins_of_that_kind_in_the_clearing_dealable() {
    let mut state = casters(&["Wizard"], "VIII", &["Deal with Goblins"]);
    let here = state.characters[0].position.clone();
    let spears: Vec<String> = state
        .denizens
        .keys()
        .filter(|id| deal_with_goblins::kind_of(id) == Some("Spear Goblin"))
        .take(2)
        .cloned()
        .collect();
    let axe = state
        .denizens
        .keys()
        .find(|id| deal_with_goblins::kind_of(id) == Some("Axe Goblin"))
        .cloned()
        .expect("an axe goblin");
    assert_eq!(spears.len(), 2);
    for id in spears.iter().chain([&axe]) {
        state.denizens.get_mut(id).unwrap().at = Whereabouts::Clearing {
            clearing: here.clone(),
        };
    }
    assert!(deal_with_goblins::dealing(&state, 0, &here).is_none());
    let on_himself = request("Deal with Goblins", chit0(), vec![me(&state, 0)], BLACK_DAY);
    assert!(check(&state, data(), &Rules::default(), &on_himself).is_err());
    let req = request(
        "Deal with Goblins",
        chit0(),
        vec![Aim::Denizen {
            id: spears[0].clone(),
        }],
        BLACK_DAY,
    );
    let effects = cast(
        &mut state,
        data(),
        &Rules::default(),
        &req,
        &mut Dice::new(1, 1),
    )
    .unwrap();
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, crate::magic::effect::SpellEffect::NotApplied { .. })),
        "every part of the spell applies (combat: spell_deal_with_goblins.toml): {effects:?}"
    );
    let (group, members) = deal_with_goblins::dealing(&state, 0, &here).expect("a deal");
    assert_eq!(group, "Spear Goblins");
    assert_eq!(members, spears, "the axe goblin is another group");
    let id = state.magic.in_effect[0].id;
    expiry::expire(&mut state, id);
    assert!(deal_with_goblins::dealing(&state, 0, &here).is_none());
}

#[test]
fn prophecy_is_awake_on_its_target_until_it_ends() {
    let mut state = casters(&["Wizard"], "II", &["Prophecy"]);
    assert!(!prophecy::foresees(&state, 0));
    let req = request("Prophecy", chit0(), vec![me(&state, 0)], PURPLE_DAY);
    cast(
        &mut state,
        data(),
        &Rules::default(),
        &req,
        &mut Dice::new(1, 1),
    )
    .unwrap();
    assert!(prophecy::foresees(&state, 0));
    let id = state.magic.in_effect[0].id;
    expiry::expire(&mut state, id);
    assert!(!prophecy::foresees(&state, 0));
}

#[test]
fn every_learnable_spell_is_now_built() {
    let unbuilt: Vec<&str> = data()
        .spells
        .iter()
        .filter(|s| s.learnable() && !super::is_built(&s.name))
        .map(|s| s.name.as_str())
        .collect();
    assert!(unbuilt.is_empty(), "{unbuilt:?}");
    assert_eq!(
        data().spells.iter().filter(|s| s.learnable()).count(),
        47,
        "the original game's learnable spells"
    );
}

/// 3.1 8.3.9c.3: an artifact or book stays committed to the spell it cast
/// while that spell lasts, and casts nothing else until it ends.
/// 3.1 10.E.7.2.1: the second game's artifact, awakened to the second
/// game's Spell card, casts it as the printed artifact casts the printed
/// spell.
#[test]
fn a_second_games_artifact_casts_its_awakened_second_game_spell() {
    let mut state = casters(&["Amazon"], "IV", &[]);
    let (_, printed) = skull_blasting_a_giant(&mut state);
    state.characters[0].belongings.clear();
    state.magic.awakened.clear();
    carry(&mut state, "Enchanter's Skull II");
    state
        .magic
        .awakened
        .entry("Enchanter's Skull II".into())
        .or_default()
        .insert("Fiery Blast II".into());
    let blast = CastRequest {
        with: CastWith::Treasure {
            name: "Enchanter's Skull II".into(),
        },
        ..printed
    };
    let rules = Rules::default();
    assert!(check(&state, data(), &rules, &blast).is_ok());
    cast(&mut state, data(), &rules, &blast, &mut Dice::new(1, 1)).expect("cast");
}

#[test]
fn an_artifact_committed_to_its_spell_casts_nothing_else() {
    let mut state = casters(&["Amazon"], "IV", &[]);
    let (skull, blast) = skull_blasting_a_giant(&mut state);
    let rules = Rules::default();
    assert!(check(&state, data(), &rules, &blast).is_ok());
    state
        .magic
        .in_effect
        .push(crate::state::magic::SpellInEffect {
            id: 0,
            spell: "Blazing Light".into(),
            caster: "Amazon".into(),
            with: skull,
            targets: vec![me(&state, 0)],
            duration: crate::data::spells::Duration::Day,
            cast_on: PURPLE_DAY - 1,
            inert: false,
            held: false,
            detail: None,
            untied: false,
        });
    let Err(MagicError::CannotCast { reason, .. }) = check(&state, data(), &rules, &blast) else {
        panic!("a committed artifact cast")
    };
    assert!(
        reason.contains("committed to its Blazing Light"),
        "{reason}"
    );
}

/// 3.1 4.6.9c.1, 4.6.9e: a character held by a transmorphizing spell casts
/// nothing, not even from a treasure, until it ends.
#[test]
fn a_transmorphized_character_casts_no_spell_4_6_9c_1() {
    let mut state = casters(&["Amazon"], "IV", &[]);
    let (_, blast) = skull_blasting_a_giant(&mut state);
    let rules = Rules::default();
    assert!(check(&state, data(), &rules, &blast).is_ok());
    state
        .magic
        .in_effect
        .push(crate::state::magic::SpellInEffect {
            id: 7,
            spell: "Transform".into(),
            caster: "Amazon".into(),
            with: CastWith::Treasure {
                name: "Black Book".into(),
            },
            targets: vec![Aim::Character {
                name: "Amazon".into(),
            }],
            duration: crate::data::spells::Duration::Permanent,
            cast_on: 1,
            inert: false,
            held: false,
            detail: Some("Squirrel".into()),
            untied: false,
        });
    let refused = check(&state, data(), &rules, &blast).unwrap_err();
    assert!(refused.to_string().contains("4.6.9c.1"), "{refused}");
}
