//! Private messages between players (campaign rule toggle
//! `unlimited_communication`): a mail with the subject `[TAG] to <character
//! or player>` is passed on to that player from the GM's address, so no one
//! learns another's address; the GM gets a copy when the campaign's
//! `copy_relays_to_gm` says so.
//!
//! Round-by-round combat prompts by mail are not built: they wait for the
//! Magic Realm combat engine, and `combat?` says so.

use crate::store::{PlayerRecord, RelayedMessage, StoredCampaign};

use super::MailIn;
use super::ingest::Letter;
use crate::daemon::orders::confirm::marker;

/// The rule toggle that allows private messages.
pub const TOGGLE: &str = "unlimited_communication";

impl MailIn<'_> {
    /// Pass a player's message on to `target` and confirm it to him.
    pub(crate) fn relay(
        &mut self,
        stored: &StoredCampaign,
        from: &PlayerRecord,
        target: &str,
        letter: &Letter,
        now: i64,
    ) -> anyhow::Result<String> {
        let campaign = &stored.campaign;
        let signature = |p: &PlayerRecord| p.character.clone().unwrap_or_else(|| p.name.clone());
        let head = format!("{} private message ===\n\n", marker(&campaign.name));
        let found = stored.players.iter().find(|p| {
            p.name.eq_ignore_ascii_case(target)
                || p.character
                    .as_deref()
                    .is_some_and(|c| c.eq_ignore_ascii_case(target))
        });
        let (answer, note) = if !campaign.rules.is_on(TOGGLE) {
            (
                format!(
                    "{head}This campaign does not allow private messages between players (its rules do not include {TOGGLE})."
                ),
                format!("private message of {} refused: not allowed", from.name),
            )
        } else if let Some(to) = found {
            if letter.text.trim().is_empty() {
                (
                    format!("{head}Your message to {target} was empty and was not sent."),
                    format!("empty private message of {}", from.name),
                )
            } else {
                let body = format!(
                    "{head}From {}:\n\n{}\n\nTo answer, send a mail with the subject `[{}] to {}` \
                     and your Password line.\n",
                    signature(from),
                    letter.text.trim_end(),
                    campaign.name,
                    signature(from)
                );
                let subject = format!("message from {}", signature(from));
                self.outbox()
                    .queue(campaign, &to.email, &subject, &body, None, now)?;
                // Kept for the report of the turn now pending.
                let day = self.pending(campaign)?.day;
                self.store.outbox_mut().record_relayed(
                    &campaign.name,
                    day,
                    &RelayedMessage {
                        recipient: to.name.clone(),
                        sender: signature(from),
                        text: letter.text.trim_end().to_string(),
                    },
                    now,
                )?;
                if campaign.mail.as_ref().is_some_and(|m| m.copy_relays_to_gm) {
                    let copy = format!("(copy for the GM: {} to {})\n\n{body}", from.name, to.name);
                    self.outbox().queue(
                        campaign,
                        campaign.gm.email.as_str(),
                        &subject,
                        &copy,
                        None,
                        now,
                    )?;
                }
                let note = format!("private message from {} to {}", from.name, to.name);
                self.store.control_mut().log_gm(
                    Some(&campaign.name),
                    now,
                    "relay",
                    &note,
                    letter.inbound_id,
                )?;
                (
                    format!("{head}Your message was passed on to {}.", signature(to)),
                    note,
                )
            }
        } else {
            let names: Vec<String> = stored
                .players
                .iter()
                .filter(|p| p.name != from.name)
                .map(signature)
                .collect();
            (
                format!(
                    "{head}No one in the campaign is called '{target}'; you can write to {}.",
                    names.join(", ")
                ),
                format!("private message of {} to unknown '{target}'", from.name),
            )
        };
        self.outbox().queue(
            campaign,
            &from.email,
            "Re: private message",
            &format!("{answer}\n"),
            letter.answering(),
            now,
        )?;
        Ok(note)
    }
}
