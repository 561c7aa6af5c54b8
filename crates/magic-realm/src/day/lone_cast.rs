//! A character alone in his clearing at Evening still does two rounds of
//! combat, in which he may cast a spell, activate or inactivate a
//! belonging, abandon belongings, run away or do nothing (3.1 rule 8.1.3a;
//! spells are cast in the Encounter step of a round of combat, 4.6.5b).
//! With nobody else there no battle is fought: realmgm plays his two
//! rounds from the clauses of his `Combat:` line.
//!
//! Rulings:
//! - Each clause is done once, though a standing line holds for every
//!   round of a battle: his `cast` clause is cast once, and his
//!   `abandon`, then his `pick up`, then his `activate`/`inactivate`
//!   clauses take a round each in which he casts nothing (3.1 Sequence of
//!   Play, Encounter step 1.5: a character who does an action switches no
//!   belonging; 10.A.5.5: a pick-up is his action). Belongings go first,
//!   so a spell may be cast with what he just activated; with a cast
//!   named, one belongings round is left for it. Switching, abandoning and
//!   picking up follow the combat's own rules (`combat/activation.rs`,
//!   `combat/abandon.rs`, `combat/pick_up.rs`), and what he abandons lies
//!   in the clearing. Alone he plays no Fatigue step, so he picks nothing
//!   up with a MOVE chit of two asterisks, which would owe one (8.5.1).
//! - His `fatigue CHIT` clauses are played in the first round's Encounter
//!   step, beside whatever else he does: fatiguing a colour chit is not an
//!   action (8.3.9a.3).
//! - He does not run: his `run` clauses are for fleeing a fight, and
//!   with nobody to flee the clearing is not left (a `run when wounded`
//!   would otherwise send a character wounded earlier in the day out of an
//!   empty clearing). Alerting a weapon and charging need a fight too.
//! - He casts what the `cast SPELL [on TARGET]` clause names, with the first
//!   MAGIC chit or active treasure the magic rules accept
//!   ([`crate::magic::choose`]); without a named target a spell aims at
//!   himself, his clearing or tile, his own chits or the weather, as it
//!   allows. An attack spell waits for a battle (named at a target, it is
//!   refused: alone there is none); another spell that needs someone else
//!   is refused with the reason.
//!
//! The rounds then end as combat ends: attack and phase spells expire
//! ([`expiry::end_of_combat`]); a combat spell lasts to Midnight
//! (4.6.7g.1). Everything is reported as the clearing's combat lines, seen
//! by him alone.

use std::collections::BTreeMap;

use crate::combat::casting::{read_order, split_order};
use crate::combat::encounter::chit_effort;
use crate::combat::log::CombatLine;
use crate::combat::model::{Fighter, FighterKind};
use crate::combat::tactics::Tactics;
use crate::combat::{Battle, CombatRules, abandon, activation, build, pick_up};
use crate::magic::cast::cast;
use crate::magic::choose::{default_aims, legal_request};
use crate::magic::colour::fatigue_at_will;
use crate::magic::spellbook::find_spell;
use crate::magic::spells::{Build, build_of};
use crate::magic::{MagicError, aims, expiry};
use crate::orders::DayOrders;
use crate::state::abandoned_pile;
use crate::state::magic::{Aim, CastWith};

use super::Day;
use super::events::{CombatEvent, Happening};

/// Character `who`, alone in his clearing, plays his two rounds by his
/// orders' `Combat:` line.
pub fn rounds_alone(day: &mut Day<'_>, who: usize, orders: &BTreeMap<String, DayOrders>) {
    let c = &day.state.characters[who];
    let Some(tactics) = orders.get(&c.player).and_then(|o| o.combat.clone()) else {
        return;
    };
    if c.dead {
        return;
    }
    let fatigued = colour_chits_fatigued(day, who, &tactics);
    let mut round = 1;
    if belongings(day, who, &tactics, round) {
        round += 1;
    }
    if let Some(order) = &tactics.cast
        && cast_alone(day, who, order, round)
    {
        round += 1;
    }
    if round <= 2 && belongings(day, who, &tactics, round) {
        round += 1;
    }
    // Nothing named for his rounds: nothing of his ends with them.
    if round == 1 && tactics.cast.is_none() && !fatigued {
        return;
    }
    let clearing = day.state.characters[who].position.clone();
    let observers = day.only(who);
    for event in expiry::end_of_combat(&mut day.state, &clearing) {
        day.emit(observers.clone(), Happening::Magic(event));
    }
}

/// His `fatigue CHIT` clauses, in the Encounter step of his first round,
/// beside whatever else he does there: fatiguing a colour chit is not his
/// action (3.1 8.3.9a.3). Whether any clause was played.
fn colour_chits_fatigued(day: &mut Day<'_>, who: usize, tactics: &Tactics) -> bool {
    if tactics.fatigue.is_empty() {
        return false;
    }
    let character = day.state.characters[who].name.clone();
    let lines = tactics
        .fatigue
        .iter()
        .map(|chit| CombatLine::ColourChitFatigued {
            character: character.clone(),
            chit: chit.clone(),
            kept: fatigue_at_will(&mut day.state, who, chit, false)
                .err()
                .map(|e| e.to_string()),
        })
        .collect();
    tell(day, who, 1, lines);
    true
}

/// Tell him `lines` of his round `round`.
fn tell(day: &mut Day<'_>, who: usize, round: u32, lines: Vec<CombatLine>) {
    let clearing = day.state.characters[who].position.clone();
    let observers = day.only(who);
    for line in lines {
        day.emit(
            observers.clone(),
            Happening::Combat(CombatEvent::Line {
                clearing: clearing.clone(),
                round,
                line,
            }),
        );
    }
}

/// His belongings round: abandon what his `abandon` clause names, else
/// pick up the first dropped belonging his `pick up` clauses name that he
/// can reach, else switch what his `activate`/`inactivate` clauses name,
/// when he can. Whether he did any.
fn belongings(day: &mut Day<'_>, who: usize, tactics: &Tactics, round: u32) -> bool {
    let c = &day.state.characters[who];
    let Ok(hero) = build::hero(day.data, c) else {
        return false;
    };
    let clearing = c.position.clone();
    let fighter = Fighter {
        name: c.name.clone(),
        kind: FighterKind::Character(hero),
        hidden: c.hidden,
        out: None,
    };
    let label = format!("{}{}", clearing.tile, clearing.clearing);
    let mut battle = Battle::new(
        day.data,
        &label,
        vec![fighter],
        CombatRules::from_rules(day.rules),
    );
    battle.in_cave = super::movement::is_cave(day, &clearing);
    battle.round = round;
    battle.dropped_in_sight = day.state.dropped_list(&clearing);
    let reachable = tactics.pick_up.iter().find(|(item, with)| {
        pick_up::reach(&battle, 0, item, with.as_deref()).is_ok_and(|chit| {
            chit.and_then(|c| chit_effort(&battle, 0, &c))
                .is_none_or(|(_, effort, _)| effort < 2)
        })
    });
    if let Some(item) = tactics
        .abandon
        .as_deref()
        .filter(|i| abandon::check(&battle, 0, i).is_ok())
    {
        let drop = tactics.drops_in_sight(&battle.rules);
        abandon::abandon(&mut battle, 0, item, drop);
    } else if let Some((item, with)) = reachable {
        pick_up::pick_up(&mut battle, 0, item, with.as_deref());
    } else if let Some((on, off)) = activation::standing(&battle, 0, tactics) {
        activation::switch(&mut battle, 0, on.as_deref(), off.as_deref());
    } else {
        return false;
    }
    let lines = battle.log.iter().map(|l| l.line.clone()).collect();
    tell(day, who, round, lines);
    if let Some(hero) = battle.hero(0) {
        let c = &mut day.state.characters[who];
        pick_up::write_back(c, &hero.kit.picked_up);
        activation::write_back(c, &hero.kit);
        abandon::write_back(c, &hero.abandoned);
        c.hidden = battle.fighters[0].hidden;
    }
    if !battle.dropped.is_empty() {
        day.state
            .holdings
            .entry(abandoned_pile(&clearing))
            .or_default()
            .extend(battle.dropped);
    }
    day.state.lay_dropped(&clearing, &battle.dropped_in_sight);
    true
}

/// His `cast` clause in round `round`; whether he spent the round's action
/// on it (a refused cast spends none).
fn cast_alone(day: &mut Day<'_>, who: usize, order: &str, round: u32) -> bool {
    let name = day.state.characters[who].name.clone();
    let (lines, cast) = match attempt(day, who, order) {
        Ok(None) => return false,
        Ok(Some(lines)) => (lines, true),
        Err(e) => {
            let reason = match e {
                MagicError::CannotCast { reason, .. } => format!("the {order} fails: {reason}"),
                other => format!("the {order} fails: {other}"),
            };
            (
                vec![CombatLine::Refused {
                    character: name,
                    reason,
                }],
                false,
            )
        }
    };
    tell(day, who, round, lines);
    cast
}

/// The cast and its lines; `None` when an attack spell has nobody here.
fn attempt(
    day: &mut Day<'_>,
    who: usize,
    order: &str,
) -> Result<Option<Vec<CombatLine>>, MagicError> {
    let (spell, target) = split_order(order);
    let order = read_order(day.data, &spell, target.as_deref());
    let target = order.target;
    let spell = find_spell(day.data, &order.spell)?;
    if matches!(build_of(&spell.name), Some(Build::Attack)) {
        return match target {
            // A standing order for battles: with nobody here it waits.
            None => Ok(None),
            Some(_) => Err(MagicError::cannot(
                &spell.name,
                "an attack spell is resolved in a battle, and a lone caster has none",
            )),
        };
    }
    let me = &day.state.characters[who].name;
    let targets = match target.as_deref() {
        // Alone, the only individual he can name is himself.
        Some(text) if text.trim().eq_ignore_ascii_case(me) => {
            vec![Aim::Character { name: me.clone() }]
        }
        Some(text) => aims::named(&day.state, who, text).ok_or_else(|| MagicError::BadTarget {
            spell: spell.name.clone(),
            target: text.to_string(),
            reason: "nobody of that name is here".into(),
        })?,
        None => default_aims(&day.state, who, &spell.targets).ok_or_else(|| {
            MagicError::cannot(
                &spell.name,
                "alone, the caster must name its target: `cast SPELL on TARGET` (`on me` aims it \
                 at the caster, `on ITEM with SPELL` at a treasure carried)",
            )
        })?,
    };
    let request = legal_request(
        &day.state,
        day.data,
        day.rules,
        who,
        &spell.name,
        targets,
        order.with.as_deref(),
    )?;
    let character = day.state.characters[who].name.clone();
    let with = match &request.with {
        CastWith::Chit { index } => day.state.characters[who].chits[*index].chit.clone(),
        CastWith::Treasure { name } => name.clone(),
    };
    let on: Vec<String> = request.targets.iter().map(ToString::to_string).collect();
    let mut lines = vec![CombatLine::Plays {
        fighter: character.clone(),
        text: format!(
            "alone, casts {} on {} with {with}",
            request.spell,
            on.join(", ")
        ),
    }];
    let effects = cast(&mut day.state, day.data, day.rules, &request, day.dice)?;
    lines.extend(effects.iter().map(|e| CombatLine::Plays {
        fighter: character.clone(),
        text: e.to_string(),
    }));
    Ok(Some(lines))
}
