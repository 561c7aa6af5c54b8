//! The Magic Realm combat engine: Sunset and Evening (play summary III), the
//! optional combat rules (2nd-edition optional combat rules), `tables/missile.rs`, `combat/harm.rs`.
//!
//! A [`Battle`] holds one clearing's fight; [`Battle::step`] runs it until
//! a character must decide something ([`Step::Needs`]) or it is over, and
//! [`Battle::answer`] gives a decision. Standing orders ([`Tactics`])
//! answer every decision with plays a player would not regret. The day's
//! Evening builds battles from the game state (`day/evening.rs`); battle
//! files (`script.rs`) set one up for the GM and the tests.

pub mod abandon;
pub mod activation;
pub mod alerted;
pub mod altering;
pub mod ambush;
pub mod battle;
pub mod build;
pub mod by_rounds;
pub mod casting;
pub mod charge;
pub mod chit_conflicts;
pub mod colour_fatigue;
pub mod decisions;
pub mod encounter;
pub mod error;
pub mod fatigue;
pub mod fly_chit;
pub mod harm;
pub mod hidden_enemies;
pub mod log;
pub mod melee;
pub mod model;
pub mod monster_spells;
pub mod native_horses;
pub mod orders;
pub mod phase_chit;
pub mod pick_up;
pub mod pit_attack;
pub mod protection;
pub mod riding;
pub mod script;
pub mod spell_deaths;
pub mod spell_effects;
pub mod spoils;
pub mod tactics;
pub mod treachery;
pub mod watchful;

pub use battle::{Battle, CombatRules, Step};
pub use decisions::{Action, Answer, Decision, Stage};
pub use tactics::Tactics;
#[cfg(test)]
mod tests;
