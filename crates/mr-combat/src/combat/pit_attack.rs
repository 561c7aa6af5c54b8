//! Power of the Pit as an attack (3.1 10.C.4, the
//! `advanced_power_of_the_pit` toggle). A character's Power of the Pit,
//! cast in the Encounter step like any spell, is resolved in the Melee step
//! as an attack in the direction he chose, at the speed it was cast: it
//! takes effect on its target only if it hits (straight on him, not his
//! armour or horses), and a miss has no effect but costs its chit as a
//! spent attack spell does. A Demon's Power of the Pit comes to life at its
//! attack time like a character's spell: it cancels a slower spell its
//! target cast that round, and a faster spell naming the Demon cancels the
//! Demon's own for the round. The Imp and the Curse spell stay as the basic
//! rules have them (10.C.4.1).

use std::collections::BTreeSet;

use realmgm_core::dice::Dice;

use super::Battle;
use super::casting::{self, CombatMagic, WaitingCast};
use super::harm::Blow;
use super::log::{CombatLine, Seen};
use super::melee::Attack;
use super::model::FighterId;
use crate::magic::cast;

/// The spell this rule turns into an attack.
const PIT: &str = "Power of the Pit";

/// Hold a character's Power of the Pit as an attack on its target, if the
/// rule is on and `w` is one; whether it was held.
pub fn held(
    battle: &mut Battle,
    magic: &mut CombatMagic,
    w: &WaitingCast,
    target: Option<FighterId>,
    attacks: &mut Vec<Attack>,
) -> bool {
    if !battle.rules.advanced_power_of_the_pit || w.request.spell != PIT {
        return false;
    }
    let Some(target) = target.filter(|&t| battle.in_play(t)) else {
        return false;
    };
    let line = CombatLine::PitAttacks {
        fighter: battle.name(w.caster).to_string(),
        target: battle.name(target).to_string(),
        direction: w.direction,
        speed: w.speed,
    };
    battle.say(Seen::Clearing, line);
    attacks.push(Attack {
        attacker: w.caster,
        label: label(battle, w.caster),
        target,
        direction: w.direction,
        speed: w.speed,
        length: 0,
        blow: Blow {
            level: 0,
            red: false,
            stars: 0,
            striking_bonus: false,
            missile: false,
        },
        weapon: false,
    });
    magic.pits.push(w.clone());
    true
}

fn label(battle: &Battle, caster: FighterId) -> String {
    format!("{PIT} ({})", battle.name(caster))
}

/// A hit by a held Power of the Pit takes effect on its target instead of
/// harm; `false` when `attack` is not one.
pub fn lands(battle: &mut Battle, dice: &mut Dice, attack: &Attack) -> bool {
    if attack.label != label(battle, attack.attacker) {
        return false;
    }
    let Some(mut magic) = battle.magic.take() else {
        return false;
    };
    let Some(at) = magic.pits.iter().position(|w| w.caster == attack.attacker) else {
        battle.magic = Some(magic);
        return false;
    };
    let w = magic.pits.remove(at);
    let mut none = Vec::new();
    // A held Pit lands alone in the Melee step, never at one time with a
    // healing spell, so its group has nothing to settle (3.1 4.6.10f.2).
    let mut alone = super::chit_conflicts::Group::default();
    casting::resolve_one(battle, &mut magic, dice, &w, &mut none, &mut alone);
    battle.magic = Some(magic);
    battle.plays.eventful = true;
    true
}

/// The end of the Melee step: a held Power of the Pit that hit nothing
/// has no effect, and its chit is spent.
pub fn missed(battle: &mut Battle) {
    let Some(mut magic) = battle.magic.take() else {
        return;
    };
    for w in std::mem::take(&mut magic.pits) {
        casting::sync_to_state(battle, &mut magic);
        cast::fizzle(&mut magic.state, &w.request);
        casting::sync_to_battle(battle, &magic);
    }
    battle.magic = Some(magic);
}

/// The Demons on the sheets of the casters of `waiting` whose spell comes
/// to life first: they cancel their targets' slower spells. And the
/// Demons a faster spell names: their own spell is cancelled this round.
/// Gives (casters whose spell a Demon cancelled, with the Demon's speed).
pub fn demons_first(
    battle: &mut Battle,
    waiting: &[WaitingCast],
    targeted_at: &[(FighterId, FighterId, u8)],
) -> Vec<(FighterId, u8)> {
    if !battle.rules.advanced_power_of_the_pit {
        return Vec::new();
    }
    let demon_speed = |battle: &Battle, d: FighterId| {
        let den = battle.denizen(d)?;
        let side = den.current();
        (battle.in_play(d) && side.spell.as_deref() == Some(PIT))
            .then_some(side.speed)
            .flatten()
    };
    let mut silenced = BTreeSet::new();
    for &(_, target, speed) in targeted_at {
        if demon_speed(battle, target).is_some_and(|demon| speed < demon) {
            silenced.insert(target);
        }
    }
    let mut cancelled = Vec::new();
    for w in waiting {
        let demon = battle
            .sheet
            .iter()
            .filter(|&(&d, &owner)| owner == w.caster && !silenced.contains(&d))
            .filter_map(|(&d, _)| demon_speed(battle, d))
            .min();
        if let Some(demon) = demon.filter(|&demon| demon < w.speed) {
            cancelled.push((w.caster, demon));
        }
    }
    battle.plays.pit_silenced.extend(silenced);
    cancelled
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::script;
    use crate::magic::cast::CastRequest;
    use crate::state::magic::CastWith;
    use crate::test_support::data;

    fn battle(rules: &str) -> Battle<'static> {
        let text = format!(
            "clearing = \"CV4\"\nrules = [{rules}]\n[[character]]\nname = \"Witch\"\n\
             [[denizen]]\nid = \"Demon\"\n"
        );
        let mut b = script::load(data(), "test.toml", &text)
            .unwrap_or_else(|e| panic!("{e}"))
            .battle;
        b.sheet.insert(1, 0);
        b
    }

    fn cast(speed: u8) -> WaitingCast {
        WaitingCast {
            caster: 0,
            request: CastRequest {
                caster: 0,
                spell: "Fiery Blast".into(),
                with: CastWith::Chit { index: 0 },
                targets: Vec::new(),
                colour_chit: None,
                day: 7,
            },
            speed,
            with: "MAGIC V4*".into(),
            direction: super::super::model::Direction::Thrust,
        }
    }

    /// 3.1 10.C.4.2: the Demon on her sheet comes to life at its attack
    /// time 2 and cancels the Witch's slower spell; without the rule it
    /// cancels nothing (8.4.3b.2's exception for Demons).
    #[test]
    fn a_demons_power_of_the_pit_cancels_its_targets_slower_spell() {
        let mut on = battle("\"advanced_power_of_the_pit\"");
        assert_eq!(demons_first(&mut on, &[cast(4)], &[]), vec![(0, 2)]);
        let mut off = battle("");
        assert!(demons_first(&mut off, &[cast(4)], &[]).is_empty());
    }

    /// 3.1 10.C.4.2: a spell at the Demon that comes to life first (time 0,
    /// a prepared chit) cancels the Demon's: it makes no attack this round.
    #[test]
    fn a_faster_spell_at_the_demon_cancels_its_power_of_the_pit() {
        let mut b = battle("\"advanced_power_of_the_pit\"");
        let demon = 1;
        assert!(demons_first(&mut b, &[cast(0)], &[(0, demon, 0)]).is_empty());
        assert!(b.plays.pit_silenced.contains(&demon));
        let thrust = super::super::model::Direction::Thrust;
        assert!(super::super::monster_spells::attack(&b, demon, 0, thrust).is_none());
    }
}
