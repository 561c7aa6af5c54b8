//! Sunset and Evening (3.1 8.1-8.8): combat in every clearing holding a
//! living character and anyone else, the clearings taken in the order their
//! Attention chits are drawn (8.1.2-8.1.3). At the start, each unhired native
//! group rolls on the Meeting table against each character there
//! (Block/Battle: it battles him); heavy and medium monsters turn light
//! side up and Tremendous monsters red side down. The fight itself is the
//! combat engine's ([`crate::combat`]), played with each
//! character's `Combat:` standing orders; every line and roll becomes an
//! event seen by the players in the clearing. Afterwards the state takes
//! the results: chits, weapons, armour, horses, fame, notoriety, gold, the
//! dead, runaways and what the dead left behind.
//!
//! Rulings: characters act in seat order; hired natives whose employer is
//! elsewhere fight for him, with him in the battle as absent (he decides
//! nothing, his record takes only their spoils), and a hired leader beside
//! a monster or unhired native starts a combat with no character there;
//! a character who runs away goes to the
//! first clearing a path he knows leads to; drinks before the battling
//! roll follow his `Drinks:` line (1 gold a member present).

use std::collections::BTreeMap;

use realmgm_core::game::Observers;

use super::Day;
use super::events::{CombatEvent, Happening};
use crate::board::ClearingId;
use crate::combat::by_rounds::{self, RoundAnswers};
use crate::combat::casting::CombatMagic;
use crate::combat::error::CombatError;
use crate::combat::log::{CombatLine, Seen};
use crate::combat::model::{Fighter, FighterKind, Out};
use crate::combat::{Battle, CombatRules, Decision, build};
use crate::data::natives::find_member;
use crate::data::terms::{Roll, Strength};
use crate::data::tiles::PathKind;
use crate::magic::expiry;
use crate::orders::{DayOrders, Settle};
use crate::state::{
    Belonging, CounterSide, DenizenKind, ItemKind, Roadway, Whereabouts, abandoned_pile,
};
use crate::tables::meeting::{
    MeetingRequest, MeetingResult, MeetingRules, MeetingUse, column_after_drinks, meet,
};

/// Who stands in a clearing at Sunset.
#[derive(Default)]
struct Crowd {
    characters: Vec<usize>,
    denizens: Vec<String>,
    /// Employers (by seat) of hired natives here who are elsewhere: their
    /// hirelings fight for them, and they are in the battle as absent.
    absent: Vec<usize>,
}

/// Fight in every clearing where combat starts. With round answers
/// (round-by-round combat), a character without a `Combat:` line answers
/// each round by mail ([`by_rounds`]).
///
/// # Errors
/// The decisions every stopped battle waits for, with their lines so far
/// emitted. The other clearings are still fought, so every player whose
/// round waits is asked at once, not one clearing after another; battles
/// in different clearings share nothing, and a stopped day is resolved
/// again from its start, so fighting on changes no result.
pub fn evening(
    day: &mut Day<'_>,
    orders: &BTreeMap<String, DayOrders>,
    answers: Option<&RoundAnswers>,
) -> Result<(), Vec<Decision>> {
    let mut clearings: BTreeMap<ClearingId, Crowd> = BTreeMap::new();
    for (i, c) in day.state.characters.iter().enumerate() {
        // One still on a roadway is between clearings: in no combat
        // (3.1 rule 8.3.8d).
        if !c.dead && !c.between_clearings() {
            clearings
                .entry(c.position.clone())
                .or_default()
                .characters
                .push(i);
        }
    }
    for clearing in leaders_facing_a_fight(day) {
        clearings.entry(clearing).or_default();
    }
    for (id, d) in &day.state.denizens {
        if let Whereabouts::Clearing { clearing } = &d.at
            && let Some(crowd) = clearings.get_mut(clearing)
        {
            crowd.denizens.push(id.clone());
            let employer = day.state.employer_of(id);
            if let Some(e) = employer.filter(|&e| day.state.characters[e].position != *clearing)
                && !crowd.absent.contains(&e)
            {
                crowd.absent.push(e);
            }
        }
    }
    let mut waiting = Vec::new();
    for (clearing, crowd) in attention_chit_order(day, clearings) {
        if day.today.peace_in.contains(&clearing) {
            // Nobody attacks or picks targets there for the rest of the
            // day (3.1 Wishes table, "I wish for peace").
            let line = CombatLine::Ends {
                reason: "a Wish for Peace made here today holds it: nobody attacks or picks \
                         targets until Midnight"
                    .into(),
            };
            let event = CombatEvent::Line {
                clearing: clearing.clone(),
                round: 0,
                line,
            };
            day.emit(
                Observers::Players(day.players_in(&clearing)),
                Happening::Combat(event),
            );
            continue;
        }
        if crowd.characters.len() + crowd.denizens.len() < 2 {
            if let [alone] = crowd.characters[..] {
                super::lone_cast::rounds_alone(day, alone, orders);
            }
            continue;
        }
        if let Err(decisions) = fight(day, &clearing, &crowd, orders, answers) {
            waiting.extend(decisions);
        }
    }
    if waiting.is_empty() {
        Ok(())
    } else {
        Err(waiting)
    }
}

fn fight(
    day: &mut Day<'_>,
    clearing: &ClearingId,
    crowd: &Crowd,
    orders: &BTreeMap<String, DayOrders>,
    answers: Option<&RoundAnswers>,
) -> Result<(), Vec<Decision>> {
    let mut watching = day.players_in(clearing);
    watching.extend(
        crowd
            .absent
            .iter()
            .map(|&e| day.state.characters[e].player.clone()),
    );
    let observers = Observers::Players(watching);
    let mut fighters = Vec::new();
    let mut seat_of = BTreeMap::new();
    let mut absent = BTreeMap::new();
    for &e in &crowd.absent {
        let c = &day.state.characters[e];
        if let Ok(hero) = build::hero(day.data, c) {
            absent.insert(fighters.len(), c.clone());
            seat_of.insert(fighters.len(), e);
            fighters.push(Fighter {
                name: c.name.clone(),
                kind: FighterKind::Character(hero),
                hidden: true,
                out: Some(Out::Absent),
            });
        }
    }
    for &i in &crowd.characters {
        let c = &day.state.characters[i];
        match build::hero(day.data, c) {
            Ok(mut hero) => {
                hero.missile = super::modifiers::for_roll(day, i, Roll::Missile);
                seat_of.insert(fighters.len(), i);
                fighters.push(Fighter {
                    name: c.name.clone(),
                    kind: FighterKind::Character(hero),
                    hidden: c.hidden,
                    out: None,
                });
            }
            Err(reason) => not_fought(day, &observers, clearing, &c.name.clone(), &reason),
        }
    }
    let fighter_of = |seat: usize| seat_of.iter().find(|&(_, &s)| s == seat).map(|(&f, _)| f);
    let mut counters = BTreeMap::new();
    for id in &crowd.denizens {
        let Some(state) = day.state.denizens.get(id) else {
            continue;
        };
        let employer = day.state.employer_of(id);
        if employer.is_some_and(|e| fighter_of(e).is_none()) {
            continue;
        }
        let side = start_side(day, id, state.side);
        match build::denizen(day.data, id, side, employer.and_then(fighter_of)) {
            Ok(mut denizen) => {
                // A native whose horse died or was taken fights on foot.
                denizen.horse.take_if(|h| !holds(day, id, &h.horse.name));
                denizen.sees_hidden = day
                    .state
                    .leaders
                    .get(id)
                    .is_some_and(|l| l.found_hidden_enemies);
                counters.insert(fighters.len(), id.clone());
                // A hireling who hid keeps hidden into the Evening: put
                // aside, no target, until he enters the fight (3.1 8.1.4b).
                let hidden = day.state.leaders.get(id).is_some_and(|l| l.hidden)
                    || day.today.hidden_underlings.contains(id);
                fighters.push(Fighter {
                    name: id.clone(),
                    kind: FighterKind::Denizen(denizen),
                    hidden,
                    out: None,
                });
            }
            Err(reason) => not_fought(day, &observers, clearing, id, &reason),
        }
    }
    if seat_of.is_empty() || fighters.len() < 2 {
        return Ok(());
    }
    let label = format!("{}{}", clearing.tile, clearing.clearing);
    let mut combat_rules = CombatRules::from_rules(day.rules);
    // Soft Ground / Early Snow: nobody rolls on the Hide table, so no Ambush.
    combat_rules.ambush &= super::weather::forbids_hide(day).is_none();
    let mut battle = Battle::new(day.data, &label, fighters, combat_rules);
    battle.order = together_by_player(&battle.order, |f| {
        day.state.characters[seat_of[&f]].played_by()
    });
    battle.in_cave = super::movement::is_cave(day, clearing);
    // What lies dropped here may be picked up in the rounds (3.1 10.A.5.5).
    battle.dropped_in_sight = day.state.dropped_list(clearing);
    for (&f, &seat) in &seat_of {
        battle
            .roll_mods
            .insert(f, super::modifiers::for_roll(day, seat, Roll::All));
        battle
            .hide_mods
            .insert(f, super::modifiers::for_roll(day, seat, Roll::Hide));
    }
    for (&f, &seat) in &seat_of {
        if absent.contains_key(&f) {
            // Not here: nothing to decide, nobody to ask.
            battle.tactics.insert(f, Default::default());
            continue;
        }
        let player = &day.state.characters[seat].player;
        let tactics = orders.get(player).and_then(|o| o.combat.clone());
        // Played round by round, a character without standing orders is
        // asked; otherwise he fights with the default ones.
        if let Some(tactics) = tactics {
            battle.tactics.insert(f, tactics);
        } else if answers.is_none() {
            battle.tactics.insert(f, Default::default());
        }
    }
    if casters_here(day, &battle, &seat_of, answers.is_some()) {
        battle.magic = Some(CombatMagic::new(
            day.state.clone(),
            day.rules.clone(),
            // The state still holds the day before: today is the next one.
            day.state.day + 1,
            seat_of.clone(),
        ));
        // Spells already in effect (a transformed monster) shape the fight.
        crate::combat::spell_effects::after_casts(&mut battle, None);
    }
    let paid_before = battling_rolls(day, &mut battle, &seat_of, &observers, orders);
    let stopped = by_rounds::run(&mut battle, day.dice, answers);
    // A combat in which nobody attacked or was attacked and nothing changed
    // is not told (3.1 rule 8.1.3a: its two rounds are done all the same).
    let told =
        stopped.is_err() || paid_before || battle.log.iter().any(|line| !line.line.is_formality());
    for line in battle.log.iter().filter(|_| told) {
        let seen = match &line.seen {
            Seen::Clearing => observers.clone(),
            Seen::Only { fighter } => seat_of.get(fighter).map_or(Observers::Gm, |&s| day.only(s)),
        };
        if let CombatLine::Roll { record, .. } = &line.line {
            day.emit(seen.clone(), Happening::Roll(record.clone()));
        }
        day.emit(
            seen,
            Happening::Combat(CombatEvent::Line {
                clearing: clearing.clone(),
                round: line.round,
                line: line.line.clone(),
            }),
        );
    }
    stopped?;
    write_back(day, clearing, &battle, &seat_of, &counters);
    // An absent employer keeps his own record; only what his hirelings
    // won or lost for him passes: fame, notoriety, gold, his hirelings.
    for (f, before) in absent {
        let seat = seat_of[&f];
        let after = std::mem::replace(&mut day.state.characters[seat], before);
        let c = &mut day.state.characters[seat];
        c.fame = after.fame;
        c.notoriety = after.notoriety;
        c.gold = after.gold;
        c.hirelings = after.hirelings;
    }
    super::grudges::after_battle(day, &battle, &seat_of);
    rebels_elsewhere(day, clearing, &battle, &seat_of, &observers);
    magic_after(day, clearing, &battle, &seat_of, &observers);
    Ok(())
}

/// Treachery rebels every member of the group the traitor hired, wherever
/// it is (3.1 8.4.2g): those away from this clearing leave his service too,
/// and each costs him Fame equal to its Notoriety bounty.
/// The characters' order in a combat with each player's characters side
/// by side, in the place of his who took his turn first today: under
/// Multiple Characters the players go in turn, and all of a player's
/// characters lure, then act, in his (3.1 10.E.4.5). With a character to a
/// player it is the day's turn order unchanged.
pub(super) fn together_by_player<'a>(
    order: &[usize],
    player: impl Fn(usize) -> &'a str,
) -> Vec<usize> {
    let mut grouped: Vec<usize> = Vec::with_capacity(order.len());
    for &f in order {
        if grouped.contains(&f) {
            continue;
        }
        let his = player(f);
        grouped.extend(order.iter().copied().filter(|&g| player(g) == his));
    }
    grouped
}

fn rebels_elsewhere(
    day: &mut Day<'_>,
    clearing: &ClearingId,
    battle: &Battle,
    seat_of: &BTreeMap<usize, usize>,
    observers: &Observers,
) {
    for (f, group) in &battle.treacheries {
        let Some(&seat) = seat_of.get(f) else {
            continue;
        };
        let mut rebels = Vec::new();
        let mut fame = 0;
        for h in &day.state.characters[seat].hirelings {
            if let Some((g, native)) = find_member(&day.data.natives, &h.native)
                && crate::data::realms::Realm::of_name(&h.native).mark(&g.name) == *group
                && battle.find(&h.native).is_none()
            {
                rebels.push(h.native.clone());
                fame += i32::from(native.notoriety);
            }
        }
        if rebels.is_empty() {
            continue;
        }
        for native in &rebels {
            day.state.dismiss(native);
            day.state.release_leader(native);
        }
        let character = &mut day.state.characters[seat];
        character.fame -= fame;
        let line = CombatLine::TreacheryFame {
            character: character.name.clone(),
            rebels,
            fame,
        };
        day.emit(
            observers.clone(),
            Happening::Combat(CombatEvent::Line {
                clearing: clearing.clone(),
                round: battle.round,
                line,
            }),
        );
    }
}

/// Whether the fight needs the magic rules: a spell is in effect, or
/// someone could cast (he knows a spell or carries an active treasure, as
/// an artifact or book may hold an awakened spell) and may choose to: his
/// standing orders name a spell, or he is asked round by round. The copy of
/// the game state the magic rules work on is only made then, as it is the
/// costliest part of a fight.
fn casters_here(
    day: &Day<'_>,
    battle: &Battle,
    seat_of: &BTreeMap<usize, usize>,
    asked_by_rounds: bool,
) -> bool {
    // Spells already in effect (Melt Into Mist, Poison) are read in combat;
    // an Imp's Curse is kept in the game state.
    !day.state.magic.in_effect.is_empty()
        || crate::combat::monster_spells::any_caster(battle)
        || seat_of.iter().any(|(fighter, &seat)| {
            if !battle.in_play(*fighter) {
                return false;
            }
            let c = &day.state.characters[seat];
            let may_cast = asked_by_rounds
                || battle
                    .tactics
                    .get(fighter)
                    .is_some_and(|t| t.cast.is_some());
            may_cast
                && (!c.magic.spells.is_empty()
                    || c.belongings
                        .iter()
                        .any(|b| b.active && day.data.treasure(&b.item.name).is_some()))
        })
}

/// The spells cast in the battle enter the game state; then the end of
/// combat: attack and phase spells of casters here expire (their chits
/// fatigue), combat spells last to Midnight (3.1 rule 4.6.7g.1), and spells
/// of or on the dead end (4.6.10h).
fn magic_after(
    day: &mut Day<'_>,
    clearing: &ClearingId,
    battle: &Battle,
    seat_of: &BTreeMap<usize, usize>,
    observers: &Observers,
) {
    if let Some(magic) = &battle.magic {
        crate::combat::spell_effects::moved_back(battle, seat_of, &mut day.state);
        day.state.magic = magic.state.magic.clone();
        for &seat in seat_of.values() {
            if let Some(c) = magic.state.characters.get(seat) {
                day.state.characters[seat].magic = c.magic.clone();
                // A colour chit played or fatigued in combat is a plain
                // MAGIC chit again (3.1 4.6.4h-i).
                for (chit, fought) in day.state.characters[seat].chits.iter_mut().zip(&c.chits) {
                    chit.enchanted = fought.enchanted;
                }
            }
        }
        // What a character lost in combat loses its colour (3.1 10.C.3.3).
        crate::magic::item_chit::forget_departed(&mut day.state);
    }
    let mut events = expiry::end_of_combat(&mut day.state, clearing);
    for f in battle
        .fighters
        .iter()
        .filter(|f| matches!(f.out, Some(Out::Killed { .. })))
    {
        events.extend(expiry::caster_or_target_gone(&mut day.state, &f.name));
    }
    for &f in seat_of.keys() {
        if battle.hero(f).is_some_and(|h| h.dead) {
            events.extend(expiry::caster_or_target_gone(
                &mut day.state,
                battle.name(f),
            ));
        }
    }
    for event in events {
        day.emit(observers.clone(), Happening::Magic(event));
    }
}

/// The clearings in the order their Attention chits are drawn (3.1
/// 8.1.2-8.1.3): one chit from each clearing with a character or a hired
/// leader, mixed and drawn at random; each clearing takes its turn as its
/// chit comes out.
fn attention_chit_order(
    day: &mut Day<'_>,
    clearings: BTreeMap<ClearingId, Crowd>,
) -> Vec<(ClearingId, Crowd)> {
    let mut drawn: Vec<(ClearingId, Crowd)> = clearings.into_iter().collect();
    day.dice.shuffle("evening/attention-chits", &mut drawn);
    drawn
}

/// Clearings where a hired leader stands without his employer beside a
/// monster or an unhired native: combat happens there too (play summary
/// III: any clearing with a character or hired leader and anyone else);
/// hired non-leaders alone never start it.
fn leaders_facing_a_fight(day: &Day<'_>) -> Vec<ClearingId> {
    let mut found = Vec::new();
    for (id, d) in &day.state.denizens {
        let Whereabouts::Clearing { clearing } = &d.at else {
            continue;
        };
        let Some(employer) = day.state.employer_of(id) else {
            continue;
        };
        let boss = &day.state.characters[employer];
        if !super::hired_leaders::is_leader(day.data, id) || boss.dead || boss.position == *clearing
        {
            continue;
        }
        let someone_to_fight = day.state.denizens.iter().any(|(other, o)| {
            matches!(&o.at, Whereabouts::Clearing { clearing: c } if c == clearing)
                && day.state.employer_of(other).is_none()
        });
        if someone_to_fight && !found.contains(clearing) {
            found.push(clearing.clone());
        }
    }
    found
}

fn not_fought(
    day: &mut Day<'_>,
    observers: &Observers,
    clearing: &ClearingId,
    who: &str,
    why: &CombatError,
) {
    day.emit(
        observers.clone(),
        Happening::Combat(CombatEvent::Line {
            clearing: clearing.clone(),
            round: 0,
            line: CombatLine::Refused {
                character: who.to_string(),
                reason: format!("left out of the combat: {why}"),
            },
        }),
    );
}

/// Whether the counter `holder` holds the item `name` (a native's mount).
fn holds(day: &Day<'_>, holder: &str, name: &str) -> bool {
    day.state
        .holdings
        .get(holder)
        .is_some_and(|items| items.iter().any(|i| i.name == name))
}

/// Heavy and medium monsters light side up, Tremendous red side down.
fn start_side(day: &Day<'_>, id: &str, side: CounterSide) -> CounterSide {
    let monster = day.state.denizens.get(id).map(|d| d.kind) == Some(DenizenKind::Monster);
    if !monster {
        return side;
    }
    let turns = day.data.monster_of(id).is_some_and(|m| {
        m.has_red_side() || matches!(m.vulnerability, Strength::Medium | Strength::Heavy)
    });
    if turns { CounterSide::Light } else { side }
}

/// The Meeting-table roll of each unhired group against each character;
/// whether anyone paid for drinks or gave up points to avoid a battle.
fn battling_rolls(
    day: &mut Day<'_>,
    battle: &mut Battle,
    seat_of: &BTreeMap<usize, usize>,
    observers: &Observers,
    orders: &BTreeMap<String, DayOrders>,
) -> bool {
    let mut paid = false;
    let groups: Vec<String> = {
        let mut g: Vec<String> = battle
            .fighters
            .iter()
            .filter_map(|f| match &f.kind {
                FighterKind::Denizen(d) if d.employer.is_none() => d.group.clone(),
                _ => None,
            })
            .collect();
        g.sort();
        g.dedup();
        g
    };
    for group in groups {
        for (&f, &seat) in seat_of {
            let name = battle.name(f).to_string();
            if super::battling_today::rolled(&day.state, &group, &name) {
                let seen = battle.seen_by(f);
                battle.say(
                    seen,
                    CombatLine::Battling {
                        group: group.clone(),
                        character: name,
                        result: "no roll: he rolled for them today already, and battling does not \
                                 carry over from another clearing"
                            .to_string(),
                    },
                );
                continue;
            }
            super::battling_today::record(&mut day.state, &group, &name);
            let mut relationship = super::meeting::relationship(day, seat, &group);
            let limit = orders
                .get(&day.state.characters[seat].player)
                .and_then(|o| o.drinks_up_to);
            if let Some(better) = drinks(day, battle, f, seat, &group, relationship, limit) {
                relationship = better;
                paid = true;
            }
            let mods = super::modifiers::for_roll(day, seat, Roll::Meeting);
            let request = MeetingRequest {
                relationship,
                activity: MeetingUse::BattlingCheck,
                drinks: false,
                decline_opportunity: false,
            };
            let character = day.state.characters[seat].name.clone();
            let purpose = format!("combat/{}/battling/{character}/{group}", battle.clearing);
            let Ok(outcome) = meet(day.dice, &purpose, &request, MeetingRules::default(), &mods)
            else {
                continue;
            };
            // A hidden character's roll is his own business.
            let seen = if battle.fighters[f].hidden {
                day.only(seat)
            } else {
                observers.clone()
            };
            for roll in &outcome.rolls {
                day.emit(seen.clone(), Happening::Roll(roll.record.clone()));
            }
            // An Insult or a Challenge is answered by his `Insult:` and
            // `Challenge:` lines: give up the points, or refuse and battle.
            let his = orders.get(&day.state.characters[seat].player);
            let answer = super::meeting::answer_to(
                outcome.result,
                his.map_or(Settle::Pay, |o| o.insult),
                his.map_or(Settle::Pay, |o| o.challenge),
                &day.state.characters[seat],
            );
            let battles = matches!(outcome.result, MeetingResult::BlockBattle)
                || answer == Some(Settle::Fight);
            // What the roll means first, the table's row after it.
            let result = if battles {
                format!("they battle (Meeting table: {})", outcome.result)
            } else if answer == Some(Settle::Pay) {
                paid = true;
                // The battle keeps his fame and notoriety until it ends.
                let points = battle.hero_mut(f).map_or("nothing", |hero| {
                    super::meeting::give_up(outcome.result, &mut hero.fame, &mut hero.notoriety)
                });
                format!(
                    "no battle; the {character} gives up {points} (Meeting table: {})",
                    outcome.result
                )
            } else {
                format!("no battle (Meeting table: {})", outcome.result)
            };
            if battles {
                group_battles(battle, &group, f, &result);
            } else {
                let seen = battle.seen_by(f);
                battle.say(
                    seen,
                    CombatLine::Battling {
                        group: group.clone(),
                        character,
                        result,
                    },
                );
            }
        }
    }
    paid
}

/// Every unhired member of `group` battles fighter `f`; `result` says why.
fn group_battles(battle: &mut Battle, group: &str, f: usize, result: &str) {
    for id in 0..battle.fighters.len() {
        if let Some(d) = battle.denizen_mut(id)
            && d.employer.is_none()
            && d.group.as_deref() == Some(group)
        {
            d.battling.insert(f);
        }
    }
    let seen = battle.seen_by(f);
    let character = battle.name(f).to_string();
    battle.say(
        seen,
        CombatLine::Battling {
            group: group.to_string(),
            character,
            result: result.to_string(),
        },
    );
}

/// Drinks before the battling roll (3.1 8.2.2a): 1 gold a member of the
/// group present, when his `Drinks:` line allows it and it helps.
fn drinks(
    day: &mut Day<'_>,
    battle: &mut Battle,
    fighter: usize,
    seat: usize,
    group: &str,
    relationship: crate::data::characters::Relationship,
    limit: Option<u32>,
) -> Option<crate::data::characters::Relationship> {
    let limit = limit?;
    // Only a character in the clearing buys drinks (3.1 8.2.2a), for every
    // member of the group there, hired and unhired (7.6.5b).
    // Nor for foes of his campaign (7.2.4h).
    if battle.fighters[fighter].out == Some(Out::Absent)
        || super::meeting::is_campaign_foe(day, seat, group)
    {
        return None;
    }
    let members = battle
        .fighters
        .iter()
        .filter(|f| f.out.is_none())
        .filter(|f| matches!(&f.kind, FighterKind::Denizen(d) if d.group.as_deref() == Some(group)))
        .count();
    let cost = u32::try_from(members).unwrap_or(u32::MAX);
    let gold = u32::from(day.state.characters[seat].gold);
    if cost > limit || cost > gold {
        return None;
    }
    let better = column_after_drinks(relationship, MeetingUse::BattlingCheck).ok()?;
    super::meeting::pay(day, seat, cost);
    if let Some(hero) = battle.hero_mut(fighter) {
        hero.gold -= i32::try_from(cost).unwrap_or(0);
    }
    let seen = battle.seen_by(fighter);
    let character = battle.name(fighter).to_string();
    let result = format!("the {character} buys drinks for {cost} gold");
    battle.say(
        seen,
        CombatLine::Battling {
            group: group.to_string(),
            character,
            result,
        },
    );
    Some(better)
}

/// Carry the battle's results into the game state.
/// A destroyed ordinary armour counter reappears intact in its natives'
/// box on the Setup Card, the garrison dwelling's holdings (3.1 8.4.9k.3),
/// of its own game when two Realms are combined (10.E.7.8); treasure armour
/// has left the game (8.4.9k.4).
pub(super) fn regenerate_armor(
    data: &crate::data::GameData,
    holdings: &mut BTreeMap<String, Vec<crate::state::Item>>,
    armor: &str,
) {
    let Some(group) = crate::combat::harm::regenerates_with(data, armor) else {
        return;
    };
    let Some(garrison) = data.setup_card.garrison.iter().find(|g| g.group == group) else {
        return;
    };
    let realm = crate::data::realms::Realm::of_name(armor);
    holdings
        .entry(realm.mark(garrison.dwelling.label()))
        .or_default()
        .push(crate::state::Item {
            kind: ItemKind::Armor,
            name: armor.to_string(),
        });
}

fn write_back(
    day: &mut Day<'_>,
    clearing: &ClearingId,
    battle: &Battle,
    seat_of: &BTreeMap<usize, usize>,
    counters: &BTreeMap<usize, String>,
) {
    day.today.fought_in.insert(clearing.clone());
    for (&f, &seat) in seat_of {
        let Some(hero) = battle.hero(f) else { continue };
        let fled = battle.fighters[f].out == Some(Out::Ran);
        // He runs back onto the roadway he walked in by today; one who
        // started the day here (or flew in) onto any he knows (3.1 rule
        // 8.3.8b, g).
        let entered_by = day
            .today
            .entered_by
            .get(&seat)
            .filter(|(_, into)| into == clearing)
            .map(|(from, _)| from.clone());
        let runaway = if let Some(from) = entered_by.filter(|_| fled) {
            Some(from)
        } else if fled {
            let known = &day.state.characters[seat].discoveries.routes;
            day.state
                .board
                .neighbours(clearing)
                .into_iter()
                .find(|l| match l.kind {
                    PathKind::Normal | PathKind::Cave => true,
                    PathKind::Hidden | PathKind::Secret => {
                        let pair = if *clearing <= l.to {
                            (clearing.clone(), l.to.clone())
                        } else {
                            (l.to.clone(), clearing.clone())
                        };
                        known.contains(&pair)
                    }
                })
                .map(|l| l.to)
        } else {
            None
        };
        let c = &mut day.state.characters[seat];
        for (chit, fought) in c.chits.iter_mut().zip(&hero.chits) {
            chit.condition = fought.condition;
        }
        c.hidden = battle.fighters[f].hidden;
        c.fame = hero.fame;
        c.notoriety = hero.notoriety;
        c.points_kept = hero.kept;
        c.gold = u16::try_from(hero.gold.max(0)).unwrap_or(u16::MAX);
        c.weapon_alerted = hero.weapon.as_ref().is_some_and(|w| w.is_alerted);
        c.magic.next_fight_tremendous = hero.wish_strength;
        if !hero.dead {
            crate::combat::pick_up::write_back(c, &hero.kit.picked_up);
            crate::combat::activation::write_back(c, &hero.kit);
        }
        if hero.dead {
            c.dead = true;
            c.weapon = None;
            c.armor.clear();
            c.belongings.clear();
            c.damaged_armor.clear();
        } else {
            for piece in &hero.armor {
                if piece.destroyed {
                    c.armor.retain(|a| a != &piece.name);
                    c.belongings.retain(|b| b.item.name != piece.name);
                    c.damaged_armor.retain(|a| a != &piece.name);
                    regenerate_armor(day.data, &mut day.state.holdings, &piece.name);
                } else if piece.damaged && !c.damaged_armor.contains(&piece.name) {
                    c.damaged_armor.push(piece.name.clone());
                }
            }
            // Left in the clearing (the battle drops them there).
            crate::combat::abandon::write_back(c, &hero.abandoned);
            if let Some(horse) = hero.horse.as_ref().filter(|h| h.dead) {
                c.belongings
                    .retain(|b| !(b.item.kind == ItemKind::Horse && b.item.name == horse.name));
            }
            c.belongings.extend(hero.taken.iter().map(|item| Belonging {
                item: item.clone(),
                active: false,
            }));
        }
        if fled && hero.flew_away {
            // Flown away with a Fly chit: aloft, half over this tile and
            // half over one next to it, until his next turn's Fly phase
            // (3.1 rule 8.3.8e.2).
            c.flown_away = Some(clearing.clone());
            continue;
        }
        // He ends the day on the roadway, still by the clearing he ran
        // out of (3.1 rule 8.3.8b, d).
        c.roadway = runaway.map(|to| Roadway {
            from: clearing.clone(),
            to,
            vanished: false,
            edge_entries: Vec::new(),
        });
    }
    for (&f, id) in counters {
        let Some(den) = battle.denizen(f) else {
            continue;
        };
        let killed = matches!(battle.fighters[f].out, Some(Out::Killed { .. }));
        // Those still hidden when combat ends go back hidden (3.1 8.1.4b).
        let hidden = battle.fighters[f].hidden;
        if let Some(record) = day.state.leaders.get_mut(id) {
            record.hidden = hidden;
        } else if hidden {
            day.today.hidden_underlings.insert(id.clone());
        } else {
            day.today.hidden_underlings.remove(id);
        }
        // A hired leader's belongings: to his killer, or left here when
        // he dies otherwise or turns on his employer (`leader_turn`).
        if let Some(Out::Killed { by }) = &battle.fighters[f].out {
            day.state.hired_leader_killed(id, by);
        } else if den.employer.is_none() {
            day.state.release_leader(id);
        }
        if let Some(state) = day.state.denizens.get_mut(id) {
            // A hireling's counter ends combat dark side up when he is
            // hidden and light side up when he is not, whatever side the
            // fight left it on (3.1 8.1.4b).
            state.side = match (den.employer, hidden) {
                (Some(_), true) => CounterSide::Dark,
                (Some(_), false) => CounterSide::Light,
                (None, _) => den.side,
            };
            if killed {
                state.at = Whereabouts::Dead;
            }
        }
        // His horse died, or went as spoils with him.
        if let Some(mount) = den.horse.as_ref().filter(|h| h.horse.dead || killed)
            && let Some(held) = day.state.holdings.get_mut(id)
        {
            held.retain(|i| i.name != mount.horse.name);
        }
        // Killed, or turned by treachery (`combat/treachery.rs`).
        if killed || den.employer.is_none() {
            day.state.dismiss(id);
        }
    }
    if !battle.dropped.is_empty() {
        day.state
            .holdings
            .entry(abandoned_pile(clearing))
            .or_default()
            .extend(battle.dropped.iter().cloned());
    }
    day.state.lay_dropped(clearing, &battle.dropped_in_sight);
    for (leader, item) in &battle.to_leaders {
        // A leader killed in the same fight cannot carry it: it lies here.
        if day.state.denizens.get(leader).map(|d| &d.at) == Some(&Whereabouts::Dead) {
            let pile = day
                .state
                .holdings
                .entry(abandoned_pile(clearing))
                .or_default();
            pile.push(item.clone());
            continue;
        }
        day.state
            .leaders
            .entry(leader.clone())
            .or_default()
            .carries
            .push(item.clone());
    }
    for (group, item) in &battle.to_groups {
        day.state
            .holdings
            .entry(group.clone())
            .or_default()
            .push(item.clone());
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use crate::state::{Item, ItemKind};

    /// 3.1 8.4.9k.3–4: a destroyed ordinary armour counter reappears intact
    /// in its natives' box (helmets and shields the Soldiers' at the House,
    /// breastplates the Guard's, suits the Order's at the Chapel); treasure
    /// armour goes nowhere.
    #[test]
    fn destroyed_armour_goes_back_to_its_natives_box_3_1_8_4_9k() {
        let data = crate::data::get().expect("the data loads");
        let mut holdings = BTreeMap::new();
        for armor in [
            "Helmet 2",
            "Shield 1",
            "Breastplate 3",
            "Armor 1",
            "Gold Helmet",
        ] {
            super::regenerate_armor(data, &mut holdings, armor);
        }
        let at = |holder: &str| -> Vec<String> {
            holdings
                .get(holder)
                .map(|items: &Vec<Item>| {
                    assert!(items.iter().all(|i| i.kind == ItemKind::Armor));
                    items.iter().map(|i| i.name.clone()).collect()
                })
                .unwrap_or_default()
        };
        assert_eq!(at("House"), ["Helmet 2", "Shield 1"]);
        assert_eq!(at("Guard House"), ["Breastplate 3"]);
        assert_eq!(at("Chapel"), ["Armor 1"]);
        assert_eq!(holdings.len(), 3);
    }
}
