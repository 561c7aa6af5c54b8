//! Every component of the original Magic Realm, parsed from TOML files that
//! are embedded in the binary, and checked when a command first needs them.
//!
//! Each kind of component has a module with its typed structs, its own TOML
//! file beside it, a `parse` function that parses and validates that file in
//! either form (`Source`), and a `load` function that reads the compiled form
//! the build script embeds; the tests below read the TOML itself.
//! [`load`] gathers them into [`GameData`] and checks the references between
//! files (a character's starting weapon must exist, a dwelling's natives must
//! be a known group). Any problem names the file, the entry and the field.
//! The facts come from `../shared/reference/magic-realm`; the format and the
//! wording are the project's own.

pub mod armor;
pub mod chits;
mod cross_checks;
pub mod item_links;
pub mod notation;
pub mod realms;
pub mod seasons;
pub mod setup_card;
pub mod spells;
pub mod treasures;
pub mod weapons;

use std::sync::OnceLock;

use realmgm_core::embedded::DataError;

pub mod characters;
pub mod horses;
mod links;
pub mod monsters;
pub mod natives;
pub mod terms;
pub mod tiles;

/// The printed component behind a counter or item: its copy number and the
/// second game's mark off (`Spear 2` → `Spear`, `Wolf A 3` → `Wolf A`,
/// `Giant Bat II 1` → `Giant Bat`, `Lost Keys II` → `Lost Keys`; 3.1
/// 10.E.7.2); a name without either is its own base.
pub fn base_name(name: &str) -> &str {
    let component = realms::copy_number(name).map_or(name, |(component, _)| component);
    realms::unmarked_name(component).unwrap_or(component)
}

/// The whole original game.
#[derive(Debug)]
pub struct GameData {
    pub tiles: tiles::Tiles,
    /// The 16 characters, by name.
    pub characters: Vec<characters::Character>,
    /// One entry per kind of monster; its `counters` list every counter.
    pub monsters: Vec<monsters::Monster>,
    /// The nine native groups with their 42 members.
    pub natives: Vec<natives::NativeGroup>,
    /// The 34 horses.
    pub horses: Vec<horses::Horse>,
    pub weapons: Vec<weapons::Weapon>,
    pub armor: Vec<armor::Armor>,
    pub treasures: Vec<treasures::Treasure>,
    pub spells: Vec<spells::Spell>,
    pub chits: chits::MapChits,
    pub setup_card: setup_card::SetupCard,
    pub seasons: seasons::Seasons,
}

impl GameData {
    /// What the horse `horse` carries as a pack horse: its trot side's
    /// strength, the side it shows outside combat (3.1 7.3.1i.1-2).
    pub fn pack_strength(&self, horse: &str) -> terms::Strength {
        self.horses
            .iter()
            .find(|h| h.name == horse)
            .map_or(terms::Strength::Negligible, |h| h.trot.strength)
    }

    /// The Treasure card of either game (`Lost Keys II` is the second
    /// game's Lost Keys, 3.1 10.E.7.2.1).
    pub fn treasure(&self, name: &str) -> Option<&treasures::Treasure> {
        let printed = realms::printed(name);
        self.treasures.iter().find(|t| t.name == printed)
    }

    /// Whether this is the data of two Realms combined ([`combined`]): its
    /// tiles are those of the double board.
    pub fn combines_realms(&self) -> bool {
        self.tiles
            .all()
            .iter()
            .any(|t| realms::Realm::of_code(&t.code) == realms::Realm::Second)
    }

    /// The native group a member counter of either game belongs to
    /// (`Bashkar 3` and `Bashkar II 3` → the Bashkars; the game is the
    /// counter's mark, [`realms::Realm::of_name`]).
    pub fn native_group_of(&self, id: &str) -> Option<&natives::NativeGroup> {
        let member = realms::printed(id);
        self.natives
            .iter()
            .find(|g| g.members.iter().any(|m| m.name == member))
    }

    /// The monster a counter id belongs to (`Wolf A 3` → `Wolf A`).
    pub fn monster_of(&self, id: &str) -> Option<&monsters::Monster> {
        let base = base_name(id);
        self.monsters
            .iter()
            .find(|m| m.name == id)
            .or_else(|| self.monsters.iter().find(|m| m.name == base))
    }
}

/// Parse and check every embedded data file.
///
/// # Errors
/// The first problem found, naming the file, the entry and the field.
pub fn load() -> Result<GameData, DataError> {
    let data = GameData {
        tiles: tiles::load()?,
        characters: characters::load()?,
        monsters: monsters::load()?,
        natives: natives::load()?,
        horses: horses::load()?,
        weapons: weapons::load()?,
        armor: armor::load()?,
        treasures: treasures::load()?,
        spells: spells::load()?,
        chits: chits::load()?,
        setup_card: setup_card::load()?,
        seasons: seasons::load()?,
    };
    links::check_denizens(&data)?;
    item_links::check(&data)?;
    cross_checks::check(&data)?;
    Ok(data)
}

/// The embedded data do not load: the one wording every caller shows, so a
/// broken build reads alike whichever command first needs the data.
#[derive(Debug, thiserror::Error)]
#[error("the embedded Magic Realm data is broken: {0}")]
pub struct DataBroken(pub &'static DataError);

/// The embedded data, loaded once.
///
/// # Errors
/// The embedded files are broken; only a bad build can do that, and the test
/// suite loads them, so a released binary never reports it.
pub fn get() -> Result<&'static GameData, DataBroken> {
    static DATA: OnceLock<Result<GameData, DataError>> = OnceLock::new();
    DATA.get_or_init(load).as_ref().map_err(DataBroken)
}

/// The data of two Realms combined (3.1 10.E.7), loaded once: the embedded
/// components with the forty tiles of the double board, so a tile of
/// either game (`Awful Valley II`, `AVII`) is found by name or code. The
/// second game's other components are the embedded ones under a marked
/// name ([`realms::Realm::mark`]), found through [`base_name`].
///
/// # Errors
/// As [`get`].
pub fn combined() -> Result<&'static GameData, DataBroken> {
    static DATA: OnceLock<Result<GameData, DataError>> = OnceLock::new();
    DATA.get_or_init(|| {
        let mut data = load()?;
        data.tiles = data.tiles.double();
        Ok(data)
    })
    .as_ref()
    .map_err(DataBroken)
}

/// The forty tiles of two Realms combined (3.1 10.E.7.4): the embedded
/// twenty and their second-realm copies. A stored board is read against
/// them, since a one-Realm board names only tiles they hold too.
///
/// # Errors
/// As [`get`].
pub fn double_board_tiles() -> Result<&'static tiles::Tiles, DataBroken> {
    Ok(&combined()?.tiles)
}

#[cfg(test)]
mod tests {
    use std::fmt::Debug;

    use realmgm_core::embedded::Source;

    use super::*;

    /// The TOML as written passes every typed check and gives the very data
    /// the program reads from the compiled form.
    #[test]
    fn every_file_reads_alike_from_its_toml_and_its_compiled_form() {
        fn same<T: Debug>(file: &str, toml: Result<T, DataError>, compiled: Result<T, DataError>) {
            let toml = toml.unwrap_or_else(|err| panic!("{err}"));
            let compiled = compiled.unwrap_or_else(|err| panic!("{err}"));
            assert_eq!(format!("{toml:?}"), format!("{compiled:?}"), "{file}");
        }
        let toml = |text| Source::Toml(text);
        same(
            "tiles",
            tiles::parse(toml(include_str!("tiles.toml"))),
            tiles::load(),
        );
        same(
            "characters",
            characters::parse(characters::FILE, toml(include_str!("characters.toml"))),
            characters::load(),
        );
        same(
            "monsters",
            monsters::parse(monsters::FILE, toml(include_str!("monsters.toml"))),
            monsters::load(),
        );
        same(
            "natives",
            natives::parse(natives::FILE, toml(include_str!("natives.toml"))),
            natives::load(),
        );
        same(
            "horses",
            horses::parse(horses::FILE, toml(include_str!("horses.toml"))),
            horses::load(),
        );
        same(
            "weapons",
            weapons::parse(toml(include_str!("weapons.toml"))),
            weapons::load(),
        );
        same(
            "armor",
            armor::parse(toml(include_str!("armor.toml"))),
            armor::load(),
        );
        same(
            "treasures",
            treasures::parse(toml(include_str!("treasures.toml"))),
            treasures::load(),
        );
        same(
            "spells",
            spells::parse(toml(include_str!("spells.toml"))),
            spells::load(),
        );
        same(
            "chits",
            chits::parse(toml(include_str!("chits.toml"))),
            chits::load(),
        );
        same(
            "setup_card",
            setup_card::parse(toml(include_str!("setup_card.toml"))),
            setup_card::load(),
        );
        same(
            "seasons",
            seasons::parse(toml(include_str!("seasons.toml"))),
            seasons::load(),
        );
    }

    /// A broken file reads with the wording every command shows, naming
    /// the file's own problem after it.
    #[test]
    fn a_broken_file_says_the_embedded_data_is_broken() {
        let text = format!("{}\n[unclosed", include_str!("horses.toml"));
        let error = horses::parse(horses::FILE, Source::Toml(&text)).expect_err("mangled TOML");
        let detail = error.to_string();
        let message = DataBroken(Box::leak(Box::new(error))).to_string();
        assert_eq!(
            message,
            format!("the embedded Magic Realm data is broken: {detail}")
        );
    }
}
