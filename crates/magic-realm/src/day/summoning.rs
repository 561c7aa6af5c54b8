//! The end of an individual's turn (3.1 7.13.2-7.13.5), in the rulebook's
//! order: the prowling monsters already in his tile come to his clearing
//! (7.13.2a), the map chits of his tile turn face up (7.13.2b; the Lost
//! City and Castle give up their five chits) and Smoke and Stink show
//! their campfires (7.13.2c), then the chits summon (7.13.3): Warnings into
//! his clearing first, then Sounds, lowest number first, into their
//! numbered clearings, then sites release their guardians; then the
//! row's roving natives come to a dwelling in his clearing (7.13.4) and
//! visitor and campaign chits to their leader or site there (7.13.5).
//! Only the first individual to end his turn with a chit face up makes it
//! summon that day (7.13.3b.2); arrivals block unhidden characters.
//!
//! Two Realms combined (3.1 10.E.7.5.1): a map chit or dwelling summons
//! only from its own game's setup card, and a warning chit shows its own
//! game's dwelling, garrison and ghosts; the one Monster Roll (7.5) sets
//! both cards' rows prowling.

use realmgm_core::game::Observers;

use super::Day;
use super::blocking;
use super::events::{ArrivalEvent, Happening};
use crate::abilities;
use crate::board::ClearingId;
use crate::board::layout::FIRST_TILE;
use crate::data::GameData;
use crate::data::characters::{Advantage, SummonChit};
use crate::data::realms::{Realm, printed};
use crate::data::setup_card::ChitWord;
use crate::data::terms::{Dwelling, TileGroup};
use crate::data::tiles::PathKind;
use crate::setup::{DWELLING_CLEARING, GHOSTS_BOX};
use crate::state::{DenizenKind, MapChit, Whereabouts};

/// The rule that keeps a hidden character's tile chits face down.
const QUIET_MONSTERS: &str = "quiet_monsters";
/// Where a campfire goes, in order of preference: the first of these
/// clearings that connects to the Borderland by road (3.1 7.13.2c).
const CAMPFIRE_CLEARINGS: [u8; 3] = [5, 4, 2];

/// Whether the counter prowls today: monsters of the rolled row and the
/// ghosts, and the roving native groups of the row (garrisons never leave
/// their dwelling).
pub fn prowls(data: &GameData, row: u8, id: &str) -> bool {
    if let Some(monster) = data.monster_of(id) {
        return monster.prowls_daily || monster.row == Some(row);
    }
    data.native_group_of(id)
        .is_some_and(|g| g.row == row && g.garrison.is_none())
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
    let before = day.events.len();
    prowlers_come(day, &here);
    let quiet = day.rules.is_on(QUIET_MONSTERS) && day.state.characters[who].hidden;
    if !quiet {
        reveal_tile(day, &here.tile);
    }
    let seen = day.state.face_up_chits(&here.tile);
    for &i in std::iter::once(&who).chain(followers) {
        let known = &mut day.state.characters[i].discoveries.chits_seen;
        known.extend(seen.iter().cloned());
    }
    // Chits face up when an earlier individual ended his turn today have
    // summoned all they may (3.1 7.13.2d, 7.13.3b.2).
    let fresh: Vec<String> = seen
        .iter()
        .filter(|name| !day.today.summoned_by.contains(*name))
        .cloned()
        .collect();
    day.today.summoned_by.extend(seen);
    let advantages = abilities::advantages(day.data, day.rules, &day.state.characters[who]);
    let peace_with_nature = crate::magic::influence::peace_with_nature(&day.state, who);
    let immune = |kind| {
        (peace_with_nature && matches!(kind, SummonChit::Warning | SummonChit::Sound))
            || advantages
                .iter()
                .any(|a| matches!(a, Advantage::NotSummonedBy { chits } if chits.contains(&kind)))
    };
    if !immune(SummonChit::Warning) {
        warnings_summon(day, &here, &fresh);
    }
    if !immune(SummonChit::Sound) {
        sounds_summon(day, &here.tile, &fresh);
    }
    if !immune(SummonChit::Site) {
        guardians_come(day, &here.tile, &fresh);
    }
    natives_come(day, &here);
    super::visitors::end_of_turn(day, who);
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
        let realm = Realm::of_name(&name);
        let chit = printed(&name);
        let Some(warning) = day.data.chits.warning.iter().find(|w| w.name == chit) else {
            continue;
        };
        // A Valley chit turns up in play only under Solitaire Play: its
        // dwelling and ghosts come where setup would have put them (3.1
        // 10.E.1.5).
        let in_valley = warning.tiles == TileGroup::Valley;
        let Some(clearing) = (if in_valley {
            Some(ClearingId::new(tile, DWELLING_CLEARING))
                .filter(|c| day.state.board.clearing(c).is_some())
        } else {
            campfire_clearing(day, tile)
        }) else {
            continue;
        };
        if let Some(dwelling) = warning.dwelling
            && !day.state.dwellings_of(realm).contains_key(&dwelling)
        {
            day.state
                .dwellings_of_mut(realm)
                .insert(dwelling, clearing.clone());
            day.emit(
                Observers::Everyone,
                Happening::Arrival(ArrivalEvent::DwellingAppears {
                    dwelling: realm.mark(dwelling.label()),
                    clearing: clearing.clone(),
                    in_valley,
                }),
            );
            garrison_comes(day, realm, dwelling, &clearing);
        }
        if in_valley && warning.ghosts > 0 {
            let ghosts = counters_at(
                day,
                &Whereabouts::SetupBox {
                    name: realm.mark(GHOSTS_BOX),
                },
            );
            arrive(day, ghosts, &clearing, format!("the ghosts of {name}"));
        }
    }
}

/// The natives of `realm` who live at `dwelling`, waiting off the map while
/// its chit was face down, come to it as it appears (3.1 10.E.1.5).
fn garrison_comes(day: &mut Day<'_>, realm: Realm, dwelling: Dwelling, clearing: &ClearingId) {
    let data = day.data;
    for group in data.natives.iter().filter(|g| g.garrison == Some(dwelling)) {
        let group = realm.mark(&group.name);
        group_arrives(
            day,
            &group,
            clearing,
            format!("the {group} live at the {}", realm.mark(dwelling.label())),
        );
    }
}

/// The clearing of `tile` a campfire goes to: 5, else 4, else 2, the first
/// that reaches the Borderland by roads anyone may walk, on the sides of
/// the tiles face up now (3.1 7.13.2c). Ruling: hidden paths and secret
/// passages are not roads for this, as no one need have found them;
/// clearing 2 takes it even unconnected, the rule naming no other.
fn campfire_clearing(day: &Day<'_>, tile: &str) -> Option<ClearingId> {
    let board = &day.state.board;
    let open = |kind| matches!(kind, PathKind::Normal | PathKind::Cave);
    let candidates: Vec<ClearingId> = CAMPFIRE_CLEARINGS
        .iter()
        .map(|&n| ClearingId::new(tile, n))
        .filter(|c| board.clearing(c).is_some())
        .collect();
    candidates
        .iter()
        .find(|c| board.reaches_tile(c, FIRST_TILE, open))
        .or(candidates.last())
        .cloned()
}

/// Put `counters` into `clearing`, say so to those there, and block the
/// unhidden characters there (3.1 7.12.3a).
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
        // Mist cannot be blocked (3.1 4.6.9c.2).
        .filter(|&i| !blocking::in_mist(day, i))
        .collect();
    for i in unhidden {
        day.today.blocking_monsters.insert(first.clone());
        blocking::block(day, &first, None, i);
    }
    // Unhidden hired leaders standing there, outside their own turn.
    let leaders: Vec<(String, usize)> = super::hired_leaders::hired_leaders_in(day, clearing)
        .into_iter()
        .filter(|(id, _)| !day.state.leaders.get(id).is_some_and(|l| l.hidden))
        .filter(|(id, _)| !crate::magic::transmorph::is_mist(&day.state, id))
        .collect();
    for (leader, employer) in leaders {
        day.today.blocking_monsters.insert(first.clone());
        blocking::block_leader(day, &first, &leader, employer);
    }
}

/// Counters that stand in `where_`.
/// A native group's members still in its setup box come to `clearing`.
fn group_arrives(day: &mut Day<'_>, group: &str, clearing: &ClearingId, cause: String) {
    let members = counters_at(
        day,
        &Whereabouts::SetupBox {
            name: group.to_string(),
        },
    );
    arrive(day, members, clearing, cause);
}

fn counters_at(day: &Day<'_>, where_: &Whereabouts) -> Vec<String> {
    day.state
        .denizens
        .iter()
        .filter(|(_, d)| &d.at == where_)
        .map(|(id, _)| id.clone())
        .collect()
}

fn prowlers_come(day: &mut Day<'_>, here: &ClearingId) {
    let movers: Vec<String> = day
        .state
        .denizens
        .iter()
        .filter(|(id, d)| {
            // Only monsters move once on the map, and hired or
            // controlled ones only at their master's word (3.1 7.13.2a,
            // 7.13.3e).
            d.kind == DenizenKind::Monster
                && matches!(&d.at, Whereabouts::Clearing { clearing } if clearing.tile == here.tile && clearing != here)
                && day.state.employer_of(id).is_none()
                && !crate::magic::influence::controlled(&day.state, id)
                && !day.today.blocking_monsters.contains(*id)
                && day.today.prowling_rows().any(|row| prowls(day.data, row, id))
        })
        .map(|(id, _)| id.clone())
        .collect();
    arrive(day, movers, here, "prowling".into());
}

/// The roving natives of the prowling rows come to a dwelling here, each
/// game's to its own game's dwellings (3.1 10.E.7.5.1).
fn natives_come(day: &mut Day<'_>, here: &ClearingId) {
    let rows: Vec<u8> = day.today.prowling_rows().collect();
    for realm in Realm::ALL {
        let dwellings: Vec<_> = day
            .state
            .dwellings_of(realm)
            .iter()
            .filter(|(_, c)| *c == here)
            .map(|(d, _)| *d)
            .collect();
        for group in day
            .data
            .natives
            .iter()
            .filter(|g| rows.contains(&g.row) && g.garrison.is_none())
        {
            if !group.appears_at.iter().any(|d| dwellings.contains(d)) {
                continue;
            }
            let group = realm.mark(&group.name);
            group_arrives(
                day,
                &group,
                here,
                format!("the {group} come to the dwelling"),
            );
        }
    }
}

fn guardians_come(day: &mut Day<'_>, tile: &str, fresh: &[String]) {
    for name in fresh {
        let Some(site) = day.data.chits.site(&printed(name)) else {
            continue;
        };
        let on_row = day
            .data
            .setup_card
            .site_box
            .iter()
            .any(|b| b.site == site.name && day.today.prowls_row(b.row));
        if !on_row {
            continue;
        }
        // The site's own game's guardian (3.1 10.E.7.5.1).
        let guardians = counters_at(day, &Whereabouts::Guarding { site: name.clone() });
        let clearing = ClearingId::new(tile, site.clearing);
        arrive(day, guardians, &clearing, format!("guardian of the {name}"));
    }
}

/// The counters of the first non-empty box of `realm`'s card that answers
/// `word` in a tile of `group`, in each prowling row (a solitaire player's
/// two rows both answer, 3.1 10.E.1.7; a chit summons only from its own
/// game's card, 10.E.7.5.1).
fn summoned_box(day: &Day<'_>, realm: Realm, word: ChitWord, group: TileGroup) -> Vec<String> {
    day.today
        .prowling_rows()
        .flat_map(|row| {
            day.data
                .setup_card
                .monster_box
                .iter()
                .filter(|b| b.row == row && b.summoned_by.iter().any(|m| m.matches(word, group)))
                .map(|b| {
                    counters_at(
                        day,
                        &Whereabouts::SetupBox {
                            name: realm.mark(&b.name),
                        },
                    )
                })
                .find(|c| !c.is_empty())
                .unwrap_or_default()
        })
        .collect()
}

fn warnings_summon(day: &mut Day<'_>, here: &ClearingId, fresh: &[String]) {
    for name in fresh {
        let chit = printed(name);
        let Some(warning) = day.data.chits.warning.iter().find(|w| w.name == chit) else {
            continue;
        };
        let realm = Realm::of_name(name);
        let counters = summoned_box(
            day,
            realm,
            ChitWord::Warning(warning.warning),
            warning.tiles,
        );
        arrive(day, counters, here, format!("summoned by {name}"));
    }
}

fn sounds_summon(day: &mut Day<'_>, tile: &str, fresh: &[String]) {
    let Some(group) = day.state.board.tile(tile).map(|t| t.group) else {
        return;
    };
    let mut sounds: Vec<_> = fresh
        .iter()
        .filter_map(|name| {
            let chit = printed(name);
            let sound = day.data.chits.sound.iter().find(|s| s.name == chit)?;
            Some((name, sound))
        })
        .collect();
    // Lower numbers summon first (3.1 7.13.3c.2).
    sounds.sort_by_key(|(_, s)| s.clearing);
    for (name, sound) in sounds {
        let clearing = ClearingId::new(tile, sound.clearing);
        if day.state.board.clearing(&clearing).is_none() {
            continue;
        }
        let realm = Realm::of_name(name);
        let counters = summoned_box(day, realm, ChitWord::Sound(sound.sound), group);
        arrive(day, counters, &clearing, format!("summoned by {name}"));
    }
}
