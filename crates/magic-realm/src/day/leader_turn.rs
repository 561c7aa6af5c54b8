//! Hired leaders take their own turns (play summary I.B, I.E, II.A–D;
//! issue 17 §1). A hired leader (a group's `HQ`) with a line of his own in
//! his employer's mail (`Soldier HQ: M CV4, S, T`) draws his own attention
//! counter, mixed with the characters', and does his recorded phases: move,
//! hide, search and loot, trade and hire for his employer, block and be
//! blocked.
//!
//! The turn is played by the character machinery on a stand-in record for
//! him, put at the end of the characters for the length of his turn only,
//! so every rule of movement, hiding, searching, trading, hiring, blocking
//! and monsters arriving is the characters' own. What the stand-in holds:
//! - his position and hidden state, and what he carries (`LeaderRecord`);
//! - one MOVE chit of his vulnerability, so he carries what his strength
//!   allows and leaves the rest behind on a move, as a character does;
//! - his employer's gold, discoveries and standing lines (Search, Buy, Sell,
//!   Hire, Drinks, Take, Block, If impossible): he trades and hires for his
//!   employer, with his employer's gold, and what he discovers his employer
//!   knows (rulings: the seeds say "for his employer" and no more);
//! - the hirelings `Send:` lines put with him, who follow him.
//!
//! After his turn the records go back: position, hidden, what he carries,
//! gold spent or gained, discoveries, natives he hired (his employer's now,
//! standing with him). Rulings:
//! - With no line of his own he follows his employer when they stand in the
//!   same clearing as the employer's turn starts (he is a hireling like the
//!   others, `day::retinue`); standing elsewhere he stays put and hides. A
//!   line `Soldier HQ: F Elf` has him follow that character for the day,
//!   with the hirelings sent with him, from the clearing where the guide's
//!   turn starts; elsewhere he stays where he is.
//! - He meets natives as Neutral (no character card gives him
//!   relationships); hired natives never activate belongings, so all he
//!   carries is inactive.
//! - He blocks and is blocked at the end of his own phases, and when a
//!   character ends a phase where he stands (`day::blocking`); blocked before
//!   his turn, he does no phases that day. Monsters arriving block him as
//!   they block characters. A player's characters and leaders never block
//!   each other.
//! - When he stands with his employer at the end of his turn or at Midnight,
//!   he hands what he carries to his employer (his belongings are his
//!   employer's to use when they meet).

use std::collections::BTreeMap;

use super::Day;
use super::daylight;
use crate::board::ClearingId;
use crate::data::GameData;
use crate::data::natives::find_member;
use crate::orders::DayOrders;
use crate::orders::activity::{Activities, Activity, Phase};
use crate::orders::dealings::LeaderLine;
use crate::state::{Belonging, CharacterChit, CharacterState, Hireling, LeaderRecord, Whereabouts};
use realmgm_core::suggest::same;

/// Whether the native is a group's leader. Every leader is his group's
/// `HQ` (as orders name them, `dealings::is_leader_key`), so other names
/// are answered without a look through the groups.
pub fn is_leader(data: &GameData, native: &str) -> bool {
    native.ends_with("HQ") && find_member(&data.natives, native).is_some_and(|(_, m)| m.is_leader())
}

/// His employer's line for the hired leader `native`, if any.
pub fn own_line<'o>(orders: &'o DayOrders, native: &str) -> Option<&'o LeaderLine> {
    orders.leaders.iter().find(|l| same(&l.leader, native))
}

/// The hired leader a `Send:` line puts `native` with, if any.
pub fn sent_with<'o>(orders: &'o DayOrders, native: &str) -> Option<&'o str> {
    orders
        .send
        .iter()
        .find(|s| s.natives.iter().any(|n| same(n, native)))
        .map(|s| s.leader.as_str())
}

/// The character the hired leader's line says he follows today (`Soldier
/// HQ: F Elf`), if it does.
pub fn follows<'o>(orders: &'o DayOrders, native: &str) -> Option<&'o str> {
    match &own_line(orders, native)?
        .activities
        .phases
        .first()?
        .activity
    {
        Activity::Follow { leader } => Some(leader),
        _ => None,
    }
}

/// Whether the hired leader `native` takes a turn of his own today: his
/// employer wrote him a line that is not a Follow, or he stands away from
/// his employer with no line.
pub fn takes_own_turn(
    day: &Day<'_>,
    employer: usize,
    native: &str,
    orders: Option<&DayOrders>,
) -> bool {
    let boss = &day.state.characters[employer];
    if boss.dead || !is_leader(day.data, native) {
        return false;
    }
    let Some(Whereabouts::Clearing { clearing }) = day.state.denizens.get(native).map(|d| &d.at)
    else {
        return false;
    };
    match orders.and_then(|o| own_line(o, native)) {
        Some(_) => orders.and_then(|o| follows(o, native)).is_none(),
        None => clearing != &boss.position,
    }
}

/// The hired leaders (of any employer) whose line has them follow `who`
/// today and who stand in his clearing as his turn starts, with the
/// hirelings sent with them: they move with him.
pub fn following(day: &Day<'_>, who: usize, orders: &BTreeMap<String, DayOrders>) -> Vec<String> {
    let guide = &day.state.characters[who];
    let here = Whereabouts::Clearing {
        clearing: guide.position.clone(),
    };
    let standing_here = |native: &str| day.state.denizens.get(native).map(|d| &d.at) == Some(&here);
    let mut with_him = Vec::new();
    for employer in &day.state.characters {
        let Some(theirs) = orders.get(&employer.player) else {
            continue;
        };
        let any_follows = theirs.leaders.iter().any(|l| {
            matches!(
                l.activities.phases.first().map(|p| &p.activity),
                Some(Activity::Follow { .. })
            )
        });
        if !any_follows {
            continue;
        }
        for hireling in &employer.hirelings {
            let native = &hireling.native;
            if !standing_here(native)
                || !follows(theirs, native).is_some_and(|g| same(g, &guide.name))
            {
                continue;
            }
            with_him.push(native.clone());
            with_him.extend(
                employer
                    .hirelings
                    .iter()
                    .filter(|h| sent_with(theirs, &h.native).is_some_and(|l| same(l, native)))
                    .filter(|h| standing_here(&h.native))
                    .map(|h| h.native.clone()),
            );
        }
    }
    with_him
}

/// The hired leaders standing in `clearing` outside their own turn, with
/// their employers' seats. Read from the employers' hirelings, a few
/// counters, not from every denizen.
pub fn hired_leaders_in(day: &Day<'_>, clearing: &ClearingId) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    for (employer, c) in day.state.characters.iter().enumerate() {
        for hireling in &c.hirelings {
            let native = hireling.native.as_str();
            if !is_leader(day.data, native) {
                continue;
            }
            let here = matches!(
                day.state.denizens.get(native).map(|d| &d.at),
                Some(Whereabouts::Clearing { clearing: at }) if at == clearing
            );
            if here && stand_in_of(day, native).is_none() {
                found.push((native.to_string(), employer));
            }
        }
    }
    found
}

/// The seat of a hired leader's stand-in while his turn is played.
pub fn stand_in_of(day: &Day<'_>, native: &str) -> Option<usize> {
    // Stand-ins sit after the seated characters, one at a time.
    let last = day.state.characters.len().checked_sub(1)?;
    (day.state.characters[last].name == native && day.state.employer_of(native).is_some())
        .then_some(last)
}

/// The hired leaders who take turns of their own today, in seat order of
/// their employers.
pub fn taking_turns(day: &Day<'_>, orders: &BTreeMap<String, DayOrders>) -> Vec<String> {
    let mut leaders = Vec::new();
    for (employer, c) in day.state.characters.iter().enumerate() {
        let mine = orders.get(&c.player);
        for hireling in &c.hirelings {
            if takes_own_turn(day, employer, &hireling.native, mine) {
                leaders.push(hireling.native.clone());
            }
        }
    }
    leaders
}

/// The turn of the hired leader `native`.
pub fn take_turn(day: &mut Day<'_>, native: &str, orders: &BTreeMap<String, DayOrders>) {
    let Some(employer) = day.state.employer_of(native) else {
        return;
    };
    let Some(Whereabouts::Clearing { clearing }) =
        day.state.denizens.get(native).map(|d| d.at.clone())
    else {
        return;
    };
    let boss = &day.state.characters[employer];
    let player = boss.player.clone();
    let empty = DayOrders::default();
    let theirs = orders.get(&player).unwrap_or(&empty);
    let record = day.state.leaders.remove(native).unwrap_or_default();
    let strength =
        find_member(&day.data.natives, native).map_or("M", |(_, m)| m.vulnerability.letter());
    let sent: Vec<Hireling> = boss
        .hirelings
        .iter()
        .filter(|h| sent_with(theirs, &h.native).is_some_and(|l| same(l, native)))
        .cloned()
        .collect();
    let stand_in = CharacterState {
        name: native.to_string(),
        player: player.clone(),
        start: boss.start,
        position: clearing.clone(),
        gold: boss.gold,
        weapon: None,
        armor: Vec::new(),
        chits: vec![CharacterChit::fresh(format!("MOVE {strength}4"))],
        hidden: record.hidden,
        fame: 0,
        notoriety: 0,
        belongings: record
            .carries
            .iter()
            .map(|item| Belonging {
                item: item.clone(),
                active: false,
            })
            .collect(),
        discoveries: boss.discoveries.clone(),
        found_hidden_enemies: record.found_hidden_enemies,
        hirelings: sent.clone(),
        weapon_alerted: false,
        dead: false,
        magic: Default::default(),
        damaged_armor: Vec::new(),
        gold_specials: Vec::new(),
        optional_abilities: Vec::new(),
        pack: BTreeMap::new(),
        elf_form: None,
    };
    let gold_before = stand_in.gold;
    let seat = day.state.characters.len();
    day.state.characters.push(stand_in);
    if day.today.blocked_leaders.contains(native) {
        // Blocked before his turn: he does no phases today.
        day.today.blocked.insert(seat);
    }
    let activities = match own_line(theirs, native) {
        Some(line) => line.activities.clone(),
        None => {
            let phases = daylight::normal_phases(
                day.data,
                day.rules,
                &day.state,
                &day.state.characters[seat],
            );
            hide_in_place(phases)
        }
    };
    let his = DayOrders {
        activities,
        searches: theirs.searches.clone(),
        buy: theirs.buy.clone(),
        sell: theirs.sell.clone(),
        hire: theirs.hire.clone(),
        drinks_up_to: theirs.drinks_up_to,
        insult: theirs.insult,
        challenge: theirs.challenge,
        take: theirs.take.clone(),
        block: theirs.block.clone(),
        when_impossible: theirs.when_impossible,
        ..DayOrders::default()
    };
    // Blocking and deals read his employer's lines (`Block:`, `... by
    // Soldier HQ`) from everyone's orders, where they stand as written.
    daylight::take_turn_as(day, seat, &[], &his, orders);
    let Some(after) = day.state.characters.pop() else {
        return;
    };
    forget_the_seat(day, seat);
    if let Some(counter) = day.state.denizens.get_mut(native) {
        counter.at = Whereabouts::Clearing {
            clearing: after.position.clone(),
        };
    }
    let boss = &mut day.state.characters[employer];
    let gold = i32::from(boss.gold) + i32::from(after.gold) - i32::from(gold_before);
    boss.gold = u16::try_from(gold.max(0)).unwrap_or(u16::MAX);
    let known = &mut boss.discoveries;
    known.routes.extend(after.discoveries.routes);
    known.sites.extend(after.discoveries.sites);
    known.chits_seen.extend(after.discoveries.chits_seen);
    known.tiles_visited.extend(after.discoveries.tiles_visited);
    let newly_hired = after
        .hirelings
        .into_iter()
        .filter(|h| !sent.iter().any(|s| s.native == h.native));
    boss.hirelings.extend(newly_hired);
    let record = LeaderRecord {
        hidden: after.hidden,
        found_hidden_enemies: after.found_hidden_enemies,
        carries: after.belongings.into_iter().map(|b| b.item).collect(),
    };
    if !record.is_empty() {
        day.state.leaders.insert(native.to_string(), record);
    }
    hand_over_if_together(day, native);
}

/// `n` Hide phases: what a hired leader without orders does where he stands.
fn hide_in_place(n: usize) -> Activities {
    Activities {
        phases: vec![
            Phase {
                activity: Activity::Hide,
                bonus: false,
                note: None,
            };
            n
        ],
    }
}

/// The stand-in's seat is gone: nothing the day remembers may point at it.
fn forget_the_seat(day: &mut Day<'_>, seat: usize) {
    let today = &mut day.today;
    today.blocked.remove(&seat);
    today.shed_followers.remove(&seat);
    today.peer_anywhere.remove(&seat);
    today.spell_prepared.remove(&seat);
    today.weather_fatigue.remove(&seat);
    today.deals_settled.retain(|(who, _)| *who != seat);
}

/// A hired leader standing with his employer hands him what he carries.
pub fn hand_over_if_together(day: &mut Day<'_>, native: &str) {
    let Some(employer) = day.state.employer_of(native) else {
        return;
    };
    let here = Whereabouts::Clearing {
        clearing: day.state.characters[employer].position.clone(),
    };
    if day.state.characters[employer].dead
        || day.state.denizens.get(native).map(|d| &d.at) != Some(&here)
    {
        return;
    }
    let Some(record) = day.state.leaders.get_mut(native) else {
        return;
    };
    let items = std::mem::take(&mut record.carries);
    if record.is_empty() {
        day.state.leaders.remove(native);
    }
    if items.is_empty() {
        return;
    }
    let boss = &mut day.state.characters[employer];
    boss.belongings.extend(items.iter().map(|item| Belonging {
        item: item.clone(),
        active: false,
    }));
    let event = super::events::PhaseEvent::HandedOver {
        leader: native.to_string(),
        character: boss.name.clone(),
        items: items.into_iter().map(|i| i.name).collect(),
    };
    day.emit(day.only(employer), super::events::Happening::Phase(event));
}

/// Midnight: hired leaders forget Hidden Enemies and hand over what they
/// carry to an employer beside them.
pub fn at_midnight(day: &mut Day<'_>) {
    let natives: Vec<String> = day.state.leaders.keys().cloned().collect();
    for native in natives {
        if let Some(record) = day.state.leaders.get_mut(&native) {
            record.found_hidden_enemies = false;
        }
        hand_over_if_together(day, &native);
        if day
            .state
            .leaders
            .get(&native)
            .is_some_and(LeaderRecord::is_empty)
        {
            day.state.leaders.remove(&native);
        }
    }
}

/// Every hireling of the character `who` leaves his service (he died,
/// restarts or leaves the Realm): the leaders among them are released.
pub fn release_all(state: &mut crate::state::MrState, who: usize) {
    let natives: Vec<String> = state.characters[who]
        .hirelings
        .iter()
        .map(|h| h.native.clone())
        .collect();
    for native in natives {
        state.release_leader(&native);
    }
}

/// The hired leader `native` was killed by `killer`: a character who
/// killed him takes what he carried (inactive); otherwise it lies in the
/// clearing (play summary III.B.9.d.ii).
pub fn killed(state: &mut crate::state::MrState, native: &str, killer: &str) {
    let Some(record) = state.leaders.remove(native) else {
        return;
    };
    if let Some(c) = state
        .characters
        .iter_mut()
        .find(|c| c.name == killer && !c.dead)
    {
        c.belongings
            .extend(record.carries.into_iter().map(|item| Belonging {
                item,
                active: false,
            }));
    } else {
        state.leaders.insert(native.to_string(), record);
        state.release_leader(native);
    }
}
