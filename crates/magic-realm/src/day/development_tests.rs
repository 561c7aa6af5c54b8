//! A `Develop:` line checked as the daemon checks a mail (3.1 10.E.5.4).

use crate::development::DEVELOPMENT;
use crate::rules::TOGGLES;
use crate::setup::development::start_at;
use crate::test_support::{data, test_game};
use realmgm_core::game::Rules;

fn problems(text: &str, level: Option<u8>) -> Vec<String> {
    let mut state = test_game(&["Amazon"]);
    if let Some(level) = level {
        let rules = Rules::new([DEVELOPMENT], TOGGLES).expect("known toggle");
        start_at(data(), &rules, &mut state.characters[0], level).expect("starts");
    }
    let player = state.characters[0].player.clone();
    let orders = crate::orders::parse_day_orders(text, 1, data()).expect("parses");
    crate::orders::mail_check::problems(data(), Some(&state), &player, &orders, text)
        .0
        .into_iter()
        .map(|p| format!("{}: {}", p.line, p.message))
        .collect()
}

/// A `Develop:` line names chits of the levels still to come as printed;
/// another name, or the line from a character not developing, is refused
/// on its line with what to write (3.1 10.E.5.4).
#[test]
fn a_develop_line_names_chits_of_the_levels_to_come_3_1_10_e_5_4() {
    assert!(problems("R\nDevelop: fight m5; MOVE M4", Some(1)).is_empty());
    let wrong = problems("R\nDevelop: FIGHT L4", Some(1));
    assert!(
        wrong.len() == 1
            && wrong[0].starts_with("2: Develop: 'FIGHT L4' is not one of the Amazon's chits")
            && wrong[0].contains("MOVE M4, FIGHT M5"),
        "{wrong:?}"
    );
    let off = problems("R\nDevelop: FIGHT M5", None);
    assert!(
        off.len() == 1 && off[0].contains("is not developing"),
        "{off:?}"
    );
}
