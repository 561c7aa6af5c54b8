//! The twenty map tiles: clearings, paths and colour magic on both sides,
//! parsed from `tiles.toml` and checked once.
//!
//! The play summary ("MOVE", "FLY", enchanting a tile) and `data/tiles.toml` describe
//! what a tile is: numbered clearings joined by paths, some paths leaving
//! through the six tile edges, a normal side and an enchanted side with colour
//! magic. Paths are normal roads, hidden paths, secret passages or cave
//! tunnels. Edges are named as on the printed, unrotated tile (`N`, `NE`,
//! `SE`, `S`, `SW`, `NW`); the board module turns them.
//!
//! [`Tiles::resolve`] is how every order and command finds a tile: by its
//! code, one of its aliases or its full name, ignoring case.

use super::notation::NotationError;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::terms::{Colour, TileGroup};
use realmgm_core::embedded::{DataError, Source};
use realmgm_core::suggest;

const FILE: &str = "tiles.toml";
#[cfg(test)]
const TEXT: &str = include_str!("tiles.toml");

/// How many tiles the original game has.
pub const TILE_COUNT: usize = 20;

/// The map tiles of the game, in the order of the data file.
#[derive(Clone, Debug, Serialize)]
pub struct Tiles {
    tiles: Vec<Tile>,
    /// Each folded code, alias and name ([`suggest::fold`]) to its tile's
    /// place in `tiles`, the first tile for a name two share: every phase
    /// of every orders mail and of every day names a tile.
    #[serde(skip)]
    by_folded_name: std::collections::BTreeMap<String, usize>,
}

/// One hex tile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tile {
    pub name: String,
    /// The abbreviation GMs write in orders, e.g. `AV` or `LD`.
    pub code: String,
    /// Other abbreviations people type, e.g. RealmSpeak's `L` for Ledges.
    pub aliases: Vec<String>,
    /// The warning-chit group the tile belongs to at setup.
    pub group: TileGroup,
    /// The side that is face up when the map is built.
    pub starts: Side,
    pub normal: TileSide,
    pub enchanted: TileSide,
}

/// Which side of a tile is face up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    #[default]
    Normal,
    Enchanted,
}

/// The clearings and paths printed on one side of a tile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileSide {
    pub clearings: Vec<Clearing>,
    pub paths: Vec<Path>,
}

/// A numbered clearing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String")]
pub struct Clearing {
    pub number: u8,
    pub kind: ClearingKind,
    /// Colour magic present in the clearing on this side.
    pub magic: Vec<Colour>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClearingKind {
    Normal,
    Woods,
    Mountain,
    Cave,
}

/// A path from a clearing to another clearing or to a tile edge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String")]
pub struct Path {
    pub from: u8,
    pub to: PathEnd,
    pub kind: PathKind,
}

/// Where a path ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PathEnd {
    Clearing(u8),
    Edge(Edge),
}

/// The kinds of path. Ordered from the most open to the most secret, so the
/// board can pick the stricter kind when two halves of a road differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PathKind {
    /// A road anyone can follow.
    Normal,
    /// A tunnel between cave clearings; anyone can follow it.
    Cave,
    /// Usable only by those who have discovered it.
    Hidden,
    /// A secret passage, usable only by those who have discovered it.
    Secret,
}

/// The six edges of a hex, clockwise from the top. Tiles are flat-topped: the
/// `N` and `S` edges are horizontal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Edge {
    N,
    NE,
    SE,
    S,
    SW,
    NW,
}

impl Edge {
    /// All six, clockwise from `N`.
    pub const ALL: [Edge; 6] = [Edge::N, Edge::NE, Edge::SE, Edge::S, Edge::SW, Edge::NW];

    /// 0 for `N`, counting clockwise.
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(index: usize) -> Edge {
        Edge::ALL[index % 6]
    }

    /// The edge this one faces after turning the tile `sixths` sixths of a
    /// turn clockwise.
    pub fn turned(self, sixths: u8) -> Edge {
        Edge::from_index(self.index() + usize::from(sixths))
    }

    /// The edge across: a neighbour's edge that touches this one.
    pub fn opposite(self) -> Edge {
        self.turned(3)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Edge::N => "N",
            Edge::NE => "NE",
            Edge::SE => "SE",
            Edge::S => "S",
            Edge::SW => "SW",
            Edge::NW => "NW",
        }
    }
}

impl fmt::Display for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Edge {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Edge::ALL
            .into_iter()
            .find(|edge| edge.as_str().eq_ignore_ascii_case(text))
            .ok_or_else(|| format!("'{text}' is not a tile edge (N, NE, SE, S, SW or NW)"))
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Normal => "normal",
            Side::Enchanted => "enchanted",
        })
    }
}

impl fmt::Display for PathKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PathKind::Normal => "road",
            PathKind::Cave => "cave tunnel",
            PathKind::Hidden => "hidden path",
            PathKind::Secret => "secret passage",
        })
    }
}

impl fmt::Display for ClearingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ClearingKind::Normal => "normal",
            ClearingKind::Woods => "woods",
            ClearingKind::Mountain => "mountain",
            ClearingKind::Cave => "cave",
        })
    }
}

/// Parse one lower-case word of a serde enum (`"woods"`, `"hidden"`).
fn word<T: for<'de> Deserialize<'de>>(
    text: &str,
    what: &str,
    choices: &str,
) -> Result<T, NotationError> {
    use serde::de::IntoDeserializer;
    let deserializer: serde::de::value::StrDeserializer<'_, serde::de::value::Error> =
        text.into_deserializer();
    Ok(
        T::deserialize(deserializer)
            .map_err(|_| format!("'{text}' is not a {what} ({choices})"))?,
    )
}

impl TryFrom<String> for Clearing {
    type Error = NotationError;
    /// `"NUMBER TYPE [COLOUR...]"`, e.g. `"6 cave grey purple"`.
    fn try_from(text: String) -> Result<Self, Self::Error> {
        let mut words = text.split_whitespace();
        let (Some(number), Some(kind)) = (words.next(), words.next()) else {
            return Err(format!(
                "clearing '{text}' needs a number and a type, e.g. \"4 woods\" or \"6 cave purple\""
            )
            .into());
        };
        let number = parse_clearing_number(number)?;
        let kind = word(kind, "clearing type", "normal, woods, mountain or cave")?;
        let magic = words
            .map(|w| word(w, "colour of magic", "white, grey, gold, purple or black"))
            .collect::<Result<Vec<Colour>, NotationError>>()?;
        Ok(Clearing {
            number,
            kind,
            magic,
        })
    }
}

impl TryFrom<String> for Path {
    type Error = NotationError;
    /// `"A-B [KIND]"`, e.g. `"1-4"`, `"2-NW"` or `"3-6 secret"`.
    fn try_from(text: String) -> Result<Self, Self::Error> {
        let mut words = text.split_whitespace();
        let ends = words.next().unwrap_or_default();
        let kind = match words.next() {
            None => PathKind::Normal,
            Some(kind) => word(kind, "path kind", "normal, hidden, secret or cave")?,
        };
        if let Some(extra) = words.next() {
            return Err(format!("path '{text}' has an unexpected word '{extra}'").into());
        }
        let Some((from, to)) = ends.split_once('-') else {
            return Err(format!(
                "path '{text}' must be written A-B, e.g. \"1-4\" or \"2-NW\", then its kind if not normal"
            ).into());
        };
        let from = parse_clearing_number(from)?;
        let to = if to.starts_with(|c: char| c.is_ascii_digit()) {
            PathEnd::Clearing(parse_clearing_number(to)?)
        } else {
            PathEnd::Edge(to.parse()?)
        };
        Ok(Path { from, to, kind })
    }
}

fn parse_clearing_number(text: &str) -> Result<u8, NotationError> {
    match text.parse::<u8>() {
        Ok(n @ 1..=6) => Ok(n),
        _ => Err(format!("'{text}' is not a clearing number (1 to 6)").into()),
    }
}

impl Tile {
    pub fn side(&self, side: Side) -> &TileSide {
        match side {
            Side::Normal => &self.normal,
            Side::Enchanted => &self.enchanted,
        }
    }

    /// The second Realm's copy of this tile (3.1 10.E.7.2): the same
    /// clearings and paths, its name, code and aliases marked (`Ledges II`,
    /// `LDII`, `LEII`, `LII`).
    pub fn second_realm_copy(&self) -> Tile {
        let mark = super::realms::SECOND_REALM_MARK;
        Tile {
            name: format!("{} {mark}", self.name),
            code: format!("{}{mark}", self.code),
            aliases: self
                .aliases
                .iter()
                .map(|alias| format!("{alias}{mark}"))
                .collect(),
            ..self.clone()
        }
    }

    /// The code, the aliases and the full name: every way to name the tile.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.code.as_str())
            .chain(self.aliases.iter().map(String::as_str))
            .chain(std::iter::once(self.name.as_str()))
    }
}

impl TileSide {
    pub fn clearing(&self, number: u8) -> Option<&Clearing> {
        self.clearings.iter().find(|c| c.number == number)
    }

    /// The clearing whose path leaves through `edge` (of the unrotated tile).
    pub fn clearing_at_edge(&self, edge: Edge) -> Option<u8> {
        self.paths
            .iter()
            .find(|p| p.to == PathEnd::Edge(edge))
            .map(|p| p.from)
    }

    /// The edges a path leaves through, clockwise from `N`.
    pub fn road_edges(&self) -> Vec<Edge> {
        Edge::ALL
            .into_iter()
            .filter(|&edge| self.clearing_at_edge(edge).is_some())
            .collect()
    }
}

impl Tiles {
    /// Tiles with every name of each folded to its place.
    fn indexed(tiles: Vec<Tile>) -> Tiles {
        let mut by_folded_name = std::collections::BTreeMap::new();
        for (place, tile) in tiles.iter().enumerate() {
            for name in tile.names() {
                by_folded_name.entry(suggest::fold(name)).or_insert(place);
            }
        }
        // A name that folds to nothing names no tile.
        by_folded_name.remove("");
        Tiles {
            tiles,
            by_folded_name,
        }
    }

    /// These tiles and the second Realm's copies of them, in that order: the
    /// tiles of a double board (3.1 10.E.7.4).
    pub fn double(&self) -> Tiles {
        let second = self.tiles.iter().map(Tile::second_realm_copy);
        Tiles::indexed(self.tiles.iter().cloned().chain(second).collect())
    }

    /// Every tile, in the order of the data file.
    pub fn all(&self) -> &[Tile] {
        &self.tiles
    }

    /// The tile with exactly this code (as stored, e.g. `"BL"`).
    pub fn by_code(&self, code: &str) -> Option<&Tile> {
        self.tiles.iter().find(|t| t.code == code)
    }

    /// The tile named by `text`: its code, an alias or its full name, in
    /// any case (`lw`, `LE`, `linden woods`).
    pub fn resolve(&self, text: &str) -> Option<&Tile> {
        let place = self.by_folded_name.get(&suggest::fold(text))?;
        self.tiles.get(*place)
    }

    /// [`Tiles::resolve`], or an error naming the closest tiles.
    ///
    /// # Errors
    /// No tile has that code, alias or name.
    pub fn resolve_or_explain(&self, text: &str) -> Result<&Tile, NotationError> {
        self.resolve(text).ok_or_else(|| {
            let names = self.tiles.iter().flat_map(Tile::names);
            NotationError::UnknownTile {
                text: text.to_string(),
                hint: suggest::did_you_mean(text, names),
            }
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TilesFile {
    tiles: Vec<Tile>,
}

/// Parse and check `tiles.toml`.
///
/// # Errors
/// The first problem found, naming the tile and the field.
pub fn load() -> Result<Tiles, DataError> {
    parse(realmgm_core::compiled!("tiles"))
}

/// Parse and check tiles data.
///
/// # Errors
/// As [`load`].
pub fn parse(source: Source<'_>) -> Result<Tiles, DataError> {
    let file: TilesFile = source.parse(FILE)?;
    check(&file.tiles)?;
    Ok(Tiles::indexed(file.tiles))
}

fn check(tiles: &[Tile]) -> Result<(), DataError> {
    if tiles.len() != TILE_COUNT {
        return Err(DataError::file(
            FILE,
            format!("there must be {TILE_COUNT} tiles, found {}", tiles.len()),
        ));
    }
    let mut seen: Vec<(String, &str)> = Vec::new();
    for tile in tiles {
        let entry = format!("tile \"{}\"", tile.name);
        for name in tile.names() {
            let folded = suggest::fold(name);
            if folded.is_empty() {
                return Err(DataError::entry(
                    FILE,
                    &entry,
                    "code",
                    "a tile name or code is empty",
                ));
            }
            if let Some((_, other)) = seen.iter().find(|(f, _)| *f == folded) {
                return Err(DataError::entry(
                    FILE,
                    &entry,
                    "aliases",
                    format!("'{name}' also names tile \"{other}\""),
                ));
            }
            seen.push((folded, &tile.name));
        }
        check_side(&entry, "normal", &tile.normal)?;
        check_side(&entry, "enchanted", &tile.enchanted)?;
        let numbers = |s: &TileSide| s.clearings.iter().map(|c| c.number).collect::<Vec<_>>();
        if numbers(&tile.normal) != numbers(&tile.enchanted) {
            return Err(DataError::entry(
                FILE,
                &entry,
                "enchanted.clearings",
                "both sides must have the same clearing numbers",
            ));
        }
        if tile.normal.road_edges() != tile.enchanted.road_edges() {
            return Err(DataError::entry(
                FILE,
                &entry,
                "enchanted.paths",
                "both sides must have roads through the same edges, or turning the tile over would break the map",
            ));
        }
    }
    Ok(())
}

fn check_side(entry: &str, side_name: &str, side: &TileSide) -> Result<(), DataError> {
    let err = |field: String, message: String| Err(DataError::entry(FILE, entry, field, message));
    if side.clearings.is_empty() {
        return err(
            format!("{side_name}.clearings"),
            "a side needs at least one clearing".into(),
        );
    }
    for (i, clearing) in side.clearings.iter().enumerate() {
        if side.clearings[..i]
            .iter()
            .any(|c| c.number == clearing.number)
        {
            return err(
                format!("{side_name}.clearings[{i}]"),
                format!("clearing {} is listed twice", clearing.number),
            );
        }
    }
    for (i, path) in side.paths.iter().enumerate() {
        let field = format!("{side_name}.paths[{i}]");
        let ends = match path.to {
            PathEnd::Clearing(to) => vec![path.from, to],
            PathEnd::Edge(_) => vec![path.from],
        };
        if let Some(missing) = ends.iter().find(|&&n| side.clearing(n).is_none()) {
            return err(
                field,
                format!("clearing {missing} does not exist on this side"),
            );
        }
        if path.to == PathEnd::Clearing(path.from) {
            return err(
                field,
                format!("the path leads from clearing {} to itself", path.from),
            );
        }
        let same = |other: &Path| match (other.to, path.to) {
            (PathEnd::Edge(a), PathEnd::Edge(b)) => a == b,
            (PathEnd::Clearing(a), PathEnd::Clearing(b)) => {
                (other.from, a) == (path.from, b) || (other.from, a) == (b, path.from)
            }
            _ => false,
        };
        if side.paths[..i].iter().any(same) {
            let what = match path.to {
                PathEnd::Edge(edge) => format!("a second path leaves through edge {edge}"),
                PathEnd::Clearing(to) => {
                    format!("clearings {} and {to} are joined twice", path.from)
                }
            };
            return err(field, what);
        }
    }
    if side.road_edges().is_empty() {
        return err(
            format!("{side_name}.paths"),
            "no path leaves the tile".into(),
        );
    }
    // Every clearing must lead out of the tile by some path, or the board
    // could never reach it.
    for clearing in &side.clearings {
        if !reaches_edge(side, clearing.number) {
            return err(
                format!("{side_name}.clearings"),
                format!("clearing {} has no way to a tile edge", clearing.number),
            );
        }
    }
    Ok(())
}

/// True when paths of any kind lead from `start` to a tile edge.
fn reaches_edge(side: &TileSide, start: u8) -> bool {
    let mut reached = vec![start];
    let mut next = 0;
    while let Some(&at) = reached.get(next) {
        next += 1;
        for path in &side.paths {
            let other = match path.to {
                PathEnd::Edge(_) if path.from == at => return true,
                PathEnd::Edge(_) => continue,
                PathEnd::Clearing(to) if path.from == at => to,
                PathEnd::Clearing(to) if to == at => path.from,
                PathEnd::Clearing(_) => continue,
            };
            if !reached.contains(&other) {
                reached.push(other);
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiles() -> Tiles {
        load().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn all_twenty_tiles_load() {
        assert_eq!(tiles().all().len(), TILE_COUNT);
    }

    #[test]
    fn resolve_accepts_codes_aliases_and_names_in_any_case() {
        let tiles = tiles();
        for (text, name) in [
            ("av", "Awful Valley"),
            ("MN", "Mountain"),
            ("m", "Mountain"),
            ("ld", "Ledges"),
            ("LE", "Ledges"),
            ("L", "Ledges"),
            ("bl", "Borderland"),
            ("B", "Borderland"),
            ("RU", "Ruins"),
            ("r", "Ruins"),
            ("linden woods", "Linden Woods"),
            ("HIGH PASS", "High Pass"),
            ("NW", "Nut Woods"),
            ("cs", "Caves"),
            ("CN", "Cavern"),
        ] {
            assert_eq!(
                tiles.resolve(text).map(|t| t.name.as_str()),
                Some(name),
                "{text}"
            );
        }
        assert!(tiles.resolve("").is_none());
        assert!(tiles.resolve("Swamp").is_none());
    }

    /// The double board's forty tiles each answer to their own names only
    /// (3.1 10.E.7.2: the second game's pieces are told apart by a mark).
    #[test]
    fn every_name_of_a_double_board_names_one_tile() {
        let double = tiles().double();
        assert_eq!(double.all().len(), 2 * TILE_COUNT);
        let mut seen = std::collections::BTreeMap::new();
        for tile in double.all() {
            for name in tile.names() {
                let other = seen.insert(suggest::fold(name), tile.code.clone());
                assert!(other.is_none(), "{name} names {other:?} and {}", tile.code);
            }
        }
        for (text, code) in [
            ("avii", "AVII"),
            ("Ledges II", "LDII"),
            ("LII", "LDII"),
            ("l", "LD"),
        ] {
            assert_eq!(
                double.resolve(text).map(|t| t.code.as_str()),
                Some(code),
                "{text}"
            );
        }
    }

    #[test]
    fn unknown_tile_suggests_close_names() {
        let err = tiles().resolve_or_explain("Linden Wood").unwrap_err();
        assert!(
            err.to_string().contains("did you mean Linden Woods"),
            "{err}"
        );
    }

    #[test]
    fn compact_clearings_and_paths_parse() {
        let c = Clearing::try_from("6 cave grey purple".to_string()).unwrap();
        assert_eq!((c.number, c.kind), (6, ClearingKind::Cave));
        assert_eq!(c.magic, vec![Colour::Grey, Colour::Purple]);
        let p = Path::try_from("2-NW".to_string()).unwrap();
        assert_eq!(
            (p.from, p.to, p.kind),
            (2, PathEnd::Edge(Edge::NW), PathKind::Normal)
        );
        let p = Path::try_from("3-6 secret".to_string()).unwrap();
        assert_eq!((p.to, p.kind), (PathEnd::Clearing(6), PathKind::Secret));
        assert!(
            Path::try_from("3-X".to_string())
                .unwrap_err()
                .to_string()
                .contains("not a tile edge")
        );
        assert!(
            Path::try_from("3-9".to_string())
                .unwrap_err()
                .to_string()
                .contains("clearing number")
        );
        assert!(
            Clearing::try_from("2 swamp".to_string())
                .unwrap_err()
                .to_string()
                .contains("clearing type")
        );
    }

    fn with_text(text: &str) -> Result<(), DataError> {
        parse(Source::Toml(text)).map(drop)
    }

    #[test]
    fn broken_entries_name_the_tile_and_field() {
        let bad = TEXT.replacen("\"1-4\", \"1-NW\"", "\"1-7\", \"1-NW\"", 1);
        let err = with_text(&bad).unwrap_err();
        assert_eq!(
            err.field.as_deref(),
            Some("tiles[0].normal.paths[0]"),
            "{err}"
        );
        assert!(err.line.is_some());

        let bad = TEXT.replacen("\"1-4\", \"1-NW\"", "\"1-3\", \"1-NW\"", 1);
        let err = with_text(&bad).unwrap_err();
        assert_eq!(err.entry.as_deref(), Some("tile \"Awful Valley\""));
        assert!(err.message.contains("clearing 3 does not exist"), "{err}");

        let bad = TEXT.replacen("\"1-4\", \"1-NW\"", "\"1-4\", \"1-N\"", 1);
        let err = with_text(&bad).unwrap_err();
        assert!(
            err.message.contains("second path leaves through edge N"),
            "{err}"
        );

        let bad = TEXT.replacen("code = \"BV\"", "code = \"AV\"", 1);
        let err = with_text(&bad).unwrap_err();
        assert!(
            err.message.contains("also names tile \"Awful Valley\""),
            "{err}"
        );

        let bad = TEXT.replacen(
            "\"2 normal\", \"4 normal\"",
            "\"2 normal\", \"2 normal\"",
            1,
        );
        let err = with_text(&bad).unwrap_err();
        assert!(err.message.contains("listed twice"), "{err}");
    }
}
