//! Reports by mail: the daemon queues each Magic Realm report
//! with its HTML alternative, map picture and JSON document, and both the
//! Maildir mailer and the local mailboxes deliver a multipart message whose
//! plain text comes first; read back with mail-parser.

use crate::support;

use mail_parser::{MessageParser, MimeHeaders};
use realmgm::daemon::turns::process::TurnOutcome;
use realmgm::mail::maildir::Maildir;
use realmgm::mail::transport::{LocalMailboxes, MailTransport, MaildirMailer};
use support::{START, add_campaign, daemon, mail};

const CAMPAIGN: &str = "name = \"R1\"\ngame = \"magic-realm\"\nseed = 21\n\
    [gm]\nemail = \"gm@realmgm.test\"\n\
    [schedule]\nfirst_deadline = \"2030-01-01\"\nat = \"20:00\"\nevery_hours = 24\n\
    [[players]]\nname = \"Ann\"\nemail = \"ann@realmgm.test\"\ncharacter = \"Amazon\"\n\
    [[players]]\nname = \"Ben\"\nemail = \"ben@realmgm.test\"\ncharacter = \"Wizard\"\n";

/// Every message delivered into `maildir`, raw.
fn delivered(maildir: &Maildir) -> Vec<Vec<u8>> {
    maildir
        .list_new()
        .unwrap()
        .iter()
        .map(|entry| maildir.read(entry).unwrap())
        .collect()
}

/// Check one delivered report: text first, then HTML, then the map, then
/// the JSON document, which follows its schema.
fn check_report(raw: &[u8]) {
    let message = MessageParser::default().parse(raw).unwrap();
    let text = message.body_text(0).unwrap();
    assert!(text.contains("== Your day =="), "{text}");
    assert!(text.contains("# Orders of the"), "{text}");
    let html = message.body_html(0).unwrap();
    assert!(html.contains("<h2>Your character</h2>"), "{html}");
    assert!(
        message.text_body[0] < message.html_body[0],
        "the plain text part comes first"
    );
    let map = message.attachments().next().expect("the map is attached");
    assert_eq!(map.attachment_name(), Some("map-day-1.svg"));
    let kind = map.content_type().unwrap();
    assert_eq!((kind.ctype(), kind.subtype()), ("image", Some("svg+xml")));
    assert!(map.contents().starts_with(b"<svg"));
    let json = message.attachments().nth(1).expect("the JSON is attached");
    assert_eq!(json.attachment_name(), Some("report-day-1.json"));
    let kind = json.content_type().unwrap();
    assert_eq!(
        (kind.ctype(), kind.subtype()),
        ("application", Some("json"))
    );
    let document: serde_json::Value = serde_json::from_slice(json.contents()).unwrap();
    let schema: serde_json::Value = serde_json::from_str(realmgm::report_document::SCHEMA).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&document)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert_eq!(document["player"], "Ann");
    assert_eq!(document["campaign"], "R1");
}

#[test]
fn reports_are_mailed_as_text_html_map_and_json_through_maildir_and_local_mailboxes() {
    let dir = std::env::temp_dir().join(format!("realmgm-report-mail-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for local in [false, true] {
        let mut daemon = daemon();
        add_campaign(&mut daemon.store, "magic-realm", CAMPAIGN);
        daemon.turns().check_turn("R1", START).unwrap();
        let outcome = daemon.turns().process_turn("R1", START + 60).unwrap();
        assert!(
            matches!(outcome, TurnOutcome::Processed { day: 1, .. }),
            "{outcome:?}"
        );
        let root = dir.join(if local { "local" } else { "maildir" });
        let transport: Box<dyn MailTransport> = if local {
            Box::new(LocalMailboxes::new(&root))
        } else {
            Box::new(MaildirMailer::new(&root).unwrap())
        };
        let summary = daemon
            .outbox()
            .send_due(transport.as_ref(), None, START + 120)
            .unwrap();
        assert_eq!(summary.failed + summary.deferred, 0, "{summary:?}");
        let ann = if local {
            delivered(&Maildir::open(root.join("ann")).unwrap())
        } else {
            delivered(&Maildir::open(&root).unwrap())
                .into_iter()
                .filter(|raw| String::from_utf8_lossy(raw).contains("To: ann@realmgm.test"))
                .collect()
        };
        let reports: Vec<&Vec<u8>> = ann
            .iter()
            .filter(|raw| {
                let text = String::from_utf8_lossy(raw);
                // Her start report before day 1 is not the day's report.
                text.contains("multipart/mixed") && !text.contains("start of the game")
            })
            .collect();
        assert_eq!(reports.len(), 1, "one report for Ann");
        check_report(reports[0]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_gms_history_asks_him_for_no_orders() {
    let mut daemon = daemon();
    add_campaign(&mut daemon.store, "magic-realm", CAMPAIGN);
    daemon.turns().check_turn("R1", START).unwrap();
    daemon.turns().process_turn("R1", START + 60).unwrap();
    let queued = daemon.store.outbox().due(i64::MAX).unwrap();
    let body_to = |address: &str| {
        queued
            .iter()
            .rev()
            .find(|q| q.mail.recipient == address)
            .map(|q| q.mail.body.clone())
            .expect("a day 1 report")
    };
    let gm = body_to("gm@realmgm.test");
    assert!(gm.contains("day 1 report"), "{gm}");
    assert!(!gm.contains("Password:"), "{gm}");
    assert!(
        gm.contains("The players' orders for day 2 are due by 2030-01-02 20:00 UTC."),
        "{gm}"
    );
    let ann = body_to("ann@realmgm.test");
    assert!(ann.contains("Send your orders for day 2 by"), "{ann}");
}

#[test]
fn a_report_sent_again_is_the_same_multipart_mail() {
    let dir = std::env::temp_dir().join(format!("realmgm-report-again-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut daemon = daemon();
    let secrets = add_campaign(&mut daemon.store, "magic-realm", CAMPAIGN);
    daemon.turns().check_turn("R1", START).unwrap();
    daemon.turns().process_turn("R1", START + 60).unwrap();
    let first = MaildirMailer::new(dir.join("first")).unwrap();
    daemon.outbox().send_due(&first, None, START + 120).unwrap();

    // The GM moves the deadline; the resent report says the one that holds.
    daemon.gm().extend("R1", 24, START + 170).unwrap();
    daemon
        .gm()
        .resend("R1", "Ann", Some(1), START + 180)
        .unwrap();
    let asked = mail(
        "ann@realmgm.test",
        "gm@realmgm.test",
        "[R1] report?",
        "again@x",
        &format!("Password: {}\n", secrets["Ann"]),
    );
    daemon.mail_in().ingest(&asked, START + 180).unwrap();
    let again = MaildirMailer::new(dir.join("again")).unwrap();
    daemon.outbox().send_due(&again, None, START + 240).unwrap();
    let resent = delivered(&Maildir::open(dir.join("again")).unwrap());
    assert_eq!(resent.len(), 2, "the GM's resend and the answer to report?");
    for raw in &resent {
        check_report(raw);
        assert!(String::from_utf8_lossy(raw).contains("again"));
    }
    let by_gm = resent
        .iter()
        .map(|raw| String::from_utf8_lossy(raw).to_string())
        .find(|text| text.contains("(sent again)"))
        .expect("the GM's resend");
    let now_due = format!(
        "Now: day 2's orders are due by {}.",
        realmgm::campaign::format_utc(
            realmgm::campaign::Schedule::deadline(
                &realmgm::campaign::Campaign::parse("c.toml", CAMPAIGN, realmgm::games::GAMES)
                    .unwrap()
                    .schedule,
                2
            ) + 24 * 3600
        )
    );
    assert!(by_gm.contains(&now_due), "{now_due}:\n{by_gm}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_campaigns_template_folder_shapes_its_reports_and_a_broken_one_holds_the_turn() {
    let dir = std::env::temp_dir().join(format!("realmgm-report-tpl-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("orders_form.txt"),
        "# Our house form for the {{ character }}\nActivities: {{ activities }}\n",
    )
    .unwrap();
    let text = CAMPAIGN.replace(
        "seed = 21\n",
        &format!("seed = 21\ntemplate_folder = \"{}\"\n", dir.display()),
    );
    let mut daemon = daemon();
    add_campaign(&mut daemon.store, "magic-realm", &text);
    daemon.turns().check_turn("R1", START).unwrap();
    let stored = daemon.campaign("R1").unwrap();
    let turn = daemon.turns().resolve_pending(&stored).unwrap();
    let (_, ann) = turn
        .reports
        .iter()
        .find(|(reader, _)| reader.as_deref() == Some("Ann"))
        .unwrap();
    assert!(
        ann.text
            .contains("# Our house form for the Amazon\nActivities: H / H / H / H"),
        "{}",
        ann.text
    );
    std::fs::write(dir.join("player_report.txt"), "ok\n{% for %}\n").unwrap();
    let outcome = daemon.turns().process_turn("R1", START + 60).unwrap();
    let TurnOutcome::Held(reason) = outcome else {
        panic!("a broken template must hold the turn: {outcome:?}")
    };
    assert!(reason.contains("player_report.txt, line 2"), "{reason}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_campaigns_confirmation_template_words_the_answer_and_a_broken_one_falls_back() {
    let dir = std::env::temp_dir().join(format!("realmgm-confirm-tpl-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("confirmation.txt"),
        "{% if accepted %}Got it, {{ player }}: version {{ version }} of day {{ day }}.\n{{ canonical }}\n{% endif %}",
    )
    .unwrap();
    let text = CAMPAIGN.replace(
        "seed = 21\n",
        &format!("seed = 21\ntemplate_folder = \"{}\"\n", dir.display()),
    );
    let mut daemon = daemon();
    let secrets = add_campaign(&mut daemon.store, "magic-realm", &text);
    let orders = |id: &str| {
        mail(
            "ann@realmgm.test",
            "gm@realmgm.test",
            "[R1] orders",
            id,
            &format!("H, H\nPassword: {}\n", secrets["Ann"]),
        )
    };
    daemon.mail_in().ingest(&orders("first@x"), START).unwrap();
    let bodies = |daemon: &realmgm::daemon::Daemon| -> Vec<String> {
        daemon
            .store
            .outbox()
            .due(START + 3600)
            .unwrap()
            .into_iter()
            .map(|m| m.mail.body)
            .collect()
    };
    let sent = bodies(&daemon);
    assert!(
        sent.iter()
            .any(|b| b.starts_with("Got it, Ann: version 1 of day 1.\nActivities: H / H")),
        "{sent:?}"
    );

    std::fs::write(dir.join("confirmation.txt"), "{{ no_such_field }}\n").unwrap();
    daemon
        .mail_in()
        .ingest(&orders("second@x"), START + 60)
        .unwrap();
    let sent = bodies(&daemon);
    assert!(
        sent.iter()
            .any(|b| b.contains("Your orders for day 1 are accepted (version 2)")),
        "the built-in wording goes out: {sent:?}"
    );
    let log = daemon.store.control().gm_log(Some("R1")).unwrap();
    assert!(
        log.iter()
            .any(|e| e.kind == "template" && e.message.contains("confirmation.txt")),
        "{log:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_private_message_is_repeated_in_its_readers_report_only() {
    let text = CAMPAIGN.replace(
        "seed = 21\n",
        "seed = 21\nrules = [\"unlimited_communication\"]\n",
    );
    let mut daemon = daemon();
    let secrets = add_campaign(&mut daemon.store, "magic-realm", &text);
    daemon.turns().check_turn("R1", START).unwrap();
    let body = format!("Password: {}\nMeet me at the Inn tonight.", secrets["Ben"]);
    let raw = support::mail(
        "ben@realmgm.test",
        "gm@realmgm.test",
        "[R1] to Amazon",
        "m1@x",
        &body,
    );
    let (_, note) = daemon.mail_in().ingest(&raw, START + 10).unwrap();
    assert!(note.contains("private message"), "{note}");
    let stored = daemon.campaign("R1").unwrap();
    let turn = daemon.turns().resolve_pending(&stored).unwrap();
    let report_of = |who: &str| {
        turn.reports
            .iter()
            .find(|(reader, _)| reader.as_deref() == Some(who))
            .map(|(_, r)| r.text.clone())
            .unwrap()
    };
    let ann = report_of("Ann");
    assert!(
        ann.contains("== Private messages ==\nFrom Wizard:\nMeet me at the Inn tonight."),
        "{ann}"
    );
    assert!(!report_of("Ben").contains("Meet me"));
}
