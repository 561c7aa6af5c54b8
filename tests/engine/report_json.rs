//! The players' JSON reports against their schema (`schemas/report-v1.schema.json`):
//! a real document validates, and one with a wrong field, an unknown field,
//! a missing field or the other game's part does not, so the month-long
//! checks in `report_leaks.rs` and `fantasy_game.rs` can fail.

use crate::report_support::{play, report, report_json, report_schema, schema_errors};

use realmgm::game::Reader;

#[test]
fn a_document_with_a_wrong_field_fails_validation() {
    let schema = report_schema();
    let days = play(5, &["Amazon", "Wizard"], 2);
    let document = report_json(&report(&days[1], Reader::Player("P01")));
    assert_eq!(schema_errors(&schema, &document), "");
    assert_eq!(document["game"], "magic-realm");
    assert_eq!(document["day"], 2);
    assert_eq!(document["magic_realm"]["sheet"]["character"], "Amazon");

    let broken = |change: &dyn Fn(&mut serde_json::Value)| {
        let mut copy = document.clone();
        change(&mut copy);
        schema_errors(&schema, &copy)
    };
    let wrong_type = broken(&|d| d["magic_realm"]["sheet"]["gold"] = "lots".into());
    assert!(
        wrong_type.contains("/magic_realm/sheet/gold"),
        "{wrong_type}"
    );
    let unknown = broken(&|d| d["magic_realm"]["sheet"]["secret_gold"] = 3.into());
    assert!(unknown.contains("secret_gold"), "{unknown}");
    let missing = broken(&|d| {
        d["magic_realm"]
            .as_object_mut()
            .unwrap()
            .remove("orders_form");
    });
    assert!(missing.contains("orders_form"), "{missing}");
    let newer = broken(&|d| d["schema_version"] = 2.into());
    assert!(!newer.is_empty());
    let other_game = broken(&|d| d["game"] = "fantasy-realms".into());
    assert!(!other_game.is_empty());
}

#[test]
fn the_document_holds_the_sheet_map_and_form_the_text_shows() {
    let days = play(5, &["Amazon", "Wizard"], 2);
    let report = report(&days[1], Reader::Player("P02"));
    let document = report_json(&report);
    let part = &document["magic_realm"];
    let position = part["sheet"]["position"].as_str().unwrap();
    assert!(report.text.contains(&format!("At {position}, ")));
    assert_eq!(part["map"]["position"], position);
    let tiles = part["map"]["tiles"].as_array().unwrap();
    assert!(
        tiles
            .iter()
            .any(|t| position.starts_with(t["code"].as_str().unwrap())),
        "his own tile is on his map"
    );
    assert!(!part["map"]["paths"].as_array().unwrap().is_empty());
    let activities = part["orders_form"]["activities"].as_str().unwrap();
    assert!(report.text.contains(&format!("Activities: {activities}")));
    assert!(!part["events"].as_array().unwrap().is_empty());
    let name = realmgm::report_document::file_name(2);
    assert!(report.attachments.iter().any(|(n, _, _)| *n == name));
}
