//! Which colours of magic are present for a character (3.1 rule 4.6.2):
//! the colour days of the month (4.6.2d: the 7th white and black, the 14th
//! grey, the 21st purple, the 28th gold; with the Seasons and Weather rule
//! the season names the 7th day's colours), the enchanted side of the tile
//! in his clearing (4.6.2e), the Chapel's white (4.6.2c), a discovered
//! Toadstool Circle's black in its clearing (4.6.2c), the Enchanted cards
//! face up in his clearing (4.6.2b: carried active by anyone there, or
//! lying in the clearing's pile), and his own colour chits (enchanted MAGIC
//! chits, 4.6.4), which serve only him.
//!
//! One aloft after flying away (8.3.8e.2) is in no clearing: both tiles he
//! is over supply him ([`aloft_sources`]), and what he carries supplies
//! nobody in the clearing he left, as a card on a roadway supplies only
//! those on it (4.6.2b.2); one on the roadway he ran onto adds nothing to
//! either clearing either. Neither plays his colour chits there (7.2.3d).
//!
//! Rulings: a colour source counts in its clearing only; an Enchanted card
//! carried counts once its bearer has activated it (a card is face up
//! only then), one lying abandoned in the clearing counts (the pile is
//! face up), one still in a site's or dwelling's pile does not. Aloft, an
//! enchanted tile below supplies every colour its clearings show, as the
//! whole tile supplies one in its woods (8.3.8f), and his own face-up
//! Enchanted cards supply him; the Chapel, a Toadstool Circle and cards in
//! the clearing he left do not. One on a roadway draws on the enchanted
//! tiles of the clearings at both its ends (4.6.2e.2) and on the cards
//! carried on that roadway, not on the Chapel, a Toadstool Circle or cards
//! in either clearing ([`roadway_sources`]).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::abilities::active_treasure_effects;
use crate::board::ClearingId;
use crate::data::GameData;
use crate::data::characters::ActionChit;
use crate::data::terms::{Colour, MagicType};
use crate::data::treasures::TreasureEffect;
use crate::state::{
    CharacterState, ChitCondition, DAYS_PER_MONTH, ItemKind, MrState, Roadway, abandoned_pile,
};
use realmgm_core::game::Rules;

use super::MagicError;
use super::events::MagicEvent;

/// The rule toggle that gives the 7th day the season's colours.
pub const SEASONS_TOGGLE: &str = "seasons_and_weather";

/// Where a colour comes from.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "source", rename_all = "snake_case")]
pub enum ColourSource {
    /// A colour day of the month: everywhere.
    DayOfMonth { day: u8 },
    /// The enchanted side of the tile, in this clearing.
    Tile { clearing: ClearingId },
    /// A dwelling in the clearing (the Chapel).
    Dwelling { dwelling: String },
    /// An active treasure a character in the clearing carries.
    Treasure { carrier: String, treasure: String },
    /// An Enchanted card lying face up in the clearing's pile.
    Lying { treasure: String },
    /// A treasure site found in the clearing (the Toadstool Circle).
    TreasureSite { site: String },
    /// The enchanted side of a tile one aloft after flying away is over.
    TileBelow { tile: String },
    /// One of the character's own colour chits (index in his chit list).
    ColourChit { index: usize, chit: String },
}

impl ColourSource {
    /// Whether every spellcaster in the clearing may use it (a colour chit
    /// serves only its owner).
    pub fn shared(&self) -> bool {
        !matches!(self, ColourSource::ColourChit { .. })
    }

    pub fn describe(&self) -> String {
        match self {
            ColourSource::DayOfMonth { day } => format!("day {day} of the month"),
            ColourSource::Tile { clearing } => format!("the enchanted tile at {clearing}"),
            ColourSource::Dwelling { dwelling } => format!("the {dwelling}"),
            ColourSource::Treasure { carrier, treasure } => {
                format!("the {treasure} of the {carrier}")
            }
            ColourSource::Lying { treasure } => format!("the {treasure} lying here"),
            ColourSource::TreasureSite { site } => format!("the {site}"),
            ColourSource::TileBelow { tile } => format!("the enchanted tile {tile} below"),
            ColourSource::ColourChit { chit, .. } => format!("the colour chit {chit}"),
        }
    }
}

/// A colour and where it comes from.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Presence {
    pub colour: Colour,
    pub source: ColourSource,
}

/// The colour a MAGIC chit of type I–V is enchanted into (play summary
/// II.C.10.a); types VI–VIII have none.
pub fn chit_colour(magic: MagicType) -> Option<Colour> {
    match magic {
        MagicType::I => Some(Colour::White),
        MagicType::II => Some(Colour::Grey),
        MagicType::III => Some(Colour::Gold),
        MagicType::IV => Some(Colour::Purple),
        MagicType::V => Some(Colour::Black),
        MagicType::VI | MagicType::VII | MagicType::VIII => None,
    }
}

/// Day `day` of the game (1, 2, ...) as a day of the 28-day month.
pub fn day_of_month(day: u32) -> u8 {
    (day.max(1).saturating_sub(1) % 28 + 1) as u8
}

/// The colour magic game day `day` itself supplies everywhere (the 7th
/// days of the week; with Seasons, the season's colour on its 7th day). In
/// a game longer than a month without Seasons, day 7 supplies White in the
/// first month, Black in the second, and so on (3.1 10.E.2.3).
pub fn day_colours(state: &MrState, data: &GameData, rules: &Rules, day: u32) -> Vec<Colour> {
    let season = if rules.is_on(SEASONS_TOGGLE) {
        state
            .magic
            .season
            .and_then(|n| data.seasons.season(n))
            .or_else(|| Some(data.seasons.no_seasons()))
    } else {
        None
    };
    let mut colours = data.seasons.colour_magic(day_of_month(day), season);
    let both = colours.contains(&Colour::White) && colours.contains(&Colour::Black);
    if season.is_none() && both && state.last_day > DAYS_PER_MONTH {
        let month = day.saturating_sub(1) / DAYS_PER_MONTH;
        let unused = if month.is_multiple_of(2) {
            Colour::Black
        } else {
            Colour::White
        };
        colours.retain(|c| *c != unused);
    }
    colours
}

/// The colours game day `day` itself supplies everywhere, as sources.
fn day_sources(state: &MrState, data: &GameData, rules: &Rules, day: u32) -> Vec<Presence> {
    let dom = day_of_month(day);
    day_colours(state, data, rules, day)
        .into_iter()
        .map(|colour| Presence {
            colour,
            source: ColourSource::DayOfMonth { day: dom },
        })
        .collect()
}

/// The colours character `c`'s active treasures supply (the Enchanted
/// cards, face up once activated).
fn carried_sources(data: &GameData, c: &CharacterState) -> Vec<Presence> {
    active_treasure_effects(data, c)
        .into_iter()
        .filter_map(|(treasure, effect)| match effect {
            TreasureEffect::ColourSource { colour } => Some(Presence {
                colour: *colour,
                source: ColourSource::Treasure {
                    carrier: c.name.clone(),
                    treasure: treasure.to_string(),
                },
            }),
            _ => None,
        })
        .collect()
}

/// Colours character `c` draws aloft after flying away (3.1 8.3.8e.2) on
/// game day `day`, over `tiles` (the tile he flew from, and the one next
/// to it once his Fly phase names it): the day's colours, every colour
/// the enchanted ones among them show in their clearings, and his own
/// face-up Enchanted cards. See the rulings above.
pub fn aloft_sources(
    state: &MrState,
    data: &GameData,
    rules: &Rules,
    day: u32,
    c: &CharacterState,
    tiles: &[String],
) -> Vec<Presence> {
    let mut found = day_sources(state, data, rules, day);
    for clearing in state.board.clearings() {
        let Some(tile) = tiles.iter().find(|t| **t == clearing.tile) else {
            continue;
        };
        for &colour in state
            .board
            .clearing(&clearing)
            .map_or(&[][..], |c| &c.magic)
        {
            found.push(Presence {
                colour,
                source: ColourSource::TileBelow { tile: tile.clone() },
            });
        }
    }
    found.extend(carried_sources(data, c));
    found.sort();
    found.dedup();
    found
}

/// Colours everyone in `clearing` shares on game day `day`, with sources.
pub fn clearing_sources(
    state: &MrState,
    data: &GameData,
    rules: &Rules,
    day: u32,
    clearing: &ClearingId,
) -> Vec<Presence> {
    let mut found = day_sources(state, data, rules, day);
    if let Some(c) = state.board.clearing(clearing) {
        for &colour in &c.magic {
            found.push(Presence {
                colour,
                source: ColourSource::Tile {
                    clearing: clearing.clone(),
                },
            });
        }
    }
    for (realm, dwelling, at) in state.every_dwelling() {
        if at == clearing
            && let Some(colour) = data.chits.dwelling(dwelling).and_then(|d| d.colour_source)
        {
            found.push(Presence {
                colour,
                source: ColourSource::Dwelling {
                    dwelling: realm.mark(&dwelling.to_string()),
                },
            });
        }
    }
    // One aloft or on a roadway keeps `position`, but is not there.
    for c in state
        .characters
        .iter()
        .filter(|c| &c.position == clearing && !c.between_clearings())
    {
        found.extend(carried_sources(data, c));
    }
    let supplies = |name: &str| {
        data.treasures
            .iter()
            .filter(|t| t.name == name)
            .flat_map(|t| &t.effects)
            .filter_map(|e| match e {
                TreasureEffect::ColourSource { colour } => Some(*colour),
                _ => None,
            })
            .collect::<Vec<Colour>>()
    };
    for site in state
        .treasure_sites
        .iter()
        .filter(|(_, at)| *at == clearing)
        .map(|(site, _)| site)
    {
        for colour in supplies(site) {
            found.push(Presence {
                colour,
                source: ColourSource::TreasureSite { site: site.clone() },
            });
        }
    }
    // Dropped in plain sight, a treasure lies in the clearing as an
    // abandoned one does (3.1 10.A.5.2).
    for item in state
        .holdings
        .get(&abandoned_pile(clearing))
        .into_iter()
        .flatten()
        .chain(state.dropped_in(clearing).into_iter().map(|(_, item)| item))
        .filter(|i| i.kind == ItemKind::Treasure)
    {
        for colour in supplies(&item.name) {
            found.push(Presence {
                colour,
                source: ColourSource::Lying {
                    treasure: item.name.clone(),
                },
            });
        }
    }
    found.sort();
    found.dedup();
    found
}

/// The colour chits of character `who`: index, printed chit and colour.
pub fn colour_chits(state: &MrState, who: usize) -> Vec<(usize, String, Colour)> {
    let Some(c) = state.characters.get(who) else {
        return Vec::new();
    };
    c.chits
        .iter()
        .enumerate()
        .filter(|(_, chit)| chit.enchanted && chit.condition == ChitCondition::Active)
        .filter_map(|(i, chit)| {
            let colour = ActionChit::parse(&chit.chit)
                .ok()
                .and_then(|a| a.magic)
                .and_then(chit_colour)?;
            Some((i, chit.chit.clone(), colour))
        })
        .collect()
}

/// Character `who` fatigues his colour chit `named` at will (3.1 rules
/// 4.6.4i and 7.2.3c–d): it reverts to a MAGIC chit, fatigued. Not while he
/// is flying (nor on a roadway or in the woods, where realmgm never puts a
/// character between phases).
///
/// # Errors
/// He is flying, or has no colour chit of that name in play.
pub fn fatigue_at_will(
    state: &mut MrState,
    who: usize,
    named: &str,
    flying: bool,
) -> Result<MagicEvent, MagicError> {
    let name = state
        .characters
        .get(who)
        .map(|c| c.name.clone())
        .ok_or(MagicError::NoCharacter(who))?;
    if flying {
        return Err(MagicError::Impossible(format!(
            "the {name} is flying, and no colour chit is played in flight (3.1 rule 7.2.3d)"
        )));
    }
    let (index, chit, colour) = colour_chits(state, who)
        .into_iter()
        .find(|(_, chit, _)| names_chit(chit, named))
        .ok_or_else(|| {
            MagicError::Impossible(format!(
                "the {name} has no colour chit {named} in play (an enchanted, active MAGIC chit)"
            ))
        })?;
    let c = &mut state.characters[who];
    c.chits[index].enchanted = false;
    c.chits[index].condition = ChitCondition::Fatigued;
    Ok(MagicEvent::ColourChitFatigued {
        character: name,
        chit,
        colour,
    })
}

/// Whether `named` (`MAGIC IV4*`, or `IV4*`, any case) names the chit
/// printed `printed`.
pub fn names_chit(printed: &str, named: &str) -> bool {
    let wanted = named.trim().to_uppercase();
    let wanted = wanted.strip_prefix("MAGIC ").unwrap_or(&wanted);
    let printed = printed.to_uppercase();
    printed == wanted || printed.strip_prefix("MAGIC ") == Some(wanted)
}

/// The colours shared with character `c` where he is on game day `day`:
/// his clearing's; aloft after flying away, those of the tile he flew from
/// and of `next_tile`, the one next to it his Fly phase names, once known
/// ([`aloft_sources`]); on the roadway he ran onto, both its end clearings'
/// tiles and the cards carried on it ([`roadway_sources`]).
pub fn shared_with(
    state: &MrState,
    data: &GameData,
    rules: &Rules,
    day: u32,
    c: &CharacterState,
    next_tile: Option<&str>,
) -> Vec<Presence> {
    if let Some(from) = &c.flown_away {
        let tiles: Vec<String> = std::iter::once(from.tile.as_str())
            .chain(next_tile)
            .map(str::to_string)
            .collect();
        return aloft_sources(state, data, rules, day, c, &tiles);
    }
    match &c.roadway {
        Some(road) => roadway_sources(state, data, rules, day, road),
        None => clearing_sources(state, data, rules, day, &c.position),
    }
}

/// Colours everyone on roadway `road` shares on game day `day` (3.1
/// 4.6.2e.2, 4.6.2b.2): the day's colours, the enchanted tiles' colours
/// of the clearings at both its ends, and the face-up Enchanted cards of
/// everyone on the same roadway. The Chapel, a Toadstool Circle and cards
/// in either end clearing supply only their clearing. Rulings: a roadway
/// that vanished under him (8.3.8d.3) is no roadway, and only the tile of
/// the clearing he ran out of supplies him; off the map at its edge
/// (10.E.1.6) no tile does.
fn roadway_sources(
    state: &MrState,
    data: &GameData,
    rules: &Rules,
    day: u32,
    road: &Roadway,
) -> Vec<Presence> {
    let mut found = day_sources(state, data, rules, day);
    let ends: &[&ClearingId] = if !road.edge_entries.is_empty() {
        &[]
    } else if road.vanished {
        &[&road.from]
    } else {
        &[&road.from, &road.to]
    };
    for &end in ends {
        for &colour in state.board.clearing(end).map_or(&[][..], |c| &c.magic) {
            found.push(Presence {
                colour,
                source: ColourSource::Tile {
                    clearing: end.clone(),
                },
            });
        }
    }
    for other in state
        .characters
        .iter()
        .filter(|o| o.roadway.as_ref().is_some_and(|r| r.same_road(road)))
    {
        found.extend(carried_sources(data, other));
    }
    found.sort();
    found.dedup();
    found
}

/// Every colour present for character `who` on game day `day`, with its
/// source: the colours shared with him and his own colour chits, which he
/// cannot play between clearings (3.1 7.2.3d).
pub fn sources_present(
    state: &MrState,
    data: &GameData,
    rules: &Rules,
    day: u32,
    who: usize,
) -> Vec<Presence> {
    let Some(c) = state.characters.get(who) else {
        return Vec::new();
    };
    let mut found = shared_with(state, data, rules, day, c, None);
    if c.between_clearings() {
        return found;
    }
    for (index, chit, colour) in colour_chits(state, who) {
        found.push(Presence {
            colour,
            source: ColourSource::ColourChit { index, chit },
        });
    }
    found
}

/// The colours present for character `who` in his clearing on game day
/// `day` (`magic/colour.rs`).
pub fn colours_present(
    state: &MrState,
    data: &GameData,
    rules: &Rules,
    day: u32,
    who: usize,
) -> BTreeSet<Colour> {
    sources_present(state, data, rules, day, who)
        .into_iter()
        .map(|p| p.colour)
        .collect()
}

/// The colours everyone in `clearing` shares on game day `day`.
pub fn shared_colours(
    state: &MrState,
    data: &GameData,
    rules: &Rules,
    day: u32,
    clearing: &ClearingId,
) -> BTreeSet<Colour> {
    clearing_sources(state, data, rules, day, clearing)
        .into_iter()
        .map(|p| p.colour)
        .collect()
}

/// "white and grey" — for reasons that list what is present.
pub fn list(colours: &BTreeSet<Colour>) -> String {
    if colours.is_empty() {
        return "no colour".into();
    }
    colours
        .iter()
        .map(|c| c.word())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{data, quiet_game};

    /// A one-month game's day 7 supplies White and Black; a longer one's
    /// supplies White in its first month and Black in its second (3.1
    /// 10.E.2.3).
    #[test]
    fn day_7_alternates_white_and_black_in_a_longer_game_3_1_10_e_2_3() {
        let rules = Rules::default();
        let mut state = quiet_game(&["Amazon"]);
        let on = |state: &MrState, day| day_colours(state, data(), &rules, day);
        assert_eq!(on(&state, 7), [Colour::White, Colour::Black]);
        state.last_day = 56;
        assert_eq!(on(&state, 7), [Colour::White]);
        assert_eq!(on(&state, 35), [Colour::Black]);
        assert_eq!(on(&state, 42), [Colour::Grey]);
    }
}
