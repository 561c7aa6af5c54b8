//! The players of the stored campaigns (table `players`): who sits in
//! which seat at which address, the hash of each one's secret, the
//! bounces of mail to him (`bounces`) and the absences he announced
//! (`absences`), during which the daemon plays the NMR policy for him
//! without reminders or notices to the GM.

use std::ops::{Deref, DerefMut};

use rusqlite::{OptionalExtension, params};

use super::campaigns::PlayerRecord;
use super::{Store, StoreError, secret};
use crate::campaign::{Campaign, Email, Player};

/// A secret just made for a player, to show the GM once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSecret {
    pub player: String,
    pub email: String,
    pub secret: String,
}

/// A player's announced absence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Absence {
    pub player: String,
    /// Away until this moment (Unix seconds).
    pub until: i64,
    /// The day that was pending when he said so.
    pub since_day: u32,
}

/// The seats of the campaigns: who plays, their secrets, bounces and absences.
///
/// Borrowed from the store by [`Store::players`] to read and [`Store::players_mut`]
/// to change.
pub struct Players<S> {
    pub(super) store: S,
}

impl<S: Deref<Target = Store>> Players<S> {
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
        let (campaign_id, player_id) = self.store.player_id(campaign, player)?;
        let (tag, name, stored): (String, String, String) = self.store.conn.query_row(
            "SELECT c.name, p.name, p.secret_hash FROM players p JOIN campaigns c \
             ON c.id = p.campaign_id WHERE c.id = ?1 AND p.id = ?2",
            params![campaign_id, player_id],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )?;
        Ok(secret::hash(&tag, &name, secret) == stored)
    }

    /// The player of `campaign` whose address is `email` (any case): how
    /// the daemon finds who sent a mail.
    ///
    /// # Errors
    /// No such campaign.
    pub fn by_email(
        &self,
        campaign: &str,
        email: &str,
    ) -> Result<Option<PlayerRecord>, StoreError> {
        let campaign_id = self.store.campaign_id(campaign)?;
        Ok(self
            .store
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

    /// The seat of `campaign` that `email` plays: its own address, or one
    /// of its team's from the campaign file (BIMR4's Team 1, BIMR5).
    ///
    /// # Errors
    /// No such campaign.
    pub fn by_address(
        &self,
        campaign: &Campaign,
        email: &str,
    ) -> Result<Option<PlayerRecord>, StoreError> {
        if let Some(found) = self.by_email(&campaign.name, email)? {
            return Ok(Some(found));
        }
        let seat = campaign.players.iter().find(|p| {
            p.team
                .iter()
                .any(|t| t.as_str().eq_ignore_ascii_case(email))
        });
        match seat {
            Some(seat) => self.by_email(&campaign.name, seat.email.as_str()),
            None => Ok(None),
        }
    }

    /// Every stored campaign with a player at `email` (any case), with his
    /// name: how a bounce naming an address finds its player.
    ///
    /// # Errors
    /// The database fails.
    pub fn by_email_everywhere(&self, email: &str) -> Result<Vec<(String, String)>, StoreError> {
        let mut statement = self.store.conn.prepare(
            "SELECT c.name, p.name FROM players p JOIN campaigns c ON c.id = p.campaign_id \
             WHERE p.email = ?1 COLLATE NOCASE AND p.left_at IS NULL ORDER BY c.name",
        )?;
        let rows = statement.query_map(params![email], |row| Ok((row.get(0)?, row.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// How many times mail to `player` has bounced.
    ///
    /// # Errors
    /// No such campaign or player, or the database fails.
    pub fn bounce_count(&self, campaign: &str, player: &str) -> Result<u32, StoreError> {
        let (_, player_id) = self.store.player_id(campaign, player)?;
        Ok(self.store.conn.query_row(
            "SELECT COUNT(*) FROM bounces WHERE player_id = ?1",
            params![player_id],
            |row| row.get(0),
        )?)
    }

    /// Every absence recorded for the campaign, by player.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn absences(&self, campaign: &str) -> Result<Vec<Absence>, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        let mut statement = self.store.conn.prepare(
            "SELECT player, until, since_day FROM absences WHERE campaign_id = ?1 ORDER BY player",
        )?;
        let rows = statement.query_map(params![id], |row| {
            Ok(Absence {
                player: row.get(0)?,
                until: row.get(1)?,
                since_day: row.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

impl<S: DerefMut<Target = Store>> Players<S> {
    /// Add a player to a stored campaign (someone joining late) and return
    /// his new secret.
    ///
    /// # Errors
    /// No such campaign, or the name or address is taken.
    pub fn add(
        &mut self,
        campaign: &str,
        player: &Player,
        now: i64,
    ) -> Result<PlayerSecret, StoreError> {
        let campaign_id = self.store.campaign_id(campaign)?;
        let tx = self.store.conn.savepoint()?;
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
    pub fn remove(
        &mut self,
        campaign: &str,
        player: &str,
        character_stays: bool,
        now: i64,
    ) -> Result<(), StoreError> {
        let (_, player_id) = self.store.player_id(campaign, player)?;
        self.store.conn.execute(
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
        let (_, player_id) = self.store.player_id(campaign, player)?;
        self.store.conn.execute(
            "UPDATE players SET character = ?1 WHERE id = ?2",
            params![character, player_id],
        )?;
        Ok(())
    }

    /// Give the seat of `player` to someone else: the seat keeps its name
    /// (the game knows it by that name), its orders and history; address and
    /// secret change. Returns the new secret.
    ///
    /// # Errors
    /// No such campaign or player, or the address is taken.
    pub fn replace(
        &mut self,
        campaign: &str,
        player: &str,
        email: &Email,
    ) -> Result<PlayerSecret, StoreError> {
        let (_, player_id) = self.store.player_id(campaign, player)?;
        let name: String = self.store.conn.query_row(
            "SELECT name FROM players WHERE id = ?1",
            params![player_id],
            |row| row.get(0),
        )?;
        let made = secret::generate()?;
        let result = self.store.conn.execute(
            "UPDATE players SET email = ?1, secret_hash = ?2 WHERE id = ?3",
            params![
                email.as_str(),
                secret::hash(campaign, &name, &made),
                player_id
            ],
        );
        match result {
            Ok(_) => Ok(PlayerSecret {
                player: name,
                email: email.to_string(),
                secret: made,
            }),
            Err(rusqlite::Error::SqliteFailure(code, _))
                if code.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                Err(StoreError::DuplicatePlayer {
                    campaign: campaign.to_string(),
                    player: name,
                    email: email.to_string(),
                })
            }
            Err(other) => Err(other.into()),
        }
    }

    /// Record that mail to `player` bounced; returns how many bounces he has.
    ///
    /// # Errors
    /// No such campaign or player, or the database fails.
    pub fn record_bounce(
        &mut self,
        campaign: &str,
        player: &str,
        at: i64,
        description: &str,
    ) -> Result<u32, StoreError> {
        let (campaign_id, player_id) = self.store.player_id(campaign, player)?;
        self.store.conn.execute(
            "INSERT INTO bounces (campaign_id, player_id, at, description) VALUES (?1, ?2, ?3, ?4)",
            params![campaign_id, player_id, at, description],
        )?;
        Ok(self.store.conn.query_row(
            "SELECT COUNT(*) FROM bounces WHERE player_id = ?1",
            params![player_id],
            |row| row.get(0),
        )?)
    }

    /// Record (or replace) `player`'s absence.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn set_absence(&mut self, campaign: &str, absence: &Absence) -> Result<(), StoreError> {
        let id = self.store.campaign_id(campaign)?;
        self.store.conn.execute(
            "INSERT INTO absences (campaign_id, player, until, since_day) VALUES (?1, ?2, ?3, ?4) \
             ON CONFLICT (campaign_id, player) DO UPDATE SET until = ?3, since_day = ?4",
            params![id, absence.player, absence.until, absence.since_day],
        )?;
        Ok(())
    }

    /// `player` is back: his absence ends.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn clear_absence(&mut self, campaign: &str, player: &str) -> Result<(), StoreError> {
        let id = self.store.campaign_id(campaign)?;
        self.store.conn.execute(
            "DELETE FROM absences WHERE campaign_id = ?1 AND player = ?2",
            params![id, player],
        )?;
        Ok(())
    }
}

pub(super) fn insert_player(
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

#[cfg(test)]
mod tests {

    use super::*;
    use crate::campaign::Email;
    use crate::campaign::Player;
    use crate::store::tests::{NOW, store_with_bimr3};

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
    fn players_join_choose_characters_and_are_found_by_address() {
        let (mut store, _) = store_with_bimr3();
        let judy = Player {
            name: "Judy".into(),
            email: Email::try_from("judy@example.org".to_string()).unwrap(),
            character: None,
            team: Vec::new(),
            more_characters: Vec::new(),
        };
        store.players_mut().add("BIMR3", &judy, NOW + 5).unwrap();
        let err = store
            .players_mut()
            .add("BIMR3", &judy, NOW + 6)
            .unwrap_err();
        assert!(matches!(err, StoreError::DuplicatePlayer { .. }), "{err}");
        store
            .players_mut()
            .set_character("BIMR3", "Judy", "Elf")
            .unwrap();
        let found = store
            .players()
            .by_email("BIMR3", "JUDY@example.org")
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
                .by_email("BIMR3", "nobody@example.org")
                .unwrap(),
            None
        );
    }
}
