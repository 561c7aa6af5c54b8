//! Standing combat orders (the `Combat:` line of the orders mail) and the
//! legality of every play (play summary III.A.4, III.B.5): which chit to
//! attack and maneuver with, whom to target, when to run, whom to lure.
//! The defaults are plays a player would not regret: never an illegal
//! play, maneuver with the fastest legal MOVE chit, attack the first
//! monster on his own sheet, lure nobody, never run.

use serde::{Deserialize, Serialize};

use super::Battle;
use super::decisions::{Action, Answer, AttackPlay, ManeuverPlay, MeleePlay, Stage};
use super::error::CombatError;
use super::model::{Direction, FighterId, HeroChit};
use crate::data::terms::Strength;
use crate::state::ChitCondition;

/// Whom to attack.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "target", content = "name", rename_all = "snake_case")]
pub enum Target {
    /// The first attacker on his own sheet (default).
    #[default]
    OwnSheet,
    /// The attacker on his sheet easiest to kill.
    Weakest,
    /// The attacker on his sheet with the most fame.
    Strongest,
    /// This fighter whenever he is in the fight, else the default.
    Named(String),
    /// He does not attack.
    Nobody,
}

/// Whom to lure in the Encounter step.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "lure", content = "names", rename_all = "snake_case")]
pub enum Lure {
    #[default]
    Nobody,
    Everyone,
    /// The luring-able denizen easiest to kill.
    Weakest,
    Named(Vec<String>),
}

/// A character's standing combat orders.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tactics {
    /// Preferred FIGHT chit (`FIGHT H5`), used when legal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack_with: Option<String>,
    /// Preferred MOVE chit, used when legal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maneuver_with: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack_direction: Option<Direction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maneuver_direction: Option<Direction>,
    #[serde(default)]
    pub target: Target,
    /// Run away once he has this many wounded chits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_when_wounded: Option<u8>,
    /// Fly away with his Fly chit as his action while he has one (3.1
    /// 8.3.8e): `fly away`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fly_away: bool,
    #[serde(default)]
    pub lure: Lure,
    /// Hired natives each luring one denizen onto his own sheet (play
    /// summary III.A.1): (hired native, denizen), `Woodfolk 2 lure Troll`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hireling_lures: Vec<(String, String)>,
    /// Alert his weapon in the Encounter step when it is not alerted.
    #[serde(default)]
    pub alert: bool,
    /// Send each free hired native against an attacker on his own sheet.
    #[serde(default)]
    pub deploy: bool,
    /// Hired natives sent against chosen targets, denizens or characters
    /// (play summary III.A.3): (hired native, target),
    /// `deploy Soldier HQ against Amazon`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hireling_deploys: Vec<(String, String)>,
    /// A spell to cast in the Encounter step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cast: Option<String>,
    /// A character to charge whenever he is in the fight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge: Option<String>,
    /// What he charges with when his orders name it (`charge NAME with
    /// fly`): the Fly chit is never a default (`fly_chit.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge_with: Option<String>,
    /// A belonging to abandon in the Encounter step while he carries it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abandon: Option<String>,
    /// `drop ITEM` rather than `abandon ITEM`: under Dropping and Losing
    /// Belongings it is dropped in plain sight, not lost (3.1 10.A.5.1.2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub drops: bool,
    /// Dropped belongings to pick up, one an Encounter step, the first
    /// still lying here that he can reach, each with the MOVE chit he
    /// named, if any: `pick up Helmet [with MOVE M4]` (3.1 10.A.5.5,
    /// `pick_up.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pick_up: Vec<(String, Option<String>)>,
    /// With riding horses: attack the target's horse, not the rider.
    #[serde(default)]
    pub attack_horses: bool,
    /// `place NAME in box N`: the red box he puts a counter on his sheet
    /// in, when legal (3.1 8.4.5m), or one of his hirelings defending on
    /// its own sheet (8.4.5n.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub placements: Vec<(String, Direction)>,
    /// `place NAME in box N dark side up`: the side he turns up a hireling
    /// defending on its own sheet (3.1 8.4.5n.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<(String, crate::state::CounterSide)>,
    /// `gallop` or `walk`: the side his horse maneuvers on in the Melee
    /// step (3.1 8.4.5k.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub horse_gait: Option<super::model::Gait>,
    /// The Berserker alerts his BERSERK chit when he can.
    #[serde(default)]
    pub berserk: bool,
    /// A belonging to make active in the Encounter step while it is
    /// inactive (`activation.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub activate: Option<String>,
    /// A belonging to make inactive while it is active.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inactivate: Option<String>,
    /// Colour chits to fatigue in the Encounter step without casting
    /// (`fatigue MAGIC III2*`; 3.1 8.3.9a.3): not his action.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fatigue: Vec<String>,
    /// Inert Permanent spells to energize with a colour chit in the
    /// Encounter step, (spell, chit): `energize Transform with MAGIC
    /// IV3*` (3.1 8.3.9a.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub energize: Vec<(String, String)>,
}

impl Tactics {
    /// Whether his abandoning drops the belonging in plain sight: he wrote
    /// `drop` and the campaign plays Dropping and Losing Belongings (3.1
    /// 10.A.5.1.2); else it is lost to the pile.
    pub fn drops_in_sight(&self, rules: &super::battle::CombatRules) -> bool {
        self.drops && rules.dropping_belongings
    }
}

/// The effort stars a character may still play this round.
pub fn stars_left(battle: &Battle, who: FighterId) -> u8 {
    let used = battle.plays.fight_stars.get(&who).copied().unwrap_or(0)
        + battle.plays.move_stars.get(&who).copied().unwrap_or(0);
    effort_limit(battle, who).saturating_sub(used)
}

/// The effort asterisks he may play in a round: two, three with an active
/// Girtle of Energy, no limit with an active Potion of Energy, which wins
/// over the Girtle when both are active (3.1 8.4.5f.2, 8.5.1c, and the
/// Increased effort cards of the treasure list).
pub fn effort_limit(battle: &Battle, who: FighterId) -> u8 {
    use crate::data::treasures::TreasureEffect;
    let Some(hero) = battle.hero(who) else {
        return 2;
    };
    let effects = hero
        .kit
        .treasures
        .iter()
        .filter(|t| t.active)
        .filter_map(|t| battle.data.treasure(&t.name))
        .flat_map(|t| t.effects.iter());
    let mut limit = 2;
    for effect in effects {
        match effect {
            TreasureEffect::NoEffortLimit => return u8::MAX,
            TreasureEffect::EffortLimit { asterisks } => limit = limit.max(*asterisks),
            _ => {}
        }
    }
    limit
}

fn played(battle: &Battle, who: FighterId, label: &str) -> bool {
    battle
        .plays
        .chits_played
        .get(&who)
        .is_some_and(|l| l.iter().any(|p| p == label))
}

/// Active FIGHT chits he may attack with now (strong enough for his weapon,
/// not yet played, within the star limit), fastest first.
pub fn fight_chits<'b>(battle: &'b Battle<'_>, who: FighterId, stars: u8) -> Vec<&'b HeroChit> {
    fastest_first(usable_fight_chits(battle, who, stars).collect())
}

/// [`fight_chits`] in sheet order, for a search by label, which needs no
/// sorting.
fn usable_fight_chits<'b>(
    battle: &'b Battle<'_>,
    who: FighterId,
    stars: u8,
) -> impl Iterator<Item = &'b HeroChit> {
    let hero = battle.hero(who);
    let weight = hero
        .and_then(|h| h.weapon.as_ref())
        .map_or(Strength::Negligible, |w| w.weight);
    hero.into_iter()
        .flat_map(|h| h.playable_chits())
        .filter(move |c| c.is_active() && c.can_fight() && c.strength() >= weight)
        .filter(move |c| c.chit.effort <= stars && !played(battle, who, &c.label))
}

fn fastest_first(mut chits: Vec<&HeroChit>) -> Vec<&HeroChit> {
    chits.sort_by_key(|c| (c.chit.time, c.chit.effort));
    chits
}

/// Active MOVE chits he may maneuver or run with (strong enough for what he
/// carries), fastest first.
pub fn move_chits<'b>(battle: &'b Battle<'_>, who: FighterId, stars: u8) -> Vec<&'b HeroChit> {
    // A Fly chit is played only when named (`fly_chit.rs`).
    fastest_first(
        usable_move_chits(battle, who, stars)
            .filter(|c| !super::fly_chit::is_fly(c))
            .collect(),
    )
}

/// [`move_chits`] in sheet order, for a search by label.
fn usable_move_chits<'b>(
    battle: &'b Battle<'_>,
    who: FighterId,
    stars: u8,
) -> impl Iterator<Item = &'b HeroChit> {
    let hero = battle.hero(who);
    let heaviest = hero.map_or(Strength::Negligible, |h| h.heaviest);
    hero.into_iter()
        .flat_map(|h| h.playable_chits())
        .filter(move |c| c.is_active() && c.can_move() && c.strength() >= heaviest)
        .filter(move |c| c.chit.effort <= stars && !played(battle, who, &c.label))
}

/// A DUCK chit maneuvers in the duck box only; it never runs or charges.
pub fn is_duck(chit: &HeroChit) -> bool {
    chit.chit.action == crate::data::characters::ChitAction::Duck
}

/// The move times of the attackers and charges on his sheet (Encounter
/// speed limits).
pub fn attacker_move_times(battle: &Battle, who: FighterId) -> Vec<u8> {
    battle
        .attackers_of(who)
        .into_iter()
        .filter_map(|d| match super::native_horses::mount(battle, d) {
            // A native riding his horse comes at the horse's pace, not his
            // own (3.1 8.3.7a, 8.4.5k.4).
            Some(horse) => Some(horse.move_time()),
            None => battle.denizen(d).map(|d| d.current().move_speed),
        })
        .chain(super::charge::charge_times_on(battle, who))
        .collect()
}

/// Whether an Encounter chit of this time beats every attacker's move time.
pub fn fast_enough(battle: &Battle, who: FighterId, time: u8) -> bool {
    attacker_move_times(battle, who).iter().all(|&m| time < m)
}

/// The denizens he could lure: in play, not his own hirelings, not
/// red-side-up on someone's sheet.
pub fn lurable(battle: &Battle, who: FighterId) -> Vec<FighterId> {
    (0..battle.fighters.len())
        .filter(|&d| battle.in_play(d))
        .filter(|&d| {
            battle.denizen(d).is_some_and(|den| {
                den.employer.is_none() && !(den.red_side_up() && battle.sheet.contains_key(&d))
            })
        })
        .filter(|&d| battle.sheet.get(&d) != Some(&who))
        .filter(|&d| !super::protection::spared(battle, d, who))
        // One a hired native took on cannot be lured away (III.A.1).
        .filter(|&d| {
            battle
                .sheet
                .get(&d)
                .is_none_or(|&o| battle.hero(o).is_some())
        })
        .collect()
}

/// His hired natives in the fight with nobody on their sheet.
pub fn free_hirelings(battle: &Battle, who: FighterId) -> Vec<FighterId> {
    (0..battle.fighters.len())
        .filter(|&h| battle.in_play(h) && !battle.fighters[h].hidden)
        .filter(|&h| battle.denizen(h).is_some_and(|d| d.employer == Some(who)))
        .filter(|&h| battle.attackers_of(h).is_empty() && !battle.sheet.contains_key(&h))
        .collect()
}

/// A denizen a hired native may be deployed against: unhired, in play,
/// not red side up, not already fighting a hired native.
pub fn deployable(battle: &Battle, target: FighterId) -> bool {
    battle.in_play(target)
        && battle
            .denizen(target)
            .is_some_and(|d| d.employer.is_none() && !d.red_side_up())
        && battle
            .sheet
            .get(&target)
            .is_none_or(|&owner| battle.hero(owner).is_some())
}

/// Whether `who` may deploy his hireling `native` against `target` (play
/// summary III.A.3): a denizen as [`deployable`] says, or another character
/// in play, unhidden unless the native is a hired leader who found Hidden
/// Enemies today.
pub fn may_deploy(battle: &Battle, who: FighterId, native: FighterId, target: FighterId) -> bool {
    if !free_hirelings(battle, who).contains(&native) {
        return false;
    }
    if battle.hero(target).is_some() {
        return target != who
            && battle.in_play(target)
            && super::hidden_enemies::sees(battle, native, target);
    }
    deployable(battle, target)
}

/// How easy a denizen is to kill: lower first.
fn toughness(battle: &Battle, id: FighterId) -> (Strength, bool, i32) {
    battle
        .denizen(id)
        .map_or((Strength::Tremendous, true, 0), |d| {
            (d.vulnerability, d.armored, -d.fame)
        })
}

/// The answer his standing orders give to the current decision.
pub fn standing_answer(battle: &Battle, who: FighterId) -> Answer {
    let default = Tactics::default();
    let tactics = battle.tactics.get(&who).unwrap_or(&default);
    match battle.stage {
        Stage::Lure => Answer::Lure {
            denizens: lure_choice(battle, who, tactics),
            hirelings: hireling_lure_choice(battle, who, tactics),
        },
        Stage::Deploy => Answer::Deploy {
            pairs: deploy_choice(battle, who, tactics),
        },
        Stage::Action => Answer::Action(action_choice(battle, who, tactics)),
        Stage::Melee => Answer::Melee(melee_choice(battle, who, tactics)),
        Stage::Fatigue => Answer::Fatigue(super::fatigue::default_choice(battle, who)),
    }
}

fn lure_choice(battle: &Battle, who: FighterId, tactics: &Tactics) -> Vec<String> {
    // Most orders lure nobody: then the candidates are not worth listing.
    if tactics.lure == Lure::Nobody {
        return Vec::new();
    }
    let candidates = lurable(battle, who);
    let names = |ids: Vec<FighterId>| -> Vec<String> {
        ids.into_iter()
            .map(|d| battle.name(d).to_string())
            .collect()
    };
    match &tactics.lure {
        Lure::Nobody => Vec::new(),
        Lure::Everyone => names(candidates),
        Lure::Weakest => names(
            candidates
                .into_iter()
                .min_by_key(|&d| toughness(battle, d))
                .into_iter()
                .collect(),
        ),
        Lure::Named(wanted) => names(
            candidates
                .into_iter()
                .filter(|&d| {
                    wanted
                        .iter()
                        .any(|w| w.eq_ignore_ascii_case(battle.name(d)))
                })
                .collect(),
        ),
    }
}

/// The `NATIVE lure DENIZEN` clauses that can be played now: each free
/// hireling of his lures one denizen he could lure himself, and each
/// denizen is lured once.
fn hireling_lure_choice(
    battle: &Battle,
    who: FighterId,
    tactics: &Tactics,
) -> Vec<(String, String)> {
    let mut taken = Vec::new();
    let mut chosen = Vec::new();
    for (native, target) in &tactics.hireling_lures {
        let (Some(n), Some(t)) = (battle.find(native), battle.find(target)) else {
            continue;
        };
        if hireling_may_lure(battle, who, n, t) && !taken.contains(&n) && !taken.contains(&t) {
            taken.extend([n, t]);
            chosen.push((battle.name(n).to_string(), battle.name(t).to_string()));
        }
    }
    chosen
}

/// Whether `native`, a hireling of `who`, may lure `target` onto his own
/// sheet: he is free (nothing on or against him) and `who` could lure it.
pub fn hireling_may_lure(
    battle: &Battle,
    who: FighterId,
    native: FighterId,
    target: FighterId,
) -> bool {
    free_hirelings(battle, who).contains(&native) && lurable(battle, who).contains(&target)
}

/// Free hirelings against the attackers on his own sheet, in turn.
fn deploy_choice(battle: &Battle, who: FighterId, tactics: &Tactics) -> Vec<(String, String)> {
    let mut chosen: Vec<(FighterId, FighterId)> = Vec::new();
    for (native, target) in &tactics.hireling_deploys {
        let (Some(n), Some(t)) = (battle.find(native), battle.find(target)) else {
            continue;
        };
        let taken = chosen.iter().any(|&(cn, ct)| cn == n || ct == t);
        if !taken && may_deploy(battle, who, n, t) {
            chosen.push((n, t));
        }
    }
    if tactics.deploy {
        let free: Vec<FighterId> = free_hirelings(battle, who)
            .into_iter()
            .filter(|h| !chosen.iter().any(|&(n, _)| n == *h))
            .collect();
        let targets: Vec<FighterId> = battle
            .attackers_of(who)
            .into_iter()
            .filter(|&d| deployable(battle, d) && !chosen.iter().any(|&(_, t)| t == d))
            .collect();
        chosen.extend(free.into_iter().zip(targets));
    }
    chosen
        .into_iter()
        .map(|(h, t)| (battle.name(h).to_string(), battle.name(t).to_string()))
        .collect()
}

fn action_choice(battle: &Battle, who: FighterId, tactics: &Tactics) -> Action {
    let Some(hero) = battle.hero(who) else {
        return Action::Nothing;
    };
    if let Some(order) = &tactics.cast {
        let (spell, target) = super::casting::split_order(order);
        return Action::Cast { spell, target };
    }
    if tactics.fly_away && hero.fly.is_some() {
        return Action::Run {
            chit: super::fly_chit::LABEL.into(),
        };
    }
    if tactics
        .run_when_wounded
        .is_some_and(|n| wounded_chits(hero) >= usize::from(n))
        && let Some(chit) = run_chits(battle, who).into_iter().next()
    {
        return Action::Run { chit };
    }
    if let Some(target) = &tactics.charge
        && let Some(with) = super::charge::charge_chits(battle, who)
            .into_iter()
            .map(|(c, _)| c)
            .find(|c| match &tactics.charge_with {
                Some(want) => same_chit(c, want),
                None => c != super::fly_chit::LABEL,
            })
        && super::charge::check(battle, who, target, &with).is_ok()
    {
        return Action::Charge {
            target: target.clone(),
            with,
        };
    }
    if let Some(item) = &tactics.abandon
        && super::abandon::check(battle, who, item).is_ok()
    {
        return Action::Abandon {
            item: item.clone(),
            drop: tactics.drops_in_sight(&battle.rules),
        };
    }
    if let Some((item, with)) = tactics
        .pick_up
        .iter()
        .find(|(item, with)| super::pick_up::reach(battle, who, item, with.as_deref()).is_ok())
    {
        return Action::PickUp {
            item: item.clone(),
            with: with.clone(),
        };
    }
    if let Some((activate, inactivate)) = super::activation::standing(battle, who, tactics) {
        return Action::Switch {
            activate,
            inactivate,
        };
    }
    if tactics.berserk && hero.vulnerability != Strength::Tremendous {
        let stars = stars_left(battle, who);
        if let Some(chit) = fight_chits(battle, who, stars).into_iter().find(|c| {
            c.chit.action == crate::data::characters::ChitAction::Berserk
                && fast_enough(battle, who, c.chit.time)
        }) {
            return Action::Alert {
                chit: chit.label.clone(),
            };
        }
    }
    let unalerted = hero.weapon.as_ref().is_some_and(|w| !w.is_alerted);
    if tactics.alert && unalerted {
        let stars = stars_left(battle, who);
        if let Some(chit) = fight_chits(battle, who, stars)
            .into_iter()
            .find(|c| fast_enough(battle, who, c.chit.time))
        {
            return Action::Alert {
                chit: chit.label.clone(),
            };
        }
    }
    Action::Nothing
}

fn wounded_chits(hero: &super::model::Hero) -> usize {
    hero.chits
        .iter()
        .filter(|c| c.condition == ChitCondition::Wounded)
        .count()
}

/// Why a character whose standing `run when wounded N` has come does not
/// run this round (3.1 rule 8.3.8: he runs by playing a MOVE chit or his
/// horse as his Encounter action), so his player reads it; `None` when the
/// order has not come or he runs.
pub fn why_he_stays(battle: &Battle, who: FighterId, action: &Action) -> Option<String> {
    let n = battle
        .tactics
        .get(&who)
        .and_then(|t| t.run_when_wounded)
        .or_else(|| battle.plays.run_when_wounded.get(&who).copied())?;
    let hero = battle.hero(who)?;
    let wounds = wounded_chits(hero);
    if wounds < usize::from(n) || matches!(action, Action::Run { .. }) {
        return None;
    }
    let red = battle
        .attackers_of(who)
        .into_iter()
        .find(|&d| battle.denizen(d).is_some_and(|d| d.red_side_up()));
    let slowest = attacker_move_times(battle, who)
        .into_iter()
        .min()
        .unwrap_or_default();
    let why = if let Action::Cast { spell, .. } = action {
        format!("the Combat: line casts {spell} first")
    } else if let Some(red) = red {
        format!(
            "{} is red side up on the {}'s sheet",
            battle.name(red),
            battle.name(who)
        )
    } else if super::riding::rides(battle, who) {
        format!("the horse is not faster than the attackers' move time {slowest}")
    } else if !usable_move_chits(battle, who, stars_left(battle, who)).any(|c| !is_duck(c)) {
        match hero.horse.as_ref().filter(|h| !h.dead) {
            Some(h) if !horse_carries(hero, h) => format!(
                "no MOVE chit is active and strong enough, and the {} cannot carry him and what he carries",
                h.name
            ),
            _ => "no MOVE chit is active and strong enough".to_string(),
        }
    } else {
        format!("no MOVE chit is faster than the attackers' move time {slowest}")
    };
    let chits = if wounds == 1 { "chit" } else { "chits" };
    Some(format!(
        "{why} (run when wounded {n}; {wounds} wounded {chits})"
    ))
}

/// Whether the horse he runs on carries him and all he carries (3.1
/// 8.3.7c); a MOVE chit's strength is checked the same way
/// (`usable_move_chits`).
fn horse_carries(hero: &super::model::Hero, horse: &super::model::HeroHorse) -> bool {
    horse.gallop.strength >= hero.heaviest.max(hero.vulnerability)
}

/// Whether a red-side-up Tremendous monster is on his sheet: he then
/// plays no MOVE chit to run, charge or pick up a belonging (play summary
/// III.A.4, 3.1 8.3.6b.1, 10.A.5.5.2).
pub fn red_side_up_on(battle: &Battle, who: FighterId) -> bool {
    battle
        .attackers_of(who)
        .iter()
        .any(|&d| battle.denizen(d).is_some_and(|d| d.red_side_up()))
}

/// What he may run with: legal MOVE chits, and `horse` when he has one.
fn run_chits(battle: &Battle, who: FighterId) -> Vec<String> {
    let Some(hero) = battle.hero(who) else {
        return Vec::new();
    };
    if red_side_up_on(battle, who) {
        return Vec::new();
    }
    let horse = hero
        .horse
        .as_ref()
        .filter(|h| !h.dead && horse_carries(hero, h));
    let stars = stars_left(battle, who);
    // A rider runs on his horse only (2nd-edition optional combat rule 5.2).
    let chits = if super::riding::rides(battle, who) {
        Vec::new()
    } else {
        move_chits(battle, who, stars)
    };
    let mut out: Vec<String> = chits
        .into_iter()
        .filter(|c| !is_duck(c))
        .filter(|c| battle.rules.stumble || fast_enough(battle, who, c.chit.time))
        .map(|c| c.label.clone())
        .collect();
    if let Some(h) = horse
        && (battle.rules.stumble || fast_enough(battle, who, h.gallop.move_speed))
    {
        out.push("horse".into());
    }
    out
}

/// The target his orders pick among those in play.
fn target_choice(battle: &Battle, who: FighterId, tactics: &Tactics) -> Option<FighterId> {
    if battle.plays.charges.contains_key(&who) {
        // He charged: the charged character or nobody (III.B.3.a).
        return super::charge::charged_by(battle, who)
            .filter(|&t| battle.in_play(t) && tactics.target != Target::Nobody);
    }
    let own = battle.attackers_of(who);
    if let Target::Named(name) = &tactics.target
        && let Some(id) = battle.find(name)
        && id != who
        && battle.in_play(id)
        && super::hidden_enemies::sees(battle, who, id)
    {
        return Some(id);
    }
    match tactics.target {
        Target::Nobody => None,
        Target::Weakest => own.into_iter().min_by_key(|&d| toughness(battle, d)),
        Target::Strongest => own
            .into_iter()
            .max_by_key(|&d| battle.denizen(d).map_or(0, |d| d.fame)),
        _ => own.into_iter().next(),
    }
}

fn melee_choice(battle: &Battle, who: FighterId, tactics: &Tactics) -> MeleePlay {
    let mut stars = stars_left(battle, who);
    let mut play = MeleePlay {
        gait: tactics.horse_gait,
        ..MeleePlay::default()
    };
    let rotate = Direction::from_number(u8::try_from(battle.round % 3).unwrap_or(0) + 1)
        .unwrap_or(Direction::Swing);
    let horse_alive = battle
        .hero(who)
        .and_then(|h| h.horse.as_ref())
        .is_some_and(|h| !h.dead);
    let wants_horse = tactics
        .maneuver_with
        .as_deref()
        .is_some_and(|w| w.eq_ignore_ascii_case("horse"));
    let maneuver_direction = tactics.maneuver_direction.unwrap_or(rotate);
    let target = target_choice(battle, who, tactics);
    // A named FIGHT chit keeps its stars before the maneuver is chosen.
    let preferred_attack = target.and_then(|_| {
        let want = tactics.attack_with.as_ref()?;
        usable_fight_chits(battle, who, stars).find(|c| same_chit(&c.label, want))
    });
    if let Some(chit) = &preferred_attack {
        stars -= chit.chit.effort;
    }
    if super::riding::rides(battle, who) {
        // He must maneuver with the horse; a named MOVE chit is his own.
        play.maneuver = Some(ManeuverPlay {
            with: "horse".into(),
            direction: maneuver_direction,
        });
        let own = tactics.maneuver_with.as_ref().and_then(|want| {
            usable_move_chits(battle, who, stars)
                .filter(|c| !is_duck(c) || maneuver_direction == Direction::Smash)
                .find(|c| same_chit(&c.label, want))
        });
        if let Some(chit) = own {
            stars -= chit.chit.effort;
            play.own_maneuver = Some(ManeuverPlay {
                with: chit.label.clone(),
                direction: maneuver_direction,
            });
        }
        play.at_horse = tactics.attack_horses;
    } else if horse_alive && wants_horse {
        play.maneuver = Some(ManeuverPlay {
            with: "horse".into(),
            direction: maneuver_direction,
        });
    } else {
        // Nobody on his sheet: a starred chit would only tire him.
        let threatened = !battle.attackers_of(who).is_empty();
        let moves: Vec<&HeroChit> = move_chits(battle, who, stars)
            .into_iter()
            .filter(|c| threatened || c.chit.effort == 0)
            .filter(|c| !is_duck(c) || maneuver_direction == Direction::Smash)
            .collect();
        let named_fly = tactics.maneuver_with.as_ref().and_then(|want| {
            usable_move_chits(battle, who, stars)
                .find(|c| super::fly_chit::is_fly(c) && same_chit(&c.label, want))
        });
        let chosen = tactics
            .maneuver_with
            .as_ref()
            .and_then(|want| moves.iter().find(|c| same_chit(&c.label, want)))
            .or(named_fly.as_ref())
            .or_else(|| moves.first());
        if let Some(chit) = chosen {
            stars -= chit.chit.effort;
            play.maneuver = Some(ManeuverPlay {
                with: chit.label.clone(),
                direction: maneuver_direction,
            });
        }
    }
    if let Some(target) = target {
        let fights = fight_chits(battle, who, stars);
        let chosen = preferred_attack.as_ref().or_else(|| fights.first());
        if let Some(chit) = chosen {
            play.target = Some(battle.name(target).to_string());
            play.attack = Some(AttackPlay {
                chit: chit.label.clone(),
                direction: tactics.attack_direction.unwrap_or(Direction::Thrust),
            });
        }
    }
    // His standing boxes for the counters on his sheet, when legal; the
    // rest fill the boxes in turn (`melee::fill_boxes`).
    play.placements = tactics
        .placements
        .iter()
        .filter(|(name, _)| {
            super::melee::defenders_horse(battle, who, name).is_some()
                || battle
                    .find(name)
                    .is_some_and(|d| super::melee::positions(battle, who, d))
        })
        .cloned()
        .collect();
    if super::melee::check_placements(battle, who, &play.placements).is_err() {
        play.placements.clear();
    }
    play.sides = tactics
        .sides
        .iter()
        .filter(|(name, _)| super::melee::check_side(battle, who, name).is_ok())
        .cloned()
        .collect();
    play.shield = Some(Direction::Thrust);
    play
}

/// `FIGHT H5` matches `FIGHT H5**` and any case.
pub fn same_chit(label: &str, wanted: &str) -> bool {
    // Compared in place, byte by byte: this runs for every chit of every
    // play. Labels and the orders' words are ASCII (the orders parser has
    // already trimmed any other space).
    if label == wanted {
        return true;
    }
    fn strip(s: &str) -> &[u8] {
        let bytes = s.trim_ascii().as_bytes();
        let stars = bytes.iter().rev().take_while(|&&b| b == b'*').count();
        &bytes[..bytes.len() - stars]
    }
    strip(label).eq_ignore_ascii_case(strip(wanted))
}

/// The options of his current decision, in words.
pub fn options(battle: &Battle, who: FighterId) -> Vec<String> {
    match battle.stage {
        Stage::Lure => {
            let targets = lurable(battle, who);
            let mut out: Vec<String> = targets
                .iter()
                .map(|&d| format!("lure {}", battle.name(d)))
                .collect();
            for h in free_hirelings(battle, who) {
                out.extend(
                    targets
                        .iter()
                        .map(|&d| format!("{} lure {}", battle.name(h), battle.name(d))),
                );
            }
            out
        }
        Stage::Deploy => free_hirelings(battle, who)
            .into_iter()
            .flat_map(|h| {
                (0..battle.fighters.len())
                    .filter(move |&t| may_deploy(battle, who, h, t))
                    .map(move |t| format!("deploy {} against {}", battle.name(h), battle.name(t)))
            })
            .collect(),
        Stage::Action => {
            let mut out = vec!["nothing".to_string()];
            out.extend(
                run_chits(battle, who)
                    .into_iter()
                    .map(|c| format!("run with {c}")),
            );
            if battle.hero(who).is_some_and(|h| h.fly.is_some()) {
                out.push(format!("run with {}", super::fly_chit::LABEL));
            }
            let stars = stars_left(battle, who);
            out.extend(
                fight_chits(battle, who, stars)
                    .into_iter()
                    .filter(|c| fast_enough(battle, who, c.chit.time))
                    .map(|c| format!("alert with {}", c.label)),
            );
            out.extend(
                super::charge::chargeable(battle, who)
                    .into_iter()
                    .flat_map(|t| {
                        super::charge::charge_chits(battle, who)
                            .into_iter()
                            .map(move |(c, _)| format!("charge {} with {c}", battle.name(t)))
                    }),
            );
            out.extend(
                super::abandon::abandonable(battle, who)
                    .into_iter()
                    .map(|i| format!("abandon {i}")),
            );
            out.extend(super::pick_up::options(battle, who));
            out.extend(super::activation::options(battle, who));
            out.extend(super::casting::legal_casts(battle, who));
            out
        }
        Stage::Melee => {
            let stars = stars_left(battle, who);
            let mut out: Vec<String> = move_chits(battle, who, stars)
                .into_iter()
                .map(|c| format!("maneuver with {}", c.label))
                .collect();
            out.extend(
                fight_chits(battle, who, stars)
                    .into_iter()
                    .map(|c| format!("attack with {}", c.label)),
            );
            out.extend(
                battle
                    .fighters
                    .iter()
                    .enumerate()
                    .filter(|&(i, f)| {
                        i != who && f.out.is_none() && super::hidden_enemies::sees(battle, who, i)
                    })
                    .map(|(_, f)| format!("target {}", f.name)),
            );
            out
        }
        Stage::Fatigue => super::fatigue::options(battle, who),
    }
}

/// Check an explicit answer is a legal play now.
///
/// # Errors
/// What is illegal and what would be legal.
pub fn check_answer(battle: &Battle, who: FighterId, answer: &Answer) -> Result<(), CombatError> {
    match answer {
        Answer::Lure {
            denizens,
            hirelings,
        } => {
            let can = lurable(battle, who);
            for name in denizens {
                let ok = battle.find(name).is_some_and(|d| can.contains(&d));
                if !ok {
                    return Err(format!(
                        "{name} cannot be lured; choose among: {}",
                        options(battle, who).join(", ")
                    )
                    .into());
                }
            }
            for (native, target) in hirelings {
                let ok = match (battle.find(native), battle.find(target)) {
                    (Some(n), Some(t)) => hireling_may_lure(battle, who, n, t),
                    _ => false,
                };
                if !ok {
                    let free: Vec<&str> = free_hirelings(battle, who)
                        .into_iter()
                        .map(|h| battle.name(h))
                        .collect();
                    return Err(format!(
                        "{native} cannot lure {target}: a free hireling of yours ({}) may lure one \
                         denizen you could lure yourself",
                        if free.is_empty() {
                            "none now".to_string()
                        } else {
                            free.join(", ")
                        }
                    )
                    .into());
                }
            }
            Ok(())
        }
        Answer::Deploy { pairs } => {
            for (native, target) in pairs {
                let ok = match (battle.find(native), battle.find(target)) {
                    (Some(n), Some(t)) => may_deploy(battle, who, n, t),
                    _ => false,
                };
                if !ok {
                    return Err(format!(
                        "{native} cannot be deployed against {target}; choose among: {}",
                        options(battle, who).join(", ")
                    )
                    .into());
                }
            }
            Ok(())
        }
        Answer::Action(Action::Nothing | Action::Cast { .. }) => Ok(()),
        Answer::Action(Action::Charge { target, with }) => {
            super::charge::check(battle, who, target, with)
        }
        Answer::Action(Action::Abandon { item, .. }) => super::abandon::check(battle, who, item),
        Answer::Action(Action::PickUp { item, with }) => {
            super::pick_up::reach(battle, who, item, with.as_deref()).map(|_| ())
        }
        Answer::Action(Action::Switch {
            activate,
            inactivate,
        }) => super::activation::check(battle, who, activate.as_deref(), inactivate.as_deref()),
        Answer::Action(Action::Run { chit }) if same_chit(chit, super::fly_chit::LABEL) => {
            if battle.hero(who).is_some_and(|h| h.fly.is_some()) {
                Ok(())
            } else {
                Err(super::fly_chit::NO_FLY_CHIT.into())
            }
        }
        Answer::Action(Action::Run { chit }) => {
            if run_chits(battle, who).iter().any(|c| same_chit(c, chit)) {
                Ok(())
            } else {
                Err(format!(
                    "cannot run with {chit} now; legal: {}",
                    options(battle, who).join(", ")
                )
                .into())
            }
        }
        Answer::Action(Action::Alert { chit }) => {
            let stars = stars_left(battle, who);
            let ok = usable_fight_chits(battle, who, stars)
                .any(|c| same_chit(&c.label, chit) && fast_enough(battle, who, c.chit.time));
            if ok {
                Ok(())
            } else {
                Err(format!(
                    "cannot alert with {chit} now; legal: {}",
                    options(battle, who).join(", ")
                )
                .into())
            }
        }
        Answer::Melee(play) => {
            super::melee::check_placements(battle, who, &play.placements)?;
            for (name, _) in &play.sides {
                super::melee::check_side(battle, who, name)?;
            }
            check_melee(battle, who, play)
        }
        Answer::Fatigue(play) => super::fatigue::check(battle, who, play),
    }
}

fn check_melee(battle: &Battle, who: FighterId, play: &MeleePlay) -> Result<(), CombatError> {
    let stars = stars_left(battle, who);
    let on_horse = |m: &Option<ManeuverPlay>| {
        m.as_ref()
            .is_some_and(|m| m.with.eq_ignore_ascii_case("horse"))
    };
    if super::riding::rides(battle, who) && play.maneuver.is_some() && !on_horse(&play.maneuver) {
        return Err(
            "with Riding Horses the maneuver is the horse's; a MOVE chit may be a maneuver of one's own besides it"
                .into(),
        );
    }
    if play.own_maneuver.is_some() && !(battle.rules.riding_horses && on_horse(&play.maneuver)) {
        return Err(
            "a maneuver of one's own besides the horse needs the Riding Horses rule and a horse maneuver"
                .into(),
        );
    }
    let mut spent = 0u8;
    for maneuver in [&play.maneuver, &play.own_maneuver].into_iter().flatten() {
        if maneuver.with.eq_ignore_ascii_case("horse") {
            let has = battle
                .hero(who)
                .and_then(|h| h.horse.as_ref())
                .is_some_and(|h| !h.dead);
            if !has {
                return Err("no living horse to maneuver with".into());
            }
            continue;
        }
        let chit = usable_move_chits(battle, who, stars)
            .find(|c| same_chit(&c.label, &maneuver.with))
            .ok_or_else(|| {
                format!(
                    "{} is not an active MOVE chit that can be played (strong enough for what is carried, within two stars)",
                    maneuver.with
                )
            })?;
        if is_duck(chit) && maneuver.direction != Direction::Smash {
            return Err(format!(
                "{} is a DUCK chit: it maneuvers in the duck box only",
                chit.label
            )
            .into());
        }
        spent += chit.chit.effort;
    }
    if let Some(attack) = &play.attack {
        let chit = usable_fight_chits(battle, who, stars)
            .find(|c| same_chit(&c.label, &attack.chit))
            .ok_or_else(|| {
                format!(
                    "{} is not an active FIGHT chit strong enough for the weapon",
                    attack.chit
                )
            })?;
        spent += chit.chit.effort;
        if play.target.is_none() {
            return Err("an attack needs a target".into());
        }
    }
    if spent > stars {
        return Err(format!(
            "these plays cost {spent} effort stars; only {stars} more may be played this round"
        )
        .into());
    }
    if let Some(charged) = super::charge::charged_by(battle, who)
        && play
            .target
            .as_ref()
            .is_some_and(|t| battle.find(t) != Some(charged))
    {
        return Err(format!(
            "the {} was charged this round: the attack goes there or nowhere",
            battle.name(charged)
        )
        .into());
    }
    if let Some(target) = &play.target {
        match battle.find(target) {
            Some(t)
                if t != who && battle.in_play(t) && super::hidden_enemies::sees(battle, who, t) => {
            }
            _ => {
                return Err(format!(
                    "{target} is not someone in this fight who can be attacked (a hidden one only \
                     after finding Hidden Enemies today, or when Magic Sight shows that one; \
                     3.1 8.4.2b.5, 7.5.7c)"
                )
                .into());
            }
        }
    }
    Ok(())
}
