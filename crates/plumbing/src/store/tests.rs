//! Tests of opening and migrating the database, and the fixtures the
//! store's modules share in their own tests.

use std::path::PathBuf;

use serde_json::json;

use super::*;
use crate::campaign::Campaign;
use crate::game::GameState;

pub(super) const BIMR3: &str = include_str!("../../../../campaigns/bimr3.toml");
pub(super) const NOW: i64 = 1_740_000_000;

pub(super) fn bimr3() -> Campaign {
    Campaign::parse("bimr3.toml", BIMR3, crate::TEST_GAMES).unwrap()
}

pub(super) fn store_with_bimr3() -> (Store, Vec<PlayerSecret>) {
    let mut store = Store::open_in_memory(crate::TEST_GAMES).unwrap();
    let secrets = store.campaigns_mut().insert(&bimr3(), BIMR3, NOW).unwrap();
    (store, secrets)
}

/// A database file path unique to one test, removed when dropped.
pub(super) struct TempDb(pub(super) PathBuf);

impl TempDb {
    pub(super) fn new(test: &str) -> TempDb {
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
    let mut store = Store::open(&db.0, crate::TEST_GAMES).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    store.campaigns_mut().insert(&bimr3(), BIMR3, NOW).unwrap();
    drop(store);
    let store = Store::open(&db.0, crate::TEST_GAMES).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(store.campaigns().list().unwrap().len(), 1);
}

#[test]
fn an_old_database_is_migrated_and_keeps_its_data() {
    let db = TempDb::new("old");
    {
        let conn = rusqlite::Connection::open(&db.0).unwrap();
        let mut old = Store::migrated(conn, 1, crate::TEST_GAMES).unwrap();
        assert_eq!(old.schema_version().unwrap(), 1);
        old.campaigns_mut().insert(&bimr3(), BIMR3, NOW).unwrap();
        old.days_mut()
            .save("BIMR3", 0, &GameState::new(json!({"day": 0})), NOW)
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
    let mut store = Store::open(&db.0, crate::TEST_GAMES).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(store.campaigns().load("BIMR3").unwrap().players.len(), 5);
    assert_eq!(store.days().latest("BIMR3").unwrap().unwrap().day, 0);
    let order = NewOrder {
        campaign: "BIMR3",
        player: "Erin",
        day: 1,
        text: "H / H / H / H",
        parsed: None,
        source_mail: None,
        received: NOW,
    };
    assert_eq!(store.orders_mut().insert(&order).unwrap(), 1);
}

/// Holds standing before holds could lift themselves: those for a cause
/// the daemon checks again (setup, missing orders) lift themselves after
/// the upgrade; others still wait for the GM.
#[test]
fn holds_standing_before_the_upgrade_lift_themselves_by_their_cause() {
    let db = TempDb::new("holds-upgrade");
    {
        let conn = rusqlite::Connection::open(&db.0).unwrap();
        let mut old = Store::migrated(conn, 16, crate::TEST_GAMES).unwrap();
        old.campaigns_mut().insert(&bimr3(), BIMR3, NOW).unwrap();
        let mut other = bimr3();
        other.name = "OTHER".into();
        old.campaigns_mut()
            .insert(&other, &BIMR3.replace("BIMR3", "OTHER"), NOW)
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
    let store = Store::open(&db.0, crate::TEST_GAMES).unwrap();
    assert!(store.control().get("BIMR3").unwrap().hold_lifts_itself);
    assert!(!store.control().get("OTHER").unwrap().hold_lifts_itself);
}

/// A database left at any schema version, with a campaign in
/// it, opens at the latest with its campaign and players whole.
#[test]
fn a_database_at_every_older_version_migrates_to_the_latest() {
    for version in 1..SCHEMA_VERSION {
        let db = TempDb::new(&format!("v{version}"));
        {
            let conn = rusqlite::Connection::open(&db.0).unwrap();
            let mut old = Store::migrated(conn, version, crate::TEST_GAMES).unwrap();
            old.campaigns_mut().insert(&bimr3(), BIMR3, NOW).unwrap();
        }
        let store = Store::open(&db.0, crate::TEST_GAMES).unwrap();
        assert_eq!(
            store.schema_version().unwrap(),
            SCHEMA_VERSION,
            "from {version}"
        );
        let stored = store.campaigns().load("BIMR3").unwrap();
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
    let err = Store::open(&db.0, crate::TEST_GAMES).err().unwrap();
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
