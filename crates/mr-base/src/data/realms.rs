//! Two Realms combined on one double board (3.1 10.E.7): the second game's
//! components are copies of the embedded ones carrying a realm mark, the
//! suffix `II` (`Awful Valley II`, code `AVII`, clearing `AVII5`), so every
//! component keyed by its name or code stays distinct without a new key.
//! The copies are made from the embedded data (a tile's by
//! [`super::tiles::Tile::second_realm_copy`], a counter's or card's name by
//! [`Realm::mark`]), never written as data files. A rule that asks for a
//! component's printed identity (which tile is a Borderland, which monster
//! a counter is) looks through the mark with [`base_code`] or
//! [`super::base_name`].
//!
//! A marked name puts the mark after the component's name and before its
//! copy number, as a clearing's number follows a marked tile code: the
//! second game's `Giant Bat 1` is `Giant Bat II 1`, its `Lost Keys` is
//! `Lost Keys II`, its Inn (a holder of small treasures) `Inn II`.

use serde::{Deserialize, Serialize};

/// The mark the second Realm's components carry after their name and code.
/// Roman, so a clearing written without separators (`AVII5`) still ends in
/// its clearing number alone.
pub const SECOND_REALM_MARK: &str = "II";

/// The most Realms realmgm combines (3.1 10.E.7.1 allows any number; the
/// Magenta campaign, the one this was built for, played two).
pub const MOST_REALMS: u8 = 2;

/// Which game a component belongs to (3.1 10.E.7.2). A state leaves out the
/// first (`is_first`), so a one-Realm game's state reads as before; the
/// second is stored as its mark.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum Realm {
    #[default]
    First,
    #[serde(rename = "II")]
    Second,
}

impl Realm {
    /// The games of a combined setup, first first.
    pub const ALL: [Realm; MOST_REALMS as usize] = [Realm::First, Realm::Second];

    /// The game of a one-Realm campaign (serde skips it in a stored state).
    pub fn is_first(&self) -> bool {
        *self == Realm::First
    }

    /// The name this game's copy of a component carries: the printed name
    /// in the first game, the mark before any copy number in the second
    /// (`Giant Bat 1` → `Giant Bat II 1`, `Lost Keys` → `Lost Keys II`).
    pub fn mark(self, name: &str) -> String {
        match self {
            Realm::First => name.to_string(),
            Realm::Second => match copy_number(name) {
                Some((component, number)) => {
                    format!("{component} {SECOND_REALM_MARK} {number}")
                }
                None => format!("{name} {SECOND_REALM_MARK}"),
            },
        }
    }

    /// The game a component's name says it belongs to (the reverse of
    /// [`Realm::mark`]).
    pub fn of_name(name: &str) -> Realm {
        let component = copy_number(name).map_or(name, |(component, _)| component);
        if unmarked_name(component).is_some() {
            Realm::Second
        } else {
            Realm::First
        }
    }

    /// The realm of a tile code: `AVII` is the second's, `AV` the first's.
    pub fn of_code(code: &str) -> Realm {
        if marked_base(code).is_some() {
            Realm::Second
        } else {
            Realm::First
        }
    }
}

/// The printed name of either game's copy of a component: the mark off,
/// the copy number kept (`Bashkar Pony II 1` → `Bashkar Pony 1`).
pub fn printed(name: &str) -> String {
    match copy_number(name) {
        Some((component, number)) => {
            format!("{} {number}", unmarked_name(component).unwrap_or(component))
        }
        None => unmarked_name(name).unwrap_or(name).to_string(),
    }
}

/// A name split before its copy number (`Wolf A 3` → `Wolf A`, `3`).
pub(crate) fn copy_number(name: &str) -> Option<(&str, &str)> {
    name.rsplit_once(' ')
        .filter(|(_, number)| !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()))
}

/// A component name (no copy number) without the second game's mark, when
/// it carries it: `Lost Keys II` → `Lost Keys`. The mark alone is no name.
pub(crate) fn unmarked_name(component: &str) -> Option<&str> {
    component
        .strip_suffix(SECOND_REALM_MARK)
        .and_then(|rest| rest.strip_suffix(' '))
        .filter(|rest| !rest.is_empty())
}

/// The printed code behind a tile code of either realm (`AVII` → `AV`).
pub fn base_code(code: &str) -> &str {
    marked_base(code).unwrap_or(code)
}

/// The code without the second realm's mark, when it carries it. A code
/// that is only the mark is no marked code.
fn marked_base(code: &str) -> Option<&str> {
    code.strip_suffix(SECOND_REALM_MARK)
        .filter(|base| !base.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mark_tells_the_realm_and_comes_off_again() {
        assert_eq!(Realm::of_code("AV"), Realm::First);
        assert_eq!(Realm::of_code("AVII"), Realm::Second);
        assert_eq!(base_code("BLII"), "BL");
        assert_eq!(base_code("BL"), "BL");
        assert_eq!(base_code("II"), "II");
    }

    #[test]
    fn a_second_game_name_carries_the_mark_before_its_copy_number() {
        assert_eq!(Realm::Second.mark("Giant Bat 1"), "Giant Bat II 1");
        assert_eq!(Realm::Second.mark("Lost Keys"), "Lost Keys II");
        assert_eq!(Realm::Second.mark("Company HQ"), "Company HQ II");
        assert_eq!(Realm::First.mark("Giant Bat 1"), "Giant Bat 1");
        assert_eq!(printed("Bashkar Pony II 1"), "Bashkar Pony 1");
        assert_eq!(printed("Lost Keys II"), "Lost Keys");
        assert_eq!(printed("Wolf A 3"), "Wolf A 3");
        for name in [
            "Giant Bat II 1",
            "Lost Keys II",
            "Inn II",
            "Bashkar Pony II 2",
        ] {
            assert_eq!(Realm::of_name(name), Realm::Second, "{name}");
        }
        for name in ["Giant Bat 1", "Lost Keys", "II", "Spear 2"] {
            assert_eq!(Realm::of_name(name), Realm::First, "{name}");
        }
    }

    #[test]
    fn the_base_name_looks_through_the_mark_to_the_printed_component() {
        use crate::data::base_name;
        assert_eq!(base_name("Giant Bat II 1"), "Giant Bat");
        assert_eq!(base_name("Lost Keys II"), "Lost Keys");
        assert_eq!(base_name("Wolf A 3"), "Wolf A");
        assert_eq!(base_name("Lost Keys"), "Lost Keys");
    }

    #[test]
    fn a_realm_is_stored_as_its_mark() {
        assert_eq!(serde_json::to_string(&Realm::Second).unwrap(), "\"II\"");
        assert_eq!(serde_json::to_string(&Realm::First).unwrap(), "\"First\"");
    }
}
