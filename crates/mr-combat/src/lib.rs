//! Magic Realm combat and the orders players write: the middle of the
//! engine, on its base and below the day.
//!
//! `combat` runs the rounds of a battle; `orders` reads and checks what
//! players write for a day, a combat round or a ruling. Both stay pure. The
//! base's modules are imported at the root under their own names, so a path
//! reads `crate::data::...` here as in every engine crate; this crate does
//! not depend on the day, so the compiler refuses a use of it.

pub mod combat;
pub mod orders;

#[cfg(test)]
use realmgm_mr_base::test_support;
use realmgm_mr_base::{abilities, board, data, development, magic, rules, setup, state, tables};
