//! Tests of the store: migrations, and each typed function against a real
//! SQLite database.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::json;

use super::*;
use crate::campaign::{Campaign, Email, Player};
use crate::game::GameState;
use crate::mail::arrival::{Arrival, arrival};

const BIMR3: &str = include_str!("../../campaigns/bimr3.toml");
const NOW: i64 = 1_740_000_000;

fn bimr3() -> Campaign {
    Campaign::parse("bimr3.toml", BIMR3).unwrap()
}

fn store_with_bimr3() -> (Store, Vec<PlayerSecret>) {
    let mut store = Store::open_in_memory().unwrap();
    let secrets = store
        .campaigns_mut()
        .insert_campaign(&bimr3(), BIMR3, NOW)
        .unwrap();
    (store, secrets)
}

/// A database file path unique to one test, removed when dropped.
struct TempDb(PathBuf);

impl TempDb {
    fn new(test: &str) -> TempDb {
        let path =
            std::env::temp_dir().join(format!("realmgm-{}-{test}.sqlite", std::process::id()));
        let db = TempDb(path);
        db.remove();
        db
    }

    fn remove(&self) {
        for suffix in ["", "-wal", "-shm"] {
            let mut name = self.0.clone().into_os_string();
            name.push(suffix);
            let _ = std::fs::remove_file(name);
        }
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        self.remove();
    }
}

#[test]
fn a_new_database_gets_every_migration_and_reopens_unchanged() {
    let db = TempDb::new("fresh");
    let mut store = Store::open(&db.0).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    store
        .campaigns_mut()
        .insert_campaign(&bimr3(), BIMR3, NOW)
        .unwrap();
    drop(store);
    let store = Store::open(&db.0).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(store.campaigns().list_campaigns().unwrap().len(), 1);
}

#[test]
fn an_old_database_is_migrated_and_keeps_its_data() {
    let db = TempDb::new("old");
    {
        let conn = rusqlite::Connection::open(&db.0).unwrap();
        let mut old = Store::migrated(conn, 1).unwrap();
        assert_eq!(old.schema_version().unwrap(), 1);
        old.campaigns_mut()
            .insert_campaign(&bimr3(), BIMR3, NOW)
            .unwrap();
        old.days_mut()
            .save_day("BIMR3", 0, &GameState::new(json!({"day": 0})), NOW)
            .unwrap();
        let tables: i64 = old
            .conn
            .query_row(
                "SELECT COUNT(*) FROM sqlite_master WHERE name = 'outbox'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(tables, 0, "version 1 has no outbox yet");
    }
    let mut store = Store::open(&db.0).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(
        store
            .campaigns()
            .load_campaign("BIMR3")
            .unwrap()
            .players
            .len(),
        5
    );
    assert_eq!(store.days().latest_day("BIMR3").unwrap().unwrap().day, 0);
    let order = NewOrder {
        campaign: "BIMR3",
        player: "Erin",
        day: 1,
        text: "H / H / H / H",
        parsed: None,
        source_mail: None,
        received: NOW,
    };
    assert_eq!(store.orders_mut().insert_order(&order).unwrap(), 1);
}

/// Holds standing before holds could lift themselves: those for a cause
/// the daemon checks again (setup, missing orders) lift themselves after
/// the upgrade; others still wait for the GM.
#[test]
fn holds_standing_before_the_upgrade_lift_themselves_by_their_cause() {
    let db = TempDb::new("holds-upgrade");
    {
        let conn = rusqlite::Connection::open(&db.0).unwrap();
        let mut old = Store::migrated(conn, 16).unwrap();
        old.campaigns_mut()
            .insert_campaign(&bimr3(), BIMR3, NOW)
            .unwrap();
        let mut other = bimr3();
        other.name = "OTHER".into();
        old.campaigns_mut()
            .insert_campaign(&other, &BIMR3.replace("BIMR3", "OTHER"), NOW)
            .unwrap();
        for (campaign, reason) in [
            (
                "BIMR3",
                "the game cannot be set up: seat of Dave has no character yet",
            ),
            ("OTHER", "day 3 was first seen 5 hours after its deadline"),
        ] {
            let id = old.control_row(campaign).unwrap();
            old.conn
                .execute(
                    "UPDATE daemon_state SET hold_reason = ?1 WHERE campaign_id = ?2",
                    rusqlite::params![reason, id],
                )
                .unwrap();
        }
    }
    let store = Store::open(&db.0).unwrap();
    assert!(store.control().get("BIMR3").unwrap().hold_lifts_itself);
    assert!(!store.control().get("OTHER").unwrap().hold_lifts_itself);
}

/// Issue 19 §3: a database left at any schema version, with a campaign in
/// it, opens at the latest with its campaign and players whole.
#[test]
fn a_database_at_every_older_version_migrates_to_the_latest() {
    for version in 1..SCHEMA_VERSION {
        let db = TempDb::new(&format!("v{version}"));
        {
            let conn = rusqlite::Connection::open(&db.0).unwrap();
            let mut old = Store::migrated(conn, version).unwrap();
            old.campaigns_mut()
                .insert_campaign(&bimr3(), BIMR3, NOW)
                .unwrap();
        }
        let store = Store::open(&db.0).unwrap();
        assert_eq!(
            store.schema_version().unwrap(),
            SCHEMA_VERSION,
            "from {version}"
        );
        let stored = store.campaigns().load_campaign("BIMR3").unwrap();
        assert_eq!(stored.players.len(), 5, "from version {version}");
        assert!(stored.left_characters.is_empty(), "from version {version}");
        assert!(store.rulings().on_day("BIMR3", 1).unwrap().is_empty());
        assert_eq!(store.announcements().narrative("BIMR3", 1).unwrap(), None);
    }
}

#[test]
fn a_database_from_a_newer_realmgm_is_refused() {
    let db = TempDb::new("newer");
    {
        let conn = rusqlite::Connection::open(&db.0).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
    }
    let err = Store::open(&db.0).err().unwrap();
    assert!(err.to_string().contains("use a newer realmgm"), "{err}");
}

#[test]
fn a_failing_migration_leaves_the_version_alone() {
    let mut conn = rusqlite::Connection::open_in_memory().unwrap();
    // A table in the way of migration 2 makes it fail half-way.
    migrate(&mut conn, 1).unwrap();
    conn.execute_batch("CREATE TABLE outbox (x INTEGER)")
        .unwrap();
    let err = migrate(&mut conn, SCHEMA_VERSION).unwrap_err();
    assert!(
        err.to_string().contains("migration 0002_mail failed"),
        "{err}"
    );
    assert_eq!(user_version(&conn).unwrap(), 1);
    let inbound: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE name = 'inbound_mail'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(inbound, 0, "the half-applied migration was rolled back");
}

#[test]
fn campaign_round_trips_with_verbatim_text_and_players() {
    let (mut store, secrets) = store_with_bimr3();
    let stored = store.campaigns().load_campaign("bimr3").unwrap();
    assert_eq!(stored.campaign, bimr3());
    assert_eq!(stored.file_text, BIMR3);
    assert_eq!(stored.created, NOW);
    let names: Vec<&str> = stored.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Erin", "Frank", "Grace", "Heidi", "Ivan"]);
    assert_eq!(secrets.len(), 5);
    assert_eq!(secrets[0].player, "Erin");
    assert_eq!(secrets[0].email, "erin@example.org");
    let summary = &store.campaigns().list_campaigns().unwrap()[0];
    assert_eq!(
        (summary.name.as_str(), summary.players, summary.latest_day),
        ("BIMR3", 5, None)
    );
    // A player who left is not counted, as `campaign show` lists him not.
    store
        .players_mut()
        .remove_player("BIMR3", "Ivan", true, NOW)
        .unwrap();
    let listed = store.campaigns().list_campaigns().unwrap()[0].players;
    let shown = store
        .campaigns()
        .load_campaign("BIMR3")
        .unwrap()
        .players
        .len();
    assert_eq!((listed, shown), (4, 4));
}

#[test]
fn secrets_are_checked_and_never_stored() {
    let (store, secrets) = store_with_bimr3();
    assert!(
        store
            .players()
            .check_secret("BIMR3", "erin", &secrets[0].secret)
            .unwrap()
    );
    assert!(
        !store
            .players()
            .check_secret("BIMR3", "Frank", &secrets[0].secret)
            .unwrap()
    );
    let stored: String = store
        .conn
        .query_row(
            "SELECT secret_hash FROM players WHERE name = 'Erin'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(!stored.contains(&secrets[0].secret));
    let err = store
        .players()
        .check_secret("BIMR3", "Nobody", "x")
        .unwrap_err();
    assert!(err.to_string().contains("no player named Nobody"), "{err}");
}

#[test]
fn duplicate_campaign_name_is_refused_in_any_case() {
    let (mut store, _) = store_with_bimr3();
    let mut again = bimr3();
    again.name = "bimr3".into();
    let err = store
        .campaigns_mut()
        .insert_campaign(&again, BIMR3, NOW)
        .unwrap_err();
    assert!(matches!(err, StoreError::DuplicateCampaign(_)), "{err}");
    assert!(
        err.to_string().contains("realmgm campaign show bimr3"),
        "{err}"
    );
}

#[test]
fn players_join_choose_characters_and_are_found_by_address() {
    let (mut store, _) = store_with_bimr3();
    let judy = Player {
        name: "Judy".into(),
        email: Email::try_from("judy@example.org".to_string()).unwrap(),
        character: None,
        team: Vec::new(),
    };
    store
        .players_mut()
        .add_player("BIMR3", &judy, NOW + 5)
        .unwrap();
    let err = store
        .players_mut()
        .add_player("BIMR3", &judy, NOW + 6)
        .unwrap_err();
    assert!(matches!(err, StoreError::DuplicatePlayer { .. }), "{err}");
    store
        .players_mut()
        .set_character("BIMR3", "Judy", "Elf")
        .unwrap();
    let found = store
        .players()
        .player_by_email("BIMR3", "JUDY@example.org")
        .unwrap()
        .unwrap();
    assert_eq!(
        (found.name.as_str(), found.character.as_deref()),
        ("Judy", Some("Elf"))
    );
    assert_eq!(found.joined, NOW + 5);
    assert_eq!(
        store
            .players()
            .player_by_email("BIMR3", "nobody@example.org")
            .unwrap(),
        None
    );
}

#[test]
fn day_snapshots_save_load_and_refuse_a_different_state() {
    let (mut store, _) = store_with_bimr3();
    assert_eq!(store.days().latest_day("BIMR3").unwrap(), None);
    let day0 = GameState::new(json!({"day": 0, "board": ["AV", "BV"]}));
    let day1 = GameState::new(json!({"day": 1}));
    let hash = store.days_mut().save_day("BIMR3", 0, &day0, NOW).unwrap();
    assert_eq!(hash, day0.hash());
    store
        .days_mut()
        .save_day("BIMR3", 1, &day1, NOW + 10)
        .unwrap();
    assert_eq!(
        store
            .days_mut()
            .save_day("BIMR3", 1, &day1, NOW + 20)
            .unwrap(),
        day1.hash()
    );
    let err = store
        .days_mut()
        .save_day("BIMR3", 1, &day0, NOW + 30)
        .unwrap_err();
    assert!(
        matches!(err, StoreError::DayConflict { day: 1, .. }),
        "{err}"
    );

    let loaded = store.days().load_day("BIMR3", 0).unwrap().unwrap();
    assert_eq!((loaded.state, loaded.hash), (day0, hash));
    let latest = store.days().latest_day("BIMR3").unwrap().unwrap();
    assert_eq!((latest.day, latest.created), (1, NOW + 10));
    assert_eq!(store.days().load_day("BIMR3", 5).unwrap(), None);
    assert_eq!(
        store.campaigns().list_campaigns().unwrap()[0].latest_day,
        Some(1)
    );
    let err = store.days().latest_day("NOPE").unwrap_err();
    assert!(err.to_string().contains("realmgm campaign list"), "{err}");
}

#[test]
fn a_loaded_state_is_shared_until_its_day_is_saved_anew() {
    let db = TempDb::new("shared-state");
    let mut store = Store::open(&db.0).unwrap();
    store
        .campaigns_mut()
        .insert_campaign(&bimr3(), BIMR3, NOW)
        .unwrap();
    let first = GameState::new(json!({"day": 1, "gold": 10}));
    let second = GameState::new(json!({"day": 1, "gold": 20}));
    store
        .days_mut()
        .save_day("BIMR3", 0, &GameState::new(json!({"day": 0})), NOW)
        .unwrap();
    store.days_mut().save_day("BIMR3", 1, &first, NOW).unwrap();
    let readings = std::cell::Cell::new(0);
    let gold = |state: &GameState| {
        state
            .typed(|json| {
                readings.set(readings.get() + 1);
                Ok::<_, ()>(json["gold"].as_i64())
            })
            .unwrap()
    };
    // The saved state, its reading and all, comes back on every load.
    assert_eq!(*gold(&first), Some(10));
    for _ in 0..3 {
        let loaded = store.days().latest_day("BIMR3").unwrap().unwrap();
        assert_eq!(*gold(&loaded.state), Some(10));
    }
    assert_eq!(readings.get(), 1);
    // A rollback and a different day 1 give the new state, not the kept one.
    store.days_mut().rollback_to("BIMR3", 0).unwrap();
    assert_eq!(store.days().load_day("BIMR3", 1).unwrap(), None);
    store
        .days_mut()
        .save_day("BIMR3", 1, &second, NOW + 10)
        .unwrap();
    let loaded = store.days().load_day("BIMR3", 1).unwrap().unwrap();
    assert_eq!(*gold(&loaded.state), Some(20));
    // Another store on the same file reads it from its JSON once.
    let reopened = Store::open(&db.0).unwrap();
    let again = reopened.days().load_day("BIMR3", 1).unwrap().unwrap();
    assert_eq!((*gold(&again.state), again.hash), (Some(20), second.hash()));
    assert_eq!(readings.get(), 3);
}

#[test]
fn every_order_version_is_kept_and_the_latest_counts() {
    let (mut store, _) = store_with_bimr3();
    let parsed = json!({"phases": ["H", "H"]});
    let mut order = NewOrder {
        campaign: "BIMR3",
        player: "Frank",
        day: 1,
        text: "H / H",
        parsed: Some(&parsed),
        source_mail: None,
        received: NOW,
    };
    assert_eq!(store.orders_mut().insert_order(&order).unwrap(), 1);
    order.text = "M-CV4 / H";
    order.parsed = None;
    order.received = NOW + 60;
    assert_eq!(store.orders_mut().insert_order(&order).unwrap(), 2);
    order.player = "Erin";
    assert_eq!(store.orders_mut().insert_order(&order).unwrap(), 1);
    order.day = 2;
    assert_eq!(store.orders_mut().insert_order(&order).unwrap(), 1);

    let all = store.orders().orders_for_day("BIMR3", 1).unwrap();
    let seen: Vec<(&str, u32)> = all.iter().map(|o| (o.player.as_str(), o.version)).collect();
    assert_eq!(seen, [("Erin", 1), ("Frank", 1), ("Frank", 2)]);
    assert_eq!(all[1].parsed.as_ref(), Some(&parsed));
    let latest = store.orders().latest_orders("BIMR3", 1).unwrap();
    let seen: Vec<(&str, &str)> = latest
        .iter()
        .map(|o| (o.player.as_str(), o.text.as_str()))
        .collect();
    assert_eq!(seen, [("Erin", "M-CV4 / H"), ("Frank", "M-CV4 / H")]);
    order.player = "Zed";
    assert!(matches!(
        store.orders_mut().insert_order(&order),
        Err(StoreError::NoSuchPlayer { .. })
    ));
}

#[test]
fn events_are_numbered_in_order_across_appends() {
    let (mut store, _) = store_with_bimr3();
    let everyone: Vec<String> = vec!["Erin".into(), "Frank".into()];
    store
        .days_mut()
        .append_events(
            "BIMR3",
            1,
            &[(json!({"monster_roll": 3}), everyone.clone())],
        )
        .unwrap();
    store
        .days_mut()
        .append_events(
            "BIMR3",
            1,
            &[
                (json!({"hide": "ok"}), vec!["Erin".into()]),
                (json!({"x": 1}), vec![]),
            ],
        )
        .unwrap();
    let events = store.days().events("BIMR3", 1).unwrap();
    let seqs: Vec<u32> = events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [1, 2, 3]);
    assert_eq!(events[0].observers, everyone);
    assert_eq!(events[1].event, json!({"hide": "ok"}));
    assert!(store.days().events("BIMR3", 2).unwrap().is_empty());
}

#[test]
fn a_letter_delivered_again_through_another_relay_is_kept_as_a_duplicate() {
    let mut store = Store::open_in_memory().unwrap();
    let raw = b"From: ann@x.test\r\nMessage-ID: <a@x>\r\nSubject: [B] o\r\n\r\nH / H\r\n";
    let first = store
        .inbox_mut()
        .insert_inbound_mail(raw, &arrival(raw), NOW)
        .unwrap();
    let mut relayed = b"Received: from relay2 by mx; Tue, 1 Jan 2030\r\n".to_vec();
    relayed.extend_from_slice(raw);
    let again = store
        .inbox_mut()
        .insert_inbound_mail(&relayed, &arrival(&relayed), NOW + 1)
        .unwrap();
    assert_eq!(
        again,
        InboundInsert::Redelivered {
            id: again.id(),
            original: first.id()
        }
    );
    let copies = store
        .inbox()
        .inbound_with_status(InboundStatus::Duplicate)
        .unwrap();
    assert_eq!(copies.len(), 1);
    let relayed_headers = &relayed[..relayed.len() - b"\r\nH / H\r\n".len()];
    assert_eq!(copies[0].raw, relayed_headers, "the copy keeps its headers");
    assert!(
        copies[0]
            .note
            .as_deref()
            .unwrap()
            .contains("second delivery")
    );
    assert_eq!(
        store
            .inbox()
            .inbound_with_status(InboundStatus::New)
            .unwrap()
            .len(),
        1
    );
    // The same Message-ID from another sender, or with another body, is a
    // letter of its own.
    let forged = b"From: eve@x.test\r\nMessage-ID: <a@x>\r\nSubject: [B] o\r\n\r\nH / H\r\n";
    let forged = store
        .inbox_mut()
        .insert_inbound_mail(forged, &arrival(forged), NOW + 2)
        .unwrap();
    assert!(matches!(forged, InboundInsert::New(_)));
    assert_eq!(
        store
            .inbox()
            .earlier_mail_with_message_id(forged.id())
            .unwrap(),
        Some(first.id())
    );
    assert_eq!(
        store
            .inbox()
            .earlier_mail_with_message_id(first.id())
            .unwrap(),
        None
    );
}

#[test]
fn inbound_mail_is_recorded_once() {
    let mut store = Store::open_in_memory().unwrap();
    let raw = b"Message-ID: <a@x>\r\nSubject: [BIMR3] orders\r\n\r\nH / H\r\n";
    let first = store
        .inbox_mut()
        .insert_inbound_mail(raw, &arrival(raw), NOW)
        .unwrap();
    assert!(matches!(first, InboundInsert::New(_)));
    let again = store
        .inbox_mut()
        .insert_inbound_mail(raw, &arrival(raw), NOW + 1)
        .unwrap();
    assert_eq!(again, InboundInsert::Duplicate(first.id()));
    // Same bytes without a Message-ID, or a different body: both new.
    let other = store
        .inbox_mut()
        .insert_inbound_mail(raw, &Arrival::default(), NOW + 2)
        .unwrap();
    assert!(matches!(other, InboundInsert::New(_)));
    assert_eq!(
        store
            .inbox_mut()
            .insert_inbound_mail(raw, &Arrival::default(), NOW + 3)
            .unwrap()
            .id(),
        other.id()
    );
    let changed = store
        .inbox_mut()
        .insert_inbound_mail(
            b"different",
            &Arrival {
                message_id: "a@x".into(),
                ..arrival(b"different")
            },
            NOW + 4,
        )
        .unwrap();
    assert!(matches!(changed, InboundInsert::New(_)));

    store
        .inbox_mut()
        .set_inbound_status(first.id(), InboundStatus::Rejected, Some("no secret"))
        .unwrap();
    let new = store
        .inbox()
        .inbound_with_status(InboundStatus::New)
        .unwrap();
    assert_eq!(new.len(), 2);
    let rejected = store
        .inbox()
        .inbound_with_status(InboundStatus::Rejected)
        .unwrap();
    assert_eq!(rejected[0].raw, raw);
    assert_eq!(rejected[0].message_id, "a@x");
    assert_eq!(rejected[0].note.as_deref(), Some("no secret"));
}

#[test]
fn outbox_queues_retries_and_gives_up() {
    let (mut store, _) = store_with_bimr3();
    let mail = OutgoingMail {
        campaign: Some("BIMR3".into()),
        recipient: "erin@example.org".into(),
        subject: "[BIMR3] Day 1 results".into(),
        body: "You hide.".into(),
        headers: BTreeMap::from([("In-Reply-To".to_string(), "<a@x>".to_string())]),
        html: Some("<p>You hide.</p>".into()),
        attachments: vec![crate::store::MailAttachment {
            name: "map.svg".into(),
            mime: "image/svg+xml".into(),
            bytes: b"<svg/>".to_vec(),
        }],
        report: None,
    };
    let id = store.outbox_mut().enqueue_mail(&mail, NOW).unwrap();
    let loose = OutgoingMail {
        campaign: None,
        ..mail.clone()
    };
    let loose_id = store.outbox_mut().enqueue_mail(&loose, NOW + 1).unwrap();
    assert!(store.outbox().due_mail(NOW - 1).unwrap().is_empty());
    let due = store.outbox().due_mail(NOW + 1).unwrap();
    assert_eq!(due.len(), 2);
    assert_eq!((due[0].id, &due[0].mail, due[0].attempts), (id, &mail, 0));

    store
        .outbox_mut()
        .mark_mail_failed(id, "connection refused", Some(NOW + 300))
        .unwrap();
    store.outbox_mut().mark_mail_sent(loose_id).unwrap();
    assert!(store.outbox().due_mail(NOW + 299).unwrap().is_empty());
    let due = store.outbox().due_mail(NOW + 300).unwrap();
    assert_eq!(
        (due[0].attempts, due[0].last_error.as_deref()),
        (1, Some("connection refused"))
    );
    store
        .outbox_mut()
        .mark_mail_failed(id, "mailbox unknown", None)
        .unwrap();
    assert!(store.outbox().due_mail(NOW + 10_000).unwrap().is_empty());

    let unknown = OutgoingMail {
        campaign: Some("NOPE".into()),
        ..mail
    };
    assert!(matches!(
        store.outbox_mut().enqueue_mail(&unknown, NOW),
        Err(StoreError::NoSuchCampaign(_))
    ));
}

#[test]
fn a_report_mail_carries_the_stored_report_and_is_pruned_once_old() {
    let (mut store, _) = store_with_bimr3();
    let map = format!("<svg>{}</svg>", "<polygon points='1,2 3,4'/>".repeat(300));
    let html = format!("<p>{}</p>", "You hide in the Oak Woods. ".repeat(100));
    store
        .days_mut()
        .save_report(
            "BIMR3",
            Some("Erin"),
            &StoredReport {
                day: 1,
                subject: "[BIMR3] Day 1 report".into(),
                text: "You hide in the Oak Woods. ".repeat(100),
                html: Some(html.clone()),
                attachments: vec![MailAttachment {
                    name: "map.svg".into(),
                    mime: "image/svg+xml".into(),
                    bytes: map.clone().into_bytes(),
                }],
            },
        )
        .unwrap();
    let mail = OutgoingMail {
        campaign: Some("BIMR3".into()),
        recipient: "erin@example.org".into(),
        subject: "[BIMR3] Day 1 report".into(),
        body: "=== [BIMR3] day 1 report ===".into(),
        report: Some(ReportParts {
            day: 1,
            reader: Some("Erin".into()),
        }),
        ..OutgoingMail::default()
    };
    let id = store.outbox_mut().enqueue_mail(&mail, NOW).unwrap();
    // The mail stores neither the HTML nor the map: it reads them from the report.
    let (html_kept, files_kept): (Option<String>, i64) = store
        .conn
        .query_row(
            "SELECT html, (SELECT COUNT(*) FROM outbox_attachments WHERE outbox_id = ?1) \
             FROM outbox WHERE id = ?1",
            params![id],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .unwrap();
    assert_eq!((html_kept, files_kept), (None, 0));
    let due = store.outbox().due_mail(NOW).unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].mail.html.as_deref(), Some(html.as_str()));
    assert_eq!(due[0].mail.attachments[0].bytes, map.as_bytes());
    // The report is stored compressed and read back whole.
    let stored: i64 = store
        .conn
        .query_row("SELECT length(html) FROM reports", [], |row| row.get(0))
        .unwrap();
    assert!(stored * 5 < html.len() as i64, "{stored} of {}", html.len());
    let report = store
        .days()
        .report("BIMR3", Some("Erin"), Some(1))
        .unwrap()
        .unwrap();
    assert_eq!(report.html.as_deref(), Some(html.as_str()));
    assert_eq!(report.attachments[0].bytes, map.as_bytes());

    // Sent, then old: its contents go, its row and the report stay.
    assert_eq!(
        store
            .outbox_mut()
            .prune_sent("BIMR3", NOW + 1, NOW + 2)
            .unwrap(),
        0,
        "not sent yet"
    );
    store.outbox_mut().mark_mail_sent(id).unwrap();
    assert_eq!(
        store
            .outbox_mut()
            .prune_sent("BIMR3", NOW, NOW + 2)
            .unwrap(),
        0,
        "not old yet"
    );
    assert_eq!(
        store
            .outbox_mut()
            .prune_sent("BIMR3", NOW + 1, NOW + 2)
            .unwrap(),
        1
    );
    assert_eq!(
        store
            .outbox_mut()
            .prune_sent("BIMR3", NOW + 1, NOW + 3)
            .unwrap(),
        0,
        "once"
    );
    let (body, pruned): (String, i64) = store
        .conn
        .query_row(
            "SELECT body, pruned FROM outbox WHERE id = ?1",
            params![id],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .unwrap();
    assert_eq!((body.as_str(), pruned), ("", NOW + 2));
    let report = store
        .days()
        .report("BIMR3", Some("Erin"), Some(1))
        .unwrap()
        .unwrap();
    assert_eq!(report.attachments[0].bytes, map.as_bytes());
}
