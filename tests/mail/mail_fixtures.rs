//! Real-world-shaped mails (tests/fixtures/mail/) through the inbound
//! parser, the reply cleaner, the robot detector and the router.

use std::path::PathBuf;

use realmgm::mail::auto::AutoKind;
use realmgm::mail::clean::{CutReason, clean_reply};
use realmgm::mail::inbound::{BodySource, InboundMail, InboundOptions, parse};
use realmgm::mail::route::{Routed, route, take_password};

fn fixture(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/mail")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Where `mail` goes when every tag names a campaign of GM `gm`.
fn routed(mail: &InboundMail) -> Option<Routed<String>> {
    route(mail, |tag| Some((tag.to_string(), "gm".to_string())))
}

fn parsed(name: &str) -> InboundMail {
    parse(&fixture(name), &InboundOptions::default())
        .unwrap_or_else(|e| panic!("{name} did not parse: {e}"))
}

#[test]
fn gmail_reply_orders_on_top_of_the_quoted_report() {
    let mail = parsed("gmail_reply.eml");
    assert_eq!(mail.body_source, BodySource::Plain);
    assert_eq!(mail.from.as_ref().unwrap().address, "ann.player@gmail.com");
    assert_eq!(
        mail.from.as_ref().unwrap().name.as_deref(),
        Some("Ann Player")
    );
    assert_eq!(mail.delivered_to, vec!["gm+bimr3.k7q2xw@realmgm.test"]);
    assert_eq!(
        mail.in_reply_to,
        vec!["realmgm.bimr3.report-day-3-Amazon.7@realmgm.test"]
    );
    assert_eq!(mail.references.len(), 2);
    assert_eq!(mail.auto_kind, None);
    assert_eq!(
        routed(&mail),
        Some(Routed {
            campaign: "bimr3".into(),
            secret: Some("k7q2xw".into())
        })
    );

    let cleaned = clean_reply(&mail.body_text);
    assert_eq!(cleaned.cut, Some(CutReason::Attribution));
    assert_eq!(
        cleaned.text,
        "Password: amazon-rules\nM-CV5 / H / S / S\n\nThanks — Ann"
    );
    assert_eq!(cleaned.first_line, 1);
    let orders = take_password(&cleaned.text);
    assert_eq!(orders.password.as_deref(), Some("amazon-rules"));
    assert_eq!(orders.text, "\nM-CV5 / H / S / S\n\nThanks — Ann");
    // Line 2 of the orders text is line 2 of the mail body.
    assert_eq!(cleaned.original_line(2), 2);
    assert!(!orders.text.contains("Cave 5"));
}

#[test]
fn outlook_reply_in_windows_1252() {
    let mail = parsed("outlook_reply.eml");
    assert_eq!(mail.cc, vec!["carol@example.com"]);
    assert_eq!(routed(&mail).unwrap().campaign, "bimr3");
    assert_eq!(routed(&mail).unwrap().secret, None);
    let cleaned = clean_reply(&mail.body_text);
    assert_eq!(cleaned.cut, Some(CutReason::OriginalMessage));
    assert_eq!(
        cleaned.text,
        "H / H / R / R\n\nI\u{2019}ll rest today.\n\nBob Berg\nSenior Knight"
    );
    assert!(!cleaned.text.contains("Ruins"));
}

#[test]
fn html_only_mail_becomes_text_and_its_quote_is_cut() {
    let mail = parsed("html_only.eml");
    assert_eq!(mail.body_source, BodySource::Html);
    assert!(!mail.body_text.contains("tracking"));
    assert!(!mail.body_text.contains("font-family"));
    assert!(!mail.body_text.contains('<'));
    let cleaned = clean_reply(&mail.body_text);
    assert_eq!(cleaned.text, "M-CV5 & hide\n\nTrade\nRest");
    assert_eq!(routed(&mail).unwrap().campaign, "bimr3");
}

#[test]
fn iso_8859_1_body_and_encoded_headers() {
    let mail = parsed("latin1.eml");
    assert_eq!(
        mail.from.as_ref().unwrap().name.as_deref(),
        Some("Jürgen Müller")
    );
    assert_eq!(mail.subject, "Re: [BIMR3] Grüße");
    assert!(
        mail.body_text.starts_with("Grüße aus Köln!\n"),
        "{:?}",
        mail.body_text
    );
    let cleaned = clean_reply(&mail.body_text);
    assert_eq!(cleaned.text, "Grüße aus Köln!\nM-CV5 / H");
    assert_eq!(cleaned.cut, Some(CutReason::Attribution));
}

#[test]
fn base64_body_is_decoded() {
    let mail = parsed("base64_body.eml");
    assert_eq!(
        mail.body_text,
        "Orders for the Elf — day 4\nM-OW2 / H / H\nÉlan!\n"
    );
    assert_eq!(mail.auto_kind, None);
}

#[test]
fn bounce_names_the_failed_player_address() {
    let mail = parsed("bounce_dsn.eml");
    assert_eq!(
        mail.auto_kind,
        Some(AutoKind::Bounce {
            failed_recipients: vec!["player2@example.org".into()]
        })
    );
    assert!(
        mail.auto_kind
            .unwrap()
            .describe()
            .contains("player2@example.org")
    );
}

#[test]
fn autoreply_is_never_answered() {
    let mail = parsed("autoreply.eml");
    assert_eq!(
        mail.auto_kind,
        Some(AutoKind::AutoSubmitted {
            value: "auto-replied".into()
        })
    );
}

#[test]
fn malformed_mail_still_yields_something_usable() {
    let raw = fixture("malformed.eml");
    let mail = parse(&raw, &InboundOptions::default()).expect("malformed but has headers");
    assert_eq!(mail.to, vec!["gm@realmgm.test"]);
    assert!(mail.date.is_none(), "'yesterday-ish' is no date");
    assert_eq!(mail.content_hash.len(), 64);
    // Whatever mail-parser made of the body, it is valid UTF-8 text.
    assert!(mail.body_text.chars().all(|c| c != '\0'));
    assert_eq!(routed(&mail).unwrap().secret, None);
}

#[test]
fn huge_attachment_is_ignored_and_listed_small_one_kept() {
    let template = String::from_utf8(fixture("huge_attachment.eml")).unwrap();
    // 2 MiB of image data, base64 in 76-column lines.
    let line = "/9j/".to_string() + &"A".repeat(72);
    let lines = 2 * 1024 * 1024 / 57 + 1;
    let payload = vec![line; lines].join("\r\n");
    let raw = template.replace("@@PAYLOAD@@", &payload);
    let mail = parse(raw.as_bytes(), &InboundOptions::default()).unwrap();
    assert_eq!(mail.body_text.trim_end(), "H / H / S / S");
    assert_eq!(mail.attachments_ignored.len(), 1);
    assert_eq!(mail.attachments_ignored[0].name, "sheet.jpg");
    assert!(mail.attachments_ignored[0].size > 2 * 1024 * 1024);
    assert_eq!(mail.attachments.len(), 1);
    assert_eq!(mail.attachments[0].name, "orders.txt");
    assert_eq!(mail.attachments[0].mime, "text/plain");
    assert_eq!(mail.attachments[0].bytes, b"M-CV5\r\n");
}

#[test]
fn empty_body_is_an_empty_text() {
    let mail = parsed("empty_body.eml");
    assert_eq!(mail.body_text.trim(), "");
    assert_eq!(mail.subject, "[BIMR3]");
    let cleaned = clean_reply(&mail.body_text);
    assert_eq!(cleaned.text, "");
    assert_eq!(routed(&mail).unwrap().campaign, "bimr3");
}

#[test]
fn every_fixture_has_a_stable_hash() {
    for name in [
        "gmail_reply.eml",
        "outlook_reply.eml",
        "html_only.eml",
        "latin1.eml",
        "base64_body.eml",
        "bounce_dsn.eml",
        "autoreply.eml",
        "malformed.eml",
        "huge_attachment.eml",
        "empty_body.eml",
    ] {
        let first = parsed(name);
        let again = parsed(name);
        assert_eq!(first, again, "{name} parses the same twice");
        assert_eq!(first.content_hash.len(), 64);
    }
}
