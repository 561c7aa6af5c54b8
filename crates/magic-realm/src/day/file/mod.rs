//! Day files: one whole day set up in TOML for a GM's what-if or a test,
//! as a battle file is for one clearing's combat
//! ([`crate::combat::script`]). The file sets a position (the board and
//! setup of a seed, then where each character and denizen stands and what
//! each character has), the rules in force, each character's orders as his
//! player mails them, forced dice and the turn order; [`DayScript::play`]
//! resolves the day as the daemon would, and [`check`] compares the result
//! with the file's `[expect]` table. The reports the day gives are the
//! report layer's (`report::day_file`). Example:
//!
//! ```toml
//! day = 2
//! seed = 11
//! clear_denizens = true
//! [[character]]
//! name = "Amazon"
//! at = "CV4"
//! orders = "M CV5 / H"
//! [dice]
//! "daylight/hide/Amazon" = [[1, 2]]
//! [expect]
//! positions = { Amazon = "CV5" }
//! hidden = ["Amazon"]
//! ```
//!
//! `tests/days/README.md` lists every field.

mod expect;
mod setup;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use serde::Deserialize;

use realmgm_core::dice::{Dice, DiceScript};
use realmgm_core::embedded::{DataError, parse_toml};
use realmgm_core::game::Rules;

use super::events::DayEvent;
use super::resolve::{DayError, resolve_day};
use crate::board::Placement;
use crate::data::GameData;
use crate::data::seasons::WeatherKind;
use crate::orders::{DayOrders, mail_check, parse_day_orders};
use crate::state::{BoonOwed, CounterSide, Delivery, MrState, VictoryRequirements};

pub use expect::{Chits, Expect, Outcome, ReportExpect, check, outcome};

/// The purpose of the Birdsong draw of attention chits a file's
/// `turn_order` forces (`day/birdsong.rs`).
const TURN_ORDER: &str = "birdsong/turn-order";

/// A day file as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DayFile {
    /// The day to play, from 1; the position is the one at the end of the
    /// day before.
    #[serde(default = "first_day")]
    pub day: u32,
    /// The seed of the board, the setup and the day's dice.
    #[serde(default)]
    pub seed: u64,
    /// A board built by the players instead of the seed's (with the
    /// `player_built_board` rule): `[{ tile = "BL", at = [0, 0], rotation = 0 }, ...]`.
    #[serde(default)]
    pub tiles: Option<Vec<Placement>>,
    /// A published rule set by name (`3.1-basic`, `bimr4`), as a campaign
    /// file names it.
    #[serde(default)]
    pub rules_profile: Option<String>,
    /// The optional rules in force besides the rule set's, by toggle name.
    #[serde(default)]
    pub rules: Vec<String>,
    /// Toggles of the rule set taken away.
    #[serde(default)]
    pub rules_off: Vec<String>,
    /// Start from a map without monsters and natives: only the file's
    /// `[[denizen]]` entries stand on it.
    #[serde(default)]
    pub clear_denizens: bool,
    #[serde(default)]
    pub character: Vec<CharacterEntry>,
    #[serde(default)]
    pub denizen: Vec<DenizenEntry>,
    /// Map chits (sites, sounds, warnings) moved onto a tile, face up or
    /// down.
    #[serde(default)]
    pub chit: Vec<ChitEntry>,
    /// Holder (a site, dwelling, native group, visitor, treasure or book)
    /// → what it holds, top first; replaces what the setup dealt it.
    #[serde(default)]
    pub holdings: BTreeMap<String, Vec<String>>,
    /// Holder (a site, artifact or book) → its awakened spells.
    #[serde(default)]
    pub awakened: BTreeMap<String, Vec<String>>,
    /// The season and this week's weather, with `seasons_and_weather`.
    #[serde(default)]
    pub weather: Option<WeatherEntry>,
    /// Spells in effect as the day begins, each cast the day before, as a
    /// battle file writes them: `{ spell = "Control Bats", caster =
    /// "Magician", on = ["Giant Bat 1"] }`.
    #[serde(default)]
    pub in_effect: Vec<crate::combat::script::InEffectEntry>,
    /// The turn order the Birdsong draw gives (characters and hired
    /// leaders, by name); those not named follow as drawn.
    #[serde(default)]
    pub turn_order: Vec<String>,
    /// Purpose → the rolls to force for it, in order.
    #[serde(default)]
    pub dice: BTreeMap<String, Vec<Vec<u8>>>,
    #[serde(default)]
    pub expect: Option<Expect>,
}

fn first_day() -> u32 {
    1
}

/// A character of the file: every field left out keeps what the seed's
/// setup gave him.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterEntry {
    pub name: String,
    /// Default: P1, P2... by the order of the entries.
    #[serde(default)]
    pub player: Option<String>,
    /// The clearing he stands in (`CV4`).
    #[serde(default)]
    pub at: Option<String>,
    #[serde(default)]
    pub hidden: bool,
    #[serde(default)]
    pub gold: Option<u16>,
    #[serde(default)]
    pub fame: Option<i32>,
    #[serde(default)]
    pub notoriety: Option<i32>,
    /// `"none"` for none.
    #[serde(default)]
    pub weapon: Option<String>,
    /// His weapon is alerted.
    #[serde(default)]
    pub alerted: bool,
    #[serde(default)]
    pub armor: Option<Vec<String>>,
    #[serde(default)]
    pub damaged_armor: Vec<String>,
    /// A horse he has active, besides his `belongings`.
    #[serde(default)]
    pub horse: Option<String>,
    /// What he carries besides weapon, armour and `horse`; given, it
    /// replaces what the setup gave him.
    #[serde(default)]
    pub belongings: Option<Vec<BelongingEntry>>,
    /// His action chits that are not plain active.
    #[serde(default)]
    pub chits: ChitsEntry,
    /// The spells he has recorded; given, they replace the setup's.
    #[serde(default)]
    pub spells: Option<Vec<String>>,
    /// He found Hidden Enemies today.
    #[serde(default)]
    pub found_hidden_enemies: bool,
    /// He flew away from `at` in last Evening's combat: aloft half over its
    /// tile and half over one next to it (3.1 8.3.8e.2).
    #[serde(default)]
    pub flown_away: bool,
    /// What he has discovered; given, it replaces the setup's.
    #[serde(default)]
    pub discoveries: Option<DiscoveriesEntry>,
    /// The natives he has hired.
    #[serde(default)]
    pub hirelings: Vec<HirelingEntry>,
    /// The victory points he recorded in each category.
    #[serde(default)]
    pub victory: Option<VictoryRequirements>,
    /// Group or visitor → the levels his relationship has moved from his
    /// card for good, warmer positive (kept past Ally and Enemy).
    #[serde(default)]
    pub relationships: BTreeMap<String, i8>,
    /// Boons he took free and has not repaid, oldest first: the group and
    /// the gold price that buys the lost level back.
    #[serde(default)]
    pub boons_owed: Vec<BoonOwed>,
    /// Mission and campaign chits he holds: `{ chit = "Food and Ale",
    /// taken_on = 1, deliver_to = { dwelling = "Chapel", reward = 8 } }`.
    #[serde(default)]
    pub missions: Vec<MissionEntry>,
    /// The curses on him, as the rules print them (`["Disgust", "Ill Health"]`).
    #[serde(default)]
    pub curses: Vec<String>,
    /// The level he started the game at, under the development rule (3.1
    /// 10.E.5.3): that level's weapon, armour and chits.
    #[serde(default)]
    pub level: Option<u8>,
    /// Under Development, the best total of victory points toward his
    /// requirements he has reached so far (3.1 10.E.5.4.2).
    #[serde(default)]
    pub best_points: Option<i32>,
    /// His orders, the text his player mails.
    #[serde(default)]
    pub orders: String,
}

/// A belonging: `{ name = "Crossbow", active = false }`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BelongingEntry {
    pub name: String,
    #[serde(default = "active_by_default")]
    pub active: bool,
}

fn active_by_default() -> bool {
    true
}

/// Action chits by state, each named as printed (`MOVE M4*`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChitsEntry {
    #[serde(default)]
    pub fatigued: Vec<String>,
    #[serde(default)]
    pub wounded: Vec<String>,
    /// MAGIC chits enchanted into colour chits.
    #[serde(default)]
    pub enchanted: Vec<String>,
    /// MAGIC chits prepared in an Alert phase.
    #[serde(default)]
    pub prepared: Vec<String>,
}

/// `{ routes = ["CV4-CV5"], sites = ["Vault"], chits_seen = ["Howl 4"] }`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiscoveriesEntry {
    /// Hidden paths and secret passages, as the two clearings they join.
    #[serde(default)]
    pub routes: Vec<String>,
    #[serde(default)]
    pub sites: Vec<String>,
    #[serde(default)]
    pub chits_seen: Vec<String>,
}

/// `{ id = "Company 3", days_left = 10, at = "CV4", hidden = false }`:
/// a native he has hired, where it stands (default: with him), and for a
/// hired leader whether he is hidden.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HirelingEntry {
    pub id: String,
    #[serde(default = "a_full_term")]
    pub days_left: u8,
    #[serde(default)]
    pub at: Option<String>,
    #[serde(default)]
    pub hidden: bool,
    /// What a hired leader carries for his employer, by item name.
    #[serde(default)]
    pub carries: Vec<String>,
}

/// The term of hire a Hire phase gives (3.1 7.7.1c).
fn a_full_term() -> u8 {
    14
}

/// A mission or campaign chit held: its name, the day he took it (default:
/// the file's day) and, for a mission, where it is delivered and the gold
/// it pays there.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissionEntry {
    pub chit: String,
    #[serde(default)]
    pub taken_on: Option<u32>,
    #[serde(default)]
    pub deliver_to: Option<Delivery>,
}

/// `{ tile = "CV", name = "Howl 4", face_up = false }`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChitEntry {
    pub name: String,
    pub tile: String,
    #[serde(default)]
    pub face_up: bool,
}

/// `{ season = 3, weather = "storm", chit = 4 }`: the season of the month
/// (1 to 13), this week's weather and the secret weather chit.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeatherEntry {
    pub season: u8,
    pub weather: WeatherKind,
    pub chit: u8,
}

/// A monster or native counter (by its id, `Giant 1`, `Company 3`): in a
/// clearing (`at`), in a box of the setup card (`box`), or dead.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DenizenEntry {
    pub id: String,
    #[serde(default)]
    pub at: Option<String>,
    #[serde(default, rename = "box")]
    pub in_box: Option<String>,
    #[serde(default)]
    pub dead: bool,
    #[serde(default)]
    pub side: Option<CounterSide>,
}

/// A day ready to play: the position, the rules, the orders by player and
/// the dice.
#[derive(Debug)]
pub struct DayScript {
    pub state: MrState,
    pub rules: Rules,
    pub orders: BTreeMap<String, DayOrders>,
    pub dice: Dice,
    pub expect: Option<Expect>,
}

/// A day played from a file: the position before, the state after and
/// what happened.
#[derive(Debug)]
pub struct Played {
    pub before: MrState,
    pub after: MrState,
    pub events: Vec<DayEvent>,
    pub rules: Rules,
    pub expect: Option<Expect>,
}

/// Read a day file and set its day up.
///
/// # Errors
/// A broken file, an unknown character, denizen, clearing, item, chit or
/// toggle, or orders that do not read, naming the file, the entry and the
/// field.
pub fn load(data: &GameData, file: &str, text: &str) -> Result<DayScript, DataError> {
    let parsed: DayFile = parse_toml(file, text)?;
    let rules =
        rules_in_force(&parsed).map_err(|(field, m)| DataError::entry(file, "rules", field, m))?;
    let state = setup::position(data, &rules, file, &parsed)?;
    let mut orders = BTreeMap::new();
    for (entry, character) in parsed.character.iter().zip(&state.characters) {
        if entry.orders.trim().is_empty() {
            // As a player who sends no orders: he does nothing today.
            continue;
        }
        let what = format!("character \"{}\"", entry.name);
        let day_orders = parse_day_orders(&entry.orders, 1, data).map_err(|errors| {
            let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
            DataError::entry(file, &what, "orders", lines.join("; "))
        })?;
        // The names checked as the daemon checks a mailed order.
        let (problems, _) = mail_check::problems(
            data,
            Some(&state),
            &character.player,
            &day_orders,
            &entry.orders,
        );
        if !problems.is_empty() {
            let lines: Vec<String> = problems
                .iter()
                .map(|p| format!("line {}: {}", p.line, p.message))
                .collect();
            return Err(DataError::entry(file, &what, "orders", lines.join("; ")));
        }
        orders.insert(character.player.clone(), day_orders);
    }
    let mut script = DiceScript::default();
    for (purpose, rolls) in &parsed.dice {
        for faces in rolls {
            script
                .force(purpose, faces)
                .map_err(|e| DataError::entry(file, "dice", purpose.as_str(), e.to_string()))?;
        }
    }
    if !parsed.turn_order.is_empty() {
        for name in &parsed.turn_order {
            let known = state.characters.iter().any(|c| &c.name == name)
                || state.denizens.contains_key(name);
            if !known {
                return Err(DataError::entry(
                    file,
                    "turn_order",
                    name.as_str(),
                    "no character of the file and no denizen is called so; name the file's \
                     characters (and hired leaders, as \"Company HQ\", and controlled monsters, \
                     as \"Giant Bat 1\") in the order they take their turns",
                ));
            }
        }
        script.force_order(TURN_ORDER, &parsed.turn_order);
    }
    Ok(DayScript {
        dice: Dice::with_script(parsed.seed, parsed.day, script),
        state,
        rules,
        orders,
        expect: parsed.expect,
    })
}

/// The toggles in force: the rule set's without `rules_off`, with
/// `rules`.
fn rules_in_force(parsed: &DayFile) -> Result<Rules, (&'static str, String)> {
    let profile = match &parsed.rules_profile {
        Some(name) => Some(
            crate::rules::PROFILES
                .iter()
                .find(|p| p.name == name)
                .ok_or_else(|| {
                    let known: Vec<&str> = crate::rules::PROFILES.iter().map(|p| p.name).collect();
                    (
                        "rules_profile",
                        format!(
                            "no rule set is called {name}; write one of {}",
                            known.join(", ")
                        ),
                    )
                })?,
        ),
        None => None,
    };
    let on = profile.map_or(&[][..], |p| p.on);
    if let Some(off) = parsed.rules_off.iter().find(|o| !on.contains(&o.as_str())) {
        return Err((
            "rules_off",
            format!("{off} is not in the rule set the file names; remove it from rules_off"),
        ));
    }
    let names = on
        .iter()
        .copied()
        .filter(|n| !parsed.rules_off.iter().any(|o| o == n))
        .chain(parsed.rules.iter().map(String::as_str));
    Rules::new(names, crate::rules::TOGGLES).map_err(|e| ("rules", e.to_string()))
}

/// The native groups and visitors a character can have a relationship
/// with: every group, and every name a character card lists.
fn trading_groups(data: &GameData) -> Vec<&str> {
    let mut names: Vec<&str> = data.natives.iter().map(|g| g.name.as_str()).collect();
    for listed in data.characters.iter().flat_map(|c| c.relationships.keys()) {
        if !names.contains(&listed.as_str()) {
            names.push(listed);
        }
    }
    names
}

impl DayScript {
    /// Resolve the day as the daemon does.
    ///
    /// # Errors
    /// The day cannot be played (the game is over).
    pub fn play(mut self, data: &GameData) -> Result<Played, DayError> {
        let before = self.state.clone();
        let (after, events) =
            resolve_day(data, &self.rules, self.state, &self.orders, &mut self.dice)?;
        Ok(Played {
            before,
            after,
            events,
            rules: self.rules,
            expect: self.expect,
        })
    }
}
