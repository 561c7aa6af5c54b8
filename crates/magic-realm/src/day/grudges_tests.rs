//! Grudges and Gratitude (3.1 10.B.6) and Extended Grudges (10.B.7): kills
//! and treachery in a battle, and the Fame-reward cards, move a
//! character's relationships for good.

use std::collections::BTreeMap;

use super::Day;
use super::grudges::after_battle;
use super::meeting::{level_of, relationship};
use crate::combat::battle::{Battle, CombatRules};
use crate::combat::build;
use crate::combat::harm::kill;
use crate::combat::model::{Fighter, FighterKind};
use crate::data::characters::Relationship;
use crate::rules::TOGGLES;
use crate::state::CounterSide;
use crate::state::{Belonging, Item, ItemKind, MrState};
use crate::test_support::{data, test_game};
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;

fn rules(on: &[&str]) -> Rules {
    Rules::new(on.iter().copied(), TOGGLES).expect("known toggles")
}

/// A battle of the Amazon (fighter 0) with `natives`, each hired by her
/// when its flag says so.
fn battle_with(state: &MrState, natives: &[(&str, bool)]) -> Battle<'static> {
    let mut fighters = vec![Fighter {
        name: "Amazon".into(),
        kind: FighterKind::Character(build::hero(data(), &state.characters[0]).expect("hero")),
        hidden: false,
        out: None,
    }];
    for (id, hired) in natives {
        let denizen =
            build::denizen(data(), id, CounterSide::Light, hired.then_some(0)).expect("a native");
        fighters.push(Fighter {
            name: (*id).into(),
            kind: FighterKind::Denizen(denizen),
            hidden: false,
            out: None,
        });
    }
    Battle::new(data(), "CV4", fighters, CombatRules::default())
}

/// The Amazon's relationship steps with the Patrol (Friendly on her card)
/// after the kills `(victim, killer)` of a battle under `on`.
fn patrol_after(on: &[&str], shift: i8, kills: &[(usize, usize)]) -> i16 {
    let mut state = test_game(&["Amazon"]);
    state.characters[0].shift_relationship("Patrol", shift);
    let mut battle = battle_with(
        &state,
        &[
            ("Patrol 1", false),
            ("Patrol 2", false),
            ("Bashkar 1", true),
        ],
    );
    for &(victim, killer) in kills {
        kill(&mut battle, victim, killer);
    }
    let rules = rules(on);
    let mut dice = Dice::new(1, 1);
    let mut day = Day::new(data(), &rules, state, &mut dice);
    after_battle(&mut day, &battle, &BTreeMap::from([(0, 0)]));
    level_of(
        data(),
        &rules,
        &day.state,
        &day.state.characters[0],
        "Patrol",
    )
}

/// 3.1 10.B.6.1: killing an unhired Friendly native costs two levels,
/// an Ally four; off, nothing.
#[test]
fn grudges_and_gratitude_makes_a_friendly_group_colder_for_a_kill() {
    let friendly = Relationship::Friendly.level();
    assert_eq!(patrol_after(&[], 0, &[(1, 0)]), friendly, "off");
    let on = ["grudges_and_gratitude"];
    assert_eq!(patrol_after(&on, 0, &[(1, 0)]), friendly - 2);
    // The former spelling is the same rule.
    assert_eq!(
        patrol_after(&["grudges_and_gratitudes"], 0, &[(1, 0)]),
        friendly - 2
    );
    // An Ally (one level won) loses four.
    assert_eq!(patrol_after(&on, 1, &[(1, 0)]), friendly + 1 - 4);
    // Her hired Bashkar's kill is hers (10.B.6.1).
    assert_eq!(patrol_after(&on, 0, &[(1, 3)]), friendly - 2);
    // The second kill finds them Unfriendly: no more under 10.B.6.2.
    assert_eq!(patrol_after(&on, 0, &[(1, 0), (2, 0)]), friendly - 2);
}

/// 3.1 10.B.7.1: under Extended Grudges a kill while the group is not a
/// friend costs one level; it brings in 10.B.6 too.
#[test]
fn extended_grudges_costs_a_level_for_a_group_that_is_no_friend() {
    let friendly = Relationship::Friendly.level();
    let on = ["grudges_and_gratitude"];
    let extended = ["extended_grudges"];
    assert_eq!(
        patrol_after(&on, -1, &[(1, 0)]),
        friendly - 1,
        "off: no cost"
    );
    assert_eq!(patrol_after(&extended, -1, &[(1, 0)]), friendly - 2);
    assert_eq!(patrol_after(&extended, 0, &[(1, 0), (2, 0)]), friendly - 3);
}

/// 3.1 10.B.6.1: treachery makes the group five levels colder, and the
/// levels past Enemy are kept.
#[test]
fn treachery_costs_five_levels_kept_past_enemy() {
    let run = |on: &[&str]| {
        let state = test_game(&["Amazon"]);
        let mut battle = battle_with(&state, &[("Bashkar 1", true)]);
        battle.treacheries.push((0, "Bashkars".into()));
        let rules = rules(on);
        let mut dice = Dice::new(1, 1);
        let mut day = Day::new(data(), &rules, state, &mut dice);
        after_battle(&mut day, &battle, &BTreeMap::from([(0, 0)]));
        let level = level_of(
            data(),
            &rules,
            &day.state,
            &day.state.characters[0],
            "Bashkars",
        );
        (level, relationship(&day, 0, "Bashkars"))
    };
    let unfriendly = Relationship::Unfriendly.level();
    assert_eq!(run(&[]), (unfriendly, Relationship::Unfriendly));
    assert_eq!(
        run(&["grudges_and_gratitude"]),
        (unfriendly - 5, Relationship::Enemy)
    );
}

/// 3.1 7.6.6 and 10.B.6.3: selling the group named on a card for a Fame
/// reward earns its Fame, and under the rule a level with the group.
#[test]
fn selling_a_fame_reward_card_to_its_group_wins_fame_and_a_level() {
    let run = |on: &[&str]| {
        let card = data()
            .treasures
            .iter()
            .find(|t| t.fame_buyer.as_deref() == Some("Order") && t.price.is_some())
            .expect("a card the Order pays fame for");
        let mut state = test_game(&["Amazon"]);
        let order_hq = state.denizens["Order HQ"].at.clone();
        let crate::state::Whereabouts::Clearing { clearing } = order_hq else {
            panic!("the Order's leader starts on the map");
        };
        state.characters[0].position = clearing;
        state.characters[0].belongings.push(Belonging {
            item: Item {
                kind: ItemKind::Treasure,
                name: card.name.clone(),
            },
            active: false,
        });
        let rules = rules(on);
        let mut dice = Dice::new(1, 1);
        let mut day = Day::new(data(), &rules, state, &mut dice);
        assert_eq!(
            super::trade::sell(&mut day, 0, &card.name),
            super::PhaseOutcome::Done
        );
        let c = &day.state.characters[0];
        (c.fame, c.relationship_shift("Order"), i32::from(card.fame))
    };
    let (fame, shift, reward) = run(&[]);
    assert_eq!((fame, shift), (reward, 0), "off: the Fame reward alone");
    let (fame, shift, reward) = run(&["grudges_and_gratitude"]);
    assert_eq!((fame, shift), (reward, 1));
}
