//! What a combat says, line by line, and who sees each line (play summary III;
//! principle 1: every play, roll and result is an event). Plays are seen by
//! everyone in the clearing once revealed; a hidden character's private
//! results are seen by him alone.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use realmgm_core::dice::RollRecord;
use realmgm_core::words::{agreeing, listed};

use super::model::{Direction, FighterId};

/// Who sees a line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "seen", rename_all = "snake_case")]
pub enum Seen {
    /// Everyone in the clearing.
    Clearing,
    /// Only this character's player.
    Only { fighter: FighterId },
}

/// One line of the combat log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogLine {
    pub round: u32,
    pub seen: Seen,
    pub line: CombatLine,
}

/// Which counters on a sheet one repositioning roll moves (3.1 8.4.6a,
/// d.1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Repositions {
    /// Every counter on a character's sheet.
    #[default]
    Sheet,
    /// The defender's target on a denizen's sheet.
    Target { counter: String },
    /// The other attackers on a denizen's sheet.
    Others { counters: Vec<String> },
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "line", rename_all = "snake_case")]
pub enum CombatLine {
    Begins {
        fighters: Vec<String>,
    },
    RoundBegins,
    /// A die roll, with what it was for, what it meant and the section of
    /// the rules that called for it (empty in logs stored before rolls
    /// named their section).
    Roll {
        record: RollRecord,
        meaning: String,
        #[serde(default)]
        rule: Cow<'static, str>,
    },
    Battling {
        group: String,
        character: String,
        result: String,
    },
    Lured {
        character: String,
        denizen: String,
    },
    /// A hired native lures a denizen onto his own sheet (III.A.1).
    LuredByHireling {
        native: String,
        denizen: String,
    },
    Assigned {
        denizen: String,
        to: String,
    },
    Deployed {
        native: String,
        target: String,
    },
    /// Alerted Monsters: these unhired denizens (or their heads and
    /// clubs) start the combat dark side up (`alerted.rs`).
    MonstersAlerted {
        counters: Vec<String>,
        /// By the Variant's dice rather than by who is in sight.
        #[serde(default)]
        rolled: bool,
    },
    /// A watchful native joins the fight on a sheet (`watchful.rs`).
    Watchful {
        native: String,
        to: String,
    },
    /// Extended Treachery: he sent a hired native against his own group
    /// (`treachery.rs`).
    ExtendedTreachery {
        character: String,
        native: String,
        target: String,
        natives: Vec<String>,
    },
    Alerted {
        character: String,
        weapon: String,
        chit: String,
    },
    Ran {
        character: String,
        chit: String,
    },
    /// He flew away with a Fly chit instead of running (3.1 8.3.8e).
    FlewAway {
        character: String,
    },
    Charged {
        character: String,
        target: String,
        with: String,
    },
    Abandoned {
        character: String,
        item: String,
        /// Dropped in plain sight rather than lost (3.1 10.A.5.2).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        dropped: bool,
    },
    /// He picked up a dropped belonging (3.1 10.A.5.5, `pick_up.rs`): one
    /// lying in front of him with no chit, any other with this MOVE chit.
    PickedUp {
        character: String,
        item: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        with: Option<String>,
    },
    /// He made a belonging active or inactive (`activation.rs`).
    Activated {
        character: String,
        item: String,
        active: bool,
    },
    /// He alerted his BERSERK chit: Tremendous for the rest of the day.
    Berserk {
        character: String,
    },
    /// He played a colour chit to energize an inert Permanent spell (3.1
    /// 8.3.9a.1); `kept` says why he could not, when he could not.
    ColourChitEnergized {
        character: String,
        spell: String,
        chit: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kept: Option<String>,
    },
    /// A spell ended because its caster or target was killed (3.1
    /// 4.6.10h).
    SpellEnded {
        spell: String,
        caster: String,
        killed: String,
    },
    /// His Fly chit was played this Melee step: its spell expires (3.1
    /// 4.6.7e.1).
    FlyChitUsed {
        character: String,
        spell: String,
    },
    /// A Phase spell's chit activated as his action, or expired at the end
    /// of the round it was activated in (3.1 4.6.7f.1).
    PhaseChit {
        character: String,
        spell: String,
        expired: bool,
    },
    /// He fatigued a colour chit without casting (3.1 8.3.9a.3); `kept`
    /// says why he could not, when he could not.
    ColourChitFatigued {
        character: String,
        chit: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kept: Option<String>,
    },
    /// He attacked his own hired native: these of the group turn on him.
    Treachery {
        character: String,
        group: String,
        natives: Vec<String>,
    },
    /// Treachery costs the traitor Fame equal to the Notoriety bounty of
    /// each native who rebels, wherever he is (`treachery.rs`).
    TreacheryFame {
        character: String,
        rebels: Vec<String>,
        fame: i32,
    },
    CannotRun {
        character: String,
        reason: String,
    },
    /// A character casts a spell in the Encounter step (3.1 8.3.9b-c): the
    /// chit or item played, its targets and its speed.
    Casts {
        fighter: String,
        spell: String,
        /// The targets as the spell names them (`the Wizard`, `Giant 1`).
        targets: Vec<String>,
        with: String,
        speed: u8,
    },
    /// What a spell that came to life does in the battle (3.1 8.4.4).
    SpellWorks {
        fighter: String,
        text: String,
    },
    /// A healing and a Power of the Pit result acted on the same chits at
    /// once: those chits stay as they were (3.1 4.6.10f.2).
    ChitsUnchanged {
        character: String,
        /// The healing spell, then the Pit result.
        spells: [String; 2],
        chits: Vec<String>,
    },
    /// An attack spell comes to life and attacks like a weapon (3.1
    /// 8.4.5l): one direction and time against every target.
    SpellAttacks {
        fighter: String,
        spell: String,
        targets: Vec<String>,
        direction: Direction,
        speed: u8,
    },
    /// A character's Power of the Pit held as an attack (`pit_attack.rs`).
    PitAttacks {
        fighter: String,
        target: String,
        direction: Direction,
        speed: u8,
    },
    /// A faster spell targeted the caster and stopped his (3.1 8.4.3b): its
    /// chit fatigues.
    SpellCancelled {
        character: String,
        spell: String,
        /// The speed of the faster spell.
        faster: u8,
        #[serde(default)]
        chit: Option<String>,
    },
    /// A spell broken before it went into effect (3.1 8.4.2d: a target not
    /// of the sort it needs, or shielded from magic): its chit fatigues.
    SpellBroken {
        character: String,
        spell: String,
        reason: String,
        /// The MAGIC chit that fatigues (none for an artifact or book).
        #[serde(default)]
        chit: Option<String>,
    },
    /// A play or request the engine refused or cannot do yet, said aloud.
    Refused {
        character: String,
        reason: String,
    },
    Plays {
        fighter: String,
        text: String,
    },
    /// A character's melee plays without an attack: his maneuver (with his
    /// shield and where he puts those on his sheet), or none.
    Maneuvers {
        fighter: String,
        text: String,
    },
    Repositioned {
        sheet: String,
        result: String,
        /// Absent in lines logged before a denizen's sheet rolled twice.
        #[serde(default)]
        moves: Repositions,
    },
    ChangedTactics {
        sheet: String,
        counters: Vec<String>,
    },
    Hit {
        attacker: String,
        target: String,
        how: String,
    },
    Missed {
        attacker: String,
        target: String,
    },
    Harm {
        attacker: String,
        target: String,
        result: String,
        /// The 3.1 section that decided the hit's effect (8.4.9h on a
        /// denizen, 8.4.9n on a character, 10.D.3.5 through armour, ...);
        /// lines stored before it was kept cite 8.4.9e.
        #[serde(default = "harm_rule")]
        rule: String,
    },
    ArmorDamaged {
        character: String,
        armor: String,
        destroyed: bool,
    },
    /// A destroyed ordinary armour counter reappears intact in a native
    /// group's box (3.1 8.4.9k.3).
    ArmorReturned {
        armor: String,
        group: String,
    },
    /// A destroyed treasure armour counter leaves the game; its owner
    /// gains its gold (3.1 8.4.9k.4).
    ArmorShattered {
        character: String,
        armor: String,
        gold: u16,
    },
    TurnsRedSideUp {
        monster: String,
    },
    TurnsRedSideDown {
        monster: String,
    },
    Killed {
        victim: String,
        by: String,
    },
    HorseKilled {
        horse: String,
        rider: String,
    },
    /// A killed native's living horse: taken by his killer or left in the
    /// clearing (`native_horses.rs`).
    HorseTaken {
        horse: String,
        rider: String,
        by: Option<String>,
    },
    Fatigued {
        character: String,
        chit: String,
    },
    Wounded {
        character: String,
        chit: String,
    },
    Died {
        character: String,
        reason: String,
    },
    Spoils {
        character: String,
        fame: i32,
        notoriety: i32,
        gold: i32,
        items: Vec<String>,
    },
    /// Characters whose attacks of one instant killed the same denizen
    /// share it (3.1 8.7.1b): each his share of its points, times his
    /// count of kills, as a fraction when it is one.
    SharedKill {
        character: String,
        victim: String,
        with: Vec<String>,
        fame: String,
        notoriety: String,
        gold: i32,
    },
    StaysHidden {
        character: String,
    },
    Ends {
        reason: String,
    },
    /// The combat ends at once: no character, hired native or controlled
    /// monster is left in it (3.1 8.8.4).
    NobodyLeft,
}

/// The section a stored harm line without one cites: harm itself.
fn harm_rule() -> String {
    "8.4.9e".to_string()
}

impl CombatLine {
    /// The section of the rules of record (release 3.1) this line applies,
    /// e.g. "8.4.9k": the GM's history cites it after every line, so a
    /// GM asked why something happened points at the rule. Every line
    /// names one; a roll names the one that called for it.
    pub fn rule(&self) -> &str {
        match self {
            CombatLine::Begins { .. } => "8.1.3",
            CombatLine::RoundBegins => "5.3",
            CombatLine::Roll { rule, .. } => rule,
            CombatLine::Battling { .. } => "8.2.2",
            CombatLine::Lured { .. } | CombatLine::LuredByHireling { .. } => "8.3.4",
            CombatLine::Assigned { .. } => "8.3.5",
            CombatLine::Deployed { .. } | CombatLine::Charged { .. } => "8.3.6",
            CombatLine::Watchful { .. } => "10.B.4",
            CombatLine::MonstersAlerted { .. } => "10.B.2",
            CombatLine::ExtendedTreachery { .. } => "10.B.5",
            CombatLine::Alerted { .. } => "8.3.7",
            CombatLine::Ran { .. } => "8.3.8a",
            CombatLine::FlewAway { .. } => "8.3.8e",
            CombatLine::CannotRun { .. } => "8.3.7c",
            CombatLine::Abandoned { dropped: true, .. } => "10.A.5.2",
            CombatLine::PickedUp { with: None, .. } => "10.A.5.5.1",
            CombatLine::PickedUp { .. } => "10.A.5.5.2",
            CombatLine::Abandoned { .. } => "4.3.4",
            CombatLine::Activated { .. } => "4.3.3",
            CombatLine::Berserk { .. } => "4.2.2",
            CombatLine::ColourChitFatigued { .. } => "8.3.9a.3",
            CombatLine::PhaseChit { .. } => "4.6.7f.1",
            CombatLine::FlyChitUsed { .. } => "4.6.7e.1",
            CombatLine::SpellEnded { .. } => "4.6.10h",
            CombatLine::ColourChitEnergized { .. } => "8.3.9a.1",
            CombatLine::Treachery { .. } => "8.4.2g",
            CombatLine::Refused { .. } => "8.4.5g",
            // A MAGIC chit casts (8.3.9b); an artifact or book (8.3.9c).
            CombatLine::Casts { with, .. } if with.starts_with("MAGIC ") => "8.3.9b",
            CombatLine::Casts { .. } => "8.3.9c",
            CombatLine::SpellWorks { .. } => "8.4.4",
            CombatLine::ChitsUnchanged { .. } => "4.6.10f.2",
            CombatLine::SpellCancelled { .. } => "8.4.3b",
            CombatLine::SpellBroken { .. } => "8.4.2d",
            CombatLine::SpellAttacks { .. } => "8.4.5l",
            CombatLine::PitAttacks { .. } => "10.C.4",
            CombatLine::Plays { .. } | CombatLine::Maneuvers { .. } => "8.4.5e",
            CombatLine::Repositioned { .. } | CombatLine::ChangedTactics { .. } => "8.4.6",
            CombatLine::Hit { .. } | CombatLine::Missed { .. } => "8.4.8",
            CombatLine::Harm { rule, .. } => rule,
            CombatLine::ArmorDamaged { .. } => "8.4.9k",
            CombatLine::ArmorReturned { .. } => "8.4.9k.3",
            CombatLine::ArmorShattered { .. } => "8.4.9k.4",
            CombatLine::TurnsRedSideUp { .. } => "8.4.7c",
            CombatLine::TurnsRedSideDown { .. } => "8.6.1",
            CombatLine::Killed { .. } => "8.4.9h",
            CombatLine::HorseKilled { .. } => "8.4.9l",
            CombatLine::HorseTaken { .. } => "8.4.9q",
            CombatLine::Fatigued { .. } => "8.5.1",
            CombatLine::Wounded { .. } => "8.5.3",
            CombatLine::Died { .. } => "9.1.1",
            CombatLine::Spoils { .. } => "8.7",
            CombatLine::StaysHidden { .. } => "10.A.2",
            CombatLine::Ends { .. } => "8.8.2",
            CombatLine::NobodyLeft => "8.8.4",
            CombatLine::TreacheryFame { .. } => "8.4.2g",
            CombatLine::SharedKill { .. } => "8.7.1b",
        }
    }

    /// Whether every combat says this line, whatever happens in it: its
    /// start and end, each round's start, the battling checks and the
    /// maneuvers of characters who attack nobody. A combat of such lines
    /// alone had nobody attacking or attacked and changed nothing (3.1 rule
    /// 8.1.3a: the rounds are still done), so nobody is told of it.
    pub fn is_formality(&self) -> bool {
        match self {
            CombatLine::Begins { .. }
            | CombatLine::RoundBegins
            | CombatLine::Battling { .. }
            | CombatLine::Maneuvers { .. }
            | CombatLine::Ends { .. }
            | CombatLine::NobodyLeft => true,
            CombatLine::Roll { .. }
            | CombatLine::Lured { .. }
            | CombatLine::LuredByHireling { .. }
            | CombatLine::Assigned { .. }
            | CombatLine::Deployed { .. }
            | CombatLine::Watchful { .. }
            | CombatLine::MonstersAlerted { .. }
            | CombatLine::ExtendedTreachery { .. }
            | CombatLine::Alerted { .. }
            | CombatLine::Ran { .. }
            | CombatLine::FlewAway { .. }
            | CombatLine::Charged { .. }
            | CombatLine::Abandoned { .. }
            | CombatLine::PickedUp { .. }
            | CombatLine::Activated { .. }
            | CombatLine::Berserk { .. }
            | CombatLine::ColourChitFatigued { .. }
            | CombatLine::PhaseChit { .. }
            | CombatLine::FlyChitUsed { .. }
            | CombatLine::SpellEnded { .. }
            | CombatLine::ColourChitEnergized { .. }
            | CombatLine::Treachery { .. }
            | CombatLine::TreacheryFame { .. }
            | CombatLine::CannotRun { .. }
            | CombatLine::Refused { .. }
            | CombatLine::SpellBroken { .. }
            | CombatLine::SpellCancelled { .. }
            | CombatLine::Casts { .. }
            | CombatLine::SpellAttacks { .. }
            | CombatLine::PitAttacks { .. }
            | CombatLine::SpellWorks { .. }
            | CombatLine::ChitsUnchanged { .. }
            | CombatLine::Plays { .. }
            | CombatLine::Repositioned { .. }
            | CombatLine::ChangedTactics { .. }
            | CombatLine::Hit { .. }
            | CombatLine::Missed { .. }
            | CombatLine::Harm { .. }
            | CombatLine::ArmorDamaged { .. }
            | CombatLine::ArmorReturned { .. }
            | CombatLine::ArmorShattered { .. }
            | CombatLine::TurnsRedSideUp { .. }
            | CombatLine::TurnsRedSideDown { .. }
            | CombatLine::Killed { .. }
            | CombatLine::HorseKilled { .. }
            | CombatLine::HorseTaken { .. }
            | CombatLine::Fatigued { .. }
            | CombatLine::Wounded { .. }
            | CombatLine::Died { .. }
            | CombatLine::Spoils { .. }
            | CombatLine::SharedKill { .. }
            | CombatLine::StaysHidden { .. } => false,
        }
    }
}

/// A fighter as a sentence names him: "the Amazon" for a character,
/// "Rogue 3" for a counter.
fn named(fighter: &str) -> String {
    let character =
        crate::data::get().is_ok_and(|data| data.characters.iter().any(|c| c.name == fighter));
    if character {
        format!("the {fighter}")
    } else {
        fighter.to_string()
    }
}

/// "the Amazon's", "Lancer 1's".
pub(super) fn whose(fighter: &str) -> String {
    format!("{}'s", named(fighter))
}

/// Names as a sentence lists them, each as a sentence names him.
fn all_named(fighters: &[String]) -> String {
    let names: Vec<String> = fighters.iter().map(|f| named(f)).collect();
    listed(&names)
}

impl fmt::Display for CombatLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CombatLine::Begins { fighters } if fighters.is_empty() => {
                f.write_str("combat begins; everyone here is hidden")
            }
            CombatLine::Begins { fighters } => {
                write!(f, "combat begins; in sight: {}", all_named(fighters))
            }
            CombatLine::RoundBegins => f.write_str("the round begins"),
            // A table's roll describes itself with its dice ("Reposition:
            // dice 3 → 3; row 3: ..."); a plain die says what it decides.
            // The roll's purpose is the dice stream's key, not for reading.
            CombatLine::Roll { meaning, .. } if meaning.contains(": dice ") => f.write_str(meaning),
            CombatLine::Roll {
                record, meaning, ..
            } => {
                let faces: Vec<String> = record.faces.iter().map(u8::to_string).collect();
                write!(f, "roll {}: {meaning}", faces.join(","))
            }
            CombatLine::Battling {
                group,
                character,
                result,
            } => write!(f, "the {group} and the {character}: {result}"),
            CombatLine::Lured { character, denizen } => {
                write!(f, "the {character} lures {denizen}")
            }
            CombatLine::LuredByHireling { native, denizen } => {
                write!(f, "{native} lures {denizen} onto his own sheet")
            }
            CombatLine::Assigned { denizen, to } => write!(f, "{denizen} attacks {}", named(to)),
            CombatLine::MonstersAlerted { counters, rolled } => write!(
                f,
                "{}, {} {} dark side up",
                if *rolled {
                    "alerted by the dice"
                } else {
                    "alerted by enemies in sight"
                },
                listed(counters),
                agreeing(counters.len(), "turns", "turn")
            ),
            CombatLine::Watchful { native, to } => {
                write!(
                    f,
                    "the watchful {native} joins the fight against {}",
                    named(to)
                )
            }
            CombatLine::ExtendedTreachery {
                character,
                native,
                target,
                natives,
            } => write!(
                f,
                "treachery: the {character} sends {native} against {target} of the same group; {} {} against the {character}",
                listed(natives),
                agreeing(natives.len(), "turns", "turn")
            ),
            CombatLine::Deployed { native, target } => {
                write!(f, "{native} is deployed against {}", named(target))
            }
            CombatLine::Alerted {
                character,
                weapon,
                chit,
            } => write!(f, "the {character} alerts the {weapon} with {chit}"),
            CombatLine::Ran { character, chit } => {
                write!(f, "the {character} runs away with {chit}")
            }
            CombatLine::FlewAway { character } => write!(
                f,
                "the {character} flies away with the Fly chit, aloft until a Fly phase next turn"
            ),
            CombatLine::Charged {
                character,
                target,
                with,
            } => write!(f, "the {character} charges the {target} with {with}"),
            CombatLine::Abandoned {
                character,
                item,
                dropped: false,
            } => write!(f, "the {character} abandons the {item} in the clearing"),
            CombatLine::Abandoned {
                character,
                item,
                dropped: true,
            } => write!(f, "the {character} drops the {item} in plain sight"),
            CombatLine::PickedUp {
                character,
                item,
                with: None,
            } => write!(f, "the {character} picks up the {item} lying in front of the {character}"),
            CombatLine::PickedUp {
                character,
                item,
                with: Some(chit),
            } => write!(f, "the {character} picks up the dropped {item} with {chit}"),
            CombatLine::Activated {
                character,
                item,
                active,
            } => {
                let verb = if *active { "activates" } else { "inactivates" };
                write!(f, "the {character} {verb} the {item}")
            }
            CombatLine::Berserk { character } => {
                write!(f, "the {character} goes berserk: vulnerability Tremendous")
            }
            CombatLine::ColourChitEnergized {
                character,
                spell,
                chit,
                kept: None,
            } => write!(
                f,
                "the {character} plays the colour chit {chit} to energize {spell}: it is in force \
                 again, and the chit is a MAGIC chit again"
            ),
            CombatLine::ColourChitEnergized {
                character,
                spell,
                chit,
                kept: Some(reason),
            } => write!(f, "the {character} does not energize {spell} with {chit}: {reason}"),
            CombatLine::SpellEnded {
                spell,
                caster,
                killed,
            } => write!(
                f,
                "{} {spell} ends: {} is killed",
                whose(caster),
                named(killed)
            ),
            CombatLine::FlyChitUsed { character, spell } => write!(
                f,
                "the {character}'s Fly chit is used up: the {spell} expires"
            ),
            CombatLine::PhaseChit {
                character,
                spell,
                expired: false,
            } => write!(
                f,
                "the {character} activates the {spell} chit: it protects to the end of the round"
            ),
            CombatLine::PhaseChit {
                character,
                spell,
                expired: true,
            } => write!(f, "the {character}'s {spell} expires with the round"),
            CombatLine::ColourChitFatigued {
                character,
                chit,
                kept: None,
            } => write!(
                f,
                "the {character} fatigues the colour chit {chit}: it is a MAGIC chit again"
            ),
            CombatLine::ColourChitFatigued {
                character,
                chit,
                kept: Some(reason),
            } => write!(f, "the {character} does not fatigue {chit}: {reason}"),
            CombatLine::Treachery {
                character,
                group,
                natives,
            } => write!(
                f,
                "treachery: the {character} attacks a hired native of the {group}; {} {} against the {character}",
                listed(natives),
                agreeing(natives.len(), "turns", "turn")
            ),
            CombatLine::TreacheryFame {
                character,
                rebels,
                fame,
            } => write!(
                f,
                "treachery: the {character} loses {fame} Fame, the Notoriety bounty of {}",
                listed(rebels)
            ),
            CombatLine::CannotRun { character, reason } => {
                write!(f, "the {character} cannot run away: {reason}")
            }
            CombatLine::Refused { character, reason } => {
                write!(f, "the {character}: {reason}")
            }
            CombatLine::Casts {
                fighter,
                spell,
                targets,
                with,
                speed,
            } => write!(
                f,
                "{}: casts {spell} on {} with {with} (speed {speed})",
                named(fighter),
                targets.join(", ")
            ),
            CombatLine::SpellAttacks {
                fighter,
                spell,
                targets,
                direction,
                speed,
            } => write!(
                f,
                "{}: the {spell} attacks {} with a {} at speed {speed}",
                named(fighter),
                targets.join(" and "),
                direction.attack_word()
            ),
            CombatLine::PitAttacks {
                fighter,
                target,
                direction,
                speed,
            } => write!(
                f,
                "{}: the Power of the Pit attacks {} with a {} at speed {speed}; it works only if it hits",
                named(fighter),
                named(target),
                direction.attack_word()
            ),
            CombatLine::SpellCancelled {
                character,
                spell,
                faster,
                chit,
            } => {
                write!(
                    f,
                    "the {character}: the {spell} is cancelled: a faster spell (speed {faster}) \
                     targeted its caster"
                )?;
                match chit {
                    Some(chit) => write!(f, "; {chit} fatigues"),
                    None => Ok(()),
                }
            }
            CombatLine::SpellBroken {
                character,
                spell,
                reason,
                chit,
            } => {
                write!(f, "the {character}'s {spell} is broken ({reason})")?;
                match chit {
                    Some(chit) => write!(f, "; {chit} fatigues"),
                    None => Ok(()),
                }
            }
            CombatLine::ChitsUnchanged {
                character,
                spells: [healing, pit],
                chits,
            } => {
                write!(f, "{healing} and {pit} act on the {character} at once")?;
                if chits.is_empty() {
                    write!(f, ": on no chit together, so each works in full")
                } else {
                    write!(
                        f,
                        ": on {} they cancel each other and the chits stay as they were",
                        chits.join(", ")
                    )
                }
            }
            CombatLine::Plays { fighter, text }
            | CombatLine::Maneuvers { fighter, text }
            | CombatLine::SpellWorks { fighter, text } => {
                write!(f, "{}: {text}", named(fighter))
            }
            CombatLine::Repositioned {
                sheet,
                result,
                moves,
            } => match moves {
                Repositions::Sheet => write!(f, "on {} sheet: {result}", whose(sheet)),
                Repositions::Target { counter } => write!(
                    f,
                    "on {} sheet, its target {}: {result}",
                    whose(sheet),
                    named(counter)
                ),
                Repositions::Others { counters } => write!(
                    f,
                    "on {} sheet, the other attackers ({}): {result}",
                    whose(sheet),
                    all_named(counters)
                ),
            },
            CombatLine::ChangedTactics { sheet, counters } => write!(
                f,
                "on {} sheet: {} {} tactics",
                whose(sheet),
                listed(counters),
                agreeing(counters.len(), "changes", "change")
            ),
            CombatLine::Hit {
                attacker,
                target,
                how,
            } => write!(f, "{} hits {} ({how})", named(attacker), named(target)),
            CombatLine::Missed { attacker, target } => {
                write!(f, "{} misses {}", named(attacker), named(target))
            }
            CombatLine::Harm {
                attacker,
                target,
                result,
                ..
            } => write!(f, "{} on {}: {result}", named(attacker), named(target)),
            CombatLine::ArmorDamaged {
                character,
                armor,
                destroyed,
            } => {
                let what = if *destroyed { "destroyed" } else { "damaged" };
                write!(f, "the {character}'s {armor} is {what}")
            }
            CombatLine::ArmorReturned { armor, group } => {
                write!(f, "the {armor} goes back intact to the {group} box")
            }
            CombatLine::ArmorShattered {
                character,
                armor,
                gold,
            } => write!(
                f,
                "the {armor} leaves the game: the {character} gains {gold} gold for it"
            ),
            CombatLine::TurnsRedSideUp { monster } => write!(f, "{monster} turns red side up"),
            CombatLine::TurnsRedSideDown { monster } => {
                write!(f, "{monster} turns red side down")
            }
            CombatLine::Killed { victim, by } => {
                write!(f, "{} is killed by {}", named(victim), named(by))
            }
            CombatLine::HorseKilled { horse, rider } => {
                write!(f, "{} {horse} is killed", whose(rider))
            }
            CombatLine::HorseTaken { horse, rider, by } => match by {
                Some(by) => write!(f, "{} takes {} {horse}", named(by), whose(rider)),
                None => write!(f, "{} {horse} is left in the clearing", whose(rider)),
            },
            CombatLine::Fatigued { character, chit } => {
                write!(f, "the {character} fatigues {chit}")
            }
            CombatLine::Wounded { character, chit } => write!(f, "the {character} wounds {chit}"),
            CombatLine::Died { character, reason } => write!(f, "the {character} dies: {reason}"),
            CombatLine::SharedKill {
                character,
                victim,
                with,
                fame,
                notoriety,
                gold,
            } => {
                let mut gains: Vec<String> = [(fame, "fame"), (notoriety, "notoriety")]
                    .into_iter()
                    .filter(|(amount, _)| amount.as_str() != "0")
                    .map(|(amount, what)| format!("{amount} {what}"))
                    .collect();
                if *gold != 0 {
                    gains.push(format!("{gold} gold"));
                }
                let gains = if gains.is_empty() {
                    "nothing".to_string()
                } else {
                    gains.join(", ")
                };
                write!(
                    f,
                    "the {character} shares the kill of {victim} with {} and gains {gains}",
                    all_named(with)
                )
            }
            CombatLine::Spoils {
                character,
                fame,
                notoriety,
                gold,
                items,
            } => {
                let mut gains = Vec::new();
                let mut losses = Vec::new();
                for (amount, what) in [(fame, "fame"), (notoriety, "notoriety"), (gold, "gold")] {
                    match amount.signum() {
                        1 => gains.push(format!("{amount} {what}")),
                        -1 => losses.push(format!("{} {what}", amount.unsigned_abs())),
                        _ => {}
                    }
                }
                let mut said = Vec::new();
                if !gains.is_empty() {
                    said.push(format!("gains {}", gains.join(", ")));
                }
                if !losses.is_empty() {
                    said.push(format!("loses {}", losses.join(", ")));
                }
                if !items.is_empty() {
                    said.push(format!("takes {}", items.join(", ")));
                }
                if said.is_empty() {
                    write!(f, "the {character} gains nothing")
                } else {
                    write!(f, "the {character} {}", said.join(" and "))
                }
            }
            CombatLine::StaysHidden { character } => write!(f, "the {character} stays hidden"),
            CombatLine::Ends { reason } => write!(f, "combat ends: {reason}"),
            CombatLine::NobodyLeft => f.write_str(
                "combat ends: no character, hired native or controlled monster is left in the fight",
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CombatLine;

    #[test]
    fn a_roll_reads_without_the_dice_streams_key() {
        let record = realmgm_core::dice::RollRecord {
            day: 8,
            purpose: "combat/EV5/round1/reposition/Black Knight".into(),
            faces: realmgm_core::dice::Faces::new(&[5]),
            result: 5,
            forced: false,
        };
        let table = CombatLine::Roll {
            record: record.clone(),
            meaning: "Reposition: dice 5 → 5; row 5: every box moves down one".into(),
            rule: "8.4.6".into(),
        };
        assert_eq!(
            table.to_string(),
            "Reposition: dice 5 → 5; row 5: every box moves down one"
        );
        let plain = CombatLine::Roll {
            record,
            meaning: "assigns Wolf A 1 counting round Amazon, Black Knight".into(),
            rule: "8.3.5".into(),
        };
        assert_eq!(
            plain.to_string(),
            "roll 5: assigns Wolf A 1 counting round Amazon, Black Knight"
        );
    }

    #[test]
    fn spoils_say_what_changed_and_losses_as_losses() {
        let spoils = |fame, notoriety, gold| {
            CombatLine::Spoils {
                character: "Black Knight".into(),
                fame,
                notoriety,
                gold,
                items: Vec::new(),
            }
            .to_string()
        };
        assert_eq!(
            spoils(0, 6, 4),
            "the Black Knight gains 6 notoriety, 4 gold"
        );
        assert_eq!(spoils(0, -2, 0), "the Black Knight loses 2 notoriety");
        assert_eq!(spoils(0, 0, 0), "the Black Knight gains nothing");
    }

    #[test]
    fn characters_have_their_article_counters_none_and_verbs_agree() {
        let hit = CombatLine::Hit {
            attacker: "Rogue 2".into(),
            target: "Black Knight".into(),
            how: "smash meets duck".into(),
        };
        assert_eq!(
            hit.to_string(),
            "Rogue 2 hits the Black Knight (smash meets duck)"
        );
        let one = CombatLine::ChangedTactics {
            sheet: "Black Knight".into(),
            counters: vec!["Rogue 2".into()],
        };
        assert_eq!(
            one.to_string(),
            "on the Black Knight's sheet: Rogue 2 changes tactics"
        );
        let horse = CombatLine::HorseKilled {
            horse: "Lancer Pony 1".into(),
            rider: "Lancer 1".into(),
        };
        assert_eq!(horse.to_string(), "Lancer 1's Lancer Pony 1 is killed");
    }

    #[test]
    fn a_combat_of_hidden_fighters_begins_in_words_not_an_empty_list() {
        let line = CombatLine::Begins {
            fighters: Vec::new(),
        };
        assert_eq!(line.to_string(), "combat begins; everyone here is hidden");
    }
}
