//! The GM daemon: the whole play-by-email loop around a game it only knows
//! through [`crate::game::Game`].
//!
//! [`Daemon`] holds what every part shares: the store, the games it knows,
//! and the facts of a campaign's pending turn. Each responsibility is a
//! small type that borrows it for one call, reached through a door of the
//! same name ([`Daemon::mail_in`], [`Daemon::turns`], ...):
//!
//! - [`mail_in::MailIn`]: mail comes in (IMAP, Maildir, or a pipe) and is
//!   stored raw before anything else; then each stored message is read
//!   once: robots are never answered, strangers are only logged, players are
//!   checked by address and secret, private messages are relayed.
//! - [`orders::Orders`]: a player's commands and orders, confirmed within
//!   the same round.
//! - [`turns::Turns`]: each round decides whether a pending turn runs, waits,
//!   is reminded about or is held; a run stores the new day and queues the
//!   reports; combat rounds and setup by mail.
//! - [`gm::GmControl`]: the GM's controls, from the command line and by
//!   mail, and his rulings; [`gm::seats::Seats`]: players joining, changing
//!   seats and leaving.
//! - [`outbox::Outbox`]: every mail is queued and retried with backoff until
//!   delivered.
//! - [`site::SitePages`]: the public pages rebuilt when out of date.
//!
//! A part calls another through its door, so each part's methods stay in
//! its module. Nothing here reads the clock: every entry point takes `now`
//! (Unix seconds) from the edge (the CLI).

/// Declares a part of the daemon: a type borrowing the whole [`Daemon`]
/// for one call, reading the shared store and facts through `Deref`.
macro_rules! part {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        pub struct $name<'a> {
            pub(in crate::daemon) daemon: &'a mut $crate::daemon::Daemon,
        }

        impl std::ops::Deref for $name<'_> {
            type Target = $crate::daemon::Daemon;

            fn deref(&self) -> &$crate::daemon::Daemon {
                self.daemon
            }
        }

        impl std::ops::DerefMut for $name<'_> {
            fn deref_mut(&mut self) -> &mut $crate::daemon::Daemon {
                self.daemon
            }
        }
    };
}

pub mod gm;
pub mod guard;
pub mod mail_access;
pub mod mail_in;
pub mod news;
pub mod orders;
pub mod outbox;
pub mod site;
pub mod turns;

use crate::campaign::Campaign;
use crate::game::{Game, GameState};
use crate::store::{Store, StoredCampaign};

/// The daemon over one database.
pub struct Daemon {
    pub store: Store,
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
    /// A daemon over `store`, running the games its campaigns play
    /// ([`Store::games`]).
    pub fn new(store: Store) -> Daemon {
        Daemon { store }
    }

    /// The game `campaign` plays.
    ///
    /// # Errors
    /// The game is unknown to this build.
    pub fn game(&self, campaign: &Campaign) -> anyhow::Result<&'static dyn Game> {
        campaign.game(self.store.games())
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
        let deadline = self.deadline_of(campaign, day)?;
        Ok(Pending {
            day,
            state: latest.map(|snapshot| snapshot.state),
            deadline,
        })
    }

    /// The pending day's deadline, without loading its state: whether its
    /// turn may run is known before its mail is read.
    ///
    /// # Errors
    /// The store fails.
    pub fn pending_deadline(&self, campaign: &Campaign) -> anyhow::Result<i64> {
        let latest = self.store.days().latest_number(&campaign.name)?;
        self.deadline_of(campaign, latest.map_or(1, |day| day + 1))
    }

    /// Day `day`'s deadline with the GM's extensions, Unix seconds.
    fn deadline_of(&self, campaign: &Campaign, day: u32) -> anyhow::Result<i64> {
        Ok(campaign.schedule.deadline(day)
            + self
                .store
                .control()
                .deadline_extension(&campaign.name, day)?)
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

/// The doors to the daemon's parts, each borrowing the whole for a call.
impl Daemon {
    /// Mail in: storing, reading and routing inbound mail.
    pub fn mail_in(&mut self) -> mail_in::MailIn<'_> {
        mail_in::MailIn { daemon: self }
    }

    /// A player's commands and orders.
    pub fn orders(&mut self) -> orders::Orders<'_> {
        orders::Orders { daemon: self }
    }

    /// Turns: running, holding and setting up days.
    pub fn turns(&mut self) -> turns::Turns<'_> {
        turns::Turns { daemon: self }
    }

    /// The GM's controls and rulings.
    pub fn gm(&mut self) -> gm::GmControl<'_> {
        gm::GmControl { daemon: self }
    }

    /// Players joining, changing seats and leaving.
    pub fn seats(&mut self) -> gm::seats::Seats<'_> {
        gm::seats::Seats { daemon: self }
    }

    /// Access tokens for mailboxes signed in with OAuth.
    pub fn mail_access(&mut self) -> mail_access::MailAccess<'_> {
        mail_access::MailAccess { daemon: self }
    }

    /// Mail out.
    pub fn outbox(&mut self) -> outbox::Outbox<'_> {
        outbox::Outbox { daemon: self }
    }

    /// The public pages.
    pub fn site(&mut self) -> site::SitePages<'_> {
        site::SitePages { daemon: self }
    }

    /// The public news for the campaign's webhooks.
    pub fn news(&mut self) -> news::Newsroom<'_> {
        news::Newsroom { daemon: self }
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

/// The address the campaign's mail comes from.
pub fn sender(campaign: &Campaign) -> String {
    campaign
        .mail
        .as_ref()
        .and_then(|m| m.from.clone())
        .unwrap_or_else(|| campaign.gm.email.to_string())
}

/// A daemon holding the demo campaign, for the parts' own tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::Daemon;
    use crate::campaign::Campaign;
    use crate::store::Store;

    const DEMO: &str = include_str!("../../../../campaigns/demo.toml");

    /// 2030-01-01 00:00 UTC, the day of the demo's first deadline.
    pub(crate) const NOW: i64 = 1_893_456_000;

    /// A daemon over an in-memory store holding the demo campaign `DEMO`
    /// (Ann, Ben and Cat), started: day 0 stored, day 1 pending.
    pub(crate) fn demo() -> Daemon {
        let mut store = Store::open_in_memory(crate::TEST_GAMES).unwrap();
        let campaign = Campaign::parse("demo.toml", DEMO, crate::TEST_GAMES).unwrap();
        store.campaigns_mut().insert(&campaign, DEMO, NOW).unwrap();
        let mut daemon = Daemon::new(store);
        daemon.turns().check_turn("DEMO", NOW).unwrap();
        daemon
    }
}
