//! A player's whole day of orders as written in a mail: the recorded
//! activities plus standing instructions, one `Key: value` line each.
//!
//! ```text
//! Activities: M CV4, H, S
//! Search: peer CV5; locate
//! Buy: Shield up to 10; Broadsword up to 12
//! Sell: Lantern; Shield
//! Hire: Rogues up to 15
//! Take: Flowers of Rest, activate
//! Block: Amazon, Elf
//! Turn: last
//! If impossible: hide
//! Familiar: M CV4, S               (the Witch only: her familiar's phases)
//! Phantasm: M CV5, S               (his phantasm's phases, under Phantasm)
//! Teleport: CN2                    (where the Toadstool Circle sends him)
//! Missions: Escort Party; Conquer  (chits to take where he ends his turn)
//! Character: Elf                   (if he was killed: the character he comes back as)
//! Victory: GT 1, SP 0, F 2, N 1, G 1   (if he was killed: his new character's requirements)
//! Spells: Peace; Exorcise              (if he was killed: his new character's spells)
//! Restart: no                      (if he was killed: he stays out of the game)
//! Suicide: yes                     (he kills himself at this day's Midnight)
//! End game: yes                    (under Sudden Death: he ends the game at Midnight)
//! Develop: FIGHT M5; MOVE M4       (under Development: the next level's chits he takes first)
//! Leave: Soldier 2; Soldier 3      (hirelings who stay where they stand)
//! Phase 3: activate Shield; abandon Lantern   (also Midnight:)
//! Give: Lantern to Elf             (also Receive:, Trade:, Tell:; see `dealings`)
//! ```
//!
//! Under Prophecy a phase of the activities may list alternatives joined by
//! `or` (`M CV4 or H`): the first that can be done is done.
//!
//! A line with no key is read as the activities when none were given yet, so
//! a player may simply write `M CV4, H, S`. Keys are case-insensitive; blank
//! lines and lines starting with `#` are skipped. Every instruction a
//! decision point needs (play summary II.C: which search table, what to buy and
//! for how much, whom to block) has a line here; the engine uses the default
//! when a line is missing.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::activity::Activities;
use super::dealings::{
    DealKey, DealLine, LeaderLine, Rearrangement, SendLine, is_leader_key, is_monster_key,
    parse_deal, parse_leave, parse_rearrangement, parse_send, when_of_key,
};
use super::error::OrdersError;
use super::parse::{OrderNames, ParseError, TileNames, parse_activities, parse_recorded};

/// The tables a search phase can use (play summary II.C.5; `tables/search.rs`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "table", rename_all = "snake_case")]
pub enum SearchTable {
    /// Peer, in the character's clearing or (with an item that allows it) a
    /// named one.
    Peer {
        #[serde(skip_serializing_if = "Option::is_none")]
        tile: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        clearing: Option<u8>,
    },
    Locate,
    Loot,
    MagicSight,
    ReadingRunes,
}

/// Something to buy or hire, and the most the player will pay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Purchase {
    pub what: String,
    /// None: pay whatever the Meeting table asks, if the gold is there.
    pub max_gold: Option<u32>,
}

/// What to take from a pile or a treasure site.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Take {
    pub what: String,
    pub activate: bool,
}

/// Whom the character tries to block at the end of phases (play summary II.D).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Blocking {
    /// Block nobody (the default: blocking is never forced on a player).
    #[default]
    Nobody,
    Everyone,
    Named(Vec<String>),
}

/// What to do with a phase that cannot be done as recorded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WhenImpossible {
    /// Lose the phase, as the rules say (the default).
    #[default]
    Skip,
    /// Hide instead.
    Hide,
    /// Rest instead.
    Rest,
}

/// When a character who may choose when to take his turn (the Swordsman's
/// Clever, `data/characters.toml`) takes it: a place in the day's turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnChoice {
    First,
    Last,
    /// The n-th turn (1 = first); past the number of turns, last.
    Place(u8),
}

/// How a character answers an Insult or a Challenge on the Meeting table
/// (play summary II.C.6, `tables/meeting.rs`): give up 5 notoriety (Insult)
/// or 5 fame (Challenge), or refuse and be blocked and battled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Settle {
    /// Give up the points (the default, as before standing orders said).
    #[default]
    Pay,
    /// Refuse: the group blocks him, and battles him in the Evening.
    Fight,
}

impl Settle {
    pub fn is_pay(&self) -> bool {
        *self == Settle::Pay
    }

    fn parse(text: &str) -> Result<Settle, OrdersError> {
        match text.trim().to_lowercase().as_str() {
            "pay" | "give up" => Ok(Settle::Pay),
            "fight" | "refuse" | "battle" => Ok(Settle::Fight),
            other => Err(OrdersError::Unreadable(format!(
                "expected pay (give up the 5 points) or fight, found '{other}'"
            ))),
        }
    }
}

/// What a character does with a Boon on the Meeting table (`Boon:`; 3.1
/// Meeting table, Boon; 7.6.5e): pay the basic price, or take it free and
/// let the group grow a level colder until he buys the level back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BoonChoice {
    /// Treat it as Price ×1 (the default).
    #[default]
    Pay,
    /// Take the belonging or the natives free, as a boon.
    Free,
}

impl BoonChoice {
    pub fn is_pay(&self) -> bool {
        *self == BoonChoice::Pay
    }

    fn parse(text: &str) -> Result<BoonChoice, OrdersError> {
        match text.trim().to_lowercase().as_str() {
            "pay" => Ok(BoonChoice::Pay),
            "free" | "take" | "take free" => Ok(BoonChoice::Free),
            other => Err(OrdersError::Unreadable(format!(
                "expected pay (the basic price) or free (take it as a boon, the group a level \
                 colder until repaid), found '{other}'"
            ))),
        }
    }
}

/// One character's orders for one day.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DayOrders {
    pub activities: Activities,
    /// The table for each search phase, in order; later searches reuse the last.
    pub searches: Vec<SearchTable>,
    pub buy: Vec<Purchase>,
    /// Belongings a Trade phase sells before it buys (play summary II.C.6 a).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sell: Vec<String>,
    pub hire: Vec<Purchase>,
    /// Gold to spend on drinks before a Meeting-table roll, at most.
    pub drinks_up_to: Option<u32>,
    /// What his Cache phases put into his cache or take out (`Cache:`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cache: Vec<super::dealings::CacheEntry>,
    /// How he answers an Insult on the Meeting table (`Insult:`).
    #[serde(default, skip_serializing_if = "Settle::is_pay")]
    pub insult: Settle,
    /// How he answers a Challenge on the Meeting table (`Challenge:`).
    #[serde(default, skip_serializing_if = "Settle::is_pay")]
    pub challenge: Settle,
    /// What he does with a Boon on the Meeting table (`Boon:`).
    #[serde(default, skip_serializing_if = "BoonChoice::is_pay")]
    pub boon: BoonChoice,
    pub take: Vec<Take>,
    pub block: Blocking,
    /// Where he takes his turn, when he may choose; None: drawn at random.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<TurnChoice>,
    pub when_impossible: WhenImpossible,
    /// The phases of the Witch's familiar, on its own (`data/characters.toml`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub familiar: Option<Activities>,
    /// The cave clearing (tile name, number) to go to when a search of the
    /// Toadstool Circle says "any cave clearing" (`tables/twt.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teleport: Option<(String, u8)>,
    /// Standing combat orders (`Combat:` line); none: the defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<crate::combat::Tactics>,
    /// Phase index → the alternatives written after its first activity
    /// (`M CV4 or H`), read under Prophecy
    /// ([`crate::magic::spells::prophecy`]).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub alternatives: super::parse::Alternatives,
    /// The phases of his phantasm, on its own (`Phantasm:` line;
    /// [`crate::magic::spells::phantasm`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phantasm: Option<Activities>,
    /// Mission and campaign chits to take where he ends his turn
    /// (`Missions:` line; `day::missions`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missions: Vec<String>,
    /// The character he comes back as if his is dead (`Character:` line;
    /// `day::restart`); his own when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub character: Option<String>,
    /// Hirelings who stay where they stand today instead of following him
    /// (`Leave:` line; `day::retinue`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leave: Vec<String>,
    /// Belongings to rearrange at the start of a phase or at Midnight
    /// (`Phase 3:` and `Midnight:` lines; `day::rearrange`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rearrange: Vec<Rearrangement>,
    /// His sides of deals with other characters (`Give:`, `Receive:`,
    /// `Trade:`, `Tell:` lines; `day::dealings`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deals: Vec<DealLine>,
    /// His hired leaders' own phases (`Soldier HQ: M CV4, S` lines;
    /// `day::leader_turn`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leaders: Vec<LeaderLine>,
    /// Hirelings who follow a hired leader instead of him (`Send:` lines).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub send: Vec<SendLine>,
    /// He kills himself at this day's Midnight (`Suicide: yes`; 3.1
    /// 9.2.2a; `day::midnight`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub suicide: bool,
    /// Killed, he stays out of the game instead of starting over
    /// (`Restart: no`; 3.1 9.1.2a; `day::restart`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_restart: bool,
    /// Under Sudden Death, he ends the game at this day's Midnight if he
    /// meets every victory requirement then (`End game: yes`; 3.1 10.E.3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub end_game: bool,
    /// Under Development, the chits of his next level he takes as he earns
    /// them, first named first (`Develop: FIGHT M5; MOVE M4`; 3.1
    /// 10.E.5.4); a standing choice, the card's order after those named.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub develop: Vec<String>,
    /// The victory requirements his new character records when he starts
    /// over (`Victory: GT 1, SP 0, F 2, N 1, G 1`; 3.1 9.1.2a).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory: Option<crate::state::VictoryRequirements>,
    /// The spells his new character records when he starts over, as the
    /// `Spells:` line of setup by mail reads them (`Spells: Peace;
    /// Exorcise`; 3.1 9.1.2a); none given: the dice record them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spells: Option<String>,
    /// Under Multiple Characters, the orders of each character of a player
    /// who plays several, by the character's name, each under its own
    /// `Orders for:` line (3.1 10.E.4.4; `orders::sections`); the fields
    /// above are then left empty.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub characters: std::collections::BTreeMap<String, DayOrders>,
}

/// The keys a line may start with, for errors and suggestions.
const KEYS: &[&str] = &[
    "Activities",
    "Search",
    "Buy",
    "Sell",
    "Hire",
    "Drinks",
    "Cache",
    "Insult",
    "Challenge",
    "Boon",
    "Take",
    "Block",
    "Turn",
    "If impossible",
    "Familiar",
    "Teleport",
    "Combat",
    "Phantasm",
    "Missions",
    "Character",
    "Restart",
    "Suicide",
    "End game",
    "Develop",
    "Victory",
    "Spells",
    "Leave",
    "Send",
    "LEADER HQ",
    "Phase N",
    "Midnight",
    "Give",
    "Receive",
    "Trade",
    "Tell",
];

/// Read an orders text; `first_line` is the line number of its first line
/// in the mail, so errors point into the mail the player sent.
///
/// # Errors
/// Every line that could not be read, each with its line, column and what
/// was expected; the player gets them all in one reply.
pub fn parse_day_orders(
    text: &str,
    first_line: usize,
    names: &dyn OrderNames,
) -> Result<DayOrders, Vec<ParseError>> {
    let tiles: &dyn TileNames = names;
    let mut orders = DayOrders::default();
    let mut errors = Vec::new();
    let mut activities_line = None;
    // The last line of activities written a phase a line: the next phase
    // may follow on the line right under it. Two lines of several phases
    // each stay an error, as one may be an old day's.
    let mut activities_end = None;
    for (offset, raw) in text.lines().enumerate() {
        let line = first_line + offset;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = raw.chars().take_while(|c| c.is_whitespace()).count();
        let (key, value, value_col) = match split_key(trimmed) {
            Some((key, value, col)) => (Some(key), value, indent + col),
            None => {
                let (phases, skipped) = without_phase_number(trimmed);
                (None, phases, indent + skipped)
            }
        };
        let error = |column: usize, problem: OrdersError| ParseError {
            line,
            column: column + 1,
            message: problem.to_string(),
        };
        let result = match key.as_deref() {
            Some("activities") | None => {
                let more_phases = (key.is_none() && activities_end == Some(line - 1))
                    .then(|| parse_recorded(value, line, tiles).ok())
                    .flatten()
                    .filter(|(more, _)| more.phases.len() == 1);
                if let Some((more, alternatives)) = more_phases {
                    let before = orders.activities.phases.len();
                    orders.activities.phases.extend(more.phases);
                    orders.alternatives.extend(
                        alternatives
                            .into_iter()
                            .map(|(index, phases)| (before + index, phases)),
                    );
                    activities_end = Some(line);
                    Ok(())
                } else if let Some(previous) = activities_line
                    .filter(|_| key.is_none() && parse_recorded(value, line, tiles).is_ok())
                {
                    Err(vec![error(
                        indent,
                        format!(
                            "these phases come after the activities of line {previous}; write \
                             all of the day's phases on that line, in order (`M CV4, H, S, S`)"
                        )
                        .into(),
                    )])
                } else if key.is_none() && activities_line.is_some() {
                    let word = trimmed.split(':').next().unwrap_or(trimmed);
                    let hint = realmgm_core::suggest::did_you_mean(word, KEYS.iter().copied());
                    Err(vec![error(
                        indent,
                        format!(
                            "expected a line starting with one of {}{hint}; the activities were already given on line {}",
                            KEYS.join(", "),
                            activities_line.unwrap_or(0)
                        ).into(),
                    )])
                } else if let Some(previous) = activities_line.filter(|_| key.is_some()) {
                    Err(vec![error(
                        indent,
                        format!(
                            "the activities were already given on line {previous}; send one Activities line"
                        ).into(),
                    )])
                } else {
                    activities_line = Some(line);
                    // Columns inside the value are shifted to the mail line.
                    parse_recorded(value, line, tiles)
                        .map(|(a, alternatives)| {
                            if a.phases.len() == 1 {
                                activities_end = Some(line);
                            }
                            orders.activities = a;
                            orders.alternatives = alternatives;
                        })
                        .map_err(|mut e| {
                            e.column += value_col;
                            vec![e]
                        })
                }
            }
            Some("search") => list(value)
                .map(|item| parse_search(item, tiles))
                .collect::<Result<Vec<_>, OrdersError>>()
                .map(|s| orders.searches = s)
                .map_err(|m| vec![error(value_col, m)]),
            Some("buy") => parse_purchases(value)
                .map(|p| orders.buy = p)
                .map_err(|m| vec![error(value_col, m)]),
            Some("sell") => {
                orders.sell = parse_sales(value);
                Ok(())
            }
            Some("hire") => parse_purchases(value)
                .map(|p| orders.hire = p)
                .map_err(|m| vec![error(value_col, m)]),
            Some("drinks") => parse_gold(value)
                .map(|g| orders.drinks_up_to = Some(g))
                .map_err(|m| vec![error(value_col, m)]),
            Some("take") => parse_takes(value)
                .map(|t| orders.take = t)
                .map_err(|m| vec![error(value_col, m)]),
            Some("block") => {
                orders.block = parse_blocking(value);
                Ok(())
            }
            Some("cache") => {
                orders.cache = super::dealings::CacheEntry::parse_line(value);
                Ok(())
            }
            Some("insult") => Settle::parse(value)
                .map(|a| orders.insult = a)
                .map_err(|m| vec![error(value_col, m)]),
            Some("challenge") => Settle::parse(value)
                .map(|a| orders.challenge = a)
                .map_err(|m| vec![error(value_col, m)]),
            Some("boon") => BoonChoice::parse(value)
                .map(|b| orders.boon = b)
                .map_err(|m| vec![error(value_col, m)]),
            Some("turn") => parse_turn(value)
                .map(|t| orders.turn = t)
                .map_err(|m| vec![error(value_col, m)]),
            Some("familiar") => parse_activities(value, line, tiles)
                .map(|a| orders.familiar = Some(a))
                .map_err(|mut e| {
                    e.column += value_col;
                    vec![e]
                }),
            Some("phantasm") => parse_activities(value, line, tiles)
                .map(|a| orders.phantasm = Some(a))
                .map_err(|mut e| {
                    e.column += value_col;
                    vec![e]
                }),
            Some("teleport") => parse_clearing(value, tiles, "the cave clearing to go to")
                .map(|c| orders.teleport = Some(c))
                .map_err(|m| vec![error(value_col, m)]),
            Some("ifimpossible") => parse_when_impossible(value)
                .map(|w| orders.when_impossible = w)
                .map_err(|m| vec![error(value_col, m)]),
            Some("combat") => crate::combat::orders::parse_tactics(value, names)
                .map(|t| orders.combat = Some(t))
                .map_err(|(col, m)| vec![error(value_col + col, OrdersError::from(m))]),
            Some("missions" | "mission" | "campaign" | "campaigns") => parse_missions(value)
                .map(|m| orders.missions = m)
                .map_err(|m| vec![error(value_col, m)]),
            Some("character") if !value.trim().is_empty() => {
                orders.character = Some(value.trim().to_string());
                Ok(())
            }
            Some("character") => Err(vec![error(
                value_col,
                "expected the character to come back as, for example 'Character: Elf'".into(),
            )]),
            Some("send") => parse_send(value)
                .map(|line| orders.send.push(line))
                .map_err(|m| vec![error(value_col, m)]),
            Some(leader) if is_leader_key(leader) || is_monster_key(leader) => {
                let name = trimmed.split(':').next().unwrap_or_default().trim();
                parse_activities(value, line, tiles)
                    .map(|activities| {
                        orders.leaders.push(LeaderLine {
                            leader: name.to_string(),
                            activities,
                        });
                    })
                    .map_err(|mut e| {
                        e.column += value_col;
                        vec![e]
                    })
            }
            Some("victory") => crate::setup::by_mail::read_victory_categories(value)
                .map(|v| orders.victory = Some(v))
                .map_err(|e| vec![error(value_col, e.to_string().into())]),
            Some("spells") if !value.trim().is_empty() => {
                orders.spells = Some(value.trim().to_string());
                Ok(())
            }
            Some("spells") => Err(vec![error(
                value_col,
                "expected the spells his new character records, for example 'Spells: Peace; \
                 Exorcise'"
                    .into(),
            )]),
            Some("endgame") => parse_yes_no(value, "end the game at Midnight")
                .map(|yes| orders.end_game = yes)
                .map_err(|m| vec![error(value_col, m)]),
            Some("develop") => {
                let chits: Vec<String> = value
                    .split([';', ','])
                    .map(str::trim)
                    .filter(|c| !c.is_empty())
                    .map(str::to_string)
                    .collect();
                if chits.is_empty() {
                    Err(vec![error(
                        value_col,
                        "expected the chits of your next level you take first, for example \
                         'Develop: FIGHT M5; MOVE M4'"
                            .into(),
                    )])
                } else {
                    orders.develop = chits;
                    Ok(())
                }
            }
            Some("suicide") => parse_yes_no(value, "die by suicide at Midnight")
                .map(|yes| orders.suicide = yes)
                .map_err(|m| vec![error(value_col, m)]),
            Some("restart") => parse_yes_no(value, "start over once killed")
                .map(|yes| orders.no_restart = !yes)
                .map_err(|m| vec![error(value_col, m)]),
            Some("leave") => {
                orders.leave = parse_leave(value);
                Ok(())
            }
            Some(time) if let Some(at) = when_of_key(time) => parse_rearrangement(at, value)
                .map(|r| orders.rearrange.push(r))
                .map_err(|m| vec![error(value_col, m)]),
            Some(deal) if let Some(key) = DealKey::of(deal) => parse_deal(key, value)
                .map(|d| orders.deals.push(d))
                .map_err(|m| vec![error(value_col, m)]),
            Some(other) => {
                let hint = realmgm_core::suggest::did_you_mean(other, KEYS.iter().copied());
                Err(vec![error(
                    indent,
                    format!(
                        "unknown line '{}:'{hint}; known lines: {}",
                        trimmed.split(':').next().unwrap_or(""),
                        KEYS.join(", ")
                    )
                    .into(),
                )])
            }
        };
        if let Err(mut found) = result {
            errors.append(&mut found);
        }
    }
    if orders.activities.phases.is_empty() && errors.is_empty() {
        errors.push(ParseError {
            line: first_line,
            column: 1,
            message: "no activities were given; write a line such as 'Activities: M CV4, H, S'"
                .to_string(),
        });
    }
    if errors.is_empty() {
        Ok(orders)
    } else {
        Err(errors)
    }
}

/// A keyless line without the number a player may put before a phase
/// written a line each (`1. M CV4`, `2) H`), and how many bytes that took.
fn without_phase_number(line: &str) -> (&str, usize) {
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    let rest = &line[digits..];
    match rest.strip_prefix(['.', ')']) {
        Some(after) if (1..=2).contains(&digits) && after.starts_with(char::is_whitespace) => {
            let phases = after.trim_start();
            (phases, line.len() - phases.len())
        }
        _ => (line, 0),
    }
}

/// Whether `line` reads as a line of orders, even a faulty one: a known key
/// (or one close to it, a typo to report), or activities, or a phase that
/// opens with an activity code. Prose around the orders ("here are my
/// orders for day 1.") reads as none, so the daemon can set it aside
/// instead of refusing the mail for it.
pub fn reads_as_orders(line: &str, tiles: &dyn TileNames) -> bool {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return false;
    }
    if super::sections::is_header(trimmed) {
        return true;
    }
    if let Some((key, _, _)) = split_key(trimmed) {
        // A signature's or a forwarded header's key (`Tel:`, `Sent:`) is
        // near an orders key but never one.
        if NOT_ORDERS_KEYS.contains(&key.as_str()) {
            return false;
        }
        return is_leader_key(&key)
            || is_monster_key(&key)
            || when_of_key(&key).is_some()
            || DealKey::of(&key).is_some()
            // `Campaigns:` is read as `Missions:`, and listed only as it.
            || realmgm_core::suggest::is_typo_of(&key, KEYS.iter().copied().chain(["Campaigns"]));
    }
    let (trimmed, _) = without_phase_number(trimmed);
    // `Buy Shield up to 10`: an orders key without its colon is a faulty
    // line of orders, to be answered, not prose to set aside.
    let first_word = trimmed.split_whitespace().next().unwrap_or("");
    let keyed_without_colon = trimmed.contains(' ')
        && KEYS
            .iter()
            .any(|key| realmgm_core::suggest::fold(key) == realmgm_core::suggest::fold(first_word));
    keyed_without_colon
        || parse_recorded(trimmed, 1, tiles).is_ok()
        || trimmed
            .split([',', '/'])
            .any(super::parse::opens_with_activity)
}

/// Keys of signatures and forwarded headers, folded: close enough to an
/// orders key to pass for a typo of one (`Tel` for `Tell`, `Sent` for
/// `Send`), so they are named here.
const NOT_ORDERS_KEYS: &[&str] = &[
    "tel",
    "telephone",
    "phone",
    "mobile",
    "cell",
    "fax",
    "sent",
    "date",
    "from",
    "to",
    "cc",
    "subject",
    "web",
    "email",
    "skype",
];

/// `Key: value` (the key folded: `If impossible` → `ifimpossible`); returns
/// the key, the value and the value's column in `line`, counted in characters.
fn split_key(line: &str) -> Option<(String, &str, usize)> {
    let (key, value) = line.split_once(':')?;
    let folded = realmgm_core::suggest::fold(key);
    // `M-CV4 (note: fast)` is an activity line, not a key.
    if folded.is_empty() || key.contains(['(', ',', '/']) || key.trim().contains("  ") {
        return None;
    }
    let value_start = line.len() - value.trim_start().len();
    Some((folded, value.trim(), line[..value_start].chars().count()))
}

/// Items separated by `;` or `,`.
fn list(value: &str) -> impl Iterator<Item = &str> {
    value
        .split([';', ','])
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// A clearing written as a tile code or name and a number (`CV5`,
/// `Curst Valley 5`): the tile's full name and the number.
fn parse_clearing(
    target: &str,
    tiles: &dyn TileNames,
    what: &str,
) -> Result<(String, u8), OrdersError> {
    let digits = target
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .count();
    let (tile_text, number) = target.split_at(target.len() - digits);
    let clearing: u8 = number
        .parse()
        .ok()
        .filter(|c| (1..=6).contains(c))
        .ok_or_else(|| format!("expected {what}, for example 'CV5', found '{target}'"))?;
    let tile_text = tile_text.trim().trim_end_matches('-').trim();
    let tile = tiles.resolve(tile_text).ok_or_else(|| {
        let hint = realmgm_core::suggest::did_you_mean(tile_text, tiles.known());
        format!("expected a tile code or name, found '{tile_text}'{hint}")
    })?;
    Ok((tile.to_string(), clearing))
}

/// The table of a Search phase recorded as `P`: the Peer table, into the
/// clearing it names (an enhanced Peer, 3.1 7.5.4i) or his own. Such a phase
/// takes no table from the `Search:` line.
pub fn peer_table(phase: &super::activity::Phase) -> Option<SearchTable> {
    let target = phase.peer_clearing()?;
    if target.is_empty() {
        return Some(SearchTable::Peer {
            tile: None,
            clearing: None,
        });
    }
    let (tile, clearing) = target.rsplit_once(' ')?;
    Some(SearchTable::Peer {
        tile: Some(tile.to_string()),
        clearing: Some(clearing.parse().ok()?),
    })
}

fn parse_search(item: &str, tiles: &dyn TileNames) -> Result<SearchTable, OrdersError> {
    let folded = realmgm_core::suggest::fold(item);
    let table = match folded.as_str() {
        "locate" => SearchTable::Locate,
        "loot" => SearchTable::Loot,
        "magicsight" => SearchTable::MagicSight,
        "readingrunes" | "readrunes" | "runes" => SearchTable::ReadingRunes,
        "peer" => SearchTable::Peer {
            tile: None,
            clearing: None,
        },
        _ => {
            let Some(target) = item
                .get(..4)
                .filter(|w| w.eq_ignore_ascii_case("peer"))
                .map(|_| item[4..].trim())
            else {
                let hint = realmgm_core::suggest::did_you_mean(
                    item,
                    ["Peer", "Locate", "Loot", "Magic Sight", "Reading Runes"],
                );
                return Err(format!(
                    "expected a search table (Peer, Locate, Loot, Magic Sight, Reading Runes), found '{item}'{hint}"
                ).into());
            };
            let (tile, clearing) = parse_clearing(target, tiles, "the clearing to peer into")?;
            SearchTable::Peer {
                tile: Some(tile),
                clearing: Some(clearing),
            }
        }
    };
    Ok(table)
}

/// `none`, or items like `Shield up to 10`, `Shield max 10`, `Shield <= 10`, `Shield`.
fn parse_purchases(value: &str) -> Result<Vec<Purchase>, OrdersError> {
    if value.eq_ignore_ascii_case("none") || value.eq_ignore_ascii_case("nothing") {
        return Ok(Vec::new());
    }
    list(value)
        .map(|item| {
            let lower = item.to_lowercase();
            for marker in [" up to ", " max ", " for ", "<="] {
                if let Some(at) = lower.find(marker) {
                    let what = item[..at].trim();
                    let gold = parse_gold(&item[at + marker.len()..])?;
                    if what.is_empty() {
                        return Err(OrdersError::Unreadable(format!(
                            "expected what to buy before '{}'",
                            marker.trim()
                        )));
                    }
                    return Ok(Purchase {
                        what: what.to_string(),
                        max_gold: Some(gold),
                    });
                }
            }
            Ok(Purchase {
                what: item.to_string(),
                max_gold: None,
            })
        })
        .collect()
}

/// `none`, or mission and campaign chits separated by `;` or `,`; the
/// engine checks the names against the chits.
fn parse_missions(value: &str) -> Result<Vec<String>, OrdersError> {
    match realmgm_core::suggest::fold(value).as_str() {
        "none" | "nothing" => Ok(Vec::new()),
        "" => Err(
            OrdersError::Unreadable("expected the mission or campaign chits to take, for example 'Missions: Escort Party; Conquer', or 'none'"
                .to_string()),
        ),
        _ => Ok(list(value).map(str::to_string).collect()),
    }
}

/// `none`, or belongings separated by `;` or `,`.
fn parse_sales(value: &str) -> Vec<String> {
    match realmgm_core::suggest::fold(value).as_str() {
        "none" | "nothing" => Vec::new(),
        _ => list(value).map(str::to_string).collect(),
    }
}

/// `12`, `12 gold`, `12g`.
fn parse_gold(text: &str) -> Result<u32, OrdersError> {
    let text = text.trim();
    let number = text
        .strip_suffix("gold")
        .or_else(|| text.strip_suffix('g'))
        .or_else(|| text.strip_suffix('G'))
        .unwrap_or(text)
        .trim();
    number.parse().map_err(|_| {
        OrdersError::Unreadable(format!(
            "expected an amount of gold such as 10, found '{text}'"
        ))
    })
}

/// `Flowers of Rest, activate; Lantern`: an item, optionally followed by
/// `activate` as the next list entry or after a space.
fn parse_takes(value: &str) -> Result<Vec<Take>, OrdersError> {
    let mut takes: Vec<Take> = Vec::new();
    for item in value.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        let mut parts = item.split(',').map(str::trim).filter(|s| !s.is_empty());
        let what = parts.next().unwrap_or_default();
        let mut take = Take {
            what: what.to_string(),
            activate: false,
        };
        if let Some(stripped) = what
            .strip_suffix(" activate")
            .or_else(|| what.strip_suffix(" (activate)"))
        {
            take = Take {
                what: stripped.trim().to_string(),
                activate: true,
            };
        }
        for extra in parts {
            if extra.eq_ignore_ascii_case("activate") || extra.eq_ignore_ascii_case("and activate")
            {
                take.activate = true;
            } else {
                return Err(format!(
                    "expected 'activate' after '{}', found '{extra}'; separate items with ';'",
                    take.what
                )
                .into());
            }
        }
        takes.push(take);
    }
    Ok(takes)
}

/// `yes` or `no` for a line whose meaning `does` words.
fn parse_yes_no(value: &str, does: &str) -> Result<bool, OrdersError> {
    match realmgm_core::suggest::fold(value).as_str() {
        "yes" | "y" | "true" => Ok(true),
        "no" | "n" | "false" => Ok(false),
        _ => Err(format!(
            "expected 'yes' or 'no' (whether the character is to {does}), not '{}'",
            value.trim()
        )
        .into()),
    }
}

fn parse_blocking(value: &str) -> Blocking {
    match realmgm_core::suggest::fold(value).as_str() {
        "" | "nobody" | "none" | "no" => Blocking::Nobody,
        "everyone" | "everybody" | "all" | "yes" => Blocking::Everyone,
        _ => Blocking::Named(list(value).map(str::to_string).collect()),
    }
}

/// `first`, `last`, a place such as `2`, or `random` (no choice).
fn parse_turn(value: &str) -> Result<Option<TurnChoice>, OrdersError> {
    let folded = realmgm_core::suggest::fold(value);
    let choice = match folded.as_str() {
        "first" => TurnChoice::First,
        "last" => TurnChoice::Last,
        "random" | "any" | "none" => return Ok(None),
        number => match number
            .trim_end_matches(|c: char| c.is_ascii_alphabetic())
            .parse::<u8>()
        {
            Ok(n) if n >= 1 => TurnChoice::Place(n),
            _ => {
                return Err(format!(
                    "expected first, last, random or a place in the turn order such as 2, found '{value}'"
                ).into());
            }
        },
    };
    Ok(Some(choice))
}

fn parse_when_impossible(value: &str) -> Result<WhenImpossible, OrdersError> {
    match realmgm_core::suggest::fold(value).as_str() {
        "skip" | "lose" | "nothing" => Ok(WhenImpossible::Skip),
        "hide" | "h" => Ok(WhenImpossible::Hide),
        "rest" | "r" => Ok(WhenImpossible::Rest),
        _ => Err(format!("expected skip, hide or rest, found '{value}'").into()),
    }
}

impl fmt::Display for SearchTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchTable::Peer {
                tile: Some(tile),
                clearing: Some(c),
            } => write!(f, "Peer {tile} {c}"),
            SearchTable::Peer { .. } => f.write_str("Peer"),
            SearchTable::Locate => f.write_str("Locate"),
            SearchTable::Loot => f.write_str("Loot"),
            SearchTable::MagicSight => f.write_str("Magic Sight"),
            SearchTable::ReadingRunes => f.write_str("Reading Runes"),
        }
    }
}

impl fmt::Display for Purchase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.max_gold {
            Some(gold) => write!(f, "{} up to {gold}", self.what),
            None => f.write_str(&self.what),
        }
    }
}

impl DayOrders {
    /// These orders as they stand for another day: deals, rearrangements,
    /// hired leaders' phases and a suicide belong to the day they were
    /// written for and go; which hirelings are left or sent with whom
    /// stands until changed.
    pub fn for_another_day(&mut self) {
        for each in self.characters.values_mut() {
            each.for_another_day();
        }
        self.suicide = false;
        self.end_game = false;
        self.deals.clear();
        self.cache.clear();
        self.rearrange.clear();
        self.leaders.clear();
    }

    /// The recorded phases with their alternatives (`M-CV 4 or H`), as the
    /// `Activities:` line reads them.
    pub fn recorded(&self) -> String {
        Recorded(self).to_string()
    }
}

/// [`DayOrders::recorded`], written straight into its text: every orders
/// mail writes it for the canonical orders.
struct Recorded<'a>(&'a DayOrders);

impl fmt::Display for Recorded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, phase) in self.0.activities.phases.iter().enumerate() {
            if i > 0 {
                f.write_str(" / ")?;
            }
            write!(f, "{phase}")?;
            for other in self.0.alternatives.get(&i).into_iter().flatten() {
                write!(f, " or {other}")?;
            }
        }
        Ok(())
    }
}

/// The canonical orders text: what a confirmation echoes and what the
/// next report's template is pre-filled with. It parses back to the same
/// orders.
impl fmt::Display for DayOrders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.characters.is_empty() {
            for (name, orders) in &self.characters {
                writeln!(f, "{} {name}", super::sections::HEADER)?;
                write!(f, "{orders}")?;
            }
            return Ok(());
        }
        writeln!(f, "Activities: {}", Recorded(self))?;
        let join = |items: Vec<String>| items.join("; ");
        if !self.searches.is_empty() {
            writeln!(
                f,
                "Search: {}",
                join(self.searches.iter().map(ToString::to_string).collect())
            )?;
        }
        if !self.buy.is_empty() {
            writeln!(
                f,
                "Buy: {}",
                join(self.buy.iter().map(ToString::to_string).collect())
            )?;
        }
        if !self.sell.is_empty() {
            writeln!(f, "Sell: {}", self.sell.join("; "))?;
        }
        if !self.hire.is_empty() {
            writeln!(
                f,
                "Hire: {}",
                join(self.hire.iter().map(ToString::to_string).collect())
            )?;
        }
        if let Some(gold) = self.drinks_up_to {
            writeln!(f, "Drinks: {gold}")?;
        }
        if !self.cache.is_empty() {
            let entries: Vec<String> = self.cache.iter().map(ToString::to_string).collect();
            writeln!(f, "Cache: {}", entries.join("; "))?;
        }
        if !self.insult.is_pay() {
            writeln!(f, "Insult: fight")?;
        }
        if !self.challenge.is_pay() {
            writeln!(f, "Challenge: fight")?;
        }
        if !self.boon.is_pay() {
            writeln!(f, "Boon: free")?;
        }
        if !self.take.is_empty() {
            let items = self
                .take
                .iter()
                .map(|t| {
                    if t.activate {
                        format!("{}, activate", t.what)
                    } else {
                        t.what.clone()
                    }
                })
                .collect();
            writeln!(f, "Take: {}", join(items))?;
        }
        match &self.block {
            Blocking::Nobody => writeln!(f, "Block: nobody")?,
            Blocking::Everyone => writeln!(f, "Block: everyone")?,
            Blocking::Named(names) => writeln!(f, "Block: {}", names.join(", "))?,
        }
        match self.turn {
            Some(TurnChoice::First) => writeln!(f, "Turn: first")?,
            Some(TurnChoice::Last) => writeln!(f, "Turn: last")?,
            Some(TurnChoice::Place(n)) => writeln!(f, "Turn: {n}")?,
            None => {}
        }
        if let Some(familiar) = &self.familiar {
            writeln!(f, "Familiar: {familiar}")?;
        }
        if let Some(phantasm) = &self.phantasm {
            writeln!(f, "Phantasm: {phantasm}")?;
        }
        if let Some((tile, clearing)) = &self.teleport {
            writeln!(f, "Teleport: {tile} {clearing}")?;
        }
        if let Some(tactics) = &self.combat {
            writeln!(f, "Combat: {tactics}")?;
        }
        if !self.missions.is_empty() {
            writeln!(f, "Missions: {}", self.missions.join("; "))?;
        }
        if let Some(character) = &self.character {
            writeln!(f, "Character: {character}")?;
        }
        if self.no_restart {
            writeln!(f, "Restart: no")?;
        }
        if let Some(victory) = &self.victory {
            writeln!(f, "Victory: {victory}")?;
        }
        if let Some(spells) = &self.spells {
            writeln!(f, "Spells: {spells}")?;
        }
        if self.suicide {
            writeln!(f, "Suicide: yes")?;
        }
        if self.end_game {
            writeln!(f, "End game: yes")?;
        }
        if !self.develop.is_empty() {
            writeln!(f, "Develop: {}", self.develop.join("; "))?;
        }
        if !self.leave.is_empty() {
            writeln!(f, "Leave: {}", self.leave.join("; "))?;
        }
        for rearrangement in &self.rearrange {
            writeln!(f, "{rearrangement}")?;
        }
        for deal in &self.deals {
            writeln!(f, "{deal}")?;
        }
        for leader in &self.leaders {
            writeln!(f, "{leader}")?;
        }
        for send in &self.send {
            writeln!(f, "{send}")?;
        }
        let when = match self.when_impossible {
            WhenImpossible::Skip => "skip",
            WhenImpossible::Hide => "hide",
            WhenImpossible::Rest => "rest",
        };
        writeln!(f, "If impossible: {when}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orders::activity::Activity;

    struct TwoTiles;

    impl TileNames for TwoTiles {
        fn resolve(&self, text: &str) -> Option<&str> {
            match realmgm_core::suggest::fold(text).as_str() {
                "cv" | "curstvalley" => Some("Curst Valley"),
                "dv" | "darkvalley" => Some("Dark Valley"),
                _ => None,
            }
        }
        fn known(&self) -> Vec<&str> {
            vec!["CV", "DV", "Curst Valley", "Dark Valley"]
        }
    }

    /// Two tiles know no cards: these tests play printed chits only.
    impl crate::combat::orders::ChitCards for TwoTiles {
        fn chit_card(&self, _text: &str) -> Option<&str> {
            None
        }
    }

    const FULL: &str = "Activities: M CV4, H, S, S
Search: peer DV5; locate
Buy: Shield up to 10; Broadsword max 12g
Sell: Lantern, Flowers of Rest
Hire: Rogues up to 15
Drinks: 2
Take: Flowers of Rest, activate; Lantern
Block: Amazon, Elf
Turn: Last
If impossible: hide
";

    /// The lines of a death and a fresh start read and write back as
    /// given; a suicide is for the day it was written for (3.1 9.1.2a,
    /// 9.2.2a).
    #[test]
    fn suicide_restart_and_victory_lines_read_and_write_back_3_1_9_1_2() {
        let text = "Activities: H\nRestart: no\nSuicide: yes\nEnd game: yes\nVictory: GT 1, F 2, N 1, G 1\nSpells: Peace; Exorcise\n";
        let orders = parse_day_orders(text, 1, &TwoTiles).expect("orders read");
        assert_eq!(orders.spells.as_deref(), Some("Peace; Exorcise"));
        assert!(orders.suicide && orders.no_restart && orders.end_game);
        let victory = orders.victory.expect("a Victory line");
        assert_eq!((victory.fame, victory.spells), (2, 0));
        let written = orders.to_string();
        assert!(written.contains("Restart: no\n"), "{written}");
        assert!(written.contains("Suicide: yes\n"), "{written}");
        assert!(written.contains("Spells: Peace; Exorcise\n"), "{written}");
        assert!(
            written.contains("Victory: GT 1, SP 0, F 2, N 1, G 1\n"),
            "{written}"
        );
        assert_eq!(parse_day_orders(&written, 1, &TwoTiles), Ok(orders.clone()));
        let mut tomorrow = orders;
        tomorrow.for_another_day();
        assert!(!tomorrow.suicide && !tomorrow.end_game && tomorrow.no_restart);
        let errors = parse_day_orders("H\nSuicide: maybe", 1, &TwoTiles).unwrap_err();
        assert!(errors[0].message.contains("'yes' or 'no'"), "{errors:?}");
    }

    #[test]
    fn orders_even_faulty_ones_read_as_orders_and_prose_does_not() {
        let data = crate::test_support::data();
        for orders in [
            "M EV2, H, S, S",
            "M EVV2, H, S",
            "MCV4",
            "Hide",
            "Serch: loot",
            "Hier: Rogues",
            "Campaign: Conquer",
            "Combta: alert",
            "Hire: Rogue 3",
            "Soldier HQ: M CV4",
            "Phase 3: activate Shield",
            "Give: Lantern to Elf",
            "A, H",
            "Buy Shield up to 10",
            "Block Amazon",
            "Give Lantern to Elf",
            "Drinks 5",
        ] {
            assert!(reads_as_orders(orders, data), "{orders}");
        }
        for prose in [
            "here are my orders for day 1.",
            "Hi Gerald,",
            "A quick note before the orders",
            "Sent from my iPhone",
            "Day 2 orders for the Amazon:",
            "P.S. Can we move the deadline to Friday next week?",
            "Thanks for running this. My turn:",
            "My orders:",
            "Orders:",
            "Day 3:",
            "Here they are:",
            "Note: running late this week",
            "# a comment",
            "",
            "Tel: +44 7700 900123",
            "Sent: Tuesday, 1 January 2030 20:00",
            "Mobile: 0123 456",
            "Take",
        ] {
            assert!(!reads_as_orders(prose, data), "{prose}");
        }
    }

    #[test]
    fn a_full_orders_mail_is_read_and_echoes_back_the_same() {
        let orders = parse_day_orders(FULL, 1, &TwoTiles).unwrap();
        assert_eq!(orders.activities.phases.len(), 4);
        assert_eq!(
            orders.searches,
            vec![
                SearchTable::Peer {
                    tile: Some("Dark Valley".into()),
                    clearing: Some(5)
                },
                SearchTable::Locate
            ]
        );
        assert_eq!(
            orders.buy[1],
            Purchase {
                what: "Broadsword".into(),
                max_gold: Some(12)
            }
        );
        assert_eq!(orders.sell, vec!["Lantern", "Flowers of Rest"]);
        assert_eq!(
            orders.hire,
            vec![Purchase {
                what: "Rogues".into(),
                max_gold: Some(15)
            }]
        );
        assert_eq!(orders.drinks_up_to, Some(2));
        assert_eq!(
            orders.take[0],
            Take {
                what: "Flowers of Rest".into(),
                activate: true
            }
        );
        assert_eq!(
            orders.take[1],
            Take {
                what: "Lantern".into(),
                activate: false
            }
        );
        assert_eq!(
            orders.block,
            Blocking::Named(vec!["Amazon".into(), "Elf".into()])
        );
        assert_eq!(orders.turn, Some(TurnChoice::Last));
        assert_eq!(orders.when_impossible, WhenImpossible::Hide);
        let echoed = orders.to_string();
        assert_eq!(
            parse_day_orders(&echoed, 1, &TwoTiles).unwrap(),
            orders,
            "{echoed}"
        );
    }

    #[test]
    fn the_sell_line_is_echoed_and_none_sells_nothing() {
        let orders = parse_day_orders("T, T\nsell:  Shield ;Lantern\n", 1, &TwoTiles).unwrap();
        assert_eq!(orders.sell, vec!["Shield", "Lantern"]);
        let echoed = orders.to_string();
        assert!(echoed.contains("\nSell: Shield; Lantern\n"), "{echoed}");
        assert_eq!(parse_day_orders(&echoed, 1, &TwoTiles).unwrap(), orders);
        let orders = parse_day_orders("T\nSell: none\n", 1, &TwoTiles).unwrap();
        assert!(orders.sell.is_empty());
        assert!(!orders.to_string().contains("Sell:"));
    }

    #[test]
    fn the_combat_line_is_read_echoed_and_its_errors_placed() {
        let text = "H\nCombat: attack with FIGHT H5, maneuver with MOVE M4, target weakest, run when wounded 2, lure nobody\n";
        let orders = parse_day_orders(text, 1, &TwoTiles).unwrap();
        let tactics = orders.combat.clone().expect("a Combat line");
        assert_eq!(tactics.attack_with.as_deref(), Some("FIGHT H5"));
        assert_eq!(tactics.run_when_wounded, Some(2));
        let echoed = orders.to_string();
        assert!(echoed.contains("\nCombat: attack with FIGHT H5, maneuver with MOVE M4, target weakest, run when wounded 2, lure nobody\n"), "{echoed}");
        assert_eq!(parse_day_orders(&echoed, 1, &TwoTiles).unwrap(), orders);
        let errors =
            parse_day_orders("H\nCombat: target weakest, flee\n", 1, &TwoTiles).unwrap_err();
        assert_eq!((errors[0].line, errors[0].column), (2, 25), "{errors:?}");
        assert!(
            errors[0].message.contains("not a combat order"),
            "{errors:?}"
        );
    }

    #[test]
    fn the_turn_line_takes_first_last_or_a_place() {
        for (text, want) in [
            ("first", Some(TurnChoice::First)),
            ("LAST", Some(TurnChoice::Last)),
            ("3", Some(TurnChoice::Place(3))),
            ("2nd", Some(TurnChoice::Place(2))),
            ("random", None),
        ] {
            let orders = parse_day_orders(&format!("H\nTurn: {text}"), 1, &TwoTiles).unwrap();
            assert_eq!(orders.turn, want, "{text}");
            let echoed = orders.to_string();
            assert_eq!(parse_day_orders(&echoed, 1, &TwoTiles).unwrap(), orders);
        }
        for bad in ["0", "soon"] {
            let errors = parse_day_orders(&format!("H\nTurn: {bad}"), 1, &TwoTiles).unwrap_err();
            assert!(errors[0].message.contains("first, last"), "{}", errors[0]);
        }
    }

    #[test]
    fn prophecy_alternatives_and_the_phantasm_line_are_read_and_echoed() {
        let text = "Activities: M CV4 or H, S OR M DV2 or R, H\nPhantasm: M DV5, S, SP (tile)";
        let orders = parse_day_orders(text, 1, &TwoTiles).unwrap();
        assert_eq!(orders.activities.phases.len(), 3);
        assert_eq!(orders.alternatives.len(), 2);
        assert_eq!(orders.alternatives[&0][0].activity, Activity::Hide);
        assert_eq!(orders.alternatives[&1].len(), 2);
        assert_eq!(
            orders.recorded(),
            "M-Curst Valley 4 or H / S or M-Dark Valley 2 or R / H"
        );
        let phantasm = orders.phantasm.as_ref().unwrap();
        assert_eq!(phantasm.phases.len(), 3);
        assert_eq!(phantasm.phases[2].note.as_deref(), Some("tile"));
        let echoed = orders.to_string();
        assert!(
            echoed.contains("Phantasm: M-Dark Valley 5 / S / E (tile)"),
            "{echoed}"
        );
        assert_eq!(parse_day_orders(&echoed, 1, &TwoTiles).unwrap(), orders);
    }

    #[test]
    fn a_bad_alternative_or_one_off_the_activities_line_names_line_and_column() {
        let errors =
            parse_day_orders("Activities: H, M CV4 or\nSearch: locate", 3, &TwoTiles).unwrap_err();
        assert_eq!((errors[0].line, errors[0].column), (3, 24), "{errors:?}");
        assert!(
            errors[0].message.contains("expected an activity"),
            "{errors:?}"
        );
        let errors = parse_day_orders("H\nPhantasm: M CV4 or S", 7, &TwoTiles).unwrap_err();
        assert_eq!(errors[0].line, 8);
        assert_eq!(errors[0].column, 20, "{errors:?}");
        assert!(
            errors[0].message.contains("only on the Activities line"),
            "{errors:?}"
        );
        let errors = parse_day_orders("H or", 1, &TwoTiles).unwrap_err();
        assert!(
            errors[0].message.contains("expected an activity"),
            "{errors:?}"
        );
        // A note may hold the word.
        let orders = parse_day_orders("H (now or never)", 1, &TwoTiles).unwrap();
        assert!(orders.alternatives.is_empty());
    }

    #[test]
    fn a_bare_activity_line_is_enough() {
        let orders = parse_day_orders("\n  M-DV2 / H\n", 1, &TwoTiles).unwrap();
        assert_eq!(
            orders.activities.phases[0].activity,
            Activity::Move {
                tile: "Dark Valley".into(),
                clearing: 2
            }
        );
        assert_eq!(orders.block, Blocking::Nobody);
        assert_eq!(orders.when_impossible, WhenImpossible::Skip);
    }

    #[test]
    fn every_bad_line_is_reported_with_its_line_and_column() {
        let text =
            "Activities: H, M-XV4\nSerch: locate\nBuy: Shield up to lots\nIf impossible: panic\n";
        let errors = parse_day_orders(text, 10, &TwoTiles).unwrap_err();
        assert_eq!(errors.len(), 4, "{errors:?}");
        assert_eq!((errors[0].line, errors[0].column), (10, 18));
        assert!(
            errors[1].message.contains("did you mean Search"),
            "{}",
            errors[1]
        );
        assert_eq!(errors[1].line, 11);
        assert!(
            errors[2].message.contains("amount of gold"),
            "{}",
            errors[2]
        );
        assert!(
            errors[3].message.contains("skip, hide or rest"),
            "{}",
            errors[3]
        );
    }

    #[test]
    fn activities_written_a_phase_a_line_are_one_day() {
        let orders = parse_day_orders("M CV4\nH\nS\nS\nBlock: everyone\n", 1, &TwoTiles).unwrap();
        let codes: Vec<&str> = orders
            .activities
            .phases
            .iter()
            .map(|p| p.activity.code())
            .collect();
        assert_eq!(codes, ["M", "H", "S", "S"]);
        // Numbered, as many write them.
        let numbered = "1. M CV4\n2. H\n3) S\n4) S\n";
        assert_eq!(
            parse_day_orders(numbered, 1, &TwoTiles).unwrap().activities,
            orders.activities
        );
        assert!(reads_as_orders("1. M CV4", &TwoTiles));
        assert!(!reads_as_orders("1. I will go north", &TwoTiles));
        // A blank line ends them: what comes after is not read as phases.
        let errors = parse_day_orders("H\n\nS\n", 1, &TwoTiles).unwrap_err();
        assert_eq!(errors[0].line, 3, "{}", errors[0]);
    }

    #[test]
    fn missing_activities_and_a_second_activity_line_are_errors() {
        let errors = parse_day_orders("Block: everyone\n", 1, &TwoTiles).unwrap_err();
        assert!(errors[0].message.contains("no activities"), "{}", errors[0]);
        let errors = parse_day_orders("H, H\nS, S\n", 1, &TwoTiles).unwrap_err();
        assert_eq!(errors[0].line, 2);
        assert!(
            errors[0]
                .message
                .contains("these phases come after the activities of line 1; write all"),
            "{}",
            errors[0]
        );
        let errors = parse_day_orders("H, H\nBye now\n", 1, &TwoTiles).unwrap_err();
        assert!(
            errors[0].message.contains("already given on line 1"),
            "{}",
            errors[0]
        );
    }

    #[test]
    fn search_tables_have_every_spelling() {
        let orders = parse_day_orders(
            "S, S, S, S, S\nSearch: loot, magic sight, reading runes, peer, Peer CV-3",
            1,
            &TwoTiles,
        )
        .unwrap();
        assert_eq!(orders.searches.len(), 5);
        assert_eq!(orders.searches[2], SearchTable::ReadingRunes);
        assert_eq!(
            orders.searches[4],
            SearchTable::Peer {
                tile: Some("Curst Valley".into()),
                clearing: Some(3)
            }
        );
        let errors = parse_day_orders("S\nSearch: lots", 1, &TwoTiles).unwrap_err();
        assert!(
            errors[0].message.contains("did you mean Loot"),
            "{}",
            errors[0]
        );
    }

    #[test]
    fn random_bytes_never_make_the_sheet_panic() {
        // The property the fuzz target (fuzz/fuzz_targets/orders.rs) checks,
        // run on seeded input: any bytes, as a mail body, give orders or
        // errors. Half the inputs are built from the keys and the
        // characters that matter, so they reach deep into the parser.
        let pieces = [
            "Activities:",
            "Search:",
            "Buy:",
            "Sell:",
            "Hire:",
            "Drinks:",
            "Take:",
            "Block:",
            "Turn:",
            "If impossible:",
            "Familiar:",
            "peer",
            "CV",
            "M",
            "up to",
            "activate",
            ";",
            ",",
            "/",
            "*",
            "(",
            ")",
            "\n",
            " ",
            "4",
            "-",
            ":",
            "é",
            "\u{0}",
            "\u{ffff}",
        ];
        let mut dice = realmgm_core::dice::Dice::new(7, 0);
        for round in 0..5_000 {
            let len = dice.below("fuzz/sheet/len", 40) as usize;
            let bytes: Vec<u8> = if round % 2 == 0 {
                (0..len)
                    .map(|_| u8::try_from(dice.below("fuzz/sheet/byte", 256)).unwrap_or(0))
                    .collect()
            } else {
                (0..len)
                    .flat_map(|_| {
                        let i = dice.below("fuzz/sheet/piece", pieces.len() as u32) as usize;
                        pieces[i].as_bytes().to_vec()
                    })
                    .collect()
            };
            let text = String::from_utf8_lossy(&bytes);
            let _ = parse_day_orders(&text, 1, &TwoTiles);
        }
    }
}
