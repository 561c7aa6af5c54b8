//! One character's Daylight turn (play summary II.B–D; `day/daylight.rs`): he
//! becomes unhidden, then does his recorded phases one at a time — two
//! basic and two sunlight phases (only the basic two if he starts in or
//! enters a cave clearing; with Seasons and Weather the week's weather sets
//! them and adds sheltered phases, see `weather`), bonus phases only where an advantage, an
//! active treasure, an active horse (see `horses`) or a treasure site in
//! the clearing gives them; a bonus Search counts a Peer source when the
//! search is on Peer. A run of Fly phases ends with a landing
//! before his next other phase or at the end of his turn (see `fly`);
//! under Flying Activities (3.1 10.A.3) an Alert or an enhanced Peer is done
//! aloft. An
//! impossible phase is lost, or replaced by the `If impossible:`
//! instruction; a blocked character stops.

use std::collections::{BTreeMap, BTreeSet};

use crate::data::GameData;
use crate::day::refusal::PhaseError;
use crate::state::{CharacterState, ItemKind, MrState};
use realmgm_core::game::{Observers, Rules};

use super::events::{Happening, PhaseEvent, PhaseResult};
use super::{
    Day, PhaseOutcome, activities, blocking, cache, dealings, fly, hire, horses, movement, pending,
    pick_up, prophecy, rearrange, retinue, search, summoning, trade, weather,
};
use crate::abilities;
use crate::board::ClearingId;
use crate::data::characters::Advantage;
use crate::data::horses::HorseKind;
use crate::data::terms::Activity as Kind;
use crate::data::treasures::TreasureEffect;
use crate::magic::influence;
use crate::orders::{
    Activities, Activity, DayOrders, Phase, SearchTable, WhenImpossible, peer_table,
};

/// The phases a character has for his recorded activities, bonus phases
/// apart: the day's basic and sunlight phases, only the basic ones when he
/// starts in a cave or has no sunlight phases (play summary II.C). The
/// orders form asks for as many.
pub fn normal_phases(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    character: &CharacterState,
) -> usize {
    let budget = weather::budget_of(data, rules, state);
    let no_sunlight = abilities::has(data, rules, character, &Advantage::NoSunlightPhases);
    // One who ran out of a cave toward a clearing that is not one starts on
    // the roadway, out of the cave (3.1 rule 8.3.8d.2).
    let out_of_cave = character
        .roadway
        .as_ref()
        .is_some_and(|r| !movement::is_cave_in(state, &r.to));
    if no_sunlight || (movement::is_cave_in(state, &character.position) && !out_of_cave) {
        budget.basic
    } else {
        budget.basic + budget.sunlight
    }
}

/// Whether his recorded activities hold a Move into a cave clearing: then
/// the day gives him no sunlight phases, wherever that Move comes in his
/// turn and whether or not it can be done (3.1 6.2.2b), so he never enters a
/// cave on a day he used a sunlight phase (7.3.1c.2).
pub fn records_move_into_cave(data: &GameData, state: &MrState, activities: &Activities) -> bool {
    activities.phases.iter().any(|p| match &p.activity {
        Activity::Move { tile, clearing } => data
            .tiles
            .resolve(tile)
            .is_some_and(|t| movement::is_cave_in(state, &ClearingId::new(&t.code, *clearing))),
        _ => false,
    })
}

/// Note the treasures and horses each character has active at Birdsong:
/// an extra phase comes only from one active then (3.1 6.2.2c.1, 7.3.2b).
pub fn note_active_at_birdsong(day: &mut Day<'_>) {
    day.today.active_at_birdsong = day
        .state
        .characters
        .iter()
        .enumerate()
        .map(|(who, c)| {
            let active = c
                .belongings
                .iter()
                .filter(|b| b.active && matches!(b.item.kind, ItemKind::Treasure | ItemKind::Horse))
                .map(|b| b.item.name.clone())
                .collect();
            (who, active)
        })
        .collect();
}

/// At Birdsong: what each character is committed to keep for the extra
/// phases his recorded turn asks for (3.1 6.2.4d), until his turn starts
/// and each of its phases narrows it.
pub fn note_committed_at_birdsong(day: &mut Day<'_>, orders: &BTreeMap<String, DayOrders>) {
    for who in 0..day.state.characters.len() {
        let Some(mine) = orders.get(&day.state.characters[who].player) else {
            continue;
        };
        let kept = committed_sources(day, who, 1, mine);
        if !kept.is_empty() {
            day.today.committed.insert(who, kept);
        }
    }
}

/// Whether `source` may give `who` an extra phase today: a treasure of his
/// only if it was active at Birdsong (3.1 6.2.2c.1); advantages, sites and
/// spells always.
fn counts_today(day: &Day<'_>, who: usize, source: &str) -> bool {
    let his_treasure = day.state.characters[who]
        .belongings
        .iter()
        .any(|b| b.item.kind == ItemKind::Treasure && b.item.name == source);
    !his_treasure || day.today.was_active_at_birdsong(who, source)
}

/// The treasures and horses `who` may not abandon at the start of phase
/// `phase` (3.1 6.2.4d): those active at Birdsong that give the kind of
/// extra phase a starred phase recorded from this one on asks for.
pub(super) fn committed_sources(
    day: &Day<'_>,
    who: usize,
    phase: u8,
    orders: &DayOrders,
) -> Vec<String> {
    let kinds: Vec<Kind> = orders
        .activities
        .phases
        .iter()
        .skip(usize::from(phase).saturating_sub(1))
        .filter(|p| p.bonus)
        .filter_map(|p| bonus_kind(&p.activity))
        .collect();
    let gives = |b: &crate::state::Belonging| match b.item.kind {
        ItemKind::Horse => {
            kinds.contains(&Kind::Move)
                && day
                    .data
                    .horses
                    .iter()
                    .any(|h| h.name == b.item.name && h.kind != HorseKind::Warhorse)
        }
        ItemKind::Treasure => day
            .data
            .treasure(&b.item.name)
            .into_iter()
            .flat_map(|t| t.effects.iter())
            .any(|e| {
                matches!(e, TreasureEffect::ExtraPhase { activity, .. }
                    if *activity == Kind::Any || kinds.contains(activity))
            }),
        _ => false,
    };
    day.state.characters[who]
        .belongings
        .iter()
        .filter(|b| day.today.was_active_at_birdsong(who, &b.item.name) && gives(b))
        .map(|b| b.item.name.clone())
        .collect()
}

/// Where the turn stands between phases.
struct Turn {
    /// Normal (non-bonus) phases he may use.
    allowed: usize,
    used: usize,
    /// The day's basic phases (all he has in caves) and basic plus sunlight
    /// phases (`weather::budget`).
    basic: usize,
    full: usize,
    /// Sheltered phases left: usable in a cave or dwelling clearing once the
    /// others are used (Seasons and Weather).
    sheltered_left: usize,
    /// Move phases still to spend climbing into `climbing` after this one.
    climb_left: usize,
    moves: usize,
    bonus_used: BTreeSet<String>,
    climbing: Option<ClearingId>,
    /// The tile he flies over, from his first Fly phase until he lands.
    aloft: Option<String>,
    /// He landed in a cave after using a sunlight phase: the rest of his
    /// turn is cancelled (3.1 7.3.3b.1).
    grounded: bool,
    /// Search phases done so far: the `Search:` line names a table for each
    /// in order, and later searches reuse the last.
    searches: usize,
    /// A Move phase not caused by his pony is done and no pony Move has
    /// followed it yet: the pony may double it, with other phases between
    /// (3.1 6.2.4c, 7.3.2b.3).
    undoubled_move: bool,
}

/// Do the turn of character `who`, with his `followers` moving along.
pub fn take_turn(
    day: &mut Day<'_>,
    who: usize,
    followers: &[usize],
    orders: &BTreeMap<String, DayOrders>,
) {
    let player = day.state.characters[who].player.clone();
    let empty = DayOrders::default();
    let mine = orders.get(&player).unwrap_or(&empty);
    take_turn_as(day, who, followers, mine, orders);
}

/// Do the turn of `who` by the orders `mine` (a hired leader's stand-in
/// has orders of his own beside his employer's, `day::leader_turn`);
/// `orders` are everyone's, for blocking and deals.
pub fn take_turn_as(
    day: &mut Day<'_>,
    who: usize,
    followers: &[usize],
    mine: &DayOrders,
    orders: &BTreeMap<String, DayOrders>,
) {
    let (shown, no_orders) = as_shown(mine);
    for &i in std::iter::once(&who).chain(followers) {
        day.state.characters[i].hidden = false;
    }
    let character = &day.state.characters[who];
    let budget = weather::budget(day);
    let full = budget.basic + budget.sunlight;
    let mut allowed = normal_phases(day.data, day.rules, &day.state, character);
    if records_move_into_cave(day.data, &day.state, &mine.activities) {
        allowed = allowed.min(budget.basic);
    }
    let mut turn = Turn {
        allowed,
        used: 0,
        basic: budget.basic,
        full,
        sheltered_left: weather::sheltered_phases(day, who, mine),
        climb_left: 0,
        moves: 0,
        bonus_used: BTreeSet::new(),
        climbing: None,
        aloft: None,
        grounded: false,
        searches: 0,
        undoubled_move: false,
    };
    // Flying leaves his followers behind for the rest of the day.
    let mut with_him = followers.to_vec();
    let observers = watchers(day, who, followers);
    let (mut hirelings, stay) = retinue::at_turn_start(day, who, mine);
    for native in super::hired_leaders::following(day, who, orders) {
        if !hirelings.contains(&native) {
            hirelings.push(native);
        }
    }
    // Mist cannot be followed (3.1 4.6.9c.2): his hirelings, and hired
    // leaders whose line has them follow him, stay where they stand.
    let not_following = if super::blocking::in_mist(day, who) {
        std::mem::take(&mut hirelings)
    } else {
        Vec::new()
    };
    retinue::hide_with_guide(day, who, &hirelings);
    let character = &day.state.characters[who];
    day.emit(
        observers.clone(),
        Happening::Phase(PhaseEvent::TurnStarts {
            character: character.name.clone(),
            clearing: character.position.clone(),
            recorded: shown.recorded(),
            no_orders,
            phases: u8::try_from(turn.allowed).unwrap_or(u8::MAX),
            followers: followers
                .iter()
                .map(|&f| day.state.characters[f].name.clone())
                .chain(hirelings.iter().cloned())
                .collect(),
        }),
    );
    let reason = "left where they stand, as ordered";
    retinue::say_left_behind(day, who, stay, reason, &observers);
    let reason = format!(
        "the {} is mist under Melt Into Mist and cannot be followed (3.1 4.6.9c.2)",
        day.state.characters[who].name
    );
    // Another character's hired leader whose line has him follow the mist
    // stays behind too, and his employer reads why.
    let readers: Vec<usize> = followers
        .iter()
        .copied()
        .chain(
            not_following
                .iter()
                .filter_map(|native| day.state.employer_of(native)),
        )
        .collect();
    let told = watchers(day, who, &readers);
    retinue::say_left_behind(day, who, not_following, &reason, &told);
    let phases = &mine.activities.phases;
    for (index, phase) in phases.iter().enumerate() {
        if !stays_aloft(day, phase, mine, &turn) && touch_down(day, who, &mut turn) {
            blocking::end_of_phase(day, who, orders);
        }
        // Everything this phase sets off is told under its numbered line:
        // that line is known only once the phase is done, so it goes in
        // before the phase's first event.
        let phase_starts = day.events.len();
        if !day.today.blocked.contains(&who) {
            let number = u8::try_from(index + 1).unwrap_or(u8::MAX);
            let committed = committed_sources(day, who, number, mine);
            day.today.committed.insert(who, committed);
            dealings::at_phase(day, who, number, orders);
            super::missions::at_phase(day, who, &mine.missions);
            activities::fatigue_colour_chits(day, who, number, mine, turn.aloft.is_some());
            let committed = day.today.committed.get(&who).cloned().unwrap_or_default();
            rearrange::at_phase(day, who, number, mine, &committed, turn.aloft.is_some());
        }
        let stopped = if day.today.blocked.contains(&who) {
            Some("blocked")
        } else if turn.grounded {
            Some("a landing in a cave clearing after a sunlight phase ends the turn (3.1 7.3.3b.1)")
        } else {
            None
        };
        if let Some(reason) = stopped {
            day.emit_at(
                phase_starts,
                observers.clone(),
                Happening::Phase(PhaseEvent::PhasesLeft {
                    character: day.state.characters[who].name.clone(),
                    count: phases.len() - index,
                    reason: reason.into(),
                }),
            );
            break;
        }
        let was_in_cave = day.state.characters[who].roadway.is_none()
            && movement::is_cave(day, &day.state.characters[who].position);
        let mut pony_move = false;
        let landed = fly::land_after_flying_away(day, who, &phase.activity);
        let result = if let Some(landed) = landed {
            // The first phase of his turn, a phase like any other.
            if !phase.bonus {
                turn.used += 1;
            }
            landed
        } else {
            match on_roadway(day, who, phase)
                .map_or_else(|| use_phase(day, who, phase, mine, &mut turn), Err)
            {
                Err(reason) => PhaseResult::Lost {
                    reason: reason.to_string(),
                },
                Ok(pony) => {
                    pony_move = pony;
                    let next = phases.get(index + 1);
                    let result = execute(day, who, phase, next, mine, &mut turn);
                    let result = prophecy::choose(day, who, index, result, mine, |day, other| {
                        execute(day, who, other, next, mine, &mut turn)
                    });
                    fallback(day, who, result, mine.when_impossible)
                }
            }
        };
        let result = match result {
            PhaseResult::Flew {
                over,
                item,
                left_behind,
                ..
            } => PhaseResult::Flew {
                over,
                item,
                left_behind,
                followers_left: with_him
                    .drain(..)
                    .map(|f| day.state.characters[f].name.clone())
                    .chain(hirelings.drain(..))
                    .collect(),
            },
            PhaseResult::Moved { to, left_behind } if pony_move => {
                // Only followers on ponies keep up with a pony's double move.
                let (kept, left): (Vec<usize>, Vec<usize>) = with_him
                    .iter()
                    .partition(|&&f| horses::rides_pony(day.data, &day.state.characters[f]));
                with_him = kept;
                let (riding, walking): (Vec<String>, Vec<String>) = hirelings
                    .drain(..)
                    .partition(|native| retinue::rides_pony(day, native));
                hirelings = riding;
                let names = left
                    .iter()
                    .map(|&f| day.state.characters[f].name.clone())
                    .chain(walking)
                    .collect();
                let reason = "they have no pony to keep up with the double move";
                retinue::say_left_behind(day, who, names, reason, &observers);
                PhaseResult::Moved { to, left_behind }
            }
            other => other,
        };
        if day.today.shed_followers.remove(&who) {
            let names = with_him
                .drain(..)
                .map(|f| day.state.characters[f].name.clone())
                .chain(hirelings.drain(..))
                .collect();
            retinue::say_left_behind(day, who, names, "no longer in the clearing", &observers);
        }
        let moved = matches!(
            result,
            PhaseResult::Moved { .. } | PhaseResult::Climbing { .. }
        );
        if pony_move {
            turn.undoubled_move = false;
        } else if moved {
            turn.undoubled_move = true;
        }
        carry_followers(day, who, &with_him, &result);
        let here = day.state.characters[who].position.clone();
        retinue::carry(day, &hirelings, &here);
        if !was_in_cave && movement::is_cave(day, &day.state.characters[who].position) {
            // Entering a cave takes away the unused sunlight phases, and
            // after a sunlight phase nothing more can be done there.
            turn.allowed = turn.allowed.min(turn.used.max(turn.basic));
            horses::unsaddle(day, who, &with_him, &observers);
        }
        day.emit_at(
            phase_starts,
            observers.clone(),
            Happening::Phase(PhaseEvent::PhaseDone {
                character: day.state.characters[who].name.clone(),
                number: index + 1,
                recorded: shown.activities.phases[index].to_string(),
                result,
            }),
        );
        // An item enchanted into colour that left him this phase lost its
        // colour (3.1 10.C.3.3).
        crate::magic::item_chit::forget_departed(&mut day.state);
        // A Phase spell activated for this phase expires with it (3.1
        // rule 4.6.7f.1).
        for event in crate::magic::phase_chit::expire_activated(&mut day.state, who) {
            day.emit(observers.clone(), Happening::Magic(event));
        }
        let number = u8::try_from(index + 1).unwrap_or(u8::MAX);
        pick_up::at_phase_end(day, who, number, mine, orders, turn.aloft.is_some());
        if turn.aloft.is_none() {
            blocking::end_of_phase(day, who, orders);
        }
        weather::end_of_phase(day, who, &with_him, turn.climbing.is_some());
        retinue::hide_with_guide(day, who, &hirelings);
    }
    if touch_down(day, who, &mut turn) {
        blocking::end_of_phase(day, who, orders);
        retinue::hide_with_guide(day, who, &hirelings);
    }
    // His turn done, no extra phase of his is still to come.
    day.today.committed.remove(&who);
    // One still off the map ends no turn on it: nothing of the tile he
    // waits by turns up or comes to him (3.1 10.E.1.6).
    if day.state.characters[who]
        .roadway
        .as_ref()
        .is_some_and(|r| r.is_from_edge())
    {
        return;
    }
    summoning::end_of_turn(day, who, &with_him);
}

/// Whether he does `phase` without landing: a Fly phase, or under Flying
/// Activities (3.1 10.A.3) an Alert, or a Search on the Peer table naming a
/// clearing (the enhanced Peer), while he is aloft.
fn stays_aloft(day: &Day<'_>, phase: &Phase, orders: &DayOrders, turn: &Turn) -> bool {
    match &phase.activity {
        Activity::Fly { .. } => true,
        _ if turn.aloft.is_none() || !day.rules.is_on(fly::FLYING_ACTIVITIES) => false,
        Activity::Alert => true,
        Activity::Search => matches!(
            search_table(phase, orders, turn),
            SearchTable::Peer {
                tile: Some(_),
                clearing: Some(_)
            }
        ),
        _ => false,
    }
}

/// The table of a Search phase: a Peer recorded as `P` (3.1 7.5.4i) says its
/// own; otherwise the `Search:` line names one for each in order, later
/// searches reuse the last, and without the line it is Locate, the table
/// that finds treasure sites.
fn search_table(phase: &Phase, orders: &DayOrders, turn: &Turn) -> SearchTable {
    if let Some(peer) = peer_table(phase) {
        return peer;
    }
    orders
        .searches
        .get(turn.searches)
        .or(orders.searches.last())
        .cloned()
        .unwrap_or(SearchTable::Locate)
}

/// Why `phase` cannot be done while he is still on a roadway: only a Move
/// to one of its ends can (3.1 rule 8.3.8d.1); every other phase is lost
/// until he has made it.
fn on_roadway(day: &Day<'_>, who: usize, phase: &Phase) -> Option<PhaseError> {
    let road = day.state.characters[who].roadway.as_ref()?;
    if road.is_from_edge() {
        let entering = matches!(&phase.activity, Activity::Move { tile, clearing } if day
            .data
            .tiles
            .resolve(tile)
            .is_some_and(|t| road.ends_at(&ClearingId::new(&t.code, *clearing))));
        return (!entering).then(|| {
            PhaseError::Refused(format!(
                "he is not on the map yet: his first activity must be a Move to {}, along a \
                 road from the map's edge (3.1 10.E.1.6)",
                road.ways_off()
            ))
        });
    }
    let to_an_end = match &phase.activity {
        Activity::Move { tile, clearing } => day
            .data
            .tiles
            .resolve(tile)
            .is_some_and(|t| road.ends_at(&ClearingId::new(&t.code, *clearing))),
        _ => false,
    };
    (!to_an_end).then(|| {
        PhaseError::Refused(format!(
            "he is on {road}, and his turn must start with a Move to {} (3.1 rule 8.3.8d.1, \
             d.3)",
            road.ways_off()
        ))
    })
}

/// The remark on the orders made up for a player who sent none.
pub const NO_ORDERS_REMARK: &str = "No orders received.";

/// The orders as the log shows them, and whether they are the ones made
/// up for a player who sent none: that remark is said once, at the top of
/// the turn, not inside a phase's line.
fn as_shown(mine: &DayOrders) -> (DayOrders, bool) {
    let mut shown = mine.clone();
    let mut no_orders = false;
    for phase in &mut shown.activities.phases {
        if phase.note.as_deref() == Some(NO_ORDERS_REMARK) {
            phase.note = None;
            no_orders = true;
        }
    }
    (shown, no_orders)
}

/// Land him if he is flying (then, as at the end of a phase, he may be
/// blocked where he lands); a cave clearing takes away the sunlight phases
/// he has not used, and after a sunlight phase ends his turn (3.1
/// 7.3.3b.1). True when he landed.
fn touch_down(day: &mut Day<'_>, who: usize, turn: &mut Turn) -> bool {
    let Some(tile) = turn.aloft.take() else {
        return false;
    };
    let landed = fly::land(day, who, &tile);
    if movement::is_cave(day, &landed) {
        turn.grounded = turn.used > turn.basic;
        turn.allowed = turn.allowed.min(turn.used.max(turn.basic));
        let observers = day.only(who);
        horses::unsaddle(day, who, &[], &observers);
    }
    true
}

/// The player of `who` and those of his followers.
fn watchers(day: &Day<'_>, who: usize, followers: &[usize]) -> Observers {
    Observers::Players(
        std::iter::once(who)
            .chain(followers.iter().copied())
            .map(|i| day.state.characters[i].player.clone())
            .collect(),
    )
}

/// Count the phase against his day, or say why it does not exist. True
/// when it is a pony's double move.
fn use_phase(
    day: &Day<'_>,
    who: usize,
    phase: &Phase,
    orders: &DayOrders,
    turn: &mut Turn,
) -> Result<bool, PhaseError> {
    if !phase.bonus {
        if turn.used >= turn.allowed {
            let position = &day.state.characters[who].position;
            if turn.sheltered_left > 0 && weather::in_shelter(day, position) {
                turn.sheltered_left -= 1;
                return Ok(false);
            }
            let why = if turn.allowed < turn.full {
                format!(
                    "only {} phases today (no sunlight phases on a day that starts in a cave \
                     clearing or records a Move into one, 3.1 6.2.2b, nor for a character \
                     without them)",
                    turn.allowed
                )
            } else {
                format!("only {} phases today", turn.full)
            };
            let why = if turn.sheltered_left > 0 {
                format!("{why}; sheltered phases need a cave or dwelling clearing")
            } else {
                why
            };
            return Err(PhaseError::Refused(why));
        }
        turn.used += 1;
        return Ok(false);
    }
    let Some(kind) = bonus_kind(&phase.activity) else {
        return Err(no_bonus_of_its_kind(&phase.activity).into());
    };
    let character = &day.state.characters[who];
    let sources_of = |activity: Kind| {
        bonus_sources_here(day.data, day.rules, &day.state, character, activity)
            .into_iter()
            .filter(|s| counts_today(day, who, s))
            .collect::<Vec<_>>()
    };
    let mut sources: Vec<(String, bool)> =
        sources_of(kind).into_iter().map(|s| (s, false)).collect();
    // A bonus Peer phase (the Ancient Telescope's) is a search on Peer.
    let peering = matches!(search_table(phase, orders, turn), SearchTable::Peer { .. });
    if kind == Kind::Search && peering {
        sources.extend(sources_of(Kind::Peer).into_iter().map(|s| (s, false)));
    }
    if kind == Kind::Move
        && let Some((horse, double)) = horses::bonus_move(day, who, turn.undoubled_move)
    {
        // The pony's move is renewed by every move: spend it first.
        if double {
            sources.insert(0, (horse, true));
        } else {
            sources.push((horse, false));
        }
    }
    match sources
        .into_iter()
        .find(|(s, _)| !turn.bonus_used.contains(s))
    {
        Some((source, double)) => {
            // The pony's phase is limited by the alternation, not once a day.
            if !double {
                turn.bonus_used.insert(source);
            }
            Ok(double)
        }
        None => Err(no_bonus_left(&phase.activity).into()),
    }
}

/// The bonus phases of `activity` that `character` has where he stands:
/// advantages, treasures and sites, then the spells on him. Each source
/// gives one a day.
pub(super) fn bonus_sources_here(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    character: &CharacterState,
    activity: Kind,
) -> Vec<String> {
    let dwelling_here = state.dwelling_stands_in(&character.position);
    let mut sources =
        abilities::bonus_sources(data, rules, state, dwelling_here, character, activity);
    sources.extend(influence::bonus_phases(state, character, activity));
    sources
}

/// Why a starred phase of an activity no bonus is of is lost.
pub(super) fn no_bonus_of_its_kind(activity: &Activity) -> String {
    format!("nothing gives a bonus {} phase", activity.code())
}

/// Why a starred phase is lost when every source of its kind is spent or
/// there is none where he stands.
pub(super) fn no_bonus_left(activity: &Activity) -> String {
    format!(
        "no advantage or active item gives another bonus {} phase here",
        activity.code()
    )
}

/// The activity as advantages and treasures name it.
pub(super) fn bonus_kind(activity: &Activity) -> Option<Kind> {
    Some(match activity {
        Activity::Move { .. } => Kind::Move,
        Activity::Hide => Kind::Hide,
        Activity::Alert => Kind::Alert,
        Activity::Rest { .. } => Kind::Rest,
        Activity::Search => Kind::Search,
        Activity::Trade => Kind::Trade,
        Activity::Hire => Kind::Hire,
        Activity::Follow { .. } => Kind::Follow,
        Activity::SpellPrep | Activity::Spell { .. } => Kind::Spell,
        Activity::Fly { .. } | Activity::Cache => return None,
    })
}

/// A phase's result: `done` says what he did (the activity's own events
/// follow with what came of it), or why the phase was lost.
fn lost(outcome: PhaseOutcome, done: &str) -> PhaseResult {
    match outcome {
        PhaseOutcome::Done => PhaseResult::Done {
            activity: done.into(),
        },
        PhaseOutcome::Lost { reason } => PhaseResult::Lost { reason },
    }
}

/// Do one phase's activity.
fn execute(
    day: &mut Day<'_>,
    who: usize,
    phase: &Phase,
    next: Option<&Phase>,
    orders: &DayOrders,
    turn: &mut Turn,
) -> PhaseResult {
    let climbing = turn.climbing.take();
    let resting = matches!(phase.activity, Activity::Rest { .. });
    if let Some(forced) = activities::only_rest(day, who, resting) {
        return forced;
    }
    if let Some(refused) = activities::transmorphized_forbids(day, who, &phase.activity) {
        return refused;
    }
    match &phase.activity {
        Activity::Move { tile, clearing } => {
            let Some(code) = day.data.tiles.resolve(tile).map(|t| t.code.clone()) else {
                return PhaseResult::Lost {
                    reason: format!("there is no tile {tile}"),
                };
            };
            let to = ClearingId::new(&code, *clearing);
            move_phase(day, who, to, next, climbing, turn)
        }
        Activity::Hide => match weather::forbids_hide(day) {
            Some(reason) => PhaseResult::Lost { reason },
            None => activities::hide(day, who),
        },
        Activity::Alert => {
            activities::alert(day, who, phase.note.as_deref()).unwrap_or_else(|o| lost(o, "alert"))
        }
        Activity::Rest { chit } => activities::rest(day, who, chit.as_deref()),
        Activity::Search => {
            let table = search_table(phase, orders, turn);
            // A `P` phase takes no table from the `Search:` line.
            if peer_table(phase).is_none() {
                turn.searches += 1;
            }
            let outcome = match &turn.aloft {
                Some(over) => search::peer_from_the_air(day, who, over, &table),
                None => {
                    search::search_ordered(day, who, &table, &orders.take, orders.teleport.as_ref())
                }
            };
            lost(outcome, "searches")
        }
        Activity::Trade => lost(trade::trade(day, who, orders), "seeks to trade"),
        Activity::Hire => lost(hire::hire(day, who, orders), "seeks to hire"),
        Activity::Fly { tile } => fly::fly(day, who, tile, &mut turn.aloft),
        Activity::SpellPrep | Activity::Spell { .. } => lost(
            pending::enchant(day, who, &phase.activity, phase.note.as_deref()),
            "enchants",
        ),
        Activity::Cache => lost(cache::cache_phase(day, who, &orders.cache), "caches"),
        Activity::Follow { leader } => PhaseResult::Lost {
            reason: format!(
                "following the {leader} must be the whole day: record only Follow phases"
            ),
        },
    }
}

fn move_phase(
    day: &mut Day<'_>,
    who: usize,
    to: ClearingId,
    next: Option<&Phase>,
    climbing: Option<ClearingId>,
    turn: &mut Turn,
) -> PhaseResult {
    // Off the roadway he ran onto, to either end (3.1 rule 8.3.8d.1).
    let off_road = day.state.characters[who]
        .roadway
        .as_ref()
        .is_some_and(|r| r.ends_at(&to));
    if !off_road && let Err(reason) = movement::check_move(day, who, &to) {
        return PhaseResult::Lost {
            reason: reason.to_string(),
        };
    }
    let character = &day.state.characters[who];
    let limit = abilities::advantages(day.data, day.rules, character)
        .into_iter()
        .find_map(|a| match a {
            Advantage::MoveLimit { per_day } => Some(usize::from(per_day)),
            _ => None,
        });
    let mid_climb = climbing.as_ref() == Some(&to) && turn.climb_left > 1;
    if movement::is_mountain(day, &to) && (climbing.as_ref() != Some(&to) || mid_climb) {
        let again = next.is_some_and(|p| match &p.activity {
            Activity::Move { tile, clearing } => {
                *clearing == to.clearing
                    && day.data.tiles.resolve(tile).map(|t| t.code.as_str()) == Some(&to.tile)
            }
            _ => false,
        });
        if !again {
            let cost = match weather::mountain_cost(day) {
                2 => "two".to_string(),
                3 => "three".to_string(),
                4 => "four".to_string(),
                n => n.to_string(),
            };
            return PhaseResult::Lost {
                reason: format!(
                    "entering the mountain clearing {to} takes {cost} move phases in a row"
                ),
            };
        }
        // Phases still to climb after this one: the season may make a
        // mountain cost more than two (`data/seasons.toml`).
        turn.climb_left = if mid_climb {
            turn.climb_left - 1
        } else {
            weather::mountain_cost(day).saturating_sub(1)
        };
        turn.climbing = Some(to.clone());
        return PhaseResult::Climbing { toward: to };
    }
    if let Some(limit) = limit
        && turn.moves >= limit
    {
        return PhaseResult::Lost {
            reason: format!("at most {limit} moves a day"),
        };
    }
    turn.moves += 1;
    if off_road {
        // The MOVE chit he ran with already paid for what he carries.
        let road = day.state.characters[who].roadway.take();
        if road.as_ref().is_some_and(|r| r.is_from_edge()) {
            // The road he came in by is the one a fresh start takes.
            day.state.solitaire_entry = Some(to.clone());
        } else if let Some(road) = road {
            let other_end = if to == road.from { road.to } else { road.from };
            day.today.entered_by.insert(who, (other_end, to.clone()));
        }
        let c = &mut day.state.characters[who];
        c.position = to.clone();
        c.discoveries.tiles_visited.insert(to.tile.clone());
        return PhaseResult::Moved {
            to,
            left_behind: Vec::new(),
        };
    }
    let from = day.state.characters[who].position.tile.clone();
    let to = crate::day::wilderness::lost_destination(day, who, to);
    let left_behind = movement::make_move(day, who, &to);
    turn.used += crate::day::wilderness::storm_phases(day, who, &from);
    PhaseResult::Moved { to, left_behind }
}

/// A lost phase becomes a hide or rest phase when the player said so.
fn fallback(
    day: &mut Day<'_>,
    who: usize,
    result: PhaseResult,
    when: WhenImpossible,
) -> PhaseResult {
    let PhaseResult::Lost { reason } = result else {
        return result;
    };
    let instead = match when {
        WhenImpossible::Skip => return PhaseResult::Lost { reason },
        WhenImpossible::Hide => activities::hide(day, who),
        WhenImpossible::Rest => activities::rest(day, who, None),
    };
    PhaseResult::Instead {
        reason,
        result: Box::new(instead),
    }
}

/// Followers move and hide with their guide.
fn carry_followers(day: &mut Day<'_>, who: usize, followers: &[usize], result: &PhaseResult) {
    let position = day.state.characters[who].position.clone();
    let hidden = day.state.characters[who].hidden;
    for &f in followers {
        let follower = &mut day.state.characters[f];
        // Walking with his guide, he entered by the guide's roadway.
        if matches!(result, PhaseResult::Moved { .. })
            && let Some((_, into)) = day.today.entered_by.get(&who).cloned()
            && into == position
        {
            day.today
                .entered_by
                .insert(f, (follower.position.clone(), position.clone()));
        }
        let follower = &mut day.state.characters[f];
        follower.position = position.clone();
        follower
            .discoveries
            .tiles_visited
            .insert(position.tile.clone());
        if matches!(result, PhaseResult::Hid { hidden: true, .. }) {
            follower.hidden = hidden;
        }
    }
}
