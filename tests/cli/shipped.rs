//! Every campaign file shipped in `campaigns/` starts as shipped: `campaign
//! new` stores it and makes its mail folders, and one daemon round sets the
//! game up or asks by mail exactly the players who still have to choose.

use std::path::Path;

use crate::common;

use common::{TempDb, realmgm, stdout};

/// `campaign new FILE` then `daemon --once` on a fresh database; the
/// daemon's output.
fn start(file: &str, db: &TempDb) -> String {
    let new = stdout(&realmgm(&["campaign", "new", file], &db.0));
    assert!(new.contains("Created the Maildir folder"), "{file}:\n{new}");
    stdout(&realmgm(&["daemon", "--once"], &db.0))
}

/// The mails the campaign's daemon wrote into its outbound Maildir.
fn sent(db: &TempDb, tag: &str) -> Vec<String> {
    let folder = db.dir().join("mail").join(tag).join("out").join("new");
    std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap())
        .collect()
}

#[test]
fn every_shipped_campaign_file_starts() {
    let mut files: Vec<String> = std::fs::read_dir("campaigns")
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|f| f.ends_with(".toml"))
        .collect();
    files.sort();
    assert_eq!(
        files.len(),
        8,
        "a new shipped file gets its case below: {files:?}"
    );
    for file in files {
        let name = Path::new(&file)
            .file_stem()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let db = TempDb::new(&format!("shipped-{name}"));
        let round = start(&file, &db);
        assert!(
            !round.contains("not served") && !round.contains("cannot"),
            "{file}:\n{round}"
        );
        match name.as_str() {
            // Alice, Bob and Carol have characters in the file; only Dave
            // is asked to choose.
            "standard" => {
                assert!(
                    round.contains(
                        "INFO held: setup by mail: Dave chooses a character next campaign=MR1"
                    ),
                    "{round}"
                );
                let mails = sent(&db, "MR1");
                assert_eq!(mails.len(), 1, "{mails:?}");
                assert!(mails[0].contains("To: dave@example.org"), "{}", mails[0]);
            }
            // The seed dealt the Borderland to Ivan: he places it first.
            "bimr3" => {
                assert!(
                    round.contains(
                        "INFO held: setup by mail: Ivan places the next tile (0 of 20 placed) \
                         campaign=BIMR3"
                    ),
                    "{round}"
                );
                assert_eq!(sent(&db, "BIMR3").len(), 1);
            }
            // The same setup for BIMR4 and BIMR5: whoever the seed dealt
            // the Borderland places it first.
            "bimr4" | "bimr5" => {
                let tag = name.to_uppercase();
                assert!(
                    round.contains(&format!(
                        "places the next tile (0 of 20 placed) campaign={tag}"
                    )),
                    "{round}"
                );
                assert_eq!(sent(&db, &tag).len(), 1);
            }
            // Magenta's seats are named in the file: two Realms combined
            // are not chosen by mail.
            "demo" | "fantasy-realms" | "solitaire" | "magenta" => {
                let tag = match name.as_str() {
                    "demo" => "DEMO",
                    "solitaire" => "SOLO",
                    "magenta" => "MAGENTA",
                    _ => "FR1",
                };
                let status = stdout(&realmgm(&["gm", "--campaign", tag, "status"], &db.0));
                assert!(status.contains("day 1 pending"), "{status}");
                assert!(!status.contains("not set up"), "{file}: {status}");
            }
            other => panic!("no case for the shipped file {other}"),
        }
    }
}

/// The README's annotated campaign file, as a new GM copies it.
fn readme_campaign_file() -> String {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let section = readme
        .split_once("## The campaign file")
        .expect("the README documents the campaign file")
        .1;
    let block = section.split_once("```toml\n").unwrap().1;
    block.split_once("```").unwrap().0.to_string()
}

#[test]
fn the_readmes_campaign_file_reads_and_names_every_mail_setting() {
    let text = readme_campaign_file();
    let campaign = realmgm::campaign::Campaign::parse("README.md", &text, realmgm::games::GAMES)
        .unwrap_or_else(|e| panic!("the README's campaign file: {e}"));
    assert_eq!(campaign.name, "MR1");
    let mail = campaign.mail.expect("the example has [mail]");
    // Each setting the example gives a number or a switch shows its default.
    let default = realmgm::campaign::MailSettings::default();
    let shown = [
        (
            "poll_seconds",
            mail.poll_seconds() as i64,
            default.poll_seconds() as i64,
        ),
        (
            "max_attachment_kb",
            mail.max_attachment_bytes() as i64,
            default.max_attachment_bytes() as i64,
        ),
        (
            "hold_if_missing_percent",
            mail.hold_if_missing_percent() as i64,
            default.hold_if_missing_percent() as i64,
        ),
        (
            "late_grace_minutes",
            mail.late_grace_seconds(),
            default.late_grace_seconds(),
        ),
        (
            "keep_sent_days",
            mail.keep_sent_seconds().unwrap_or(0),
            default.keep_sent_seconds().unwrap_or(0),
        ),
        (
            "stranger_keep_kb",
            mail.stranger_keep_bytes() as i64,
            default.stranger_keep_bytes() as i64,
        ),
        (
            "keep_strangers_days",
            mail.keep_strangers_seconds().unwrap_or(0),
            default.keep_strangers_seconds().unwrap_or(0),
        ),
        (
            "notice_interval_minutes",
            mail.notice_interval_seconds(),
            default.notice_interval_seconds(),
        ),
        (
            "max_orders_kb",
            mail.max_orders_bytes() as i64,
            default.max_orders_bytes() as i64,
        ),
        (
            "max_orders_lines",
            mail.max_orders_lines() as i64,
            default.max_orders_lines() as i64,
        ),
        (
            "max_phases_per_day",
            mail.max_phases_per_day() as i64,
            default.max_phases_per_day() as i64,
        ),
        (
            "round_deadline_hours",
            mail.round_deadline_seconds(),
            default.round_deadline_seconds(),
        ),
        (
            "copy_relays_to_gm",
            i64::from(mail.copy_relays_to_gm),
            i64::from(default.copy_relays_to_gm),
        ),
        (
            "setup_by_mail",
            i64::from(mail.setup_by_mail),
            i64::from(default.setup_by_mail),
        ),
    ];
    for (key, in_readme, by_default) in shown {
        assert_eq!(
            in_readme, by_default,
            "the README's {key} is not its default"
        );
    }
    // Every [mail] key the program reads is in the example, set or shown.
    let keys = serde_json::to_value(realmgm::campaign::MailSettings::default()).unwrap();
    for key in keys.as_object().unwrap().keys() {
        assert!(
            text.contains(&format!("{key} ")) || text.contains(&format!("[mail.{key}]")),
            "the README's campaign file lacks {key}"
        );
    }
    // The commented server tables read too, once uncommented.
    let servers: String = text
        .lines()
        .filter(|l| l.starts_with("# [mail.") || l.starts_with("# ") && l.contains(" = "))
        .map(|l| l.trim_start_matches("# "))
        .collect::<Vec<_>>()
        .join("\n");
    let live = text
        .replace("maildir_out = \"mail/MR1/out\"", "")
        .replace("[[players]]", &format!("{servers}\n[[players]]"));
    let live = realmgm::campaign::Campaign::parse("README.md", &live, realmgm::games::GAMES)
        .unwrap_or_else(|e| panic!("the README's live mail settings: {e}\n{live}"));
    let live_mail = live.mail.unwrap();
    assert_eq!(live_mail.imap.unwrap().folder.as_deref(), Some("INBOX"));
    assert_eq!(live_mail.smtp.unwrap().port, 465);
}

/// The shipped systemd unit runs the daemon as its own user
/// on a database in its state folder, with the file system read-only
/// around it, and stops it with the signal it handles.
#[test]
fn the_systemd_unit_runs_the_daemon_confined_to_its_state_folder() {
    let unit = std::fs::read_to_string("packaging/realmgm.service").unwrap();
    let value = |key: &str| -> String {
        unit.lines()
            .find_map(|l| l.strip_prefix(&format!("{key}=")))
            .unwrap_or_else(|| panic!("the unit sets {key}"))
            .to_string()
    };
    assert_eq!(value("User"), "realmgm");
    assert_eq!(value("StateDirectory"), "realmgm");
    assert_eq!(value("ProtectSystem"), "strict");
    assert_eq!(value("KillSignal"), "SIGTERM");
    assert_eq!(
        value("Environment"),
        "REALMGM_DB=/var/lib/realmgm/realmgm.sqlite",
        "the database is in the state folder, the only writable place"
    );
    let exec = value("ExecStart");
    let mut words = exec.split_whitespace();
    assert!(words.next().unwrap().ends_with("/realmgm"));
    let command: Vec<&str> = words.collect();
    let mut args = command.clone();
    args.push("--help");
    let help = stdout(&realmgm(&args, std::path::Path::new("unused.sqlite")));
    assert!(help.contains("--poll-seconds"), "{command:?}: {help}");
}

/// Shell completions and the manual page come from the same
/// command definitions as `--help`, and the database may be named by the
/// environment.
#[test]
fn completions_and_the_manual_page_name_every_command() {
    let db = std::path::Path::new("unused.sqlite");
    let bash = stdout(&realmgm(&["completions", "bash"], db));
    assert!(bash.contains("_realmgm()"), "{bash}");
    for command in ["daemon", "backup", "campaign", "gm"] {
        assert!(bash.contains(command), "{command}");
    }
    let manual = stdout(&realmgm(&["manual"], db));
    assert!(manual.contains(".TH realmgm 1"), "{manual}");
    assert!(manual.contains("backup"), "{manual}");
    let help = stdout(&realmgm(&["campaign", "list", "--help"], db));
    assert!(help.contains("[env: REALMGM_DB="), "{help}");
}

/// The hold mail of a seat without a character names the database in the
/// command it suggests, so the command works pasted anywhere.
#[test]
fn the_command_a_hold_mail_suggests_works_as_printed() {
    let db = TempDb::new("shipped-hold-command");
    let text = std::fs::read_to_string("campaigns/standard.toml")
        .unwrap()
        .replace("setup_by_mail = true", "setup_by_mail = false");
    let file = db.dir().join("held.toml");
    std::fs::write(&file, text).unwrap();
    let round = start(file.to_str().unwrap(), &db);
    assert!(round.contains("has no character yet"), "{round}");
    // The hold says how to let Dave choose.
    assert!(
        round.contains(
            "(nothing asks Dave to choose: set [mail] setup_by_mail = true in the campaign file \
             and run `realmgm campaign edit MR1 FILE --db "
        ),
        "{round}"
    );
    let mails: Vec<String> = sent(&db, "MR1")
        .into_iter()
        .map(|raw| raw.replace("=\r\n", "").replace("=\n", ""))
        .filter(|text| text.contains("To: gm@example.org"))
        .collect();
    assert_eq!(mails.len(), 1, "{mails:?}");
    let command = mails[0]
        .split('`')
        .find(|piece| piece.starts_with("realmgm gm status"))
        .unwrap_or_else(|| panic!("{}", mails[0]));
    let args: Vec<&str> = command.split(' ').skip(1).collect();
    assert!(args.contains(&"--db"), "{command}");
    // As the GM pastes it: no REALMGM_DB, in another folder.
    let pasted = std::process::Command::new(env!("CARGO_BIN_EXE_realmgm"))
        .args(&args)
        .env_remove("REALMGM_DB")
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    let status = String::from_utf8_lossy(&pasted.stdout);
    assert!(
        pasted.status.success() && status.contains("Campaign MR1"),
        "{command}: {status}{}",
        String::from_utf8_lossy(&pasted.stderr)
    );
}

/// A seat added while the players set up by mail would have no part in the
/// setup and the game could never start: `gm add-player` says to add him
/// once it has begun.
#[test]
fn no_player_joins_a_setup_by_mail_under_way() {
    let db = TempDb::new("shipped-join-during-setup");
    let round = start("campaigns/standard.toml", &db);
    assert!(round.contains("Dave chooses a character next"), "{round}");
    let added = realmgm(
        &[
            "gm",
            "add-player",
            "--campaign",
            "MR1",
            "--name",
            "Finn",
            "--email",
            "finn@example.org",
            "--character",
            "Elf",
        ],
        &db.0,
    );
    let said = String::from_utf8_lossy(&added.stderr);
    assert!(
        !added.status.success()
            && said.contains("the setup by mail of MR1 has begun")
            && said.contains("add Finn once the game has begun"),
        "{said}"
    );
    let shown = stdout(&realmgm(&["campaign", "show", "MR1"], &db.0));
    assert!(!shown.contains("Finn"), "{shown}");
}

/// Nor does a seat change its character while the players set up by mail:
/// the setup keeps the one it recorded.
#[test]
fn no_seat_changes_character_during_a_setup_by_mail() {
    let db = TempDb::new("shipped-replace-during-setup");
    start("campaigns/standard.toml", &db);
    let replaced = realmgm(
        &[
            "gm",
            "replace",
            "--campaign",
            "MR1",
            "--player",
            "Alice",
            "--email",
            "alice2@example.org",
            "--character",
            "Elf",
        ],
        &db.0,
    );
    let said = String::from_utf8_lossy(&replaced.stderr);
    assert!(
        !replaced.status.success()
            && said.contains("keeps the character it has for Alice, so the Elf would not play"),
        "{said}"
    );
    let shown = stdout(&realmgm(&["campaign", "show", "MR1"], &db.0));
    assert!(
        shown.contains("Alice <alice@example.org>: Amazon"),
        "{shown}"
    );
}
