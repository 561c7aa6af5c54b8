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

use std::collections::BTreeMap;

use super::numbered;
use crate::data::GameData;
use crate::data::horses::HorseStart;
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

/// Deal every item.
pub fn deal(data: &GameData, dice: &mut Dice) -> Holdings {
    let mut holdings = Holdings::new();
    deal_treasures(data, dice, &mut holdings);
    deal_spells(data, dice, &mut holdings);
    place_counters(data, &mut holdings);
    holdings
}

fn deal_treasures(data: &GameData, dice: &mut Dice, holdings: &mut Holdings) {
    let ordinary = |size| {
        data.treasures
            .iter()
            .filter(move |t| t.size == size && t.within.is_none())
            .map(|t| t.name.as_str())
    };
    let mut large: Vec<&str> = ordinary(TreasureSize::Large).collect();
    dice.shuffle("setup/treasures/large", &mut large);
    let mut within: Vec<_> = data
        .treasures
        .iter()
        .filter_map(|t| t.within.as_ref().map(|w| (w.number, t)))
        .collect();
    within.sort_by_key(|(number, _)| *number);
    for (_, t) in &within {
        let count = t
            .within
            .as_ref()
            .map_or(0, |w| usize::from(w.large_treasures));
        for name in large.drain(..count.min(large.len())) {
            give(holdings, &t.name, ItemKind::Treasure, name);
        }
    }
    large.extend(within.iter().map(|(_, t)| t.name.as_str()));
    dice.shuffle("setup/treasures/sites", &mut large);
    let mut small: Vec<&str> = ordinary(TreasureSize::Small).collect();
    dice.shuffle("setup/treasures/small", &mut small);
    let mut deal_from = |pool: &mut Vec<&str>, holder: &str, count: u8| {
        let count = usize::from(count).min(pool.len());
        for name in pool.drain(..count) {
            give(holdings, holder, ItemKind::Treasure, name);
        }
    };
    let card = &data.setup_card;
    for b in &card.site_box {
        deal_from(&mut large, &b.site, b.large);
        deal_from(&mut small, &b.site, b.small);
    }
    for d in &data.chits.dwelling {
        deal_from(&mut small, d.name.label(), d.small_treasures);
    }
    for n in &card.native_box {
        deal_from(&mut small, &n.group, n.small_treasures);
    }
    for v in &data.chits.visitor {
        deal_from(&mut small, &v.name, v.small_treasures);
    }
    for b in &card.site_box {
        if let Some(pile) = holdings.get_mut(&b.site) {
            dice.shuffle(&format!("setup/treasures/pile/{}", b.site), pile);
        }
    }
}

fn deal_spells(data: &GameData, dice: &mut Dice, holdings: &mut Holdings) {
    let mut by_type: BTreeMap<MagicType, Vec<&str>> = BTreeMap::new();
    for spell in data.spells.iter().filter(|s| s.learnable()) {
        if let Some(t) = spell.spell_type {
            by_type.entry(t).or_default().push(&spell.name);
        }
    }
    for (t, spells) in &mut by_type {
        dice.shuffle(&format!("setup/spells/{t}"), spells);
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
                give(holdings, holder, ItemKind::Spell, spell);
            }
        }
    }
}

/// Horses, weapons and armour where the data says each counter starts.
fn place_counters(data: &GameData, holdings: &mut Holdings) {
    for horse in &data.horses {
        let holder = match &horse.start {
            HorseStart::Rider { native } => native,
            HorseStart::Stock { group } => group,
            HorseStart::Site { site } => site,
        };
        give(holdings, holder, ItemKind::Horse, &horse.name);
    }
    for w in &data.weapons {
        for (id, holder) in numbered(&w.name, w.start.len()).iter().zip(&w.start) {
            give(holdings, holder, ItemKind::Weapon, id);
        }
    }
    for a in data.armor.iter().filter(|a| !a.not_in_standard_setup) {
        for (id, holder) in numbered(&a.name, a.start.len()).iter().zip(&a.start) {
            give(holdings, holder, ItemKind::Armor, id);
        }
    }
}
