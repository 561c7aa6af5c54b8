//! Natives who ride (3.1 8.3.1, 8.4.1, 8.4.5m–n, 8.4.9i; horses.toml for
//! the counters; 3.1 10.D.3.2–3.3 with Riding Horses): a mounted native's
//! horse stands in a red box of its own, and its box and move time are
//! the maneuver an attack on the native must intercept or undercut; the
//! native himself attacks from his own box. A hit on him falls on the
//! horse alone while it lives; once it is killed, the later hits of the
//! round (judged against the horse's maneuver) fall on the rider (8.4.9i).
//! With Riding Horses a character may aim at the rider instead, who still
//! must be reached through the horse's maneuver. Native horses never
//! change tactics. In a cave clearing nobody plays a horse: natives fight
//! on foot there.
//!
//! At the start of each Melee step every native horse turns over: those of
//! unhired natives end dark (galloping) side up, those of hired natives
//! turn to their other side (8.4.1); each keeps that side for the rest of
//! the round.
//!
//! realmgm's rulings:
//! - A native's horse enters combat light (walking) side up, as counters
//!   are set up; 3.1 says no other side for it.
//! - A horse killed is dead; its rider fights on foot from then on (the
//!   day state remembers it, `DenizenState::horse_lost`).
//! - When a rider is killed his living horse is spoils: a character who
//!   killed him takes it (inactive, like other spoils); otherwise it is
//!   left in the clearing.
//! - A native's horse move time counts among the move times on a sheet
//!   that an Encounter action must beat (8.4.5k.4 names horse counters).

use serde::{Deserialize, Serialize};

use crate::state::{Item, ItemKind};

use super::Battle;
use super::log::{CombatLine, Seen};
use super::melee::{Maneuver, Sheets};
use super::model::{Direction, FighterId, HeroHorse};

/// A native's mount.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NativeHorse {
    pub horse: HeroHorse,
    /// Galloping (dark) side up; walking (light) side otherwise.
    pub galloping: bool,
}

/// The start of the Melee step: unhired natives' horses turn dark
/// (galloping) side up, hired natives' horses turn over (3.1 8.4.1).
pub fn turn_over(battle: &mut Battle) {
    for fighter in &mut battle.fighters {
        if let super::model::FighterKind::Denizen(den) = &mut fighter.kind
            && let Some(mount) = den.horse.as_mut()
        {
            mount.galloping = den.employer.is_none() || !mount.galloping;
        }
    }
}

impl NativeHorse {
    pub fn move_time(&self) -> u8 {
        if self.galloping {
            self.horse.gallop.move_speed
        } else {
            self.horse.trot.move_speed
        }
    }
}

/// The living horse `id` rides, if he is a mounted native.
pub fn mount<'b>(battle: &'b Battle<'_>, id: FighterId) -> Option<&'b NativeHorse> {
    if battle.in_cave {
        return None;
    }
    battle.denizen(id)?.horse.as_ref().filter(|h| !h.horse.dead)
}

/// The index of a native's horse among the boxes of his parts
/// ([`Sheets::part_boxes`]): after any heads or clubs.
pub fn part_index(battle: &Battle, id: FighterId) -> Option<usize> {
    mount(battle, id)?;
    battle.denizen(id).map(|d| d.parts.len())
}

/// The horse's box: where it was placed, else the box after its rider's.
fn horse_box(battle: &Battle, sheets: &Sheets, id: FighterId, body: Direction) -> Direction {
    part_index(battle, id)
        .and_then(|i| sheets.part_boxes.get(&(id, i)).copied())
        .unwrap_or_else(|| Direction::ALL[usize::from(body.number()) % 3])
}

/// The maneuvers of a mounted native: the horse's first (it decides hits),
/// then, with Riding Horses, his own (2nd-edition optional combat rule 5.2).
pub fn maneuvers(
    battle: &Battle,
    sheets: &Sheets,
    id: FighterId,
    body: Direction,
) -> Option<Vec<Maneuver>> {
    let mount = mount(battle, id)?;
    let mut list = vec![Maneuver {
        direction: horse_box(battle, sheets, id, body),
        time: mount.move_time(),
        horse: true,
    }];
    if battle.rules.riding_horses
        && let Some(den) = battle.denizen(id)
    {
        list.push(Maneuver {
            direction: body,
            time: den.current().move_speed,
            horse: false,
        });
    }
    Some(list)
}

/// Harm `level` falls on the horse of `rider`: the words for the harm
/// line, and the line announcing the horse's death when it dies (said
/// after the harm line).
pub fn horse_hit(battle: &mut Battle, rider: FighterId, level: i8) -> (String, Option<CombatLine>) {
    let rider_name = battle.name(rider).to_string();
    let Some(mount) = battle.denizen_mut(rider).and_then(|d| d.horse.as_mut()) else {
        return ("no horse".into(), None);
    };
    let horse = mount.horse.name.clone();
    if mount.horse.dead {
        // Killed by another attack of this same instant (3.1 8.4.9m).
        return (
            format!("on the {horse}: the horse, killed in this same instant, takes it"),
            None,
        );
    }
    let killed = level >= super::harm::level(mount.horse.vulnerability);
    if !killed {
        return (format!("on the {horse}: the horse is unharmed"), None);
    }
    mount.horse.dead = true;
    battle.plays.eventful = true;
    let line = CombatLine::HorseKilled {
        horse: horse.clone(),
        rider: rider_name,
    };
    (format!("on the {horse}: the horse dies"), Some(line))
}

/// `victim` was killed: his living horse goes to the character who killed
/// him, or stays in the clearing.
pub fn rider_killed(battle: &mut Battle, victim: FighterId, killer: FighterId) {
    // Even one left out of a fight in a cave is his.
    let Some(horse) = battle
        .denizen(victim)
        .and_then(|d| d.horse.as_ref())
        .filter(|m| !m.horse.dead)
        .map(|m| m.horse.name.clone())
    else {
        return;
    };
    let item = Item {
        kind: ItemKind::Horse,
        name: horse.clone(),
    };
    let rider = battle.name(victim).to_string();
    let to = battle.name(killer).to_string();
    let line = if let Some(hero) = battle.hero_mut(killer) {
        hero.taken.push(item);
        CombatLine::HorseTaken {
            horse,
            rider,
            by: Some(to),
        }
    } else {
        battle.dropped.push(item);
        CombatLine::HorseTaken {
            horse,
            rider,
            by: None,
        }
    };
    battle.say(Seen::Clearing, line);
}

#[cfg(test)]
mod tests {
    use crate::combat::{build, script};
    use crate::state::CounterSide;
    use crate::test_support::data;

    /// 3.1 8.4.1: native horses enter combat walking side up; at the
    /// start of each Melee step an unhired native's horse turns dark
    /// (galloping) side up and stays so, a hired native's turns over.
    #[test]
    fn native_horses_turn_over_at_the_start_of_melee_3_1_8_4_1() {
        let unhired = build::denizen(data(), "Lancer 1", CounterSide::Light, None).expect("lancer");
        let mount = unhired.horse.as_ref().expect("Lancer 1 rides");
        assert_eq!(mount.horse.name, "Lancer Pony 1");
        assert_eq!(mount.move_time(), 5);
        let hired =
            build::denizen(data(), "Lancer 2", CounterSide::Light, Some(0)).expect("lancer");
        assert_eq!(hired.horse.as_ref().expect("he rides").move_time(), 5);
        let company =
            build::denizen(data(), "Company 1", CounterSide::Light, None).expect("company");
        assert!(company.horse.is_none());
        let file = r#"
clearing = "CV4"
[[character]]
name = "Amazon"
[[denizen]]
id = "Lancer 1"
[[denizen]]
id = "Lancer 2"
employer = "Amazon"
"#;
        let mut scripted = script::load(data(), "turn_over", file).expect("the file loads");
        let battle = &mut scripted.battle;
        let times = |battle: &crate::combat::Battle| -> Vec<u8> {
            ["Lancer 1", "Lancer 2"]
                .iter()
                .map(|n| {
                    let id = battle.find(n).expect("in the battle");
                    super::mount(battle, id).expect("riding").move_time()
                })
                .collect()
        };
        assert_eq!(times(battle), [5, 5]);
        super::turn_over(battle);
        assert_eq!(times(battle), [3, 4]);
        super::turn_over(battle);
        assert_eq!(times(battle), [3, 5]);
    }
}
