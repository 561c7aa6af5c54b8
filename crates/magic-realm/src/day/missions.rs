//! Taking and finishing the row-6 mission and campaign chits (`data/setup_card.toml`
//! "Row 6 visitor/mission boxes", `data/seasons.toml` "Food/Ale to", "Escort to",
//! "Reward"; the chits' data in `chits.toml`, `gold_special`). A chit that
//! came to the map (see `visitors`) lies in its clearing until a character
//! takes it with the `Missions:` line of his orders:
//!
//! ```text
//! Missions: Escort Party; Conquer
//! ```
//!
//! Rulings (the reference gives the chits' numbers, not the procedure):
//! * Taking or delivering a chit takes no phase: it happens where he ends
//!   his turn (after the row-6 chits have come out there), deliveries
//!   first, so he may take a chit again where he just delivered one. A dead
//!   character takes and delivers nothing.
//! * A mission (Escort Party, Food and Ale) goes to the season's first
//!   dwelling of its column (without the Seasons rule: "No Seasons"), or
//!   to the second when he stands at the first or the first is not on the
//!   map. Its reward, fixed when taken, is the season's gold per clearing
//!   times the clearings of the shortest route there over every path
//!   (hidden ones too). Ending a turn in the destination's clearing
//!   delivers it: he records the gold and the chit stays there.
//! * He has the chit's days to finish, the day he takes it counting as the
//!   first. At Midnight of the last day an undelivered mission fails: he
//!   loses the chit's notoriety (recorded notoriety may go below zero, as
//!   an Insult can take it) and the chit lies where he stands.
//! * Taking a campaign costs the notoriety printed on the chit, which he
//!   must have recorded; he holds one campaign at a time. Until Midnight of
//!   its last day the chit's allied groups are his Allies and its enemy
//!   groups his Enemies on the Meeting table (before the character card's
//!   relationships, after spells such as Persuade), then the chit lies
//!   where he stands. The campaign's war — enemy groups and the Quest's
//!   dragons fighting him on sight, the groups fighting each other — needs
//!   combat rules and is reported as not implemented yet when he takes it.
//! * A character killed drops his chits where he fell at Midnight, without
//!   any loss.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde::{Deserialize, Serialize};

use crate::board::ClearingId;
use crate::data::GameData;
use crate::data::chits::{GoldSpecial, GoldSpecialKind};
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

/// What happened to mission and campaign chits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum MissionEvent {
    /// He took a mission: where to and for how much.
    MissionTaken {
        character: String,
        chit: String,
        to: Dwelling,
        route: u16,
        reward: u16,
        last_day: u32,
    },
    /// He took a campaign, paying its notoriety.
    CampaignTaken {
        character: String,
        chit: String,
        notoriety: u16,
        allies: Vec<String>,
        enemies: Vec<String>,
        last_day: u32,
        /// What of the campaign is not built yet.
        not_implemented: String,
    },
    /// The `Missions:` line named a chit he could not take.
    NotTaken {
        character: String,
        chit: String,
        reason: String,
    },
    Delivered {
        character: String,
        chit: String,
        at: ClearingId,
        gold: u16,
    },
    /// Its days ran out: a mission failed (notoriety lost), a campaign
    /// ended; the chit lies in `left_in`.
    TimeUp {
        character: String,
        chit: String,
        notoriety_lost: u16,
        left_in: ClearingId,
    },
    /// He died holding it; it lies where he fell.
    Dropped {
        character: String,
        chit: String,
        left_in: ClearingId,
    },
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
            } => format!(
                "  The {character} takes {chit}: to the {} ({route} clearings), {reward} gold, \
                 by day {last_day}.",
                to.label()
            ),
            MissionEvent::CampaignTaken {
                character,
                chit,
                notoriety,
                allies,
                enemies,
                last_day,
                not_implemented,
            } => format!(
                "  The {character} takes the {chit} campaign for {notoriety} notoriety until day \
                 {last_day}: allies {}, enemies {} ({not_implemented}).",
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
            } => format!("  The {character} delivers {chit} in {at} and records {gold} gold."),
            MissionEvent::TimeUp {
                character,
                chit,
                notoriety_lost,
                left_in,
            } => {
                let lost = if *notoriety_lost > 0 {
                    format!("; {notoriety_lost} notoriety lost")
                } else {
                    String::new()
                };
                format!("  The {character}'s {chit} is over{lost}; the chit lies in {left_in}.")
            }
            MissionEvent::Dropped {
                character,
                chit,
                left_in,
            } => format!("  The dead {character}'s {chit} lies in {left_in}."),
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

/// What a campaign cannot do yet.
const WAR_NOT_BUILT: &str = "the war itself — enemy groups and monsters fighting the character on sight, \
                             the groups fighting each other — is not implemented yet; the chit \
                             changes the Meeting table's relationships";

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

fn gold_special<'d>(data: &'d GameData, name: &str) -> Option<&'d GoldSpecial> {
    data.chits.gold_special.iter().find(|g| g.name == name)
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

/// The end of the turn of `who`: deliver what he can here, then take the
/// chits his `Missions:` line names that lie here.
pub fn end_of_turn(day: &mut Day<'_>, who: usize, wanted: &[String]) {
    if day.state.characters[who].dead {
        return;
    }
    deliver(day, who);
    for name in wanted {
        take(day, who, name);
    }
}

fn deliver(day: &mut Day<'_>, who: usize) {
    let here = day.state.characters[who].position.clone();
    let due: Vec<TakenChit> = day.state.characters[who]
        .gold_specials
        .iter()
        .filter(|t| {
            t.deliver_to
                .as_ref()
                .is_some_and(|d| day.state.dwellings.get(&d.dwelling) == Some(&here))
        })
        .cloned()
        .collect();
    for taken in due {
        let gold = taken.deliver_to.as_ref().map_or(0, |d| d.reward);
        let c = &mut day.state.characters[who];
        c.gold_specials.retain(|t| t.chit != taken.chit);
        c.gold = c.gold.saturating_add(gold);
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
            },
        );
    }
}

fn take(day: &mut Day<'_>, who: usize, wanted: &str) {
    let character = day.state.characters[who].name.clone();
    let all = day.data.chits.gold_special.iter().map(|g| g.name.as_str());
    let Some(chit) = suggest::find(wanted, all).and_then(|n| chit_data(day, n)) else {
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
    let here = day.state.characters[who].position.clone();
    if day.state.visitors_on_map.get(&chit.name) != Some(&here) {
        // A standing order: said to him alone, and only when the chit is
        // not simply elsewhere (that is the usual case).
        if day.state.characters[who]
            .gold_specials
            .iter()
            .any(|t| t.chit == chit.name)
        {
            let event = MissionEvent::NotTaken {
                character,
                chit: chit.name.clone(),
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
        GoldSpecialKind::Mission => take_mission(day, who, chit, taken_on),
        GoldSpecialKind::Campaign => take_campaign(day, who, chit, taken_on),
    };
    let event = match result {
        Ok((taken, event)) => {
            day.state.visitors_on_map.remove(&chit.name);
            day.state.characters[who].gold_specials.push(taken);
            event
        }
        Err(reason) => MissionEvent::NotTaken {
            character,
            chit: chit.name.clone(),
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

fn take_mission(
    day: &Day<'_>,
    who: usize,
    chit: &GoldSpecial,
    taken_on: u32,
) -> Result<(TakenChit, MissionEvent), PhaseError> {
    let season = season(day);
    let column = if chit.name == "Escort Party" {
        &season.escort_party
    } else {
        &season.food_and_ale
    };
    let here = &day.state.characters[who].position;
    let (dwelling, at) = column
        .iter()
        .filter_map(|d| day.state.dwellings.get(d).map(|at| (*d, at)))
        .find(|(_, at)| *at != here)
        .ok_or_else(|| {
            let wanted: Vec<&str> = column.iter().map(|d| d.label()).collect();
            format!(
                "its destinations this season ({}) are not on the map or are here",
                wanted.join(", ")
            )
        })?;
    let route = route_length(day, here, at)
        .ok_or_else(|| format!("no path leads from {here} to the {}", dwelling.label()))?;
    let reward = route.saturating_mul(u16::from(season.reward));
    let last = last_day(chit, taken_on);
    let taken = TakenChit {
        chit: chit.name.clone(),
        taken_on,
        deliver_to: Some(Delivery { dwelling, reward }),
    };
    let event = MissionEvent::MissionTaken {
        character: day.state.characters[who].name.clone(),
        chit: chit.name.clone(),
        to: dwelling,
        route,
        reward,
        last_day: last,
    };
    Ok((taken, event))
}

fn take_campaign(
    day: &mut Day<'_>,
    who: usize,
    chit: &GoldSpecial,
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
    let cost = chit.notoriety.unwrap_or(0);
    if c.notoriety < i32::from(cost) {
        return Err(format!(
            "it costs {cost} notoriety and only {} is recorded",
            c.notoriety
        )
        .into());
    }
    let c = &mut day.state.characters[who];
    c.notoriety -= i32::from(cost);
    let mut enemies = chit.enemies.clone();
    enemies.extend(chit.enemy_monsters.iter().cloned());
    let taken = TakenChit {
        chit: chit.name.clone(),
        taken_on,
        deliver_to: None,
    };
    let event = MissionEvent::CampaignTaken {
        character: c.name.clone(),
        chit: chit.name.clone(),
        notoriety: cost,
        allies: chit.allies.clone(),
        enemies,
        last_day: last_day(chit, taken_on),
        not_implemented: WAR_NOT_BUILT.into(),
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
pub fn campaign_side(data: &GameData, me: &CharacterState, group: &str) -> CampaignSide {
    me.gold_specials
        .iter()
        .filter_map(|t| gold_special(data, &t.chit))
        .filter(|g| g.kind == GoldSpecialKind::Campaign)
        .find_map(|g| {
            if g.allies.iter().any(|a| a == group) {
                Some(CampaignSide::Partner)
            } else if g.enemies.iter().any(|e| e == group) {
                Some(CampaignSide::Foe)
            } else {
                None
            }
        })
        .unwrap_or(CampaignSide::Neither)
}

/// Midnight of game day `today`: chits whose days are over end (a mission
/// undelivered costs its notoriety); the dead drop theirs.
pub fn midnight(day: &mut Day<'_>, today: u32) {
    let mut ended: BTreeMap<usize, Vec<TakenChit>> = BTreeMap::new();
    for (who, c) in day.state.characters.iter().enumerate() {
        for t in &c.gold_specials {
            let over = chit_data(day, &t.chit).is_none_or(|g| last_day(g, t.taken_on) <= today);
            if c.dead || over {
                ended.entry(who).or_default().push(t.clone());
            }
        }
    }
    for (who, chits) in ended {
        for t in chits {
            let c = &mut day.state.characters[who];
            c.gold_specials.retain(|held| held.chit != t.chit);
            let left_in = c.position.clone();
            let character = c.name.clone();
            let event = if c.dead {
                MissionEvent::Dropped {
                    character,
                    chit: t.chit.clone(),
                    left_in: left_in.clone(),
                }
            } else {
                let penalty = if t.deliver_to.is_some() {
                    chit_data(day, &t.chit)
                        .and_then(|g| g.notoriety)
                        .unwrap_or(0)
                } else {
                    0
                };
                let c = &mut day.state.characters[who];
                c.notoriety -= i32::from(penalty);
                MissionEvent::TimeUp {
                    character,
                    chit: t.chit.clone(),
                    notoriety_lost: penalty,
                    left_in: left_in.clone(),
                }
            };
            day.state.visitors_on_map.insert(t.chit, left_in);
            emit(day, who, event);
        }
    }
}
