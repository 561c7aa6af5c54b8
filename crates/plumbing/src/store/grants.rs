//! The GM's OAuth consent for a campaign's mailbox (table `oauth_grants`):
//! the refresh token and the latest access token, sealed with the host's
//! key ([`super::sealing`]); when they were got; and whether the provider
//! revoked the grant. Each change bumps the grant's generation, and a
//! refresh or revoke applies only to the generation it read.

use std::ops::{Deref, DerefMut};

use rusqlite::{OptionalExtension, params};

use super::sealing::SealingKey;
use super::{Store, StoreError};

/// Which sign-in a grant answers: the token endpoint and the client id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrantOwner {
    pub token_url: String,
    pub client_id: String,
}

/// A stored grant, opened.
#[derive(Clone, PartialEq, Eq)]
pub struct Grant {
    pub owner: GrantOwner,
    pub refresh_token: String,
    /// The latest access token and when (Unix seconds) it expires.
    pub access: Option<(String, i64)>,
    pub granted: i64,
    /// When and why the provider refused it.
    pub revoked: Option<(i64, String)>,
    /// Which version of the tokens this is; [`Grants::refreshed`] and
    /// [`Grants::revoke`] change only this one.
    pub generation: i64,
}

/// Never shows a token.
impl std::fmt::Debug for Grant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Grant")
            .field("owner", &self.owner)
            .field("granted", &self.granted)
            .field("revoked", &self.revoked)
            .field("generation", &self.generation)
            .finish()
    }
}

/// What `gm status` says of a grant, read without the key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrantState {
    pub granted: i64,
    pub refreshed: Option<i64>,
    pub revoked: Option<(i64, String)>,
}

/// The context a value is sealed for: its campaign and column.
fn context(campaign: &str, column: &str) -> String {
    format!("realmgm oauth v1\0{}\0{column}", campaign.to_lowercase())
}

/// The campaigns' OAuth grants.
///
/// Borrowed from the store by [`Store::grants`] to read and
/// [`Store::grants_mut`] to change.
pub struct Grants<S> {
    pub(super) store: S,
}

impl<S: Deref<Target = Store>> Grants<S> {
    /// The campaign's grant, opened with `key`.
    ///
    /// # Errors
    /// No such campaign, a key that does not open it, or the database fails.
    pub fn get(&self, campaign: &str, key: &SealingKey) -> Result<Option<Grant>, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        type Row = (
            String,
            String,
            Vec<u8>,
            Option<Vec<u8>>,
            Option<i64>,
            i64,
            Option<i64>,
            Option<String>,
            i64,
        );
        let row: Option<Row> = self
            .store
            .conn
            .query_row(
                "SELECT token_url, client_id, refresh_token, access_token, access_expires, \
                 granted, revoked, revoked_reason, generation FROM oauth_grants \
                 WHERE campaign_id = ?1",
                params![id],
                |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                        r.get(7)?,
                        r.get(8)?,
                    ))
                },
            )
            .optional()?;
        let Some((
            token_url,
            client_id,
            refresh,
            access,
            expires,
            granted,
            revoked,
            reason,
            generation,
        )) = row
        else {
            return Ok(None);
        };
        let open = |sealed: &[u8], column: &str| -> Result<String, StoreError> {
            let plain = key.open(sealed, &context(campaign, column))?;
            Ok(String::from_utf8_lossy(&plain).into_owned())
        };
        let access = match (access, expires) {
            (Some(sealed), Some(expires)) => Some((open(&sealed, "access")?, expires)),
            _ => None,
        };
        Ok(Some(Grant {
            owner: GrantOwner {
                token_url,
                client_id,
            },
            refresh_token: open(&refresh, "refresh")?,
            access,
            granted,
            revoked: revoked.map(|at| (at, reason.unwrap_or_default())),
            generation,
        }))
    }

    /// When the grant was got, refreshed and revoked, without opening it.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn state(&self, campaign: &str) -> Result<Option<GrantState>, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        Ok(self
            .store
            .conn
            .query_row(
                "SELECT granted, refreshed, revoked, revoked_reason FROM oauth_grants \
                 WHERE campaign_id = ?1",
                params![id],
                |r| {
                    let revoked: Option<i64> = r.get(2)?;
                    let reason: Option<String> = r.get(3)?;
                    Ok(GrantState {
                        granted: r.get(0)?,
                        refreshed: r.get(1)?,
                        revoked: revoked.map(|at| (at, reason.unwrap_or_default())),
                    })
                },
            )
            .optional()?)
    }
}

impl<S: DerefMut<Target = Store>> Grants<S> {
    /// Keep a new grant for the campaign, replacing any before it, as the
    /// next generation.
    ///
    /// # Errors
    /// No such campaign, no nonce, or the database fails.
    pub fn save(
        &mut self,
        campaign: &str,
        key: &SealingKey,
        owner: &GrantOwner,
        refresh_token: &str,
        access: Option<(&str, i64)>,
        now: i64,
    ) -> Result<(), StoreError> {
        let id = self.store.campaign_id(campaign)?;
        let refresh = key.seal(refresh_token.as_bytes(), &context(campaign, "refresh"))?;
        let sealed_access = access
            .map(|(token, _)| key.seal(token.as_bytes(), &context(campaign, "access")))
            .transpose()?;
        self.store.conn.execute(
            "INSERT OR REPLACE INTO oauth_grants (campaign_id, token_url, client_id, \
             refresh_token, access_token, access_expires, granted, generation) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1 + COALESCE((SELECT generation \
             FROM oauth_grants WHERE campaign_id = ?1), 0))",
            params![
                id,
                owner.token_url,
                owner.client_id,
                refresh,
                sealed_access,
                access.map(|(_, expires)| expires),
                now
            ],
        )?;
        Ok(())
    }

    /// Keep a refreshed access token `(token, expires)`, and the new
    /// refresh token when the provider rotated it, all at once and only
    /// when the grant is still `generation` and not revoked; true when
    /// written. False means a login or another refresh replaced the grant
    /// meanwhile, and the newer one stands.
    ///
    /// # Errors
    /// No such campaign, no nonce, or the database fails.
    pub fn refreshed(
        &mut self,
        campaign: &str,
        key: &SealingKey,
        generation: i64,
        access: (&str, i64),
        rotated: Option<&str>,
        now: i64,
    ) -> Result<bool, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        let (access_token, expires) = access;
        let access = key.seal(access_token.as_bytes(), &context(campaign, "access"))?;
        let refresh = rotated
            .map(|token| key.seal(token.as_bytes(), &context(campaign, "refresh")))
            .transpose()?;
        let changed = self.store.conn.execute(
            "UPDATE oauth_grants SET access_token = ?3, access_expires = ?4, refreshed = ?5, \
             refresh_token = COALESCE(?6, refresh_token), generation = generation + 1 \
             WHERE campaign_id = ?1 AND generation = ?2 AND revoked IS NULL",
            params![id, generation, access, expires, now, refresh],
        )?;
        Ok(changed > 0)
    }

    /// Mark the grant revoked, dropping its access token, when it is still
    /// `generation`; true when it was not marked before, so the GM is told
    /// once. A grant a login or refresh replaced meanwhile stays as it is.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn revoke(
        &mut self,
        campaign: &str,
        generation: i64,
        reason: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        let changed = self.store.conn.execute(
            "UPDATE oauth_grants SET revoked = ?3, revoked_reason = ?4, access_token = NULL, \
             access_expires = NULL WHERE campaign_id = ?1 AND generation = ?2 \
             AND revoked IS NULL",
            params![id, generation, now, reason],
        )?;
        Ok(changed > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grant_is_kept_sealed_refreshed_rotated_and_revoked_once() {
        let (mut store, _) = crate::store::tests::store_with_bimr3();
        let campaign = crate::store::tests::bimr3().name;
        assert_eq!(store.grants().state(&campaign).unwrap(), None);
        let key = SealingKey::from_bytes(&[3; 32]);
        let owner = GrantOwner {
            token_url: "http://127.0.0.1:9/token".into(),
            client_id: "id".into(),
        };
        store
            .grants_mut()
            .save(
                &campaign,
                &key,
                &owner,
                "refresh-1",
                Some(("access-1", 100)),
                10,
            )
            .unwrap();
        let raw: Vec<u8> = store
            .conn
            .query_row("SELECT refresh_token FROM oauth_grants", [], |r| r.get(0))
            .unwrap();
        assert!(!raw.windows(9).any(|w| w == b"refresh-1"), "sealed");
        let grant = store.grants().get(&campaign, &key).unwrap().unwrap();
        assert_eq!(grant.owner, owner);
        assert_eq!(grant.refresh_token, "refresh-1");
        assert_eq!(grant.access, Some(("access-1".to_string(), 100)));
        assert!(
            store
                .grants_mut()
                .refreshed(
                    &campaign,
                    &key,
                    grant.generation,
                    ("access-2", 200),
                    Some("refresh-2"),
                    20
                )
                .unwrap()
        );
        let refreshed = store.grants().get(&campaign, &key).unwrap().unwrap();
        assert_eq!(refreshed.refresh_token, "refresh-2");
        assert_eq!(refreshed.access, Some(("access-2".to_string(), 200)));
        let now = refreshed.generation;
        assert!(
            store
                .grants_mut()
                .revoke(&campaign, now, "invalid_grant", 30)
                .unwrap()
        );
        assert!(
            !store
                .grants_mut()
                .revoke(&campaign, now, "again", 40)
                .unwrap()
        );
        let state = store.grants().state(&campaign).unwrap().unwrap();
        assert_eq!(state.revoked, Some((30, "invalid_grant".to_string())));
        assert_eq!(state.refreshed, Some(20));
        let other = SealingKey::from_bytes(&[4; 32]);
        assert!(store.grants().get(&campaign, &other).is_err());
        // A new login replaces the revoked grant.
        store
            .grants_mut()
            .save(&campaign, &key, &owner, "refresh-3", None, 50)
            .unwrap();
        assert_eq!(
            store.grants().state(&campaign).unwrap().unwrap().revoked,
            None
        );
    }

    #[test]
    fn a_stale_refresh_or_revoke_leaves_the_newer_grant_alone() {
        let (mut store, _) = crate::store::tests::store_with_bimr3();
        let campaign = crate::store::tests::bimr3().name;
        let key = SealingKey::from_bytes(&[3; 32]);
        let owner = GrantOwner {
            token_url: "http://127.0.0.1:9/token".into(),
            client_id: "id".into(),
        };
        let mut grants = store.grants_mut();
        grants
            .save(
                &campaign,
                &key,
                &owner,
                "old",
                Some(("old-access", 100)),
                10,
            )
            .unwrap();
        let read = grants.get(&campaign, &key).unwrap().unwrap();
        // Two refreshes read the grant; the first writes and rotates.
        assert!(
            grants
                .refreshed(
                    &campaign,
                    &key,
                    read.generation,
                    ("first", 200),
                    Some("rotated"),
                    20
                )
                .unwrap()
        );
        assert!(
            !grants
                .refreshed(&campaign, &key, read.generation, ("second", 300), None, 21)
                .unwrap()
        );
        let rotated = grants.get(&campaign, &key).unwrap().unwrap();
        assert_eq!(rotated.refresh_token, "rotated");
        assert_eq!(rotated.access, Some(("first".to_string(), 200)));
        // The GM signs in again while a refresh of the rotated grant is
        // out; its late answer, good or refused, changes nothing.
        grants
            .save(&campaign, &key, &owner, "login", None, 30)
            .unwrap();
        assert!(
            !grants
                .refreshed(
                    &campaign,
                    &key,
                    rotated.generation,
                    ("late", 400),
                    Some("late-rotated"),
                    31
                )
                .unwrap()
        );
        assert!(
            !grants
                .revoke(&campaign, rotated.generation, "invalid_grant", 32)
                .unwrap()
        );
        let login = grants.get(&campaign, &key).unwrap().unwrap();
        assert_eq!(login.refresh_token, "login");
        assert_eq!(login.access, None);
        assert_eq!(login.revoked, None);
        assert!(login.generation > rotated.generation);
    }
}
