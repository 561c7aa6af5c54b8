//! Hired leaders take their own turns (play summary I.B, I.E, II.A–D).
//! A hired leader (a group's `HQ`) with a line of his own in
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
//! - He may not Alert, Rest or Enchant (3.1 6.2.5): such phases recorded
//!   for him are struck from his turn, the later ones coming earlier.
//! - He meets natives as Neutral (no character card gives him
//!   relationships); hired natives never activate belongings, so all he
//!   carries is inactive.
//! - A hired leader rides his native horse in his turn, which gives him its
//!   extra Moves by its kind, as a character's (3.1 6.2.5, 7.3.2e.1;
//!   `ridden_native_horse`); it is his own and not among what he carries.
//! - He blocks and is blocked at the end of his own phases, and when a
//!   character ends a phase where he stands (`day::blocking`); blocked before
//!   his turn, he does no phases that day. Monsters arriving block him as
//!   they block characters. A player's characters and leaders never block
//!   each other.
//! - When he stands with his employer at the end of his turn or at Midnight,
//!   he hands what he carries to his employer (his belongings are his
//!   employer's to use when they meet).
//!
//! A controlled monster takes turns the same way (3.1 6.2.5), its
//! controller recording them on a line keyed by its counter (`Giant Bat 2:
//! M CV5, H`), while the spell that controls it works: a control spell cast
//! in an Evening lasts until Sunset of the next day, so the monster has the
//! next Daylight. It carries by its own vulnerability, may not Trade or
//! Hire besides Alert, Rest and Enchant, and without a line it stays where
//! it stands (7.13.3e: it moves only at its controller's word). Rulings:
//! hirelings are sent only with hired leaders; a flying monster moves by
//! Move phases like any other; a monster whose control has ended by
//! Midnight leaves what it carried in its clearing.

use std::collections::BTreeMap;

use super::Day;
use super::daylight;
use super::events::{Happening, PhaseEvent};
use super::hired_leaders::{is_leader, master_of, own_line, sent_with};
use crate::data::natives::find_member;
use crate::orders::DayOrders;
use crate::orders::activity::{Activities, Activity, Phase};
use crate::state::{
    Belonging, CharacterChit, CharacterState, Hireling, Item, ItemKind, LeaderRecord, Whereabouts,
    abandoned_pile,
};
use realmgm_core::suggest::same;

/// The turn of the hired leader or controlled monster `native`.
pub fn take_turn(day: &mut Day<'_>, native: &str, orders: &BTreeMap<String, DayOrders>) {
    let Some(employer) = master_of(&day.state, native) else {
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
    let strength = find_member(&day.data.natives, native)
        .map(|(_, m)| m.vulnerability)
        .or_else(|| {
            let kind = crate::data::base_name(native);
            day.data
                .monsters
                .iter()
                .find(|m| m.name == kind)
                .map(|m| m.vulnerability)
        })
        .map_or("M", |v| v.letter());
    let sent: Vec<Hireling> = boss
        .hirelings
        .iter()
        .filter(|h| sent_with(theirs, &h.native).is_some_and(|l| same(l, native)))
        .cloned()
        .collect();
    let stand_in = CharacterState {
        name: native.to_string(),
        player: player.clone(),
        controller: boss.controller.clone(),
        start: boss.start,
        realm: crate::data::realms::Realm::of_name(native),
        position: clearing.clone(),
        gold: boss.gold,
        weapon: None,
        armor: Vec::new(),
        chits: vec![CharacterChit::fresh(format!("MOVE {strength}4"))],
        hidden: record.hidden,
        fame: 0,
        notoriety: 0,
        points_kept: Default::default(),
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
        magic_sight: Vec::new(),
        hirelings: sent.clone(),
        weapon_alerted: false,
        dead: false,
        rejoins_on: None,
        // Transmorphized, his stand-in carries the note of what froze with
        // him, so the character rules of 4.6.9b apply in his turn.
        magic: crate::state::magic::CharacterMagic {
            transmorphized_with: crate::magic::transmorph::note_for_stand_in(&record),
            ..Default::default()
        },
        damaged_armor: Vec::new(),
        gold_specials: Vec::new(),
        optional_abilities: Vec::new(),
        pack: BTreeMap::new(),
        elf_form: None,
        roadway: None,
        flown_away: None,
        relationship_shift: BTreeMap::new(),
        boons_owed: Vec::new(),
        development: None,
    };
    let gold_before = stand_in.gold;
    let seat = day.state.characters.len();
    let monster = !is_leader(day.data, native);
    let horse = ridden_native_horse(day, native, monster);
    let mut stand_in = stand_in;
    if let Some(horse) = &horse {
        stand_in.belongings.push(Belonging {
            item: Item {
                kind: ItemKind::Horse,
                name: horse.clone(),
            },
            active: true,
        });
        day.today
            .active_at_birdsong
            .insert(seat, [horse.clone()].into());
    }
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
    let rides = horse.is_some();
    let activities =
        strike_what_leaders_cannot_do(day, employer, native, monster, rides, activities);
    let his = DayOrders {
        activities,
        searches: theirs.searches.clone(),
        buy: theirs.buy.clone(),
        sell: theirs.sell.clone(),
        hire: theirs.hire.clone(),
        drinks_up_to: theirs.drinks_up_to,
        insult: theirs.insult,
        challenge: theirs.challenge,
        boon: theirs.boon,
        take: theirs.take.clone(),
        block: theirs.block.clone(),
        when_impossible: theirs.when_impossible,
        ..DayOrders::default()
    };
    // Blocking and deals read his employer's lines (`Block:`, `... by
    // Soldier HQ`) from everyone's orders, where they stand as written.
    daylight::take_turn_as(day, seat, &[], &his, orders);
    let Some(mut after) = day.state.characters.pop() else {
        return;
    };
    // His native horse stays his own, not something he carries.
    after
        .belongings
        .retain(|b| !(b.item.kind == ItemKind::Horse && Some(&b.item.name) == horse.as_ref()));
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
        transmorphized_with: after.magic.transmorphized_with,
    };
    if !record.is_empty() {
        day.state.leaders.insert(native.to_string(), record);
    }
    hand_over_if_together(day, native);
}

/// A hired leader's turn without the Alert, Rest and Enchant phases
/// recorded for him, and a controlled monster's without those and Trade and
/// Hire: they may not use them (3.1 6.2.5); nor the starred phases recorded
/// for either, as 6.2.5 gives a leader extra phases only from his native
/// horse, and a monster none (it rides no horse, 7.3.2e): a starred Move
/// stays for a leader riding his horse (`ridden_native_horse`), which gives
/// it or not as its kind says. The master is told which were struck. (The orders
/// check refuses them in mail; this keeps orders that reach the day another
/// way to the rule.)
fn strike_what_leaders_cannot_do(
    day: &mut Day<'_>,
    employer: usize,
    native: &str,
    monster: bool,
    rides: bool,
    activities: Activities,
) -> Activities {
    // Transmorphized, he never Trades or Hires (3.1 4.6.9c.1); as mist he
    // does not Search either (4.6.9c.2).
    let holding = crate::magic::conflicts::holding_denizen(&day.state, native);
    let transmorphized = holding.is_some();
    let mist = holding.is_some_and(|s| s.spell == "Melt Into Mist");
    let (struck, kept): (Vec<Phase>, Vec<Phase>) = activities.phases.into_iter().partition(|p| {
        (p.bonus && !(rides && matches!(p.activity, Activity::Move { .. })))
            || matches!(
                p.activity,
                Activity::Alert
                    | Activity::Rest { .. }
                    | Activity::SpellPrep
                    | Activity::Spell { .. }
            )
            || ((monster || transmorphized)
                && matches!(p.activity, Activity::Trade | Activity::Hire))
            || (mist && matches!(p.activity, Activity::Search))
    });
    if !struck.is_empty() {
        let event = PhaseEvent::StruckForLeader {
            leader: native.to_string(),
            phases: struck
                .iter()
                .map(|p| {
                    let star = if p.bonus { "*" } else { "" };
                    format!("{}{star}", p.activity.code())
                })
                .collect(),
            monster,
            transmorphized,
        };
        day.emit(day.only(employer), Happening::Phase(event));
    }
    Activities { phases: kept }
}

/// The native horse hired leader `native` rides in his turn: his own (3.1
/// 2.3.3, 7.3.2e), giving him its extra Moves as a character's horse of its
/// kind does (6.2.5, 7.3.2e.1: a workhorse one a day, a pony doubling his
/// Moves, a warhorse none) and, like it, none in a cave (7.3.2e.2, through
/// `day::horses`). A controlled monster rides none (7.3.2e), and a
/// transmorphized leader cannot ride (7.3.2d). Ruling: he rides it all day,
/// as natives ride their horses, so it counts as active at Birdsong.
fn ridden_native_horse(day: &Day<'_>, native: &str, monster: bool) -> Option<String> {
    if monster || crate::magic::conflicts::holding_denizen(&day.state, native).is_some() {
        return None;
    }
    find_member(&day.data.natives, native).and_then(|(_, m)| m.horse.clone())
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
    today.active_at_birdsong.remove(&seat);
    today.shed_followers.remove(&seat);
    today.peer_anywhere.remove(&seat);
    today.spell_prepared.remove(&seat);
    today.weather_fatigue.remove(&seat);
    today.deals_settled.retain(|(who, _)| *who != seat);
}

/// A hired leader or controlled monster standing with its master hands
/// him what it carries.
pub fn hand_over_if_together(day: &mut Day<'_>, native: &str) {
    let Some(employer) = master_of(&day.state, native) else {
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
    let boss_name = day.state.characters[employer].name.clone();
    // Mist takes on nothing (3.1 4.6.9b.4): he keeps it all for now.
    if crate::magic::transmorph::is_mist(&day.state, &boss_name) {
        let items = day
            .state
            .leaders
            .get(native)
            .map(|r| r.carries.clone())
            .unwrap_or_default();
        let why = format!(
            "the {boss_name} is mist under Melt Into Mist and can take on no belongings \
             (3.1 4.6.9b.4)"
        );
        say_kept(day, native, employer, items, why);
        return;
    }
    // What froze with a transmorphized leader stays with him, of no use
    // to anyone until it reappears (3.1 4.6.9b.2).
    let (frozen, items) = crate::magic::transmorph::part_frozen(&day.state, native);
    let why = crate::magic::conflicts::transmorphized(&day.state, native).map(|spell| {
        format!("they are frozen with him while the {spell} spell holds him (3.1 4.6.9b.2)")
    });
    let Some(record) = day.state.leaders.get_mut(native) else {
        return;
    };
    record.carries.clone_from(&frozen);
    if record.is_empty() {
        day.state.leaders.remove(native);
    }
    if let Some(why) = why {
        say_kept(day, native, employer, frozen, why);
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

/// Tell the master of `native` that he keeps `items` rather than hand
/// them over, and why; nothing when there are none or he was told today.
fn say_kept(day: &mut Day<'_>, native: &str, employer: usize, items: Vec<Item>, reason: String) {
    // Said once a day: he may stand with his master at his turn's end and
    // again at Midnight, keeping the same things.
    if items.is_empty() || !day.today.told_kept.insert(native.to_string()) {
        return;
    }
    let event = super::events::PhaseEvent::KeptFromHandOver {
        leader: native.to_string(),
        character: day.state.characters[employer].name.clone(),
        items: items.into_iter().map(|i| i.name).collect(),
        reason,
    };
    day.emit(day.only(employer), super::events::Happening::Phase(event));
}

/// Midnight: hired leaders and controlled monsters forget Hidden Enemies
/// and hand over what they carry to a master beside them; a monster no
/// longer controlled leaves what it carried where it stands.
pub fn at_midnight(day: &mut Day<'_>) {
    let natives: Vec<String> = day.state.leaders.keys().cloned().collect();
    for native in natives {
        if !is_leader(day.data, &native) && master_of(&day.state, &native).is_none() {
            set_free(day, &native);
            continue;
        }
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

/// The monster `native`, its control ended, drops what it carried in its
/// clearing's abandoned pile and keeps no record.
fn set_free(day: &mut Day<'_>, native: &str) {
    let Some(record) = day.state.leaders.remove(native) else {
        return;
    };
    if let Some(Whereabouts::Clearing { clearing }) = day.state.denizens.get(native).map(|d| &d.at)
        && !record.carries.is_empty()
    {
        let pile = abandoned_pile(clearing);
        day.state
            .holdings
            .entry(pile)
            .or_default()
            .extend(record.carries);
    }
}
