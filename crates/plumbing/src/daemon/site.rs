//! The daemon keeps a campaign's public pages current: after
//! each round, when the campaign names `[site] out` and what the pages are
//! built from has changed (a day processed or rolled back, an announcement,
//! a narrative, an edited `[site]` table), they are built again and
//! switched in one step ([`crate::site::publish`]), and the campaign's
//! webhooks are told, with the link, once per new day. A failed build never holds the game:
//! it goes to the GM's log, once until its reason changes.

use std::path::Path;

part! {
    /// A campaign's public pages, rebuilt when out of date.
    SitePages
}

impl SitePages<'_> {
    /// Rebuild `campaign`'s pages in `out` when they are out of date; the
    /// line for the daemon's log, if anything was done.
    ///
    /// # Errors
    /// The store fails while logging.
    pub fn refresh_site(
        &mut self,
        campaign: &str,
        out: &Path,
        now: i64,
    ) -> anyhow::Result<Option<String>> {
        let fingerprint = match crate::site::fingerprint(&self.store, campaign) {
            Ok(Some(fingerprint)) => fingerprint,
            // Nothing played yet: no pages to build.
            Ok(None) => return Ok(None),
            Err(error) => return self.site_failed(campaign, &error, now),
        };
        if crate::site::publish::built_from(out).as_deref() == Some(fingerprint.as_str()) {
            return Ok(None);
        }
        let last = self.store.control().gm_log_last(campaign, "site")?;
        if last.is_some_and(|note| note.starts_with(&failure(&fingerprint))) {
            return Ok(None);
        }
        match crate::site::build(&self.store, campaign, out) {
            Ok(built) => {
                let note = format!(
                    "public pages rebuilt in {}: {} day{} ({} with records), {} files",
                    out.display(),
                    built.days,
                    if built.days == 1 { "" } else { "s" },
                    built.days_with_records,
                    built.files
                );
                self.store
                    .control_mut()
                    .log_gm(Some(campaign), now, "site", &note, None)?;
                let latest = self.store.days().latest_number(campaign)?.unwrap_or(0);
                let stored = self.campaign(campaign)?.campaign;
                self.news().site_rebuilt(&stored, latest, now)?;
                Ok(Some(note))
            }
            Err(error) => {
                let error = error.context(failure(&fingerprint));
                self.site_failed(campaign, &error, now)
            }
        }
    }

    fn site_failed(
        &mut self,
        campaign: &str,
        error: &anyhow::Error,
        now: i64,
    ) -> anyhow::Result<Option<String>> {
        let note = format!("{error:#}");
        if self
            .store
            .control()
            .gm_log_last(campaign, "site")?
            .as_deref()
            == Some(note.as_str())
        {
            return Ok(None);
        }
        tracing::warn!(campaign = %campaign, "{note}");
        self.store
            .control_mut()
            .log_gm(Some(campaign), now, "site", &note, None)?;
        Ok(Some(note))
    }
}

/// How a failed build of `fingerprint` begins in the GM's log, so the same
/// failure is not tried and logged again every round.
fn failure(fingerprint: &str) -> String {
    format!("the public pages ({fingerprint}) could not be built")
}

#[cfg(test)]
mod tests {
    use crate::daemon::testing::{NOW, demo};

    #[test]
    fn no_pages_before_a_day_is_played() {
        let mut daemon = demo();
        let out = std::env::temp_dir().join(format!("realmgm-site-{}", std::process::id()));
        assert_eq!(daemon.site().refresh_site("DEMO", &out, NOW).unwrap(), None);
        assert!(!out.exists());
    }
}
