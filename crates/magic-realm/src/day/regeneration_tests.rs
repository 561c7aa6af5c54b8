//! The seventh day's regeneration by 3.1 6.3.4: every ghost goes home, a
//! native gets his own horse back, the regenerated are freed from spells,
//! and controlled monsters stay where they are.

use crate::board::ClearingId;
use crate::data::horses::HorseStart;
use crate::data::spells::Duration;
use crate::state::magic::{Aim, CastWith, SpellInEffect};
use crate::state::{ItemKind, MrState, Whereabouts};
use crate::test_support::{data, give, script};

use super::tests::{game, play};

/// Play day 7 with the monster roll forced to `row`; the Black Knight rests.
fn seventh_day(mut state: MrState, row: u8) -> MrState {
    state.day = 6;
    play(
        state,
        &[("P1", "R")],
        script(&[("birdsong/monster-roll", &[row])]),
    )
    .0
}

fn somewhere_else(state: &MrState, not: &ClearingId) -> ClearingId {
    state
        .board
        .clearings()
        .into_iter()
        .find(|c| c.tile != not.tile)
        .expect("another tile")
}

/// A spell from the Black Knight's book holding denizen `id`.
fn spell_on(id: &str, spell: &str, duration: Duration) -> SpellInEffect {
    SpellInEffect {
        id: 90,
        spell: spell.into(),
        caster: "Black Knight".into(),
        with: CastWith::Treasure {
            name: "Black Book".into(),
        },
        targets: vec![Aim::Denizen { id: id.into() }],
        duration,
        cast_on: 6,
        inert: false,
        held: false,
        detail: None,
        untied: false,
    }
}

/// 3.1 6.3.4: the ghosts go back to the clearing they started in every
/// week, alive or dead.
#[test]
fn a_living_ghost_goes_back_to_its_clearing_6_3_4() {
    let mut state = game(&["Black Knight"]);
    let bones = state.tile_of_chit("Bones V").expect("Bones V").to_string();
    let home = ClearingId::new(&bones, 5);
    let away = somewhere_else(&state, &home);
    state.denizens.get_mut("Ghost 1").expect("ghost").at = Whereabouts::Clearing { clearing: away };
    let after = seventh_day(state, 2);
    assert_eq!(
        after.denizens["Ghost 1"].at,
        Whereabouts::Clearing { clearing: home }
    );
}

/// 3.1 6.3.4a: a killed native comes back with his own horse, even one a
/// character took.
#[test]
fn a_regenerated_native_gets_his_horse_back_6_3_4a() {
    let mut state = game(&["Black Knight"]);
    let (horse, rider) = data()
        .horses
        .iter()
        .find_map(|h| match &h.start {
            HorseStart::Rider { native } => Some((h.name.clone(), native.clone())),
            _ => None,
        })
        .expect("a native horse");
    let group = data()
        .natives
        .iter()
        .find(|g| g.members.iter().any(|m| m.name == rider))
        .expect("the rider's group");
    assert!(group.garrison.is_none(), "{rider} roves");
    state.denizens.get_mut(&rider).expect("rider").at = Whereabouts::Dead;
    for held in state.holdings.values_mut() {
        held.retain(|i| i.name != horse);
    }
    give(&mut state, 0, ItemKind::Horse, &horse, false);
    let after = seventh_day(state, group.row);
    assert!(after.holdings[&rider].iter().any(|i| i.name == horse));
    assert!(
        !after.characters[0]
            .belongings
            .iter()
            .any(|b| b.item.name == horse)
    );
}

/// 3.1 6.3.4e: a spell on a denizen that regenerates is broken (a
/// Permanent one, which nothing else would end).
#[test]
fn a_spell_on_a_regenerated_monster_ends_6_3_4e() {
    let mut state = game(&["Black Knight"]);
    let here = state.characters[0].position.clone();
    state.denizens.get_mut("Wolf A 1").expect("wolf").at = Whereabouts::Clearing {
        clearing: somewhere_else(&state, &here),
    };
    state
        .magic
        .in_effect
        .push(spell_on("Wolf A 1", "Bad Luck", Duration::Permanent));
    let after = seventh_day(state, 3);
    assert!(after.magic.in_effect.iter().all(|s| s.id != 90));
}

/// 3.1 6.3.4c, 7.13.3e: a controlled monster does not regenerate.
#[test]
fn a_controlled_monster_stays_on_the_map_6_3_4c() {
    let mut state = game(&["Black Knight"]);
    let here = state.characters[0].position.clone();
    let away = somewhere_else(&state, &here);
    let bat = data()
        .monsters
        .iter()
        .find(|m| m.name == "Giant Bat")
        .map(|m| crate::setup::counter_ids(m)[0].clone())
        .expect("a bat");
    state.denizens.get_mut(&bat).expect("bat").at = Whereabouts::Clearing {
        clearing: away.clone(),
    };
    state
        .magic
        .in_effect
        .push(spell_on(&bat, "Control Bats", Duration::Day));
    let after = seventh_day(state, 6);
    assert_eq!(
        after.denizens[&bat].at,
        Whereabouts::Clearing { clearing: away }
    );
}
