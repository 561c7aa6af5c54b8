//! Harm (play summary III.B.9): the level of a hit from its harm letter, one
//! level per sharpness star (less one star for armour), one more for a
//! striking weapon played with a heavier FIGHT chit; the Missile table for
//! missiles (or the optional or revised table, 2nd-edition optional combat rule 5.4), the Fumble
//! table for striking hits (2nd-edition optional combat rule 5.4); kills against vulnerability,
//! wounds, armour damaged or destroyed, Penetrating Armor (2nd-edition optional combat rule 5.5);
//! horses taking the hits of their riders; Tremendous monsters turning red
//! side up when they hit and killing outright when they hit red side up.

use crate::data::terms::Strength;
use crate::state::CounterSide;
use crate::tables::missile::{Missile, RevisedMissile};
use crate::tables::optional_combat::{
    Fumble, FumbleResult, ManeuverFaced, OptionalMissile, OptionalMissileResult,
    attack_time_modifiers,
};
use realmgm_core::dice::{Dice, DiceCount};

use super::Battle;
use super::log::{CombatLine, Seen};
use super::melee::Attack;
use super::model::{FighterId, Out};
use super::spoils;

/// What an attack carries before it meets its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blow {
    /// Harm letter as a level: Negligible 0, L 1, M 2, H 3, T 4.
    pub level: i8,
    /// A red-side-up Tremendous monster: it kills whatever it hits.
    pub red: bool,
    pub stars: u8,
    pub striking_bonus: bool,
    pub missile: bool,
}

/// The level of a strength: Negligible 0 … Tremendous 4.
pub fn level(strength: Strength) -> i8 {
    match strength {
        Strength::Negligible => 0,
        Strength::Light => 1,
        Strength::Medium => 2,
        Strength::Heavy => 3,
        Strength::Tremendous => 4,
    }
}

fn level_word(level: i8) -> &'static str {
    match level {
        ..=0 => "negligible",
        1 => "Light",
        2 => "Medium",
        3 => "Heavy",
        4 => "Tremendous",
        _ => "beyond Tremendous",
    }
}

/// What the optional tables added besides levels.
enum Extra {
    None,
    /// Optional missile table: a wound to an unarmoured character only.
    WoundOnly,
}

/// Resolve one hit.
pub fn strike(
    battle: &mut Battle,
    dice: &mut Dice,
    attack: &Attack,
    faced: &[ManeuverFaced],
    horse: bool,
    shield: Option<super::model::Direction>,
) {
    let target = attack.target;
    if !battle.in_play(target) || super::monster_spells::casts(battle, dice, attack) {
        return;
    }
    let attacker = attack.label.clone();
    let target_name = battle.name(target).to_string();
    if attack.blow.red {
        say_harm(
            battle,
            attacker,
            target_name,
            "red side: killed outright".into(),
        );
        kill(battle, target, attack.attacker);
        if let Some(den) = battle.denizen_mut(attack.attacker) {
            den.side = CounterSide::Light;
            let monster = battle.name(attack.attacker).to_string();
            battle.say(Seen::Clearing, CombatLine::TurnsRedSideDown { monster });
        }
        return;
    }
    let beast = super::spell_effects::beast_armoured(battle, target);
    let armor_index = battle
        .hero(target)
        .filter(|_| beast.is_none())
        .and_then(|h| {
            h.armor
                .iter()
                .position(|a| a.guards(attack.direction, shield))
        });
    let native_mount = super::native_horses::mount(battle, target).map(|m| m.horse.armored);
    let on_horse = horse
        && (native_mount.is_some()
            || battle
                .hero(target)
                .and_then(|h| h.horse.as_ref())
                .is_some_and(|h| !h.dead));
    let armored = if on_horse {
        native_mount.unwrap_or(false)
            || battle
                .hero(target)
                .and_then(|h| h.horse.as_ref())
                .is_some_and(|h| h.armored)
    } else {
        armor_index.is_some()
            || battle.denizen(target).is_some_and(|d| d.armored)
            || beast == Some(true)
    };
    let mut stars = attack.blow.stars;
    if armored && stars > 0 {
        stars -= 1;
    }
    let mut level = attack.blow.level + i8::try_from(stars).unwrap_or(0);
    if attack.blow.striking_bonus {
        level += 1;
    }
    // The notes of how the level came about, joined by "; ".
    let mut notes = String::with_capacity(64);
    notes.push_str(level_word(level));
    notes.push_str(" before tables");
    let (change, extra) = table_change(battle, dice, attack, faced);
    if let Some((levels, note)) = change {
        level += levels;
        notes.push_str("; ");
        notes.push_str(&note);
    }
    // Joined in place: a line for every hit of every round.
    let summary = |notes: &str, level: i8| [notes, " → ", level_word(level)].concat();
    if level <= 0 && !matches!(extra, Extra::WoundOnly) {
        let text = summary(&notes, level) + ": no effect";
        say_harm(battle, attacker, target_name, text);
        return;
    }
    if on_horse && native_mount.is_some() {
        let text = summary(&notes, level);
        let (result, death) = super::native_horses::horse_hit(battle, target, level);
        say_harm(battle, attacker, target_name, format!("{text} {result}"));
        if let Some(line) = death {
            battle.say(Seen::Clearing, line);
        }
        return;
    }
    if battle.denizen(target).is_some() {
        let vulnerability = battle
            .denizen(target)
            .map_or(Strength::Tremendous, |d| d.vulnerability);
        if level >= self::level(vulnerability) && level > 0 {
            say_harm(
                battle,
                attacker,
                target_name,
                summary(&notes, level) + ": kills",
            );
            kill(battle, target, attack.attacker);
        } else {
            say_harm(
                battle,
                attacker,
                target_name,
                summary(&notes, level) + ": unharmed",
            );
        }
        return;
    }
    if on_horse {
        horse_hit(battle, target, &attacker, level, &notes);
        return;
    }
    let Some(vulnerability) = battle.hero(target).map(|h| h.vulnerability) else {
        return;
    };
    // A transformed character is hit as his form (`spell_effects.rs`).
    let vulnerability =
        super::spell_effects::form_vulnerability(battle, target).unwrap_or(vulnerability);
    if matches!(extra, Extra::WoundOnly) {
        let text = if armor_index.is_none() {
            wound(battle, target);
            "optional missile table: one wound"
        } else {
            "optional missile table: a wound stopped by armour"
        };
        say_harm(battle, attacker, target_name, text.into());
        return;
    }
    // Only a missile attack beyond Tremendous finds the unarmoured spot and
    // kills through armour (seed 002 5.5.1); a striking blow that far (the
    // Fumble table can raise one) hits armour as any other (III.B.9.c).
    if level >= 5 && attack.blow.missile {
        say_harm(
            battle,
            attacker,
            target_name,
            summary(&notes, level) + ": kills through any armour",
        );
        kill(battle, target, attack.attacker);
        return;
    }

    if let Some(index) = armor_index {
        if attack.blow.missile && battle.rules.penetrating_armor {
            match penetrate(battle, target, attack, shield, level) {
                Some(left) => level = left,
                None => {
                    say_harm(
                        battle,
                        attacker,
                        target_name,
                        summary(&notes, level) + ": stopped by armour (Penetrating Armor)",
                    );
                    return;
                }
            }
        } else {
            let text = if level >= 2 {
                wound(battle, target);
                ": armour takes it, one wound"
            } else {
                ": armour takes it, unharmed"
            };
            // The blow first, then what it did to the armour.
            say_harm(battle, attacker, target_name, summary(&notes, level) + text);
            armor_hit(battle, target, index, level);
            return;
        }
    }
    if level == self::level(vulnerability) && battle.rules.serious_wounds {
        let count = serious_wounds(battle, dice, target, &target_name);
        say_harm(
            battle,
            attacker,
            target_name,
            summary(&notes, level)
                + &format!(": equals the vulnerability, {count} wounds (Serious Wounds)"),
        );
    } else if level >= self::level(vulnerability) {
        say_harm(
            battle,
            attacker,
            target_name,
            summary(&notes, level) + ": kills",
        );
        kill(battle, target, attack.attacker);
    } else {
        wound(battle, target);
        say_harm(
            battle,
            attacker,
            target_name,
            summary(&notes, level) + ": one wound",
        );
    }
}

/// The level change from the Missile, optional missile or Fumble table.
fn table_change(
    battle: &mut Battle,
    dice: &mut Dice,
    attack: &Attack,
    faced: &[ManeuverFaced],
) -> (Option<(i8, String)>, Extra) {
    let what = ["harm/", attack.label.as_str()].concat();
    let own = battle
        .hero(attack.attacker)
        .map(|h| h.missile.clone())
        .unwrap_or_default();
    let timing = || attack_time_modifiers(attack.speed, faced);
    if attack.blow.missile {
        if battle.rules.optional_missile_table {
            let mods = own.merged(timing());
            let roll = battle.roll_table(dice, &OptionalMissile, &what, &mods);
            return match roll.result {
                OptionalMissileResult::Harm(n) => (Some((n, roll.describe())), Extra::None),
                OptionalMissileResult::Wound => (None, Extra::WoundOnly),
                OptionalMissileResult::Negligible => (Some((-10, roll.describe())), Extra::None),
            };
        }
        if battle.rules.revised_missile_table {
            let roll = battle.roll_table(dice, &RevisedMissile, &what, &own);
            return (Some((roll.result.levels, roll.describe())), Extra::None);
        }
        let roll = battle.roll_table(dice, &Missile, &what, &own);
        return (Some((roll.result.levels, roll.describe())), Extra::None);
    }
    if battle.rules.fumble && attack.weapon {
        let roll = battle.roll_table(dice, &Fumble, &what, &timing());
        return match roll.result {
            FumbleResult::Harm(n) => (Some((n, roll.describe())), Extra::None),
            FumbleResult::Negligible => (Some((-10, roll.describe())), Extra::None),
        };
    }
    (None, Extra::None)
}

/// A red-side-down Tremendous monster that hits turns red side up.
pub fn tremendous_hit(battle: &mut Battle, attacker: FighterId) {
    let turns = battle
        .denizen(attacker)
        .is_some_and(|d| d.tremendous && d.side == CounterSide::Light);
    if turns && battle.in_play(attacker) {
        if let Some(d) = battle.denizen_mut(attacker) {
            d.side = CounterSide::Dark;
        }
        battle.plays.eventful = true;
        let monster = battle.name(attacker).to_string();
        battle.say(Seen::Clearing, CombatLine::TurnsRedSideUp { monster });
    }
}

fn say_harm(battle: &mut Battle, attacker: String, target: String, result: String) {
    battle.say(
        Seen::Clearing,
        CombatLine::Harm {
            attacker,
            target,
            result,
        },
    );
}

fn wound(battle: &mut Battle, target: FighterId) {
    *battle.plays.wounds.entry(target).or_default() += 1;
    battle.plays.eventful = true;
}

/// Optional rule Serious Wounds (advanced rule A.1; `combat/harm.rs`): an
/// unarmoured character hit by harm equal to his vulnerability is not
/// killed but takes one die of wounds. The wounds go on his chits in the
/// Fatigue step like any other, so enough of them still kill him there.
fn serious_wounds(battle: &mut Battle, dice: &mut Dice, target: FighterId, name: &str) -> u8 {
    let count = battle
        .roll(
            dice,
            &format!("serious wounds/{name}"),
            "10.A.1",
            DiceCount::One,
            format_args!("wounds for the {name} (Serious Wounds)"),
        )
        .result;
    for _ in 0..count {
        wound(battle, target);
    }
    count
}

/// Armour hit by harm `level`: damaged when equal to its toughness,
/// destroyed when above it or when already damaged.
fn armor_hit(battle: &mut Battle, target: FighterId, index: usize, level: i8) {
    let character = battle.name(target).to_string();
    let Some(piece) = battle.hero_mut(target).and_then(|h| h.armor.get_mut(index)) else {
        return;
    };
    let toughness = self::level(piece.toughness);
    if level < toughness {
        return;
    }
    let destroyed = level > toughness || piece.damaged;
    piece.damaged = true;
    piece.destroyed = destroyed;
    let armor = piece.name.clone();
    battle.plays.eventful = true;
    battle.say(
        Seen::Clearing,
        CombatLine::ArmorDamaged {
            character,
            armor,
            destroyed,
        },
    );
}

/// Penetrating Armor (2nd-edition optional combat rule 5.5): the missile passes each piece it
/// beats, losing a level per piece; stops at one it cannot beat (a wound
/// when equal). Returns the harm left for the character.
fn penetrate(
    battle: &mut Battle,
    target: FighterId,
    attack: &Attack,
    shield: Option<super::model::Direction>,
    mut level: i8,
) -> Option<i8> {
    let pieces: Vec<i8> = battle
        .hero(target)
        .map(|h| {
            h.armor
                .iter()
                .filter(|a| a.guards(attack.direction, shield))
                .map(|a| self::level(a.toughness))
                .collect()
        })
        .unwrap_or_default();
    for toughness in pieces {
        if toughness > level {
            return None;
        }
        if toughness == level {
            wound(battle, target);
            return None;
        }
        level -= 1;
    }
    Some(level)
}

fn horse_hit(battle: &mut Battle, rider: FighterId, attacker: &str, level: i8, notes: &str) {
    let rider_name = battle.name(rider).to_string();
    let Some(horse) = battle.hero_mut(rider).and_then(|h| h.horse.as_mut()) else {
        return;
    };
    let killed = level >= self::level(horse.vulnerability);
    let horse_name = horse.name.clone();
    if killed {
        horse.dead = true;
    }
    let text = format!(
        "{} → {} on the horse: {}",
        notes,
        level_word(level),
        if killed {
            "the horse dies"
        } else {
            "the horse is unharmed"
        }
    );
    say_harm(
        battle,
        attacker.to_string(),
        format!("{rider_name}'s {horse_name}"),
        text,
    );
    if killed {
        battle.plays.eventful = true;
        battle.say(
            Seen::Clearing,
            CombatLine::HorseKilled {
                horse: horse_name,
                rider: rider_name,
            },
        );
    }
}

/// Kill `victim`: out of the fight, off every sheet, spoils to the killer.
pub fn kill(battle: &mut Battle, victim: FighterId, killer: FighterId) {
    let by = battle.name(killer).to_string();
    battle.fighters[victim].out = Some(Out::Killed { by: by.clone() });
    if let Some(h) = battle.hero_mut(victim) {
        h.dead = true;
    }
    battle.sheet.retain(|d, o| *d != victim && *o != victim);
    battle.plays.eventful = true;
    let name = battle.name(victim).to_string();
    battle.say(Seen::Clearing, CombatLine::Killed { victim: name, by });
    spoils::award(battle, killer, victim);
    super::native_horses::rider_killed(battle, victim, killer);
}
