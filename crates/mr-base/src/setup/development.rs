//! Starting a character under Development (3.1 10.E.5.2) or Extended
//! Development (3.1 10.E.6.1, 10.E.6.7): his level's kit and chits, and a
//! stage carried from the campaign before with its rewards.

use crate::data::GameData;
use std::collections::BTreeMap;

use crate::development::{
    DevelopmentError, HIGHEST_STAGE, REVIVAL, SPELL_STAGE, card_at_level, in_force,
    points_per_stage,
};
use crate::state::CharacterState;
use crate::state::development::{CHITS_PER_LEVEL, Carried, Development, TOP_LEVEL};
use crate::state::{Belonging, Item, ItemKind};
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;

/// Start `who` at `level` under the development rule: his level's weapon
/// and armour, and his chits as the level and his abilities shape them.
/// His spells are recorded afterwards, by his level's allowance.
///
/// # Errors
/// The rule is off, or the level is not 1-4.
pub fn start_at(
    data: &GameData,
    rules: &Rules,
    who: &mut CharacterState,
    level: u8,
) -> Result<(), DevelopmentError> {
    if !in_force(rules) {
        return Err(DevelopmentError::RuleOff(who.name.clone()));
    }
    if !(1..=TOP_LEVEL).contains(&level) {
        return Err(DevelopmentError::BadLevel(level.to_string()));
    }
    develop(data, rules, who, Development::starting_at(level));
    Ok(())
}

/// Start `who` at the stage the campaign carries for him under Extended
/// Development (1st stage when none, 3.1 10.E.6.1): the level of his stage
/// (4th above it), his extra chits in play, the victory points a stage
/// asks in this campaign (10.E.6.2), and for a stage above 4th its
/// rewards, taken as he enters (3.1 10.E.6.7): 15 gold at 5th, 10
/// notoriety and 5 fame at 7th, and at 10th the extra spell his carry-over
/// names, of any type, recorded before his starting spells.
///
/// # Errors
/// A stage not built, extra chits that are not his next stage's, an
/// extra spell below 10th stage or one that is no spell.
pub fn start_extended(
    data: &GameData,
    rules: &Rules,
    who: &mut CharacterState,
    carried: Option<&Carried>,
) -> Result<(), DevelopmentError> {
    let carried = carried.cloned().unwrap_or(Carried {
        stage: 1,
        ..Carried::default()
    });
    let stage = carried.stage;
    if !(1..=HIGHEST_STAGE).contains(&stage) {
        return Err(DevelopmentError::BadStage {
            character: who.name.clone(),
            stage,
        });
    }
    let extra = carried.extra_chits.len().max(usize::from(carried.extra));
    if extra >= usize::from(CHITS_PER_LEVEL) {
        return Err(DevelopmentError::TooManyExtra {
            character: who.name.clone(),
            count: extra,
        });
    }
    let mut development = Development::starting_at(stage);
    development.extended = true;
    development.points_per_stage = points_per_stage(rules);
    development.revives = rules.is_on(REVIVAL);
    let card = data.characters.iter().find(|c| c.name == who.name);
    if stage < TOP_LEVEL {
        let next: Vec<(u8, String)> = card
            .map(|c| {
                (stage * CHITS_PER_LEVEL + 1..=(stage + 1) * CHITS_PER_LEVEL)
                    .filter_map(|s| Some((s, c.chits.get(usize::from(s) - 1)?.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        for chit in &carried.extra_chits {
            let Some((s, _)) = next
                .iter()
                .find(|(s, c)| c.eq_ignore_ascii_case(chit) && !development.gained.contains(s))
            else {
                return Err(DevelopmentError::BadExtraChit {
                    character: who.name.clone(),
                    chit: chit.clone(),
                    allowed: next
                        .iter()
                        .map(|(_, c)| c.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            };
            development.gained.push(*s);
        }
    } else {
        development.beyond = carried.extra;
    }
    develop(data, rules, who, development);
    if stage >= 5 {
        who.gold += 15;
    }
    if stage >= 7 {
        who.notoriety += 10;
        who.fame += 5;
    }
    if let Some(spell) = &carried.extra_spell {
        record_extra_spell(data, who, stage, spell)?;
    }
    Ok(())
}

/// Give `who` the weapon, armour and chits of `development`'s level (4th
/// for a stage above it), as a character starting at it (3.1 10.E.5.2).
pub fn develop(data: &GameData, rules: &Rules, who: &mut CharacterState, development: Development) {
    let Some(card) = data.characters.iter().find(|c| c.name == who.name) else {
        return;
    };
    let kit = card_at_level(card, development.level.min(TOP_LEVEL));
    who.weapon = kit.weapon;
    who.armor = kit.armor;
    who.development = Some(development);
    crate::abilities::shape_chits(data, rules, who);
}

/// Record the 10th stage's extra spell of any type (3.1 10.E.6.7.6): not
/// through his MAGIC chits, so any spell. Ruling: it is one of his
/// starting spells, so it scores no Spell points (9.3.2b).
fn record_extra_spell(
    data: &GameData,
    who: &mut CharacterState,
    stage: u8,
    spell: &str,
) -> Result<(), DevelopmentError> {
    if stage < SPELL_STAGE {
        return Err(DevelopmentError::ExtraSpellBelowTenth {
            character: who.name.clone(),
            stage,
        });
    }
    let refused = |why: String| DevelopmentError::ExtraSpell {
        character: who.name.clone(),
        spell: spell.to_string(),
        why,
    };
    let found =
        crate::magic::spellbook::find_spell(data, spell).map_err(|e| refused(e.to_string()))?;
    who.magic.spells.push(found.name.clone());
    Ok(())
}

/// The rewards of a stage above 4th that come from the natives, taken as
/// he enters (3.1 10.E.6.7.2, 10.E.6.7.4, 10.E.6.7.6): at 6th a Treasure
/// card, at 8th a horse, at 10th a weapon or armour counter, each from any
/// native group. Ruling: the dice choose among every native group's
/// holdings (`setup/development/<character>/<kind>`), as a player choosing
/// "any group" blind would. A 10th-stage character whose carry-over names
/// an extra spell takes no counter. None left: nothing.
pub fn native_rewards(
    data: &GameData,
    characters: &mut [CharacterState],
    carried: &BTreeMap<String, Carried>,
    holdings: &mut BTreeMap<String, Vec<Item>>,
    dice: &mut Dice,
) {
    for who in characters {
        let stage = who
            .development
            .as_ref()
            .filter(|d| d.extended)
            .map_or(0, |d| d.level);
        let wanted: &[(u8, &[ItemKind])] = &[
            (6, &[ItemKind::Treasure]),
            (8, &[ItemKind::Horse]),
            (SPELL_STAGE, &[ItemKind::Weapon, ItemKind::Armor]),
        ];
        for (from, kinds) in wanted {
            let spell_instead = carried
                .get(&who.name)
                .is_some_and(|c| c.extra_spell.is_some());
            if stage < *from || (*from == SPELL_STAGE && spell_instead) {
                continue;
            }
            let holders: Vec<&str> = data
                .natives
                .iter()
                .flat_map(|g| {
                    g.stock_holders()
                        .into_iter()
                        .chain(g.members.iter().map(|m| m.name.as_str()))
                })
                .collect();
            let choices: Vec<(String, usize)> = holders
                .iter()
                .filter_map(|h| holdings.get(*h).map(|items| (*h, items)))
                .flat_map(|(h, items)| {
                    items
                        .iter()
                        .enumerate()
                        .filter(|(_, i)| kinds.contains(&i.kind))
                        .map(move |(at, _)| (h.to_string(), at))
                })
                .collect();
            if choices.is_empty() {
                continue;
            }
            let purpose = format!("setup/development/{}/{}", who.name, kinds[0]);
            let pick = dice.below(&purpose, u32::try_from(choices.len()).unwrap_or(u32::MAX));
            let (holder, at) = &choices[pick as usize];
            if let Some(items) = holdings.get_mut(holder) {
                let item = items.remove(*at);
                who.belongings.push(Belonging {
                    active: item.kind == ItemKind::Horse,
                    item,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::development::{DEVELOPMENT, read_level, victory_points};
    use crate::rules::TOGGLES;
    use crate::test_support::{data, test_game};

    fn rules() -> Rules {
        Rules::new([DEVELOPMENT], TOGGLES).expect("known toggle")
    }

    /// 3.1 10.E.5.2: a 1st-level Amazon is a Scout with a Light Bow and
    /// no armour, and has only her three 1st-level chits.
    #[test]
    fn a_first_level_amazon_has_her_first_three_chits_and_a_light_bow_3_1_10_e_5_2() {
        let mut state = test_game(&["Amazon"]);
        let amazon = &mut state.characters[0];
        start_at(data(), &rules(), amazon, 1).unwrap();
        let chits: Vec<&str> = amazon.chits.iter().map(|c| c.chit.as_str()).collect();
        assert_eq!(chits, ["MOVE M4", "MOVE M3*", "FIGHT L4"]);
        assert_eq!(amazon.weapon.as_deref(), Some("Light Bow"));
        assert!(amazon.armor.is_empty());
    }

    /// 3.1 10.E.5.2.1: no advantage at 1st level (the Dwarf's example),
    /// the first at 2nd and 3rd, both at 4th.
    #[test]
    fn advantages_come_at_2nd_and_4th_level_3_1_10_e_5_2_1() {
        let names = |level: u8| {
            let mut state = test_game(&["Dwarf"]);
            start_at(data(), &rules(), &mut state.characters[0], level).unwrap();
            crate::abilities::in_force(data(), &rules(), &state.characters[0])
                .into_iter()
                .map(|a| a.name.clone())
                .collect::<Vec<_>>()
        };
        assert!(names(1).is_empty());
        assert_eq!(names(2), names(3));
        assert_eq!(names(2).len(), 1);
        assert_eq!(names(4).len(), 2);
    }

    /// 3.1 10.E.5.3: one point fewer a level below 4th, never under two.
    #[test]
    fn victory_points_drop_a_point_a_level_but_not_under_two_3_1_10_e_5_3() {
        assert_eq!(victory_points(5, 4), 5);
        assert_eq!(victory_points(5, 2), 3);
        assert_eq!(victory_points(5, 1), 2);
        assert_eq!(victory_points(3, 1), 2);
    }

    #[test]
    fn a_level_reads_as_a_number_or_an_ordinal() {
        assert_eq!(read_level("2"), Ok(2));
        assert_eq!(read_level(" 3rd"), Ok(3));
        assert!(read_level("5").is_err());
        assert!(read_level("first").is_err());
    }
}
