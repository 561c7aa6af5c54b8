//! The optional `[site]` table of a campaign file: what the
//! campaign's public pages show and when, and where the daemon rebuilds
//! them after each processed day.
//!
//! ```toml
//! [site]
//! publish = "delayed"   # "public" (the default), "delayed" or "end"
//! delay_days = 7        # with "delayed" only: how long a day's records wait
//! standings = false     # show the characters' standings before they are due
//! out = "/var/www/bimr3" # rebuilt after each processed day
//! url = "https://example.org/bimr3/" # where the pages are served, for the feed
//! ```

use serde::{Deserialize, Serialize};

/// What the public pages show, and when.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Publish {
    /// Only what every player learns: announcements, public events,
    /// deaths, the calendar (and the standings when the GM allows them).
    #[default]
    Public,
    /// A day's full records `delay_days` after it; what is public before.
    Delayed,
    /// Everything once the campaign ends; what is public before.
    End,
}

/// The `[site]` table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteSettings {
    #[serde(default)]
    pub publish: Publish,
    /// With `publish = "delayed"`: days between a day and its records.
    #[serde(default)]
    pub delay_days: Option<u32>,
    /// Show the characters' standings (fame, notoriety, gold, great
    /// treasures, spells) on days whose records are not yet published.
    #[serde(default)]
    pub standings: bool,
    /// The folder the daemon rebuilds the pages in after each processed day:
    /// relative to the database's folder and inside it, or absolute.
    #[serde(default)]
    pub out: Option<String>,
    /// The address the pages are served from, so the feed's links work in a
    /// feed reader; relative links without it.
    #[serde(default)]
    pub url: Option<String>,
}

/// The longest delay a campaign may set: a year of game days.
pub const MAX_DELAY_DAYS: u32 = 13 * 28;

impl SiteSettings {
    /// The settings with a relative `out` folder anchored at `base` (the
    /// database's folder, as the mail folders are).
    pub fn anchored_at(mut self, base: &std::path::Path) -> SiteSettings {
        if let Some(out) = &mut self.out
            && std::path::Path::new(out.as_str()).is_relative()
        {
            *out = base.join(out.as_str()).display().to_string();
        }
        self
    }

    /// The first problem with the table, as (field, message).
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let mut found = Vec::new();
        match (self.publish, self.delay_days) {
            (Publish::Delayed, None) => found.push((
                "delay_days",
                "publish = \"delayed\" needs delay_days, the days a day's records wait (e.g. 7)"
                    .to_string(),
            )),
            (Publish::Delayed, Some(days)) if days == 0 || days > MAX_DELAY_DAYS => found.push((
                "delay_days",
                format!("delay_days must be 1 to {MAX_DELAY_DAYS}; for no delay write publish = \"end\" or \"public\""),
            )),
            (Publish::Public | Publish::End, Some(_)) => found.push((
                "delay_days",
                "delay_days applies to publish = \"delayed\" only; remove it or publish \"delayed\""
                    .to_string(),
            )),
            _ => {}
        }
        if self.out.as_deref().is_some_and(|o| o.trim().is_empty()) {
            found.push((
                "out",
                "out is empty; name the folder the daemon writes the pages in, or remove the line"
                    .to_string(),
            ));
        }
        if let Some(problem) = self
            .out
            .as_deref()
            .and_then(super::leaves_the_database_folder)
        {
            found.push(("out", problem));
        }
        if let Some(url) = &self.url
            && !(url.starts_with("https://") || url.starts_with("http://"))
        {
            found.push((
                "url",
                format!("'{url}' is not a web address; write it as https://host/path/"),
            ));
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delayed_needs_a_delay_and_only_delayed_takes_one() {
        let mut site = SiteSettings {
            publish: Publish::Delayed,
            ..SiteSettings::default()
        };
        assert_eq!(site.problems()[0].0, "delay_days");
        site.delay_days = Some(0);
        assert!(site.problems()[0].1.contains("1 to"));
        site.delay_days = Some(7);
        assert!(site.problems().is_empty());
        site.publish = Publish::End;
        assert!(site.problems()[0].1.contains("delayed"));
    }

    #[test]
    fn an_empty_folder_and_a_bad_address_are_named() {
        let site = SiteSettings {
            out: Some(" ".into()),
            url: Some("example.org".into()),
            ..SiteSettings::default()
        };
        let fields: Vec<_> = site.problems().into_iter().map(|p| p.0).collect();
        assert_eq!(fields, ["out", "url"]);
    }
}
