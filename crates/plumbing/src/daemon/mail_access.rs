//! Access tokens for a campaign's mailbox signed in with OAuth 2.0: the
//! daemon asks for one before each IMAP or SMTP session. The one kept in
//! the store serves until shortly before it expires; then the refresh
//! token buys a new one, and a rotated refresh token replaces the old. A
//! grant the provider refuses (`invalid_grant`: revoked, expired, password
//! changed) is marked, said in the GM's log and mailed to him once, by
//! whatever transport still works, and no more refreshes are tried until
//! he signs in again.

use crate::campaign::{Campaign, OAuthSettings};
use crate::mail::oauth::{self, Client, OAuthError};
use crate::store::{GrantOwner, SealingKey, StoreError};

use super::Daemon;

/// A token that expires within this many seconds is refreshed first, so
/// it does not run out during the session.
pub const REFRESH_MARGIN_SECONDS: i64 = 300;

/// How long an access token lives when the provider does not say.
const ASSUMED_LIFETIME_SECONDS: u64 = 3600;

/// Why no access token could be had.
#[derive(Debug, thiserror::Error)]
pub enum AccessError {
    #[error(
        "campaign {campaign} signs in to its mailbox with OAuth and has no sign-in yet; run \
         `realmgm mail login --campaign {campaign}`"
    )]
    NotSignedIn { campaign: String },
    #[error(
        "the stored sign-in of campaign {campaign} was made for another provider or client id \
         than its campaign file names now; run `realmgm mail login --campaign {campaign}`"
    )]
    OtherSignIn { campaign: String },
    #[error(
        "the mail provider no longer accepts the sign-in of campaign {campaign} ({reason}); no \
         mail goes in or out through it until you run `realmgm mail login --campaign {campaign}`"
    )]
    Revoked { campaign: String, reason: String },
    #[error("{0}")]
    OAuth(#[from] OAuthError),
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("the sign-in was refused, and telling the GM failed: {0:#}")]
    Notice(anyhow::Error),
}

/// Which sign-in a grant got with `settings` belongs to.
pub fn grant_owner(settings: &OAuthSettings) -> GrantOwner {
    GrantOwner {
        token_url: settings.provider.token_url.clone(),
        client_id: settings.client_id.clone(),
    }
}

/// When to ask the provider for a new access token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refresh {
    /// Only when the stored one is about to expire (the daemon).
    WhenDue,
    /// At once, to check the grant still works (`doctor`).
    Now,
}

/// The daemon's access tokens, borrowing it for one call.
pub struct MailAccess<'d> {
    pub(super) daemon: &'d mut Daemon,
}

impl MailAccess<'_> {
    /// An access token for `campaign`'s mailbox, good for at least
    /// [`REFRESH_MARGIN_SECONDS`] more, and when it expires.
    ///
    /// # Errors
    /// [`AccessError`] saying what the GM must do.
    pub fn access_token(
        &mut self,
        campaign: &Campaign,
        settings: &OAuthSettings,
        client: &Client,
        key: &SealingKey,
        refresh: Refresh,
        now: i64,
    ) -> Result<(String, i64), AccessError> {
        let name = &campaign.name;
        let store = &mut self.daemon.store;
        let Some(grant) = store.grants().get(name, key)? else {
            return Err(AccessError::NotSignedIn {
                campaign: name.clone(),
            });
        };
        if let Some((_, reason)) = grant.revoked {
            return Err(AccessError::Revoked {
                campaign: name.clone(),
                reason,
            });
        }
        if grant.owner != grant_owner(settings) {
            return Err(AccessError::OtherSignIn {
                campaign: name.clone(),
            });
        }
        if let Some((token, expires)) = grant.access
            && expires - now > REFRESH_MARGIN_SECONDS
            && refresh == Refresh::WhenDue
        {
            return Ok((token, expires));
        }
        match oauth::refresh(&settings.provider, client, &grant.refresh_token) {
            Ok(tokens) => {
                let lifetime = tokens.expires_in.unwrap_or(ASSUMED_LIFETIME_SECONDS);
                let expires = now.saturating_add(i64::try_from(lifetime).unwrap_or(i64::MAX));
                store.grants_mut().refreshed(
                    name,
                    key,
                    &tokens.access_token,
                    expires,
                    tokens.refresh_token.as_deref(),
                    now,
                )?;
                Ok((tokens.access_token, expires))
            }
            Err(OAuthError::InvalidGrant { description }) => {
                let error = AccessError::Revoked {
                    campaign: name.clone(),
                    reason: description.clone(),
                };
                if store.grants_mut().revoke(name, &description, now)? {
                    self.daemon
                        .outbox()
                        .tell_gm(
                            campaign,
                            "oauth",
                            "mail sign-in refused",
                            &error.to_string(),
                            None,
                            now,
                        )
                        .map_err(AccessError::Notice)?;
                }
                Err(error)
            }
            Err(other) => Err(other.into()),
        }
    }
}
