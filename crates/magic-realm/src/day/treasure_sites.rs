//! Treasures within treasures that are sites (`tables/search.rs`, `tables/twt.rs` "Loot"):
//! Toadstool Circle, Crypt of the Knight and Enchanted Meadow. Looting the
//! card out of a pile puts it face up in the looter's clearing, where it
//! stays; those who saw him find it. From then on a Loot search there rolls
//! on the card's own table (the rows are data: `treasures.toml`,
//! `within.table`) instead of the Loot table.
//!
//! Rulings: a Loot search takes from a discovered site chit of the clearing
//! while it still holds items, then from a treasure site found there, then
//! from the abandoned pile (the orders cannot choose). Loot modifiers apply
//! to the roll. The Crypt needs active Lost Keys or a T-strength effort
//! (as the Vault, see `search`). A "take" row finds nothing once that item is gone; the
//! Crypt's gold row is always there. The cave row sends him to the cave
//! clearing his `Teleport:` line names (without one he stays, and is told).
//! Row 4 of the Toadstool Circle lets him Peer into any clearing for the
//! rest of the day (a `Search: peer <clearing>` target) and enchant any
//! clearing's tile (`SP (tile <clearing>)`); the Wish and Power of the Pit
//! rows are worked by the spell engine (`site_magic`); a Curse row rolls on
//! the Curse table (`magic::runes::roll_curse`). The Wish's "elsewhere"
//! uses the `Teleport:` clearing too.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use realmgm_core::game::Observers;

use super::events::Happening;
use super::search::{open_with_key_or_effort, roll_table, wants_active};
use super::{Day, PhaseOutcome};
use crate::board::ClearingId;
use crate::data::terms::Roll;
use crate::data::treasures::{SiteResult, TreasureEffect};
use crate::orders::Take;
use crate::state::{Belonging, ChitCondition, Item, ItemKind};
use crate::tables::DieTable;

/// What happened at a treasure site.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum SiteEvent {
    /// The card came out of a pile and now lies in `clearing`.
    Found {
        character: String,
        site: String,
        from: String,
        clearing: ClearingId,
    },
    /// The row read on the site's own table.
    RowRead {
        character: String,
        site: String,
        row: String,
    },
    Took {
        character: String,
        site: String,
        item: Item,
        active: bool,
    },
    /// The row's item was taken before.
    Gone {
        character: String,
        site: String,
        what: String,
    },
    GoldRecorded {
        character: String,
        site: String,
        gold: u16,
    },
    /// Carried to a cave clearing, hidden or not as he was; his followers
    /// stay.
    Teleported {
        character: String,
        site: String,
        to: ClearingId,
    },
    /// Every fatigued and wounded chit became fresh.
    Rested {
        character: String,
        chits: Vec<String>,
    },
    NotApplied {
        character: String,
        site: String,
        what: String,
        reason: String,
    },
    /// A row worked by the spell engine (the Wish, Power of the Pit): what
    /// the spell did, carried out in Daylight.
    MagicWorked {
        character: String,
        site: String,
        effects: Vec<crate::magic::effect::SpellEffect>,
    },
    /// A row that gives a power for the rest of the day.
    Granted {
        character: String,
        site: String,
        what: String,
    },
}

impl SiteEvent {
    /// The GM log line.
    pub fn log_line(&self) -> String {
        match self {
            SiteEvent::Found {
                character,
                site,
                from,
                clearing,
            } => format!(
                "    The {character} finds the {site} in the {from}: it now lies in {clearing}."
            ),
            SiteEvent::RowRead { site, row, .. } => format!("    {site}: {row}."),
            SiteEvent::Took {
                character,
                site,
                item,
                active,
            } => {
                let active = if *active { ", active" } else { "" };
                format!(
                    "    The {character} takes the {} from the {site}{active}.",
                    item.name
                )
            }
            SiteEvent::Gone { site, what, .. } => {
                format!("    The {what} of the {site} is gone: nothing.")
            }
            SiteEvent::GoldRecorded {
                character,
                site,
                gold,
            } => {
                format!("    The {character} records {gold} gold at the {site}.")
            }
            SiteEvent::Teleported {
                site,
                to,
                character,
            } => {
                format!("    The {site} carries the {character} to {to}.")
            }
            SiteEvent::Rested { character, chits } => {
                if chits.is_empty() {
                    format!("    Every chit of the {character} was already fresh.")
                } else {
                    format!("    The {character} rests: {}.", chits.join(", "))
                }
            }
            SiteEvent::NotApplied {
                site, what, reason, ..
            } => format!("    {site}: {what} is not applied ({reason})."),
            SiteEvent::MagicWorked { site, effects, .. } => {
                let said: Vec<String> = effects.iter().map(ToString::to_string).collect();
                format!("    {site}: {}.", said.join("; "))
            }
            SiteEvent::Granted { site, what, .. } => format!("    {site}: {what}."),
        }
    }
}

/// A site card's table, read from the data.
struct SiteTable<'a> {
    name: &'a str,
    rows: &'a [SiteResult],
}

/// One row's meaning, worded for the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SiteRow(pub SiteResult);

impl fmt::Display for SiteRow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            SiteResult::TakeWeapon => "take the weapon",
            SiteResult::TakeArmor => "take the armour",
            SiteResult::TakeHorse => "take the horse",
            SiteResult::TakeTreasure => "take the treasure card",
            SiteResult::Gold => "record one gold",
            SiteResult::Curse => "a curse",
            SiteResult::Wish => "a wish",
            SiteResult::Heal => "every chit rested",
            SiteResult::TeleportToCave => "go to any cave clearing",
            SiteResult::PeerAndEnchantAnywhere => "peer and enchant anywhere today",
            SiteResult::PowerOfThePit => "Power of the Pit",
            SiteResult::Nothing => "nothing",
        })
    }
}

impl DieTable for SiteTable<'_> {
    type Outcome = SiteRow;

    fn rule(&self) -> &'static str {
        "7.5.5"
    }
    fn name(&self) -> Cow<'static, str> {
        self.name.to_string().into()
    }
    fn outcome(&self, row: i8) -> SiteRow {
        let index = usize::try_from(row.clamp(1, 6) - 1).unwrap_or(0);
        SiteRow(self.rows.get(index).copied().unwrap_or(SiteResult::Nothing))
    }
}

/// Whether `item` is a treasure that becomes a site when found.
pub fn is_site_card(day: &Day<'_>, item: &Item) -> bool {
    item.kind == ItemKind::Treasure && !site_rows(day, &item.name).is_empty()
}

fn site_rows<'d>(day: &Day<'d>, name: &str) -> &'d [SiteResult] {
    day.data
        .treasure(name)
        .and_then(|t| t.within.as_ref())
        .map_or(&[], |w| w.table.as_slice())
}

/// The site card `index` of `pile` was looted: it leaves the pile and lies
/// in the looter's clearing; he and those who saw him know it.
pub fn found(day: &mut Day<'_>, who: usize, pile: &str, index: usize, observers: &Observers) {
    let Some(card) = day.state.holdings.get_mut(pile).map(|p| p.remove(index)) else {
        return;
    };
    let here = day.state.characters[who].position.clone();
    day.state
        .treasure_sites
        .insert(card.name.clone(), here.clone());
    day.state.characters[who]
        .discoveries
        .sites
        .insert(card.name.clone());
    // Those spying on him learn the card (3.1 4.5.6b.2); the characters
    // among them read it in the event below, a hired leader's employer is
    // told apart.
    for spy in super::spying::spies(day, who, &[&here]) {
        let learner = &mut day.state.characters[spy.learner];
        if learner.discoveries.sites.insert(card.name.clone()) && spy.leader.is_some() {
            let event = super::search::SearchEvent::DiscoveredSites {
                character: spy.name(day),
                sites: vec![card.name.clone()],
            };
            day.emit(day.only(spy.learner), Happening::Search(event));
        }
    }
    let event = SiteEvent::Found {
        character: day.state.characters[who].name.clone(),
        site: card.name,
        from: pile.to_string(),
        clearing: here,
    };
    day.emit(observers.clone(), Happening::TreasureSite(event));
}

/// A treasure site he has found lying in his clearing.
pub fn discovered_here(day: &Day<'_>, who: usize) -> Option<String> {
    let me = &day.state.characters[who];
    day.state
        .treasure_sites
        .iter()
        .find(|(name, at)| **at == me.position && me.discoveries.sites.contains(*name))
        .map(|(name, _)| name.clone())
}

/// Search the treasure site `site` on its own table; `teleport` is the
/// `Teleport:` clearing for the row that sends him to a cave.
pub fn search(
    day: &mut Day<'_>,
    who: usize,
    site: &str,
    takes: &[Take],
    teleport: Option<&(String, u8)>,
) -> PhaseOutcome {
    let needs_key = day
        .data
        .treasure(site)
        .is_some_and(|t| t.effects.contains(&TreasureEffect::KeyOrTremendousEffort));
    if needs_key && let Err(reason) = open_with_key_or_effort(day, who, site) {
        return PhaseOutcome::Lost {
            reason: reason.to_string(),
        };
    }
    let rows = site_rows(day, site);
    let table = SiteTable { name: site, rows };
    let roll = roll_table(day, who, &table, Roll::Loot, "treasure-site");
    let row = roll.result.0;
    let character = day.state.characters[who].name.clone();
    let observers = day.seen_acting(who);
    day.emit(
        observers.clone(),
        Happening::TreasureSite(SiteEvent::RowRead {
            character: character.clone(),
            site: site.to_string(),
            row: SiteRow(row).to_string(),
        }),
    );
    let event = match row {
        SiteResult::TakeWeapon => take(day, who, site, ItemKind::Weapon, takes),
        SiteResult::TakeArmor => take(day, who, site, ItemKind::Armor, takes),
        SiteResult::TakeHorse => take(day, who, site, ItemKind::Horse, takes),
        SiteResult::TakeTreasure => take(day, who, site, ItemKind::Treasure, takes),
        SiteResult::Gold => {
            let c = &mut day.state.characters[who];
            c.gold = c.gold.saturating_add(1);
            Some(SiteEvent::GoldRecorded {
                character: character.clone(),
                site: site.to_string(),
                gold: 1,
            })
        }
        SiteResult::Heal => Some(rest_every_chit(day, who)),
        SiteResult::TeleportToCave => Some(go_to_cave(day, who, site, teleport)),
        SiteResult::PeerAndEnchantAnywhere => {
            Some(super::site_magic::grant_peer_and_enchant(day, who, site))
        }
        SiteResult::Nothing => None,
        SiteResult::Curse => {
            crate::day::runes::roll_curse(day, who, site);
            None
        }
        SiteResult::Wish => Some(super::site_magic::wish(day, who, site, teleport)),
        SiteResult::PowerOfThePit => Some(super::site_magic::power_of_the_pit(day, who, site)),
    };
    if let Some(event) = event {
        day.emit(observers, Happening::TreasureSite(event));
    }
    PhaseOutcome::Done
}

/// Take the first item of `kind` the site still holds.
fn take(
    day: &mut Day<'_>,
    who: usize,
    site: &str,
    kind: ItemKind,
    takes: &[Take],
) -> Option<SiteEvent> {
    let character = day.state.characters[who].name.clone();
    let pile = day.state.holdings.get_mut(site);
    let Some(index) = pile
        .as_ref()
        .and_then(|p| p.iter().position(|i| i.kind == kind))
    else {
        let what = match kind {
            ItemKind::Weapon => "weapon",
            ItemKind::Armor => "armour",
            ItemKind::Horse => "horse",
            ItemKind::Treasure => "treasure card",
            ItemKind::Spell => "spell",
        };
        return Some(SiteEvent::Gone {
            character,
            site: site.to_string(),
            what: what.into(),
        });
    };
    let item = pile?.remove(index);
    let active = wants_active(takes, &item.name);
    day.state.characters[who].belongings.push(Belonging {
        item: item.clone(),
        active,
    });
    Some(SiteEvent::Took {
        character,
        site: site.to_string(),
        item,
        active,
    })
}

/// The Toadstool Circle's cave row: he goes to the cave clearing his
/// `Teleport:` line names (still hidden if he was, his turn goes on, his
/// followers stay); without a valid line he stays and is told why.
fn go_to_cave(
    day: &mut Day<'_>,
    who: usize,
    site: &str,
    teleport: Option<&(String, u8)>,
) -> SiteEvent {
    let character = day.state.characters[who].name.clone();
    let target = teleport.and_then(|(tile, number)| {
        let code = day.data.tiles.resolve(tile)?.code.clone();
        Some(ClearingId::new(&code, *number))
    });
    let is_cave = |c: &ClearingId| {
        day.state
            .board
            .clearing(c)
            .is_some_and(|k| k.kind == crate::data::tiles::ClearingKind::Cave)
    };
    match target {
        Some(to) if is_cave(&to) => {
            let c = &mut day.state.characters[who];
            c.position = to.clone();
            c.discoveries.tiles_visited.insert(to.tile.clone());
            day.today.shed_followers.insert(who);
            SiteEvent::Teleported {
                character,
                site: site.to_string(),
                to,
            }
        }
        other => SiteEvent::NotApplied {
            character,
            site: site.to_string(),
            what: SiteRow(SiteResult::TeleportToCave).to_string(),
            reason: match other {
                Some(to) => format!("{to} is not a cave clearing on the map; no teleport"),
                None => "no 'Teleport:' line names the cave clearing to go to; no teleport".into(),
            },
        },
    }
}

fn rest_every_chit(day: &mut Day<'_>, who: usize) -> SiteEvent {
    let c = &mut day.state.characters[who];
    let mut rested = Vec::new();
    for chit in &mut c.chits {
        if chit.condition != ChitCondition::Active {
            chit.condition = ChitCondition::Active;
            rested.push(chit.chit.clone());
        }
    }
    SiteEvent::Rested {
        character: c.name.clone(),
        chits: rested,
    }
}
