//! What a player's mail gets: the answer to a command (`help`, `orders?`,
//! `report?`, `rules?`), a private message relayed, or his orders read,
//! stored as a new version and confirmed.
//!
//! Orders count only from the awaited players and only until the deadline:
//! later orders are kept with the raw mail (nothing is lost), not counted,
//! and the reply and the GM's log say so; the GM can enter them by hand.

use crate::campaign::{Campaign, format_utc};
use crate::game::{AcceptedOrders, Game, GameState, OrdersProblem};
use crate::store::{NewOrder, PlayerRecord, ReportParts, StoredCampaign};

use super::Orders;
use super::commands::{Command, PLAYER_HELP};
use super::confirm::{Confirmation, confirmation, marker};
use crate::daemon::mail_in::ingest::Letter;
use crate::report::Templates;

/// What orders were answered with.
pub struct Submitted {
    /// The line for the GM's log.
    pub note: String,
    /// The confirmation the player reads.
    pub text: String,
    /// Whether orders were read from the mail: the answer's subject says
    /// so, for a player reads the subject first.
    pub read: bool,
}

impl Submitted {
    /// The subject (after "Re: ") of the answer to an orders mail.
    pub fn subject(&self) -> &'static str {
        if self.read {
            "orders received"
        } else {
            "orders not read"
        }
    }
}

/// Orders to read for a player, from his mail or typed by the GM.
pub struct Submission<'a> {
    pub player: &'a str,
    pub text: &'a str,
    pub first_line: usize,
    pub notes: &'a [String],
    pub source_mail: Option<i64>,
    /// The GM may enter orders after the deadline.
    pub by_gm: bool,
}

impl<'a> Submission<'a> {
    /// A player's own orders in his mail: `text` is the mail's text, or
    /// what is left of it once a command line is read.
    pub(crate) fn by_mail(player: &'a str, letter: &'a Letter, text: &'a str) -> Self {
        Submission {
            player,
            text,
            first_line: letter.first_line,
            notes: &letter.notes,
            source_mail: letter.inbound_id,
            by_gm: false,
        }
    }
}

impl Orders<'_> {
    /// Answer a player's mail. Returns a note of what was done.
    ///
    /// # Errors
    /// The store fails or the game is unknown.
    pub(crate) fn player_mail(
        &mut self,
        stored: &StoredCampaign,
        player: &PlayerRecord,
        command: Command,
        letter: &Letter,
        now: i64,
    ) -> anyhow::Result<String> {
        let campaign = &stored.campaign;
        if let Some(refusal) = over_size_limits(campaign, &letter.text) {
            let body = format!("{} mail refused ===\n\n{refusal}\n", marker(&campaign.name));
            self.outbox().queue(
                campaign,
                &player.email,
                "Re: mail refused",
                &body,
                letter.answering(),
                now,
            )?;
            return Ok(format!("mail of {} refused unread: {refusal}", player.name));
        }
        let (subject, body, note) = match command {
            Command::Orders if self.turns().setting_up_by_mail(stored)? => {
                return self.turns().setup_mail(stored, player, letter, now);
            }
            // A late player's first mails choose his character.
            Command::Orders if self.seats().choosing_character(stored, player)? => {
                return self.seats().choose_character(stored, player, letter, now);
            }
            // While the day waits for his combat round, his mail answers it.
            Command::Orders if self.turns().round_waits_for(stored, &player.name)? => {
                return self.turns().round_answer(stored, player, letter, now);
            }
            // A late player's starting info, while his character waits to
            // enter the Realm.
            Command::Orders
                if let Some(read) = self.seats().starting_info_in(stored, player, letter) =>
            {
                return self
                    .seats()
                    .late_starting_info(stored, player, read, letter, now);
            }
            Command::Orders => {
                let submitted = self.submit_orders(
                    stored,
                    &Submission::by_mail(&player.name, letter, &letter.text),
                    now,
                )?;
                (
                    submitted.subject().to_string(),
                    submitted.text,
                    submitted.note,
                )
            }
            Command::To(target) => {
                return self.mail_in().relay(stored, player, &target, letter, now);
            }
            Command::Report(day) => return self.report_again(stored, player, day, letter, now),
            Command::Away(date) => {
                let (text, note) = self.away(stored, player, &date, now)?;
                ("away".to_string(), text, note)
            }
            Command::Back => {
                let text = self.welcome_back(stored, &player.name)?;
                self.store
                    .players_mut()
                    .clear_absence(&campaign.name, &player.name)?;
                ("back".to_string(), text, format!("{} is back", player.name))
            }
            other => {
                let text = self.answer(stored, player, &other)?;
                (
                    "your question".to_string(),
                    text,
                    format!("answered `{other}` for {}", player.name),
                )
            }
        };
        let body = format!("{body}\n");
        self.outbox().queue(
            campaign,
            &player.email,
            &format!("Re: {subject}"),
            &body,
            letter.answering(),
            now,
        )?;
        Ok(note)
    }

    /// `away until DATE`: record his absence; the answer and a log note.
    /// The date is the day he is back (from its first moment, UTC).
    ///
    /// # Errors
    /// The store fails.
    fn away(
        &mut self,
        stored: &StoredCampaign,
        player: &PlayerRecord,
        date: &str,
        now: i64,
    ) -> anyhow::Result<(String, String)> {
        let campaign = &stored.campaign;
        let head = format!("{} away ===\n\n", marker(&campaign.name));
        let until = match crate::campaign::Date::try_from(date.to_string()) {
            Ok(date) => date.days_since_epoch() * 86_400,
            Err(e) => {
                return Ok((
                    format!("{head}{e}; write the day you are back, e.g. `away until 2030-01-15`."),
                    format!("{} wrote an unreadable absence date", player.name),
                ));
            }
        };
        if until <= now {
            return Ok((
                format!("{head}{date} has passed; write the day you will be back."),
                format!("{} gave an absence date in the past", player.name),
            ));
        }
        let since_day = self.pending(campaign)?.day;
        self.store.players_mut().set_absence(
            &campaign.name,
            &crate::store::Absence {
                player: player.name.clone(),
                until,
                since_day,
            },
        )?;
        Ok((
            format!(
                "{head}You are away until {}. Until then the game plays for you as when orders are \
                 missing ({}), with no reminders, and the GM is not told; your reports still \
                 come. Orders you send count as usual. On your return you get a summary of the \
                 days you missed; send `back` to return earlier.",
                format_utc(until),
                campaign.missing_orders_rule(self.store.games())
            ),
            format!("{} is away until {}", player.name, format_utc(until)),
        ))
    }

    /// What a returning player is told: the days played while he was
    /// away, and how to read their reports again.
    ///
    /// # Errors
    /// The store fails.
    pub(crate) fn welcome_back(
        &self,
        stored: &StoredCampaign,
        player: &str,
    ) -> anyhow::Result<String> {
        let campaign = &stored.campaign;
        let head = format!("{} welcome back ===\n\n", marker(&campaign.name));
        let away = self
            .store
            .players()
            .absences(&campaign.name)?
            .into_iter()
            .find(|a| a.player.eq_ignore_ascii_case(player));
        let played = self
            .store
            .days()
            .latest(&campaign.name)?
            .map_or(0, |d| d.day);
        let pending = self.pending(campaign)?;
        Ok(match away {
            Some(away) if played >= away.since_day => {
                let (days, reports) = if played == away.since_day {
                    (format!("day {played} was played"), "Its report was")
                } else {
                    (
                        format!("days {} to {played} were played", away.since_day),
                        "Their reports were",
                    )
                };
                format!(
                    "{head}While you were away, {days} for you ({}). {reports} mailed to you; \
                     `report? N` sends the report of day N again. Day {}'s orders are due by {}.",
                    campaign.missing_orders_rule(self.store.games()),
                    pending.day,
                    format_utc(pending.deadline)
                )
            }
            _ => format!(
                "{head}No day was played while you were away. Day {}'s orders are due by {}.",
                pending.day,
                format_utc(pending.deadline)
            ),
        })
    }

    /// Answer `report?`: his stored report of `day` (his latest when
    /// `None`) again, as the same text, HTML and map it was first sent as.
    ///
    /// # Errors
    /// The store fails.
    fn report_again(
        &mut self,
        stored: &StoredCampaign,
        player: &PlayerRecord,
        day: Option<u32>,
        letter: &Letter,
        now: i64,
    ) -> anyhow::Result<String> {
        let campaign = &stored.campaign;
        let head = |what: &str| format!("{} {what} ===\n\n", marker(&campaign.name));
        let found = self
            .store
            .days()
            .report(&campaign.name, Some(&player.name), day)?;
        let (body, parts, note) = match found {
            Some(report) => (
                format!(
                    "{}{}\n\n{}\n",
                    head(&format!("report of day {} again", report.day)),
                    report.subject,
                    report.text.trim_end()
                ),
                Some(ReportParts {
                    day: report.day,
                    reader: Some(player.name.clone()),
                }),
                format!(
                    "sent {} the report of day {} again",
                    player.name, report.day
                ),
            ),
            None => (
                format!(
                    "{}There is no report{} for you yet.\n",
                    head("report"),
                    day.map(|d| format!(" of day {d}")).unwrap_or_default()
                ),
                None,
                format!("{} asked for a report that does not exist", player.name),
            ),
        };
        self.outbox().queue_parts(
            campaign,
            &player.email,
            "Re: your question",
            &body,
            parts,
            letter.answering(),
            now,
        )?;
        Ok(note)
    }

    /// The text answering a command.
    fn answer(
        &mut self,
        stored: &StoredCampaign,
        player: &PlayerRecord,
        command: &Command,
    ) -> anyhow::Result<String> {
        let campaign = &stored.campaign;
        let head = |what: &str| format!("{} {what} ===\n\n", marker(&campaign.name));
        let pending = self.pending(campaign)?;
        Ok(match command {
            Command::Help => format!(
                "{}{PLAYER_HELP}\n\nThe deadline of day {} is {}.",
                head("help"),
                pending.day,
                format_utc(pending.deadline)
            ),
            Command::CurrentOrders => {
                match self.accepted_orders(&campaign.name, pending.day, &player.name)? {
                    Some(orders) => format!(
                        "{}Your orders in force for day {}:\n\n{}",
                        head("your orders"),
                        pending.day,
                        orders.canonical.trim_end()
                    ),
                    None => format!(
                        "{}You have no accepted orders for day {} yet. Without orders by {}: {}.",
                        head("your orders"),
                        pending.day,
                        format_utc(pending.deadline),
                        campaign.missing_orders_rule(self.store.games())
                    ),
                }
            }
            Command::Rules => {
                let game = self.game(campaign)?;
                let mut text = head("rules in force");
                text.push_str(&format!(
                    "Campaign: {}\n",
                    campaign.title.as_deref().unwrap_or(&campaign.name)
                ));
                let on: Vec<_> = game
                    .toggles()
                    .iter()
                    .filter(|t| campaign.rules.is_on(t.name))
                    .collect();
                if on.is_empty() {
                    text.push_str("Rules: the standard rules, no optional rules.\n");
                } else {
                    text.push_str("Optional and house rules:\n");
                    for toggle in on {
                        // The summary is what a player reads; the file's
                        // name is how he asks his GM about it.
                        text.push_str(&format!("  - {} ({})\n", toggle.summary, toggle.name));
                    }
                }
                text.push_str("Schedule:\n");
                for line in campaign.schedule_lines(self.store.games()) {
                    text.push_str(&format!("  - {line}\n"));
                }
                text
            }
            Command::Combat if self.turns().round_waits_for(stored, &player.name)? => format!(
                "{}A combat round waits for your answer: reply to its prompt with your \
                 `Combat:` line (the prompt came as \"day {} combat round\").",
                head("combat"),
                pending.day
            ),
            Command::Combat => format!(
                "{}No combat round waits for your answer. {}",
                head("combat"),
                if campaign.rules.is_on("round_by_round_combat") {
                    "When a combat reaches a round your `Combat:` line does not cover, you \
                     get a round prompt by mail."
                } else {
                    "This campaign plays combat with the `Combat:` line of your orders."
                }
            ),
            Command::Gm(_) => format!(
                "{}GM commands are accepted only from the GM's address with the GM secret.",
                head("refused")
            ),
            // Answered by their own handlers in `player_mail`.
            Command::Orders
            | Command::To(_)
            | Command::Report(_)
            | Command::Away(_)
            | Command::Back => head("help") + PLAYER_HELP,
        })
    }

    /// Read, store and confirm orders.
    ///
    /// # Errors
    /// The store fails or the game is unknown.
    pub fn submit_orders(
        &mut self,
        stored: &StoredCampaign,
        submission: &Submission<'_>,
        now: i64,
    ) -> anyhow::Result<Submitted> {
        let campaign = &stored.campaign;
        let game = self.game(campaign)?;
        let pending = self.pending(campaign)?;
        let head = format!(
            "{} day {} orders ===\n\n",
            marker(&campaign.name),
            pending.day
        );
        let player = submission.player;
        if now > pending.deadline && !submission.by_gm {
            let note = format!(
                "orders of {player} for day {} arrived after the deadline ({}); kept with the \
                 mail, not counted",
                pending.day,
                format_utc(pending.deadline)
            );
            self.store.control_mut().log_gm(
                Some(&campaign.name),
                now,
                "late",
                &note,
                submission.source_mail,
            )?;
            let text = format!(
                "{head}Your orders arrived after the deadline of day {} ({}), so they do not \
                 count; your earlier orders, if any, stand. The GM has been told and can enter \
                 them by hand.",
                pending.day,
                format_utc(pending.deadline)
            );
            return Ok(Submitted {
                note,
                text,
                read: true,
            });
        }
        let (awaited, unknown) = self.awaited(stored, &pending)?;
        if awaited.is_empty() && self.over(stored, &pending)? {
            return Ok(Submitted {
                note: format!("orders of {player}: no turn waits for orders"),
                text: format!("{head}No turn waits for orders: the game is over."),
                read: true,
            });
        }
        // Orders from a player the next turn does not wait for are still
        // kept: in a game of turns they replace his standing orders.
        let mut submission_notes = submission.notes.to_vec();
        if !awaited.is_empty() && !awaited.iter().any(|a| a.eq_ignore_ascii_case(player)) {
            submission_notes.push(format!(
                "day {} waits for {}, not for you; these orders are kept and stand for your \
                 next turns",
                pending.day,
                awaited.join(", ")
            ));
        }
        if submission.text.trim().is_empty() {
            return Ok(Submitted {
                note: format!("mail of {player} without orders"),
                text: format!(
                    "{head}Your mail had no orders (nothing was left once quoted text was \
                     removed). Write your orders at the top of the mail, or send `help`.{}",
                    submission
                        .notes
                        .iter()
                        .map(|n| format!("\n\nNote: {n}"))
                        .collect::<String>()
                ),
                read: false,
            });
        }
        let state = pending
            .state
            .clone()
            .unwrap_or(GameState::new(serde_json::Value::Null));
        let ReadOrders {
            outcome: read,
            set_aside,
        } = read_orders(
            game,
            campaign,
            &state,
            player,
            submission.text,
            submission.first_line,
        );
        let previous = self.accepted_orders(&campaign.name, pending.day, player)?;
        let parsed = read.as_ref().ok().map(serde_json::to_value).transpose()?;
        let version = self.store.orders_mut().insert(&NewOrder {
            campaign: &campaign.name,
            player,
            day: pending.day,
            text: submission.text,
            parsed: parsed.as_ref(),
            source_mail: submission.source_mail,
            received: now,
        })?;
        let mut notes = submission_notes;
        notes.extend(set_aside);
        // Greetings, sign-offs and prose are found apart; a player reads
        // them down his mail.
        notes.sort_by_key(|note| line_named(note));
        if let Some(why) = unknown {
            notes.push(format!(
                "the orders are stored, but the turn cannot run yet: {why}"
            ));
        }
        let confirming = Confirmation {
            tag: &campaign.name,
            player,
            day: pending.day,
            deadline: pending.deadline,
            version,
            outcome: read.as_ref().map_err(Vec::as_slice),
            previous: previous.as_ref().map(|p| p.canonical.as_str()),
            notes: &notes,
        };
        // A broken override must not leave the player without an answer:
        // the built-in wording goes out and the GM is told.
        let own = campaign
            .templates()
            .and_then(|t| Ok(confirmation(&confirming, &t)?));
        let text = match own {
            Ok(text) => text,
            Err(e) => {
                self.store.control_mut().log_gm(
                    Some(&campaign.name),
                    now,
                    "template",
                    &format!("{e:#}; the built-in confirmation was sent instead"),
                    submission.source_mail,
                )?;
                confirmation(&confirming, &Templates::built_in())?
            }
        };
        let note = match &read {
            Ok(_) => format!(
                "orders of {player} for day {} accepted as version {version}",
                pending.day
            ),
            Err(problems) => format!(
                "orders of {player} for day {} kept as version {version} with {}",
                pending.day,
                crate::words::counted(problems.len(), "problem", "problems")
            ),
        };
        Ok(Submitted {
            note,
            text,
            read: read.is_ok(),
        })
    }

    /// The latest accepted orders of `player` for `day`.
    ///
    /// # Errors
    /// The store fails or holds orders this build cannot read.
    pub fn accepted_orders(
        &self,
        campaign: &str,
        day: u32,
        player: &str,
    ) -> anyhow::Result<Option<AcceptedOrders>> {
        let latest = match self.store.orders().latest_accepted(campaign, day, player) {
            Ok(latest) => latest,
            // A name the game awaits but the campaign does not seat has
            // sent nothing.
            Err(crate::store::StoreError::NoSuchPlayer { .. }) => None,
            Err(error) => return Err(error.into()),
        };
        Ok(latest.map(serde_json::from_value).transpose()?)
    }
}

/// A player's orders as the daemon reads them.
pub struct ReadOrders {
    /// The orders as read, or every problem found, its line counted in
    /// the mail body.
    pub outcome: Result<AcceptedOrders, Vec<OrdersProblem>>,
    /// A note for each line of prose set aside around the orders.
    pub set_aside: Vec<String>,
}

/// Read `player`'s orders `text` as the daemon does, for a mail and for
/// `realmgm orders check`: the prose before and after the orders set aside
/// (named by their line in the mail, `first_line` being the text's first),
/// then the game's reading and checks against `state`, then the campaign's
/// limit on phases.
pub fn read_orders(
    game: &dyn Game,
    campaign: &Campaign,
    state: &GameState,
    player: &str,
    text: &str,
    first_line: usize,
) -> ReadOrders {
    // Numbered as in the mail, so a line a message names inside its text
    // ("the activities were already given on line 3") is the player's line.
    let text = "\n".repeat(first_line.saturating_sub(1)) + text;
    let (text, set_aside) =
        crate::mail::courtesy::set_aside_prose(&text, 1, |line| game.reads_as_orders(line));
    let outcome = game
        .read_orders(state, &campaign.rules, player, &text)
        .and_then(|accepted| within_phase_limit(game, campaign, accepted, &text));
    ReadOrders { outcome, set_aside }
}

/// Why a player's mail text is too large to read, if it is: the campaign's
/// `mail.max_orders_kb` and `mail.max_orders_lines` bound what one mail may
/// cost the daemon.
fn over_size_limits(campaign: &Campaign, text: &str) -> Option<String> {
    let mail = campaign.mail.clone().unwrap_or_default();
    let (max_bytes, max_lines) = (mail.max_orders_bytes(), mail.max_orders_lines());
    let lines = text.lines().count();
    (text.len() > max_bytes || lines > max_lines).then(|| {
        format!(
            "Your mail has {} KiB of text in {lines} lines (quoted text left out); this campaign \
             reads at most {} KiB and {max_lines} lines of orders, so nothing of it was read. \
             Send only your orders for the coming day.",
            text.len().div_ceil(1024),
            max_bytes / 1024
        )
    })
}

/// Orders as read, unless they ask more phases of one day than the
/// campaign's `mail.max_phases_per_day`: then a problem on the line with
/// the most phase separators (the activities).
fn within_phase_limit(
    game: &dyn Game,
    campaign: &Campaign,
    accepted: AcceptedOrders,
    text: &str,
) -> Result<AcceptedOrders, Vec<OrdersProblem>> {
    let limit = campaign
        .mail
        .clone()
        .unwrap_or_default()
        .max_phases_per_day();
    match game.phases_asked(&accepted) {
        Some(asked) if asked > limit => {
            let separators = |line: &str| line.matches([',', '/']).count();
            let line = text
                .lines()
                .enumerate()
                .max_by_key(|(index, line)| (separators(line), std::cmp::Reverse(*index)))
                .map_or(1, |(index, _)| index + 1);
            Err(vec![OrdersProblem {
                line,
                column: 1,
                message: format!(
                    "these orders ask for {asked} phases in one day; this campaign accepts at \
                     most {limit} (mail.max_phases_per_day): write the phases of one day"
                ),
            }])
        }
        _ => Ok(accepted),
    }
}

/// The mail line a note about one names ("line 3 (...) ..."), 0 for a note
/// about the whole mail, which comes first.
fn line_named(note: &str) -> usize {
    note.strip_prefix("line ")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}
