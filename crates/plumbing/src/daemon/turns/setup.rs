//! Setup by mail in the daemon, for a campaign whose `[mail]` table says
//! `setup_by_mail = true`: before day 1 a player's mail goes to the game's
//! setup ([`crate::game::SetupByMail`]) instead of the orders; its progress
//! is stored after every mail; whoever the game asks to act next is mailed;
//! what the game copies to the GM (secret starting info) reaches him; and
//! once every choice is in the game starts with them.

use anyhow::anyhow;

use crate::game::{MailSetup, Seat, SetupRefused, SetupTable};
use crate::store::{PlayerRecord, StoredCampaign};

use super::Turns;
use crate::daemon::mail_in::ingest::Letter;
use crate::daemon::orders::confirm::marker;

/// Where a campaign's setup by mail stands.
pub(crate) enum SetupOutcome {
    /// What the setup still waits for, as the daemon's log shows it.
    Waiting(String),
    /// Every choice is in: the seats and the game's setup.
    Ready(Vec<Seat>, Box<dyn MailSetup>),
}

impl Turns<'_> {
    /// Whether `stored` is still being set up by mail.
    ///
    /// # Errors
    /// The store fails.
    pub fn setting_up_by_mail(&self, stored: &StoredCampaign) -> anyhow::Result<bool> {
        let by_mail = stored
            .campaign
            .mail
            .as_ref()
            .is_some_and(|m| m.setup_by_mail);
        Ok(by_mail && self.store.days().latest(&stored.campaign.name)?.is_none())
    }

    /// The setup so far (a new one, seat order, before the first mail).
    fn setup_record(&self, stored: &StoredCampaign) -> anyhow::Result<Box<dyn MailSetup>> {
        let campaign = &stored.campaign;
        let game = self.game(campaign)?;
        let by_mail = game.setup_by_mail().ok_or_else(|| {
            anyhow!(
                "setup by mail is not implemented for {} yet; remove setup_by_mail from [mail]",
                campaign.game
            )
        })?;
        // A player of several characters has a seat for each, the further
        // ones from the campaign file: named there, or chosen by mail.
        let seats: Vec<Seat> = stored
            .seats()
            .into_iter()
            .filter(|seat| stored.players.iter().any(|p| p.name == seat.player))
            .collect();
        let table = SetupTable {
            seats: &seats,
            rules: &campaign.rules,
            seed: campaign.seed,
            victory_points: campaign.calendar.as_ref().map(|c| c.victory_points),
            carry_over: campaign.carry_over.as_ref(),
        };
        by_mail.setup(
            self.store.campaigns().setup_progress(&campaign.name)?,
            &table,
        )
    }

    /// A player's mail while the campaign is set up by mail. Returns a note.
    ///
    /// # Errors
    /// The store fails or the game data is broken.
    pub(crate) fn setup_mail(
        &mut self,
        stored: &StoredCampaign,
        player: &PlayerRecord,
        letter: &Letter,
        now: i64,
    ) -> anyhow::Result<String> {
        self.setup_submit(
            stored,
            player,
            &letter.text,
            letter.answering(),
            letter.inbound_id,
            now,
        )
        .map(|(note, _)| note)
    }

    /// Submit `text` to the setup for `player` (his mail, or the GM's
    /// entry for him): the player gets the answer. Returns a note for the
    /// log and the answer.
    ///
    /// # Errors
    /// The store fails or the game data is broken.
    pub(crate) fn setup_submit(
        &mut self,
        stored: &StoredCampaign,
        player: &PlayerRecord,
        text: &str,
        answering: Option<(&str, &[String])>,
        inbound_id: Option<i64>,
        now: i64,
    ) -> anyhow::Result<(String, String)> {
        let campaign = &stored.campaign;
        let mut record = self.setup_record(stored)?;
        let head = format!("{} setup ===\n\n", marker(&campaign.name));
        let answer = record.submit(&player.name, text);
        let (body, note) = match answer.outcome {
            Ok(done) => (
                format!("{head}{done}\n"),
                format!("setup by mail: {}: {done}", player.name),
            ),
            Err(SetupRefused(problems)) => (
                format!(
                    "{head}Nothing was recorded:\n{}\n",
                    problems
                        .iter()
                        .map(|p| format!("  - {p}\n"))
                        .collect::<String>()
                ),
                format!(
                    "setup by mail: {} refused ({})",
                    player.name,
                    crate::words::counted(problems.len(), "problem", "problems")
                ),
            ),
        };
        self.store
            .campaigns_mut()
            .save_setup_progress(&campaign.name, &record.progress()?)?;
        self.outbox()
            .queue(campaign, &player.email, "Re: setup", &body, answering, now)?;
        if let Some(copy) = &answer.gm_copy {
            self.outbox()
                .tell_gm(campaign, "setup", "starting info", copy, inbound_id, now)?;
        }
        if answer.next_stage {
            self.announce_stage(stored, &*record, now)?;
        }
        Ok((note, body))
    }

    /// The line `gm status` shows while the campaign is set up by mail.
    ///
    /// # Errors
    /// The store fails.
    pub(crate) fn setup_status(&self, stored: &StoredCampaign) -> anyhow::Result<String> {
        Ok(self.setup_record(stored)?.status())
    }

    /// Mail whoever must act now, in seat order; the GM hears when the
    /// setup is complete.
    fn announce_stage(
        &mut self,
        stored: &StoredCampaign,
        record: &dyn MailSetup,
        now: i64,
    ) -> anyhow::Result<()> {
        let campaign = &stored.campaign;
        let head = format!("{} setup ===\n\n", marker(&campaign.name));
        let calls = record.calls();
        for call in calls.iter().filter(|c| c.to.is_none()) {
            self.outbox()
                .tell_gm(campaign, "setup", &call.subject, &call.body, None, now)?;
        }
        for player in &stored.players {
            for call in calls
                .iter()
                .filter(|c| c.to.as_deref() == Some(player.name.as_str()))
            {
                let body = format!("{head}{}", call.body);
                self.outbox()
                    .queue(campaign, &player.email, &call.subject, &body, None, now)?;
            }
        }
        Ok(())
    }

    /// Before the game starts: what the setup still waits for, or the seats
    /// and the game's record of the choices. The first call begins the
    /// setup and mails the first chooser.
    ///
    /// # Errors
    /// The store fails, or the game cannot be set up by mail.
    pub(crate) fn setup_outcome(
        &mut self,
        stored: &StoredCampaign,
        now: i64,
    ) -> anyhow::Result<SetupOutcome> {
        let name = &stored.campaign.name;
        let record = self.setup_record(stored)?;
        if self.store.campaigns().setup_progress(name)?.is_none() {
            self.store
                .campaigns_mut()
                .save_setup_progress(name, &record.progress()?)?;
            self.announce_stage(stored, &*record, now)?;
        }
        if let Some(waiting) = record.waiting() {
            return Ok(SetupOutcome::Waiting(waiting));
        }
        let mut seats = Vec::new();
        for player in &stored.players {
            let choices = record.choices_of(&player.name);
            if let Some(first) = choices.first() {
                self.store
                    .players_mut()
                    .set_character(name, &player.name, first)?;
            }
            if choices.is_empty() {
                seats.push(Seat {
                    player: player.name.clone(),
                    role: None,
                });
            }
            seats.extend(choices.into_iter().map(|character| Seat {
                player: player.name.clone(),
                role: Some(character),
            }));
        }
        Ok(SetupOutcome::Ready(seats, record))
    }
}
