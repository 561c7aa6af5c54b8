//! Checking a `Combat:` line against the character who sends it: the
//! chits he names must be his, the fighters he names must be in
//! the game, and the spells and belongings he names should be his.
//!
//! A chit he does not have and a fighter nobody in the game is called are
//! errors with the nearest valid names: no day could make them right. A
//! spell he does not know or a belonging he does not carry are warnings,
//! since he may learn or find it before the evening.

use super::dealing_names::{dropped_here, hired_by_these_orders};
use super::names::NameCheck;
use super::sheet::DayOrders;
use crate::combat::Tactics;
use crate::combat::tactics::{Lure, Target};
use crate::data::GameData;
use crate::state::{CharacterState, MrState};
use realmgm_core::suggest;

/// Check `tactics` for `me` in `state`; `orders` are the day's orders they
/// came in, whose `Hire:` line may hire the natives they send.
pub fn check_tactics(
    tactics: &Tactics,
    orders: &DayOrders,
    data: &GameData,
    state: &MrState,
    me: &CharacterState,
) -> NameCheck {
    let mut found = NameCheck::default();
    let carried: Vec<&str> = me
        .belongings
        .iter()
        .map(|b| b.item.name.as_str())
        .chain(me.weapon.as_deref())
        .chain(me.armor.iter().map(String::as_str))
        .collect();
    for (clause, chit) in [
        ("attack with", &tactics.attack_with),
        ("maneuver with", &tactics.maneuver_with),
    ] {
        let Some(chit) = chit else { continue };
        let is_card = data.treasure(chit).is_some();
        if chit == "horse" {
            continue;
        }
        if is_card {
            if !carried.contains(&chit.as_str()) {
                found.warnings.push(format!(
                    "Combat: {clause} {chit}: the {} does not carry the {chit} now",
                    me.name
                ));
            }
            continue;
        }
        let own = me.chits.iter().map(|c| c.chit.as_str());
        if !own.clone().any(|c| c.eq_ignore_ascii_case(chit)) {
            found.errors.push(format!(
                "Combat: {clause} {chit}: the {} has no such chit{}",
                me.name,
                nearest_or_all(chit, own)
            ));
        }
    }
    let fighters: Vec<&str> = state
        .denizens
        .keys()
        .map(String::as_str)
        .chain(data.characters.iter().map(|c| c.name.as_str()))
        .collect();
    // A clause's own words come first among the suggestions: `target
    // weakst` means `target weakest`, not a fighter's name.
    let mut check_fighter = |clause: &str, name: &str, words: &[&str]| {
        if !fighters.iter().any(|f| f.eq_ignore_ascii_case(name)) {
            let near = suggest::nearest(name, words.iter().copied());
            let hint = match near.first() {
                Some(word) => format!(" (did you mean '{clause} {word}'?)"),
                None => suggest::did_you_mean(name, fighters.iter().copied()),
            };
            found.errors.push(format!(
                "Combat: {clause} {name}: no character, monster or native is called '{name}'{hint}"
            ));
        }
    };
    if let Target::Named(name) = &tactics.target {
        check_fighter("target", name, &["own", "weakest", "strongest", "nobody"]);
    }
    if let Lure::Named(names) = &tactics.lure {
        for name in names {
            check_fighter("lure", name, &["nobody", "everyone", "weakest"]);
        }
    }
    if let Some(name) = &tactics.charge {
        check_fighter("charge", name, &[]);
    }
    let sent: Vec<(String, &String, &String)> = tactics
        .hireling_lures
        .iter()
        .map(|(n, t)| (format!("{n} lure {t}"), n, t))
        .chain(
            tactics
                .hireling_deploys
                .iter()
                .map(|(n, t)| (format!("deploy {n} against {t}"), n, t)),
        )
        .collect();
    for (clause, _, target) in &sent {
        let verb = clause
            .strip_suffix(target.as_str())
            .unwrap_or(clause)
            .trim_end();
        check_fighter(verb, target, &[]);
    }
    let hired = me.hirelings.iter().map(|h| h.native.as_str());
    for (clause, native, _) in &sent {
        if hired.clone().any(|h| suggest::same(h, native)) {
            continue;
        }
        // Hired by day, he fights for his employer that evening.
        if hired_by_these_orders(orders, data, native) {
            found.warnings.push(format!(
                "Combat: {clause}: {native} is not one of the {}'s hirelings yet; the clause \
                 counts if the Hire: line hires him by the evening",
                me.name
            ));
        } else {
            found.errors.push(format!(
                "Combat: {clause}: {native} is not one of the {}'s hirelings{}",
                me.name,
                nearest_or_all(native, hired.clone())
            ));
        }
    }
    if let Some(order) = &tactics.cast {
        let (spell, target) = crate::combat::casting::split_order(order);
        let order = crate::combat::casting::read_order(data, &spell, target.as_deref());
        // An item casts only its red numeral's type (3.1 4.6.6b): printed
        // on the card, so no day makes a wrong type right.
        if let Some(why) = crate::combat::casting::wrong_item_type(data, state, &order) {
            found.errors.push(format!("Combat: {why}"));
        }
        let through_item = order
            .with
            .as_deref()
            .is_some_and(|with| data.treasures.iter().any(|t| suggest::same(&t.name, with)));
        let spell = order.spell;
        let known = me.magic.spells.iter().map(String::as_str);
        // A spell cast through an artifact or book is its awakened Spell
        // card, not one he must know (8.3.9c).
        if !through_item && !known.clone().any(|s| suggest::same(s, &spell)) {
            found.warnings.push(format!(
                "Combat: cast {spell}: the {} knows no such spell now{}",
                me.name,
                nearest_or_all(&spell, known)
            ));
        }
    }
    let seat = state.characters.iter().position(|c| c.name == me.name);
    // A Phase spell's chit he holds is activated like an item (3.1 4.6.7f).
    let held = seat
        .map(|i| crate::magic::phase_chit::held(state, i))
        .unwrap_or_default();
    for (clause, item) in [
        ("abandon", &tactics.abandon),
        ("activate", &tactics.activate),
        ("inactivate", &tactics.inactivate),
    ] {
        let Some(item) = item else { continue };
        let a_held_chit = clause == "activate" && held.iter().any(|h| suggest::same(h, item));
        if !a_held_chit && !carried.iter().any(|c| suggest::same(c, item)) {
            found.warnings.push(format!(
                "Combat: {clause} {item}: the {} does not carry it now{}",
                me.name,
                nearest_or_all(item, carried.iter().copied())
            ));
        }
    }
    // Picked up in the rounds of combat (3.1 10.A.5.5): it may be dropped
    // there before then, by day or in the combat itself.
    for (item, _) in &tactics.pick_up {
        if !dropped_here(state, me, item) {
            found.warnings.push(format!(
                "Combat: pick up {item}: no {item} lies dropped in your clearing now; unless \
                 someone drops it there first, the clause is not played"
            ));
        }
    }
    let colour_chits = seat
        .map(|i| crate::magic::colour::colour_chits(state, i))
        .unwrap_or_default();
    let energizing = tactics
        .energize
        .iter()
        .map(|(spell, chit)| (format!("energize {spell} with {chit}"), chit));
    let fatiguing = tactics
        .fatigue
        .iter()
        .map(|chit| (format!("fatigue {chit}"), chit));
    for (clause, chit) in fatiguing.chain(energizing) {
        if !colour_chits
            .iter()
            .any(|(_, printed, _)| crate::magic::colour::names_chit(printed, chit))
        {
            found.warnings.push(format!(
                "Combat: {clause}: the {} holds no such colour chit now (an enchanted, \
                 active MAGIC chit); the clause counts only while he does",
                me.name
            ));
        }
    }
    found
}

/// " (did you mean …?)" when a name is close, else the whole list.
fn nearest_or_all<'a>(wanted: &str, names: impl Iterator<Item = &'a str>) -> String {
    // A character may have two chits alike: each name once.
    let all: Vec<&str> = names
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let hint = suggest::did_you_mean(wanted, all.iter().copied());
    if !hint.is_empty() {
        return hint;
    }
    if all.is_empty() {
        String::new()
    } else {
        format!(" (the choices are {})", all.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::orders::parse_tactics;
    use crate::test_support::{data, game_played_by};

    fn check(combat: &str) -> NameCheck {
        let state = game_played_by(&["Amazon", "Elf"], |i| format!("P{}", i + 1));
        let tactics = parse_tactics(combat, data()).expect("the line reads");
        check_tactics(
            &tactics,
            &DayOrders::default(),
            data(),
            &state,
            &state.characters[0],
        )
    }

    #[test]
    fn his_own_chits_and_real_fighters_pass() {
        let state = game_played_by(&["Amazon"], |_| "P1".into());
        let fight = state.characters[0]
            .chits
            .iter()
            .find(|c| c.chit.starts_with("FIGHT"))
            .unwrap()
            .chit
            .clone();
        let giant = state
            .denizens
            .keys()
            .find(|k| k.starts_with("Giant"))
            .unwrap()
            .clone();
        let found = check(&format!("attack with {fight}, target {giant}, lure Elf"));
        assert_eq!(found, NameCheck::default());
    }

    #[test]
    fn a_chit_he_lacks_and_an_unknown_fighter_are_errors_with_the_nearest_names() {
        let found = check("attack with FIGHT T2, target Gaint 1, lure Nobody Special");
        assert_eq!(found.errors.len(), 3, "{found:?}");
        assert!(
            found.errors[0]
                .starts_with("Combat: attack with FIGHT T2: the Amazon has no such chit"),
            "{found:?}"
        );
        assert!(
            found.errors[1].contains("did you mean Giant 1"),
            "{found:?}"
        );
        assert!(found.errors[2].contains("'Nobody Special'"), "{found:?}");
    }

    /// The README's `Combat:` example in its orders block, and the
    /// character its comment names, whose chits it plays.
    fn readme_combat_example() -> (String, String) {
        let readme =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
                .expect("the README is shipped");
        let line = readme
            .lines()
            .find(|l| l.starts_with("Combat: "))
            .expect("the README's orders block has a Combat: line");
        let (value, comment) = line["Combat: ".len()..]
            .split_once('#')
            .unwrap_or_else(|| panic!("the example names its character in a comment: {line}"));
        let named: Vec<&str> = data()
            .characters
            .iter()
            .map(|c| c.name.as_str())
            .filter(|name| comment.contains(name))
            .collect();
        let [character] = named[..] else {
            panic!("the example's comment names one character, not {named:?}: {line}");
        };
        (value.trim().to_string(), character.to_string())
    }

    #[test]
    fn the_readmes_combat_example_plays_the_chits_of_the_character_it_names() {
        let (value, character) = readme_combat_example();
        let state = game_played_by(&[character.as_str()], |_| "P1".into());
        let tactics = parse_tactics(&value, data())
            .unwrap_or_else(|(_, e)| panic!("the README's Combat: example does not read: {e}"));
        let orders = DayOrders::default();
        let found = check_tactics(&tactics, &orders, data(), &state, &state.characters[0]);
        assert_eq!(found, NameCheck::default(), "the {character}: {value}");
        assert!(
            tactics.attack_with.is_some() && tactics.maneuver_with.is_some(),
            "the example shows both chits: {value}"
        );
    }

    #[test]
    fn a_misspelt_clause_word_is_suggested_before_any_name() {
        let found = check("target weakst, lure nobdy");
        assert_eq!(found.errors.len(), 2, "{found:?}");
        assert!(
            found.errors[0].ends_with("(did you mean 'target weakest'?)"),
            "{found:?}"
        );
        assert!(
            found.errors[1].ends_with("(did you mean 'lure nobody'?)"),
            "{found:?}"
        );
    }

    #[test]
    fn a_hireling_luring_or_deployed_must_be_his() {
        let mut state = game_played_by(&["Amazon"], |_| "P1".into());
        state.characters[0].hirelings.push(crate::state::Hireling {
            native: "Woodfolk 1".into(),
            days_left: 3,
        });
        let lures =
            "Woodfolk 1 lure Giant 1, Woodfolk 2 lure Giant 1, deploy Woodfolk 3 against Elf";
        let tactics = parse_tactics(lures, data()).expect("the line reads");
        let orders = DayOrders::default();
        let found = check_tactics(&tactics, &orders, data(), &state, &state.characters[0]);
        assert_eq!(found.errors.len(), 2, "{found:?}");
        assert!(
            found.errors[0].starts_with(
                "Combat: Woodfolk 2 lure Giant 1: Woodfolk 2 is not one of the Amazon's hirelings"
            ),
            "{found:?}"
        );
        assert!(found.errors[1].starts_with("Combat: deploy Woodfolk 3 against Elf: Woodfolk 3"));
    }

    #[test]
    fn a_hireling_the_same_mail_hires_may_lure_that_evening() {
        let state = game_played_by(&["Amazon"], |_| "P1".into());
        let orders = crate::orders::parse_day_orders(
            "HR\nHire: Woodfolk\nCombat: Woodfolk 1 lure Giant 1",
            1,
            data(),
        )
        .unwrap();
        let tactics = orders.combat.clone().unwrap();
        let found = check_tactics(&tactics, &orders, data(), &state, &state.characters[0]);
        assert!(found.errors.is_empty(), "{found:?}");
        assert_eq!(
            found.warnings,
            [
                "Combat: Woodfolk 1 lure Giant 1: Woodfolk 1 is not one of the Amazon's hirelings \
              yet; the clause counts if the Hire: line hires him by the evening"
            ]
        );
    }

    /// 3.1 10.A.5.5: a belonging to pick up in combat need not lie there
    /// yet, so naming one that does not is a warning.
    #[test]
    fn a_pick_up_of_nothing_dropped_here_is_a_warning() {
        let mut state = game_played_by(&["Amazon"], |_| "P1".into());
        let here = state.characters[0].position.clone();
        let spear = crate::state::Item {
            kind: crate::state::ItemKind::Weapon,
            name: "Spear".into(),
        };
        state.drop_in_front("Elf", &here, spear);
        let tactics = parse_tactics("pick up Spear, pick up Helmet", data()).unwrap();
        let orders = DayOrders::default();
        let found = check_tactics(&tactics, &orders, data(), &state, &state.characters[0]);
        assert!(found.errors.is_empty(), "{found:?}");
        assert_eq!(found.warnings.len(), 1, "{found:?}");
        assert!(found.warnings[0].starts_with("Combat: pick up Helmet: no Helmet lies dropped"));
    }

    #[test]
    fn a_spell_he_does_not_know_or_an_item_he_lacks_is_a_warning() {
        let found = check("cast Fiery Blast, activate Lost Keys");
        assert!(found.errors.is_empty(), "{found:?}");
        assert_eq!(found.warnings.len(), 2, "{found:?}");
        assert!(found.warnings[0].contains("the Amazon knows no such spell now"));
        assert!(found.warnings[1].contains("does not carry it now"));
    }

    /// The Good Book casts only type I spells (3.1 4.6.6b): its type VII
    /// Control Bats is refused when the orders are read; its type I Peace
    /// passes, though the Amazon has not recorded it.
    #[test]
    fn an_item_asked_for_a_spell_of_another_type_is_an_error() {
        let found = check("cast Control Bats with Good Book on Giant Bat 1");
        assert_eq!(
            found.errors,
            [
                "Combat: cast Control Bats with Good Book: Control Bats is type VII and the Good \
              Book casts only type I spells (the red numeral on its card, 3.1 4.6.6b)"
            ]
        );
        let found = check("cast Peace with Good Book on Giant 1");
        assert_eq!(found, NameCheck::default());
    }

    /// A held Protection from Magic chit is activated like an item (3.1
    /// 4.6.7f), and a colour chit to fatigue must be one he holds (8.3.9a.3).
    #[test]
    fn a_held_phase_chit_may_be_activated_and_a_colour_chit_he_lacks_is_a_warning() {
        let mut state = game_played_by(&["Amazon", "Elf"], |i| format!("P{}", i + 1));
        state
            .magic
            .in_effect
            .push(crate::state::magic::SpellInEffect {
                id: 0,
                spell: "Protection from Magic".into(),
                caster: "Elf".into(),
                with: crate::state::magic::CastWith::Chit { index: 0 },
                targets: vec![crate::state::magic::Aim::Character {
                    name: "Amazon".into(),
                }],
                duration: crate::data::spells::Duration::Phase,
                cast_on: 1,
                inert: false,
                held: true,
                detail: None,
                untied: false,
            });
        let tactics = parse_tactics(
            "activate Protection from Magic, fatigue MAGIC III2*",
            data(),
        )
        .expect("the line reads");
        let found = check_tactics(
            &tactics,
            &DayOrders::default(),
            data(),
            &state,
            &state.characters[0],
        );
        assert!(found.errors.is_empty(), "{found:?}");
        assert_eq!(found.warnings.len(), 1, "{found:?}");
        assert!(found.warnings[0].contains("holds no such colour chit"));
    }
}
