//! Casting a spell (3.1 8.3.9 casting, 8.4.2d targets, 4.6.7 durations):
//! the API the combat engine calls in the Encounter and Melee steps. A cast
//! needs a MAGIC chit of the spell's type (the caster must know the spell)
//! or an active artifact or spell book holding the awakened spell, of the
//! type of its red numeral (8.3.9c.1, 4.6.6b; [`item_types`]), and the
//! spell's colour present: shared in the clearing, or
//! from one of the caster's own colour chits, which serve only his own
//! spells and fatigue when played. Mountain- and cave-only spells need such
//! a clearing. An instant or attack spell expires after its one effect and
//! its MAGIC chit fatigues then (4.6.7b); any other spell keeps the chit or
//! item committed until it expires ([`super::expiry`], 8.4.3c). An
//! artifact or book casts once per Evening and not while a spell it cast
//! is still in effect (8.3.9c.3-4). Under Enhanced Magic (10.C.1) no cast
//! ties anything up: the MAGIC chit fatigues at once and the spell, chit
//! and item are free to cast again (the item still once an Evening).
//!
//! [`check`] says whether a cast is legal without changing anything;
//! [`cast`] applies it and returns what happened, or an error and the state
//! unchanged; [`fizzle`] is a spell cancelled or broken before it goes into
//! effect: it still costs its chit. Speeds and the order in which spells
//! take effect are combat's: [`speed`] gives a cast's speed (0 for
//! artifacts and books).
//!
//! Rulings: targeting a character or denizen unhides a hidden caster,
//! except under the Ambush rule with one individual targeted (combat rolls
//! his hide when he names the target and unhides him if he fails,
//! `combat/ambush.rs`); a spell is "in use" while a spell of that name cast by the same
//! caster with any of his MAGIC chits, or with the same item, is in effect; a target protected by an
//! active Protection from Magic or Pentangle cannot be targeted (a cast at
//! one is broken); the type changes of Witch's Brew, Faerie Lights and
//! Elemental Spirit count for the caster's own chits while the spell is in
//! effect.

use serde::{Deserialize, Serialize};

use crate::board::ClearingId;
use crate::data::GameData;
use crate::data::characters::{ActionChit, ChitAction};
use crate::data::spells::{Duration, Spell, SpellColour, SpellTarget};
use crate::data::terms::{Colour, MagicType, TileGroup};
use crate::data::tiles::ClearingKind;
use crate::data::treasures::TreasureEffect;
use crate::rules::ENHANCED_MAGIC;
use crate::state::{ChitCondition, DenizenKind, MrState, Whereabouts};
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;

use super::MagicError;
use super::colour::{colour_chits, list, shared_colours};
use super::effect::SpellEffect;
use super::enchant::tied_up;
use super::item_caster::works;
use super::spellbook::find_spell;
use super::spells::{self, Build};
use crate::state::magic::{Aim, CastWith, SpellInEffect};

/// A cast as combat asks for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CastRequest {
    /// The caster, by index in `state.characters`.
    pub caster: usize,
    pub spell: String,
    pub with: CastWith,
    /// The targets chosen in the Melee step; a second aim gives a
    /// destination where the spell needs one (Hurricane Winds: a tile;
    /// Small Blessing's "elsewhere": a clearing).
    pub targets: Vec<Aim>,
    /// One of his colour chits (index) to supply the colour; `None` uses
    /// shared colour, or else his first colour chit of the right colour.
    pub colour_chit: Option<usize>,
    /// The game day (for the colour of the day).
    pub day: u32,
}

/// What [`check`] found: the spell and how its colour is supplied.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked<'d> {
    pub spell: &'d Spell,
    pub colour: Colour,
    /// His colour chit to play, when the colour is not shared.
    pub colour_chit: Option<usize>,
    /// His artifact or book enchanted into colour whose colour is spent,
    /// when neither shared colour nor a colour chit serves (3.1 10.C.3.3).
    pub colour_item: Option<String>,
    pub speed: u8,
}

fn chit_type_for(state: &MrState, data: &GameData, caster: &str, printed: MagicType) -> MagicType {
    for s in state.magic.in_effect.iter().filter(|s| works(state, s)) {
        let own = s
            .targets
            .iter()
            .any(|t| matches!(t, Aim::OwnChits { character } if character == caster));
        if !own {
            continue;
        }
        if let Some(change) = data
            .spells
            .iter()
            .find(|d| d.name == s.spell)
            .and_then(|d| d.changes.iter().find(|c| c.from == printed))
        {
            return change.to;
        }
    }
    printed
}

/// The type a chit of `caster` counts as now (after type-changing spells).
pub fn effective_type(
    state: &MrState,
    data: &GameData,
    caster: usize,
    index: usize,
) -> Option<MagicType> {
    let c = state.characters.get(caster)?;
    let printed = ActionChit::parse(&c.chits.get(index)?.chit).ok()?.magic?;
    Some(chit_type_for(state, data, &c.name, printed))
}

/// The speed of a cast: the chit's time, 0 for a prepared chit, an
/// artifact or a book.
pub fn speed(state: &MrState, request: &CastRequest) -> u8 {
    match &request.with {
        CastWith::Treasure { .. } => 0,
        CastWith::Chit { index } => state
            .characters
            .get(request.caster)
            .and_then(|c| c.chits.get(*index))
            .filter(|c| !c.prepared)
            .and_then(|c| ActionChit::parse(&c.chit).ok())
            .map_or(0, |a| a.time),
    }
}

fn check_with(
    state: &MrState,
    data: &GameData,
    rules: &Rules,
    request: &CastRequest,
    spell: &Spell,
) -> Result<(), MagicError> {
    let c = &state.characters[request.caster];
    let name = spell.name.as_str();
    let Some(kind) = spell.spell_type else {
        return check_bound_treasure(state, c, data, request, spell);
    };
    match &request.with {
        CastWith::Chit { index } => {
            // Under Enhanced Artifacts the Spell cards awakened in his
            // artifacts and books are cast by his MAGIC chits as if
            // recorded (3.1 10.C.3.2).
            let from_item =
                super::item_chit::awakened_in_his_item(state, rules, request.caster, &spell.name);
            if !c.magic.spells.contains(&spell.name) && from_item.is_none() {
                // When the spell is awakened in an item of his of another
                // type, say why the item does not cast it either.
                let in_item = c
                    .belongings
                    .iter()
                    .filter(|b| b.active)
                    .filter(|b| state.magic.is_awakened(&b.item.name, &spell.name))
                    .find_map(|b| item_wrong_type(state, data, &b.item.name, spell));
                let why = match in_item {
                    Some(why) => format!(
                        "the {} has not recorded or learned it, and its Spell card cannot be \
                         cast through the item it is awakened in: {why}",
                        c.name
                    ),
                    None => format!("the {} has not recorded or learned it", c.name),
                };
                return Err(MagicError::cannot(name, why));
            }
            let chit = c.chits.get(*index).ok_or_else(|| {
                MagicError::cannot(name, format!("the {} has no chit number {index}", c.name))
            })?;
            let parsed = ActionChit::parse(&chit.chit)
                .ok()
                .filter(|a| a.action == ChitAction::Magic)
                .ok_or_else(|| {
                    MagicError::cannot(name, format!("{} is not a MAGIC chit", chit.chit))
                })?;
            if chit.condition != ChitCondition::Active {
                return Err(MagicError::cannot(
                    name,
                    format!("{} is not active", chit.chit),
                ));
            }
            if chit.enchanted {
                return Err(MagicError::cannot(
                    name,
                    format!(
                        "{} is a colour chit now; it supplies colour but casts nothing",
                        chit.chit
                    ),
                ));
            }
            if tied_up(state, request.caster, *index) {
                return Err(MagicError::cannot(
                    name,
                    format!("{} is tied to a spell still in effect", chit.chit),
                ));
            }
            let counts_as = parsed.magic.map(|m| chit_type_for(state, data, &c.name, m));
            if counts_as != Some(kind) {
                return Err(MagicError::cannot(
                    name,
                    format!(
                        "it is a type {kind} spell and {} is not type {kind}",
                        chit.chit
                    ),
                ));
            }
        }
        CastWith::Treasure { name: item } => {
            let carried = c
                .belongings
                .iter()
                .any(|b| b.active && &b.item.name == item);
            if !carried {
                return Err(MagicError::cannot(
                    name,
                    format!("the {} does not carry the {item} active", c.name),
                ));
            }
            if let Some(why) = super::item_chit::is_colour(state, request.caster, item) {
                return Err(MagicError::cannot(name, why));
            }
            // Only spells of its red numeral's type, whatever else it holds
            // (3.1 4.6.6b, 8.3.9c.1).
            if let Some(why) = item_wrong_type(state, data, item, spell) {
                return Err(MagicError::cannot(name, why));
            }
            // Under Enhanced Artifacts it is also a MAGIC chit of its red
            // numeral, casting his recorded spells of that type (3.1
            // 10.C.3.1).
            let as_chit = super::item_chit::casts_recorded(
                state,
                data,
                rules,
                request.caster,
                item,
                &spell.name,
                kind,
            );
            let enchanted = spells::enchant_artifact::holds(state, item, &spell.name);
            let awake = state.magic.is_awakened(item, &spell.name);
            if !awake && !enchanted && !as_chit {
                return Err(MagicError::cannot(
                    name,
                    format!("it is not awakened in the {item}; read its runes first"),
                ));
            }
            if c.magic.artifacts_used_today.contains(item) {
                return Err(MagicError::cannot(
                    name,
                    format!("the {item} already cast a spell this Evening (once per Evening)"),
                ));
            }
            if let Some(held) = committed(state, item) {
                return Err(MagicError::cannot(
                    name,
                    format!(
                        "the {item} is committed to its {held}, still in effect, and casts \
                         nothing until it ends"
                    ),
                ));
            }
        }
    }
    // His recorded spell cannot be cast again, by any of his MAGIC chits,
    // until it ends (8.4.3c); an artifact's or book's spell card is its own.
    // Under Enhanced Magic a casting ties up no spell (3.1 10.C.1.1).
    let by_chit = |w: &CastWith| matches!(w, CastWith::Chit { .. });
    let in_use = state.magic.in_effect.iter().any(|s| {
        !s.untied
            && s.caster == c.name
            && s.spell == spell.name
            && (s.with == request.with || (by_chit(&s.with) && by_chit(&request.with)))
    });
    if in_use {
        return Err(MagicError::cannot(
            name,
            "it is still in effect from an earlier cast and cannot be cast again until it expires",
        ));
    }
    Ok(())
}

/// The spell types artifact or book `item` casts: the type of its red
/// Roman numeral (3.1 4.6.6b, 8.3.9c.1), which is also the only type it
/// casts as a MAGIC chit under Enhanced Artifacts (10.C.3.1.1), and any
/// type an Enchant Artifact in effect on it added (List of Spells, Enchant
/// Artifact 1-2). The other types printed on a spell book are those of
/// Spell cards it holds but cannot cast.
pub fn item_types(state: &MrState, data: &GameData, item: &str) -> Vec<MagicType> {
    let mut types: Vec<MagicType> = super::item_chit::red_numeral(data, item)
        .into_iter()
        .chain(spells::enchant_artifact::added_types(state, data, item))
        .collect();
    types.sort();
    types.dedup();
    types
}

/// Why artifact or book `item` cannot cast `spell`, whose type is not one
/// it casts (3.1 4.6.6b, 8.3.9c.1): the Good Book, type I, holds two type
/// VII Spell cards that it never casts. `None` when the type fits or the
/// spell has no type (a treasure's own spell, checked apart).
pub fn item_wrong_type(
    state: &MrState,
    data: &GameData,
    item: &str,
    spell: &Spell,
) -> Option<String> {
    let kind = spell.spell_type?;
    let types = item_types(state, data, item);
    if types.contains(&kind) {
        return None;
    }
    let numerals: Vec<&str> = types.iter().map(|t| t.numeral()).collect();
    Some(if numerals.is_empty() {
        format!(
            "the {item} is no artifact or spell book and holds no Enchant Artifact, so it casts \
             no spells"
        )
    } else {
        format!(
            "{} is type {kind} and the {item} casts only type {} spells (the red numeral on its \
             card, 3.1 4.6.6b)",
            spell.name,
            realmgm_core::words::listed(&numerals)
        )
    })
}

/// A spell bound to a treasure (See/Change Weather in the Eye of the Moon,
/// Control Dragon in the Dragonfang Necklace; `spells.toml` `treasure`) is
/// cast only by that treasure, carried active, once per Evening; it is awake
/// from the start, as the treasure's own spell.
fn check_bound_treasure(
    state: &MrState,
    c: &crate::state::CharacterState,
    data: &GameData,
    request: &CastRequest,
    spell: &Spell,
) -> Result<(), MagicError> {
    let name = spell.name.as_str();
    let holder = data.treasures.iter().find(|t| {
        t.effects
            .iter()
            .any(|e| matches!(e, TreasureEffect::BuiltInSpell { spell: s } if s == name))
    });
    let Some(holder) = holder else {
        return Err(MagicError::cannot(name, "no treasure carries it"));
    };
    let CastWith::Treasure { name: item } = &request.with else {
        return Err(MagicError::cannot(
            name,
            format!("only the {} casts it", holder.name),
        ));
    };
    // Either game's card is the printed treasure (3.1 10.E.7.2.1).
    if crate::data::realms::printed(item) != holder.name {
        return Err(MagicError::cannot(
            name,
            format!("only the {} casts it, not the {item}", holder.name),
        ));
    }
    if !c
        .belongings
        .iter()
        .any(|b| b.active && &b.item.name == item)
    {
        return Err(MagicError::cannot(
            name,
            format!("the {} does not carry the {item} active", c.name),
        ));
    }
    if c.magic.artifacts_used_today.contains(item) {
        return Err(MagicError::cannot(
            name,
            format!("the {item} already cast a spell this Evening (once per Evening)"),
        ));
    }
    if let Some(held) = committed(state, item) {
        return Err(MagicError::cannot(
            name,
            format!("the {item} is committed to its {held}, still in effect"),
        ));
    }
    Ok(())
}

/// The spell in effect an artifact or book is committed to (8.3.9c.3);
/// one cast under Enhanced Magic commits it to nothing (3.1 10.C.1.2).
fn committed<'s>(state: &'s MrState, item: &str) -> Option<&'s str> {
    state
        .magic
        .in_effect
        .iter()
        .find(|s| !s.untied && matches!(&s.with, CastWith::Treasure { name } if name == item))
        .map(|s| s.spell.as_str())
}

fn check_place(state: &MrState, spell: &Spell, here: &ClearingId) -> Result<(), MagicError> {
    let Some(group) = spell.only_in else {
        return Ok(());
    };
    let kind = state.board.clearing(here).map(|c| c.kind);
    let fits = match group {
        TileGroup::Mountain => kind == Some(ClearingKind::Mountain),
        TileGroup::Cave => kind == Some(ClearingKind::Cave),
        _ => true,
    };
    if fits {
        Ok(())
    } else {
        Err(MagicError::cannot(
            &spell.name,
            format!(
                "it can be cast only in a {} clearing and {here} is not one",
                group.word()
            ),
        ))
    }
}

/// How a cast's colour is supplied: shared, or one of his colour chits, or
/// one of his artifacts or books enchanted into colour (3.1 10.C.3.3).
type ColourSupply = (Colour, Option<usize>, Option<String>);

/// The colour for the cast and, when not shared, the colour chit or
/// coloured item to play.
fn check_colour(
    state: &MrState,
    data: &GameData,
    rules: &Rules,
    request: &CastRequest,
    spell: &Spell,
) -> Result<ColourSupply, MagicError> {
    let c = &state.characters[request.caster];
    let shared = shared_colours(state, data, rules, request.day, &c.position);
    let own = colour_chits(state, request.caster);
    let fits = |colour: Colour| match spell.colour {
        SpellColour::Colour(needed) => needed == colour,
        SpellColour::Any(_) => true,
    };
    if let Some(index) = request.colour_chit {
        let (_, chit, colour) = own.iter().find(|o| o.0 == index).ok_or_else(|| {
            MagicError::cannot(
                &spell.name,
                format!("the {} has no colour chit number {index}", c.name),
            )
        })?;
        if !fits(*colour) {
            return Err(MagicError::cannot(
                &spell.name,
                format!(
                    "it needs {} magic and {chit} is {colour}",
                    spell.colour.word()
                ),
            ));
        }
        return Ok((*colour, Some(index), None));
    }
    if let Some(colour) = shared.iter().copied().find(|c| fits(*c)) {
        return Ok((colour, None, None));
    }
    if let Some((index, _, colour)) = own.iter().find(|o| fits(o.2)) {
        return Ok((*colour, Some(*index), None));
    }
    let items = super::item_chit::colour_items(state, request.caster);
    if let Some((item, colour)) = items.iter().find(|(_, colour)| fits(*colour)) {
        return Ok((*colour, None, Some(item.clone())));
    }
    let mut present = shared.clone();
    present.extend(own.iter().map(|o| o.2));
    present.extend(items.iter().map(|(_, colour)| *colour));
    Err(MagicError::cannot(
        &spell.name,
        format!(
            "it needs {} magic and {} is missing here (present: {}); cast it on a colour day, \
             in an enchanted tile, or with a colour chit of that colour",
            spell.colour.word(),
            spell.colour.word(),
            list(&present)
        ),
    ))
}

/// Whether a monster counter id is of one of these monsters.
fn denizen_is(id: &str, names: &[&str]) -> bool {
    names
        .iter()
        .any(|n| id == *n || id.starts_with(&format!("{n} ")))
}

fn aim_fits(state: &MrState, kind: SpellTarget, aim: &Aim) -> bool {
    let is_native_id = |id: &str| {
        state
            .denizens
            .get(id)
            .is_some_and(|d| d.kind == DenizenKind::Native)
    };
    match (kind, aim) {
        (SpellTarget::Character | SpellTarget::Leader, Aim::Character { .. }) => true,
        (
            SpellTarget::Individual | SpellTarget::Attacker | SpellTarget::Multiple,
            Aim::Character { .. } | Aim::Denizen { .. },
        ) => true,
        (SpellTarget::Clearing, Aim::Clearing { .. }) => true,
        (SpellTarget::Tile, Aim::Tile { .. }) => true,
        (
            SpellTarget::Artifact | SpellTarget::Weapon | SpellTarget::SoundChit,
            Aim::Item { .. },
        ) => true,
        (SpellTarget::Spell, Aim::Spell { .. }) => true,
        (SpellTarget::Curse, Aim::Curse { .. }) => true,
        (SpellTarget::MagicChits, Aim::OwnChits { .. }) => true,
        (SpellTarget::Weather, Aim::Weather | Aim::NewWeather) => true,
        (SpellTarget::Monster, Aim::Denizen { id }) => state
            .denizens
            .get(id)
            .is_some_and(|d| d.kind == DenizenKind::Monster),
        (SpellTarget::Demon, Aim::Denizen { id }) => {
            denizen_is(id, &["Demon", "Winged Demon", "Imp"])
        }
        (SpellTarget::Bats, Aim::Denizen { id }) => denizen_is(id, &["Giant Bat"]),
        (SpellTarget::Goblins, Aim::Denizen { id }) => {
            denizen_is(id, &["Spear Goblin", "Sword Goblin", "Axe Goblin"])
        }
        (SpellTarget::Spider, Aim::Denizen { id }) => denizen_is(id, &["T Spider", "H Spider"]),
        (SpellTarget::Octopus, Aim::Denizen { id }) => denizen_is(id, &["Octopus"]),
        (SpellTarget::Dragon, Aim::Denizen { id }) => id.contains("Dragon"),
        (SpellTarget::HumanGroup, Aim::Denizen { id }) => {
            is_native_id(id) || denizen_is(id, &["Giant", "Ogre"])
        }
        _ => false,
    }
}

/// The clearing an individual target stands in.
fn where_is(state: &MrState, aim: &Aim) -> Option<ClearingId> {
    match aim {
        Aim::Character { name } => state
            .characters
            .iter()
            .find(|c| &c.name == name)
            .map(|c| c.position.clone()),
        Aim::Denizen { id } => match state.denizens.get(id).map(|d| &d.at) {
            Some(Whereabouts::Clearing { clearing }) => Some(clearing.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `aim` is shielded from spells now (Protection from Magic,
/// Pentangle).
pub fn shielded(state: &MrState, aim: &Aim) -> Option<String> {
    state
        .magic
        .in_effect
        .iter()
        .find(|s| {
            works(state, s)
                && matches!(s.spell.as_str(), "Protection from Magic" | "Pentangle")
                && s.targets.first() == Some(aim)
        })
        .map(|s| s.spell.clone())
}

fn check_targets(state: &MrState, request: &CastRequest, spell: &Spell) -> Result<(), MagicError> {
    let c = &state.characters[request.caster];
    let bad = |aim: &Aim, reason: String| MagicError::BadTarget {
        spell: spell.name.clone(),
        target: aim.to_string(),
        reason,
    };
    let Some(first) = request.targets.first() else {
        return Err(MagicError::cannot(&spell.name, "no target was named"));
    };
    let many = spell.targets.contains(&SpellTarget::Multiple);
    let main: Vec<&Aim> = if many {
        request.targets.iter().collect()
    } else {
        vec![first]
    };
    for aim in main {
        if !spell.targets.iter().any(|k| aim_fits(state, *k, aim)) {
            let kinds: Vec<&str> = spell.targets.iter().map(|k| k.word()).collect();
            return Err(bad(aim, format!("it targets {}", kinds.join(" or "))));
        }
        if matches!(aim, Aim::Character { .. } | Aim::Denizen { .. })
            && where_is(state, aim).as_ref() != Some(&c.position)
        {
            return Err(bad(
                aim,
                "the target is not in the caster's clearing".into(),
            ));
        }
        match aim {
            Aim::Clearing { clearing } if clearing != &c.position => {
                return Err(bad(
                    aim,
                    "a spell reaches only the caster's own clearing".into(),
                ));
            }
            Aim::Tile { code } if code != &c.position.tile => {
                return Err(bad(
                    aim,
                    "a spell reaches only the caster's own tile".into(),
                ));
            }
            _ => {}
        }
        if let Some(shield) = shielded(state, aim) {
            return Err(bad(aim, format!("the target is protected by {shield}")));
        }
        if let Aim::OwnChits { character } = aim
            && character != &c.name
        {
            return Err(bad(
                aim,
                "only the caster's own MAGIC chits can be targeted".into(),
            ));
        }
    }
    Ok(())
}

/// Whether `request` is a legal cast now; nothing changes.
///
/// # Errors
/// Why not: the spell unknown to him, the wrong chit or item, the missing
/// colour (naming it), the wrong clearing, an unfit target, or the spell
/// not implemented yet.
pub fn check<'d>(
    state: &MrState,
    data: &'d GameData,
    rules: &Rules,
    request: &CastRequest,
) -> Result<Checked<'d>, MagicError> {
    let c = state
        .characters
        .get(request.caster)
        .ok_or(MagicError::NoCharacter(request.caster))?;
    let spell = find_spell(data, &request.spell)?;
    if let Some(Build::NotBuilt(why)) = spells::build_of(&spell.name) {
        return Err(MagicError::not_built(&spell.name, why));
    }
    // His chits are frozen and he names no spell target while a
    // transmorphizing spell holds him (3.1 4.6.9c.1, 4.6.9e).
    if let Some(holding) = super::conflicts::transmorphized(state, &c.name) {
        return Err(MagicError::cannot(
            &spell.name,
            format!(
                "the {} is transmorphized by {holding} and casts no spell while it lasts \
                 (3.1 rule 4.6.9c.1, 4.6.9e)",
                c.name
            ),
        ));
    }
    check_with(state, data, rules, request, spell)?;
    check_place(state, spell, &c.position)?;
    let (colour, colour_chit, colour_item) = check_colour(state, data, rules, request, spell)?;
    check_targets(state, request, spell)?;
    Ok(Checked {
        spell,
        colour,
        colour_chit,
        colour_item,
        speed: speed(state, request),
    })
}

/// Cast: check, play the colour chit, apply the spell's effect, and put it
/// in effect (or, for an instant spell, fatigue its chit at once).
///
/// # Errors
/// As [`check`], or an effect that cannot be applied; the state is then
/// unchanged.
pub fn cast(
    state: &mut MrState,
    data: &GameData,
    rules: &Rules,
    request: &CastRequest,
    dice: &mut Dice,
) -> Result<Vec<SpellEffect>, MagicError> {
    let checked = check(state, data, rules, request)?;
    let before = state.clone();
    let result = apply(state, data, rules, request, dice, &checked);
    if result.is_err() {
        *state = before;
    }
    result
}

fn apply(
    state: &mut MrState,
    data: &GameData,
    rules: &Rules,
    request: &CastRequest,
    dice: &mut Dice,
    checked: &Checked<'_>,
) -> Result<Vec<SpellEffect>, MagicError> {
    let spell = checked.spell;
    let mut effects = Vec::new();
    let caster = state.characters[request.caster].name.clone();
    if let Some(index) = checked.colour_chit {
        let chit = &mut state.characters[request.caster].chits[index];
        chit.enchanted = false;
        chit.condition = ChitCondition::Fatigued;
        effects.push(SpellEffect::ColourChitPlayed {
            character: caster.clone(),
            chit: chit.chit.clone(),
        });
    }
    if let Some(item) = &checked.colour_item {
        super::item_chit::expend(state, request.caster, item);
        effects.push(SpellEffect::ColourItemPlayed {
            character: caster.clone(),
            item: item.clone(),
            colour: checked.colour,
        });
    }
    if let CastWith::Treasure { name } = &request.with {
        state.characters[request.caster]
            .magic
            .artifacts_used_today
            .insert(name.clone());
    }
    let individuals = request
        .targets
        .iter()
        .filter(|t| matches!(t, Aim::Character { .. } | Aim::Denizen { .. }))
        .count();
    let ambush = crate::rules::ambush(rules) && individuals == 1;
    if individuals > 0 && !ambush && state.characters[request.caster].hidden {
        state.characters[request.caster].hidden = false;
        effects.push(SpellEffect::Unhidden {
            character: caster.clone(),
        });
    }
    // 3.1 rule 4.6.10e: targets its twin already bewitches are released.
    let released = super::expiry::already_bewitched(state, spell, &request.targets);
    let request = &CastRequest {
        targets: request
            .targets
            .iter()
            .filter(|t| !released.contains(t))
            .cloned()
            .collect(),
        ..request.clone()
    };
    if !released.is_empty() {
        let broken = request
            .targets
            .iter()
            .all(|t| matches!(t, Aim::KnownSpell { .. }));
        effects.push(SpellEffect::Magic(super::events::MagicEvent::Duplicate {
            spell: spell.name.clone(),
            caster: caster.clone(),
            released: released.iter().map(ToString::to_string).collect(),
            broken,
        }));
        if broken {
            fizzle(state, request);
            return Ok(effects);
        }
    }
    let mut ctx = spells::Ctx {
        state,
        data,
        rules,
        dice,
        caster: request.caster,
        spell,
        targets: &request.targets,
        speed: checked.speed,
        day: request.day,
        detail: None,
        spent: false,
    };
    let build = spells::build_of(&spell.name)
        .ok_or_else(|| MagicError::not_built(&spell.name, "it has no entry in the registry"))?;
    effects.extend(match build {
        Build::Effect(f) => f(&mut ctx)?,
        Build::Attack => spells::attack(&ctx)?,
        Build::NotBuilt(why) => return Err(MagicError::not_built(&spell.name, why)),
    });
    let detail = ctx.detail.take();
    // An instant or attack spell expires after its one effect, and its
    // MAGIC chit fatigues then (4.6.7b). Under Enhanced Magic no spell ties
    // up its chit: the chit must fatigue as the round it was played in
    // ends (3.1 10.C.1.1), and nothing can play it again before then, so it
    // fatigues now.
    let spent = matches!(spell.duration, Duration::Instant | Duration::Attack) || ctx.spent;
    let untied = rules.is_on(ENHANCED_MAGIC);
    if (spent || untied)
        && let CastWith::Chit { index } = request.with
        && let Some(chit) = state.characters[request.caster].chits.get_mut(index)
    {
        chit.condition = ChitCondition::Fatigued;
    }
    if spent {
        return Ok(effects);
    }
    let id = state.magic.next_id;
    state.magic.next_id += 1;
    state.magic.in_effect.push(SpellInEffect {
        id,
        spell: spell.name.clone(),
        caster,
        with: request.with.clone(),
        targets: request.targets.clone(),
        duration: spell.duration,
        cast_on: request.day,
        inert: false,
        // A Phase spell's chit waits with its target until he activates
        // it (4.6.7f).
        held: spell.duration == Duration::Phase,
        detail,
        untied,
    });
    if let Some(spell) = state.magic.in_effect.last().cloned() {
        super::transmorph::take_hold(state, &spell);
    }
    effects.push(SpellEffect::InEffect {
        id,
        spell: spell.name.clone(),
        duration: spell.duration,
    });
    Ok(effects)
}

/// A spell cancelled or broken before it goes into effect (8.4.2d,
/// 8.4.3b.4): it was cast all the same, so its MAGIC chit fatigues at once
/// and an artifact or book has had its use for the Evening. Gives the chit.
pub fn fizzle(state: &mut MrState, request: &CastRequest) -> Option<String> {
    let index = match &request.with {
        CastWith::Chit { index } => *index,
        CastWith::Treasure { name } => {
            if let Some(c) = state.characters.get_mut(request.caster) {
                c.magic.artifacts_used_today.insert(name.clone());
            }
            return None;
        }
    };
    let chit = state
        .characters
        .get_mut(request.caster)?
        .chits
        .get_mut(index)?;
    chit.condition = ChitCondition::Fatigued;
    Some(chit.chit.clone())
}

/// Spells in effect (neither inert nor nullified) named `spell` whose first target is `aim`.
pub fn active_on<'s>(state: &'s MrState, aim: &Aim, spell: &str) -> Option<&'s SpellInEffect> {
    state
        .magic
        .in_effect
        .iter()
        .find(|s| works(state, s) && s.spell == spell && s.targets.first() == Some(aim))
}

/// Fog: nobody in a fogged tile may use the Peer table.
pub fn fogged(state: &MrState, tile: &str) -> bool {
    active_on(
        state,
        &Aim::Tile {
            code: tile.to_string(),
        },
        "Fog",
    )
    .is_some()
}
