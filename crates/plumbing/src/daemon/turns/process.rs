//! Running a turn: the orders of every awaited player (the NMR policy fills
//! the gaps: the game's `missing_orders`, or the player's last accepted
//! orders repeated), the game's resolution on the day's own dice, the new
//! snapshot, events and reports stored, and the reports queued.
//!
//! Every run of a day records the hashes of its orders, state and reports.
//! A re-run of a day (after `gm rollback`) with the same orders must give
//! the same hashes; if it does not, nothing is stored or sent and the GM is
//! told. A game that cannot resolve the turn (Magic Realm's day is not built
//! yet) holds the turn with its reason; the orders stay stored.
//!
//! [`Turns::check_turn`] is the per-tick step: it gathers the facts for
//! [`super::schedule::decide`] and carries out the decision.

use super::setup::SetupOutcome;
use std::collections::BTreeMap;

use anyhow::Context;
use sha2::{Digest, Sha256};

use crate::campaign::{Campaign, NmrPolicy, format_utc};
use crate::dice::Dice;
use crate::game::{
    AcceptedOrders, Event, Game, GameState, GameValue, Reader, Report, Start, Turn, hex,
};
use crate::store::{DayRun, MailAttachment, ReportParts, StoreError, StoredCampaign, StoredReport};

use super::Turns;
use super::report_context::{gm_words, report_context};
use super::schedule::{Decision, TurnFacts, decide};
use crate::daemon::orders::confirm::marker;
use crate::report::GmWords;

/// A resolved turn, not yet stored.
#[derive(Clone, Debug)]
pub struct TurnRun {
    pub day: u32,
    pub state: GameState,
    pub events: Vec<Event>,
    pub finished: bool,
    /// Each player's report, then the GM's (reader `None`).
    pub reports: Vec<(Option<String>, Report)>,
    /// Awaited players whose orders the NMR policy supplied.
    pub no_orders: Vec<String>,
    pub run: DayRun,
}

/// What an attempt to run the pending turn did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnOutcome {
    Processed {
        day: u32,
        finished: bool,
        no_orders: Vec<String>,
    },
    /// Not run; the GM was told why.
    Held(String),
    /// Stopped at a combat round these players were asked to answer
    /// (round-by-round combat, [`super::rounds`]).
    WaitingForCombat { day: u32, players: Vec<String> },
}

/// The pending turn resolved, or stopped at a decision point.
#[derive(Clone, Debug)]
pub enum Resolved {
    Run(Box<TurnRun>),
    Paused(crate::game::TurnPause),
}

impl Turns<'_> {
    /// Resolve the pending turn without storing anything, with the combat
    /// round answers given so far and defaults for the rest.
    ///
    /// # Errors
    /// The game is not set up or cannot resolve the turn, or the store fails.
    pub fn resolve_pending(&mut self, stored: &StoredCampaign) -> anyhow::Result<TurnRun> {
        match self.resolve_pending_at(stored, None)? {
            Resolved::Run(turn) => Ok(*turn),
            Resolved::Paused(_) => anyhow::bail!(
                "the turn stopped at a combat round after its round deadline; report this as a bug"
            ),
        }
    }

    /// Resolve the pending turn at `now`: before the round deadline of a
    /// combat round (or with none asked yet) the game may stop at a
    /// decision point; without `now`, defaults decide every open one.
    ///
    /// # Errors
    /// The game is not set up or cannot resolve the turn, or the store fails.
    pub fn resolve_pending_at(
        &mut self,
        stored: &StoredCampaign,
        now: Option<i64>,
    ) -> anyhow::Result<Resolved> {
        let campaign = &stored.campaign;
        let game = self.game(campaign)?;
        if let Some(reason) = rules_behind(game, campaign, &self.store.db_option()) {
            anyhow::bail!(reason);
        }
        let mut pending = self.pending(campaign)?;
        let loaded = pending.state.take().with_context(|| {
            format!("the game of {} is not set up yet (no day 0)", campaign.name)
        })?;
        // The state is handed over to the game: with the store's copy
        // forgotten and each step's input dropped, the game holds its only
        // handle and resolves it in place instead of copying it.
        self.store.days().forget(&campaign.name, pending.day - 1)?;
        // Players seated since the game began enter with this turn.
        let admitted = game
            .admit(&loaded, &campaign.rules, &stored.seats())
            .context("a seat cannot join the game")?;
        drop(loaded);
        // The GM's rulings for this turn, carried out as it begins.
        let rulings = self
            .store
            .rulings()
            .given_on_day(&campaign.name, pending.day)?;
        let state = game
            .rule(&admitted, &campaign.rules, &rulings)
            .context("a ruling of the GM cannot be carried out")?;
        drop(admitted);
        let awaited = game
            .awaiting(&state)
            .context("the game cannot say whose orders the turn needs")?;
        let mut orders = BTreeMap::new();
        let mut no_orders = Vec::new();
        for player in &awaited {
            let accepted =
                match self
                    .orders()
                    .accepted_orders(&campaign.name, pending.day, player)?
                {
                    Some(accepted) => accepted,
                    None => {
                        no_orders.push(player.clone());
                        self.standing_orders(stored, &state, pending.day, player)?
                    }
                };
            orders.insert(player.clone(), accepted);
        }
        // Players the turn does not wait for may have sent new standing
        // orders (a game of turns); the game decides what they change.
        for seat in &stored.players {
            if !orders.contains_key(&seat.name)
                && let Some(accepted) =
                    self.orders()
                        .accepted_orders(&campaign.name, pending.day, &seat.name)?
            {
                orders.insert(seat.name.clone(), accepted);
            }
        }
        let round = self.store.rounds().get(&campaign.name, pending.day)?;
        let answers = round
            .as_ref()
            .map_or_else(GameValue::default, |r| r.answers.clone());
        let deadline_passed = match (now, &round) {
            (None, _) => true,
            (Some(now), Some(round)) => now >= round.deadline,
            (Some(_), None) => false,
        };
        // Round answers and rulings are part of what the day is resolved
        // from (hashed only when present, so older days keep their hashes).
        let orders_hash = match (answers.json().is_null(), rulings.is_empty()) {
            (true, true) => hex(&Sha256::digest(serde_json::to_vec(&orders)?)),
            (false, true) => hex(&Sha256::digest(serde_json::to_vec(&(&orders, &answers))?)),
            (_, false) => hex(&Sha256::digest(serde_json::to_vec(&(
                &orders, &answers, &rulings,
            ))?)),
        };
        let mut dice = Dice::new(campaign.seed, pending.day);
        let step = game
            .resolve_turn(
                state,
                &Turn {
                    answers: Some(&answers),
                    deadline_passed,
                    ..Turn::new(&campaign.rules, &orders)
                },
                &mut dice,
            )
            .with_context(|| format!("{} cannot resolve day {}", campaign.game, pending.day))?;
        let result = match step {
            crate::game::TurnStep::Done(result) => result,
            crate::game::TurnStep::Paused(pause) => return Ok(Resolved::Paused(pause)),
        };
        let next_deadline = (!result.finished)
            .then(|| -> anyhow::Result<i64> {
                let next = pending.day + 1;
                Ok(campaign.schedule.deadline(next)
                    + self
                        .store
                        .control()
                        .deadline_extension(&campaign.name, next)?)
            })
            .transpose()?;
        let relayed = self
            .store
            .outbox()
            .relayed_messages(&campaign.name, pending.day)?;
        let context = report_context(
            game,
            campaign,
            pending.day,
            next_deadline,
            &orders,
            &relayed,
            gm_words(&self.store, &campaign.name, pending.day)?,
        )?;
        let mut reports = Vec::new();
        // A player whose character has not entered yet (or has left) has
        // no report of the day.
        for player in stored
            .players
            .iter()
            .filter(|p| game.plays(&result.state, &p.name))
        {
            let report = game.report(
                &result.state,
                &result.events,
                Reader::Player(&player.name),
                &context,
            )?;
            reports.push((Some(player.name.clone()), report));
        }
        reports.push((
            None,
            game.report(&result.state, &result.events, Reader::Gm, &context)?,
        ));
        let mut hasher = Sha256::new();
        for (reader, report) in &reports {
            for part in [
                reader.as_deref().unwrap_or(""),
                &report.subject,
                &report.text,
                report.html.as_deref().unwrap_or(""),
            ] {
                hasher.update(part.as_bytes());
                hasher.update(b"\0");
            }
        }
        let run = DayRun {
            orders_hash,
            state_hash: result.state.hash(),
            reports_hash: hex(&hasher.finalize()),
            rules_version: campaign.rules_version,
        };
        Ok(Resolved::Run(Box::new(TurnRun {
            day: pending.day,
            state: result.state,
            events: result.events,
            finished: result.finished,
            reports,
            no_orders,
            run,
        })))
    }

    /// The orders of a player who sent none, by the campaign's NMR policy.
    fn standing_orders(
        &mut self,
        stored: &StoredCampaign,
        state: &GameState,
        day: u32,
        player: &str,
    ) -> anyhow::Result<AcceptedOrders> {
        let campaign = &stored.campaign;
        if campaign.schedule.nmr == NmrPolicy::Repeat {
            for earlier in (1..day).rev() {
                if let Some(orders) =
                    self.orders()
                        .accepted_orders(&campaign.name, earlier, player)?
                {
                    return Ok(self.game(campaign)?.repeated_orders(orders));
                }
            }
        }
        self.game(campaign)?
            .missing_orders(state, &campaign.rules, player)
    }

    /// Run the pending turn now and store and send its results, or hold it
    /// and tell the GM why it cannot run.
    ///
    /// The day is stored all or nothing: its snapshot, events, run hashes,
    /// reports and queued report mails are one unit of work, so a daemon
    /// killed midway leaves either no trace of the day or all of it.
    ///
    /// # Errors
    /// The store fails.
    pub fn process_turn(&mut self, name: &str, now: i64) -> anyhow::Result<TurnOutcome> {
        self.atomically(|daemon| daemon.turns().store_turn(name, now))
    }

    fn store_turn(&mut self, name: &str, now: i64) -> anyhow::Result<TurnOutcome> {
        let stored = self.campaign(name)?;
        let game = self.game(&stored.campaign)?;
        if let Some(reason) = rules_behind(game, &stored.campaign, &self.store.db_option()) {
            return self.hold_as(&stored, &reason, HoldKind::Condition, now);
        }
        // A bug in the engine holds this campaign's turn, with the panic's
        // message for the GM; resolving stores nothing, so nothing is undone.
        let resolved =
            crate::daemon::guard::contained(|| self.resolve_pending_at(&stored, Some(now)));
        let turn = match resolved {
            Ok(Resolved::Run(turn)) => *turn,
            Ok(Resolved::Paused(pause)) => return self.ask_round(&stored, &pause, now),
            Err(error) => return self.hold(&stored, &format!("{error:#}"), now),
        };
        let earlier = self.store.days().runs(name, turn.day)?;
        // Runs under other rules may differ: that is what changing the
        // rules means, and the GM chose it (`campaign edit`, a rollback).
        let same_orders = || {
            earlier.iter().filter(|r| {
                r.orders_hash == turn.run.orders_hash && r.rules_version == turn.run.rules_version
            })
        };
        // The game must come out the same; the reports may not, since a
        // newer realmgm words them differently than the one that first ran
        // the day, and a rollback past an upgrade must not stop the campaign.
        if let Some(first) = same_orders().find(|r| r.state_hash != turn.run.state_hash) {
            let reason = format!(
                "re-running day {} with the same orders gave a different game (state {} \
                 before, {} now); nothing was stored or sent. The game is not deterministic: \
                 report this as a bug",
                turn.day,
                short(&first.state_hash),
                short(&turn.run.state_hash)
            );
            return self.hold(&stored, &reason, now);
        }
        if let Some(first) = same_orders().find(|r| r.reports_hash != turn.run.reports_hash) {
            let note = format!(
                "day {} ran again to the same game, but its reports read differently from the \
                 first run's (reports {} before, {} now): this realmgm words them differently \
                 from the one that first ran the day. The new reports are sent",
                turn.day,
                short(&first.reports_hash),
                short(&turn.run.reports_hash)
            );
            self.store
                .control_mut()
                .log_gm(Some(name), now, "rerun", &note, None)?;
        }
        match self.store.days_mut().save(name, turn.day, &turn.state, now) {
            Ok(_) => {}
            Err(StoreError::DayConflict { .. }) => {
                let reason = format!(
                    "day {} is already stored with another state; roll back first with `gm \
                     rollback {}`",
                    turn.day,
                    turn.day - 1
                );
                return self.hold(&stored, &reason, now);
            }
            Err(other) => return Err(other.into()),
        }
        self.store
            .days_mut()
            .append_events(name, turn.day, &turn.events)?;
        self.store
            .days_mut()
            .record_run(name, turn.day, &turn.run, now)?;
        let campaign = stored.campaign.clone();
        let next = self.pending(&campaign)?;
        for (reader, report) in &turn.reports {
            let to = match reader {
                Some(player) => stored
                    .players
                    .iter()
                    .find(|p| &p.name == player)
                    .map(|p| p.email.to_string()),
                None => Some(campaign.gm.email.to_string()),
            };
            let Some(to) = to else { continue };
            let mailed = MailedReport {
                day: turn.day,
                finished: turn.finished,
                next_deadline: next.deadline,
            };
            self.keep_and_mail_report(&campaign, reader.as_deref(), &to, report, &mailed, now)?;
        }
        self.store.control_mut().set_hold(name, None)?;
        self.store.control_mut().set_approved_day(name, None)?;
        let note = format!(
            "day {} processed (state {}){}",
            turn.day,
            short(&turn.run.state_hash),
            if turn.no_orders.is_empty() {
                String::new()
            } else {
                format!("; no orders from {}", turn.no_orders.join(", "))
            }
        );
        self.store
            .control_mut()
            .log_gm(Some(name), now, "processed", &note, None)?;
        self.escalate_missed_orders(&campaign, turn.day, &turn.no_orders, now)?;
        self.news()
            .day_processed(&campaign, turn.day, turn.finished, next.deadline, now)?;
        Ok(TurnOutcome::Processed {
            day: turn.day,
            finished: turn.finished,
            no_orders: turn.no_orders,
        })
    }

    /// The players whose announced absence lasts past `now`.
    fn players_away(&self, name: &str, now: i64) -> anyhow::Result<Vec<String>> {
        Ok(self
            .store
            .players()
            .absences(name)?
            .into_iter()
            .filter(|a| a.until > now)
            .map(|a| a.player)
            .collect())
    }

    /// End the absences that are over, telling each player what he missed.
    fn welcome_returning(&mut self, stored: &StoredCampaign, now: i64) -> anyhow::Result<()> {
        let campaign = &stored.campaign;
        for absence in self.store.players().absences(&campaign.name)? {
            if absence.until > now {
                continue;
            }
            let Some(player) = stored
                .players
                .iter()
                .find(|p| p.name.eq_ignore_ascii_case(&absence.player))
            else {
                self.store
                    .players_mut()
                    .clear_absence(&campaign.name, &absence.player)?;
                continue;
            };
            let text = self.orders().welcome_back(stored, &player.name)?;
            self.store
                .players_mut()
                .clear_absence(&campaign.name, &absence.player)?;
            self.outbox().queue(
                campaign,
                player.email.as_str(),
                "welcome back",
                &format!("{text}\n"),
                None,
                now,
            )?;
            self.store.control_mut().log_gm(
                Some(&campaign.name),
                now,
                "away",
                &format!("{} is back", player.name),
                None,
            )?;
        }
        Ok(())
    }

    /// Tell the GM of players who sent no orders for the campaign's
    /// `nmr_tell_gm_after` days in a row, and again, offering the seat, at
    /// `nmr_offer_seat_after`. Only a notice: nothing changes without the
    /// GM's word.
    fn escalate_missed_orders(
        &mut self,
        campaign: &crate::campaign::Campaign,
        day: u32,
        no_orders: &[String],
        now: i64,
    ) -> anyhow::Result<()> {
        let schedule = &campaign.schedule;
        let tell = schedule.nmr_tell_gm_after;
        let offer = schedule.nmr_offer_seat_after;
        let longest = tell.max(offer);
        if longest == 0 {
            return Ok(());
        }
        let away = self.players_away(&campaign.name, now)?;
        let seats = self.store.campaigns().load(&campaign.name)?.players;
        for player in no_orders {
            if away.iter().any(|a| a.eq_ignore_ascii_case(player)) {
                continue;
            }
            let joined = seats
                .iter()
                .find(|seat| seat.name.eq_ignore_ascii_case(player))
                .map_or(i64::MIN, |seat| seat.joined);
            // Days in a row, up to this one, he sent nothing that was read
            // (counted one past the longest, so a longer silence is told once);
            // a day played before he joined is none of his.
            let mut missed = 0;
            while missed <= longest && missed < day {
                let earlier = day - missed;
                if earlier < day
                    && self
                        .store
                        .days()
                        .load(&campaign.name, earlier)?
                        .is_some_and(|played| played.created < joined)
                {
                    break;
                }
                let sent = self
                    .store
                    .orders()
                    .accepted_order_times(&campaign.name, earlier)?;
                if sent.iter().any(|(p, _)| p.eq_ignore_ascii_case(player)) {
                    break;
                }
                missed += 1;
            }
            let first = day + 1 - missed;
            let days = if missed == 2 {
                format!("days {first} and {day}")
            } else {
                format!("days {first} to {day}")
            };
            let message = if missed == offer {
                format!(
                    "{player} has sent no orders for {missed} days in a row ({days}); the NMR \
                     policy played that seat. It is free for a replacement if you want one: \
                     `gm replace {player} ADDRESS` hands it to a new player with a new secret. \
                     Nothing changes until you say so."
                )
            } else if missed == tell {
                format!(
                    "{player} has sent no orders for {missed} days in a row ({days}); the NMR \
                     policy played that seat. You may want to write to the player."
                )
            } else {
                continue;
            };
            self.outbox().tell_gm(
                campaign,
                "nmr",
                &format!("{player} sends no orders"),
                &message,
                None,
                now,
            )?;
        }
        Ok(())
    }

    /// A campaign under older rules that has played no day yet moves to the
    /// rules this realmgm plays: no played day would change. The GM's log
    /// says so.
    fn move_unplayed_campaign_on(
        &mut self,
        stored: StoredCampaign,
        now: i64,
    ) -> anyhow::Result<StoredCampaign> {
        let current = self.game(&stored.campaign)?.rules_versions().current;
        let name = stored.campaign.name.clone();
        if stored.campaign.rules_version == current.number
            || !self.store.days().rules_versions_after(&name, 0)?.is_empty()
        {
            return Ok(stored);
        }
        let moved = Campaign {
            rules_version: current.number,
            ..stored.campaign.clone()
        };
        self.store
            .campaigns_mut()
            .update(&moved, &stored.file_text)?;
        let note = format!(
            "no day was played yet, so the campaign moves to rules version {} ({}), the one this \
             realmgm plays",
            current.number, current.name
        );
        self.store
            .control_mut()
            .log_gm(Some(&name), now, "rules", &note, None)?;
        self.campaign(&name)
    }

    /// Hold the pending turn until the GM acts, and tell him, once per
    /// reason.
    fn hold(
        &mut self,
        stored: &StoredCampaign,
        reason: &str,
        now: i64,
    ) -> anyhow::Result<TurnOutcome> {
        self.hold_as(stored, reason, HoldKind::ForTheGm, now)
    }

    /// Hold the pending turn and tell the GM, once per reason and kind.
    fn hold_as(
        &mut self,
        stored: &StoredCampaign,
        reason: &str,
        kind: HoldKind,
        now: i64,
    ) -> anyhow::Result<TurnOutcome> {
        let name = &stored.campaign.name;
        let control = self.store.control().get(name)?;
        let lifts_itself = kind == HoldKind::Condition;
        // A condition hold already told keeps its notice: its reason may
        // change as it stands (fewer players missing), its cause does not.
        if lifts_itself && control.hold_lifts_itself && control.hold_reason.is_some() {
            if control.hold_reason.as_deref() != Some(reason) {
                self.store.control_mut().set_condition_hold(name, reason)?;
            }
        } else if control.hold_reason.as_deref() != Some(reason)
            || control.hold_lifts_itself != lifts_itself
        {
            let lifting = if lifts_itself {
                self.store.control_mut().set_condition_hold(name, reason)?;
                "The daemon checks this again every round and lifts the hold itself once it is \
                 no longer so; you will be told. "
            } else {
                self.store.control_mut().set_hold(name, Some(reason))?;
                ""
            };
            let day = self.pending(&stored.campaign)?.day;
            let db = self.store.db_option();
            let message = format!(
                "Day {day} of {name} is held and was not processed: {reason}.\n\nAll orders \
                 received are kept. {lifting}`realmgm gm status --campaign {name}{db}` shows the \
                 state; `gm process` runs the turn, `gm resume` lets the schedule run it."
            );
            self.outbox().tell_gm(
                &stored.campaign,
                "hold",
                &format!("day {day} held"),
                &message,
                None,
                now,
            )?;
        }
        Ok(TurnOutcome::Held(reason.to_string()))
    }

    /// Lift a hold whose cause was a condition that is gone now: logged,
    /// and the GM told once (the hold is gone, so no later round lifts it
    /// again). A hold for the GM stays. `next` says what happens now.
    fn lift_condition_hold(
        &mut self,
        stored: &StoredCampaign,
        next: &str,
        now: i64,
    ) -> anyhow::Result<()> {
        let name = &stored.campaign.name;
        let control = self.store.control().get(name)?;
        let Some(reason) = control.hold_reason.filter(|_| control.hold_lifts_itself) else {
            return Ok(());
        };
        self.store.control_mut().set_hold(name, None)?;
        let day = self.pending(&stored.campaign)?.day;
        let message = format!(
            "Day {day} of {name} is no longer held. It was held because {reason}; that is no \
             longer so, and the hold lifted itself. {next}"
        );
        self.outbox().tell_gm(
            &stored.campaign,
            "hold",
            &format!("day {day} no longer held"),
            &message,
            None,
            now,
        )
    }

    /// Hold a campaign whose latest stored state cannot be used (changed
    /// outside realmgm, or unreadable): no day is computed from it and no
    /// report sent. The hold is stored, so its GM is told once, not every
    /// round; a rollback lifts it. Returns the reason while it holds.
    fn hold_unusable_state(
        &mut self,
        stored: &StoredCampaign,
        now: i64,
    ) -> anyhow::Result<Option<String>> {
        let name = &stored.campaign.name;
        let reason = match self.store.days().latest(name) {
            Ok(_) => return Ok(None),
            Err(error @ (StoreError::StateMismatch { .. } | StoreError::Corrupt { .. })) => {
                error.to_string()
            }
            Err(other) => return Err(other.into()),
        };
        if self.store.control().get(name)?.hold_reason.as_deref() != Some(reason.as_str()) {
            self.store.control_mut().set_hold(name, Some(&reason))?;
            let db = self.store.db_option();
            let message = format!(
                "{name} is held, no day is processed and no report is sent: {reason}.\n\nMail \
                 that comes meanwhile is kept: `realmgm gm --campaign {name} mail list{db}` shows it \
                 and `gm mail retry --id N` reads it once the state is sound again. A rollback \
                 lifts the hold; if you put the original state back by hand instead, `gm resume` \
                 lifts it."
            );
            self.outbox().tell_gm(
                &stored.campaign,
                "hold",
                "campaign held: its stored state cannot be used",
                &message,
                None,
                now,
            )?;
        }
        Ok(Some(reason))
    }

    /// Set the game up (day 0) when it is not, holding with the game's
    /// reason when it cannot be.
    fn ensure_started(
        &mut self,
        stored: &StoredCampaign,
        now: i64,
    ) -> anyhow::Result<Option<String>> {
        let campaign = &stored.campaign;
        if self.store.days().latest(&campaign.name)?.is_some() {
            return Ok(None);
        }
        let game = self.game(campaign)?;
        let mut dice = Dice::new(campaign.seed, 0);
        let seats = stored.seats();
        let mut start = Start::new(&seats, &campaign.rules);
        start.carry_over = campaign.carry_over.as_ref();
        start.calendar = campaign
            .calendar
            .as_ref()
            .map(|calendar| crate::game::CalendarStart {
                months: calendar.months,
                season: calendar.start_season.as_deref(),
                victory_points: calendar.victory_points,
            });
        let started = if self.setting_up_by_mail(stored)? {
            match self.setup_outcome(stored, now)? {
                SetupOutcome::Ready(seats, chosen) => game.start(
                    &Start {
                        seats: &seats,
                        setup: Some(&*chosen),
                        ..start
                    },
                    &mut dice,
                ),
                SetupOutcome::Waiting(waiting) => {
                    // A set-up failure is gone once the players choose by mail.
                    let next = format!("{}.", self.setup_status(stored)?);
                    self.lift_condition_hold(stored, &next, now)?;
                    return Ok(Some(waiting));
                }
            }
        } else {
            game.start(&start, &mut dice)
        };
        match started {
            Ok(state) => {
                self.store.days_mut().save(&campaign.name, 0, &state, now)?;
                if game.sends_start_reports() {
                    self.send_start_reports(stored, game, &state, now)?;
                }
                let first = self.pending(campaign)?;
                let next = format!(
                    "The game is set up; day {} runs at its deadline, {}.",
                    first.day,
                    format_utc(first.deadline)
                );
                self.lift_condition_hold(stored, &next, now)?;
                Ok(None)
            }
            Err(error) => {
                // Every set-up failure is checked again next round: an edit
                // of the campaign or a player's choice may have fixed it.
                let mut reason = format!("the game cannot be set up: {error:#}");
                let unchosen: Vec<&str> = campaign
                    .players
                    .iter()
                    .filter(|p| p.character.is_none())
                    .map(|p| p.name.as_str())
                    .collect();
                if !unchosen.is_empty() && !self.setting_up_by_mail(stored)? {
                    reason.push_str(&format!(
                        " (nothing asks {} to choose: set [mail] setup_by_mail = true in the \
                         campaign file and run `realmgm campaign edit {} FILE{db}`)",
                        crate::words::listed(&unchosen),
                        campaign.name,
                        db = self.store.db_option()
                    ));
                }
                self.hold_as(stored, &reason, HoldKind::Condition, now)?;
                Ok(Some(reason))
            }
        }
    }

    /// Every player's start report, before day 1: his character, where he
    /// starts and what he sees there, the rules in force, the deadline and
    /// the orders form; stored as day 0 (so `report?` answers before day 1)
    /// and mailed ([`crate::game::Game::sends_start_reports`]).
    fn send_start_reports(
        &mut self,
        stored: &StoredCampaign,
        game: &dyn crate::game::Game,
        state: &GameState,
        now: i64,
    ) -> anyhow::Result<()> {
        let campaign = &stored.campaign;
        let deadline = campaign.schedule.deadline(1)
            + self.store.control().deadline_extension(&campaign.name, 1)?;
        let context = report_context(
            game,
            campaign,
            0,
            Some(deadline),
            &BTreeMap::new(),
            &[],
            GmWords::default(),
        )?;
        for player in &stored.players {
            let report = match game.report(state, &[], Reader::Player(&player.name), &context) {
                Ok(report) => report,
                Err(error) => {
                    let note = format!("no start report for {}: {error:#}", player.name);
                    self.store.control_mut().log_gm(
                        Some(&campaign.name),
                        now,
                        "report",
                        &note,
                        None,
                    )?;
                    continue;
                }
            };
            let mailed = MailedReport {
                day: 0,
                finished: false,
                next_deadline: deadline,
            };
            self.keep_and_mail_report(
                campaign,
                Some(&player.name),
                player.email.as_str(),
                &report,
                &mailed,
                now,
            )?;
        }
        Ok(())
    }

    /// Store `reader`'s report of a day (the GM's when `None`) and queue
    /// it to `to`.
    fn keep_and_mail_report(
        &mut self,
        campaign: &crate::campaign::Campaign,
        reader: Option<&str>,
        to: &str,
        report: &Report,
        mailed: &MailedReport,
        now: i64,
    ) -> anyhow::Result<()> {
        let attachments = mail_attachments(report);
        self.store.days_mut().save_report(
            &campaign.name,
            reader,
            &StoredReport {
                day: mailed.day,
                subject: report.subject.clone(),
                text: report.text.clone(),
                html: report.html.clone(),
                attachments,
            },
        )?;
        // A day run again after a rollback: its reader must not take the
        // new report for another day's, nor keep playing from the old one.
        let replaces =
            self.store
                .outbox()
                .report_mailed_before(&campaign.name, mailed.day, reader)?;
        let body = report_mail(&campaign.name, mailed, report, replaces, reader.is_none());
        let subject = if replaces {
            format!("{} (replaces the earlier one)", report.subject)
        } else {
            report.subject.clone()
        };
        let parts = ReportParts {
            day: mailed.day,
            reader: reader.map(str::to_string),
        };
        self.outbox()
            .queue_parts(campaign, to, &subject, &body, Some(parts), None, now)?;
        Ok(())
    }

    /// One tick of a campaign's schedule: remind, run, hold or wait.
    /// Returns what was done, for the daemon's log line. The tick is one
    /// unit of work: stopped midway, it left nothing.
    ///
    /// # Errors
    /// The store fails, or a bug met outside the engine (the engine's own
    /// failures hold the turn instead).
    pub fn check_turn(&mut self, name: &str, now: i64) -> anyhow::Result<String> {
        self.atomically(|daemon| daemon.turns().tick(name, now))
    }

    fn tick(&mut self, name: &str, now: i64) -> anyhow::Result<String> {
        let stored = self.campaign(name)?;
        if let Some(reason) = self.hold_unusable_state(&stored, now)? {
            self.store.control_mut().set_last_tick(name, now)?;
            return Ok(format!("held: {reason}"));
        }
        if let Some(reason) = self.ensure_started(&stored, now)? {
            self.store.control_mut().set_last_tick(name, now)?;
            return Ok(format!("held: {reason}"));
        }
        self.welcome_returning(&stored, now)?;
        let stored = self.move_unplayed_campaign_on(stored, now)?;
        let campaign = &stored.campaign;
        let control = self.store.control().get(name)?;
        let pending = self.pending(campaign)?;
        let (awaited, _) = self.awaited(&stored, &pending)?;
        let over = self.over(&stored, &pending)?;
        // Only the day and its deadline are needed from here: the state is
        // let go, so a turn run below holds the pending state's last handle
        // and the game resolves it in place instead of copying it.
        let (day, deadline) = (pending.day, pending.deadline);
        drop(pending);
        if !control.paused
            && let Some(waiting) = self.combat_round_tick(name, day, now)?
        {
            self.store.control_mut().set_last_tick(name, now)?;
            return Ok(waiting);
        }
        let accepted_at = self.store.orders().accepted_order_times(name, day)?;
        // A player away is covered by the NMR policy: the turn neither
        // waits for him, nor reminds him, nor holds for his silence.
        let away = self.players_away(name, now)?;
        let mut missing = Vec::new();
        let mut last_orders_at = None;
        for player in &awaited {
            let accepted = accepted_at
                .iter()
                .find(|(seat, _)| seat.eq_ignore_ascii_case(player))
                .map(|(_, at)| *at);
            match accepted {
                Some(at) => last_orders_at = last_orders_at.max(Some(at)),
                None if away.iter().any(|a| a.eq_ignore_ascii_case(player)) => {}
                None => missing.push(player.clone()),
            }
        }
        let mail = campaign.mail.clone().unwrap_or_default();
        // A hold on a condition does not stop the decision: it is how the
        // condition is checked again.
        let held_on_condition = control.hold_lifts_itself && control.hold_reason.is_some();
        let facts = TurnFacts {
            now,
            deadline,
            paused: control.paused,
            held: control.hold_reason.is_some() && !control.hold_lifts_itself,
            over,
            approved: control.approved_day == Some(day),
            awaited: awaited.len(),
            missing,
            last_orders_at,
            early_after_minutes: campaign.schedule.process_early_after_minutes,
            reminder_hours: campaign.schedule.reminder_hours,
            reminded: control.reminded_day == Some(day),
            last_tick: control.last_tick,
            late_grace_seconds: mail.late_grace_seconds(),
            hold_if_missing_percent: mail.hold_if_missing_percent(),
        };
        let behind = rules_behind(self.game(campaign)?, campaign, &self.store.db_option());
        let held_for_the_gm = control.hold_reason.is_some() && !control.hold_lifts_itself;
        let decision = match behind {
            // Held at once, not at the deadline: the GM has the whole day to
            // decide, and the hold lifts itself once he has. A hold that waits
            // for the GM stays his: this one must not lift it.
            Some(reason) if !control.paused && !over && !held_for_the_gm => {
                Decision::HoldWhile(reason)
            }
            _ => decide(&facts),
        };
        if held_on_condition
            && !control.paused
            && !over
            // A hold for the GM replaces it with its own notice.
            && !matches!(decision, Decision::HoldWhile(_) | Decision::Hold(_))
        {
            let next = match decision {
                Decision::Process { .. } => format!("Day {} runs now.", day),
                _ => format!(
                    "Day {} runs by the schedule; its deadline is {}.",
                    day,
                    format_utc(deadline)
                ),
            };
            self.lift_condition_hold(&stored, &next, now)?;
        }
        let done = match decision {
            Decision::Wait => "waiting".to_string(),
            Decision::Remind(players) => {
                for player in &players {
                    let Some(record) = stored.players.iter().find(|p| &p.name == player) else {
                        continue;
                    };
                    let body = format!(
                        "{} reminder ===\n\nThe game has no orders from you for day {} yet. The \
                         deadline is {}. Without orders: {}.\n",
                        marker(name),
                        day,
                        format_utc(deadline),
                        campaign.missing_orders_rule(self.store.games())
                    );
                    self.outbox().queue(
                        campaign,
                        &record.email,
                        &format!("day {} reminder", day),
                        &body,
                        None,
                        now,
                    )?;
                }
                self.store.control_mut().set_reminded_day(name, day)?;
                format!("reminded {}", players.join(", "))
            }
            Decision::Process { early } => match self.process_turn(name, now)? {
                TurnOutcome::Processed { day, .. } => {
                    format!("processed day {day}{}", if early { " early" } else { "" })
                }
                TurnOutcome::Held(reason) => format!("held: {reason}"),
                TurnOutcome::WaitingForCombat { players, .. } => {
                    format!("combat round asked of {}", players.join(", "))
                }
            },
            Decision::Hold(reason) => held(self.hold(&stored, &reason, now)?),
            Decision::HoldWhile(reason) => {
                held(self.hold_as(&stored, &reason, HoldKind::Condition, now)?)
            }
        };
        self.store.control_mut().set_last_tick(name, now)?;
        Ok(done)
    }
}

/// Why `campaign`'s next day cannot run: it plays under a version of the
/// game's rules this realmgm no longer plays. `None` when it plays the
/// current one.
pub fn rules_behind(game: &dyn Game, campaign: &Campaign, db: &str) -> Option<String> {
    let versions = game.rules_versions();
    let current = versions.current;
    if campaign.rules_version == current.number {
        return None;
    }
    let played = versions
        .find(campaign.rules_version)
        .map_or_else(String::new, |v| format!(" ({})", v.name));
    Some(format!(
        "the campaign plays under rules version {}{played}, which this realmgm no longer plays; \
         it plays version {} ({}). The days already played keep their rules. To play on under \
         version {}, write `rules_version = {}` in the campaign file and run `realmgm campaign \
         edit {} FILE{db}`: it lists what changes, and the hold lifts itself",
        campaign.rules_version,
        current.number,
        current.name,
        current.number,
        current.number,
        campaign.name
    ))
}

/// Whether a hold waits for the GM or lifts itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HoldKind {
    /// Only the GM lifts it (`gm resume`, `gm process`, a rollback): an
    /// engine failure, a re-run that differs, a day stored twice, a
    /// daemon that was down past the deadline.
    ForTheGm,
    /// Its cause is a condition checked again every round (a seat without
    /// a character at setup, too many players without orders): the hold
    /// lifts itself once the cause is gone.
    Condition,
}

/// The tick's log line of a hold.
fn held(outcome: TurnOutcome) -> String {
    match outcome {
        TurnOutcome::Held(reason) => format!("held: {reason}"),
        TurnOutcome::Processed { .. } | TurnOutcome::WaitingForCombat { .. } => String::new(),
    }
}

/// A report's attachments as the outbox keeps them.
fn mail_attachments(report: &Report) -> Vec<MailAttachment> {
    report
        .attachments
        .iter()
        .map(|(name, mime, bytes)| MailAttachment {
            name: name.clone(),
            mime: mime.clone(),
            bytes: bytes.clone(),
        })
        .collect()
}

/// Which day a mailed report is of, and what its footer asks for next.
struct MailedReport {
    day: u32,
    finished: bool,
    next_deadline: i64,
}

/// The mail body of a report; the GM's (`to_gm`) says when the players'
/// orders are due, for he sends none.
fn report_mail(
    tag: &str,
    mailed: &MailedReport,
    report: &Report,
    replaces: bool,
    to_gm: bool,
) -> String {
    let MailedReport {
        day,
        finished,
        next_deadline,
    } = *mailed;
    let footer = if finished {
        "The game is over.".to_string()
    } else if to_gm {
        format!(
            "The players' orders for day {} are due by {}.",
            day + 1,
            format_utc(next_deadline)
        )
    } else {
        format!(
            "Send your orders for day {} by {}: answer this mail with your orders at the top \
             and your `Password:` line. Send `help` for the commands.",
            day + 1,
            format_utc(next_deadline)
        )
    };
    let what = if day == 0 {
        "start of the game".to_string()
    } else {
        format!("day {day} report")
    };
    let replacing = if replaces {
        format!(
            "This {what} replaces the one mailed before: the GM rolled the game back and ran \
             day {day} again. Play from this one.\n\n"
        )
    } else {
        String::new()
    };
    format!(
        "{} {what} ===\n\n{replacing}{}\n\n{footer}\n",
        marker(tag),
        report.text.trim_end()
    )
}

fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}
