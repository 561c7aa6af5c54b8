//! Parsing TOML into typed structs with errors a person can act on.
//!
//! Game data embedded in the binary and the GM's campaign files both go
//! through [`parse_toml`], so a broken file always names the file, the line
//! and the field (for example `tiles.toml: line 41: tiles[3].paths[2].to:
//! unknown variant "edg"`). Checks that serde cannot express (a path to a
//! clearing that does not exist, a count that is wrong) report through
//! [`DataError::entry`], which names the file, the entry and the field.

use std::fmt;

use serde::de::DeserializeOwned;

/// A problem in a data or campaign file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    pub file: String,
    pub line: Option<usize>,
    /// The entry the problem is in, for example `tile "Awful Valley"`.
    pub entry: Option<String>,
    /// The field path, for example `sides.enchanted.paths[2].to`.
    pub field: Option<String>,
    pub message: String,
}

impl DataError {
    /// A problem in one entry of a file, found after parsing.
    pub fn entry(
        file: &str,
        entry: impl Into<String>,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        let field = field.into();
        DataError {
            file: file.to_string(),
            line: None,
            entry: Some(entry.into()),
            field: (!field.is_empty()).then_some(field),
            message: message.into(),
        }
    }

    /// A problem with the file as a whole (a wrong count, a missing entry).
    pub fn file(file: &str, message: impl Into<String>) -> Self {
        DataError {
            file: file.to_string(),
            line: None,
            entry: None,
            field: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ": line {line}")?;
        }
        if let Some(entry) = &self.entry {
            write!(f, ": {entry}")?;
        }
        if let Some(field) = &self.field {
            write!(f, ": field `{field}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for DataError {}

/// Parse `text` (the contents of `file`) as TOML into `T`.
///
/// # Errors
/// A syntax error or a value of the wrong shape, with the line and the path of
/// the field that failed.
pub fn parse_toml<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, DataError> {
    let deserializer = toml::Deserializer::parse(text).map_err(|err| DataError {
        file: file.to_string(),
        line: err.span().map(|span| line_of(text, span.start)),
        entry: None,
        field: None,
        message: err.message().trim().to_string(),
    })?;
    serde_path_to_error::deserialize(deserializer).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        DataError {
            file: file.to_string(),
            line: inner.span().map(|span| line_of(text, span.start)),
            entry: None,
            field: (path != ".").then_some(path),
            message: inner.message().trim().to_string(),
        }
    })
}

/// The text of a data file, in one of the two forms the data loaders read.
///
/// People write TOML; the program reads the JSON a build script compiled the
/// TOML into (see `build_support/compile_toml.rs`), since a JSON parser does
/// in a tenth of the instructions what the TOML parser does, and every
/// command paid for that at start. Both forms go through the same typed
/// structs and the same checks, so a file is refused alike in either.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// A TOML file as written: its errors name the line.
    Toml(&'a str),
    /// The compiled JSON of an embedded TOML file, from [`compiled!`].
    Compiled(&'a str),
}

impl Source<'_> {
    /// Parse this text, named `file` in errors, into `T`.
    ///
    /// # Errors
    /// As [`parse_toml`]; for the compiled form, a value of the wrong shape
    /// (its line is the JSON's, so the message gives it with the column).
    pub fn parse<T: DeserializeOwned>(self, file: &str) -> Result<T, DataError> {
        match self {
            Source::Toml(text) => parse_toml(file, text),
            Source::Compiled(json) => serde_json::from_str(json).map_err(|err| DataError {
                file: file.to_string(),
                line: None,
                entry: None,
                field: None,
                message: format!("its compiled form does not read: {err}"),
            }),
        }
    }
}

/// The compiled form of an embedded data file, by its TOML file's stem:
/// `compiled!("armor")` reads `armor.json`, which the calling crate's build
/// script wrote into its `OUT_DIR` from `armor.toml`.
#[macro_export]
macro_rules! compiled {
    ($stem:literal) => {
        $crate::embedded::Source::Compiled(include_str!(concat!(
            env!("OUT_DIR"),
            "/",
            $stem,
            ".json"
        )))
    };
}

/// Refuse a file that lists the same name twice, naming the entry.
///
/// # Errors
/// The second entry with a name already used, e.g. `weapons.toml: weapon
/// "Spear": field `name`: appears twice; list each weapon once`.
pub fn check_unique_names<T>(
    file: &str,
    kind: &str,
    items: &[T],
    name: impl Fn(&T) -> &str,
) -> Result<(), DataError> {
    let mut seen = std::collections::BTreeSet::new();
    for item in items {
        let name = name(item);
        if !seen.insert(name) {
            return Err(DataError::entry(
                file,
                format!("{kind} \"{name}\""),
                "name",
                format!("appears twice; list each {kind} once"),
            ));
        }
    }
    Ok(())
}

/// The 1-based line number of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        #[allow(dead_code)]
        things: Vec<Thing>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Thing {
        #[allow(dead_code)]
        name: String,
        #[allow(dead_code)]
        weight: u8,
    }

    #[test]
    fn wrong_type_names_file_line_and_field() {
        let text = "[[things]]\nname = \"a\"\nweight = 1\n\n[[things]]\nname = \"b\"\nweight = \"heavy\"\n";
        let err = parse_toml::<File>("things.toml", text).unwrap_err();
        assert_eq!(err.file, "things.toml");
        assert_eq!(err.line, Some(7));
        assert_eq!(err.field.as_deref(), Some("things[1].weight"));
        let shown = err.to_string();
        assert!(
            shown.starts_with("things.toml: line 7: field `things[1].weight`"),
            "{shown}"
        );
    }

    #[test]
    fn syntax_error_names_the_line() {
        let err = parse_toml::<File>("x.toml", "[[things]]\nname = \"a\nweight = 1\n").unwrap_err();
        assert_eq!(err.line, Some(2));
    }

    #[test]
    fn a_name_listed_twice_is_refused() {
        let names = ["Spear", "Axe", "Spear"];
        let err = check_unique_names("weapons.toml", "weapon", &names, |n| n).unwrap_err();
        assert_eq!(
            err.to_string(),
            "weapons.toml: weapon \"Spear\": field `name`: appears twice; list each weapon once"
        );
        assert!(check_unique_names("w.toml", "weapon", &names[..2], |n| n).is_ok());
    }

    #[test]
    fn unknown_field_is_refused() {
        let err = parse_toml::<File>(
            "x.toml",
            "[[things]]\nname = \"a\"\nweight = 1\ncolour = 2\n",
        )
        .unwrap_err();
        assert!(err.message.contains("colour"), "{err}");
        assert_eq!(err.line, Some(4));
    }
}
