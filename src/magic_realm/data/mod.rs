//! Every component of the original Magic Realm, parsed from TOML files that
//! are embedded in the binary, and checked once at start.
//!
//! Each kind of component has a module with its typed structs, its own TOML
//! file beside it and a `load` function that parses and validates that file.
//! [`load`] gathers them into [`GameData`] and checks the references between
//! files (a character's starting weapon must exist, a dwelling's natives must
//! be a known group). Any problem names the file, the entry and the field.
//! The facts come from `../shared/reference/magic-realm`; the format and the
//! wording are the project's own.

pub mod tiles;

use std::sync::OnceLock;

use crate::embedded::DataError;

/// The whole original game.
#[derive(Debug)]
pub struct GameData {
    pub tiles: tiles::Tiles,
}

/// Parse and check every embedded data file.
///
/// # Errors
/// The first problem found, naming the file, the entry and the field.
pub fn load() -> Result<GameData, DataError> {
    Ok(GameData {
        tiles: tiles::load()?,
    })
}

/// The embedded data, loaded once.
///
/// # Errors
/// The embedded files are broken; only a bad build can do that, and the test
/// suite loads them, so a released binary never reports it.
pub fn get() -> Result<&'static GameData, &'static DataError> {
    static DATA: OnceLock<Result<GameData, DataError>> = OnceLock::new();
    DATA.get_or_init(load).as_ref()
}
