//! Treasures, spells, horses, weapons and armour to their holders at setup.
//!
//! `data/chits.toml`. Treasures within treasures first take their large
//! treasures from the ordinary large pool (ruling: so a treasure within a
//! treasure never holds another); then the six of them are shuffled into
//! what is left and each site box takes its large treasures in card order.
//! The small treasures go, shuffled, to the sites, the dwellings, the roving
//! groups and the visitors. Each site's pile is then shuffled (ruling: the
//! printed setup does not order large and small within a pile). Spells are
//! shuffled by type and dealt to the sites, the visitors, then the
//! artifacts and spell books. Horses, weapons and armour go where their
//! data says they start (a native's mount to that native).
//!
//! Two Realms combined (3.1 10.E.7.3): each game's copies carry its mark.
//! The treasures of both games are mixed, size by size, and dealt over both
//! setup cards; each game's Spell cards go to its own card and to its own
//! artifacts and spell books, wherever those lie (7.3.3, 7.9). Each
//! holder takes its printed counters of its own game (the Spears and armour
//! of a native box, what a treasure within a treasure holds, a native's
//! mount, 7.3.1); then the other weapons, class by class (Light, Medium,
//! Heavy, bows), and the horses of the native boxes are mixed across both
//! cards, each box taking as many of a class as it prints (ruling: 7.3.2's
//! seven Light weapons a card are the printed boxes' seven), so natives of
//! the two games hold different assortments.

use std::collections::BTreeMap;

use super::{numbered, realm_purpose};
use crate::data::GameData;
use crate::data::horses::HorseStart;
use crate::data::realms::Realm;
use crate::data::terms::MagicType;
use crate::data::treasures::{TreasureEffect, TreasureSize};
use crate::state::{Item, ItemKind};
use realmgm_core::dice::Dice;

type Holdings = BTreeMap<String, Vec<Item>>;

fn give(holdings: &mut Holdings, holder: &str, kind: ItemKind, name: &str) {
    holdings.entry(holder.to_string()).or_default().push(Item {
        kind,
        name: name.to_string(),
    });
}

/// Deal every item of `realms` (one game, or two combined).
pub fn deal(data: &GameData, realms: &[Realm], dice: &mut Dice) -> Holdings {
    let mut holdings = Holdings::new();
    deal_treasures(data, realms, dice, &mut holdings);
    for &realm in realms {
        deal_spells(data, realm, dice, &mut holdings);
    }
    place_counters(data, realms, &mut holdings);
    if realms.len() > 1 {
        mix_counters(data, dice, &mut holdings);
    }
    holdings
}

fn deal_treasures(data: &GameData, realms: &[Realm], dice: &mut Dice, holdings: &mut Holdings) {
    let ordinary = |size| -> Vec<String> {
        realms
            .iter()
            .flat_map(|realm| {
                data.treasures
                    .iter()
                    .filter(move |t| t.size == size && t.within.is_none())
                    .map(|t| realm.mark(&t.name))
            })
            .collect()
    };
    let mut large = ordinary(TreasureSize::Large);
    dice.shuffle("setup/treasures/large", &mut large);
    let mut within: Vec<_> = data
        .treasures
        .iter()
        .filter_map(|t| t.within.as_ref().map(|w| (w.number, t)))
        .collect();
    within.sort_by_key(|(number, _)| *number);
    let within: Vec<(String, usize)> = realms
        .iter()
        .flat_map(|realm| {
            within.iter().map(|(_, t)| {
                let count = t
                    .within
                    .as_ref()
                    .map_or(0, |w| usize::from(w.large_treasures));
                (realm.mark(&t.name), count)
            })
        })
        .collect();
    for (holder, count) in &within {
        for name in large.drain(..(*count).min(large.len())) {
            give(holdings, holder, ItemKind::Treasure, &name);
        }
    }
    large.extend(within.into_iter().map(|(holder, _)| holder));
    dice.shuffle("setup/treasures/sites", &mut large);
    let mut small = ordinary(TreasureSize::Small);
    dice.shuffle("setup/treasures/small", &mut small);
    let mut deal_from = |pool: &mut Vec<String>, holder: &str, count: u8| {
        let count = usize::from(count).min(pool.len());
        for name in pool.drain(..count) {
            give(holdings, holder, ItemKind::Treasure, &name);
        }
    };
    let card = &data.setup_card;
    for realm in realms {
        for b in &card.site_box {
            let site = realm.mark(&b.site);
            deal_from(&mut large, &site, b.large);
            deal_from(&mut small, &site, b.small);
        }
    }
    for realm in realms {
        for d in &data.chits.dwelling {
            deal_from(&mut small, &realm.mark(d.name.label()), d.small_treasures);
        }
        for n in &card.native_box {
            deal_from(&mut small, &realm.mark(&n.group), n.small_treasures);
        }
        for v in &data.chits.visitor {
            deal_from(&mut small, &realm.mark(&v.name), v.small_treasures);
        }
    }
    for realm in realms {
        for b in &card.site_box {
            let site = realm.mark(&b.site);
            if let Some(pile) = holdings.get_mut(&site) {
                dice.shuffle(&format!("setup/treasures/pile/{site}"), pile);
            }
        }
    }
}

/// One game's Spell cards, on its own card and in its own artifacts and
/// spell books (3.1 10.E.7.3.3, 7.9).
fn deal_spells(data: &GameData, realm: Realm, dice: &mut Dice, holdings: &mut Holdings) {
    let mut by_type: BTreeMap<MagicType, Vec<String>> = BTreeMap::new();
    for spell in data.spells.iter().filter(|s| s.learnable()) {
        if let Some(t) = spell.spell_type {
            by_type.entry(t).or_default().push(realm.mark(&spell.name));
        }
    }
    for (t, spells) in &mut by_type {
        dice.shuffle(&realm_purpose(realm, &format!("setup/spells/{t}")), spells);
    }
    let mut wants: Vec<(&str, &[MagicType])> = Vec::new();
    wants.extend(
        data.setup_card
            .site_box
            .iter()
            .map(|b| (b.site.as_str(), b.spells.as_slice())),
    );
    wants.extend(
        data.chits
            .visitor
            .iter()
            .map(|v| (v.name.as_str(), v.spells.as_slice())),
    );
    for t in &data.treasures {
        for effect in &t.effects {
            if let TreasureEffect::Spells { spells, .. } = effect {
                wants.push((t.name.as_str(), spells.as_slice()));
            }
        }
    }
    for (holder, types) in wants {
        for t in types {
            // load() checks no type is dealt more often than it has spells.
            if let Some(spell) = by_type.get_mut(t).and_then(Vec::pop) {
                give(holdings, &realm.mark(holder), ItemKind::Spell, &spell);
            }
        }
    }
}

/// Horses, weapons and armour where the data says each counter starts,
/// each game's to its own holders.
fn place_counters(data: &GameData, realms: &[Realm], holdings: &mut Holdings) {
    for realm in realms {
        for horse in &data.horses {
            let holder = match &horse.start {
                HorseStart::Rider { native } => native,
                HorseStart::Stock { group } => group,
                HorseStart::Site { site } => site,
            };
            give(
                holdings,
                &realm.mark(holder),
                ItemKind::Horse,
                &realm.mark(&horse.name),
            );
        }
        for w in &data.weapons {
            let ids = numbered(&realm.mark(&w.name), w.start.len());
            for (id, holder) in ids.iter().zip(&w.start) {
                give(holdings, &realm.mark(holder), ItemKind::Weapon, id);
            }
        }
        for a in data.armor.iter().filter(|a| !a.not_in_standard_setup) {
            let ids = numbered(&realm.mark(&a.name), a.start.len());
            for (id, holder) in ids.iter().zip(&a.start) {
                give(holdings, &realm.mark(holder), ItemKind::Armor, id);
            }
        }
    }
}

/// The counters 3.1 10.E.7.3.2 mixes between the setup cards, by class:
/// a weapon that is no treasure and no Spear by its weight or as a bow
/// (`None` for a counter that stays), a horse in a native box's stock.
fn mixed_class(data: &GameData, item: &Item) -> Option<String> {
    let base = crate::data::base_name(&item.name);
    match item.kind {
        ItemKind::Weapon => data
            .weapons
            .iter()
            .find(|w| w.name == base && !w.treasure && w.name != "Spear")
            .map(|w| match (w.missile, w.weight) {
                (true, _) => "bow".to_string(),
                (false, weight) => format!("weapon {}", weight.letter()),
            }),
        ItemKind::Horse => data
            .horses
            .iter()
            .find(|h| h.name == crate::data::realms::printed(&item.name))
            .filter(|h| matches!(h.start, HorseStart::Stock { .. }))
            .map(|_| "horse".to_string()),
        _ => None,
    }
}

/// Mix the counters of each class across both games' boxes: every place a
/// mixed counter lies takes one drawn at random from all of its class.
fn mix_counters(data: &GameData, dice: &mut Dice, holdings: &mut Holdings) {
    let mut places: BTreeMap<String, Vec<(String, usize)>> = BTreeMap::new();
    for (holder, pile) in holdings.iter() {
        for (at, item) in pile.iter().enumerate() {
            if let Some(class) = mixed_class(data, item) {
                places.entry(class).or_default().push((holder.clone(), at));
            }
        }
    }
    for (class, places) in places {
        let mut counters: Vec<Item> = places
            .iter()
            .map(|(holder, at)| holdings[holder][*at].clone())
            .collect();
        dice.shuffle(&format!("setup/counters/{class}"), &mut counters);
        for ((holder, at), counter) in places.into_iter().zip(counters) {
            if let Some(place) = holdings.get_mut(&holder).and_then(|pile| pile.get_mut(at)) {
                *place = counter;
            }
        }
    }
}
