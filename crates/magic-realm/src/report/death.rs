//! What a player whose character is dead reads first in his report: who
//! killed him, in which clearing's combat and round (from the events he
//! saw), and what happens next with the mail line that chooses it.

use serde::Serialize;

use crate::combat::log::CombatLine;
use crate::data::GameData;
use crate::data::terms::Dwelling;
use crate::day::events::{CombatEvent, DayEvent, Happening};
use crate::state::{CharacterState, MrState};

/// The death notice at the top of a dead character's report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Death {
    /// How he died: "You were killed by Rogue 3 in EV5's combat, round 2."
    pub how: String,
    /// What happens next, and what to write to choose.
    pub next: Vec<String>,
}

/// The notice for `me` when he is dead after the day of `events` (those
/// his player saw); `None` while he lives.
pub fn death(
    data: &GameData,
    state: &MrState,
    me: &CharacterState,
    events: &[DayEvent],
) -> Option<Death> {
    if !me.dead {
        return None;
    }
    Some(Death {
        how: how(state, me, events),
        next: next(data, state, me, &belongings_went(data, state, me, events)),
    })
}

/// Where what he carried went as he died, by the spoils rules of 3.1
/// 8.7.2–8.7.3 as `combat::spoils` applies them: to the character (or the
/// controlled monster's master) whose spoils line lists it, to a hired
/// leader or an unhired native group that killed him, and otherwise left
/// where he fell.
fn belongings_went(
    data: &GameData,
    state: &MrState,
    me: &CharacterState,
    events: &[DayEvent],
) -> String {
    let lines = events.iter().filter_map(|e| match &e.happening {
        Happening::Combat(CombatEvent::Line { line, .. }) => Some(line),
        _ => None,
    });
    let mut after_the_kill =
        lines.skip_while(|l| !matches!(l, CombatLine::Killed { victim, .. } if *victim == me.name));
    let Some(CombatLine::Killed { by, .. }) = after_the_kill.next() else {
        return "All you carried lies where you fell.".to_string();
    };
    // The killer's own spoils line, or his master's for a controlled
    // monster: other kills of the same instant say theirs around it.
    let master = state
        .employer_of(by)
        .and_then(|e| state.characters.get(e))
        .map(|c| c.name.as_str());
    let taken_by = after_the_kill.find_map(|l| match l {
        CombatLine::Spoils {
            character, items, ..
        } if character == by || Some(character.as_str()) == master => Some((character, items)),
        _ => None,
    });
    if let Some((character, items)) = taken_by.filter(|(_, items)| !items.is_empty()) {
        return format!(
            "What you carried went to the {character}: {}.",
            items.join(", ")
        );
    }
    let hired = state.employer_of(by).is_some();
    match crate::data::natives::find_member(&data.natives, by) {
        Some((_, member)) if hired && member.is_leader() => {
            format!("What you carried went to {by}, who carries it for his employer.")
        }
        Some((group, _)) if !hired => {
            let realm = crate::data::realms::Realm::of_name(by);
            format!("What you carried went to the {}.", realm.mark(&group.name))
        }
        _ => "All you carried lies where you fell.".to_string(),
    }
}

fn how(state: &MrState, me: &CharacterState, events: &[DayEvent]) -> String {
    for event in events {
        let Happening::Combat(CombatEvent::Line {
            clearing,
            round,
            line,
        }) = &event.happening
        else {
            continue;
        };
        match line {
            CombatLine::Killed { victim, by } if *victim == me.name => {
                let killer = if state.characters.iter().any(|c| c.name == *by) {
                    format!("the {by}")
                } else {
                    by.clone()
                };
                return format!(
                    "You were killed by {killer} in {clearing}'s combat, round {round}."
                );
            }
            CombatLine::Died { character, reason } if *character == me.name => {
                return format!("You died in {clearing}'s combat, round {round}: {reason}.");
            }
            _ => {}
        }
    }
    format!("The {} is dead: your day above says how.", me.name)
}

/// What happens at the next Birdsong (`day/restart.rs`, 3.1 9.1.2): he may
/// start over at the Inn as a new character of his kind, or as another one
/// nobody plays when tomorrow's orders name it, recording new victory
/// requirements, or stay out; after a suicide he first sits out a day;
/// with no Inn on the map he cannot. On the last day there is no next one
/// (`day/victory.rs` scores the dead).
fn next(data: &GameData, state: &MrState, me: &CharacterState, belongings: &str) -> Vec<String> {
    if state.day >= state.last_day {
        return vec![format!(
            "The game ended tonight: the {} scores as the dead do, -100.",
            me.name
        )];
    }
    let Some(inn) = state.dwellings_of(me.realm).get(&Dwelling::Inn) else {
        return vec![
            "There is no Inn on this map, so you cannot start again: write to your GM, who can \
             give you another character."
                .to_string(),
        ];
    };
    let name = &me.name;
    let first_day = me.rejoins_on.unwrap_or(0).max(state.day + 1);
    let when = if first_day > state.day + 1 {
        format!(
            "Having taken your own life, you sit out tomorrow; at Birdsong of day {first_day} you \
             may start again"
        )
    } else {
        "Tomorrow at Birdsong you start again".to_string()
    };
    let inn_name = me.realm.mark("Inn");
    let mut next = vec![format!(
        "{when} at the {inn_name} ({inn}) as a new {name}: the {name}'s starting gold, every chit \
         fresh, spells recorded afresh, no fame, notoriety or hirelings, and nothing learned of \
         the map. Your starting weapon and armour come from the natives' stock or from what lies \
         abandoned on the map, or you get their price in gold. {belongings}"
    )];
    next.push(format!(
        "Record your new character's victory requirements in those orders with a line such as \
         `Victory: GT 1, SP 0, F 2, N 1, G 1` ({} points in all); without one, each category \
         scores its raw points. To stay out of the game instead, write `Restart: no`: you then \
         score -100 at the end.",
        state.victory_points
    ));
    let kind = data.characters.iter().find(|c| &c.name == name);
    if let Some(line) = kind.and_then(crate::setup::by_mail::spells_asked) {
        next.push(format!(
            "Choose the spells to record with a line `{line}`; without one the dice choose \
             them. A `Character:` line changes whose spells the line names."
        ));
    }
    let free = state.unplayed_characters(data);
    if !free.is_empty() {
        next.push(format!(
            "To come back as another character instead, add the line `Character: NAME` to \
             tomorrow's orders, naming one nobody plays: {}.",
            free.join(", ")
        ));
    }
    next.push(
        "The orders form below is for your first day back: plan it from the Inn, where you start."
            .to_string(),
    );
    next
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{data, game_played_by};
    use realmgm_core::game::Observers;

    fn died_of_wounds(state: &MrState) -> Vec<DayEvent> {
        vec![DayEvent {
            observers: Observers::Everyone,
            happening: Happening::Combat(CombatEvent::Line {
                clearing: state.characters[0].position.clone(),
                round: 3,
                line: CombatLine::Died {
                    character: "Amazon".into(),
                    reason: "no chit is left to take the wounds".into(),
                },
            }),
        }]
    }

    #[test]
    fn the_living_read_no_notice() {
        let state = game_played_by(&["Amazon"], |_| "Ann".into());
        let events = died_of_wounds(&state);
        assert_eq!(death(data(), &state, &state.characters[0], &events), None);
    }

    #[test]
    fn a_death_of_wounds_says_where_and_when_and_without_an_inn_to_ask_the_gm() {
        let mut state = game_played_by(&["Amazon"], |_| "Ann".into());
        state.characters[0].dead = true;
        let events = died_of_wounds(&state);
        let here = state.characters[0].position.to_string();
        let notice = death(data(), &state, &state.characters[0], &events).expect("a notice");
        assert_eq!(
            notice.how,
            format!("You died in {here}'s combat, round 3: no chit is left to take the wounds.")
        );
        assert!(notice.next[0].starts_with("Tomorrow at Birdsong you start again at the Inn"));
        assert!(
            notice.next[1].contains("`Restart: no`"),
            "{:?}",
            notice.next
        );
        // A suicide sits out a whole day first (3.1 9.2.2a).
        state.characters[0].rejoins_on = Some(state.day + 2);
        let notice = death(data(), &state, &state.characters[0], &events).expect("a notice");
        let first = state.day + 2;
        assert!(
            notice.next[0].starts_with(&format!(
                "Having taken your own life, you sit out tomorrow; at Birdsong of day {first}"
            )),
            "{:?}",
            notice.next
        );
        state.characters[0].rejoins_on = None;
        state.day = state.last_day;
        let notice = death(data(), &state, &state.characters[0], &events).expect("a notice");
        assert_eq!(
            notice.next,
            ["The game ended tonight: the Amazon scores as the dead do, -100."]
        );
        state.day = 1;
        state.dwellings.remove(&Dwelling::Inn);
        let notice = death(data(), &state, &state.characters[0], &[]).expect("a notice");
        assert_eq!(notice.how, "The Amazon is dead: your day above says how.");
        assert_eq!(
            notice.next,
            [
                "There is no Inn on this map, so you cannot start again: write to your GM, who can \
              give you another character."
            ]
        );
    }

    /// A dead Wizard is told how to choose the spells he records afresh
    /// (3.1 9.1.2a); the Amazon, who records none, is not.
    #[test]
    fn a_dead_spellcaster_is_told_of_the_spells_line_3_1_9_1_2a() {
        let mut state = game_played_by(&["Wizard", "Amazon"], |c| c.to_string());
        state.characters[0].dead = true;
        state.characters[1].dead = true;
        let events = died_of_wounds(&state);
        let wizard = death(data(), &state, &state.characters[0], &events).expect("a notice");
        assert!(
            wizard
                .next
                .iter()
                .any(|l| l.contains("`Spells: <the 2 spells")),
            "{:?}",
            wizard.next
        );
        let amazon = death(data(), &state, &state.characters[1], &events).expect("a notice");
        assert!(
            !amazon.next.iter().any(|l| l.contains("Spells:")),
            "{:?}",
            amazon.next
        );
    }

    fn line(state: &MrState, line: CombatLine) -> DayEvent {
        DayEvent {
            observers: Observers::Everyone,
            happening: Happening::Combat(CombatEvent::Line {
                clearing: state.characters[0].position.clone(),
                round: 2,
                line,
            }),
        }
    }

    fn killed_by(state: &MrState, by: &str) -> DayEvent {
        line(
            state,
            CombatLine::Killed {
                victim: "Amazon".into(),
                by: by.into(),
            },
        )
    }

    /// 3.1 8.7.2–8.7.3: the notice says where what she carried went, as
    /// the spoils rules sent it: to a character who killed her, to an
    /// unhired native group, or left where she fell to a monster.
    #[test]
    fn the_notice_says_where_her_belongings_went_3_1_8_7() {
        let mut state = game_played_by(&["Amazon", "Black Knight"], |c| c.to_string());
        state.characters[0].dead = true;
        let first = |events: &[DayEvent]| {
            death(data(), &state, &state.characters[0], events)
                .expect("a notice")
                .next
                .remove(0)
        };
        let by_a_character = [
            killed_by(&state, "Black Knight"),
            line(
                &state,
                CombatLine::Spoils {
                    character: "Black Knight".into(),
                    fame: 0,
                    notoriety: 0,
                    gold: 10,
                    items: vec!["Short Sword".into(), "Helmet".into()],
                },
            ),
        ];
        assert!(
            first(&by_a_character)
                .ends_with("What you carried went to the Black Knight: Short Sword, Helmet."),
            "{}",
            first(&by_a_character)
        );
        let by_natives = [killed_by(&state, "Bashkar 3")];
        assert!(
            first(&by_natives).ends_with("What you carried went to the Bashkars."),
            "{}",
            first(&by_natives)
        );
        let by_a_monster = [killed_by(&state, "Giant 1")];
        assert!(first(&by_a_monster).ends_with("All you carried lies where you fell."));
    }
}
