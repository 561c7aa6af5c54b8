//! The GM's OAuth consent for a campaign's mailbox (table `oauth_grants`):
//! the refresh token and the latest access token, sealed with the host's
//! key ([`super::sealing`]); when they were got; and whether the provider
//! revoked the grant.

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
}

/// Never shows a token.
impl std::fmt::Debug for Grant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Grant")
            .field("owner", &self.owner)
            .field("granted", &self.granted)
            .field("revoked", &self.revoked)
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
        );
        let row: Option<Row> = self
            .store
            .conn
            .query_row(
                "SELECT token_url, client_id, refresh_token, access_token, access_expires, \
                 granted, revoked, revoked_reason FROM oauth_grants WHERE campaign_id = ?1",
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
                    ))
                },
            )
            .optional()?;
        let Some((token_url, client_id, refresh, access, expires, granted, revoked, reason)) = row
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
    /// Keep a new grant for the campaign, replacing any before it.
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
             refresh_token, access_token, access_expires, granted) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
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

    /// Keep a refreshed access token, and the new refresh token when the
    /// provider rotated it.
    ///
    /// # Errors
    /// No such campaign, no nonce, or the database fails.
    pub fn refreshed(
        &mut self,
        campaign: &str,
        key: &SealingKey,
        access_token: &str,
        expires: i64,
        rotated: Option<&str>,
        now: i64,
    ) -> Result<(), StoreError> {
        let id = self.store.campaign_id(campaign)?;
        let access = key.seal(access_token.as_bytes(), &context(campaign, "access"))?;
        self.store.conn.execute(
            "UPDATE oauth_grants SET access_token = ?2, access_expires = ?3, refreshed = ?4 \
             WHERE campaign_id = ?1",
            params![id, access, expires, now],
        )?;
        if let Some(refresh_token) = rotated {
            let refresh = key.seal(refresh_token.as_bytes(), &context(campaign, "refresh"))?;
            self.store.conn.execute(
                "UPDATE oauth_grants SET refresh_token = ?2 WHERE campaign_id = ?1",
                params![id, refresh],
            )?;
        }
        Ok(())
    }

    /// Mark the grant revoked, dropping its access token; true when it was
    /// not marked before, so the GM is told once.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn revoke(&mut self, campaign: &str, reason: &str, now: i64) -> Result<bool, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        let changed = self.store.conn.execute(
            "UPDATE oauth_grants SET revoked = ?2, revoked_reason = ?3, access_token = NULL, \
             access_expires = NULL WHERE campaign_id = ?1 AND revoked IS NULL",
            params![id, now, reason],
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
        store
            .grants_mut()
            .refreshed(&campaign, &key, "access-2", 200, Some("refresh-2"), 20)
            .unwrap();
        let grant = store.grants().get(&campaign, &key).unwrap().unwrap();
        assert_eq!(grant.refresh_token, "refresh-2");
        assert_eq!(grant.access, Some(("access-2".to_string(), 200)));
        assert!(
            store
                .grants_mut()
                .revoke(&campaign, "invalid_grant", 30)
                .unwrap()
        );
        assert!(!store.grants_mut().revoke(&campaign, "again", 40).unwrap());
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
}
