use super::*;

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
