//! Who sent a mail and what he may do: a player is known by his registered
//! From address AND his secret (a `Password:` line or the plus-address
//! `gm+tag.SECRET@`); the GM by the campaign's GM address AND the GM secret.
//! Anyone else is a stranger: logged for the GM, never answered, so forged
//! senders cannot turn the daemon into a spam cannon (no backscatter).

use crate::campaign::Campaign;
use crate::store::{PlayerRecord, Store, StoreError};

use crate::daemon::sender;
use crate::mail::route::bare_address;

/// The sender of a mail as far as the campaign is concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sender {
    Gm,
    Player(PlayerRecord),
    /// Not authenticated: the mail is not acted on.
    Refused(Refused),
}

/// A sender who is not authenticated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The GM's address without the right GM secret.
    GmWithoutSecret,
    /// A registered address without its player's secret; the notice goes to
    /// the registered address.
    PlayerWithoutSecret { player: PlayerRecord, given: bool },
    /// Not an address of this campaign.
    Stranger(String),
}

/// Identify the sender of a mail to `campaign`. `secret` finds the secret
/// the mail carries; it is asked only of a registered address, so a
/// stranger's mail is never searched for one.
///
/// # Errors
/// The store fails.
pub fn identify(
    store: &Store,
    campaign: &Campaign,
    from: Option<&str>,
    secret: impl FnOnce() -> Option<String>,
) -> Result<Sender, StoreError> {
    let Some(from) = from.map(bare_address).filter(|f| !f.is_empty()) else {
        return Ok(Sender::Refused(Refused::Stranger(
            "(no From address)".to_string(),
        )));
    };
    let is_gm = from.eq_ignore_ascii_case(campaign.gm.email.as_str())
        || from.eq_ignore_ascii_case(bare_address(&sender(campaign)));
    if is_gm {
        let ok = match secret() {
            Some(secret) => store.control().check_gm_secret(&campaign.name, &secret)?,
            None => false,
        };
        return Ok(if ok {
            Sender::Gm
        } else {
            Sender::Refused(Refused::GmWithoutSecret)
        });
    }
    let Some(player) = store.players().by_address(campaign, from)? else {
        return Ok(Sender::Refused(Refused::Stranger(from.to_string())));
    };
    let secret = secret();
    let ok = match &secret {
        Some(secret) => store
            .players()
            .check_secret(&campaign.name, &player.name, secret)?,
        None => false,
    };
    Ok(if ok {
        Sender::Player(player)
    } else {
        Sender::Refused(Refused::PlayerWithoutSecret {
            player,
            given: secret.is_some(),
        })
    })
}
