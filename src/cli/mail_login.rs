//! `realmgm mail login --campaign C`: the GM's consent for a campaign whose
//! `[mail.imap]` or `[mail.smtp]` signs in with `auth = "oauth2"`, and the
//! access tokens the daemon and `doctor` get from it. The device flow
//! where the provider has a device endpoint (Microsoft): a code and a URL
//! to approve in any browser. Otherwise (Google) the browser sign-in with
//! PKCE, coming back to a listener on 127.0.0.1, or with `--paste` (or
//! when no port can be bound) the GM pastes the address the browser ended
//! at. The refresh token is stored sealed; see `store::sealing` for the key.

use std::io::BufRead;
use std::path::Path;

use anyhow::{Context, bail};

use crate::campaign::{Campaign, ClientSecret, OAuthSettings};
use crate::daemon::Daemon;
use crate::daemon::mail_access::grant_owner;
use crate::mail::oauth::pkce::{Consent, Loopback};
use crate::mail::oauth::{Client, Tokens, device};
use crate::store::SealingKey;

use super::campaign::DbArg;
use super::{emit, now};

#[derive(Debug, clap::Subcommand)]
pub enum MailCommand {
    /// Sign the campaign's mailbox in with OAuth 2.0 (auth = "oauth2"):
    /// approve access in a browser; the refresh token is stored encrypted.
    Login(LoginArgs),
}

#[derive(Debug, clap::Args)]
pub struct LoginArgs {
    /// The campaign, by tag.
    #[arg(long)]
    campaign: String,
    /// Paste the address the browser ended at instead of waiting for it
    /// on 127.0.0.1 (when the browser runs on another machine).
    #[arg(long)]
    paste: bool,
    #[command(flatten)]
    db: DbArg,
}

pub fn run(command: &MailCommand) -> anyhow::Result<()> {
    match command {
        MailCommand::Login(args) => login(args),
    }
}

/// The registered application, with its secret read from where the
/// campaign file says.
pub(super) fn client(settings: &OAuthSettings) -> anyhow::Result<Client> {
    let secret = match &settings.client_secret {
        ClientSecret::None => None,
        ClientSecret::Env(variable) => Some(std::env::var(variable).with_context(|| {
            format!(
                "the environment variable {variable} named by client_secret_env is not set; \
                 export it with the client secret"
            )
        })?),
        ClientSecret::File(file) => Some(
            std::fs::read_to_string(file)
                .with_context(|| {
                    format!(
                        "cannot read the client secret from {file} (client_secret_file); check \
                         the path and that this user can read it"
                    )
                })?
                .trim()
                .to_string(),
        ),
    };
    Ok(Client {
        id: settings.client_id.clone(),
        secret,
    })
}

/// The key the database at `database` seals tokens with.
pub(super) fn sealing_key(database: &Path) -> anyhow::Result<SealingKey> {
    Ok(SealingKey::for_database(database)?)
}

/// An access token for the campaign's mailbox, when it signs in with
/// OAuth: the stored one while it is good, else a refreshed one.
pub(super) fn access_token(
    daemon: &mut Daemon,
    campaign: &Campaign,
    database: &Path,
    now: i64,
) -> anyhow::Result<Option<String>> {
    let Some(settings) = campaign.mail.as_ref().and_then(|m| m.oauth()) else {
        return Ok(None);
    };
    let client = client(&settings)?;
    let key = sealing_key(database)?;
    let (token, _) = daemon
        .mail_access()
        .access_token(campaign, &settings, &client, &key, now)?;
    Ok(Some(token))
}

/// `doctor`'s check of the sign-in: an access token, the stored one while
/// good, else refreshed as the daemon would (not out of turn, which could
/// race the daemon's refresh). The token serves the IMAP and SMTP checks.
pub(super) fn check_sign_in(
    daemon: &mut Daemon,
    campaign: &Campaign,
    settings: &OAuthSettings,
    database: &Path,
    now: i64,
) -> anyhow::Result<String> {
    let client = client(settings)?;
    let key = sealing_key(database)?;
    let (_, expires) = daemon
        .mail_access()
        .access_token(campaign, settings, &client, &key, now)?;
    Ok(format!(
        "OAuth sign-in works (access token good for {} more minutes, then refreshed at {})",
        (expires - now) / 60,
        settings.provider.token_url
    ))
}

fn login(args: &LoginArgs) -> anyhow::Result<()> {
    let (store, _) = args.db.open(false)?;
    let database = args.db.real_path(false)?;
    let mut daemon = Daemon::new(store);
    let campaign = daemon.campaign(&args.campaign)?.campaign;
    let Some(settings) = campaign.mail.as_ref().and_then(|m| m.oauth()) else {
        bail!(
            "campaign {} signs in with passwords: set auth = \"oauth2\" with a provider and \
             client_id in [mail.imap] or [mail.smtp] (see README), then `realmgm campaign edit`",
            campaign.name
        );
    };
    let key = sealing_key(&database)?;
    let client = client(&settings)?;
    let provider = &settings.provider;
    let tokens = if provider.device_url.is_some() {
        let code = device::start(provider, &client)?;
        emit(format!(
            "To let realmgm use the mailbox of {}, open {} in any browser and enter the code {}",
            campaign.name, code.verification_uri, code.user_code
        ))?;
        if let Some(complete) = &code.verification_uri_complete {
            emit(format!("(or open {complete}, which holds the code)"))?;
        }
        emit(format!(
            "Waiting for your approval (the code is good for {} minutes)...",
            code.expires_in / 60
        ))?;
        device::poll(provider, &client, &code, &mut std::thread::sleep)?
    } else {
        browser_sign_in(&settings, &client, args.paste)?
    };
    let Some(refresh) = tokens.refresh_token.as_deref() else {
        bail!(
            "the provider gave no refresh token, so the daemon could not sign in later; for \
             Microsoft the scopes must include offline_access, for Google remove realmgm's \
             access at myaccount.google.com/permissions and run the login again"
        );
    };
    let now = now()?;
    let expires = tokens
        .expires_in
        .and_then(|s| i64::try_from(s).ok())
        .map(|s| now.saturating_add(s));
    let _round = args.db.wait_for_round(false)?;
    daemon.store.grants_mut().save(
        &campaign.name,
        &key,
        &grant_owner(&settings),
        refresh,
        expires.map(|e| (tokens.access_token.as_str(), e)),
        now,
    )?;
    daemon.store.control_mut().log_gm(
        Some(&campaign.name),
        now,
        "oauth",
        "the GM signed the mailbox in with OAuth (mail login)",
        None,
    )?;
    emit(format!(
        "Signed in: the daemon now reaches the mailbox of {} with OAuth; `realmgm doctor \
         --campaign {}` checks the whole chain.",
        campaign.name, campaign.name
    ))
}

/// The browser sign-in with PKCE: the listener on 127.0.0.1 catches the
/// redirect, or the GM pastes where the browser ended.
fn browser_sign_in(
    settings: &OAuthSettings,
    client: &Client,
    paste: bool,
) -> anyhow::Result<Tokens> {
    let provider = &settings.provider;
    let loopback = if paste { None } else { Loopback::bind().ok() };
    let redirect_uri = match &loopback {
        Some(listener) => listener.redirect_uri()?,
        // A port nobody listens on: the browser shows an error page, whose
        // address the GM copies.
        None => "http://127.0.0.1:8749/".to_string(),
    };
    let consent = Consent::begin(provider, client, &redirect_uri)?;
    emit(format!(
        "Open this address in a browser and approve access to the mailbox:\n\n{}\n",
        consent.url
    ))?;
    let redirected = match &loopback {
        Some(listener) => {
            emit("Waiting for the browser to come back to this machine...")?;
            listener.wait()?
        }
        None => {
            emit(
                "The browser then ends at an address starting with http://127.0.0.1 that does \
                 not load: paste that whole address here and press Enter:",
            )?;
            let mut line = String::new();
            std::io::stdin()
                .lock()
                .read_line(&mut line)
                .context("cannot read the pasted address")?;
            line
        }
    };
    Ok(consent.finish(provider, client, &redirected)?)
}
