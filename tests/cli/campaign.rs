//! `realmgm campaign new/show/list/edit` run as the GM runs them, against a
//! database file in the temporary folder.

use crate::common;

use std::path::Path;

use common::{TempDb, realmgm, stderr, stdout, store_demo_campaign};
use realmgm::campaign::Campaign;
use realmgm::game::ToggleStatus;

#[test]
fn new_then_show_gives_back_the_file() {
    let db = TempDb::new("roundtrip");
    let file = "campaigns/bimr3.toml";
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
    let campaign = Campaign::parse(file, &text, realmgm::games::GAMES).unwrap();

    let created = stdout(&realmgm(&["campaign", "new", file], &db.0));
    assert!(
        created.starts_with("Stored campaign BIMR3 (magic-realm, 5 players)"),
        "{created}"
    );
    for player in &campaign.players {
        let line = format!("  {} <{}>: ", player.name, player.email);
        assert!(
            created.contains(&line),
            "no secret line for {}: {created}",
            player.name
        );
    }

    let shown = stdout(&realmgm(&["campaign", "show", "bimr3"], &db.0));
    assert!(shown.starts_with("Campaign BIMR3: Beginning/Intermediate Magic Realm 3\n"));
    assert!(
        shown.contains(&format!("Seed:      {}\n", campaign.seed)),
        "{shown}"
    );
    assert!(
        shown.contains("GM:        Game Master <gm@example.org>\n"),
        "{shown}"
    );
    for player in &campaign.players {
        assert!(shown.contains(&format!(
            "  {} <{}>: not chosen\n",
            player.name, player.email
        )));
    }
    for line in campaign.schedule_lines(realmgm::games::GAMES) {
        assert!(shown.contains(&format!("  {line}\n")), "{line}");
    }
    for toggle in campaign
        .toggles_on(realmgm::games::GAMES)
        .expect("known toggles")
    {
        let marked = format!("  {} (not yet implemented)\n", toggle.name);
        let unbuilt = toggle.status == ToggleStatus::NotYetImplemented;
        assert_eq!(shown.contains(&marked), unbuilt, "{}", toggle.name);
    }
    assert!(shown.contains("starting in Autumn"), "{shown}");
    assert!(
        shown.contains(
            "Pages:     public: what every player learns; built by `realmgm site build`\n"
        ),
        "{shown}"
    );

    let listed = stdout(&realmgm(
        &["campaign", "list", "--db", db.0.to_str().unwrap()],
        &db.0,
    ));
    assert!(listed.starts_with("BIMR3 "), "{listed}");
    assert!(listed.contains("5 players, not started"), "{listed}");
}

#[test]
fn a_second_campaign_of_the_same_name_is_refused() {
    let db = TempDb::new("duplicate");
    stdout(&realmgm(
        &["campaign", "new", "campaigns/standard.toml"],
        &db.0,
    ));
    let err = stderr(&realmgm(
        &["campaign", "new", "campaigns/standard.toml"],
        &db.0,
    ));
    assert!(
        err.contains("a campaign named MR1 is already stored"),
        "{err}"
    );
    assert!(err.contains("realmgm campaign show MR1"), "{err}");
}

#[test]
fn a_broken_file_is_refused_naming_its_line() {
    let db = TempDb::new("broken");
    let dir = std::env::temp_dir().join(format!("realmgm-cli-{}-broken", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let standard = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns/standard.toml"),
    )
    .unwrap();
    let broken = dir.join("broken.toml");
    std::fs::write(
        &broken,
        standard.replace("rules = []", r#"rules = ["fumbel"]"#),
    )
    .unwrap();
    let err = stderr(&realmgm(
        &["campaign", "new", broken.to_str().unwrap()],
        &db.0,
    ));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        err.contains("broken.toml: line 11: field `rules[0]`"),
        "{err}"
    );
    assert!(err.contains("did you mean fumble"), "{err}");
    assert!(!db.0.exists(), "nothing should be stored for a broken file");
}

/// What Combining Realms cannot be played with yet is refused when the file
/// is stored, not at its first deadline (3.1 10.E.7).
#[test]
fn campaign_new_refuses_what_two_realms_do_not_offer_yet_3_1_10_e_7() {
    let magenta = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns/magenta.toml"),
    )
    .unwrap();
    assert!(
        magenta.contains("\"combined_realms\""),
        "Magenta combines Realms"
    );
    Campaign::parse("magenta.toml", &magenta, realmgm::games::GAMES).unwrap();
    let by_mail = magenta.replace(
        "maildir_out = \"mail/MAGENTA/out\"\n",
        "maildir_out = \"mail/MAGENTA/out\"\nsetup_by_mail = true\n",
    );
    let with_rule = |rule: &str| {
        magenta.replace(
            "    \"combined_realms\",\n",
            &format!("    \"combined_realms\",\n    \"{rule}\",\n"),
        )
    };
    for (text, refused) in [
        (
            by_mail.clone(),
            "setup by mail is not implemented yet with Combining Realms",
        ),
        (
            with_rule("solitaire"),
            "Solitaire Play (3.1 10.E.1) is not implemented yet with Combining Realms",
        ),
        (
            with_rule("player_built_board"),
            "a board the players build is not implemented yet with Combining Realms",
        ),
    ] {
        assert_ne!(text, magenta);
        let err = Campaign::parse("magenta.toml", &text, realmgm::games::GAMES)
            .unwrap_err()
            .to_string();
        assert!(err.contains("field `rules`"), "{err}");
        assert!(err.contains(refused), "{err}");
    }
    // The same refusal from the command a GM runs, and nothing stored.
    let db = TempDb::new("combined");
    let dir = std::env::temp_dir().join(format!("realmgm-cli-{}-combined", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("magenta.toml");
    std::fs::write(&file, &by_mail).unwrap();
    let err = stderr(&realmgm(
        &["campaign", "new", file.to_str().unwrap()],
        &db.0,
    ));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        err.contains("set setup_by_mail = false and name each player's character"),
        "{err}"
    );
    assert!(
        !db.0.exists(),
        "nothing should be stored for a refused file"
    );
}

#[test]
fn show_without_a_database_says_how_to_make_one() {
    let db = TempDb::new("missing");
    let err = stderr(&realmgm(&["campaign", "show", "MR1"], &db.0));
    assert!(err.contains("there is no database at"), "{err}");
    assert!(err.contains("realmgm campaign new FILE"), "{err}");
    stdout(&realmgm(
        &["campaign", "new", "campaigns/standard.toml"],
        &db.0,
    ));
    let err = stderr(&realmgm(&["campaign", "show", "MR2"], &db.0));
    assert!(err.contains("no campaign named MR2"), "{err}");
}

#[test]
fn the_fantasy_realms_campaign_is_stored() {
    let db = TempDb::new("fantasy");
    let created = stdout(&realmgm(
        &["campaign", "new", "campaigns/fantasy-realms.toml"],
        &db.0,
    ));
    assert!(
        created.starts_with("Stored campaign FR1 (fantasy-realms, 4 players)"),
        "{created}"
    );
}

#[test]
fn an_edited_file_applies_its_schedule_and_refuses_a_rule_once_the_game_has_begun() {
    let db = TempDb::new("edit");
    store_demo_campaign(&db, "ED");
    let original = std::fs::read_to_string(db.dir().join("ED.toml")).unwrap();
    let edited = db.dir().join("edited.toml");
    std::fs::write(
        &edited,
        original.replacen("every_hours = 24", "every_hours = 48", 1),
    )
    .unwrap();
    let edited = edited.to_str().unwrap();
    let dry = stdout(&realmgm(
        &["campaign", "edit", "ed", edited, "--dry-run"],
        &db.0,
    ));
    assert!(
        dry.contains("  schedule.every_hours: 24 -> 48\n    applies"),
        "{dry}"
    );
    assert!(!dry.contains("Stored"), "{dry}");
    let done = stdout(&realmgm(&["campaign", "edit", "ed", edited], &db.0));
    assert!(
        done.contains("    applies\nStored: 1 change applies"),
        "{done}"
    );
    let again = stdout(&realmgm(&["campaign", "edit", "ed", edited], &db.0));
    assert_eq!(again.trim(), "The file changes nothing in campaign ED.");
    // Once day 0 is stored, a rule toggle would change the days played.
    stdout(&realmgm(&["daemon", "--once", "--campaign", "ED"], &db.0));
    let ruled = db.dir().join("ruled.toml");
    std::fs::write(
        &ruled,
        original.replacen("rules = []", "rules = [\"optional_missile_table\"]", 1),
    )
    .unwrap();
    let refused = stderr(&realmgm(
        &["campaign", "edit", "ED", ruled.to_str().unwrap()],
        &db.0,
    ));
    assert!(refused.contains("  rules: [] -> [\"optional_missile_table\"]\n    REFUSED: it would change days already played"), "{refused}");
    assert!(refused.contains("Nothing was stored"), "{refused}");
}

#[test]
fn a_backup_holds_every_campaign_and_never_overwrites_a_file() {
    let db = TempDb::new("backup");
    store_demo_campaign(&db, "BK");
    let copy = db.dir().join("copy.sqlite");
    let copy = copy.to_str().unwrap();
    let done = stdout(&realmgm(&["backup", copy], &db.0));
    assert!(done.contains("1 campaign)"), "{done}");
    let listed = stdout(&realmgm(&["campaign", "list", "--db", copy], &db.0));
    assert!(listed.contains("BK"), "{listed}");
    let again = stderr(&realmgm(&["backup", copy], &db.0));
    assert!(again.contains("exists already"), "{again}");
}

#[test]
fn new_and_edit_refuse_a_folder_climbing_out_of_the_databases_folder() {
    let db = TempDb::new("climb");
    store_demo_campaign(&db, "UP");
    let original = std::fs::read_to_string(db.dir().join("UP.toml")).unwrap();
    let write = |file: &str, text: String| {
        let path = db.dir().join(file);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    for (setting, key, inside, path) in [
        ("site.out", "out", "site", "../../www"),
        (
            "mail.maildir_in",
            "maildir_in",
            "mail/DEMO/in",
            "../elsewhere/in",
        ),
    ] {
        let climbing = original.replacen(
            &format!("{key} = \"{inside}\""),
            &format!("{key} = \"{path}\""),
            1,
        );
        let new = write(
            "new.toml",
            climbing.replacen("name = \"UP\"", "name = \"UP2\"", 1),
        );
        let edit = write("edit.toml", climbing);
        let refusals = [
            stderr(&realmgm(&["campaign", "new", &new], &db.0)),
            stderr(&realmgm(&["campaign", "edit", "UP", &edit], &db.0)),
        ];
        for err in refusals {
            assert!(err.contains(&format!("field `{setting}`")), "{err}");
            assert!(
                err.contains(&format!("'{path}' leaves the database's folder")),
                "{err}"
            );
            assert!(err.contains("give an absolute path"), "{err}");
        }
    }
    assert!(!db.dir().parent().unwrap().join("elsewhere").exists());
    let listed = stdout(&realmgm(&["campaign", "list"], &db.0));
    assert!(!listed.contains("UP2"), "{listed}");
    // An absolute folder is the GM's explicit choice.
    let outside = db.dir().join("pages");
    let absolute = write(
        "absolute.toml",
        original.replacen(
            "out = \"site\"",
            &format!("out = \"{}\"", outside.display()),
            1,
        ),
    );
    let done = stdout(&realmgm(&["campaign", "edit", "UP", &absolute], &db.0));
    assert!(done.contains("site.out: site -> "), "{done}");
    assert!(done.contains("Stored: 1 change applies"), "{done}");
}

/// A campaign with `combined_realms` seats a second game's character as
/// `Amazon II` and is stored (3.1 10.E.7.4.2).
#[test]
fn a_combined_realms_campaign_seats_a_second_games_character() {
    let db = TempDb::new("combined");
    let dir = std::env::temp_dir().join(format!("realmgm-cli-{}-combined", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let standard = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns/standard.toml"),
    )
    .unwrap();
    let combined = dir.join("combined.toml");
    std::fs::write(
        &combined,
        standard
            .replace("rules = []", r#"rules = ["combined_realms"]"#)
            .replace(r#"character = "Amazon""#, r#"character = "Amazon II""#)
            .replace("setup_by_mail = true", "setup_by_mail = false")
            .replace(
                r#"email = "dave@example.org""#,
                "email = \"dave@example.org\"\ncharacter = \"Wizard\"",
            ),
    )
    .unwrap();
    let out = realmgm(&["campaign", "new", combined.to_str().unwrap()], &db.0);
    let _ = std::fs::remove_dir_all(&dir);
    let created = stdout(&out);
    assert!(created.starts_with("Stored campaign MR1"), "{created}");
}
