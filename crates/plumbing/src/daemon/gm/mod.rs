//! The GM's controls, the same from the command line (`realmgm gm ...`) and
//! by mail from the GM's address with the GM secret: status, process now,
//! preview without storing, roll back to a day, pause, resume, extend the
//! deadline, resend a report, enter or edit a player's orders (he gets a
//! copy of the confirmation), add a player or give a seat to a new address
//! (the newcomer is mailed his secret), list and read again the mail set
//! aside as failed, tell a GM his campaign's record cannot be read. The
//! GM's rulings are in [`rulings`]; players joining and leaving in
//! [`seats`].

use std::collections::BTreeMap;

use crate::campaign::{Campaign, format_utc};
use crate::daemon::mail_in::ingest::mailbox_key;
use crate::store::{InboundStatus, ReportParts, StoredCampaign};

use crate::daemon::mail_in::ingest::Letter;
use crate::daemon::orders::commands::{self, Command, GmCommand};
use crate::daemon::orders::confirm::marker;
use crate::daemon::orders::player::{Submission, Submitted};
use crate::daemon::turns::process::TurnOutcome;

pub mod rulings;
pub mod seats;

part! {
    /// The GM's controls, from the command line and by mail: status,
    /// processing, rollback, pause, announcements, orders entered for a
    /// player, failed mail, rulings.
    GmControl
}

/// Which turn `gm process` is to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DayToProcess {
    /// The day the GM named (`--day`).
    Named(u32),
    /// The day pending when the GM's command began, before it waited for
    /// the daemon's round.
    Seen(u32),
}

/// How long after a day has run `gm process` without `--day` refuses to run
/// the next one with no orders from anyone: the GM most likely saw the day
/// before pending, and the daemon ran it a moment earlier.
const JUST_RUN_SECONDS: i64 = 600;

impl GmControl<'_> {
    /// Who has orders in for the pending turn, the deadline, pause and hold,
    /// as the GM reads it.
    ///
    /// # Errors
    /// No such campaign, or the store fails.
    pub fn status(&mut self, name: &str) -> anyhow::Result<String> {
        Ok(self.status_facts(name)?.to_string())
    }

    /// [`GmControl::status`] as data, for `gm status --json` and monitoring.
    ///
    /// # Errors
    /// No such campaign, or the store fails.
    pub fn status_facts(&mut self, name: &str) -> anyhow::Result<CampaignStatus> {
        let stored = self.campaign(name)?;
        let campaign = &stored.campaign;
        let control = self.store.control().get(name)?;
        let pending = self.pending(campaign)?;
        let (awaited, unknown) = self.awaited(&stored, &pending)?;
        let combat_round = self
            .store
            .rounds()
            .get(name, pending.day)?
            .map(|round| crate::daemon::turns::rounds::round_status(&round));
        let setup = if self.turns().setting_up_by_mail(&stored)? {
            Some(self.turns().setup_status(&stored)?)
        } else {
            None
        };
        let over = awaited.is_empty() && self.over(&stored, &pending)?;
        let orders = self.store.orders().for_day(name, pending.day)?;
        let away = self.store.players().absences(name)?;
        let mut players = Vec::new();
        for player in &awaited {
            let mine: Vec<_> = orders
                .iter()
                .filter(|o| o.player.eq_ignore_ascii_case(player))
                .collect();
            let accepted = mine
                .iter()
                .rev()
                .find(|o| o.parsed.is_some())
                .map(|o| o.version);
            players.push(PlayerStatus {
                player: player.clone(),
                accepted_version: accepted,
                latest_version: mine.last().map(|o| o.version),
                bounces: self.store.players().bounce_count(name, player).unwrap_or(0),
                away_until: away
                    .iter()
                    .find(|a| a.player.eq_ignore_ascii_case(player))
                    .map(|a| format_utc(a.until)),
            });
        }
        let choosing = stored
            .players
            .iter()
            .filter(|p| self.seats().choosing_character(&stored, p).unwrap_or(false))
            .map(|p| p.name.clone())
            .collect();
        let owing_starting_info = stored
            .players
            .iter()
            .filter(|p| {
                matches!(
                    self.seats().starting_info_owed(&stored, &p.name),
                    Ok(Some(_))
                )
            })
            .map(|p| p.name.clone())
            .collect();
        let health = self.store.inbox().mail_health(name)?;
        let grant = match campaign.mail.as_ref().and_then(|m| m.oauth()) {
            Some(_) => Some(self.store.grants().state(name)?),
            None => None,
        };
        let sign_in = grant
            .as_ref()
            .map(|state| sign_in_status(name, state.as_ref()));
        // Without a sign-in, or with one the provider refused, the daemon
        // opens no session, whatever a watcher said before.
        let signed_out = grant
            .as_ref()
            .is_some_and(|state| state.as_ref().is_none_or(|s| s.revoked.is_some()));
        let mailbox = self.mailbox_status(campaign, signed_out, control.last_tick.is_some())?;
        let news = self.store.news().health(name)?;
        Ok(CampaignStatus {
            mailbox,
            news,
            last_poll: control.last_tick.map(format_utc),
            latest_day: self.store.days().latest(name)?.map(|d| d.day),
            mail: MailStatus {
                to_send: health.to_send,
                oldest_to_send: health.oldest_to_send.map(format_utc),
                undeliverable: health.undeliverable,
                unread: health.unread,
                failed: health.failed,
                notices_held: health.notices_held,
                sign_in,
            },
            rulings: self.store.rulings().on_day(name, pending.day)?,
            choosing,
            owing_starting_info,
            campaign: campaign.name.clone(),
            game: campaign.game.clone(),
            day_pending: pending.day,
            deadline: format_utc(pending.deadline),
            paused: control.paused,
            held_lifts_itself: control.hold_lifts_itself && control.hold_reason.is_some(),
            held: control.hold_reason,
            combat_round,
            setup,
            unknown_awaited: unknown,
            over,
            players,
        })
    }

    /// How the daemon reads `campaign`'s mail: from a Maildir folder, or
    /// from an IMAP mailbox as the daemon last said (waiting in IDLE,
    /// polling, reconnecting), or not at all (mail comes by `ingest`, the
    /// OAuth sign-in is `signed_out`, or no round `ran` yet).
    ///
    /// # Errors
    /// The store fails.
    fn mailbox_status(
        &self,
        campaign: &Campaign,
        signed_out: bool,
        ran: bool,
    ) -> anyhow::Result<MailboxStatus> {
        let mail = campaign.mail.as_ref();
        if let Some(imap) = mail.and_then(|m| m.imap.as_ref()) {
            let key = mailbox_key(&imap.user, &imap.host, imap.port, &imap.folder_or_inbox());
            let unwatched = |mode: &str| MailboxStatus {
                mode: mode.to_string(),
                since: None,
                detail: None,
            };
            return Ok(match self.store.news().mailbox_mode(&key)? {
                _ if signed_out => unwatched("signed-out"),
                Some(watch) => MailboxStatus {
                    mode: watch.mode,
                    since: Some(format_utc(watch.since)),
                    detail: watch.detail,
                },
                // `daemon --once` watches nothing and reads it in its round.
                None if ran => unwatched("polling"),
                None => unwatched("unknown"),
            });
        }
        let mode = if mail.is_some_and(|m| m.maildir_in.is_some()) {
            "maildir"
        } else {
            "ingest"
        };
        Ok(MailboxStatus {
            mode: mode.to_string(),
            since: None,
            detail: None,
        })
    }

    /// The reports the pending turn would produce now, without storing or
    /// sending anything.
    ///
    /// # Errors
    /// No such campaign, the turn cannot be resolved, or the store fails.
    pub fn preview(&mut self, name: &str) -> anyhow::Result<String> {
        let stored = self.campaign(name)?;
        let turn = self.turns().resolve_pending(&stored)?;
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

    /// Run the turn the GM means ([`DayToProcess`]) now, as
    /// [`Turns::process_turn`](crate::daemon::turns::Turns::process_turn)
    /// does; refused, with the command that runs the day pending instead,
    /// when another day is pending by now. The
    /// check and the run are one unit of work, so nothing can slip between
    /// them.
    ///
    /// # Errors
    /// Another day is pending, or a day that nobody has sent orders for
    /// was not named just after its previous day ran; the store fails.
    pub fn process_day(
        &mut self,
        name: &str,
        meant: DayToProcess,
        now: i64,
    ) -> anyhow::Result<TurnOutcome> {
        self.atomically(|daemon| {
            let campaign = daemon.campaign(name)?.campaign;
            let pending = daemon.pending(&campaign)?.day;
            let run_it = |day: u32| {
                format!(
                    "realmgm gm --campaign {} process --day {day}",
                    campaign.name
                )
            };
            let (DayToProcess::Named(day) | DayToProcess::Seen(day)) = meant;
            if day < pending {
                let when = match meant {
                    DayToProcess::Seen(_) => "meanwhile",
                    DayToProcess::Named(_) => "already",
                };
                anyhow::bail!(
                    "day {day} was processed {when}; day {pending} is pending now: run `{}` to \
                     process it",
                    run_it(pending)
                );
            }
            if day > pending {
                anyhow::bail!(
                    "day {day} is not pending: day {pending} is; run `{}` to process it",
                    run_it(pending)
                );
            }
            if let DayToProcess::Seen(day) = meant
                && let Some(latest) = daemon.store.days().latest(name)?
                && latest.day > 0
                && (0..JUST_RUN_SECONDS).contains(&(now - latest.created))
                && daemon
                    .store
                    .orders()
                    .accepted_order_times(name, day)?
                    .is_empty()
            {
                anyhow::bail!(
                    "day {} was processed {} seconds ago and nobody has sent orders for day \
                     {day} yet; nothing was processed. To run day {day} now anyway, run `{}`",
                    latest.day,
                    now - latest.created,
                    run_it(day)
                );
            }
            daemon.turns().process_turn(name, now)
        })
    }

    /// Go back to the end of `day`; the next turn is `day + 1` again and
    /// re-running it with the same orders must give the same results.
    ///
    /// # Errors
    /// No such day, or the store fails.
    pub fn rollback(&mut self, name: &str, day: u32, now: i64) -> anyhow::Result<String> {
        self.roll_back(name, day, false, now)
    }

    /// [`Gm::rollback`] across a change of the rules: the days after `day`
    /// played under older rules are played again under the rules this
    /// realmgm plays, and so come out differently; the campaign plays
    /// under them from `day + 1` on.
    ///
    /// # Errors
    /// No such day, or the store fails.
    pub fn rollback_to_new_rules(
        &mut self,
        name: &str,
        day: u32,
        now: i64,
    ) -> anyhow::Result<String> {
        self.roll_back(name, day, true, now)
    }

    fn roll_back(
        &mut self,
        name: &str,
        day: u32,
        new_rules: bool,
        now: i64,
    ) -> anyhow::Result<String> {
        let latest =
            self.store.days().latest_number(name)?.ok_or_else(|| {
                anyhow::anyhow!("campaign {name} has no stored days to roll back")
            })?;
        if self.store.days().load(name, day)?.is_none() || day > latest {
            anyhow::bail!("campaign {name} has no stored day {day}; the latest is day {latest}");
        }
        if day == latest && day > 0 {
            anyhow::bail!(
                "day {day} is the latest day played, so there is nothing to roll back; to play \
                 day {day} again, roll back to the end of the day before: `realmgm gm rollback \
                 --campaign {name} --day {before}{db}`",
                before = day - 1,
                db = self.store.db_option()
            );
        }
        let stored = self.store.campaigns().load(name)?;
        let game = self
            .store
            .games()
            .find(&stored.campaign.game)
            .ok_or_else(|| anyhow::anyhow!("campaign {name} plays an unknown game"))?;
        let current = game.rules_versions().current;
        let older: Vec<(u32, u32)> = self
            .store
            .days()
            .rules_versions_after(name, day)?
            .into_iter()
            .filter(|&(_, version)| version != current.number)
            .collect();
        if !older.is_empty() && !new_rules {
            anyhow::bail!(
                "{}\nNothing was rolled back. To roll back anyway and play those days again \
                 under version {}: `realmgm gm rollback --campaign {name} --day {day} \
                 --new-rules{db}`, or by mail `gm rollback {day} new-rules`",
                older_rules_days(game, &older),
                current.number,
                db = self.store.db_option()
            );
        }
        self.store.days_mut().rollback_to(name, day)?;
        self.store.control_mut().set_hold(name, None)?;
        let mut note = format!(
            "rolled back from day {latest} to day {day}; day {} is pending again (its orders are \
             kept)",
            day + 1
        );
        if stored.campaign.rules_version != current.number && new_rules {
            let moved = crate::campaign::Campaign {
                rules_version: current.number,
                ..stored.campaign.clone()
            };
            self.store
                .campaigns_mut()
                .update(&moved, &stored.file_text)?;
            note.push_str(&format!(
                "; the campaign plays under rules version {} ({}) from day {} on",
                current.number,
                current.name,
                day + 1
            ));
        }
        self.store
            .control_mut()
            .log_gm(Some(name), now, "gm", &note, None)?;
        Ok(note)
    }

    /// Stop the campaign's deadlines.
    ///
    /// # Errors
    /// No such campaign.
    pub fn pause(&mut self, name: &str, now: i64) -> anyhow::Result<String> {
        self.store.control_mut().set_paused(name, true)?;
        self.store
            .control_mut()
            .log_gm(Some(name), now, "gm", "paused", None)?;
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
        let pending = self.pending(&stored.campaign)?;
        let day = pending.day;
        self.store.control_mut().set_paused(name, false)?;
        self.store.control_mut().set_hold(name, None)?;
        self.store.control_mut().set_approved_day(name, Some(day))?;
        self.store
            .control_mut()
            .log_gm(Some(name), now, "gm", "resumed", None)?;
        // A pause often outlasts the deadline: then the day runs at once.
        let when = if pending.deadline <= now {
            "its deadline has passed, so it runs in the daemon's next round".to_string()
        } else {
            format!("it runs at its deadline, {}", format_utc(pending.deadline))
        };
        Ok(format!(
            "{name} resumed; day {day}: {when}, even if a hold check would stop it"
        ))
    }

    /// Tell every player `text` at once, and open the pending day's
    /// reports (and the GM's history) with it.
    ///
    /// # Errors
    /// No such campaign, or an empty announcement.
    pub fn announce(&mut self, name: &str, text: &str, now: i64) -> anyhow::Result<String> {
        let stored = self.campaign(name)?;
        let text = text.trim();
        if text.is_empty() {
            anyhow::bail!(
                "the announcement is empty: write it after the command (by mail, in the body \
                 below the `gm announce` line)"
            );
        }
        let day = self.pending(&stored.campaign)?.day;
        self.store
            .announcements_mut()
            .record(name, day, text, now)?;
        let body = format!(
            "{} announcement ===\n\n{text}\n\nThe report of day {day} opens with it too.\n",
            marker(name)
        );
        for player in &stored.players {
            self.outbox().queue(
                &stored.campaign,
                player.email.as_str(),
                "announcement",
                &body,
                None,
                now,
            )?;
        }
        self.news().announced(&stored.campaign, day, text, now)?;
        self.store.control_mut().log_gm(
            Some(name),
            now,
            "gm",
            &format!("announced: {text}"),
            None,
        )?;
        Ok(format!(
            "announced to {} players; the report of day {day} opens with it",
            stored.players.len()
        ))
    }

    /// Write the GM's narrative of `day` (the latest processed day when
    /// `None`; the pending day is allowed, its history then shows it): his
    /// history shows it, and the public pages will; players' reports do
    /// not. Writing it again replaces it.
    ///
    /// # Errors
    /// No such campaign, an empty text or a day not yet reached.
    pub fn narrate(
        &mut self,
        name: &str,
        day: Option<u32>,
        text: &str,
        now: i64,
    ) -> anyhow::Result<String> {
        let stored = self.campaign(name)?;
        let text = text.trim();
        if text.is_empty() {
            anyhow::bail!(
                "the narrative is empty: write it after the command (by mail, in the body below \
                 the `gm narrate` line)"
            );
        }
        let pending = self.pending(&stored.campaign)?.day;
        let latest = self.store.days().latest(name)?.map_or(0, |d| d.day);
        let day = day.unwrap_or(latest.max(1));
        if day == 0 || day > pending {
            anyhow::bail!("day {day} is not reached yet: narrate a day from 1 to {pending}");
        }
        self.store
            .announcements_mut()
            .set_narrative(name, day, text, now)?;
        let note = format!("narrative of day {day} kept");
        self.store
            .control_mut()
            .log_gm(Some(name), now, "gm", &note, None)?;
        Ok(format!(
            "{note}; the GM history of day {day} shows it (`realmgm report --campaign {name} --day \
             {day} --gm{db}`)",
            db = self.store.db_option()
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
            .control_mut()
            .extend_deadline(name, day, i64::from(hours) * 3600)?;
        self.store.control_mut().set_hold(name, None)?;
        let deadline = self.pending(&stored.campaign)?.deadline;
        let note = format!(
            "deadline of day {day} extended by {hours} hours to {}",
            format_utc(deadline)
        );
        self.store
            .control_mut()
            .log_gm(Some(name), now, "gm", &note, None)?;
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
            .days()
            .report(name, Some(&record.name), day)?
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "{} has no stored report{}",
                    record.name,
                    day.map(|d| format!(" of day {d}")).unwrap_or_default()
                )
            })?;
        // The stored report names the deadline of its own day, which the GM
        // may have moved since: say the one that holds now.
        let pending = self.pending(&stored.campaign)?;
        let body = format!(
            "{} day {} report (sent again) ===\n\n{}\n\nNow: day {}'s orders are due by {}.\n",
            marker(name),
            report.day,
            report.text.trim_end(),
            pending.day,
            format_utc(pending.deadline)
        );
        let parts = ReportParts {
            day: report.day,
            reader: Some(record.name.clone()),
        };
        self.outbox().queue_parts(
            &stored.campaign,
            &record.email,
            &report.subject,
            &body,
            Some(parts),
            None,
            now,
        )?;
        Ok(format!(
            "report of day {} queued again for {}",
            report.day, record.name
        ))
    }

    /// Enter or replace `player`'s orders for the pending turn as the GM
    /// (after the deadline too); the player is sent the confirmation. During
    /// a setup by mail the text answers the setup for him.
    /// Returns the confirmation text.
    ///
    /// # Errors
    /// No such campaign or player, or the store fails.
    pub fn enter_orders(
        &mut self,
        name: &str,
        player: &str,
        text: &str,
        first_line: usize,
        source_mail: Option<i64>,
        now: i64,
    ) -> anyhow::Result<String> {
        let stored = self.campaign(name)?;
        let seat = seat(&stored, player)?;
        if self.turns().setting_up_by_mail(&stored)? {
            // Before day 1 the GM answers the setup for him instead.
            let (note, answer) =
                self.turns()
                    .setup_submit(&stored, &seat, text, None, source_mail, now)?;
            self.store.control_mut().log_gm(
                Some(name),
                now,
                "gm",
                &format!("entered by the GM: {note}"),
                source_mail,
            )?;
            return Ok(answer);
        }
        let Submitted {
            note,
            text: confirmation,
            ..
        } = self.orders().submit_orders(
            &stored,
            &Submission {
                player: &seat.name,
                text,
                first_line,
                notes: &[],
                source_mail,
                by_gm: true,
            },
            now,
        )?;
        self.store.control_mut().log_gm(
            Some(name),
            now,
            "gm",
            &format!("entered by the GM: {note}"),
            source_mail,
        )?;
        let body = format!(
            "The GM entered these orders for you.\n\n{}\n",
            confirmation.trim_end()
        );
        self.outbox().queue(
            &stored.campaign,
            &seat.email,
            "orders entered by the GM",
            &body,
            None,
            now,
        )?;
        Ok(confirmation)
    }

    /// `gm process` by mail runs the day pending when the GM wrote (the
    /// mail's `Date:`): a mail read after the daemon ran that day is not
    /// taken for an order to run the next one, with no orders from anyone.
    fn process_by_mail(&mut self, name: &str, letter: &Letter, now: i64) -> anyhow::Result<String> {
        if let Some(written) = letter.mail.date_unix
            && let Some(latest) = self.store.days().latest(name)?
            && latest.day > 0
            && latest.created > written
        {
            return Ok(format!(
                "not processed: day {} was processed after you wrote (your mail is dated {}); day \
                 {} is pending now: send `gm process` again to process it",
                latest.day,
                format_utc(written),
                latest.day + 1
            ));
        }
        Ok(match self.turns().process_turn(name, now)? {
            TurnOutcome::Processed { day, .. } => format!("day {day} processed"),
            TurnOutcome::Held(reason) => format!("not processed: {reason}"),
            TurnOutcome::WaitingForCombat { day, players } => format!(
                "day {day} stopped at a combat round; asked {}",
                players.join(", ")
            ),
        })
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
            GmCommand::Process => self.process_by_mail(&name, letter, now),
            GmCommand::Preview => self.preview(&name),
            GmCommand::Pause => self.pause(&name, now),
            GmCommand::Resume => self.resume(&name, now),
            GmCommand::Extend(hours) => self.extend(&name, *hours, now),
            GmCommand::Resend { player, day } => self.resend(&name, player, *day, now),
            GmCommand::Rollback {
                day,
                new_rules: false,
            } => self.rollback(&name, *day, now),
            GmCommand::Rollback {
                day,
                new_rules: true,
            } => self.rollback_to_new_rules(&name, *day, now),
            GmCommand::Orders { player } => {
                let (text, skipped) = commands::after_command(&letter.mail.subject, &letter.text);
                self.enter_orders(
                    &name,
                    player,
                    &text,
                    letter.first_line + skipped,
                    letter.inbound_id,
                    now,
                )
            }
            GmCommand::Announce => {
                let (text, _) = commands::after_command(&letter.mail.subject, &letter.text);
                self.announce(&name, &text, now)
            }
            GmCommand::Narrate(day) => {
                let (text, _) = commands::after_command(&letter.mail.subject, &letter.text);
                self.narrate(&name, *day, &text, now)
            }
            GmCommand::AddPlayer {
                name: player,
                email,
                character,
            } => self
                .seats()
                .add_player(&name, player, email, character.as_deref(), now)
                .map(|made| {
                    format!(
                        "{} <{}> joined; the secret was mailed to that address",
                        made.player, made.email
                    )
                }),
            GmCommand::ReplacePlayer {
                player,
                email,
                character,
            } => self
                .seats()
                .replace_player(&name, player, email, character.as_deref(), now)
                .map(|made| {
                    let playing = character
                        .as_ref()
                        .map(|c| format!(", who plays the {c} from the next day"))
                        .unwrap_or_default();
                    format!(
                        "the seat of {} now belongs to {}{playing}; the new secret was mailed \
                         there (the old secret no longer works)",
                        made.player, made.email
                    )
                }),
            GmCommand::RemovePlayer {
                player,
                character_stays,
            } => self
                .seats()
                .remove_player(&name, player, *character_stays, now),
            GmCommand::Rule => {
                let (text, _) = commands::after_command(&letter.mail.subject, &letter.text);
                self.rule_by_mail(&name, &text, now)
            }
            GmCommand::WithdrawRuling(id) => self.withdraw_ruling(&name, *id, now),
            GmCommand::Unknown(text) => Err(anyhow::anyhow!(
                "'{text}' is not a GM command; use a subject such as `[{name}] gm status` (also \
                 gm process, gm preview, gm pause, gm resume, gm extend HOURS, gm resend PLAYER \
                 [DAY], gm rollback DAY [new-rules], gm orders PLAYER with the orders in the body, gm \
                 announce with the news in the body, gm narrate [DAY] with the narrative in the \
                 body, gm add-player NAME ADDRESS [CHARACTER], gm \
                 replace PLAYER ADDRESS [CHARACTER], gm remove-player PLAYER [keep], gm rule with \
                 one ruling a line in the body, gm withdraw-ruling ID)"
            )),
        };
        let text = match result {
            Ok(text) => text,
            Err(error) => format!("Failed: {error:#}"),
        };
        let body = format!("{} GM command ===\n\n{}\n", marker(&name), text.trim_end());
        self.outbox().queue(
            &stored.campaign,
            stored.campaign.gm.email.as_str(),
            "Re: GM command",
            &body,
            letter.answering(),
            now,
        )?;
        self.store.control_mut().log_gm(
            Some(&name),
            now,
            "gm",
            &format!("by mail: {command}"),
            letter.inbound_id,
        )?;
        Ok(format!("GM command {command}"))
    }
}

/// The stored player of `stored` named `player` (any case).
pub(super) fn seat(
    stored: &StoredCampaign,
    player: &str,
) -> anyhow::Result<crate::store::PlayerRecord> {
    stored
        .players
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(player))
        .cloned()
        .ok_or_else(|| {
            let names: Vec<&str> = stored.players.iter().map(|p| p.name.as_str()).collect();
            anyhow::anyhow!(
                "campaign {} has no player named {player}; its players are {}",
                stored.campaign.name,
                names.join(", ")
            )
        })
}

/// Where a campaign's pending turn stands (`gm status`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct CampaignStatus {
    pub campaign: String,
    pub game: String,
    pub day_pending: u32,
    pub deadline: String,
    pub paused: bool,
    /// Why the turn is held, when it is.
    pub held: Option<String>,
    /// The hold lifts itself once its cause is gone (the daemon checks it
    /// every round); otherwise it waits for the GM.
    pub held_lifts_itself: bool,
    /// A combat round waiting for answers, as the GM reads it.
    pub combat_round: Option<String>,
    /// Where the setup by mail stands, before day 1.
    pub setup: Option<String>,
    /// Why the game cannot say whom it waits for, when it cannot.
    pub unknown_awaited: Option<String>,
    pub over: bool,
    /// The players the turn waits for.
    pub players: Vec<PlayerStatus>,
    /// Players who joined the running game and have not chosen a
    /// character yet (nobody waits for them).
    pub choosing: Vec<String>,
    /// Late players whose starting info (victory requirements, spells) is
    /// still to come before their characters enter.
    pub owing_starting_info: Vec<String>,
    /// The GM's rulings standing for the pending turn.
    pub rulings: Vec<crate::store::rulings::StoredRuling>,
    /// When the daemon last looked at the campaign (UTC), for monitoring.
    pub last_poll: Option<String>,
    /// The last day processed (0: set up only).
    pub latest_day: Option<u32>,
    pub mail: MailStatus,
    /// How the daemon reads the campaign's mail.
    pub mailbox: MailboxStatus,
    /// The news for the campaign's webhooks.
    pub news: crate::store::NewsHealth,
}

/// How the daemon reads a campaign's mail (`gm status --json`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct MailboxStatus {
    /// `idle` (an IMAP mailbox watched in IDLE, read as mail arrives),
    /// `polling` (read every mail.poll_seconds), `reconnecting` (the
    /// connection dropped; tried again with growing pauses), `unknown`
    /// (not read yet), `signed-out` (not read until `mail login`),
    /// `maildir` or `ingest` (mail handed over by the MTA).
    pub mode: String,
    /// Since when (UTC), as the daemon last said.
    pub since: Option<String>,
    /// Why it reconnects.
    pub detail: Option<String>,
}

/// A campaign's mail, for monitoring (`gm status --json`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct MailStatus {
    /// Mail queued and not sent yet, and when the oldest was queued (UTC).
    pub to_send: u32,
    pub oldest_to_send: Option<String>,
    /// Mail that can never be delivered.
    pub undeliverable: u32,
    /// Received mail of any campaign not read yet.
    pub unread: u32,
    /// Received mail set aside as failed (`gm mail list`).
    pub failed: u32,
    /// Notices about refused mail held back since the last one sent to
    /// each address (at most one goes per address per
    /// `mail.notice_interval_minutes`).
    pub notices_held: u32,
    /// Where the OAuth sign-in of the mailbox stands, when it has one.
    pub sign_in: Option<String>,
}

/// The OAuth sign-in's standing as `gm status` says it.
fn sign_in_status(campaign: &str, state: Option<&crate::store::GrantState>) -> String {
    let login = format!("run `realmgm mail login --campaign {campaign}`");
    match state {
        None => format!("NOT SIGNED IN: no mail goes in or out until you {login}"),
        Some(state) => match &state.revoked {
            Some((at, reason)) => format!(
                "REFUSED by the provider since {} ({reason}): no mail goes in or out through \
                 it until you {login}",
                format_utc(*at)
            ),
            None => format!(
                "signed in {}{}",
                format_utc(state.granted),
                state
                    .refreshed
                    .map(|at| format!(", access token last refreshed {}", format_utc(at)))
                    .unwrap_or_default()
            ),
        },
    }
}

/// One awaited player's orders for the pending turn.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PlayerStatus {
    pub player: String,
    /// The orders in force (the latest that could be read).
    pub accepted_version: Option<u32>,
    /// The latest he sent, read or not.
    pub latest_version: Option<u32>,
    pub bounces: u32,
    /// Away until then (`away until DATE`).
    pub away_until: Option<String>,
}

impl std::fmt::Display for CampaignStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "Campaign {} ({}): day {} pending, deadline {}",
            self.campaign, self.game, self.day_pending, self.deadline
        )?;
        if self.paused {
            writeln!(f, "PAUSED: deadlines do not run until `gm resume`")?;
        }
        let mail = &self.mail;
        if mail.to_send + mail.undeliverable + mail.failed > 0 {
            writeln!(
                f,
                "Mail: {} to send{}, {} undeliverable, {} received mail set aside as failed (`gm \
                 mail list`)",
                mail.to_send,
                mail.oldest_to_send
                    .as_ref()
                    .map(|t| format!(" (oldest queued {t})"))
                    .unwrap_or_default(),
                mail.undeliverable,
                mail.failed
            )?;
        }
        if let Some(sign_in) = &mail.sign_in {
            writeln!(f, "Mail sign-in (OAuth): {sign_in}")?;
        }
        match (self.mailbox.mode.as_str(), &self.mailbox.since) {
            ("reconnecting", since) => writeln!(
                f,
                "Mailbox: reconnecting{}{}",
                since
                    .as_ref()
                    .map(|t| format!(" since {t}"))
                    .unwrap_or_default(),
                self.mailbox
                    .detail
                    .as_ref()
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default()
            )?,
            ("idle", _) => writeln!(f, "Mailbox: IMAP IDLE (mail is read as it arrives)")?,
            ("polling", _) => writeln!(f, "Mailbox: IMAP, polled every round")?,
            ("unknown", _) => writeln!(f, "Mailbox: IMAP, not read yet")?,
            ("signed-out", _) => writeln!(
                f,
                "Mailbox: IMAP, not read until you run `realmgm mail login --campaign {}`",
                self.campaign
            )?,
            _ => {}
        }
        let news = &self.news;
        if news.failing + news.undeliverable > 0 {
            writeln!(
                f,
                "News: {} to send, {} failing and retried, {} given up{} (the GM's log has each)",
                news.to_send,
                news.failing,
                news.undeliverable,
                news.last_error
                    .as_ref()
                    .map(|e| format!("; last error: {e}"))
                    .unwrap_or_default()
            )?;
        }
        if mail.notices_held > 0 {
            writeln!(
                f,
                "Notices held back since the last one sent: {} about refused mail (at most one \
                 per address per mail.notice_interval_minutes; the GM's log lists them)",
                mail.notices_held
            )?;
        }
        match &self.held {
            Some(reason) if self.held_lifts_itself => writeln!(
                f,
                "HELD until this is no longer so (the daemon checks every round): {reason}"
            )?,
            Some(reason) => writeln!(f, "HELD: {reason}")?,
            None => {}
        }
        if let Some(round) = &self.combat_round {
            write!(f, "{round}")?;
        }
        if let Some(setup) = &self.setup {
            writeln!(f, "{setup}")?;
        } else if let Some(why) = &self.unknown_awaited {
            writeln!(f, "The game cannot say whom it waits for: {why}")?;
        }
        if self.players.is_empty() {
            writeln!(
                f,
                "{}",
                if self.over {
                    "No turn waits for orders (the game is over)."
                } else {
                    "No turn waits for orders: standing orders decide the next turn."
                }
            )?;
        }
        for p in &self.players {
            let state = match (p.latest_version, p.accepted_version) {
                (None, _) => "no orders".to_string(),
                (Some(last), Some(ok)) if last == ok => format!("orders in (version {ok})"),
                (Some(last), Some(ok)) => {
                    format!("orders in (version {ok}); version {last} could not be read")
                }
                (Some(last), None) => format!("only unreadable orders (version {last})"),
            };
            let bounced = if p.bounces > 0 {
                format!(
                    "; mail to this player bounced {}",
                    crate::words::counted(p.bounces, "time", "times")
                )
            } else {
                String::new()
            };
            let away = p
                .away_until
                .as_ref()
                .map(|until| format!("; away until {until}"))
                .unwrap_or_default();
            writeln!(f, "  {}: {state}{bounced}{away}", p.player)?;
        }
        for player in &self.choosing {
            writeln!(
                f,
                "  {player}: has not chosen a character yet (a mail with a `Character:` line does)"
            )?;
        }
        for player in &self.owing_starting_info {
            writeln!(
                f,
                "  {player}: has not sent the starting info yet (a mail with a `Victory:` line \
                 does; without it the character enters with no requirements and spells chosen \
                 by the dice)"
            )?;
        }
        for ruling in &self.rulings {
            let why = if ruling.why.is_empty() {
                String::new()
            } else {
                format!(" ({})", ruling.why)
            };
            writeln!(f, "Ruling {}: {}{why}", ruling.id, ruling.text)?;
        }
        Ok(())
    }
}

impl GmControl<'_> {
    /// A campaign whose stored record cannot be read is skipped, not
    /// served: the reason goes to the GM's log, and to its GM by a mail
    /// outside any campaign (sent through another campaign's transport)
    /// when the record still names his address.
    ///
    /// # Errors
    /// The store fails.
    pub fn report_unreadable_campaign(
        &mut self,
        name: &str,
        error: &anyhow::Error,
        now: i64,
    ) -> anyhow::Result<()> {
        let message = format!(
            "campaign {name} cannot be read and is not served: {error:#}. The other campaigns \
             go on. Its mail is kept; fix the record (or restore a backup) and restart the daemon."
        );
        self.store
            .control_mut()
            .log_gm(Some(name), now, "error", &message, None)?;
        if let Some(gm) = self.store.campaigns().gm_address(name)? {
            let mut headers = std::collections::BTreeMap::new();
            headers.insert("auto-submitted".to_string(), "auto-generated".to_string());
            self.store.outbox_mut().enqueue(
                &crate::store::OutgoingMail {
                    campaign: None,
                    recipient: gm,
                    subject: format!("[{name}] campaign cannot be read"),
                    body: format!(
                        "{} GM notice ===\n\n{message}\n",
                        crate::daemon::orders::confirm::marker(name)
                    ),
                    headers,
                    ..Default::default()
                },
                now,
            )?;
        }
        Ok(())
    }
}

impl GmControl<'_> {
    /// The mail of campaign `name` set aside as failed, one line each: id,
    /// when it came, and why it failed (`realmgm gm mail list`).
    ///
    /// # Errors
    /// No such campaign, or the store fails.
    pub fn failed_mail_list(&self, name: &str) -> anyhow::Result<String> {
        let failed = self.store.inbox().failed(name)?;
        if failed.is_empty() {
            return Ok(format!("no mail of {name} is set aside as failed"));
        }
        let mut out = format!(
            "{} set aside as failed; `gm mail retry --id N` reads one again once the cause is \
             fixed:\n",
            crate::words::counted(failed.len(), "mail", "mails")
        );
        for mail in failed {
            out.push_str(&format!(
                "  mail {} ({}): {}\n",
                mail.id,
                crate::campaign::format_utc(mail.received),
                mail.note.as_deref().unwrap_or("no reason recorded")
            ));
        }
        Ok(out)
    }

    /// Read failed mail `id` again, as if it had just come, and say what
    /// became of it (`realmgm gm mail retry`).
    ///
    /// # Errors
    /// No such mail, a mail that did not fail, or the store fails.
    pub fn retry_failed_mail(&mut self, name: &str, id: i64, now: i64) -> anyhow::Result<String> {
        let Some(mail) = self.store.inbox().get(id)? else {
            anyhow::bail!("there is no mail {id}; `gm mail list` shows the failed ones");
        };
        if mail.status != InboundStatus::Failed {
            anyhow::bail!(
                "mail {id} did not fail (it is {}); only failed mail is read again",
                mail.status.as_str()
            );
        }
        let note = format!(
            "mail {id} read again by the GM after: {}",
            mail.note.unwrap_or_default()
        );
        self.store
            .control_mut()
            .log_gm(Some(name), now, "retry", &note, Some(id))?;
        self.store
            .inbox_mut()
            .set_status(id, InboundStatus::New, None)?;
        let handled = self.mail_in().handle_stored(now)?;
        let outcome = handled
            .into_iter()
            .find(|(handled, _)| *handled == id)
            .map_or_else(|| "not handled".to_string(), |(_, note)| note);
        Ok(format!("mail {id}: {outcome}"))
    }
}

/// The days `older` (day, rules version) played under rules `game` no
/// longer plays, as the GM reads them: which days, under which version,
/// and what re-running them under the current one changes.
fn older_rules_days(game: &dyn crate::game::Game, older: &[(u32, u32)]) -> String {
    let versions = game.rules_versions();
    let current = versions.current;
    let mut by_version: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for &(day, version) in older {
        by_version.entry(version).or_default().push(day);
    }
    let mut out = String::new();
    for (version, days) in &by_version {
        let name = versions
            .find(*version)
            .map_or_else(String::new, |v| format!(" ({})", v.name));
        let (which, were, they) = match days.as_slice() {
            [day] => (format!("Day {day}"), "was", "it"),
            _ => {
                let days: Vec<String> = days.iter().map(u32::to_string).collect();
                (format!("Days {}", days.join(", ")), "were", "they")
            }
        };
        out.push_str(&format!(
            "{which} {were} played under rules version {version}{name}, which this realmgm no \
             longer plays: re-run under version {} ({}) {they} will not come out the same.\n",
            current.number, current.name
        ));
    }
    let oldest = older
        .iter()
        .map(|&(_, v)| v)
        .min()
        .unwrap_or(current.number);
    out.push_str("What changes:");
    for change in versions.changes_after(oldest) {
        out.push_str("\n  - ");
        out.push_str(change);
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::daemon::testing::{NOW, demo};
    use crate::daemon::turns::process::TurnOutcome;

    /// A campaign stored before rules versions were recorded played the
    /// first: the daemon holds it at once, says how to move it on, and
    /// runs it again once the GM has; a rollback past days played under the
    /// older rules names them and rolls back only when told to.
    #[test]
    fn older_rules_hold_a_campaign_until_its_gm_moves_it_on() {
        let mut daemon = demo();
        let outcome = daemon.turns().process_turn("DEMO", NOW + 10).unwrap();
        assert!(
            matches!(outcome, TurnOutcome::Processed { day: 1, .. }),
            "{outcome:?}"
        );
        daemon.store.execute_batch(
            "UPDATE day_runs SET rules_version = 1; \
             UPDATE campaigns SET parsed_json = json_remove(parsed_json, '$.rules_version');",
        );
        let stored = daemon.store.campaigns().load("DEMO").unwrap();
        assert_eq!(stored.campaign.rules_version, 1);
        // A hold the GM placed stays his: the rules hold does not replace it.
        daemon
            .store
            .control_mut()
            .set_hold("DEMO", Some("the GM checks the orders"))
            .unwrap();
        daemon.turns().check_turn("DEMO", NOW + 15).unwrap();
        let control = daemon.store.control().get("DEMO").unwrap();
        assert_eq!(
            control.hold_reason.as_deref(),
            Some("the GM checks the orders")
        );
        assert!(!control.hold_lifts_itself);
        daemon.store.control_mut().set_hold("DEMO", None).unwrap();
        let said = daemon.turns().check_turn("DEMO", NOW + 20).unwrap();
        let current = crate::current_rules();
        assert!(
            said.contains("held: the campaign plays under rules version 1 (the seed summaries")
                && said.contains(&format!(
                    "write `rules_version = {current}` in the campaign file"
                )),
            "{said}"
        );
        assert!(
            daemon
                .store
                .control()
                .get("DEMO")
                .unwrap()
                .hold_lifts_itself
        );
        // Forcing the turn does not play it under rules it no longer has.
        let forced = daemon.turns().process_turn("DEMO", NOW + 30).unwrap();
        assert!(matches!(forced, TurnOutcome::Held(_)), "{forced:?}");
        // The GM moves the campaign on: the hold lifts itself.
        let moved = crate::campaign::Campaign {
            rules_version: current,
            ..stored.campaign.clone()
        };
        daemon
            .store
            .campaigns_mut()
            .update(&moved, &stored.file_text)
            .unwrap();
        daemon.turns().check_turn("DEMO", NOW + 40).unwrap();
        assert_eq!(
            daemon.store.control().get("DEMO").unwrap().hold_reason,
            None
        );
        // Day 1 was played under version 1: rolling back past it asks first.
        let refused = daemon.gm().rollback("DEMO", 0, NOW + 50).unwrap_err();
        let refused = format!("{refused:#}");
        assert!(
            refused.starts_with("Day 1 was played under rules version 1 (the seed summaries")
                && refused.contains("What changes:\n  - ")
                && refused.contains("--new-rules"),
            "{refused}"
        );
        assert!(
            refused.contains("or by mail `gm rollback 0 new-rules`"),
            "{refused}"
        );
        assert_eq!(daemon.store.days().latest_number("DEMO").unwrap(), Some(1));
        let note = daemon
            .gm()
            .rollback_to_new_rules("DEMO", 0, NOW + 60)
            .unwrap();
        assert!(
            note.starts_with("rolled back from day 1 to day 0"),
            "{note}"
        );
        assert_eq!(daemon.store.days().latest_number("DEMO").unwrap(), Some(0));
    }

    /// A campaign stored under older rules that has played no day yet is not
    /// held: it moves to the rules this realmgm plays, and the log says so.
    #[test]
    fn an_unplayed_campaign_under_older_rules_moves_on_by_itself() {
        let mut daemon = demo();
        daemon.store.execute_batch(
            "UPDATE campaigns SET parsed_json = json_remove(parsed_json, '$.rules_version');",
        );
        assert_eq!(daemon.campaign("DEMO").unwrap().campaign.rules_version, 1);
        let said = daemon.turns().check_turn("DEMO", NOW + 10).unwrap();
        assert!(!said.starts_with("held"), "{said}");
        let current = crate::current_rules();
        assert_eq!(
            daemon.campaign("DEMO").unwrap().campaign.rules_version,
            current
        );
        let log = daemon.store.control().gm_log(Some("DEMO")).unwrap();
        let moved = format!("moves to rules version {current}");
        assert!(
            log.iter().any(|entry| entry.message.contains(&moved)),
            "{log:?}"
        );
    }

    #[test]
    fn a_paused_campaign_says_so_until_resumed() {
        let mut daemon = demo();
        daemon.gm().pause("DEMO", NOW).unwrap();
        assert!(daemon.gm().status_facts("DEMO").unwrap().paused);
        daemon.gm().resume("DEMO", NOW + 1).unwrap();
        assert!(!daemon.gm().status_facts("DEMO").unwrap().paused);
    }
}
