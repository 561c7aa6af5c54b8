//! Spells that act on the same action chits at the same moment (3.1
//! 4.6.10f.2): Make Whole (and a Wish for Health, its equal) against the
//! Power of the Pit results that act on action chits (Terror, Blight,
//! Forget). These spells are equal in strength, so where both act on one
//! chit they nullify each other there and the chit stays as it was; on every
//! other chit each works as it would alone.
//!
//! Spells with one completion time start working together (3.1 8.4.3), so
//! the casts of one speed make a group. Before a group the chits' conditions
//! are noted; the group's casts then work one after the other as usual, and
//! after it every chit that a healing and a Pit result both acted on for the
//! same character gets its noted condition back.
//!
//! Rulings: Terror acts on every Light or Medium MOVE and FIGHT chit,
//! whatever its condition (3.1's own example keeps them all unchanged);
//! Blight and Forget act only on the chits that were active, so against
//! them the healing stands everywhere. A MAGIC chit that cast a spell of the
//! group, and a colour chit played for one, fatigue as casting says, never
//! given back.

use std::collections::BTreeMap;

use crate::data::characters::ActionChit;
use crate::magic::effect::SpellEffect;
use crate::state::magic::CastWith;
use crate::state::{CharacterChit, ChitCondition};
use crate::tables::magic::PitEvent;

use super::Battle;
use super::casting::{CombatMagic, WaitingCast, sync_to_battle, sync_to_state};
use super::log::{CombatLine, Seen};

/// The casts of one completion time, as they work.
#[derive(Debug, Default)]
pub struct Group {
    speed: Option<u8>,
    /// Each character's chits before the group (by seat).
    before: BTreeMap<usize, Vec<CharacterChit>>,
    /// Characters healed in the group, with the spell that healed them.
    healed: Vec<(String, String)>,
    /// Pit results of the group and the characters they acted on.
    pits: Vec<(PitEvent, Vec<String>)>,
    /// The MAGIC chits that cast the group's spells: (seat, chit index).
    casting: Vec<(usize, usize)>,
    /// Colour chits played for the group's spells: (character, chit).
    colour: Vec<(String, String)>,
}

impl Group {
    /// Cast `w` is next: a new completion time settles the group before
    /// and starts another.
    pub fn next(&mut self, battle: &mut Battle, magic: &mut CombatMagic, w: &WaitingCast) {
        if self.speed != Some(w.speed) {
            self.settle(battle, magic);
            sync_to_state(battle, magic);
            *self = Group {
                speed: Some(w.speed),
                before: magic
                    .state
                    .characters
                    .iter()
                    .enumerate()
                    .map(|(seat, c)| (seat, c.chits.clone()))
                    .collect(),
                ..Group::default()
            };
        }
        if let CastWith::Chit { index } = w.request.with {
            self.casting.push((w.request.caster, index));
        }
    }

    /// What cast `w` did when it came to life.
    pub fn note(&mut self, w: &WaitingCast, effects: &[SpellEffect]) {
        let pit = effects.iter().find_map(|e| match e {
            SpellEffect::Rolled { result, .. } if w.request.spell == "Power of the Pit" => {
                [PitEvent::Terror, PitEvent::Blight, PitEvent::Forget]
                    .into_iter()
                    .find(|p| p.to_string() == *result)
            }
            _ => None,
        });
        let mut touched = Vec::new();
        for effect in effects {
            match effect {
                SpellEffect::Healed { character } => self
                    .healed
                    .push((character.clone(), w.request.spell.clone())),
                SpellEffect::ColourChitPlayed { character, chit } => {
                    self.colour.push((character.clone(), chit.clone()));
                }
                SpellEffect::ChitsWounded { character, .. }
                | SpellEffect::ChitsFatigued { character, .. } => touched.push(character.clone()),
                _ => {}
            }
        }
        if let Some(pit) = pit {
            self.pits.push((pit, touched));
        }
    }

    /// After the group: chits a healing and a Pit result both acted on are
    /// as they were before the group (a colour chit stays one); the healed character's other
    /// chits are active.
    pub fn settle(&mut self, battle: &mut Battle, magic: &mut CombatMagic) {
        let mut lines = Vec::new();
        for (character, healing) in &self.healed {
            let Some(seat) = magic
                .state
                .characters
                .iter()
                .position(|c| &c.name == character)
            else {
                continue;
            };
            let Some(before) = self.before.get(&seat) else {
                continue;
            };
            for (pit, on) in &self.pits {
                if !on.contains(character) {
                    continue;
                }
                let mut kept = Vec::new();
                let chits = &mut magic.state.characters[seat].chits;
                for (index, (chit, was)) in chits.iter_mut().zip(before).enumerate() {
                    let acts = ActionChit::parse(&chit.chit).is_ok_and(|a| pit.touches(&a))
                        && (*pit == PitEvent::Terror || was.condition == ChitCondition::Active);
                    let spent = self.casting.contains(&(seat, index))
                        || self
                            .colour
                            .contains(&(character.clone(), chit.chit.clone()));
                    if spent {
                        continue;
                    }
                    if acts {
                        *chit = was.clone();
                        kept.push(chit.chit.clone());
                    } else {
                        // Only the healing acts here, whichever of the two
                        // happened to be worked first.
                        chit.condition = ChitCondition::Active;
                    }
                }
                lines.push(CombatLine::ChitsUnchanged {
                    character: character.clone(),
                    spells: [
                        healing.clone(),
                        format!("Power of the Pit's {}", word(*pit)),
                    ],
                    chits: kept,
                });
            }
        }
        if !lines.is_empty() {
            sync_to_battle(battle, magic);
        }
        for line in lines {
            battle.say(Seen::Clearing, line);
        }
        self.healed.clear();
        self.pits.clear();
    }
}

/// The result's name as a sentence says it.
fn word(pit: PitEvent) -> &'static str {
    match pit {
        PitEvent::FieryChasm => "fiery chasm",
        PitEvent::CarriedAway => "carried away",
        PitEvent::Terror => "terror",
        PitEvent::Blight => "blight",
        PitEvent::Forget => "forget",
        PitEvent::Rust => "rust",
    }
}
