use super::*;
use realmgm_core::page;

fn settings(publish: Publish, delay_days: Option<u32>) -> SiteSettings {
    SiteSettings {
        publish,
        delay_days,
        ..SiteSettings::default()
    }
}

#[test]
fn each_setting_discloses_a_day_as_the_readme_says() {
    use Disclosure::{Everything, Public, Record};
    let public = settings(Publish::Public, None);
    let delayed = settings(Publish::Delayed, Some(3));
    let end = settings(Publish::End, None);
    // (setting, day, latest, over) → disclosure
    let cases = [
        (&public, 1, 10, false, Public),
        (&public, 1, 28, true, Public),
        (&delayed, 7, 10, false, Record),
        (&delayed, 8, 10, false, Public),
        (&delayed, 10, 10, false, Public),
        (&delayed, 28, 28, true, Everything),
        (&end, 1, 27, false, Public),
        (&end, 1, 28, true, Everything),
    ];
    for (setting, day, latest, over, expected) in cases {
        assert_eq!(
            disclosure(setting, day, latest, over),
            expected,
            "{:?} day {day} of {latest}, over {over}",
            setting.publish
        );
    }
}

#[test]
fn names_become_file_names_and_times_the_feeds_format() {
    assert_eq!(slug("Black Knight"), "black-knight");
    assert_eq!(slug("great treasures"), "great-treasures");
    assert_eq!(character_file("Woods Girl"), "character-woods-girl.html");
    assert_eq!(day_file(7), "day-007.html");
    // 2030-01-01 20:00:05 UTC
    assert_eq!(rfc3339(1_893_528_005), "2030-01-01T20:00:05Z");
}

/// A one-day site of the demo campaign whose day shows `blocks`, the
/// standings naming `characters`.
fn one_day(blocks: Vec<Block>, characters: &[&str]) -> Site {
    let campaign = Campaign::parse(
        "demo.toml",
        include_str!("../../../../campaigns/demo.toml"),
        crate::TEST_GAMES,
    )
    .unwrap();
    let standings: Vec<Standing> = characters
        .iter()
        .map(|c| Standing {
            character: (*c).to_string(),
            player: "P".into(),
            dead: false,
            values: vec![page::Measure {
                name: "fame".into(),
                value: 3,
            }],
        })
        .collect();
    Site {
        settings: SiteSettings::default(),
        templates: Templates::built_in(),
        rules: Vec::new(),
        calendar: vec!["Day 1 is the latest day played.".into()],
        over: false,
        days: vec![DayPage {
            day: 1,
            disclosure: Disclosure::Record,
            shown_since: 0,
            announcements: vec!["Hear <this> & that".into()],
            narrative: None,
            page: SiteDay {
                sections: vec![page::Section {
                    title: "Daylight".into(),
                    blocks,
                }],
                standings,
                ..SiteDay::default()
            },
        }],
        paged: characters.iter().map(|c| (*c).to_string()).collect(),
        fingerprint: "f".into(),
        campaign,
    }
}

fn block(character: &str) -> Block {
    Block {
        character: Some(character.into()),
        heading: Some(format!("{character} in CV4 (4 phases)")),
        lines: vec!["Recorded: H".into()],
    }
}

#[test]
fn a_hired_leaders_record_links_to_no_page_and_text_is_escaped() {
    let site = one_day(vec![block("Captain"), block("Lancer leader")], &["Captain"]);
    let files = site.render().unwrap();
    let day = String::from_utf8(files["day-001.html"].clone()).unwrap();
    assert!(day.contains("<a href=\"character-captain.html\">Captain in CV4"));
    assert!(
        day.contains("<h3>Lancer leader in CV4 (4 phases)</h3>"),
        "{day}"
    );
    assert!(!files.contains_key("character-lancer-leader.html"));
    assert!(
        day.contains("Hear &lt;this&gt; &amp; that"),
        "the GM's words are escaped"
    );
    let journey = String::from_utf8(files["character-captain.html"].clone()).unwrap();
    assert!(journey.contains("Recorded: H") && !journey.contains("Lancer leader"));
}
