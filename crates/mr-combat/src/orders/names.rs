//! Checking the names an orders mail uses against the game's components and
//! the campaign's characters: what to buy, whom to hire, follow or block.
//!
//! Unknown items and native groups are errors with the nearest names, since
//! the engine could not act on them. Characters who are not in the campaign
//! are warnings: a player may name a rival he expects to meet, and the
//! engine simply finds nobody to block. With two Realms combined an item
//! or native may carry the second game's mark (`Buy: Amulet II`,
//! `Hire: Rogues II`, 3.1 10.E.7.2.1).

use super::activity::Activity;
use super::sheet::{Blocking, DayOrders};
use crate::data::GameData;
use crate::data::realms;
use realmgm_core::suggest;

/// What the check found, in the order of the orders text.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct NameCheck {
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
}

/// Check every name in `orders`; `characters` are the characters played in
/// the campaign.
pub fn check_names(orders: &DayOrders, data: &GameData, characters: &[&str]) -> NameCheck {
    let mut found = NameCheck::default();
    // Walked afresh for each name asked about: most orders ask about none.
    // `boon` buys back the level a boon cost (3.1 7.6.5e.1).
    let items = || item_names(data).chain(["Horse", "Pony", "Warhorse", "boon"]);
    // The printed component behind either game's copy, once two Realms are
    // combined.
    let printed = |name: &str| {
        if data.combines_realms() {
            realms::printed(name)
        } else {
            name.to_string()
        }
    };
    for purchase in &orders.buy {
        if suggest::find(&printed(&purchase.what), items()).is_none() {
            let hint = suggest::did_you_mean(&purchase.what, items());
            found.errors.push(format!(
                "Buy: '{}' is not an item of the game{hint}",
                purchase.what
            ));
        }
    }
    if let Some(wanted) = &orders.character {
        let names = data.characters.iter().map(|c| c.name.as_str());
        // A killed character comes back in his own game (3.1 10.E.7.4.2):
        // a line choosing the game is not read yet.
        let marked = data.combines_realms() && !realms::Realm::of_name(wanted.trim()).is_first();
        match suggest::find(wanted, names.clone()) {
            _ if marked => found.errors.push(format!(
                "Character: '{wanted}': choosing the game a killed character comes back in is \
                 not implemented yet with Combining Realms (3.1 10.E.7.4.2); write the \
                 character without II and he comes back in his own game"
            )),
            None => found.errors.push(format!(
                "Character: '{wanted}' is not a character of the game{}",
                suggest::did_you_mean(wanted, names)
            )),
            Some(name) if characters.contains(&name) => found.warnings.push(format!(
                "Character: the {name} is in play; a killed character comes back as the same \
                 kind unless the line names one nobody plays"
            )),
            Some(_) => {}
        }
    }
    let hireable = || {
        data.natives
            .iter()
            .flat_map(|group| {
                std::iter::once(group.name.as_str())
                    .chain(group.members.iter().map(|m| m.name.as_str()))
            })
            // Goblins made Neutral by Deal with Goblins can be hired.
            .chain(["Goblins", "Spear Goblins", "Sword Goblins", "Axe Goblins"])
    };
    for hire in &orders.hire {
        if suggest::find(&printed(&hire.what), hireable()).is_none() {
            let hint = suggest::did_you_mean(&hire.what, hireable());
            found.errors.push(format!(
                "Hire: '{}' is not a native group or native{hint}",
                hire.what
            ));
        }
    }
    let mut check_character = |line: &str, name: &str| {
        if suggest::find(name, characters.iter().copied()).is_none() {
            let hint = suggest::did_you_mean(name, characters.iter().copied());
            found.warnings.push(format!(
                "{line}: no character named '{name}' plays in this campaign{hint}"
            ));
        }
    };
    for phase in &orders.activities.phases {
        if let Activity::Follow { leader } = &phase.activity {
            check_character("Activities", leader);
        }
    }
    if let Blocking::Named(names) = &orders.block {
        for name in names {
            check_character("Block", name);
        }
    }
    found
}

/// Every weapon, armour, treasure and horse of the game, by name.
pub fn item_names(data: &GameData) -> impl Iterator<Item = &str> {
    data.weapons
        .iter()
        .map(|w| w.name.as_str())
        .chain(data.armor.iter().map(|a| a.name.as_str()))
        .chain(data.treasures.iter().map(|t| t.name.as_str()))
        .chain(data.horses.iter().map(|h| h.name.as_str()))
}

/// The line (from 1) of `text` holding the instruction a check message is
/// about: messages start with the instruction's key (`Buy: ...`); 1 when no
/// line has that key.
pub fn line_of_key(text: &str, message: &str) -> usize {
    let Some((key, _)) = message.split_once(':') else {
        return 1;
    };
    text.lines()
        .position(|line| {
            line.split_once(':')
                .is_some_and(|(k, _)| k.trim().eq_ignore_ascii_case(key.trim()))
        })
        .map_or(1, |index| index + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data;
    use crate::orders::parse_day_orders;

    fn check(text: &str) -> NameCheck {
        let data = data::get().unwrap();
        let orders = parse_day_orders(text, 1, data).unwrap();
        check_names(&orders, data, &["Amazon", "Elf", "Black Knight"])
    }

    #[test]
    fn known_names_pass() {
        let found =
            check("F Elf\nBuy: Shield up to 10; Broadsword\nHire: Rogues\nBlock: Black Knight");
        assert_eq!(found, NameCheck::default());
    }

    #[test]
    fn unknown_items_and_natives_are_errors_with_suggestions() {
        let found = check("H\nBuy: Sheild up to 10\nHire: Rouges");
        assert_eq!(found.errors.len(), 2, "{found:?}");
        assert!(found.errors[0].contains("did you mean Shield"), "{found:?}");
        assert!(found.errors[1].contains("did you mean Rogue"), "{found:?}");
    }

    /// 3.1 10.E.7.2.1: with two Realms combined orders name the second
    /// game's tiles, items and natives by their mark; in a one-Realm game
    /// the mark names nothing.
    #[test]
    fn the_second_games_mark_reads_only_with_two_realms() {
        let combined = data::combined().unwrap();
        let text = "M AVII5\nBuy: Amulet II\nHire: Rogues II; Rogue II 3";
        let orders = parse_day_orders(text, 1, combined).unwrap();
        let found = check_names(&orders, combined, &["Amazon"]);
        assert_eq!(found, NameCheck::default());

        let restart = parse_day_orders("H\nCharacter: Wizard II", 1, combined).unwrap();
        let found = check_names(&restart, combined, &["Amazon"]);
        assert!(
            found.errors[0].contains("not implemented yet with Combining Realms"),
            "{found:?}"
        );

        let one = data::get().unwrap();
        assert!(parse_day_orders("M AVII5", 1, one).is_err());
        let orders = parse_day_orders("H\nBuy: Amulet II\nHire: Rogues II", 1, one).unwrap();
        let found = check_names(&orders, one, &["Amazon"]);
        assert_eq!(found.errors.len(), 2, "{found:?}");
        assert!(found.errors[0].contains("is not an item"), "{found:?}");
    }

    #[test]
    fn characters_outside_the_campaign_are_warnings() {
        let found = check("F Wizard\nBlock: Amazn");
        assert!(found.errors.is_empty());
        assert_eq!(found.warnings.len(), 2, "{found:?}");
        assert!(
            found.warnings[1].contains("did you mean Amazon"),
            "{found:?}"
        );
    }
}
