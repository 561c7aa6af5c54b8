//! Rearranging belongings by order (play summary II.D.1.b at the start of
//! each Daylight phase, IV.A at Midnight): a `Phase 3:` line
//! acts before his third phase, a `Midnight:` line after the Evening. Each
//! step activates, inactivates or abandons one belonging, with the limits
//! `day::belongings` keeps. A step that cannot be done is skipped and his
//! report says why; the other steps still happen.
//!
//! While a transmorphizing spell holds him what he had as it took hold is
//! frozen: none of it is activated, inactivated, abandoned or loaded (3.1
//! 4.6.9b.2). What he took on since as a creature he rearranges normally
//! but keeps inactive, an Enchanted card excepted; as mist he picks up
//! nothing (4.6.9b.4, `magic::transmorph`).
//!
//! Weight is not checked here: a Move phase leaves behind what his active
//! MOVE chit, Boots card or horse cannot carry (`day::movement`). Pack
//! horses are a basic rule (3.1 7.3.1i): `load Spear on Workhorse` puts a
//! belonging on a horse he leads inactive, up to the horse's trot strength,
//! and `unload Spear` (or `unload all`) takes it back; a load weighs
//! nothing for what carries him. At Midnight the load of a horse he no longer leads (sold,
//! given, killed, taken with him dead) falls into the pile of his clearing.
//! Activating and inactivating are seen by himself only; an abandoned
//! belonging lies in the clearing's pile for everyone there to see.
//!
//! Under Dropping and Losing Belongings (3.1 10.A.5) `drop Spear` puts it in
//! plain sight in front of him (a flying character's drop is lost where he
//! stands, 10.A.5.1.2), `abandon` or `lose` puts it in the pile, and
//! `pick up Spear` on a `Phase N:` line takes back only what lies in front of
//! him, unblocked and still hidden (10.A.5.4); picking up at the end of a
//! phase and after combat is `day::pick_up`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Day;
use super::events::Happening;
use crate::orders::DayOrders;
use crate::orders::dealings::{Arrange, When, load_target};
use crate::state::abandoned_pile;
use crate::state::belongings::{self, BelongingRefused};
use crate::state::dropped;

/// One step of a rearrangement, done or not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum RearrangeEvent {
    Done {
        character: String,
        at: When,
        how: Arrange,
        item: String,
        /// What activating it put inactive (one weapon, horse, piece of
        /// armour of a kind, Boots or Gloves at a time).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        displaced: Option<String>,
    },
    NotDone {
        character: String,
        at: When,
        how: Arrange,
        item: String,
        reason: String,
    },
    /// The load of a pack horse he no longer leads fell where he stands.
    LoadFell {
        character: String,
        horse: String,
        items: Vec<String>,
        clearing: String,
    },
}

impl RearrangeEvent {
    /// The report and GM log line.
    pub fn log_line(&self) -> String {
        match self {
            RearrangeEvent::Done {
                character,
                at,
                how,
                item,
                displaced,
            } => {
                let done = match how {
                    Arrange::Activate => "activates",
                    Arrange::Inactivate => "inactivates",
                    Arrange::Abandon => "abandons",
                    Arrange::Drop => "drops",
                    Arrange::PickUp => "picks up",
                    Arrange::Load => "loads",
                    Arrange::Unload => "unloads",
                };
                let also = match displaced {
                    Some(old) => format!(", putting the {old} inactive"),
                    None if *how == Arrange::Drop => " in plain sight".to_string(),
                    None => String::new(),
                };
                format!("  {}: the {character} {done} the {item}{also}.", title(*at))
            }
            RearrangeEvent::NotDone {
                character,
                at,
                how,
                item,
                reason,
            } => format!(
                "  {}: the {character} cannot {how} the {item}: {reason}.",
                title(*at)
            ),
            RearrangeEvent::LoadFell {
                character,
                horse,
                items,
                clearing,
            } => format!(
                "  Midnight: the load of the {character}'s {horse} ({}) lies in {clearing}: the \
                 {character} no longer leads the horse.",
                items.join(", ")
            ),
        }
    }
}

fn title(at: When) -> String {
    match at {
        When::Phase(n) => format!("Before phase {n}"),
        When::AfterPhase(n) => format!("After phase {n}"),
        When::Midnight => "Midnight".into(),
    }
}

/// The rearrangements `who` ordered for the start of phase `phase`;
/// `committed` are the belongings he may not abandon yet, since an extra
/// phase recorded from this one on relies on them (3.1 6.2.4d); `aloft`:
/// he is flying, so what he drops is lost (3.1 10.A.5.1.2).
pub fn at_phase(
    day: &mut Day<'_>,
    who: usize,
    phase: u8,
    orders: &DayOrders,
    committed: &[String],
    aloft: bool,
) {
    rearrange(day, who, When::Phase(phase), orders, committed, aloft);
}

/// Every living character's `Midnight:` rearrangements, in seat order.
pub fn at_midnight(day: &mut Day<'_>, orders: &BTreeMap<String, DayOrders>) {
    for who in 0..day.state.characters.len() {
        let character = &day.state.characters[who];
        if character.dead {
            continue;
        }
        if let Some(mine) = orders.get(&character.player) {
            rearrange(day, who, When::Midnight, mine, &[], false);
        }
    }
    for who in 0..day.state.characters.len() {
        drop_stray_loads(day, who);
    }
}

/// Loads of horses `who` no longer leads (or of every horse, when he is
/// dead) fall into the pile of his clearing.
fn drop_stray_loads(day: &mut Day<'_>, who: usize) {
    let character = &mut day.state.characters[who];
    let dead = character.dead;
    let leads = |horse: &str| {
        character
            .belongings
            .iter()
            .any(|b| b.item.kind == crate::state::ItemKind::Horse && b.item.name == horse)
    };
    let stray: Vec<String> = character
        .pack
        .keys()
        .filter(|horse| dead || !leads(horse))
        .cloned()
        .collect();
    for horse in stray {
        let character = &mut day.state.characters[who];
        let Some(load) = character.pack.remove(&horse) else {
            continue;
        };
        let name = character.name.clone();
        let here = character.position.clone();
        let items: Vec<String> = load.iter().map(|i| i.name.clone()).collect();
        day.state
            .holdings
            .entry(abandoned_pile(&here))
            .or_default()
            .extend(load);
        let seen = day.clearing_of(who);
        day.emit(
            seen,
            Happening::Rearranged(RearrangeEvent::LoadFell {
                character: name,
                horse,
                items,
                clearing: here.to_string(),
            }),
        );
    }
}

fn rearrange(
    day: &mut Day<'_>,
    who: usize,
    at: When,
    orders: &DayOrders,
    committed: &[String],
    aloft: bool,
) {
    let dropping = day.rules.is_on(dropped::TOGGLE);
    let steps: Vec<(Arrange, String)> = orders
        .rearrange
        .iter()
        .filter(|r| r.at == at)
        .flat_map(|r| r.steps.iter().cloned())
        // Picking up after combat is done for everyone at once, in turn
        // (`day::pick_up`, 3.1 10.A.5.6).
        .filter(|(how, _)| !(at == When::Midnight && *how == Arrange::PickUp))
        .collect();
    for (how, item) in steps {
        // Without the rule, or in flight, a drop is an abandoning (3.1
        // 4.3.4, 10.A.5.1.2).
        let how = match how {
            Arrange::Drop if !dropping || aloft => Arrange::Abandon,
            other => other,
        };
        let character = day.state.characters[who].name.clone();
        let in_cave = super::movement::is_cave(day, &day.state.characters[who].position);
        let on_road = day.state.characters[who].between_clearings();
        // His action chits are frozen too (3.1 4.6.9e).
        let frozen = crate::magic::conflicts::transmorphized(&day.state, &character).is_some();
        // A Phase spell's chit is activated like an item at the start of a
        // phase, and holds him for that phase (3.1 rule 4.6.7f.1).
        let phase_chit =
            (how == Arrange::Activate && !on_road && !frozen && matches!(at, When::Phase(_)))
                .then(|| crate::magic::phase_chit::activate(&mut day.state, who, &item))
                .flatten();
        let done = match how {
            _ if let Some(refused) = transmorphized_refusal(day, who, how, &item) => Err(refused),
            _ if on_road => Err(StepRefused::OnRoadway),
            Arrange::Activate if phase_chit.is_some() => Ok((phase_chit.unwrap_or_default(), None)),
            Arrange::Activate => {
                belongings::activate(day.data, &mut day.state.characters[who], &item, in_cave)
                    .map(|(item, old)| (item.name, old.map(|o| o.name)))
                    .map_err(StepRefused::from)
            }
            Arrange::Inactivate => belongings::inactivate(&mut day.state.characters[who], &item)
                .map(|item| (item.name, None))
                .map_err(StepRefused::from),
            Arrange::Abandon | Arrange::Drop
                if belongings::find(&day.state.characters[who], &item)
                    .is_some_and(|(found, _)| committed.contains(&found.name)) =>
            {
                Err(StepRefused::Committed)
            }
            Arrange::Abandon => abandon(day, who, &item)
                .map(|name| (name, None))
                .map_err(StepRefused::from),
            Arrange::Drop => drop_in_front(day, who, &item)
                .map(|name| (name, None))
                .map_err(StepRefused::from),
            Arrange::PickUp => pick_up(day, who, &item, true).map(|name| (name, None)),
            Arrange::Load => {
                let (thing, horse) = load_target(&item);
                let data = day.data;
                let weigh =
                    |i: &crate::state::Item| crate::abilities::weight(data, i.kind, &i.name);
                belongings::load(data, &mut day.state.characters[who], thing, horse, weigh)
                    .map(|(thing, horse)| (format!("{thing} on the {horse}"), None))
                    .map_err(StepRefused::from)
            }
            Arrange::Unload => belongings::unload(&mut day.state.characters[who], &item)
                .map(|(thing, horse)| (format!("{thing} from the {horse}"), None))
                .map_err(StepRefused::from),
        };
        let (observers, event) = match done {
            Ok((item, displaced)) => {
                let seen = match how {
                    Arrange::Abandon | Arrange::Drop => day.clearing_of(who),
                    // He stays hidden taking what lies in front of him
                    // (3.1 10.A.5.3).
                    Arrange::PickUp => day.seen_acting(who),
                    _ => day.only(who),
                };
                let event = RearrangeEvent::Done {
                    character,
                    at,
                    how,
                    item,
                    displaced,
                };
                (seen, event)
            }
            Err(reason) => (
                day.only(who),
                RearrangeEvent::NotDone {
                    character,
                    at,
                    how,
                    item,
                    reason: reason.to_string(),
                },
            ),
        };
        day.emit(observers, Happening::Rearranged(event));
    }
}

/// Why a transmorphized character may not take this step, if he may not
/// (3.1 4.6.9b): the items it names must be ones he took on as a creature,
/// kept inactive but an Enchanted card.
fn transmorphized_refusal(
    day: &Day<'_>,
    who: usize,
    how: Arrange,
    item: &str,
) -> Option<StepRefused> {
    let c = &day.state.characters[who];
    let spell = crate::magic::conflicts::transmorphized(&day.state, &c.name)?.to_string();
    if how == Arrange::PickUp {
        // [`pick_up`] refuses mist, at any time it picks up.
        return None;
    }
    let named: Vec<&str> = match how {
        Arrange::Load => {
            let (thing, horse) = load_target(item);
            std::iter::once(thing).chain(horse).collect()
        }
        _ => vec![item],
    };
    let loose = crate::magic::transmorph::carried_as_creature(&day.state, c);
    if !named
        .iter()
        .all(|n| loose.iter().any(|l| belongings::names(n, l)))
    {
        return Some(StepRefused::Transmorphized { spell });
    }
    let enchanted_card = belongings::find(c, item).is_some_and(|(found, _)| {
        crate::magic::transmorph::is_enchanted_card(day.data, found.kind, &found.name)
    });
    (how == Arrange::Activate && !enchanted_card).then_some(StepRefused::KeptInactive)
}

/// Why a step of rearranging is not done, in the player's words.
#[derive(Debug, thiserror::Error)]
pub enum StepRefused {
    #[error(transparent)]
    Belonging(#[from] BelongingRefused),
    #[error(
        "he is between clearings, on the roadway he ran away onto or aloft after flying away, \
         where nothing is rearranged or abandoned (3.1 rules 8.3.8d, 8.3.8e.2); Move off the \
         roadway or Fly down first"
    )]
    OnRoadway,
    #[error(
        "this belonging gives an extra phase recorded today and stays until that phase is \
         done (3.1 6.2.4d); abandon it at a later phase"
    )]
    Committed,
    #[error(
        "the {spell} spell holds this character: what the character had when it took hold stays \
         frozen until it ends (3.1 rule 4.6.9b.2); only what was taken on since, as a creature, \
         can be rearranged (4.6.9b.4)"
    )]
    Transmorphized { spell: String },
    #[error(
        "a transmorphized character keeps what was taken on as a creature inactive, an \
         Enchanted card excepted (3.1 4.6.9b.4)"
    )]
    KeptInactive,
    #[error(
        "turned into mist by Melt Into Mist, this character can take on no belongings (3.1 \
         4.6.9b.4); pick it up once the spell has ended"
    )]
    Mist,
    #[error(
        "nothing is dropped in plain sight without the rule Dropping and Losing Belongings \
         (3.1 10.A.5), which this campaign does not play; loot the clearing's pile with a \
         Search instead"
    )]
    NoDropping,
    #[error(
        "no {name} lies dropped in front of him, and only that is picked up at the start of a \
         phase (3.1 10.A.5.4); pick up what lies elsewhere in the clearing at the end of a \
         phase ('After phase 2: pick up {name}')"
    )]
    NotInFront { name: String },
    #[error("no {name} lies dropped in his clearing (3.1 10.A.5.3); dropped here: {here}")]
    NotDropped { name: String, here: String },
    #[error(
        "dropped belongings are picked up at Midnight only where a combat was fought this \
         Evening (3.1 10.A.5.6); pick it up at the start or end of a phase tomorrow \
         ('After phase 1: pick up {name}')"
    )]
    AfterCombatOnly { name: String },
    #[error("he was blocked, and picks up nothing more today (3.1 10.A.5.4)")]
    Blocked,
    #[error(
        "he is flying above the clearing and picks up nothing until he lands (3.1 10.A.5.3); \
         pick it up at the end of a phase on the ground"
    )]
    Aloft,
}

/// Put the belonging `name` down in plain sight in front of him (3.1
/// 10.A.5.2).
fn drop_in_front(day: &mut Day<'_>, who: usize, name: &str) -> Result<String, BelongingRefused> {
    let character = &mut day.state.characters[who];
    let item = belongings::take_out(character, name)
        .ok_or_else(|| belongings::not_carried(character, name))?;
    let named = item.name.clone();
    let (me, here) = (character.name.clone(), character.position.clone());
    day.state.drop_in_front(&me, &here, item);
    Ok(named)
}

/// Pick up the dropped belonging `name` in his clearing, inactive (3.1
/// 10.A.5.3, 4.3.2); `in_front_only`: at the start of a phase, only what
/// lies in front of him. Whoever takes up what lies elsewhere is unhidden
/// and may be blocked first (`day::pick_up`).
pub fn pick_up(
    day: &mut Day<'_>,
    who: usize,
    name: &str,
    in_front_only: bool,
) -> Result<String, StepRefused> {
    if !day.rules.is_on(dropped::TOGGLE) {
        return Err(StepRefused::NoDropping);
    }
    if crate::magic::transmorph::is_mist(&day.state, &day.state.characters[who].name) {
        return Err(StepRefused::Mist);
    }
    day.state.settle_dropped();
    let character = &day.state.characters[who];
    let (me, here) = (character.name.clone(), character.position.clone());
    let Some(taken) = day.state.take_dropped(&here, &me, name, in_front_only) else {
        return Err(if in_front_only {
            StepRefused::NotInFront {
                name: name.to_string(),
            }
        } else {
            let lying: Vec<&str> = day
                .state
                .dropped_in(&here)
                .into_iter()
                .map(|(_, item)| item.name.as_str())
                .collect();
            StepRefused::NotDropped {
                name: name.to_string(),
                here: if lying.is_empty() {
                    "nothing".to_string()
                } else {
                    lying.join(", ")
                },
            }
        });
    };
    let named = taken.item.name.clone();
    day.state.characters[who]
        .belongings
        .push(crate::state::Belonging {
            item: taken.item,
            active: false,
        });
    Ok(named)
}

/// Leave the belonging `name` in his clearing's abandoned pile.
fn abandon(day: &mut Day<'_>, who: usize, name: &str) -> Result<String, BelongingRefused> {
    let character = &mut day.state.characters[who];
    let item = belongings::take_out(character, name)
        .ok_or_else(|| belongings::not_carried(character, name))?;
    let pile = abandoned_pile(&character.position);
    let named = item.name.clone();
    day.state.holdings.entry(pile).or_default().push(item);
    Ok(named)
}
