//! Setup by mail as the plumbing drives it: before the first turn the
//! players make the game's setup choices by mail, one answer at a time, and
//! the daemon stores the progress after every mail, mails whoever must act
//! next and starts the game once every choice is in. The game owns the
//! choices, their order and every word of the mails; the daemon only
//! stores, addresses and sends.

use std::any::Any;

use super::{Rules, Seat};

/// A game whose players can make their setup choices by mail.
pub trait SetupByMail: Sync {
    /// The setup so far: read from the `progress` the store kept, or begun
    /// for `table` when there is none yet.
    ///
    /// # Errors
    /// The stored progress is not this game's, or the game's data are
    /// broken.
    fn setup(
        &self,
        progress: Option<serde_json::Value>,
        table: &SetupTable<'_>,
    ) -> anyhow::Result<Box<dyn MailSetup>>;
}

/// The table a setup by mail begins with.
#[derive(Clone, Copy, Debug)]
pub struct SetupTable<'a> {
    /// Every seat in seat order; a seat's choice made in the campaign file
    /// is kept, and only the others choose by mail.
    pub seats: &'a [Seat],
    pub rules: &'a Rules,
    /// The campaign's seed: what the setup deals at random comes from it.
    pub seed: u64,
    /// The victory points the campaign asks for the whole game, when it
    /// sets them.
    pub victory_points: Option<u32>,
    /// The campaign file's `[carry_over]` table, as JSON ([`super::Start`]).
    pub carry_over: Option<&'a serde_json::Value>,
}

/// One setup by mail in progress.
pub trait MailSetup: Any + Send {
    /// Take `player`'s mail.
    fn submit(&mut self, player: &str, text: &str) -> SetupAnswer;

    /// Where the setup stands, one line for the GM's status.
    fn status(&self) -> String;

    /// What the setup still waits for, one line for the daemon's log;
    /// `None` once every choice is in.
    fn waiting(&self) -> Option<String>;

    /// The mails the stage the setup stands at asks for: to each player who
    /// must act, or to the GM when the setup is complete.
    fn calls(&self) -> Vec<SetupCall>;

    /// What `player` chose to play (Magic Realm: his character, or under
    /// Multiple Characters each of his, in his seats' order): his seat
    /// keeps the first once the game starts, and each further one has a
    /// seat of its own.
    fn choices_of(&self, player: &str) -> Vec<String>;

    /// The progress as the store keeps it.
    ///
    /// # Errors
    /// The progress cannot be written as JSON.
    fn progress(&self) -> serde_json::Result<serde_json::Value>;
}

/// The answer to one mail of a setup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupAnswer {
    /// What was recorded, or every problem (nothing was recorded).
    pub outcome: Result<String, SetupRefused>,
    /// A copy for the GM of what the mail recorded that only he may see
    /// besides its sender (Magic Realm: secret starting info).
    pub gm_copy: Option<String>,
    /// Whether the setup moved on to a stage whose calls are new.
    pub next_stage: bool,
}

/// Why a setup mail recorded nothing: every problem found in it, each in
/// the words its sender reads, so he can mend them all in one answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.join("; "))]
pub struct SetupRefused(pub Vec<String>);

/// The problems, in the order the mail's lines gave them.
impl std::ops::Deref for SetupRefused {
    type Target = [String];

    fn deref(&self) -> &[String] {
        &self.0
    }
}

/// A mail the setup asks the daemon to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupCall {
    /// The player it is for; `None` for the GM.
    pub to: Option<String>,
    pub subject: String,
    pub body: String,
}
