//! Round-by-round combat by mail (the game's toggle, e.g.
//! Magic Realm's `round_by_round_combat`): when the day stops at a combat
//! round, the players asked get a round prompt; their answers (a reply
//! with a `Combat:` line) are stored with the round; the day is resolved
//! again, from its start with the same dice, once every asked player has
//! answered or the round deadline (`[mail] round_deadline_hours`) passed,
//! when defaults decide what nobody answered. Nothing of a stopped day is
//! stored but the round itself, so a resumed day is the same day the same
//! answers given up front would have made.

use crate::campaign::format_utc;
use crate::game::{OrdersProblem, TurnPause};
use crate::store::{CombatRound, PlayerRecord, StoredCampaign};

use super::Turns;
use super::process::TurnOutcome;
use crate::daemon::mail_in::ingest::Letter;
use crate::daemon::orders::confirm::marker;

/// The GM's status line of a combat round the day waits for.
pub fn round_status(round: &CombatRound) -> String {
    let missing: Vec<&str> = round
        .asked
        .iter()
        .filter(|p| !round.answered.contains(p))
        .map(String::as_str)
        .collect();
    if missing.is_empty() {
        "Combat round: every answer is in; the next tick resumes the day\n".to_string()
    } else {
        format!(
            "Combat round: waiting for {} until {}, then defaults decide\n",
            missing.join(", "),
            format_utc(round.deadline)
        )
    }
}

impl Turns<'_> {
    /// Keep the round the day stopped at and mail its prompts, once per
    /// stop: a stop already asked waits on.
    ///
    /// # Errors
    /// The store fails.
    pub(crate) fn ask_round(
        &mut self,
        stored: &StoredCampaign,
        pause: &TurnPause,
        now: i64,
    ) -> anyhow::Result<TurnOutcome> {
        let campaign = &stored.campaign;
        let name = &campaign.name;
        let day = self.pending(campaign)?.day;
        let earlier = self.store.rounds().get(name, day)?;
        let players: Vec<String> = pause.prompts.keys().cloned().collect();
        if earlier.as_ref().is_some_and(|r| r.waiting == pause.waiting) {
            return Ok(TurnOutcome::WaitingForCombat { day, players });
        }
        let deadline = now
            + campaign
                .mail
                .clone()
                .unwrap_or_default()
                .round_deadline_seconds();
        let round = CombatRound {
            waiting: pause.waiting.clone(),
            asked: players.clone(),
            answered: Vec::new(),
            answers: earlier.map(|r| r.answers).unwrap_or_default(),
            deadline,
        };
        self.store.rounds_mut().save(name, day, &round)?;
        for (player, prompt) in &pause.prompts {
            let Some(record) = stored.players.iter().find(|p| &p.name == player) else {
                continue;
            };
            let body = format!(
                "{} day {day} combat round ===\n\n{}\n\nAnswer by {}: reply to this mail with \
                 your `Combat:` line and your `Password:` line.\n",
                marker(name),
                prompt.trim_end(),
                format_utc(deadline)
            );
            self.outbox().queue(
                campaign,
                &record.email,
                &format!("day {day} combat round"),
                &body,
                None,
                now,
            )?;
        }
        self.store.control_mut().log_gm(
            Some(name),
            now,
            "combat round",
            &format!(
                "day {day} stopped at a combat round; asked {} until {}",
                players.join(", "),
                format_utc(deadline)
            ),
            None,
        )?;
        Ok(TurnOutcome::WaitingForCombat { day, players })
    }

    /// The schedule's step while a combat round waits: resume the day when
    /// every asked player answered or the round deadline passed, else
    /// wait. `None` when no round waits.
    ///
    /// # Errors
    /// The store fails.
    pub(crate) fn combat_round_tick(
        &mut self,
        name: &str,
        day: u32,
        now: i64,
    ) -> anyhow::Result<Option<String>> {
        let Some(round) = self.store.rounds().get(name, day)? else {
            return Ok(None);
        };
        if !round.complete() && now < round.deadline {
            let missing: Vec<&str> = round
                .asked
                .iter()
                .filter(|p| !round.answered.contains(p))
                .map(String::as_str)
                .collect();
            return Ok(Some(format!(
                "waiting for the combat round answers of {}",
                missing.join(", ")
            )));
        }
        Ok(Some(match self.process_turn(name, now)? {
            TurnOutcome::Processed { day, .. } => format!("processed day {day}"),
            TurnOutcome::Held(reason) => format!("held: {reason}"),
            TurnOutcome::WaitingForCombat { players, .. } => {
                format!("combat round asked of {}", players.join(", "))
            }
        }))
    }

    /// Whether the pending day waits for `player`'s combat round answer.
    ///
    /// # Errors
    /// The store fails.
    pub(crate) fn round_waits_for(
        &self,
        stored: &StoredCampaign,
        player: &str,
    ) -> anyhow::Result<bool> {
        let day = self.pending(&stored.campaign)?.day;
        Ok(self
            .store
            .rounds()
            .get(&stored.campaign.name, day)?
            .is_some_and(|r| r.asked.iter().any(|p| p == player)))
    }

    /// Read a player's answer to the round and confirm it. Returns a note
    /// for the log.
    ///
    /// # Errors
    /// The store fails or the game is unknown.
    pub(crate) fn round_answer(
        &mut self,
        stored: &StoredCampaign,
        player: &PlayerRecord,
        letter: &Letter,
        now: i64,
    ) -> anyhow::Result<String> {
        let campaign = &stored.campaign;
        let game = self.game(campaign)?;
        let day = self.pending(campaign)?.day;
        let head = format!("{} day {day} combat answer ===\n\n", marker(&campaign.name));
        let Some(mut round) = self.store.rounds().get(&campaign.name, day)? else {
            return Ok(format!("no combat round waits for {}", player.name));
        };
        let (note, text) = if now >= round.deadline {
            (
                format!("combat answer of {} after the round deadline", player.name),
                format!(
                    "{head}Your answer arrived after the round deadline ({}); default standing \
                     orders decide that round.",
                    format_utc(round.deadline)
                ),
            )
        } else {
            let answer = match game.rounds() {
                Some(rounds) => {
                    rounds.read_answer(&round.waiting, &round.answers, &player.name, &letter.text)
                }
                None => Err(vec![OrdersProblem {
                    line: 1,
                    column: 1,
                    message: "this game never stops a turn for answers; send orders instead".into(),
                }]),
            };
            match answer {
                Ok(answers) => {
                    round.answers = answers;
                    if !round.answered.contains(&player.name) {
                        round.answered.push(player.name.clone());
                    }
                    self.store.rounds_mut().save(&campaign.name, day, &round)?;
                    (
                        format!("combat answer of {} for day {day} accepted", player.name),
                        format!(
                            "{head}Your answer is accepted; the combat goes on when every \
                             player asked has answered, or at {}.",
                            format_utc(round.deadline)
                        ),
                    )
                }
                Err(problems) => (
                    format!("combat answer of {} not read", player.name),
                    format!(
                        "{head}Your answer could not be read; send it again:\n{}",
                        problems
                            .iter()
                            .map(|p| format!("  - {p}"))
                            .collect::<Vec<_>>()
                            .join("\n")
                    ),
                ),
            }
        };
        self.outbox().queue(
            campaign,
            &player.email,
            &format!("Re: day {day} combat round"),
            &format!("{text}\n"),
            letter.answering(),
            now,
        )?;
        Ok(note)
    }
}
