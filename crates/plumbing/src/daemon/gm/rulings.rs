//! The GM's rulings: `gm rule TEXT --why REASON` on the
//! command line or `gm rule` by mail (one ruling a line, `-- reason` after
//! it). Each is checked at once against the pending turn's state, stored
//! for that turn and carried out as it begins; the players it concerns read
//! it, with the reason, in their next report. `gm withdraw-ruling ID` takes
//! back one not yet carried out.

use crate::game::GmRuling;
use crate::store::StoredCampaign;

use super::GmControl;

impl GmControl<'_> {
    /// Check `ruling` against the pending turn (after the rulings already
    /// standing for it) and store it. Returns the answer for the GM.
    ///
    /// # Errors
    /// No such campaign, the game is not set up, or the ruling cannot be
    /// read or applied (the message says why).
    pub fn rule(&mut self, name: &str, ruling: &GmRuling, now: i64) -> anyhow::Result<String> {
        let stored = self.campaign(name)?;
        let day = self.check_ruling(&stored, ruling)?;
        let id = self.store.rulings_mut().record(name, day, ruling, now)?;
        let note = format!("ruling {id} for day {day}: {}", with_reason(ruling));
        self.store
            .control_mut()
            .log_gm(Some(name), now, "gm", &note, None)?;
        Ok(format!(
            "{note}\nIt is carried out as day {day} begins, and the players it concerns read it in \
             their report; `gm withdraw-ruling {id}` takes it back before then."
        ))
    }

    /// Whether `ruling` can be carried out at the start of the pending
    /// turn, after the rulings already standing; returns the turn.
    ///
    /// # Errors
    /// As [`GmControl::rule`].
    pub(crate) fn check_ruling(
        &self,
        stored: &StoredCampaign,
        ruling: &GmRuling,
    ) -> anyhow::Result<u32> {
        let campaign = &stored.campaign;
        let Some((day, state)) = self.turn_to_come(stored)? else {
            anyhow::bail!(
                "the game of {} is not set up yet; rulings apply from day 1",
                campaign.name
            );
        };
        if ruling.text.trim().is_empty() {
            anyhow::bail!(
                "the ruling is empty: write what to change, for example `give Gold Helmet to Amazon`"
            );
        }
        self.game(campaign)?
            .rule(&state, &campaign.rules, std::slice::from_ref(ruling))?;
        Ok(day)
    }

    /// The pending turn and its state as the turn will begin it: the late
    /// seats admitted and the rulings standing for it queued; `None`
    /// before the game is set up.
    ///
    /// # Errors
    /// The store fails, or a seat or standing ruling no longer fits.
    pub(crate) fn turn_to_come(
        &self,
        stored: &StoredCampaign,
    ) -> anyhow::Result<Option<(u32, crate::game::GameState)>> {
        let campaign = &stored.campaign;
        let game = self.game(campaign)?;
        let pending = self.pending(campaign)?;
        let Some(state) = pending.state else {
            return Ok(None);
        };
        let state = game.admit(&state, &campaign.rules, &stored.seats())?;
        let rulings = self
            .store
            .rulings()
            .given_on_day(&campaign.name, pending.day)?;
        Ok(Some((
            pending.day,
            game.rule(&state, &campaign.rules, &rulings)?,
        )))
    }

    /// Take back a ruling of the pending turn.
    ///
    /// # Errors
    /// No such campaign, or no standing ruling with that id for the
    /// pending turn.
    pub fn withdraw_ruling(&mut self, name: &str, id: i64, now: i64) -> anyhow::Result<String> {
        let stored = self.campaign(name)?;
        let day = self.pending(&stored.campaign)?.day;
        if !self.store.rulings_mut().withdraw(name, day, id, now)? {
            let standing: Vec<String> = self
                .store
                .rulings()
                .on_day(name, day)?
                .iter()
                .map(|r| format!("{} ({})", r.id, r.text))
                .collect();
            anyhow::bail!(
                "day {day} has no standing ruling {id}; its rulings are: {}",
                if standing.is_empty() {
                    "none".to_string()
                } else {
                    standing.join(", ")
                }
            );
        }
        let note = format!("ruling {id} for day {day} withdrawn");
        self.store
            .control_mut()
            .log_gm(Some(name), now, "gm", &note, None)?;
        Ok(note)
    }

    /// Every ruling of a mail body: one a line, `ruling -- reason`; the
    /// answer lists what was done with each.
    ///
    /// # Errors
    /// The store fails (a bad ruling is an answer line, not an error).
    pub(crate) fn rule_by_mail(
        &mut self,
        name: &str,
        body: &str,
        now: i64,
    ) -> anyhow::Result<String> {
        let mut answers = Vec::new();
        for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let (text, why) = line.split_once("--").unwrap_or((line, ""));
            let ruling = GmRuling {
                text: text.trim().to_string(),
                why: why.trim().to_string(),
            };
            answers.push(match self.rule(name, &ruling, now) {
                Ok(answer) => answer,
                Err(error) if error.downcast_ref::<crate::store::StoreError>().is_some() => {
                    return Err(error);
                }
                Err(error) => format!("Refused: {error:#}"),
            });
        }
        if answers.is_empty() {
            anyhow::bail!(
                "no ruling in the mail: write one a line below `gm rule`, for example \
                 `give Gold Helmet to Amazon -- lost to a misread search on day 11`"
            );
        }
        Ok(answers.join("\n\n"))
    }
}

/// A ruling with its reason, as the GM's log shows it.
pub fn with_reason(ruling: &GmRuling) -> String {
    if ruling.why.trim().is_empty() {
        ruling.text.trim().to_string()
    } else {
        format!("{} ({})", ruling.text.trim(), ruling.why.trim())
    }
}
