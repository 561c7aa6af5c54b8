//! Two Realms combined on one double board (3.1 10.E.7): the second game's
//! components are copies of the embedded ones carrying a realm mark, the
//! suffix `II` (`Awful Valley II`, code `AVII`, clearing `AVII5`), so every
//! component keyed by its name or code stays distinct without a new key.
//! The copies are made from the embedded data (a tile's by
//! [`super::tiles::Tile::second_realm_copy`]), never written as data
//! files. A rule that asks for a component's printed identity (which tile
//! is a Borderland) looks through the mark with [`base_code`].

/// The mark the second Realm's components carry after their name and code.
/// Roman, so a clearing written without separators (`AVII5`) still ends in
/// its clearing number alone.
pub const SECOND_REALM_MARK: &str = "II";

/// The most Realms realmgm combines (3.1 10.E.7.1 allows any number; the
/// Magenta campaign, the one this was built for, played two).
pub const MOST_REALMS: u8 = 2;

/// Which game a component belongs to (3.1 10.E.7.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Realm {
    First,
    Second,
}

impl Realm {
    /// The realm of a tile code: `AVII` is the second's, `AV` the first's.
    pub fn of_code(code: &str) -> Realm {
        if marked_base(code).is_some() {
            Realm::Second
        } else {
            Realm::First
        }
    }
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
}
