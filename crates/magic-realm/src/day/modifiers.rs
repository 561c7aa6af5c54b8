//! The modifiers of one character's table roll (`tables/mod.rs`, `tables/meeting.rs`, `tables/search.rs`
//! "Modifiers"): his advantages' one-die and +/- effects, the die effects
//! of the treasures he has active, and treasures that touch everyone in
//! their clearing (Cloven Hoof). Each modifier keeps its source so the
//! report says why the row moved.

use super::Day;
use crate::abilities::place_holds;
use crate::data::characters::Advantage;
use crate::data::terms::Roll;
use crate::data::treasures::{Affects, TreasureEffect};
use crate::state::ItemKind;
use crate::tables::Modifiers;

/// Everything that changes a roll of kind `roll` made by character `who`.
pub fn for_roll(day: &Day<'_>, who: usize, roll: Roll) -> Modifiers {
    let character = &day.state.characters[who];
    let at = &character.position;
    let mut mods = Modifiers::none();
    {
        for ability in crate::abilities::in_force(day.data, day.rules, character) {
            for effect in &ability.effects {
                match effect {
                    Advantage::RollOneDie { rolls, place }
                        if covers(rolls, roll) && place_holds(&day.state, *place, at) =>
                    {
                        mods = mods.with_one_die(format!("{} ({})", ability.name, character.name));
                    }
                    Advantage::RollModifier {
                        rolls,
                        modifier,
                        place,
                    } if covers(rolls, roll) && place_holds(&day.state, *place, at) => {
                        mods =
                            mods.with(format!("{} ({})", ability.name, character.name), *modifier);
                    }
                    _ => {}
                }
            }
        }
    }
    // Treasures: the roller's own active ones, and those of anyone in his
    // clearing that touch every character there.
    for (index, other) in day.state.characters.iter().enumerate() {
        if &other.position != at {
            continue;
        }
        for belonging in other.belongings.iter().filter(|b| b.active) {
            if belonging.item.kind != ItemKind::Treasure {
                continue;
            }
            let Some(treasure) = day.data.treasure(&belonging.item.name) else {
                continue;
            };
            for effect in &treasure.effects {
                match effect {
                    TreasureEffect::DieModifier {
                        delta,
                        table,
                        place,
                        affects,
                    } if table.covers(roll)
                        && place_holds(&day.state, *place, at)
                        && (index == who || *affects == Affects::EveryoneInItsClearing) =>
                    {
                        mods = mods.with(treasure.name.clone(), *delta);
                    }
                    TreasureEffect::OneDie { table } if index == who && table.covers(roll) => {
                        mods = mods.with_one_die(treasure.name.clone());
                    }
                    _ => {}
                }
            }
        }
    }
    crate::magic::influence::roll_modifiers(&day.state, who, roll, mods)
}

fn covers(rolls: &[Roll], made: Roll) -> bool {
    rolls.iter().any(|r| r.covers(made))
}
