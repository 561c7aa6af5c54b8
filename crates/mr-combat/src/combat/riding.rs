//! The Riding Horses optional rule (2nd-edition optional combat rule 5.2–5.3): a character with a
//! living horse must maneuver with it and may add a MOVE chit of his own
//! (which only alters the harm on the optional tables); he cannot run or
//! charge with MOVE chits. An attacker picks the rider or the horse: an
//! attack on the rider must still beat the horse's maneuver and then harms
//! the rider; monsters and natives always strike the horse.

use super::Battle;
use super::model::FighterId;

/// The rule is on and `who` has a living horse: he rides.
pub fn rides(battle: &Battle, who: FighterId) -> bool {
    battle.rules.riding_horses
        && battle
            .hero(who)
            .and_then(|h| h.horse.as_ref())
            .is_some_and(|h| !h.dead)
}

/// Whether a hit on a target who maneuvered with his horse falls on the
/// horse: always in the basic rules and for denizens; with Riding Horses
/// only when the attacking character aimed at the horse.
pub fn hits_horse(battle: &Battle, attacker: FighterId, aimed_at_horse: bool) -> bool {
    !battle.rules.riding_horses || battle.hero(attacker).is_none() || aimed_at_horse
}
