//! The orders lines for what a character does with his hirelings and his
//! belongings and with other characters (play summary I.C,
//! II.C.8, II.D.1, IV.A):
//!
//! ```text
//! Soldier HQ: M CV4, S, T              a hired leader's own phases
//! Send: Soldier 1; Soldier 2 with Soldier HQ   hirelings who follow him, not me
//! Leave: Soldier 2; Soldier 3          hirelings who stay where they stand today
//! Phase 3: activate Shield; abandon Lantern
//! After phase 3: pick up Spear         Dropping and Losing Belongings only
//! Midnight: inactivate Spear
//! Give: Lantern to Elf                 at Midnight unless 'at phase N' follows
//! Receive: Lantern from Amazon         the other side of a Give
//! Trade: Lantern to Elf for 10 gold at phase 2
//! Tell: Elf my paths and passages      no answering line needed
//! Trade: 10 gold to Elf for Spear by Soldier HQ   my hired leader deals where he stands
//! Give: Spear to Soldier HQ            a deal with another player's hired leader
//! ```
//!
//! A deal is one side of an exchange: what he gives, what he gets, with whom
//! and when. Two sides match when each gives what the other gets, at the
//! same time. Telling what one knows needs no answer, as it costs the
//! listener nothing.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::error::OrdersError;
use realmgm_core::suggest::fold;

/// When a deal or a rearrangement happens: at the start of a Daylight phase
/// (of either party's turn, for a deal) or at Midnight; picking up dropped
/// belongings also at the end of a phase of his turn (3.1 10.A.5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum When {
    Phase(u8),
    AfterPhase(u8),
    Midnight,
}

impl When {
    /// The orders line key that names this time: `Phase 3`, `After phase 3`,
    /// `Midnight`.
    pub fn line_key(self) -> String {
        match self {
            When::Phase(n) => format!("Phase {n}"),
            When::AfterPhase(n) => format!("After phase {n}"),
            When::Midnight => "Midnight".to_string(),
        }
    }
}

impl fmt::Display for When {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            When::Phase(n) => write!(f, "phase {n}"),
            When::AfterPhase(n) => write!(f, "the end of phase {n}"),
            When::Midnight => f.write_str("Midnight"),
        }
    }
}

/// What one character knows that he can tell another (play summary IV.A).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Secret {
    /// The hidden paths he has discovered.
    Paths,
    /// The secret passages he has discovered.
    Passages,
    /// The treasure locations (site chits) he has found.
    Sites,
}

impl Secret {
    pub const ALL: [Secret; 3] = [Secret::Paths, Secret::Passages, Secret::Sites];
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Secret::Paths => "paths",
            Secret::Passages => "passages",
            Secret::Sites => "sites",
        })
    }
}

/// One thing given in a deal.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "goods", content = "what", rename_all = "snake_case")]
pub enum Goods {
    /// A weapon, armour, treasure or horse, by name.
    Item(String),
    Gold(u32),
    Secret(Secret),
}

impl fmt::Display for Goods {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Goods::Item(name) => f.write_str(name),
            Goods::Gold(gold) => write!(f, "{gold} gold"),
            Goods::Secret(secret) => secret.fmt(f),
        }
    }
}

/// Goods as a line or a report names them: `Lantern, 10 gold`.
pub fn goods_list(goods: &[Goods]) -> String {
    goods
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// One entry of a `Cache:` line: an item or an amount of gold to put into
/// his cache, or (`take ...`) to take out; `take all` empties it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheEntry {
    pub take: bool,
    /// The item named, or `all`; empty for gold.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub what: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gold: Option<u32>,
}

impl CacheEntry {
    /// Read `Spear; 10 gold; take Lantern; take all` (entries as a deal
    /// line reads them, `and` too).
    pub fn parse_line(text: &str) -> Vec<CacheEntry> {
        entries(text)
            .into_iter()
            .map(|entry| {
                let (take, rest) = match entry.split_once(char::is_whitespace) {
                    Some((word, rest)) if word.eq_ignore_ascii_case("take") => (true, rest.trim()),
                    _ => (false, entry.as_str()),
                };
                let gold = gold_amount(rest);
                CacheEntry {
                    take,
                    what: if gold.is_some() {
                        String::new()
                    } else {
                        rest.to_string()
                    },
                    gold,
                }
            })
            .collect()
    }
}

impl CacheEntry {
    /// What the entry moves: `10 gold` or the item named.
    pub fn thing(&self) -> String {
        match self.gold {
            Some(gold) => format!("{gold} gold"),
            None => self.what.clone(),
        }
    }
}

impl fmt::Display for CacheEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.take {
            f.write_str("take ")?;
        }
        f.write_str(&self.thing())
    }
}

/// One side of a deal with another character.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealLine {
    /// The other party, a character's name as written.
    pub with: String,
    pub gives: Vec<Goods>,
    pub gets: Vec<Goods>,
    pub at: When,
    /// The hired leader of his who makes this deal where he stands, for
    /// him (`... by Soldier HQ`); none: the character himself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
}

impl DealLine {
    /// A deal that gives only knowledge and asks nothing: the listener need
    /// not answer it.
    pub fn is_telling(&self) -> bool {
        self.gets.is_empty()
            && !self.gives.is_empty()
            && self.gives.iter().all(|g| matches!(g, Goods::Secret(_)))
    }

    /// The key and value that write this side back as an orders line.
    fn line(&self) -> (&'static str, String) {
        let list = goods_list;
        let by = self
            .by
            .as_ref()
            .map(|leader| format!(" by {leader}"))
            .unwrap_or_default();
        let at = match self.at {
            When::Midnight => by,
            // A deal line reads no end-of-phase time (`split_time`).
            When::Phase(n) | When::AfterPhase(n) => format!("{by} at phase {n}"),
        };
        if self.is_telling() {
            ("Tell", format!("{} {}{at}", self.with, list(&self.gives)))
        } else if self.gets.is_empty() {
            (
                "Give",
                format!("{} to {}{at}", list(&self.gives), self.with),
            )
        } else if self.gives.is_empty() {
            (
                "Receive",
                format!("{} from {}{at}", list(&self.gets), self.with),
            )
        } else {
            (
                "Trade",
                format!(
                    "{} to {} for {}{at}",
                    list(&self.gives),
                    self.with,
                    list(&self.gets)
                ),
            )
        }
    }
}

impl fmt::Display for DealLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (key, value) = self.line();
        write!(f, "{key}: {value}")
    }
}

/// What to do with one belonging when rearranging.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arrange {
    Activate,
    Inactivate,
    /// Lose it (3.1 10.A.5.1): it goes to the clearing's pile, found only by
    /// looting; under the basic rules every abandoned belonging goes there.
    Abandon,
    /// Drop it in plain sight in front of himself (3.1 10.A.5.2); without
    /// Dropping and Losing Belongings it is abandoned as under the basic rules.
    Drop,
    /// Pick up a dropped belonging (3.1 10.A.5.3–4).
    PickUp,
    /// Load a belonging on a pack horse (`load Spear on Workhorse`).
    Load,
    /// Take a belonging (or `all`) off his pack horses.
    Unload,
}

impl fmt::Display for Arrange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Arrange::Activate => "activate",
            Arrange::Inactivate => "inactivate",
            Arrange::Abandon => "abandon",
            Arrange::Drop => "drop",
            Arrange::PickUp => "pick up",
            Arrange::Load => "load",
            Arrange::Unload => "unload",
        })
    }
}

/// What he does at the start of a phase or at Midnight (3.1 rule 7.2): the
/// belongings to rearrange, in order (7.2.2), and the colour chits he
/// fatigues at will (`fatigue MAGIC III2*`, 7.2.3c; Daylight phases only).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rearrangement {
    pub at: When,
    pub steps: Vec<(Arrange, String)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fatigue: Vec<String>,
}

impl fmt::Display for Rearrangement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = self.at.line_key();
        let steps: Vec<String> = self
            .steps
            .iter()
            .map(|(how, item)| format!("{how} {item}"))
            .chain(self.fatigue.iter().map(|chit| format!("fatigue {chit}")))
            .collect();
        write!(f, "{key}: {}", steps.join("; "))
    }
}

/// A `load` step's belonging and the horse it names, if any
/// (`Spear on Horse 1`).
pub fn load_target(step: &str) -> (&str, Option<&str>) {
    match step.rsplit_once(" on ") {
        Some((item, horse)) => (item.trim(), Some(horse.trim())),
        None => (step.trim(), None),
    }
}

/// The time a folded key names: `phase3` → phase 3, `afterphase3` → the
/// end of phase 3, `midnight`.
pub fn when_of_key(folded_key: &str) -> Option<When> {
    if folded_key == "midnight" {
        return Some(When::Midnight);
    }
    let (after, key) = match folded_key.strip_prefix("after") {
        Some(rest) => (true, rest),
        None => (false, folded_key),
    };
    let n: u8 = key.strip_prefix("phase")?.parse().ok()?;
    let at = if after {
        When::AfterPhase(n)
    } else {
        When::Phase(n)
    };
    (1..=MAX_PHASE).contains(&n).then_some(at)
}

/// No day has more phases than this (four, bonus and sheltered phases).
const MAX_PHASE: u8 = 12;

/// `activate Shield; inactivate Spear, abandon Lantern`.
///
/// # Errors
/// An entry that does not start with activate, inactivate or abandon.
pub fn parse_rearrangement(at: When, value: &str) -> Result<Rearrangement, OrdersError> {
    let mut steps = Vec::new();
    let mut fatigue = Vec::new();
    for entry in value
        .split([';', ','])
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let (verb, item) = entry.split_once(' ').unwrap_or((entry, ""));
        // `pick up Spear` is one verb of two words.
        let (verb, item) = match (fold(verb).as_str(), item.split_once(' ')) {
            ("pick", Some((up, rest))) if fold(up) == "up" => ("pickup", rest),
            _ => (verb, item),
        };
        if fold(verb) == "fatigue" {
            fatigue.push(colour_chit_to_fatigue(at, item)?);
            continue;
        }
        let how = match fold(verb).as_str() {
            "activate" => Arrange::Activate,
            "inactivate" | "deactivate" => Arrange::Inactivate,
            "abandon" | "lose" => Arrange::Abandon,
            "drop" => Arrange::Drop,
            "pickup" => Arrange::PickUp,
            "load" | "place" => Arrange::Load,
            "unload" => Arrange::Unload,
            _ => {
                return Err(format!(
                    "expected 'activate', 'inactivate', 'abandon', 'drop', 'pick up', 'load' or \
                     'unload' and a belonging, for example 'activate Shield', or 'fatigue' and a \
                     colour chit, found '{entry}'"
                )
                .into());
            }
        };
        if matches!(at, When::AfterPhase(_)) && how != Arrange::PickUp {
            return Err(format!(
                "at the end of a phase only dropped belongings are picked up ('pick up \
                 Spear', 3.1 10.A.5.4); to {how} the {} write it on the next phase's line \
                 ('Phase N: {how} ...')",
                item.trim()
            )
            .into());
        }
        let item = item.trim();
        if item.is_empty() {
            return Err(format!("expected the belonging to {how} after '{verb}'").into());
        }
        steps.push((how, item.to_string()));
    }
    if steps.is_empty() && fatigue.is_empty() {
        return Err(
            "expected what to rearrange, for example 'activate Shield; abandon Lantern'".into(),
        );
    }
    Ok(Rearrangement { at, steps, fatigue })
}

/// The colour chit a `fatigue` step names: colour chits are fatigued at
/// will at the start of a Daylight phase (3.1 rule 4.6.4i), not at Midnight.
fn colour_chit_to_fatigue(at: When, chit: &str) -> Result<String, OrdersError> {
    let chit = chit.trim();
    if !matches!(at, When::Phase(_)) {
        return Err(format!(
            "a colour chit is fatigued at will at the start of a Daylight phase \
             ('Phase 1: fatigue MAGIC III2*'), not at {at} (3.1 rule 4.6.4i)"
        )
        .into());
    }
    if chit.is_empty() {
        return Err(
            "expected the colour chit to fatigue, for example 'fatigue MAGIC III2*'".into(),
        );
    }
    Ok(chit.to_string())
}

/// The kinds of deal line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DealKey {
    Give,
    Receive,
    Trade,
    Tell,
}

impl DealKey {
    /// The key a folded line key names.
    pub fn of(folded_key: &str) -> Option<DealKey> {
        match folded_key {
            "give" => Some(DealKey::Give),
            "receive" | "accept" => Some(DealKey::Receive),
            "trade" => Some(DealKey::Trade),
            "tell" => Some(DealKey::Tell),
            _ => None,
        }
    }

    fn example(self) -> &'static str {
        match self {
            DealKey::Give => "'Give: Lantern to Elf' or 'Give: 10 gold to Elf at phase 2'",
            DealKey::Receive => "'Receive: Lantern from Amazon'",
            DealKey::Trade => "'Trade: Lantern to Elf for 10 gold'",
            DealKey::Tell => "'Tell: Elf my paths and passages'",
        }
    }
}

/// One deal line's value.
///
/// # Errors
/// What the line should look like.
pub fn parse_deal(key: DealKey, value: &str) -> Result<DealLine, OrdersError> {
    let expected = || -> OrdersError {
        format!("expected a line such as {}, found '{value}'", key.example()).into()
    };
    let (body, at) = split_time(value)?;
    let (body, by) = match split_word(body, "by") {
        Some((rest, leader)) if !leader.is_empty() => (rest, Some(leader.to_string())),
        _ => (body, None),
    };
    let (gives, with, gets) = match key {
        DealKey::Give => {
            let (goods, with) = split_word(body, "to").ok_or_else(expected)?;
            (parse_goods(goods)?, with, Vec::new())
        }
        DealKey::Receive => {
            let (goods, with) = split_word(body, "from").ok_or_else(expected)?;
            (Vec::new(), with, parse_goods(goods)?)
        }
        DealKey::Trade => {
            let (goods, rest) = split_word(body, "to").ok_or_else(expected)?;
            let (with, price) = split_word(rest, "for").ok_or_else(expected)?;
            (parse_goods(goods)?, with, parse_goods(price)?)
        }
        DealKey::Tell => match split_word(body, "to") {
            Some((secrets, with)) => (parse_secrets(secrets)?, with, Vec::new()),
            None => {
                let (with, secrets) = split_listener(body).ok_or_else(expected)?;
                (parse_secrets(secrets)?, with, Vec::new())
            }
        },
    };
    if with.is_empty() {
        return Err(expected());
    }
    Ok(DealLine {
        with: with.to_string(),
        gives,
        gets,
        at,
        by,
    })
}

/// The value without its trailing `at phase N` / `at midnight`, and the time.
fn split_time(value: &str) -> Result<(&str, When), OrdersError> {
    let lower = value.to_lowercase();
    let Some(at) = lower.rfind(" at ") else {
        return Ok((value.trim(), When::Midnight));
    };
    let time = fold(&value[at + 4..]);
    let when = when_of_key(&time).ok_or_else(|| {
        OrdersError::from(format!(
            "expected 'at phase N' (1 to {MAX_PHASE}) or 'at midnight' after the deal, found 'at {}'",
            value[at + 4..].trim()
        ))
    })?;
    Ok((value[..at].trim(), when))
}

/// `before WORD after`, split at the last whole word `word`.
fn split_word<'v>(text: &'v str, word: &str) -> Option<(&'v str, &'v str)> {
    let lower = text.to_lowercase();
    let at = lower.rfind(&format!(" {word} "))?;
    Some((text[..at].trim(), text[at + word.len() + 2..].trim()))
}

/// `Black Knight my paths`: the listener's name, then the secrets.
fn split_listener(text: &str) -> Option<(&str, &str)> {
    let words: Vec<(usize, &str)> = text
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
        .collect();
    let first_secret = words
        .iter()
        .position(|(_, w)| SECRET_WORDS.contains(&fold(w).as_str()))?;
    let start = words.get(first_secret)?.0;
    Some((text[..start].trim(), &text[start..]))
}

/// Words that start or belong to the list of secrets told.
const SECRET_WORDS: &[&str] = &[
    "my",
    "all",
    "paths",
    "path",
    "hidden",
    "passages",
    "passage",
    "secret",
    "secrets",
    "sites",
    "site",
    "treasure",
    "everything",
    "discoveries",
];

/// Entries separated by `,`, `;` or `and`.
fn entries(text: &str) -> Vec<String> {
    text.split([',', ';'])
        .flat_map(|part| {
            let lower = part.to_lowercase();
            let mut pieces = Vec::new();
            let mut start = 0;
            for (at, _) in lower.match_indices(" and ") {
                pieces.push(part[start..at].to_string());
                start = at + 5;
            }
            pieces.push(part[start..].to_string());
            pieces
        })
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The secrets an entry names, if it names secrets.
fn secrets_of(entry: &str) -> Option<Vec<Secret>> {
    let folded = fold(entry);
    let folded = folded.strip_prefix("my").unwrap_or(&folded);
    let folded = folded.strip_prefix("all").unwrap_or(folded);
    let found = match folded {
        "paths" | "path" | "hiddenpaths" | "hiddenpath" => vec![Secret::Paths],
        "passages" | "passage" | "secretpassages" | "secretpassage" => vec![Secret::Passages],
        "sites" | "site" | "treasuresites" | "treasurelocations" => vec![Secret::Sites],
        "secrets" | "everything" | "discoveries" | "everythingiknow" => Secret::ALL.to_vec(),
        _ => return None,
    };
    Some(found)
}

/// The gold an entry names (`10 gold`, `10g`), if it names gold.
fn gold_amount(entry: &str) -> Option<u32> {
    let lower = entry.trim().to_lowercase();
    lower
        .strip_suffix("gold")
        .or_else(|| lower.strip_suffix('g'))
        .map(str::trim)
        .and_then(|n| n.parse::<u32>().ok())
}

/// Items, gold (`10 gold`) and secrets.
fn parse_goods(text: &str) -> Result<Vec<Goods>, OrdersError> {
    let mut goods = Vec::new();
    for entry in entries(text) {
        if let Some(secrets) = secrets_of(&entry) {
            goods.extend(secrets.into_iter().map(Goods::Secret));
            continue;
        }
        match gold_amount(&entry) {
            Some(0) => return Err("a deal cannot give 0 gold; leave the gold out".into()),
            Some(gold) => goods.push(Goods::Gold(gold)),
            None => goods.push(Goods::Item(entry)),
        }
    }
    if goods.is_empty() {
        return Err("expected what changes hands, for example 'Lantern' or '10 gold'".into());
    }
    goods.sort();
    goods.dedup();
    Ok(goods)
}

/// Only secrets: what a `Tell:` line may give.
fn parse_secrets(text: &str) -> Result<Vec<Goods>, OrdersError> {
    let mut goods = Vec::new();
    for entry in entries(text) {
        let secrets = secrets_of(&entry).ok_or_else(|| {
            OrdersError::from(format!(
                "expected what to tell: paths, passages, sites or secrets (all three), found \
                 '{entry}'; to hand over belongings write a 'Give:' line"
            ))
        })?;
        goods.extend(secrets.into_iter().map(Goods::Secret));
    }
    if goods.is_empty() {
        return Err("expected what to tell: paths, passages, sites or secrets".into());
    }
    goods.sort();
    goods.dedup();
    Ok(goods)
}

/// The recorded phases of one hired leader, written by his employer on a
/// line keyed by the leader's name (`Soldier HQ: M CV4, S, T`), or of one
/// controlled monster, by its controller (`Giant Bat 2: M CV5, H`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderLine {
    pub leader: String,
    pub activities: super::activity::Activities,
}

impl fmt::Display for LeaderLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.leader, self.activities)
    }
}

/// Whether a line key names a hired leader: every native leader is his
/// group's `HQ` (`Soldier HQ`, `Rogue HQ`).
pub fn is_leader_key(folded_key: &str) -> bool {
    folded_key.len() > 2 && folded_key.ends_with("hq")
}

/// Whether a line key names a monster's counter (`Giant Bat 2`, `T
/// Flying Dragon`): a controlled monster's phases, recorded by its
/// controller as a hired leader's are (3.1 6.2.5).
pub fn is_monster_key(folded_key: &str) -> bool {
    let kind = folded_key.trim_end_matches(|c: char| c.is_ascii_digit());
    crate::data::get().is_ok_and(|data| {
        data.monsters
            .iter()
            .any(|m| realmgm_core::suggest::fold(&m.name) == kind)
    })
}

/// Hirelings sent with a hired leader: they follow him, not their employer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendLine {
    pub natives: Vec<String>,
    pub leader: String,
}

impl fmt::Display for SendLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Send: {} with {}", self.natives.join("; "), self.leader)
    }
}

/// `Soldier 1; Soldier 2 with Soldier HQ`.
///
/// # Errors
/// A line without `with LEADER` or without hirelings to send.
pub fn parse_send(value: &str) -> Result<SendLine, OrdersError> {
    let expected = || -> OrdersError {
        format!(
            "expected the hirelings to send and the hired leader they follow, for example \
             'Send: Soldier 1; Soldier 2 with Soldier HQ', found '{value}'"
        )
        .into()
    };
    let (natives, leader) = split_word(value, "with").ok_or_else(expected)?;
    let natives: Vec<String> = natives
        .split([',', ';'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    if natives.is_empty() || leader.is_empty() {
        return Err(expected());
    }
    Ok(SendLine {
        natives,
        leader: leader.to_string(),
    })
}

/// `Soldier 2; Soldier 3`, or `none`.
pub fn parse_leave(value: &str) -> Vec<String> {
    match fold(value).as_str() {
        "none" | "nobody" | "" => Vec::new(),
        _ => value
            .split([',', ';'])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deal(key: DealKey, value: &str) -> DealLine {
        parse_deal(key, value).unwrap_or_else(|e| panic!("{value}: {e}"))
    }

    #[test]
    fn each_kind_of_deal_reads_and_writes_back() {
        let give = deal(DealKey::Give, "Lantern to Elf");
        assert_eq!(give.gives, vec![Goods::Item("Lantern".into())]);
        assert_eq!((give.with.as_str(), give.at), ("Elf", When::Midnight));
        assert_eq!(give.to_string(), "Give: Lantern to Elf");
        let trade = deal(
            DealKey::Trade,
            "Lantern to Black Knight for 10 gold at Phase 2",
        );
        assert_eq!(trade.with, "Black Knight");
        assert_eq!(trade.gets, vec![Goods::Gold(10)]);
        assert_eq!(trade.at, When::Phase(2));
        assert_eq!(
            trade.to_string(),
            "Trade: Lantern to Black Knight for 10 gold at phase 2"
        );
        let receive = deal(DealKey::Receive, "Lantern from Amazon at midnight");
        assert_eq!(receive.gets, vec![Goods::Item("Lantern".into())]);
        assert_eq!(receive.to_string(), "Receive: Lantern from Amazon");
        let tell = deal(DealKey::Tell, "Black Knight my paths and passages");
        assert_eq!(tell.with, "Black Knight");
        assert!(tell.is_telling());
        assert_eq!(tell.to_string(), "Tell: Black Knight paths, passages");
        let all = deal(DealKey::Tell, "secrets to Elf at phase 1");
        assert_eq!(all.gives.len(), 3);
        let by = deal(
            DealKey::Trade,
            "10 gold to Elf for Spear by Soldier HQ at phase 2",
        );
        assert_eq!(by.by.as_deref(), Some("Soldier HQ"));
        assert_eq!((by.with.as_str(), by.at), ("Elf", When::Phase(2)));
        assert_eq!(
            by.to_string(),
            "Trade: 10 gold to Elf for Spear by Soldier HQ at phase 2"
        );
        for written in [&give, &trade, &receive, &tell, &all, &by] {
            let text = written.to_string();
            let (key, value) = text.split_once(": ").expect("a key");
            let key = DealKey::of(&fold(key)).expect("a deal key");
            assert_eq!(&deal(key, value), written, "{text} reads back the same");
        }
    }

    #[test]
    fn unreadable_deals_say_what_was_expected() {
        let error = |key, value| parse_deal(key, value).unwrap_err().to_string();
        assert!(error(DealKey::Give, "Lantern").contains("'Give: Lantern to Elf'"));
        assert!(error(DealKey::Trade, "Lantern to Elf").contains("for 10 gold"));
        assert!(error(DealKey::Tell, "Elf my Lantern").contains("'Give:' line"));
        assert!(error(DealKey::Give, "Lantern to Elf at dawn").contains("at phase N"));
        assert!(error(DealKey::Give, "0 gold to Elf").contains("0 gold"));
    }

    #[test]
    fn rearrangements_read_their_verbs_and_times() {
        assert_eq!(when_of_key("phase3"), Some(When::Phase(3)));
        assert_eq!(when_of_key("midnight"), Some(When::Midnight));
        assert_eq!(when_of_key("phase0"), None);
        let r =
            parse_rearrangement(When::Phase(3), "activate Shield; abandon Lantern").expect("reads");
        assert_eq!(
            r.steps,
            vec![
                (Arrange::Activate, "Shield".to_string()),
                (Arrange::Abandon, "Lantern".to_string())
            ]
        );
        assert_eq!(r.to_string(), "Phase 3: activate Shield; abandon Lantern");
        let wrong = parse_rearrangement(When::Midnight, "polish Shield").unwrap_err();
        assert!(wrong.to_string().contains("'activate Shield'"));
    }

    /// 3.1 10.A.5.1–4: `drop` and `lose` are two choices, and the end of a
    /// phase reads only `pick up`.
    #[test]
    fn drop_lose_and_pick_up_read_as_three_steps() {
        assert_eq!(when_of_key("afterphase2"), Some(When::AfterPhase(2)));
        let r = parse_rearrangement(When::Phase(1), "drop Spear; lose Lantern; pick up Shield")
            .expect("reads");
        assert_eq!(
            r.steps,
            vec![
                (Arrange::Drop, "Spear".to_string()),
                (Arrange::Abandon, "Lantern".to_string()),
                (Arrange::PickUp, "Shield".to_string())
            ]
        );
        assert_eq!(
            r.to_string(),
            "Phase 1: drop Spear; abandon Lantern; pick up Shield"
        );
        let after = parse_rearrangement(When::AfterPhase(2), "Pick Up Shield").expect("reads");
        assert_eq!(after.to_string(), "After phase 2: pick up Shield");
        let wrong = parse_rearrangement(When::AfterPhase(2), "activate Shield").unwrap_err();
        assert!(
            wrong.to_string().contains("only dropped belongings"),
            "{wrong}"
        );
    }

    /// 3.1 rules 4.6.4i and 7.2.3c: a colour chit is fatigued at will at
    /// the start of a Daylight phase, never at Midnight.
    #[test]
    fn a_phase_line_fatigues_colour_chits_and_midnight_cannot() {
        let r = parse_rearrangement(When::Phase(1), "fatigue MAGIC III2*; activate Shield")
            .expect("reads");
        assert_eq!(r.fatigue, vec!["MAGIC III2*".to_string()]);
        assert_eq!(r.steps, vec![(Arrange::Activate, "Shield".to_string())]);
        assert_eq!(
            r.to_string(),
            "Phase 1: activate Shield; fatigue MAGIC III2*"
        );
        let wrong = parse_rearrangement(When::Midnight, "fatigue MAGIC III2*").unwrap_err();
        assert!(wrong.to_string().contains("not at Midnight"), "{wrong}");
    }
}
