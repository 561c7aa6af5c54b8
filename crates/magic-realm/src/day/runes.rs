//! Reading Runes (`tables/search.rs`; 3.1 7.5.6): anyone may roll on the
//! Reading Runes table with an active artifact or spell book of his, or at
//! a discovered site holding spells in his clearing. 1–3 learn (only with a
//! MAGIC chit of the spell's type, in any condition: his card's types, 7.5.6c.2)
//! and awaken the spell, 4 awakens it, 5 curses him (Curse table), 6
//! nothing. Also Magic Sight's Perceive Spell (see and learn, no awakening)
//! and the curse rolls other rules ask for.
//!
//! He reads the top Spell card (7.5.6b): at a site the first of its pile,
//! which goes to the bottom only when awakened (7.5.6c.1, c.3); of an
//! artifact or book the first card not yet awakened, or when all are, the
//! first awakened one he does not know. Ruling (the orders cannot name the
//! item or site): his active artifacts and books first, then the
//! discovered sites in his clearing in name order.

use crate::abilities::active_treasure_effects;
use crate::data::realms;
use crate::data::terms::Roll;
use crate::data::treasures::TreasureEffect;
use crate::day::events::Happening;
use crate::day::search::{discovered_sites_here, roll_table};
use crate::day::{Day, PhaseOutcome};
use crate::state::ItemKind;
use crate::tables::magic::Curse;
use crate::tables::read_roll;
use crate::tables::search::{ReadRunes, ReadRunesResult};
use realmgm_core::dice::DiceCount;

use crate::magic::events::MagicEvent;
use crate::magic::{curses, spellbook};

/// A spell he can read, and where it is.
struct Runes {
    holder: String,
    spell: String,
    at_site: bool,
}

fn spells_in(day: &Day<'_>, holder: &str) -> Vec<String> {
    day.state
        .holdings
        .get(holder)
        .map(|items| {
            items
                .iter()
                .filter(|i| i.kind == ItemKind::Spell)
                .map(|i| i.name.clone())
                .collect()
        })
        .unwrap_or_default()
}

fn find_runes(day: &Day<'_>, who: usize) -> Option<Runes> {
    let c = &day.state.characters[who];
    let known = &c.magic.spells;
    let mut holders: Vec<(String, bool)> = active_treasure_effects(day.data, c)
        .into_iter()
        .filter(|(_, e)| matches!(e, TreasureEffect::Spells { .. }))
        // An item enchanted into colour has no runes to read (3.1 10.C.3.3).
        .filter(|(name, _)| crate::magic::item_chit::colour_of(&day.state, who, name).is_none())
        .map(|(name, _)| (name.to_string(), false))
        .collect();
    let mut sites = discovered_sites_here(day, who);
    sites.sort();
    holders.extend(sites.into_iter().map(|s| (s, true)));
    holders.into_iter().find_map(|(holder, at_site)| {
        let spells = spells_in(day, &holder);
        let is_awake = |s: &String| day.state.magic.is_awakened(&holder, s);
        let top = if at_site {
            spells.first()
        } else {
            spells
                .iter()
                .find(|s| !is_awake(s))
                // A second game's card is the printed spell (3.1 10.E.7.2.1).
                .or_else(|| spells.iter().find(|s| !known.contains(&realms::printed(s))))
        };
        top.map(|spell| Runes {
            holder: holder.clone(),
            spell: spell.clone(),
            at_site,
        })
    })
}

/// A Search phase on the Reading Runes table.
pub fn read_runes(day: &mut Day<'_>, who: usize) -> PhaseOutcome {
    let Some(runes) = find_runes(day, who) else {
        return PhaseOutcome::Lost {
            reason: "there are no runes to read: that needs an active artifact or spell book, or \
                     a discovered site here holding a spell (3.1 7.5.6)"
                .into(),
        };
    };
    let roll = roll_table(day, who, &ReadRunes, Roll::ReadRunes, "reading runes");
    let name = day.state.characters[who].name.clone();
    let observers = day.only(who);
    day.emit(
        observers.clone(),
        Happening::Magic(MagicEvent::Read {
            character: name.clone(),
            spell: runes.spell.clone(),
            holder: runes.holder.clone(),
        }),
    );
    let (learn, awaken) = match roll.result {
        ReadRunesResult::LearnAndAwaken => (true, true),
        ReadRunesResult::Awaken => (false, true),
        ReadRunesResult::Curse => {
            roll_curse(day, who, "reading runes");
            (false, false)
        }
        ReadRunesResult::Nothing => (false, false),
    };
    if learn {
        let event = match spellbook::learn(
            day.data,
            day.rules,
            &mut day.state.characters[who],
            &runes.spell,
        ) {
            Ok(()) => MagicEvent::Learned {
                character: name.clone(),
                spell: runes.spell.clone(),
            },
            Err(e) => MagicEvent::NotLearned {
                character: name.clone(),
                spell: runes.spell.clone(),
                reason: e.to_string(),
            },
        };
        day.emit(observers.clone(), Happening::Magic(event));
    }
    if awaken {
        day.state
            .magic
            .awakened
            .entry(runes.holder.clone())
            .or_default()
            .insert(runes.spell.clone());
        // A Spell card of another type still awakens, but its artifact or
        // book never casts it (3.1 4.6.6b): the reader is told so.
        let uncastable = spellbook::find_spell(day.data, &runes.spell)
            .ok()
            .filter(|_| !runes.at_site)
            .and_then(|s| {
                crate::magic::cast::item_wrong_type(&day.state, day.data, &runes.holder, s)
            });
        day.emit(
            observers,
            Happening::Magic(MagicEvent::Awakened {
                spell: runes.spell.clone(),
                holder: runes.holder.clone(),
                uncastable,
            }),
        );
    }
    if runes.at_site
        && awaken
        && let Some(pile) = day.state.holdings.get_mut(&runes.holder)
        && let Some(at) = pile
            .iter()
            .position(|i| i.kind == ItemKind::Spell && i.name == runes.spell)
    {
        let item = pile.remove(at);
        pile.push(item);
    }
    PhaseOutcome::Done
}

/// Magic Sight's Perceive Spell (`tables/search.rs`): he sees one spell in a
/// discovered site or an active artifact here and learns it if his MAGIC
/// types allow; nothing awakens.
pub fn perceive(day: &mut Day<'_>, who: usize) {
    let name = day.state.characters[who].name.clone();
    let observers = day.only(who);
    let Some(runes) = find_runes(day, who) else {
        day.emit(
            observers,
            Happening::Magic(MagicEvent::NothingPerceived { character: name }),
        );
        return;
    };
    day.emit(
        observers.clone(),
        Happening::Magic(MagicEvent::Read {
            character: name.clone(),
            spell: runes.spell.clone(),
            holder: runes.holder.clone(),
        }),
    );
    let event = match spellbook::learn(
        day.data,
        day.rules,
        &mut day.state.characters[who],
        &runes.spell,
    ) {
        Ok(()) => MagicEvent::Learned {
            character: name,
            spell: runes.spell,
        },
        Err(e) => MagicEvent::NotLearned {
            character: name,
            spell: runes.spell,
            reason: e.to_string(),
        },
    };
    day.emit(observers, Happening::Magic(event));
}

/// Roll on the Curse table for character `who` and put the curse on him
/// (`tables/magic.rs`).
pub fn roll_curse(day: &mut Day<'_>, who: usize, source: &str) {
    let name = day.state.characters[who].name.clone();
    let observers = day.only(who);
    let record = day.roll(
        &format!("search/{name}/curse"),
        DiceCount::One,
        observers.clone(),
    );
    let roll = read_roll(&Curse, record, &crate::tables::Modifiers::none());
    let event = curses::inflict(
        &mut day.state,
        day.data,
        day.rules,
        who,
        roll.result,
        source,
    );
    day.emit(observers, Happening::Magic(event));
}
