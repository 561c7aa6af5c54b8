//! Ambushes (3.1 10.A.2, the `ambush` toggle): a hidden character who
//! names a target for his missile weapon, or for a spell aimed at one
//! individual (himself included), rolls on the Hide table with his usual
//! modifiers and stays hidden on a Hide result; otherwise he is unhidden.
//! A spell aimed at several individuals always unhides him. Without the
//! rule (or on a day when nobody may roll to hide) naming any individual
//! as a target unhides him (8.4.2d.6).
//!
//! The Magenta campaign played Ambushes semi-restricted
//! (`semi_restricted_ambush`): a man with a retinue and a load of iron is
//! easier to spot, so the Ambush roll adds 1 for each hired native or
//! controlled monster with him and each horse, suit of armor or shield he
//! has, whether he is using it or not.

use super::Battle;
use super::log::{CombatLine, Seen};
use super::model::{FighterId, FighterKind};
use crate::data::{armor::ArmorKind, base_name};
use crate::state::ItemKind;
use crate::tables::Modifiers;
use crate::tables::hide::{Hide, HideResult};
use realmgm_core::dice::Dice;

/// `who` names a target for his weapon: a missile weapon lets him try to
/// stay hidden.
pub fn weapon_attack(battle: &mut Battle, dice: &mut Dice, who: FighterId) {
    let missile = battle
        .hero(who)
        .and_then(|h| h.weapon.as_ref())
        .is_some_and(|w| w.missile);
    if !(missile && stays_hidden(battle, dice, who)) {
        battle.fighters[who].hidden = false;
    }
}

/// `who` names `individuals` characters or denizens as the targets of his
/// spell: one lets him try to stay hidden.
pub fn spell_targets(battle: &mut Battle, dice: &mut Dice, who: FighterId, individuals: usize) {
    if individuals == 0 {
        return;
    }
    if !(individuals == 1 && stays_hidden(battle, dice, who)) {
        battle.fighters[who].hidden = false;
    }
}

/// The Ambush roll of a hidden character, if the rule lets him make one:
/// whether he stays hidden.
fn stays_hidden(battle: &mut Battle, dice: &mut Dice, who: FighterId) -> bool {
    if !battle.rules.ambush || !battle.fighters[who].hidden {
        return false;
    }
    let name = battle.name(who).to_string();
    let modifiers = battle
        .hide_mods
        .get(&who)
        .cloned()
        .unwrap_or_else(Modifiers::none);
    let modifiers = if battle.rules.semi_restricted_ambush {
        encumbrances(battle, who)
            .into_iter()
            .fold(modifiers, |m, thing| {
                m.with(format!("{thing} (Semi-Restricted Ambush)"), 1)
            })
    } else {
        modifiers
    };
    let roll = battle.roll_table(dice, &Hide, &format!("ambush/{name}"), &modifiers);
    if roll.result != HideResult::Hidden {
        return false;
    }
    battle.say(Seen::Clearing, CombatLine::StaysHidden { character: name });
    true
}

/// What weighs on a semi-restricted ambusher: his hirelings still in the
/// fight, then his horses, suits of armor and shields, active or not.
fn encumbrances(battle: &Battle, who: FighterId) -> Vec<String> {
    let hirelings = battle
        .fighters
        .iter()
        .filter(|f| f.out.is_none())
        .filter(|f| match &f.kind {
            FighterKind::Denizen(d) => d.employer == Some(who),
            FighterKind::Character(_) => false,
        })
        .map(|f| f.name.clone());
    let belongings = battle
        .hero(who)
        .into_iter()
        .flat_map(|h| h.belongings.iter())
        .filter(|item| match item.kind {
            ItemKind::Horse => true,
            ItemKind::Armor => battle
                .data
                .armor
                .iter()
                .find(|a| a.name == base_name(&item.name))
                .is_some_and(|a| matches!(a.kind, ArmorKind::Suit | ArmorKind::Shield)),
            ItemKind::Treasure | ItemKind::Spell | ItemKind::Weapon => false,
        })
        .map(|item| item.name.clone());
    hirelings.chain(belongings).collect()
}
