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

/// The daemon's access tokens, borrowing it for one call.
pub struct MailAccess<'d> {
    pub(super) daemon: &'d mut Daemon,
}

impl MailAccess<'_> {
    /// An access token for `campaign`'s mailbox, good for at least
    /// [`REFRESH_MARGIN_SECONDS`] more, and when it expires. Refreshed
    /// only when due, also for `doctor`: a refresh out of turn could race
    /// the daemon's, and providers that rotate refresh tokens refuse the
    /// reuse. A refresh or refusal that comes back after a login or another
    /// refresh replaced the grant leaves the newer grant as it is.
    ///
    /// # Errors
    /// [`AccessError`] saying what the GM must do.
    pub fn access_token(
        &mut self,
        campaign: &Campaign,
        settings: &OAuthSettings,
        client: &Client,
        key: &SealingKey,
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
        {
            return Ok((token, expires));
        }
        match oauth::refresh(&settings.provider, client, &grant.refresh_token) {
            Ok(tokens) => {
                let lifetime = tokens.expires_in.unwrap_or(ASSUMED_LIFETIME_SECONDS);
                let expires = now.saturating_add(i64::try_from(lifetime).unwrap_or(i64::MAX));
                // False when a newer grant stands; the token got is
                // still good for this session.
                store.grants_mut().refreshed(
                    name,
                    key,
                    grant.generation,
                    (&tokens.access_token, expires),
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
                if store
                    .grants_mut()
                    .revoke(name, grant.generation, &description, now)?
                {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::ClientSecret;
    use crate::mail::oauth::fake::{Behaviour, TokenServer};
    use crate::store::Store;

    const BIMR3: &str = include_str!("../../../../campaigns/bimr3.toml");

    fn setup(server: &TokenServer) -> (Daemon, Campaign, OAuthSettings, Client, SealingKey) {
        let campaign = Campaign::parse("bimr3.toml", BIMR3, crate::TEST_GAMES).unwrap();
        let mut store = Store::open_in_memory(crate::TEST_GAMES).unwrap();
        store.campaigns_mut().insert(&campaign, BIMR3, 0).unwrap();
        let settings = OAuthSettings {
            provider: server.provider(),
            client_id: "realmgm-test".to_string(),
            client_secret: ClientSecret::None,
        };
        let client = Client {
            id: settings.client_id.clone(),
            secret: None,
        };
        (
            Daemon::new(store),
            campaign,
            settings,
            client,
            SealingKey::from_bytes(&[5; 32]),
        )
    }

    #[test]
    fn a_stored_token_serves_until_the_margin_and_is_then_refreshed() {
        let server = TokenServer::start(Behaviour {
            expires_in: 1000,
            ..Behaviour::default()
        });
        let (mut daemon, campaign, settings, client, key) = setup(&server);
        let token = |daemon: &mut Daemon, now| {
            daemon
                .mail_access()
                .access_token(&campaign, &settings, &client, &key, now)
        };
        let missing = token(&mut daemon, 0).unwrap_err();
        assert!(
            missing
                .to_string()
                .contains("run `realmgm mail login --campaign BIMR3`"),
            "{missing}"
        );
        // What a login stores: the first refresh token, no access token.
        let first = crate::mail::oauth::device::start(&settings.provider, &client).unwrap();
        let granted =
            crate::mail::oauth::device::poll(&settings.provider, &client, &first, &mut |_| {})
                .unwrap();
        daemon
            .store
            .grants_mut()
            .save(
                &campaign.name,
                &key,
                &grant_owner(&settings),
                granted.refresh_token.as_deref().unwrap(),
                None,
                0,
            )
            .unwrap();
        assert_eq!(
            token(&mut daemon, 0).unwrap(),
            ("access-2".to_string(), 1000)
        );
        // Good for more than the margin: served from the store.
        let last_served = 1000 - REFRESH_MARGIN_SECONDS - 1;
        assert_eq!(token(&mut daemon, last_served).unwrap().0, "access-2");
        assert_eq!(server.refreshes(), 1);
        // Within the margin: refreshed.
        let (refreshed, expires) = token(&mut daemon, last_served + 1).unwrap();
        assert_eq!(refreshed, "access-3");
        assert_eq!(expires, last_served + 1 + 1000);
        // A campaign file naming another client asks for a new login.
        let other = OAuthSettings {
            client_id: "another".to_string(),
            ..settings.clone()
        };
        let refused = daemon
            .mail_access()
            .access_token(&campaign, &other, &client, &key, 0)
            .unwrap_err();
        assert!(
            matches!(refused, AccessError::OtherSignIn { .. }),
            "{refused}"
        );
    }
}
