//! Monsters that cast a spell as their attack (`data/monsters.toml`, §15.4, §5.1,
//! §5.2; play summary III.B): the Demon and the Winged Demon cast Power of the
//! Pit and the Imp casts Curse when light side up.
//!
//! Rulings: the spell is the monster's attack on the fighter whose sheet it
//! is on. It comes from the monster's red box at the side's attack time and
//! length, and must hit like any attack (it intercepts the maneuver's line
//! or undercuts its time). A hit does no harm: the spell takes effect on
//! the target instead, and counts as the monster's hit for turning a
//! Tremendous monster red side up. Power of the Pit rolls on its own table
//! and acts on the battle at once: the fiery chasm kills every unhidden
//! fighter in the clearing (the demon too); terror wounds the characters'
//! active Light and Medium MOVE and FIGHT chits and kills Light and Medium
//! denizens and horses; blight, forget and rust touch only a character
//! target (rust damages intact armour and destroys damaged armour). Curse
//! touches only a character, rolls on the Curse table and puts the curse
//! in the game state (a battle without one says the curse is not kept). A
//! target under Protection from Magic or Pentangle is not affected.

use crate::data::characters::ChitAction;
use crate::data::terms::Strength;
use crate::magic::{cast, curses};
use crate::state::ChitCondition;
use crate::tables::Modifiers;
use crate::tables::magic::{Curse, PitEvent, PowerOfThePit};
use realmgm_core::dice::Dice;

use super::Battle;
use super::casting::{self, NOT_BUILT};
use super::harm::{self, Blow};
use super::log::{CombatLine, Seen};
use super::melee::Attack;
use super::model::{Direction, FighterId, FighterKind};

/// The spell attack of denizen `d` on `target` from box `direction`, when
/// its side up casts a spell.
pub fn attack(
    battle: &Battle,
    d: FighterId,
    target: FighterId,
    direction: Direction,
) -> Option<Attack> {
    if battle.plays.pit_silenced.contains(&d) {
        // A faster spell named this Demon: its spell is cancelled for the
        // round (3.1 10.C.4.2).
        return None;
    }
    let den = battle.denizen(d)?;
    let side = den.current();
    side.spell.as_ref()?;
    Some(Attack {
        attacker: d,
        label: battle.name(d).to_string(),
        target,
        direction,
        speed: side.speed?,
        length: den.length,
        blow: Blow {
            level: 0,
            red: false,
            stars: 0,
            striking_bonus: false,
            missile: false,
        },
        weapon: false,
    })
}

/// The spell `attack` casts, when it is a monster's spell attack.
fn spell_of(battle: &Battle, attack: &Attack) -> Option<String> {
    let den = battle.denizen(attack.attacker)?;
    let side = den.current();
    (side.harm.is_none() && attack.label == battle.name(attack.attacker))
        .then(|| side.spell.clone())
        .flatten()
}

/// Whether the battle holds a monster that casts a spell (the Evening then
/// sets up the game state a Curse is kept in).
pub fn any_caster(battle: &Battle) -> bool {
    battle.fighters.iter().any(|f| {
        matches!(&f.kind, FighterKind::Denizen(d) if d.light.spell.is_some() || d.dark.spell.is_some())
    })
}

/// A hit by a monster's spell attack takes effect instead of harm; `false`
/// when `attack` is not one.
pub fn casts(battle: &mut Battle, dice: &mut Dice, attack: &Attack) -> bool {
    let Some(spell) = spell_of(battle, attack) else {
        return false;
    };
    let (monster, target) = (attack.attacker, attack.target);
    let name = battle.name(monster).to_string();
    let target_name = battle.name(target).to_string();
    battle.plays.eventful = true;
    if let Some(shield) = shield_on(battle, target) {
        let text = format!("casts {spell} on {target_name}: {shield} protects it");
        say(battle, &name, text);
        return true;
    }
    say(battle, &name, format!("casts {spell} on {target_name}"));
    match spell.as_str() {
        "Power of the Pit" => power_of_the_pit(battle, dice, monster, target),
        "Curse" => curse(battle, dice, monster, target),
        other => battle.say(
            Seen::Clearing,
            CombatLine::Refused {
                character: name,
                reason: format!("a monster's {other} is not implemented yet"),
            },
        ),
    }
    true
}

fn say(battle: &mut Battle, fighter: &str, text: String) {
    battle.say(
        Seen::Clearing,
        CombatLine::Plays {
            fighter: fighter.to_string(),
            text,
        },
    );
}

/// Protection from Magic or Pentangle on `target`.
fn shield_on(battle: &Battle, target: FighterId) -> Option<String> {
    let magic = battle.magic.as_ref()?;
    cast::shielded(&magic.state, &casting::aim_of(battle, target))
}

fn power_of_the_pit(battle: &mut Battle, dice: &mut Dice, demon: FighterId, target: FighterId) {
    let what = format!("pit/{}", battle.name(demon));
    let roll = battle.roll_table(dice, &PowerOfThePit, &what, &Modifiers::none());
    let everyone: Vec<FighterId> = (0..battle.fighters.len())
        .filter(|&f| battle.in_play(f))
        .collect();
    match roll.result {
        PitEvent::FieryChasm => {
            for f in everyone {
                if !battle.fighters[f].hidden && battle.in_play(f) {
                    harm::kill(battle, f, demon);
                }
            }
        }
        PitEvent::CarriedAway => harm::kill(battle, target, demon),
        PitEvent::Terror => {
            let small = |s: Strength| matches!(s, Strength::Light | Strength::Medium);
            for f in everyone {
                if battle.denizen(f).is_some_and(|d| small(d.vulnerability)) {
                    harm::kill(battle, f, demon);
                    continue;
                }
                let chits = set_chits(battle, f, ChitCondition::Wounded, |c| {
                    (c.can_fight() || c.can_move()) && small(c.strength())
                });
                if !chits.is_empty() {
                    let who = battle.name(f).to_string();
                    say(
                        battle,
                        &who,
                        format!("wounds {} in terror", chits.join(", ")),
                    );
                }
                let horse = battle
                    .hero_mut(f)
                    .and_then(|h| h.horse.as_mut())
                    .filter(|h| !h.dead && small(h.vulnerability));
                if let Some(h) = horse {
                    h.dead = true;
                    let horse = h.name.clone();
                    let rider = battle.name(f).to_string();
                    battle.say(Seen::Clearing, CombatLine::HorseKilled { horse, rider });
                }
            }
        }
        PitEvent::Blight => {
            let chits = set_chits(battle, target, ChitCondition::Wounded, |c| {
                c.chit.effort > 0
            });
            chits_said(battle, target, "wounds", &chits);
        }
        PitEvent::Forget => {
            let chits = set_chits(battle, target, ChitCondition::Fatigued, |c| {
                c.chit.action == ChitAction::Magic
            });
            chits_said(battle, target, "fatigues", &chits);
        }
        PitEvent::Rust => rust(battle, target),
    }
}

/// Put the active chits of `who` that `pick` chooses in `to`; their labels.
fn set_chits(
    battle: &mut Battle,
    who: FighterId,
    to: ChitCondition,
    pick: impl Fn(&super::model::HeroChit) -> bool,
) -> Vec<String> {
    let Some(hero) = battle.hero_mut(who) else {
        return Vec::new();
    };
    let mut changed = Vec::new();
    for chit in hero.chits.iter_mut().filter(|c| c.is_active() && pick(c)) {
        chit.condition = to;
        changed.push(chit.label.clone());
    }
    changed
}

fn chits_said(battle: &mut Battle, who: FighterId, verb: &str, chits: &[String]) {
    if battle.hero(who).is_none() {
        let name = battle.name(who).to_string();
        say(
            battle,
            &name,
            "is not affected: the event touches only characters".into(),
        );
        return;
    }
    let name = battle.name(who).to_string();
    let text = if chits.is_empty() {
        format!("has no active chit to {}", verb.trim_end_matches('s'))
    } else {
        format!("{verb} {}", chits.join(", "))
    };
    say(battle, &name, text);
}

/// Rust: intact armour is damaged, damaged armour destroyed.
fn rust(battle: &mut Battle, target: FighterId) {
    let character = battle.name(target).to_string();
    let Some(hero) = battle.hero_mut(target) else {
        say(
            battle,
            &character,
            "is not affected: the event touches only characters".into(),
        );
        return;
    };
    let mut lines = Vec::new();
    for piece in hero.armor.iter_mut().filter(|a| !a.destroyed) {
        if piece.damaged {
            piece.destroyed = true;
        } else {
            piece.damaged = true;
        }
        lines.push(CombatLine::ArmorDamaged {
            character: character.clone(),
            armor: piece.name.clone(),
            destroyed: piece.destroyed,
        });
    }
    if lines.is_empty() {
        say(battle, &character, "has no armour to rust".into());
    }
    for line in lines {
        battle.say(Seen::Clearing, line);
    }
}

fn curse(battle: &mut Battle, dice: &mut Dice, imp: FighterId, target: FighterId) {
    let target_name = battle.name(target).to_string();
    if battle.hero(target).is_none() {
        say(
            battle,
            &target_name,
            "is not affected: a curse touches only characters".into(),
        );
        return;
    }
    let what = format!("curse/{}", battle.name(imp));
    let roll = battle.roll_table(dice, &Curse, &what, &Modifiers::none());
    let source = format!("the {}'s Curse", battle.name(imp));
    let Some(mut magic) = battle.magic.take() else {
        battle.say(
            Seen::Clearing,
            CombatLine::Refused {
                character: target_name,
                reason: format!("the {} curse is not kept: {NOT_BUILT}", roll.result.name()),
            },
        );
        return;
    };
    let data = battle.data;
    let event = match magic.seats.get(&target).copied() {
        Some(seat) => {
            casting::sync_to_state(battle, &mut magic);
            let event = curses::inflict(
                &mut magic.state,
                data,
                &magic.rules,
                seat,
                roll.result,
                &source,
            );
            casting::sync_to_battle(battle, &magic);
            event.to_string().trim().to_string()
        }
        None => format!(
            "the {} curse is not kept: the {target_name} is not a character of the game state",
            roll.result.name()
        ),
    };
    battle.magic = Some(magic);
    say(battle, &target_name, event);
}
