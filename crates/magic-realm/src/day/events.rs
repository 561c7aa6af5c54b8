//! What a day's events say. Each part of the day has its own enum here, so
//! parts can grow without touching each other; [`DayEvent`] adds who saw it.
//! The GM log and the players' reports are built from these and nothing
//! else.

use std::fmt;

use serde::{Deserialize, Serialize};

use realmgm_core::dice::{Faces, RollRecord};
use realmgm_core::game::{Event, GameValue, Observers};

use crate::board::ClearingId;
use crate::state::ChitCondition;

/// One event of the day with its observers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DayEvent {
    pub observers: Observers,
    pub happening: Happening,
}

/// The day's events in the plumbing's form, each kept typed: what the
/// reports read.
pub fn to_events(events: Vec<DayEvent>) -> Vec<Event> {
    events
        .into_iter()
        .map(|e| Event {
            observers: e.observers,
            body: GameValue::from_typed(e.happening),
        })
        .collect()
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "part", rename_all = "snake_case")]
pub enum Happening {
    /// A die roll, with its purpose and faces.
    Roll(RollRecord),
    /// A Search phase (play summary II.C.5).
    Search(super::search::SearchEvent),
    /// A Trade phase: buying or selling (play summary II.C.6).
    Trade(super::trade::TradeEvent),
    /// A Hire phase or a term of hire ending (play summary II.C.7).
    Hire(super::hire::HireEvent),
    /// Birdsong and Sunrise (play summary I).
    Birdsong(BirdsongEvent),
    /// A character's Daylight turn, phase by phase (play summary II.A–D).
    Phase(PhaseEvent),
    /// The end of a character's turn: chits turn up, denizens arrive
    /// (play summary II.E; `data/setup_card.toml`).
    Arrival(ArrivalEvent),
    /// Sunset and Evening (play summary III).
    Combat(CombatEvent),
    /// Midnight (play summary IV).
    Midnight(MidnightEvent),
    /// A killed character starting again at the Inn (BIMR play).
    Restart(super::restart::RestartEvent),
    /// Row-6 visitors and missions coming onto the map (`data/setup_card.toml`).
    Visitors(super::visitors::VisitorEvent),
    /// A treasure site searched on its own table (`tables/twt.rs`).
    TreasureSite(super::treasure_sites::SiteEvent),
    /// The Witch's familiar doing its own phases (`data/characters.toml`).
    Familiar(super::familiar::FamiliarEvent),
    /// Enchanting, curses, learning and spells expiring (magic summary).
    Magic(crate::magic::events::MagicEvent),
    /// The Seasons and Weather rule: the week's weather, skipped days and
    /// weather fatigue (`data/seasons.toml`).
    Weather(super::weather::WeatherEvent),
    /// A GM's ruling carried out at Birdsong (`day/rulings.rs`).
    Ruling(super::rulings::RulingEvent),
    /// Belongings rearranged by order before a phase or at Midnight
    /// (play summary II.D.1.b, IV.A; `day/rearrange.rs`).
    Rearranged(super::rearrange::RearrangeEvent),
    Cache(super::cache::CacheEvent),
    /// Characters dealing with each other (play summary II.D.1.a, IV.A;
    /// `day/dealings.rs`).
    Dealing(super::dealings::DealEvent),
    AutoEnchant(super::auto_enchant::AutoEnchantEvent),
    /// A developing character's chits and levels (3.1 10.E.5.4).
    Development(super::development::DevelopmentEvent),
}

/// What happens before Daylight.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum BirdsongEvent {
    /// The day begins.
    DayBegins { day: u32 },
    /// A follower is put with his guide.
    Follows { follower: String, leader: String },
    /// A follower could not join his guide and does nothing today.
    CannotFollow {
        follower: String,
        leader: String,
        reason: String,
    },
    /// The monster roll and who prowls today.
    MonsterRoll {
        die: u8,
        /// Setup-card boxes, sites and native groups of the row, and the
        /// ghosts.
        prowling: Vec<String>,
    },
    /// A solitaire player's second Monster Roll (3.1 10.E.1.7): its row
    /// prowls too, or on doubles the first row alone.
    SecondMonsterRoll {
        die: u8,
        /// What prowls because of it; empty on doubles.
        prowling: Vec<String>,
        doubles: bool,
    },
    /// Seventh-day regeneration: these counters went back to where they
    /// started the game.
    Regenerated { row: u8, returned: Vec<String> },
    /// A part of the rules this day does not apply yet, said out loud.
    NotApplied { what: String },
    /// A character who may choose when to take his turn took this place.
    TurnChosen { character: String, place: String },
    /// The order in which characters take their turns.
    TurnOrder { order: Vec<String> },
}

/// A character's turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum PhaseEvent {
    /// A hired leader standing with his employer hands him what he carried.
    HandedOver {
        leader: String,
        character: String,
        items: Vec<String>,
    },
    /// A hired leader or controlled monster standing with his master keeps
    /// `items` rather than hand them over, for `reason` (transmorphized
    /// belongings, 3.1 4.6.9b).
    KeptFromHandOver {
        leader: String,
        character: String,
        items: Vec<String>,
        reason: String,
    },
    /// His turn starts: where he is and what he recorded.
    TurnStarts {
        character: String,
        clearing: ClearingId,
        recorded: String,
        /// His player sent no orders: the day is spent hiding.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        no_orders: bool,
        /// Normal phases he may use today (2 basic + 2 sunlight, or fewer).
        phases: u8,
        /// Followers who move with him.
        followers: Vec<String>,
    },
    /// One recorded phase and how it went.
    PhaseDone {
        character: String,
        number: usize,
        recorded: String,
        result: PhaseResult,
    },
    /// `blocker` blocked `blocked` in `clearing`; both are unhidden and the
    /// blocked one does no more phases today.
    Blocked {
        blocker: String,
        blocked: String,
        clearing: ClearingId,
    },
    /// His flying ended: the landing die put him in `clearing`.
    Landed {
        character: String,
        clearing: ClearingId,
        die: u8,
    },
    /// Horses made inactive on entering a cave (play summary II.C).
    HorsesInactive {
        character: String,
        horses: Vec<String>,
    },
    /// Followers who could not keep up and stay where they were.
    FollowersLeft {
        character: String,
        followers: Vec<String>,
        reason: String,
    },
    /// Phases recorded for a hired leader that he may not do (Alert, Rest,
    /// Enchant, starred phases), or for a controlled monster (those, Trade
    /// and Hire; a transmorphized leader's Trade and Hire too), struck from
    /// his turn; a starred one is named with its star.
    StruckForLeader {
        leader: String,
        phases: Vec<String>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        monster: bool,
        /// Held by a transmorphizing spell: no Trade or Hire either, nor
        /// Search as mist (3.1 4.6.9c).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        transmorphized: bool,
    },
    /// Phases not done because the turn ended early.
    PhasesLeft {
        character: String,
        count: usize,
        reason: String,
    },
}

/// The result of one phase.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum PhaseResult {
    Moved {
        to: ClearingId,
        /// Items too heavy for his strongest active MOVE chit.
        left_behind: Vec<String>,
    },
    /// He flies over the tile `over` on the `item`; his followers stay.
    Flew {
        over: String,
        item: String,
        followers_left: Vec<String>,
        /// Items too heavy for the flying item, left where he took off.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        left_behind: Vec<String>,
    },
    /// First of the two move phases into a mountain clearing.
    Climbing {
        toward: ClearingId,
    },
    Hid {
        faces: Faces,
        hidden: bool,
    },
    AlreadyHidden,
    Alerted {
        weapon: String,
    },
    Rested {
        changes: Vec<RestChange>,
    },
    Followed {
        leader: String,
    },
    /// Done by an activity that reports in its own events; `activity` says
    /// what he did (`searches`, `seeks to hire`).
    Done {
        activity: String,
    },
    /// The phase could not be done as recorded.
    Lost {
        reason: String,
    },
    /// The phase could not be done as recorded, so the standing instruction
    /// did something else.
    Instead {
        reason: String,
        result: Box<PhaseResult>,
    },
}

/// One chit rested.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RestChange {
    pub chit: String,
    pub from: ChitCondition,
    pub to: ChitCondition,
}

/// The end of a character's turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum ArrivalEvent {
    /// His turn ends here.
    TurnEnds {
        character: String,
        clearing: ClearingId,
        hidden: bool,
    },
    /// Map chits of a tile turned face up.
    ChitsRevealed { tile: String, chits: Vec<String> },
    /// A campfire (dwelling) appears with its warning chit; under Solitaire
    /// Play a Valley dwelling too, its chit having stayed face down at
    /// setup (3.1 10.E.1.5).
    DwellingAppears {
        dwelling: String,
        clearing: ClearingId,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        in_valley: bool,
    },
    /// Denizens came into a clearing.
    Arrived {
        clearing: ClearingId,
        counters: Vec<String>,
        cause: String,
    },
    /// Nothing came to the character's clearing.
    NothingArrives { character: String },
}

/// A line of a clearing's combat (play summary III).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum CombatEvent {
    Line {
        clearing: ClearingId,
        round: u32,
        line: crate::combat::log::CombatLine,
    },
}

/// What happens at Midnight.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum MidnightEvent {
    WeaponUnalerted {
        character: String,
    },
    ChitsTurnedDown {
        tile: String,
    },
    /// A potion he activated today expires and goes back, face down, to
    /// the box named on its card (3.1 8.9.2a).
    PotionReturned {
        character: String,
        potion: String,
        to: String,
    },
    /// He kills himself; what he carried lies in his clearing (3.1 9.2.2a).
    Suicide {
        character: String,
        rejoins_on: u32,
    },
    /// Under Sudden Death he meets every victory requirement and ends the
    /// game tonight (3.1 10.E.3.2).
    GameEnded {
        character: String,
    },
    /// Under Sudden Death he asked to end the game but falls short in
    /// these categories (3.1 10.E.3.2).
    CannotEndGame {
        character: String,
        short: Vec<String>,
    },
    /// Under Sudden Death with its recommended limit he asked to end the
    /// game away from the clearing where he started (3.1 10.E.3.3).
    NotWhereHeStarted {
        character: String,
        start: ClearingId,
    },
    /// Day 28: the final scores.
    VictoryPoints {
        scores: Vec<Score>,
        note: String,
        /// Under Multiple Characters, each player's score: his characters'
        /// total over the number he started with (3.1 10.E.4.6); empty
        /// when every player plays one.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        players: Vec<PlayerScore>,
        /// Under Extended Development without victory requirements the
        /// scores name no victor: the most chits earned does (3.1
        /// 10.E.6.10).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        victor_by_chits: bool,
    },
}

/// A player's score under Multiple Characters (3.1 10.E.4.6,
/// `day/victory.rs`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerScore {
    pub player: String,
    /// His characters' victory points summed; a killed one counts none
    /// (10.E.4.7).
    pub total: i32,
    /// The characters he had at the start, which the total is divided by.
    pub characters: u32,
}

/// One character's victory points (`day/victory.rs`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    pub character: String,
    pub great_treasures: i32,
    pub spells: i32,
    pub fame: i32,
    pub notoriety: i32,
    pub gold: i32,
    /// Victory points: points ÷ factor per category, summed.
    pub total: i32,
}

impl fmt::Display for PhaseResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PhaseResult::Moved { to, left_behind } => {
                write!(f, "moves to {to}")?;
                if !left_behind.is_empty() {
                    write!(f, ", leaving behind {}", left_behind.join(", "))?;
                }
                Ok(())
            }
            PhaseResult::Flew {
                over,
                item,
                followers_left,
                left_behind,
            } => {
                write!(f, "flies over {over} on the {item}")?;
                if !left_behind.is_empty() {
                    write!(f, ", abandoning {}", left_behind.join(", "))?;
                }
                if !followers_left.is_empty() {
                    write!(f, ", leaving {} behind", followers_left.join(", "))?;
                }
                Ok(())
            }
            PhaseResult::Climbing { toward } => write!(f, "starts the climb to {toward}"),
            PhaseResult::Hid { faces, hidden } => {
                let faces: Vec<String> = faces.iter().map(u8::to_string).collect();
                let how = if *hidden { "hides" } else { "fails to hide" };
                write!(f, "{how} ({})", faces.join(","))
            }
            PhaseResult::AlreadyHidden => f.write_str("is already hidden"),
            PhaseResult::Alerted { weapon } => write!(f, "alerts the {weapon}"),
            PhaseResult::Rested { changes } => {
                if changes.is_empty() {
                    return f.write_str("rests, with nothing to heal");
                }
                let parts: Vec<String> = changes
                    .iter()
                    .map(|c| {
                        format!(
                            "{} {}→{}",
                            c.chit,
                            condition_word(c.from),
                            condition_word(c.to)
                        )
                    })
                    .collect();
                write!(f, "rests: {}", parts.join("; "))
            }
            PhaseResult::Followed { leader } => write!(f, "follows the {leader}"),
            PhaseResult::Done { activity } => f.write_str(activity),
            PhaseResult::Lost { reason } => write!(f, "lost: {reason}"),
            PhaseResult::Instead { reason, result } => {
                write!(f, "{reason}; instead {result}")
            }
        }
    }
}

/// The short word for a chit condition in log lines.
pub fn condition_word(condition: ChitCondition) -> &'static str {
    match condition {
        ChitCondition::Active => "active",
        ChitCondition::Fatigued => "fatigued",
        ChitCondition::Wounded => "wounded",
    }
}
