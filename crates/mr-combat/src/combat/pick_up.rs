//! Picking up dropped belongings in the rounds of combat (3.1 10.A.5.5,
//! Dropping and Losing Belongings). A character, never a denizen, may pick
//! up one dropped belonging in an Encounter step, and that is his action.
//! One lying in front of himself he takes without playing a chit and stays
//! hidden (10.A.5.3, 10.A.5.5.1); any other he takes by playing a MOVE
//! chit whose time undercuts every move time on his sheet, with no
//! red-side-up Tremendous monster there, and he comes out of hiding for it
//! (10.A.5.3, 10.A.5.5.2). What lies dropped in the clearing is the
//! battle's [`Battle::dropped_in_sight`]: what lay there when the combat
//! began and what was dropped during it.
//!
//! realmgm's rulings:
//! - The MOVE chit must also be strong enough for the belonging, as every
//!   MOVE chit he plays must be for what he carries (play summary III.B.5):
//!   from then on he carries it, and his MOVE chits must match it.
//! - Neither his horse, a Fly chit nor a DUCK chit picks anything up:
//!   10.A.5.5.2 names a Move chit. With no chit named, the one of fewest
//!   effort asterisks is played, the fastest of those.
//! - What he picks up comes to him inactive, as by day (`day::rearrange`);
//!   he may activate it in a later round (`activation.rs`).
//! - When two characters reach for the same belonging in one Encounter
//!   step, the first in the turn order takes it; the other is told.

use crate::abilities::weight;
use crate::state::{Belonging, CharacterState, Item, belongings};

use super::Battle;
use super::encounter::{chit_effort, spend};
use super::error::CombatError;
use super::log::CombatLine;
use super::model::FighterId;
use super::tactics::{fast_enough, is_duck, move_chits, red_side_up_on, same_chit, stars_left};

/// Why nothing is picked up in a campaign without the rule.
const NOT_PLAYED: &str = "nothing lies dropped in plain sight without the rule Dropping and \
                          Losing Belongings (3.1 10.A.5), which this campaign does not play";

/// Where the dropped belonging `name` lies for `who`: its place in the
/// battle's list, and whether it lies in front of him (those first).
fn find(battle: &Battle, who: FighterId, name: &str) -> Option<(usize, bool)> {
    let me = battle.name(who);
    let named = |item: &Item| belongings::names(name, &item.name);
    let lying = &battle.dropped_in_sight;
    lying
        .iter()
        .position(|(before, item)| before.as_deref() == Some(me) && named(item))
        .map(|at| (at, true))
        .or_else(|| {
            lying
                .iter()
                .position(|(_, item)| named(item))
                .map(|at| (at, false))
        })
}

/// The MOVE chits that may pick up `item` from elsewhere than in front of
/// him, with their effort, fastest first: none with a red-side-up
/// Tremendous monster on his sheet (3.1 10.A.5.5.2).
fn chits_for(battle: &Battle, who: FighterId, item: &Item) -> Vec<(String, u8)> {
    if red_side_up_on(battle, who) {
        return Vec::new();
    }
    let heavy = weight(battle.data, item.kind, &item.name);
    move_chits(battle, who, stars_left(battle, who))
        .into_iter()
        .filter(|c| !is_duck(c) && c.strength() >= heavy)
        .filter(|c| fast_enough(battle, who, c.chit.time))
        .map(|c| (c.label.clone(), c.chit.effort))
        .collect()
}

/// Whether `who` may pick up the dropped `name` now, and how: `Ok(None)`
/// for one lying in front of him, `Ok(Some(chit))` for the MOVE chit he
/// plays, `with` when he named one.
///
/// # Errors
/// The campaign does not play the rule, nothing so called lies here, or
/// no MOVE chit can pick it up now; the text says what would.
pub fn reach(
    battle: &Battle,
    who: FighterId,
    name: &str,
    with: Option<&str>,
) -> Result<Option<String>, CombatError> {
    if !battle.rules.dropping_belongings {
        return Err(NOT_PLAYED.into());
    }
    let Some((at, in_front)) = find(battle, who, name) else {
        let lying: Vec<&str> = battle
            .dropped_in_sight
            .iter()
            .map(|(_, item)| item.name.as_str())
            .collect();
        return Err(format!(
            "no {name} lies dropped in this clearing (3.1 10.A.5.5); dropped here: {}",
            if lying.is_empty() {
                "nothing".to_string()
            } else {
                lying.join(", ")
            }
        )
        .into());
    };
    if in_front {
        return Ok(None);
    }
    let item = &battle.dropped_in_sight[at].1;
    let chits = chits_for(battle, who, item);
    let chosen = match with {
        Some(wanted) => chits.iter().find(|(label, _)| same_chit(label, wanted)),
        None => chits.iter().min_by_key(|(_, effort)| *effort),
    };
    if let Some((label, _)) = chosen {
        return Ok(Some(label.clone()));
    }
    let me = battle.name(who);
    let named = with.map_or_else(String::new, |w| format!("{w} cannot do it now; "));
    Err(format!(
        "the {} does not lie in front of the {me}: picking it up takes a MOVE chit strong enough \
         for it and faster than every move time on the {me}'s sheet, with no red-side-up \
         Tremendous monster there (3.1 10.A.5.5.2); {named}{}",
        item.name,
        if chits.is_empty() {
            "no MOVE chit can do it now".to_string()
        } else {
            let labels: Vec<&str> = chits.iter().map(|(l, _)| l.as_str()).collect();
            format!("it may be played with {}", labels.join(", "))
        }
    )
    .into())
}

/// The pick-ups `who` may choose from now, in the words of a `Combat:`
/// clause.
pub fn options(battle: &Battle, who: FighterId) -> Vec<String> {
    if !battle.rules.dropping_belongings {
        return Vec::new();
    }
    let me = battle.name(who);
    let mut out = Vec::new();
    for (before, item) in &battle.dropped_in_sight {
        if before.as_deref() == Some(me) {
            out.push(format!("pick up {}", item.name));
        } else {
            out.extend(
                chits_for(battle, who, item)
                    .into_iter()
                    .map(|(chit, _)| format!("pick up {} with {chit}", item.name)),
            );
        }
    }
    out.dedup();
    out
}

/// `who` picks up the dropped `name` as his Encounter action, or is told
/// why he cannot (another took it first this step, or a charge on his
/// sheet outpaces his MOVE chit).
pub fn pick_up(battle: &mut Battle, who: FighterId, name: &str, with: Option<&str>) {
    let character = battle.name(who).to_string();
    let chit = match reach(battle, who, name, with) {
        Ok(chit) => chit,
        Err(reason) => {
            let seen = battle.seen_by(who);
            let line = CombatLine::Refused {
                character,
                reason: format!("does not pick up the {name}: {reason}"),
            };
            battle.say(seen, line);
            return;
        }
    };
    let Some((at, _)) = find(battle, who, name) else {
        return;
    };
    let (_, item) = battle.dropped_in_sight.remove(at);
    if let Some((label, effort, _)) = chit.as_deref().and_then(|c| chit_effort(battle, who, c)) {
        spend(battle, who, &label, effort, false);
        // Only what lies in front of him is taken from hiding (10.A.5.3).
        battle.fighters[who].hidden = false;
    }
    let heavy = weight(battle.data, item.kind, &item.name);
    // Known to the data, as everything dropped in the game is.
    let spare = super::activation::kit(battle.data, [(&item, false)]).unwrap_or_default();
    if let Some(hero) = battle.hero_mut(who) {
        hero.heaviest = hero.heaviest.max(heavy);
        hero.belongings.push(item.clone());
        hero.kit.picked_up.push(item.clone());
        hero.kit.spare.extend(spare.spare);
        hero.kit.treasures.extend(spare.treasures);
    }
    let seen = battle.seen_by(who);
    battle.say(
        seen,
        CombatLine::PickedUp {
            character,
            item: item.name,
            with: chit,
        },
    );
}

/// Give a surviving character what he picked up in combat, inactive,
/// before his switches and abandonings are written back (they may name
/// it).
pub fn write_back(c: &mut CharacterState, picked_up: &[Item]) {
    c.belongings.extend(picked_up.iter().map(|item| Belonging {
        item: item.clone(),
        active: false,
    }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::decisions::{Action, Answer};
    use crate::combat::script;
    use crate::combat::{Stage, Step};
    use crate::test_support::data;

    /// The Elf (no standing orders) with a Spear and a Short Sword lying in
    /// the open and a Helmet in front of him, at his Encounter action
    /// after luring `denizen` onto his sheet.
    fn elf_at_action(rules: &str, denizen: &str, side: &str) -> script::Scripted<'static> {
        let text = format!(
            "clearing = \"CV4\"\nrules = [{rules}]\n\
             lying = [{{ item = \"Spear\" }}, {{ item = \"Short Sword\" }}, \
             {{ item = \"Helmet\", before = \"Elf\" }}]\n\
             [[character]]\nname = \"Elf\"\n\
             [[denizen]]\nid = \"{denizen}\"\nside = \"{side}\"\n"
        );
        let mut s = script::load(data(), "test.toml", &text).unwrap_or_else(|e| panic!("{e}"));
        let Step::Needs(lure) = s.battle.step(&mut s.dice) else {
            panic!("he is asked to lure")
        };
        assert_eq!(lure.stage, Stage::Lure);
        let lured = Answer::Lure {
            denizens: vec![denizen.to_string()],
            hirelings: vec![],
        };
        s.battle.answer(0, lured).expect("he lures it");
        let Step::Needs(action) = s.battle.step(&mut s.dice) else {
            panic!("he is asked for his action")
        };
        assert_eq!(action.stage, Stage::Action);
        s
    }

    fn pick(item: &str, with: Option<&str>) -> Answer {
        Answer::Action(Action::PickUp {
            item: item.to_string(),
            with: with.map(str::to_string),
        })
    }

    /// 3.1 10.A.5.5.2: with the wolf (move time 3) on his sheet only his
    /// MOVE L2* undercuts it; it lifts the Light Short Sword, not the
    /// Medium Spear. The Helmet in front of him needs no chit (10.A.5.5.1).
    #[test]
    fn a_move_chit_must_undercut_his_attackers_and_lift_the_belonging() {
        let s = elf_at_action("\"dropping_belongings\"", "Wolf A 1", "light");
        let options = s.battle.options(0);
        for want in ["pick up Short Sword with MOVE L2*", "pick up Helmet"] {
            assert!(options.contains(&want.to_string()), "{want}: {options:?}");
        }
        assert!(!options.iter().any(|o| o.contains("Spear")), "{options:?}");
        assert_eq!(
            reach(&s.battle, 0, "short sword", None).unwrap(),
            Some("MOVE L2*".to_string())
        );
        assert_eq!(
            reach(&s.battle, 0, "Helmet", Some("MOVE M4")).unwrap(),
            None
        );
        let mut battle = s.battle;
        let refused = battle.answer(0, pick("Spear", None)).unwrap_err();
        assert!(
            refused
                .to_string()
                .contains("(3.1 10.A.5.5.2); no MOVE chit can do it now"),
            "{refused}"
        );
        let refused = battle
            .answer(0, pick("Short Sword", Some("MOVE M4")))
            .unwrap_err();
        assert!(
            refused
                .to_string()
                .contains("MOVE M4 cannot do it now; it may be played with MOVE L2*"),
            "{refused}"
        );
        let refused = battle.answer(0, pick("Lantern", None)).unwrap_err();
        assert!(
            refused
                .to_string()
                .ends_with("dropped here: Spear, Short Sword, Helmet"),
            "{refused}"
        );
    }

    /// 3.1 10.A.5.5.2: a red-side-up Tremendous monster on his sheet stops
    /// every MOVE chit, not what lies in front of him (10.A.5.5.1).
    #[test]
    fn a_red_side_up_monster_leaves_him_only_what_lies_in_front_of_him() {
        let s = elf_at_action("\"dropping_belongings\"", "Giant 1", "dark");
        assert_eq!(options(&s.battle, 0), ["pick up Helmet"]);
        assert!(reach(&s.battle, 0, "Short Sword", None).is_err());
        assert_eq!(reach(&s.battle, 0, "Helmet", None).unwrap(), None);
    }

    /// Without Dropping and Losing Belongings nothing is picked up, and
    /// the answer says why (3.1 10.A.5).
    #[test]
    fn without_the_rule_nothing_is_picked_up() {
        let s = elf_at_action("", "Wolf A 1", "light");
        assert!(options(&s.battle, 0).is_empty());
        let mut battle = s.battle;
        let refused = battle.answer(0, pick("Helmet", None)).unwrap_err();
        assert_eq!(refused.to_string(), NOT_PLAYED);
    }
}
