//! Stored campaigns (table `campaigns`): each campaign's file and checked
//! form, the progress of its setup by mail (`setup_by_mail`), and copies of
//! a whole campaign to and from another database ([`super::transfer`]).
//!
//! The campaign file is kept verbatim next to its checked form, so the GM
//! can always see what he wrote. Characters chosen after the campaign was
//! created live in `players` ([`super::players`]), which is the authority on
//! who plays what; a loaded campaign carries them.

use std::ops::{Deref, DerefMut};
use std::path::Path;

use rusqlite::{OptionalExtension, params};

use super::players::{PlayerSecret, insert_player};
use super::transfer::{OTHER, Transfer, attach, check, copy_campaign, detach};
use super::{Store, StoreError};
use crate::campaign::Campaign;
use crate::game::Games;

/// A campaign as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredCampaign {
    pub campaign: Campaign,
    /// The campaign file exactly as it was given to `campaign new`.
    pub file_text: String,
    pub created: i64,
    /// The players now, in the order they joined.
    pub players: Vec<PlayerRecord>,
    /// Players who left but whose characters stay in the game, played by
    /// the campaign's policy for missing orders; they get no mail.
    pub left_characters: Vec<PlayerRecord>,
}

impl StoredCampaign {
    /// Every seat the game knows: each player and the character he plays,
    /// if chosen, and the seats of those who left their character behind.
    /// A player who plays several characters has a seat for each: his
    /// first is his record's, the further ones the campaign file's
    /// `more_characters`.
    pub fn seats(&self) -> Vec<crate::game::Seat> {
        let mut seats = Vec::new();
        for p in self.players.iter().chain(&self.left_characters) {
            seats.push(crate::game::Seat {
                player: p.name.clone(),
                role: p.character.clone(),
            });
            let more = self
                .campaign
                .players
                .iter()
                .filter(|filed| filed.name == p.name)
                .flat_map(|filed| filed.seats().skip(1));
            seats.extend(more);
        }
        seats
    }
}

/// A player as stored (never his secret, only its hash).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PlayerRecord {
    pub name: String,
    pub email: String,
    pub character: Option<String>,
    pub joined: i64,
}

/// One line of `campaign list`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CampaignSummary {
    pub name: String,
    pub game: String,
    pub created: i64,
    pub players: u32,
    /// The last day with a saved state; `None` before setup.
    pub latest_day: Option<u32>,
}

/// The stored campaigns: their files, setup, and copies to other databases.
///
/// Borrowed from the store by [`Store::campaigns`] to read and [`Store::campaigns_mut`]
/// to change.
pub struct Campaigns<S> {
    pub(super) store: S,
}

impl<S: Deref<Target = Store>> Campaigns<S> {
    /// Load campaign `name` (any case) with its players.
    ///
    /// # Errors
    /// No such campaign, or its stored form cannot be read.
    pub fn load(&self, name: &str) -> Result<StoredCampaign, StoreError> {
        let campaign_id = self.store.campaign_id(name)?;
        let (tag, file_text, json, created): (String, String, String, i64) =
            self.store.conn.query_row(
                "SELECT name, file_text, parsed_json, created FROM campaigns WHERE id = ?1",
                params![campaign_id],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
            )?;
        let campaign = read_campaign(&tag, &file_text, &json, self.store.games)?;
        let players = self.players_where(campaign_id, "left_at IS NULL")?;
        let left_characters =
            self.players_where(campaign_id, "left_at IS NOT NULL AND character_stays")?;
        Ok(StoredCampaign {
            campaign,
            file_text,
            created,
            players,
            left_characters,
        })
    }

    /// The GM's address of campaign `name` as its stored record gives it,
    /// read as loosely as possible (the checked JSON, else the file the GM
    /// wrote), for telling him that the record cannot be read as a whole.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn gm_address(&self, name: &str) -> Result<Option<String>, StoreError> {
        let campaign_id = self.store.campaign_id(name)?;
        let (file_text, json): (String, String) = self.store.conn.query_row(
            "SELECT file_text, parsed_json FROM campaigns WHERE id = ?1",
            params![campaign_id],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )?;
        let from_json = serde_json::from_str::<serde_json::Value>(&json)
            .ok()
            .and_then(|v| v["gm"]["email"].as_str().map(str::to_string));
        let from_file = || {
            toml::from_str::<toml::Table>(&file_text)
                .ok()
                .and_then(|t| t.get("gm")?.get("email")?.as_str().map(str::to_string))
        };
        Ok(from_json.or_else(from_file))
    }

    /// Every stored campaign, by name.
    ///
    /// # Errors
    /// The database fails.
    pub fn list(&self) -> Result<Vec<CampaignSummary>, StoreError> {
        let mut statement = self.store.conn.prepare(
            "SELECT c.name, c.game, c.created, \
                    (SELECT COUNT(*) FROM players p WHERE p.campaign_id = c.id \
                     AND p.left_at IS NULL), \
                    (SELECT MAX(day) FROM game_days d WHERE d.campaign_id = c.id) \
             FROM campaigns c ORDER BY c.name",
        )?;
        let rows = statement.query_map([], |row| {
            Ok(CampaignSummary {
                name: row.get(0)?,
                game: row.get(1)?,
                created: row.get(2)?,
                players: row.get(3)?,
                latest_day: row.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The players of a campaign that pass `filter` (an SQL condition),
    /// in the order they joined.
    fn players_where(
        &self,
        campaign_id: i64,
        filter: &str,
    ) -> Result<Vec<PlayerRecord>, StoreError> {
        let mut statement = self.store.conn.prepare(&format!(
            "SELECT name, email, character, joined FROM players WHERE campaign_id = ?1 \
             AND {filter} ORDER BY id"
        ))?;
        let rows = statement.query_map(params![campaign_id], |row| {
            Ok(PlayerRecord {
                name: row.get(0)?,
                email: row.get(1)?,
                character: row.get(2)?,
                joined: row.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The stored progress of `campaign`'s setup by mail; `None` before it began.
    ///
    /// # Errors
    /// No such campaign, or the stored JSON cannot be read.
    pub fn setup_progress(&self, campaign: &str) -> Result<Option<serde_json::Value>, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        let json: Option<String> = self
            .store
            .conn
            .query_row(
                "SELECT progress_json FROM setup_by_mail WHERE campaign_id = ?1",
                params![id],
                |row| row.get(0),
            )
            .optional()?;
        json.map(|text| serde_json::from_str(&text))
            .transpose()
            .map_err(|e| StoreError::Corrupt {
                campaign: campaign.to_string(),
                message: format!("setup by mail: {e}"),
            })
    }

    /// Write campaign `name` with everything stored of it to a new file at
    /// `to`, itself a realmgm database holding that campaign alone.
    ///
    /// # Errors
    /// No such campaign, `to` exists already, or the copy fails (then no
    /// file is left at `to`).
    pub fn export(&self, name: &str, to: &Path) -> Result<Transfer, StoreError> {
        let id = self.store.campaign_id(name)?;
        // Made here, owner-only and never over a path taken already (a
        // link pointing nowhere included), before SQLite opens it.
        super::create_new_private(to, StoreError::ExportExists)?;
        let result = (|| {
            drop(Store::open(to, self.store.games)?);
            attach(&self.store.conn, to)?;
            let copied = copy_campaign(&self.store.conn, "main", OTHER, id);
            // One file to carry to another host: no write-ahead log beside it.
            let journal = self
                .store
                .conn
                .pragma_update(Some(OTHER), "journal_mode", "DELETE");
            detach(&self.store.conn)?;
            journal?;
            copied
        })();
        if result.is_err() {
            for suffix in ["", "-wal", "-shm"] {
                let mut path = to.as_os_str().to_owned();
                path.push(suffix);
                let _ = std::fs::remove_file(path);
            }
        }
        result
    }
}

impl<S: DerefMut<Target = Store>> Campaigns<S> {
    /// Store a checked campaign and its players, giving each player a new
    /// secret. Returns the secrets, which are not stored and cannot be
    /// shown again.
    ///
    /// # Errors
    /// A campaign of that name (in any case) exists already, or the
    /// database fails; nothing is stored then.
    pub fn insert(
        &mut self,
        campaign: &Campaign,
        file_text: &str,
        now: i64,
    ) -> Result<Vec<PlayerSecret>, StoreError> {
        if self.store.campaign_id(&campaign.name).is_ok() {
            return Err(StoreError::DuplicateCampaign(campaign.name.clone()));
        }
        let json = serde_json::to_string(campaign).map_err(|e| StoreError::Corrupt {
            campaign: campaign.name.clone(),
            message: e.to_string(),
        })?;
        let tx = self.store.conn.savepoint()?;
        tx.execute(
            "INSERT INTO campaigns (name, game, file_text, parsed_json, created) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![campaign.name, campaign.game, file_text, json, now],
        )?;
        let campaign_id = tx.last_insert_rowid();
        let mut secrets = Vec::with_capacity(campaign.players.len());
        for player in &campaign.players {
            secrets.push(insert_player(
                &tx,
                campaign_id,
                &campaign.name,
                player,
                now,
            )?);
        }
        tx.commit()?;
        Ok(secrets)
    }

    /// Replace the stored settings of a campaign (and the file text kept
    /// beside them) after an edit; its players are untouched.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn update(&mut self, campaign: &Campaign, file_text: &str) -> Result<(), StoreError> {
        let id = self.store.campaign_id(&campaign.name)?;
        let json = serde_json::to_string(campaign).map_err(|e| StoreError::Corrupt {
            campaign: campaign.name.clone(),
            message: e.to_string(),
        })?;
        self.store.conn.execute(
            "UPDATE campaigns SET file_text = ?1, parsed_json = ?2 WHERE id = ?3",
            params![file_text, json, id],
        )?;
        Ok(())
    }

    /// Keep the progress of `campaign`'s setup by mail.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn save_setup_progress(
        &mut self,
        campaign: &str,
        progress: &serde_json::Value,
    ) -> Result<(), StoreError> {
        let id = self.store.campaign_id(campaign)?;
        self.store.conn.execute(
            "INSERT INTO setup_by_mail (campaign_id, progress_json) VALUES (?1, ?2) \
             ON CONFLICT (campaign_id) DO UPDATE SET progress_json = excluded.progress_json",
            params![id, progress.to_string()],
        )?;
        Ok(())
    }

    /// Add the campaign of the export file `from` to this database. The
    /// file itself is only read.
    ///
    /// # Errors
    /// The file fails a check of `transfer/check.rs` (nothing is added
    /// then, and the error says why), a campaign of that name exists here
    /// already, or the copy fails (then nothing is added).
    pub fn import(&mut self, from: &Path) -> Result<Transfer, StoreError> {
        let checked = check::check_export(from, self.store.games)?;
        if self.store.campaign_id(&checked.name).is_ok() {
            return Err(StoreError::ImportClash(checked.name.clone()));
        }
        attach(&self.store.conn, checked.path())?;
        let copied = copy_campaign(&self.store.conn, OTHER, "main", checked.campaign_id);
        detach(&self.store.conn)?;
        copied
    }
}

/// The stored campaign from its JSON, or, when this build's `Campaign` has
/// changed shape since, from its file text.
fn read_campaign(
    tag: &str,
    file_text: &str,
    json: &str,
    games: Games,
) -> Result<Campaign, StoreError> {
    serde_json::from_str(json).or_else(|json_error| {
        Campaign::parse_stored(&format!("stored campaign {tag}"), file_text, games).map_err(
            |parse_error| StoreError::Corrupt {
                campaign: tag.to_string(),
                message: format!("{json_error}; and its file text: {parse_error}"),
            },
        )
    })
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::store::tests::{BIMR3, NOW, bimr3, store_with_bimr3};

    #[test]
    fn campaign_round_trips_with_verbatim_text_and_players() {
        let (mut store, secrets) = store_with_bimr3();
        let stored = store.campaigns().load("bimr3").unwrap();
        assert_eq!(stored.campaign, bimr3());
        assert_eq!(stored.file_text, BIMR3);
        assert_eq!(stored.created, NOW);
        let names: Vec<&str> = stored.players.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["Erin", "Frank", "Grace", "Heidi", "Ivan"]);
        assert_eq!(secrets.len(), 5);
        assert_eq!(secrets[0].player, "Erin");
        assert_eq!(secrets[0].email, "erin@example.org");
        let summary = &store.campaigns().list().unwrap()[0];
        assert_eq!(
            (summary.name.as_str(), summary.players, summary.latest_day),
            ("BIMR3", 5, None)
        );
        // A player who left is not counted, as `campaign show` lists him not.
        store
            .players_mut()
            .remove("BIMR3", "Ivan", true, NOW)
            .unwrap();
        let listed = store.campaigns().list().unwrap()[0].players;
        let shown = store.campaigns().load("BIMR3").unwrap().players.len();
        assert_eq!((listed, shown), (4, 4));
    }

    #[test]
    fn duplicate_campaign_name_is_refused_in_any_case() {
        let (mut store, _) = store_with_bimr3();
        let mut again = bimr3();
        again.name = "bimr3".into();
        let err = store
            .campaigns_mut()
            .insert(&again, BIMR3, NOW)
            .unwrap_err();
        assert!(matches!(err, StoreError::DuplicateCampaign(_)), "{err}");
        assert!(
            err.to_string().contains("realmgm campaign show bimr3"),
            "{err}"
        );
    }
}
