//! Tests of the day log as players read it: a played day's phase details
//! stand under their own phase, every line others see names who acted,
//! and a hidden character's hire is seen only by those who can see him.

use super::events::{DayEvent, Happening};
use super::log::gm_log;
use super::tests::{game, place, play};
use crate::board::ClearingId;
use crate::data::terms::Dwelling;
use crate::state::{MrState, Whereabouts};
use crate::test_support::{data, script};
use realmgm_core::game::Observers;

/// The Swordsman (P1), the Amazon (P2) and the Black Knight (P3) at the
/// Inn with the Rogues; the Black Knight has found hidden enemies.
fn at_the_inn() -> (MrState, ClearingId) {
    let mut state = game(&["Swordsman", "Amazon", "Black Knight"]);
    let inn = state.dwellings[&Dwelling::Inn].clone();
    for who in 0..3 {
        place(&mut state, who, &inn);
    }
    state.characters[0].gold = 20;
    state.characters[2].found_hidden_enemies = true;
    let rogues = data().natives.iter().find(|g| g.name == "Rogues").unwrap();
    for member in &rogues.members {
        state.denizens.get_mut(&member.name).unwrap().at = Whereabouts::Clearing {
            clearing: inn.clone(),
        };
    }
    (state, inn)
}

/// The day of the Swordsman hiding (or resting), searching and hiring a
/// Rogue, the others resting beside him.
fn swordsman_day(first: &str) -> Vec<DayEvent> {
    let (state, _) = at_the_inn();
    let swordsman = format!("{first}, S, HR\nSearch: locate\nHire: Rogues");
    let forced = script(&[
        ("daylight/hide", &[1, 1]),
        ("search", &[6, 4]),
        ("meeting", &[2, 2]),
    ]);
    let (_, events) = play(
        state,
        &[("P1", &swordsman), ("P2", "R, R"), ("P3", "R, R")],
        forced,
    );
    events
}

/// The day log `player` reads under "Your day" (the combat has its own).
fn log_of(events: &[DayEvent], player: &str) -> String {
    let seen: Vec<DayEvent> = events
        .iter()
        .filter(|e| !matches!(e.happening, Happening::Combat(_)))
        .filter(|e| match &e.observers {
            Observers::Players(players) => players.contains(player),
            Observers::Everyone => true,
            Observers::Gm => false,
        })
        .cloned()
        .collect();
    // As his report prints it: without the rules' citations.
    super::log::day_log(&seen, super::log::Citations::Hidden)
}

/// The lines of `character`'s turn in `log`, from its heading to its end.
fn turn_of<'a>(log: &'a str, character: &str) -> Vec<&'a str> {
    let heading = format!("{character} in ");
    log.lines()
        .skip_while(|l| !l.starts_with(&heading))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .collect()
}

/// Where the numbered line of phase `number` stands among `lines`.
fn phase_line(lines: &[&str], number: usize) -> usize {
    let start = format!("  {number}. ");
    lines
        .iter()
        .position(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("no phase {number} in {lines:#?}"))
}

#[test]
fn each_phase_s_details_stand_under_its_own_line_one_step_deeper() {
    let events = swordsman_day("H");
    let log = gm_log(&events);
    let turn = turn_of(&log, "Swordsman");
    let (hide, search, hire) = (
        phase_line(&turn, 1),
        phase_line(&turn, 2),
        phase_line(&turn, 3),
    );
    assert!(turn[hide].contains("H: hides (1,1)"), "{log}");
    // Every line after the first numbered line, down to the end of the
    // turn, is a numbered line or the detail of the one above it.
    let end = turn
        .iter()
        .position(|l| l.starts_with("  The Swordsman ends in"))
        .expect("the turn ends");
    for (at, line) in turn.iter().enumerate().take(end).skip(hide + 1) {
        if at != search && at != hire {
            assert!(
                line.starts_with("    "),
                "not under its phase: {line:?}\n{log}"
            );
        }
    }
    let where_is = |text: &str| {
        turn.iter()
            .position(|l| l.contains(text))
            .unwrap_or_else(|| panic!("no {text:?} in\n{log}"))
    };
    let locate = where_is("Locate");
    assert!(
        search < locate && locate < hire,
        "the roll under 2. S:\n{log}"
    );
    let meets = where_is("The Swordsman meets the Rogues");
    assert!(
        turn[meets].ends_with("row 2: price ×2. [3.1 7.7.1]"),
        "{}",
        turn[meets]
    );
    let hires = where_is("The Swordsman hires Rogue 7");
    assert!(
        hire < meets && meets < hires,
        "the deal under 3. HR:\n{log}"
    );
}

#[test]
fn a_hidden_character_s_hire_is_seen_only_by_those_who_see_hidden_ones() {
    // 3.1 rules 7.4.4 and 7.6.3: he stays hidden as he hires.
    let events = swordsman_day("H");
    let amazon = log_of(&events, "P2");
    assert!(
        !amazon.contains("Rogue") && !amazon.contains("The Swordsman"),
        "the Amazon cannot see the hidden Swordsman hire:\n{amazon}"
    );
    let knight = log_of(&events, "P3");
    assert!(
        knight.contains("The Swordsman meets the Rogues")
            && knight.contains("The Swordsman hires Rogue 7 for"),
        "the Black Knight found hidden enemies and sees it:\n{knight}"
    );

    // Unhidden, he is seen by all in the clearing, by name.
    let events = swordsman_day("R");
    let amazon = log_of(&events, "P2");
    assert!(
        amazon.contains("The Swordsman meets the Rogues")
            && amazon.contains("The Swordsman hires Rogue 7 for"),
        "{amazon}"
    );
    for line in amazon.lines().filter(|l| l.contains("Rogue")) {
        assert!(
            line.contains("Swordsman"),
            "a line without its actor: {line}"
        );
    }
}

#[test]
fn no_orders_are_said_once_at_the_top_of_the_day_not_inside_a_phase() {
    let (state, _) = at_the_inn();
    let (_, events) = play(
        state,
        &[("P1", "R"), ("P2", "H / H / H / H (No orders received.)")],
        script(&[("daylight/hide", &[1, 1])]),
    );
    let log = log_of(&events, "P2");
    let turn = turn_of(&log, "Amazon");
    assert_eq!(
        turn[..2],
        [
            "  No orders received: the day is spent hiding.",
            "  Recorded: H / H / H / H"
        ],
        "{log}"
    );
    assert_eq!(log.matches("No orders").count(), 1, "{log}");
    assert_eq!(turn[5], "  4. H: is already hidden", "{log}");
}

/// The GM's log names after each Birdsong, Daylight, hire and arrival
/// line the 3.1 section it applied (the monster roll 6.3.3, the Hide
/// activity 7.4.1, the Hire activity's Meeting roll 7.7.1, the end of a
/// turn 7.13.2); a player's log does not unless the campaign asks.
#[test]
fn day_events_cite_their_3_1_section_in_the_gm_log() {
    let events = swordsman_day("H");
    let log = gm_log(&events);
    for cited in [
        "prowling. [3.1 6.3.3]",
        "H: hides (1,1) [3.1 7.4.1]",
        "row 2: price ×2. [3.1 7.7.1]",
        "Nothing arrives in the Swordsman's clearing. [3.1 7.13.2]",
    ] {
        assert!(log.contains(cited), "no {cited:?} in\n{log}");
    }
    let player = log_of(&events, "P3");
    assert!(!player.contains("[3.1"), "{player}");
}

/// The GM's log names, after every combat and magic line, the 3.1 section
/// it applied; a player's log does so only when the campaign asks for it;
/// a roll stored before rolls named their section is left uncited.
#[test]
fn combat_and_magic_lines_cite_the_section_of_3_1_they_applied() {
    use super::events::CombatEvent;
    use super::log::{Citations, day_log};
    use crate::combat::log::CombatLine;
    use crate::magic::events::MagicEvent;
    let clearing = ClearingId::new("Cavern", 2);
    let combat = |line| DayEvent {
        observers: Observers::Everyone,
        happening: Happening::Combat(CombatEvent::Line {
            clearing: clearing.clone(),
            round: 1,
            line,
        }),
    };
    let stored_roll: CombatLine = serde_json::from_str(
        r#"{"line":"roll","record":{"day":1,"purpose":"combat/x","faces":[3],"result":3,"forced":false},
            "meaning":"assigns Wolf 1 counting round Amazon"}"#,
    )
    .unwrap();
    let events = vec![
        combat(CombatLine::Fatigued {
            character: "Amazon".into(),
            chit: "FIGHT M4*".into(),
        }),
        combat(CombatLine::ArmorDamaged {
            character: "Amazon".into(),
            armor: "Helmet".into(),
            destroyed: true,
        }),
        combat(stored_roll),
        DayEvent {
            observers: Observers::Everyone,
            happening: Happening::Magic(MagicEvent::ChitEnchanted {
                character: "Wizard".into(),
                chit: "MAGIC III2*".into(),
                colour: crate::data::terms::Colour::Purple,
            }),
        },
    ];
    let gm = gm_log(&events);
    assert!(gm.contains("fatigues FIGHT M4*. [3.1 8.5.1]\n"), "{gm}");
    assert!(gm.contains("Helmet is destroyed. [3.1 8.4.9k]\n"), "{gm}");
    assert!(gm.contains("into purple magic [3.1 7.10.3]"), "{gm}");
    assert!(gm.contains("counting round Amazon.\n"), "{gm}");
    assert_eq!(gm.matches("[3.1 ").count(), 3, "{gm}");
    assert_eq!(day_log(&events, Citations::Shown), gm);
    let player = day_log(&events, Citations::Hidden);
    assert!(!player.contains("[3.1"), "{player}");
    assert!(player.contains("fatigues FIGHT M4*.\n"), "{player}");
}
