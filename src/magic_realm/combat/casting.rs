//! Where casting a spell in combat plugs in (seed 000 III.A.4.c, seed 001).
//! The magic rules are built elsewhere; until they are, casting is refused
//! with a clear reason, never ignored.

use super::Battle;
use super::model::FighterId;

/// The reason given while spells cannot be cast in combat.
pub const NOT_BUILT: &str = "casting spells in combat is not implemented yet (the magic rules)";

/// Cast `spell` as character `caster`'s Encounter action. The magic rules
/// replace this body: check the MAGIC chit or artifact, the colour magic,
/// tie up the chit and spell, and record the spell to go into effect in
/// the Melee step.
///
/// # Errors
/// Why the spell was not cast.
pub fn cast_in_combat(battle: &mut Battle, caster: FighterId, spell: &str) -> Result<(), String> {
    let _ = (battle, caster, spell);
    Err(NOT_BUILT.to_string())
}
