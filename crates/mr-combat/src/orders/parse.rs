//! Reading a recorded day as players actually write it.
//!
//! Accepts every notation the PBEM GMs used (README "Orders"): phases
//! split by `,` or `/`; `M CV4`, `M-CV4`, `MCV4`, `M Curst Valley 4`; `H`, `S`,
//! `A`, `R`, `T`, `HR`; `R-V3*` and `R(Fight L3*)` naming the chit to rest;
//! `F Elf`, `Follow Swordsman`, `Follows the Swordsman`; `FL OW`, `Fly-OW` and
//! `F OW` (F with a tile is Fly, as 3.1's Daylight Activities table writes it);
//! `SPX` and `SP`; bonus phases starred before or after the code (`*M DV5`,
//! `H*`, `M-NW5*(workhorse)`), except that in `R-V3*` the star is the chit's
//! effort star; parenthesised notes; any case; tile codes or full names.
//!
//! Errors name the line, the column and what was expected, with the nearest
//! valid form where one is close. The parser never panics.

use std::fmt;

use crate::combat::orders::ChitCards;
use crate::data::terms::Colour;

use super::activity::{Activities, Activity, PEER_NOTE, Phase};
use super::error::OrdersError;

/// Where the parser looks up tile names: codes, aliases and full names.
pub trait TileNames {
    /// The full name of the tile `text` names, in any case, or `None`.
    fn resolve(&self, text: &str) -> Option<&str>;
    /// Every name and code a player may use, for suggestions.
    fn known(&self) -> Vec<&str>;
    /// The clearing numbers of the tile with this full name, when known.
    fn clearings(&self, _tile: &str) -> Option<Vec<u8>> {
        None
    }
}

/// Every name an orders mail may use that the game data define: tiles and
/// clearings, and the Boots and Gloves cards a `Combat:` line plays as chits.
pub trait OrderNames: TileNames + ChitCards {}

impl<T: TileNames + ChitCards> OrderNames for T {}

/// A recorded line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    /// 1-based, counted in characters.
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// The activities a player can record, with every spelling accepted, longest
/// first so that `HR` wins over `H` and `SPX` over `SP` and `S`. The third
/// edition's codes stand beside the older ones players also wrote (3.1
/// 7.10.1): `EM`, the day's first Enchant, is `SPX`; `E`, each later one,
/// is `SP`; `RE`, a remote Enchant, is `E` with the clearing whose tile it
/// turns in a `tile` note (7.5.4); `P`, a Peer, is `S` with a `peer` note
/// naming the clearing of an enhanced Peer (7.5.4i), or none for a Peer in
/// his own clearing.
const KEYWORDS: &[(&str, Keyword)] = &[
    ("follows the", Keyword::Follow),
    ("follows", Keyword::Follow),
    ("follow", Keyword::Follow),
    ("search", Keyword::Search),
    ("cache", Keyword::Cache),
    ("alert", Keyword::Alert),
    ("trade", Keyword::Trade),
    ("hire", Keyword::Hire),
    ("hide", Keyword::Hide),
    ("rest", Keyword::Rest),
    ("move", Keyword::Move),
    ("spx", Keyword::SpellPrep),
    ("fly", Keyword::Fly),
    ("fl", Keyword::Fly),
    ("hr", Keyword::Hire),
    ("em", Keyword::SpellPrep),
    ("re", Keyword::RemoteSpell),
    ("sp", Keyword::Spell),
    ("m", Keyword::Move),
    ("h", Keyword::Hide),
    ("s", Keyword::Search),
    ("a", Keyword::Alert),
    ("r", Keyword::Rest),
    ("t", Keyword::Trade),
    ("f", Keyword::Follow),
    ("c", Keyword::Cache),
    ("e", Keyword::Spell),
    ("p", Keyword::Peer),
];

/// Whether a phase as written opens with an activity code as a whole word
/// (`M CV4`, `MCV4`, `Hide`, `F Elf`), even one whose argument does not read:
/// such a line is a faulty order, not prose. `A` and `P` alone are not enough (they
/// open English sentences and a "P.S."); a phase of one must read whole.
pub fn opens_with_activity(phase: &str) -> bool {
    let phase = phase.trim_start().trim_start_matches('*').trim_start();
    let word: String = phase
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let run_into_destination =
        word.len() > 1 && word.starts_with('m') && word.ends_with(|c: char| c.is_ascii_digit());
    run_into_destination
        || KEYWORDS
            .iter()
            .any(|&(code, _)| code == word && code != "a" && code != "p")
}

const ACTIVITY_LIST: &str = "M (move), H (hide), S (search), A (alert), R (rest), T (trade), HR (hire), F (follow), FL (fly), EM or SPX (the first enchant), E or SP (each later enchant), RE (a remote enchant), P (a peer, P (CV5) an enhanced one), or C (cache)";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Keyword {
    Move,
    Hide,
    Alert,
    Rest,
    Search,
    Trade,
    Hire,
    Follow,
    Fly,
    SpellPrep,
    Spell,
    RemoteSpell,
    Peer,
    Cache,
}

/// Parse one recorded line (`line` is its number in the mail, for errors).
///
/// # Errors
/// The first problem, with its column and what was expected there.
pub fn parse_activities(
    text: &str,
    line: usize,
    tiles: &dyn TileNames,
) -> Result<Activities, ParseError> {
    let (activities, alternatives) = parse_with_alternatives(text, line, tiles)?;
    match alternatives.into_iter().next() {
        None => Ok(activities),
        Some((_, (_, column))) => Err(ParseError {
            line,
            column,
            message: "alternatives ('or') are read only on the Activities line, for a character \
                      under Prophecy; record one activity per phase here"
                .to_string(),
        }),
    }
}

/// Phase index → its alternatives after the first, in order.
pub type Alternatives = std::collections::BTreeMap<usize, Vec<Phase>>;

/// [`parse_activities`] for the `Activities:` line, where a phase may list
/// alternatives joined by `or` (`M CV4 or H`) for a character under
/// Prophecy: the phases hold the first alternative of each, the map the
/// others. The alternatives' 1-based columns come with them for errors.
///
/// # Errors
/// As [`parse_activities`], an alternative with nothing before or after
/// its `or` included.
pub fn parse_recorded(
    text: &str,
    line: usize,
    tiles: &dyn TileNames,
) -> Result<(Activities, Alternatives), ParseError> {
    let (activities, alternatives) = parse_with_alternatives(text, line, tiles)?;
    let mut map = Alternatives::new();
    for (index, (phase, _)) in alternatives {
        map.entry(index).or_default().push(phase);
    }
    Ok((activities, map))
}

/// Every alternative after the first: its phase index and column.
type Found = Vec<(usize, (Phase, usize))>;

fn parse_with_alternatives(
    text: &str,
    line: usize,
    tiles: &dyn TileNames,
) -> Result<(Activities, Found), ParseError> {
    // GMs ended a recorded day like a sentence ("H / H / S (for hidden
    // enemies)."): a full stop after the last activity is forgiven like a
    // trailing separator. Cutting at the end keeps every column.
    let text = text.trim_end();
    let text = text.strip_suffix('.').unwrap_or(text);
    let chars: Vec<char> = text.chars().collect();
    let segments = split_phases(&chars, line)?;
    if segments.iter().all(|s| s.is_blank(&chars)) {
        return Err(ParseError {
            line,
            column: 1,
            message: format!("expected at least one activity: {ACTIVITY_LIST}"),
        });
    }
    let last = segments.len() - 1;
    let mut phases = Vec::with_capacity(segments.len());
    let mut others = Vec::new();
    for (i, segment) in segments.iter().enumerate() {
        // A separator at the very end ("H, S,") is forgiven; one in the
        // middle means a phase is missing.
        if i == last && segment.is_blank(&chars) {
            break;
        }
        let reader = Reader {
            chars: &chars,
            line,
            tiles,
        };
        let choices = split_or(&chars, segment);
        phases.push(reader.phase(choices[0].start, choices[0].end)?);
        for choice in &choices[1..] {
            let phase = reader.phase(choice.start, choice.end)?;
            let column = reader.skip_space(choice.start, choice.end) + 1;
            others.push((phases.len() - 1, (phase, column)));
        }
    }
    Ok((Activities { phases }, others))
}

/// Split a phase at each ` or ` outside parentheses.
fn split_or(chars: &[char], segment: &Segment) -> Vec<Segment> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = segment.start;
    let mut i = segment.start;
    while i < segment.end {
        match chars[i] {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if depth == 0 && c.is_whitespace() && i + 3 <= segment.end => {
                let or = chars[i + 1].eq_ignore_ascii_case(&'o')
                    && chars[i + 2].eq_ignore_ascii_case(&'r');
                let ends = i + 3 == segment.end || chars[i + 3].is_whitespace();
                if or && ends {
                    parts.push(Segment { start, end: i });
                    start = i + 3;
                    i += 3;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(Segment {
        start,
        end: segment.end,
    });
    parts
}

/// A phase's character range in the line.
struct Segment {
    start: usize,
    end: usize,
}

impl Segment {
    fn is_blank(&self, chars: &[char]) -> bool {
        chars[self.start..self.end]
            .iter()
            .all(|c| c.is_whitespace())
    }
}

/// Split at `,` and `/` outside parentheses, so a note may hold either.
fn split_phases(chars: &[char], line: usize) -> Result<Vec<Segment>, ParseError> {
    let mut segments = Vec::new();
    let mut depth = 0usize;
    let mut open_at = 0;
    let mut start = 0;
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '(' => {
                if depth == 0 {
                    open_at = i;
                }
                depth += 1;
            }
            ')' if depth == 0 => {
                return Err(ParseError {
                    line,
                    column: i + 1,
                    message: "found ')' with no '(' before it".to_string(),
                });
            }
            ')' => depth -= 1,
            ',' | '/' if depth == 0 => {
                segments.push(Segment { start, end: i });
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth > 0 {
        return Err(ParseError {
            line,
            column: open_at + 1,
            message: "expected ')' to close the note opened here".to_string(),
        });
    }
    segments.push(Segment {
        start,
        end: chars.len(),
    });
    Ok(segments)
}

struct Reader<'a> {
    chars: &'a [char],
    line: usize,
    tiles: &'a dyn TileNames,
}

impl Reader<'_> {
    fn error(&self, index: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            line: self.line,
            column: index + 1,
            message: message.into(),
        }
    }

    fn text(&self, start: usize, end: usize) -> String {
        self.chars[start..end].iter().collect()
    }

    fn skip_space(&self, mut i: usize, end: usize) -> usize {
        while i < end && self.chars[i].is_whitespace() {
            i += 1;
        }
        i
    }

    fn trim_end(&self, start: usize, mut end: usize) -> usize {
        while end > start && self.chars[end - 1].is_whitespace() {
            end -= 1;
        }
        end
    }

    /// One phase: `[*] keyword [*] [argument] [*] (note)…`.
    fn phase(&self, start: usize, end: usize) -> Result<Phase, ParseError> {
        let mut i = self.skip_space(start, end);
        let mut bonus = false;
        if i < end && self.chars[i] == '*' {
            bonus = true;
            i = self.skip_space(i + 1, end);
        }
        let body_end = self.chars[i..end]
            .iter()
            .position(|&c| c == '(')
            .map_or(end, |p| i + p);
        let mut notes = self.notes(body_end, end)?;
        let body_end = self.trim_end(i, body_end);
        if i == body_end {
            let found = if i < end {
                format!("'{}'", self.chars[i])
            } else {
                "nothing".to_string()
            };
            return Err(self.error(
                i,
                format!("expected an activity ({ACTIVITY_LIST}), found {found}"),
            ));
        }
        let (keyword, after) = self.keyword(i, body_end)?;
        let mut j = after;
        if j < body_end && self.chars[j] == '*' {
            bonus = true;
            j += 1;
        }
        // One separator between the code and its argument: `M-CV4`, `M CV4`.
        j = self.skip_space(j, body_end);
        if j < body_end && self.chars[j] == '-' {
            j = self.skip_space(j + 1, body_end);
        }
        let activity = match keyword {
            Keyword::Move => {
                let (arg_end, star) = self.strip_stars(j, body_end);
                bonus |= star;
                let (tile, clearing) = self.destination(j, arg_end, i)?;
                Activity::Move { tile, clearing }
            }
            Keyword::Fly => {
                let (arg_end, star) = self.strip_stars(j, body_end);
                bonus |= star;
                if j == arg_end {
                    return Err(self.error(j, "expected the tile to fly to, for example FL-OW"));
                }
                Activity::Fly {
                    tile: self.tile(j, arg_end)?,
                }
            }
            Keyword::Follow => {
                let (arg_end, star) = self.strip_stars(j, body_end);
                bonus |= star;
                let mut leader = self.text(j, arg_end);
                if let Some(rest) = leader
                    .strip_prefix("the ")
                    .or_else(|| leader.strip_prefix("The "))
                {
                    leader = rest.trim_start().to_string();
                }
                if leader.is_empty() {
                    return Err(self.error(j, "expected whom to follow, for example F Elf"));
                }
                // 3.1's Daylight Activities table writes Fly `F (tile)`: a
                // tile is never a character or leader to follow.
                match self.tiles.resolve(&leader) {
                    Some(tile) => Activity::Fly {
                        tile: tile.to_string(),
                    },
                    None => Activity::Follow { leader },
                }
            }
            Keyword::Rest => Activity::Rest {
                chit: self.named_chit(j, body_end, &mut notes, false)?,
            },
            Keyword::Spell => Activity::Spell {
                chit: self.named_chit(j, body_end, &mut notes, true)?,
            },
            Keyword::RemoteSpell => {
                let (arg_end, star) = self.strip_stars(j, body_end);
                bonus |= star;
                let (tile, clearing) = if j < arg_end {
                    self.destination(j, arg_end, i)?
                } else {
                    let clearing = self.first_note(body_end, end).ok_or_else(|| {
                        self.error(
                            i,
                            "expected the clearing whose tile to enchant, for example RE (CV5)",
                        )
                    })?;
                    notes.remove(0);
                    self.destination(clearing.0, clearing.1, i)?
                };
                notes.insert(0, format!("tile {tile} {clearing}"));
                Activity::Spell { chit: None }
            }
            Keyword::Peer => {
                let (arg_end, star) = self.strip_stars(j, body_end);
                bonus |= star;
                let clearing = if j < arg_end {
                    Some(self.destination(j, arg_end, i)?)
                } else {
                    // A first note ending in a number names the clearing
                    // (`P (CV5)`); any other is a remark (`P (the ball)`).
                    match self.first_note(body_end, end) {
                        Some((from, to))
                            if self.chars[from..to]
                                .last()
                                .is_some_and(char::is_ascii_digit) =>
                        {
                            notes.remove(0);
                            Some(self.destination(from, to, i)?)
                        }
                        _ => None,
                    }
                };
                notes.insert(
                    0,
                    match clearing {
                        Some((tile, clearing)) => format!("{PEER_NOTE} {tile} {clearing}"),
                        None => PEER_NOTE.to_string(),
                    },
                );
                Activity::Search
            }
            simple => {
                if j < body_end {
                    return Err(self.error(
                        j,
                        format!(
                            "expected the end of the phase or a note in parentheses after {}, found '{}'",
                            self.text(i, after).to_uppercase(),
                            self.text(j, body_end)
                        ),
                    ));
                }
                match simple {
                    Keyword::Hide => Activity::Hide,
                    Keyword::Alert => Activity::Alert,
                    Keyword::Search => Activity::Search,
                    Keyword::Trade => Activity::Trade,
                    Keyword::Hire => Activity::Hire,
                    Keyword::Cache => Activity::Cache,
                    _ => Activity::SpellPrep,
                }
            }
        };
        let note = if notes.is_empty() {
            None
        } else {
            Some(notes.join("; "))
        };
        Ok(Phase {
            activity,
            bonus,
            note,
        })
    }

    /// The parenthesised notes from `start` to the end of the phase; only
    /// white space may stand between and after them.
    fn notes(&self, start: usize, end: usize) -> Result<Vec<String>, ParseError> {
        let mut notes = Vec::new();
        let mut i = start;
        while i < end {
            match self.chars[i] {
                c if c.is_whitespace() => i += 1,
                '(' => {
                    let mut depth = 0;
                    let mut close = i;
                    for (k, &c) in self.chars[i..end].iter().enumerate() {
                        match c {
                            '(' => depth += 1,
                            ')' => {
                                depth -= 1;
                                if depth == 0 {
                                    close = i + k;
                                    break;
                                }
                            }
                            _ => {}
                        }
                    }
                    let note = self.text(i + 1, close).trim().to_string();
                    if !note.is_empty() {
                        notes.push(note);
                    }
                    i = close + 1;
                }
                other => {
                    return Err(self.error(
                        i,
                        format!("expected the end of the phase after the note, found '{other}'; put a ',' or '/' between phases"),
                    ));
                }
            }
        }
        Ok(notes)
    }

    /// Match the activity code at `start`; returns it and where it ends.
    fn keyword(&self, start: usize, end: usize) -> Result<(Keyword, usize), ParseError> {
        // Keywords are ASCII; folding only ASCII keeps positions one-to-one.
        let lower: Vec<char> = self.chars[start..end]
            .iter()
            .map(char::to_ascii_lowercase)
            .collect();
        for &(word, keyword) in KEYWORDS {
            // ASCII, so its bytes are its characters.
            let len = word.len();
            if lower.len() < len || !lower.iter().take(len).copied().eq(word.chars()) {
                continue;
            }
            let next = lower.get(len).copied();
            let boundary = match next {
                None => true,
                Some(c) => !c.is_alphanumeric(),
            };
            // `MCV4`: a move may run straight into its destination.
            if boundary || (keyword == Keyword::Move && len == 1) {
                return Ok((keyword, start + len));
            }
        }
        let word_end = self.chars[start..end]
            .iter()
            .position(|c| !c.is_alphanumeric())
            .map_or(end, |p| start + p);
        let word = self.text(start, word_end);
        let codes = [
            "M", "H", "S", "A", "R", "T", "HR", "F", "FL", "EM", "E", "RE", "Fly", "SPX", "SP",
            "P", "C", "Move", "Hide", "Search", "Alert", "Rest", "Trade", "Hire", "Follow",
            "Cache",
        ];
        let hint = realmgm_core::suggest::did_you_mean(&word, codes);
        Err(self.error(
            start,
            format!("expected an activity ({ACTIVITY_LIST}), found '{word}'{hint}"),
        ))
    }

    /// Trailing `*`s on an argument mark a bonus phase.
    fn strip_stars(&self, start: usize, end: usize) -> (usize, bool) {
        let mut e = end;
        while e > start && self.chars[e - 1] == '*' {
            e -= 1;
        }
        (self.trim_end(start, e), e < end)
    }

    /// Where the text inside the first parentheses from `start` begins and
    /// ends, trimmed, when they hold anything.
    fn first_note(&self, start: usize, end: usize) -> Option<(usize, usize)> {
        let open = (start..end).find(|&k| self.chars[k] == '(')?;
        let close = (open..end).find(|&k| self.chars[k] == ')')?;
        let from = self.skip_space(open + 1, close);
        let to = self.trim_end(from, close);
        (from < to).then_some((from, to))
    }

    /// `CV4`, `CV 4`, `Curst Valley 4`, `CV-4`.
    fn destination(
        &self,
        start: usize,
        end: usize,
        code_at: usize,
    ) -> Result<(String, u8), ParseError> {
        if start == end {
            return Err(self.error(code_at, "expected a destination after M, for example M-CV4"));
        }
        let mut digits_start = end;
        while digits_start > start && self.chars[digits_start - 1].is_ascii_digit() {
            digits_start -= 1;
        }
        if digits_start == end {
            if let Some(next) = self.unseparated_phase(start, end) {
                return Err(self.error(
                    next,
                    format!(
                        "expected a ',' or '/' before '{}': phases are separated, for example \
                         M CV4, H, S",
                        self.text(next, end)
                    ),
                ));
            }
            return Err(self.error(
                end.saturating_sub(1).max(start),
                format!(
                    "expected a clearing number after '{}', for example M-CV4",
                    self.text(start, end)
                ),
            ));
        }
        let clearing: u32 = self.text(digits_start, end).parse().unwrap_or(u32::MAX);
        if !(1..=6).contains(&clearing) {
            return Err(self.error(digits_start, "expected a clearing number from 1 to 6"));
        }
        let mut tile_end = self.trim_end(start, digits_start);
        if tile_end > start && self.chars[tile_end - 1] == '-' {
            tile_end = self.trim_end(start, tile_end - 1);
        }
        if tile_end == start {
            return Err(self.error(
                start,
                "expected a tile before the clearing number, for example M-CV4",
            ));
        }
        let tile = self.tile(start, tile_end)?;
        if let Some(clearings) = self.tiles.clearings(&tile)
            && !clearings.contains(&(clearing as u8))
        {
            let listed: Vec<String> = clearings.iter().map(u8::to_string).collect();
            return Err(self.error(
                digits_start,
                format!(
                    "{tile} has no clearing {clearing}; its clearings are {}",
                    listed.join(", ")
                ),
            ));
        }
        Ok((tile, clearing as u8))
    }

    /// Where a second phase starts inside a move's destination written
    /// without separators (`M CV4 H S`): the first word after a word ending
    /// in a clearing number.
    fn unseparated_phase(&self, start: usize, end: usize) -> Option<usize> {
        let mut i = start;
        while i < end {
            if self.chars[i].is_whitespace() && i > start && self.chars[i - 1].is_ascii_digit() {
                let next = (i..end).find(|&j| !self.chars[j].is_whitespace())?;
                return Some(next);
            }
            i += 1;
        }
        None
    }

    fn tile(&self, start: usize, end: usize) -> Result<String, ParseError> {
        let text = self.text(start, end);
        match self.tiles.resolve(&text) {
            Some(name) => Ok(name.to_string()),
            None => {
                let known = self.tiles.known();
                let hint = realmgm_core::suggest::did_you_mean(&text, known.iter().copied());
                Err(self.error(
                    start,
                    format!("expected a tile code or name, found '{text}'{hint}"),
                ))
            }
        }
    }

    /// The chit a rest or an enchantment names, in the phase (`R-V3*`) or in
    /// its note (`R(Fight L3*)`, `SP (enchant V4*)`); a note used this way is
    /// not kept as a note.
    fn named_chit(
        &self,
        start: usize,
        end: usize,
        notes: &mut Vec<String>,
        enchant: bool,
    ) -> Result<Option<String>, ParseError> {
        if start < end {
            let text = self.text(start, end);
            return parse_chit(&text)
                .map(Some)
                .map_err(|why| self.error(start, why.to_string()));
        }
        if let Some(first) = notes.first() {
            let spec = if enchant {
                first
                    .strip_prefix("enchant ")
                    .or_else(|| first.strip_prefix("Enchant "))
                    .unwrap_or(first)
            } else {
                first
            };
            if let Ok(chit) = parse_chit(spec) {
                notes.remove(0);
                return Ok(Some(chit));
            }
            // `E (enchant ITEM into COLOUR)`: an artifact or book into the
            // colour of one of its red numerals (3.1 10.C.3.4.1).
            if let Some(at) = spec
                .to_ascii_lowercase()
                .rfind(" into ")
                .filter(|_| enchant)
            {
                let colour = spec[at + 6..].trim();
                if Colour::named(colour).is_none() {
                    return Err(self.error(
                        start,
                        format!(
                            "expected a colour of magic after 'into' (white, grey, gold, \
                             purple or black), found '{colour}'"
                        ),
                    ));
                }
            }
        }
        Ok(None)
    }
}

/// A chit as players name it: `V3*`, `L3*`, `Fight L3*`, `Magic IV4**`,
/// `Move M4`. Roman numerals are MAGIC types; L, M, H, T are strengths.
/// Returns the canonical name (`MAGIC V3*`, `FIGHT L3*`, `L3*`).
pub fn parse_chit(text: &str) -> Result<String, OrdersError> {
    let text = text.trim();
    let (kind, code) = match text.split_once(char::is_whitespace) {
        Some((word, rest)) => {
            let kind = match word.to_lowercase().as_str() {
                "move" => "MOVE",
                "fight" => "FIGHT",
                "magic" => "MAGIC",
                _ => {
                    return Err(format!(
                        "expected a chit such as V3* or Fight L3*, found '{text}'"
                    )
                    .into());
                }
            };
            (Some(kind), rest.trim())
        }
        None => (None, text),
    };
    let upper = code.to_uppercase();
    let stars = upper.chars().rev().take_while(|&c| c == '*').count();
    let body = &upper[..upper.len() - stars];
    let digits = body.chars().rev().take_while(char::is_ascii_digit).count();
    let (letters, time) = body.split_at(body.len() - digits);
    if digits == 0 || digits > 1 || stars > 2 {
        return Err(format!(
            "expected a chit such as V3* or Fight L3* (type, one-digit time, up to two stars), found '{text}'"
        ).into());
    }
    let roman = matches!(
        letters,
        "I" | "II" | "III" | "IV" | "V" | "VI" | "VII" | "VIII"
    );
    let strength = matches!(letters, "L" | "M" | "H" | "T");
    let kind = match (kind, roman, strength) {
        (None | Some("MAGIC"), true, _) => Some("MAGIC"),
        (Some("MAGIC"), false, _) => {
            return Err(
                format!("a MAGIC chit has a type from I to VIII, found '{letters}'").into(),
            );
        }
        (Some(kind), false, true) => Some(kind),
        (None, false, true) => None,
        _ => {
            return Err(format!(
                "expected a chit's strength (L, M, H, T) or magic type (I to VIII), found '{letters}'"
            ).into());
        }
    };
    let stars = "*".repeat(stars);
    Ok(match kind {
        Some(kind) => format!("{kind} {letters}{time}{stars}"),
        None => format!("{letters}{time}{stars}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A few tiles, enough to test the grammar without the embedded data.
    struct FewTiles;

    impl TileNames for FewTiles {
        fn resolve(&self, text: &str) -> Option<&str> {
            let folded = realmgm_core::suggest::fold(text);
            [
                ("Curst Valley", &["cv", "curstvalley"][..]),
                ("Dark Valley", &["dv", "darkvalley"]),
                ("Deep Woods", &["dw", "deepwoods"]),
                ("Nut Woods", &["nw", "nutwoods"]),
                ("Oak Woods", &["ow", "oakwoods"]),
                ("Mountain", &["mn", "m", "mountain"]),
                ("Ruins", &["ru", "r", "ruins"]),
                ("Borderland", &["bl", "b", "borderland"]),
                ("Cliff", &["cl", "cliff"]),
            ]
            .into_iter()
            .find(|(_, aliases)| aliases.contains(&folded.as_str()))
            .map(|(name, _)| name)
        }

        fn known(&self) -> Vec<&str> {
            vec![
                "CV",
                "DV",
                "DW",
                "NW",
                "OW",
                "MN",
                "RU",
                "BL",
                "CL",
                "Curst Valley",
                "Cliff",
            ]
        }
    }

    fn parse(text: &str) -> Result<Activities, ParseError> {
        parse_activities(text, 1, &FewTiles)
    }

    fn canon(text: &str) -> String {
        parse(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .to_string()
    }

    #[test]
    fn every_move_spelling_reads_the_same() {
        for text in [
            "M CV4",
            "M-CV4",
            "MCV4",
            "M Curst Valley 4",
            "m-cv4",
            "Move CV 4",
            "M-CV-4",
        ] {
            assert_eq!(canon(text), "M-Curst Valley 4", "{text}");
        }
        assert_eq!(canon("MM4"), "M-Mountain 4");
        assert_eq!(canon("MR2 / MB1"), "M-Ruins 2 / M-Borderland 1");
    }

    /// 3.1 7.10.1 writes the Enchant activity `EM` (the day's first) and `E`
    /// (each later one); the BIMR records wrote `SPX` and `SP`.
    #[test]
    fn the_third_editions_enchant_codes_read_as_the_older_ones() {
        assert_eq!(canon("EM / E / E"), canon("SPX / SP / SP"));
        assert_eq!(canon("em, e"), canon("SPX, SP"));
        assert_eq!(canon("M CV4, EM, E"), canon("M CV4, SPX, SP"));
    }

    /// 3.1 7.7.1 and its Activities Table: the orders print the third
    /// edition's codes (`EM`, `E`, `FL`, `HR`) whatever the player wrote, and
    /// what they print reads back as the same day.
    #[test]
    fn the_canonical_text_prints_the_third_editions_codes_3_1_7_7_1() {
        let printed = canon("SPX / SP-V4* / Fly-OW / hire");
        assert_eq!(printed, "EM / E-MAGIC V4* / FL-Oak Woods / HR");
        assert_eq!(canon(&printed), printed);
    }

    /// 3.1 7.5.4i: a Peer is written `P`, an enhanced one with the clearing
    /// (`P (CV5)`, `P CV5`); both print as 3.1 writes them and read back the
    /// same; a "P.S." line is prose, not an activity.
    #[test]
    fn a_peer_is_p_and_an_enhanced_one_names_its_clearing_3_1_7_5_4i() {
        for text in ["P (CV5)", "P CV5", "p-Curst Valley 5"] {
            assert_eq!(canon(text), "P (Curst Valley 5)", "{text}");
        }
        assert_eq!(
            canon("P, P* (CV 5) (the ball)"),
            "P / P* (Curst Valley 5) (the ball)"
        );
        let day = parse("M CV4, P (CV5), P").unwrap();
        assert_eq!(day.phases[1].activity, Activity::Search);
        assert_eq!(day.phases[1].peer_clearing(), Some("Curst Valley 5"));
        assert_eq!(day.phases[2].peer_clearing(), Some(""));
        assert_eq!(
            canon(&canon("M CV4, P (CV5), P")),
            canon("M CV4, P (CV5), P")
        );
        assert!(!opens_with_activity("P.S. see you"));
        assert!(parse("P (XX5)").is_err());
    }

    /// 3.1 10.C.3.4.1: `E (enchant ITEM into COLOUR)` keeps its note for
    /// the day to read and prints as written; a word after `into` that is
    /// no colour of magic is refused at once, naming the colours.
    #[test]
    fn an_item_enchanted_into_a_colour_names_one_3_1_10_c_3_4_1() {
        assert_eq!(
            canon("EM / E (enchant Good Book into Purple)"),
            "EM / E (enchant Good Book into Purple)"
        );
        let err = parse("EM / E (enchant Good Book into mauve)").expect_err("no colour");
        assert!(
            err.to_string()
                .contains("expected a colour of magic after 'into' (white, grey, gold, purple or black), found 'mauve'"),
            "{err}"
        );
    }

    /// 3.1 7.10.1 and 7.5.4: a remote enchant is written `RE (clearing)`;
    /// `RE CV5` and the older `E (tile CV5)` read the same, and all print
    /// the 3.1 code, which reads back as the same day.
    #[test]
    fn a_remote_enchant_is_re_with_its_clearing_3_1_7_10_1() {
        for text in [
            "RE (CV5)",
            "RE CV5",
            "re-Curst Valley 5",
            "E (tile Curst Valley 5)",
        ] {
            assert_eq!(canon(text), "RE (Curst Valley 5)", "{text}");
        }
        let printed = canon("M CV4, RE* (CV 5) (with the Eye), E");
        assert_eq!(
            printed,
            "M-Curst Valley 4 / RE* (Curst Valley 5) (with the Eye) / E"
        );
        assert_eq!(canon(&printed), printed);
        let day = parse("RE CV5").unwrap();
        assert_eq!(day.phases[0].activity, Activity::Spell { chit: None });
        assert_eq!(day.phases[0].note.as_deref(), Some("tile Curst Valley 5"));
        let err = parse("M CV4, RE").unwrap_err();
        assert_eq!(err.column, 8, "{err}");
        assert!(err.message.contains("RE (CV5)"), "{err}");
        let err = parse("RE (CV9)").unwrap_err();
        assert!(err.message.contains("clearing number from 1 to 6"), "{err}");
    }

    /// 3.1's Daylight Activities table writes Fly `F (tile)` (7.3.3a.1 writes
    /// `FL`): `F` with a tile flies there, `F` with anyone else follows him.
    #[test]
    fn f_with_a_tile_is_fly_and_with_a_name_is_follow_3_1_7_3_3a_1() {
        assert_eq!(canon("F OW"), "FL-Oak Woods");
        assert_eq!(canon("F Oak Woods*"), "FL-Oak Woods*");
        assert_eq!(canon("F Elf"), "F Elf");
        assert_eq!(canon("Follow the Swordsman"), "F Swordsman");
    }

    #[test]
    fn bimr_record_lines_parse() {
        assert_eq!(
            canon("H / M-DW6 / M-CV4"),
            "H / M-Deep Woods 6 / M-Curst Valley 4"
        );
        assert_eq!(
            canon("M-CV2 / R-V3* / R-V4* / SPX / SP (enchant V4*)"),
            "M-Curst Valley 2 / R-MAGIC V3* / R-MAGIC V4* / EM / E-MAGIC V4*"
        );
        assert_eq!(
            canon("H / MDW2 / MDW6/ MNW5"),
            "H / M-Deep Woods 2 / M-Deep Woods 6 / M-Nut Woods 5"
        );
        assert_eq!(
            canon("Fly-OW / R-V5* / M-NW2"),
            "FL-Oak Woods / R-MAGIC V5* / M-Nut Woods 2"
        );
        assert_eq!(
            canon("S / S* (Magic Spectacles) / M-MN4"),
            "S / S* (Magic Spectacles) / M-Mountain 4"
        );
        assert_eq!(canon("R* / S* / S"), "R* / S* / S");
        assert_eq!(
            canon("M-NW5*(workhorse) / H / HR*(sceptre)"),
            "M-Nut Woods 5* (workhorse) / H / HR* (sceptre)"
        );
        assert_eq!(canon("H / H / R(Fight L3*)"), "H / H / R-FIGHT L3*");
        assert_eq!(
            canon("S/M NW5/*M DV5"),
            "S / M-Nut Woods 5 / M-Dark Valley 5*"
        );
        assert_eq!(canon("T/HR/HR"), "T / HR / HR");
        assert_eq!(
            canon("H / H / H / H (No orders received.)"),
            "H / H / H / H (No orders received.)"
        );
        assert_eq!(canon("M CV4, H, S"), "M-Curst Valley 4 / H / S");
    }

    #[test]
    fn follow_and_fly_forms() {
        for text in ["F Elf", "Follow Elf", "follows the Elf", "Follows Elf"] {
            assert_eq!(canon(text), "F Elf", "{text}");
        }
        assert_eq!(canon("FL OW"), "FL-Oak Woods");
        assert_eq!(canon("fly ow"), "FL-Oak Woods");
    }

    #[test]
    fn the_star_in_a_rest_chit_is_the_effort_star_not_a_bonus() {
        let day = parse("R-V3*").unwrap();
        assert!(!day.phases[0].bonus);
        assert_eq!(
            day.phases[0].activity,
            Activity::Rest {
                chit: Some("MAGIC V3*".into())
            }
        );
        let day = parse("R*").unwrap();
        assert!(day.phases[0].bonus);
        assert_eq!(day.phases[0].activity, Activity::Rest { chit: None });
    }

    #[test]
    fn notes_may_hold_separators() {
        let day = parse("H (then, if seen / run)").unwrap();
        assert_eq!(day.phases.len(), 1);
        assert_eq!(day.phases[0].note.as_deref(), Some("then, if seen / run"));
    }

    #[test]
    fn errors_name_the_column_and_what_was_expected() {
        let err = parse("H, M-XX4").unwrap_err();
        assert_eq!(err.column, 6);
        assert!(
            err.message
                .contains("expected a tile code or name, found 'XX'"),
            "{err}"
        );

        let err = parse("M-CV").unwrap_err();
        assert!(err.message.contains("clearing number"), "{err}");

        let err = parse("M-CV9").unwrap_err();
        assert_eq!(err.column, 5);
        assert!(err.message.contains("1 to 6"), "{err}");

        let err = parse("H, Hid").unwrap_err();
        assert_eq!(err.column, 4);
        assert!(err.message.contains("did you mean"), "{err}");

        let err = parse("H,, S").unwrap_err();
        assert_eq!(err.column, 3);

        let err = parse("H (note").unwrap_err();
        assert_eq!(err.column, 3);
        assert!(err.message.contains("')'"), "{err}");

        let err = parse("Hx").unwrap_err();
        assert_eq!(err.column, 1);

        let err = parse("H now").unwrap_err();
        assert!(err.message.contains("after H"), "{err}");

        let err = parse("").unwrap_err();
        assert!(err.message.contains("at least one activity"), "{err}");

        let err = parse("M-Curst Valey 4").unwrap_err();
        assert!(err.message.contains("did you mean Curst Valley"), "{err}");

        let err = parse("R-Z3").unwrap_err();
        assert!(err.message.contains("strength"), "{err}");
    }

    #[test]
    fn a_trailing_separator_is_forgiven() {
        assert_eq!(canon("H, S,"), "H / S");
    }

    #[test]
    fn chits_have_one_canonical_name() {
        assert_eq!(parse_chit("v3*"), Ok("MAGIC V3*".into()));
        assert_eq!(parse_chit("Magic VIII2"), Ok("MAGIC VIII2".into()));
        assert_eq!(parse_chit("fight l3*"), Ok("FIGHT L3*".into()));
        assert_eq!(parse_chit("H5**"), Ok("H5**".into()));
        assert!(parse_chit("Fight V3").is_err());
        assert!(parse_chit("Magic L3").is_err());
        assert!(parse_chit("L34").is_err());
        assert!(parse_chit("L3***").is_err());
    }

    #[test]
    fn no_input_panics() {
        // A seeded walk over strings made of the characters that matter.
        let alphabet: Vec<char> = "MHSARTFLYPXCVDWNOBE0123456789 -*/,()éß\u{130}\t"
            .chars()
            .collect();
        let mut dice = realmgm_core::dice::Dice::new(1, 0);
        for _ in 0..20_000 {
            let len = dice.below("fuzz/len", 14) as usize;
            let text: String = (0..len)
                .map(|_| alphabet[dice.below("fuzz/char", alphabet.len() as u32) as usize])
                .collect();
            let _ = parse(&text);
        }
    }

    #[test]
    fn a_full_stop_after_the_last_activity_is_forgiven() {
        let with_stop = parse_activities("H / H / H / S (for hidden enemies).", 1, &FewTiles)
            .expect("a recorded day ending like a sentence reads");
        let without = parse_activities("H / H / H / S (for hidden enemies)", 1, &FewTiles).unwrap();
        assert_eq!(with_stop, without);
        assert_eq!(with_stop.phases.len(), 4);
        let inside = parse_activities("H. / S", 1, &FewTiles).unwrap_err();
        assert_eq!(
            inside.column, 2,
            "a stop inside the line is still an error: {inside:?}"
        );
    }

    #[test]
    fn a_missing_separator_and_a_clearing_the_tile_lacks_are_explained() {
        let data = crate::data::get().unwrap();
        let joined = parse_activities("M CV4 H S", 1, data).unwrap_err();
        assert_eq!(joined.column, 7);
        assert!(
            joined
                .message
                .contains("expected a ',' or '/' before 'H S'"),
            "{joined:?}"
        );
        let missing = parse_activities("M CV3, H", 1, data).unwrap_err();
        assert_eq!(missing.column, 5);
        assert_eq!(
            missing.message,
            "Curst Valley has no clearing 3; its clearings are 1, 2, 4, 5"
        );
        assert!(parse_activities("M CV4 / H", 1, data).is_ok());
    }
}
