//! Birdsong and Sunrise (play summary I.C–E; `tables/monster_roll.rs`, §6.4): followers
//! join their guides, the monster roll picks the prowling row (the ghosts
//! always prowl), on days 7, 14, 21 and 28 that row's unhired denizens and
//! every ghost come back to where they started (3.1 6.3.4), and the turn order is drawn at random —
//! except for a character who may choose when to take his turn (the
//! Swordsman's Clever, `data/characters.toml`) and says so on a `Turn:` line.
//! With two Realms combined one Monster Roll serves both setup cards (3.1
//! 10.E.7.5), and a regenerating denizen goes back to its own game's card,
//! site or dwelling (7.5.1).
//!
//! Ruling: the choice is made at Birdsong from the orders (a PBEM game
//! cannot stop between turns to ask him): `first`, `last` or a place `n`
//! among the characters taking their own turns, past the end meaning last.
//! The others are drawn at random first and he is put in his place. Without
//! a `Turn:` line he is drawn like everyone; anyone else's `Turn:` line is
//! not applied and his player is told why.

use std::collections::BTreeMap;

use realmgm_core::dice::DiceCount;
use realmgm_core::game::Observers;

use super::Day;
use super::events::{BirdsongEvent, Happening};
use super::summoning::prowls;
use crate::abilities;
use crate::board::ClearingId;
use crate::data::characters::Advantage;
use crate::data::horses::HorseStart;
use crate::data::monsters::CounterStart;
use crate::data::realms::{Realm, printed};
use crate::orders::{Activity, DayOrders, TurnChoice};
use crate::setup::counter_ids;
use crate::state::{Belonging, Item, ItemKind, Whereabouts};

/// The warning chit the ghosts start at, and its clearing (as at setup).
const GHOSTS_CHIT: &str = "Bones V";
const GHOSTS_CLEARING: u8 = 5;

/// How often the realm regenerates.
const WEEK: u32 = 7;

/// Who follows whom today: guide index → follower indices, and the
/// characters and hired leaders who take a turn of their own, in turn order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub followers: BTreeMap<usize, Vec<usize>>,
    pub order: Vec<Turn>,
}

/// Whose attention counter was drawn (play summary I.E).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// A character, by seat.
    Character(usize),
    /// A hired leader, by native (`day::leader_turn`).
    Leader(String),
}

/// The guide named by a character's orders when he follows someone: his
/// first phase is Follow.
fn follows(orders: Option<&DayOrders>) -> Option<&str> {
    match orders?.activities.phases.first().map(|p| &p.activity) {
        Some(Activity::Follow { leader }) => Some(leader),
        _ => None,
    }
}

/// Birdsong and Sunrise of day `day_number`.
pub fn birdsong(day: &mut Day<'_>, day_number: u32, orders: &BTreeMap<String, DayOrders>) -> Plan {
    day.emit(
        Observers::Everyone,
        Happening::Birdsong(BirdsongEvent::DayBegins { day: day_number }),
    );
    super::rulings::carry_out(day);
    super::restart::restart_the_dead(day, orders);
    super::restart::admit_arrivals(day);
    let mut plan = Plan::default();
    let mut own_turn = Vec::new();
    for i in 0..day.state.characters.len() {
        match follows(orders.get(&day.state.characters[i].player)) {
            Some(leader) => join(day, i, leader, orders, &mut plan, &mut own_turn),
            None => own_turn.push(i),
        }
    }
    monster_roll(day, day_number);
    let leaders = super::hired_leaders::taking_turns(day, orders);
    let order = turn_order(day, own_turn, leaders, orders);
    let names = order
        .iter()
        .map(|turn| match turn {
            Turn::Character(i) => day.state.characters[*i].name.clone(),
            Turn::Leader(native) => native.clone(),
        })
        .collect();
    day.emit(
        Observers::Everyone,
        Happening::Birdsong(BirdsongEvent::TurnOrder { order: names }),
    );
    plan.order = order;
    plan
}

/// The day's turn order: drawn at random, hired leaders' attention
/// counters mixed with the characters', with each character who may and
/// does choose his turn put in the place he chose.
fn turn_order(
    day: &mut Day<'_>,
    own_turn: Vec<usize>,
    leaders: Vec<String>,
    orders: &BTreeMap<String, DayOrders>,
) -> Vec<Turn> {
    let mut drawn = Vec::new();
    let mut choosers = Vec::new();
    for i in own_turn {
        let character = &day.state.characters[i];
        let choice = orders.get(&character.player).and_then(|o| o.turn);
        let may_choose = abilities::advantages(day.data, day.rules, character)
            .contains(&Advantage::ChoosesTurnOrder)
            || crate::magic::influence::premonition(&day.state, i);
        match choice {
            Some(choice) if may_choose => choosers.push((i, choice)),
            Some(_) => {
                let what = format!(
                    "the {}'s 'Turn:' line is not applied: only a character who may choose \
                     when to take a turn (the Swordsman, or one under Premonition) can, so the turn \
                     is drawn at random",
                    character.name
                );
                day.emit(
                    day.only(i),
                    Happening::Birdsong(BirdsongEvent::NotApplied { what }),
                );
                drawn.push(Turn::Character(i));
            }
            None => drawn.push(Turn::Character(i)),
        }
    }
    drawn.extend(leaders.into_iter().map(Turn::Leader));
    let characters = &day.state.characters;
    day.dice
        .shuffle_named("birdsong/turn-order", &mut drawn, |turn| match turn {
            Turn::Character(i) => characters[*i].name.clone(),
            Turn::Leader(native) => native.clone(),
        });
    for (i, choice) in choosers {
        let (at, place) = match choice {
            TurnChoice::First => (0, "first".to_string()),
            TurnChoice::Last => (drawn.len(), "last".to_string()),
            TurnChoice::Place(n) => {
                let at = usize::from(n).saturating_sub(1).min(drawn.len());
                (at, format!("in place {}", at + 1))
            }
        };
        drawn.insert(at, Turn::Character(i));
        let character = day.state.characters[i].name.clone();
        day.emit(
            Observers::Everyone,
            Happening::Birdsong(BirdsongEvent::TurnChosen { character, place }),
        );
    }
    drawn
}

/// Put follower `i` with the guide named `leader`, or say why he cannot.
fn join(
    day: &mut Day<'_>,
    i: usize,
    leader: &str,
    orders: &BTreeMap<String, DayOrders>,
    plan: &mut Plan,
    own_turn: &mut Vec<usize>,
) {
    let follower = day.state.characters[i].name.clone();
    let guide = day
        .state
        .characters
        .iter()
        .position(|c| c.name.eq_ignore_ascii_case(leader));
    let problem = match guide {
        None => Some(format!("no {leader} is in the game")),
        Some(g) if g == i => Some("no one follows oneself".to_string()),
        Some(g) if follows(orders.get(&day.state.characters[g].player)).is_some() => {
            Some(format!("the {leader} follows someone too"))
        }
        Some(g) if day.state.characters[g].position != day.state.characters[i].position => {
            Some(format!("the {leader} is in another clearing"))
        }
        Some(g) if super::blocking::in_mist(day, g) => Some(format!(
            "the {leader} is mist under Melt Into Mist and cannot be followed (3.1 4.6.9c.2)"
        )),
        Some(_) => None,
    };
    let observers = day.only(i);
    match (problem, guide) {
        (None, Some(g)) => {
            plan.followers.entry(g).or_default().push(i);
            let leader = day.state.characters[g].name.clone();
            day.emit(
                observers,
                Happening::Birdsong(BirdsongEvent::Follows { follower, leader }),
            );
        }
        (reason, _) => {
            own_turn.push(i);
            day.emit(
                observers,
                Happening::Birdsong(BirdsongEvent::CannotFollow {
                    follower,
                    leader: leader.to_string(),
                    reason: reason.unwrap_or_default(),
                }),
            );
        }
    }
}

/// The monster roll, who prowls, and the seventh-day regeneration; a
/// solitaire player rolls twice, and both rows prowl unless the rolls are
/// doubles (3.1 10.E.1.7).
fn monster_roll(day: &mut Day<'_>, day_number: u32) {
    let record = day.roll("birdsong/monster-roll", DiceCount::One, Observers::Everyone);
    let row = record.result;
    day.today.prowling_row = row;
    let mut prowling = prowling_in_row(day, row);
    prowling.extend(day.data.setup_card.prowl_every_day.iter().cloned());
    day.emit(
        Observers::Everyone,
        Happening::Birdsong(BirdsongEvent::MonsterRoll { die: row, prowling }),
    );
    if day.rules.is_on(crate::setup::SOLITAIRE) {
        let second = day
            .roll(
                "birdsong/second-monster-roll",
                DiceCount::One,
                Observers::Everyone,
            )
            .result;
        let doubles = second == row;
        let prowling = if doubles {
            Vec::new()
        } else {
            day.today.second_row = Some(second);
            prowling_in_row(day, second)
        };
        day.emit(
            Observers::Everyone,
            Happening::Birdsong(BirdsongEvent::SecondMonsterRoll {
                die: second,
                prowling,
                doubles,
            }),
        );
    }
    if day_number.is_multiple_of(WEEK) {
        let rows: Vec<u8> = day.today.prowling_rows().collect();
        for row in rows {
            regenerate(day, row);
            if row == 6 {
                super::visitors::flip_on_card(day);
            }
        }
    }
}

/// The sites' guardians, setup-card boxes and native groups of `row`.
fn prowling_in_row(day: &Day<'_>, row: u8) -> Vec<String> {
    let card = day.data.setup_card.row(row);
    let mut prowling: Vec<String> = card.sites.iter().map(|s| s.guardian.clone()).collect();
    prowling.extend(card.monster_boxes.iter().map(|b| b.name.clone()));
    prowling.extend(card.natives.iter().map(|n| n.group.clone()));
    prowling
}

/// Where a counter started the game, if it is of the rolled row: in its
/// own game's box, site or dwelling (3.1 10.E.7.5.1).
fn home(day: &Day<'_>, row: u8, id: &str) -> Option<Whereabouts> {
    let realm = Realm::of_name(id);
    let printed_id = printed(id);
    for monster in &day.data.monsters {
        let ids = counter_ids(monster);
        if let Some(k) = ids.iter().position(|c| *c == printed_id) {
            if monster.row != Some(row) && !monster.prowls_daily {
                return None;
            }
            return match &monster.counters[k] {
                CounterStart::Box { name } => Some(Whereabouts::SetupBox {
                    name: realm.mark(name),
                }),
                CounterStart::Site { site } => Some(Whereabouts::Guarding {
                    site: realm.mark(site),
                }),
                CounterStart::Ghosts => {
                    // Every ghost goes back to the clearing it started in,
                    // dead or not (3.1 6.3.4, 6.3.4a).
                    let tile = day.state.tile_of_chit(&realm.mark(GHOSTS_CHIT))?;
                    Some(Whereabouts::Clearing {
                        clearing: ClearingId::new(tile, GHOSTS_CLEARING),
                    })
                }
            };
        }
    }
    let group = day.data.native_group_of(id)?;
    if group.row != row {
        return None;
    }
    match group.garrison {
        Some(dwelling) => {
            day.state
                .dwellings_of(realm)
                .get(&dwelling)
                .map(|c| Whereabouts::Clearing {
                    clearing: c.clone(),
                })
        }
        None => Some(Whereabouts::SetupBox {
            name: realm.mark(&group.name),
        }),
    }
}

/// Seventh-day regeneration of row `row` (3.1 6.3.4): its unhired natives
/// and monsters, dead or alive, and every ghost go back where they
/// started; hired natives and controlled monsters stay (6.3.4c). Natives
/// get their own horses back (6.3.4a), and the regenerated are freed
/// from every spell (6.3.4e).
fn regenerate(day: &mut Day<'_>, row: u8) {
    let mut returned = Vec::new();
    let mut regenerated = Vec::new();
    let ids: Vec<String> = day.state.denizens.keys().cloned().collect();
    for id in ids {
        let on_map_or_dead = matches!(
            day.state.denizens[&id].at,
            Whereabouts::Clearing { .. } | Whereabouts::Dead
        );
        let kept = day.state.employer_of(&id).is_some()
            || crate::magic::influence::controlled(&day.state, &id);
        if !on_map_or_dead || kept || !prowls_on_row(day, row, &id) {
            continue;
        }
        let Some(home) = home(day, row, &id) else {
            continue;
        };
        if day.state.denizens[&id].at != home {
            if let Some(d) = day.state.denizens.get_mut(&id) {
                d.at = home;
            }
            returned.push(id.clone());
        }
        give_back_horse(day, &id);
        regenerated.push(id);
    }
    day.emit(
        Observers::Everyone,
        Happening::Birdsong(BirdsongEvent::Regenerated { row, returned }),
    );
    for event in crate::magic::expiry::regenerated(&mut day.state, &regenerated) {
        day.emit(Observers::Everyone, Happening::Magic(event));
    }
}

/// The horse native `id` rides comes back to him, from wherever it went:
/// native horses regenerate with their riders (3.1 6.3.4a) and are
/// theirs alone (2.3.3a-b). Ruling: a rider's horse a character took as
/// spoils goes back to the rider then.
fn give_back_horse(day: &mut Day<'_>, id: &str) {
    let state = &mut day.state;
    let realm = Realm::of_name(id);
    let rider = printed(id);
    for horse in &day.data.horses {
        if !matches!(&horse.start, HorseStart::Rider { native } if *native == rider) {
            continue;
        }
        // The rider's own game's horse (3.1 10.E.7.5.1).
        let name = realm.mark(&horse.name);
        let is_it = |item: &Item| item.kind == ItemKind::Horse && item.name == name;
        for held in state.holdings.values_mut() {
            held.retain(|i| !is_it(i));
        }
        for c in &mut state.characters {
            c.belongings.retain(|b| !is_it(&b.item));
            // What it carried for him as a pack horse stays with him,
            // inactive, as if unloaded.
            if let Some(load) = c.pack.remove(&name) {
                c.belongings.extend(load.into_iter().map(|item| Belonging {
                    item,
                    active: false,
                }));
            }
        }
        for cache in &mut state.caches {
            cache.items.retain(|i| !is_it(i));
        }
        for record in state.leaders.values_mut() {
            record.carries.retain(|i| !is_it(i));
        }
        state
            .holdings
            .entry(id.to_string())
            .or_default()
            .push(Item {
                kind: ItemKind::Horse,
                name,
            });
    }
}

/// Denizens of the row, garrisons included (they regenerate at home).
fn prowls_on_row(day: &Day<'_>, row: u8, id: &str) -> bool {
    prowls(day.data, row, id) || day.data.native_group_of(id).is_some_and(|g| g.row == row)
}
