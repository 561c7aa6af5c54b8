//! Tests of the magic rules that drive them through a day or written
//! orders (reading runes, a curse through Birdsong, an enchanted tile on
//! the map), so they sit in the crate that has the day; the colour tests
//! share their fixtures.

mod cast_tests;
mod colour_tests;
mod curses_tests;
mod enchant_tests;
mod item_chit_tests;
mod spellbook_tests;
mod spells_tests;
mod test_fixtures;
