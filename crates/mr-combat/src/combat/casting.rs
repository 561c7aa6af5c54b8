//! Casting spells in combat (3.1 8.3.9 casting in the Encounter step,
//! 8.4.2d specifying targets, 8.4.3 spells coming to life, 8.4.5l attack
//! spells). The magic rules ([`crate::magic::cast`]) check and apply a cast
//! on the game state; this module ties them to the battle.
//!
//! A battle that may see spells carries [`CombatMagic`]: a copy of the game
//! state the magic rules work on, and which character of the state each
//! fighter is. In the Encounter step a cast is checked (the MAGIC chit of
//! the spell's type, an artifact or book, the colour) and its speed held to
//! the speed limit: no slower than the fastest move time of the attackers
//! on his sheet (equal is allowed, 8.3.9b.5). The chit is played, the round
//! is not a quiet one (8.8.2), and the cast waits. In the Melee step the
//! targets are specified: naming an unhired native makes his group battle
//! the caster, naming one's own hired native is treachery (8.4.2d.7),
//! unless Benevolent Spells (10.C.2) is on and the spell is benevolent. Then
//! the waiting casts come to life fastest first; a caster targeted by a
//! faster spell loses his own (its chit fatigues, 8.4.3b.4). A spell whose
//! target is not the sort it needs, or is shielded from magic, is broken
//! before it goes into effect (8.4.2d) and its chit fatigues all the same.
//! A character whose spell came to life makes no normal attack this round
//! (Sequence of Play, Evening 2.3). Attack spells attack like a weapon, in
//! the direction the caster chose, with the same direction and time against
//! every target and one Missile-table roll per hit (8.4.5l). Whoever runs
//! the battle (the Evening) copies the magic state back afterwards and calls
//! the end of combat expiry.
//!
//! Rulings: the order names the spell, and optionally the chit or item,
//! the targets and the attack direction: `cast SPELL [with CHIT] [on TARGET
//! [and TARGET...] [to PLACE]] [thrust|swing|smash]`. 8.4.5l has the
//! direction played secretly with the maneuver; by mail it is written with
//! the cast, and an attack spell with none named comes in the thrust line.
//! Without a chit named, the fastest fitting MAGIC chit casts. Without a
//! target, an individual spell aims at the first attacker on the caster's
//! sheet, else the first opponent in play, and a spell on a character aims
//! at the caster. The MAGIC chit's effort stars do not count toward the
//! fatigue of the round.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::data::GameData;
use crate::data::characters::{ActionChit, ChitAction};
use crate::data::spells::SpellTarget;
use crate::magic::MagicError;
use crate::magic::cast::{self, CastRequest};
use crate::magic::effect::SpellEffect;
use crate::state::magic::{Aim, CastWith};
use crate::state::{ChitCondition, MrState};
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;
use realmgm_core::suggest;

use super::Battle;
use super::error::CombatError;
use super::harm::{self, Blow};
use super::log::{CombatLine, Seen};
use super::melee::Attack;
use super::model::{Direction, FighterId};
use super::tactics::{attacker_move_times, same_chit};

/// Why a spell cannot be cast in a battle set up without the game state.
pub const NOT_BUILT: &str = "this battle was set up without the game state the magic rules need \
     (run it from the Evening, or give the battle file a `day`)";

/// The magic side of a battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CombatMagic {
    /// The game state the magic rules read and change.
    pub state: MrState,
    pub rules: Rules,
    /// The game day (for the colour of the day).
    pub day: u32,
    /// Fighter → index of his character in `state.characters`.
    pub seats: BTreeMap<FighterId, usize>,
    /// Casts made in this round's Encounter step, waiting for the Melee.
    pub waiting: Vec<WaitingCast>,
    /// Denizens something attacked: Peace no longer holds them.
    pub attacked: BTreeSet<FighterId>,
    /// Power of the Pit casts held as attacks in this Melee step (3.1
    /// 10.C.4, `pit_attack.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pits: Vec<WaitingCast>,
}

/// A cast made in the Encounter step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitingCast {
    pub caster: FighterId,
    pub request: CastRequest,
    pub speed: u8,
    /// The chit or item it was cast with, as logged.
    pub with: String,
    /// An attack spell's direction (8.4.5l).
    #[serde(default = "thrust")]
    pub direction: Direction,
}

fn thrust() -> Direction {
    Direction::Thrust
}

impl CombatMagic {
    /// Magic for a battle over `state`, whose characters are `seats`.
    pub fn new(
        state: MrState,
        rules: Rules,
        day: u32,
        seats: BTreeMap<FighterId, usize>,
    ) -> CombatMagic {
        CombatMagic {
            state,
            rules,
            day,
            seats,
            waiting: Vec::new(),
            attacked: BTreeSet::new(),
            pits: Vec::new(),
        }
    }
}

/// The aim a fighter is as a spell target.
pub(super) fn aim_of(battle: &Battle, id: FighterId) -> Aim {
    let name = battle.name(id).to_string();
    if battle.hero(id).is_some() {
        Aim::Character { name }
    } else {
        Aim::Denizen { id: name }
    }
}

/// The fighter an aim names.
fn fighter_of(battle: &Battle, aim: &Aim) -> Option<FighterId> {
    match aim {
        Aim::Character { name } => battle.find(name),
        Aim::Denizen { id } => battle.find(id),
        _ => None,
    }
}

/// Split a `cast` order at its first ` on `: the spell part (`SPELL [with
/// CHIT]`) and the target part (`TARGET [and TARGET...] [to PLACE]
/// [DIRECTION]`), both as written; [`read_order`] reads them.
pub fn split_order(order: &str) -> (String, Option<String>) {
    let lower = order.to_ascii_lowercase();
    match lower.find(" on ") {
        Some(at) => (
            order[..at].trim().to_string(),
            Some(order[at + 4..].trim().to_string()),
        ),
        None => (order.trim().to_string(), None),
    }
}

/// A `cast` order read against the spell list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastOrder {
    pub spell: String,
    /// The MAGIC chit or the artifact or book he casts with.
    pub with: Option<String>,
    /// The targets as written (`A and B`, `TARGET to PLACE`).
    pub target: Option<String>,
    /// An attack spell's direction (8.4.5l).
    pub direction: Option<Direction>,
}

/// Why `order` is refused whatever the day brings: it names an artifact or
/// book to cast a spell of a type the item does not cast (3.1 4.6.6b,
/// 8.3.9c.1), as `cast SPELL with ITEM: reason`. `None` when it names no
/// such item or the type fits. The orders check refuses such a `Combat:`
/// line when it is read; a round answer, read without the game state (an
/// Enchant Artifact may add a type), is refused with the same reason in
/// the Encounter step ([`cast_in_combat`]), since an illegal answer there
/// would hand the round to default standing orders unsaid.
pub fn wrong_item_type(data: &GameData, state: &MrState, order: &CastOrder) -> Option<String> {
    let with = order.with.as_deref()?;
    let item = data
        .treasures
        .iter()
        .find(|t| suggest::same(&t.name, with))?;
    let spell = data
        .spells
        .iter()
        .find(|s| suggest::same(&s.name, &order.spell))?;
    let why = cast::item_wrong_type(state, data, &item.name, spell)?;
    Some(format!("cast {} with {}: {why}", spell.name, item.name))
}

/// Read the two parts [`split_order`] gives: a trailing `thrust`, `swing`
/// or `smash` is the attack direction; a ` with ` in the spell part that
/// is not part of the spell's name (Deal with Goblins) names the chit or
/// item.
pub fn read_order(data: &GameData, spell: &str, target: Option<&str>) -> CastOrder {
    fn direction_at_end(text: &str) -> (&str, Option<Direction>) {
        let text = text.trim();
        let Some((rest, word)) = text.rsplit_once(' ') else {
            return (text, None);
        };
        let word = word.to_ascii_lowercase();
        match Direction::ALL.into_iter().find(|d| d.attack_word() == word) {
            Some(d) => (rest.trim(), Some(d)),
            None => (text, None),
        }
    }
    let is_spell = |name: &str| {
        data.spells
            .iter()
            .any(|s| s.name.eq_ignore_ascii_case(name.trim()))
    };
    let (target, direction) = match target {
        Some(t) => {
            let (rest, direction) = direction_at_end(t);
            (Some(rest.to_string()), direction)
        }
        None => (None, None),
    };
    let (spell, direction) = match direction {
        Some(d) => (spell.trim(), Some(d)),
        None if is_spell(spell) => (spell.trim(), None),
        None => direction_at_end(spell),
    };
    let lower = spell.to_ascii_lowercase();
    let (spell, with) = match lower.rfind(" with ") {
        Some(at) if !is_spell(spell) && is_spell(&spell[..at]) => {
            (spell[..at].trim(), Some(spell[at + 6..].trim().to_string()))
        }
        _ => (spell, None),
    };
    CastOrder {
        spell: spell.to_string(),
        with,
        target,
        direction,
    }
}

/// `TARGET to PLACE`: the target's name and the destination a moving
/// spell needs (a tile code such as `CL`, or a clearing such as `CL3`).
fn split_destination(named: &str) -> (&str, Option<Aim>) {
    let Some(at) = named.to_ascii_lowercase().find(" to ") else {
        return (named, None);
    };
    let place = named[at + 4..].trim().to_ascii_uppercase();
    let digits = place.trim_start_matches(|c: char| !c.is_ascii_digit());
    let tile = &place[..place.len() - digits.len()];
    let aim = match digits.parse::<u8>() {
        Ok(clearing) if !tile.is_empty() => Aim::Clearing {
            clearing: crate::board::ClearingId::new(tile, clearing),
        },
        _ => Aim::Tile {
            code: place.clone(),
        },
    };
    (named[..at].trim(), Some(aim))
}

/// `A and B and C`: the names of several targets (8.4.2d.2).
fn split_and(text: &str) -> Vec<&str> {
    let lower = text.to_ascii_lowercase();
    let mut names = Vec::new();
    let mut from = 0;
    while let Some(at) = lower[from..].find(" and ") {
        names.push(text[from..from + at].trim());
        from += at + 5;
    }
    names.push(text[from..].trim());
    names
}

/// The targets of a cast: the named ones, or the ruling's default.
fn targets(
    battle: &Battle,
    magic: &CombatMagic,
    caster: FighterId,
    kinds: &[SpellTarget],
    named: Option<&str>,
) -> Result<Vec<Aim>, CombatError> {
    if kinds.contains(&SpellTarget::Weather) {
        return Ok(crate::magic::spells::weather::aim_of(named).map(|aim| vec![aim])?);
    }
    if let Some(named) = named {
        // Items, spells in effect and the like are the magic rules' to read.
        let seat = magic.seats.get(&caster).copied();
        if let Some(aims) = seat.and_then(|s| crate::magic::aims::named(&magic.state, s, named)) {
            return Ok(aims);
        }
        let (names, to) = split_destination(named);
        let mut aims = Vec::new();
        for name in split_and(names) {
            let t = battle
                .find(name)
                .ok_or_else(|| format!("nobody called {name} is in this combat"))?;
            // A standing cast outlives its target: a killed or departed
            // fighter is named by nobody's spell (3.1 8.4.2d).
            if !battle.in_play(t) {
                return Err(format!("{name} is no longer in this combat").into());
            }
            // He may always cast on himself (3.1 8.4.2d.6).
            if t != caster && !super::hidden_enemies::sees(battle, caster, t) {
                return Err(format!(
                    "{name} is hidden: a hidden target is named only after finding Hidden \
                     Enemies today, or when Magic Sight shows that one (3.1 8.4.2d.6, 7.5.7c)"
                )
                .into());
            }
            aims.push(aim_of(battle, t));
        }
        if aims.len() > 1 && !kinds.contains(&SpellTarget::Multiple) {
            return Err(format!("it takes one target, and {} were named", aims.len()).into());
        }
        aims.extend(to);
        return Ok(aims);
    }
    let seat = magic.seats.get(&caster).copied().unwrap_or_default();
    let here = magic.state.characters.get(seat).map(|c| c.position.clone());
    let individual = |battle: &Battle| {
        battle
            .attackers_of(caster)
            .first()
            .copied()
            .or_else(|| {
                (0..battle.fighters.len()).find(|&i| {
                    i != caster
                        && battle.in_play(i)
                        && !battle.fighters[i].hidden
                        && battle.denizen(i).is_none_or(|d| d.employer != Some(caster))
                })
            })
            .map(|t| aim_of(battle, t))
    };
    for kind in kinds {
        let aim = match kind {
            SpellTarget::Clearing => here.clone().map(|clearing| Aim::Clearing { clearing }),
            SpellTarget::Tile => here.clone().map(|c| Aim::Tile { code: c.tile }),
            SpellTarget::MagicChits => Some(Aim::OwnChits {
                character: battle.name(caster).to_string(),
            }),
            SpellTarget::Weather => Some(Aim::Weather),
            SpellTarget::Character => Some(aim_of(battle, caster)),
            SpellTarget::Individual
            | SpellTarget::Attacker
            | SpellTarget::Multiple
            | SpellTarget::Monster
            | SpellTarget::Demon
            | SpellTarget::Bats
            | SpellTarget::Goblins
            | SpellTarget::Spider
            | SpellTarget::Octopus
            | SpellTarget::Dragon
            | SpellTarget::HumanGroup
            | SpellTarget::Leader => individual(battle),
            _ => None,
        };
        if let Some(aim) = aim {
            return Ok(vec![aim]);
        }
    }
    Err("name its target: `cast SPELL on TARGET`".into())
}

/// Copy the battle's chit conditions onto the magic state (wounds and
/// fatigue taken in combat count for casting).
pub(super) fn sync_to_state(battle: &Battle, magic: &mut CombatMagic) {
    for (&f, &seat) in &magic.seats {
        let (Some(hero), Some(c)) = (battle.hero(f), magic.state.characters.get_mut(seat)) else {
            continue;
        };
        for (chit, fought) in c.chits.iter_mut().zip(&hero.chits) {
            chit.condition = fought.condition;
        }
        c.hidden = battle.fighters[f].hidden;
    }
}

/// Copy chit conditions the magic rules changed back onto the battle.
pub(super) fn sync_to_battle(battle: &mut Battle, magic: &CombatMagic) {
    for (&f, &seat) in &magic.seats {
        let Some(c) = magic.state.characters.get(seat) else {
            continue;
        };
        let conditions: Vec<ChitCondition> = c.chits.iter().map(|x| x.condition).collect();
        if let Some(hero) = battle.hero_mut(f) {
            for (fought, condition) in hero.chits.iter_mut().zip(conditions) {
                fought.condition = condition;
            }
        }
    }
}

/// What he can cast with, best candidates first: MAGIC chits of the
/// spell's type, other MAGIC chits, then his active treasures; only the
/// one he named when he named one.
fn candidates(
    battle: &Battle,
    magic: &CombatMagic,
    caster: FighterId,
    spell: &str,
    named: Option<&str>,
) -> Vec<CastWith> {
    let Some(&seat) = magic.seats.get(&caster) else {
        return Vec::new();
    };
    let data = battle.data;
    let kind = data
        .spells
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(spell))
        .and_then(|s| s.spell_type);
    let played = battle.plays.chits_played.get(&caster);
    let Some(c) = magic.state.characters.get(seat) else {
        return Vec::new();
    };
    let mut fitting = Vec::new();
    let mut others = Vec::new();
    for (index, chit) in c.chits.iter().enumerate() {
        let Some(time) = ActionChit::parse(&chit.chit)
            .ok()
            .filter(|a| a.action == ChitAction::Magic)
            .map(|a| match chit.prepared {
                true => 0,
                false => super::altering::time_now(battle, caster, &chit.chit).unwrap_or(a.time),
            })
        else {
            continue;
        };
        let spent = chit.condition != ChitCondition::Active;
        if spent || played.is_some_and(|p| p.contains(&chit.chit)) {
            continue;
        }
        if named.is_some_and(|n| !same_chit(&chit.chit, n)) {
            continue;
        }
        if kind.is_some() && cast::effective_type(&magic.state, data, seat, index) == kind {
            fitting.push((time, CastWith::Chit { index }));
        } else {
            others.push((time, CastWith::Chit { index }));
        }
    }
    // The fastest chit of the spell's type first.
    fitting.sort_by_key(|(time, _)| *time);
    fitting.extend(others);
    let mut fitting: Vec<CastWith> = fitting.into_iter().map(|(_, w)| w).collect();
    fitting.extend(
        c.belongings
            .iter()
            .filter(|b| b.active)
            .filter(|b| named.is_none_or(|n| b.item.name.eq_ignore_ascii_case(n)))
            .filter(|b| data.treasure(&b.item.name).is_some())
            .map(|b| CastWith::Treasure {
                name: b.item.name.clone(),
            }),
    );
    fitting
}

/// Cast what `order` names as character `caster`'s Encounter action (3.1
/// 8.3.9b-c): the chit is played, the round is not a quiet one (8.8.2),
/// and the cast waits for the Melee step.
///
/// # Errors
/// Why the spell was not cast: no game state, no chit or item that can
/// cast it (with the magic rules' reason, e.g. the missing colour), too
/// slow for the attackers on his sheet.
pub fn cast_in_combat(
    battle: &mut Battle,
    caster: FighterId,
    spell: &str,
    target: Option<&str>,
) -> Result<(), CombatError> {
    let Some(mut magic) = battle.magic.take() else {
        return Err(CombatError::Refused(NOT_BUILT.to_string()));
    };
    let order = read_order(battle.data, spell, target);
    let result = prepare(battle, &mut magic, caster, &order, true);
    battle.magic = Some(magic);
    let waiting = result?;
    battle
        .plays
        .chits_played
        .entry(caster)
        .or_default()
        .push(waiting.with.clone());
    battle.plays.acted.insert(caster);
    battle.plays.eventful = true;
    let line = CombatLine::Casts {
        fighter: battle.name(caster).to_string(),
        spell: waiting.request.spell.clone(),
        targets: waiting
            .request
            .targets
            .iter()
            .map(ToString::to_string)
            .collect(),
        with: waiting.with.clone(),
        speed: waiting.speed,
    };
    battle.say(Seen::Clearing, line);
    if let Some(magic) = battle.magic.as_mut() {
        magic.waiting.push(waiting);
    }
    Ok(())
}

/// The cast `order` names, checked. With `may_break`, a target that is not
/// the sort the spell needs (or is shielded from magic) does not stop the
/// cast: the chit is played and the spell breaks in the Melee step
/// (8.4.2d); without it (the options offered), such a cast is refused.
fn prepare(
    battle: &Battle,
    magic: &mut CombatMagic,
    caster: FighterId,
    order: &CastOrder,
    may_break: bool,
) -> Result<WaitingCast, CombatError> {
    let data = battle.data;
    let seat = *magic
        .seats
        .get(&caster)
        .ok_or("not a character of the game state")?;
    let found = data
        .spells
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(order.spell.trim()))
        .ok_or_else(|| format!("there is no spell called {}", order.spell))?;
    sync_to_state(battle, magic);
    let aims = targets(
        battle,
        magic,
        caster,
        &found.targets,
        order.target.as_deref(),
    )?;
    let options = candidates(battle, magic, caster, &found.name, order.with.as_deref());
    let mut first_error = None;
    for with in options {
        let request = CastRequest {
            caster: seat,
            spell: found.name.clone(),
            with: with.clone(),
            targets: aims.clone(),
            colour_chit: None,
            day: magic.day,
        };
        let speed = match cast::check(&magic.state, data, &magic.rules, &request) {
            Ok(checked) => checked.speed,
            Err(MagicError::BadTarget { .. }) if may_break => cast::speed(&magic.state, &request),
            Err(e) => {
                // The log line already names the spell.
                let reason = match e {
                    MagicError::CannotCast { reason, .. } => reason,
                    other => other.to_string(),
                };
                first_error.get_or_insert(reason);
                continue;
            }
        };
        let speed = super::altering::cast_time(battle, magic, caster, &with, speed);
        let limit = attacker_move_times(battle, caster).into_iter().min();
        if let Some(limit) = limit.filter(|&l| speed > l) {
            first_error.get_or_insert(format!(
                "its speed {speed} is slower than the move time {limit} of an attacker on \
                 the caster's sheet"
            ));
            continue;
        }
        let label = match &with {
            CastWith::Chit { index } => magic.state.characters[seat].chits[*index].chit.clone(),
            CastWith::Treasure { name } => name.clone(),
        };
        return Ok(WaitingCast {
            caster,
            speed,
            request,
            with: label,
            direction: order.direction.unwrap_or(Direction::Thrust),
        });
    }
    Err(CombatError::Refused(first_error.unwrap_or_else(
        || match &order.with {
            Some(named) => format!(
                "the {} has no active, unplayed MAGIC chit or active artifact called {named}",
                battle.name(caster)
            ),
            None => format!(
                "the {} has no active MAGIC chit or artifact to cast it with",
                battle.name(caster)
            ),
        },
    )))
}

/// The Melee step's spells (Sequence of Play, Evening 2.1-2.2): the
/// targets are specified, then the waiting casts come to life fastest
/// first; attack spells are added to `attacks`. Gives the casters whose
/// spell came to life: they make no normal attack this round (2.3).
pub fn take_effect(
    battle: &mut Battle,
    dice: &mut Dice,
    attacks: &mut Vec<Attack>,
) -> BTreeSet<FighterId> {
    let mut alive = BTreeSet::new();
    let here = super::spell_effects::clearing_of(battle);
    let Some(mut magic) = battle.magic.take() else {
        return alive;
    };
    let mut waiting = std::mem::take(&mut magic.waiting);
    waiting.sort_by_key(|w| w.speed);
    let targeted_at: Vec<(FighterId, FighterId, u8)> = waiting
        .iter()
        .filter(|w| battle.in_play(w.caster))
        .flat_map(|w| {
            w.request
                .targets
                .iter()
                .filter_map(|t| fighter_of(battle, t))
                .map(move |t| (w.caster, t, w.speed))
                .collect::<Vec<_>>()
        })
        .collect();
    let benevolent: BTreeSet<FighterId> = waiting
        .iter()
        .filter(|w| battle.rules.benevolent_spells && benevolent(battle, &w.request.spell))
        .map(|w| w.caster)
        .collect();
    battle.magic = Some(magic);
    for w in &waiting {
        if !battle.in_play(w.caster) {
            continue;
        }
        let individuals = w
            .request
            .targets
            .iter()
            .filter(|t| matches!(t, Aim::Character { .. } | Aim::Denizen { .. }))
            .count();
        super::ambush::spell_targets(battle, dice, w.caster, individuals);
    }
    for &(caster, target, _) in &targeted_at {
        if !benevolent.contains(&caster) {
            named_as_target(battle, caster, target);
        }
    }
    let by_demons = super::pit_attack::demons_first(battle, &waiting, &targeted_at);
    let Some(mut magic) = battle.magic.take() else {
        return alive;
    };
    // Spells go in speed order, so every spell that could cancel this one
    // has been judged already; one that was itself cancelled cancels
    // nothing (3.1 8.4.3b.3).
    let mut cancelled = BTreeSet::new();
    let mut group = super::chit_conflicts::Group::default();
    for w in waiting {
        let name = battle.name(w.caster).to_string();
        if !battle.in_play(w.caster) {
            continue;
        }
        group.next(battle, &mut magic, &w);
        let by_caster = targeted_at
            .iter()
            .find(|&&(c, t, speed)| t == w.caster && speed < w.speed && !cancelled.contains(&c))
            .map(|&(_, _, faster)| faster);
        let by_demon = by_demons
            .iter()
            .find(|&&(c, _)| c == w.caster)
            .map(|&(_, faster)| faster);
        if let Some(faster) = by_caster.or(by_demon) {
            cancelled.insert(w.caster);
            sync_to_state(battle, &mut magic);
            let chit = cast::fizzle(&mut magic.state, &w.request);
            sync_to_battle(battle, &magic);
            battle.say(
                Seen::Clearing,
                CombatLine::SpellCancelled {
                    character: name,
                    spell: w.request.spell.clone(),
                    faster,
                    chit,
                },
            );
            continue;
        }
        let target = w
            .request
            .targets
            .first()
            .and_then(|t| fighter_of(battle, t));
        if super::pit_attack::held(battle, &mut magic, &w, target, attacks)
            || resolve_one(battle, &mut magic, dice, &w, attacks, &mut group)
        {
            alive.insert(w.caster);
        }
    }
    group.settle(battle, &mut magic);
    battle.magic = Some(magic);
    super::spell_effects::after_casts(battle, here.as_ref());
    alive
}

/// Whether `spell` is benevolent (3.1 10.C.2.2): with Benevolent Spells
/// on, naming a native as its target is neither treachery nor a cause of
/// battling (10.C.2.1).
fn benevolent(battle: &Battle, spell: &str) -> bool {
    battle
        .data
        .spells
        .iter()
        .find(|s| s.name == spell)
        .is_some_and(crate::data::spells::Spell::benevolent)
}

/// `caster` names `target` for his spell (8.4.2d.7): an unhired native's
/// group battles him; his own hired native's group rebels.
fn named_as_target(battle: &mut Battle, caster: FighterId, target: FighterId) {
    if target == caster || battle.denizen(target).is_none() {
        return;
    }
    super::treachery::on_target(battle, caster, target);
    super::encounter::make_group_battle(battle, target, caster);
}

/// One waiting cast comes to life; whether it did. A spell that fails now
/// (its target is not the sort it needs, is shielded, or its effect cannot
/// be applied) is broken before it goes into effect and its chit fatigues
/// all the same (8.4.2d, 8.4.3b.4).
pub(super) fn resolve_one(
    battle: &mut Battle,
    magic: &mut CombatMagic,
    dice: &mut Dice,
    w: &WaitingCast,
    attacks: &mut Vec<Attack>,
    group: &mut super::chit_conflicts::Group,
) -> bool {
    let name = battle.name(w.caster).to_string();
    let data = battle.data;
    sync_to_state(battle, magic);
    match cast::cast(&mut magic.state, data, &magic.rules, &w.request, dice) {
        Err(e) => {
            let chit = cast::fizzle(&mut magic.state, &w.request);
            sync_to_battle(battle, magic);
            let reason = match e {
                MagicError::CannotCast { reason, .. } => reason,
                MagicError::BadTarget { target, reason, .. } => format!("{target}: {reason}"),
                other => other.to_string(),
            };
            battle.say(
                Seen::Clearing,
                CombatLine::SpellBroken {
                    character: name,
                    spell: w.request.spell.clone(),
                    reason,
                    chit,
                },
            );
            false
        }
        Ok(effects) => {
            sync_to_battle(battle, magic);
            group.note(w, &effects);
            for effect in effects {
                apply(battle, magic, w, effect, attacks);
            }
            true
        }
    }
}

/// Carry one effect of a cast into the battle.
fn apply(
    battle: &mut Battle,
    magic: &mut CombatMagic,
    w: &WaitingCast,
    effect: SpellEffect,
    attacks: &mut Vec<Attack>,
) {
    let caster = battle.name(w.caster).to_string();
    let say = |battle: &mut Battle, text: String| {
        battle.say(
            Seen::Clearing,
            CombatLine::SpellWorks {
                fighter: caster.clone(),
                text,
            },
        );
    };
    match effect {
        SpellEffect::Attack {
            spell,
            harm: strength,
            stars,
            length,
            speed,
            missile,
            targets,
        } => {
            let hit: Vec<FighterId> = targets
                .iter()
                .filter_map(|aim| fighter_of(battle, aim))
                .filter(|&t| battle.in_play(t))
                .collect();
            let line = CombatLine::SpellAttacks {
                fighter: caster.clone(),
                spell: spell.clone(),
                targets: hit.iter().map(|&t| battle.name(t).to_string()).collect(),
                direction: w.direction,
                speed,
            };
            battle.say(Seen::Clearing, line);
            // One attack per target, each judged and rolled on the Missile
            // table on its own (8.4.5l.2).
            for t in hit {
                magic.attacked.insert(t);
                battle.fighters[t].hidden = false;
                attacks.push(Attack {
                    attacker: w.caster,
                    label: format!("{spell} ({caster})"),
                    target: t,
                    direction: w.direction,
                    speed,
                    length,
                    blow: Blow {
                        level: harm::level(strength),
                        red: false,
                        stars,
                        striking_bonus: false,
                        missile,
                    },
                    weapon: false,
                });
            }
        }
        SpellEffect::Killed { target } => {
            if let Some(t) = fighter_of(battle, &target).filter(|&t| battle.in_play(t)) {
                harm::kill(battle, t, w.caster);
            }
        }
        SpellEffect::CombatEnds { .. } => {
            battle.finished = true;
            battle.say(
                Seen::Clearing,
                CombatLine::Ends {
                    reason: format!("the {caster}'s {} ends it", w.request.spell),
                },
            );
        }
        SpellEffect::Unhidden { character } => {
            if let Some(f) = battle.find(&character) {
                battle.fighters[f].hidden = false;
            }
            say(battle, format!("the {character} is no longer hidden"));
        }
        SpellEffect::Transformed { target, form } => {
            say(battle, format!("{target} is transformed into {form}"));
        }
        SpellEffect::ChitsWounded { character, chits } => {
            say(
                battle,
                format!("the {character} wounds {}", chits.join(", ")),
            );
        }
        SpellEffect::ChitsFatigued { character, chits } => {
            say(
                battle,
                format!("the {character} fatigues {}", chits.join(", ")),
            );
        }
        SpellEffect::InEffect { id, spell, .. } => {
            say(battle, format!("{spell} is in effect (spell #{id})"));
            let taken = super::spell_effects::control(battle, w.caster, &spell, &w.request.targets);
            // The spell holds every monster it took, so the Daylight after
            // knows them all as controlled (3.1 6.2.5, 7.13.3e).
            if let Some(held) = magic.state.magic.in_effect.iter_mut().find(|s| s.id == id) {
                for monster in taken {
                    let aim = Aim::Denizen { id: monster };
                    if !held.targets.contains(&aim) {
                        held.targets.push(aim);
                    }
                }
            }
        }
        other => say(battle, other.to_string()),
    }
}

/// Spells in effect that change the round's attacks: nobody in Melt Into
/// Mist attacks or is harmed by an attack; a Poisoned weapon has one more
/// sharpness star.
pub fn adjust_attacks(battle: &mut Battle, attacks: &mut Vec<Attack>) {
    let Some(magic) = &battle.magic else {
        return;
    };
    let misted: Vec<FighterId> = (0..battle.fighters.len())
        .filter(|&f| cast::active_on(&magic.state, &aim_of(battle, f), "Melt Into Mist").is_some())
        .collect();
    let poisoned: Vec<FighterId> = attacks
        .iter()
        .filter(|a| a.weapon)
        .filter(|a| {
            battle
                .hero(a.attacker)
                .and_then(|h| h.weapon.as_ref())
                .is_some_and(|w| {
                    let aim = Aim::Item {
                        holder: battle.name(a.attacker).to_string(),
                        item: w.name.clone(),
                    };
                    cast::active_on(&magic.state, &aim, "Poison").is_some()
                })
        })
        .map(|a| a.attacker)
        .collect();
    let mut dropped = Vec::new();
    attacks.retain(|a| {
        let keep = !misted.contains(&a.attacker) && !misted.contains(&a.target);
        if !keep {
            dropped.push((a.label.clone(), a.target));
        }
        keep
    });
    for a in attacks
        .iter_mut()
        .filter(|a| a.weapon && poisoned.contains(&a.attacker))
    {
        a.blow.stars += 1;
    }
    for (label, target) in dropped {
        let target = battle.name(target).to_string();
        battle.say(
            Seen::Clearing,
            CombatLine::SpellWorks {
                fighter: label,
                text: format!(
                    "no attack on {target}: Melt Into Mist (mist neither fights nor is harmed)"
                ),
            },
        );
    }
}

/// Whether denizen `d` may not attack: Peace is on it and nothing has
/// attacked it since.
pub fn pacified(battle: &Battle, d: FighterId) -> bool {
    let Some(magic) = &battle.magic else {
        return false;
    };
    if magic.attacked.contains(&d) {
        return false;
    }
    cast::active_on(&magic.state, &aim_of(battle, d), "Peace").is_some()
}

/// Note that `target` was attacked (Peace no longer holds it).
pub fn attacked(battle: &mut Battle, target: FighterId) {
    if let Some(magic) = battle.magic.as_mut() {
        magic.attacked.insert(target);
    }
}

/// The spells `who` could cast now, as options of his Encounter decision
/// (`cast Fiery Blast on Giant 1`); with no game state, the reason none is.
pub fn legal_casts(battle: &Battle, who: FighterId) -> Vec<String> {
    let Some(magic) = &battle.magic else {
        return vec![format!("cast a spell: {NOT_BUILT}")];
    };
    let Some(&seat) = magic.seats.get(&who) else {
        return Vec::new();
    };
    let known = magic
        .state
        .characters
        .get(seat)
        .map(|c| c.magic.spells.clone())
        .unwrap_or_default();
    let mut scratch = magic.clone();
    known
        .iter()
        .filter_map(|spell| {
            let order = CastOrder {
                spell: spell.clone(),
                with: None,
                target: None,
                direction: None,
            };
            prepare(battle, &mut scratch, who, &order, false).ok()
        })
        .map(|w| {
            let on: Vec<String> = w.request.targets.iter().map(ToString::to_string).collect();
            format!("cast {} on {}", w.request.spell, on.join(", "))
        })
        .collect()
}
