//! Magic Realm reports: golden player report, HTML, JSON document and GM
//! history; the orders form parses back; the known map shows only what the
//! character knows. Regenerate the golden files with
//! `REALMGM_UPDATE_GOLDEN=1 cargo test --test reports`.

use crate::report_support;
use realmgm::game::Turn;

use std::path::PathBuf;

use realmgm::game::{Game, Reader};
use realmgm::magic_realm::game::MagicRealm;
use report_support::{play, report};

const CHARACTERS: &[&str] = &["Amazon", "Black Knight", "Wizard", "Dwarf"];

fn golden(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/reports")
        .join(name);
    if std::env::var_os("REALMGM_UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}); run with REALMGM_UPDATE_GOLDEN=1 to write it",
            path.display()
        )
    });
    assert!(
        expected == actual,
        "{} differs from the report now rendered; if the change is wanted, run with \
         REALMGM_UPDATE_GOLDEN=1 and review the diff",
        path.display()
    );
}

#[test]
fn golden_player_report_html_and_gm_history() {
    let days = play(11, CHARACTERS, 3);
    let day = &days[2];
    let player = report(day, Reader::Player("P01"));
    golden("player_day3.txt", &player.text);
    golden("player_day3.html", player.html.as_deref().unwrap());
    let gm = report(day, Reader::Gm);
    golden("gm_day3.txt", &gm.text);
    assert_eq!(player.attachments.len(), 2);
    assert_eq!(player.attachments[0].0, "map-day-3.svg");
    assert_eq!(player.attachments[0].1, "image/svg+xml");
    let (name, mime, json) = &player.attachments[1];
    assert_eq!(
        (name.as_str(), mime.as_str()),
        ("report-day-3.json", "application/json")
    );
    // Pretty-printed here so that a change reads as a diff; mailed, it is compact.
    let document: serde_json::Value = serde_json::from_slice(json).unwrap();
    golden(
        "player_day3.json",
        &serde_json::to_string_pretty(&document).unwrap(),
    );
}

/// A day that begins with the GM's hand: a late player's
/// character enters, the GM rules a gift, a fame change and a character
/// replaced; read whole, once for a player the rulings concern, once for
/// the newcomer, and for the GM.
#[test]
fn golden_reports_of_a_day_of_rulings_and_a_late_joiner() {
    use realmgm::game::{AcceptedOrders, GmRuling, Rules, Seat};
    use std::collections::BTreeMap;
    let days = play(11, CHARACTERS, 1);
    let rules = Rules::default();
    let mut seats: Vec<Seat> = CHARACTERS
        .iter()
        .enumerate()
        .map(|(i, c)| Seat {
            player: report_support::player(i),
            role: Some((*c).to_string()),
        })
        .collect();
    seats.push(Seat {
        player: "P05".into(),
        role: Some("Elf".into()),
    });
    let state = MagicRealm
        .seats()
        .expect("Magic Realm takes late players")
        .admit(&days[0].state, &rules, &seats)
        .unwrap();
    let ruling = |text: &str, why: &str| GmRuling {
        text: text.into(),
        why: why.into(),
    };
    let state = MagicRealm
        .rule(
            &state,
            &rules,
            &[
                ruling("fame Amazon +2", "for rescuing the Inn's cat"),
                ruling("give Lost Keys to Amazon", "found in the lost and found"),
                ruling(
                    "replace Dwarf with Swordsman",
                    "the seat passed to a new player",
                ),
            ],
        )
        .unwrap();
    let orders: BTreeMap<String, AcceptedOrders> = (0..5)
        .map(|i| {
            let player = report_support::player(i);
            let accepted = MagicRealm
                .read_orders(&state, &rules, &player, "H, H")
                .unwrap();
            (player, accepted)
        })
        .collect();
    let turn = MagicRealm
        .resolve_turn(
            state.clone(),
            &Turn::new(&rules, &orders),
            &mut realmgm::dice::Dice::new(11, 2),
        )
        .unwrap()
        .done()
        .expect("the turn is resolved to its end");
    let day = report_support::PlayedDay {
        state: turn.state,
        events: turn.events,
        orders,
    };
    let amazon = report(&day, Reader::Player("P01"));
    let elf = report(&day, Reader::Player("P05"));
    let wizard = report(&day, Reader::Player("P03"));
    golden("player_rulings_day2.txt", &amazon.text);
    golden("newcomer_day2.txt", &elf.text);
    golden("gm_rulings_day2.txt", &report(&day, Reader::Gm).text);
    assert!(
        amazon
            .text
            .contains("GM ruling: the Amazon gains 2 fame (for rescuing the Inn's cat).")
    );
    assert!(
        !wizard.text.contains("Inn's cat"),
        "the Wizard's player is not concerned"
    );
    assert!(wizard.text.contains(
        "GM ruling: the Dwarf leaves the Realm and the Swordsman enters it at the Inn (the \
             seat passed to a new player)."
    ));
    assert!(
        elf.text
            .contains("The Elf (P05) enters the Realm at the Inn")
    );
    assert_eq!(elf.subject, "Day 2 report for the Elf");
}

/// The orders form at the end of a text report.
fn orders_form(text: &str) -> &str {
    let start = text
        .find("# Orders of the")
        .expect("the report ends with an orders form");
    &text[start..]
}

#[test]
fn the_orders_form_parses_and_keeps_the_standing_instructions() {
    let days = play(5, CHARACTERS, 2);
    let day = &days[1];
    let mut context = report_support::context(day);
    let standing = "Activities: M CV4, H\nSearch: peer; locate\nBuy: Shield up to 10\n\
                    Hire: Rogues up to 15\nDrinks: 2\nTake: Lantern, activate\n\
                    Block: everyone\nIf impossible: hide\n";
    let state = &day.state;
    let accepted = MagicRealm
        .read_orders(state, &Default::default(), "P02", standing)
        .unwrap();
    context
        .standing_orders
        .insert("P02".to_string(), accepted.canonical.clone());
    for i in 0..CHARACTERS.len() {
        let player = report_support::player(i);
        let report = MagicRealm
            .report(&day.state, &day.events, Reader::Player(&player), &context)
            .unwrap();
        let form = orders_form(&report.text);
        let read = MagicRealm
            .read_orders(state, &Default::default(), &player, form)
            .unwrap_or_else(|e| panic!("the form of {player} does not parse: {e:?}\n{form}"));
        // One Hide per phase he has: the Dwarf (no sunlight phases) and a
        // character in a cave get two, the others four.
        let mr: realmgm::magic_realm::state::MrState =
            serde_json::from_value(state.json().clone()).unwrap();
        let me = mr.characters.iter().find(|c| c.player == player).unwrap();
        let two = me.name == "Dwarf"
            || mr.board.clearing(&me.position).map(|c| c.kind)
                == Some(realmgm::magic_realm::data::tiles::ClearingKind::Cave);
        let expected = if two {
            "Activities: H / H\n"
        } else {
            "Activities: H / H / H / H\n"
        };
        assert!(read.canonical.starts_with(expected), "{player}: {form}");
        if player == "P02" {
            // Everything but the activities comes back as it was.
            let tail = |c: &str| c.lines().skip(1).collect::<Vec<_>>().join("\n");
            assert_eq!(tail(&read.canonical), tail(&accepted.canonical), "{form}");
            assert!(form.contains("Block: everyone"), "{form}");
        }
    }
}

#[test]
fn the_gm_history_has_the_secrets_and_the_full_map() {
    let days = play(11, CHARACTERS, 2);
    let gm = report(&days[1], Reader::Gm);
    assert!(gm.text.contains("== GM only: secrets =="));
    assert!(gm.text.contains("Face-down map chits:"));
    for character in CHARACTERS {
        assert!(
            gm.text.contains(&format!("\n  {character} (P0")),
            "{character}"
        );
    }
    let player = report(&days[1], Reader::Player("P01"));
    assert!(!player.text.contains("GM only"));
    let svg = String::from_utf8(gm.attachments[0].2.clone()).unwrap();
    // One ring per clearing with characters, a label per character.
    assert!(svg.matches("data-mark=").count() <= CHARACTERS.len());
    for character in CHARACTERS {
        assert!(
            svg.contains(&format!(">{character}</text>"))
                || svg.contains(&format!(">({character})</text>")),
            "{character}"
        );
    }
    assert!(gm.html.unwrap().contains("<svg"));
}

#[test]
fn a_campaign_template_changes_the_wording_and_errors_name_the_file() {
    use std::collections::BTreeMap;
    let days = play(11, CHARACTERS, 1);
    let mut context = report_support::context(&days[0]);
    context.templates = realmgm::report::Templates::with_overrides(BTreeMap::from([(
        "player_report.txt".to_string(),
        (
            "camp/player_report.txt".to_string(),
            "Hail, {{ sheet.character }}!\n".to_string(),
        ),
    )]))
    .unwrap();
    let state = &days[0].state;
    let report = MagicRealm
        .report(state, &days[0].events, Reader::Player("P01"), &context)
        .unwrap();
    assert_eq!(report.text, "Hail, Amazon!\n");
    context.templates = realmgm::report::Templates::with_overrides(BTreeMap::from([(
        "player_report.txt".to_string(),
        (
            "camp/player_report.txt".to_string(),
            "line\n{{ sheet.nonsense.deeper }}\n".to_string(),
        ),
    )]))
    .unwrap();
    let err = MagicRealm
        .report(state, &days[0].events, Reader::Player("P01"), &context)
        .unwrap_err();
    assert!(
        err.to_string().contains("camp/player_report.txt, line 2"),
        "{err}"
    );
}

#[test]
fn private_messages_and_the_season_reach_only_their_reader() {
    let days = play(11, CHARACTERS, 1);
    let mut context = report_support::context(&days[0]);
    context.season = Some("Autumn".to_string());
    context.messages.insert(
        "P02".to_string(),
        vec![realmgm::report::PrivateMessage {
            from: "Amazon".to_string(),
            text: "Meet me at the Inn <tonight>.".to_string(),
        }],
    );
    let state = &days[0].state;
    let render = |player: &str| {
        MagicRealm
            .report(state, &days[0].events, Reader::Player(player), &context)
            .unwrap()
    };
    let ben = render("P02");
    assert!(
        ben.text
            .contains("== Private messages ==\nFrom Amazon:\nMeet me at the Inn <tonight>.")
    );
    assert!(ben.text.contains("Season: Autumn"));
    let html = ben.html.unwrap();
    assert!(
        html.contains("Meet me at the Inn &lt;tonight&gt;."),
        "HTML is escaped"
    );
    let ann = render("P01");
    assert!(!ann.text.contains("Meet me"));
    assert!(ann.text.contains("Season: Autumn"));
}

/// Reports never call a character "he" (the Amazon, the Witch
/// and the Woods Girl are women): a month of three seeds with only them,
/// every player's report read line by line.
#[test]
fn a_month_of_day_logs_puts_every_roll_under_its_phase() {
    let days = play(2, &["Witch", "Elf", "Dwarf", "White Knight"], 28);
    let mut rolls = 0;
    for day in &days {
        let text = report(day, Reader::Gm).text;
        let mut numbered = false;
        for line in text.lines() {
            // A heading (a turn, the day, Midnight) ends any phase.
            if !line.starts_with(' ') {
                numbered = false;
            }
            let bytes = line.as_bytes();
            if line.starts_with("  ") && bytes.get(2).is_some_and(u8::is_ascii_digit) {
                numbered = true;
            }
            if line.contains(": dice ") && !line.contains("round") {
                rolls += 1;
                assert!(
                    numbered && line.starts_with("    "),
                    "a roll not under its phase: {line:?}\n{text}"
                );
            }
        }
    }
    assert!(rolls > 20, "the month rolls on the tables ({rolls})");
}

#[test]
fn reports_of_a_month_count_in_words_not_with_plural_marks() {
    let days = play(1, &["Swordsman", "Amazon", "Black Knight", "Captain"], 28);
    let mut wrong = std::collections::BTreeSet::new();
    for day in &days {
        for reader in (0..4).map(report_support::player).map(Some).chain([None]) {
            let reader = reader.as_deref().map_or(Reader::Gm, Reader::Player);
            let text = report(day, reader).text;
            wrong.extend(
                text.lines()
                    .filter(|l| l.contains("(s)") || l.contains(" 1 things"))
                    .map(|l| l.trim().to_string()),
            );
        }
    }
    assert!(wrong.is_empty(), "lines with a plural mark: {wrong:#?}");
}

#[test]
fn reports_of_a_month_never_call_the_women_he() {
    let mut wrong = std::collections::BTreeSet::new();
    for seed in [1u64, 2, 3] {
        let days = play(seed, &["Amazon", "Witch", "Woods Girl"], 28);
        for day in &days {
            for i in 0..3 {
                let text = report(day, Reader::Player(&report_support::player(i))).text;
                for line in text.lines() {
                    let words = format!(
                        " {} ",
                        line.to_lowercase()
                            .replace(['.', ',', ';', ':', '(', ')'], " ")
                    );
                    if [" he ", " his ", " him ", " himself "]
                        .iter()
                        .any(|w| words.contains(w))
                    {
                        wrong.insert(line.trim().to_string());
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "lines calling a woman he: {wrong:#?}");
}
