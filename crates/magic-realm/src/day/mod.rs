//! The Magic Realm game day (play summary sections I, II and IV): Birdsong,
//! Daylight character by character, Sunset and Midnight.
//!
//! Everything a day does goes through [`Day`]: the state being changed, the
//! embedded data, the campaign's rules, the day's dice and the events it
//! emits. Each part of the day is its own module and adds its own kind of
//! event to [`events::Happening`]; every event names who observed it.

pub mod activities;
pub mod auto_enchant;
pub mod battling_today;
pub mod birdsong;
pub mod blocking;
pub mod bot;
pub mod bot_magic;
pub mod bot_plan;
pub mod bot_targets;
pub mod cache;
pub mod citations;
#[cfg(test)]
mod combined_realms_tests;
pub mod daylight;
pub mod dealings;
pub mod development;
pub mod evening;
pub mod events;
pub mod familiar;
pub mod file;
pub mod fly;
pub mod goblins;
pub mod grudges;
pub mod hire;
pub mod hired_leaders;
pub mod horses;
pub mod leader_turn;
pub mod log;
pub mod lone_cast;
pub mod meeting;
pub mod midnight;
pub mod missions;
pub mod modifiers;
pub mod movement;
pub mod pending;
pub mod phantasm;
pub mod pick_up;
pub mod preview;
pub mod prophecy;
pub mod rearrange;
pub mod refusal;
#[cfg(test)]
mod regeneration_tests;
pub mod resolve;
pub mod restart;
pub mod retinue;
pub mod rulings;
pub mod runes;
pub mod search;
pub mod site_magic;
pub mod spell_clock;
pub mod spying;
#[cfg(test)]
mod spying_tests;
pub mod summoning;
#[cfg(test)]
mod summoning_tests;
#[cfg(test)]
mod tests;
pub mod trade;
pub mod treasure_sites;
pub mod victory;
pub mod visitor_spells;
pub mod visitors;
pub mod weather;
pub mod wilderness;

pub use resolve::{DayError, DayOutcome, resolve_day, resolve_day_by_rounds};

use std::collections::{BTreeMap, BTreeSet};

use realmgm_core::dice::{Dice, DiceCount, RollRecord};
use realmgm_core::game::{Observers, Rules};

use super::board::ClearingId;
use super::data::GameData;
use super::state::MrState;
use events::{DayEvent, Happening};

/// One day being resolved.
pub struct Day<'a> {
    pub data: &'a GameData,
    pub rules: &'a Rules,
    pub state: MrState,
    pub dice: &'a mut Dice,
    pub events: Vec<DayEvent>,
    /// What the day has decided so far that later parts need.
    pub today: Today,
}

/// Facts of the day being resolved that are not part of the game state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Today {
    /// The setup-card row the monster roll picked (0 before Sunrise).
    pub prowling_row: u8,
    /// The row of a solitaire player's second Monster Roll, when it is not
    /// the first's (3.1 10.E.1.7): both rows prowl.
    pub second_row: Option<u8>,
    /// Characters (by index) blocked today: they do no more phases.
    pub blocked: BTreeSet<usize>,
    /// Map chits that were face up when an individual ended his turn
    /// today: they summon nothing more until Midnight (3.1 7.13.3b.2).
    pub summoned_by: BTreeSet<String>,
    /// Monster counters that blocked someone today: they stop prowling.
    pub blocking_monsters: BTreeSet<String>,
    /// Characters whose followers stay behind after the phase being done
    /// (he was carried off alone, e.g. to a cave by the Toadstool Circle).
    pub shed_followers: BTreeSet<usize>,
    /// Characters who may Peer into any clearing, and enchant any
    /// clearing's tile, for the rest of the day (the Toadstool Circle's
    /// row 4).
    pub peer_anywhere: BTreeSet<usize>,
    /// Characters (by index) who did an EM phase today (3.1 7.10.1).
    pub spell_prepared: BTreeSet<usize>,
    /// Weather fatigue (asterisks) each character owes, paid in the Evening
    /// (`weather`).
    pub weather_fatigue: BTreeMap<usize, u8>,
    /// Deal lines settled today, done or failed (`dealings`).
    pub deals_settled: dealings::Settled,
    /// Hired leaders blocked today outside their own turn: if their turn is
    /// still to come, they do no phases (`blocking`, `leader_turn`).
    pub blocked_leaders: BTreeSet<String>,
    /// Hired leaders and controlled monsters whose master was told today
    /// what they keep rather than hand over (`leader_turn`): told once.
    pub told_kept: BTreeSet<String>,
    /// The roadway each character (by index) last walked into a clearing
    /// by today, as (from, into): one who runs away from that clearing
    /// must run onto it (3.1 rule 8.3.8b; `evening`).
    pub entered_by: BTreeMap<usize, (ClearingId, ClearingId)>,
    /// The treasures and horses each character (by index) had active at
    /// Birdsong: only these give him extra phases today (3.1 6.2.2c.1,
    /// 7.3.2b).
    pub active_at_birdsong: BTreeMap<usize, BTreeSet<String>>,
    /// Clearings where a Wish for Peace made in Daylight ends combat for
    /// the rest of the day (3.1 Wishes table, 4.6.8b; `site_magic`).
    pub peace_in: BTreeSet<ClearingId>,
    /// Hired non-leaders hidden with their guide today: they can hide only
    /// so, and every day starts with them unhidden (3.1 7.4.5, 6.3.1b).
    pub hidden_underlings: BTreeSet<String>,
    /// Clearings where a combat was fought this Evening: there dropped
    /// belongings are claimed in turn at Midnight (3.1 10.A.5.6; `pick_up`).
    pub fought_in: BTreeSet<ClearingId>,
    /// The treasures and horses each character (by index) is committed to
    /// keep now, as an extra phase of his still to come relies on them: he
    /// may not give, sell or abandon them (3.1 6.2.4d; `daylight`).
    pub committed: BTreeMap<usize, Vec<String>>,
}

impl Today {
    /// Whether character `who` is committed to keep the belonging `name`
    /// now (3.1 6.2.4d).
    pub fn keeps(&self, who: usize, name: &str) -> bool {
        self.committed.get(&who).is_some_and(|kept| {
            kept.iter()
                .any(|k| crate::state::belongings::names(name, k))
        })
    }

    /// Whether character `who`'s treasure or horse `name` was active at
    /// Birdsong.
    pub fn was_active_at_birdsong(&self, who: usize, name: &str) -> bool {
        self.active_at_birdsong
            .get(&who)
            .is_some_and(|active| active.contains(name))
    }

    /// The rows prowling today: the Monster Roll's, and a solitaire
    /// player's second (3.1 6.3.3, 10.E.1.7).
    pub fn prowling_rows(&self) -> impl Iterator<Item = u8> + '_ {
        std::iter::once(self.prowling_row).chain(self.second_row)
    }

    /// Whether row `row` of the setup card prowls today.
    pub fn prowls_row(&self, row: u8) -> bool {
        self.prowling_rows().any(|r| r == row)
    }
}

impl<'a> Day<'a> {
    pub fn new(data: &'a GameData, rules: &'a Rules, state: MrState, dice: &'a mut Dice) -> Self {
        Day {
            data,
            rules,
            state,
            dice,
            events: Vec::new(),
            today: Today::default(),
        }
    }

    /// Record that something happened and who saw it.
    pub fn emit(&mut self, observers: Observers, happening: Happening) {
        self.events.push(DayEvent {
            observers,
            happening,
        });
    }

    /// Record, before the events from `index` on, something that happened
    /// first but whose outcome was known only after them (a phase's line
    /// and the details it set off).
    pub fn emit_at(&mut self, index: usize, observers: Observers, happening: Happening) {
        let index = index.min(self.events.len());
        self.events.insert(
            index,
            DayEvent {
                observers,
                happening,
            },
        );
    }

    /// Roll for `purpose` and record the roll as an event seen by `observers`
    /// (every roll is an event: principle 1 of DEVELOPERS.md).
    pub fn roll(&mut self, purpose: &str, count: DiceCount, observers: Observers) -> RollRecord {
        let record = self.dice.roll(purpose, count);
        self.emit(observers, Happening::Roll(record.clone()));
        record
    }

    /// The players whose characters stand in `clearing`: they see what
    /// happens there. A hidden character sees without being seen, so he is
    /// included.
    pub fn players_in(&self, clearing: &ClearingId) -> BTreeSet<String> {
        self.state
            .characters
            .iter()
            .filter(|c| &c.position == clearing)
            .map(|c| c.player.clone())
            .collect()
    }

    /// Who sees what character `who` does in his clearing: everyone there
    /// when he is unhidden, else only those there who found hidden enemies
    /// today.
    ///
    /// Ruling for Search, Trade and Hire: a hidden character stays hidden
    /// as he searches, trades and hires (3.1 rule 7.4.4), "hooded figures
    /// making deals off in the shadows" (3.1 rule 7.6.3), so the others in
    /// his clearing do not see him meet, buy, sell or hire unless they can
    /// see hidden individuals. Dice are rolled openly (3.1 rule 4.1.1), but
    /// only before those who can see the one rolling.
    pub fn seen_acting(&self, who: usize) -> Observers {
        let me = &self.state.characters[who];
        Observers::Players(
            self.state
                .characters
                .iter()
                .enumerate()
                .filter(|(i, c)| {
                    *i == who || (c.position == me.position && (!me.hidden || c.sees_hidden(me)))
                })
                .map(|(_, c)| c.player.clone())
                .collect(),
        )
    }

    /// Only the player of character `who` (and the GM).
    pub fn only(&self, who: usize) -> Observers {
        Observers::Players([self.state.characters[who].player.clone()].into())
    }

    /// Everyone in the clearing of character `who`, himself included.
    pub fn clearing_of(&self, who: usize) -> Observers {
        Observers::Players(self.players_in(&self.state.characters[who].position))
    }
}

/// How a recorded phase went (play summary II.B: an impossible phase is lost).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PhaseOutcome {
    Done,
    /// The phase could not be done as recorded; the reason goes to the
    /// player's report.
    Lost {
        reason: String,
    },
}
#[cfg(test)]
mod cache_tests;
#[cfg(test)]
mod combat_rest_tests;
#[cfg(test)]
mod control_tests;
#[cfg(test)]
mod dealings_tests;
#[cfg(test)]
mod development_tests;
#[cfg(test)]
mod evening_tests;
#[cfg(test)]
mod familiar_tests;
#[cfg(test)]
mod grudges_tests;
#[cfg(test)]
mod hire_tests;
#[cfg(test)]
mod leader_tests;
#[cfg(test)]
mod log_tests;
#[cfg(test)]
mod magic_rows_tests;
#[cfg(test)]
mod midnight_tests;
#[cfg(test)]
mod missions_tests;
#[cfg(test)]
mod pick_up_tests;
#[cfg(test)]
mod restart_tests;
#[cfg(test)]
mod retinue_tests;
#[cfg(test)]
mod rulings_tests;
#[cfg(test)]
mod search_tests;
#[cfg(test)]
mod spell_day_tests;
#[cfg(test)]
mod toggle_tests;
#[cfg(test)]
mod trade_tests;
#[cfg(test)]
mod transmorph_leader_tests;
#[cfg(test)]
mod transmorph_tests;
#[cfg(test)]
mod travel_tests;
#[cfg(test)]
mod treasures_tests;
#[cfg(test)]
mod victory_tests;
#[cfg(test)]
mod visitors_tests;
