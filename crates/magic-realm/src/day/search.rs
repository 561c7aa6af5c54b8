//! The Search activity (play summary II.C.5; `tables/search.rs`): one roll on the
//! table the character's `Search:` instruction names, and its result put on
//! the state — map chits seen, hidden paths and secret passages found,
//! hidden enemies found for the day, site chits discovered, and Loot taken
//! from a discovered site or a clearing's abandoned pile.
//!
//! Rulings (the orders cannot express a choice): a Choice result gives
//! Clues and Paths on Peer and Discover Chits on Locate and Magic Sight.
//! Magic Sight (3.1 7.5.7) comes from the Witch King's Disembodied, an
//! active Phantom Glass and the World Fades spell: under one cause, or all
//! three, he searches on the Magic Sight table whatever table he named;
//! two cancel, and he uses the others. Looted items
//! are kept inactive unless a `Take:` line names them with `activate`.
//! Reading Runes and the curses of found treasures are done by the magic
//! rules (`magic::runes`), and so is Magic Sight's Perceive Spell. Treasure
//! sites found in a pile are searched on their own tables (`treasure_sites`).
//! A character under the Eyemist curse cannot search; nobody in a tile under
//! Fog can use the Peer table.

use serde::{Deserialize, Serialize};

use super::events::Happening;
use super::{Day, PhaseOutcome, modifiers};
use crate::board::ClearingId;
use crate::data::characters::{ActionChit, Advantage, ChitAction};
use crate::data::chits::SiteAccess;
use crate::data::realms::Realm;
use crate::data::terms::{Roll, Strength};
use crate::data::tiles::{ClearingKind, PathKind};
use crate::data::treasures::{Treasure, TreasureEffect};
use crate::day::refusal::PhaseError;
use crate::orders::{SearchTable, Take};
use crate::state::SightOf;
use crate::state::{Belonging, ChitCondition, Discoveries, Item, ItemKind, abandoned_pile};
use crate::tables::search::{
    Locate, LocateResult, Loot, MagicSight, MagicSightResult, Peer, PeerResult, SearchChoice,
};
use crate::tables::{DieTable, TableRoll, read_roll};
use realmgm_core::game::Observers;

/// What a search did, for the GM log and the reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum SearchEvent {
    /// The table roll read: dice, modifiers, row and meaning.
    Rolled {
        character: String,
        line: String,
    },
    /// A Choice row, and the option the engine took for him.
    Chose {
        character: String,
        choice: SearchChoice,
    },
    /// Clues: he looked at every map chit of the tile.
    SawChits {
        character: String,
        tile: String,
        chits: Vec<String>,
    },
    /// Magic Sight: he sees the hidden enemies owning `sight` today.
    SeesHiddenOwning {
        character: String,
        sight: SightOf,
    },
    FoundHiddenEnemies {
        character: String,
    },
    /// Hidden paths or secret passages from the searched clearing.
    FoundRoutes {
        character: String,
        kind: PathKind,
        routes: Vec<(ClearingId, ClearingId)>,
    },
    /// Site chits of the clearing he now knows (also those who saw him loot).
    DiscoveredSites {
        character: String,
        sites: Vec<String>,
    },
    /// Something paid to search a site (a fatigued chit).
    Paid {
        character: String,
        what: String,
    },
    Looted {
        character: String,
        from: String,
        item: Item,
        active: bool,
    },
    /// The roll asked for an item deeper than the pile.
    FoundNothing {
        character: String,
        from: String,
        from_top: u8,
        pile: usize,
    },
    /// Gold recorded from a found treasure.
    GoldFound {
        character: String,
        source: String,
        gold: u16,
    },
    /// Items put on top of the pile by a found treasure.
    ContentsToPile {
        from: String,
        items: Vec<Item>,
    },
    /// A rule result the engine does not apply yet, said plainly.
    NotApplied {
        character: String,
        what: String,
        reason: String,
    },
}

/// Search with the table `table`; looted items stay inactive. See
/// [`search_taking`] to honour the `Take:` instruction.
pub fn search(day: &mut Day<'_>, who: usize, table: &SearchTable) -> PhaseOutcome {
    search_taking(day, who, table, &[])
}

/// Search with `table`; an item looted that a `Take:` entry names with
/// `activate` is activated.
pub fn search_taking(
    day: &mut Day<'_>,
    who: usize,
    table: &SearchTable,
    takes: &[Take],
) -> PhaseOutcome {
    search_ordered(day, who, table, takes, None)
}

/// Search with `table`, honouring `Take:` and, for a treasure site's
/// teleport row, the `Teleport:` clearing (tile name, number).
pub fn search_ordered(
    day: &mut Day<'_>,
    who: usize,
    table: &SearchTable,
    takes: &[Take],
    teleport: Option<&(String, u8)>,
) -> PhaseOutcome {
    let Some(character) = day.state.characters.get(who) else {
        return lost(format!("there is no character number {who} in this game"));
    };
    let name = character.name.clone();
    if let Some(reason) = crate::magic::curses::forbids_search(character) {
        return lost(reason);
    }
    let causes = magic_sight_causes(day, who);
    // An odd number of causes forces Magic Sight; two cancel (3.1 7.5.7b).
    let forced = causes % 2 == 1;
    // A Treasures Within Treasures site card keeps its own table (7.5.7a).
    let own_table = *table == SearchTable::Loot && treasure_site_to_loot(day, who).is_some();
    let table = if forced && !own_table && *table != SearchTable::MagicSight {
        day.emit(
            day.only(who),
            Happening::Search(SearchEvent::NotApplied {
                character: name.clone(),
                what: format!("the {} search", table_label(table)),
                reason: "Magic Sight allows only its own table, so it is used instead (3.1 7.5.7)"
                    .into(),
            }),
        );
        &SearchTable::MagicSight
    } else {
        table
    };
    match table {
        SearchTable::Peer { tile, clearing } => {
            let here = day.state.characters[who].position.tile.clone();
            peer(day, who, &here, |day| {
                peer_target(day, who, tile.as_deref(), *clearing)
            })
        }
        SearchTable::Locate => {
            let roll = roll_table(day, who, &Locate, Roll::Locate, "locate");
            let here = day.state.characters[who].position.clone();
            match roll.result {
                LocateResult::Choice => choose(day, who, SearchChoice::DiscoverChits),
                LocateResult::PassagesAndClues => {
                    find_routes(day, who, &here, PathKind::Secret);
                    see_chits(day, who, &here.tile);
                }
                LocateResult::Passages => find_routes(day, who, &here, PathKind::Secret),
                LocateResult::DiscoverChits => discover_sites(day, who),
                LocateResult::Nothing => {}
            }
            PhaseOutcome::Done
        }
        SearchTable::Loot => loot(day, who, takes, teleport),
        SearchTable::ReadingRunes => crate::day::runes::read_runes(day, who),
        SearchTable::MagicSight => {
            if !forced {
                let why = if causes == 0 {
                    format!(
                        "only a character with Magic Sight (the Witch King, an active Phantom \
                         Glass, the World Fades spell) searches on the Magic Sight table, and \
                         the {name} has none"
                    )
                } else {
                    format!(
                        "the {name}'s {causes} causes of Magic Sight cancel each other out, so the \
                         search is on the other tables (3.1 7.5.7b)"
                    )
                };
                return lost(why);
            }
            let roll = roll_table(day, who, &MagicSight, Roll::MagicSight, "magic sight");
            apply_magic_sight(day, who, roll.result, takes);
            PhaseOutcome::Done
        }
    }
}

/// How many causes of Magic Sight he is under: the Disembodied advantage,
/// an active Phantom Glass, the World Fades spell (3.1 7.5.7).
fn magic_sight_causes(day: &Day<'_>, who: usize) -> usize {
    [
        has_advantage(day, who, |a| matches!(a, Advantage::SearchesByMagicSight)),
        has_active_effect(day, who, |e| *e == TreasureEffect::MagicSight),
        crate::magic::influence::world_fades(&day.state, who),
    ]
    .into_iter()
    .filter(|&cause| cause)
    .count()
}

fn table_label(table: &SearchTable) -> &'static str {
    match table {
        SearchTable::Peer { .. } => "Peer",
        SearchTable::Locate => "Locate",
        SearchTable::Loot => "Loot",
        SearchTable::MagicSight => "Magic Sight",
        SearchTable::ReadingRunes => "Reading Runes",
    }
}

fn lost(reason: String) -> PhaseOutcome {
    PhaseOutcome::Lost { reason }
}

fn has_advantage(day: &Day<'_>, who: usize, wanted: impl Fn(&Advantage) -> bool) -> bool {
    crate::abilities::in_force(day.data, day.rules, &day.state.characters[who])
        .iter()
        .any(|a| a.effects.iter().any(&wanted))
}

pub(super) fn has_active_effect(
    day: &Day<'_>,
    who: usize,
    wanted: impl Fn(&TreasureEffect) -> bool,
) -> bool {
    active_treasures(day, who).any(|(_, t)| t.effects.iter().any(&wanted))
}

/// The active Treasure cards `who` carries, each with its card's data.
fn active_treasures<'a>(
    day: &'a Day<'_>,
    who: usize,
) -> impl Iterator<Item = (&'a Item, &'a Treasure)> + 'a {
    let data = day.data;
    day.state.characters[who]
        .belongings
        .iter()
        .filter(|b| b.active && b.item.kind == ItemKind::Treasure)
        .filter_map(move |b| Some((&b.item, data.treasure(&b.item.name)?)))
}

/// Roll on a search table through the day's dice (the roll is an event the
/// searcher sees) and report the row.
pub fn roll_table<T: DieTable>(
    day: &mut Day<'_>,
    who: usize,
    table: &T,
    kind: Roll,
    label: &str,
) -> TableRoll<T::Outcome>
where
    T::Outcome: std::fmt::Display,
{
    let mods = modifiers::for_roll(day, who, kind);
    let name = day.state.characters[who].name.clone();
    let observers = day.only(who);
    let record = day.roll(
        &format!("search/{name}/{label}"),
        mods.dice_count(),
        observers.clone(),
    );
    let roll = read_roll(table, record, &mods);
    day.emit(
        observers,
        Happening::Search(SearchEvent::Rolled {
            character: name,
            line: roll.describe(),
        }),
    );
    roll
}

/// A Peer from tile `from` into the clearing `target` finds, unless Fog on
/// that tile or the weather forbids the Peer table.
fn peer(
    day: &mut Day<'_>,
    who: usize,
    from: &str,
    target: impl FnOnce(&Day<'_>) -> Result<ClearingId, PhaseError>,
) -> PhaseOutcome {
    if crate::magic::cast::fogged(&day.state, from) {
        return lost(format!(
            "Fog lies on tile {from}: nobody there can use the Peer table today"
        ));
    }
    if let Some(reason) = super::weather::forbids_peer(day) {
        return lost(reason);
    }
    let target = match target(day) {
        Ok(target) => target,
        Err(reason) => return lost(reason.to_string()),
    };
    let roll = roll_table(day, who, &Peer, Roll::Peer, "peer");
    apply_peer(day, who, &target, roll.result);
    PhaseOutcome::Done
}

/// The enhanced Peer of one flying over tile `over` (3.1 10.A.3, Flying
/// Activities): the Peer table on the clearing his `Search:` line names,
/// any clearing but a cave on that tile or a tile next to it. Magic Sight
/// does not touch it (7.5.7a).
pub fn peer_from_the_air(
    day: &mut Day<'_>,
    who: usize,
    over: &str,
    table: &SearchTable,
) -> PhaseOutcome {
    let SearchTable::Peer {
        tile: Some(tile),
        clearing: Some(clearing),
    } = table
    else {
        return lost(
            "in flight a Search can only Peer into a clearing the Search: line names (Search: \
             peer <tile> <clearing>); any other search needs a landing first"
                .into(),
        );
    };
    peer(day, who, over, |day| {
        let target = named_clearing(day, tile, *clearing)?;
        if target.tile != over && !tiles_adjacent(day, over, &target.tile) {
            return Err(format!(
                "{target} is neither on {over}, the tile below the flight, nor on a tile next to it"
            )
            .into());
        }
        if day.state.board.clearing(&target).map(|c| c.kind) == Some(ClearingKind::Cave) {
            return Err(format!("{target} is a cave clearing, which cannot be peered into").into());
        }
        Ok(target)
    })
}

/// The clearing `number` of the tile `tile` names, on the map.
fn named_clearing(day: &Day<'_>, tile: &str, number: u8) -> Result<ClearingId, PhaseError> {
    let code = day
        .data
        .tiles
        .resolve(tile)
        .map(|t| t.code.clone())
        .ok_or_else(|| format!("there is no tile '{tile}' to peer into"))?;
    let target = ClearingId::new(&code, number);
    if day.state.board.clearing(&target).is_none() {
        return Err(format!("{target} is not a clearing on the map").into());
    }
    Ok(target)
}

/// Whether tiles `a` and `b` lie next to each other on the map.
fn tiles_adjacent(day: &Day<'_>, a: &str, b: &str) -> bool {
    let board = &day.state.board;
    match (board.placement_of(a), board.placement_of(b)) {
        (Some(from), Some(to)) => crate::data::tiles::Edge::ALL
            .iter()
            .any(|&e| from.at.neighbour(e) == to.at),
        _ => false,
    }
}

/// The clearing a Peer looks into: his own, or from a mountain clearing a
/// clearing that is not a cave in his own tile or an adjacent one (3.1
/// 7.5.4b).
fn peer_target(
    day: &Day<'_>,
    who: usize,
    tile: Option<&str>,
    clearing: Option<u8>,
) -> Result<ClearingId, PhaseError> {
    let here = day.state.characters[who].position.clone();
    let (Some(tile), Some(number)) = (tile, clearing) else {
        return Ok(here);
    };
    let target = named_clearing(day, tile, number)?;
    if target == here {
        return Ok(here);
    }
    let board = &day.state.board;
    let kind = board.clearing(&target).map(|c| c.kind);
    // The Toadstool Circle's gift: any clearing today (`tables/twt.rs`).
    if day.today.peer_anywhere.contains(&who) {
        return Ok(target);
    }
    if board.clearing(&here).map(|c| c.kind) != Some(ClearingKind::Mountain) {
        return Err(format!(
            "peering into {target} needs a mountain clearing, and {here} is not one"
        )
        .into());
    }
    if target.tile != here.tile && !tiles_adjacent(day, &here.tile, &target.tile) {
        return Err(format!(
            "{target} is neither on {} nor on a tile next to it, so it cannot be peered into",
            here.tile
        )
        .into());
    }
    if kind == Some(ClearingKind::Cave) {
        return Err(format!("{target} is a cave clearing, which cannot be peered into").into());
    }
    Ok(target)
}

fn apply_peer(day: &mut Day<'_>, who: usize, target: &ClearingId, result: PeerResult) {
    match result {
        PeerResult::Choice => {
            day.emit(
                day.only(who),
                Happening::Search(SearchEvent::Chose {
                    character: day.state.characters[who].name.clone(),
                    choice: SearchChoice::CluesAndPaths,
                }),
            );
            see_chits(day, who, &target.tile);
            find_routes(day, who, target, PathKind::Hidden);
        }
        PeerResult::CluesAndPaths => {
            see_chits(day, who, &target.tile);
            find_routes(day, who, target, PathKind::Hidden);
        }
        PeerResult::HiddenEnemiesAndPaths => {
            find_hidden_enemies(day, who);
            find_routes(day, who, target, PathKind::Hidden);
        }
        PeerResult::HiddenEnemies => find_hidden_enemies(day, who),
        PeerResult::Clues => see_chits(day, who, &target.tile),
        PeerResult::Nothing => {}
    }
}

fn apply_magic_sight(day: &mut Day<'_>, who: usize, result: MagicSightResult, takes: &[Take]) {
    let name = day.state.characters[who].name.clone();
    match result {
        MagicSightResult::Choice => choose(day, who, SearchChoice::DiscoverChits),
        MagicSightResult::Counters | MagicSightResult::TreasureCards => {
            let cards = result == MagicSightResult::TreasureCards;
            let sight = if cards {
                SightOf::TreasureCards
            } else {
                SightOf::Counters
            };
            see_by_magic_sight(day, who, name, sight);
            let piles = discovered_sites_here(day, who);
            let found = piles.iter().find_map(|site| {
                let pile = day.state.holdings.get(site)?;
                let index = pile.iter().position(|i| {
                    if cards {
                        i.kind == ItemKind::Treasure
                    } else {
                        matches!(i.kind, ItemKind::Weapon | ItemKind::Armor | ItemKind::Horse)
                    }
                })?;
                Some((site.clone(), index))
            });
            if let Some((site, index)) = found {
                take_item(day, who, &site, index, takes, day.only(who));
            }
        }
        MagicSightResult::PerceiveSpell => {
            see_by_magic_sight(day, who, name, SightOf::Spells);
            crate::day::runes::perceive(day, who);
        }
        MagicSightResult::DiscoverChits => discover_sites(day, who),
        MagicSightResult::Nothing => {}
    }
}

/// For the rest of the day he sees the hidden enemies who own what `sight`
/// names, to spy on and block them (3.1 7.5.7c).
fn see_by_magic_sight(day: &mut Day<'_>, who: usize, name: String, sight: SightOf) {
    let sights = &mut day.state.characters[who].magic_sight;
    if !sights.contains(&sight) {
        sights.push(sight);
    }
    let event = SearchEvent::SeesHiddenOwning {
        character: name,
        sight,
    };
    day.emit(day.only(who), Happening::Search(event));
}

/// Apply a Choice row as the option `choice`.
fn choose(day: &mut Day<'_>, who: usize, choice: SearchChoice) {
    day.emit(
        day.only(who),
        Happening::Search(SearchEvent::Chose {
            character: day.state.characters[who].name.clone(),
            choice,
        }),
    );
    let here = day.state.characters[who].position.clone();
    match choice {
        SearchChoice::CluesAndPaths => {
            see_chits(day, who, &here.tile);
            find_routes(day, who, &here, PathKind::Hidden);
        }
        SearchChoice::HiddenEnemiesAndPaths => {
            find_hidden_enemies(day, who);
            find_routes(day, who, &here, PathKind::Hidden);
        }
        SearchChoice::PassagesAndClues => {
            find_routes(day, who, &here, PathKind::Secret);
            see_chits(day, who, &here.tile);
        }
        SearchChoice::DiscoverChits => discover_sites(day, who),
    }
}

fn see_chits(day: &mut Day<'_>, who: usize, tile: &str) {
    let chits: Vec<String> = day
        .state
        .map_chits
        .get(tile)
        .map(|c| c.iter().map(|c| c.name.clone()).collect())
        .unwrap_or_default();
    let character = &mut day.state.characters[who];
    character
        .discoveries
        .chits_seen
        .extend(chits.iter().cloned());
    let event = SearchEvent::SawChits {
        character: character.name.clone(),
        tile: tile.to_string(),
        chits,
    };
    day.emit(day.only(who), Happening::Search(event));
}

fn find_hidden_enemies(day: &mut Day<'_>, who: usize) {
    let character = &mut day.state.characters[who];
    character.found_hidden_enemies = true;
    let event = SearchEvent::FoundHiddenEnemies {
        character: character.name.clone(),
    };
    day.emit(day.only(who), Happening::Search(event));
}

/// Discover every route of `kind` (hidden paths or secret passages) that
/// leaves `from`.
fn find_routes(day: &mut Day<'_>, who: usize, from: &ClearingId, kind: PathKind) {
    let routes: Vec<(ClearingId, ClearingId)> = day
        .state
        .board
        .neighbours(from)
        .into_iter()
        .filter(|link| link.kind == kind)
        .map(|link| Discoveries::route_key(from, &link.to))
        .collect();
    let character = &mut day.state.characters[who];
    character.discoveries.routes.extend(routes.iter().cloned());
    let event = SearchEvent::FoundRoutes {
        character: character.name.clone(),
        kind,
        routes,
    };
    day.emit(day.only(who), Happening::Search(event));
}

/// The site chits in the character's clearing (on his tile, numbered for
/// his clearing).
fn sites_here(day: &Day<'_>, who: usize) -> Vec<String> {
    let here = &day.state.characters[who].position;
    day.state
        .map_chits
        .get(&here.tile)
        .into_iter()
        .flatten()
        .filter(|chit| {
            day.data
                .chits
                .site(&chit.name)
                .is_some_and(|site| site.clearing == here.clearing)
        })
        .map(|chit| chit.name.clone())
        .collect()
}

pub fn discovered_sites_here(day: &Day<'_>, who: usize) -> Vec<String> {
    let known = &day.state.characters[who].discoveries.sites;
    sites_here(day, who)
        .into_iter()
        .filter(|s| known.contains(s))
        .collect()
}

fn discover_sites(day: &mut Day<'_>, who: usize) {
    let sites = sites_here(day, who);
    let character = &mut day.state.characters[who];
    character.discoveries.sites.extend(sites.iter().cloned());
    character
        .discoveries
        .chits_seen
        .extend(sites.iter().cloned());
    let event = SearchEvent::DiscoveredSites {
        character: character.name.clone(),
        sites,
    };
    day.emit(day.only(who), Happening::Search(event));
}

/// The Treasures Within Treasures site card a Loot here would search on
/// its own table: one he discovered here, when no discovered site chit here
/// holds items to loot.
fn treasure_site_to_loot(day: &Day<'_>, who: usize) -> Option<String> {
    let site = discovered_sites_here(day, who).into_iter().next();
    let site_has_items = site.as_ref().is_some_and(|s| {
        day.state
            .holdings
            .get(s)
            .is_some_and(|p| p.iter().any(|i| i.kind != ItemKind::Spell))
    });
    if site_has_items {
        return None;
    }
    super::treasure_sites::discovered_here(day, who)
}

/// Loot a discovered site in the clearing, else the abandoned pile.
fn loot(
    day: &mut Day<'_>,
    who: usize,
    takes: &[Take],
    teleport: Option<&(String, u8)>,
) -> PhaseOutcome {
    let here = day.state.characters[who].position.clone();
    let site = discovered_sites_here(day, who).into_iter().next();
    if let Some(found) = treasure_site_to_loot(day, who) {
        return super::treasure_sites::search(day, who, &found, takes, teleport);
    }
    let pile_name = match site {
        Some(site) => site,
        None => {
            let abandoned = abandoned_pile(&here);
            if day.state.holdings.get(&abandoned).is_none_or(Vec::is_empty) {
                return lost(format!(
                    "there is nothing to loot in {here}: no treasure site discovered here and \
                     no abandoned items; search with Locate first"
                ));
            }
            abandoned
        }
    };
    if let Some(access) = day.data.chits.site(&pile_name).and_then(|s| s.access)
        && let Err(reason) = pay_access(day, who, &pile_name, access)
    {
        return lost(reason.to_string());
    }
    let roll = roll_table(day, who, &Loot, Roll::Loot, "loot");
    let from_top = roll.result.from_top;
    let observers = day.seen_acting(who);
    // Those spying on him as he loots a site learn where it is (3.1
    // 4.5.6b.2).
    if day.data.chits.site(&pile_name).is_some() {
        share_site(day, who, &pile_name);
    }
    // Spells at a site are read with Reading Runes, not looted: the pile is
    // the other items, top first.
    let lootable: Vec<usize> = day
        .state
        .holdings
        .get(&pile_name)
        .into_iter()
        .flatten()
        .enumerate()
        .filter(|(_, item)| item.kind != ItemKind::Spell)
        .map(|(index, _)| index)
        .collect();
    let pile = lootable.len();
    let Some(&index) = lootable.get(usize::from(from_top).saturating_sub(1)) else {
        let event = SearchEvent::FoundNothing {
            character: day.state.characters[who].name.clone(),
            from: pile_name,
            from_top,
            pile,
        };
        day.emit(observers, Happening::Search(event));
        return PhaseOutcome::Done;
    };
    take_item(day, who, &pile_name, index, takes, observers);
    PhaseOutcome::Done
}

/// Pay what a site asks before looting it (`tables/search.rs` "Loot").
fn pay_access(
    day: &mut Day<'_>,
    who: usize,
    site: &str,
    access: SiteAccess,
) -> Result<(), PhaseError> {
    match access {
        SiteAccess::OpenWithKeyOrTremendousEffort => open_with_key_or_effort(day, who, site),
        SiteAccess::FatiguePerLoot | SiteAccess::FatigueToSearch => {
            // Ruling: the first fresh chit with an effort star, in
            // development order (the orders cannot name one).
            let character = &mut day.state.characters[who];
            let chit = character.chits.iter_mut().find(|c| {
                c.condition == ChitCondition::Active
                    && ActionChit::parse(&c.chit).is_ok_and(|a| a.effort > 0)
            });
            let Some(chit) = chit else {
                return Err(format!(
                    "searching the {site} costs one fatigued effort star, and the {} has no \
                     fresh chit with a star",
                    character.name
                )
                .into());
            };
            chit.condition = ChitCondition::Fatigued;
            let event = SearchEvent::Paid {
                character: character.name.clone(),
                what: format!("fatigued {} to search the {site}", chit.chit),
            };
            day.emit(day.only(who), Happening::Search(event));
            Ok(())
        }
    }
}

/// Open a locked site (the Vault, the Crypt of the Knight): with active
/// Lost Keys, else by a Tremendous effort (`tables/search.rs` "Loot"). Ruling:
/// the effort fatigues his first fresh MOVE or FIGHT chit of T strength
/// with an effort star, each time he searches there. With two Realms
/// combined a game's Lost Keys open only its own card's locks (3.1
/// 10.E.7.6).
pub(super) fn open_with_key_or_effort(
    day: &mut Day<'_>,
    who: usize,
    site: &str,
) -> Result<(), PhaseError> {
    let realm = Realm::of_name(site);
    let opens = active_treasures(day, who).any(|(item, t)| {
        t.effects.contains(&TreasureEffect::OpensLocks) && Realm::of_name(&item.name) == realm
    });
    if opens {
        return Ok(());
    }
    let character = &mut day.state.characters[who];
    let chit = character.chits.iter_mut().find(|c| {
        c.condition == ChitCondition::Active
            && ActionChit::parse(&c.chit).is_ok_and(|a| {
                matches!(a.action, ChitAction::Move | ChitAction::Fight)
                    && a.strength == Some(Strength::Tremendous)
                    && a.effort > 0
            })
    });
    let Some(chit) = chit else {
        return Err(format!(
            "the {site} opens only with the {} active or by fatiguing a fresh T-strength MOVE \
             or FIGHT chit, and the {} has neither",
            realm.mark("Lost Keys"),
            character.name
        )
        .into());
    };
    chit.condition = ChitCondition::Fatigued;
    let event = SearchEvent::Paid {
        character: character.name.clone(),
        what: format!("fatigued {} to open the {site}", chit.chit),
    };
    day.emit(day.only(who), Happening::Search(event));
    Ok(())
}

/// Everyone spying on the looter, characters and hired leaders, now knows
/// the site too.
fn share_site(day: &mut Day<'_>, who: usize, site: &str) {
    let here = day.state.characters[who].position.clone();
    for spy in super::spying::spies(day, who, &[&here]) {
        if day.state.characters[spy.learner]
            .discoveries
            .sites
            .insert(site.to_string())
        {
            let event = SearchEvent::DiscoveredSites {
                character: spy.name(day),
                sites: vec![site.to_string()],
            };
            day.emit(day.only(spy.learner), Happening::Search(event));
        }
    }
}

/// Move item `index` of `pile` to the character, with what finding it does.
fn take_item(
    day: &mut Day<'_>,
    who: usize,
    pile: &str,
    index: usize,
    takes: &[Take],
    observers: Observers,
) {
    let name = day.state.characters[who].name.clone();
    let Some(item) = day
        .state
        .holdings
        .get(pile)
        .and_then(|p| p.get(index))
        .cloned()
    else {
        return;
    };
    let treasure = (item.kind == ItemKind::Treasure)
        .then(|| day.data.treasure(&item.name))
        .flatten();
    if super::treasure_sites::is_site_card(day, &item) {
        // A site card stays where it is found and is searched on its own
        // table from then on.
        super::treasure_sites::found(day, who, pile, index, &observers);
        return;
    }
    if let Some(items) = day.state.holdings.get_mut(pile) {
        items.remove(index);
    }
    let active = takes_active(day, who, takes, &item);
    day.state.characters[who].belongings.push(Belonging {
        item: item.clone(),
        active,
    });
    day.emit(
        observers.clone(),
        Happening::Search(SearchEvent::Looted {
            character: name.clone(),
            from: pile.to_string(),
            item: item.clone(),
            active,
        }),
    );
    let Some(treasure) = treasure else {
        return;
    };
    let effects = &treasure.effects;
    if effects.contains(&TreasureEffect::ContentsToPile) {
        let contents = day.state.holdings.remove(&item.name).unwrap_or_default();
        if let Some(items) = day.state.holdings.get_mut(pile) {
            items.splice(0..0, contents.iter().cloned());
        } else {
            day.state
                .holdings
                .insert(pile.to_string(), contents.clone());
        }
        day.emit(
            observers.clone(),
            Happening::Search(SearchEvent::ContentsToPile {
                from: item.name.clone(),
                items: contents,
            }),
        );
    } else if let Some(within) = &treasure.within
        && !effects.contains(&TreasureEffect::NeedsKey)
    {
        // Remains of Thief: the finder takes what it holds and its gold.
        let contents = day.state.holdings.remove(&item.name).unwrap_or_default();
        for content in contents {
            let active = takes_active(day, who, takes, &content);
            day.state.characters[who].belongings.push(Belonging {
                item: content.clone(),
                active,
            });
            day.emit(
                observers.clone(),
                Happening::Search(SearchEvent::Looted {
                    character: name.clone(),
                    from: item.name.clone(),
                    item: content,
                    active,
                }),
            );
        }
        if within.gold > 0 {
            let character = &mut day.state.characters[who];
            character.gold = character.gold.saturating_add(within.gold);
            day.emit(
                observers.clone(),
                Happening::Search(SearchEvent::GoldFound {
                    character: name.clone(),
                    source: item.name.clone(),
                    gold: within.gold,
                }),
            );
        }
    }
    if effects.contains(&TreasureEffect::CurseOnFind) {
        let source = format!("the {}", item.name);
        crate::day::runes::roll_curse(day, who, &source);
    }
}

/// Whether he takes `item` active: as his `Take:` line asks, unless a
/// transmorphizing spell holds him, who must keep what he picks up
/// inactive but an Enchanted card (3.1 4.6.9b.4). What he takes then he
/// carries as the creature (`magic::transmorph`).
fn takes_active(day: &Day<'_>, who: usize, takes: &[Take], item: &Item) -> bool {
    let name = &day.state.characters[who].name;
    wants_active(takes, &item.name)
        && (crate::magic::conflicts::transmorphized(&day.state, name).is_none()
            || crate::magic::transmorph::is_enchanted_card(day.data, item.kind, &item.name))
}

/// Whether a `Take:` entry names this item (or its kind of counter, `Spear`
/// for `Spear 2`) with `activate`.
pub fn wants_active(takes: &[Take], item: &str) -> bool {
    let base = crate::data::base_name(item);
    takes.iter().any(|t| {
        t.activate
            && (realmgm_core::suggest::same(&t.what, item)
                || realmgm_core::suggest::same(&t.what, base))
    })
}
