//! Learning a spell from a visitor (`data/setup_card.toml` "Shaman/Warlock/Crone
//! hold 2 spells each", §2 Meeting table; magic summary "Types of Spells"): a
//! character in a Trade phase in the clearing of the Shaman, the Warlock or
//! the Crone may learn one of the spells it holds. The order is the `Buy:`
//! line naming the spell (`Buy: Fog up to 20`).
//!
//! Rulings (the seeds give no procedure):
//! * It is a Trade phase dealt like a purchase: the Meeting table with the
//!   visitor's relationship (no drinks: a visitor has no group), at a basic
//!   price of [`SPELL_PRICE`] gold; Price ×N multiplies it, the `Buy:`
//!   line's "up to" caps it, and the other results act as for a purchase.
//! * He must be able to learn it before anything is rolled (a MAGIC chit
//!   of its type, not known yet, fewer than 14 spells: `spellbook::may_learn`);
//!   otherwise the phase is lost with the reason.
//! * The visitor teaches, it does not sell: it keeps the spell, and may
//!   teach it again to another character.

use crate::magic::events::MagicEvent;
use crate::magic::spellbook::{self, find_spell, may_learn};
use crate::orders::{BoonChoice, Settle};
use crate::tables::meeting::MeetingUse;

use super::events::Happening;
use super::meeting::{Deal, DealStep, negotiate, pay};
use super::trade::TradeEvent;
use super::{Day, PhaseOutcome};

/// The basic price of a spell taught by a visitor, before the Meeting
/// table multiplies it.
pub const SPELL_PRICE: u32 = 10;

fn wrap(step: DealStep) -> Happening {
    Happening::Trade(TradeEvent::Deal(step))
}

/// A spell a `Buy:` line names and a visitor here holds, with the most he
/// will pay for it.
pub struct SpellWanted<'a> {
    pub visitor: &'a str,
    pub spell: &'a str,
    pub max_gold: Option<u32>,
}

/// A Trade phase in which `who` learns `wanted.spell` from the visitor.
pub fn learn_from_visitor(day: &mut Day<'_>, who: usize, wanted: &SpellWanted<'_>) -> PhaseOutcome {
    let spell = match find_spell(day.data, wanted.spell) {
        Ok(spell) => spell,
        Err(e) => {
            return PhaseOutcome::Lost {
                reason: e.to_string(),
            };
        }
    };
    if let Err(e) = may_learn(day.data, day.rules, &day.state.characters[who], spell) {
        return PhaseOutcome::Lost {
            reason: format!("the {} cannot teach it: {e}", wanted.visitor),
        };
    }
    let deal = Deal {
        group: wanted.visitor,
        members_present: 0,
        activity: MeetingUse::Trade,
        price: SPELL_PRICE,
        max_gold: wanted.max_gold,
        drinks_up_to: None,
        insult: Settle::Pay,
        challenge: Settle::Pay,
        boon: BoonChoice::Pay,
    };
    let Some(gold) = negotiate(day, who, &deal, wrap) else {
        return PhaseOutcome::Done;
    };
    let name = day.state.characters[who].name.clone();
    let event = match spellbook::learn(
        day.data,
        day.rules,
        &mut day.state.characters[who],
        &spell.name,
    ) {
        Ok(()) => {
            pay(day, who, gold);
            let observers = day.seen_acting(who);
            day.emit(
                observers,
                Happening::Trade(TradeEvent::Taught {
                    character: name.clone(),
                    visitor: wanted.visitor.to_string(),
                    spell: spell.name.clone(),
                    gold,
                }),
            );
            MagicEvent::Learned {
                character: name,
                spell: spell.name.clone(),
            }
        }
        Err(e) => MagicEvent::NotLearned {
            character: name,
            spell: spell.name.clone(),
            reason: e.to_string(),
        },
    };
    let observers = day.only(who);
    day.emit(observers, Happening::Magic(event));
    PhaseOutcome::Done
}
