//! Tests of campaign parsing: the shipped files load, and every kind of
//! mistake names the file, the line and the field.

use super::*;

const STANDARD: &str = include_str!("../../../../campaigns/standard.toml");
const BIMR3: &str = include_str!("../../../../campaigns/bimr3.toml");

const MINIMAL: &str = r#"name = "T1"
game = "magic-realm"
seed = 7
rules = ["fumble"]

[gm]
email = "gm@example.org"

[schedule]
first_deadline = "2025-01-01"
at = "18:30"
every_hours = 24

[[players]]
name = "Ann"
email = "ann@example.org"

[[players]]
name = "Ben"
email = "ben@example.org"
character = "Amazon"
"#;

fn parse(text: &str) -> Result<Campaign, DataError> {
    Campaign::parse("test.toml", text, crate::TEST_GAMES)
}

/// MINIMAL with `from` replaced by `to`, checking that the text was there.
fn edited(from: &str, to: &str) -> String {
    assert!(MINIMAL.contains(from), "MINIMAL has no {from:?}");
    MINIMAL.replacen(from, to, 1)
}

fn error(text: &str) -> DataError {
    parse(text).expect_err("the file should be refused")
}

#[test]
fn shipped_standard_campaign_loads() {
    let campaign = Campaign::parse("campaigns/standard.toml", STANDARD, crate::TEST_GAMES).unwrap();
    assert_eq!(campaign.game, "magic-realm");
    assert_eq!(campaign.rules.names().count(), 0);
    assert_eq!(campaign.players.len(), 4);
    assert!(
        campaign
            .players
            .iter()
            .all(|p| p.email.as_str().ends_with("@example.org"))
    );
    assert_eq!(campaign.players[3].character, None);
    let calendar = campaign.calendar.unwrap();
    assert_eq!((calendar.months, calendar.start_season), (1, None));
}

#[test]
fn shipped_bimr3_campaign_has_the_seed_003_rules() {
    let campaign = Campaign::parse("campaigns/bimr3.toml", BIMR3, crate::TEST_GAMES).unwrap();
    assert_eq!(campaign.name, "BIMR3");
    let on: Vec<&str> = campaign.rules.names().collect();
    assert_eq!(
        on,
        [
            "expanded_meeting_table_opportunities",
            "extended_treachery",
            "knights_adjustment",
            "player_built_board",
            "seasons_and_weather",
            "unlimited_communication",
            "watchful_natives",
        ]
    );
    assert_eq!(
        campaign.calendar.unwrap().start_season.as_deref(),
        Some("Autumn")
    );
    assert_eq!(campaign.schedule.nmr, NmrPolicy::Hide);
    assert_eq!(campaign.schedule.every_hours, 48);
    assert!(campaign.players.iter().all(|p| p.character.is_none()));
}

#[test]
fn minimal_file_gets_defaults() {
    let campaign = parse(MINIMAL).unwrap();
    assert_eq!(campaign.schedule.nmr, NmrPolicy::Hide);
    assert_eq!(campaign.schedule.process_early_after_minutes, None);
    assert_eq!(
        campaign.calendar,
        Some(CalendarSettings {
            months: 1,
            start_season: None,
            victory_points: 5,
        })
    );
    assert_eq!(
        campaign.seats(),
        [
            Seat {
                player: "Ann".into(),
                role: None
            },
            Seat {
                player: "Ben".into(),
                role: Some("Amazon".into())
            },
        ]
    );
    assert_eq!(
        campaign.toggles_on(crate::TEST_GAMES).unwrap()[0].name,
        "fumble"
    );
}

#[test]
fn campaign_survives_a_json_round_trip() {
    let campaign = Campaign::parse("bimr3.toml", BIMR3, crate::TEST_GAMES).unwrap();
    let json = serde_json::to_string(&campaign).unwrap();
    let back: Campaign = serde_json::from_str(&json).unwrap();
    assert_eq!(back, campaign);
}

#[test]
fn unknown_toggle_suggests_the_nearest_and_names_the_line() {
    let err = error(&edited(
        r#"rules = ["fumble"]"#,
        r#"rules = ["fumble", "watchfull_natives"]"#,
    ));
    assert_eq!(err.line, Some(4));
    assert_eq!(err.field.as_deref(), Some("rules[1]"));
    assert!(
        err.message.contains("did you mean watchful_natives"),
        "{err}"
    );
    assert!(
        err.to_string()
            .starts_with("test.toml: line 4: field `rules[1]`"),
        "{err}"
    );
}

#[test]
fn exclusive_toggles_are_refused() {
    let err = error(&edited(
        r#"rules = ["fumble"]"#,
        "rules = [\n  \"optional_abilities\",\n  \"chosen_optional_abilities\",\n]",
    ));
    assert_eq!(err.line, Some(6));
    assert_eq!(err.field.as_deref(), Some("rules[1]"));
    assert!(err.message.contains("cannot both be on"), "{err}");
}

#[test]
fn a_toggle_listed_twice_is_refused() {
    let err = error(&edited(
        r#"rules = ["fumble"]"#,
        r#"rules = ["fumble", "fumble"]"#,
    ));
    assert!(err.message.contains("listed twice"), "{err}");
}

#[test]
fn duplicate_player_name_is_refused_ignoring_case() {
    let err = error(&edited(r#"name = "Ben""#, r#"name = "ann""#));
    assert_eq!(err.line, Some(19));
    assert_eq!(err.field.as_deref(), Some("players[1].name"));
    assert!(err.message.contains("already used by players[0]"), "{err}");
}

#[test]
fn duplicate_player_email_is_refused() {
    let err = error(&edited(
        r#"email = "ben@example.org""#,
        r#"email = "ANN@example.org""#,
    ));
    assert_eq!(err.line, Some(20));
    assert_eq!(err.field.as_deref(), Some("players[1].email"));
    assert!(err.message.contains("already an address of Ann"), "{err}");
}

#[test]
fn duplicate_character_is_refused() {
    let err = error(&edited(
        "name = \"Ann\"\nemail = \"ann@example.org\"\n",
        "name = \"Ann\"\nemail = \"ann@example.org\"\ncharacter = \"amazon\"\n",
    ));
    assert_eq!(err.field.as_deref(), Some("players[1].character"));
    assert!(err.message.contains("already played by Ann"), "{err}");
}

#[test]
fn bad_email_is_refused_at_its_line() {
    let err = error(&edited(
        r#"email = "ann@example.org""#,
        r#"email = "ann.example.org""#,
    ));
    assert_eq!(err.line, Some(16));
    assert_eq!(err.field.as_deref(), Some("players[0].email"));
    assert!(err.message.contains("there is no @"), "{err}");
}

#[test]
fn gm_address_cannot_be_a_player_address() {
    let err = error(&edited(
        r#"email = "ann@example.org""#,
        r#"email = "GM@example.org""#,
    ));
    assert!(err.message.contains("the GM's address"), "{err}");
}

#[test]
fn unknown_game_lists_the_known_games() {
    let err = error(&edited(r#"game = "magic-realm""#, r#"game = "magic-relm""#));
    assert_eq!(err.line, Some(2));
    assert_eq!(err.field.as_deref(), Some("game"));
    assert!(err.message.contains("known games: magic-realm"), "{err}");
    assert!(err.message.contains("did you mean magic-realm"), "{err}");
}

#[test]
fn wrong_type_names_the_line_and_field() {
    let err = error(&edited("every_hours = 24", r#"every_hours = "daily""#));
    assert_eq!(err.line, Some(12));
    assert_eq!(err.field.as_deref(), Some("schedule.every_hours"));
    let err = error(&edited("seed = 7", "seed = -7"));
    assert_eq!((err.line, err.field.as_deref()), (Some(3), Some("seed")));
}

#[test]
fn unknown_key_is_refused() {
    let err = error(&edited("seed = 7", "seed = 7\nsede = 8"));
    assert_eq!(err.line, Some(4));
    assert!(err.message.contains("sede"), "{err}");
}

#[test]
fn bad_time_and_interval_name_their_line() {
    let err = error(&edited(r#"at = "18:30""#, r#"at = "6pm""#));
    assert_eq!(
        (err.line, err.field.as_deref()),
        (Some(11), Some("schedule.at"))
    );
    assert!(err.message.contains("HH:MM"), "{err}");
    let err = error(&edited("every_hours = 24", "every_hours = 0"));
    assert_eq!(
        (err.line, err.field.as_deref()),
        (Some(12), Some("schedule.every_hours"))
    );
    let err = error(&edited(
        "every_hours = 24",
        "every_hours = 24\nreminder_hours = 30",
    ));
    assert_eq!(
        (err.line, err.field.as_deref()),
        (Some(13), Some("schedule.reminder_hours"))
    );
}

#[test]
fn bad_tag_and_player_name_are_refused() {
    let err = error(&edited(r#"name = "T1""#, r#"name = "my game""#));
    assert_eq!((err.line, err.field.as_deref()), (Some(1), Some("name")));
    let err = error(&edited(r#"name = "Ann""#, r#"name = "Ann <a>""#));
    assert_eq!(err.field.as_deref(), Some("players[0].name"));
    assert!(err.message.contains("'<' is not allowed"), "{err}");
}

#[test]
fn too_many_players_for_max_players() {
    let err = error(&edited("seed = 7", "seed = 7\nmax_players = 1"));
    assert_eq!(
        (err.line, err.field.as_deref()),
        (Some(4), Some("max_players"))
    );
    assert!(err.message.contains("lists 2 players"), "{err}");
}

/// A rule for one player alone (Magic Realm's Solitaire Play, 3.1
/// 10.E.1.1) refuses a file listing two, at its `rules` line; one player
/// is accepted.
#[test]
fn a_one_player_rule_refuses_a_second_player() {
    let err = error(&edited(r#"rules = ["fumble"]"#, r#"rules = ["solitaire"]"#));
    assert_eq!((err.line, err.field.as_deref()), (Some(4), Some("players")));
    assert!(
        err.message.contains("the solitaire rule seats at most 1") && err.message.contains("2"),
        "{err}"
    );
    let alone = edited(r#"rules = ["fumble"]"#, r#"rules = ["solitaire"]"#).replacen(
        "\n[[players]]\nname = \"Ben\"\nemail = \"ben@example.org\"\ncharacter = \"Amazon\"\n",
        "",
        1,
    );
    let campaign = parse(&alone).expect("one player under solitaire");
    assert_eq!(campaign.players.len(), 1);
}

#[test]
fn seasons_need_a_start_season_and_the_seasons_rule() {
    let with_seasons = edited(
        r#"rules = ["fumble"]"#,
        r#"rules = ["seasons_and_weather"]"#,
    );
    let err = error(&with_seasons);
    assert_eq!(
        (err.line, err.field.as_deref()),
        (Some(4), Some("rules[0]"))
    );
    assert!(err.message.contains("needs a starting season"), "{err}");

    let calendar = "[calendar]\nstart_season = \"autum\"\n\n[[players]]";
    let err = error(&with_seasons.replacen("[[players]]", calendar, 1));
    assert_eq!(err.field.as_deref(), Some("calendar.start_season"));
    assert!(err.message.contains("did you mean Autumn"), "{err}");

    let calendar = "[calendar]\nstart_season = \"autumn\"\n\n[[players]]";
    let campaign = parse(&with_seasons.replacen("[[players]]", calendar, 1)).unwrap();
    assert_eq!(
        campaign.calendar.unwrap().start_season.as_deref(),
        Some("Autumn")
    );

    let err = error(&MINIMAL.replacen("[[players]]", calendar, 1));
    assert_eq!(
        (err.line, err.field.as_deref()),
        (Some(15), Some("calendar.start_season"))
    );
    assert!(
        err.message
            .contains("only matters with the 'seasons_and_weather' rule"),
        "{err}"
    );

    let err = error(&MINIMAL.replacen("[[players]]", "[calendar]\nmonths = 0\n\n[[players]]", 1));
    assert_eq!(err.field.as_deref(), Some("calendar.months"));
}

#[test]
fn key_line_finds_keys_in_their_table_only() {
    let text = "every_hours = 1\n[schedule]\n# every_hours = 2\nevery_hours=3\n[[players]]\n";
    assert_eq!(key_line(text, None, "every_hours"), Some(1));
    assert_eq!(key_line(text, Some("schedule"), "every_hours"), Some(4));
    assert_eq!(key_line(text, Some("players"), "every_hours"), None);
}

#[test]
fn setup_by_mail_is_for_a_game_that_offers_it_only() {
    let text = edited(
        "[[players]]\nname = \"Ann\"",
        "[mail]\nsetup_by_mail = true\nca_file = \"/etc/ca.pem\"\n\n[[players]]\nname = \"Ann\"",
    );
    let campaign = parse(&text).unwrap();
    let mail = campaign.mail.unwrap();
    assert!(mail.setup_by_mail);
    assert_eq!(
        mail.ca_path(),
        Some(std::path::PathBuf::from("/etc/ca.pem"))
    );
    let err = error(
        &text
            .replace("game = \"magic-realm\"", "game = \"fantasy-realms\"")
            .replace("rules = [\"fumble\"]", "rules = []")
            .replace("character = \"Amazon\"\n", ""),
    );
    assert_eq!(err.field.as_deref(), Some("mail.setup_by_mail"), "{err}");
    assert!(
        err.to_string()
            .contains("fantasy-realms offers no setup by mail"),
        "{err}"
    );
}

#[test]
fn a_team_seat_has_addresses_of_its_own() {
    let team = MINIMAL.replacen(
        "email = \"ann@example.org\"",
        "email = \"ann@example.org\"\nteam = [\"bea@example.org\"]",
        1,
    );
    let campaign = parse(&team).unwrap();
    let addresses: Vec<&str> = campaign.players[0]
        .addresses()
        .map(|a| a.as_str())
        .collect();
    assert_eq!(addresses, ["ann@example.org", "bea@example.org"]);
    let clash = team.replacen("bea@example.org", "gm@example.org", 1);
    let err = error(&clash);
    assert_eq!(err.field.as_deref(), Some("players[0].team[0]"), "{err}");
    assert!(err.message.contains("the GM's address"), "{err}");
    let twice = team.replacen("bea@example.org", "ANN@example.org", 1);
    assert!(error(&twice).message.contains("named twice"));
}

#[test]
fn victory_points_follow_the_seasons_or_the_file() {
    let seasons = |extra: &str| {
        MINIMAL.replacen(
            "rules = [\"fumble\"]",
            "rules = [\"seasons_and_weather\"]",
            1,
        ) + &format!("\n[calendar]\nmonths = 2\nstart_season = \"Harvest\"\n{extra}")
    };
    // Harvest asks 6 and Autumn 5: two months from Harvest ask 11.
    let campaign = parse(&seasons("")).unwrap();
    assert_eq!(campaign.calendar.unwrap().victory_points, 11);
    let err = error(&seasons("victory_points = 10"));
    assert_eq!(
        err.field.as_deref(),
        Some("calendar.victory_points"),
        "{err}"
    );
    assert!(err.message.contains("ask 11, not 10"), "{err}");
    let plain = MINIMAL.to_string() + "\n[calendar]\nmonths = 3\n";
    // One basic point and one a week: 13 for 12 weeks (3.1 10.E.2.2).
    assert_eq!(parse(&plain).unwrap().calendar.unwrap().victory_points, 13);
    let chosen = plain.clone() + "victory_points = 7\n";
    assert_eq!(parse(&chosen).unwrap().calendar.unwrap().victory_points, 7);
    assert!(
        error(&(plain + "victory_points = 0\n"))
            .message
            .contains("not possible")
    );
}

#[test]
fn a_rule_not_built_yet_is_refused_with_its_name() {
    let err = error(&edited(
        "rules = [\"fumble\"]",
        "rules = [\"fumble\", \"enhanced_visitors\"]",
    ));
    assert!(
        err.message
            .contains("the rule 'enhanced_visitors' (The BIMR5 campaign"),
        "{err}"
    );
    assert!(err.message.contains("is not implemented yet"), "{err}");
}

#[test]
fn a_folder_climbing_out_of_the_databases_folder_is_refused_unless_absolute() {
    let with = |table: &str| {
        edited(
            "[[players]]\nname = \"Ann\"",
            &format!("{table}\n\n[[players]]\nname = \"Ann\""),
        )
    };
    for (table, field, path, line) in [
        ("[site]\nout = \"../www\"", "site.out", "../www", 15),
        (
            "[mail]\nmaildir_in = \"mail/../../in\"",
            "mail.maildir_in",
            "mail/../../in",
            15,
        ),
        (
            "[mail]\nmaildir_in = \"in\"\nmaildir_out = \"./../../../etc/out\"",
            "mail.maildir_out",
            "./../../../etc/out",
            16,
        ),
    ] {
        let err = error(&with(table));
        assert_eq!(err.field.as_deref(), Some(field), "{err}");
        assert_eq!(err.line, Some(line), "{err}");
        let message = err.to_string();
        assert!(
            message.contains(&format!("'{path}' leaves the database's folder")),
            "{err}"
        );
        assert!(message.contains("give an absolute path"), "{err}");
    }
    // Absolute folders are the GM's choice; '..' that stays inside is fine.
    let campaign = parse(&with(
        "[mail]\nmaildir_in = \"/srv/mail/../in\"\nmaildir_out = \"mail/../out\"\n\n\
         [site]\nout = \"/var/www/../pages\"",
    ))
    .unwrap();
    let mail = campaign.mail.unwrap();
    assert_eq!(mail.maildir_in.as_deref(), Some("/srv/mail/../in"));
    assert_eq!(mail.maildir_out.as_deref(), Some("mail/../out"));
    assert_eq!(
        campaign.site.unwrap().out.as_deref(),
        Some("/var/www/../pages")
    );
}

#[test]
fn a_title_or_gm_name_with_a_line_break_is_refused() {
    let title = parse(&edited(
        "seed = 7",
        "seed = 7\ntitle = \"Realm\\r\\nBcc: all@evil.test\"",
    ))
    .unwrap_err()
    .to_string();
    assert!(
        title.contains("title") && title.contains("write it on one line"),
        "{title}"
    );
    let gm = parse(&edited(
        "email = \"gm@example.org\"",
        "email = \"gm@example.org\"\nname = \"Gm\\nBcc: all@evil.test\"",
    ))
    .unwrap_err()
    .to_string();
    assert!(gm.contains("gm.name") && gm.contains("line 8"), "{gm}");
    assert!(
        parse(&edited(
            "seed = 7",
            "seed = 7\ntitle = \"The Realm, 3rd run\""
        ))
        .is_ok()
    );
}

#[test]
fn settings_stored_before_victory_points_had_a_field_read_magic_realms_points_a_month() {
    assert_eq!(
        super::standard_victory_points(),
        realmgm_magic_realm::state::VICTORY_POINTS_PER_MONTH
    );
}

#[test]
fn oauth_sign_in_keys_are_read_and_their_problems_named_with_the_line() {
    let with = |table: &str| {
        edited(
            "[[players]]\nname = \"Ann\"",
            &format!("{table}\n\n[[players]]\nname = \"Ann\""),
        )
    };
    let imap = "[mail.imap]\nhost = \"outlook.office365.com\"\nport = 993\nsecurity = \"tls\"\n\
                user = \"gm@outlook.com\"\nauth = \"oauth2\"\n";
    let campaign = parse(&with(&format!(
        "{imap}provider = \"microsoft\"\nclient_id = \"app\"\ntenant = \"consumers\"\n\n\
         [mail.smtp]\nhost = \"smtp-mail.outlook.com\"\nport = 587\nsecurity = \"starttls\"\n\
         user = \"gm@outlook.com\"\nauth = \"oauth2\"\nprovider = \"microsoft\"\n\
         client_id = \"app\"\ntenant = \"consumers\""
    )))
    .unwrap();
    let oauth = campaign.mail.unwrap().oauth().unwrap();
    assert_eq!(oauth.client_id, "app");
    assert_eq!(
        oauth.provider.token_url,
        "https://login.microsoftonline.com/consumers/oauth2/v2.0/token"
    );
    assert_eq!(oauth.client_secret, crate::campaign::ClientSecret::None);
    for (keys, field, words, line) in [
        ("", "mail.imap.provider", "needs provider", 14),
        (
            "provider = \"google\"\nclient_id = \"app\"",
            "mail.imap.client_secret_env",
            "Desktop app",
            14,
        ),
        (
            "provider = \"microsoft\"",
            "mail.imap.client_id",
            "needs client_id",
            14,
        ),
        (
            "provider = \"custom\"\nclient_id = \"app\"\ntoken_url = \"https://t\"\nscopes = [\"m\"]",
            "mail.imap.authorization_url",
            "needs authorization_url",
            14,
        ),
        (
            "provider = \"google\"\nclient_id = \"a\"\nclient_secret_env = \"S\"\ntoken_url = \"https://t\"",
            "mail.imap.token_url",
            "read only with provider = \"custom\"",
            23,
        ),
        (
            "provider = \"microsoft\"\nclient_id = \"a\"\npassword_env = \"P\"",
            "mail.imap.password_env",
            "no password is used",
            22,
        ),
    ] {
        let err = error(&with(&format!("{imap}{keys}")));
        assert_eq!(err.field.as_deref(), Some(field), "{err}");
        assert!(err.to_string().contains(words), "{err}");
        assert_eq!(err.line, Some(line), "{err}");
    }
    let password = "[mail.imap]\nhost = \"h\"\nport = 993\nsecurity = \"tls\"\nuser = \"u\"\n";
    let err = error(&with(&format!("{password}client_id = \"x\"")));
    assert_eq!(err.field.as_deref(), Some("mail.imap.client_id"), "{err}");
    assert!(err.to_string().contains("auth = \"oauth2\""), "{err}");
    let err = error(&with(password));
    assert_eq!(
        err.field.as_deref(),
        Some("mail.imap.password_env"),
        "{err}"
    );
    let err = error(&with(&format!("{password}auth = \"token\"")));
    assert!(err.to_string().contains("auth"), "{err}");
}

#[test]
fn a_notify_hook_without_its_address_is_refused_at_its_line() {
    let with = |table: &str| {
        edited(
            "[[players]]\nname = \"Ann\"",
            &format!("{table}\n\n[[players]]\nname = \"Ann\""),
        )
    };
    let err = error(&with(
        "[notify]\nname_awaited = true\n\n[[notify.hooks]]\nkind = \"discord\"\n\
         news = [\"day\"]\nurl = \"discord.com/api/webhooks/1\"",
    ));
    assert_eq!(err.field.as_deref(), Some("notify.url"), "{err}");
    assert_eq!(err.line, Some(20), "{err}");
    assert!(err.to_string().contains("is not a web address"), "{err}");
    let err = error(&with(
        "[[notify.hooks]]\nkind = \"telegram\"\nurl = \"https://x/\"",
    ));
    assert!(err.to_string().contains("telegram"), "{err}");
    let campaign = parse(&with(
        "[notify]\ndeadline_hours = 6\n\n[[notify.hooks]]\nkind = \"slack\"\n\
         url_env = \"SLACK_HOOK\"",
    ))
    .unwrap();
    let notify = campaign.notify.unwrap();
    assert_eq!(notify.deadline_hours(), 6);
    assert_eq!(notify.hooks[0].name(), "slack");
}

#[test]
fn a_rules_profile_switches_its_set_on_and_the_file_adds_and_takes_away() {
    let campaign = parse(&edited(
        r#"rules = ["fumble"]"#,
        "rules_profile = \"bimr3\"\nrules = [\"fumble\"]\nrules_off = [\"watchful_natives\"]\n\
         [calendar]\nstart_season = \"Autumn\"",
    ))
    .unwrap();
    assert_eq!(campaign.rules_profile.as_deref(), Some("bimr3"));
    let on: Vec<&str> = campaign.rules.names().collect();
    assert_eq!(
        on,
        [
            "expanded_meeting_table_opportunities",
            "extended_treachery",
            "fumble",
            "knights_adjustment",
            "player_built_board",
            "seasons_and_weather",
            "unlimited_communication",
        ]
    );
}

#[test]
fn the_shipped_bimr3_file_and_its_profile_switch_on_the_same_rules() {
    let shipped = Campaign::parse("campaigns/bimr3.toml", BIMR3, crate::TEST_GAMES).unwrap();
    let by_profile = parse(&edited(
        r#"rules = ["fumble"]"#,
        "rules_profile = \"bimr3\"\n[calendar]\nstart_season = \"Autumn\"",
    ))
    .unwrap();
    assert_eq!(shipped.rules, by_profile.rules);
}

#[test]
fn profile_mistakes_are_refused_at_their_line_saying_what_to_do() {
    let unknown = error(&edited(
        r#"rules = ["fumble"]"#,
        "rules_profile = \"bimr33\"",
    ));
    assert_eq!(unknown.line, Some(4));
    assert_eq!(unknown.field.as_deref(), Some("rules_profile"));
    assert!(
        unknown
            .message
            .contains("write one of the rule sets bimr3, bimr4"),
        "{unknown}"
    );

    let twice = error(&edited(
        r#"rules = ["fumble"]"#,
        "rules_profile = \"bimr4\"\nrules = [\"fumble\"]",
    ));
    assert_eq!(twice.field.as_deref(), Some("rules[0]"));
    assert!(
        twice.message.contains("already in the rule set 'bimr4'"),
        "{twice}"
    );

    let not_in_set = error(&edited(
        r#"rules = ["fumble"]"#,
        "rules_profile = \"3.1-basic\"\nrules_off = [\"fumble\"]",
    ));
    assert_eq!(not_in_set.line, Some(5));
    assert_eq!(not_in_set.field.as_deref(), Some("rules_off[0]"));
    assert!(
        not_in_set
            .message
            .contains("not in the rule set '3.1-basic'"),
        "{not_in_set}"
    );

    let no_profile = error(&edited(r#"rules = ["fumble"]"#, "rules_off = [\"fumble\"]"));
    assert_eq!(no_profile.field.as_deref(), Some("rules_off[0]"));
    assert!(no_profile.message.contains("names none"), "{no_profile}");

    let exclusive = error(&edited(
        r#"rules = ["fumble"]"#,
        "rules_profile = \"bimr5\"\nrules = [\"optional_abilities\"]",
    ));
    assert_eq!(exclusive.field.as_deref(), Some("rules[0]"));
    assert!(
        exclusive.message.contains("cannot both be on"),
        "{exclusive}"
    );
}

/// A player's further characters each take a seat after his first; they
/// need his first and may not repeat a character. A setup by mail keeps
/// those named, and `more_characters = N` leaves N to choose by mail, which
/// only a setup by mail can (Magic Realm: 3.1 10.E.4).
#[test]
fn more_characters_give_a_player_a_seat_each() {
    let several = edited(
        "character = \"Amazon\"\n",
        "character = \"Amazon\"\nmore_characters = [\"Berserker\", \"Dwarf\"]\n",
    )
    .replace("rules = [\"fumble\"]", "rules = [\"multiple_characters\"]");
    let roles = |text: &str| -> Vec<(String, Option<String>)> {
        parse(text)
            .unwrap()
            .seats()
            .into_iter()
            .map(|s| (s.player, s.role))
            .collect()
    };
    assert_eq!(
        roles(&several),
        [
            ("Ann".into(), None),
            ("Ben".into(), Some("Amazon".into())),
            ("Ben".into(), Some("Berserker".into())),
            ("Ben".into(), Some("Dwarf".into())),
        ]
    );
    let twice = error(&several.replace("\"Dwarf\"", "\"amazon\""));
    assert_eq!(
        twice.field.as_deref(),
        Some("players[1].more_characters[1]"),
        "{twice}"
    );
    let without_first = error(&several.replace("character = \"Amazon\"\n", ""));
    assert_eq!(
        without_first.field.as_deref(),
        Some("players[1].more_characters"),
        "{without_first}"
    );
    let set_up_by_mail = |text: &str| {
        text.replace(
            "[[players]]\nname = \"Ann\"",
            "[mail]\nsetup_by_mail = true\n\n[[players]]\nname = \"Ann\"",
        )
    };
    assert_eq!(roles(&set_up_by_mail(&several)), roles(&several));
    let counted = several.replace("[\"Berserker\", \"Dwarf\"]", "2");
    let not_by_mail = error(&counted);
    assert_eq!(
        not_by_mail.field.as_deref(),
        Some("players[1].more_characters"),
        "{not_by_mail}"
    );
    assert!(
        not_by_mail.message.contains("needs setup_by_mail = true"),
        "{not_by_mail}"
    );
    let by_mail = set_up_by_mail(&counted.replace("character = \"Amazon\"\n", ""));
    assert_eq!(
        roles(&by_mail),
        [
            ("Ann".into(), None),
            ("Ben".into(), None),
            ("Ben".into(), None),
            ("Ben".into(), None),
        ]
    );
    for (count, problem) in [("0", "no further character"), ("99", "at most 32")] {
        let refused =
            error(&by_mail.replace("more_characters = 2", &format!("more_characters = {count}")));
        assert!(refused.message.contains(problem), "{refused}");
    }
    let garbled = error(&by_mail.replace("more_characters = 2", "more_characters = \"Dwarf\""));
    assert!(
        garbled.message.contains("how many he chooses by mail"),
        "{garbled}"
    );
}

/// A `[carry_over]` table reaches the game as JSON, as written (Extended
/// Development's stages, 3.1 10.E.6).
#[test]
fn a_carry_over_table_is_kept_for_the_game() {
    let campaign = parse(&format!(
        "{MINIMAL}\n[carry_over.development]\nAmazon = {{ stage = 2, extra_chits = [\"MOVE M3*\"] }}\n"
    ))
    .unwrap();
    let carried = campaign.carry_over.expect("kept");
    assert_eq!(carried["development"]["Amazon"]["stage"], 2);
    assert_eq!(
        carried["development"]["Amazon"]["extra_chits"][0],
        "MOVE M3*"
    );
    assert!(parse(MINIMAL).unwrap().carry_over.is_none());
}
