//! Treachery (3.1 8.4.2g): when a character names one of his own hired
//! natives as a target, every member of that group he has hired rebels at
//! once, wherever it is on the map: they become unhired, and those here
//! battle him for the rest of the day; he loses Fame equal to the
//! Notoriety bounty of each rebel. The day's Evening takes them off his
//! payroll, the members elsewhere included (`day/evening.rs`).
//! Attacking another character's hired native is no treachery: the native
//! stays hired, and its death earns the killer its bounty and notoriety
//! and costs its employer the notoriety (8.7, `spoils.rs`).
//!
//! Extended Treachery (the `extended_treachery` toggle, 3.1 10.B.5):
//! sending a hired native against a member of his own group, by luring it
//! onto his sheet or by deploying him against it, rebels the group the
//! same way; the rebels are the employer's hired natives of that group,
//! the one sent included. Either way, rebels fighting unhired natives or
//! monsters leave them; rebels fighting characters or hirelings stay on
//! those sheets and battle those characters for the rest of the day
//! (8.4.2g.1-2, 10.B.5.2). realmgm's ruling: the traitor loses Fame, as
//! 8.4.2g states and BIMR3 follows, not the Notoriety 10.B.5.3 names.

use super::Battle;
use super::log::{CombatLine, Seen};
use super::model::FighterId;

/// `who` targets `target`: if it is his own hireling, its group turns.
pub fn on_target(battle: &mut Battle, who: FighterId, target: FighterId) {
    let Some(group) = battle
        .denizen(target)
        .filter(|d| d.employer == Some(who))
        .and_then(|d| {
            d.group
                .clone()
                .or_else(|| Some(battle.name(target).to_string()))
        })
    else {
        return;
    };
    let turned = rebel(battle, who, &group, Some(target));
    let natives: Vec<String> = turned.iter().map(|&n| battle.name(n).to_string()).collect();
    let character = battle.name(who).to_string();
    battle.say(
        Seen::Clearing,
        CombatLine::Treachery {
            character,
            group: group.clone(),
            natives,
        },
    );
    lose_fame(battle, who, &turned);
    battle.treacheries.push((who, group));
}

/// Extended Treachery: `who` sent his hired `native` against `target`
/// (a lure or a deployment).
pub fn on_sent_against(battle: &mut Battle, who: FighterId, native: FighterId, target: FighterId) {
    if !battle.rules.extended_treachery {
        return;
    }
    let group_of = |id: FighterId| battle.denizen(id).and_then(|d| d.group.clone());
    let hired = battle
        .denizen(native)
        .is_some_and(|d| d.employer == Some(who));
    let (Some(group), Some(target_group)) = (group_of(native), group_of(target)) else {
        return;
    };
    if !hired || group != target_group {
        return;
    }
    let turned = rebel(battle, who, &group, None);
    let line = CombatLine::ExtendedTreachery {
        character: battle.name(who).to_string(),
        native: battle.name(native).to_string(),
        target: battle.name(target).to_string(),
        natives: turned.iter().map(|&n| battle.name(n).to_string()).collect(),
    };
    battle.say(Seen::Clearing, line);
    lose_fame(battle, who, &turned);
    battle.treacheries.push((who, group));
}

/// Every member of `group` (and `also`) that `who` hired turns unhired and
/// battles him; they leave the sheets they stood on as hired natives.
fn rebel(
    battle: &mut Battle,
    who: FighterId,
    group: &str,
    also: Option<FighterId>,
) -> Vec<FighterId> {
    let mut turned = Vec::new();
    for id in 0..battle.fighters.len() {
        let same = Some(id) == also
            || battle
                .denizen(id)
                .is_some_and(|d| d.group.as_deref() == Some(group));
        if !same || !battle.in_play(id) {
            continue;
        }
        if let Some(d) = battle.denizen_mut(id)
            && d.employer == Some(who)
        {
            d.employer = None;
            d.battling.insert(who);
            turned.push(id);
        }
    }
    // A rebel fighting a character or a hireling stays where he is and
    // battles that character for the day; his fights with monsters and
    // unhired natives are cancelled (3.1 8.4.2g.1-2, 10.B.5.2).
    let mut kept = Vec::new();
    let mut dropped = Vec::new();
    for (&d, &owner) in &battle.sheet {
        let (rebel, foe) = if turned.contains(&d) {
            (d, owner)
        } else if turned.contains(&owner) {
            (owner, d)
        } else {
            continue;
        };
        match side_of(battle, foe) {
            Some(side) => kept.push((rebel, side)),
            None => dropped.push(d),
        }
    }
    for d in dropped {
        battle.sheet.remove(&d);
    }
    for (rebel, side) in kept {
        if let Some(d) = battle.denizen_mut(rebel) {
            d.battling.insert(side);
        }
    }
    battle.plays.eventful = true;
    // The rest of the group battles the traitor as well.
    if let Some(&first) = turned.first() {
        super::encounter::make_group_battle(battle, first, who);
    }
    turned
}

/// The character on whose side `foe` fights: `foe` himself, or the
/// employer of a hired native; none for a monster or an unhired native.
fn side_of(battle: &Battle, foe: FighterId) -> Option<FighterId> {
    if battle.hero(foe).is_some() {
        Some(foe)
    } else {
        battle.denizen(foe)?.employer
    }
}

/// The traitor loses Fame equal to the Notoriety bounty of each rebel
/// (3.1 8.4.2g); monsters under him cost none (7.7.5g).
fn lose_fame(battle: &mut Battle, who: FighterId, turned: &[FighterId]) {
    let natives: Vec<FighterId> = turned
        .iter()
        .copied()
        .filter(|&n| battle.denizen(n).is_some_and(|d| !d.monster))
        .collect();
    if natives.is_empty() {
        return;
    }
    let fame: i32 = natives
        .iter()
        .filter_map(|&n| battle.denizen(n).map(|d| d.notoriety))
        .sum();
    if let Some(h) = battle.hero_mut(who) {
        h.fame -= fame;
    }
    let line = CombatLine::TreacheryFame {
        character: battle.name(who).to_string(),
        rebels: natives
            .iter()
            .map(|&n| battle.name(n).to_string())
            .collect(),
        fame,
    };
    battle.say(Seen::Clearing, line);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::script;
    use crate::test_support::data;

    fn battle(rules: &str) -> Battle<'static> {
        let text = format!(
            "clearing = \"CV4\"\nrules = [{rules}]\n[[character]]\nname = \"Amazon\"\n\
             [[denizen]]\nid = \"Company 1\"\nemployer = \"Amazon\"\n\
             [[denizen]]\nid = \"Company 3\"\nemployer = \"Amazon\"\n\
             [[denizen]]\nid = \"Company 2\"\n[[denizen]]\nid = \"Rogue 1\"\n"
        );
        script::load(data(), "test.toml", &text)
            .unwrap_or_else(|e| panic!("{e}"))
            .battle
    }

    #[test]
    fn deploying_against_his_own_group_rebels_it_only_with_the_rule() {
        let mut off = battle("");
        on_sent_against(&mut off, 0, 1, 3);
        assert_eq!(off.denizen(1).and_then(|d| d.employer), Some(0));
        let mut on = battle("\"extended_treachery\"");
        on_sent_against(&mut on, 0, 1, 4);
        assert_eq!(
            on.denizen(1).and_then(|d| d.employer),
            Some(0),
            "a Rogue is not of that group"
        );
        on_sent_against(&mut on, 0, 1, 3);
        for id in [1, 2] {
            let d = on.denizen(id).expect("a Company man");
            assert_eq!(d.employer, None);
            assert!(d.battling.contains(&0));
        }
        assert!(on.denizen(3).expect("Company 2").battling.contains(&0));
    }

    /// 3.1 10.B.5.2: of the rebels, the one sent against his own group
    /// leaves it; the one fighting the Black Knight stays on his sheet and
    /// battles him for the day.
    #[test]
    fn rebels_fighting_another_character_stay_on_his_sheet_and_battle_him() {
        let text = "clearing = \"CV4\"\nrules = [\"extended_treachery\"]\n\
                    [[character]]\nname = \"Amazon\"\n[[character]]\nname = \"Black Knight\"\n\
                    [[denizen]]\nid = \"Company 1\"\nemployer = \"Amazon\"\n\
                    [[denizen]]\nid = \"Company 3\"\nemployer = \"Amazon\"\n\
                    [[denizen]]\nid = \"Company 2\"\n";
        let mut b = script::load(data(), "test.toml", text)
            .unwrap_or_else(|e| panic!("{e}"))
            .battle;
        b.sheet.insert(2, 1);
        b.sheet.insert(4, 3);
        on_sent_against(&mut b, 0, 3, 4);
        assert_eq!(b.sheet.get(&2), Some(&1), "still on the Knight's sheet");
        assert!(b.denizen(2).expect("Company 1").battling.contains(&1));
        assert_eq!(b.denizen(2).and_then(|d| d.employer), None);
        assert_eq!(b.sheet.get(&4), None, "Company 3 leaves Company 2");
    }
}
