//! Mail out: every message is queued in the store's outbox first, then
//! sent through a transport (SMTP, or a Maildir folder for the demo and
//! tests) and retried with exponential backoff until delivered. A permanent
//! refusal is recorded as a bounce against the player it was for and
//! reported to the GM. Mail of a campaign threads under the campaign's root
//! Message-ID (or replies to the player's mail it answers).

use std::collections::BTreeMap;
use std::time::{Duration, UNIX_EPOCH};

use crate::campaign::Campaign;
use crate::mail::outbound::{
    AutoSubmitted, OutboundAttachment, OutboundMail, build, campaign_thread_id, message_id,
    thread_headers,
};
use crate::mail::transport::MailTransport;
use crate::store::{OutgoingMail, QueuedMail, ReportParts};

use super::sender;
use crate::mail::route::bare_address;

/// The first retry waits this long; each later one twice as long.
const FIRST_RETRY_SECONDS: i64 = 60;
/// Retries never wait longer than this.
const MAX_RETRY_SECONDS: i64 = 6 * 3600;

/// What one pass over the outbox did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SendSummary {
    pub sent: usize,
    /// Failed for now; tried again later.
    pub deferred: usize,
    /// Refused for good; recorded as bounces.
    pub failed: usize,
}

/// When the next attempt is due after `attempts` failed ones.
pub fn retry_at(now: i64, attempts: u32) -> i64 {
    let delay = FIRST_RETRY_SECONDS
        .saturating_mul(1_i64 << attempts.min(20))
        .min(MAX_RETRY_SECONDS);
    now + delay
}

part! {
    /// Mail out: queued, sent, retried and pruned.
    Outbox
}

impl Outbox<'_> {
    /// Queue a mail of `campaign` to `to`. `answering` is the Message-ID and
    /// References of the player's mail this answers, for threading. The
    /// subject gets the campaign tag when it lacks it.
    ///
    /// # Errors
    /// The store fails.
    pub fn queue(
        &mut self,
        campaign: &Campaign,
        to: &str,
        subject: &str,
        body: &str,
        answering: Option<(&str, &[String])>,
        now: i64,
    ) -> anyhow::Result<i64> {
        self.queue_parts(campaign, to, subject, body, None, answering, now)
    }

    /// [`Outbox::queue`] carrying a stored report's HTML alternative and
    /// attachments (its map picture), read from the report when the mail is
    /// sent; the text stays the first part.
    ///
    /// # Errors
    /// The store fails.
    #[allow(clippy::too_many_arguments)]
    pub fn queue_parts(
        &mut self,
        campaign: &Campaign,
        to: &str,
        subject: &str,
        body: &str,
        report: Option<ReportParts>,
        answering: Option<(&str, &[String])>,
        now: i64,
    ) -> anyhow::Result<i64> {
        let tag = format!("[{}]", campaign.name);
        let subject = if subject.to_lowercase().contains(&tag.to_lowercase()) {
            subject.to_string()
        } else {
            format!("{tag} {subject}")
        };
        // Mail to a team's seat goes to every address of the team.
        let to = match campaign
            .players
            .iter()
            .find(|p| !p.team.is_empty() && p.email.as_str().eq_ignore_ascii_case(to))
        {
            Some(seat) => seat
                .addresses()
                .map(|a| a.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            None => to.to_string(),
        };
        let mut headers = BTreeMap::new();
        headers.insert("from".to_string(), sender(campaign));
        let auto = if answering.is_some() {
            "auto-replied"
        } else {
            "auto-generated"
        };
        headers.insert("auto-submitted".to_string(), auto.to_string());
        if let Some((id, references)) = answering {
            headers.insert("in-reply-to".to_string(), id.to_string());
            headers.insert("references".to_string(), references.join(" "));
        }
        let id = self.store.outbox_mut().enqueue(
            &OutgoingMail {
                campaign: Some(campaign.name.clone()),
                recipient: to,
                subject,
                body: body.to_string(),
                headers,
                report,
                ..OutgoingMail::default()
            },
            now,
        )?;
        Ok(id)
    }

    /// Drop the contents of `campaign`'s sent mail older than its
    /// `mail.keep_sent_days`; returns how many mails were pruned.
    ///
    /// # Errors
    /// The store fails.
    pub fn prune_sent(&mut self, campaign: &Campaign, now: i64) -> anyhow::Result<usize> {
        let keep = campaign
            .mail
            .clone()
            .unwrap_or_default()
            .keep_sent_seconds();
        Ok(match keep {
            Some(seconds) => {
                self.store
                    .outbox_mut()
                    .prune_sent(&campaign.name, now - seconds, now)?
            }
            None => 0,
        })
    }

    /// Tell the GM of `campaign` something by mail and in his log.
    ///
    /// # Errors
    /// The store fails.
    pub fn tell_gm(
        &mut self,
        campaign: &Campaign,
        kind: &str,
        subject: &str,
        message: &str,
        inbound_id: Option<i64>,
        now: i64,
    ) -> anyhow::Result<()> {
        self.store
            .control_mut()
            .log_gm(Some(&campaign.name), now, kind, message, inbound_id)?;
        let body = format!(
            "{} GM notice ===\n\n{message}\n",
            super::orders::confirm::marker(&campaign.name)
        );
        self.queue(
            campaign,
            campaign.gm.email.as_str(),
            subject,
            &body,
            None,
            now,
        )?;
        Ok(())
    }

    /// Send the due mail of `campaign` (all campaigns when `None`) through
    /// `transport`.
    ///
    /// # Errors
    /// The store fails (a failing send is recorded, not returned).
    pub fn send_due(
        &mut self,
        transport: &dyn MailTransport,
        campaign: Option<&str>,
        now: i64,
    ) -> anyhow::Result<SendSummary> {
        self.send_matching(transport, now, |of| {
            campaign.is_none_or(|c| of.is_some_and(|n| n.eq_ignore_ascii_case(c)))
        })
    }

    /// Send the due mail that belongs to no campaign (a notice about a
    /// campaign whose record cannot be read) through `transport`.
    ///
    /// # Errors
    /// The store fails.
    pub fn send_due_outside_campaigns(
        &mut self,
        transport: &dyn MailTransport,
        now: i64,
    ) -> anyhow::Result<SendSummary> {
        self.send_matching(transport, now, |of| of.is_none())
    }

    /// Send the due mail whose campaign `wanted` accepts.
    fn send_matching(
        &mut self,
        transport: &dyn MailTransport,
        now: i64,
        wanted: impl Fn(Option<&str>) -> bool,
    ) -> anyhow::Result<SendSummary> {
        let mut summary = SendSummary::default();
        let due = self.store.outbox().due(now)?;
        for queued in due
            .into_iter()
            .filter(|q| wanted(q.mail.campaign.as_deref()))
        {
            let result = outbound(&queued, now)
                .map_err(|e| crate::mail::transport::SendError::Permanent(e.to_string()))
                .and_then(|mail| {
                    let message = build(&mail)
                        .map_err(|e| crate::mail::transport::SendError::Permanent(e.to_string()))?;
                    transport.send(&message)
                });
            match result {
                Ok(_) => {
                    self.store.outbox_mut().mark_sent(queued.id)?;
                    self.forget_secrets_of(&queued)?;
                    summary.sent += 1;
                }
                Err(error) if error.is_temporary() => {
                    let at = retry_at(now, queued.attempts);
                    self.store
                        .outbox_mut()
                        .mark_failed(queued.id, &error.to_string(), Some(at))?;
                    summary.deferred += 1;
                }
                Err(error) => {
                    self.store
                        .outbox_mut()
                        .mark_failed(queued.id, &error.to_string(), None)?;
                    self.forget_secrets_of(&queued)?;
                    summary.failed += 1;
                    self.permanent_failure(&queued, &error.to_string(), now)?;
                }
            }
        }
        // Mail read and sent lose their secrets, and so do the files.
        self.store.redaction_mut().forget_secrets_of_read_mail()?;
        self.store.redaction_mut().checkpoint_after_masking()?;
        Ok(summary)
    }

    /// The copy kept of `queued`, now sent or given up for good, loses the
    /// secret it carries: a delivered welcome's secret is the player's now,
    /// and an undeliverable one is never sent again.
    fn forget_secrets_of(&mut self, queued: &QueuedMail) -> anyhow::Result<()> {
        self.store.redaction_mut().forget_sent_secrets(
            queued.id,
            &queued.mail.body,
            queued.mail.html.as_deref(),
        )?;
        Ok(())
    }

    /// A mail that can never be delivered: a bounce for its player, and the
    /// GM told (unless the mail was to the GM himself).
    fn permanent_failure(
        &mut self,
        queued: &QueuedMail,
        error: &str,
        now: i64,
    ) -> anyhow::Result<()> {
        let Some(name) = &queued.mail.campaign else {
            return Ok(());
        };
        let stored = self.store.campaigns().load(name)?;
        let first = queued.mail.recipient.split(", ").next().unwrap_or_default();
        let recipient = bare_address(first);
        let message = format!(
            "mail '{}' to {recipient} cannot be delivered: {error}",
            queued.mail.subject
        );
        if let Some(player) = self
            .store
            .players()
            .by_address(&stored.campaign, recipient)?
        {
            self.store
                .players_mut()
                .record_bounce(name, &player.name, now, &message)?;
        }
        if recipient.eq_ignore_ascii_case(stored.campaign.gm.email.as_str()) {
            self.store
                .control_mut()
                .log_gm(Some(name), now, "mail", &message, None)?;
            return Ok(());
        }
        self.tell_gm(
            &stored.campaign,
            "bounce",
            "undeliverable mail",
            &message,
            None,
            now,
        )
    }
}

/// The mail to build from a queued row; the Message-ID comes from the row's
/// id, so it is stable across retries.
fn outbound(
    queued: &QueuedMail,
    now: i64,
) -> Result<OutboundMail, crate::mail::outbound::BuildError> {
    let mail = &queued.mail;
    let campaign = mail.campaign.clone().unwrap_or_else(|| "none".to_string());
    let from = mail
        .headers
        .get("from")
        .cloned()
        .unwrap_or_else(|| "realmgm@localhost".to_string());
    let root = campaign_thread_id(&campaign, &from)?;
    let references: Vec<String> = mail
        .headers
        .get("references")
        .map(|r| r.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    let answering = mail.headers.get("in-reply-to");
    let (in_reply_to, references) = thread_headers(
        &root,
        answering.map(|id| (id.as_str(), references.as_slice())),
    );
    let auto_submitted = match mail.headers.get("auto-submitted").map(String::as_str) {
        Some("auto-replied") => AutoSubmitted::AutoReplied,
        _ => AutoSubmitted::AutoGenerated,
    };
    Ok(OutboundMail {
        message_id: message_id(
            &campaign,
            "mail",
            u64::try_from(queued.id).unwrap_or(0),
            &from,
        )?,
        campaign,
        from,
        // A team's seat: one recipient line naming every address.
        to: mail.recipient.split(", ").map(str::to_string).collect(),
        subject: mail.subject.clone(),
        text: mail.body.clone(),
        html: mail.html.clone(),
        attachments: mail
            .attachments
            .iter()
            .map(|a| OutboundAttachment {
                name: a.name.clone(),
                mime: a.mime.clone(),
                bytes: a.bytes.clone(),
            })
            .collect(),
        in_reply_to,
        references,
        auto_submitted,
        date: UNIX_EPOCH + Duration::from_secs(u64::try_from(now).unwrap_or(0)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::daemon::testing::{NOW, demo};
    use crate::mail::transport::MaildirMailer;

    #[test]
    fn backoff_doubles_and_is_capped() {
        assert_eq!(retry_at(100, 0), 160);
        assert_eq!(retry_at(100, 1), 220);
        assert_eq!(retry_at(100, 3), 100 + 480);
        assert_eq!(retry_at(100, 30), 100 + MAX_RETRY_SECONDS);
    }

    #[test]
    fn a_notice_to_the_gm_is_queued_then_sent_once() {
        let mut daemon = demo();
        let dir = std::env::temp_dir().join(format!("realmgm-outbox-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mailer = MaildirMailer::new(&dir).unwrap();
        // The start reports of day 0 go first.
        daemon
            .outbox()
            .send_due(&mailer, Some("DEMO"), NOW)
            .unwrap();
        let campaign = daemon.campaign("DEMO").unwrap().campaign;
        daemon
            .outbox()
            .tell_gm(&campaign, "note", "a note", "Something to know.", None, NOW)
            .unwrap();
        let sent = daemon
            .outbox()
            .send_due(&mailer, Some("DEMO"), NOW)
            .unwrap();
        assert_eq!(
            sent,
            SendSummary {
                sent: 1,
                ..SendSummary::default()
            }
        );
        let again = daemon
            .outbox()
            .send_due(&mailer, Some("DEMO"), NOW)
            .unwrap();
        assert_eq!(again.sent, 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
