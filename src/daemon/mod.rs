//! The GM daemon: the whole play-by-email loop around a game it only knows
//! through [`crate::game::Game`].
//!
//! Mail comes in ([`ingest`]: IMAP, Maildir, or a pipe) and is stored raw
//! before anything else; then each stored message is read once: robots are
//! never answered, strangers are only logged, players are checked by
//! address and secret ([`auth`]), and their commands ([`commands`]) or
//! orders get a confirmation within the same tick ([`confirm`]). Each tick
//! also decides whether a pending turn runs, waits, is reminded about or is
//! held ([`schedule`]); a run ([`process`]) stores the new day and queues the
//! reports; the GM's controls ([`gm`]) work from the command line and by
//! mail; private messages go through [`relay`]; every mail goes through the
//! outbox and is retried with backoff until delivered ([`outbox`]).
//!
//! Nothing here reads the clock: every entry point takes `now` (Unix
//! seconds) from the edge (the CLI).

pub mod auth;
pub mod commands;
pub mod confirm;
pub mod gm;
pub mod guard;
pub mod ingest;
pub mod outbox;
pub mod player;
pub mod process;
pub mod relay;
pub mod report_context;
pub mod rounds;
pub mod rulings;
pub mod schedule;
pub mod seats;
pub mod setup;
pub mod site;

use anyhow::Context;

use crate::campaign::Campaign;
use crate::game::{Game, GameState};
use crate::store::{Store, StoredCampaign};

/// How the daemon finds a campaign's game by its id: [`crate::games::game`]
/// in the binary, a test game in tests.
pub type GameLookup = fn(&str) -> Option<&'static dyn Game>;

/// The daemon over one database.
pub struct Daemon {
    pub store: Store,
    games: GameLookup,
}

/// The turn a campaign waits for.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    /// The day the next turn resolves (1 after setup).
    pub day: u32,
    /// The state it starts from; `None` before the game is set up.
    pub state: Option<GameState>,
    /// Its deadline with the GM's extensions, Unix seconds.
    pub deadline: i64,
}

impl Daemon {
    /// A daemon running the games realmgm knows.
    pub fn new(store: Store) -> Daemon {
        Daemon::with_games(store, crate::games::game)
    }

    /// A daemon that finds games through `games`.
    pub fn with_games(store: Store, games: GameLookup) -> Daemon {
        Daemon { store, games }
    }

    /// The game `campaign` plays.
    ///
    /// # Errors
    /// The game is unknown to this build.
    pub fn game(&self, campaign: &Campaign) -> anyhow::Result<&'static dyn Game> {
        (self.games)(&campaign.game).with_context(|| {
            format!(
                "campaign {} plays '{}', which this realmgm does not know",
                campaign.name, campaign.game
            )
        })
    }

    /// A stored campaign.
    ///
    /// # Errors
    /// No such campaign.
    pub fn campaign(&self, name: &str) -> anyhow::Result<StoredCampaign> {
        Ok(self.store.campaigns().load(name)?)
    }

    /// The number of the pending day, read without its state: a campaign
    /// held for a state changed outside realmgm still has one, and the GM
    /// needs it to roll back.
    ///
    /// # Errors
    /// The store fails.
    pub fn pending_day(&self, campaign: &str) -> anyhow::Result<u32> {
        Ok(self
            .store
            .days()
            .latest_number(campaign)?
            .map_or(1, |day| day + 1))
    }

    /// The turn `campaign` waits for.
    ///
    /// # Errors
    /// The store fails.
    pub fn pending(&self, campaign: &Campaign) -> anyhow::Result<Pending> {
        let latest = self.store.days().latest(&campaign.name)?;
        let day = latest.as_ref().map_or(1, |snapshot| snapshot.day + 1);
        let deadline = campaign.schedule.deadline(day)
            + self
                .store
                .control()
                .deadline_extension(&campaign.name, day)?;
        Ok(Pending {
            day,
            state: latest.map(|snapshot| snapshot.state),
            deadline,
        })
    }

    /// Who the pending turn waits for: the game's answer, or every player
    /// when the game cannot say (the reason is returned beside).
    ///
    /// # Errors
    /// The game is unknown.
    pub fn awaited(
        &self,
        stored: &StoredCampaign,
        pending: &Pending,
    ) -> anyhow::Result<(Vec<String>, Option<String>)> {
        let game = self.game(&stored.campaign)?;
        let everyone = || stored.players.iter().map(|p| p.name.clone()).collect();
        let Some(state) = &pending.state else {
            return Ok((everyone(), Some("the game is not set up yet".to_string())));
        };
        let admitted = game.admit(state, &stored.campaign.rules, &stored.seats());
        Ok(match admitted.and_then(|state| game.awaiting(&state)) {
            Ok(awaited) => (awaited, None),
            Err(error) => (everyone(), Some(format!("{error:#}"))),
        })
    }
}

impl Daemon {
    /// Whether the campaign's game has ended. A game that waits for nobody
    /// may still go on: its players' standing orders decide the next turn.
    ///
    /// # Errors
    /// The game is unknown.
    pub fn over(&self, stored: &StoredCampaign, pending: &Pending) -> anyhow::Result<bool> {
        let game = self.game(&stored.campaign)?;
        Ok(match &pending.state {
            Some(state) => game.is_over(state).unwrap_or(false),
            None => false,
        })
    }
}

/// The address part of `Name <address>` or of a bare address.
pub fn bare_address(text: &str) -> &str {
    match (text.rfind('<'), text.rfind('>')) {
        (Some(open), Some(close)) if open < close => text[open + 1..close].trim(),
        _ => text.trim(),
    }
}

/// The address the campaign's mail comes from.
pub fn sender(campaign: &Campaign) -> String {
    campaign
        .mail
        .as_ref()
        .and_then(|m| m.from.clone())
        .unwrap_or_else(|| campaign.gm.email.to_string())
}
