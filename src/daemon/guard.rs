//! Containment: a bug met while handling one mail or one campaign's tick
//! becomes an error for that mail or campaign alone. The daemon serves many
//! campaigns from one process, so a panic that escaped would stop every
//! campaign until someone noticed; caught here, it is recorded with its
//! message and the daemon goes on with the next mail or campaign.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::Daemon;
use crate::store::InboundStatus;

impl Daemon {
    /// Run `work` as one unit of work: everything it stores is committed
    /// together, or nothing is when it fails or panics. Inside a unit of
    /// work already open (a GM command by mail runs in the mail's) it joins
    /// that one, whose owner commits or rolls back.
    ///
    /// # Errors
    /// What `work` returns, a panic in it, or the store fails.
    pub fn atomically<T>(
        &mut self,
        work: impl FnOnce(&mut Daemon) -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        if self.store.in_work() {
            return work(self);
        }
        self.store.begin_work()?;
        match contained(|| work(self)) {
            Ok(value) => {
                self.store.commit_work()?;
                Ok(value)
            }
            Err(error) => {
                self.store.abandon_work();
                Err(error)
            }
        }
    }
}

impl Daemon {
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
                        super::confirm::marker(name)
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

impl Daemon {
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
        let handled = self.handle_stored(now)?;
        let outcome = handled
            .into_iter()
            .find(|(handled, _)| *handled == id)
            .map_or_else(|| "not handled".to_string(), |(_, note)| note);
        Ok(format!("mail {id}: {outcome}"))
    }
}

/// Run `work`, turning a panic into an error that quotes the panic's
/// message.
///
/// Unwind safety: the callers hold the store inside an open unit of work,
/// which they roll back on any error, so nothing half-written by the
/// panicking code survives it.
///
/// # Errors
/// What `work` returns, or the panic as an error.
pub fn contained<T>(work: impl FnOnce() -> anyhow::Result<T>) -> anyhow::Result<T> {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(result) => result,
        Err(payload) => Err(anyhow::anyhow!(
            "realmgm hit a bug ({}); please report it with this message",
            panic_message(payload.as_ref())
        )),
    }
}

/// The text a panic was raised with.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_error_with_its_message() {
        let error = contained::<()>(|| panic!("end byte index 3 is not a char boundary"))
            .unwrap_err()
            .to_string();
        assert!(error.contains("end byte index 3"), "{error}");
        assert_eq!(contained(|| Ok(7)).unwrap(), 7);
        let failed = contained::<()>(|| anyhow::bail!("store down")).unwrap_err();
        assert_eq!(failed.to_string(), "store down");
    }
}
