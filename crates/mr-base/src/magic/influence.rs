//! How spells in effect change the day's rules (magic summary "Spell Effects";
//! `spells.toml` summaries): Bad Luck adds one to every roll its target
//! makes; Illusion adds one to its target's rolls on the Locate, Loot,
//! Peer, Reading Runes and Magic Sight tables (a character, or everyone in
//! its tile); Persuade makes a native group Friendly to the caster for the
//! day; See Hidden Signs, Blend Into Background, Sense Danger and Blazing
//! Light give bonus phases; Peace with Nature stops warning and sound chits
//! summoning for its target; Premonition lets its target choose his turn;
//! World Fades opens the Magic Sight table to its target; a control spell
//! keeps its monsters from prowling and regenerating, and gives them to
//! its controller to take turns (`day::leader_turn`).
//! Only spells awake (not inert) count.

use crate::data::GameData;
use crate::data::characters::Relationship;
use crate::data::terms::{Activity, Roll};
use crate::state::{CharacterState, MrState};
use crate::tables::Modifiers;

use super::cast::active_on;
use crate::state::magic::Aim;

/// Add the modifiers of spells on character `who` to a roll of `roll`.
pub fn roll_modifiers(state: &MrState, who: usize, roll: Roll, mut mods: Modifiers) -> Modifiers {
    let Some(c) = state.characters.get(who) else {
        return mods;
    };
    let me = Aim::Character {
        name: c.name.clone(),
    };
    if active_on(state, &me, "Bad Luck").is_some() {
        mods = mods.with(format!("Bad Luck ({})", c.name), 1);
    }
    let search = matches!(
        roll,
        Roll::Locate | Roll::Loot | Roll::Peer | Roll::ReadRunes | Roll::MagicSight
    );
    let tile = Aim::Tile {
        code: c.position.tile.clone(),
    };
    if search
        && (active_on(state, &me, "Illusion").is_some()
            || active_on(state, &tile, "Illusion").is_some())
    {
        mods = mods.with(format!("Illusion ({})", c.name), 1);
    }
    mods
}

/// A relationship a spell of `character` sets with native `group` today.
pub fn relationship(
    state: &MrState,
    data: &GameData,
    character: &str,
    group: &str,
) -> Option<Relationship> {
    let members: Vec<&str> = data
        .natives
        .iter()
        .filter(|g| g.name == group)
        .flat_map(|g| g.members.iter().map(|m| m.name.as_str()))
        .collect();
    state
        .magic
        .in_effect
        .iter()
        .any(|s| {
            super::item_caster::works(state, s)
                && s.spell == "Persuade"
                && super::item_caster::controller(state, s) == Some(character)
                && s.targets
                    .iter()
                    .any(|t| matches!(t, Aim::Denizen { id } if members.contains(&id.as_str())))
        })
        .then_some(Relationship::Friendly)
}

/// Bonus phases spells give character `c` for `activity` (each a source
/// usable once a day): See Hidden Signs a Search, Blend Into Background a
/// Hide, Sense Danger an Alert, Blazing Light any phase in its cave
/// clearing.
pub fn bonus_phases(state: &MrState, c: &CharacterState, activity: Activity) -> Vec<String> {
    let me = Aim::Character {
        name: c.name.clone(),
    };
    let here = Aim::Clearing {
        clearing: c.position.clone(),
    };
    [
        ("See Hidden Signs", Activity::Search, &me),
        ("Blend Into Background", Activity::Hide, &me),
        ("Sense Danger", Activity::Alert, &me),
        ("Blazing Light", Activity::Any, &here),
    ]
    .into_iter()
    .filter(|(spell, gives, aim)| {
        (*gives == activity || *gives == Activity::Any) && active_on(state, aim, spell).is_some()
    })
    .map(|(spell, _, _)| format!("the {spell} spell"))
    .collect()
}

/// Peace with Nature (awake) on character `who`: warning and sound chits
/// summon no monsters because of him.
pub fn peace_with_nature(state: &MrState, who: usize) -> bool {
    state.characters.get(who).is_some_and(|c| {
        let me = Aim::Character {
            name: c.name.clone(),
        };
        active_on(state, &me, "Peace with Nature").is_some()
    })
}

/// The spells that put monsters under a character's control.
pub const CONTROL_SPELLS: [&str; 3] = ["Control Bats", "Guide Spider or Octopus", "Control Dragon"];

/// Whether the monster `id` is under a control spell in effect: it neither
/// prowls nor regenerates (3.1 6.3.4c, 7.13.3e).
pub fn controlled(state: &MrState, id: &str) -> bool {
    state.magic.in_effect.iter().any(|s| {
        CONTROL_SPELLS.contains(&s.spell.as_str())
            && s.targets
                .iter()
                .any(|t| matches!(t, Aim::Denizen { id: d } if d == id))
    })
}

/// The seat of the character who controls the monster `id` now: the
/// caster of a control spell on it that works, or the owner of the item
/// that cast it (3.1 8.3.9c.5). He records its turns (6.2.5).
pub fn controller_of(state: &MrState, id: &str) -> Option<usize> {
    let aim = Aim::Denizen { id: id.to_string() };
    let spell = state.magic.in_effect.iter().find(|s| {
        CONTROL_SPELLS.contains(&s.spell.as_str())
            && s.targets.contains(&aim)
            && super::item_caster::works(state, s)
    })?;
    let name = super::item_caster::controller(state, spell)?;
    state
        .characters
        .iter()
        .position(|c| c.name == name && !c.dead)
}

/// The monsters character `who` controls now, by counter id.
pub fn controlled_by(state: &MrState, who: usize) -> Vec<String> {
    let mut ids: Vec<String> = state
        .magic
        .in_effect
        .iter()
        .filter(|s| CONTROL_SPELLS.contains(&s.spell.as_str()))
        .flat_map(|s| &s.targets)
        .filter_map(|t| match t {
            Aim::Denizen { id } if controller_of(state, id) == Some(who) => Some(id.clone()),
            _ => None,
        })
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// Premonition (awake) on character `who`: he chooses when in the day his
/// turn comes, as the `Turn:` line says.
pub fn premonition(state: &MrState, who: usize) -> bool {
    state.characters.get(who).is_some_and(|c| {
        let me = Aim::Character {
            name: c.name.clone(),
        };
        active_on(state, &me, "Premonition").is_some()
    })
}

/// World Fades (awake) on character `who`: he may search on the Magic
/// Sight table (its hiding in every combat round is combat's to read).
pub fn world_fades(state: &MrState, who: usize) -> bool {
    state.characters.get(who).is_some_and(|c| {
        let me = Aim::Character {
            name: c.name.clone(),
        };
        active_on(state, &me, "World Fades").is_some()
    })
}
