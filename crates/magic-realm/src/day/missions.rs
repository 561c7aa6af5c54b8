//! Taking and finishing the mission and campaign chits (3.1 7.2.4;
//! `data/chits.toml` `gold_special`, `data/seasons.toml` "Food/Ale to",
//! "Escort to", "Reward"). A chit that came to the map (see `visitors`)
//! lies in its clearing until a character takes it with the `Missions:`
//! line of his orders:
//!
//! ```text
//! Missions: Escort Party; Conquer
//! ```
//!
//! * He takes a chit lying in his clearing at the start of a phase (3.1
//!   7.2.4), paying its cost in recorded Notoriety and Fame at once; he
//!   cannot take it with negative Fame or Notoriety or if paying would
//!   make either negative (7.2.4c). Hired leaders take none. One campaign
//!   at a time (7.2.4a).
//! * Done in time, he gets the cost back; his days run out or the game
//!   ends first, he pays the cost again and the chit lies where he stands
//!   (7.2.4d). Killed, he drops it where he fell, with no loss (7.2.4b).
//!   His days are the chit's, the day he took it counting as the first.
//! * A mission goes to the season's first dwelling of its column (without
//!   the Seasons rule the Inn for Food and Ale, the Chapel for the Escort
//!   Party), or to the second when he takes it at the first (7.2.4e.2-3).
//!   Its reward, fixed when taken, is the season's gold (2 without
//!   Seasons) for each clearing of the shortest route over every path,
//!   hidden ones too, or 30 gold when no route leads there yet (e.1). He
//!   delivers it the moment he enters the dwelling's clearing (e.4).
//! * A campaign can be taken only while one of its foes is on the map
//!   (7.2.4g). While he holds it his partners are two levels warmer (the
//!   extra above Ally kept) and his foes Enemy (h; `meeting::level_of`).
//!   It is done when every foe is dead at once (i), which Midnight
//!   checks, since foes come back only at a week's regeneration. While
//!   none of his foes is on the map he may abandon it with an `abandon`
//!   entry (`Missions: abandon Raid`): no cost back, no penalty (j).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde::{Deserialize, Serialize};

use crate::board::ClearingId;
use crate::data::GameData;
use crate::data::chits::{GoldSpecial, GoldSpecialKind};
use crate::data::realms::{Realm, printed};
use crate::data::seasons::Season;
use crate::data::terms::Dwelling;
use crate::day::refusal::PhaseError;
use crate::magic::colour::SEASONS_TOGGLE;
use realmgm_core::suggest;

use crate::state::{CharacterState, Delivery, TakenChit};

use super::Day;
use super::events::Happening;
use super::meeting::CampaignSide;
use super::visitors::VisitorEvent;

/// What taking a chit costs, paid when taken, given back when the task is
/// done and paid again when it fails (3.1 7.2.4c-d).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cost {
    #[serde(default)]
    pub notoriety: u16,
    #[serde(default)]
    pub fame: u16,
}

impl Cost {
    fn of(chit: &GoldSpecial) -> Cost {
        Cost {
            notoriety: chit.notoriety.unwrap_or(0),
            fame: chit.fame.unwrap_or(0),
        }
    }

    /// Add `sign` times the cost to his record.
    fn apply(self, c: &mut CharacterState, sign: i32) {
        c.notoriety += sign * i32::from(self.notoriety);
        c.fame += sign * i32::from(self.fame);
    }

    /// In words: "5 notoriety", "10 fame and 15 notoriety", "nothing".
    fn words(self) -> String {
        let parts: Vec<String> = [(self.fame, "fame"), (self.notoriety, "notoriety")]
            .into_iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("{n} {what}"))
            .collect();
        if parts.is_empty() {
            "nothing".into()
        } else {
            parts.join(" and ")
        }
    }
}

/// What happened to mission and campaign chits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum MissionEvent {
    /// He took a mission: where to and for how much; `route` is `None`
    /// when no route led there (the reward is then 30 gold).
    MissionTaken {
        character: String,
        chit: String,
        to: Dwelling,
        route: Option<u16>,
        reward: u16,
        last_day: u32,
        #[serde(default)]
        cost: Cost,
    },
    /// He took a campaign, paying its cost.
    CampaignTaken {
        character: String,
        chit: String,
        #[serde(default)]
        cost: Cost,
        allies: Vec<String>,
        enemies: Vec<String>,
        last_day: u32,
    },
    /// The `Missions:` line named a chit he could not take.
    NotTaken {
        character: String,
        chit: String,
        reason: String,
    },
    /// He delivered a mission: its reward, and its cost back.
    Delivered {
        character: String,
        chit: String,
        at: ClearingId,
        gold: u16,
        #[serde(default)]
        refund: Cost,
    },
    /// Every foe of his campaign is dead: its cost back; the chit lies in
    /// `left_in`.
    CampaignWon {
        character: String,
        chit: String,
        refund: Cost,
        left_in: ClearingId,
    },
    /// Its days ran out: he pays its cost again; the chit lies in
    /// `left_in`.
    TimeUp {
        character: String,
        chit: String,
        #[serde(default)]
        penalty: Cost,
        left_in: ClearingId,
    },
    /// He died holding it; it lies where he fell.
    Dropped {
        character: String,
        chit: String,
        left_in: ClearingId,
    },
    /// He gave his campaign up, no foe being on the map: no cost back, no
    /// penalty; the chit lies in `left_in`.
    Abandoned {
        character: String,
        chit: String,
        left_in: ClearingId,
    },
    /// His `Missions:` line abandons a campaign whose foes are still on
    /// the map.
    NotAbandoned { character: String, chit: String },
}

impl MissionEvent {
    /// The GM log line.
    pub fn log_line(&self) -> String {
        match self {
            MissionEvent::MissionTaken {
                character,
                chit,
                to,
                route,
                reward,
                last_day,
                cost,
            } => {
                let way = route.map_or_else(
                    || "no route there yet".to_string(),
                    |n| realmgm_core::words::counted(u32::from(n), "clearing", "clearings"),
                );
                format!(
                    "  The {character} takes {chit} for {}: to the {} ({way}), {reward} gold, by \
                     day {last_day}.",
                    cost.words(),
                    to.label()
                )
            }
            MissionEvent::CampaignTaken {
                character,
                chit,
                cost,
                allies,
                enemies,
                last_day,
            } => format!(
                "  The {character} takes the {chit} campaign for {} until day {last_day}: \
                 partners {}, foes {}.",
                cost.words(),
                names(allies),
                names(enemies)
            ),
            MissionEvent::NotTaken {
                character,
                chit,
                reason,
            } => format!("  The {character} does not take {chit}: {reason}."),
            MissionEvent::Delivered {
                character,
                chit,
                at,
                gold,
                refund,
            } => format!(
                "  The {character} delivers {chit} in {at}, records {gold} gold and gets back {}.",
                refund.words()
            ),
            MissionEvent::CampaignWon {
                character,
                chit,
                refund,
                left_in,
            } => format!(
                "  Every foe of the {character}'s {chit} campaign is dead: the {character} gets \
                 back {}; the chit lies in {left_in}.",
                refund.words()
            ),
            MissionEvent::TimeUp {
                character,
                chit,
                penalty,
                left_in,
            } => format!(
                "  The {character}'s {chit} is over undone: the {character} pays {} again; the \
                 chit lies in {left_in}.",
                penalty.words()
            ),
            MissionEvent::Dropped {
                character,
                chit,
                left_in,
            } => format!("  The dead {character}'s {chit} lies in {left_in}."),
            MissionEvent::Abandoned {
                character,
                chit,
                left_in,
            } => format!(
                "  The {character} abandons the {chit} campaign, none of its foes being on the \
                 map; the chit lies in {left_in}."
            ),
            MissionEvent::NotAbandoned { character, chit } => format!(
                "  The {character} cannot abandon the {chit} campaign while any of its foes is \
                 on the map."
            ),
        }
    }
}

fn names(list: &[String]) -> String {
    if list.is_empty() {
        "none".into()
    } else {
        list.join(", ")
    }
}

fn emit(day: &mut Day<'_>, who: usize, event: MissionEvent) {
    let observers = day.clearing_of(who);
    day.emit(
        observers,
        Happening::Visitors(VisitorEvent::Mission { what: event }),
    );
}

fn chit_data<'d>(day: &Day<'d>, name: &str) -> Option<&'d GoldSpecial> {
    gold_special(day.data, name)
}

/// A mission or campaign chit of either game (`Escort Party II` is the
/// second game's, 3.1 10.E.7.2.1).
fn gold_special<'d>(data: &'d GameData, name: &str) -> Option<&'d GoldSpecial> {
    let printed = printed(name);
    data.chits.gold_special.iter().find(|g| g.name == printed)
}

/// The last game day of a chit taken on `taken_on`.
fn last_day(chit: &GoldSpecial, taken_on: u32) -> u32 {
    taken_on + u32::from(chit.days).saturating_sub(1)
}

/// A held chit as his sheet shows it: where a mission goes, for how much,
/// and its last day; a campaign's last day.
pub fn terms(data: &GameData, t: &TakenChit) -> String {
    let last = data
        .chits
        .gold_special
        .iter()
        .find(|g| g.name == t.chit)
        .map(|g| last_day(g, t.taken_on));
    let by = last.map_or_else(String::new, |d| format!(", last day {d}"));
    match &t.deliver_to {
        Some(d) => format!(
            "{} to the {} for {} gold{by}",
            t.chit,
            d.dwelling.label(),
            d.reward
        ),
        None => format!("{} campaign{by}", t.chit),
    }
}

/// The start of a phase of `who`: take the chits his `Missions:` line
/// names that lie in his clearing (3.1 7.2.4), and abandon the campaign an
/// `abandon CHIT` entry names (7.2.4j).
pub fn at_phase(day: &mut Day<'_>, who: usize, wanted: &[String]) {
    if day.state.characters[who].dead {
        return;
    }
    for name in wanted {
        match abandoned_name(name) {
            Some(chit) => abandon(day, who, chit),
            None => take(day, who, name),
        }
    }
}

/// The chit an `abandon CHIT` entry names.
fn abandoned_name(entry: &str) -> Option<&str> {
    let (word, rest) = entry.trim().split_once(char::is_whitespace)?;
    word.eq_ignore_ascii_case("abandon").then(|| rest.trim())
}

/// Abandon the campaign `wanted` when none of its foes is on the map: no
/// cost back and no penalty; the chit lies in his clearing (3.1 7.2.4j).
fn abandon(day: &mut Day<'_>, who: usize, wanted: &str) {
    let c = &day.state.characters[who];
    let Some(held) = c
        .gold_specials
        .iter()
        .find(|t| suggest::same(&t.chit, wanted))
        .cloned()
    else {
        return;
    };
    let Some(chit) = chit_data(day, &held.chit).filter(|g| g.kind == GoldSpecialKind::Campaign)
    else {
        return;
    };
    let character = c.name.clone();
    let left_in = c.position.clone();
    let on_map = foes(day, chit, &held.chit)
        .into_iter()
        .any(|at| matches!(at, crate::state::Whereabouts::Clearing { .. }));
    if on_map {
        let event = MissionEvent::NotAbandoned {
            character,
            chit: held.chit,
        };
        let observers = day.only(who);
        day.emit(
            observers,
            Happening::Visitors(VisitorEvent::Mission { what: event }),
        );
        return;
    }
    day.state.characters[who]
        .gold_specials
        .retain(|t| t.chit != held.chit);
    day.state
        .visitors_on_map
        .insert(held.chit.clone(), left_in.clone());
    let event = MissionEvent::Abandoned {
        character,
        chit: held.chit,
        left_in,
    };
    emit(day, who, event);
}

/// `who` has just entered a clearing: a mission he carries whose dwelling
/// stands there is delivered at once (3.1 7.2.4e.4): the reward recorded,
/// the cost given back, the chit left at the dwelling.
pub fn on_entering(day: &mut Day<'_>, who: usize) {
    let here = day.state.characters[who].position.clone();
    let due: Vec<TakenChit> = day.state.characters[who]
        .gold_specials
        .iter()
        .filter(|t| {
            t.deliver_to
                .as_ref()
                // Only to its own game's dwelling (3.1 10.E.7.7.3).
                .is_some_and(|d| {
                    day.state
                        .dwellings_of(Realm::of_name(&t.chit))
                        .get(&d.dwelling)
                        == Some(&here)
                })
        })
        .cloned()
        .collect();
    for taken in due {
        let gold = taken.deliver_to.as_ref().map_or(0, |d| d.reward);
        let refund = chit_data(day, &taken.chit)
            .map(Cost::of)
            .unwrap_or_default();
        let c = &mut day.state.characters[who];
        c.gold_specials.retain(|t| t.chit != taken.chit);
        c.gold = c.gold.saturating_add(gold);
        refund.apply(c, 1);
        let character = c.name.clone();
        day.state
            .visitors_on_map
            .insert(taken.chit.clone(), here.clone());
        emit(
            day,
            who,
            MissionEvent::Delivered {
                character,
                chit: taken.chit,
                at: here.clone(),
                gold,
                refund,
            },
        );
    }
}

fn take(day: &mut Day<'_>, who: usize, wanted: &str) {
    let character = day.state.characters[who].name.clone();
    let all = day.data.chits.gold_special.iter().map(|g| g.name.as_str());
    let realm = Realm::of_name(wanted);
    let found = suggest::find(&printed(wanted), all).and_then(|n| chit_data(day, n));
    let Some(chit) = found else {
        let hint = suggest::did_you_mean(
            wanted,
            day.data.chits.gold_special.iter().map(|g| g.name.as_str()),
        );
        let event = MissionEvent::NotTaken {
            character,
            chit: wanted.to_string(),
            reason: format!("there is no mission or campaign chit called that{hint}"),
        };
        let observers = day.only(who);
        day.emit(
            observers,
            Happening::Visitors(VisitorEvent::Mission { what: event }),
        );
        return;
    };
    // The chit of the game he names (3.1 10.E.7.2.1).
    let name = realm.mark(&chit.name);
    let here = day.state.characters[who].position.clone();
    if day.state.visitors_on_map.get(&name) != Some(&here) {
        // A standing order: said to him alone, and only when the chit is
        // not simply elsewhere (that is the usual case).
        if day.state.characters[who]
            .gold_specials
            .iter()
            .any(|t| t.chit == name)
        {
            let event = MissionEvent::NotTaken {
                character,
                chit: name.clone(),
                reason: "already held".into(),
            };
            let observers = day.only(who);
            day.emit(
                observers,
                Happening::Visitors(VisitorEvent::Mission { what: event }),
            );
        }
        return;
    }
    let taken_on = day.state.day + 1;
    let result = match chit.kind {
        GoldSpecialKind::Mission => take_mission(day, who, chit, &name, taken_on),
        GoldSpecialKind::Campaign => take_campaign(day, who, chit, &name, taken_on),
    };
    let event = match result {
        Ok((taken, event)) => {
            day.state.visitors_on_map.remove(&name);
            day.state.characters[who].gold_specials.push(taken);
            event
        }
        Err(reason) => MissionEvent::NotTaken {
            character,
            chit: name,
            reason: reason.to_string(),
        },
    };
    emit(day, who, event);
}

/// The season whose mission columns apply today.
fn season<'d>(day: &Day<'d>) -> &'d Season {
    let seasons = &day.data.seasons;
    day.rules
        .is_on(SEASONS_TOGGLE)
        .then_some(day.state.magic.season)
        .flatten()
        .and_then(|n| seasons.season(n))
        .unwrap_or_else(|| seasons.no_seasons())
}

/// Whether `c` can pay `cost` without a negative record (3.1 7.2.4c).
fn can_pay(c: &CharacterState, cost: Cost) -> Result<(), PhaseError> {
    let short = c.notoriety < i32::from(cost.notoriety) || c.fame < i32::from(cost.fame);
    if c.notoriety < 0 || c.fame < 0 || short {
        return Err(format!(
            "it costs {} against {} fame and {} notoriety recorded; neither may go below zero",
            cost.words(),
            c.fame,
            c.notoriety
        )
        .into());
    }
    Ok(())
}

/// The gold a mission pays when no route leads to its dwelling as it is
/// taken (3.1 7.2.4e.1).
const NO_ROUTE_REWARD: u16 = 30;

/// Take the mission `chit`, called `name` in its game; it goes to a
/// dwelling of that game (3.1 10.E.7.7.3).
fn take_mission(
    day: &mut Day<'_>,
    who: usize,
    chit: &GoldSpecial,
    name: &str,
    taken_on: u32,
) -> Result<(TakenChit, MissionEvent), PhaseError> {
    let dwellings = day.state.dwellings_of(Realm::of_name(name));
    let cost = Cost::of(chit);
    can_pay(&day.state.characters[who], cost)?;
    let season = season(day);
    let column = if chit.name == "Escort Party" {
        &season.escort_party
    } else {
        &season.food_and_ale
    };
    let here = day.state.characters[who].position.clone();
    let at_first = column
        .first()
        .is_some_and(|d| dwellings.get(d) == Some(&here));
    let dwelling = *column
        .get(usize::from(at_first))
        .ok_or_else(|| format!("the season names no destination for {}", chit.name))?;
    let route = dwellings
        .get(&dwelling)
        .and_then(|at| route_length(day, &here, at));
    let reward = route.map_or(NO_ROUTE_REWARD, |n| {
        n.saturating_mul(u16::from(season.reward))
    });
    let c = &mut day.state.characters[who];
    cost.apply(c, -1);
    let taken = TakenChit {
        chit: name.to_string(),
        taken_on,
        deliver_to: Some(Delivery { dwelling, reward }),
    };
    let event = MissionEvent::MissionTaken {
        character: c.name.clone(),
        chit: name.to_string(),
        to: dwelling,
        route,
        reward,
        last_day: last_day(chit, taken_on),
        cost,
    };
    Ok((taken, event))
}

/// The counters a campaign is waged against: its foe groups' members and
/// its foe monsters (3.1 7.2.4f), of the chit's own game, called `name`
/// there (7.7.4).
fn foes<'s>(
    day: &'s Day<'_>,
    chit: &GoldSpecial,
    name: &str,
) -> Vec<&'s crate::state::Whereabouts> {
    let realm = Realm::of_name(name);
    day.state
        .denizens
        .iter()
        .filter(|(id, _)| Realm::of_name(id) == realm)
        .filter(|(id, _)| {
            let in_group = day
                .data
                .native_group_of(id)
                .is_some_and(|g| chit.enemies.contains(&g.name));
            let monster = day
                .data
                .monster_of(id)
                .is_some_and(|m| chit.enemy_monsters.contains(&m.name));
            in_group || monster
        })
        .map(|(_, d)| &d.at)
        .collect()
}

/// Take the campaign `chit`, called `name` in its game, whose foes are
/// that game's (3.1 10.E.7.7.4).
fn take_campaign(
    day: &mut Day<'_>,
    who: usize,
    chit: &GoldSpecial,
    name: &str,
    taken_on: u32,
) -> Result<(TakenChit, MissionEvent), PhaseError> {
    let c = &day.state.characters[who];
    if let Some(held) = c
        .gold_specials
        .iter()
        .find(|t| chit_data(day, &t.chit).is_some_and(|g| g.kind == GoldSpecialKind::Campaign))
    {
        return Err(format!(
            "already waging the {} campaign; one campaign at a time",
            held.chit
        )
        .into());
    }
    let on_map = foes(day, chit, name)
        .into_iter()
        .any(|at| matches!(at, crate::state::Whereabouts::Clearing { .. }));
    if !on_map {
        return Err("none of its foes is on the map (3.1 7.2.4g)".into());
    }
    let cost = Cost::of(chit);
    can_pay(c, cost)?;
    let c = &mut day.state.characters[who];
    cost.apply(c, -1);
    let mut enemies = chit.enemies.clone();
    enemies.extend(chit.enemy_monsters.iter().cloned());
    let taken = TakenChit {
        chit: name.to_string(),
        taken_on,
        deliver_to: None,
    };
    let event = MissionEvent::CampaignTaken {
        character: c.name.clone(),
        chit: name.to_string(),
        cost,
        allies: chit.allies.clone(),
        enemies,
        last_day: last_day(chit, taken_on),
    };
    Ok((taken, event))
}

/// Moves on the shortest route from `from` to `to` over every kind of
/// path; `None` when no path joins them.
pub fn route_length(day: &Day<'_>, from: &ClearingId, to: &ClearingId) -> Option<u16> {
    let mut seen: BTreeSet<ClearingId> = [from.clone()].into();
    let mut queue: VecDeque<(ClearingId, u16)> = [(from.clone(), 0)].into();
    while let Some((at, steps)) = queue.pop_front() {
        if &at == to {
            return Some(steps);
        }
        for link in day.state.board.neighbours(&at) {
            if seen.insert(link.to.clone()) {
                queue.push_back((link.to, steps.saturating_add(1)));
            }
        }
    }
    None
}

/// Whether the campaign `me` wages makes `group` his partner or his foe
/// (3.1 7.2.4f).
pub fn campaign_side(data: &GameData, me: &CharacterState, marked_group: &str) -> CampaignSide {
    // A campaign chit names only its own game's groups (3.1 10.E.7.7.4).
    let realm = Realm::of_name(marked_group);
    let group = printed(marked_group);
    me.gold_specials
        .iter()
        .filter(|t| Realm::of_name(&t.chit) == realm)
        .filter_map(|t| gold_special(data, &t.chit))
        .filter(|g| g.kind == GoldSpecialKind::Campaign)
        .find_map(|g| {
            if g.allies.contains(&group) {
                Some(CampaignSide::Partner)
            } else if g.enemies.contains(&group) {
                Some(CampaignSide::Foe)
            } else {
                None
            }
        })
        .unwrap_or(CampaignSide::Neither)
}

/// Midnight of game day `today`: a campaign whose foes are all dead is
/// won (its cost back); chits whose days are over fail (their cost paid
/// again); the dead drop theirs. Each chit ended lies where its holder
/// stands.
pub fn midnight(day: &mut Day<'_>, today: u32) {
    let mut ended: BTreeMap<usize, Vec<(TakenChit, End)>> = BTreeMap::new();
    for (who, c) in day.state.characters.iter().enumerate() {
        for t in &c.gold_specials {
            let data = chit_data(day, &t.chit);
            let won = data.is_some_and(|g| {
                g.kind == GoldSpecialKind::Campaign
                    && foes(day, g, &t.chit)
                        .into_iter()
                        .all(|at| *at == crate::state::Whereabouts::Dead)
            });
            // The game's end fails what is still undone (3.1 7.2.4d).
            let over = data.is_none_or(|g| last_day(g, t.taken_on) <= today)
                || today >= day.state.last_day;
            let end = if c.dead {
                End::Dropped
            } else if won {
                End::Won
            } else if over {
                End::Failed
            } else {
                continue;
            };
            ended.entry(who).or_default().push((t.clone(), end));
        }
    }
    for (who, chits) in ended {
        for (t, end) in chits {
            let cost = chit_data(day, &t.chit).map(Cost::of).unwrap_or_default();
            let c = &mut day.state.characters[who];
            c.gold_specials.retain(|held| held.chit != t.chit);
            let left_in = c.position.clone();
            let character = c.name.clone();
            let chit = t.chit.clone();
            let event = match end {
                End::Dropped => MissionEvent::Dropped {
                    character,
                    chit,
                    left_in: left_in.clone(),
                },
                End::Won => {
                    cost.apply(c, 1);
                    MissionEvent::CampaignWon {
                        character,
                        chit,
                        refund: cost,
                        left_in: left_in.clone(),
                    }
                }
                End::Failed => {
                    cost.apply(c, -1);
                    MissionEvent::TimeUp {
                        character,
                        chit,
                        penalty: cost,
                        left_in: left_in.clone(),
                    }
                }
            };
            day.state.visitors_on_map.insert(t.chit, left_in);
            emit(day, who, event);
        }
    }
}

/// How a held chit ends at Midnight.
#[derive(Clone, Copy)]
enum End {
    Dropped,
    Won,
    Failed,
}
