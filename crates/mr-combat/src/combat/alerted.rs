//! Alerted Monsters (3.1 10.B.2, the `alerted_monsters` toggle): when a
//! combat starts in a clearing where any character, or any hired or
//! controlled denizen, stands unhidden, every unhired and uncontrolled
//! denizen there turns dark side up, and so do their heads and clubs. A
//! Tremendous monster stays red side down, though its head or club turns.
//! When everyone on the characters' side is hidden the denizens start
//! light side up as usual. From then on they change tactics normally.
//!
//! The rule's Variant (the `alerted_monsters_variant` toggle) instead rolls
//! two dice for each unhired Medium or Heavy monster, head and club as the
//! combat begins, hidden characters or not: a 6 on either die starts it
//! dark side up.

use realmgm_core::dice::{Dice, DiceCount};

use super::Battle;
use super::log::{CombatLine, Seen};
use super::model::FighterKind;
use crate::state::CounterSide;

/// Turn the unhired denizens dark side up if anyone on the characters'
/// side is in sight, or as the Variant's dice say; call once, as the combat
/// begins.
pub fn at_start(battle: &mut Battle, dice: &mut Dice) {
    if battle.rules.alerted_monsters_variant {
        variant(battle, dice);
        return;
    }
    if !battle.rules.alerted_monsters {
        return;
    }
    let in_sight = battle.fighters.iter().any(|f| {
        f.out.is_none()
            && !f.hidden
            && match &f.kind {
                FighterKind::Character(_) => true,
                FighterKind::Denizen(d) => d.employer.is_some(),
            }
    });
    if !in_sight {
        return;
    }
    let mut turned = Vec::new();
    for fighter in &mut battle.fighters {
        let FighterKind::Denizen(den) = &mut fighter.kind else {
            continue;
        };
        if fighter.out.is_some() || den.employer.is_some() {
            continue;
        }
        if !den.tremendous && den.side == CounterSide::Light {
            den.side = CounterSide::Dark;
            turned.push(fighter.name.clone());
        }
        if den.side == CounterSide::Light {
            for part in den.parts.iter_mut().filter(|p| !p.dark_up) {
                part.dark_up = true;
                turned.push([fighter.name.as_str(), " (", part.name.as_str(), ")"].concat());
            }
        }
    }
    if !turned.is_empty() {
        let line = CombatLine::MonstersAlerted {
            counters: turned,
            rolled: false,
        };
        battle.say(Seen::Clearing, line);
    }
}

/// The Variant: a roll per unhired Medium or Heavy monster, head and club.
fn variant(battle: &mut Battle, dice: &mut Dice) {
    let mut turned = Vec::new();
    for id in 0..battle.fighters.len() {
        let Some(den) = battle.denizen(id) else {
            continue;
        };
        if !battle.in_play(id) || den.employer.is_some() {
            continue;
        }
        let name = battle.name(id).to_string();
        let body = den.changes_tactics() && den.side == CounterSide::Light;
        let parts: Vec<String> = den.parts.iter().map(|p| p.name.clone()).collect();
        if body && rolls_a_six(battle, dice, &name) {
            if let Some(d) = battle.denizen_mut(id) {
                d.side = CounterSide::Dark;
            }
            turned.push(name.clone());
            continue;
        }
        for (i, part) in parts.iter().enumerate() {
            let label = [name.as_str(), " (", part.as_str(), ")"].concat();
            if rolls_a_six(battle, dice, &label) {
                if let Some(p) = battle.denizen_mut(id).and_then(|d| d.parts.get_mut(i)) {
                    p.dark_up = true;
                }
                turned.push(label);
            }
        }
    }
    if !turned.is_empty() {
        let line = CombatLine::MonstersAlerted {
            counters: turned,
            rolled: true,
        };
        battle.say(Seen::Clearing, line);
    }
}

/// Two dice for `counter`'s start side: a 6 on either turns it.
fn rolls_a_six(battle: &mut Battle, dice: &mut Dice, counter: &str) -> bool {
    let what = format!("alerted/{counter}");
    let meaning = format!("{counter} starts dark side up on a 6");
    let record = battle.roll(dice, &what, "10.B.2", DiceCount::Two, meaning);
    record.faces.contains(&6)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::script;
    use crate::test_support::data;

    fn battle(rules: &str, hidden: bool, denizens: &[&str]) -> script::Scripted<'static> {
        let mut text = format!(
            "clearing = \"CV4\"\nrules = [{rules}]\n[[character]]\nname = \"Amazon\"\n\
             hidden = {hidden}\n"
        );
        for id in denizens {
            text.push_str(&format!("[[denizen]]\nid = \"{id}\"\n"));
        }
        script::load(data(), "test.toml", &text).unwrap_or_else(|e| panic!("{e}"))
    }

    fn side(s: &script::Scripted, id: usize) -> CounterSide {
        s.battle.denizen(id).expect("a denizen").side
    }

    /// 3.1 10.B.2: an unhidden character alerts the wolf and the natives;
    /// the Giant stays red side down but its club turns.
    #[test]
    fn alerted_monsters_turn_dark_when_a_character_is_in_sight() {
        let mut s = battle(
            "\"alerted_monsters\"",
            false,
            &["Wolf A 1", "Company 1", "Giant 1"],
        );
        at_start(&mut s.battle, &mut s.dice);
        assert_eq!(side(&s, 1), CounterSide::Dark);
        assert_eq!(side(&s, 2), CounterSide::Dark);
        assert_eq!(side(&s, 3), CounterSide::Light, "Tremendous: red side down");
        let giant = s.battle.denizen(3).expect("the Giant");
        assert!(giant.parts.iter().all(|p| p.dark_up), "its club turns");
    }

    /// 3.1 10.B.2: everyone hidden, or the rule off: light side up.
    #[test]
    fn alerted_monsters_stay_light_when_nobody_is_in_sight_or_the_rule_is_off() {
        let mut hidden = battle("\"alerted_monsters\"", true, &["Wolf A 1"]);
        at_start(&mut hidden.battle, &mut hidden.dice);
        assert_eq!(side(&hidden, 1), CounterSide::Light);
        let mut off = battle("", false, &["Wolf A 1"]);
        at_start(&mut off.battle, &mut off.dice);
        assert_eq!(side(&off, 1), CounterSide::Light);
    }
}
