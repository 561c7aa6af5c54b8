//! The spell registry (magic summary "Spell Effects"; the effects summarised in
//! `spells.toml`): every one of the 47 learnable spells mapped to how it is
//! built — a small named function for its effect, an attack for combat to
//! resolve, or an explicit "not implemented yet" with the reason. Spells
//! are grouped by type, one module per type; Prophecy, Enchant Artifact,
//! Phantasm and Deal with Goblins, which the day and the orders read, have
//! a module each with their rulings.
//!
//! A spell whose function returns no effect of its own still acts: [`cast`]
//! puts it in effect on its target, and the rule that reads it (combat, a
//! cast check, the Peer table) asks [`super::cast::active_on`].
//!
//! [`cast`]: super::cast::cast

pub mod deal_with_goblins;
pub mod enchant_artifact;
pub mod phantasm;
pub mod prophecy;
#[cfg(test)]
mod tests;
mod type_i;
mod type_ii;
mod type_iii;
mod type_iv;
mod type_v;
mod type_vi;
mod type_vii;
mod type_viii;
pub mod weather;

use crate::board::ClearingId;
use crate::data::GameData;
use crate::data::spells::Spell;
use crate::state::{ChitCondition, MrState, Whereabouts};
use crate::tables::{DieTable, Modifiers, TableRoll, read_roll};
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;

use super::MagicError;
use super::effect::SpellEffect;
use crate::state::magic::Aim;

/// What a spell's effect function works with.
pub struct Ctx<'a> {
    pub state: &'a mut MrState,
    pub data: &'a GameData,
    pub rules: &'a Rules,
    pub dice: &'a mut Dice,
    pub caster: usize,
    pub spell: &'a Spell,
    pub targets: &'a [Aim],
    pub speed: u8,
    pub day: u32,
    /// What the spell made of its target, kept with the spell in effect.
    pub detail: Option<String>,
    /// Set by a move or phase spell that did all it does at once: it
    /// expires as it is cast, like an instant spell.
    pub spent: bool,
}

pub type SpellFn = fn(&mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError>;

/// How a spell is built.
#[derive(Clone, Copy)]
pub enum Build {
    /// Its effect function.
    Effect(SpellFn),
    /// An attack spell: combat aims and resolves it.
    Attack,
    /// Not built yet, with why.
    NotBuilt(&'static str),
}

/// How the spell `name` is built; `None` for a name that is not a spell.
pub fn build_of(name: &str) -> Option<Build> {
    type_i::build(name)
        .or_else(|| type_ii::build(name))
        .or_else(|| type_iii::build(name))
        .or_else(|| type_iv::build(name))
        .or_else(|| type_v::build(name))
        .or_else(|| type_vi::build(name))
        .or_else(|| type_vii::build(name))
        .or_else(|| type_viii::build(name))
        .or(match name {
            "Flying Carpet Spell" => Some(Build::NotBuilt(
                "it is the Flying Carpet's own spell; flying with the carpet is done by the FLY activity",
            )),
            // Cast by the Dragonfang Necklace; in combat the dragon fights
            // for its caster (`combat::spell_effects::control`).
            "Control Dragon" => Some(Build::Effect(control)),
            "See/Change Weather" => Some(Build::Effect(weather::see_or_change)),
            _ => None,
        })
}

/// Whether a spell can be cast and resolved now.
pub fn is_built(name: &str) -> bool {
    matches!(build_of(name), Some(Build::Effect(_) | Build::Attack))
}

/// One line on how far the engine builds the spell (`data show spells`).
pub fn status(name: &str) -> String {
    match build_of(name) {
        Some(Build::Effect(_)) => "engine: built".into(),
        Some(Build::Attack) => "engine: built (an attack for combat to resolve)".into(),
        Some(Build::NotBuilt(why)) => format!("engine: not implemented yet ({why})"),
        None => "engine: not in the spell registry".into(),
    }
}

/// A spell that acts only by being in effect on its target.
fn in_effect(_: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    Ok(Vec::new())
}

/// A control spell (Control Bats, Guide Spider or Octopus, Control
/// Dragon): in effect for the day; in combat the monsters fight for the
/// caster (`combat::spell_effects::control`), and in the next Daylight
/// each takes a turn its controller records (3.1 6.2.5, `day::leader_turn`).
fn control(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    in_effect(ctx)
}

/// The attack of an attack spell, for combat (3.1 8.4.5l): its harm,
/// stars, length and missile from the List of Spells, at the speed it was
/// cast. Under the Optional Missile Table (10.D.3.4.5) a Fiery Blast or
/// Lightning Bolt cast at speed 0 (a prepared MAGIC chit, an artifact or
/// book) loses one sharpness star, besides any lost to armour.
///
/// # Errors
/// The spell has no attack values in the data.
pub fn attack(ctx: &Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    let a = ctx
        .spell
        .attack
        .ok_or_else(|| MagicError::not_built(&ctx.spell.name, "it has no attack values"))?;
    let speed = a.speed.unwrap_or(ctx.speed);
    let prepared_blast = speed == 0
        && matches!(ctx.spell.name.as_str(), "Fiery Blast" | "Lightning Bolt")
        && crate::rules::optional_missile_table(ctx.rules);
    let stars = if prepared_blast {
        a.stars.saturating_sub(1)
    } else {
        a.stars
    };
    let targets = match ctx.targets.first() {
        // An attack on the clearing smashes everyone in it.
        Some(Aim::Clearing { clearing }) => everyone_in(ctx.state, clearing),
        _ => ctx.targets.to_vec(),
    };
    Ok(vec![SpellEffect::Attack {
        spell: ctx.spell.name.clone(),
        harm: a.harm,
        stars,
        length: a.length,
        speed,
        missile: a.missile,
        targets,
    }])
}

/// Every character and denizen in `clearing`.
pub fn everyone_in(state: &MrState, clearing: &ClearingId) -> Vec<Aim> {
    let mut all: Vec<Aim> = state
        .characters
        .iter()
        .filter(|c| &c.position == clearing)
        .map(|c| Aim::Character {
            name: c.name.clone(),
        })
        .collect();
    all.extend(
        state
            .denizens
            .iter()
            .filter(
                |(_, d)| matches!(&d.at, Whereabouts::Clearing { clearing: at } if at == clearing),
            )
            .map(|(id, _)| Aim::Denizen { id: id.clone() }),
    );
    all
}

impl Ctx<'_> {
    pub fn caster_name(&self) -> String {
        self.state.characters[self.caster].name.clone()
    }

    pub fn here(&self) -> ClearingId {
        self.state.characters[self.caster].position.clone()
    }

    /// Roll on `table` for this spell (two dice, the higher counts).
    pub fn roll<T: DieTable>(&mut self, table: &T) -> (TableRoll<T::Outcome>, SpellEffect)
    where
        T::Outcome: std::fmt::Display,
    {
        let purpose = format!("magic/{}/{}", self.spell.name, self.caster_name());
        let mods = Modifiers::none();
        let record = self.dice.roll(&purpose, mods.dice_count());
        let roll = read_roll(table, record, &mods);
        let effect = SpellEffect::Rolled {
            purpose,
            faces: roll.record.faces,
            result: roll.result.to_string(),
        };
        (roll, effect)
    }

    /// The index of the character the `n`-th target names.
    pub fn character(&self, n: usize) -> Result<usize, MagicError> {
        match self.targets.get(n) {
            Some(Aim::Character { name }) => self
                .state
                .characters
                .iter()
                .position(|c| &c.name == name)
                .ok_or_else(|| self.bad_target(n, "there is no such character")),
            _ => Err(self.bad_target(n, "it must be a character")),
        }
    }

    pub fn bad_target(&self, n: usize, reason: &str) -> MagicError {
        MagicError::BadTarget {
            spell: self.spell.name.clone(),
            target: self
                .targets
                .get(n)
                .map_or_else(|| "nothing".to_string(), ToString::to_string),
            reason: reason.to_string(),
        }
    }

    /// Heal every chit of character `who`: wounded and fatigued come back.
    pub fn heal_all(&mut self, who: usize) -> SpellEffect {
        let c = &mut self.state.characters[who];
        for chit in &mut c.chits {
            chit.condition = ChitCondition::Active;
        }
        SpellEffect::Healed {
            character: c.name.clone(),
        }
    }

    /// Kill a target: a denizen's counter dies, and a hired one leaves his
    /// employer's service (a leader's load lies where he fell); a
    /// character's death is reported for the combat engine, which owns
    /// death.
    pub fn kill(&mut self, target: &Aim) -> SpellEffect {
        if let Aim::Denizen { id } = target
            && self.state.denizens.contains_key(id)
        {
            self.state.release_leader(id);
            self.state.dismiss(id);
            if let Some(d) = self.state.denizens.get_mut(id) {
                d.at = Whereabouts::Dead;
            }
        }
        SpellEffect::Killed {
            target: target.clone(),
        }
    }
}
