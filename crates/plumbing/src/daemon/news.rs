//! News where the players chat: a short public message to each webhook of
//! the campaign's `[notify]` table that takes it, when a day is processed,
//! when the public pages are rebuilt, when the deadline is near and when
//! the GM announces something. The news is queued in the store in the same
//! unit of work as what it tells, then posted ([`crate::mail::webhook`])
//! and retried with the outbox's backoff until delivered; a failing
//! endpoint delays nothing else, and the GM's log says when one starts
//! failing, gives up or recovers.
//!
//! Only what every player may know goes out: the day's number, the
//! deadline, the pages' link from `[site] url`, the GM's announcements,
//! and the awaited players' names only under `name_awaited = true`. No
//! news is built from a report, an event or a secret.

use std::time::Duration;

use serde_json::{Value, json};

use crate::campaign::{Campaign, NewsKind, format_utc};
use crate::mail::webhook;

use super::outbox::retry_at;

/// How long one post may take before it counts as failed for now.
const POST_TIMEOUT: Duration = Duration::from_secs(10);

part! {
    /// The campaign's public news, queued for its webhooks and posted.
    Newsroom
}

/// What one pass over a campaign's news did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewsSummary {
    pub sent: usize,
    /// Failed for now; tried again later.
    pub deferred: usize,
    /// Refused for good.
    pub failed: usize,
}

impl Newsroom<'_> {
    /// Queue news of `kind` about `day` for every hook of `campaign` that
    /// takes it: `text` is what a person reads, `extra` the generic JSON
    /// hook's further fields.
    ///
    /// # Errors
    /// The store fails.
    fn queue(
        &mut self,
        campaign: &Campaign,
        kind: NewsKind,
        day: u32,
        text: &str,
        extra: Value,
        now: i64,
    ) -> anyhow::Result<()> {
        let Some(notify) = &campaign.notify else {
            return Ok(());
        };
        let mut news = json!({
            "version": 1,
            "campaign": campaign.name,
            "title": campaign.title,
            "event": kind.name(),
            "day": day,
            "text": format!("[{}] {text}", campaign.name),
        });
        if let (Value::Object(news), Value::Object(extra)) = (&mut news, extra) {
            news.extend(extra);
        }
        for hook in notify.hooks.iter().filter(|h| h.takes(kind)) {
            self.store.news_mut().enqueue(
                &campaign.name,
                hook.name(),
                kind.name(),
                day,
                &news,
                now,
            )?;
        }
        Ok(())
    }

    /// A day was processed: its number and the next deadline, or that the
    /// game is over.
    ///
    /// # Errors
    /// The store fails.
    pub fn day_processed(
        &mut self,
        campaign: &Campaign,
        day: u32,
        finished: bool,
        next_deadline: i64,
        now: i64,
    ) -> anyhow::Result<()> {
        let (text, extra) = if finished {
            (
                format!("Day {day} is processed, and the game is over."),
                json!({ "finished": true }),
            )
        } else {
            let deadline = format_utc(next_deadline);
            (
                format!(
                    "Day {day} is processed; the reports are on their way. Orders for day {} \
                     are due {deadline}.",
                    day + 1
                ),
                json!({ "finished": false, "deadline": deadline }),
            )
        };
        self.queue(campaign, NewsKind::Day, day, &text, extra, now)
    }

    /// The public pages were rebuilt up to `day`: their link when `[site]`
    /// names the address they are served from, once per day.
    ///
    /// # Errors
    /// The store fails.
    pub fn site_rebuilt(&mut self, campaign: &Campaign, day: u32, now: i64) -> anyhow::Result<()> {
        // Pages rebuilt for an announcement, a narrative or an edited
        // `[site]` table are no news to the players: only a new day is.
        if self
            .store
            .news()
            .queued(&campaign.name, NewsKind::Site.name(), day)?
        {
            return Ok(());
        }
        let link = campaign.site.as_ref().and_then(|s| s.url.clone());
        let text = match &link {
            Some(link) => format!("The public pages are updated to day {day}: {link}"),
            None => format!("The public pages are updated to day {day}."),
        };
        self.queue(
            campaign,
            NewsKind::Site,
            day,
            &text,
            json!({ "link": link }),
            now,
        )
    }

    /// The GM announced `text` while `day` was pending.
    ///
    /// # Errors
    /// The store fails.
    pub fn announced(
        &mut self,
        campaign: &Campaign,
        day: u32,
        text: &str,
        now: i64,
    ) -> anyhow::Result<()> {
        let line = format!("The GM announces: {text}");
        self.queue(campaign, NewsKind::Announcement, day, &line, json!({}), now)
    }

    /// When the pending day's deadline is `[notify] deadline_hours` away or
    /// nearer and some players have sent no orders, say so once per day:
    /// how many are awaited, and by name only under `name_awaited`.
    ///
    /// # Errors
    /// The game or the store fails.
    pub fn deadline_near(&mut self, name: &str, now: i64) -> anyhow::Result<bool> {
        let stored = self.campaign(name)?;
        let campaign = &stored.campaign;
        let Some(notify) = &campaign.notify else {
            return Ok(false);
        };
        if !notify.hooks.iter().any(|h| h.takes(NewsKind::Deadline)) {
            return Ok(false);
        }
        let day = self.pending_day(name)?;
        let deadline =
            campaign.schedule.deadline(day) + self.store.control().deadline_extension(name, day)?;
        let window = i64::from(notify.deadline_hours()) * 3600;
        if now >= deadline
            || deadline - now > window
            || self.store.control().get(name)?.paused
            || self
                .store
                .news()
                .queued(name, NewsKind::Deadline.name(), day)?
        {
            return Ok(false);
        }
        let pending = self.pending(campaign)?;
        if pending.state.is_none() {
            return Ok(false);
        }
        let (awaited, _) = self.awaited(&stored, &pending)?;
        let orders = self.store.orders().for_day(name, day)?;
        let missing: Vec<String> = awaited
            .into_iter()
            .filter(|player| {
                !orders
                    .iter()
                    .any(|o| o.player.eq_ignore_ascii_case(player) && o.parsed.is_some())
            })
            .collect();
        if missing.is_empty() {
            return Ok(false);
        }
        let due = format_utc(deadline);
        let count = crate::words::counted(missing.len(), "player", "players");
        let (text, names) = if notify.name_awaited {
            (
                format!(
                    "Orders for day {day} are due {due}; still awaited: {}.",
                    missing.join(", ")
                ),
                json!(missing),
            )
        } else {
            (
                format!("Orders for day {day} are due {due}; {count} still to send theirs."),
                Value::Null,
            )
        };
        let extra = json!({ "deadline": due, "awaited_count": missing.len(), "awaited": names });
        self.queue(campaign, NewsKind::Deadline, day, &text, extra, now)?;
        Ok(true)
    }

    /// Post `campaign`'s news that is due, each to its hook; a failure is
    /// retried with backoff, or given up when the endpoint refuses for
    /// good, and the GM's log says when a hook starts failing, gives up or
    /// recovers.
    ///
    /// # Errors
    /// The store fails.
    pub fn send_due(&mut self, campaign: &Campaign, now: i64) -> anyhow::Result<NewsSummary> {
        let mut summary = NewsSummary::default();
        // A hook that failed once in this pass is not tried again in it: an
        // endpoint that hangs costs one timeout a round, not one per news.
        let mut failing = std::collections::BTreeSet::new();
        for queued in self.store.news().due(&campaign.name, now)? {
            if failing.contains(&queued.hook) {
                continue;
            }
            let hook = campaign
                .notify
                .as_ref()
                .and_then(|n| n.hooks.iter().find(|h| h.name() == queued.hook));
            let outcome = match hook {
                None => Err(crate::mail::transport::SendError::Permanent(format!(
                    "the hook '{}' is no longer in [notify]",
                    queued.hook
                ))),
                Some(hook) => match hook.target() {
                    Ok(target) => {
                        let txn = format!("realmgm-{}-{}", campaign.name, queued.id);
                        webhook::post(&target, &queued.news, &txn, POST_TIMEOUT)
                    }
                    Err(error) => Err(crate::mail::transport::SendError::Temporary(
                        error.to_string(),
                    )),
                },
            };
            let hook = &queued.hook;
            let note = match outcome {
                Ok(()) => {
                    // The post went out: if recording it fails (the store
                    // busy past its timeout), try once more, since a piece
                    // left pending is posted again next round. News is
                    // still posted before it is marked, so a crash between
                    // the two repeats a post rather than losing one.
                    if self.store.news_mut().mark_sent(queued.id).is_err() {
                        self.store.news_mut().mark_sent(queued.id)?;
                    }
                    summary.sent += 1;
                    (queued.attempts > 0).then(|| {
                        format!(
                            "news to hook '{hook}' delivered after {}",
                            crate::words::counted(
                                queued.attempts as usize + 1,
                                "attempt",
                                "attempts"
                            )
                        )
                    })
                }
                Err(error) if error.is_temporary() => {
                    failing.insert(queued.hook.clone());
                    let next = retry_at(now, queued.attempts);
                    self.store
                        .news_mut()
                        .mark_failed(queued.id, &error.to_string(), Some(next))?;
                    summary.deferred += 1;
                    (queued.attempts == 0).then(|| {
                        format!(
                            "news to hook '{hook}' failed ({error}); it is tried again with \
                             growing pauses, the next at {}, and the game goes on meanwhile",
                            format_utc(next)
                        )
                    })
                }
                Err(error) => {
                    self.store
                        .news_mut()
                        .mark_failed(queued.id, &error.to_string(), None)?;
                    summary.failed += 1;
                    Some(format!(
                        "news to hook '{hook}' given up: {error}; fix [notify] with `campaign \
                         edit`, later news goes to the hook as it then stands"
                    ))
                }
            };
            if let Some(note) = note {
                self.store.control_mut().log_gm(
                    Some(&campaign.name),
                    now,
                    "notify",
                    &note,
                    None,
                )?;
            }
        }
        Ok(summary)
    }
}
