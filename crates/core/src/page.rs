//! What a game hands the public pages for one day: the day's
//! records grouped the way the BIMR day pages were, the map, the
//! standings and, after the last day, the scoring arithmetic. The game
//! decides what each [`Disclosure`] lets through; the plumbing
//! ([`crate::site`]) decides which disclosure a day gets and lays the pages
//! out.

use serde::Serialize;

/// How much of a day the pages may show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Disclosure {
    /// What every player learns: the public events and the bare board.
    Public,
    /// The day's whole record as the characters lived it, without the
    /// secrets of the game still running: victory requirements, face-down
    /// chits and where treasures lie, what only the GM saw.
    Record,
    /// Everything: the campaign is over.
    Everything,
}

/// One day's public page, as the game fills it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SiteDay {
    /// The season and the weather, when the game has them.
    pub weather: Option<String>,
    /// Birdsong, the characters' records in the order they moved, the
    /// evening's combats, Midnight.
    pub sections: Vec<Section>,
    /// The board at the end of the day, as much as the disclosure shows.
    pub map_svg: Option<String>,
    /// Each character as he stands at the end of the day.
    pub standings: Vec<Standing>,
    /// The characters killed this day.
    pub deaths: Vec<String>,
    /// After the last day, under [`Disclosure::Everything`]: how each
    /// character's victory points were worked out.
    pub final_scores: Vec<FinalScore>,
}

/// A part of the day (Birdsong, Daylight, Evening, Midnight).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Section {
    pub title: String,
    pub blocks: Vec<Block>,
}

/// A run of lines: one character's record, or lines of no one's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Block {
    /// The character (or hired leader) whose record this is.
    pub character: Option<String>,
    pub heading: Option<String>,
    pub lines: Vec<String>,
}

/// A character's standing at the end of a day.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    pub character: String,
    pub player: String,
    pub dead: bool,
    /// Each measure the charts plot (fame, notoriety, gold, ...), in a
    /// fixed order.
    pub values: Vec<Measure>,
}

/// One measured value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Measure {
    pub name: String,
    pub value: i64,
}

/// How one character's victory points were scored.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FinalScore {
    pub character: String,
    pub player: String,
    pub categories: Vec<CategoryScore>,
    pub total: i64,
    /// Why the categories do not add up to the total (a dead character).
    pub note: Option<String>,
}

/// One category of a final score, as the BIMR4 GM showed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CategoryScore {
    pub category: String,
    /// Victory points the player assigned to it.
    pub assigned: i64,
    /// Points per victory point.
    pub factor: i64,
    pub required: i64,
    pub acquired: i64,
    /// (acquired − required, tripled when negative) ÷ factor, rounded down.
    pub basic: i64,
    /// basic × assigned.
    pub bonus: i64,
}
