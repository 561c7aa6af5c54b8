//! The five Search tables (`tables/search.rs`; play summary II.C.5 "SEARCH"): Peer,
//! Locate, Loot, Reading Runes and Magic Sight. A Search phase is one roll
//! on one table the character picks (the Witch King must use Magic Sight).
//!
//! Results are instructions: "discover the hidden paths of the clearing",
//! "take the 3rd treasure from the top". Whether a pile has that many
//! treasures, a site is discovered or opened, or a spell can be learned is
//! the engine's check.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{DieTable, six_row_index};

/// What a "Choice" row lets the searcher pick. Ruling (`tables/search.rs` and
/// §16 mark it [uncertain]): as RealmSpeak, Choice on Peer, Locate or Magic
/// Sight offers the four useful results of Peer and Locate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SearchChoice {
    CluesAndPaths,
    HiddenEnemiesAndPaths,
    PassagesAndClues,
    DiscoverChits,
}

/// Every option a Choice result offers.
pub const SEARCH_CHOICES: [SearchChoice; 4] = [
    SearchChoice::CluesAndPaths,
    SearchChoice::HiddenEnemiesAndPaths,
    SearchChoice::PassagesAndClues,
    SearchChoice::DiscoverChits,
];

impl fmt::Display for SearchChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SearchChoice::CluesAndPaths => "clues and paths",
            SearchChoice::HiddenEnemiesAndPaths => "hidden enemies and paths",
            SearchChoice::PassagesAndClues => "passages and clues",
            SearchChoice::DiscoverChits => "discover chits",
        })
    }
}

const CHOICE_TEXT: &str =
    "choice: pick clues and paths, hidden enemies and paths, passages and clues, or discover chits";
const CLUES: &str = "secretly look at every map chit in the tile";
const PATHS: &str = "discover the hidden paths from this clearing";
const PASSAGES: &str = "discover the secret passages from this clearing";
const HIDDEN_ENEMIES: &str = "see and attack hidden individuals for the rest of the day";
const DISCOVER_CHITS: &str = "discover the site chits in this clearing";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PeerResult {
    Choice,
    CluesAndPaths,
    HiddenEnemiesAndPaths,
    HiddenEnemies,
    Clues,
    Nothing,
}

impl fmt::Display for PeerResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PeerResult::Choice => f.write_str(CHOICE_TEXT),
            PeerResult::CluesAndPaths => write!(f, "clues and paths: {CLUES}; {PATHS}"),
            PeerResult::HiddenEnemiesAndPaths => {
                write!(f, "hidden enemies and paths: {HIDDEN_ENEMIES}; {PATHS}")
            }
            PeerResult::HiddenEnemies => write!(f, "hidden enemies: {HIDDEN_ENEMIES}"),
            PeerResult::Clues => write!(f, "clues: {CLUES}"),
            PeerResult::Nothing => f.write_str("nothing"),
        }
    }
}

const PEER: [PeerResult; 6] = [
    PeerResult::Choice,
    PeerResult::CluesAndPaths,
    PeerResult::HiddenEnemiesAndPaths,
    PeerResult::HiddenEnemies,
    PeerResult::Clues,
    PeerResult::Nothing,
];

/// The Peer table (also used for Enhanced Peer and peering from a
/// mountain into an adjacent clearing, against the target clearing).
#[derive(Clone, Copy, Debug, Default)]
pub struct Peer;

impl DieTable for Peer {
    type Outcome = PeerResult;

    fn rule(&self) -> &'static str {
        "7.5.4"
    }
    fn name(&self) -> Cow<'static, str> {
        "Peer".into()
    }
    fn outcome(&self, row: i8) -> PeerResult {
        PEER[six_row_index(row)]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LocateResult {
    Choice,
    PassagesAndClues,
    Passages,
    DiscoverChits,
    Nothing,
}

impl fmt::Display for LocateResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LocateResult::Choice => f.write_str(CHOICE_TEXT),
            LocateResult::PassagesAndClues => {
                write!(f, "passages and clues: {PASSAGES}; {CLUES}")
            }
            LocateResult::Passages => write!(f, "passages: {PASSAGES}"),
            LocateResult::DiscoverChits => write!(f, "discover chits: {DISCOVER_CHITS}"),
            LocateResult::Nothing => f.write_str("nothing"),
        }
    }
}

const LOCATE: [LocateResult; 6] = [
    LocateResult::Choice,
    LocateResult::PassagesAndClues,
    LocateResult::Passages,
    LocateResult::DiscoverChits,
    LocateResult::Nothing,
    LocateResult::Nothing,
];

/// The Locate table.
#[derive(Clone, Copy, Debug, Default)]
pub struct Locate;

impl DieTable for Locate {
    type Outcome = LocateResult;

    fn rule(&self) -> &'static str {
        "7.5.4"
    }
    fn name(&self) -> Cow<'static, str> {
        "Locate".into()
    }
    fn outcome(&self, row: i8) -> LocateResult {
        LOCATE[six_row_index(row)]
    }
}

/// Take the treasure this many places from the top of the pile of a
/// discovered site (or of the clearing's abandoned items); a shorter pile
/// gives nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LootResult {
    pub from_top: u8,
}

impl fmt::Display for LootResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ordinal = match self.from_top {
            1 => "top".to_string(),
            2 => "2nd".to_string(),
            3 => "3rd".to_string(),
            n => format!("{n}th"),
        };
        write!(
            f,
            "take the {ordinal} treasure of the pile (nothing if it is shorter)"
        )
    }
}

/// The Loot table.
#[derive(Clone, Copy, Debug, Default)]
pub struct Loot;

impl DieTable for Loot {
    type Outcome = LootResult;

    fn rule(&self) -> &'static str {
        "7.5.5"
    }
    fn name(&self) -> Cow<'static, str> {
        "Loot".into()
    }
    fn outcome(&self, row: i8) -> LootResult {
        LootResult {
            from_top: u8::try_from(row.clamp(1, 6)).unwrap_or(1),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReadRunesResult {
    /// Learn the spell (if his magic types allow) and awaken it.
    LearnAndAwaken,
    Awaken,
    /// Roll on the Curse table.
    Curse,
    Nothing,
}

impl fmt::Display for ReadRunesResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ReadRunesResult::LearnAndAwaken => {
                "learn the spell (if the character's magic allows) and awaken it"
            }
            ReadRunesResult::Awaken => "awaken the spell",
            ReadRunesResult::Curse => "curse: roll on the Curse table",
            ReadRunesResult::Nothing => "nothing",
        })
    }
}

const READ_RUNES: [ReadRunesResult; 6] = [
    ReadRunesResult::LearnAndAwaken,
    ReadRunesResult::LearnAndAwaken,
    ReadRunesResult::LearnAndAwaken,
    ReadRunesResult::Awaken,
    ReadRunesResult::Curse,
    ReadRunesResult::Nothing,
];

/// The Reading Runes table.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadRunes;

impl DieTable for ReadRunes {
    type Outcome = ReadRunesResult;

    fn rule(&self) -> &'static str {
        "7.5.6"
    }
    fn name(&self) -> Cow<'static, str> {
        "Reading Runes".into()
    }
    fn outcome(&self, row: i8) -> ReadRunesResult {
        READ_RUNES[six_row_index(row)]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MagicSightResult {
    Choice,
    /// Find hidden enemies carrying counters; take the top weapon, armour or
    /// horse counter of a discovered site here.
    Counters,
    /// The same for treasure cards.
    TreasureCards,
    /// See (and maybe learn) one spell of a discovered site or active
    /// artifact here.
    PerceiveSpell,
    DiscoverChits,
    Nothing,
}

impl fmt::Display for MagicSightResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MagicSightResult::Choice => f.write_str(CHOICE_TEXT),
            MagicSightResult::Counters => f.write_str(
                "counters: find hidden enemies carrying counters; take the top counter of a discovered site here",
            ),
            MagicSightResult::TreasureCards => f.write_str(
                "treasure cards: find hidden enemies carrying treasures; take the top card of a discovered site here",
            ),
            MagicSightResult::PerceiveSpell => {
                f.write_str("perceive spell: see one spell of a discovered site or active artifact here")
            }
            MagicSightResult::DiscoverChits => write!(f, "discover chits: {DISCOVER_CHITS}"),
            MagicSightResult::Nothing => f.write_str("nothing"),
        }
    }
}

const MAGIC_SIGHT: [MagicSightResult; 6] = [
    MagicSightResult::Choice,
    MagicSightResult::Counters,
    MagicSightResult::TreasureCards,
    MagicSightResult::PerceiveSpell,
    MagicSightResult::DiscoverChits,
    MagicSightResult::Nothing,
];

/// The Magic Sight table.
#[derive(Clone, Copy, Debug, Default)]
pub struct MagicSight;

impl DieTable for MagicSight {
    type Outcome = MagicSightResult;

    fn rule(&self) -> &'static str {
        "7.5.7"
    }
    fn name(&self) -> Cow<'static, str> {
        "Magic Sight".into()
    }
    fn outcome(&self, row: i8) -> MagicSightResult {
        MAGIC_SIGHT[six_row_index(row)]
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_dice::{PURPOSE, forced, rows};
    use super::super::{Modifiers, roll_on};
    use super::*;

    #[test]
    fn peer_rows() {
        use PeerResult::*;
        assert_eq!(
            rows(&Peer),
            vec![
                Choice,
                CluesAndPaths,
                HiddenEnemiesAndPaths,
                HiddenEnemies,
                Clues,
                Nothing
            ]
        );
    }

    #[test]
    fn locate_rows() {
        use LocateResult::*;
        assert_eq!(
            rows(&Locate),
            vec![
                Choice,
                PassagesAndClues,
                Passages,
                DiscoverChits,
                Nothing,
                Nothing
            ]
        );
    }

    #[test]
    fn loot_takes_the_nth_treasure() {
        let got: Vec<u8> = rows(&Loot).iter().map(|r| r.from_top).collect();
        assert_eq!(got, vec![1, 2, 3, 4, 5, 6]);
        assert!(LootResult { from_top: 3 }.to_string().contains("3rd"));
    }

    #[test]
    fn reading_runes_rows() {
        use ReadRunesResult::*;
        assert_eq!(
            rows(&ReadRunes),
            vec![
                LearnAndAwaken,
                LearnAndAwaken,
                LearnAndAwaken,
                Awaken,
                Curse,
                Nothing
            ]
        );
    }

    #[test]
    fn magic_sight_rows() {
        use MagicSightResult::*;
        assert_eq!(
            rows(&MagicSight),
            vec![
                Choice,
                Counters,
                TreasureCards,
                PerceiveSpell,
                DiscoverChits,
                Nothing
            ]
        );
    }

    #[test]
    fn map_of_lost_city_improves_locate() {
        let mut dice = forced(&[&[5, 3]]);
        let mods = Modifiers::none().with("Map of Lost City", -1);
        let roll = roll_on(&Locate, &mut dice, PURPOSE, &mods);
        assert_eq!((roll.row, roll.result), (4, LocateResult::DiscoverChits));
    }

    #[test]
    fn deft_gloves_loot_with_one_die_and_illusion_adds_one() {
        let mut dice = forced(&[&[2]]);
        let mods = Modifiers::none()
            .with_one_die("Deft Gloves")
            .with("Illusion", 1);
        let roll = roll_on(&Loot, &mut dice, PURPOSE, &mods);
        assert_eq!(roll.result.from_top, 3);
        assert_eq!(roll.one_die, vec!["Deft Gloves".to_string()]);
    }

    #[test]
    fn choice_offers_four_results() {
        assert_eq!(SEARCH_CHOICES.len(), 4);
        assert!(PeerResult::Choice.to_string().contains("discover chits"));
    }
}
