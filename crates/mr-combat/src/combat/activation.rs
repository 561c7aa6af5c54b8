//! Activating and inactivating belongings in the Encounter step (play summary
//! III.A.4): a character who takes no other action (no charge, alert, run
//! or spell) may make one belonging active and one inactive — a weapon,
//! a piece of armour, a horse or a treasure card.
//!
//! realmgm's rulings:
//! - One activation and one inactivation per round. Activating a weapon,
//!   a horse, a piece of armour of a kind he already wears, or a Boots or
//!   Gloves card while another such card is active puts the old one
//!   inactive at once: that is his one inactivation, so he may not name
//!   another in the same play.
//! - Weight does not limit it: the seed measures a MOVE chit against
//!   everything he carries, active or not (III.B.5), so the weight he must
//!   match is the same before and after (the day rules place no other
//!   limit on activating). No horse may be made active in a cave.
//! - A weapon made active starts unalerted; one made inactive is
//!   unalerted. Armour keeps its damage. What changes takes effect in this
//!   round's Melee step, and the day state takes the result after combat
//!   ([`write_back`]).
//! - An active Boots card is played as a MOVE chit and an active Gloves card
//!   as a FIGHT chit of the strength and time printed on it (2nd-edition optional combat rule 5.1
//!   and §5.2 name Boots cards among the MOVE plays). A card has no effort
//!   asterisks: playing it costs no effort, so it never counts toward the
//!   effort limit and is never fatigued, and wounds never fall on it. It
//!   is played once a round, like a chit.

use serde::{Deserialize, Serialize};

use crate::data::GameData;
use crate::data::characters::{ActionChit, ChitAction};
use crate::data::treasures::TreasureEffect;
use crate::state::{Belonging, CharacterState, ChitCondition, Item, ItemKind};

use super::Battle;
use super::build;
use super::error::CombatError;
use super::log::CombatLine;
use super::model::{FighterId, HeroArmor, HeroChit, HeroHorse, HeroWeapon};
use super::tactics::Tactics;

/// What a character carries beyond what he fights with, what he picked up
/// and the switches he made this combat.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Kit {
    /// Inactive weapons, armour and horses, with their combat stats.
    #[serde(default)]
    pub spare: Vec<Spare>,
    /// His treasure cards, active or not.
    #[serde(default)]
    pub treasures: Vec<KitTreasure>,
    /// Every switch in order: the item and whether it is now active.
    #[serde(default)]
    pub switched: Vec<(Item, bool)>,
    /// Dropped belongings he picked up this combat (3.1 10.A.5.5,
    /// `pick_up.rs`), also among his belongings: the day gives them to
    /// him inactive.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub picked_up: Vec<Item>,
}

/// An inactive weapon, piece of armour or horse.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "spare", rename_all = "snake_case")]
pub enum Spare {
    Weapon(HeroWeapon),
    Armor(HeroArmor),
    Horse(HeroHorse),
}

impl Spare {
    pub fn name(&self) -> &str {
        match self {
            Spare::Weapon(w) => &w.name,
            Spare::Armor(a) => &a.name,
            Spare::Horse(h) => &h.name,
        }
    }

    fn item(&self) -> Item {
        let kind = match self {
            Spare::Weapon(_) => ItemKind::Weapon,
            Spare::Armor(_) => ItemKind::Armor,
            Spare::Horse(_) => ItemKind::Horse,
        };
        Item {
            kind,
            name: self.name().to_string(),
        }
    }
}

/// A treasure card he carries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KitTreasure {
    pub name: String,
    pub active: bool,
    /// A Boots or Gloves card: the MOVE or FIGHT chit it is played as
    /// while active (labelled with the card's name). One of each kind may
    /// be active.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<HeroChit>,
}

impl KitTreasure {
    /// Boots or Gloves, for a card played as a chit.
    fn slot(&self) -> Option<Slot> {
        self.card.as_ref().map(|c| {
            if c.can_move() {
                Slot::Boots
            } else {
                Slot::Gloves
            }
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Boots,
    Gloves,
}

/// The kit of a character from his belongings (item, active).
///
/// # Errors
/// An inactive weapon, armour or horse the data does not know.
pub fn kit<'a>(
    data: &GameData,
    belongings: impl IntoIterator<Item = (&'a Item, bool)>,
) -> Result<Kit, CombatError> {
    let mut kit = Kit::default();
    for (item, active) in belongings {
        match item.kind {
            ItemKind::Weapon if !active => {
                kit.spare
                    .push(Spare::Weapon(build::weapon(data, &item.name, false)?));
            }
            ItemKind::Armor if !active => {
                kit.spare
                    .push(Spare::Armor(build::armor(data, &item.name, false)?));
            }
            ItemKind::Horse if !active => {
                kit.spare
                    .push(Spare::Horse(build::horse(data, &item.name)?));
            }
            ItemKind::Treasure => {
                let card = data
                    .treasure(&item.name)
                    .and_then(|t| t.effects.iter().find_map(card_chit))
                    .map(|chit| HeroChit {
                        label: item.name.clone(),
                        chit,
                        condition: ChitCondition::Active,
                        unleashed: false,
                    });
                kit.treasures.push(KitTreasure {
                    name: item.name.clone(),
                    active,
                    card,
                });
            }
            _ => {}
        }
    }
    Ok(kit)
}

/// The chit a Boots or Gloves card is played as: no effort asterisks.
pub(super) fn card_chit(effect: &TreasureEffect) -> Option<ActionChit> {
    let (action, strength, time) = match *effect {
        TreasureEffect::MoveChit { strength, speed } => (ChitAction::Move, strength, speed),
        TreasureEffect::FightChit { strength, speed } => (ChitAction::Fight, strength, speed),
        _ => return None,
    };
    Some(ActionChit {
        action,
        strength: Some(strength),
        magic: None,
        time,
        effort: 0,
    })
}

fn same(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
        || crate::data::base_name(a.trim()).eq_ignore_ascii_case(b.trim())
}

/// What he could make active now, by name.
pub fn activatable(battle: &Battle, who: FighterId) -> Vec<String> {
    let Some(hero) = battle.hero(who) else {
        return Vec::new();
    };
    // No horse is active in a cave (play summary II.C).
    let mut names: Vec<String> = hero
        .kit
        .spare
        .iter()
        .filter(|s| !(battle.in_cave && matches!(s, Spare::Horse(_))))
        .map(|s| s.name().to_string())
        .collect();
    names.extend(
        hero.kit
            .treasures
            .iter()
            .filter(|t| !t.active)
            .map(|t| t.name.clone()),
    );
    // A Phase spell's chit is activated like an item (3.1 4.6.7f).
    names.extend(super::phase_chit::held(battle, who));
    names
}

/// What he could make inactive now, by name.
pub fn inactivatable(battle: &Battle, who: FighterId) -> Vec<String> {
    let Some(hero) = battle.hero(who) else {
        return Vec::new();
    };
    let mut names: Vec<String> = hero.weapon.iter().map(|w| w.name.clone()).collect();
    names.extend(
        hero.armor
            .iter()
            .filter(|a| !a.destroyed)
            .map(|a| a.name.clone()),
    );
    names.extend(
        hero.horse
            .iter()
            .filter(|h| !h.dead)
            .map(|h| h.name.clone()),
    );
    names.extend(
        hero.kit
            .treasures
            .iter()
            .filter(|t| t.active)
            .map(|t| t.name.clone()),
    );
    names
}

/// The Encounter options, in words.
pub fn options(battle: &Battle, who: FighterId) -> Vec<String> {
    let mut out: Vec<String> = activatable(battle, who)
        .into_iter()
        .map(|n| format!("activate {n}"))
        .collect();
    out.extend(
        inactivatable(battle, who)
            .into_iter()
            .map(|n| format!("inactivate {n}")),
    );
    out
}

/// The active belonging that activating `name` would put inactive (a
/// weapon, horse, armour of the same kind, or a card of the same slot).
fn displaced(battle: &Battle, who: FighterId, name: &str) -> Option<String> {
    let hero = battle.hero(who)?;
    if let Some(spare) = hero.kit.spare.iter().find(|s| same(s.name(), name)) {
        return match spare {
            Spare::Weapon(_) => hero.weapon.as_ref().map(|w| w.name.clone()),
            Spare::Horse(_) => hero
                .horse
                .as_ref()
                .filter(|h| !h.dead)
                .map(|h| h.name.clone()),
            Spare::Armor(piece) => hero
                .armor
                .iter()
                .find(|a| !a.destroyed && a.kind == piece.kind)
                .map(|a| a.name.clone()),
        };
    }
    let card = hero
        .kit
        .treasures
        .iter()
        .find(|t| !t.active && same(&t.name, name))?;
    let slot = card.slot()?;
    hero.kit
        .treasures
        .iter()
        .find(|t| t.active && t.slot() == Some(slot))
        .map(|t| t.name.clone())
}

/// Check a play that activates and/or inactivates.
///
/// # Errors
/// What he cannot switch, and what he could.
pub fn check(
    battle: &Battle,
    who: FighterId,
    activate: Option<&str>,
    inactivate: Option<&str>,
) -> Result<(), CombatError> {
    if activate.is_none() && inactivate.is_none() {
        return Err("name a belonging to activate or to inactivate".into());
    }
    let listing = |names: Vec<String>| {
        if names.is_empty() {
            "nothing".to_string()
        } else {
            names.join(", ")
        }
    };
    let spare_horse = |name: &str| {
        battle.hero(who).is_some_and(|h| {
            h.kit
                .spare
                .iter()
                .any(|s| matches!(s, Spare::Horse(_)) && same(s.name(), name))
        })
    };
    if let Some(name) = activate
        && battle.in_cave
        && spare_horse(name)
    {
        return Err(
            format!("the {name} cannot be made active: no horse is active in a cave").into(),
        );
    }
    if let Some(name) = activate
        && !activatable(battle, who).iter().any(|n| same(n, name))
    {
        return Err(format!(
            "no inactive {name} is carried to activate; inactive now: {}",
            listing(activatable(battle, who))
        )
        .into());
    }
    if let Some(name) = inactivate
        && !inactivatable(battle, who).iter().any(|n| same(n, name))
    {
        return Err(format!(
            "no active {name} is carried to inactivate; active now: {}",
            listing(inactivatable(battle, who))
        )
        .into());
    }
    if let (Some(on), Some(off)) = (activate, inactivate)
        && let Some(old) = displaced(battle, who, on)
        && !same(&old, off)
    {
        return Err(format!(
            "activating the {on} puts the {old} inactive, which is the one inactivation this round; \
             the {off} cannot also be inactivated"
        ).into());
    }
    Ok(())
}

/// The play his standing orders make, when they name something he can
/// switch now.
pub fn standing(
    battle: &Battle,
    who: FighterId,
    tactics: &Tactics,
) -> Option<(Option<String>, Option<String>)> {
    let activate = tactics
        .activate
        .clone()
        .filter(|n| activatable(battle, who).iter().any(|a| same(a, n)));
    let inactivate = tactics
        .inactivate
        .clone()
        .filter(|n| inactivatable(battle, who).iter().any(|a| same(a, n)));
    if activate.is_none() && inactivate.is_none() {
        return None;
    }
    check(battle, who, activate.as_deref(), inactivate.as_deref())
        .is_ok()
        .then_some((activate, inactivate))
}

/// Make `inactivate` inactive, then `activate` active (with what it
/// displaces).
pub fn switch(
    battle: &mut Battle,
    who: FighterId,
    activate: Option<&str>,
    inactivate: Option<&str>,
) {
    if check(battle, who, activate, inactivate).is_err() {
        return;
    }
    let displaced = activate.and_then(|n| displaced(battle, who, n));
    for name in inactivate.into_iter().map(str::to_string).chain(displaced) {
        put_away(battle, who, &name);
    }
    if let Some(name) = activate {
        take_up(battle, who, name);
    }
    // A Belt or a speed card switched changes his chits at once (3.1 List
    // of Treasures, group 6).
    super::spell_effects::revalue(battle, who);
}

fn say(battle: &mut Battle, who: FighterId, item: &Item, active: bool) {
    let line = CombatLine::Activated {
        character: battle.name(who).to_string(),
        item: item.name.clone(),
        active,
    };
    let seen = battle.seen_by(who);
    battle.say(seen, line);
}

/// Make the active belonging `name` inactive.
fn put_away(battle: &mut Battle, who: FighterId, name: &str) {
    let Some(hero) = battle.hero_mut(who) else {
        return;
    };
    let spare = if hero.weapon.as_ref().is_some_and(|w| same(&w.name, name)) {
        hero.weapon.take().map(|mut w| {
            w.is_alerted = false;
            Spare::Weapon(w)
        })
    } else if let Some(pos) = hero
        .armor
        .iter()
        .position(|a| !a.destroyed && same(&a.name, name))
    {
        Some(Spare::Armor(hero.armor.remove(pos)))
    } else if hero
        .horse
        .as_ref()
        .is_some_and(|h| !h.dead && same(&h.name, name))
    {
        hero.horse.take().map(Spare::Horse)
    } else {
        None
    };
    let item = if let Some(spare) = spare {
        let item = spare.item();
        hero.kit.spare.push(spare);
        item
    } else if let Some(card) = hero
        .kit
        .treasures
        .iter_mut()
        .find(|t| t.active && same(&t.name, name))
    {
        card.active = false;
        Item {
            kind: ItemKind::Treasure,
            name: card.name.clone(),
        }
    } else {
        return;
    };
    hero.kit.switched.push((item.clone(), false));
    say(battle, who, &item, false);
}

/// Make the inactive belonging `name` active.
fn take_up(battle: &mut Battle, who: FighterId, name: &str) {
    if super::phase_chit::activate(battle, who, name) {
        return;
    }
    let Some(hero) = battle.hero_mut(who) else {
        return;
    };
    let item = if let Some(pos) = hero.kit.spare.iter().position(|s| same(s.name(), name)) {
        let spare = hero.kit.spare.remove(pos);
        let item = spare.item();
        match spare {
            Spare::Weapon(w) => hero.weapon = Some(w),
            Spare::Armor(a) => hero.armor.push(a),
            Spare::Horse(h) => hero.horse = Some(h),
        }
        item
    } else if let Some(card) = hero
        .kit
        .treasures
        .iter_mut()
        .find(|t| !t.active && same(&t.name, name))
    {
        card.active = true;
        Item {
            kind: ItemKind::Treasure,
            name: card.name.clone(),
        }
    } else {
        return;
    };
    hero.kit.switched.push((item.clone(), true));
    say(battle, who, &item, true);
}

/// Carry the switches a character made in combat into his state: his
/// starting weapon or armour made inactive joins his belongings inactive.
pub fn write_back(c: &mut CharacterState, kit: &Kit) {
    for (item, active) in &kit.switched {
        if !active {
            if item.kind == ItemKind::Weapon && c.weapon.as_ref() == Some(&item.name) {
                c.weapon = None;
                c.belongings.push(Belonging {
                    item: item.clone(),
                    active: false,
                });
                continue;
            }
            if item.kind == ItemKind::Armor
                && let Some(pos) = c.armor.iter().position(|a| a == &item.name)
            {
                c.armor.remove(pos);
                c.belongings.push(Belonging {
                    item: item.clone(),
                    active: false,
                });
                continue;
            }
        }
        if let Some(b) = c.belongings.iter_mut().find(|b| b.item == *item) {
            b.active = *active;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::decisions::{Action, Answer};
    use crate::combat::script;
    use crate::combat::{Stage, Step};
    use crate::test_support::data;

    fn amazon_carrying(inactive: &str) -> script::Scripted<'static> {
        let text = format!(
            "clearing = \"CV4\"\n[[character]]\nname = \"Amazon\"\ninactive = {inactive}\n\
             [[denizen]]\nid = \"Wolf A 1\"\n"
        );
        script::load(data(), "test.toml", &text).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Run to her Encounter action (she has no standing orders).
    fn at_action(s: &mut script::Scripted) {
        let Step::Needs(lure) = s.battle.step(&mut s.dice) else {
            panic!("she is asked to lure")
        };
        assert_eq!(lure.stage, Stage::Lure);
        s.battle
            .answer(
                0,
                Answer::Lure {
                    denizens: vec![],
                    hirelings: vec![],
                },
            )
            .expect("lure nobody");
        let Step::Needs(action) = s.battle.step(&mut s.dice) else {
            panic!("she is asked for her action")
        };
        assert_eq!(action.stage, Stage::Action);
    }

    #[test]
    fn the_options_name_what_she_may_activate_and_inactivate() {
        let mut s = amazon_carrying("[\"Spear\", \"Pony 1\", \"Deft Gloves\"]");
        at_action(&mut s);
        let options = s.battle.options(0);
        for want in [
            "activate Spear",
            "activate Pony 1",
            "activate Deft Gloves",
            "inactivate Short Sword",
            "inactivate Shield",
        ] {
            assert!(options.iter().any(|o| o == want), "{want}: {options:?}");
        }
        s.battle.in_cave = true;
        let options = s.battle.options(0);
        assert!(
            !options.iter().any(|o| o == "activate Pony 1"),
            "{options:?}"
        );
        let err = check(&s.battle, 0, Some("Pony 1"), None).unwrap_err();
        assert!(
            err.to_string().contains("no horse is active in a cave"),
            "{err}"
        );
    }

    #[test]
    fn illegal_switches_are_refused_with_what_is_legal() {
        let mut s = amazon_carrying("[\"Spear\"]");
        at_action(&mut s);
        let switch = |activate: Option<&str>, inactivate: Option<&str>| {
            Answer::Action(Action::Switch {
                activate: activate.map(str::to_string),
                inactivate: inactivate.map(str::to_string),
            })
        };
        let err = s.battle.answer(0, switch(None, None)).unwrap_err();
        assert!(err.to_string().contains("name a belonging"), "{err}");
        let err = s.battle.answer(0, switch(Some("Axe"), None)).unwrap_err();
        assert!(err.to_string().contains("inactive now: Spear"), "{err}");
        let err = s.battle.answer(0, switch(None, Some("Spear"))).unwrap_err();
        assert!(err.to_string().contains("no active Spear"), "{err}");
        let err = s
            .battle
            .answer(0, switch(Some("Spear"), Some("Shield")))
            .unwrap_err();
        assert!(
            err.to_string().contains("puts the Short Sword inactive"),
            "{err}"
        );
        s.battle
            .answer(0, switch(Some("Spear"), Some("Short Sword")))
            .expect("the swap named in full is legal");
    }

    #[test]
    fn switching_moves_the_stats_between_active_and_spare() {
        let mut s = amazon_carrying("[\"Helmet\", \"Pony 1\"]");
        let battle = &mut s.battle;
        switch(battle, 0, Some("Helmet"), None);
        let hero = battle.hero(0).expect("the Amazon");
        // Her own Helmet went spare; the carried one is worn.
        assert_eq!(hero.armor.len(), 3);
        assert_eq!(hero.kit.spare.len(), 2);
        switch(battle, 0, Some("Pony 1"), Some("Shield"));
        let hero = battle.hero(0).expect("the Amazon");
        assert_eq!(hero.horse.as_ref().map(|h| h.name.as_str()), Some("Pony 1"));
        assert!(hero.armor.iter().all(|a| a.name != "Shield"));
        assert_eq!(hero.kit.switched.len(), 4);
    }

    #[test]
    fn the_state_takes_the_switches() {
        let mut c = crate::test_support::game_played_by(&["Amazon"], |_| "P1".into())
            .characters
            .remove(0);
        let item = |kind, name: &str| Item {
            kind,
            name: name.into(),
        };
        c.belongings.push(Belonging {
            item: item(ItemKind::Weapon, "Spear 1"),
            active: false,
        });
        let kit = Kit {
            switched: vec![
                (item(ItemKind::Weapon, "Short Sword"), false),
                (item(ItemKind::Weapon, "Spear 1"), true),
                (item(ItemKind::Armor, "Shield"), false),
            ],
            ..Kit::default()
        };
        write_back(&mut c, &kit);
        assert_eq!(c.weapon, None);
        assert!(!c.armor.contains(&"Shield".to_string()));
        let active: Vec<(&str, bool)> = c
            .belongings
            .iter()
            .map(|b| (b.item.name.as_str(), b.active))
            .collect();
        assert!(active.contains(&("Spear 1", true)), "{active:?}");
        assert!(active.contains(&("Short Sword", false)), "{active:?}");
        assert!(active.contains(&("Shield", false)), "{active:?}");
    }
}
