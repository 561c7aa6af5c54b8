//! Tests of what a transmorphized hired leader or controlled monster
//! carries (3.1 4.6.9b): frozen what he had as the spell took hold, kept
//! from his employer and from deals; carried by the creature's strength
//! what he took on since; nothing taken on as mist. And of mist, which
//! cannot be followed, cannot block and cannot be blocked (4.6.9c.2).

use super::events::{BirdsongEvent, Happening, PhaseEvent};
use super::retinue_tests::{at, standing};
use super::tests::{border, game, place, play};
use crate::board::ClearingId;
use crate::data::tiles::ClearingKind;
use crate::state::magic::{Aim, CastWith, SpellInEffect};
use crate::state::{Hireling, Item, ItemKind, LeaderRecord, MrState, abandoned_pile};
use crate::test_support::move_to;
use realmgm_core::dice::DiceScript;

const LEADER: &str = "Soldier HQ";

/// `spell` (Transform makes a Squirrel, of Light move strength) takes hold
/// of `aim`, as when a cast takes hold.
fn held_by(state: &mut MrState, spell: &str, aim: Aim) {
    let id = state.magic.next_id;
    state.magic.next_id += 1;
    let spell = SpellInEffect {
        id,
        spell: spell.into(),
        caster: "Black Knight".into(),
        with: CastWith::Treasure {
            name: "Black Book".into(),
        },
        targets: vec![aim],
        duration: crate::data::spells::Duration::Permanent,
        cast_on: 1,
        inert: false,
        held: false,
        detail: (spell == "Transform").then(|| "Squirrel".into()),
        untied: false,
    };
    state.magic.in_effect.push(spell.clone());
    crate::magic::transmorph::take_hold(state, &spell);
}

fn leader() -> Aim {
    Aim::Denizen { id: LEADER.into() }
}

fn weapon(name: &str) -> Item {
    Item {
        kind: ItemKind::Weapon,
        name: name.into(),
    }
}

/// The Captain (P1) in `captain_at`, his hired Soldier HQ in `leader_at`
/// carrying `carries`.
fn captain_and_leader(
    captain_at: &ClearingId,
    leader_at: &ClearingId,
    carries: &[&str],
) -> MrState {
    with_leader(&["Captain"], captain_at, leader_at, carries)
}

/// [`captain_and_leader`] with `characters` in play, the Captain first;
/// the others (P2, ...) stand in `leader_at`.
fn with_leader(
    characters: &[&str],
    captain_at: &ClearingId,
    leader_at: &ClearingId,
    carries: &[&str],
) -> MrState {
    let mut state = game(characters);
    place(&mut state, 0, captain_at);
    for seat in 1..characters.len() {
        place(&mut state, seat, leader_at);
    }
    state.denizens.get_mut(LEADER).expect("HQ").at = standing(leader_at);
    state.characters[0].hirelings.push(Hireling {
        native: LEADER.into(),
        days_left: 9,
    });
    state.leaders.insert(
        LEADER.into(),
        LeaderRecord {
            carries: carries.iter().map(|n| weapon(n)).collect(),
            ..Default::default()
        },
    );
    state
}

fn leader_carries(state: &MrState, item: &str) -> bool {
    state
        .leaders
        .get(LEADER)
        .is_some_and(|r| r.carries.iter().any(|i| i.name == item))
}

fn captain_carries(state: &MrState, item: &str) -> bool {
    state.characters[0]
        .belongings
        .iter()
        .any(|b| b.item.name == item)
}

/// 3.1 4.6.9b.1: what a hired leader carries as the spell takes hold is
/// noted on his record, gold none (his deals use his employer's); a
/// controlled monster's too; an unhired native gets no record. At Midnight
/// the notes go, and a record kept only for its note with them.
#[test]
fn the_spell_notes_what_a_hired_leader_or_controlled_monster_carries_4_6_9b_1() {
    let (here, _) = border(&game(&["Captain"]), ClearingKind::Woods);
    let mut state = captain_and_leader(&here, &here, &["Great Axe"]);
    held_by(&mut state, "Transform", leader());
    let note = state.leaders[LEADER].transmorphized_with.clone();
    assert_eq!(
        note.map(|n| (n.gold, n.items)),
        Some((0, vec!["Great Axe".to_string()]))
    );

    held_by(
        &mut state,
        "Transform",
        Aim::Denizen {
            id: "Lancer HQ".into(),
        },
    );
    assert!(!state.leaders.contains_key("Lancer HQ"), "nobody hires him");

    crate::magic::transmorph::release_all(&mut state);
    assert_eq!(state.leaders[LEADER].transmorphized_with, None);
    assert!(leader_carries(&state, "Great Axe"));

    let bat = super::control_tests::BAT;
    let mut state = super::control_tests::magician_with_bat(&here);
    held_by(
        &mut state,
        "Melt Into Mist",
        Aim::Denizen { id: bat.into() },
    );
    assert!(state.leaders[bat].transmorphized_with.is_some());
    crate::magic::transmorph::release_all(&mut state);
    assert!(!state.leaders.contains_key(bat), "kept only for its note");
}

/// The Soldier HQ beside the Captain in `here`, carrying the Great Axe as
/// Transform takes hold of him and the Mace he takes on afterwards.
fn transformed_with_axe_then_mace(here: &ClearingId) -> MrState {
    let mut state = captain_and_leader(here, here, &["Great Axe"]);
    held_by(&mut state, "Transform", leader());
    state
        .leaders
        .get_mut(LEADER)
        .expect("record")
        .carries
        .push(weapon("Mace"));
    state
}

/// 3.1 4.6.9b.2 and b.4: the Great Axe (Heavy) the Soldier HQ carried as
/// Transform took hold is frozen, weighs nothing and moves with him, though
/// his own Medium strength would leave it; the Mace he took on since as a
/// Squirrel (Light) is too heavy for the creature and stays behind.
#[test]
fn a_transformed_hired_leader_carries_by_the_creatures_strength_4_6_9b_4() {
    let (here, next) = border(&game(&["Captain"]), ClearingKind::Woods);
    let state = transformed_with_axe_then_mace(&here);
    let orders = format!("H\n{LEADER}: {}", move_to(&next));
    let (after, events) = play(state, &[("P1", &orders)], DiceScript::default());
    let log = super::log::gm_log(&events);
    assert_eq!(at(&after, LEADER), standing(&next), "{log}");
    assert!(
        leader_carries(&after, "Great Axe"),
        "frozen, it moves with him: {log}"
    );
    assert!(!leader_carries(&after, "Mace"), "{log}");
    assert!(
        after.holdings[&abandoned_pile(&here)].contains(&weapon("Mace")),
        "{log}"
    );
}

/// 3.1 4.6.9b.2, b.4: standing with his employer, a transformed leader
/// hands over what he took on since but keeps what froze with him, and
/// his employer is told why, once.
#[test]
fn a_transformed_hired_leader_keeps_his_frozen_belongings_from_his_employer_4_6_9b_2() {
    let (here, _) = border(&game(&["Captain"]), ClearingKind::Woods);
    let state = transformed_with_axe_then_mace(&here);
    // His own turn ends beside his employer, and Midnight finds them
    // together again: he is told once what stays with the leader.
    let orders = format!("H\n{LEADER}: H");
    let (after, events) = play(state, &[("P1", &orders)], DiceScript::default());
    let log = super::log::gm_log(&events);
    assert_eq!(log.matches("keeps what the Captain").count(), 1, "{log}");
    assert!(captain_carries(&after, "Mace"), "{log}");
    assert!(!captain_carries(&after, "Great Axe"), "{log}");
    assert!(leader_carries(&after, "Great Axe"), "{log}");
    assert!(
        log.contains("keeps what the Captain would be handed (Great Axe)")
            && log.contains("(3.1 4.6.9b.2)"),
        "{log}"
    );
}

/// 3.1 4.6.9b.4: a Captain in mist takes on nothing, not even what his
/// own hired leader hands him: the leader keeps it.
#[test]
fn mist_is_handed_nothing_by_its_hired_leader_4_6_9b_4() {
    let (here, _) = border(&game(&["Captain"]), ClearingKind::Woods);
    let mut state = captain_and_leader(&here, &here, &["Mace"]);
    held_by(
        &mut state,
        "Melt Into Mist",
        Aim::Character {
            name: "Captain".into(),
        },
    );
    let (after, events) = play(state, &[("P1", "H")], DiceScript::default());
    let log = super::log::gm_log(&events);
    assert!(!captain_carries(&after, "Mace"), "{log}");
    assert!(leader_carries(&after, "Mace"), "{log}");
    assert!(
        log.contains("can take on no belongings (3.1 4.6.9b.4)"),
        "{log}"
    );
}

/// 3.1 4.6.9b.2: a transformed leader outside his turn cannot trade away
/// what froze with him; a leader in mist can be given nothing (4.6.9b.4).
#[test]
fn a_transmorphized_hired_leaders_deals_4_6_9b() {
    let (here, next) = border(&game(&["Amazon"]), ClearingKind::Woods);
    let setup = |spell: &str| {
        let mut state = with_leader(&["Captain", "Amazon"], &next, &here, &["Great Axe"]);
        held_by(&mut state, spell, leader());
        state
    };
    let amazon_gold = |s: &MrState| s.characters[1].gold;
    let state = setup("Transform");
    let before = amazon_gold(&state);
    let (after, events) = play(
        state,
        &[
            (
                "P1",
                "R\nSoldier HQ: H\nTrade: Great Axe to Amazon for 5 gold by Soldier HQ",
            ),
            ("P2", "R\nTrade: 5 gold to Soldier HQ for Great Axe"),
        ],
        DiceScript::default(),
    );
    let log = super::log::gm_log(&events);
    assert!(leader_carries(&after, "Great Axe"), "{log}");
    assert_eq!(amazon_gold(&after), before, "{log}");
    assert!(
        log.contains("the Great Axe of the Soldier HQ is frozen while the Transform spell"),
        "{log}"
    );

    let state = setup("Melt Into Mist");
    let (after, events) = play(
        state,
        &[
            (
                "P1",
                "R\nSoldier HQ: H\nReceive: Short Sword from Amazon by Soldier HQ",
            ),
            ("P2", "R\nGive: Short Sword to Soldier HQ"),
        ],
        DiceScript::default(),
    );
    let log = super::log::gm_log(&events);
    assert!(!leader_carries(&after, "Short Sword"), "{log}");
    assert!(
        log.contains("the Soldier HQ is mist under Melt Into Mist and can take on no gold"),
        "{log}"
    );
}

/// 3.1 4.6.9c.2: the Amazon and the Black Knight, unhidden in one
/// clearing, block each other when told to; not when she is mist, who
/// neither blocks nor is blocked.
#[test]
fn mist_neither_blocks_nor_is_blocked_4_6_9c_2() {
    let blocked = |mist: bool| {
        let mut state = game(&["Amazon", "Black Knight"]);
        let here = state.characters[0].position.clone();
        place(&mut state, 1, &here);
        if mist {
            held_by(
                &mut state,
                "Melt Into Mist",
                Aim::Character {
                    name: "Amazon".into(),
                },
            );
        }
        let failing_hides = crate::test_support::script(&[("daylight/hide", &[6, 6])]);
        let (_, events) = play(
            state,
            &[
                ("P1", "H / H\nBlock: everyone"),
                ("P2", "H / H\nBlock: everyone"),
            ],
            failing_hides,
        );
        let blocks: Vec<(String, String)> = events
            .iter()
            .filter_map(|e| match &e.happening {
                Happening::Phase(PhaseEvent::Blocked {
                    blocker, blocked, ..
                }) => Some((blocker.clone(), blocked.clone())),
                _ => None,
            })
            .collect();
        (blocks, super::log::gm_log(&events))
    };
    let (blocks, log) = blocked(false);
    assert!(!blocks.is_empty(), "they block each other: {log}");
    let (blocks, log) = blocked(true);
    assert!(blocks.is_empty(), "{log}");
}

/// 3.1 4.6.9c.2: the Elf cannot follow the Amazon in mist, and her hired
/// leader stays where he stands rather than follow her; each is told why.
#[test]
fn mist_cannot_be_followed_4_6_9c_2() {
    let (here, next) = border(&game(&["Captain"]), ClearingKind::Woods);
    let mut state = with_leader(&["Captain", "Elf"], &here, &here, &[]);
    held_by(
        &mut state,
        "Melt Into Mist",
        Aim::Character {
            name: "Captain".into(),
        },
    );
    let (after, events) = play(
        state,
        &[("P1", &move_to(&next)), ("P2", "F Captain")],
        DiceScript::default(),
    );
    let log = super::log::gm_log(&events);
    assert_eq!(after.characters[0].position, next, "{log}");
    assert_eq!(after.characters[1].position, here, "{log}");
    assert_eq!(at(&after, LEADER), standing(&here), "{log}");
    assert!(events.iter().any(|e| matches!(&e.happening,
        Happening::Birdsong(BirdsongEvent::CannotFollow { reason, .. })
            if reason.contains("cannot be followed (3.1 4.6.9c.2)"))));
    assert!(
        log.contains("the Captain is mist under Melt Into Mist and cannot be followed"),
        "{log}"
    );
}

/// 3.1 4.6.9c.2: the Captain's Soldier HQ, whose line has him follow the
/// Elf, stays where he stands when the Elf is mist, and the Captain's
/// player reads why, though he does not watch the Elf's turn.
#[test]
fn a_leader_told_to_follow_mist_stays_and_his_employer_reads_why_4_6_9c_2() {
    let (here, next) = border(&game(&["Captain"]), ClearingKind::Woods);
    let mut state = with_leader(&["Captain", "Elf"], &here, &here, &[]);
    held_by(
        &mut state,
        "Melt Into Mist",
        Aim::Character { name: "Elf".into() },
    );
    let orders = format!("H\n{LEADER}: F Elf");
    let (after, events) = play(
        state,
        &[("P1", &orders), ("P2", &move_to(&next))],
        DiceScript::default(),
    );
    let log = super::log::gm_log(&events);
    assert_eq!(after.characters[1].position, next, "{log}");
    assert_eq!(at(&after, LEADER), standing(&here), "{log}");
    let captain_reads = events.iter().any(|e| {
        matches!(&e.happening, Happening::Phase(PhaseEvent::FollowersLeft { followers, .. })
            if followers.iter().any(|f| f == LEADER))
            && e.observers
                .includes(&realmgm_core::game::Reader::Player("P1"))
    });
    assert!(captain_reads, "{log}");
}
