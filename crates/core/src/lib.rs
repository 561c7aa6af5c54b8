//! What every game realmgm runs shares, and nothing else: the seeded dice
//! ([`dice`]), the game interface the plumbing drives ([`game`]), with its
//! events and who observed each, the named rule toggles and the report
//! context, the templates reports are written with ([`report`]), the public
//! pages' data ([`page`]), typed data files ([`embedded`]), and two small
//! helpers for words a player reads ([`suggest`], [`words`]).
//!
//! This crate knows no game and no plumbing: the engines
//! (`realmgm-magic-realm`, `realmgm-fantasy-realms`) build on it, the mail
//! crate does not need it, and the application (store, daemon, site, CLI)
//! drives the games only through it.

pub mod dice;
pub mod embedded;
pub mod game;
pub mod page;
pub mod report;
pub mod report_document;
pub mod suggest;
pub mod words;
