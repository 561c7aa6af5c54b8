//! Everything a month of play sends and prints, read as a person reads it:
//! no Rust-shaped text (Debug formatting, paths), and every `realmgm ...`
//! command it suggests works as printed. The month is the 16-player bot
//! month of tests/support/month16.rs, followed by a player's commands, a
//! wrong password, a stranger, the GM's commands by mail and a day of
//! hiring; beside it the demo (its mail, pages and output, and the
//! commands it points to), the reports the templates render for the golden
//! tests, the GM's log, every `--help` page and the messages written in the
//! program's source, whose format strings ask for no Debug formatting.

use std::cell::RefCell;
use std::path::Path;
use std::sync::OnceLock;

use lettre::Message;
use mail_parser::{MessageParser, MimeHeaders, PartType};
use realmgm::daemon::Daemon;
use realmgm::daemon::orders::commands::{self, Command, GmCommand};
use realmgm::mail::transport::{MailTransport, SendError};
use realmgm::store::Store;

use crate::month16::{self, TAG};
use crate::printed_commands::{Kind, arguments, commands_in};
use crate::rust_shaped::{Detector, html_text};
use crate::support::mail;

/// A transport that keeps each mail as it would reach its reader.
#[derive(Default)]
struct Keep(RefCell<Vec<Vec<u8>>>);

impl MailTransport for Keep {
    fn send(&self, message: &Message) -> Result<String, SendError> {
        self.0.borrow_mut().push(message.formatted());
        Ok("kept".into())
    }
}

/// One text a person reads, and where it came from.
struct Read {
    source: String,
    text: String,
}

/// The mails kept, each read as its subject and text, and its HTML
/// turned to its text.
fn mails(kept: &Keep, texts: &mut Vec<Read>) {
    for raw in kept.0.take() {
        read_mail(&raw, texts);
    }
}

/// One mail: its subject and text, and its HTML part turned to its text.
fn read_mail(raw: &[u8], texts: &mut Vec<Read>) {
    let message = MessageParser::default().parse(raw).expect("a mail");
    let to = message
        .to()
        .and_then(|to| to.first())
        .and_then(|a| a.address())
        .unwrap_or_default()
        .to_string();
    let subject = message.subject().unwrap_or_default().to_string();
    let source = format!("mail to {to}, \"{subject}\"");
    let mut text = format!("{subject}\n");
    if let Some(body) = message.body_text(0) {
        text.push_str(&body);
    }
    texts.push(Read {
        source: source.clone(),
        text,
    });
    // A text-only mail's text is also offered as HTML: read real HTML only.
    let has_html = message
        .parts
        .iter()
        .any(|part| matches!(part.body, PartType::Html(_)));
    if has_html && let Some(html) = message.body_html(0) {
        texts.push(Read {
            source: format!("{source} (HTML)"),
            text: html_text(&html),
        });
    }
    // A report's JSON document: its words are read as the text's are.
    for part in message.attachments() {
        if part.attachment_name().is_some_and(|n| n.ends_with(".json")) {
            texts.push(Read {
                source: format!("{source} (JSON)"),
                text: json_text(&String::from_utf8_lossy(part.contents())),
            });
        }
    }
}

/// The words of a JSON document: its strings, one a line.
fn json_text(json: &str) -> String {
    let document: serde_json::Value = serde_json::from_str(json).expect("the report's JSON parses");
    let mut words = Vec::new();
    strings_of(&document, &mut words);
    words.join("\n")
}

/// Every string in `value`, in order.
fn strings_of(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(text) => out.push(text.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| strings_of(v, out)),
        serde_json::Value::Object(fields) => fields.values().for_each(|v| strings_of(v, out)),
        _ => {}
    }
}

/// What the month and the mail after it sent, and the GM's and the
/// daemon's logs of it.
fn month() -> &'static [Read] {
    static MONTH: OnceLock<Vec<Read>> = OnceLock::new();
    MONTH.get_or_init(|| {
        let path = std::env::temp_dir().join(format!("realmgm-read-{}.sqlite", std::process::id()));
        let kept = Keep::default();
        let played = month16::play_through(&path, 28, &kept);
        let mut texts = Vec::new();
        mails(&kept, &mut texts);
        let mut daemon = Daemon::new(Store::open(&path, realmgm::games::GAMES).unwrap());
        let mut now = played.ended + 60;
        // What the daemon logs of each mail it handles.
        let notes = RefCell::new(Vec::new());
        let mut send = |daemon: &mut Daemon, from: &str, subject: &str, body: &str| {
            now += 60;
            let id = format!("after-{now}@month.test");
            let (_, note) = daemon
                .mail_in()
                .ingest(&mail(from, "gm@month.test", subject, &id, body), now)
                .unwrap();
            notes.borrow_mut().push(note);
            daemon.outbox().send_due(&kept, None, now).unwrap();
        };
        let player = format!("Password: {}\n", played.secrets["P01"]);
        for command in [
            "help",
            "orders?",
            "rules?",
            "report? 2",
            "combat?",
            "to P02",
            "away until 2030-03-20",
            "back",
        ] {
            let subject = format!("[{TAG}] {command}");
            send(&mut daemon, "p01@month.test", &subject, &player);
        }
        let subject = format!("[{TAG}] orders");
        send(
            &mut daemon,
            "p01@month.test",
            &subject,
            &format!("{player}M XX9, H\n"),
        );
        send(
            &mut daemon,
            "p02@month.test",
            &subject,
            "Password: wrong\nH, H\n",
        );
        send(&mut daemon, "nobody@else.test", &subject, "H, H\n");
        let gm = format!(
            "Password: {}\n",
            daemon.store.control_mut().new_gm_secret(TAG).unwrap()
        );
        for command in [
            "gm status",
            "gm preview",
            "gm pause",
            "gm resume",
            "gm extend 2",
            "gm resend P03",
            "gm narrate",
            "gm replace P16 new16@month.test",
            "gm remove-player P15",
            "gm rollback 40",
            "gm fly away",
        ] {
            let subject = format!("[{TAG}] {command}");
            send(&mut daemon, "gm@month.test", &subject, &gm);
        }
        let subject = format!("[{TAG}] gm announce");
        send(
            &mut daemon,
            "gm@month.test",
            &subject,
            &format!("{gm}The bridge is out.\n"),
        );
        send(
            &mut daemon,
            "gm@month.test",
            &subject,
            "Password: wrong\nNews.\n",
        );
        // Day 1 again, its deadline long past: everyone starts at a
        // dwelling among natives, and the GM has each try to hire them.
        let subject = format!("[{TAG}] gm rollback 0");
        send(&mut daemon, "gm@month.test", &subject, &gm);
        let hire = "HR, T, HR, T\nHire: Rogues up to 30; Order up to 30; Soldiers up to 30; \
                    Guard up to 30; Company up to 30\nDrinks: 1\n";
        for player in played.secrets.keys() {
            let subject = format!("[{TAG}] gm orders {player}");
            send(
                &mut daemon,
                "gm@month.test",
                &subject,
                &format!("{gm}{hire}"),
            );
        }
        now += 3 * 24 * 3600;
        daemon.turns().check_turn(TAG, now).unwrap();
        daemon.outbox().send_due(&kept, None, now).unwrap();
        mails(&kept, &mut texts);
        assert!(
            texts.iter().any(|read| read.text.contains(" meets the ")),
            "the day of hiring went to the Meeting table"
        );
        for note in notes.take() {
            texts.push(Read {
                source: "the daemon's log".to_string(),
                text: note,
            });
        }
        for entry in daemon.store.control().gm_log(Some(TAG)).unwrap() {
            texts.push(Read {
                source: format!("the GM's log ({})", entry.kind),
                text: entry.message,
            });
        }
        drop(daemon);
        month16::remove(&path);
        texts
    })
}

/// The demo as a new GM first runs it: what it prints, the mail in its
/// Maildirs and its public pages.
fn demo() -> &'static [Read] {
    static DEMO: OnceLock<Vec<Read>> = OnceLock::new();
    DEMO.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("realmgm-read-demo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let ran = std::process::Command::new(env!("CARGO_BIN_EXE_realmgm"))
            .arg("demo")
            .arg("--dir")
            .arg(&dir)
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&ran.stdout) + String::from_utf8_lossy(&ran.stderr);
        assert!(ran.status.success(), "{printed}");
        let mut texts = vec![Read {
            source: "`realmgm demo`".to_string(),
            text: printed.into_owned(),
        }];
        for file in crate::source_code::files_under(&dir.join("mail")) {
            read_mail(&std::fs::read(&file).unwrap(), &mut texts);
        }
        for file in crate::source_code::files_under(&dir.join("site")) {
            if file.extension().is_some_and(|e| e == "html" || e == "xml") {
                texts.push(Read {
                    source: file.strip_prefix(&dir).unwrap().display().to_string(),
                    text: html_text(&std::fs::read_to_string(&file).unwrap()),
                });
            }
        }
        // What a GM reads next: the commands the demo and README point to,
        // and the errors of some that go wrong.
        let db = dir.join("realmgm.sqlite").display().to_string();
        for args in [
            "gm --campaign DEMO status",
            "gm --campaign DEMO log",
            "campaign show DEMO",
            "campaign list",
            "report --campaign DEMO --player Ann --day 3",
            "report --campaign DEMO --gm --day 3",
            "report --campaign DEMO --player Ann --day 99",
            "gm status",
            "gm --campaign NOPE status",
            "gm --campaign DEMO process --day 1",
        ] {
            let ran = std::process::Command::new(env!("CARGO_BIN_EXE_realmgm"))
                .args(args.split(' '))
                .args(["--db", &db])
                .output()
                .unwrap();
            texts.push(Read {
                source: format!("`realmgm {args}`"),
                text: String::from_utf8_lossy(&ran.stdout).into_owned()
                    + &String::from_utf8_lossy(&ran.stderr),
            });
        }
        std::fs::remove_dir_all(&dir).unwrap();
        texts
    })
}

/// The reports the templates render with the golden tests' sample games.
fn golden_reports() -> Vec<Read> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut files: Vec<_> = std::fs::read_dir(root.join("reports"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    files.push(root.join("day_1.txt"));
    files.sort();
    files
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(&file).unwrap();
            let text = match file.extension().and_then(|e| e.to_str()) {
                Some("html") => html_text(&text),
                Some("json") => json_text(&text),
                _ => text,
            };
            Read {
                source: file.display().to_string(),
                text,
            }
        })
        .collect()
}

#[test]
fn no_rust_shaped_text_in_what_a_month_of_play_sends_and_prints() {
    let started = std::time::Instant::now();
    let detector = Detector::from_game_data();
    let month = month();
    let demo = demo();
    let golden = golden_reports();
    let help = help_pages();
    let mut wrong = Vec::new();
    let mut lines = 0;
    for read in month.iter().chain(demo).chain(&golden).chain(&help) {
        lines += read.text.lines().count();
        for finding in detector.findings(&read.text) {
            wrong.push(format!("{}: {finding}", read.source));
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "{} Rust-shaped pieces, the first 40:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(40)].join("\n")
    );
    let count =
        |reads: &[Read], what: fn(&str) -> bool| reads.iter().filter(|r| what(&r.source)).count();
    let mail = |source: &str| source.starts_with("mail to") && !source.ends_with("(HTML)");
    let html = |source: &str| source.ends_with("(HTML)");
    // A harness that stops producing mail must not pass on nothing read.
    assert!(
        count(month, mail) > 500 && count(month, html) > 100,
        "the month sent too little"
    );
    assert!(
        count(demo, mail) > 20 && golden.len() >= 5 && help.len() > 40,
        "the demo, golden reports or help pages are missing"
    );
    eprintln!(
        "read a month's {} mails ({} with HTML), {} lines of the GM's log and {} of the \
         daemon's; the demo's {} \
         mails ({} with HTML), pages and printed outputs ({} in all); {} rendered templates; \
         {} --help pages: {lines} lines, in {:?}",
        count(month, mail),
        count(month, html),
        count(month, |source| source.starts_with("the GM's log")),
        count(month, |source| source == "the daemon's log"),
        count(demo, mail),
        count(demo, html),
        demo.len(),
        golden.len(),
        help.len(),
        started.elapsed()
    );
}

/// The names of the program's top-level commands.
fn top_level() -> Vec<String> {
    realmgm::cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect()
}

/// Every `--help` page, the program's and each of its commands'.
fn help_pages() -> Vec<Read> {
    fn walk(command: &mut clap::Command, path: &str, pages: &mut Vec<Read>) {
        pages.push(Read {
            source: format!("`{path} --help`"),
            text: command.render_long_help().to_string(),
        });
        // `help` repeats the pages of the others.
        for sub in command
            .get_subcommands_mut()
            .filter(|sub| sub.get_name() != "help")
        {
            let path = format!("{path} {}", sub.get_name());
            walk(sub, &path, pages);
        }
    }
    let mut root = realmgm::cli::command();
    root.build();
    let mut pages = Vec::new();
    walk(&mut root, "realmgm", &mut pages);
    pages
}

/// The program's own messages as its source writes them (format strings,
/// a line continued with `\` joined), without comments and test code
/// (`tests.rs`, `*_tests.rs`, `test_*.rs`, modules declared for tests only,
/// items marked `#[cfg(test)]`);
/// and the templates.
fn messages_in_the_source() -> (Vec<Read>, Vec<Read>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut code = Vec::new();
    let files = ["src", "crates"]
        .iter()
        .flat_map(|folder| crate::source_code::library_files(&root.join(folder)));
    for (file, text) in files {
        let text = crate::source_code::without_test_items(&text);
        let mut joined = String::with_capacity(text.len());
        let mut lines = text.lines().filter(|l| !l.trim_start().starts_with("//"));
        while let Some(line) = lines.next() {
            let mut line = line.to_string();
            while let Some(open) = line.strip_suffix('\\') {
                line = open.to_string();
                match lines.next() {
                    Some(next) => line.push_str(next.trim_start()),
                    None => break,
                }
            }
            joined.push_str(&line);
            joined.push('\n');
        }
        code.push(Read {
            source: file.display().to_string(),
            text: joined,
        });
    }
    let mut templates = Vec::new();
    for entry in std::fs::read_dir(root.join("templates")).unwrap() {
        let file = entry.unwrap().path();
        templates.push(Read {
            source: file.strip_prefix(root).unwrap().display().to_string(),
            text: std::fs::read_to_string(&file).unwrap(),
        });
    }
    (code, templates)
}

/// Whether `words` (after `realmgm`) are only the names of a command and
/// its subcommands (`campaign export`).
fn names_a_command(words: &[String]) -> bool {
    let mut command = realmgm::cli::command();
    for word in &words[1..] {
        match command.find_subcommand(word) {
            Some(sub) => command = sub.clone(),
            None => return false,
        }
    }
    true
}

#[test]
fn every_command_the_program_prints_parses_as_printed() {
    let started = std::time::Instant::now();
    let names = top_level();
    let (code, templates) = messages_in_the_source();
    let golden = golden_reports();
    let help = help_pages();
    let groups: [(&str, &[Read], Kind); 6] = [
        ("a month of mail and the GM's log", month(), Kind::Written),
        ("the demo", demo(), Kind::Written),
        ("rendered reports", &golden, Kind::Written),
        ("templates", &templates, Kind::Written),
        ("--help pages", &help, Kind::Help),
        ("messages in the source", &code, Kind::Format),
    ];
    let mut wrong = Vec::new();
    let mut distinct = std::collections::BTreeSet::new();
    let mut counts = Vec::new();
    let mut named = 0;
    for (group, reads, kind) in groups {
        let mut count = 0;
        for read in reads {
            for command in commands_in(&read.text, kind, &names) {
                count += 1;
                let words = arguments(&command);
                distinct.insert(words.join(" "));
                // `gm` refuses to run without its campaign, which clap
                // cannot require on either side of the command; only the
                // help's mentions of a command by name may leave it out,
                // and `gm status`, which then speaks of every campaign.
                let mention = kind == Kind::Help && names_a_command(&words);
                let every_campaign = words.get(2).is_some_and(|w| w == "status");
                if words[1] == "gm"
                    && !words.iter().any(|w| w == "--campaign")
                    && !mention
                    && !every_campaign
                {
                    wrong.push(format!(
                        "{}: `realmgm {command}`: names no campaign (--campaign C)",
                        read.source
                    ));
                }
                if let Err(error) = realmgm::cli::command().try_get_matches_from(&words) {
                    use clap::error::ErrorKind::{
                        DisplayHelp, DisplayVersion, MissingRequiredArgument,
                    };
                    // "copy it with `realmgm backup`" names a command, and
                    // its --help says what it needs; a command written with
                    // any argument must be whole.
                    if error.kind() == MissingRequiredArgument && names_a_command(&words) {
                        named += 1;
                    } else if !matches!(error.kind(), DisplayHelp | DisplayVersion) {
                        let first = error.to_string();
                        let first = first.lines().next().unwrap_or_default().to_string();
                        wrong.push(format!(
                            "{}: `realmgm {command}` (as `{}`): {first}",
                            read.source,
                            words[1..].join(" ")
                        ));
                    }
                }
            }
        }
        counts.push(format!("{count} from {group}"));
    }
    // A GM command a mail suggests (`[M16] gm status`) is one the daemon
    // reads by mail.
    let mut by_mail = 0;
    for read in month().iter().chain(demo()) {
        for line in read.text.lines() {
            for span in line.split('`').skip(1).step_by(2) {
                let bare = commands::bare_subject(span);
                if bare.starts_with("gm ") {
                    by_mail += 1;
                    if let Command::Gm(GmCommand::Unknown(_)) = commands::read(span, "") {
                        wrong.push(format!(
                            "{}: `{span}` is no GM command by mail",
                            read.source
                        ));
                    }
                }
            }
        }
    }
    counts.push(format!("{by_mail} GM commands by mail in the mail"));
    wrong.sort();
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "{} printed commands do not work as printed:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    eprintln!(
        "commands checked: {} ({} distinct; {named} name a command without its arguments), in {:?}",
        counts.join(", "),
        distinct.len(),
        started.elapsed()
    );
}

/// What the month cannot reach (an SMTP server that fails, a broken
/// battle file, a spell at the wrong target) is kept from Debug formatting
/// where it is written: no format string of the program's own code asks
/// for it.
#[test]
fn no_format_string_of_the_program_asks_for_debug_formatting() {
    let (code, _) = messages_in_the_source();
    let mut found = Vec::new();
    for read in &code {
        for line in read.text.lines() {
            if line.contains(":?}") || line.contains(":#?}") {
                found.push(format!("{}: {}", read.source, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "Debug formatting in the program's code; write what a person reads in words (a \
         Display impl or a name):\n{}",
        found.join("\n")
    );
}
