//! The end of a character's turn (play summary II.E; `data/setup_card.toml`): the map
//! chits of his tile turn face up (the Lost City and Castle give up their
//! five chits, warning chits show their campfires), prowling denizens in
//! the tile come to his clearing, the row's roving natives come to a
//! dwelling he stands at, face-up sites of the row release their guardians,
//! warning chits summon into his clearing and sound chits into their
//! numbered clearing. Each chit summons once a day; arrivals block unhidden
//! characters.

use realmgm_core::game::Observers;

use super::Day;
use super::blocking;
use super::events::{ArrivalEvent, Happening};
use crate::abilities;
use crate::board::ClearingId;
use crate::data::GameData;
use crate::data::characters::{Advantage, SummonChit};
use crate::data::natives::NativeGroup;
use crate::data::setup_card::ChitWord;
use crate::state::{DenizenKind, MapChit, Whereabouts};

/// The rule that keeps a hidden character's tile chits face down.
const QUIET_MONSTERS: &str = "quiet_monsters";
/// Where campfires appear (the same clearing setup reveals dwellings in).
const CAMPFIRE_CLEARING: u8 = 5;

/// The native group a member counter belongs to.
pub fn group_of<'a>(data: &'a GameData, id: &str) -> Option<&'a NativeGroup> {
    data.natives
        .iter()
        .find(|g| g.members.iter().any(|m| m.name == id))
}

/// Whether the counter prowls today: monsters of the rolled row and the
/// ghosts, and the roving native groups of the row (garrisons never leave
/// their dwelling).
pub fn prowls(data: &GameData, row: u8, id: &str) -> bool {
    if let Some(monster) = data.monster_of(id) {
        return monster.prowls_daily || monster.row == Some(row);
    }
    group_of(data, id).is_some_and(|g| g.row == row && g.garrison.is_none())
}

/// End the turn of `who` (his followers end theirs with him).
pub fn end_of_turn(day: &mut Day<'_>, who: usize, followers: &[usize]) {
    for &i in std::iter::once(&who).chain(followers) {
        let c = &day.state.characters[i];
        let event = ArrivalEvent::TurnEnds {
            character: c.name.clone(),
            clearing: c.position.clone(),
            hidden: c.hidden,
        };
        let observers = day.only(i);
        day.emit(observers, Happening::Arrival(event));
    }
    let here = day.state.characters[who].position.clone();
    let quiet = day.rules.is_on(QUIET_MONSTERS) && day.state.characters[who].hidden;
    if !quiet {
        reveal_tile(day, &here.tile);
    }
    let seen = day.state.face_up_chits(&here.tile);
    for &i in std::iter::once(&who).chain(followers) {
        let known = &mut day.state.characters[i].discoveries.chits_seen;
        known.extend(seen.iter().cloned());
    }
    let before = day.events.len();
    prowlers_come(day, &here);
    natives_come(day, &here);
    super::visitors::end_of_turn(day, who);
    let advantages = abilities::advantages(day.data, day.rules, &day.state.characters[who]);
    let peace_with_nature = crate::magic::influence::peace_with_nature(&day.state, who);
    let immune = |kind| {
        (peace_with_nature && matches!(kind, SummonChit::Warning | SummonChit::Sound))
            || advantages
                .iter()
                .any(|a| matches!(a, Advantage::NotSummonedBy { chits } if chits.contains(&kind)))
    };
    if !immune(SummonChit::Site) {
        guardians_come(day, &here.tile);
    }
    if !immune(SummonChit::Warning) {
        warnings_summon(day, &here);
    }
    if !immune(SummonChit::Sound) {
        sounds_summon(day, &here.tile);
    }
    let arrived_here = day.events[before..].iter().any(|e| {
        matches!(&e.happening, Happening::Arrival(ArrivalEvent::Arrived { clearing, .. }) if clearing == &here)
    });
    if !arrived_here {
        let event = ArrivalEvent::NothingArrives {
            character: day.state.characters[who].name.clone(),
        };
        let observers = day.only(who);
        day.emit(observers, Happening::Arrival(event));
    }
}

/// Turn the tile's chits face up; the Lost City/Castle give way to theirs.
fn reveal_tile(day: &mut Day<'_>, tile: &str) {
    let Some(chits) = day.state.map_chits.get(tile).cloned() else {
        return;
    };
    let mut revealed = Vec::new();
    let mut now = Vec::new();
    for chit in chits {
        if chit.face_up {
            now.push(chit);
            continue;
        }
        match day.state.lost.remove(&chit.name) {
            Some(inside) => {
                revealed.push(chit.name.clone());
                for name in inside {
                    revealed.push(name.clone());
                    now.push(MapChit {
                        name,
                        face_up: true,
                    });
                }
            }
            None => {
                revealed.push(chit.name.clone());
                now.push(MapChit {
                    name: chit.name,
                    face_up: true,
                });
            }
        }
    }
    let names: Vec<String> = now.iter().map(|c| c.name.clone()).collect();
    day.state.map_chits.insert(tile.to_string(), now);
    if revealed.is_empty() {
        return;
    }
    day.emit(
        Observers::Everyone,
        Happening::Arrival(ArrivalEvent::ChitsRevealed {
            tile: tile.to_string(),
            chits: revealed,
        }),
    );
    for name in names {
        let Some(dwelling) = day
            .data
            .chits
            .warning
            .iter()
            .find(|w| w.name == name)
            .and_then(|w| w.dwelling)
        else {
            continue;
        };
        let clearing = ClearingId::new(tile, CAMPFIRE_CLEARING);
        if day.state.dwellings.contains_key(&dwelling)
            || day.state.board.clearing(&clearing).is_none()
        {
            continue;
        }
        day.state.dwellings.insert(dwelling, clearing.clone());
        day.emit(
            Observers::Everyone,
            Happening::Arrival(ArrivalEvent::DwellingAppears {
                dwelling: dwelling.label().to_string(),
                clearing,
            }),
        );
    }
}

/// Put `counters` into `clearing`, say so to those there, and block the
/// unhidden characters there.
fn arrive(day: &mut Day<'_>, counters: Vec<String>, clearing: &ClearingId, cause: String) {
    if counters.is_empty() {
        return;
    }
    for id in &counters {
        if let Some(d) = day.state.denizens.get_mut(id) {
            d.at = Whereabouts::Clearing {
                clearing: clearing.clone(),
            };
        }
    }
    let observers = Observers::Players(day.players_in(clearing));
    let first = counters[0].clone();
    let monsters_came = counters
        .iter()
        .any(|id| day.state.denizens.get(id).map(|d| d.kind) == Some(DenizenKind::Monster));
    day.emit(
        observers,
        Happening::Arrival(ArrivalEvent::Arrived {
            clearing: clearing.clone(),
            counters,
            cause,
        }),
    );
    if !monsters_came {
        return;
    }
    let unhidden: Vec<usize> = (0..day.state.characters.len())
        .filter(|&i| {
            let c = &day.state.characters[i];
            &c.position == clearing && !c.hidden
        })
        .collect();
    for i in unhidden {
        day.today.blocking_monsters.insert(first.clone());
        blocking::block(day, &first, None, i);
    }
    // Unhidden hired leaders standing there, outside their own turn.
    let leaders: Vec<(String, usize)> = super::hired_leaders::hired_leaders_in(day, clearing)
        .into_iter()
        .filter(|(id, _)| !day.state.leaders.get(id).is_some_and(|l| l.hidden))
        .collect();
    for (leader, employer) in leaders {
        day.today.blocking_monsters.insert(first.clone());
        blocking::block_leader(day, &first, &leader, employer);
    }
}

/// Counters that stand in `where_`.
fn counters_at(day: &Day<'_>, where_: &Whereabouts) -> Vec<String> {
    day.state
        .denizens
        .iter()
        .filter(|(_, d)| &d.at == where_)
        .map(|(id, _)| id.clone())
        .collect()
}

fn prowlers_come(day: &mut Day<'_>, here: &ClearingId) {
    let row = day.today.prowling_row;
    let movers: Vec<String> = day
        .state
        .denizens
        .iter()
        .filter(|(id, d)| {
            matches!(&d.at, Whereabouts::Clearing { clearing } if clearing.tile == here.tile && clearing != here)
                && !day.today.blocking_monsters.contains(*id)
                && prowls(day.data, row, id)
        })
        .map(|(id, _)| id.clone())
        .collect();
    arrive(day, movers, here, "prowling".into());
}

fn natives_come(day: &mut Day<'_>, here: &ClearingId) {
    let row = day.today.prowling_row;
    let dwellings: Vec<_> = day
        .state
        .dwellings
        .iter()
        .filter(|(_, c)| *c == here)
        .map(|(d, _)| *d)
        .collect();
    for group in day
        .data
        .natives
        .iter()
        .filter(|g| g.row == row && g.garrison.is_none())
    {
        if !group.appears_at.iter().any(|d| dwellings.contains(d)) {
            continue;
        }
        let members = counters_at(
            day,
            &Whereabouts::SetupBox {
                name: group.name.clone(),
            },
        );
        arrive(
            day,
            members,
            here,
            format!("the {} come to the dwelling", group.name),
        );
    }
}

fn guardians_come(day: &mut Day<'_>, tile: &str) {
    let row = day.today.prowling_row;
    for name in day.state.face_up_chits(tile) {
        let Some(site) = day.data.chits.site(&name) else {
            continue;
        };
        let on_row = day
            .data
            .setup_card
            .site_box
            .iter()
            .any(|b| b.site == site.name && b.row == row);
        if !on_row || day.today.summoned_by.contains(&name) {
            continue;
        }
        day.today.summoned_by.insert(name.clone());
        let guardians = counters_at(
            day,
            &Whereabouts::Guarding {
                site: site.name.clone(),
            },
        );
        let clearing = ClearingId::new(tile, site.clearing);
        arrive(
            day,
            guardians,
            &clearing,
            format!("guardian of the {}", site.name),
        );
    }
}

/// The counters of the first non-empty box of the row that answers `word`
/// in a tile of `group`.
fn summoned_box(
    day: &Day<'_>,
    word: ChitWord,
    group: crate::data::terms::TileGroup,
) -> Vec<String> {
    let row = day.today.prowling_row;
    day.data
        .setup_card
        .monster_box
        .iter()
        .filter(|b| b.row == row && b.summoned_by.iter().any(|m| m.matches(word, group)))
        .map(|b| {
            counters_at(
                day,
                &Whereabouts::SetupBox {
                    name: b.name.clone(),
                },
            )
        })
        .find(|c| !c.is_empty())
        .unwrap_or_default()
}

fn warnings_summon(day: &mut Day<'_>, here: &ClearingId) {
    for name in day.state.face_up_chits(&here.tile) {
        let Some(warning) = day.data.chits.warning.iter().find(|w| w.name == name) else {
            continue;
        };
        if day.today.summoned_by.contains(&name) {
            continue;
        }
        let counters = summoned_box(day, ChitWord::Warning(warning.warning), warning.tiles);
        if counters.is_empty() {
            continue;
        }
        day.today.summoned_by.insert(name.clone());
        arrive(day, counters, here, format!("summoned by {name}"));
    }
}

fn sounds_summon(day: &mut Day<'_>, tile: &str) {
    let Some(group) = day.state.board.tile(tile).map(|t| t.group) else {
        return;
    };
    let mut sounds: Vec<_> = day
        .state
        .face_up_chits(tile)
        .into_iter()
        .filter_map(|name| day.data.chits.sound.iter().find(|s| s.name == name))
        .collect();
    sounds.sort_by_key(|s| s.clearing);
    for sound in sounds {
        if day.today.summoned_by.contains(&sound.name) {
            continue;
        }
        let clearing = ClearingId::new(tile, sound.clearing);
        if day.state.board.clearing(&clearing).is_none() {
            continue;
        }
        let counters = summoned_box(day, ChitWord::Sound(sound.sound), group);
        if counters.is_empty() {
            continue;
        }
        day.today.summoned_by.insert(sound.name.clone());
        arrive(
            day,
            counters,
            &clearing,
            format!("summoned by {}", sound.name),
        );
    }
}
