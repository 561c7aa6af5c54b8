//! Harm (3.1 8.4.9): the level of a hit is its harm letter plus a level per
//! sharpness star (less one star for armour, 8.4.9e), one more for a
//! striking weapon played with a heavier Fight chit (8.4.9f); the Missile
//! table for missiles (8.4.9g) or, with the optional combat rules, the
//! Optional Missile table and the Fumble table (10.D.3.4); kills against
//! vulnerability, wounds, armour damaged or destroyed (8.4.9h–n),
//! Penetrating Armor (10.D.3.5); horses taking the hits of their riders
//! (8.4.9i–j); attacks of one instant striking what stood when it began
//! (8.4.9m); Tremendous monsters turning red side up when they hit and
//! killing outright when they hit red side up (8.4.7c, 10.D.3.4); a Wish
//! for Strength's Tremendous blow (4.6.8b.3).

use crate::data::armor::ArmorKind;
use crate::data::terms::Strength;
use crate::data::{GameData, base_name};
use crate::state::CounterSide;
use crate::tables::missile::Missile;
use crate::tables::optional_combat::{
    Fumble, FumbleResult, ManeuverFaced, OptionalMissile, attack_time_modifiers,
};
use std::collections::BTreeSet;

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

/// What stood when an instant of the Melee step began: the fighters whose
/// horse lived and the armour pieces not destroyed. Attacks of one instant
/// (same length and time) all strike a horse or armour piece that stood
/// then, even one destroyed by another of them (3.1 8.4.9m).
#[derive(Clone, Debug, Default)]
pub struct Standing {
    horses: BTreeSet<FighterId>,
    armor: BTreeSet<(FighterId, usize)>,
    /// Denizens in the fight: one killed in the instant is still struck
    /// by the instant's other attacks, which may share the kill (3.1
    /// 8.7.1b–c).
    denizens: BTreeSet<FighterId>,
}

impl Standing {
    pub fn now(battle: &Battle) -> Standing {
        let mut standing = Standing::default();
        for id in 0..battle.fighters.len() {
            if let Some(hero) = battle.hero(id) {
                if hero.horse.as_ref().is_some_and(|h| !h.dead) {
                    standing.horses.insert(id);
                }
                for (i, piece) in hero.armor.iter().enumerate() {
                    if !piece.destroyed {
                        standing.armor.insert((id, i));
                    }
                }
            } else {
                if battle.in_play(id) {
                    standing.denizens.insert(id);
                }
                if super::native_horses::mount(battle, id).is_some() {
                    standing.horses.insert(id);
                }
            }
        }
        standing
    }

    /// Whether `id`'s horse stood when the instant began.
    pub fn horse(&self, id: FighterId) -> bool {
        self.horses.contains(&id)
    }
}

/// Resolve one hit.
pub fn strike(
    battle: &mut Battle,
    dice: &mut Dice,
    attack: &Attack,
    faced: &[ManeuverFaced],
    horse: bool,
    shield: Option<super::model::Direction>,
    standing: &Standing,
) {
    let target = attack.target;
    // A denizen another character killed in this instant is struck all the
    // same by a character's attack of the instant: a kill shares it.
    let killed_now = standing.denizens.contains(&target)
        && battle.hero(attack.attacker).is_some()
        && match &battle.fighters[target].out {
            Some(Out::Killed { by }) => battle
                .find(by)
                .is_some_and(|k| k != attack.attacker && battle.hero(k).is_some()),
            _ => false,
        };
    if !(battle.in_play(target) || killed_now)
        || super::monster_spells::casts(battle, dice, attack)
        || super::pit_attack::lands(battle, dice, attack)
    {
        return;
    }
    let attacker = attack.label.clone();
    let target_name = battle.name(target).to_string();
    if attack.blow.red {
        say_harm(
            battle,
            "8.4.7d",
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
            h.armor.iter().enumerate().position(|(i, a)| {
                standing.armor.contains(&(target, i)) && a.covers(attack.direction, shield)
            })
        });
    let native_mount = battle
        .denizen(target)
        .and_then(|d| d.horse.as_ref())
        .filter(|_| standing.horse(target) && !battle.in_cave)
        .map(|m| m.horse.armored);
    let on_horse = horse
        && (native_mount.is_some() || (battle.hero(target).is_some() && standing.horse(target)));
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
    // A Wish for Strength's attack is Tremendous with no table roll
    // (3.1 10.D.3.4), as a red-side-up monster's kill is above.
    let wished = battle.plays.wished.contains(&attack.attacker)
        && attack.label == battle.name(attack.attacker);
    let change = if wished {
        None
    } else {
        table_change(battle, dice, attack, faced)
    };
    if let Some((levels, note)) = change {
        level += levels;
        notes.push_str("; ");
        notes.push_str(&note);
    }
    // Joined in place: a line for every hit of every round.
    let summary = |notes: &str, level: i8| [notes, " → ", level_word(level)].concat();
    if level <= 0 {
        let text = summary(&notes, level) + ": no effect";
        say_harm(
            battle,
            if battle.denizen(target).is_some() {
                "8.4.9h"
            } else {
                "8.4.9n"
            },
            attacker,
            target_name,
            text,
        );
        return;
    }
    if killed_now && on_horse {
        // The hit falls on the dead rider's horse: it kills no rider.
        return;
    }
    if on_horse && native_mount.is_some() {
        let text = summary(&notes, level);
        let (result, death) = super::native_horses::horse_hit(battle, target, level);
        say_harm(
            battle,
            "8.4.9i",
            attacker,
            target_name,
            format!("{text} {result}"),
        );
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
                "8.4.9h",
                attacker,
                target_name,
                summary(&notes, level) + ": kills",
            );
            kill(battle, target, attack.attacker);
        } else {
            say_harm(
                battle,
                "8.4.9h",
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
    // Only a missile attack beyond Tremendous finds the unarmoured spot and
    // kills through armour (3.1 8.4.9j.2); a striking blow that far (the
    // Fumble table can raise one) hits armour as any other (8.4.9j.2).
    if level >= 5 && attack.blow.missile {
        say_harm(
            battle,
            "8.4.9j.2",
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
                Ok(left) => level = left,
                Err(wounded) => {
                    let text = if wounded {
                        ": equals his last armour, one wound (Penetrating Armor)"
                    } else {
                        ": stopped by armour (Penetrating Armor)"
                    };
                    say_harm(
                        battle,
                        "10.D.3.5",
                        attacker,
                        target_name,
                        summary(&notes, level) + text,
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
            say_harm(
                battle,
                "8.4.9j",
                attacker,
                target_name,
                summary(&notes, level) + text,
            );
            armor_hit(battle, target, index, level);
            return;
        }
    }
    if level == self::level(vulnerability) && battle.rules.serious_wounds {
        let count = serious_wounds(battle, dice, target, &target_name);
        say_harm(
            battle,
            "10.A.1",
            attacker,
            target_name,
            summary(&notes, level)
                + &format!(": equals the vulnerability, {count} wounds (Serious Wounds)"),
        );
    } else if level >= self::level(vulnerability) {
        say_harm(
            battle,
            "8.4.9n",
            attacker,
            target_name,
            summary(&notes, level) + ": kills",
        );
        kill(battle, target, attack.attacker);
    } else {
        wound(battle, target);
        say_harm(
            battle,
            "8.4.9n",
            attacker,
            target_name,
            summary(&notes, level) + ": one wound",
        );
    }
}

/// The level change from the Missile, Optional Missile or Fumble table.
/// The optional tables take the time modifiers fixed when the hit was
/// judged (`faced`, 3.1 10.D.3.4.3), whatever happened since.
fn table_change(
    battle: &mut Battle,
    dice: &mut Dice,
    attack: &Attack,
    faced: &[ManeuverFaced],
) -> Option<(i8, String)> {
    let what = ["harm/", attack.label.as_str()].concat();
    let own = battle
        .hero(attack.attacker)
        .map(|h| h.missile.clone())
        .unwrap_or_default();
    let timing = || attack_time_modifiers(attack.speed, faced);
    if attack.blow.missile {
        let roll = if battle.rules.optional_missile_table {
            battle.roll_table(dice, &OptionalMissile, &what, &own.merged(timing()))
        } else {
            battle.roll_table(dice, &Missile, &what, &own)
        };
        return Some((roll.result.levels, roll.describe()));
    }
    if battle.rules.fumble && attack.weapon {
        let roll = battle.roll_table(dice, &Fumble, &what, &timing());
        let levels = match roll.result {
            FumbleResult::Harm(n) => n,
            FumbleResult::Negligible => -10,
        };
        return Some((levels, roll.describe()));
    }
    None
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

/// A harm line citing the 3.1 section that decided the hit's effect.
fn say_harm(
    battle: &mut Battle,
    rule: &'static str,
    attacker: String,
    target: String,
    result: String,
) {
    battle.say(
        Seen::Clearing,
        CombatLine::Harm {
            attacker,
            target,
            result,
            rule: rule.to_string(),
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
/// destroyed when above it or when already damaged (3.1 8.4.9k). A
/// destroyed treasure armour counter leaves the game and its owner gains
/// the gold listed for it (8.4.9k.4); an ordinary one goes back intact to
/// its natives' box (8.4.9k.3, [`regenerates_with`]).
fn armor_hit(battle: &mut Battle, target: FighterId, index: usize, level: i8) {
    let character = battle.name(target).to_string();
    let data = battle.data;
    let Some(piece) = battle.hero_mut(target).and_then(|h| h.armor.get_mut(index)) else {
        return;
    };
    let toughness = self::level(piece.toughness);
    // Destroyed earlier in this instant: it took the hit, nothing more.
    if level < toughness || piece.destroyed {
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
            character: character.clone(),
            armor: armor.clone(),
            destroyed,
        },
    );
    if !destroyed {
        return;
    }
    match regenerates_with(data, &armor) {
        Some(group) => battle.say(
            Seen::Clearing,
            CombatLine::ArmorReturned {
                // Its own game's natives (3.1 10.E.7.8).
                group: crate::data::realms::Realm::of_name(&armor).mark(group),
                armor,
            },
        ),
        None => {
            let gold = data
                .armor
                .iter()
                .find(|a| a.name == base_name(&armor) || a.name == armor)
                .and_then(|a| a.price.destroyed)
                .unwrap_or(0);
            if let Some(hero) = battle.hero_mut(target) {
                hero.gold += i32::from(gold);
            }
            battle.say(
                Seen::Clearing,
                CombatLine::ArmorShattered {
                    character,
                    armor,
                    gold,
                },
            );
        }
    }
}

/// The native group in whose box a destroyed ordinary armour counter
/// reappears intact (3.1 8.4.9k.3): helmets and shields the Soldiers',
/// breastplates the Guard's, suits of armour the Order's. `None` for
/// treasure armour, which leaves the game (8.4.9k.4).
pub fn regenerates_with(data: &GameData, armor: &str) -> Option<&'static str> {
    let piece = data
        .armor
        .iter()
        .find(|a| a.name == base_name(armor) || a.name == armor)?;
    if piece.treasure {
        return None;
    }
    Some(match piece.kind {
        ArmorKind::Helmet | ArmorKind::Shield => "Soldiers",
        ArmorKind::Breastplate => "Guard",
        ArmorKind::Suit => "Order",
    })
}

/// Penetrating Armor (3.1 10.D.3.5): the missile passes each piece it
/// beats, losing a level per piece (the one sharpness star for armour is
/// already off, however many pieces it meets, 10.D.3.5.2); it stops at a
/// piece it cannot beat. Harm equal to a piece wounds only when that piece
/// is the last in the way (10.D.3.5.1). Returns the harm left for the
/// character, or, when the armour stops it, whether it wounded him.
fn penetrate(
    battle: &mut Battle,
    target: FighterId,
    attack: &Attack,
    shield: Option<super::model::Direction>,
    mut level: i8,
) -> Result<i8, bool> {
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
    let last = pieces.len().saturating_sub(1);
    for (index, toughness) in pieces.into_iter().enumerate() {
        if toughness > level {
            return Err(false);
        }
        if toughness == level {
            let wounded = index == last;
            if wounded {
                wound(battle, target);
            }
            return Err(wounded);
        }
        level -= 1;
    }
    Ok(level)
}

fn horse_hit(battle: &mut Battle, rider: FighterId, attacker: &str, level: i8, notes: &str) {
    let rider_name = battle.name(rider).to_string();
    let Some(horse) = battle.hero_mut(rider).and_then(|h| h.horse.as_mut()) else {
        return;
    };
    let was_dead = horse.dead;
    let killed = level >= self::level(horse.vulnerability) && !was_dead;
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
        } else if was_dead {
            "the horse, killed in this same instant, takes it"
        } else {
            "the horse is unharmed"
        }
    );
    say_harm(
        battle,
        if was_dead { "8.4.9m" } else { "8.4.9j.1" },
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
    if matches!(battle.fighters[victim].out, Some(Out::Killed { .. })) {
        // Killed earlier in this same instant: the kill is shared.
        spoils::award(battle, killer, victim);
        return;
    }
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

#[cfg(test)]
mod tests {
    use super::super::script;
    use crate::test_support::data;

    /// 3.1 4.6.8b.3 and 10.D.3.4: an attack with the Fight chit a Wish for
    /// Strength waits for inflicts Tremendous harm whatever the weapon (here
    /// the dagger, Medium otherwise) and rolls on no optional table: it
    /// kills the Tremendous Giant, and the wish is used.
    #[test]
    fn a_wish_for_strength_strikes_tremendous_with_no_table_roll_3_1_10_d_3_4() {
        let file = r#"
clearing = "CV4"
rules = ["fumble"]
[[character]]
name = "Amazon"
weapon = "none"
tactics = "target Giant 1, attack with FIGHT M4*, attack thrust, maneuver with MOVE M3*, maneuver duck"
[[denizen]]
id = "Giant 1"
[dice]
"combat/CV4/round1/reposition" = [[4]]
"combat/CV4/round1/tactics" = [[1, 1], [1, 1], [1, 1]]
"combat/CV4/round1/harm/Amazon" = [[6, 6]]
"#;
        let mut scripted = script::load(data(), "wish", file).expect("the file loads");
        let amazon = scripted.battle.find("Amazon").expect("the Amazon");
        scripted
            .battle
            .hero_mut(amazon)
            .expect("a character")
            .wish_strength = true;
        let outcome = scripted.run().expect("the battle runs");
        let log = script::log_text(&scripted.battle);
        assert_eq!(outcome.killed, vec!["Giant 1".to_string()], "{log:#?}");
        assert!(
            log.iter()
                .any(|l| l.ends_with("Tremendous before tables → Tremendous: kills")),
            "{log:#?}"
        );
        assert!(!log.iter().any(|l| l.contains("Fumble")), "{log:#?}");
        assert!(!scripted.battle.hero(amazon).expect("she").wish_strength);
        // The harm line cites the rule that decided it: a denizen killed.
        let cited: Vec<&str> = scripted
            .battle
            .log
            .iter()
            .filter(|l| matches!(l.line, super::CombatLine::Harm { .. }))
            .map(|l| l.line.rule())
            .collect();
        assert_eq!(cited, ["8.4.9h"]);
    }
}
