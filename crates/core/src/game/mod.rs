//! The small interface every game implements, so campaigns, the store, mail
//! and scheduling never depend on which game is played.
//!
//! Magic Realm and Fantasy Realms implement it. The plumbing sees a game
//! only through [`Game`]: a small core that every game has (its rule
//! toggles, a new game from a seed, whose orders the next turn waits for,
//! reading a player's orders, resolving a turn into a new state and events,
//! a reader's report), and capabilities reached through it that a game
//! offers only when it has them: [`Seats`] for late joiners, [`Calendar`]
//! for months and seasons, [`RoundsByMail`] for turns that stop for
//! answers, [`SetupByMail`] for choices made by mail before the first turn
//! and [`PublicPages`]. State crosses the boundary as a [`GameState`], and
//! events, parsed orders and round answers as [`GameValue`]s: the game's
//! typed values, written as JSON ([`canonical`]) only when the store saves
//! them, so the store can keep one snapshot per day and hash it without
//! knowing its shape; events carry who observed them ([`Observers`]), so a
//! report is a projection of the events, never a second guess at
//! visibility.

use std::any::Any;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::dice::Dice;

pub mod canonical;
mod registry;
mod setup_by_mail;
pub use registry::Games;
pub use setup_by_mail::{MailSetup, SetupAnswer, SetupByMail, SetupCall, SetupRefused, SetupTable};

/// Whether the engine applies a toggle yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ToggleStatus {
    Built,
    /// Known by name but not built: a campaign file that switches it on is
    /// refused with the reason, never silently run without it.
    NotYetImplemented,
    /// Once optional, now part of the game's basic rules: always played.
    /// The name is still accepted so that older campaign files load, and
    /// switches nothing (the rule is on either way).
    Basic,
}

/// An optional or house rule that a campaign file can switch on by name.
#[derive(Clone, Copy, Debug)]
pub struct RuleToggle {
    /// The name used in campaign files, in snake case.
    pub name: &'static str,
    /// One line saying what the rule changes.
    pub summary: &'static str,
    /// Where the rule is written down (seed file and section).
    pub source: &'static str,
    pub status: ToggleStatus,
    /// Toggles that cannot be on together with this one.
    pub excludes: &'static [&'static str],
}

/// A published rule set a campaign file can name in one word
/// (`rules_profile = "bimr3"`) instead of listing its toggles; the file may
/// still add toggles (`rules`) and take some away (`rules_off`).
#[derive(Clone, Copy, Debug)]
pub struct RuleProfile {
    /// The word campaign files write.
    pub name: &'static str,
    /// One line saying what the set is.
    pub summary: &'static str,
    /// Where the set is written down.
    pub source: &'static str,
    /// The toggles it switches on.
    pub on: &'static [&'static str],
}

/// Why a list of rule toggles is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// `hint` is the nearest known names, worded, or empty.
    #[error("unknown rule toggle '{name}'{hint}")]
    Unknown { name: String, hint: String },
    #[error("the rule toggles '{first}' and '{second}' cannot both be on; remove one of them")]
    Exclusive { first: String, second: String },
    #[error(
        "the rule '{name}' ({summary}) is not implemented yet; remove it from rules, or run the \
         campaign without it"
    )]
    NotBuilt { name: String, summary: String },
}

/// The set of toggles a campaign has switched on, already checked against
/// the game's list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    enabled: BTreeSet<String>,
}

impl Rules {
    /// Check `names` against `known` and build the set.
    ///
    /// # Errors
    /// An unknown name (with the nearest known names), a toggle not built
    /// yet, or two toggles that exclude each other.
    pub fn new<'a>(
        names: impl IntoIterator<Item = &'a str>,
        known: &[RuleToggle],
    ) -> Result<Rules, RulesError> {
        let mut enabled = BTreeSet::new();
        for name in names {
            let Some(toggle) = known.iter().find(|t| t.name == name) else {
                return Err(RulesError::Unknown {
                    name: name.to_string(),
                    hint: crate::suggest::did_you_mean(name, known.iter().map(|t| t.name)),
                });
            };
            if toggle.status == ToggleStatus::NotYetImplemented {
                return Err(RulesError::NotBuilt {
                    name: toggle.name.to_string(),
                    summary: toggle.summary.to_string(),
                });
            }
            if toggle.status == ToggleStatus::Basic {
                continue;
            }
            enabled.insert(toggle.name.to_string());
        }
        for toggle in known.iter().filter(|t| enabled.contains(t.name)) {
            if let Some(other) = toggle.excludes.iter().find(|o| enabled.contains(**o)) {
                return Err(RulesError::Exclusive {
                    first: toggle.name.to_string(),
                    second: (*other).to_string(),
                });
            }
        }
        Ok(Rules { enabled })
    }

    pub fn is_on(&self, name: &str) -> bool {
        self.enabled.contains(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.enabled.iter().map(String::as_str)
    }
}

/// One version of a game's rules. A campaign records the version it plays
/// under and each stored day the version that made it: a rules change
/// alters outcomes, so a day re-run after an upgrade is compared only with
/// runs under the same version, and a campaign moves to new rules only when
/// its GM says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RulesVersion {
    /// Counts up from 1 with every change of the rules.
    pub number: u32,
    /// A few words a GM recognises ("the third edition, release 3.1").
    pub name: &'static str,
    /// What this version changed from the one before, one line each, for
    /// the GM deciding whether to move a running campaign to it.
    pub changes: &'static [&'static str],
}

/// Every version a game's rules have had: the one it plays and the ones
/// before, whose code is not kept.
#[derive(Clone, Copy, Debug)]
pub struct RulesVersions {
    /// Oldest first.
    pub earlier: &'static [RulesVersion],
    pub current: RulesVersion,
}

impl RulesVersions {
    /// Version `number`, if the game's rules ever had it.
    pub fn find(&self, number: u32) -> Option<&RulesVersion> {
        self.earlier
            .iter()
            .chain(std::iter::once(&self.current))
            .find(|v| v.number == number)
    }

    /// What changes for a campaign moving on from version `number` to the
    /// current one, oldest version's changes first, one line each.
    pub fn changes_after(&self, number: u32) -> impl Iterator<Item = &'static str> + '_ {
        self.earlier
            .iter()
            .chain(std::iter::once(&self.current))
            .filter(move |v| v.number > number)
            .flat_map(|v| v.changes.iter().copied())
    }
}

/// A seat at the table as the game needs it when a game starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub player: String,
    /// The part the player plays (Magic Realm: his character), once
    /// chosen; a game whose players choose none leaves it empty. Serialised
    /// as `character`, the name campaign files give it.
    #[serde(rename = "character")]
    pub role: Option<String>,
}

/// A GM's ruling as he wrote it (`give Gold Helmet to Amazon`), with the
/// reason the players will read beside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GmRuling {
    pub text: String,
    pub why: String,
}

/// A value a game hands the plumbing (its state, an event, a player's
/// parsed orders, a paused turn's record, round answers): the game's own
/// typed value when the engine made it, its JSON when the store read it
/// back.
///
/// A value the engine made is written as JSON only when its JSON or
/// canonical text is asked for, which the store does at its edge (saving
/// it); a value the store read back carries its JSON, and a game reads it
/// into its typed form once ([`GameValue::typed`]), however often it is
/// asked. A value never changes once built; cloning shares it.
///
/// The value's type is erased (`dyn Any`) rather than named by an
/// associated type of [`Game`], because the registry of games hands the
/// plumbing a `&dyn Game`: one campaign runs Magic Realm, the next Fantasy
/// Realms, through the same daemon code, so the interface cannot name
/// either game's types; each game downcasts to its own.
#[derive(Clone)]
pub struct GameValue(Arc<Carried>);

/// The typed form of a value, shared.
type Typed = Arc<dyn Any + Send + Sync>;

/// What a [`GameValue`] and a [`GameState`] carry.
struct Carried {
    /// The JSON, made at most once.
    json: OnceLock<serde_json::Value>,
    /// The game's typed reading of the value, made at most once.
    typed: OnceLock<Typed>,
    /// Writes the typed form, for a value made from its typed form.
    writers: Option<Writers>,
    /// The canonical text, written at most once.
    canonical: OnceLock<String>,
    /// [`GameState::hash`], computed at most once (only a state's is asked).
    hash: OnceLock<String>,
}

/// How the typed form of a value is written: as JSON, and as canonical text
/// straight from it.
#[derive(Clone, Copy)]
struct Writers {
    json: fn(&(dyn Any + Send + Sync)) -> serde_json::Value,
    text: fn(&(dyn Any + Send + Sync)) -> String,
}

/// The typed form `typed` as a `T`: a writer is made for its own type.
fn downcast<T: Any>(typed: &(dyn Any + Send + Sync)) -> &T {
    typed
        .downcast_ref::<T>()
        .expect("a value's writer is made for its own typed form")
}

// A game's values are plain data whose maps are keyed by strings or
// numbers, the one thing JSON cannot hold being a map with other keys.

/// The JSON of a typed value of type `T`.
fn write_json<T: Serialize + Any>(typed: &(dyn Any + Send + Sync)) -> serde_json::Value {
    serde_json::to_value(downcast::<T>(typed)).expect("a game's value always writes as JSON")
}

/// The canonical text of a typed value of type `T`.
fn write_text<T: Serialize + Any>(typed: &(dyn Any + Send + Sync)) -> String {
    canonical::to_canonical_text(downcast::<T>(typed))
        .expect("a game's value always writes as JSON")
}

impl Carried {
    fn json(json: serde_json::Value) -> Self {
        Carried {
            json: OnceLock::from(json),
            typed: OnceLock::new(),
            writers: None,
            canonical: OnceLock::new(),
            hash: OnceLock::new(),
        }
    }

    fn typed<T: Serialize + Any + Send + Sync>(typed: T) -> Self {
        Carried {
            json: OnceLock::new(),
            typed: OnceLock::from(Arc::new(typed) as Typed),
            writers: Some(Writers {
                json: write_json::<T>,
                text: write_text::<T>,
            }),
            canonical: OnceLock::new(),
            hash: OnceLock::new(),
        }
    }

    /// The typed form and its writers, for a value made from it.
    fn typed_form(&self) -> (&(dyn Any + Send + Sync), Writers) {
        match (self.writers, self.typed.get()) {
            (Some(writers), Some(typed)) => (&**typed, writers),
            // A value without writers was made from its JSON, which is
            // always there.
            _ => unreachable!("a value is made from its JSON or from its typed form"),
        }
    }

    fn json_value(&self) -> &serde_json::Value {
        self.json.get_or_init(|| {
            let (typed, writers) = self.typed_form();
            (writers.json)(typed)
        })
    }

    fn read<T: Any + Send + Sync, E>(
        &self,
        read: impl FnOnce(&serde_json::Value) -> Result<T, E>,
    ) -> Result<Arc<T>, E> {
        if let Some(Ok(typed)) = self.typed.get().map(|t| Arc::clone(t).downcast::<T>()) {
            return Ok(typed);
        }
        let typed = Arc::new(read(self.json_value())?);
        // Another type may already sit there (a game reading another's
        // value, which only a test does); it is kept, and this reading is
        // returned unkept.
        let _ = self.typed.set(typed.clone());
        Ok(typed)
    }

    fn canonical_text(&self) -> &str {
        self.canonical.get_or_init(|| match self.json.get() {
            // serde_json's Map is a BTreeMap (the preserve_order feature
            // is off), so a tree's keys are always sorted.
            Some(json) => json.to_string(),
            None => {
                let (typed, writers) = self.typed_form();
                (writers.text)(typed)
            }
        })
    }

    fn from_canonical_text(text: &str) -> serde_json::Result<Self> {
        let carried = Carried::json(serde_json::from_str(text)?);
        // A fresh OnceLock is empty, so this always keeps it.
        let _ = carried.canonical.set(text.to_string());
        Ok(carried)
    }
}

impl GameValue {
    /// A value from its JSON.
    pub fn new(json: serde_json::Value) -> Self {
        GameValue(Arc::new(Carried::json(json)))
    }

    /// A value from a game's typed form, kept so the game need not read it
    /// back; its JSON is written when first asked for.
    pub fn from_typed<T: Serialize + Any + Send + Sync>(typed: T) -> Self {
        GameValue(Arc::new(Carried::typed(typed)))
    }

    /// A value read back from the canonical text the store saved.
    ///
    /// # Errors
    /// The text is not JSON.
    pub fn from_canonical_text(text: &str) -> serde_json::Result<Self> {
        Carried::from_canonical_text(text).map(|c| GameValue(Arc::new(c)))
    }

    /// The value as JSON.
    pub fn json(&self) -> &serde_json::Value {
        self.0.json_value()
    }

    /// The game's typed form of the value: read by `read` the first time,
    /// shared afterwards. A reading that fails is not kept (the next call
    /// reads again and fails the same way).
    ///
    /// # Errors
    /// What `read` returns.
    pub fn typed<T: Any + Send + Sync, E>(
        &self,
        read: impl FnOnce(&serde_json::Value) -> Result<T, E>,
    ) -> Result<Arc<T>, E> {
        self.0.read(read)
    }

    /// The canonical text of the value, as the store saves it: JSON with
    /// object keys in a fixed order, so equal values give equal bytes on
    /// every machine. A value made from its typed form writes it straight
    /// from that form ([`canonical`]) and keeps only the text.
    pub fn canonical_text(&self) -> &str {
        self.0.canonical_text()
    }
}

impl Default for GameValue {
    /// JSON's `null`: nothing.
    fn default() -> Self {
        GameValue::new(serde_json::Value::Null)
    }
}

impl From<serde_json::Value> for GameValue {
    fn from(json: serde_json::Value) -> Self {
        GameValue::new(json)
    }
}

impl PartialEq for GameValue {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.canonical_text() == other.canonical_text()
    }
}

impl std::fmt::Debug for GameValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.canonical_text())
    }
}

/// Written as its JSON, keys sorted whatever the serializer, so anything
/// holding a value (an event, orders) writes and hashes as it always did.
impl Serialize for GameValue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for GameValue {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(deserializer).map(GameValue::new)
    }
}

/// A game's whole state: a [`GameValue`] the store keeps one of per day and
/// hashes.
///
/// The daemon asks about the same state many times: every orders mail of a
/// day is checked against the same pending state, and the store hands the
/// same state out again while the stored day is unchanged (`store::days`),
/// so the game's reading of it ([`GameState::typed`]) is made once.
///
/// It reads as the value it is ([`GameValue::json`], [`GameValue::typed`],
/// [`GameValue::canonical_text`]) and adds what only a state has: its hash,
/// and being handed over to be changed.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GameState(GameValue);

impl std::ops::Deref for GameState {
    type Target = GameValue;

    fn deref(&self) -> &GameValue {
        &self.0
    }
}

impl GameState {
    /// A state from its JSON.
    pub fn new(json: serde_json::Value) -> Self {
        GameState(GameValue::new(json))
    }

    /// A state from a game's typed form, kept so the game need not read it
    /// back; its JSON is written when first asked for.
    pub fn from_typed<T: Serialize + Any + Send + Sync>(typed: T) -> Self {
        GameState(GameValue::from_typed(typed))
    }

    /// A state read back from the text the store saved: that text is its
    /// canonical text, so its hash is the hash of the text as read (the
    /// store compares it with the hash saved beside it), never a hash
    /// taken on trust.
    ///
    /// # Errors
    /// The text is not JSON.
    pub fn from_canonical_text(text: &str) -> serde_json::Result<Self> {
        GameValue::from_canonical_text(text).map(GameState)
    }

    /// The game's typed form of the state, to change: taken as it is when
    /// this is the state's only handle (nobody else can see the change),
    /// else a copy.
    ///
    /// # Errors
    /// What `read` returns.
    pub fn into_typed<T: Any + Send + Sync + Clone, E>(
        self,
        read: impl FnOnce(&serde_json::Value) -> Result<T, E>,
    ) -> Result<T, E> {
        let typed = self.typed(read)?;
        // Dropping the last handle drops the carried reading, so `typed`
        // is then its only owner.
        drop(self);
        Ok(Arc::unwrap_or_clone(typed))
    }

    /// SHA-256 of the canonical text, in hex: what determinism tests and the
    /// daemon's re-run check compare.
    pub fn hash(&self) -> String {
        self.0
            .0
            .hash
            .get_or_init(|| text_hash(self.canonical_text().as_bytes()))
            .clone()
    }
}

impl std::fmt::Debug for GameState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("GameState")
            .field(&self.canonical_text())
            .finish()
    }
}

/// SHA-256 of a state's canonical text, in hex ([`GameState::hash`]); the
/// store takes it of a saved state's bytes before reading them as JSON.
pub fn text_hash(text: &[u8]) -> String {
    hex(&Sha256::digest(text))
}

/// Lower-case hex of a byte string.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A game's calendar: the game runs in months, and an optional rule gives
/// each month a season (Magic Realm's Seasons and Weather).
#[derive(Clone, Copy, Debug)]
pub struct Calendar {
    /// Days in a month.
    pub days_per_month: u32,
    /// The victory points a month without seasons asks.
    pub points_per_month: u32,
    /// The victory points a game without seasons asks besides its months'
    /// (Magic Realm: one basic point, 3.1 10.E.2.2).
    pub points_per_game: u32,
    /// The seasons in calendar order, as campaign files name them.
    pub seasons: &'static [&'static str],
    /// The rule toggle without which seasons do not exist.
    pub seasons_toggle: &'static str,
    /// The victory points a month of this season asks (with the seasons
    /// toggle on).
    pub season_points: fn(&str) -> u32,
}

impl Calendar {
    /// The victory points a game of `months` months without seasons asks.
    pub fn points_for(&self, months: u32) -> u32 {
        self.points_per_game + months * self.points_per_month
    }

    /// The season of `day` in a campaign whose first month has the season
    /// `start`; `None` for a season the calendar does not know.
    pub fn season_of(&self, start: &str, day: u32) -> Option<&'static str> {
        let first = self.seasons.iter().position(|s| *s == start)?;
        let month = usize::try_from(day.saturating_sub(1) / self.days_per_month).ok()?;
        Some(self.seasons[(first + month) % self.seasons.len()])
    }
}

/// How a freshly set-up game's calendar starts: its length, its first
/// season (with the seasons toggle) and the victory points each player
/// records for the whole game.
#[derive(Clone, Copy, Debug)]
pub struct CalendarStart<'a> {
    pub months: u32,
    pub season: Option<&'a str>,
    pub victory_points: u32,
}

/// Who observed an event: the basis of every report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Observers {
    /// Public news: every player sees it.
    Everyone,
    /// Only the GM's history shows it.
    Gm,
    /// These players (and the GM) saw it.
    Players(BTreeSet<String>),
}

impl Observers {
    /// Whether `player` saw the event; the GM sees everything.
    pub fn includes(&self, reader: &Reader<'_>) -> bool {
        match (self, reader) {
            (_, Reader::Gm) | (Observers::Everyone, _) => true,
            (Observers::Gm, Reader::Player(_)) => false,
            (Observers::Players(names), Reader::Player(name)) => names.contains(*name),
        }
    }

    /// The list the store keeps: `["*"]` for everyone, `[]` for the GM only,
    /// else the players' names.
    pub fn to_list(&self) -> Vec<String> {
        match self {
            Observers::Everyone => vec!["*".to_string()],
            Observers::Gm => Vec::new(),
            Observers::Players(names) => names.iter().cloned().collect(),
        }
    }

    /// The inverse of [`Observers::to_list`].
    pub fn from_list(list: &[String]) -> Observers {
        match list {
            [] => Observers::Gm,
            [all] if all == "*" => Observers::Everyone,
            names => Observers::Players(names.iter().cloned().collect()),
        }
    }
}

/// One thing that happened in a turn: the game's own event, typed as the
/// engine made it or JSON as the store read it back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub observers: Observers,
    pub body: GameValue,
}

/// The projection of an event stream for a reader: the bodies of the
/// events he observed, in order, as the game's own event type (each body
/// read once, shared). Every report is built from this and nothing else.
///
/// # Errors
/// A body that is not an event of type `T` (a game reading another's events).
pub fn observed_by<T: serde::de::DeserializeOwned + Any + Send + Sync>(
    events: &[Event],
    reader: Reader<'_>,
) -> Result<Vec<(Observers, Arc<T>)>, serde_json::Error> {
    events
        .iter()
        .filter(|e| e.observers.includes(&reader))
        .map(|e| {
            Ok((
                e.observers.clone(),
                e.body.typed(|json| T::deserialize(json))?,
            ))
        })
        .collect()
}

/// Who a report is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader<'a> {
    Player(&'a str),
    /// The omniscient history.
    Gm,
}

impl<'a> Reader<'a> {
    /// The player a report is for; `None` for the GM's history.
    pub fn player(self) -> Option<&'a str> {
        match self {
            Reader::Player(name) => Some(name),
            Reader::Gm => None,
        }
    }
}

/// A player's orders as the game read them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AcceptedOrders {
    /// The orders in canonical form: echoed in the confirmation, and what the
    /// next report's orders template is filled with.
    pub canonical: String,
    /// What the engine acts on: the game's typed orders as it read them,
    /// or their JSON as the store read them back.
    pub parsed: GameValue,
    /// Things worth a second look that reveal nothing the player does not know.
    pub warnings: Vec<String>,
}

/// Why a late joiner's starting info was not recorded, worded for him.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct StartingInfoRefused(pub String);

/// A line of orders that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrdersProblem {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for OrdersProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

/// What resolving a turn produced.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnResult {
    pub state: GameState,
    pub events: Vec<Event>,
    /// True when the game is over (final scores are in the events).
    pub finished: bool,
}

/// A turn stopped at a decision point (Magic Realm: a combat round that
/// standing orders do not cover, with round-by-round combat on).
#[derive(Clone, Debug, PartialEq)]
pub struct TurnPause {
    /// The game's own record of the decisions waited for, given back to
    /// [`RoundsByMail::read_answer`].
    pub waiting: GameValue,
    /// Each asked player's prompt, ready to mail.
    pub prompts: BTreeMap<String, String>,
}

/// A turn resolved to its end, or stopped until answers arrive.
#[derive(Clone, Debug, PartialEq)]
pub enum TurnStep {
    Done(TurnResult),
    Paused(TurnPause),
}

impl TurnStep {
    /// The turn's result, when it was resolved to its end.
    pub fn done(self) -> Option<TurnResult> {
        match self {
            TurnStep::Done(result) => Some(result),
            TurnStep::Paused(_) => None,
        }
    }
}

/// A report ready to mail: the text part always, HTML and files optionally.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub subject: String,
    pub text: String,
    pub html: Option<String>,
    /// (file name, MIME type, bytes), e.g. a map picture.
    pub attachments: Vec<(String, String, Vec<u8>)>,
}

/// One game the plumbing can run: the small core every game has, and the
/// capabilities ([`Game::seats`], [`Game::calendar`], [`Game::rounds`],
/// [`Game::setup_by_mail`], [`Game::pages`]) a game offers only when it
/// has them.
pub trait Game: Sync {
    /// The name campaign files use (`game = "magic-realm"`).
    fn id(&self) -> &'static str;
    /// Every rule toggle the game knows.
    fn toggles(&self) -> &'static [RuleToggle];
    /// Every version its rules have had; it plays only the current one.
    fn rules_versions(&self) -> RulesVersions;

    /// The published rule sets a campaign file may name by one word.
    fn rule_profiles(&self) -> &'static [RuleProfile] {
        &[]
    }

    /// The most players a campaign under `rules` may seat, with the rule
    /// that sets it; `None` when the rules set no limit (a rule for one
    /// player alone sets one).
    fn most_players(&self, _rules: &Rules) -> Option<(usize, &'static str)> {
        None
    }

    /// Why the game cannot play a campaign under `rules` (with its players
    /// choosing their characters by mail when `setup_by_mail`), worded for
    /// the GM with what to change; `None` when it can. `campaign new`
    /// refuses such a file at once rather than at its first deadline.
    fn campaign_refusal(&self, _rules: &Rules, _setup_by_mail: bool) -> Option<String> {
        None
    }

    /// A new game (day 0) from the campaign's seats and rules, the choices
    /// of a setup by mail and the campaign's calendar; all randomness comes
    /// from `dice`.
    ///
    /// # Errors
    /// A setup the rules do not allow (too many players, an unknown seat,
    /// an illegal board, a calendar the game cannot start), worded for the
    /// GM.
    fn start(&self, start: &Start<'_>, dice: &mut Dice) -> anyhow::Result<GameState>;

    /// Whether each player is mailed a start report (his report of the
    /// state before the first turn) when the game is set up.
    fn sends_start_reports(&self) -> bool {
        false
    }

    /// The state with the GM's `rulings` queued for the next turn, each
    /// checked against the state: the game carries them out, in order, as
    /// the turn begins and reports each to those it concerns. Called on the
    /// pending state before each turn runs (rulings are inputs of a turn,
    /// like orders), and when the GM makes a ruling, so a bad one is refused
    /// at once.
    ///
    /// # Errors
    /// A ruling the game cannot read or apply: the message names it and
    /// says what was expected.
    fn rule(
        &self,
        state: &GameState,
        _rules: &Rules,
        rulings: &[GmRuling],
    ) -> anyhow::Result<GameState> {
        if let Some(first) = rulings.first() {
            anyhow::bail!(
                "{} takes no rulings (cannot apply '{}'); enter corrected orders instead",
                self.id(),
                first.text
            );
        }
        Ok(state.clone())
    }

    /// The players whose orders the next turn waits for: everyone for a
    /// simultaneous game day, the player to move for a game in turns.
    ///
    /// # Errors
    /// The state is not one this game wrote.
    fn awaiting(&self, state: &GameState) -> anyhow::Result<Vec<String>>;

    /// Whether the game has ended, so no turn will ever run again. By
    /// default a game is over when it waits for nobody; a game whose
    /// standing orders can decide a turn (it then waits for nobody while
    /// going on) answers itself.
    ///
    /// # Errors
    /// The state is not one this game wrote.
    fn is_over(&self, state: &GameState) -> anyhow::Result<bool> {
        Ok(self.awaiting(state)?.is_empty())
    }

    /// Read `player`'s orders for the next turn, checked against what he may
    /// know of `state`.
    ///
    /// # Errors
    /// Every line that could not be read, with its line and column.
    fn read_orders(
        &self,
        state: &GameState,
        rules: &Rules,
        player: &str,
        text: &str,
    ) -> Result<AcceptedOrders, Vec<OrdersProblem>>;

    /// Whether `line` of a player's mail reads as orders (even faulty
    /// ones), so the prose written before and after his orders can be set
    /// aside. A game that cannot tell takes every line for orders.
    fn reads_as_orders(&self, _line: &str) -> bool {
        true
    }

    /// The most phases one turn of `orders` asks of one piece, checked
    /// against the campaign's `mail.max_phases_per_day`; `None` for a game
    /// without phases.
    fn phases_asked(&self, _orders: &AcceptedOrders) -> Option<usize> {
        None
    }

    /// What [`Game::missing_orders`] plays, in a few words for players and
    /// the GM ("hide in every phase").
    fn safe_orders(&self) -> &'static str;

    /// A player's earlier orders played again for a turn he sent none for
    /// (the `repeat` NMR policy): what belonged to that turn alone is
    /// dropped, so a gift is not given twice. The default repeats them
    /// whole.
    fn repeated_orders(&self, orders: AcceptedOrders) -> AcceptedOrders {
        orders
    }

    /// The game's safe orders for a player who sent none. A campaign that
    /// repeats standing orders instead reuses the player's last accepted
    /// orders itself.
    ///
    /// # Errors
    /// The state is not one this game wrote.
    fn missing_orders(
        &self,
        state: &GameState,
        rules: &Rules,
        player: &str,
    ) -> anyhow::Result<AcceptedOrders>;

    /// Resolve the next turn with the orders of every awaited player and
    /// the answers given to its earlier pauses; all randomness comes from
    /// `dice` (the turn's day). The turn is always resolved from its start
    /// with the same dice, so answers given after a pause give the same
    /// result as the same answers given up front. Only a game with
    /// [`Game::rounds`] ever pauses.
    ///
    /// The state is handed over: a caller holding its only handle (the
    /// daemon, once the store has forgotten it) lets the game change its
    /// typed reading in place; a state held elsewhere too is copied first.
    ///
    /// # Errors
    /// A rule the engine does not implement yet, named; or a state this game
    /// did not write.
    fn resolve_turn(
        &self,
        state: GameState,
        turn: &Turn<'_>,
        dice: &mut Dice,
    ) -> anyhow::Result<TurnStep>;

    /// The report of a turn for `reader`: built only from the events he
    /// observed and what the new `state` shows him, with what only the
    /// plumbing knows (campaign, deadline, private messages, standing
    /// orders) and the campaign's templates in `context`, for a game whose
    /// reports use them.
    ///
    /// # Errors
    /// The state is not one this game wrote, or a template fails.
    fn report(
        &self,
        state: &GameState,
        events: &[Event],
        reader: Reader<'_>,
        context: &crate::report::ReportContext,
    ) -> anyhow::Result<Report>;

    /// Seats and late joiners, for a game whose players can join once it
    /// has begun.
    fn seats(&self) -> Option<&dyn Seats> {
        None
    }

    /// The game's calendar, for a game played in months; campaign files
    /// may set its length and starting season only when there is one.
    fn calendar(&self) -> Option<Calendar> {
        None
    }

    /// Rounds of a turn answered by mail, for a game whose turns can stop
    /// for its players' answers.
    fn rounds(&self) -> Option<&dyn RoundsByMail> {
        None
    }

    /// Setup by mail, for a game whose players can make their setup
    /// choices by mail.
    fn setup_by_mail(&self) -> Option<&dyn SetupByMail> {
        None
    }

    /// Public pages of each day, for a game that has them.
    fn pages(&self) -> Option<&dyn PublicPages> {
        None
    }
}

impl dyn Game + '_ {
    /// The state with every seat let in that has no part in the game yet
    /// ([`Seats::admit`]); a game that takes nobody late keeps it as it is.
    ///
    /// # Errors
    /// A seat cannot join.
    pub fn admit(
        &self,
        state: &GameState,
        rules: &Rules,
        seats: &[Seat],
    ) -> anyhow::Result<GameState> {
        match self.seats() {
            Some(late) => late.admit(state, rules, seats),
            None => Ok(state.clone()),
        }
    }

    /// Whether `player` has a part in the game as it stands
    /// ([`Seats::plays`]); in a game without late joiners every seat plays.
    pub fn plays(&self, state: &GameState, player: &str) -> bool {
        self.seats().is_none_or(|seats| seats.plays(state, player))
    }
}

/// How a game starts: [`Game::start`].
#[derive(Clone, Copy)]
pub struct Start<'a> {
    pub seats: &'a [Seat],
    pub rules: &'a Rules,
    /// What the players chose during a setup by mail
    /// ([`Game::setup_by_mail`]), when they did.
    pub setup: Option<&'a dyn MailSetup>,
    /// The calendar the campaign sets, for a game with one
    /// ([`Game::calendar`]).
    pub calendar: Option<CalendarStart<'a>>,
    /// What the campaign file carries over from an earlier campaign
    /// (its `[carry_over]` table, as JSON), for the game to read: Magic
    /// Realm's characters' stages under Extended Development.
    pub carry_over: Option<&'a serde_json::Value>,
}

impl<'a> Start<'a> {
    /// A start from the seats and rules alone.
    pub fn new(seats: &'a [Seat], rules: &'a Rules) -> Self {
        Start {
            seats,
            rules,
            setup: None,
            calendar: None,
            carry_over: None,
        }
    }
}

/// What a turn is resolved with: [`Game::resolve_turn`].
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    pub rules: &'a Rules,
    /// The orders of every awaited player.
    pub orders: &'a BTreeMap<String, AcceptedOrders>,
    /// The answers given to the turn's earlier pauses
    /// ([`RoundsByMail::read_answer`]); `None` (or JSON's `null`) for none.
    pub answers: Option<&'a GameValue>,
    /// Defaults answer what nobody did instead of pausing.
    pub deadline_passed: bool,
}

impl<'a> Turn<'a> {
    /// A turn from the rules and orders alone: no answers, deadline not
    /// passed.
    pub fn new(rules: &'a Rules, orders: &'a BTreeMap<String, AcceptedOrders>) -> Self {
        Turn {
            rules,
            orders,
            answers: None,
            deadline_passed: false,
        }
    }
}

/// Seats and late joiners: a game whose players can join once it has
/// begun, each playing a part (Magic Realm: a character) he chose.
pub trait Seats: Sync {
    /// The state with every seat that has no part in the game yet let in:
    /// the game places him at the start of the next turn. Called on the
    /// pending state before each turn runs, and when the GM seats a player,
    /// so a bad seat (an unknown or taken character) is refused at once.
    ///
    /// # Errors
    /// A seat cannot join: the message says why and what the GM can do.
    fn admit(&self, state: &GameState, rules: &Rules, seats: &[Seat]) -> anyhow::Result<GameState>;

    /// What a player who joined late still owes before he enters, asked
    /// of him as of the others at setup (Magic Realm: his victory
    /// requirements and spells, in a campaign whose players recorded
    /// theirs); `None` when nothing. `state` is the pending state with the
    /// late seats admitted and the turn's rulings queued.
    fn late_starting_info_request(&self, _state: &GameState, _player: &str) -> Option<String> {
        None
    }

    /// The ruling text that `player`'s mail makes of the starting info he
    /// owes ([`Seats::late_starting_info_request`]), or the problem, worded
    /// for him; `None` when he owes nothing or the mail holds no starting
    /// info (it is something else, e.g. his orders).
    fn late_starting_info(
        &self,
        _state: &GameState,
        _player: &str,
        _text: &str,
    ) -> Option<Result<String, StartingInfoRefused>> {
        None
    }

    /// Whether `player` has a part in the game as it stands (Magic Realm:
    /// a character on the board), so a report of the turn is his to read.
    fn plays(&self, _state: &GameState, _player: &str) -> bool {
        true
    }

    /// The part `player` plays in `state` (Magic Realm: his character),
    /// for a game whose players choose one.
    fn role_of(&self, _state: &GameState, _player: &str) -> Option<String> {
        None
    }

    /// The parts nobody plays in `state`, which a late player may choose;
    /// empty for a game whose players choose none.
    fn unplayed(&self, _state: &GameState) -> Vec<String> {
        Vec::new()
    }
}

/// Rounds of a turn answered by mail: a turn stops at a decision its
/// players' orders do not cover ([`TurnStep::Paused`]) until they answer.
pub trait RoundsByMail: Sync {
    /// Read `player`'s answer to a pause (`waiting` from [`TurnPause`]) and
    /// return `answers` (`null` for none yet) with it added.
    ///
    /// # Errors
    /// The answer cannot be read, or nothing of his is waited for.
    fn read_answer(
        &self,
        waiting: &GameValue,
        answers: &GameValue,
        player: &str,
        text: &str,
    ) -> Result<GameValue, Vec<OrdersProblem>>;
}

/// The public pages of a game: each day's page and the map.
pub trait PublicPages: Sync {
    /// The public page of the day that ended with `state`, showing only
    /// what `disclosure` lets through; `previous` is the state the day
    /// began with.
    ///
    /// # Errors
    /// The state or an event is not one this game wrote.
    fn site_day(
        &self,
        state: &GameState,
        previous: Option<&GameState>,
        events: &[Event],
        disclosure: crate::page::Disclosure,
    ) -> anyhow::Result<crate::page::SiteDay>;

    /// The GM's picture of the whole map as SVG.
    ///
    /// # Errors
    /// The state is not one this game wrote.
    fn map_svg(&self, state: &GameState) -> anyhow::Result<String>;
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[RuleToggle] = &[
        RuleToggle {
            name: "optional_missile_table",
            summary: "",
            source: "",
            status: ToggleStatus::Built,
            excludes: &["revised_missile_table"],
        },
        RuleToggle {
            name: "revised_missile_table",
            summary: "",
            source: "",
            status: ToggleStatus::NotYetImplemented,
            excludes: &["optional_missile_table"],
        },
        RuleToggle {
            name: "pack_horses",
            summary: "",
            source: "",
            status: ToggleStatus::Basic,
            excludes: &[],
        },
    ];

    #[test]
    fn a_state_handed_over_by_its_last_holder_is_changed_without_a_copy() {
        let read = |json: &serde_json::Value| Ok::<_, ()>(json.to_string());
        let state = GameState::new(serde_json::json!({"day": 3}));
        let reading = state.typed(read).unwrap().as_ptr();
        let held = state.clone();
        // Held elsewhere too: a copy, and the other holder's reading stays.
        let copy = state.into_typed(read).unwrap();
        assert_ne!(copy.as_ptr(), reading);
        assert_eq!(held.typed(read).unwrap().as_ptr(), reading);
        // The last holder: the reading itself.
        let taken = held.into_typed(read).unwrap();
        assert_eq!((taken.as_ptr(), taken), (reading, copy));
    }

    #[test]
    fn rules_accept_known_names_and_refuse_unknown_unbuilt_or_exclusive_ones() {
        let rules = Rules::new(["optional_missile_table"], KNOWN).unwrap();
        assert!(rules.is_on("optional_missile_table"));
        assert!(!rules.is_on("revised_missile_table"));
        let err = Rules::new(["revised_missile_table"], KNOWN).unwrap_err();
        assert!(err.to_string().contains("is not implemented yet"), "{err}");
        let err = Rules::new(["optional_misile_table"], KNOWN).unwrap_err();
        assert!(
            err.to_string()
                .contains("did you mean optional_missile_table"),
            "{err}"
        );
        let both: Vec<RuleToggle> = KNOWN
            .iter()
            .map(|t| RuleToggle {
                status: ToggleStatus::Built,
                ..*t
            })
            .collect();
        let err =
            Rules::new(["optional_missile_table", "revised_missile_table"], &both).unwrap_err();
        assert!(err.to_string().contains("cannot both be on"), "{err}");
    }

    /// A rule that became basic still loads by its old name and switches
    /// nothing on: the game plays it always.
    #[test]
    fn a_basic_rule_is_accepted_by_name_and_is_not_a_toggle_that_is_on() {
        let rules = Rules::new(["pack_horses", "optional_missile_table"], KNOWN).unwrap();
        assert!(!rules.is_on("pack_horses"));
        assert_eq!(
            rules.names().collect::<Vec<_>>(),
            ["optional_missile_table"]
        );
    }

    #[test]
    fn observers_round_trip_through_the_stored_list_and_decide_visibility() {
        let two = Observers::Players(["Ann".to_string(), "Ben".to_string()].into());
        for observers in [Observers::Everyone, Observers::Gm, two.clone()] {
            assert_eq!(Observers::from_list(&observers.to_list()), observers);
        }
        assert!(two.includes(&Reader::Player("Ann")));
        assert!(!two.includes(&Reader::Player("Cat")));
        assert!(two.includes(&Reader::Gm));
        assert!(!Observers::Gm.includes(&Reader::Player("Ann")));
        assert!(Observers::Everyone.includes(&Reader::Player("Cat")));
    }

    /// A typed state that counts how often it is written as JSON.
    struct Counted(&'static std::sync::atomic::AtomicUsize);

    impl Serialize for Counted {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            serde_json::json!({"b": 1, "a": [1, 2]}).serialize(serializer)
        }
    }

    #[test]
    fn a_typed_state_is_written_as_json_only_when_its_text_is_asked_for_and_once() {
        static WRITES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let writes = || WRITES.load(std::sync::atomic::Ordering::SeqCst);
        let state = GameState::from_typed(Counted(&WRITES));
        let shared = state.clone();
        assert!(state.typed(|_| Err::<Counted, ()>(())).is_ok());
        assert_eq!(writes(), 0, "the engine's own reading needs no JSON");
        assert_eq!(state.canonical_text(), r#"{"a":[1,2],"b":1}"#);
        assert_eq!(
            shared.hash(),
            GameState::new(serde_json::json!({"a": [1, 2], "b": 1})).hash()
        );
        assert_eq!(writes(), 1);
    }

    #[test]
    fn a_seat_keeps_the_name_campaign_files_give_its_part() {
        let seat = Seat {
            player: "Ann".into(),
            role: Some("Amazon".into()),
        };
        let json = serde_json::to_value(&seat).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"player": "Ann", "character": "Amazon"})
        );
        assert_eq!(serde_json::from_value::<Seat>(json).unwrap(), seat);
    }

    #[test]
    fn state_hash_ignores_key_insertion_order() {
        let a = GameState::new(serde_json::json!({"b": 1, "a": [1, 2]}));
        let b = GameState::new(serde_json::from_str(r#"{"a":[1,2],"b":1}"#).unwrap());
        assert_eq!(a.hash(), b.hash());
        assert_eq!(a.canonical_text(), r#"{"a":[1,2],"b":1}"#);
    }
}
