//! The Fatigue step (3.1 8.5): a character who played two or more effort
//! asterisks of Fight and Move chits this round fatigues one asterisk less
//! than he played (8.5.1, 8.5.1c: three played with a Girtle or Potion of
//! Energy fatigue two), of the kinds he played, naming the chits; a
//! two-asterisk chit may make change when one asterisk is left to pay. MAGIC and colour chits never count
//! (8.5.2: they fatigue when their spell ends or when used). Each wound
//! takes a chit (8.5.3, 4.2.5a): first one in play that is neither
//! enchanted to a colour nor committed to a spell, then an enchanted
//! colour chit, fatigued chits only when none is left in play; committed
//! chits never. He dies when every chit is wounded or committed (4.2.5b,
//! 9.1.1b) — the moment the last one is wounded, not one wound later.
//!
//! Ruling: the chits he names must pay the count exactly, or overpay by the
//! one asterisk a two-asterisk chit makes change for (4.2.5); the choice
//! made for him takes one-asterisk chits first, slowest first.

use std::collections::BTreeMap;

use crate::state::ChitCondition;

use super::Battle;
use super::decisions::{Answer, FatiguePlay};
use super::error::CombatError;
use super::log::{CombatLine, Seen};
use super::model::{FighterId, HeroChit, Out};
use super::tactics::same_chit;

/// Whether `who` has fatigue or wounds to take this round.
pub fn owes(battle: &Battle, who: FighterId) -> bool {
    owed(battle, who) > 0 || battle.plays.wounds.get(&who).copied().unwrap_or(0) > 0
}

/// The asterisks he must fatigue: one less than he played, none for one.
fn owed(battle: &Battle, who: FighterId) -> u8 {
    let (fight, moved) = stars(battle, who);
    fight.saturating_add(moved).saturating_sub(1)
}

fn stars(battle: &Battle, who: FighterId) -> (u8, u8) {
    (
        battle.plays.fight_stars.get(&who).copied().unwrap_or(0),
        battle.plays.move_stars.get(&who).copied().unwrap_or(0),
    )
}

/// The chits that may take his fatigue: active chits with stars, of the
/// kind he played stars with.
fn fatigue_candidates<'b>(battle: &'b Battle<'_>, who: FighterId) -> Vec<&'b str> {
    let mut chits: Vec<&HeroChit> = could_take_fatigue(battle, who).collect();
    chits.sort_by_key(|c| cheapest_first(c));
    chits.into_iter().map(|c| c.label.as_str()).collect()
}

/// The chits that may take his fatigue, in sheet order.
fn could_take_fatigue<'b>(
    battle: &'b Battle<'_>,
    who: FighterId,
) -> impl Iterator<Item = &'b HeroChit> {
    let (fight, moved) = stars(battle, who);
    battle
        .hero(who)
        .filter(|_| owed(battle, who) > 0)
        .into_iter()
        .flat_map(|hero| hero.chits.iter())
        .filter(|c| c.is_active() && c.chit.effort > 0)
        .filter(move |c| (fight > 0 && c.can_fight()) || (moved > 0 && c.can_move()))
}

/// One-star chits first, slowest first: the cheapest to lose.
fn cheapest_first(chit: &HeroChit) -> (u8, std::cmp::Reverse<u8>) {
    (chit.chit.effort, std::cmp::Reverse(chit.chit.time))
}

/// What a chit's magic makes of it for wounds (4.2.5a), by its index in
/// [`super::model::Hero::chits`]: enchanted to a colour, committed to a
/// spell in effect. A battle without magic has neither.
fn magic_marks(battle: &Battle, who: FighterId, index: usize) -> (bool, bool) {
    let Some(magic) = battle.magic.as_ref() else {
        return (false, false);
    };
    let Some(&seat) = magic.seats.get(&who) else {
        return (false, false);
    };
    let enchanted = magic
        .state
        .characters
        .get(seat)
        .and_then(|c| c.chits.get(index))
        .is_some_and(|c| c.enchanted);
    let committed = crate::magic::enchant::tied_up(&magic.state, seat, index);
    (enchanted, committed)
}

/// Which of the three wound pools of 3.1 4.2.5a a chit is in: 0 free in
/// play (neither enchanted nor committed), 1 an enchanted colour chit, 2
/// fatigued; `None` when it cannot be wounded (wounded, or committed).
fn wound_pool(battle: &Battle, who: FighterId, index: usize, chit: &HeroChit) -> Option<usize> {
    let (colour, committed) = magic_marks(battle, who, index);
    match chit.condition {
        _ if committed => None,
        ChitCondition::Active if colour => Some(1),
        ChitCondition::Active => Some(0),
        ChitCondition::Fatigued => Some(2),
        ChitCondition::Wounded => None,
    }
}

/// Chits that may take wounds now, by label, pool by pool
/// ([`wound_pool`]); free ones slowest first, less one copy of the chit
/// that takes the fatigue. Labels are borrowed: the explicit-answer check
/// runs this every round.
fn wound_pools<'a>(battle: &'a Battle, who: FighterId, skip: &[&str]) -> [Vec<&'a str>; 3] {
    let Some(hero) = battle.hero(who) else {
        return Default::default();
    };
    let mut pools: [Vec<&HeroChit>; 3] = Default::default();
    for (index, chit) in hero.chits.iter().enumerate() {
        if let Some(pool) = wound_pool(battle, who, index, chit) {
            pools[pool].push(chit);
        }
    }
    pools[0].sort_by_key(|c| (std::cmp::Reverse(c.chit.time), c.chit.effort));
    let mut labels = pools.map(|list| {
        list.into_iter()
            .map(|c| c.label.as_str())
            .collect::<Vec<_>>()
    });
    for skip in skip {
        if let Some(i) = labels[0].iter().position(|c| same_chit(c, skip)) {
            labels[0].remove(i);
        }
    }
    labels
}

fn wound_candidates<'a>(battle: &'a Battle, who: FighterId, skip: &[&str]) -> Vec<&'a str> {
    wound_pools(battle, who, skip).concat()
}

/// The choice a player would not regret: fatigue one-star chits, wound
/// the slowest chits.
pub fn default_choice(battle: &Battle, who: FighterId) -> FatiguePlay {
    let mut left = owed(battle, who);
    let mut fatigue = Vec::new();
    if left > 0 {
        let mut chits: Vec<&HeroChit> = could_take_fatigue(battle, who).collect();
        chits.sort_by_key(|c| cheapest_first(c));
        // One-star chits while they last, then two-star ones; a two-star
        // chit for the last asterisk makes change.
        for chit in chits {
            if left == 0 {
                break;
            }
            fatigue.push(chit.label.as_str());
            left = left.saturating_sub(chit.chit.effort);
        }
    }
    let wounds = battle.plays.wounds.get(&who).copied().unwrap_or(0);
    // Most rounds he takes no wound: then the chits are not worth sorting.
    let wounds = if wounds == 0 {
        Vec::new()
    } else {
        wound_candidates(battle, who, &fatigue)
            .into_iter()
            .take(usize::from(wounds))
            .map(str::to_string)
            .collect()
    };
    FatiguePlay {
        fatigue: fatigue.into_iter().map(str::to_string).collect(),
        wounds,
    }
}

pub fn options(battle: &Battle, who: FighterId) -> Vec<String> {
    let mut out: Vec<String> = fatigue_candidates(battle, who)
        .into_iter()
        .map(|c| format!("fatigue {c}"))
        .collect();
    let wounds = battle.plays.wounds.get(&who).copied().unwrap_or(0);
    if wounds > 0 {
        out.extend(
            wound_candidates(battle, who, &[])
                .into_iter()
                .map(|c| format!("wound {c} ({wounds} wounds to take)")),
        );
    }
    out
}

/// Check an explicit fatigue answer.
///
/// # Errors
/// A chit that cannot take the fatigue or a wound, or the wrong count.
pub fn check(battle: &Battle, who: FighterId, play: &FatiguePlay) -> Result<(), CombatError> {
    check_fatigue(battle, who, &play.fatigue)?;
    let owed = usize::from(battle.plays.wounds.get(&who).copied().unwrap_or(0));
    if owed == 0 && play.wounds.is_empty() {
        // No wound owed and none named: the usual round, checked at once.
        return Ok(());
    }
    let fatigued: Vec<&str> = play.fatigue.iter().map(String::as_str).collect();
    let mut pools = wound_pools(battle, who, &fatigued);
    let candidates: Vec<&str> = pools.concat();
    let needed = owed.min(candidates.len());
    if play.wounds.len() != needed {
        return Err(format!("{needed} chits must be wounded, not {}", play.wounds.len()).into());
    }
    // Each wound takes a copy of its chit from the first pool that has one;
    // a later pool only once the earlier ones are empty (4.2.5a).
    let mut latest = 0;
    for chit in &play.wounds {
        let Some((pool, i)) = pools
            .iter()
            .enumerate()
            .find_map(|(p, list)| list.iter().position(|c| same_chit(c, chit)).map(|i| (p, i)))
        else {
            return Err(format!(
                "{chit} cannot be wounded; choose among: {}",
                candidates.join(", ")
            )
            .into());
        };
        pools[pool].remove(i);
        latest = latest.max(pool);
    }
    if let Some(left) = pools[..latest].iter().find(|list| !list.is_empty()) {
        return Err(format!(
            "wound chits in play that are not enchanted first, then enchanted ones, fatigued \
             ones last ({} still to take it)",
            left.join(", ")
        )
        .into());
    }
    Ok(())
}

/// Check the chits named to fatigue: each can take it, and together they
/// pay what he owes, none named once it is paid; a two-asterisk chit may
/// pay the last single asterisk, making change.
fn check_fatigue(battle: &Battle, who: FighterId, named: &[String]) -> Result<(), CombatError> {
    let can = fatigue_candidates(battle, who);
    let mut unused: Vec<&HeroChit> = could_take_fatigue(battle, who).collect();
    let due = owed(battle, who).min(unused.iter().map(|c| c.chit.effort).sum());
    let (mut left, mut paid, mut beyond) = (due, 0u8, false);
    for chit in named {
        let Some(i) = unused.iter().position(|c| same_chit(&c.label, chit)) else {
            return Err(format!(
                "{chit} cannot take the fatigue; choose among: {}",
                can.join(", ")
            )
            .into());
        };
        let effort = unused.remove(i).chit.effort;
        paid = paid.saturating_add(effort);
        beyond |= left == 0;
        left = left.saturating_sub(effort);
    }
    if left == 0 && !beyond {
        return Ok(());
    }
    let what = if due == 1 {
        "1 asterisk".to_string()
    } else {
        format!("{due} asterisks")
    };
    Err(format!(
        "{what} must fatigue (one less than he played), not {paid}; choose among: {}",
        can.join(", ")
    )
    .into())
}

/// Apply everyone's fatigue and wounds.
pub fn fatigue(battle: &mut Battle, answers: &BTreeMap<FighterId, Answer>) {
    for who in battle.characters_in_play() {
        let Some(Answer::Fatigue(play)) = answers.get(&who) else {
            continue;
        };
        let name = battle.name(who).to_string();
        let mut left = owed(battle, who);
        for chit in &play.fatigue {
            left = fatigue_chit(battle, who, chit, left);
            battle.plays.eventful = true;
            let seen = battle.seen_by(who);
            battle.say(
                seen,
                CombatLine::Fatigued {
                    character: name.clone(),
                    chit: chit.clone(),
                },
            );
        }
        for chit in &play.wounds {
            // Chits may share a label: take the copy in the earliest pool.
            let pick = battle.hero(who).and_then(|h| {
                h.chits
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| same_chit(&c.label, chit))
                    .filter_map(|(i, c)| wound_pool(battle, who, i, c).map(|pool| (pool, i)))
                    .min()
                    .map(|(_, i)| i)
            });
            if let Some(index) = pick
                && let Some(hero) = battle.hero_mut(who)
            {
                hero.chits[index].condition = ChitCondition::Wounded;
            }
            let seen = battle.seen_by(who);
            battle.say(
                seen,
                CombatLine::Wounded {
                    character: name.clone(),
                    chit: chit.clone(),
                },
            );
        }
    }
    for who in battle.characters_in_play() {
        if all_chits_gone(battle, who) {
            die_of_wounds(battle, who);
        }
    }
}

/// Every chit of his wounded or committed to a spell: he dies (4.2.5b).
fn all_chits_gone(battle: &Battle, who: FighterId) -> bool {
    battle.hero(who).is_some_and(|h| {
        !h.chits.is_empty()
            && h.chits.iter().enumerate().all(|(i, c)| {
                c.condition == ChitCondition::Wounded || magic_marks(battle, who, i).1
            })
    })
}

/// Fatigue `chit` toward the `left` asterisks he still owes; what he owes
/// after it.
fn fatigue_chit(battle: &mut Battle, who: FighterId, chit: &str, left: u8) -> u8 {
    let Some(hero) = battle.hero_mut(who) else {
        return left;
    };
    let Some(index) = hero
        .chits
        .iter()
        .position(|c| c.is_active() && same_chit(&c.label, chit))
    else {
        return left;
    };
    hero.chits[index].condition = ChitCondition::Fatigued;
    let tired = hero.chits[index].clone();
    if tired.chit.effort == 2 && left == 1 {
        // Making change: a fatigued one-star chit of the same kind returns.
        if let Some(change) = hero.chits.iter_mut().find(|c| {
            c.condition == ChitCondition::Fatigued
                && c.chit.effort == 1
                && c.chit.action == tired.chit.action
        }) {
            change.condition = ChitCondition::Active;
        }
    }
    left.saturating_sub(tired.chit.effort)
}

fn die_of_wounds(battle: &mut Battle, who: FighterId) {
    let name = battle.name(who).to_string();
    battle.fighters[who].out = Some(Out::Killed {
        by: "wounds".into(),
    });
    if let Some(h) = battle.hero_mut(who) {
        h.dead = true;
    }
    battle.sheet.retain(|d, o| *d != who && *o != who);
    let items = super::spoils::take_belongings(battle, who);
    battle.dropped.extend(items);
    battle.say(
        Seen::Clearing,
        CombatLine::Died {
            character: name,
            reason: "every chit is wounded or committed to a spell".into(),
        },
    );
}

#[cfg(test)]
mod tests {
    use crate::data::spells::Duration;
    use crate::state::magic::{Aim, CastWith, SpellInEffect};
    use crate::test_support::data;

    use super::super::script;

    /// The Wizard, everything wounded but FIGHT M3* and MAGIC IV4*, and
    /// one dark-side wolf that undercuts him for one Light wound.
    const ONE_WOUND: &str = r#"
clearing = "CV4"
day = 1
[[character]]
name = "Wizard"
weapon = "none"
armor = []
wounded = ["MOVE M5", "MOVE M4*", "FIGHT L4", "MOVE M5", "FIGHT M5", "MAGIC II4*", "MOVE M5", "MAGIC II3*", "MAGIC III3*", "MAGIC IV3*"]
tactics = "target nobody, maneuver charge"
[[denizen]]
id = "Wolf B 1"
side = "dark"
[dice]
"combat/CV4/round1/reposition" = [[4]]
"#;

    /// Run the file after `mark` set up the Wizard's magic; the outcome
    /// and the log.
    fn run(mark: impl FnOnce(&mut crate::state::MrState)) -> (script::Outcome, Vec<String>) {
        let mut battle = script::load(data(), "one_wound", ONE_WOUND).expect("the file loads");
        let magic = battle.battle.magic.as_mut().expect("magic");
        assert_eq!(magic.state.characters[0].chits[7].chit, "MAGIC IV4*");
        mark(&mut magic.state);
        let outcome = battle.run().expect("the battle runs");
        (outcome, script::log_text(&battle.battle))
    }

    /// 3.1 4.2.5a.1–a.2: a wound takes a chit in play that is neither
    /// enchanted nor committed before an enchanted colour chit, even the
    /// faster one (the old order took the slowest active chit first: the
    /// enchanted MAGIC IV4*). The second round's wound takes the
    /// enchanted chit, his last, and he dies.
    #[test]
    fn wounds_take_free_chits_before_enchanted_ones_3_1_4_2_5a() {
        let (outcome, log) = run(|state| state.characters[0].chits[7].enchanted = true);
        let said = |line: &str| log.iter().any(|l| l == line);
        assert!(said("round 1: the Wizard wounds FIGHT M3*"), "{log:#?}");
        assert!(said("round 2: the Wizard wounds MAGIC IV4*"), "{log:#?}");
        assert_eq!(outcome.dead, vec!["Wizard".to_string()]);
    }

    /// 3.1 4.2.5a.4 and b, 9.1.1b: a chit committed to a spell is never
    /// wounded, and he dies the moment every chit is wounded or committed
    /// (the old rule counted the committed chit as one left to wound).
    #[test]
    fn death_when_every_chit_is_wounded_or_committed_3_1_4_2_5b() {
        let (outcome, log) = run(|state| {
            state.magic.in_effect.push(SpellInEffect {
                id: 1,
                spell: "Elven Grace".into(),
                caster: "Wizard".into(),
                with: CastWith::Chit { index: 7 },
                targets: vec![Aim::Character {
                    name: "Wizard".into(),
                }],
                duration: Duration::Day,
                cast_on: 1,
                inert: false,
                held: false,
                detail: None,
                untied: false,
            });
        });
        assert_eq!(outcome.dead, vec!["Wizard".to_string()]);
        assert!(
            log.iter()
                .any(|l| l == "round 1: the Wizard wounds FIGHT M3*"),
            "{log:#?}"
        );
        assert_eq!(outcome.rounds, 1);
    }

    /// The Amazon with her active treasures, having played FIGHT M3** and
    /// MOVE M3* this round.
    fn three_stars(treasures: &str) -> super::Battle<'static> {
        let text = format!(
            "clearing = \"CV4\"\n[[character]]\nname = \"Amazon\"\nartifacts = [{treasures}]\n"
        );
        let mut battle = script::load(data(), "three", &text)
            .expect("the file loads")
            .battle;
        battle.plays.fight_stars.insert(0, 2);
        battle.plays.move_stars.insert(0, 1);
        battle
    }

    /// 3.1 8.4.5f.2 and the Increased effort cards: two asterisks a round,
    /// three with the Girtle of Energy, no limit with the Potion of Energy,
    /// which wins when both are active.
    #[test]
    fn effort_limit_two_girtle_three_potion_none_3_1_8_4_5f() {
        let limit = |t: &str| super::super::tactics::effort_limit(&three_stars(t), 0);
        assert_eq!(limit(""), 2);
        assert_eq!(limit("\"Girtle of Energy\""), 3);
        assert_eq!(limit("\"Potion of Energy\""), u8::MAX);
        assert_eq!(limit("\"Girtle of Energy\", \"Potion of Energy\""), u8::MAX);
    }

    /// 3.1 8.5.1c: three asterisks played fatigue two, paid by two
    /// one-asterisk chits or one two-asterisk chit (no change made); one
    /// one-asterisk chit is too little, and the choice made for her takes
    /// two one-asterisk chits.
    #[test]
    fn three_asterisks_played_fatigue_two_3_1_8_5_1c() {
        let battle = three_stars("\"Girtle of Energy\"");
        let check = |chits: &[&str]| {
            super::check_fatigue(
                &battle,
                0,
                &chits.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            )
        };
        let err = check(&["FIGHT M4*"]).expect_err("one asterisk is not enough");
        assert!(
            err.to_string()
                .starts_with("2 asterisks must fatigue (one less than he played), not 1"),
            "{err}"
        );
        check(&["FIGHT M4*", "MOVE M3*"]).expect("two one-asterisk chits");
        check(&["FIGHT M3**"]).expect("one two-asterisk chit");
        check(&["FIGHT M3**", "FIGHT M4*"]).expect_err("three asterisks are too many");
        let choice = super::default_choice(&battle, 0);
        assert_eq!(choice.fatigue.len(), 2, "{choice:?}");
        assert!(
            choice
                .fatigue
                .iter()
                .all(|c| c.ends_with('*') && !c.ends_with("**"))
        );
    }
}
