//! Phantasm (type VI, purple, a character, for a day; magic summary "Spell
//! Effects", `spells.toml`): an unseen phantasm that its owner moves on its
//! own to search (Peer only) and do Spell phases elsewhere.
//!
//! Rulings (the smallest faithful version, on the pattern of the Witch's
//! familiar, `day/familiar.rs`):
//! - The phantasm appears in the clearing of the spell's target (the
//!   character who owns it, often the caster himself) when the spell takes
//!   effect, and vanishes when the spell expires (at Sunset of the next
//!   day, or broken).
//! - On the day after it is cast its owner's orders give it a turn of its
//!   own on a `Phantasm:` line, done right after his turn: four phases (two
//!   in caves), no bonus phases; it moves along roads and the hidden paths
//!   and secret passages he knows, a mountain taking two moves in a row.
//! - A search phase is a Peer from its clearing; what it finds is his. An
//!   EM or E phase is his Spell phase done from its clearing (a `tile`
//!   note enchants the phantasm's tile; otherwise one of his MAGIC chits;
//!   an EM by either of them readies an E by either that day).
//!   Other activities are lost with the reason.
//! - Nobody sees it: it never blocks or is blocked, and summons nothing.

use crate::board::ClearingId;
use crate::state::MrState;

use super::Ctx;
use crate::magic::MagicError;
use crate::magic::effect::SpellEffect;
use crate::state::magic::Aim;

pub const NAME: &str = "Phantasm";

/// The phantasm appears where its owner stands. The spell in effect gets
/// the id `next_id` holds now: cast puts it in effect right after this.
pub fn appear(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    let owner = ctx.character(0)?;
    let at = ctx.state.characters[owner].position.clone();
    let id = ctx.state.magic.next_id;
    ctx.state.magic.phantasms.insert(id, at.clone());
    Ok(vec![SpellEffect::ForGm {
        text: format!(
            "a phantasm of the {} appears in {at}; it takes its own turn tomorrow (`Phantasm:` line)",
            ctx.state.characters[owner].name
        ),
    }])
}

/// The phantasm character `who` owns: its spell id and clearing.
pub fn of(state: &MrState, who: usize) -> Option<(u32, ClearingId)> {
    let me = Aim::Character {
        name: state.characters.get(who)?.name.clone(),
    };
    state
        .magic
        .in_effect
        .iter()
        .filter(|s| s.spell == NAME && s.targets.first() == Some(&me))
        .find_map(|s| {
            state
                .magic
                .phantasms
                .get(&s.id)
                .map(|at| (s.id, at.clone()))
        })
}
