//! A killed character's fresh start (3.1 9.1.2): at Birdsong of the day
//! after his death his player may start over with any character nobody
//! plays, the one just killed included, as a new individual: at the Inn,
//! with the character's starting gold and chits, spells recorded afresh
//! (those of his orders' `Spells:` line, else by the dice),
//! no fame, notoriety or discoveries, and the victory requirements his
//! orders' `Victory:` line records. A `Restart: no` line keeps him out
//! (he then scores −100, 3.1 9.3.1a); a suicide sits out a whole day first
//! (3.1 9.2.2a). His starting weapon and armour come from the natives'
//! stock, else from an abandoned pile on the map; one found in neither he
//! does without and gets its gold price instead. Whatever he carried lies
//! in the clearing where he fell, for anyone to loot.
//!
//! Rulings: a player who names no character starts over with the one he
//! lost; two players wanting one character are served in seat order (3.1
//! 9.1.2b gives the first killed the first pick, which a day's resolution
//! does not record). The same character keeps the optional abilities and
//! Elf form his player chose, as those are choices of the player. Without a
//! `Victory:` line he records none, and scores each category's raw points.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use realmgm_core::game::Observers;

use super::Day;
use super::development::DevelopmentEvent;
use super::events::Happening;
use crate::board::ClearingId;
use crate::data::characters::StartLocation;
use crate::data::natives::NativeGroup;
use crate::data::realms::Realm;
use crate::data::terms::Dwelling;
use crate::orders::DayOrders;
use crate::state::development::Development;
use crate::state::{CharacterState, Item, ItemKind, VictoryRequirements, abandoned_pile};

/// A dead character coming back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum RestartEvent {
    /// He starts again at the Inn; what he carried was left where he fell
    /// (told apart, to those there: [`RestartEvent::LeftBehind`]).
    Restarted {
        character: String,
        fell_in: ClearingId,
        at: ClearingId,
        /// The character he comes back as, when his player named another.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        became: Option<String>,
        /// The game whose Inn he starts at (3.1 10.E.7.4.2).
        #[serde(default, skip_serializing_if = "Realm::is_first")]
        inn: Realm,
    },
    /// Under Solitaire Play he starts again on the road from the map's edge
    /// his first character entered by (3.1 10.E.1.6).
    RestartedAtEdge {
        character: String,
        fell_in: ClearingId,
        /// The clearing the road comes onto the map at.
        at: ClearingId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        became: Option<String>,
    },
    /// What a dead character carried lies where he fell (3.1 9.1.1d,
    /// 9.2.2a): seen by those in that clearing and his own player.
    LeftBehind {
        character: String,
        fell_in: ClearingId,
        items: Vec<String>,
    },
    /// He cannot come back: there is no Inn on the map.
    NoInn { character: String },
    /// A joining character waits: there is no Inn on the map to enter at.
    CannotEnter { character: String },
    /// He cannot start over as the character he had: another player took
    /// it first.
    Taken { character: String },
    /// A starting weapon or armour found neither with the natives nor on
    /// the map: he does without and gets its gold price (3.1 9.1.2a).
    PaidInstead {
        character: String,
        item: String,
        gold: u16,
    },
    /// A player who joined the running game: his character enters at the
    /// Inn, fresh as at setup.
    Arrived {
        character: String,
        player: String,
        at: ClearingId,
        /// The game whose Inn he enters at (3.1 10.E.7.4.2).
        #[serde(default, skip_serializing_if = "Realm::is_first")]
        inn: Realm,
    },
}

impl RestartEvent {
    /// The GM log line.
    pub fn log_line(&self) -> String {
        match self {
            RestartEvent::Restarted {
                character,
                at,
                became,
                inn,
                ..
            } => {
                let inn = inn.mark("Inn");
                match became {
                    Some(new) => {
                        format!(
                            "The {character}, killed, comes back as the {new} at the {inn} ({at})."
                        )
                    }
                    None => format!("The {character}, killed, starts again at the {inn} ({at})."),
                }
            }
            RestartEvent::RestartedAtEdge {
                character,
                at,
                became,
                ..
            } => {
                let who = match became {
                    Some(new) => format!("The {character}, killed, comes back as the {new}"),
                    None => format!("The {character}, killed, starts again"),
                };
                format!(
                    "{who} on the road from the map's edge into {at}, the road the first \
                     character entered by; the first activity must be a Move to {at}."
                )
            }
            RestartEvent::LeftBehind {
                character,
                fell_in,
                items,
            } => format!(
                "What the {character} carried lies in {fell_in}: {}.",
                items.join(", ")
            ),
            RestartEvent::NoInn { character } => {
                format!("The {character} is dead and cannot restart: the Inn is not on the map.")
            }
            RestartEvent::CannotEnter { character } => {
                format!("The {character} cannot enter the Realm: the Inn is not on the map.")
            }
            RestartEvent::Taken { character } => format!(
                "The {character} cannot start over as the {character}: another player took that \
                 character. Name a free one on a 'Character:' line."
            ),
            RestartEvent::PaidInstead {
                character,
                item,
                gold,
            } => format!(
                "The {character} finds no {item} with the natives or on the map and takes its price, \
                 {gold} gold, instead."
            ),
            RestartEvent::Arrived {
                character,
                player,
                at,
                inn,
            } => format!(
                "The {character} ({player}) enters the Realm at the {} ({at}).",
                inn.mark("Inn")
            ),
        }
    }
}

/// Tell those in clearing `fell_in`, and the dead character's own player
/// (`who`), what he left there; other players learn only of his death.
pub fn tell_left_behind(
    day: &mut Day<'_>,
    character: &str,
    fell_in: &ClearingId,
    items: &[Item],
    who: usize,
) {
    if items.is_empty() {
        return;
    }
    let mut there = day.players_in(fell_in);
    there.insert(day.state.characters[who].player.clone());
    day.emit(
        Observers::Players(there),
        Happening::Restart(RestartEvent::LeftBehind {
            character: character.to_string(),
            fell_in: fell_in.clone(),
            items: items.iter().map(|i| i.name.clone()).collect(),
        }),
    );
}

/// Start every dead character over at the Inn (called first at Birdsong;
/// 3.1 9.1.2) whose player wants it and whose wait after a suicide is over,
/// as the character his `Character:` line names when nobody plays it,
/// else as his own kind.
pub fn restart_the_dead(day: &mut Day<'_>, orders: &BTreeMap<String, DayOrders>) {
    let today = day.state.day + 1;
    for who in 0..day.state.characters.len() {
        let c = &day.state.characters[who];
        if !c.dead || c.rejoins_on.is_some_and(|first| today < first) {
            continue;
        }
        let his = orders.get(&c.player);
        if his.is_some_and(|o| o.no_restart) {
            // He stays out: what a death outside combat left on him lies
            // where he fell, and his hirelings are free (3.1 9.1.1d).
            let fell_in = c.position.clone();
            let left = day.state.characters[who].give_up_everything();
            drop_where_he_fell(day, &fell_in, &left);
            day.state.release_hired_leaders(who);
            day.state.characters[who].hirelings.clear();
            continue;
        }
        let became = his
            .and_then(|o| o.character.as_deref())
            .and_then(|w| unplayed_character(day, w))
            .filter(|new| *new != c.name);
        let victory = his.and_then(|o| o.victory);
        let spells = his.and_then(|o| o.spells.clone());
        let others = day.state.characters.iter().enumerate();
        let taken = others
            .filter(|(i, _)| *i != who)
            .map(|(_, o)| o.name.as_str())
            .chain(day.state.arrivals.iter().map(|a| a.character.as_str()))
            .any(|n| n == c.name);
        if became.is_none() && taken {
            let event = RestartEvent::Taken {
                character: c.name.clone(),
            };
            let observers = day.only(who);
            day.emit(observers, Happening::Restart(event));
            continue;
        }
        restart(day, who, became, victory, spells.as_ref());
    }
}

/// The character `wanted` names, when it is in the game data and nobody
/// plays it.
fn unplayed_character(day: &Day<'_>, wanted: &str) -> Option<String> {
    let names = day.data.characters.iter().map(|c| c.name.as_str());
    let name = realmgm_core::suggest::find(wanted, names)?;
    let played = day.state.characters_in_play().any(|c| c == name);
    (!played).then(|| name.to_string())
}

/// Let in the players who joined since the last day: each character
/// enters at the Inn as at setup (his starting gold, weapon, armour and
/// chits; spells recorded by the dice), unhidden, knowing only the Inn's
/// tile. Ruling: BIMR players who joined late started at the Inn, as a
/// killed character does. With no Inn on the map he waits, and the GM is
/// told through the event.
pub fn admit_arrivals(day: &mut Day<'_>) {
    let arrivals = std::mem::take(&mut day.state.arrivals);
    for arrival in arrivals {
        // His own game's Inn when two Realms are combined (3.1 10.E.7.4.2).
        let inn = day.state.dwellings_of(arrival.realm).get(&Dwelling::Inn);
        let Some(inn) = inn.cloned() else {
            day.emit(
                Observers::Gm,
                Happening::Restart(RestartEvent::CannotEnter {
                    character: arrival.character.clone(),
                }),
            );
            day.state.arrivals.push(arrival);
            continue;
        };
        let Some(kind) = day
            .data
            .characters
            .iter()
            .find(|c| c.name == arrival.character)
        else {
            // `Seats::admit` checked the name against the same data.
            unreachable!("an admitted character is in the game data");
        };
        let mut character = fresh_at_inn(
            day,
            kind,
            arrival.player.clone(),
            &inn,
            &arrival.spells,
            Choices::default(),
        );
        character.realm = arrival.realm;
        day.state.characters.push(character);
        day.emit(
            Observers::Everyone,
            Happening::Restart(RestartEvent::Arrived {
                character: arrival.character,
                player: arrival.player,
                at: inn,
                inn: arrival.realm,
            }),
        );
    }
}

fn restart(
    day: &mut Day<'_>,
    who: usize,
    became: Option<String>,
    victory: Option<VictoryRequirements>,
    spells: Option<&String>,
) {
    let name = day.state.characters[who].name.clone();
    // With two Realms combined he comes back at his own game's Inn, still
    // of that game (3.1 10.E.7.4.2).
    let realm = day.state.characters[who].realm;
    let entry = day.state.solitaire_entry.clone();
    let Some(inn) = entry
        .clone()
        .or_else(|| day.state.dwellings_of(realm).get(&Dwelling::Inn).cloned())
    else {
        day.emit(
            Observers::Everyone,
            Happening::Restart(RestartEvent::NoInn { character: name }),
        );
        return;
    };
    let kind_name = became.clone().unwrap_or_else(|| name.clone());
    let Some(kind) = day.data.characters.iter().find(|c| c.name == kind_name) else {
        return;
    };
    let fell_in = day.state.characters[who].position.clone();
    day.state.release_hired_leaders(who);
    let old = &mut day.state.characters[who];
    let left_behind = old.give_up_everything();
    let player = old.player.clone();
    let controller = old.controller.clone();
    // The player's own choices for the character stay with him, and under
    // Extended Development's revival he is himself, three chits down (3.1
    // 10.E.6.4).
    let choices = if became.is_none() {
        Choices {
            abilities: old.optional_abilities.clone(),
            form: old.elf_form,
            development: crate::development::revived(old),
        }
    } else {
        Choices::default()
    };
    let revived_at = choices.development.as_ref().map(|d| d.level);
    // One not revived is a new individual: the one who fell carries his
    // stage, a stage down, into the next campaign (3.1 10.E.6.3.5).
    if revived_at.is_none()
        && let Some(d) = old.development.as_ref().filter(|d| d.extended)
    {
        let line = super::development::carried_line(day.data, day.rules, old, d, false);
        day.state.fallen.push(line);
    }
    drop_where_he_fell(day, &fell_in, &left_behind);
    // Spells that do not read for the character he comes back as (the
    // one his orders named was taken, or a revived one's stage allows
    // fewer or other types) are recorded by the dice instead.
    let card = crate::development::restart_card(&day.state.characters[who], kind);
    let spells = spells
        .and_then(|text| crate::setup::by_mail::read_spells(&card, Some(text), day.data).ok())
        .unwrap_or_default();
    let mut character = fresh_at_inn(day, kind, player, &inn, &spells, choices);
    character.realm = realm;
    // A replacement keeps the seat of the character he replaces, and so his
    // player (3.1 10.E.4.7).
    character.controller = controller;
    if let Some(entry) = &entry {
        character.roadway = crate::state::Roadway::from_edge(vec![entry.clone()]);
    }
    let paid = equip_from_the_realm(day, &mut character, &fell_in);
    day.state.characters[who] = character;
    day.state.victory_requirements.remove(&name);
    if let Some(victory) = victory {
        day.state
            .victory_requirements
            .insert(kind_name.clone(), victory);
    }
    // His familiar, if he has one, starts again with him.
    day.state.familiars.remove(&name);
    tell_left_behind(day, &name, &fell_in, &left_behind, who);
    let event = if entry.is_some() {
        RestartEvent::RestartedAtEdge {
            character: name,
            fell_in,
            at: inn,
            became,
        }
    } else {
        RestartEvent::Restarted {
            character: name,
            fell_in,
            at: inn,
            became,
            inn: realm,
        }
    };
    day.emit(Observers::Everyone, Happening::Restart(event));
    if let Some(stage) = revived_at {
        let observers = day.only(who);
        day.emit(
            observers,
            Happening::Development(DevelopmentEvent::Revived {
                character: kind_name.clone(),
                stage,
            }),
        );
    }
    for (item, gold) in paid {
        let observers = day.only(who);
        day.emit(
            observers,
            Happening::Restart(RestartEvent::PaidInstead {
                character: kind_name.clone(),
                item,
                gold,
            }),
        );
    }
}

/// What a player chose for his character that a fresh start of the same
/// character keeps: optional abilities and the Elf's form; and under
/// Extended Development's revival his development, three chits down.
#[derive(Default)]
pub(super) struct Choices {
    pub abilities: Vec<String>,
    pub form: Option<crate::data::characters::ElfForm>,
    pub development: Option<Development>,
}

/// Take the fresh `character`'s starting weapon and armour out of the
/// Realm (3.1 9.1.2a): from a native group's stock, else from an abandoned
/// pile (the one where he fell first); what is in neither he does without
/// and gets its gold price for. Returns the items paid for, with the gold.
fn equip_from_the_realm(
    day: &mut Day<'_>,
    character: &mut CharacterState,
    fell_in: &ClearingId,
) -> Vec<(String, u16)> {
    let data = day.data;
    let his_pile = abandoned_pile(fell_in);
    // With two Realms combined he may take them from either game's natives,
    // his own game's first (3.1 10.E.7.4.2).
    let own = character.realm;
    let realms: Vec<Realm> = if day.state.combines_realms() {
        std::iter::once(own)
            .chain(Realm::ALL.into_iter().filter(|r| *r != own))
            .collect()
    } else {
        vec![Realm::First]
    };
    let mut holders: Vec<String> = realms
        .into_iter()
        .flat_map(|realm| {
            data.natives
                .iter()
                .flat_map(NativeGroup::stock_holders)
                .map(move |holder| realm.mark(holder))
        })
        .collect();
    holders.push(his_pile.clone());
    holders.extend(
        day.state
            .holdings
            .keys()
            .filter(|k| k.starts_with("Abandoned in ") && **k != his_pile)
            .cloned(),
    );
    let wanted: Vec<(ItemKind, String)> = character
        .weapon
        .iter()
        .map(|w| (ItemKind::Weapon, w.clone()))
        .chain(character.armor.iter().map(|a| (ItemKind::Armor, a.clone())))
        .collect();
    let mut paid = Vec::new();
    for (kind, item) in wanted {
        let found = holders.iter().any(|holder| {
            let Some(pile) = day.state.holdings.get_mut(holder) else {
                return false;
            };
            let Some(at) = pile
                .iter()
                .position(|i| i.kind == kind && crate::data::base_name(&i.name) == item)
            else {
                return false;
            };
            pile.remove(at);
            true
        });
        if found {
            continue;
        }
        let price = match kind {
            ItemKind::Weapon => {
                character.weapon = None;
                data.weapons
                    .iter()
                    .find(|w| w.name == item)
                    .map_or(0, |w| w.price)
            }
            _ => {
                character.armor.retain(|a| *a != item);
                data.armor
                    .iter()
                    .find(|a| a.name == item)
                    .map_or(0, |a| a.price.intact)
            }
        };
        character.gold = character.gold.saturating_add(price);
        paid.push((item, price));
    }
    day.state.holdings.retain(|_, pile| !pile.is_empty());
    paid
}

/// A character of `kind` for `player` entering at the Inn as at setup: his
/// starting gold, weapon, armour and chits, and the `spells` his player
/// chose, or (none chosen) spells recorded by the dice of the day he enters.
pub(super) fn fresh_at_inn(
    day: &mut Day<'_>,
    kind: &crate::data::characters::Character,
    player: String,
    inn: &ClearingId,
    spells: &[String],
    choices: Choices,
) -> CharacterState {
    let mut entering = [CharacterState::entering(
        kind,
        player,
        StartLocation::Inn,
        inn.clone(),
    )];
    if let Some(development) = choices.development {
        // His stage's kit and chits come before his spells are recorded,
        // by his stage's allowance; its rewards came once, as the game
        // began (3.1 10.E.6.7).
        let [entering] = &mut entering;
        crate::setup::development::develop(day.data, day.rules, entering, development);
    }
    let chosen = if spells.is_empty() {
        BTreeMap::new()
    } else {
        BTreeMap::from([(kind.name.clone(), spells.to_vec())])
    };
    if let Err(e) =
        crate::magic::spellbook::record_at_setup(day.data, &mut entering, &chosen, day.dice)
    {
        // Chosen spells were checked as the `starting` ruling was made.
        unreachable!("recording spells of a fresh character cannot fail: {e}");
    }
    let [mut character] = entering;
    character.optional_abilities = choices.abilities;
    crate::setup::choose_form(day.data, day.rules, &mut character, choices.form, day.dice);
    character
}

/// What a dead character carried lies in the clearing where he fell.
pub(super) fn drop_where_he_fell(day: &mut Day<'_>, fell_in: &ClearingId, left_behind: &[Item]) {
    if !left_behind.is_empty() {
        day.state
            .holdings
            .entry(abandoned_pile(fell_in))
            .or_default()
            .extend(left_behind.iter().cloned());
    }
}
