//! The GM's controls, the same from the command line (`realmgm gm ...`) and
//! by mail from the GM's address with the GM secret: status, process now,
//! preview without storing, roll back to a day, pause, resume, extend the
//! deadline, resend a report. Entering orders for a player goes through
//! [`Daemon::submit_orders`]; adding or replacing a player through the
//! store.

use crate::campaign::format_utc;
use crate::store::StoredCampaign;

use super::Daemon;
use super::commands::{self, Command, GmCommand};
use super::confirm::marker;
use super::ingest::Letter;
use super::process::TurnOutcome;

impl Daemon {
    /// Who has orders in for the pending turn, the deadline, pause and hold.
    ///
    /// # Errors
    /// No such campaign, or the store fails.
    pub fn status(&self, name: &str) -> anyhow::Result<String> {
        let stored = self.campaign(name)?;
        let campaign = &stored.campaign;
        let control = self.store.control(name)?;
        let pending = self.pending(campaign)?;
        let (awaited, unknown) = self.awaited(&stored, &pending)?;
        let mut out = format!(
            "Campaign {} ({}): day {} pending, deadline {}\n",
            campaign.name,
            campaign.game,
            pending.day,
            format_utc(pending.deadline)
        );
        if control.paused {
            out.push_str("PAUSED: deadlines do not run until `gm resume`\n");
        }
        if let Some(reason) = &control.hold_reason {
            out.push_str(&format!("HELD: {reason}\n"));
        }
        if let Some(why) = unknown {
            out.push_str(&format!("The game cannot say whom it waits for: {why}\n"));
        }
        if awaited.is_empty() {
            out.push_str(if self.over(&stored, &pending)? {
                "No turn waits for orders (the game is over).\n"
            } else {
                "No turn waits for orders: standing orders decide the next turn.\n"
            });
        }
        let orders = self.store.orders_for_day(name, pending.day)?;
        for player in &awaited {
            let mine: Vec<_> = orders
                .iter()
                .filter(|o| o.player.eq_ignore_ascii_case(player))
                .collect();
            let state = match (mine.last(), mine.iter().rev().find(|o| o.parsed.is_some())) {
                (None, _) => "no orders".to_string(),
                (Some(last), Some(ok)) if last.version == ok.version => {
                    format!("orders in (version {})", ok.version)
                }
                (Some(last), Some(ok)) => format!(
                    "orders in (version {}); version {} could not be read",
                    ok.version, last.version
                ),
                (Some(last), None) => {
                    format!("only unreadable orders (version {})", last.version)
                }
            };
            out.push_str(&format!("  {player}: {state}\n"));
        }
        Ok(out)
    }

    /// The reports the pending turn would produce now, without storing or
    /// sending anything.
    ///
    /// # Errors
    /// No such campaign, the turn cannot be resolved, or the store fails.
    pub fn preview(&self, name: &str) -> anyhow::Result<String> {
        let stored = self.campaign(name)?;
        let turn = self.resolve_pending(&stored)?;
        let mut out = format!(
            "Preview of day {} (nothing stored or sent); state hash {}\n",
            turn.day, turn.run.state_hash
        );
        if !turn.no_orders.is_empty() {
            out.push_str(&format!("No orders from: {}\n", turn.no_orders.join(", ")));
        }
        for (reader, report) in &turn.reports {
            out.push_str(&format!(
                "\n--- {} ---\n{}\n{}\n",
                reader.as_deref().unwrap_or("GM"),
                report.subject,
                report.text.trim_end()
            ));
        }
        Ok(out)
    }

    /// Go back to the end of `day`; the next turn is `day + 1` again and
    /// re-running it with the same orders must give the same results.
    ///
    /// # Errors
    /// No such day, or the store fails.
    pub fn rollback(&mut self, name: &str, day: u32, now: i64) -> anyhow::Result<String> {
        let latest =
            self.store.latest_day(name)?.map(|d| d.day).ok_or_else(|| {
                anyhow::anyhow!("campaign {name} has no stored days to roll back")
            })?;
        if self.store.load_day(name, day)?.is_none() || day > latest {
            anyhow::bail!("campaign {name} has no stored day {day}; the latest is day {latest}");
        }
        self.store.rollback_to(name, day)?;
        self.store.set_hold(name, None)?;
        let note = format!(
            "rolled back from day {latest} to day {day}; day {} is pending again (its orders are \
             kept)",
            day + 1
        );
        self.store.log_gm(Some(name), now, "gm", &note, None)?;
        Ok(note)
    }

    /// Stop the campaign's deadlines.
    ///
    /// # Errors
    /// No such campaign.
    pub fn pause(&mut self, name: &str, now: i64) -> anyhow::Result<String> {
        self.store.set_paused(name, true)?;
        self.store.log_gm(Some(name), now, "gm", "paused", None)?;
        Ok(format!(
            "{name} is paused; `gm resume` starts the deadlines again"
        ))
    }

    /// Start the deadlines again, lift a hold and let the pending day run
    /// despite the hold checks.
    ///
    /// # Errors
    /// No such campaign.
    pub fn resume(&mut self, name: &str, now: i64) -> anyhow::Result<String> {
        let stored = self.campaign(name)?;
        let day = self.pending(&stored.campaign)?.day;
        self.store.set_paused(name, false)?;
        self.store.set_hold(name, None)?;
        self.store.set_approved_day(name, Some(day))?;
        self.store.log_gm(Some(name), now, "gm", "resumed", None)?;
        Ok(format!(
            "{name} resumed; day {day} runs at its deadline even if a hold check would stop it"
        ))
    }

    /// Move the pending deadline `hours` later.
    ///
    /// # Errors
    /// No such campaign.
    pub fn extend(&mut self, name: &str, hours: u32, now: i64) -> anyhow::Result<String> {
        let stored = self.campaign(name)?;
        let day = self.pending(&stored.campaign)?.day;
        self.store
            .extend_deadline(name, day, i64::from(hours) * 3600)?;
        self.store.set_hold(name, None)?;
        let deadline = self.pending(&stored.campaign)?.deadline;
        let note = format!(
            "deadline of day {day} extended by {hours} hours to {}",
            format_utc(deadline)
        );
        self.store.log_gm(Some(name), now, "gm", &note, None)?;
        Ok(note)
    }

    /// Queue a player's report of `day` (his latest when `None`) again.
    ///
    /// # Errors
    /// No such campaign, player or report.
    pub fn resend(
        &mut self,
        name: &str,
        player: &str,
        day: Option<u32>,
        now: i64,
    ) -> anyhow::Result<String> {
        let stored = self.campaign(name)?;
        let record = stored
            .players
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(player))
            .ok_or_else(|| anyhow::anyhow!("campaign {name} has no player named {player}"))?
            .clone();
        let report = self
            .store
            .report(name, Some(&record.name), day)?
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "{} has no stored report{}",
                    record.name,
                    day.map(|d| format!(" of day {d}")).unwrap_or_default()
                )
            })?;
        let body = format!(
            "{} day {} report (sent again) ===\n\n{}\n",
            marker(name),
            report.day,
            report.text.trim_end()
        );
        self.queue(
            &stored.campaign,
            &record.email,
            &report.subject,
            &body,
            None,
            now,
        )?;
        Ok(format!(
            "report of day {} queued again for {}",
            report.day, record.name
        ))
    }

    /// Carry out a GM command that came by mail and answer the GM.
    pub(crate) fn gm_mail(
        &mut self,
        stored: &StoredCampaign,
        letter: &Letter,
        now: i64,
    ) -> anyhow::Result<String> {
        let name = stored.campaign.name.clone();
        let command = match commands::read(&letter.mail.subject, &letter.text) {
            Command::Gm(command) => command,
            _ => GmCommand::Unknown(commands::bare_subject(&letter.mail.subject)),
        };
        let result = match &command {
            GmCommand::Status => self.status(&name),
            GmCommand::Process => self.process_turn(&name, now).map(|outcome| match outcome {
                TurnOutcome::Processed { day, .. } => format!("day {day} processed"),
                TurnOutcome::Held(reason) => format!("not processed: {reason}"),
            }),
            GmCommand::Preview => self.preview(&name),
            GmCommand::Pause => self.pause(&name, now),
            GmCommand::Resume => self.resume(&name, now),
            GmCommand::Extend(hours) => self.extend(&name, *hours, now),
            GmCommand::Resend { player, day } => self.resend(&name, player, *day, now),
            GmCommand::Rollback(day) => self.rollback(&name, *day, now),
            GmCommand::Unknown(text) => Err(anyhow::anyhow!(
                "'{text}' is not a GM command; use a subject such as `[{name}] gm status` (also \
                 gm process, gm preview, gm pause, gm resume, gm extend HOURS, gm resend PLAYER \
                 [DAY], gm rollback DAY)"
            )),
        };
        let text = match result {
            Ok(text) => text,
            Err(error) => format!("Failed: {error:#}"),
        };
        let body = format!("{} GM command ===\n\n{}\n", marker(&name), text.trim_end());
        self.queue(
            &stored.campaign,
            stored.campaign.gm.email.as_str(),
            "Re: GM command",
            &body,
            letter.answering(),
            now,
        )?;
        self.store.log_gm(
            Some(&name),
            now,
            "gm",
            &format!("by mail: {command:?}"),
            letter.inbound_id,
        )?;
        Ok(format!("GM command {command:?}"))
    }
}
