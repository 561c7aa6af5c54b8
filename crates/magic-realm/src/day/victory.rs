//! Victory points at the end of the month (play summary introduction: the five
//! categories; `day/victory.rs`): great treasures (1 point per VP), usable
//! spells (2), fame (10), notoriety (20) and gold (30).
//!
//! With the victory requirements a player recorded (5 VPs shared among the
//! categories; `MrState::victory_requirements`), each category scores as
//! `day/victory.rs` works it out: required = factor × VPs assigned; the
//! points minus that, tripled when negative; divided by the factor and
//! rounded down (toward minus infinity); plus that result times the VPs
//! assigned. Without recorded requirements each category scores its points
//! ÷ factor, rounded down.
//!
//! Rulings: gold counts the recorded gold only (README.md "Rulings" leaves the
//! starting worth open); a character dead at the end scores −100 (BIMR6);
//! spells count those he holds. As the BIMR4 GM published his scoring,
//! notoriety includes the notoriety of everything he carries (treasures,
//! the Bane Sword, the Crypt's armour) and fame is reduced by what he
//! carries of negative fame; a positive fame price counts only once
//! earned by selling to its buyer.

use super::events::Score;
use crate::data::GameData;
use crate::state::{CharacterState, ItemKind, VictoryRequirements};

/// Points per victory point, by category (`day/victory.rs`).
pub const GREAT_TREASURE_FACTOR: i32 = 1;
pub const SPELL_FACTOR: i32 = 2;
pub const FAME_FACTOR: i32 = 10;
pub const NOTORIETY_FACTOR: i32 = 20;
pub const GOLD_FACTOR: i32 = 30;

/// What a dead character scores (BIMR6, `day/victory.rs`).
pub const DEAD_SCORE: i32 = -100;

/// One category's victory points: `points` counted, `factor` points per
/// VP, `assigned` VPs required there (None: no requirements recorded).
pub fn category(points: i32, factor: i32, assigned: Option<u8>) -> i32 {
    let Some(assigned) = assigned else {
        return points.div_euclid(factor);
    };
    let working = Working::of(points, factor, assigned);
    working.basic + working.bonus
}

/// One category's score worked out step by step, as the BIMR4 GM
/// published it (the final page of the public pages shows it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Working {
    pub factor: i32,
    pub assigned: i32,
    pub acquired: i32,
    /// factor × assigned.
    pub required: i32,
    /// (acquired − required, tripled when negative) ÷ factor, rounded down.
    pub basic: i32,
    /// basic × assigned.
    pub bonus: i32,
}

impl Working {
    pub fn of(acquired: i32, factor: i32, assigned: u8) -> Working {
        let assigned = i32::from(assigned);
        let required = factor * assigned;
        let over = acquired - required;
        let over = if over < 0 { over * 3 } else { over };
        let basic = over.div_euclid(factor);
        Working {
            factor,
            assigned,
            acquired,
            required,
            basic,
            bonus: basic * assigned,
        }
    }
}

/// The five categories of `score` worked out against `requirements`, by
/// name, in the order the victory requirements list them.
pub fn workings(score: &Score, requirements: &VictoryRequirements) -> [(&'static str, Working); 5] {
    let r = requirements;
    [
        (
            "great treasures",
            Working::of(
                score.great_treasures,
                GREAT_TREASURE_FACTOR,
                r.great_treasures,
            ),
        ),
        ("spells", Working::of(score.spells, SPELL_FACTOR, r.spells)),
        ("fame", Working::of(score.fame, FAME_FACTOR, r.fame)),
        (
            "notoriety",
            Working::of(score.notoriety, NOTORIETY_FACTOR, r.notoriety),
        ),
        ("gold", Working::of(score.gold, GOLD_FACTOR, r.gold)),
    ]
}

/// The character's points in the five categories and his victory points.
pub fn score(
    data: &GameData,
    who: &CharacterState,
    requirements: Option<&VictoryRequirements>,
) -> Score {
    let treasures: Vec<_> = who
        .belongings
        .iter()
        .filter(|b| b.item.kind == ItemKind::Treasure)
        .filter_map(|b| data.treasures.iter().find(|t| t.name == b.item.name))
        .collect();
    let count = |n: usize| i32::try_from(n).unwrap_or(i32::MAX);
    let great_treasures = count(treasures.iter().filter(|t| t.great).count());
    let spells = count(
        who.belongings
            .iter()
            .filter(|b| b.item.kind == ItemKind::Spell)
            .count()
            + who.magic.spells.len(),
    );
    // Under Disgust his fame, under Ashes his gold, counts as -1 (magic summary).
    // As the BIMR4 GM scored: his possessions' notoriety counts, and their
    // fame only when negative (a positive fame price is earned by selling).
    let (possessed_fame, possessed_notoriety) = possessions_fame_and_notoriety(data, who);
    let fame = crate::magic::curses::fame_for_points(who) + possessed_fame;
    let notoriety = who.notoriety + possessed_notoriety;
    let gold = crate::magic::curses::gold_for_points(who);
    let total = if who.dead {
        DEAD_SCORE
    } else {
        let r = requirements;
        category(
            great_treasures,
            GREAT_TREASURE_FACTOR,
            r.map(|r| r.great_treasures),
        ) + category(spells, SPELL_FACTOR, r.map(|r| r.spells))
            + category(fame, FAME_FACTOR, r.map(|r| r.fame))
            + category(notoriety, NOTORIETY_FACTOR, r.map(|r| r.notoriety))
            + category(gold, GOLD_FACTOR, r.map(|r| r.gold))
    };
    Score {
        character: who.name.clone(),
        great_treasures,
        spells,
        fame,
        notoriety,
        gold,
        total,
    }
}

/// The negative fame and all the notoriety of what `who` carries: his
/// treasures, and weapons and armour that print fame or notoriety (the
/// Bane Sword, the Crypt's armour).
fn possessions_fame_and_notoriety(data: &GameData, who: &CharacterState) -> (i32, i32) {
    let values = who.belongings.iter().filter_map(|b| {
        let name = crate::data::base_name(&b.item.name);
        match b.item.kind {
            ItemKind::Treasure => data
                .treasures
                .iter()
                .find(|t| t.name == b.item.name)
                .map(|t| (t.fame, t.notoriety)),
            ItemKind::Weapon => data
                .weapons
                .iter()
                .find(|w| w.name == name)
                .map(|w| (w.fame.unwrap_or(0), w.notoriety.unwrap_or(0))),
            ItemKind::Armor => data
                .armor
                .iter()
                .find(|a| a.name == name)
                .map(|a| (a.fame.unwrap_or(0), a.notoriety.unwrap_or(0))),
            ItemKind::Spell | ItemKind::Horse => None,
        }
    });
    values.fold((0, 0), |(fame, notoriety), (f, n)| {
        (fame + i32::from(f.min(0)), notoriety + i32::from(n))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bimr4_worked_examples() {
        // Great treasures: 1 owned, 2 VPs required → −3 basic, −6 bonus.
        assert_eq!(category(1, GREAT_TREASURE_FACTOR, Some(2)), -9);
        // Notoriety: 132 owned, 1 VP required → 5 basic + 5 bonus.
        assert_eq!(category(132, NOTORIETY_FACTOR, Some(1)), 10);
    }

    #[test]
    fn negative_scores_are_tripled_then_rounded_down() {
        // Fame 5 against 1 VP (10 needed): (5 − 10) × 3 = −15 → −2, −2 bonus.
        assert_eq!(category(5, FAME_FACTOR, Some(1)), -4);
        // Exactly met: nothing either way.
        assert_eq!(category(30, GOLD_FACTOR, Some(1)), 0);
        // Nothing assigned: points ÷ factor, no bonus.
        assert_eq!(category(65, GOLD_FACTOR, Some(0)), 2);
    }

    #[test]
    fn without_requirements_raw_points_divide() {
        assert_eq!(category(45, FAME_FACTOR, None), 4);
        assert_eq!(category(-5, FAME_FACTOR, None), -1);
        assert_eq!(category(3, SPELL_FACTOR, None), 1);
    }
}
