//! The Melee step (play summary III.B): targets and plays, denizens placed in
//! the red boxes, repositioned by one die per sheet and changing tactics by
//! two dice per box (`combat/encounter.rs`–15.6), then every attack compared with
//! its target's maneuver: it hits when it intercepts the maneuver's line or
//! undercuts its time. Hits resolve in order of length in the first round
//! and of speed later; an attacker killed by an earlier hit strikes no
//! more, while attacks at the same moment all land (simultaneous kills).
//! Weapons that hit are unalerted, weapons that miss are alerted.

use std::collections::BTreeMap;

use crate::data::terms::{Harm, Strength};
use crate::tables::melee::{RepositionTable, Tactics as Flip};
use crate::tables::{Modifiers, optional_combat::ManeuverFaced};
use realmgm_core::dice::Dice;

use super::Battle;
use super::decisions::{Answer, MeleePlay};
use super::encounter::{make_group_battle, spend};
use super::error::CombatError;
use super::harm::{self, Blow};
use super::log::{CombatLine, Repositions, Seen};
use super::model::{Direction, FighterId, Gait};
use super::tactics::same_chit;

/// A maneuver on a sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Maneuver {
    pub direction: Direction,
    pub time: u8,
    pub horse: bool,
}

/// One attack of the round.
#[derive(Clone, Debug, PartialEq)]
pub struct Attack {
    pub attacker: FighterId,
    /// `Dragon Head` for a part; the attacker's name otherwise.
    pub label: String,
    pub target: FighterId,
    pub direction: Direction,
    pub speed: u8,
    pub length: u8,
    pub blow: Blow,
    /// The character's weapon flips by hit or miss.
    pub weapon: bool,
}

/// The round's plays as the Melee step reveals them.
#[derive(Default)]
pub struct Sheets {
    pub maneuvers: BTreeMap<FighterId, Vec<Maneuver>>,
    /// The red box of each denizen (body) on a sheet, and of its parts.
    pub boxes: BTreeMap<FighterId, Direction>,
    pub part_boxes: BTreeMap<(FighterId, usize), Direction>,
    pub shields: BTreeMap<FighterId, Direction>,
    /// With riding horses: characters who aim at their target's horse.
    pub at_horse: std::collections::BTreeSet<FighterId>,
}

/// The Melee step.
pub fn melee(battle: &mut Battle, dice: &mut Dice, answers: &BTreeMap<FighterId, Answer>) {
    super::native_horses::turn_over(battle);
    let mut sheets = Sheets::default();
    let mut attacks = Vec::new();
    let spell_alive = super::casting::take_effect(battle, dice, &mut attacks);
    for who in battle.characters_in_play() {
        let Some(Answer::Melee(play)) = answers.get(&who) else {
            continue;
        };
        let cast = spell_alive.contains(&who);
        let before = attacks.len();
        character_plays(battle, dice, who, play, cast, &mut sheets, &mut attacks);
        use_wish(battle, who, &attacks[before..]);
    }
    place_hired_defenders(battle, &mut sheets, &attacks);
    randomize(battle, dice, &mut sheets);
    denizen_attacks(battle, &sheets, &mut attacks);
    super::casting::adjust_attacks(battle, &mut attacks);
    resolve(battle, dice, &sheets, attacks);
    super::pit_attack::missed(battle);
}

/// One character's Melee plays. `cast`: his spell came to life this round,
/// so he makes no normal attack (3.1 Sequence of Play, Evening 2.3); an
/// attack spell attacks for him instead (2.3.2).
fn character_plays(
    battle: &mut Battle,
    dice: &mut Dice,
    who: FighterId,
    play: &MeleePlay,
    cast: bool,
    sheets: &mut Sheets,
    attacks: &mut Vec<Attack>,
) {
    let name = battle.name(who).to_string();
    // What he plays, in one line: "charge with MOVE M4; thrust Wolf with ...".
    let mut said = String::new();
    for maneuver in [&play.maneuver, &play.own_maneuver].into_iter().flatten() {
        let Some(hero) = battle.hero(who) else { return };
        let found = if maneuver.with.eq_ignore_ascii_case("horse") {
            character_horse(battle, who, play.gait).map(|(name, time)| (name, 0, time, true))
        } else {
            hero.playable_chits()
                .find(|c| same_chit(&c.label, &maneuver.with))
                .map(|c| (c.label.clone(), c.chit.effort, c.chit.time, false))
        };
        let Some((label, effort, time, horse)) = found else {
            continue;
        };
        if !horse {
            spend(battle, who, &label, effort, false);
        }
        if !said.is_empty() {
            said.push_str("; ");
        }
        said.push_str(maneuver.direction.maneuver_word());
        said.push_str(" with ");
        said.push_str(&label);
        let list = sheets.maneuvers.entry(who).or_default();
        let entry = Maneuver {
            direction: maneuver.direction,
            time,
            horse,
        };
        // The horse's maneuver decides hits; it goes first.
        if horse {
            list.insert(0, entry);
        } else {
            list.push(entry);
        }
    }
    if let Some(shield) = play.shield {
        sheets.shields.insert(who, shield);
    }
    if play.at_horse {
        sheets.at_horse.insert(who);
    }
    for (denizen, side) in &play.sides {
        if check_side(battle, who, denizen).is_ok()
            && let Some(d) = battle.find(denizen).and_then(|d| battle.denizen_mut(d))
        {
            d.side = *side;
        }
    }
    for (denizen, direction) in &play.placements {
        if let Some((rider, horse)) = defenders_horse(battle, who, denizen) {
            sheets.part_boxes.insert((rider, horse), *direction);
        } else if let Some(d) = battle.find(denizen)
            && positions(battle, who, d)
        {
            sheets.boxes.insert(d, *direction);
        }
    }
    if cast && play.attack.is_some() && play.target.is_some() {
        if !said.is_empty() {
            said.push_str("; ");
        }
        said.push_str("no weapon attack: the spell cast this round came to life");
    }
    if let (false, Some(attack), Some(target)) = (cast, &play.attack, &play.target)
        && let Some(t) = battle.find(target)
        && let Some(blow) = character_blow(battle, who, &attack.chit)
    {
        let (label, effort, speed, length) = blow.1;
        spend(battle, who, &label, effort, true);
        if !said.is_empty() {
            said.push_str("; ");
        }
        said.push_str(attack.direction.attack_word());
        said.push(' ');
        said.push_str(target);
        said.push_str(" with ");
        said.push_str(&label);
        super::ambush::weapon_attack(battle, dice, who);
        super::treachery::on_target(battle, who, t);
        super::watchful::on_target(battle, dice, who, t);
        if battle.denizen(t).is_some() {
            if !battle.sheet.contains_key(&t)
                && battle.denizen(t).is_some_and(|d| d.employer.is_none())
            {
                battle.sheet.insert(t, who);
                battle.plays.fresh.insert(t);
            }
            make_group_battle(battle, t, who);
        }
        battle.fighters[t].hidden = false;
        super::casting::attacked(battle, t);
        attacks.push(Attack {
            attacker: who,
            label: name.clone(),
            target: t,
            direction: attack.direction,
            speed,
            length,
            blow: blow.0,
            weapon: battle.hero(who).is_some_and(|h| h.weapon.is_some()),
        });
    }
    let attacked = attacks.iter().any(|a| a.attacker == who);
    if said.is_empty() {
        said.push_str("no plays");
    }
    let seen = battle.seen_by(who);
    let line = if attacked {
        CombatLine::Plays {
            fighter: name,
            text: said,
        }
    } else {
        CombatLine::Maneuvers {
            fighter: name,
            text: said,
        }
    };
    battle.say(seen, line);
}

/// A waiting Wish for Strength goes with the first Fight chit he attacks
/// with (3.1 4.6.8b.3): this round's attack (`played`, what his plays
/// added) is Tremendous, and the wish is used.
fn use_wish(battle: &mut Battle, who: FighterId, played: &[Attack]) {
    let waiting = battle.hero(who).is_some_and(|h| h.wish_strength);
    if !waiting || !played.iter().any(|a| a.attacker == who) {
        return;
    }
    if let Some(hero) = battle.hero_mut(who) {
        hero.wish_strength = false;
    }
    battle.plays.wished.insert(who);
}

/// His living horse as he plays it in the Melee step: its name and side,
/// and the move time of that side (3.1 8.4.5k). He may turn it either side
/// up, galloping once a round: a horse played galloping in the Encounter
/// step has turned over and walks (5.3 step 2). Unsaid, it gallops when it
/// may. The side must carry him and what he carries; when the side he
/// wants cannot, he plays the other; neither: he cannot play the horse.
fn character_horse(battle: &Battle, who: FighterId, wanted: Option<Gait>) -> Option<(String, u8)> {
    let hero = battle.hero(who)?;
    let horse = hero.horse.as_ref().filter(|h| !h.dead)?;
    let may_gallop = !battle.plays.galloped.contains(&who);
    let first = match wanted {
        Some(Gait::Walk) => Gait::Walk,
        _ if may_gallop => Gait::Gallop,
        _ => Gait::Walk,
    };
    let other = match first {
        Gait::Gallop => Gait::Walk,
        Gait::Walk if may_gallop => Gait::Gallop,
        Gait::Walk => Gait::Walk,
    };
    [first, other].into_iter().find_map(|gait| {
        let (side, word) = match gait {
            Gait::Gallop => (&horse.gallop, "galloping"),
            Gait::Walk => (&horse.trot, "walking"),
        };
        // The side must carry him and all he carries (3.1 8.4.5k).
        (side.strength >= hero.heaviest.max(hero.vulnerability))
            .then(|| (format!("{} {word}", horse.name), side.move_speed))
    })
}

type ChitFacts = (String, u8, u8, u8);

/// A character's blow with his weapon (or dagger) and FIGHT chit, and the
/// chit's label, effort, the attack speed and length.
fn character_blow(battle: &Battle, who: FighterId, chit: &str) -> Option<(Blow, ChitFacts)> {
    if let Some(beast) = super::spell_effects::form_blow(battle, who, chit) {
        return beast;
    }
    let hero = battle.hero(who)?;
    let chit = hero.playable_chits().find(|c| same_chit(&c.label, chit))?;
    let (harm, stars, speed, length, weight, missile) = match &hero.weapon {
        Some(w) => {
            let side = w.side();
            (
                w.harm(),
                side.stars,
                side.speed.unwrap_or(chit.chit.time),
                w.length,
                w.weight,
                w.missile,
            )
        }
        // Everyone has a dagger: negligible, one star (III.B.5).
        None => (
            Strength::Negligible,
            1,
            chit.chit.time,
            0,
            Strength::Negligible,
            false,
        ),
    };
    let bonus = !missile && chit.strength() > weight;
    let blow = if hero.wish_strength && chit.can_fight() {
        // Tremendous whatever the weapon or chit (3.1 4.6.8b.3).
        Blow {
            level: harm::level(Strength::Tremendous),
            red: false,
            stars: 0,
            striking_bonus: false,
            missile,
        }
    } else {
        Blow {
            level: harm::level(harm),
            red: false,
            stars,
            striking_bonus: bonus,
            missile,
        }
    };
    Some((blow, (chit.label.clone(), chit.chit.effort, speed, length)))
}

/// A hired native or controlled monster that is attacked, by denizens on
/// its sheet or by characters only, defends on its own Melee Section (3.1
/// 8.4.5n): its hirer puts it in the red box he names (`place Soldier 1 in
/// box 2`, with `dark side up` or `light side up` if he turns it), box 1
/// when he names none, and its horse where he names (`place Bashkar 1's
/// horse in box 3`), else in the box after it;
/// it neither moves nor changes tactics there (Sequence of Play, Evening
/// 2.4). Every counter not placed by its sheet's owner is put in a red box
/// ([`fill_boxes`]).
fn place_hired_defenders(battle: &Battle, sheets: &mut Sheets, attacks: &[Attack]) {
    let mut owners: Vec<FighterId> = battle.sheet.values().copied().collect();
    owners.sort_unstable();
    owners.dedup();
    let mut defenders: Vec<FighterId> = owners
        .iter()
        .copied()
        .chain(attacks.iter().map(|a| a.target))
        .filter(|&d| battle.denizen(d).is_some_and(|den| den.employer.is_some()))
        .collect();
    defenders.sort_unstable();
    defenders.dedup();
    for d in defenders {
        let body = *sheets.boxes.entry(d).or_insert(Direction::Thrust);
        if let Some(horse) = super::native_horses::part_index(battle, d) {
            let next = Direction::ALL[usize::from(body.number()) % 3];
            sheets.part_boxes.entry((d, horse)).or_insert(next);
        }
    }
    for owner in owners {
        if battle.denizen(owner).is_some() {
            sheets.boxes.entry(owner).or_insert(Direction::Thrust);
        }
        fill_boxes(battle, sheets, owner);
    }
}

/// Check that `who` may turn `name` either side up: his hireling or
/// controlled monster defending on its own sheet, not a Tremendous monster
/// (3.1 8.4.5n.1, 8.4.7c).
///
/// # Errors
/// Anything else, saying what may be turned.
pub fn check_side(battle: &Battle, who: FighterId, name: &str) -> Result<(), CombatError> {
    let Some(d) = battle.find(name) else {
        return Err(format!("nobody called {name} is in this combat").into());
    };
    if !hired_by(battle, d, who) || battle.sheet.contains_key(&d) {
        return Err(format!(
            "only a hireling of the {} defending on its own sheet may be put either side up, not {name}",
            battle.name(who)
        )
        .into());
    }
    if battle.denizen(d).is_some_and(|den| den.tremendous) {
        return Err(
            format!("{name} is a Tremendous monster: it is not turned over by choice").into(),
        );
    }
    Ok(())
}

/// Whether `who` positions counter `d` in the Melee step: one on his own
/// sheet (3.1 8.4.5m), his hireling defending on its own sheet or one on
/// that hireling's sheet (8.4.5n).
pub fn positions(battle: &Battle, who: FighterId, d: FighterId) -> bool {
    match battle.sheet.get(&d) {
        Some(&owner) => owner == who || hired_by(battle, owner, who),
        None => hired_by(battle, d, who),
    }
}

/// `Bashkar 1's horse`, when Bashkar 1 is a mounted hireling of `who`
/// defending on his own sheet: the rider and the horse's part index. Its
/// hirer puts it in any box, his rider's or another (3.1 8.4.5n.1).
pub fn defenders_horse(battle: &Battle, who: FighterId, name: &str) -> Option<(FighterId, usize)> {
    let lower = name.trim().to_ascii_lowercase();
    let rider = lower.strip_suffix("'s horse")?;
    let d = battle.find(rider)?;
    if !hired_by(battle, d, who) || battle.sheet.contains_key(&d) {
        return None;
    }
    super::native_horses::part_index(battle, d).map(|horse| (d, horse))
}

/// Whether `denizen` is hired by (or under the control of) `who`.
fn hired_by(battle: &Battle, denizen: FighterId, who: FighterId) -> bool {
    battle
        .denizen(denizen)
        .is_some_and(|d| d.employer == Some(who))
}

/// Put the counters on `owner`'s sheet that are not placed yet in the red
/// boxes (3.1 8.4.5m): attacking counters (monsters, natives, heads,
/// clubs) in as many boxes as possible — each into the box holding the
/// fewest, the lowest-numbered first — never an unhired, uncontrolled
/// denizen's head or club in its own box; a native's horse, not an
/// attacking counter, in the box after its rider's (so never his, 8.4.5m).
fn fill_boxes(battle: &Battle, sheets: &mut Sheets, owner: FighterId) {
    let on_sheet = battle.attackers_of(owner);
    let mut counts = [0usize; 3];
    let slot = |d: Direction| usize::from(d.number() - 1);
    for &d in &on_sheet {
        if let Some(&body) = sheets.boxes.get(&d) {
            counts[slot(body)] += 1;
        }
        let parts = battle.denizen(d).map_or(0, |den| den.parts.len());
        for part in 0..parts {
            if let Some(&b) = sheets.part_boxes.get(&(d, part)) {
                counts[slot(b)] += 1;
            }
        }
    }
    let emptiest = |counts: &[usize; 3], not: Option<Direction>| {
        Direction::ALL
            .into_iter()
            .filter(|&b| Some(b) != not)
            .min_by_key(|&b| counts[slot(b)])
            .unwrap_or(Direction::Thrust)
    };
    for d in on_sheet {
        let Some(den) = battle.denizen(d) else {
            continue;
        };
        let body = match sheets.boxes.get(&d) {
            Some(&b) => b,
            None => {
                let b = emptiest(&counts, None);
                counts[slot(b)] += 1;
                sheets.boxes.insert(d, b);
                b
            }
        };
        let apart = den.employer.is_none();
        for part in 0..den.parts.len() {
            if sheets.part_boxes.contains_key(&(d, part)) {
                continue;
            }
            let b = emptiest(&counts, apart.then_some(body));
            counts[slot(b)] += 1;
            sheets.part_boxes.insert((d, part), b);
        }
        if let Some(horse) = super::native_horses::part_index(battle, d) {
            let next = Direction::ALL[usize::from(body.number()) % 3];
            sheets.part_boxes.entry((d, horse)).or_insert(next);
        }
    }
}

/// Check a character's placements of the counters on his sheet (3.1
/// 8.4.5m) and on his hirelings' sheets (8.4.5n): each names a counter he
/// positions once, and on each sheet, with the rest put in the boxes, the
/// attacking counters fill as many boxes as
/// they can.
///
/// # Errors
/// A name not on his sheet, named twice, or boxes left empty while
/// another holds two.
pub fn check_placements(
    battle: &Battle,
    who: FighterId,
    placements: &[(String, Direction)],
) -> Result<(), CombatError> {
    let mut sheets = Sheets::default();
    let mut owners = vec![who];
    for (name, direction) in placements {
        if defenders_horse(battle, who, name).is_some() {
            // His defending hireling's horse: any box (8.4.5n.1).
            continue;
        }
        let found = battle.find(name).filter(|&d| positions(battle, who, d));
        let Some(d) = found else {
            return Err(format!(
                "{name} is neither on the {}'s sheet, nor one of his hirelings, nor on a \
                 hireling's sheet",
                battle.name(who)
            )
            .into());
        };
        let Some(&owner) = battle.sheet.get(&d) else {
            // His hireling defending on its own sheet (8.4.5n.1).
            continue;
        };
        if sheets.boxes.insert(d, *direction).is_some() {
            return Err(format!("{name} is placed twice").into());
        }
        if !owners.contains(&owner) {
            owners.push(owner);
        }
    }
    for owner in owners {
        fill_boxes(battle, &mut sheets, owner);
        let mut filled = [false; 3];
        let mut attacking = 0usize;
        for d in battle.attackers_of(owner) {
            let parts = battle.denizen(d).map_or(0, |den| den.parts.len());
            let boxes = sheets
                .boxes
                .get(&d)
                .into_iter()
                .chain((0..parts).filter_map(|p| sheets.part_boxes.get(&(d, p))));
            for b in boxes {
                filled[usize::from(b.number() - 1)] = true;
                attacking += 1;
            }
        }
        let used = filled.iter().filter(|f| **f).count();
        if used < attacking.min(3) {
            return Err(format!(
                "the attacking counters on {} sheet must fill as many red boxes as they can: \
                 {attacking} counters in {used} boxes",
                super::log::whose(battle.name(owner))
            )
            .into());
        }
    }
    Ok(())
}

/// Repositioning by one die per sheet, then change tactics by two dice
/// per box holding Medium or Heavy counters (play summary III.B.6). On a
/// denizen's sheet the defender's target and the other attackers each
/// roll apart, for repositioning and for tactics (3.1 8.4.6d.1).
fn randomize(battle: &mut Battle, dice: &mut Dice, sheets: &mut Sheets) {
    let mut owners: Vec<FighterId> = battle.sheet.values().copied().collect();
    owners.sort_unstable();
    owners.dedup();
    for owner in owners {
        let on_sheet = battle.attackers_of(owner);
        if on_sheet.is_empty() {
            continue;
        }
        let Some(target) = battle.defenders_target(owner) else {
            reposition(battle, dice, sheets, owner, &on_sheet, Repositions::Sheet);
            continue;
        };
        let counter = battle.name(target).to_string();
        reposition(
            battle,
            dice,
            sheets,
            owner,
            &[target],
            Repositions::Target { counter },
        );
        let others: Vec<FighterId> = on_sheet.into_iter().filter(|&d| d != target).collect();
        if !others.is_empty() {
            let counters = others.iter().map(|&d| battle.name(d).to_string()).collect();
            reposition(
                battle,
                dice,
                sheets,
                owner,
                &others,
                Repositions::Others { counters },
            );
        }
    }
}

/// One repositioning roll for the counters `group` on `owner`'s sheet,
/// then their change-tactics rolls, one per box.
fn reposition(
    battle: &mut Battle,
    dice: &mut Dice,
    sheets: &mut Sheets,
    owner: FighterId,
    group: &[FighterId],
    moves: Repositions,
) {
    let owner_name = battle.name(owner).to_string();
    // A character's sheet keeps the purposes it always had, so stored
    // games and battle files roll as before.
    let part = match moves {
        Repositions::Sheet => "",
        Repositions::Target { .. } => "/target",
        Repositions::Others { .. } => "/attackers",
    };
    let what = ["reposition/", owner_name.as_str(), part].concat();
    let roll = battle.roll_table(dice, &RepositionTable, &what, &Modifiers::none());
    let moved = |dir: Direction| {
        Direction::from_number(roll.result.destination(dir.number()).unwrap_or(1)).unwrap_or(dir)
    };
    for &d in group {
        if let Some(dir) = sheets.boxes.get_mut(&d) {
            *dir = moved(*dir);
        }
    }
    for ((d, _), dir) in sheets.part_boxes.iter_mut() {
        if group.contains(d) {
            *dir = moved(*dir);
        }
    }
    battle.say(
        Seen::Clearing,
        CombatLine::Repositioned {
            sheet: owner_name.clone(),
            result: roll.result.to_string(),
            moves,
        },
    );
    for line in Direction::ALL {
        let flippers: Vec<FighterId> = group
            .iter()
            .copied()
            .filter(|d| sheets.boxes.get(d) == Some(&line))
            .filter(|&d| battle.denizen(d).is_some_and(|den| den.changes_tactics()))
            .collect();
        if flippers.is_empty() {
            continue;
        }
        let mut what = ["tactics/", owner_name.as_str(), part, "/box"].concat();
        crate::tables::push_number(&mut what, i16::from(line.number()));
        let roll = battle.roll_table(
            dice,
            &crate::tables::melee::ChangeTactics,
            &what,
            &Modifiers::none(),
        );
        if roll.result == Flip::Flip {
            let names: Vec<String> = flippers
                .iter()
                .map(|&d| battle.name(d).to_string())
                .collect();
            for d in flippers {
                if let Some(den) = battle.denizen_mut(d) {
                    den.flip();
                }
            }
            battle.say(
                Seen::Clearing,
                CombatLine::ChangedTactics {
                    sheet: owner_name.clone(),
                    counters: names,
                },
            );
        }
    }
}

/// The attacks of denizens on sheets, and of hired natives defending.
fn denizen_attacks(battle: &mut Battle, sheets: &Sheets, attacks: &mut Vec<Attack>) {
    let placed: Vec<(FighterId, FighterId)> = battle.sheet.iter().map(|(&d, &o)| (d, o)).collect();
    for (d, owner) in placed {
        if !battle.in_play(d) || battle.plays.fresh.contains(&d) {
            continue;
        }
        push_denizen_attacks(battle, d, owner, sheets, attacks);
        // A hired native attacked on his own sheet strikes back at the
        // first attacker there.
        if battle.denizen(owner).is_some_and(|o| o.employer.is_some())
            && battle.defenders_target(owner) == Some(d)
        {
            push_denizen_attacks(battle, owner, d, sheets, attacks);
        }
    }
}

fn push_denizen_attacks(
    battle: &mut Battle,
    d: FighterId,
    target: FighterId,
    sheets: &Sheets,
    attacks: &mut Vec<Attack>,
) {
    if battle.denizen(d).is_none() {
        return;
    }
    if super::casting::pacified(battle, d) {
        let line = CombatLine::Refused {
            character: battle.name(d).to_string(),
            reason: "Peace holds it: it does not attack".into(),
        };
        battle.say(Seen::Clearing, line);
        return;
    }
    if super::protection::spared(battle, d, target) {
        let line = CombatLine::Refused {
            character: battle.name(d).to_string(),
            reason: format!("it does not attack the {}", battle.name(target)),
        };
        battle.say(Seen::Clearing, line);
        return;
    }
    let Some(den) = battle.denizen(d) else {
        return;
    };
    // Read in place: this runs for every denizen every round.
    let side = den.current();
    let name = battle.name(d);
    let body = sheets.boxes.get(&d).copied().unwrap_or(Direction::Thrust);
    if let (Some(harm), Some(speed)) = (side.harm, side.speed) {
        attacks.push(Attack {
            attacker: d,
            label: name.to_string(),
            target,
            direction: body,
            speed,
            length: den.length,
            blow: denizen_blow(harm, side.stars, side.missile),
            weapon: false,
        });
    } else if let Some(spell) = super::monster_spells::attack(battle, d, target, body) {
        attacks.push(spell);
    }
    for (i, p) in den.parts.iter().enumerate() {
        let s = p.side(den.side);
        // Dragon Heads (3.1 10.B.3): the head breathes fire, a missile
        // attack of its own length, instead of striking.
        let fire = p.fire_length.filter(|_| battle.rules.dragon_heads);
        attacks.push(Attack {
            attacker: d,
            label: [name, " (", p.name.as_str(), ")"].concat(),
            target,
            direction: sheets.part_boxes.get(&(d, i)).copied().unwrap_or(body),
            speed: s.speed,
            length: fire.unwrap_or(p.length),
            blow: denizen_blow(s.harm, s.stars, fire.is_some()),
            weapon: false,
        });
    }
}

/// A denizen's (or a form's) harm letter and stars as a blow.
pub fn denizen_blow(harm: Harm, stars: u8, missile: bool) -> Blow {
    let (level, red) = match harm {
        Harm::Light => (1, false),
        Harm::Medium => (2, false),
        Harm::Heavy => (3, false),
        Harm::Tremendous => (4, false),
        Harm::Red => (4, true),
    };
    Blow {
        level,
        red,
        stars,
        striking_bonus: false,
        missile,
    }
}

/// The maneuvers an attack on `target` is compared with: a character's
/// from his sheet, a denizen's (and its horse's) written into `scratch`,
/// whose allocation is reused from attack to attack.
fn maneuvers_of<'a>(
    battle: &Battle,
    sheets: &'a Sheets,
    target: FighterId,
    scratch: &'a mut Vec<Maneuver>,
) -> &'a [Maneuver] {
    if battle.hero(target).is_some() {
        return sheets.maneuvers.get(&target).map_or(&[], Vec::as_slice);
    }
    let Some(den) = battle.denizen(target) else {
        return &[];
    };
    let Some(&body) = sheets.boxes.get(&target) else {
        return &[];
    };
    scratch.clear();
    match super::native_horses::maneuvers(battle, sheets, target, body) {
        Some(mounted) => scratch.extend(mounted),
        None => scratch.push(Maneuver {
            direction: body,
            time: den.current().move_speed,
            horse: false,
        }),
    }
    scratch
}

fn resolve(battle: &mut Battle, dice: &mut Dice, sheets: &Sheets, attacks: Vec<Attack>) {
    let first_round = battle.round == 1;
    let mut hits = Vec::new();
    let mut scratch = Vec::with_capacity(2);
    for attack in attacks {
        let maneuvers = maneuvers_of(battle, sheets, attack.target, &mut scratch);
        let deciding = maneuvers.first();
        let intercepts = deciding.is_none_or(|m| m.direction == attack.direction);
        let undercuts = deciding.is_none_or(|m| attack.speed < m.time);
        let attacker = attack.label.clone();
        let target = battle.name(attack.target).to_string();
        if intercepts || undercuts {
            let how = match (deciding, intercepts) {
                (None, _) => "no maneuver played".to_string(),
                (Some(m), true) => [
                    attack.direction.attack_word(),
                    " meets ",
                    m.direction.maneuver_word(),
                ]
                .concat(),
                (Some(m), false) => format!("speed {} undercuts {}", attack.speed, m.time),
            };
            battle.say(
                Seen::Clearing,
                CombatLine::Hit {
                    attacker,
                    target,
                    how,
                },
            );
            let faced: Vec<ManeuverFaced> = maneuvers
                .iter()
                .map(|m| ManeuverFaced {
                    move_time: Some(m.time),
                    intercepted: m.direction == attack.direction,
                })
                .collect();
            hits.push((attack, faced));
        } else {
            battle.say(Seen::Clearing, CombatLine::Missed { attacker, target });
            set_weapon(battle, &attack, true);
        }
    }
    let key = |a: &Attack| {
        if first_round {
            (std::cmp::Reverse(a.length), a.speed)
        } else {
            (std::cmp::Reverse(u8::MAX - a.speed), u8::MAX - a.length)
        }
    };
    hits.sort_by_key(|(a, _)| key(a));
    // Who was killed at which moment: attacks at the same moment all land,
    // and all meet the horses and armour that stood when it began.
    let mut killed_at: BTreeMap<FighterId, (std::cmp::Reverse<u8>, u8)> = BTreeMap::new();
    let mut instant = None;
    let mut standing = harm::Standing::default();
    // The spoils of each instant's kills are given when it ends: kills of
    // one instant may be shared, or count from the most valuable.
    super::spoils::hold(battle);
    for (attack, faced) in hits {
        let now = key(&attack);
        if killed_at.get(&attack.attacker).is_some_and(|&k| k < now) {
            continue;
        }
        if instant != Some(now) {
            super::spoils::settle(battle, false);
            instant = Some(now);
            standing = harm::Standing::now(battle);
        }
        set_weapon(battle, &attack, false);
        let aimed = sheets.at_horse.contains(&attack.attacker);
        let rode = sheets
            .maneuvers
            .get(&attack.target)
            .and_then(|m| m.first())
            .is_some_and(|m| m.horse);
        let native_rider = battle.denizen(attack.target).is_some() && standing.horse(attack.target);
        let horse =
            (rode || native_rider) && super::riding::hits_horse(battle, attack.attacker, aimed);
        let shield = sheets.shields.get(&attack.target).copied();
        let was_in = battle.in_play(attack.target);
        harm::strike(battle, dice, &attack, &faced, horse, shield, &standing);
        if !attack.blow.red {
            harm::tremendous_hit(battle, attack.attacker);
        }
        if was_in && !battle.in_play(attack.target) {
            killed_at.insert(attack.target, now);
        }
    }
    super::spoils::settle(battle, true);
}

/// Unalert a weapon that hit, alert one that missed (III.B.10).
fn set_weapon(battle: &mut Battle, attack: &Attack, alerted: bool) {
    if !attack.weapon {
        return;
    }
    if let Some(w) = battle
        .hero_mut(attack.attacker)
        .and_then(|h| h.weapon.as_mut())
    {
        w.is_alerted = alerted;
    }
}

#[cfg(test)]
mod tests {
    use super::super::model::Direction;
    use super::super::script;
    use crate::test_support::data;

    /// 3.1 8.4.5m: a character may not double up attacking counters in one
    /// red box while another is empty.
    #[test]
    fn placements_fill_as_many_boxes_as_they_can_3_1_8_4_5m() {
        let file = r#"
clearing = "CV4"
[[character]]
name = "Amazon"
[[denizen]]
id = "Wolf A 1"
battling = ["Amazon"]
[[denizen]]
id = "Wolf B 1"
battling = ["Amazon"]
"#;
        let mut scripted = script::load(data(), "boxes", file).expect("the file loads");
        let battle = &mut scripted.battle;
        let amazon = battle.find("Amazon").expect("the Amazon");
        for wolf in ["Wolf A 1", "Wolf B 1"] {
            let id = battle.find(wolf).expect("a wolf");
            battle.sheet.insert(id, amazon);
        }
        let place = |a: u8, b: u8| {
            let box_of = |n| Direction::from_number(n).expect("a box");
            vec![
                ("Wolf A 1".to_string(), box_of(a)),
                ("Wolf B 1".to_string(), box_of(b)),
            ]
        };
        let doubled = super::check_placements(battle, amazon, &place(1, 1)).unwrap_err();
        assert!(
            doubled.to_string().contains("as many red boxes"),
            "{doubled}"
        );
        assert!(super::check_placements(battle, amazon, &place(3, 1)).is_ok());
        assert!(super::check_placements(battle, amazon, &place(2, 2)[..1]).is_ok());
        let stranger = vec![("Giant 1".to_string(), Direction::Thrust)];
        assert!(super::check_placements(battle, amazon, &stranger).is_err());
    }

    /// 3.1 8.4.5n: the hiring character positions the counters on his
    /// hireling's sheet, filling as many boxes as they can, and names his
    /// hireling's own box; another character positions neither.
    #[test]
    fn the_hirer_places_the_counters_on_his_hirelings_sheet_3_1_8_4_5n() {
        let file = r#"
clearing = "CV4"
[[character]]
name = "Amazon"
[[character]]
name = "Black Knight"
[[denizen]]
id = "Bashkar 1"
employer = "Amazon"
[[denizen]]
id = "Wolf A 1"
[[denizen]]
id = "Wolf B 1"
"#;
        let mut scripted = script::load(data(), "hireling", file).expect("the file loads");
        let battle = &mut scripted.battle;
        let (amazon, knight) = (0, 1);
        let bashkar = battle.find("Bashkar 1").expect("Bashkar");
        for wolf in ["Wolf A 1", "Wolf B 1"] {
            let id = battle.find(wolf).expect("a wolf");
            battle.sheet.insert(id, bashkar);
        }
        let place = |names: &[(&str, u8)]| {
            names
                .iter()
                .map(|&(n, b)| (n.to_string(), Direction::from_number(b).expect("a box")))
                .collect::<Vec<_>>()
        };
        let doubled =
            super::check_placements(battle, amazon, &place(&[("Wolf A 1", 1), ("Wolf B 1", 1)]))
                .unwrap_err();
        assert!(
            doubled.to_string().contains("on Bashkar 1's sheet"),
            "{doubled}"
        );
        let legal = place(&[("Wolf A 1", 3), ("Wolf B 1", 1), ("Bashkar 1", 2)]);
        assert!(super::check_placements(battle, amazon, &legal).is_ok());
        assert!(super::check_placements(battle, knight, &legal[..1]).is_err());
        // She turns her defender either side up, not the wolves on his sheet.
        assert!(super::check_side(battle, amazon, "Bashkar 1").is_ok());
        assert!(super::check_side(battle, knight, "Bashkar 1").is_err());
        assert!(super::check_side(battle, amazon, "Wolf A 1").is_err());
    }
}
