//! What a character's advantages (`data/characters.toml`) and active treasures give
//! him during the day: extra phases (`day/daylight.rs` "Bonus phases"), one-die
//! rolls and die modifiers (`tables/mod.rs`), and the weights and strengths
//! that decide what he carries when he moves (3.1 7.3.1e).

use crate::board::ClearingId;
use crate::data::GameData;
use crate::data::characters::{Ability, ActionChit, Advantage, ChitAction, ElfForm};
use crate::data::terms::{Activity, Place, Strength, TileGroup};
use crate::data::tiles::ClearingKind;
use crate::data::treasures::TreasureEffect;
use crate::state::{CharacterChit, CharacterState, ChitCondition, ItemKind, MrState};
use realmgm_core::game::Rules;

/// The rule toggle that swaps in every optional ability.
pub const OPTIONAL_ABILITIES: &str = "optional_abilities";
/// The rule toggle under which each player chooses his optional abilities
/// at setup (BIMR5); the Elf's form is always chosen.
pub const CHOSEN_OPTIONAL_ABILITIES: &str = "chosen_optional_abilities";

/// Whether the optional ability `ability` is in force for `who`: all of
/// those 3.1 10.A.6 lists with Optional Abilities, and one it does not list
/// only under its own toggle; with chosen ones, those his player chose,
/// and the Elf's form always (BIMR5 makes it required).
pub fn takes(rules: &Rules, who: &CharacterState, ability: &Ability) -> bool {
    if let Some(toggle) = &ability.toggle {
        if rules.is_on(toggle) {
            return true;
        }
        if rules.is_on(OPTIONAL_ABILITIES) {
            return false;
        }
    }
    if rules.is_on(OPTIONAL_ABILITIES) {
        return true;
    }
    rules.is_on(CHOSEN_OPTIONAL_ABILITIES)
        && (who.optional_abilities.contains(&ability.name) || ability.is_form_choice())
}

/// The character's abilities in force under the campaign's rules and, under
/// Development, at his level (3.1 10.E.5.2.1).
pub fn in_force<'d>(data: &'d GameData, rules: &Rules, who: &CharacterState) -> Vec<&'d Ability> {
    data.characters
        .iter()
        .find(|c| c.name == who.name)
        .map(|c| {
            c.abilities_in_force(|a| takes(rules, who, a))
                .into_iter()
                .filter(|a| crate::development::has_ability(c, who, a))
                .collect()
        })
        .unwrap_or_default()
}

/// The character's advantages in force under the campaign's rules.
pub fn advantages(data: &GameData, rules: &Rules, who: &CharacterState) -> Vec<Advantage> {
    in_force(data, rules, who)
        .into_iter()
        .flat_map(|a| a.effects.iter().cloned())
        .collect()
}

/// His chits as his abilities in force shape them, from the printed set:
/// a chit replaced (the Wizard's Elvish Studies) and, for the Elf, the
/// stages his form may not use left out ("Light or Great Elf"); under
/// Development, the stages of levels he has not reached left out too
/// (3.1 10.E.5.2).
pub fn shape_chits(data: &GameData, rules: &Rules, who: &mut CharacterState) {
    if let Some(shaped) = shaped_chits(data, rules, who) {
        who.chits = shaped.into_iter().map(|(_, chit)| chit).collect();
    }
}

/// Make `change` to him (a chit gained, a level reached under
/// Development, 3.1 10.E.5.4.3) and shape his chits anew: those he keeps
/// keep their condition, a chit coming into play comes in active.
pub fn reshape_keeping(
    data: &GameData,
    rules: &Rules,
    who: &mut CharacterState,
    change: impl FnOnce(&mut CharacterState),
) {
    let before: Vec<u8> = shaped_chits(data, rules, who)
        .unwrap_or_default()
        .into_iter()
        .map(|(s, _)| s)
        .collect();
    change(who);
    let Some(after) = shaped_chits(data, rules, who) else {
        return;
    };
    who.chits = after
        .into_iter()
        .map(|(s, fresh)| {
            before
                .iter()
                .position(|b| *b == s)
                .and_then(|at| who.chits.get(at).cloned())
                .unwrap_or(fresh)
        })
        .collect();
}

/// The printed chit of each stage he may play, by stage, as his abilities
/// and level shape them; `None` when he has no card.
pub fn shaped_chits(
    data: &GameData,
    rules: &Rules,
    who: &CharacterState,
) -> Option<Vec<(u8, CharacterChit)>> {
    let card = data.characters.iter().find(|c| c.name == who.name)?;
    let mut chits = CharacterChit::fresh_set(card);
    let mut left_out: Vec<u8> = Vec::new();
    for effect in in_force(data, rules, who).iter().flat_map(|a| &a.effects) {
        match effect {
            Advantage::ReplaceChit { stage, chit } => {
                if let Some(slot) = chits.get_mut(usize::from(*stage) - 1) {
                    *slot = CharacterChit::fresh(chit.to_string());
                }
            }
            Advantage::ElfForm {
                light_only,
                great_only,
            } => match who.elf_form {
                Some(ElfForm::Light) => left_out.extend(great_only),
                Some(ElfForm::Great) => left_out.extend(light_only),
                None => {}
            },
            _ => {}
        }
    }
    Some(
        (1u8..)
            .zip(chits)
            .filter(|(stage, _)| {
                !left_out.contains(stage) && crate::development::in_play(who, *stage)
            })
            .collect(),
    )
}

/// The effects of the treasures he carries active, with the name of the
/// card he carries (either game's, `Book of Lore II`, 3.1 10.E.7.2.1).
pub fn active_treasure_effects<'a>(
    data: &'a GameData,
    who: &'a CharacterState,
) -> Vec<(&'a str, &'a TreasureEffect)> {
    who.belongings
        .iter()
        .filter(|b| b.active && b.item.kind == ItemKind::Treasure)
        .filter_map(|b| Some((b.item.name.as_str(), data.treasure(&b.item.name)?)))
        .flat_map(|(name, t)| t.effects.iter().map(move |e| (name, e)))
        .collect()
}

/// Whether the clearing `at` is inside `place`, where an advantage or a
/// treasure works (`tables/mod.rs`).
pub fn place_holds(state: &MrState, place: Place, at: &ClearingId) -> bool {
    let tile = state.board.tile(&at.tile);
    let kind = state.board.clearing(at).map(|c| c.kind);
    let chit_on_tile = |name: &str| {
        state
            .map_chits
            .get(&at.tile)
            .is_some_and(|chits| chits.iter().any(|c| c.name.starts_with(name)))
    };
    match place {
        Place::Anywhere | Place::ItsClearing => true,
        Place::WoodsTile => tile.is_some_and(|t| t.name.contains("Woods")),
        Place::WoodsClearing => {
            kind == Some(ClearingKind::Woods)
                && tile.is_some_and(|t| t.group != TileGroup::Valley && t.name != "Ruins")
        }
        Place::MountainClearing => kind == Some(ClearingKind::Mountain),
        Place::CaveClearing => kind == Some(ClearingKind::Cave),
        Place::LostCityTile => chit_on_tile("Lost City"),
        Place::LostCastleTile => chit_on_tile("Lost Castle"),
        Place::Ruins => tile.is_some_and(|t| t.name == "Ruins") || chit_on_tile("Ruins"),
    }
}

/// The sources that give `who` a bonus phase of `activity` in `clearing`:
/// his advantages, his active treasures and a treasure site where he
/// stands, each usable once a day. Spells that give phases are added by the
/// day engine ([`crate::magic::influence::bonus_phases`]).
pub fn bonus_sources(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    dwelling_here: bool,
    who: &CharacterState,
    activity: Activity,
) -> Vec<String> {
    let mut sources = Vec::new();
    // Under Extended Development the 9th stage brings a bonus phase a day
    // (3.1 10.E.6.7.5).
    if who
        .development
        .as_ref()
        .is_some_and(|d| d.extended && d.level >= 9)
    {
        sources.push(format!("the {}'s 9th stage", who.name));
    }
    for advantage in advantages(data, rules, who) {
        match advantage {
            Advantage::ExtraPhase { activity: a } if a == activity || a == Activity::Any => {
                sources.push(format!("{} advantage", who.name));
            }
            Advantage::ExtraPhaseAtDwelling if dwelling_here => {
                sources.push(format!("{} at a dwelling", who.name));
            }
            _ => {}
        }
    }
    for (name, effect) in active_treasure_effects(data, who) {
        if let TreasureEffect::ExtraPhase { activity: a, place } = effect
            && (*a == activity || *a == Activity::Any)
            && place_holds(state, *place, &who.position)
        {
            sources.push(name.to_string());
        }
    }
    // A treasure site lying in his clearing (the Toadstool Circle's Spell
    // phase, `tables/twt.rs`) gives its phase to whoever stands there.
    for (name, at) in &state.treasure_sites {
        let effects = data
            .treasures
            .iter()
            .filter(|t| &t.name == name && at == &who.position)
            .flat_map(|t| t.effects.iter());
        for effect in effects {
            if let TreasureEffect::ExtraPhase { activity: a, place } = effect
                && (*a == activity || *a == Activity::Any)
                && place_holds(state, *place, &who.position)
            {
                sources.push(format!("the {name} here"));
            }
        }
    }
    sources
}

/// Whether any advantage says so.
pub fn has(data: &GameData, rules: &Rules, who: &CharacterState, wanted: &Advantage) -> bool {
    advantages(data, rules, who).contains(wanted)
}

/// What carries his items when he moves (3.1 7.3.1e): the strongest of his
/// active MOVE chits, active Boots cards (a treasure played as a Move
/// chit, 7.3.1f) and active horse (its trot side, 7.3.2c); negligible when
/// none is active (7.3.1e.4). Items his pack horses carry are not his to
/// carry (7.3.1i.4).
pub fn carrying_strength(data: &GameData, who: &CharacterState) -> Strength {
    let effects = active_treasure_effects(data, who);
    // An active Belt of Strength sets each MOVE chit's strength by its
    // asterisks (3.1 List of Treasures, Altering Chits).
    let belt = effects.iter().find_map(|(_, effect)| match effect {
        TreasureEffect::ChitStrengthByStars { two, one, none } => Some((*two, *one, *none)),
        _ => None,
    });
    let chits = who
        .chits
        .iter()
        .filter(|c| c.condition == ChitCondition::Active)
        .filter_map(|c| ActionChit::parse(&c.chit).ok())
        .filter(|c| c.action == ChitAction::Move)
        .filter_map(move |c| match belt {
            Some((two, one, none)) => Some(match c.effort {
                2.. => two,
                1 => one,
                0 => none,
            }),
            None => c.strength,
        });
    let boots = effects.iter().filter_map(|(_, effect)| match effect {
        TreasureEffect::MoveChit { strength, .. } => Some(*strength),
        _ => None,
    });
    let horse = who
        .belongings
        .iter()
        .filter(|b| b.active && b.item.kind == ItemKind::Horse)
        .filter_map(|b| data.horses.iter().find(|h| h.name == b.item.name))
        .map(|h| h.trot.strength);
    chits
        .chain(boots)
        .chain(horse)
        .max()
        .unwrap_or(Strength::Negligible)
}

/// The weight of a carried item; horses carry themselves and have none here.
pub fn weight(data: &GameData, kind: ItemKind, name: &str) -> Strength {
    let base = crate::data::base_name(name);
    let found = match kind {
        ItemKind::Weapon => data
            .weapons
            .iter()
            .find(|w| w.name == name || w.name == base)
            .map(|w| w.weight),
        ItemKind::Armor => data
            .armor
            .iter()
            .find(|a| a.name == name || a.name == base)
            .map(|a| a.weight),
        ItemKind::Treasure => data
            .treasures
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.weight),
        ItemKind::Horse | ItemKind::Spell => None,
    };
    found.unwrap_or(Strength::Negligible)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::TOGGLES;
    use crate::test_support::{data, give, test_game};

    fn dwarf_abilities(on: &[&str]) -> Vec<String> {
        let rules = Rules::new(on.iter().copied(), TOGGLES).expect("known toggles");
        let state = test_game(&["Dwarf"]);
        in_force(data(), &rules, &state.characters[0])
            .into_iter()
            .map(|a| a.name.clone())
            .collect()
    }

    /// 3.1 10.A.6 lists no optional ability for the Dwarf: Optional
    /// Abilities leaves his Short Legs as printed, and only the house
    /// rule's own toggle swaps in the two-moves version.
    #[test]
    fn the_dwarfs_optional_short_legs_come_only_with_their_own_toggle() {
        let short = "Short Legs".to_string();
        let optional = "Short Legs (optional)".to_string();
        let with_3_1 = dwarf_abilities(&["optional_abilities"]);
        assert!(with_3_1.contains(&short) && !with_3_1.contains(&optional));
        let with_toggle = dwarf_abilities(&["dwarf_short_legs_optional"]);
        assert!(with_toggle.contains(&optional) && !with_toggle.contains(&short));
    }

    /// An active Belt of Strength makes each MOVE chit as strong as its
    /// asterisks say (List of Treasures, Altering Chits), so the Amazon's
    /// MOVE M3* carries Heavy items (3.1 7.3.1e); inactive, it does nothing.
    #[test]
    fn an_active_belt_of_strength_carries_by_the_move_chits_asterisks() {
        let mut state = test_game(&["Amazon"]);
        assert_eq!(
            carrying_strength(data(), &state.characters[0]),
            Strength::Medium
        );
        give(&mut state, 0, ItemKind::Treasure, "Belt of Strength", false);
        assert_eq!(
            carrying_strength(data(), &state.characters[0]),
            Strength::Medium
        );
        state.characters[0].belongings.last_mut().unwrap().active = true;
        assert_eq!(
            carrying_strength(data(), &state.characters[0]),
            Strength::Heavy
        );
    }
}
