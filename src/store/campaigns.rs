//! Stored campaigns and their players (tables `campaigns` and `players`).
//!
//! The campaign file is kept verbatim next to its checked form, so the GM
//! can always see what he wrote. Characters chosen after the campaign was
//! created live in `players`, which is the authority on who plays what.

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError, secret};
use crate::campaign::{Campaign, Player};

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
    pub fn seats(&self) -> Vec<crate::game::Seat> {
        self.players
            .iter()
            .chain(&self.left_characters)
            .map(|p| crate::game::Seat {
                player: p.name.clone(),
                character: p.character.clone(),
            })
            .collect()
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

/// A secret just made for a player, to show the GM once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSecret {
    pub player: String,
    pub email: String,
    pub secret: String,
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

impl Store {
    /// Store a checked campaign and its players, giving each player a new
    /// secret. Returns the secrets, which are not stored and cannot be
    /// shown again.
    ///
    /// # Errors
    /// A campaign of that name (in any case) exists already, or the
    /// database fails; nothing is stored then.
    pub fn insert_campaign(
        &mut self,
        campaign: &Campaign,
        file_text: &str,
        now: i64,
    ) -> Result<Vec<PlayerSecret>, StoreError> {
        if self.campaign_id(&campaign.name).is_ok() {
            return Err(StoreError::DuplicateCampaign(campaign.name.clone()));
        }
        let json = serde_json::to_string(campaign).map_err(|e| StoreError::Corrupt {
            campaign: campaign.name.clone(),
            message: e.to_string(),
        })?;
        let tx = self.conn.savepoint()?;
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
    pub fn update_campaign(
        &mut self,
        campaign: &Campaign,
        file_text: &str,
    ) -> Result<(), StoreError> {
        let id = self.campaign_id(&campaign.name)?;
        let json = serde_json::to_string(campaign).map_err(|e| StoreError::Corrupt {
            campaign: campaign.name.clone(),
            message: e.to_string(),
        })?;
        self.conn.execute(
            "UPDATE campaigns SET file_text = ?1, parsed_json = ?2 WHERE id = ?3",
            params![file_text, json, id],
        )?;
        Ok(())
    }

    /// Add a player to a stored campaign (someone joining late) and return
    /// his new secret.
    ///
    /// # Errors
    /// No such campaign, or the name or address is taken.
    pub fn add_player(
        &mut self,
        campaign: &str,
        player: &Player,
        now: i64,
    ) -> Result<PlayerSecret, StoreError> {
        let campaign_id = self.campaign_id(campaign)?;
        let tx = self.conn.savepoint()?;
        let secret = insert_player(&tx, campaign_id, campaign, player, now)?;
        tx.commit()?;
        Ok(secret)
    }

    /// A player leaves the campaign: he gets no more mail and his address
    /// no longer counts as his; his character stays in the game when
    /// `character_stays`, played by the policy for missing orders.
    ///
    /// # Errors
    /// No such campaign or player.
    pub fn remove_player(
        &mut self,
        campaign: &str,
        player: &str,
        character_stays: bool,
        now: i64,
    ) -> Result<(), StoreError> {
        let (_, player_id) = self.player_id(campaign, player)?;
        self.conn.execute(
            "UPDATE players SET left_at = ?1, character_stays = ?2 WHERE id = ?3",
            params![now, character_stays, player_id],
        )?;
        Ok(())
    }

    /// Record the character a player has chosen.
    ///
    /// # Errors
    /// No such campaign or player.
    pub fn set_character(
        &mut self,
        campaign: &str,
        player: &str,
        character: &str,
    ) -> Result<(), StoreError> {
        let (_, player_id) = self.player_id(campaign, player)?;
        self.conn.execute(
            "UPDATE players SET character = ?1 WHERE id = ?2",
            params![character, player_id],
        )?;
        Ok(())
    }

    /// Whether `secret` is the secret of `player` in `campaign`.
    ///
    /// # Errors
    /// No such campaign or player.
    pub fn check_secret(
        &self,
        campaign: &str,
        player: &str,
        secret: &str,
    ) -> Result<bool, StoreError> {
        let (campaign_id, player_id) = self.player_id(campaign, player)?;
        let (tag, name, stored): (String, String, String) = self.conn.query_row(
            "SELECT c.name, p.name, p.secret_hash FROM players p JOIN campaigns c \
             ON c.id = p.campaign_id WHERE c.id = ?1 AND p.id = ?2",
            params![campaign_id, player_id],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )?;
        Ok(secret::hash(&tag, &name, secret) == stored)
    }

    /// Load campaign `name` (any case) with its players.
    ///
    /// # Errors
    /// No such campaign, or its stored form cannot be read.
    pub fn load_campaign(&self, name: &str) -> Result<StoredCampaign, StoreError> {
        let campaign_id = self.campaign_id(name)?;
        let (tag, file_text, json, created): (String, String, String, i64) = self.conn.query_row(
            "SELECT name, file_text, parsed_json, created FROM campaigns WHERE id = ?1",
            params![campaign_id],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
        )?;
        let campaign = read_campaign(&tag, &file_text, &json)?;
        let players = self.players(campaign_id, "left_at IS NULL")?;
        let left_characters =
            self.players(campaign_id, "left_at IS NOT NULL AND character_stays")?;
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
    pub fn campaign_gm_address(&self, name: &str) -> Result<Option<String>, StoreError> {
        let campaign_id = self.campaign_id(name)?;
        let (file_text, json): (String, String) = self.conn.query_row(
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
    pub fn list_campaigns(&self) -> Result<Vec<CampaignSummary>, StoreError> {
        let mut statement = self.conn.prepare(
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
    fn players(&self, campaign_id: i64, filter: &str) -> Result<Vec<PlayerRecord>, StoreError> {
        let mut statement = self.conn.prepare(&format!(
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

    /// The player of `campaign` whose address is `email` (any case): how
    /// the daemon finds who sent a mail.
    ///
    /// # Errors
    /// No such campaign.
    pub fn player_by_email(
        &self,
        campaign: &str,
        email: &str,
    ) -> Result<Option<PlayerRecord>, StoreError> {
        let campaign_id = self.campaign_id(campaign)?;
        Ok(self
            .conn
            .query_row(
                "SELECT name, email, character, joined FROM players \
                 WHERE campaign_id = ?1 AND email = ?2 COLLATE NOCASE AND left_at IS NULL",
                params![campaign_id, email],
                |row| {
                    Ok(PlayerRecord {
                        name: row.get(0)?,
                        email: row.get(1)?,
                        character: row.get(2)?,
                        joined: row.get(3)?,
                    })
                },
            )
            .optional()?)
    }
}

impl Store {
    /// The seat of `campaign` that `email` plays: its own address, or one
    /// of its team's from the campaign file (BIMR4's Team 1, BIMR5).
    ///
    /// # Errors
    /// No such campaign.
    pub fn player_by_address(
        &self,
        campaign: &Campaign,
        email: &str,
    ) -> Result<Option<PlayerRecord>, StoreError> {
        if let Some(found) = self.player_by_email(&campaign.name, email)? {
            return Ok(Some(found));
        }
        let seat = campaign.players.iter().find(|p| {
            p.team
                .iter()
                .any(|t| t.as_str().eq_ignore_ascii_case(email))
        });
        match seat {
            Some(seat) => self.player_by_email(&campaign.name, seat.email.as_str()),
            None => Ok(None),
        }
    }
}

fn insert_player(
    tx: &rusqlite::Connection,
    campaign_id: i64,
    campaign: &str,
    player: &Player,
    now: i64,
) -> Result<PlayerSecret, StoreError> {
    let secret = secret::generate()?;
    let result = tx.execute(
        "INSERT INTO players (campaign_id, name, email, character, secret_hash, joined) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            campaign_id,
            player.name,
            player.email.as_str(),
            player.character,
            secret::hash(campaign, &player.name, &secret),
            now
        ],
    );
    match result {
        Ok(_) => Ok(PlayerSecret {
            player: player.name.clone(),
            email: player.email.to_string(),
            secret,
        }),
        Err(rusqlite::Error::SqliteFailure(code, _))
            if code.code == rusqlite::ErrorCode::ConstraintViolation =>
        {
            Err(StoreError::DuplicatePlayer {
                campaign: campaign.to_string(),
                player: player.name.clone(),
                email: player.email.to_string(),
            })
        }
        Err(other) => Err(other.into()),
    }
}

/// The stored campaign from its JSON, or, when this build's `Campaign` has
/// changed shape since, from its file text.
fn read_campaign(tag: &str, file_text: &str, json: &str) -> Result<Campaign, StoreError> {
    serde_json::from_str(json).or_else(|json_error| {
        Campaign::parse(&format!("stored campaign {tag}"), file_text).map_err(|parse_error| {
            StoreError::Corrupt {
                campaign: tag.to_string(),
                message: format!("{json_error}; and its file text: {parse_error}"),
            }
        })
    })
}
