//! A player who plays several characters (3.1 10.E.4): his one mail holds
//! each character's orders under its own `Orders for:` line, read as that
//! character's orders alone (10.E.4.4), and each part goes to the
//! character's own seat for the day.

use std::collections::BTreeMap;

use realmgm_core::game::{AcceptedOrders, GameValue, OrdersProblem, Rules};

use crate::data::GameData;
use crate::orders::DayOrders;
use crate::orders::sections::{self, HEADER};
use crate::state::{CharacterState, MrState};

fn problem(line: usize, message: String) -> OrdersProblem {
    OrdersProblem {
        line,
        column: 1,
        message,
    }
}

/// "the Amazon and the Berserker".
fn listed(mine: &[&CharacterState]) -> String {
    let names: Vec<String> = mine.iter().map(|c| format!("the {}", c.name)).collect();
    realmgm_core::words::listed(&names)
}

/// The orders of `player`, who plays several characters, from his mail.
///
/// # Errors
/// A mail without `Orders for:` lines, words before the first, a part for
/// a character he does not play or for one twice, a character left without
/// a part, and every problem of each part, by its line in the mail.
pub(super) fn read(
    data: &GameData,
    mr: &MrState,
    rules: &Rules,
    player: &str,
    text: &str,
) -> Result<AcceptedOrders, Vec<OrdersProblem>> {
    let mine: Vec<&CharacterState> = mr.characters_of(player).collect();
    let split = sections::split(text);
    if split.sections.is_empty() {
        let example: Vec<String> = mine
            .iter()
            .map(|c| format!("'{HEADER} {}'", c.name))
            .collect();
        return Err(vec![problem(
            1,
            format!(
                "you play {}, so begin each one's orders with a line naming him ({}), his \
                 orders below it",
                listed(&mine),
                realmgm_core::words::listed(&example)
            ),
        )]);
    }
    let mut problems: Vec<OrdersProblem> = split
        .stray
        .iter()
        .map(|&line| {
            problem(
                line,
                format!(
                    "this line comes before the first '{HEADER}' line, so it is nobody's \
                     orders; move it below the line of the character it is for"
                ),
            )
        })
        .collect();
    let assigned = split.assign(&mine, |c| &c.name);
    problems.extend(assigned.unknown.iter().map(|section| {
        problem(
            section.line,
            format!(
                "{HEADER} '{}' is not a character you play; you play {}",
                section.name,
                listed(&mine)
            ),
        )
    }));
    problems.extend(assigned.again.iter().map(|(me, section)| {
        problem(
            section.line,
            format!(
                "a second part for the {}; give each character one '{HEADER}' part",
                me.name
            ),
        )
    }));
    problems.extend(assigned.missing.iter().map(|me| {
        problem(
            1,
            format!(
                "no orders for the {name}; add a line '{HEADER} {name}' with his orders \
                 below it (H / H / H / H hides all day)",
                name = me.name
            ),
        )
    }));
    let mut orders: BTreeMap<String, DayOrders> = BTreeMap::new();
    let mut warnings = Vec::new();
    for (me, section) in &assigned.parts {
        match super::read_one(data, Some(mr), rules, &me.player, &section.text) {
            Ok((day, more)) => {
                warnings.extend(more.into_iter().map(|w| format!("the {}: {w}", me.name)));
                orders.insert(me.name.clone(), day);
            }
            Err(more) => problems.extend(more),
        }
    }
    if !problems.is_empty() {
        problems.sort_by_key(|p| p.line);
        return Err(problems);
    }
    let day = DayOrders {
        characters: orders,
        ..DayOrders::default()
    };
    Ok(AcceptedOrders {
        canonical: day.to_string(),
        warnings,
        parsed: GameValue::from_typed(day),
    })
}

/// `player`'s orders by his characters' seats: each part goes to the seat
/// of the character it names. A part for a character the seat no longer
/// holds (killed and replaced by another since) is for nobody: the new
/// character has no orders and does nothing that day.
pub(super) fn by_seat(
    state: &MrState,
    player: &str,
    orders: DayOrders,
) -> impl Iterator<Item = (String, DayOrders)> {
    let seats: BTreeMap<String, String> = state
        .characters_of(player)
        .map(|c| (c.name.clone(), c.player.clone()))
        .collect();
    orders
        .characters
        .into_iter()
        .filter_map(move |(name, each)| Some((seats.get(&name)?.clone(), each)))
}

/// The orders of a missing player of several characters: `one` for each.
pub(super) fn no_orders(mr: &MrState, player: &str, one: &str) -> String {
    mr.characters_of(player)
        .map(|c| format!("{HEADER} {}\n{one}\n", c.name))
        .collect()
}
